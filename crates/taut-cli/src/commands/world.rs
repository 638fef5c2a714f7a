//! `taut world`: run a script of agents and timed edits on a changing map
//! ([`taut::script`]): every edit makes a new version of the map, every agent re-plans
//! (mesh planners repair their mesh locally), and the run prints what happened, step by step,
//! with optional picture frames before and after every edit.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde_json::{Value, json};
use taut::PlannerSpec;
use taut::World;
use taut::grid::{CellRect, FreeSet, Grid, MapFile};
use taut::render::Layout;
use taut::render::world::{AgentView, WorldScene, render_world};
use taut::script::{AgentState, AgentStatus, Event, Options, Script, Simulation, Waiting};

use crate::args::{ImageFormat, parse_free_set};
use crate::error::{CliError, write_file};

/// The long help of `taut world` (`taut world --help`).
pub const ABOUT: &str = "\
Run a script of agents and timed edits on a changing map: doors close and open while agents
walk to their goals, and every agent re-plans (exactly, with the planner of --algo) after
an edit that blocks its path or frees cells (it keeps its path unless the new one is
shorter). Prints one line per event and a summary per agent; --frames draws the map before
and after every edit.

The script is a text file, one item per line ('#' starts a comment):
  map FILE                   the .map file, relative to the script (or give --map)
  agent NAME X,Y X,Y         an agent, its start and its goal: lattice points, each the
                             top-left corner of a free cell
  at STEP block X,Y [X,Y]    at step STEP block the cells of the rectangle from cell X,Y to
                             cell X,Y (both included; one cell when the second is left out)
  at STEP free X,Y [X,Y]     free them
A step: the edits due apply (an edit that would wall in an agent waits until it has moved
on); after an edit every agent whose path it blocks, every waiting agent and, when cells were
freed, every agent still walking re-plans from where it stands (planners start at lattice
points: it plans from the top-left corner of each free cell it stands in and takes the
shortest walk, the corner at most one cell diagonal away); then
every agent with a path walks --speed cells along it. An agent with no path (goal cut off or
its goal cell blocked) waits and re-plans after the next edit.";

/// The end of `taut world --help`: output, statuses, frames, exit status.
pub const AFTER_HELP: &str = "\
Output (--format text): one line per event, `step S: ...` (plans, edits, deferred edits, mesh
repairs, arrivals), then `agents N ok R unreachable U limit C steps S edits E deferred D
plans P plan_ms T`, then one line per agent: `agent NAME STATUS walked W first_plan L plans P
reached_step S` (`-` where there is none). --format json: one object with the same fields
(`events`, `agents`, `summary`).

Statuses (the words of every taut command): ok (the agent reached its goal); unreachable
(the agent waits for a path and no edit is left to give it one); limit (--max-steps ended
the run while it walked or waited). A plan event's status is ok, unreachable, or invalid
when an edit blocked the goal cell.

--frames DIR: PNG (or --frame-format svg) pictures named NNNN-step-SSSS-WHAT, WHAT being start,
before and after (each edit), step (every --every steps) and end: the map as it is, the
cells an edit changes (orange), every agent (green), its goal (red), its planned path (teal)
and its walk so far (purple).

Exit status: 0 when the script ran (whatever the statuses), 1 when a file cannot be read or
written, the script is malformed (the line is named) or a planner fails, 2 for usage errors.

Example:
  taut world fixtures/worlds/arena-doors.world --frames /tmp/doors";

/// Arguments of `taut world`.
#[derive(Debug, Clone, Args)]
pub struct WorldArgs {
    /// The script (format: `taut world --help`).
    #[arg(value_name = "SCRIPT")]
    pub script: PathBuf,
    /// The .map file (instead of the script's `map` line).
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// The planner every agent uses (a name of `taut planners`, with options as there).
    #[arg(long, value_name = "ALGO", default_value = "anya", value_parser = parse_spec)]
    pub algo: PlannerSpec,
    /// The map characters that are free terrain; every other character is blocked.
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Cells of path length an agent walks per step.
    #[arg(long, value_name = "CELLS", default_value_t = 1.0)]
    pub speed: f64,
    /// The last step: agents still on their way then end `limit`.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub max_steps: u32,
    /// Write picture frames into this directory (created if missing).
    #[arg(long, value_name = "DIR")]
    pub frames: Option<PathBuf>,
    /// Also a frame every N steps.
    #[arg(long, value_name = "N", requires = "frames")]
    pub every: Option<u32>,
    /// Frame image format.
    #[arg(long, value_enum, default_value_t = FrameFormat::Png)]
    pub frame_format: FrameFormat,
    /// The long side of a frame in pixels, at most.
    #[arg(long, value_name = "PX", default_value_t = 640)]
    pub max_px: u32,
    /// Output format.
    #[arg(long, value_enum, default_value_t = WorldFormat::Text)]
    pub format: WorldFormat,
}

