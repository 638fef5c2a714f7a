//! `taut render` end to end: runs the built binary and reads its pictures back.
//!
//! - The SVG is well-formed XML whose path polyline has exactly the waypoints `taut path`
//!   prints for the same query, and whose trace layers draw exactly `expanded` nodes.
//! - The PNG decodes to the size [`Layout::fit`] promises, with the start, goal and path
//!   colours where the start, the goal and the middle of the first segment are.
//! - With `--mesh`, the SVG's `mesh` layer, drawn right over the map, has one segment per
//!   distinct polygon edge (for a mesh of the fixture map's cells, and for the reference
//!   arena meshes when the shared data is present), and the PNG shows it; a mesh beyond the
//!   map, missing or malformed is a one-line error.
//! - Every error is one line and the documented exit code.
//! - On the 512 × 512 benchmark maps (skipped loudly without the shared data) the files stay
//!   under stated bounds.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use taut::render::{Layout, palette};

use crate::common::{fails, ok};

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/maps")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// A fresh scratch directory for one test, removed when dropped.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(test: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("taut-render-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

/// The summary line: (status, length, waypoints, expanded, drawn, output).
fn summary(line: &str) -> (String, String, usize, u64, usize, String) {
    let w: Vec<&str> = line.trim_end().split(' ').collect();
    assert_eq!(w.len(), 12, "{line:?}");
    assert_eq!(
        (w[0], w[2], w[4], w[6], w[8], w[10]),
        (
            "status",
            "length",
            "waypoints",
            "expanded",
            "drawn",
            "output"
        ),
        "{line:?}"
    );
    (
        w[1].to_owned(),
        w[3].to_owned(),
        w[5].parse().unwrap(),
        w[7].parse().unwrap(),
        w[9].parse().unwrap(),
        w[11].to_owned(),
    )
}

/// `taut path --format json`: (waypoints, expanded).
fn planned(map: &str, algo: &str, from: &str, to: &str) -> (Vec<(i32, i32)>, u64) {
    let out = ok(&[
        "path", "--map", map, "--algo", algo, "--from", from, "--to", to, "--format", "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let pts = v["waypoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_i64().unwrap() as i32, p[1].as_i64().unwrap() as i32))
        .collect();
    (pts, v["expanded"].as_u64().unwrap())
}

/// Arena query 114 of the fixture scenario: five waypoints for Anya.
const FROM: &str = "39,6";
const TO: &str = "12,40";

