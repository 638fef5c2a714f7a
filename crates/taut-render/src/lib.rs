//! Pictures of any-angle searches: a grid map, a path, its turning points and the search's
//! trace drawn as SVG or PNG, to see why a path is what it is. This is the drawing behind
//! `taut render`, `taut agent --render` and `taut route --render`, as a library: a program can
//! draw its own queries (or paths it made itself) without the command line.
//!
//! A [`Scene`] is the map, the path, its turning points and the search's trace
//! ([`taut_grid::TraceEvent`]s, as recorded by [`taut_grid::Planner::plan_traced`]; a long
//! trace can be thinned by [`sample_trace`]). [`Scene::layers`] turns it into a short list of
//! [`Layer`]s, each one style and many shapes, in drawing order; [`svg::render`] and
//! [`png::render`] draw the same layers, so the two formats show the same picture. One layer
//! is drawn as one path (one SVG element, one tiny-skia fill or stroke): overlapping shapes of
//! a layer do not darken each other, and tens of thousands of expansions stay fast to draw
//! and small to store. Nothing here reads or writes files except [`load_mesh`]; the
//! functions return the picture's bytes.
//!
//! # Example
//! ```
//! use taut_geom::Point;
//! use taut_grid::Grid;
//! use taut_render::{Layout, Scene, png, svg};
//!
//! // A 4 x 3 map with a wall of two cells, and a path round its bottom-right corner.
//! let grid = Grid::from_ascii(&["....", ".@@.", "...."]).unwrap();
//! let path = [Point::new(0, 2), Point::new(3, 2), Point::new(4, 1)];
//! let scene = Scene {
//!     grid: &grid,
//!     start: path[0],
//!     goal: path[2],
//!     path: &path,
//!     trace: &[], // no search to show: map and path only
//!     trace_len: 0,
//!     mesh: None,
//! };
//! // The long side in at most 400 pixels: 100 per cell, plus a 6-pixel margin all round.
//! let layout = Layout::fit(grid.width(), grid.height(), 400, None).unwrap();
//! assert_eq!((layout.width, layout.height), (412, 312));
//!
//! let svg = svg::render(&scene, &layout, "my path");
//! assert!(svg.starts_with("<svg"));
//! // SVG user units are map units: the path's points are exactly the waypoints.
//! assert!(svg.contains(r#"<polyline class="path""#));
//! assert!(svg.contains(r#"points="0,2 3,2 4,1""#));
//!
//! let png = png::render(&scene, &layout).unwrap();
//! assert!(png.starts_with(b"\x89PNG"));
//! ```
//!
//! # Coordinates
//! Shapes are in map units: lattice point `(x, y)` is the top-left corner of cell `(x, y)`,
//! y grows south. A [`Layout`] maps them to pixels: a margin of [`Layout::margin`] pixels all
//! round (drawn in the blocked colour: the map's border is blocked), then `scale` pixels per
//! cell.
//!
//! # The picture
//! - free cells light, blocked cells dark (a pixel covering several cells is blocked when
//!   most of them are);
//! - the expanded nodes, coloured by order of expansion from deep blue (first) through
//!   purple to orange (last): Anya's intervals as segments on their grid line, with a faint
//!   line from each end to the interval's root and a small ring on every root (a dot when
//!   there are many); A*'s cells as tinted squares; Theta*'s and the visibility graph's points
//!   as a line from their parent;
//! - the path as a thick teal line on a white halo, its turning points as white dots, the
//!   start as a green disc and the goal as a red one;
//! - with a mesh ([`Scene::mesh`]), the edges of a navigation mesh's polygons as thin blue
//!   lines over the map (under everything else), in the map's lattice coordinates.
//!
//! [`trail`] draws a real-time agent's run and [`sphere`] a sea route, with the same map
//! drawing and marks; [`flat_map`] turns a sphere route into lines on a flat map (densified,
//! split at the antimeridian), for the sphere pictures and for GeoJSON.

