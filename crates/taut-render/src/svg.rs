//! SVG output: vector overlays over the map, which is embedded as a 1-bit PNG image.
//!
//! User units are map units (the `viewBox` starts at minus the margin), so the path
//! polyline's points are exactly the waypoints, and a viewer can zoom without the overlays
//! blurring. The map is one `<image>` of one pixel per cell (per `k` × `k` cells, by the PNG's
//! majority rule, when the picture has fewer pixels than the map has cells), drawn with
//! `image-rendering: pixelated`: on the 512 and 1024 benchmark maps it is 3 to 15 times smaller
//! than run-length rectangles (see `docs/render.md` for the measurements), and its size is
//! bounded by the map's area, whatever its shape. Each [`Layer`] is one element (a `<path>`,
//! `<polyline>` or `<g>` of circles) with its class; below the map, a caption and a legend.

use std::fmt::Write as _;

use taut_grid::Grid;

use super::{Color, Layer, Layout, LegendItem, LegendMark, Scene, Shape, cell_is_dark, palette};

/// Height of the caption band under the map, in pixels.
const BAND_PX: f64 = 40.0;
/// Font size of the caption, in pixels.
const FONT_PX: f64 = 12.0;

/// Draws `scene` at `layout` as an SVG document, with `caption` under the map.
pub fn render(scene: &Scene<'_>, layout: &Layout, caption: &str) -> String {
    render_picture(
        scene.grid,
        &scene.layers(layout),
        &scene.legend(),
        layout,
        caption,
    )
}

/// Draws the map `grid`, then the `layers` in order, at `layout` as an SVG document, with
/// `caption` and the `legend` under the map.
pub fn render_picture(
    grid: &Grid,
    layers: &[Layer],
    legend: &[LegendItem],
    layout: &Layout,
    caption: &str,
) -> String {
    let s = layout.scale;
    let m = layout.margin / s;
    let (w, h) = (f64::from(grid.width()), f64::from(grid.height()));
    let band = BAND_PX / s;
    let mut o = String::new();
    let _ = write!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"",
        layout.width,
        f64::from(layout.height) + BAND_PX
    );
    push_nums(&mut o, &[-m, -m, w + 2.0 * m, h + 2.0 * m + band]);
    o.push_str("\">\n<title>");
    push_escaped(&mut o, caption);
    o.push_str("</title>\n");
    // The margin, then the map.
    o.push_str("<rect class=\"margin\" x=\"");
    push_nums(&mut o, &[-m]);
    o.push_str("\" y=\"");
    push_nums(&mut o, &[-m]);
    o.push_str("\" width=\"");
    push_nums(&mut o, &[w + 2.0 * m]);
    o.push_str("\" height=\"");
    push_nums(&mut o, &[h + 2.0 * m]);
    let _ = writeln!(o, "\" fill=\"{}\"/>", palette::BLOCKED.hex());
    // One image pixel per cell, or per k x k cells when the picture has fewer pixels than
    // the map has cells (the same majority rule as the PNG).
    let k = if s < 1.0 { (1.0 / s).round() as i32 } else { 1 };
    let (iw, ih) = (ceil_div(grid.width(), k), ceil_div(grid.height(), k));
    let _ = write!(
        o,
        "<image class=\"map\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" \
         preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" \
         href=\"data:image/png;base64,",
        iw * k,
        ih * k
    );
    base64_into(&map_png(grid, k), &mut o);
    o.push_str("\"/>\n");
    for layer in layers {
        push_layer(&mut o, layer, s);
    }
    push_caption(&mut o, legend, layout, caption, h + m);
    o.push_str("</svg>\n");
    o
}

