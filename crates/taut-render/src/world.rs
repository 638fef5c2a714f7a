//! Pictures of a changing world (the facade's `taut::script`, `taut world` in the CLI): the
//! map as it is at one moment, every agent's trail so far, its planned path from where it
//! stands, its goal, and the cells an edit changes.

use taut_grid::{CellRect, Grid};

use super::{
    Color, ImageFormat, Layer, Layout, LegendItem, LegendMark, Pt, RenderError, Shape, palette,
};

/// The tint of cells an edit changes (drawn over the map as it is after the edit when blocked,
/// before it when freed).
pub const EDITED: Color = Color::opaque(0xf5, 0x9c, 0x2a);

/// The colour of the trail already walked.
const TRAIL: Color = palette::ORDER[1];

/// One agent as a picture shows it.
#[derive(Debug, Clone, Copy)]
pub struct AgentView<'a> {
    /// Where it has been, first to last (its position last).
    pub trail: &'a [Pt],
    /// Its planned path from its position to its goal (empty while it waits for a path).
    pub plan: &'a [Pt],
    /// Its goal.
    pub goal: Pt,
}

/// Everything one frame of a changing world shows.
#[derive(Debug, Clone, Copy)]
pub struct WorldScene<'a> {
    /// The map as it is at this moment.
    pub grid: &'a Grid,
    /// The agents.
    pub agents: &'a [AgentView<'a>],
    /// Cells an edit changes at this moment, tinted.
    pub edited: Option<CellRect>,
}

impl WorldScene<'_> {
    /// The layers, bottom first: edited cells, plans (halo, then colour), trails, goals,
    /// positions.
    pub fn layers(&self, layout: &Layout) -> Vec<Layer> {
        // Stroke widths are in pixels: a fifth of a cell, within 1.5 to 4 pixels.
        let line = (0.2 * layout.scale).clamp(1.5, 4.0);
        let mut layers = Vec::new();
        if let Some(r) = self.edited {
            let runs = (r.y0..r.y0 + r.height)
                .map(|y| super::CellRun {
                    y,
                    x0: r.x0,
                    x1: r.x0 + r.width,
                })
                .collect();
            layers.push(Layer {
                class: "edited",
                shape: Shape::Cells(runs),
                fill: Some(EDITED.with_alpha(0.8)),
                stroke: None,
                crisp: true,
            });
        }
        for a in self.agents.iter().filter(|a| a.plan.len() >= 2) {
            layers.push(Layer {
                class: "plan-halo",
                shape: Shape::Polyline(a.plan.to_vec()),
                fill: None,
                stroke: Some((palette::HALO, line * 2.0)),
                crisp: false,
            });
            layers.push(Layer {
                class: "plan",
                shape: Shape::Polyline(a.plan.to_vec()),
                fill: None,
                stroke: Some((palette::PATH, line)),
                crisp: false,
            });
        }
        for a in self.agents.iter().filter(|a| a.trail.len() >= 2) {
            layers.push(Layer {
                class: "trail",
                shape: Shape::Polyline(a.trail.to_vec()),
                fill: None,
                stroke: Some((TRAIL, line)),
                crisp: false,
            });
        }
        let dot = (3.0f64).max(0.35 * layout.scale);
        layers.push(Layer {
            class: "goals",
            shape: Shape::Dots {
                at: self.agents.iter().map(|a| a.goal).collect(),
                radius_px: dot,
            },
            fill: Some(palette::GOAL),
            stroke: Some((palette::HALO, 1.0)),
            crisp: false,
        });
        layers.push(Layer {
            class: "agents",
            shape: Shape::Dots {
                at: self
                    .agents
                    .iter()
                    .filter_map(|a| a.trail.last().copied())
                    .collect(),
                radius_px: dot,
            },
            fill: Some(palette::START),
            stroke: Some((palette::HALO, 1.0)),
            crisp: false,
        });
        layers
    }

    /// What the marks mean (the legend under an SVG picture).
    pub fn legend(&self) -> Vec<LegendItem> {
        let disc = |fill| LegendMark::Disc {
            fill,
            radius_px: 4.0,
            stroke: None,
        };
        let bar = |color| LegendMark::Bar {
            color,
            width_px: 3.0,
            len_px: 18.0,
        };
        vec![
            LegendItem::new(disc(palette::START), "agent"),
            LegendItem::new(disc(palette::GOAL), "goal"),
            LegendItem::new(bar(palette::PATH), "planned path"),
            LegendItem::new(bar(TRAIL), "walked"),
            LegendItem::new(disc(EDITED), "edited cells"),
        ]
    }
}

/// Draws `scene` at `layout` as SVG (with `caption` and the legend) or PNG.
///
/// # Errors
/// As [`crate::png::render`] for PNG pictures.
pub fn render_world(
    scene: &WorldScene<'_>,
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

    #[test]
    fn every_agent_gets_a_position_and_a_goal_and_plans_are_drawn() {
        let grid = Grid::from_ascii(&["....", "....", "...."]).unwrap();
        let trail = [(0.0, 0.0), (1.0, 1.0)];
        let plan = [(1.0, 1.0), (4.0, 3.0)];
        let agents = [
            AgentView {
                trail: &trail,
                plan: &plan,
                goal: (4.0, 3.0),
            },
            AgentView {
                trail: &[(2.0, 0.0)],
                plan: &[],
                goal: (0.0, 3.0),
            },
        ];
        let scene = WorldScene {
            grid: &grid,
            agents: &agents,
            edited: Some(CellRect::cell(2, 1)),
        };
        let layout = Layout::fit(4, 3, 200, None).unwrap();
        let layers = scene.layers(&layout);
        let classes: Vec<&str> = layers.iter().map(|l| l.class).collect();
        assert_eq!(
            classes,
            ["edited", "plan-halo", "plan", "trail", "goals", "agents"]
        );
        match &layers[5].shape {
            Shape::Dots { at, .. } => assert_eq!(at, &[(1.0, 1.0), (2.0, 0.0)]),
            other => panic!("agents are dots, not {other:?}"),
        }
        let svg = render_world(&scene, &layout, ImageFormat::Svg, "t").unwrap();
        assert!(String::from_utf8(svg).unwrap().contains("class=\"plan\""));
        let png = render_world(&scene, &layout, ImageFormat::Png, "t").unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
}