pub mod flat_map;
pub mod geojson;
pub mod png;
pub mod sphere;
pub mod svg;
pub mod trail;
pub mod world;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use taut_grid::{Grid, Point, TraceEvent};
use taut_mesh::{Mesh, MeshError, NO_POLY, read_mesh};

/// The two picture formats, for the functions that draw either ([`trail::render_trail`],
/// [`sphere::render_sphere`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// SVG: vector overlays over the map embedded as a 1-bit PNG image, with a caption and a
    /// legend under the map ([`svg`]).
    Svg,
    /// PNG: an indexed raster of at most 256 colours, without caption ([`png`]).
    Png,
}

/// Why a picture could not be made (besides reading inputs and writing the file).
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The requested scale gives an image too large to allocate sensibly.
    #[error(
        "the image would be {width}x{height} pixels (at most {MAX_SIDE_PX} a side): lower --scale"
    )]
    TooLarge {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
    },
    /// The scale or the pixel budget given to [`Layout::fit`] is out of range (the message
    /// names them as the command line does: `--scale`, `--max-px`).
    #[error("{0}")]
    BadSize(String),
    /// The PNG encoder failed.
    #[error("encoding the PNG: {0}")]
    Encode(#[from] ::png::EncodingError),
    /// The mesh file ([`load_mesh`]) cannot be read or is not a valid mesh (names the file).
    #[error(transparent)]
    Mesh(#[from] MeshError),
    /// The mesh file's polygons reach beyond the map ([`load_mesh`]).
    #[error(
        "the mesh {} spans ({}, {}) to ({}, {}), beyond the {width} x {height} map \
         (mesh coordinates are the map's lattice coordinates: 0 to {width}, 0 to {height})",
        path.display(), min.0, min.1, max.0, max.1
    )]
    MeshOutsideMap {
        /// The mesh file.
        path: PathBuf,
        /// The smallest x and y of its polygons.
        min: Pt,
        /// The largest x and y of its polygons.
        max: Pt,
        /// The map's width in cells.
        width: i32,
        /// The map's height in cells.
        height: i32,
    },
}

/// The largest image side drawn, in pixels.
pub const MAX_SIDE_PX: u64 = 16_384;

/// An sRGB colour with an opacity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Color {
    /// Red, green, blue.
    pub rgb: [u8; 3],
    /// Opacity, 0 (transparent) to 1 (opaque).
    pub alpha: f32,
}

impl Color {
    /// An opaque colour.
    pub const fn opaque(r: u8, g: u8, b: u8) -> Color {
        Color {
            rgb: [r, g, b],
            alpha: 1.0,
        }
    }

    /// The same colour with opacity `alpha`.
    pub const fn with_alpha(self, alpha: f32) -> Color {
        Color {
            rgb: self.rgb,
            alpha,
        }
    }

    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.rgb[0], self.rgb[1], self.rgb[2])
    }
}

/// The palette of the picture (see the module docs).
pub mod palette {
    use super::Color;
    /// Free cells.
    pub const FREE: Color = Color::opaque(0xf6, 0xf4, 0xee);
    /// Blocked cells and the margin.
    pub const BLOCKED: Color = Color::opaque(0x44, 0x44, 0x48);
    /// The path.
    pub const PATH: Color = Color::opaque(0x00, 0x9e, 0x9a);
    /// Under the path and around the markers.
    pub const HALO: Color = Color::opaque(0xff, 0xff, 0xff);
    /// The start.
    pub const START: Color = Color::opaque(0x2e, 0x9e, 0x3e);
    /// The goal.
    pub const GOAL: Color = Color::opaque(0xd7, 0x30, 0x27);
    /// Lines from an interval to its root, and root rings.
    pub const ROOT: Color = Color::opaque(0x30, 0x30, 0x40);
    /// The edges of a navigation mesh ([`Scene::mesh`](crate::Scene::mesh)).
    pub const MESH: Color = Color::opaque(0x2f, 0x6d, 0xb5);
    /// Colours a raster keeps exactly, whatever its palette: the flat colours of the marks.
    pub const RESERVED: [[u8; 3]; 6] = [
        FREE.rgb,
        BLOCKED.rgb,
        PATH.rgb,
        HALO.rgb,
        START.rgb,
        GOAL.rgb,
    ];
    /// The colours of the expansion order, first to last.
    pub const ORDER: [Color; 5] = [
        Color::opaque(0x1f, 0x2a, 0x94),
        Color::opaque(0x6a, 0x1b, 0x9a),
        Color::opaque(0xb0, 0x2a, 0x83),
        Color::opaque(0xe0, 0x5a, 0x4b),
        Color::opaque(0xf5, 0x9c, 0x2a),
    ];
}