/// The map as a 1-bit indexed PNG, one pixel per `k` × `k` cells (dark when most of them
/// are blocked, [`cell_is_dark`]; `k = 1`: one pixel per cell): palette entry 0 free, 1
/// blocked.
///
/// # Panics
/// If `k < 1`.
pub fn map_png(grid: &Grid, k: i32) -> Vec<u8> {
    assert!(k >= 1, "{k} cells per pixel");
    let (w, h) = (
        ceil_div(grid.width(), k) as usize,
        ceil_div(grid.height(), k) as usize,
    );
    let stride = w.div_ceil(8);
    let mut bits = vec![0u8; stride * h];
    for y in 0..h {
        for x in 0..w {
            let (cx, cy) = (x as i32 * k, y as i32 * k);
            let dark = if k == 1 {
                !grid.is_free(cx, cy)
            } else {
                cell_is_dark(grid, cx, cx + k, cy, cy + k)
            };
            if dark {
                bits[y * stride + x / 8] |= 0x80 >> (x % 8);
            }
        }
    }
    let mut out = Vec::new();
    let mut enc = ::png::Encoder::new(&mut out, w as u32, h as u32);
    enc.set_color(::png::ColorType::Indexed);
    enc.set_depth(::png::BitDepth::One);
    let (f, b) = (palette::FREE.rgb, palette::BLOCKED.rgb);
    enc.set_palette(vec![f[0], f[1], f[2], b[0], b[1], b[2]]);
    enc.set_compression(::png::Compression::High);
    // Writing to a Vec cannot fail, and the header matches the data by construction.
    let mut writer = enc.write_header().expect("PNG header to memory");
    writer.write_image_data(&bits).expect("PNG data to memory");
    writer.finish().expect("PNG end to memory");
    out
}

/// `ceil(a / k)` for `a >= 0`, `k >= 1`.
fn ceil_div(a: i32, k: i32) -> i32 {
    (a + k - 1) / k
}

/// The blocked cells as one SVG path of rectangles: horizontal runs per row, merged with
/// identical runs of the rows below. The alternative to [`map_png`], kept for measuring.
pub fn blocked_rects_path(grid: &Grid) -> String {
    let (w, h) = (grid.width(), grid.height());
    let runs = |y: i32| -> Vec<(i32, i32)> {
        let mut v = Vec::new();
        let mut x = 0;
        while x < w {
            if grid.is_free(x, y) {
                x += 1;
                continue;
            }
            let x0 = x;
            while x < w && !grid.is_free(x, y) {
                x += 1;
            }
            v.push((x0, x));
        }
        v
    };
    let mut d = String::new();
    // Open rectangles: (run, first row); closed when the run is absent from a row.
    let mut open: Vec<((i32, i32), i32)> = Vec::new();
    let close = |d: &mut String, (x0, x1): (i32, i32), y0: i32, y1: i32| {
        let _ = write!(d, "M{x0} {y0}h{}v{}h-{}z", x1 - x0, y1 - y0, x1 - x0);
    };
    for y in 0..=h {
        let row = if y < h { runs(y) } else { Vec::new() };
        let mut next = Vec::with_capacity(row.len());
        for &(run, y0) in &open {
            if row.binary_search(&run).is_ok() {
                next.push((run, y0));
            } else {
                close(&mut d, run, y0, y);
            }
        }
        for run in row {
            if !next.iter().any(|&(r, _)| r == run) {
                next.push((run, y));
            }
        }
        open = next;
    }
    d
}

fn push_layer(o: &mut String, layer: &Layer, scale: f64) {
    let style = |o: &mut String| {
        match layer.fill {
            Some(c) => push_color(o, "fill", c),
            None => o.push_str(" fill=\"none\""),
        }
        if let Some((c, w)) = layer.stroke {
            push_color(o, "stroke", c);
            o.push_str(" stroke-width=\"");
            push_nums(o, &[w / scale]);
            o.push_str("\" stroke-linecap=\"round\" stroke-linejoin=\"round\"");
        }
    };
    let _ = write!(o, "<");
    match &layer.shape {
        Shape::Segments(segs) => {
            let _ = write!(o, "path class=\"{}\"", layer.class);
            style(o);
            o.push_str(" d=\"");
            for &[(ax, ay), (bx, by)] in segs {
                o.push('M');
                push_nums(o, &[ax, ay]);
                if ay == by {
                    o.push('H');
                    push_nums(o, &[bx]);
                } else {
                    o.push('L');
                    push_nums(o, &[bx, by]);
                }
            }
            o.push_str("\"/>\n");
        }
        Shape::Polyline(points) => {
            let _ = write!(o, "polyline class=\"{}\"", layer.class);
            style(o);
            o.push_str(" points=\"");
            for (i, &(x, y)) in points.iter().enumerate() {
                if i > 0 {
                    o.push(' ');
                }
                push_nums(o, &[x]);
                o.push(',');
                push_nums(o, &[y]);
            }
            o.push_str("\"/>\n");
        }
        Shape::Dots { at, radius_px } => {
            let _ = write!(o, "g class=\"{}\"", layer.class);
            style(o);
            o.push('>');
            let r = radius_px / scale;
            for &(x, y) in at {
                o.push_str("<circle cx=\"");
                push_nums(o, &[x]);
                o.push_str("\" cy=\"");
                push_nums(o, &[y]);
                o.push_str("\" r=\"");
                push_nums(o, &[r]);
                o.push_str("\"/>");
            }
            o.push_str("</g>\n");
        }
        Shape::Cells(cells) => {
            let _ = write!(o, "path class=\"{}\"", layer.class);
            style(o);
            o.push_str(" d=\"");
            for r in cells {
                let n = r.x1 - r.x0;
                let _ = write!(o, "M{} {}h{n}v1h-{n}z", r.x0, r.y);
            }
            o.push_str("\"/>\n");
        }
    }
}

