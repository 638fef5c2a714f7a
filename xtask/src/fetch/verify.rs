//! Checks a file must pass before it is imported. MovingAI publishes no checksums, so the
//! contents are checked instead: maps and scenarios with taut-grid's parsers, scenarios
//! against the maps of their set, navigation meshes for the structure of the "mesh 2"
//! format and against their map, the reference-optima tables for shape.
//!
//! Every check returns a one-line reason on failure; the caller names the file.

use std::collections::HashMap;

use taut::grid::{GridError, MapFile, Scenario};

use super::sets::Set;
use super::sources::mesh_map_name;

/// Width and height of a verified map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapSize {
    /// Width in cells.
    pub width: u32,
    /// Height in cells.
    pub height: u32,
}

/// What is known of a map name within one set, for checking the set's scenarios.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapState {
    /// A copy passed verification (and is imported).
    Valid(MapSize),
    /// Every copy failed verification.
    Rejected,
}

/// The maps of one set by file name (`arena.map`).
pub type MapIndex = HashMap<String, MapState>;

/// The reason of a parse error, without the `<input>` location the parser gives in-memory text.
fn reason(e: &GridError) -> String {
    match e {
        GridError::Parse { location, kind } if location.line > 0 => {
            format!("line {}: {kind}", location.line)
        }
        GridError::Parse { kind, .. } => kind.to_string(),
        GridError::Io { .. } => e.to_string(),
    }
}

/// Checks a `.map` file: header, size, rows, alphabet (taut-grid's [`MapFile::parse`]).
pub fn verify_map(bytes: &[u8]) -> Result<MapSize, String> {
    let map = MapFile::parse(bytes).map_err(|e| reason(&e))?;
    Ok(MapSize {
        width: map.width(),
        height: map.height(),
    })
}

/// Checks a `.scen` file of `set`: it parses (taut-grid's [`Scenario::parse`], which also
/// checks that every coordinate lies inside the width and height the line declares), has at
/// least one query, and every query names (by base name) a map of `maps` that passed
/// verification, with that map's exact width and height. Together these put every query
/// inside its map. Returns the number of queries.
pub fn verify_scen(bytes: &[u8], set: Set, maps: &MapIndex) -> Result<usize, String> {
    let scen = Scenario::parse(bytes).map_err(|e| reason(&e))?;
    if scen.entries.is_empty() {
        return Err("no queries".into());
    }
    for e in &scen.entries {
        let name = e.map_base_name();
        match maps.get(name) {
            None => {
                return Err(format!(
                    "line {}: names map {name:?}, which is not in set {set}",
                    e.line
                ));
            }
            Some(MapState::Rejected) => {
                return Err(format!("line {}: its map {name:?} was rejected", e.line));
            }
            Some(MapState::Valid(size)) => {
                if (e.width, e.height) != (size.width, size.height) {
                    return Err(format!(
                        "line {}: declares {}x{} but {name} is {}x{}",
                        e.line, e.width, e.height, size.width, size.height
                    ));
                }
            }
        }
    }
    Ok(scen.entries.len())
}

/// Sizes of a verified navigation mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeshCounts {
    /// Number of vertices.
    pub vertices: usize,
    /// Number of polygons.
    pub polygons: usize,
}

/// Whitespace-separated tokens of a byte text, with the line each starts on.
struct Tokens<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Tokens<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Tokens {
            bytes,
            pos: 0,
            line: 1,
        }
    }

    fn next(&mut self) -> Option<(&'a [u8], usize)> {
        let b = self.bytes;
        while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
            if b[self.pos] == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        if self.pos == b.len() {
            return None;
        }
        let start = self.pos;
        while self.pos < b.len() && !b[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        Some((&b[start..self.pos], self.line))
    }

    /// The next token as a `T`: a missing token is a truncated file. `what` names what was
    /// expected, for either message (a function, so that nothing is formatted unless needed).
    fn parse<T: std::str::FromStr>(
        &mut self,
        what: impl Fn() -> String,
    ) -> Result<(T, usize), String> {
        let Some((tok, line)) = self.next() else {
            return Err(format!("truncated: ends where {} was expected", what()));
        };
        std::str::from_utf8(tok)
            .ok()
            .and_then(|t| t.parse().ok())
            .map(|v| (v, line))
            .ok_or_else(|| {
                let found: String = String::from_utf8_lossy(tok).chars().take(40).collect();
                format!("line {line}: expected {}, found {found:?}", what())
            })
    }

    /// The next token as an index in `lo..hi`.
    fn index(&mut self, what: impl Fn() -> String, lo: i64, hi: usize) -> Result<(), String> {
        let (v, line) = self.parse::<i64>(&what)?;
        if v < lo || v >= hi as i64 {
            return Err(format!(
                "line {line}: {} {v} is out of range {lo}..{hi}",
                what()
            ));
        }
        Ok(())
    }
}

