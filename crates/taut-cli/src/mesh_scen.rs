//! `taut scen --algo polyanya --mesh M.mesh --scen S.scen` on a mesh with no grid map: the
//! scenario names `.mesh` files and may give fractional coordinates (the reference Polyanya's
//! test scenarios do). Same columns as the grid form; coordinates are written as given.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use taut_grid::Status;
use taut_polyanya::{Ambiguity, MeshAnswer, MeshPoint, Options, SearchContext, read_mesh};

use crate::args::{ScenArgs, ScenFormat};
use crate::error::CliError;
use crate::scen::CSV_HEADER;

/// Whether `scen` is a mesh scenario: its first query names a `.mesh` file.
pub fn is_mesh_scenario(scen: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(scen) else {
        return false;
    };
    text.lines()
        .skip(1)
        .find(|l| !l.trim().is_empty())
        .and_then(|l| l.split_whitespace().nth(1))
        .is_some_and(|m| m.ends_with(".mesh"))
}

/// One query of a mesh scenario.
struct MeshQuery {
    start: MeshPoint,
    goal: MeshPoint,
}

fn parse(scen: &Path) -> Result<Vec<MeshQuery>, CliError> {
    let text = std::fs::read_to_string(scen).map_err(|e| CliError::BadMeshScenario {
        path: scen.to_owned(),
        line: 0,
        reason: e.to_string(),
    })?;
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, l)) if l.trim_start().starts_with("version") => {}
        _ => {
            return Err(CliError::BadMeshScenario {
                path: scen.to_owned(),
                line: 1,
                reason: "expected a `version` line".into(),
            });
        }
    }
    let mut out = Vec::new();
    for (i, l) in lines {
        if l.trim().is_empty() {
            continue;
        }
        let bad = |reason: String| CliError::BadMeshScenario {
            path: scen.to_owned(),
            line: i + 1,
            reason,
        };
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() != 9 {
            return Err(bad(format!("expected 9 fields, found {}", f.len())));
        }
        let num = |k: usize| -> Result<f64, CliError> {
            f[k].parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    bad(format!(
                        "field {} is not a finite number: {:?}",
                        k + 1,
                        f[k]
                    ))
                })
        };
        out.push(MeshQuery {
            start: MeshPoint::new(num(4)?, num(5)?),
            goal: MeshPoint::new(num(6)?, num(7)?),
        });
    }
    Ok(out)
}

/// Runs a mesh scenario on `mesh_path`. A start or goal off the mesh, or on an ambiguous vertex
/// (obstacles touching there), is `invalid`.
///
/// # Errors
/// The mesh or scenario cannot be read, or writing fails.
pub fn run_mesh_scen(
    args: &ScenArgs,
    mesh_path: &Path,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mesh = read_mesh(mesh_path)?;
    let queries = parse(&args.scen)?;
    let n = args.limit.map_or(queries.len(), |l| l.min(queries.len()));
    let options = Options {
        cul_de_sac: !args.planner.no_cul_de_sac,
        intermediate: !args.planner.no_intermediate,
        ambiguity: Ambiguity::Refuse,
    };
    let mut ctx = SearchContext::new();
    let mut answer = MeshAnswer::default();
    let json = args.format == ScenFormat::Json;
    if json {
        write!(out, "[")?;
    } else {
        writeln!(out, "{CSV_HEADER}")?;
    }
    for (index, q) in queries[..n].iter().enumerate() {
        let t = Instant::now();
        let r = ctx.search(&mesh, q.start, q.goal, &options, &mut answer);
        let time_us = t.elapsed().as_secs_f64() * 1e6;
        let (status, length, time_us) = match r {
            Ok(Status::Found) => ("ok", format!("{:.8}", answer.length), time_us),
            Ok(Status::Unreachable) => ("unreachable", "-1".to_owned(), time_us),
            Err(_) => ("invalid", "-1".to_owned(), 0.0),
        };
        let (e, g) = (answer.stats.expanded, answer.stats.generated);
        let (s, t) = (q.start, q.goal);
        if json {
            write!(
                out,
                "{}\n  {{\"index\":{index},\"start_x\":{},\"start_y\":{},\"goal_x\":{},\"goal_y\":{},\
                 \"status\":\"{status}\",\"length\":{length},\"expanded\":{e},\"generated\":{g},\"time_us\":{time_us:.3}}}",
                if index == 0 { "" } else { "," },
                s.x,
                s.y,
                t.x,
                t.y
            )?;
        } else {
            writeln!(
                out,
                "{index},{},{},{},{},{status},{length},{e},{g},{time_us:.3}",
                s.x, s.y, t.x, t.y
            )?;
        }
    }
    if json {
        writeln!(out, "{}]", if n == 0 { "" } else { "\n" })?;
    }
    Ok(())
}