/// The colour of expansion-order fraction `t` in `[0, 1]` (first to last), interpolated
/// between the stops of [`palette::ORDER`].
pub fn order_color(t: f64) -> Color {
    let stops = &palette::ORDER;
    let x = t.clamp(0.0, 1.0) * (stops.len() - 1) as f64;
    let i = (x.floor() as usize).min(stops.len() - 2);
    let f = x - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    let (a, b) = (stops[i].rgb, stops[i + 1].rgb);
    Color::opaque(mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2]))
}

/// A point in map units (see the module docs).
pub type Pt = (f64, f64);

/// What a layer draws.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// Separate straight segments, stroked.
    Segments(Vec<[Pt; 2]>),
    /// One polyline through the points, stroked with round joins.
    Polyline(Vec<Pt>),
    /// Discs of one radius (pixels) at the points, filled and/or stroked.
    Dots {
        /// Centres.
        at: Vec<Pt>,
        /// Radius in pixels.
        radius_px: f64,
    },
    /// Whole cells, filled, as horizontal runs (see [`cell_runs`]).
    Cells(Vec<CellRun>),
}

/// The cells `x0..x1` of row `y`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct CellRun {
    /// The row.
    pub y: i32,
    /// First cell.
    pub x0: i32,
    /// One past the last cell.
    pub x1: i32,
}

/// The cells as maximal horizontal runs, row by row (duplicates merged): A* expands regions,
/// so a run stands for many cells, in a tenth of the SVG bytes and PNG rectangles.
pub fn cell_runs(cells: &mut [Point]) -> Vec<CellRun> {
    cells.sort_unstable_by_key(|c| (c.y, c.x));
    let mut runs: Vec<CellRun> = Vec::new();
    for c in cells.iter() {
        match runs.last_mut() {
            Some(r) if r.y == c.y && c.x <= r.x1 => r.x1 = r.x1.max(c.x + 1),
            _ => runs.push(CellRun {
                y: c.y,
                x0: c.x,
                x1: c.x + 1,
            }),
        }
    }
    runs
}

/// One style and its shapes: drawn as one path.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    /// A name for the layer (the SVG `class`): `map`, `trace`, `roots`, `path`, `turns`, ...
    pub class: &'static str,
    /// The shapes.
    pub shape: Shape,
    /// Fill colour (dots and cells).
    pub fill: Option<Color>,
    /// Stroke colour and width in pixels.
    pub stroke: Option<(Color, f64)>,
    /// Whether a raster draws it without anti-aliasing: crisp one-colour edges for the dense
    /// trace (thin horizontal lines on pixel boundaries would otherwise smear over two pixel
    /// rows in blended colours, which looks blurred and triples the PNG's size).
    pub crisp: bool,
}

/// A mark of the legend under an SVG picture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LegendMark {
    /// A disc of `radius_px` pixels, optionally ringed.
    Disc {
        /// Fill colour.
        fill: Color,
        /// Radius in pixels.
        radius_px: f64,
        /// Ring colour, if any.
        stroke: Option<Color>,
    },
    /// A short horizontal bar.
    Bar {
        /// Colour.
        color: Color,
        /// Thickness in pixels.
        width_px: f64,
        /// Length in pixels.
        len_px: f64,
    },
    /// The colour ramp of the expansion order ([`palette::ORDER`]).
    Ramp,
}

/// One entry of the legend: a mark and what it means.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendItem {
    /// The mark.
    pub mark: LegendMark,
    /// What it stands for.
    pub name: String,
}

