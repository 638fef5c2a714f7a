//! Pictures of a real-time agent's run (`taut agent --render`): the map, the agent's trail,
//! its start and goal, and the blocked cells it saw.
//!
//! The agent moves between cells, so the trail is drawn through cell centres: cell `(x, y)`
//! is the point `(x + 0.5, y + 0.5)` in map units (see the [module docs](super)). The map is
//! drawn by the same code as `taut render`'s ([`super::svg::render_picture`],
//! [`super::png::render_picture`]), in the same colours.
//!
//! Marks: the trail as a teal line on a white halo (the straight runs of moves merged into one
//! segment each), the start green, the goal red, and the blocked cells the agent saw tinted
//! orange. The agent senses the 8 cells around every cell it stands on, so the cells it saw
//! are exactly the blocked cells within one cell of its trail.

use taut_grid::{Grid, Point};

use super::{
    ImageFormat, Layer, Layout, LegendItem, LegendMark, Pt, RenderError, Shape, cell_runs,
    end_layers, palette, path_layers, path_legend,
};

/// The tint of the blocked cells the agent saw.
const SEEN: super::Color = palette::ORDER[4];

/// Everything a picture of one agent run shows.
#[derive(Debug, Clone, Copy)]
pub struct TrailScene<'a> {
    /// The true map.
    pub grid: &'a Grid,
    /// The start cell.
    pub start: Point,
    /// The goal cell.
    pub goal: Point,
    /// The cells visited, start first (empty when the agent did not run).
    pub trail: &'a [Point],
}

/// The centre of a cell, in map units.
fn centre(c: Point) -> Pt {
    (f64::from(c.x) + 0.5, f64::from(c.y) + 0.5)
}

impl TrailScene<'_> {
    /// The blocked cells within one cell of the trail (what the agent saw), each once, in
    /// order of first sight.
    pub fn seen_blocked(&self) -> Vec<Point> {
        let (w, h) = (self.grid.width(), self.grid.height());
        let mut marked = vec![false; w as usize * h as usize];
        let mut seen = Vec::new();
        for c in self.trail {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (x, y) = (c.x + dx, c.y + dy);
                    if x < 0 || y < 0 || x >= w || y >= h || self.grid.is_free(x, y) {
                        continue;
                    }
                    let i = y as usize * w as usize + x as usize;
                    if !marked[i] {
                        marked[i] = true;
                        seen.push(Point::new(x, y));
                    }
                }
            }
        }
        seen
    }

    /// The trail as a polyline through cell centres, with the inner cells of straight runs
    /// left out (a run of moves in one direction is one segment).
    pub fn polyline(&self) -> Vec<Pt> {
        let mut pts: Vec<Point> = Vec::new();
        for &c in self.trail {
            match pts.as_slice() {
                // Trail steps are unit moves, so a merged run keeps the sign of its step.
                [.., a, b]
                    if ((b.x - a.x).signum(), (b.y - a.y).signum()) == (c.x - b.x, c.y - b.y) =>
                {
                    *pts.last_mut().expect("two points") = c;
                }
                [.., b] if *b == c => {}
                _ => pts.push(c),
            }
        }
        pts.into_iter().map(centre).collect()
    }

    /// The overlays in drawing order: the blocked cells seen, the trail, start and goal.
    /// Sizes follow the layout's scale as in [`Scene::layers`](super::Scene::layers).
    pub fn layers(&self, layout: &Layout) -> Vec<Layer> {
        let s = layout.scale;
        let mut layers = Vec::new();
        let mut seen = self.seen_blocked();
        if !seen.is_empty() {
            layers.push(Layer {
                class: "seen",
                shape: Shape::Cells(cell_runs(&mut seen)),
                fill: Some(SEEN.with_alpha(0.7)),
                stroke: None,
                crisp: true,
            });
        }
        let line = self.polyline();
        if line.len() >= 2 {
            let w = (0.3 * s).clamp(2.0, 5.0);
            path_layers(vec![line], w, 2.0, &mut layers);
        }
        let r = (0.6 * s).clamp(4.0, 10.0);
        end_layers(centre(self.start), centre(self.goal), r, &mut layers);
        layers
    }

    /// The legend: start, goal, the trail, and the blocked cells seen.
    pub fn legend(&self) -> Vec<LegendItem> {
        let mut items: Vec<LegendItem> = path_legend()
            .into_iter()
            .filter(|i| i.name != "turning point")
            .collect();
        if let Some(item) = items.iter_mut().find(|i| i.name == "path") {
            item.name = "trail (cell centres)".to_owned();
        }
        items.push(LegendItem::new(
            LegendMark::Bar {
                color: SEEN,
                width_px: 8.0,
                len_px: 8.0,
            },
            "blocked cells the agent saw",
        ));
        items
    }
}