/// The caption line and the legend, under the map at `y0`.
fn push_caption(o: &mut String, legend: &[LegendItem], layout: &Layout, caption: &str, y0: f64) {
    let s = layout.scale;
    let u = |px: f64| px / s;
    let font = u(FONT_PX);
    let x0 = -layout.margin / s + u(6.0);
    let line1 = y0 + u(15.0);
    let line2 = y0 + u(32.0);
    let _ = write!(
        o,
        "<g class=\"caption\" font-family=\"sans-serif\" font-size=\""
    );
    push_nums(o, &[font]);
    let _ = write!(o, "\"><rect fill=\"#ffffff\" x=\"");
    push_nums(o, &[-layout.margin / s]);
    o.push_str("\" y=\"");
    push_nums(o, &[y0]);
    o.push_str("\" width=\"");
    push_nums(o, &[f64::from(layout.width) / s]);
    o.push_str("\" height=\"");
    push_nums(o, &[u(BAND_PX)]);
    o.push_str("\"/><text x=\"");
    push_nums(o, &[x0]);
    o.push_str("\" y=\"");
    push_nums(o, &[line1]);
    o.push_str("\">");
    push_escaped(o, caption);
    o.push_str("</text>");
    // Legend: a mark drawn at x, then its name; x advances by an estimate of the text's width.
    let cy = line2 - font * 0.35;
    let disc = |x: f64, c: Color, r: f64, stroke: Option<Color>| {
        let mut t = String::from("<circle cx=\"");
        push_nums(&mut t, &[x + u(6.0)]);
        t.push_str("\" cy=\"");
        push_nums(&mut t, &[cy]);
        t.push_str("\" r=\"");
        push_nums(&mut t, &[u(r)]);
        t.push('"');
        push_color(&mut t, "fill", c);
        if let Some(sc) = stroke {
            push_color(&mut t, "stroke", sc);
            t.push_str(" stroke-width=\"");
            push_nums(&mut t, &[u(1.5)]);
            t.push('"');
        }
        t.push_str("/>");
        t
    };
    let bar = |x: f64, c: Color, px: f64, len_px: f64| {
        let mut t = String::from("<path d=\"M");
        push_nums(&mut t, &[x, cy]);
        t.push('h');
        push_nums(&mut t, &[u(len_px)]);
        t.push('"');
        push_color(&mut t, "stroke", c);
        t.push_str(" stroke-width=\"");
        push_nums(&mut t, &[u(px)]);
        t.push_str("\"/>");
        t
    };
    let mark = |x: f64, m: LegendMark| -> String {
        match m {
            LegendMark::Disc {
                fill,
                radius_px,
                stroke,
            } => disc(x, fill, radius_px, stroke),
            LegendMark::Bar {
                color,
                width_px,
                len_px,
            } => bar(x, color, width_px, len_px),
            // Five short bars side by side make the colour ramp.
            LegendMark::Ramp => palette::ORDER
                .iter()
                .enumerate()
                .map(|(i, c)| bar(x + u(i as f64 * 2.4), *c, 4.0, 2.4))
                .collect(),
        }
    };
    let mut x = x0;
    for item in legend {
        o.push_str(&mark(x, item.mark));
        let tx = x + u(16.0);
        o.push_str("<text x=\"");
        push_nums(o, &[tx]);
        o.push_str("\" y=\"");
        push_nums(o, &[line2]);
        o.push_str("\">");
        push_escaped(o, &item.name);
        o.push_str("</text>");
        x = tx + font * 0.6 * item.name.chars().count() as f64 + u(14.0);
    }
    o.push_str("</g>\n");
}