impl LegendItem {
    /// An item.
    pub fn new(mark: LegendMark, name: impl Into<String>) -> Self {
        LegendItem {
            mark,
            name: name.into(),
        }
    }
}

/// How map units become pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// Pixels per cell.
    pub scale: f64,
    /// Pixels of margin on every side.
    pub margin: f64,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
}

impl Layout {
    /// The default margin in pixels.
    pub const MARGIN: f64 = 6.0;

    /// Chooses the scale for a `width` × `height` map: `scale` pixels per cell if given,
    /// else the largest whole number of pixels per cell that keeps the map's long side
    /// within `max_px` (the margins come on top), or, for maps with more cells than that,
    /// one pixel per `k` × `k` cells with the smallest such `k`.
    ///
    /// # Errors
    /// [`RenderError::BadSize`] for a non-positive or non-finite scale or a zero `max_px`,
    /// [`RenderError::TooLarge`] beyond [`MAX_SIDE_PX`].
    pub fn fit(
        width: i32,
        height: i32,
        max_px: u32,
        scale: Option<f64>,
    ) -> Result<Layout, RenderError> {
        let margin = Self::MARGIN;
        let long = f64::from(width.max(height));
        let scale = match scale {
            Some(s) if s.is_finite() && s > 0.0 => s,
            Some(s) => {
                return Err(RenderError::BadSize(format!(
                    "--scale {s} is not a positive number of pixels per cell"
                )));
            }
            None if max_px == 0 => {
                return Err(RenderError::BadSize("--max-px must be at least 1".into()));
            }
            None => {
                let max = f64::from(max_px);
                if long <= max {
                    (max / long).floor()
                } else {
                    1.0 / (long / max).ceil()
                }
            }
        };
        let side = |cells: i32| (f64::from(cells) * scale).ceil() + 2.0 * margin;
        let (w, h) = (side(width), side(height));
        if w > MAX_SIDE_PX as f64 || h > MAX_SIDE_PX as f64 {
            return Err(RenderError::TooLarge {
                width: w as u64,
                height: h as u64,
            });
        }
        Ok(Layout {
            scale,
            margin,
            width: w as u32,
            height: h as u32,
        })
    }

    /// The pixel position of a point in map units.
    #[inline]
    pub fn px(&self, (x, y): Pt) -> (f32, f32) {
        (
            (self.margin + x * self.scale) as f32,
            (self.margin + y * self.scale) as f32,
        )
    }
}

/// Everything a picture shows.
#[derive(Debug, Clone, Copy)]
pub struct Scene<'a> {
    /// The map.
    pub grid: &'a Grid,
    /// Start point.
    pub start: Point,
    /// Goal point.
    pub goal: Point,
    /// The path's waypoints (empty when the goal is unreachable).
    pub path: &'a [Point],
    /// The expanded nodes to draw, in order of expansion (possibly a sample: see
    /// [`sample_trace`]), each with its position in the full trace.
    pub trace: &'a [(usize, TraceEvent)],
    /// The length of the full trace (the colour of an event is its position over this).
    pub trace_len: usize,
    /// A navigation mesh whose polygon edges are drawn over the map, in the map's lattice
    /// coordinates (`taut render --mesh`; see [`load_mesh`]).
    pub mesh: Option<&'a Mesh>,
}

/// Draws the map `grid` and `layers` at `layout` in `format`: SVG with `legend` and `caption`
/// under the map, or PNG (no caption). What `trail`, `sphere` and `world` pictures share.
///
/// # Errors
/// As [`png::render_picture`] for PNG pictures.
pub fn render_layers(
    grid: &Grid,
    layers: &[Layer],
    legend: &[LegendItem],
    layout: &Layout,
    format: ImageFormat,
    caption: &str,
) -> Result<Vec<u8>, RenderError> {
    Ok(match format {
        ImageFormat::Svg => svg::render_picture(grid, layers, legend, layout, caption).into_bytes(),
        ImageFormat::Png => png::render_picture(grid, layers, layout)?,
    })
}

