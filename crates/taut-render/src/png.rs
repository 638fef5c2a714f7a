//! PNG output: the map is written pixel by pixel, the overlay layers are rasterised by
//! tiny-skia (anti-aliased, one fill or stroke per layer), and the result is encoded by the
//! `png` crate as an indexed image of at most 256 colours ([`palette_of`]).

use std::collections::HashMap;

use tiny_skia::{FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

use taut_grid::Grid;

use super::{Color, Layer, Layout, RenderError, Scene, Shape, cell_is_dark, palette};

/// Draws `scene` at `layout` and encodes it as a PNG file.
///
/// # Errors
/// [`RenderError::TooLarge`] if the pixmap cannot be allocated, [`RenderError::Encode`] if
/// encoding fails.
pub fn render(scene: &Scene<'_>, layout: &Layout) -> Result<Vec<u8>, RenderError> {
    render_picture(scene.grid, &scene.layers(layout), layout)
}

/// Draws the map `grid`, then the `layers` in order, at `layout`, and encodes the picture
/// as a PNG file.
///
/// # Errors
/// As [`render`].
pub fn render_picture(
    grid: &Grid,
    layers: &[Layer],
    layout: &Layout,
) -> Result<Vec<u8>, RenderError> {
    let too_large = || RenderError::TooLarge {
        width: u64::from(layout.width),
        height: u64::from(layout.height),
    };
    let mut pixmap = Pixmap::new(layout.width, layout.height).ok_or_else(too_large)?;
    draw_map(&mut pixmap, grid, layout);
    for layer in layers {
        draw_layer(&mut pixmap, layer, layout);
    }
    encode(&pixmap)
}

/// Fills every pixel with the free or blocked colour: a pixel shows the cell under its
/// centre when cells are at least a pixel wide, else the majority of the cells it covers
/// ([`cell_is_dark`]). The margin is blocked.
fn draw_map(pixmap: &mut Pixmap, grid: &Grid, layout: &Layout) {
    let (w, h) = (grid.width(), grid.height());
    let (s, m) = (layout.scale, layout.margin);
    // The cells `c0..c1` a pixel covers along one axis, or None in the margin.
    let span = |p: u32, cells: i32| -> Option<(i32, i32)> {
        let p = f64::from(p);
        let (c0, c1) = if s >= 1.0 {
            let c = ((p + 0.5 - m) / s).floor();
            (c, c + 1.0)
        } else {
            let c0 = ((p - m) / s).floor();
            (c0, ((p + 1.0 - m) / s).floor().max(c0 + 1.0))
        };
        (c0 >= 0.0 && c0 < f64::from(cells)).then_some((c0 as i32, c1 as i32))
    };
    let cols: Vec<Option<(i32, i32)>> = (0..layout.width).map(|px| span(px, w)).collect();
    let width = layout.width as usize;
    let data = pixmap.data_mut();
    for py in 0..layout.height {
        let row = &mut data[py as usize * width * 4..(py as usize + 1) * width * 4];
        let rows = span(py, h);
        for (px, col) in cols.iter().enumerate() {
            let dark = match (rows, col) {
                (Some((y0, y1)), &Some((x0, x1))) => {
                    if y1 - y0 == 1 && x1 - x0 == 1 {
                        !grid.is_free(x0, y0)
                    } else {
                        cell_is_dark(grid, x0, x1, y0, y1)
                    }
                }
                _ => true,
            };
            let c = if dark {
                palette::BLOCKED
            } else {
                palette::FREE
            };
            row[px * 4..px * 4 + 4].copy_from_slice(&[c.rgb[0], c.rgb[1], c.rgb[2], 255]);
        }
    }
}

fn paint(c: Color, anti_alias: bool) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(
        c.rgb[0],
        c.rgb[1],
        c.rgb[2],
        (c.alpha * 255.0).round() as u8,
    );
    p.anti_alias = anti_alias;
    p
}