fn push_color(o: &mut String, attr: &str, c: Color) {
    let _ = write!(o, " {attr}=\"{}\"", c.hex());
    if c.alpha < 1.0 {
        let _ = write!(o, " {attr}-opacity=\"");
        push_nums(o, &[f64::from(c.alpha)]);
        o.push('"');
    }
}

/// Appends the numbers separated by spaces, each with at most 3 decimals and no trailing
/// zeros (integers exactly).
fn push_nums(o: &mut String, xs: &[f64]) {
    for (i, &x) in xs.iter().enumerate() {
        if i > 0 {
            o.push(' ');
        }
        if x == x.trunc() && x.abs() < 1e15 {
            let _ = write!(o, "{}", x as i64);
            continue;
        }
        let start = o.len();
        let _ = write!(o, "{x:.3}");
        while o.ends_with('0') {
            o.pop();
        }
        if o.ends_with('.') {
            o.pop();
        }
        if &o[start..] == "-0" {
            o.truncate(start);
            o.push('0');
        }
    }
}

fn push_escaped(o: &mut String, text: &str) {
    for ch in text.chars() {
        match ch {
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '&' => o.push_str("&amp;"),
            '"' => o.push_str("&quot;"),
            _ => o.push(ch),
        }
    }
}

/// Standard base64 (RFC 4648, with padding) of `bytes`, appended to `out`.
pub fn base64_into(bytes: &[u8], out: &mut String) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    out.reserve(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        for (input, expected) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            let mut s = String::new();
            base64_into(input.as_bytes(), &mut s);
            assert_eq!(s, expected, "{input:?}");
        }
        let mut s = String::new();
        base64_into(&[0xfb, 0xff, 0xbf], &mut s);
        assert_eq!(s, "+/+/");
    }

    #[test]
    fn numbers_are_short_and_exact_for_integers() {
        let mut s = String::new();
        push_nums(&mut s, &[3.0, -2.5, 1.0 / 3.0, 0.0004, -0.0001, 1e6]);
        assert_eq!(s, "3 -2.5 0.333 0 0 1000000");
    }

    #[test]
    fn run_length_rectangles_cover_exactly_the_blocked_cells() {
        let g = Grid::from_ascii(&["@@..", "@@.@", "...@", "@..."]).unwrap();
        let d = blocked_rects_path(&g);
        // (0,0)-(2,2) merged over two rows; (3,1)-(4,3) merged; (0,3) alone.
        let mut rects: Vec<&str> = d.split('M').filter(|r| !r.is_empty()).collect();
        rects.sort_unstable();
        assert_eq!(rects, ["0 0h2v2h-2z", "0 3h1v1h-1z", "3 1h1v2h-1z"]);
    }

    #[test]
    fn the_map_image_decodes_to_the_grid() {
        let g = Grid::from_ascii(&["@.........", "..@@......", ".........@"]).unwrap();
        let decode = |png: Vec<u8>| {
            let mut dec = ::png::Decoder::new(std::io::Cursor::new(png));
            dec.set_transformations(::png::Transformations::EXPAND);
            let mut reader = dec.read_info().unwrap();
            let mut buf = vec![0; reader.output_buffer_size().unwrap()];
            let info = reader.next_frame(&mut buf).unwrap();
            let bpp = info.line_size / info.width as usize;
            let px = move |x: usize, y: usize| -> [u8; 3] {
                let i = y * info.line_size + x * bpp;
                [buf[i], buf[i + 1], buf[i + 2]]
            };
            ((info.width, info.height), px)
        };
        let color = |dark: bool| {
            if dark {
                palette::BLOCKED.rgb
            } else {
                palette::FREE.rgb
            }
        };
        let (size, px) = decode(map_png(&g, 1));
        assert_eq!(size, (10, 3));
        for y in 0..3 {
            for x in 0..10 {
                assert_eq!(
                    px(x, y),
                    color(!g.is_free(x as i32, y as i32)),
                    "({x}, {y})"
                );
            }
        }
        // 2 x 2 cells per pixel: only the block (2..4, 0..2) is mostly blocked (2 of 4 is
        // not most; the last column and row are half off the map).
        let g = Grid::from_ascii(&["@@@@..", "..@@.@", "......"]).unwrap();
        let (size, px) = decode(map_png(&g, 2));
        assert_eq!(size, (3, 2));
        let dark: Vec<bool> = (0..6).map(|i| px(i % 3, i / 3) == color(true)).collect();
        assert_eq!(dark, [false, true, false, false, false, false]);
    }
}