/// At most `max` events of `trace`, evenly spread over it and in order, each with its index.
pub fn sample_trace(trace: &[TraceEvent], max: usize) -> Vec<(usize, TraceEvent)> {
    if trace.len() <= max {
        return trace.iter().copied().enumerate().collect();
    }
    (0..max)
        .map(|i| {
            let k = (i as u128 * trace.len() as u128 / max as u128) as usize;
            (k, trace[k])
        })
        .collect()
}

/// Above this many distinct roots, roots are drawn as small dots instead of rings.
pub const MANY_ROOTS: usize = 400;

/// How many colour bands the expansion order is drawn in (one layer each).
pub const ORDER_BANDS: usize = 12;

impl Scene<'_> {
    /// The overlays in drawing order (the map itself is drawn by each format; see
    /// [`cell_is_dark`]): the trace, the path, its turning points, start and goal. Sizes in
    /// pixels follow the layout's scale within readable bounds.
    pub fn layers(&self, layout: &Layout) -> Vec<Layer> {
        let s = layout.scale;
        let mut layers = Vec::new();
        if let Some(mesh) = self.mesh {
            layers.push(Layer {
                class: "mesh",
                shape: Shape::Segments(mesh_edges(mesh)),
                fill: None,
                stroke: Some((palette::MESH.with_alpha(0.85), (0.08 * s).clamp(1.0, 1.6))),
                crisp: false,
            });
        }
        self.trace_layers(s, &mut layers);
        let path: Vec<Pt> = self.path.iter().map(|p| pt(*p)).collect();
        let path_w = (0.45 * s).clamp(3.0, 6.0);
        if path.len() >= 2 {
            path_layers(vec![path.clone()], path_w, 2.5, &mut layers);
        }
        if path.len() > 2 {
            layers.push(turn_layer(path[1..path.len() - 1].to_vec(), s));
        }
        let r = (0.8 * s).clamp(5.0, 11.0);
        end_layers(pt(self.start), pt(self.goal), r, &mut layers);
        layers
    }

    /// The legend of the marks the picture uses: start, goal, path and turning points, then
    /// the search's marks when there is a trace, and the mesh when one is drawn.
    pub fn legend(&self) -> Vec<LegendItem> {
        let kind = self.trace.first().map(|e| e.1);
        let mut items = path_legend();
        let expanded = match kind {
            Some(TraceEvent::Interval { .. }) => Some("expanded intervals, first to last"),
            Some(TraceEvent::Cell { .. }) => Some("expanded cells, first to last"),
            Some(TraceEvent::Vertex { .. }) => Some("expanded points and parents, first to last"),
            None => None,
        };
        if let Some(name) = expanded {
            items.push(LegendItem::new(LegendMark::Ramp, name));
        }
        if self.mesh.is_some() {
            items.push(LegendItem::new(
                LegendMark::Bar {
                    color: palette::MESH,
                    width_px: 1.5,
                    len_px: 12.0,
                },
                "mesh edges",
            ));
        }
        if matches!(kind, Some(TraceEvent::Interval { .. })) {
            items.push(LegendItem::new(
                LegendMark::Disc {
                    fill: palette::HALO,
                    radius_px: 3.0,
                    stroke: Some(palette::ROOT),
                },
                "root (faint lines: interval to root)",
            ));
        }
        items
    }

    fn trace_layers(&self, s: f64, layers: &mut Vec<Layer>) {
        let band = |i: usize| {
            let t = if self.trace_len > 1 {
                i as f64 / (self.trace_len - 1) as f64
            } else {
                0.0
            };
            ((t * ORDER_BANDS as f64) as usize).min(ORDER_BANDS - 1)
        };
        let band_color = |b: usize| order_color((b as f64 + 0.5) / ORDER_BANDS as f64);
        let mut segs: Vec<Vec<[Pt; 2]>> = vec![Vec::new(); ORDER_BANDS];
        let mut cells: Vec<Vec<Point>> = vec![Vec::new(); ORDER_BANDS];
        let mut root_lines = Vec::new();
        let mut roots = Vec::new();
        let mut seen_roots = HashSet::new();
        for &(i, ev) in self.trace {
            let b = band(i);
            match ev {
                TraceEvent::Interval { row, lo, hi, root } => {
                    let y = f64::from(row);
                    let (lo, hi) = (ratio_f64(lo), ratio_f64(hi));
                    segs[b].push([(lo, y), (hi, y)]);
                    if root.y != row {
                        root_lines.push([pt(root), (lo, y)]);
                        if hi > lo {
                            root_lines.push([pt(root), (hi, y)]);
                        }
                    }
                    if seen_roots.insert(root) {
                        roots.push(pt(root));
                    }
                }
                TraceEvent::Cell { at, .. } => cells[b].push(at),
                TraceEvent::Vertex { at, parent } => {
                    // The start has no parent; it is marked anyway.
                    if let Some(p) = parent {
                        segs[b].push([pt(p), pt(at)]);
                    }
                }
            }
        }
        if !root_lines.is_empty() {
            // Fainter as they get denser, so that a big search stays a light wash over which
            // the intervals' colours remain visible.
            let alpha = 0.22 * (3000.0 / root_lines.len() as f64).sqrt().min(1.0);
            layers.push(Layer {
                class: "root-lines",
                shape: Shape::Segments(root_lines),
                fill: None,
                stroke: Some((palette::ROOT.with_alpha(alpha.max(0.06) as f32), 1.0)),
                crisp: true,
            });
        }
        for (b, mut cells) in cells.into_iter().enumerate() {
            if !cells.is_empty() {
                layers.push(Layer {
                    class: "trace",
                    shape: Shape::Cells(cell_runs(&mut cells)),
                    fill: Some(band_color(b).with_alpha(0.45)),
                    stroke: None,
                    crisp: true,
                });
            }
        }
        for (b, segs) in segs.into_iter().enumerate() {
            if !segs.is_empty() {
                layers.push(Layer {
                    class: "trace",
                    shape: Shape::Segments(segs),
                    fill: None,
                    stroke: Some((band_color(b).with_alpha(0.85), (0.3 * s).clamp(1.0, 3.0))),
                    crisp: true,
                });
            }
        }
        if roots.len() > MANY_ROOTS {
            // Hundreds of rings would grey the search out: small dots instead.
            layers.push(Layer {
                class: "roots",
                shape: Shape::Dots {
                    at: roots,
                    radius_px: (0.15 * s).clamp(0.8, 2.0),
                },
                fill: Some(palette::ROOT.with_alpha(0.55)),
                stroke: None,
                crisp: false,
            });
        } else if !roots.is_empty() {
            layers.push(Layer {
                class: "roots",
                shape: Shape::Dots {
                    at: roots,
                    radius_px: (0.3 * s).clamp(2.5, 4.0),
                },
                fill: Some(palette::HALO.with_alpha(0.8)),
                stroke: Some((palette::ROOT.with_alpha(0.9), 1.0)),
                crisp: false,
            });
        }
    }
}