#[test]
fn the_svg_draws_the_path_of_taut_path_and_every_expansion() {
    let dir = scratch("svg");
    let map = fixture("arena.map");
    for algo in ["anya", "astar", "theta"] {
        let out = dir.join(format!("{algo}.svg"));
        let o = out.to_str().unwrap();
        let line = ok(&[
            "render", "--map", &map, "--algo", algo, "--from", FROM, "--to", TO, "-o", o,
        ]);
        let (status, length, n, expanded, drawn, path) = summary(&line);
        assert_eq!(status, "ok", "{line}");
        let (waypoints, path_expanded) = planned(&map, algo, FROM, TO);
        // --format json: the same figures as one object, numbers as numbers.
        let json = ok(&[
            "render", "--map", &map, "--algo", algo, "--from", FROM, "--to", TO, "-o", o,
            "--format", "json",
        ]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["status"], "ok", "{json}");
        assert_eq!(v["length"].as_f64(), length.parse::<f64>().ok(), "{json}");
        assert_eq!(
            (
                v["waypoints"].as_u64(),
                v["expanded"].as_u64(),
                v["output"].as_str()
            ),
            (Some(n as u64), Some(expanded), Some(o)),
            "{json}"
        );
        assert_eq!(
            (n, expanded, path.as_str()),
            (waypoints.len(), path_expanded, o)
        );
        assert!(length.parse::<f64>().unwrap() > 40.0, "{line}");
        assert_eq!(
            drawn as u64, expanded,
            "under the default cap, all are drawn"
        );

        let text = std::fs::read_to_string(&out).unwrap();
        let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        let class = |n: &roxmltree::Node<'_, '_>, c: &str| n.attribute("class") == Some(c);
        let polylines: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("polyline") && class(n, "path"))
            .collect();
        assert_eq!(polylines.len(), 1, "{algo}");
        let points: Vec<(i32, i32)> = polylines[0]
            .attribute("points")
            .unwrap()
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        assert_eq!(points, waypoints, "{algo}");
        // Every expanded node is drawn by a `trace` layer: one segment (`M`) per interval or
        // parent line, one cell of a run `Mx yh{n}v1h-{n}z` per A* cell.
        let shapes: usize = doc
            .descendants()
            .filter(|n| n.has_tag_name("path") && class(n, "trace"))
            .map(|n| {
                let d = n.attribute("d").unwrap();
                if algo != "astar" {
                    return d.matches('M').count();
                }
                d.split('M')
                    .filter(|r| !r.is_empty())
                    .map(|r| {
                        let n = &r[r.find('h').unwrap() + 1..r.find('v').unwrap()];
                        n.parse::<usize>().unwrap()
                    })
                    .sum()
            })
            .sum();
        // Theta*'s start has no parent, so it draws no line.
        let expected = if algo == "theta" {
            expanded - 1
        } else {
            expanded
        };
        assert_eq!(shapes as u64, expected, "{algo}");
        // One turning-point dot per interior waypoint, and the start and goal marked.
        let turns = doc
            .descendants()
            .find(|n| class(n, "turns"))
            .map_or(0, |g| {
                g.children().filter(|c| c.has_tag_name("circle")).count()
            });
        assert_eq!(turns, waypoints.len() - 2, "{algo}");
        for (c, p) in [("start", FROM), ("goal", TO)] {
            let g = doc.descendants().find(|n| class(n, c)).unwrap();
            let circle = g.first_element_child().unwrap();
            let at = format!(
                "{},{}",
                circle.attribute("cx").unwrap(),
                circle.attribute("cy").unwrap()
            );
            assert_eq!(at, p, "{algo} {c}");
        }
        // The map is embedded as a PNG image; a caption names the planner.
        let image = doc.descendants().find(|n| n.has_tag_name("image")).unwrap();
        assert!(
            image
                .attribute("href")
                .unwrap()
                .starts_with("data:image/png;base64,")
        );
        let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
        assert!(title.text().unwrap().starts_with(algo), "{algo}");
    }
}

/// Decodes a PNG to (width, height, RGB rows).
fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut dec = png::Decoder::new(Cursor::new(bytes));
    dec.set_transformations(png::Transformations::EXPAND);
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
fn the_png_has_the_promised_size_and_the_marks_where_they_belong() {
    let dir = scratch("png");
    let map = fixture("arena.map");
    let out = dir.join("anya.png");
    let o = out.to_str().unwrap();
    let line = ok(&[
        "render", "--map", &map, "--algo", "anya", "--from", FROM, "--to", TO, "--max-px", "400",
        "-o", o,
    ]);
    let (_, _, _, expanded, drawn, _) = summary(&line);
    assert_eq!(drawn as u64, expanded);
    let (w, h, rgb) = decode(&std::fs::read(&out).unwrap());
    let layout = Layout::fit(49, 49, 400, None).unwrap();
    assert_eq!((layout.scale, w, h), (8.0, 404, 404));
    assert_eq!((w, h), (layout.width, layout.height));
    let pixel = |(x, y): (f64, f64)| {
        let (px, py) = layout.px((x, y));
        let i = (py as usize * w as usize + px as usize) * 3;
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    };
    let (waypoints, _) = planned(&map, "anya", FROM, TO);
    let p = |i: usize| (f64::from(waypoints[i].0), f64::from(waypoints[i].1));
    assert_eq!(pixel(p(0)), palette::START.rgb);
    assert_eq!(pixel(p(waypoints.len() - 1)), palette::GOAL.rgb);
    let mid = ((p(0).0 + p(1).0) / 2.0, (p(0).1 + p(1).1) / 2.0);
    assert_eq!(pixel(mid), palette::PATH.rgb);
    // The margin is blocked, the top-left corner of the map is free.
    assert_eq!(pixel((-0.5, -0.5)), palette::BLOCKED.rgb);
    assert_eq!(&rgb[..3], palette::BLOCKED.rgb);

    // --scale overrides --max-px; a scale below 1 downsamples (2 x 2 cells per pixel).
    for (scale, side) in [("3", 49 * 3 + 12), ("0.5", 25 + 12)] {
        ok(&[
            "render", "--map", &map, "--from", FROM, "--to", TO, "--scale", scale, "-o", o,
        ]);
        let (w, h, _) = decode(&std::fs::read(&out).unwrap());
        assert_eq!((w, h), (side, side), "--scale {scale}");
    }
}

