//! The time-against-difficulty plot: queries sorted by A* expansions, in percentile bins, with
//! each planner's mean time per bin on a log scale (Figure 4 of the End Point Search paper).

use std::path::Path;

use plotters::prelude::*;

use crate::error::BenchError;
use crate::run::{QueryOutcome, SuiteRun};
use taut::registry::PlannerSpec;

/// One planner's curve: (bin centre in percent, mean µs in the bin).
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// The planner.
    pub planner: PlannerSpec,
    /// The points, by increasing percentile.
    pub points: Vec<(f64, f64)>,
}

/// The curves of `run`, or `None` when A* did not run (it defines difficulty) or fewer than
/// 10 queries were solved by every planner. Only queries every planner found a path for count;
/// bins hold at least 10 queries (at most 100 bins).
pub fn difficulty_curves(run: &SuiteRun) -> Option<Vec<Curve>> {
    let np = run.planners.len();
    let astar = run.astar()?;
    let mut queries: Vec<&[crate::run::Record]> = run
        .records
        .chunks(np)
        .filter(|q| q.iter().all(|r| r.outcome == QueryOutcome::Found))
        .collect();
    let n = queries.len();
    if n < 10 {
        return None;
    }
    queries.sort_by_key(|q| q[astar].expanded);
    let bins = (n / 10).clamp(1, 100);
    let curves = (0..np)
        .map(|p| {
            let points = (0..bins)
                .map(|b| {
                    let (lo, hi) = (b * n / bins, (b + 1) * n / bins);
                    let sum: f64 = queries[lo..hi].iter().map(|q| q[p].micros).sum();
                    let centre = 100.0 * (lo + hi) as f64 / 2.0 / n as f64;
                    (centre, sum / (hi - lo) as f64)
                })
                .collect();
            Curve {
                planner: run.planners[p].clone(),
                points,
            }
        })
        .collect();
    Some(curves)
}

/// Each plain planner keeps its colour from plot to plot; variants (`anya:…`) take the extras.
fn colour(planner: &PlannerSpec, extra: &mut usize) -> RGBColor {
    const EXTRAS: [RGBColor; 4] = [
        RGBColor(0xd6, 0x27, 0x28),
        RGBColor(0x8c, 0x56, 0x4b),
        RGBColor(0xe3, 0x77, 0xc2),
        RGBColor(0x17, 0xbe, 0xcf),
    ];
    if planner.label == planner.algo.name() {
        match planner.label.as_str() {
            "astar" => return RGBColor(0x44, 0x44, 0x44),
            "theta" => return RGBColor(0xff, 0x7f, 0x0e),
            "lazy-theta" => return RGBColor(0x94, 0x67, 0xbd),
            "vg" => return RGBColor(0x2c, 0xa0, 0x2c),
            "anya" => return RGBColor(0x1f, 0x77, 0xb4),
            _ => {}
        }
    }
    *extra += 1;
    EXTRAS[(*extra - 1) % EXTRAS.len()]
}

/// The drawing area of an SVG plot.
pub(crate) type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// A white 720 × 460 SVG canvas for the file at `path`, with `footer` (the provenance line)
/// in small grey print along its bottom; returns the area above the footer (`present` it
/// once drawn).
///
/// # Errors
/// [`BenchError::Write`] when drawing fails.
pub(crate) fn canvas<'a>(path: &'a Path, footer: &str) -> Result<Area<'a>, BenchError> {
    let err = |e: String| BenchError::Write {
        path: path.to_owned(),
        msg: e,
    };
    let root = SVGBackend::new(path, (720, 460)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let (plot_area, footer_area) = root.split_vertically(440);
    footer_area
        .draw_text(
            footer,
            &("sans-serif", 11)
                .into_font()
                .color(&RGBColor(0x66, 0x66, 0x66)),
            (12, 2),
        )
        .map_err(|e| err(e.to_string()))?;
    Ok(plot_area)
}

/// Draws `curves` to an SVG file at `path` with `title`, and `footer` (the provenance line:
/// machine, commit, date) in small print under the plot.
///
/// # Errors
/// [`BenchError::Write`] when drawing or writing fails.
pub fn write_svg(
    path: &Path,
    title: &str,
    footer: &str,
    curves: &[Curve],
) -> Result<(), BenchError> {
    let err = |e: String| BenchError::Write {
        path: path.to_owned(),
        msg: e,
    };
    let ys = curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.1))
        .filter(|y| *y > 0.0);
    let (lo, hi) = ys.fold((f64::INFINITY, 0f64), |(a, b), y| (a.min(y), b.max(y)));
    if !lo.is_finite() {
        return Err(err("no positive times to plot".into()));
    }
    let (lo, hi) = (
        10f64.powf(lo.log10().floor()),
        10f64.powf(hi.log10().ceil().max(lo.log10().floor() + 1.0)),
    );
    let plot_area = canvas(path, footer)?;
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..100f64, (lo..hi).log_scale())
        .map_err(|e| err(e.to_string()))?;
    chart
        .configure_mesh()
        .x_desc("A* difficulty percentile (queries sorted by A* expansions)")
        .y_desc("mean time per query (µs)")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v}"))
        .draw()
        .map_err(|e| err(e.to_string()))?;
    let mut extra = 0;
    for c in curves {
        let colour = colour(&c.planner, &mut extra);
        chart
            .draw_series(LineSeries::new(
                c.points.iter().copied().filter(|p| p.1 > 0.0),
                colour.stroke_width(2),
            ))
            .map_err(|e| err(e.to_string()))?
            .label(c.planner.label.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(e.to_string()))?;
    plot_area.present().map_err(|e| err(e.to_string()))?;
    Ok(())
}