/// The path as a white halo (`halo` pixels wider) under a line `width` pixels wide, for each
/// of its `parts`: every halo first, so that no part's halo covers another part's line. The
/// marks every picture (search, agent trail, sea route) draws its path with.
pub(crate) fn path_layers(parts: Vec<Vec<Pt>>, width: f64, halo: f64, layers: &mut Vec<Layer>) {
    for part in &parts {
        layers.push(Layer {
            class: "path-halo",
            shape: Shape::Polyline(part.clone()),
            fill: None,
            stroke: Some((palette::HALO.with_alpha(0.9), width + halo)),
            crisp: false,
        });
    }
    for part in parts {
        layers.push(Layer {
            class: "path",
            shape: Shape::Polyline(part),
            fill: None,
            stroke: Some((palette::PATH, width)),
            crisp: false,
        });
    }
}

/// The turning points of a path, as white dots ringed in the path's colour, sized for `scale`
/// pixels per cell.
pub(crate) fn turn_layer(at: Vec<Pt>, scale: f64) -> Layer {
    Layer {
        class: "turns",
        shape: Shape::Dots {
            at,
            radius_px: (0.5 * scale).clamp(3.2, 7.0),
        },
        fill: Some(palette::HALO),
        stroke: Some((palette::PATH, (0.15 * scale).clamp(1.5, 2.5))),
        crisp: false,
    }
}

