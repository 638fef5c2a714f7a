//! Pictures of sphere routes (`taut route --render`, `taut render --sphere`): the sea/land
//! raster, the route and its waypoints in the equirectangular projection.
//!
//! Map units are the raster's cells, as for grid maps: x = column, y = row, so longitude
//! `lon` is at x = (lon + 180) / 360 · width and latitude `lat` at y = (90 − lat) / 180 ·
//! height (x = longitude, y = latitude, north up). The map is drawn by the same code as
//! `taut render`'s ([`super::svg::render_picture`], [`super::png::render_picture`]) from a
//! planar copy of the raster, in the same colours: sea light, land dark. The route is
//! densified and split at the antimeridian ([`super::flat_map`]), so a route across the
//! Pacific leaves the picture at one side and comes back at the other instead of crossing the
//! whole map; great circles show as curves, legs along a parallel as horizontal lines.
//!
//! Marks: the route as a thick teal line on a white halo, its waypoints (turning points and
//! the ends of legs along a parallel) as white dots ringed in teal, the start green, the goal
//! red; an endpoint that snapping moved keeps a small grey ring where it was given, joined
//! to where it went by a thin line.

use taut_grid::Grid;
use taut_spherical::{LatLon, Route, SphereGrid};

use super::flat_map::{DENSIFY_DEG, densify_route, split_antimeridian};
use super::{
    ImageFormat, Layer, Layout, LegendItem, LegendMark, Pt, RenderError, Shape, end_layers,
    palette, path_layers, path_legend, turn_layer,
};

/// An endpoint of a sphere route as `taut route` reports it: the point searched from (or to),
/// and the point as given when snapping moved it to a sea cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct End {
    /// The point the route starts (or ends) at.
    pub point: LatLon,
    /// The point as given, if it was moved to a sea cell.
    pub given: Option<LatLon>,
    /// How far it was moved, km (0 when it was not).
    pub snap_km: f64,
}

/// Everything a sphere picture shows.
#[derive(Debug, Clone, Copy)]
pub struct SphereScene<'a> {
    /// The map.
    pub grid: &'a SphereGrid,
    /// The route, if one was found.
    pub route: Option<&'a Route>,
    /// The start (snapped, and as given).
    pub from: End,
    /// The goal.
    pub to: End,
}

impl SphereScene<'_> {
    /// The raster as a planar grid: cell (x, y) is the sphere's cell (row y, column x).
    pub fn raster(&self) -> Grid {
        let g = self.grid;
        Grid::from_fn(g.width(), g.height(), |x, y| {
            g.is_free(i64::from(y), i64::from(x))
        })
    }

    /// The map units of a point (longitude +180 stays on the east edge).
    pub fn project(&self, p: LatLon) -> Pt {
        let lon = if p.lon == 180.0 {
            180.0
        } else {
            taut_spherical::geo::wrap_deg(p.lon)
        };
        project(self.grid, lon, p.lat)
    }

    /// The route as polylines in map units: densified, split at the antimeridian.
    pub fn route_parts(&self) -> Vec<Vec<Pt>> {
        let Some(route) = self.route else {
            return Vec::new();
        };
        split_antimeridian(&densify_route(route, DENSIFY_DEG))
            .into_iter()
            .map(|part| {
                part.into_iter()
                    .map(|[lon, lat]| project(self.grid, lon, lat))
                    .collect()
            })
            .collect()
    }

    /// The overlays in drawing order: the snapping marks, the route (one polyline per part),
    /// its waypoints, start and goal. Sizes follow the layout's scale as in
    /// [`Scene::layers`](super::Scene::layers).
    pub fn layers(&self, layout: &Layout) -> Vec<Layer> {
        let s = layout.scale;
        let mut layers = Vec::new();
        let mut snap_lines = Vec::new();
        let mut given = Vec::new();
        for end in [self.from, self.to] {
            if let Some(g) = end.given {
                let (a, b) = (self.project(g), self.project(end.point));
                // A snap across the antimeridian would cross the picture: ring only.
                if (a.0 - b.0).abs() < f64::from(self.grid.width()) / 2.0 {
                    snap_lines.push([a, b]);
                }
                given.push(a);
            }
        }
        if !snap_lines.is_empty() {
            layers.push(Layer {
                class: "snap",
                shape: Shape::Segments(snap_lines),
                fill: None,
                stroke: Some((palette::ROOT.with_alpha(0.8), 1.5)),
                crisp: false,
            });
        }
        if !given.is_empty() {
            layers.push(Layer {
                class: "given",
                shape: Shape::Dots {
                    at: given,
                    radius_px: (0.5 * s).clamp(3.5, 7.0),
                },
                fill: None,
                stroke: Some((palette::ROOT, 1.5)),
                crisp: false,
            });
        }
        let path_w = (0.45 * s).clamp(3.0, 6.0);
        path_layers(self.route_parts(), path_w, 2.5, &mut layers);
        let waypoints = self.route.map(Route::waypoints).unwrap_or_default();
        if waypoints.len() > 2 {
            let at = waypoints[1..waypoints.len() - 1]
                .iter()
                .map(|&p| self.project(p))
                .collect();
            layers.push(turn_layer(at, s));
        }
        let r = (0.8 * s).clamp(5.0, 11.0);
        end_layers(
            self.project(self.from.point),
            self.project(self.to.point),
            r,
            &mut layers,
        );
        layers
    }

    /// The legend: start, goal, path, waypoint, and the given points when snapping moved one.
    pub fn legend(&self) -> Vec<LegendItem> {
        let mut items = path_legend();
        if let Some(item) = items.iter_mut().find(|i| i.name == "turning point") {
            item.name = "waypoint".to_owned();
        }
        if self.from.given.is_some() || self.to.given.is_some() {
            items.push(LegendItem::new(
                LegendMark::Disc {
                    fill: palette::FREE,
                    radius_px: 4.0,
                    stroke: Some(palette::ROOT),
                },
                "point as given (moved to the nearest sea cell)",
            ));
        }
        items
    }
}

fn project(grid: &SphereGrid, lon: f64, lat: f64) -> Pt {
    (
        (lon + 180.0) / 360.0 * f64::from(grid.width()),
        (90.0 - lat) / 180.0 * f64::from(grid.height()),
    )
}

/// Draws `scene` at `layout` in `format`, with `caption` under the map (SVG only).
///
/// # Errors
/// As [`super::png::render_picture`].
pub fn render_sphere(
    scene: &SphereScene<'_>,
    layout: &Layout,
    format: ImageFormat,
    caption: &str,
) -> Result<Vec<u8>, RenderError> {
    let raster = scene.raster();
    super::render_layers(
        &raster,
        &scene.layers(layout),
        &scene.legend(),
        layout,
        format,
        caption,
    )
}