fn parse_spec(s: &str) -> Result<PlannerSpec, String> {
    s.parse::<PlannerSpec>().map_err(|e| e.to_string())
}

/// Output formats of `taut world`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WorldFormat {
    /// One line per event, then the summary.
    Text,
    /// One JSON object.
    Json,
}

/// Frame formats of `taut world --frames`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FrameFormat {
    /// PNG rasters.
    Png,
    /// SVG pictures with a caption and a legend.
    Svg,
}

/// Writes the frames of a run.
struct Frames {
    dir: PathBuf,
    format: FrameFormat,
    layout: Layout,
    count: usize,
}

impl Frames {
    fn write(
        &mut self,
        grid: &Grid,
        agents: &[AgentState],
        edited: Option<CellRect>,
        step: u32,
        what: &str,
    ) -> Result<(), CliError> {
        let views: Vec<AgentView<'_>> = agents
            .iter()
            .map(|a| AgentView {
                trail: &a.trail,
                plan: &a.plan,
                goal: (f64::from(a.goal.x), f64::from(a.goal.y)),
            })
            .collect();
        let scene = WorldScene {
            grid,
            agents: &views,
            edited,
        };
        let (format, ext) = match self.format {
            FrameFormat::Png => (ImageFormat::Png, "png"),
            FrameFormat::Svg => (ImageFormat::Svg, "svg"),
        };
        let caption = format!("step {step}: {what} (version {})", grid.version());
        let bytes = render_world(&scene, &self.layout, format.into(), &caption)?;
        let name = format!("{:04}-step-{step:04}-{what}.{ext}", self.count);
        write_file(&self.dir.join(name), &bytes)?;
        self.count += 1;
        Ok(())
    }
}

fn rect_text(r: CellRect) -> String {
    if r.width == 1 && r.height == 1 {
        format!("{},{}", r.x0, r.y0)
    } else {
        format!(
            "{},{}..{},{}",
            r.x0,
            r.y0,
            r.x0 + r.width - 1,
            r.y0 + r.height - 1
        )
    }
}

fn verb(blocked: bool) -> &'static str {
    if blocked { "block" } else { "free" }
}

/// One event as a line of text.
fn event_text(e: &Event, agents: &[AgentState]) -> String {
    match e {
        Event::Edit {
            step,
            edit,
            changed,
            version,
        } => format!(
            "step {step}: {} {}: {changed} cells changed (version {version})",
            verb(edit.blocked),
            rect_text(edit.rect)
        ),
        Event::Deferred { step, edit, agent } => format!(
            "step {step}: {} {} waits: agent {agent} stands there",
            verb(edit.blocked),
            rect_text(edit.rect)
        ),
        Event::Mesh {
            step,
            version,
            repaired,
            secs,
        } => match repaired {
            Some((removed, added)) => format!(
                "step {step}: mesh of version {version} repaired: {removed} polygons removed, {added} added ({:.3} ms)",
                secs * 1e3
            ),
            None => format!(
                "step {step}: mesh of version {version} built afresh ({:.3} ms)",
                secs * 1e3
            ),
        },
        Event::Plan {
            step,
            agent,
            from,
            outcome,
            before,
            adopted,
            expanded,
            secs,
        } => {
            let name = &agents[*agent].name;
            let what = match outcome {
                Ok(l) if !adopted => format!("length {l:.6}, not shorter: keeps its path"),
                Ok(l) => format!("length {l:.6}"),
                Err(Waiting::Unreachable) => "no path: waits".into(),
                Err(Waiting::GoalBlocked) => "its goal cell is blocked: waits".into(),
            };
            let was = before.map_or(String::new(), |b| format!(", was {b:.6} left"));
            format!(
                "step {step}: {name} plans from {},{}: {what}{was} ({expanded} expanded, {:.3} ms)",
                from.x,
                from.y,
                secs * 1e3
            )
        }
        Event::Reached {
            step,
            agent,
            travelled,
        } => format!(
            "step {step}: {} reached its goal: walked {travelled:.6}",
            agents[*agent].name
        ),
    }
}