/// The start (green) and goal (red) discs of `radius` pixels, ringed white.
pub(crate) fn end_layers(start: Pt, goal: Pt, radius: f64, layers: &mut Vec<Layer>) {
    for (class, p, color) in [
        ("start", start, palette::START),
        ("goal", goal, palette::GOAL),
    ] {
        layers.push(Layer {
            class,
            shape: Shape::Dots {
                at: vec![p],
                radius_px: radius,
            },
            fill: Some(color),
            stroke: Some((palette::HALO, 2.0)),
            crisp: false,
        });
    }
}

/// The legend entries of start, goal, path and turning points (every picture has them).
pub fn path_legend() -> Vec<LegendItem> {
    let disc = |fill, radius_px, stroke| LegendMark::Disc {
        fill,
        radius_px,
        stroke,
    };
    vec![
        LegendItem::new(disc(palette::START, 5.0, None), "start"),
        LegendItem::new(disc(palette::GOAL, 5.0, None), "goal"),
        LegendItem::new(
            LegendMark::Bar {
                color: palette::PATH,
                width_px: 4.0,
                len_px: 12.0,
            },
            "path",
        ),
        LegendItem::new(
            disc(palette::HALO, 4.0, Some(palette::PATH)),
            "turning point",
        ),
    ]
}

/// Every edge of the mesh's polygons once: an edge between two polygons is listed by the
/// polygon with the smaller index, an obstacle side by its only polygon.
pub fn mesh_edges(mesh: &Mesh) -> Vec<[Pt; 2]> {
    let mut edges = Vec::new();
    for p in 0..mesh.polygon_count() as u32 {
        let vs = mesh.poly_vertices(p);
        for (i, &across) in mesh.poly_adjacent(p).iter().enumerate() {
            if across == NO_POLY || across as u32 > p {
                let (a, b) = (mesh.point(vs[i]), mesh.point(vs[(i + 1) % vs.len()]));
                edges.push([(a.x, a.y), (b.x, b.y)]);
            }
        }
    }
    edges
}

/// Reads a navigation mesh ("mesh 2" file) to draw over `grid` ([`Scene::mesh`]) and checks
/// that it lies on the map: within `[0, width] x [0, height]` in the map's lattice
/// coordinates.
///
/// # Errors
/// [`RenderError::Mesh`] when the file cannot be read or is not a valid mesh,
/// [`RenderError::MeshOutsideMap`] when its polygons reach beyond the map.
pub fn load_mesh(path: &Path, grid: &Grid) -> Result<Mesh, RenderError> {
    let mesh = read_mesh(path)?;
    let (min, max) = mesh.bounds();
    let (w, h) = (f64::from(grid.width()), f64::from(grid.height()));
    if min.x < 0.0 || min.y < 0.0 || max.x > w || max.y > h {
        return Err(RenderError::MeshOutsideMap {
            path: path.to_path_buf(),
            min: (min.x, min.y),
            max: (max.x, max.y),
            width: grid.width(),
            height: grid.height(),
        });
    }
    Ok(mesh)
}

fn pt(p: Point) -> Pt {
    (f64::from(p.x), f64::from(p.y))
}

fn ratio_f64(r: taut_grid::Rational) -> f64 {
    *r.numer() as f64 / *r.denom() as f64
}