/// Checks a navigation mesh `name` (`<map>-merged.mesh` or `<map>.mesh`) of `set`: it starts
/// with the tokens `mesh 2`, its map `<map>.map` passed verification in the set, and the
/// rest has the structure of the "mesh 2" format: the vertex and polygon counts, then every
/// vertex (`x y n` and `n` polygon indices, -1 for none) and every polygon (`n` of at least
/// 3, `n` vertex indices, `n` polygon indices), every index in range, every vertex inside
/// the map (`0 ≤ x ≤ width`, `0 ≤ y ≤ height`), and nothing after the last polygon. A file
/// cut short fails on the counts. The geometry (convexity, symmetric adjacency) is left to
/// the mesh reader that loads it.
pub fn verify_mesh(
    bytes: &[u8],
    name: &str,
    set: Set,
    maps: &MapIndex,
) -> Result<MeshCounts, String> {
    let mut t = Tokens::new(bytes);
    let head: Vec<&[u8]> = (0..2)
        .filter_map(|_| t.next().map(|(tok, _)| tok))
        .collect();
    if head != [b"mesh".as_slice(), b"2"] {
        let found = if head.is_empty() {
            "an empty file".to_owned()
        } else {
            let joined = head.join(&b' ');
            let text: String = String::from_utf8_lossy(&joined).chars().take(40).collect();
            format!("{text:?}")
        };
        return Err(format!(
            "not a navigation mesh: does not start with the tokens `mesh 2` (found {found})"
        ));
    }
    let map = mesh_map_name(name).ok_or_else(|| "not a .mesh file name".to_owned())?;
    let size = match maps.get(&map) {
        None => {
            return Err(format!("orphan mesh: its map {map:?} is not in set {set}"));
        }
        Some(MapState::Rejected) => return Err(format!("its map {map:?} was rejected")),
        Some(MapState::Valid(size)) => *size,
    };
    // Every record takes at least two bytes per token: bound the counts by the length.
    let limit = bytes.len() / 2 + 1;
    let count = |t: &mut Tokens<'_>, what: &dyn Fn() -> String| -> Result<usize, String> {
        let (n, line) = t.parse::<usize>(what)?;
        if n > limit {
            return Err(format!(
                "line {line}: {} {n} is larger than the file could hold",
                what()
            ));
        }
        Ok(n)
    };
    let vertices = count(&mut t, &|| "the vertex count".into())?;
    let polygons = count(&mut t, &|| "the polygon count".into())?;
    let (w, h) = (f64::from(size.width), f64::from(size.height));
    for v in 0..vertices {
        let (x, line) = t.parse::<f64>(|| format!("the x coordinate of vertex {v}"))?;
        let (y, _) = t.parse::<f64>(|| format!("the y coordinate of vertex {v}"))?;
        if !((0.0..=w).contains(&x) && (0.0..=h).contains(&y)) {
            return Err(format!(
                "line {line}: vertex {v} at ({x}, {y}) lies outside {map} ({}x{})",
                size.width, size.height
            ));
        }
        let n = count(&mut t, &|| format!("the polygon count of vertex {v}"))?;
        for _ in 0..n {
            t.index(|| format!("a polygon index of vertex {v}"), -1, polygons)?;
        }
    }
    for p in 0..polygons {
        let (n, line) = t.parse::<usize>(|| format!("the vertex count of polygon {p}"))?;
        if !(3..=limit).contains(&n) {
            return Err(format!(
                "line {line}: polygon {p} has {n} vertices (at least 3 expected)"
            ));
        }
        for _ in 0..n {
            t.index(|| format!("a vertex index of polygon {p}"), 0, vertices)?;
        }
        for _ in 0..n {
            t.index(|| format!("a neighbour of polygon {p}"), -1, polygons)?;
        }
    }
    if let Some((_, line)) = t.next() {
        return Err(format!("line {line}: data after the last polygon"));
    }
    Ok(MeshCounts { vertices, polygons })
}