fn event_json(e: &Event, agents: &[AgentState]) -> Value {
    let rect = |r: CellRect| json!([r.x0, r.y0, r.x0 + r.width - 1, r.y0 + r.height - 1]);
    match e {
        Event::Edit {
            step,
            edit,
            changed,
            version,
        } => json!({"step": step, "event": verb(edit.blocked), "cells": rect(edit.rect),
            "changed": changed, "version": version}),
        Event::Deferred { step, edit, agent } => json!({"step": step, "event": "deferred",
            "edit": verb(edit.blocked), "cells": rect(edit.rect), "agent": agent}),
        Event::Mesh {
            step,
            version,
            repaired,
            secs,
        } => json!({"step": step, "event": "mesh", "version": version,
            "repaired": repaired.is_some(),
            "polygons_removed": repaired.map(|r| r.0), "polygons_added": repaired.map(|r| r.1),
            "ms": secs * 1e3}),
        Event::Plan {
            step,
            agent,
            from,
            outcome,
            before,
            adopted,
            expanded,
            secs,
        } => json!({"step": step, "event": "plan", "agent": agents[*agent].name,
            "from": [from.x, from.y],
            "status": match outcome { Ok(_) => "ok", Err(Waiting::Unreachable) => "unreachable",
                Err(Waiting::GoalBlocked) => "invalid" },
            "length": outcome.ok(), "was_left": before, "adopted": adopted, "expanded": expanded, "ms": secs * 1e3}),
        Event::Reached {
            step,
            agent,
            travelled,
        } => json!({"step": step, "event": "reached", "agent": agents[*agent].name,
            "walked": travelled}),
    }
}

/// What the summary counts of the events.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    /// Edits applied.
    edits: usize,
    /// Edits that had to wait for an agent.
    deferred: usize,
    /// Seconds spent planning.
    plan_secs: f64,
}

impl Tally {
    fn count(&mut self, e: &Event) {
        match e {
            Event::Edit { .. } => self.edits += 1,
            Event::Deferred { .. } => self.deferred += 1,
            Event::Plan { secs, .. } => self.plan_secs += secs,
            Event::Mesh { .. } | Event::Reached { .. } => {}
        }
    }
}

/// The final status word of an agent, from the one vocabulary of docs/cli.md: `ok` (it
/// reached its goal), `unreachable` (it waits for a way that is not there) or `limit`
/// (`--max-steps` ended the run first).
fn status_word(a: &AgentState, finished_by_limit: bool) -> &'static str {
    match a.status {
        AgentStatus::Reached(_) => "ok",
        _ if finished_by_limit => "limit",
        AgentStatus::Waiting(_) => "unreachable",
        AgentStatus::Walking => "limit",
    }
}

fn load(args: &WorldArgs) -> Result<(Script, Grid), CliError> {
    let script = Script::read(&args.script).map_err(|e| script_error(&args.script, e))?;
    let map: PathBuf = match (&args.map, script.map_path(&args.script)) {
        (Some(m), _) => m.clone(),
        (None, Some(m)) => m,
        (None, None) => {
            return Err(CliError::Usage(format!(
                "{} has no `map` line: give the map with --map (see taut world --help)",
                args.script.display()
            )));
        }
    };
    let grid = Grid::from_map(&MapFile::read(&map)?, &args.free);
    Ok((script, grid))
}

fn script_error(path: &Path, e: taut::script::ScriptError) -> CliError {
    match e {
        taut::script::ScriptError::Planner(taut::Error::Setup(s)) => CliError::MeshSetup(s),
        e => CliError::Script {
            path: path.to_owned(),
            source: e,
        },
    }
}