/// Draws `scene` at `layout` in `format`, with `caption` under the map (SVG only).
///
/// # Errors
/// As [`super::png::render_picture`].
pub fn render_trail(
    scene: &TrailScene<'_>,
    layout: &Layout,
    format: ImageFormat,
    caption: &str,
) -> Result<Vec<u8>, RenderError> {
    super::render_layers(
        scene.grid,
        &scene.layers(layout),
        &scene.legend(),
        layout,
        format,
        caption,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(v: &[(i32, i32)]) -> Vec<Point> {
        v.iter().map(|&(x, y)| Point::new(x, y)).collect()
    }

    #[test]
    fn straight_runs_become_one_segment() {
        let grid = Grid::from_ascii(&["....", "....", "...."]).unwrap();
        // East twice, south-east once, back west twice: turns are kept, reversals too.
        let trail = pts(&[(0, 0), (1, 0), (2, 0), (3, 1), (2, 1), (1, 1), (2, 1)]);
        let scene = TrailScene {
            grid: &grid,
            start: trail[0],
            goal: trail[6],
            trail: &trail,
        };
        assert_eq!(
            scene.polyline(),
            [(0.5, 0.5), (2.5, 0.5), (3.5, 1.5), (1.5, 1.5), (2.5, 1.5)]
        );
        let one = pts(&[(1, 1)]);
        let scene = TrailScene {
            trail: &one,
            ..scene
        };
        assert_eq!(scene.polyline(), [(1.5, 1.5)]);
        assert!(scene.seen_blocked().is_empty());
    }

    /// The blocked cells within one cell of the trail are exactly the blocked cells the
    /// simulator counts as discovered, for every agent on a map with a wall and a pocket.
    #[test]
    fn the_cells_seen_are_the_simulators_discoveries() {
        let grid = Grid::from_ascii(&[
            "..........",
            "....@@@...",
            "..@....@..",
            "..@.@..@..",
            "..@@@..@..",
            "..........",
        ])
        .unwrap();
        let world = taut_frit::World::new(&grid);
        let mut scratch = taut_frit::Scratch::new();
        for algo in taut_frit::AgentAlgo::ALL {
            let mut agent = algo.agent();
            let params = taut_frit::RunParams {
                record: true,
                ..taut_frit::RunParams::new(algo.effective_lookahead(3))
            };
            let out = taut_frit::run(
                &world,
                agent.as_mut(),
                (0, 3),
                (5, 3),
                &params,
                &mut scratch,
            )
            .unwrap();
            assert_eq!(out.status, taut_frit::Status::Reached, "{algo}");
            let trail: Vec<Point> = out
                .trail
                .unwrap()
                .into_iter()
                .map(|c| {
                    let (x, y) = world.xy(c);
                    Point::new(x, y)
                })
                .collect();
            assert_eq!(trail.len() as u64, out.stats.moves + 1, "{algo}");
            let scene = TrailScene {
                grid: &grid,
                start: trail[0],
                goal: *trail.last().unwrap(),
                trail: &trail,
            };
            assert_eq!(
                scene.seen_blocked().len() as u64,
                out.stats.discovered,
                "{algo}"
            );
        }
    }
}