/// Checks a reference-optima table (`optimal/scen.csv`, `optimal/scen-legacy.csv`): text whose
/// header starts with `map,idx,`, at least one row, every row with the header's number of
/// fields, and a final line end (a file cut off mid-row fails one of these). Returns the
/// number of rows.
pub fn verify_optimal(bytes: &[u8]) -> Result<usize, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "not valid text (UTF-8)".to_owned())?;
    if !text.ends_with('\n') {
        return Err("does not end with a line end (truncated?)".into());
    }
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let header = lines.next().map_or("", |(_, l)| l);
    if !header.starts_with("map,idx,") {
        return Err(format!(
            "line 1: expected a header starting with \"map,idx,\", found {:?}",
            header.chars().take(40).collect::<String>()
        ));
    }
    let fields = header.split(',').count();
    let mut rows = 0;
    for (n, line) in lines {
        if line.is_empty() {
            continue;
        }
        let found = line.split(',').count();
        if found != fields {
            return Err(format!("line {n}: {found} fields, the header has {fields}"));
        }
        rows += 1;
    }
    if rows == 0 {
        return Err("no rows".into());
    }
    Ok(rows)
}

/// Whether two scenario files hold the same lines in another order (with the same header).
pub fn same_lines(a: &[u8], b: &[u8]) -> bool {
    fn sorted(t: &[u8]) -> (Option<&[u8]>, Vec<&[u8]>) {
        let mut lines = t
            .split(|&c| c == b'\n')
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
            .filter(|l| !l.is_empty());
        let head = lines.next();
        let mut rest: Vec<&[u8]> = lines.collect();
        rest.sort_unstable();
        (head, rest)
    }
    sorted(a) == sorted(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &[u8] = b"type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n";

    fn index() -> MapIndex {
        let mut m = MapIndex::new();
        m.insert("m.map".into(), MapState::Valid(verify_map(MAP).unwrap()));
        m.insert("bad.map".into(), MapState::Rejected);
        m
    }

    #[test]
    fn maps() {
        assert_eq!(
            verify_map(MAP),
            Ok(MapSize {
                width: 3,
                height: 2
            })
        );
        let truncated = &MAP[..MAP.len() - 4];
        assert!(verify_map(truncated).unwrap_err().starts_with("line 6:"));
        let bad_byte = b"type octile\nheight 2\nwidth 3\nmap\n...\n.X.\n";
        let e = verify_map(bad_byte).unwrap_err();
        assert!(e.contains("line 6") && e.contains("'X'"), "{e}");
        assert_eq!(verify_map(b"").unwrap_err(), "empty file");
    }

    #[test]
    fn scenarios() {
        let ok = b"version 1\n0\tm.map\t3\t2\t0\t0\t2\t1\t2.4\n";
        assert_eq!(verify_scen(ok, Set::Dao, &index()), Ok(1));
        let legacy = b"version 1.0\n0 maps/dao/m.map 3 2 0 0 2 1 2.41\n";
        assert_eq!(verify_scen(legacy, Set::Dao, &index()), Ok(1));
        let cases: [(&[u8], &str); 6] = [
            (
                b"version 1\n0\tx.map\t3\t2\t0\t0\t2\t1\t2.4\n",
                "not in set dao",
            ),
            (
                b"version 1\n0\tbad.map\t3\t2\t0\t0\t2\t1\t2.4\n",
                "was rejected",
            ),
            (
                b"version 1\n0\tm.map\t4\t2\t0\t0\t3\t1\t2.4\n",
                "declares 4x2 but m.map is 3x2",
            ),
            (
                b"version 1\n0\tm.map\t3\t2\t0\t0\t3\t1\t2.4\n",
                "goal_x = 3 is out of range",
            ),
            (b"version 1\n", "no queries"),
            (b"version 1\n0\tm.map\t3\t2\t0\t0\t2\n", "expected 9 fields"),
        ];
        for (text, want) in cases {
            let e = verify_scen(text, Set::Dao, &index()).unwrap_err();
            assert!(e.contains(want), "{e:?} should contain {want:?}");
        }
    }

    /// A mesh of the 3x2 map `m.map`: one rectangle over the whole map.
    const MESH: &str = "mesh\n2\n4 1\n0 0 1 0\n3 0 1 0\n3 2 1 0\n0 2 1 0\n4 0 1 2 3 -1 -1 -1 -1\n";

    #[test]
    fn meshes() {
        let counts = MeshCounts {
            vertices: 4,
            polygons: 1,
        };
        let ok = |name: &str, text: &str| verify_mesh(text.as_bytes(), name, Set::Dao, &index());
        assert_eq!(ok("m-merged.mesh", MESH), Ok(counts));
        assert_eq!(ok("m.mesh", MESH), Ok(counts));
        // Any whitespace separates tokens.
        assert_eq!(ok("m.mesh", &MESH.replace('\n', " \r\n\t")), Ok(counts));
        let cut = &MESH[..MESH.len() - 4];
        let cases: Vec<(&str, String, &str)> = vec![
            ("m.mesh", String::new(), "(found an empty file)"),
            (
                "m.mesh",
                "<html>".into(),
                "does not start with the tokens `mesh 2`",
            ),
            ("m.mesh", MESH.replacen('2', "3", 1), "(found \"mesh 3\")"),
            (
                "x-merged.mesh",
                MESH.into(),
                "orphan mesh: its map \"x.map\" is not in set dao",
            ),
            (
                "bad-merged.mesh",
                MESH.into(),
                "its map \"bad.map\" was rejected",
            ),
            (
                "m.mesh",
                cut.into(),
                "truncated: ends where a neighbour of polygon 0",
            ),
            (
                "m.mesh",
                "mesh 2 4".into(),
                "truncated: ends where the polygon count",
            ),
            (
                "m.mesh",
                MESH.replace("4 1\n", "4 x\n"),
                "line 3: expected the polygon count, found \"x\"",
            ),
            (
                "m.mesh",
                MESH.replace("4 1\n", "4 99999\n"),
                "larger than the file could hold",
            ),
            (
                "m.mesh",
                MESH.replace("3 2 1 0", "4 2 1 0"),
                "line 6: vertex 2 at (4, 2) lies outside m.map (3x2)",
            ),
            (
                "m.mesh",
                MESH.replace("0 0 1 0", "NaN 0 1 0"),
                "vertex 0 at (NaN, 0) lies outside",
            ),
            (
                "m.mesh",
                MESH.replace("3 0 1 0", "3 0 1 1"),
                "a polygon index of vertex 1 1 is out of range -1..1",
            ),
            (
                "m.mesh",
                MESH.replace("4 0 1 2 3", "4 0 1 2 4"),
                "a vertex index of polygon 0 4 is out of range 0..4",
            ),
            (
                "m.mesh",
                MESH.replace("-1 -1 -1 -1", "-1 -2 -1 -1"),
                "a neighbour of polygon 0 -2 is out of range",
            ),
            (
                "m.mesh",
                MESH.replace("4 0 1 2 3 -1 -1 -1 -1", "2 0 1 -1 -1"),
                "polygon 0 has 2 vertices",
            ),
            (
                "m.mesh",
                format!("{MESH}7\n"),
                "line 9: data after the last polygon",
            ),
        ];
        for (name, text, want) in cases {
            let e = ok(name, &text).unwrap_err();
            assert!(
                e.contains(want),
                "{name} {text:?}: {e:?} should contain {want:?}"
            );
        }
    }

    #[test]
    fn optimal_tables() {
        let ok = b"map,idx,len\narena,0,1.5\narena,1,2\n";
        assert_eq!(verify_optimal(ok), Ok(2));
        assert!(verify_optimal(&ok[..ok.len() - 3]).is_err());
        assert!(verify_optimal(b"map,idx,len\narena,0\n").is_err());
        assert!(verify_optimal(b"x,y\n1,2\n").is_err());
        assert!(verify_optimal(b"map,idx,len\n").is_err());
        assert!(verify_optimal(b"map,idx,len\n\xff,0,1\n").is_err());
    }

    #[test]
    fn line_permutations() {
        assert!(same_lines(b"version 1\na\nb\n", b"version 1\r\nb\r\na"));
        assert!(!same_lines(b"version 1\na\nb\n", b"version 1\na\nc\n"));
        assert!(!same_lines(b"version 1\na\n", b"a\nversion 1\n"));
    }
}