/// `taut world`: runs the script and writes its events and summary to `out`.
///
/// # Errors
/// The script or map cannot be read or is malformed, a frame cannot be written, a planner
/// fails.
pub fn run(args: &WorldArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if !(args.speed.is_finite() && args.speed > 0.0) {
        return Err(CliError::Usage(format!(
            "--speed {} is not a positive number of cells per step (see taut world --help)",
            args.speed
        )));
    }
    let (script, grid) = load(args)?;
    let mut frames = match &args.frames {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|source| CliError::WriteFile {
                path: dir.clone(),
                source,
            })?;
            Some(Frames {
                dir: dir.clone(),
                format: args.frame_format,
                layout: Layout::fit(grid.width(), grid.height(), args.max_px, None)?,
                count: 0,
            })
        }
        None => None,
    };
    let world = World::new(grid);
    let options = Options {
        speed: args.speed,
        max_steps: args.max_steps,
    };
    let err = |e| script_error(&args.script, e);
    let mut sim = Simulation::new(&world, &script, &args.algo, options).map_err(err)?;
    let text = args.format == WorldFormat::Text;
    let mut events: Vec<Value> = Vec::new();
    let mut tally = Tally::default();
    let mut emit = |sim: &mut Simulation<'_>, out: &mut dyn Write| -> Result<(), CliError> {
        for e in sim.take_events() {
            tally.count(&e);
            if text {
                writeln!(out, "{}", event_text(&e, sim.agents()))?;
            } else {
                events.push(event_json(&e, sim.agents()));
            }
        }
        Ok(())
    };
    emit(&mut sim, out)?;
    if let Some(f) = &mut frames {
        f.write(world.map().grid(), sim.agents(), None, 0, "start")?;
    }
    while !sim.finished() {
        let step = sim.step_number();
        let before = frames.is_some().then(|| {
            (
                std::sync::Arc::clone(world.map().grid()),
                sim.agents().to_vec(),
            )
        });
        let applied = sim.apply_edits();
        sim.replan().map_err(err)?;
        emit(&mut sim, out)?;
        if let (Some(f), Some((grid, agents))) = (&mut frames, before)
            && let Some(r) = applied.iter().map(|e| e.rect).reduce(CellRect::union)
        {
            f.write(&grid, &agents, Some(r), step, "before")?;
            f.write(world.map().grid(), sim.agents(), Some(r), step, "after")?;
        }
        sim.walk();
        emit(&mut sim, out)?;
        if let (Some(f), Some(n)) = (&mut frames, args.every)
            && n > 0
            && sim.step_number() % n == 0
        {
            f.write(
                world.map().grid(),
                sim.agents(),
                None,
                sim.step_number(),
                "step",
            )?;
        }
    }
    let steps = sim.step_number();
    if let Some(f) = &mut frames {
        f.write(world.map().grid(), sim.agents(), None, steps, "end")?;
    }
    let by_limit = steps >= args.max_steps && !sim.agents().iter().all(AgentState::is_reached);
    let agents = sim.agents();
    let count = |w: &str| {
        agents
            .iter()
            .filter(|a| status_word(a, by_limit) == w)
            .count()
    };
    let plans: u32 = agents.iter().map(|a| a.plans).sum();
    let summary = tally;
    if text {
        writeln!(
            out,
            "agents {} ok {} unreachable {} limit {} steps {steps} edits {} deferred {} plans {plans} plan_ms {:.3}",
            agents.len(),
            count("ok"),
            count("unreachable"),
            count("limit"),
            summary.edits,
            summary.deferred,
            summary.plan_secs * 1e3
        )?;
        let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
        for a in agents {
            writeln!(
                out,
                "agent {} {} walked {:.6} first_plan {} plans {} reached_step {}",
                a.name,
                status_word(a, by_limit),
                a.travelled,
                opt(a.first_length.map(|l| format!("{l:.6}"))),
                a.plans,
                opt(match a.status {
                    AgentStatus::Reached(s) => Some(s.to_string()),
                    _ => None,
                })
            )?;
        }
    } else {
        let agent_rows: Vec<Value> = agents
            .iter()
            .map(|a| {
                json!({"name": a.name, "status": status_word(a, by_limit),
                "walked": a.travelled, "first_plan": a.first_length, "plans": a.plans,
                "reached_step": match a.status { AgentStatus::Reached(s) => Some(s), _ => None }})
            })
            .collect();
        let doc = json!({
            "planner": args.algo.label,
            "events": events,
            "agents": agent_rows,
            "summary": {"agents": agents.len(), "ok": count("ok"),
                "unreachable": count("unreachable"), "limit": count("limit"), "steps": steps,
                "edits": summary.edits, "deferred": summary.deferred, "plans": plans,
                "plan_ms": summary.plan_secs * 1e3},
        });
        serde_json::to_writer(&mut *out, &doc).map_err(std::io::Error::from)?;
        writeln!(out)?;
    }
    Ok(())
}