#[test]
fn the_svg_map_image_is_downsampled_like_the_png() {
    let dir = scratch("svg-scale");
    let out = dir.join("half.svg");
    let o = out.to_str().unwrap();
    let map = fixture("arena.map");
    ok(&[
        "render", "--map", &map, "--from", FROM, "--to", TO, "--scale", "0.5", "-o", o,
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let image = doc.descendants().find(|n| n.has_tag_name("image")).unwrap();
    // 49 cells in 25 pixels of 2 x 2 cells: the image spans 50 map units.
    assert_eq!(image.attribute("width"), Some("50"));
    let b64 = &image.attribute("href").unwrap()["data:image/png;base64,".len()..];
    let png = decode_base64(b64);
    let (w, h, _) = decode(&png);
    assert_eq!((w, h), (25, 25));
}

/// Standard base64 with padding (the test's own, independent of the renderer's encoder).
fn decode_base64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let mut out = Vec::new();
    for chunk in s.as_bytes().chunks(4) {
        let pad = chunk.iter().filter(|&&c| c == b'=').count();
        let n = chunk
            .iter()
            .map(|&c| if c == b'=' { 0 } else { val(c) })
            .fold(0u32, |acc, v| acc << 6 | v);
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    out
}

#[test]
fn queries_come_from_a_scenario_too_and_unreachable_goals_are_drawn() {
    let dir = scratch("scen");
    let out = dir.join("q.svg");
    let o = out.to_str().unwrap();
    let (map, scen) = (fixture("arena.map"), fixture("arena.map.scen"));
    let by_scen = ok(&[
        "render", "--map", &map, "--algo", "anya", "--scen", &scen, "--index", "114", "-o", o,
    ]);
    let by_points = ok(&[
        "render", "--map", &map, "--algo", "anya", "--from", FROM, "--to", TO, "-o", o,
    ]);
    assert_eq!(by_scen, by_points);

    // small-edge.scen query 5 is walled in: no path, the search is drawn, exit 0.
    let line = ok(&[
        "render",
        "--map",
        &fixture("small.map"),
        "--algo",
        "anya",
        "--scen",
        &fixture("small-edge.scen"),
        "--index",
        "5",
        "-o",
        o,
    ]);
    let (status, length, n, expanded, drawn, _) = summary(&line);
    assert_eq!(
        (status.as_str(), length.as_str(), n),
        ("unreachable", "inf", 0)
    );
    assert_eq!(drawn as u64, expanded);
    let text = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert!(!doc.descendants().any(|n| n.has_tag_name("polyline")));
    assert!(text.contains("unreachable"));

    // --max-trace caps what is drawn, not what is counted.
    let line = ok(&[
        "render",
        "--map",
        &map,
        "--algo",
        "astar",
        "--from",
        FROM,
        "--to",
        TO,
        "--max-trace",
        "10",
        "-o",
        o,
    ]);
    let (_, _, _, expanded, drawn, _) = summary(&line);
    assert!(expanded > 10 && drawn == 10, "{line}");
}

#[test]
fn errors_are_one_line_with_the_documented_exit_code() {
    let dir = scratch("errors");
    let map = fixture("arena.map");
    let scen = fixture("arena.map.scen");
    let png = dir.join("x.png");
    let o = png.to_str().unwrap();
    let q = ["--from", FROM, "--to", TO];
    let render = |extra: &[&str]| -> Vec<String> {
        ["render", "--map", &map]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    let run = |args: Vec<String>, code: i32| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(&a, code)
    };
    // Usage errors (exit 2), before any file is read.
    let e = run(render(&[&q[..], &["-o", "x.jpg"]].concat()), 2);
    assert!(e.contains("does not end in .svg or .png"), "{e}");
    let e = run(render(&[&q[..], &["-o", "noext"]].concat()), 2);
    assert!(e.contains(".svg or .png"), "{e}");
    let e = run(render(&["-o", o]), 2);
    assert!(e.contains("--from") || e.contains("--scen"), "{e}");
    run(render(&["--from", FROM, "-o", o]), 2);
    run(render(&["--scen", &scen, "-o", o]), 2);
    run(
        render(&[&q[..], &["--scen", &scen, "--index", "1", "-o", o]].concat()),
        2,
    );
    run(render(&[&q[..], &["--scale", "0", "-o", o]].concat()), 2);
    run(render(&[&q[..], &["--scale", "nan", "-o", o]].concat()), 2);
    run(render(&[&q[..], &["--max-px", "0", "-o", o]].concat()), 2);
    run(render(&q), 2);
    // Failures (exit 1), and no file is left behind.
    let e = run(render(&["--from", "0,0", "--to", TO, "-o", o]), 1);
    assert!(e.starts_with("taut: invalid query:"), "{e}");
    let e = run(render(&["--from", FROM, "--to", "49,3", "-o", o]), 1);
    assert!(e.starts_with("taut: invalid query:"), "{e}");
    let e = run(render(&["--scen", &scen, "--index", "130", "-o", o]), 1);
    assert!(e.contains("has 130 queries: there is no query 130"), "{e}");
    let bad_dir = dir.join("missing").join("x.svg");
    let e = run(
        render(&[&q[..], &["-o", bad_dir.to_str().unwrap()]].concat()),
        1,
    );
    assert!(
        e.starts_with("taut: cannot write ") && e.contains("missing"),
        "{e}"
    );
    let e = run(render(&[&q[..], &["--scale", "1000", "-o", o]].concat()), 1);
    assert!(e.contains("pixels"), "{e}");
    assert!(!png.exists());
    let e = fails(
        &[
            "render", "--map", "nope.map", "--from", FROM, "--to", TO, "-o", o,
        ],
        1,
    );
    assert!(e.contains("nope.map"), "{e}");
}

/// Renders one query of a shared-data map in both formats at `--max-px 1024` with the
/// `extra` options; returns (PNG bytes, SVG bytes).
fn render_shared(
    data: &Path,
    (map, index, algo): (&str, &str, &str),
    extra: &[&str],
    dir: &Path,
) -> (u64, u64) {
    let m = data.join("grid/maps").join(map);
    let s = data.join("grid/scen").join(format!("{map}.scen"));
    let mut sizes = [0; 2];
    for (i, ext) in ["png", "svg"].iter().enumerate() {
        let out = dir.join(format!("{map}-{algo}.{ext}"));
        let mut args = vec![
            "render",
            "--map",
            m.to_str().unwrap(),
            "--scen",
            s.to_str().unwrap(),
            "--index",
            index,
            "--algo",
            algo,
            "--max-px",
            "1024",
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let line = ok(&args);
        sizes[i] = std::fs::metadata(&out).unwrap().len();
        eprintln!("{}: {} bytes", line.trim_end(), sizes[i]);
    }
    (sizes[0], sizes[1])
}

#[test]
fn pictures_of_512_maps_stay_small() {
    let Some(data) = taut_testdata::shared_data("render size bounds") else {
        return;
    };
    let dir = scratch("sizes");
    // The queries of docs/render.md: a long Baldur's Gate path (1,804 expansions) and a long
    // path on a 25 % random map (24,301 expansions, all drawn under the default cap).
    let (png, svg) = render_shared(&data, ("AR0011SR.map", "2179", "anya"), &[], &dir);
    assert!(
        png < 150_000 && svg < 300_000,
        "bg512: png {png}, svg {svg}"
    );
    let (png, svg) = render_shared(&data, ("random512-25-0.map", "1349", "anya"), &[], &dir);
    assert!(
        png < 200_000 && svg < 2_000_000,
        "random: png {png}, svg {svg}"
    );
    // A* expands every cell it reaches: 87,699 here, all drawn; merged into row runs they
    // cost little.
    let astar = ("AR0011SR.map", "2179", "astar");
    let (png, svg) = render_shared(&data, astar, &["--max-trace", "100000"], &dir);
    assert!(
        png < 50_000 && svg < 150_000,
        "bg512 astar: png {png}, svg {svg}"
    );
}

/// The measurement behind the SVG's map encoding (docs/render.md): the map as an embedded
/// 1-bit PNG (base64) against run-length rectangles merged down rows, in bytes. Run with
/// `cargo test --release -p taut-cli --test render -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn measure_svg_map_encodings() {
    use taut::grid::{FreeSet, Grid, MapFile};
    use taut::render::svg::{base64_into, blocked_rects_path, map_png};
    let Some(data) = taut_testdata::shared_data("svg map encodings") else {
        return;
    };
    for name in [
        "AR0011SR.map",
        "random512-25-0.map",
        "Boston_0_512.map",
        "TheFrozenSea.map",
        "ost100d.map",
    ] {
        let path = data.join("grid/maps").join(name);
        let Ok(map) = MapFile::read(&path) else {
            eprintln!("{name}: absent");
            continue;
        };
        let grid = Grid::from_map(&map, &FreeSet::default());
        let mut b64 = String::new();
        base64_into(&map_png(&grid, 1), &mut b64);
        let rects = blocked_rects_path(&grid);
        eprintln!(
            "{name} {}x{}: image {} bytes, rectangles {} bytes",
            grid.width(),
            grid.height(),
            b64.len(),
            rects.len()
        );
    }
}

/// A mesh of the free cells of `map` (two triangles per cell, split along the diagonal from
/// the top-left corner), written to `path`; returns the number of distinct edges, counted
/// independently of the renderer.
fn write_cell_mesh(map: &str, path: &Path) -> usize {
    use std::collections::HashSet;
    use taut::grid::{FreeSet, Grid, MapFile};
    use taut::mesh::write_mesh;
    let grid = Grid::from_map(&MapFile::read(map).unwrap(), &FreeSet::default());
    let mesh = taut_testdata::cell_triangle_mesh(&grid).unwrap();
    let edges: HashSet<(u32, u32)> = (0..mesh.polygon_count() as u32)
        .flat_map(|p| {
            let vs = mesh.poly_vertices(p);
            (0..vs.len()).map(move |i| {
                let (u, v) = (vs[i], vs[(i + 1) % vs.len()]);
                (u.min(v), u.max(v))
            })
        })
        .collect();
    write_mesh(&mesh, path).unwrap();
    edges.len()
}

/// The segments of the SVG's `mesh` layer, as (x0, y0, x1, y1) in map units.
fn svg_mesh_segments(text: &str) -> Vec<[f64; 4]> {
    let doc = roxmltree::Document::parse(text).expect("well-formed SVG");
    let layers: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("mesh"))
        .collect();
    assert_eq!(layers.len(), 1);
    assert!(layers[0].has_tag_name("path"));
    // Drawn over the map and under everything else: the first layer after the map image.
    let after_map = doc
        .descendants()
        .skip_while(|n| !n.has_tag_name("image"))
        .find(|n| n.is_element() && n.attribute("class") != Some("map"));
    assert_eq!(after_map.and_then(|n| n.attribute("class")), Some("mesh"));
    // `Mx yLx y` or `Mx yHx` per segment (see svg.rs).
    let d = layers[0].attribute("d").unwrap();
    d.split('M')
        .filter(|s| !s.is_empty())
        .map(|s| {
            let (a, b) = s.split_once(['L', 'H']).unwrap();
            let a: Vec<f64> = a.split(' ').map(|t| t.parse().unwrap()).collect();
            let b: Vec<f64> = b.split(' ').map(|t| t.parse().unwrap()).collect();
            let (bx, by) = if b.len() == 2 {
                (b[0], b[1])
            } else {
                (b[0], a[1])
            };
            [a[0], a[1], bx, by]
        })
        .collect()
}

#[test]
fn the_mesh_is_drawn_over_the_map_in_both_formats() {
    let dir = scratch("mesh");
    let map = fixture("arena.map");
    let mesh = dir.join("arena-cells.mesh");
    let edges = write_cell_mesh(&map, &mesh);
    let m = mesh.to_str().unwrap();
    let svg = dir.join("m.svg");
    let line = ok(&[
        "render",
        "--map",
        &map,
        "--algo",
        "anya",
        "--from",
        FROM,
        "--to",
        TO,
        "--mesh",
        m,
        "-o",
        svg.to_str().unwrap(),
    ]);
    // The summary line is the same as without --mesh.
    let plain = dir.join("plain.svg");
    let without = ok(&[
        "render",
        "--map",
        &map,
        "--algo",
        "anya",
        "--from",
        FROM,
        "--to",
        TO,
        "-o",
        plain.to_str().unwrap(),
    ]);
    assert_eq!(summary(&line).3, summary(&without).3);
    let text = std::fs::read_to_string(&svg).unwrap();
    let segs = svg_mesh_segments(&text);
    assert_eq!(segs.len(), edges, "one line per distinct edge");
    // In lattice coordinates on the map: unit sides and unit diagonals.
    for s in &segs {
        assert!(
            s.iter()
                .all(|&c| c == c.trunc() && (0.0..=49.0).contains(&c)),
            "{s:?}"
        );
        let (dx, dy) = ((s[2] - s[0]).abs(), (s[3] - s[1]).abs());
        assert!(
            matches!((dx, dy), (1.0, 0.0) | (0.0, 1.0) | (1.0, 1.0)),
            "{s:?}"
        );
    }
    assert!(text.contains("mesh edges"), "the legend names the mesh");
    let plain_text = std::fs::read_to_string(&plain).unwrap();
    assert!(!plain_text.contains("class=\"mesh\"") && !plain_text.contains("mesh edges"));

    // PNG, without the trace: a cell diagonal far from the path is drawn in the mesh's
    // colour (blended), and is the free colour without --mesh.
    let png = dir.join("m.png");
    let p = png.to_str().unwrap();
    let common = [
        "render",
        "--map",
        &map,
        "--from",
        FROM,
        "--to",
        TO,
        "--max-px",
        "400",
        "--max-trace",
        "0",
        "-o",
        p,
    ];
    ok(&[&common[..], &["--mesh", m]].concat());
    let (w, h, with_mesh) = decode(&std::fs::read(&png).unwrap());
    ok(&common);
    let (_, _, without_mesh) = decode(&std::fs::read(&png).unwrap());
    let layout = Layout::fit(49, 49, 400, None).unwrap();
    assert_eq!((w, h), (layout.width, layout.height));
    let pixel = |rgb: &[u8], (x, y): (f64, f64)| {
        let (px, py) = layout.px((x, y));
        let i = (py as usize * w as usize + px as usize) * 3;
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    };
    // Cell (40, 40) is free, far from the path (39,6)-(12,40): its diagonal's midpoint, and a
    // point inside its lower triangle away from every edge.
    let mid = (40.5, 40.5);
    let inside = (40.8, 40.3);
    assert_eq!(pixel(&without_mesh, mid), palette::FREE.rgb);
    assert_ne!(pixel(&with_mesh, mid), palette::FREE.rgb);
    let c = pixel(&with_mesh, mid);
    assert!(c[2] > c[0], "bluish: {c:?}");
    assert_eq!(pixel(&with_mesh, inside), palette::FREE.rgb);
    assert_ne!(with_mesh, without_mesh);
}

#[test]
fn a_mesh_that_does_not_fit_the_map_is_one_line_error() {
    let dir = scratch("mesh-errors");
    let map = fixture("arena.map");
    let out = dir.join("x.svg");
    let o = out.to_str().unwrap();
    let args = |mesh: &str| -> Vec<String> {
        [
            "render", "--map", &map, "--from", FROM, "--to", TO, "--mesh", mesh, "-o", o,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let run = |mesh: &Path| {
        let a = args(mesh.to_str().unwrap());
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        fails(&a, 1)
    };
    // Arena's mesh (49 x 49) over the small map (8 x 6).
    let big = dir.join("arena.mesh");
    write_cell_mesh(&map, &big);
    let small = fixture("small.map");
    let a: Vec<String> = [
        "render", "--map", &small, "--from", "0,0", "--to", "5,0", "--mesh",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([big.to_str().unwrap().to_owned(), "-o".into(), o.into()])
    .collect();
    let e = fails(&a.iter().map(String::as_str).collect::<Vec<_>>(), 1);
    assert!(
        e.contains("arena.mesh spans (1, 1) to (48, 48), beyond the 8 x 6 map"),
        "{e}"
    );
    // A mesh shifted off the map by one unit.
    let shifted = dir.join("shifted.mesh");
    let text = "mesh 2 3 1  -1 0 2 0 -1  1 0 2 0 -1  0 1 2 0 -1  3 0 1 2 -1 -1 -1";
    std::fs::write(&shifted, text).unwrap();
    let e = run(&shifted);
    assert!(e.contains("shifted.mesh spans (-1, 0) to (1, 1)"), "{e}");
    // Missing, and malformed (named with the line).
    let e = run(&dir.join("none.mesh"));
    assert!(e.contains("none.mesh"), "{e}");
    let bad = dir.join("bad.mesh");
    std::fs::write(&bad, "mesh\n2\n3 1\n0 0 1 0\n1 x 1 0\n").unwrap();
    let e = run(&bad);
    assert!(e.contains("bad.mesh") && e.contains("line 5"), "{e}");
    assert!(!out.exists(), "no picture is written");
}

#[test]
fn the_reference_arena_meshes_are_drawn_over_their_map() {
    let Some(data) = taut_testdata::shared_data("render --mesh reference arena") else {
        return;
    };
    let dir = scratch("mesh-reference");
    let reference = data.join("mesh/reference");
    let map = reference.join("arena.map");
    for name in ["arena.mesh", "arena-merged.mesh"] {
        let path = reference.join(name);
        let mesh = taut::mesh::read_mesh(&path).unwrap();
        let mut edges = std::collections::HashSet::new();
        for p in 0..mesh.polygon_count() as u32 {
            let vs = mesh.poly_vertices(p);
            for i in 0..vs.len() {
                let (u, v) = (vs[i], vs[(i + 1) % vs.len()]);
                edges.insert((u.min(v), u.max(v)));
            }
        }
        let out = dir.join(format!("{name}.svg"));
        ok(&[
            "render",
            "--map",
            map.to_str().unwrap(),
            "--from",
            FROM,
            "--to",
            TO,
            "--mesh",
            path.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        let segs = svg_mesh_segments(&std::fs::read_to_string(&out).unwrap());
        assert_eq!(segs.len(), edges.len(), "{name}");
    }
}