/// Rasterises one layer as one path.
fn draw_layer(pixmap: &mut Pixmap, layer: &Layer, layout: &Layout) {
    let mut pb = PathBuilder::new();
    match &layer.shape {
        Shape::Segments(segs) => {
            for &[a, b] in segs {
                let ((ax, ay), (bx, by)) = (layout.px(a), layout.px(b));
                pb.move_to(ax, ay);
                pb.line_to(bx, by);
            }
        }
        Shape::Polyline(points) => {
            for (i, &p) in points.iter().enumerate() {
                let (x, y) = layout.px(p);
                if i == 0 {
                    pb.move_to(x, y);
                } else {
                    pb.line_to(x, y);
                }
            }
        }
        Shape::Dots { at, radius_px } => {
            for &p in at {
                let (x, y) = layout.px(p);
                pb.push_circle(x, y, *radius_px as f32);
            }
        }
        Shape::Cells(cells) => {
            for r in cells {
                let (x0, y0) = layout.px((f64::from(r.x0), f64::from(r.y)));
                let (x1, y1) = layout.px((f64::from(r.x1), f64::from(r.y + 1)));
                if let Some(r) = Rect::from_ltrb(x0, y0, x1, y1) {
                    pb.push_rect(r);
                }
            }
        }
    }
    let Some(path) = pb.finish() else {
        return;
    };
    if let Some(fill) = layer.fill {
        pixmap.fill_path(
            &path,
            &paint(fill, !layer.crisp),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
    if let Some((color, width)) = layer.stroke {
        let stroke = Stroke {
            width: width as f32,
            line_cap: LineCap::Round,
            line_join: LineJoin::Round,
            ..Stroke::default()
        };
        pixmap.stroke_path(
            &path,
            &paint(color, !layer.crisp),
            &stroke,
            Transform::identity(),
            None,
        );
    }
}

/// Encodes an opaque pixmap as an indexed PNG of at most 256 colours ([`palette_of`]).
fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, RenderError> {
    let rgb: Vec<[u8; 3]> = pixmap
        .data()
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    let (colors, indices) = palette_of(&rgb, &palette::RESERVED);
    let mut out = Vec::new();
    let mut enc = ::png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    enc.set_color(::png::ColorType::Indexed);
    enc.set_depth(::png::BitDepth::Eight);
    enc.set_palette(colors.concat());
    enc.set_compression(::png::Compression::High);
    let mut writer = enc.write_header()?;
    writer.write_image_data(&indices)?;
    writer.finish()?;
    Ok(out)
}

/// A palette of at most 256 colours for `pixels` and each pixel's index into it. With more
/// colours than that, the palette holds the `reserved` colours that occur (the flat colours
/// of the marks, however few their pixels: a goal disc must stay red), then the most frequent
/// others (the map, the trace, the commonest blends of anti-aliased edges), and every other
/// colour maps to its nearest entry: invisible at the edges of thin lines, and an indexed
/// PNG is a third of the size of an RGB one.
pub fn palette_of(pixels: &[[u8; 3]], reserved: &[[u8; 3]]) -> (Vec<[u8; 3]>, Vec<u8>) {
    let mut counts: HashMap<[u8; 3], u32> = HashMap::new();
    for p in pixels {
        *counts.entry(*p).or_insert(0) += 1;
    }
    let mut by_count: Vec<([u8; 3], u32)> = counts.into_iter().collect();
    // Reserved first, then most frequent first; ties by colour, so the output is
    // deterministic.
    let rank = |c: &[u8; 3]| reserved.iter().position(|r| r == c).unwrap_or(usize::MAX);
    by_count.sort_unstable_by(|a, b| {
        rank(&a.0)
            .cmp(&rank(&b.0))
            .then(b.1.cmp(&a.1))
            .then(a.0.cmp(&b.0))
    });
    let colors: Vec<[u8; 3]> = by_count.iter().take(256).map(|c| c.0).collect();
    let mut index: HashMap<[u8; 3], u8> = HashMap::with_capacity(by_count.len());
    for (i, c) in colors.iter().enumerate() {
        index.insert(*c, i as u8);
    }
    for &(c, _) in by_count.iter().skip(256) {
        let dist = |p: &[u8; 3]| -> i32 {
            (0..3)
                .map(|k| (i32::from(p[k]) - i32::from(c[k])).pow(2))
                .sum()
        };
        let nearest = (0..colors.len())
            .min_by_key(|&i| dist(&colors[i]))
            .unwrap_or(0);
        index.insert(c, nearest as u8);
    }
    let indices = pixels.iter().map(|p| index[p]).collect();
    (colors, indices)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_colours_are_kept_exactly() {
        let px = [[1, 2, 3], [9, 9, 9], [1, 2, 3]];
        let (colors, idx) = palette_of(&px, &[]);
        assert_eq!(colors, [[1, 2, 3], [9, 9, 9]]);
        assert_eq!(idx, [0, 1, 0]);
    }

    #[test]
    fn rare_colours_map_to_the_nearest_frequent_one() {
        // 256 greys (twice each), then a rare near-white, a rare near-black and a rare red
        // that is reserved: 259 colours for 256 entries.
        let mut px: Vec<[u8; 3]> = (0..=255u8).flat_map(|g| [[g, g, g], [g, g, g]]).collect();
        px.extend([[254, 255, 255], [0, 1, 0], [200, 0, 0]]);
        let n = px.len();
        let (colors, idx) = palette_of(&px, &[[200, 0, 0]]);
        assert_eq!(colors.len(), 256);
        assert_eq!(colors[0], [200, 0, 0]);
        // The reserved colour keeps its own entry however rare.
        assert_eq!(colors[idx[n - 1] as usize], [200, 0, 0]);
        // One grey lost its place to red: the greys that remain are all within 1 of a
        // neighbour, so every pixel lands within 1 per channel of its colour, and the
        // frequent colours that kept an entry map to themselves.
        for (p, &i) in px.iter().zip(&idx) {
            let c = colors[i as usize];
            assert!((0..3).all(|k| c[k].abs_diff(p[k]) <= 1), "{p:?} -> {c:?}");
        }
        let kept = px
            .iter()
            .zip(&idx)
            .filter(|&(p, &i)| colors[i as usize] == *p);
        assert!(kept.count() >= n - 5);
    }
}