/// Whether the pixel block covering cells `x0..x1` × `y0..y1` is drawn dark: when most of
/// its cells are blocked (cells off the map do not count).
pub fn cell_is_dark(grid: &Grid, x0: i32, x1: i32, y0: i32, y1: i32) -> bool {
    let (x1, y1) = (x1.min(grid.width()), y1.min(grid.height()));
    let mut blocked = 0u64;
    let mut total = 0u64;
    for y in y0.max(0)..y1 {
        for x in x0.max(0)..x1 {
            total += 1;
            blocked += u64::from(!grid.is_free(x, y));
        }
    }
    total > 0 && 2 * blocked > total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_fits_the_long_side() {
        // 512 cells in 1024 px: 2 px per cell, plus 6 px margins.
        let l = Layout::fit(512, 512, 1024, None).unwrap();
        assert_eq!((l.scale, l.width, l.height), (2.0, 1036, 1036));
        // Whole pixels per cell only: 1100 / 512 = 2.15 gives 2.
        let l = Layout::fit(512, 256, 1100, None).unwrap();
        assert_eq!((l.scale, l.width, l.height), (2.0, 1036, 524));
        // More cells than pixels: 2 x 2 cells per pixel.
        let l = Layout::fit(4000, 10, 2048, None).unwrap();
        assert_eq!((l.scale, l.width, l.height), (0.5, 2012, 17));
        let l = Layout::fit(10, 10, 100, Some(2.5)).unwrap();
        assert_eq!((l.width, l.height), (37, 37));
        assert!(matches!(
            Layout::fit(10, 10, 100, Some(0.0)),
            Err(RenderError::BadSize(_))
        ));
        assert!(matches!(
            Layout::fit(10, 10, 0, None),
            Err(RenderError::BadSize(_))
        ));
        assert!(matches!(
            Layout::fit(10_000, 10, 100, Some(10.0)),
            Err(RenderError::TooLarge { .. })
        ));
    }

    #[test]
    fn sampling_keeps_order_ends_and_count() {
        let ev = |x| TraceEvent::Cell {
            at: Point::new(x, 0),
            parent: None,
        };
        let trace: Vec<_> = (0..10).map(ev).collect();
        let all = sample_trace(&trace, 100);
        assert_eq!(all.len(), 10);
        let some = sample_trace(&trace, 4);
        let idx: Vec<usize> = some.iter().map(|e| e.0).collect();
        assert_eq!(idx, [0, 2, 5, 7]);
        assert!(some.iter().all(|&(i, e)| e == trace[i]));
        assert!(sample_trace(&trace, 0).is_empty());
    }

    #[test]
    fn cells_merge_into_row_runs() {
        let mut cells: Vec<Point> = [(3, 1), (0, 0), (1, 0), (5, 1), (4, 1), (1, 0), (3, 0)]
            .map(|(x, y)| Point::new(x, y))
            .to_vec();
        let run = |y, x0, x1| CellRun { y, x0, x1 };
        assert_eq!(
            cell_runs(&mut cells),
            [run(0, 0, 2), run(0, 3, 4), run(1, 3, 6)]
        );
        assert!(cell_runs(&mut []).is_empty());
    }

    #[test]
    fn order_colors_run_from_first_to_last_stop() {
        assert_eq!(order_color(0.0), palette::ORDER[0]);
        assert_eq!(order_color(1.0), palette::ORDER[4]);
        assert_eq!(order_color(-3.0), palette::ORDER[0]);
        assert_eq!(order_color(0.25), palette::ORDER[1]);
    }

    #[test]
    fn a_pixel_is_dark_when_most_of_its_cells_are_blocked() {
        let g = Grid::from_ascii(&["@@.", "@..", "..."]).unwrap();
        assert!(cell_is_dark(&g, 0, 1, 0, 1));
        assert!(!cell_is_dark(&g, 2, 3, 0, 1));
        assert!(cell_is_dark(&g, 0, 2, 0, 2)); // 3 of 4
        assert!(!cell_is_dark(&g, 1, 3, 0, 2)); // 1 of 4
        assert!(!cell_is_dark(&g, 0, 2, 1, 3)); // 1 of 4
        // Off-map cells do not count: only (2, 2) is on the map, and it is free.
        assert!(!cell_is_dark(&g, 2, 4, 2, 4));
    }
}
