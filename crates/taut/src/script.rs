//! Scripted changing worlds: agents that walk to their goals on a [`World`] while timed edits
//! close and open doors, and re-plan after every edit. The script is a small text file
//! (`taut world` runs one and draws its frames; the format is in `docs/bounded-queries.md`):
//!
//! ```text
//! # comments and blank lines are ignored
//! map arena.map              # optional: the map, relative to the script's directory
//! agent a 3,4 44,44          # NAME START GOAL: lattice points (top-left corners of free cells)
//! at 10 block 18,15 30,18    # at step 10 block the cells of the rectangle X0,Y0 X1,Y1
//! at 60 free 18,15           # one cell
//! ```
//!
//! A step is: the edits due apply (an edit that would wall in an agent waits for it to move
//! on, as a door cannot close on someone standing in it); after any edit every agent that has
//! not arrived re-plans; then every agent with a path walks `speed` cells of length along it.
//! Planners plan between lattice points, so an agent re-plans from the top-left corner of each
//! free cell it stands in (one to four cells), takes the shortest walk, and walks to that corner
//! first (inside the cell, at most √2 cells). An agent whose goal cannot be reached (or whose goal cell is blocked)
//! waits where it stands and re-plans after the next edit. Every planned segment is checked
//! for line of sight on the map it was planned on; a segment that crosses a blocked cell is a
//! defect of the planner, reported as [`ScriptError::Defect`].
//!
//! # Example
//! ```
//! use taut::script::{Options, Script, Simulation};
//! use taut::{Grid, PlannerSpec, World};
//!
//! // A room with a door at x = 3 in a wall along row 2; a second way round on the right.
//! let grid = Grid::from_ascii(&[
//!     "........", "........", "@@@.@@@.", "........", "........",
//! ]).unwrap();
//! let script = Script::parse("agent a 0,0 0,4\nat 1 block 3,2\n").unwrap();
//! let world = World::new(grid);
//! let spec: PlannerSpec = "anya".parse().unwrap();
//! let mut sim = Simulation::new(&world, &script, &spec, Options::default()).unwrap();
//! let first = sim.agents()[0].first_length.unwrap();
//! sim.run_to_end().unwrap();
//! let a = &sim.agents()[0];
//! assert!(a.is_reached());
//! assert_eq!(a.plans, 2); // the first plan, and one after the door closed
//! assert!(a.travelled > first + 1.0); // round by the right-hand gap
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use taut_grid::{Answer, CellRect, Endpoint, Grid, Point, QueryError, Status};

use crate::registry::{MeshChoice, PlannerSpec};
use crate::world::{World, WorldPlanner};

/// A point in map units (`x` east, `y` south).
pub type Pt = (f64, f64);

/// A script that cannot be read, does not parse, or does not fit its map.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line does not parse.
    #[error("line {line}: {reason}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong and what was expected.
        reason: String,
    },
    /// The speed is not a positive number of cells per step.
    #[error("speed {0} is not a positive number of cells per step")]
    Speed(f64),
    /// The script names no agent.
    #[error("the script has no `agent` line: nothing would move")]
    NoAgents,
    /// An agent's start or goal is off the map or on a blocked cell.
    #[error("agent {agent}: {source}")]
    Endpoint {
        /// The agent's name.
        agent: String,
        /// What is wrong with the point.
        source: QueryError,
    },
    /// An edit reaches off the map.
    #[error("line {line}: cells {rect} are not all on the {width}x{height} map")]
    EditOffMap {
        /// 1-based line number.
        line: usize,
        /// The rectangle.
        rect: CellRect,
        /// Map width.
        width: i32,
        /// Map height.
        height: i32,
    },
    /// The planner could not be set up, or refused a query it should answer.
    #[error(transparent)]
    Planner(#[from] crate::Error),
    /// A planned path crosses a blocked cell: a defect of the planner, never expected.
    #[error(
        "defect: agent {agent}'s path from {from} to {to} crosses a blocked cell at step {step}"
    )]
    Defect {
        /// The agent.
        agent: String,
        /// The step.
        step: u32,
        /// The segment's ends.
        from: Point,
        /// The segment's other end.
        to: Point,
    },
}

/// One agent of a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSpec {
    /// Its name (unique in the script).
    pub name: String,
    /// Where it starts: a lattice point, the top-left corner of a free cell.
    pub start: Point,
    /// Where it goes: a lattice point, the top-left corner of a free cell.
    pub goal: Point,
}

/// One timed edit: at the start of `step`, block (or free) the cells of `rect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedEdit {
    /// The step it is due at (0 = before the first plans).
    pub step: u32,
    /// Block (`true`) or free the cells.
    pub blocked: bool,
    /// The cells.
    pub rect: CellRect,
    /// Its line in the script (1-based), for messages.
    pub line: usize,
}

/// A parsed script: agents and timed edits, in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Script {
    /// The `map` line's file, relative to the script's directory (as written).
    pub map: Option<PathBuf>,
    /// The agents.
    pub agents: Vec<AgentSpec>,
    /// The edits.
    pub edits: Vec<TimedEdit>,
}

fn parse_point(t: &str) -> Option<Point> {
    let (x, y) = t.split_once(',')?;
    Some(Point::new(x.trim().parse().ok()?, y.trim().parse().ok()?))
}

impl Script {
    /// Parses the text of a script (format: the [module documentation](self)).
    ///
    /// # Errors
    /// [`ScriptError::Syntax`] naming the first bad line, [`ScriptError::NoAgents`].
    pub fn parse(text: &str) -> Result<Script, ScriptError> {
        let mut script = Script::default();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let bad = |reason: String| ScriptError::Syntax { line, reason };
            let words: Vec<&str> = raw
                .split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            match words.as_slice() {
                [] => {}
                ["map", file] => {
                    if script.map.is_some() {
                        return Err(bad("a second `map` line".into()));
                    }
                    script.map = Some(PathBuf::from(file));
                }
                ["agent", name, start, goal] => {
                    let point = |t: &str| {
                        parse_point(t).ok_or_else(|| {
                            bad(format!("{t:?} is not a lattice point X,Y (integers)"))
                        })
                    };
                    if script.agents.iter().any(|a| a.name == *name) {
                        return Err(bad(format!("a second agent named {name:?}")));
                    }
                    script.agents.push(AgentSpec {
                        name: (*name).to_owned(),
                        start: point(start)?,
                        goal: point(goal)?,
                    });
                }
                ["at", step, verb, cells @ ..] if (1..=2).contains(&cells.len()) => {
                    let step: u32 = step.parse().map_err(|_| {
                        bad(format!("{step:?} is not a step number (0, 1, 2, ...)"))
                    })?;
                    let blocked = match *verb {
                        "block" => true,
                        "free" => false,
                        v => return Err(bad(format!("{v:?}: an edit is `block` or `free`"))),
                    };
                    let corner = |t: &str| {
                        parse_point(t)
                            .ok_or_else(|| bad(format!("{t:?} is not a cell X,Y (integers)")))
                    };
                    let a = corner(cells[0])?;
                    let b = match cells.get(1) {
                        Some(t) => corner(t)?,
                        None => a,
                    };
                    if b.x < a.x || b.y < a.y {
                        return Err(bad(format!(
                            "the rectangle's second cell {},{} is not south-east of its first {},{}",
                            b.x, b.y, a.x, a.y
                        )));
                    }
                    script.edits.push(TimedEdit {
                        step,
                        blocked,
                        rect: CellRect {
                            x0: a.x,
                            y0: a.y,
                            width: b.x - a.x + 1,
                            height: b.y - a.y + 1,
                        },
                        line,
                    });
                }
                _ => {
                    return Err(bad(format!(
                        "{:?}: expected `map FILE`, `agent NAME X,Y X,Y` or `at STEP block|free X,Y [X,Y]`",
                        raw.trim()
                    )));
                }
            }
        }
        if script.agents.is_empty() {
            return Err(ScriptError::NoAgents);
        }
        Ok(script)
    }

    /// Reads and parses a script file.
    ///
    /// # Errors
    /// [`ScriptError::Read`], and as [`Script::parse`].
    pub fn read(path: &Path) -> Result<Script, ScriptError> {
        let text = std::fs::read_to_string(path).map_err(|source| ScriptError::Read {
            path: path.to_owned(),
            source,
        })?;
        Script::parse(&text)
    }

    /// The map file of the `map` line, resolved against the directory of the script at
    /// `script_path`.
    pub fn map_path(&self, script_path: &Path) -> Option<PathBuf> {
        let m = self.map.as_ref()?;
        Some(match script_path.parent() {
            Some(dir) if m.is_relative() => dir.join(m),
            _ => m.clone(),
        })
    }
}

/// How a simulation runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Cells of path length an agent walks per step (default 1).
    pub speed: f64,
    /// The last step run (default 10,000): agents still walking then end `cutoff`.
    pub max_steps: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            speed: 1.0,
            max_steps: 10_000,
        }
    }
}

/// Why an agent is not walking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// No path leads from where it stands to its goal.
    Unreachable,
    /// Its goal cell is blocked.
    GoalBlocked,
}

/// Where an agent is in its run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentStatus {
    /// It has a path and walks it.
    Walking,
    /// It has no path and waits for an edit.
    Waiting(Waiting),
    /// It reached its goal at this step.
    Reached(u32),
}

/// An agent during (and after) a simulation.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentState {
    /// Its name.
    pub name: String,
    /// Its goal.
    pub goal: Point,
    /// Every point it has been at where it turned or a step ended, start first, position last.
    pub trail: Vec<Pt>,
    /// Its plan from its position (first) to its goal (last); just its position while it
    /// waits or once it has arrived.
    pub plan: Vec<Pt>,
    /// The length walked so far.
    pub travelled: f64,
    /// The length of its first plan (`None` when it had no path at step 0).
    pub first_length: Option<f64>,
    /// How many times it planned (the first plan included).
    pub plans: u32,
    /// Where it is in its run.
    pub status: AgentStatus,
    /// Where the segment it walks now began: the lattice waypoint it left, or the cell it
    /// crosses to reach the corner it re-planned from.
    origin: Origin,
}

/// The start of an agent's current segment, to check it after an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// A lattice waypoint: the segment is part of the one from it to the next waypoint.
    Lattice(Point),
    /// The agent walks inside this cell to its top-left corner.
    Cell(i32, i32),
}

impl AgentState {
    /// Its position.
    pub fn position(&self) -> Pt {
        self.plan[0]
    }

    /// Whether it has reached its goal.
    pub fn is_reached(&self) -> bool {
        matches!(self.status, AgentStatus::Reached(_))
    }

    /// The length of its plan from where it stands (0 when it has none).
    pub fn remaining(&self) -> f64 {
        self.plan.windows(2).map(|w| dist(w[0], w[1])).sum()
    }
}

/// What happened, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// An edit changed the map.
    Edit {
        /// The step.
        step: u32,
        /// The edit.
        edit: TimedEdit,
        /// How many cells it changed (0 when they already were so: no new version).
        changed: u64,
        /// The world's version after it.
        version: u64,
    },
    /// An edit due now waits because it would wall in an agent.
    Deferred {
        /// The step.
        step: u32,
        /// The edit.
        edit: TimedEdit,
        /// The agent in the way.
        agent: String,
    },
    /// The planner's mesh of the new version (mesh planners): repaired or rebuilt.
    Mesh {
        /// The step.
        step: u32,
        /// The world's version.
        version: u64,
        /// Polygons removed and added when it was repaired from the last version's mesh;
        /// `None` when it was built afresh.
        repaired: Option<(usize, usize)>,
        /// Seconds it took.
        secs: f64,
    },
    /// An agent planned.
    Plan {
        /// The step.
        step: u32,
        /// The agent's index.
        agent: usize,
        /// The lattice point its new path starts from: the top-left corner of a free cell it
        /// stands in (of the one that gave the shortest walk, when it stands in several).
        from: Point,
        /// The length of its new path from where it stands, or why it waits.
        outcome: Result<f64, Waiting>,
        /// What was left of its old path (`None` for its first plan or when it had none).
        before: Option<f64>,
        /// Whether it took the new path: an agent whose path is still open re-plans only when
        /// cells were freed, and keeps its path unless the new one is shorter.
        adopted: bool,
        /// Nodes expanded (by the queries from every corner tried).
        expanded: u64,
        /// Seconds the queries took.
        secs: f64,
    },
    /// An agent reached its goal.
    Reached {
        /// The step.
        step: u32,
        /// The agent's index.
        agent: usize,
        /// The length it walked.
        travelled: f64,
    },
}

fn dist(a: Pt, b: Pt) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

fn pt(p: Point) -> Pt {
    (f64::from(p.x), f64::from(p.y))
}

/// The cells whose closure holds `p` (one, two or four).
fn cells_at(p: Pt) -> Vec<(i32, i32)> {
    let axis = |v: f64| {
        let f = v.floor();
        if v == f {
            vec![f as i32 - 1, f as i32]
        } else {
            vec![f as i32]
        }
    };
    let (xs, ys) = (axis(p.0), axis(p.1));
    ys.iter()
        .flat_map(|&y| xs.iter().map(move |&x| (x, y)))
        .collect()
}

/// Whether an agent's plan is still open on `grid`: its goal cell is free, and its current
/// segment (all of it, from the waypoint it left: conservative) and every later one have line
/// of sight.
fn path_is_open(a: &AgentState, grid: &Grid) -> bool {
    let lattice = |p: Pt| Point::new(p.0 as i32, p.1 as i32);
    if !free(grid, a.goal.x, a.goal.y) {
        return false;
    }
    if a.plan.len() < 2 {
        return true;
    }
    let first = match a.origin {
        Origin::Lattice(p) => grid.line_of_sight(p, lattice(a.plan[1])),
        Origin::Cell(x, y) => free(grid, x, y),
    };
    first
        && a.plan[1..]
            .windows(2)
            .all(|w| grid.line_of_sight(lattice(w[0]), lattice(w[1])))
}

/// Whether cell `(x, y)` is on the map and free.
fn free(grid: &Grid, x: i32, y: i32) -> bool {
    x >= 0 && y >= 0 && x < grid.width() && y < grid.height() && grid.is_free(x, y)
}

/// A script running on a world: agents, their planners, the edits still due.
pub struct Simulation<'w> {
    world: &'w World,
    planners: Vec<WorldPlanner<'w>>,
    agents: Vec<AgentState>,
    /// Edits not applied yet, by step (stable: file order within a step).
    due: Vec<TimedEdit>,
    step: u32,
    options: Options,
    events: Vec<Event>,
    answer: Answer,
    needs_replan: bool,
    /// Whether the edits since the last re-plan freed cells (a shorter path may have opened).
    freed: bool,
    /// Script lines of the edits reported deferred (each is reported once).
    deferred: Vec<usize>,
}

impl std::fmt::Debug for Simulation<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Simulation")
            .field("step", &self.step)
            .field("agents", &self.agents)
            .field("due", &self.due)
            .finish_non_exhaustive()
    }
}

impl<'w> Simulation<'w> {
    /// Checks the script against the world's map, gives every agent a planner `spec` of the
    /// world, and plans every agent's first path (after the edits due at step 0).
    ///
    /// # Errors
    /// [`ScriptError::Speed`] for a speed that is not positive and finite,
    /// [`ScriptError::Endpoint`] for a start or goal off the map or blocked,
    /// [`ScriptError::EditOffMap`], [`ScriptError::Planner`] when the planner cannot be had.
    pub fn new(
        world: &'w World,
        script: &Script,
        spec: &PlannerSpec,
        options: Options,
    ) -> Result<Simulation<'w>, ScriptError> {
        if !(options.speed.is_finite() && options.speed > 0.0) {
            return Err(ScriptError::Speed(options.speed));
        }
        let map = world.map();
        let grid = map.grid();
        for a in &script.agents {
            grid.check_endpoint(Endpoint::Start, a.start)
                .and_then(|()| grid.check_endpoint(Endpoint::Goal, a.goal))
                .map_err(|source| ScriptError::Endpoint {
                    agent: a.name.clone(),
                    source,
                })?;
        }
        for e in &script.edits {
            let r = e.rect;
            if r.x0 < 0
                || r.y0 < 0
                || r.x0 + r.width > grid.width()
                || r.y0 + r.height > grid.height()
            {
                return Err(ScriptError::EditOffMap {
                    line: e.line,
                    rect: r,
                    width: grid.width(),
                    height: grid.height(),
                });
            }
        }
        let planners = script
            .agents
            .iter()
            .map(|_| world.planner(spec).map_err(crate::Error::from))
            .collect::<Result<Vec<_>, _>>()?;
        let agents = script
            .agents
            .iter()
            .map(|a| AgentState {
                name: a.name.clone(),
                goal: a.goal,
                trail: vec![pt(a.start)],
                plan: vec![pt(a.start)],
                travelled: 0.0,
                first_length: None,
                plans: 0,
                status: AgentStatus::Waiting(Waiting::Unreachable),
                origin: Origin::Lattice(a.start),
            })
            .collect();
        let mut due = script.edits.clone();
        due.sort_by_key(|e| e.step);
        let mut sim = Simulation {
            world,
            planners,
            agents,
            due,
            step: 0,
            options,
            events: Vec::new(),
            answer: Answer::default(),
            needs_replan: true,
            freed: false,
            deferred: Vec::new(),
        };
        sim.apply_edits();
        sim.replan()?;
        for a in &mut sim.agents {
            if a.status == AgentStatus::Walking {
                a.first_length = Some(a.remaining());
            }
        }
        Ok(sim)
    }

    /// The agents, in script order.
    pub fn agents(&self) -> &[AgentState] {
        &self.agents
    }

    /// The current step (the next to be walked).
    pub fn step_number(&self) -> u32 {
        self.step
    }

    /// The world the agents walk in.
    pub fn world(&self) -> &'w World {
        self.world
    }

    /// The edits due at the current step (applied by the next [`Simulation::apply_edits`]).
    pub fn edits_due_now(&self) -> Vec<TimedEdit> {
        self.due
            .iter()
            .filter(|e| e.step <= self.step)
            .copied()
            .collect()
    }

    /// Takes the events recorded since the last call.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// Whether nothing more can happen: every agent has arrived, or no agent walks and no
    /// edit is due, or the step limit is reached.
    pub fn finished(&self) -> bool {
        self.step >= self.options.max_steps
            || self.agents.iter().all(AgentState::is_reached)
            || (self.due.is_empty()
                && !self.agents.iter().any(|a| a.status == AgentStatus::Walking))
    }

    /// Applies the edits due now, in file order; an edit that would leave an agent with no
    /// free cell to stand in waits for the next step. Returns the edits applied.
    pub fn apply_edits(&mut self) -> Vec<TimedEdit> {
        let mut applied = Vec::new();
        let mut keep = Vec::new();
        for e in std::mem::take(&mut self.due) {
            if e.step > self.step {
                keep.push(e);
                continue;
            }
            if e.blocked
                && let Some(a) = self.agent_walled_in_by(e.rect)
            {
                if !self.deferred.contains(&e.line) {
                    self.deferred.push(e.line);
                    self.events.push(Event::Deferred {
                        step: self.step,
                        edit: e,
                        agent: self.agents[a].name.clone(),
                    });
                }
                keep.push(e);
                continue;
            }
            // The rectangle was checked against the map: this cannot fail.
            let changed = self.world.set_rect(e.rect, e.blocked).unwrap_or(0);
            self.events.push(Event::Edit {
                step: self.step,
                edit: e,
                changed,
                version: self.world.version(),
            });
            if changed > 0 {
                self.needs_replan = true;
                self.freed |= !e.blocked;
            }
            applied.push(e);
        }
        self.due = keep;
        applied
    }

    /// The first agent (not arrived) that blocking `rect` would leave with no free cell.
    fn agent_walled_in_by(&self, rect: CellRect) -> Option<usize> {
        let map = self.world.map();
        let grid = map.grid();
        self.agents.iter().position(|a| {
            !a.is_reached()
                && !cells_at(a.position())
                    .into_iter()
                    .any(|(x, y)| free(grid, x, y) && !rect.contains(x, y))
        })
    }

    /// After an edit, every agent that has not arrived plans again from where it stands.
    ///
    /// # Errors
    /// [`ScriptError::Planner`] when a planner fails (not for an unreachable goal: the agent
    /// waits), [`ScriptError::Defect`] for a path through a blocked cell.
    pub fn replan(&mut self) -> Result<(), ScriptError> {
        if !self.needs_replan {
            return Ok(());
        }
        self.needs_replan = false;
        let map = self.world.map();
        let grid = map.grid();
        let freed = std::mem::take(&mut self.freed);
        for i in 0..self.agents.len() {
            let a = &self.agents[i];
            if a.is_reached() {
                continue;
            }
            let walking = a.status == AgentStatus::Walking;
            let open = walking && path_is_open(a, grid);
            // A path still open is kept unless cells were freed (a shorter one may exist).
            if open && !freed {
                continue;
            }
            let pos = a.position();
            let goal = a.goal;
            let before = walking.then(|| a.remaining());
            // From the top-left corner of each free cell the agent stands in (one to four; the
            // agent walks to it inside the cell), the shortest walk in all.
            let mut best: Option<(f64, (i32, i32))> = None;
            let mut waypoints: Vec<Point> = Vec::new();
            let mut waiting = Waiting::Unreachable;
            let (mut expanded, mut secs) = (0u64, 0.0f64);
            for cell in cells_at(pos).into_iter().filter(|&(x, y)| free(grid, x, y)) {
                let from = Point::new(cell.0, cell.1);
                let t = Instant::now();
                let result = self.planners[i].plan(from, goal, &mut self.answer);
                secs += t.elapsed().as_secs_f64();
                expanded += self.answer.stats.expanded;
                match result {
                    Ok(Status::Found) => {
                        let w = &self.answer.waypoints;
                        if let Some(bad) = w.windows(2).find(|s| !grid.line_of_sight(s[0], s[1])) {
                            return Err(ScriptError::Defect {
                                agent: self.agents[i].name.clone(),
                                step: self.step,
                                from: bad[0],
                                to: bad[1],
                            });
                        }
                        let length = dist(pos, pt(from)) + self.answer.length;
                        if best.is_none_or(|(l, _)| length < l) {
                            best = Some((length, cell));
                            waypoints.clone_from(w);
                        }
                    }
                    Ok(Status::Unreachable) => {}
                    Err(crate::Error::Query(QueryError::Blocked { .. })) => {
                        // The goal cell (every start tried is free): no start will do.
                        waiting = Waiting::GoalBlocked;
                        break;
                    }
                    Err(e) => return Err(e.into()),
                }
            }
            // Edits never wall an agent in (apply_edits defers them): some cell was tried.
            let from = best.map_or_else(
                || {
                    let (x, y) = cells_at(pos)
                        .into_iter()
                        .find(|&(x, y)| free(grid, x, y))
                        .unwrap_or((goal.x, goal.y));
                    Point::new(x, y)
                },
                |(_, c)| Point::new(c.0, c.1),
            );
            let mut adopted = false;
            let outcome = match best {
                Some((length, cell)) => {
                    let a = &mut self.agents[i];
                    if !open || length < a.remaining() - 1e-9 {
                        adopted = true;
                        a.plan.clear();
                        a.plan.push(pos);
                        a.plan
                            .extend(waypoints.iter().map(|&p| pt(p)).skip_while(|&p| p == pos));
                        if a.plan.len() == 1 {
                            // Already at the goal.
                            a.plan.push(pos);
                        }
                        a.origin = if pos == pt(from) {
                            Origin::Lattice(from)
                        } else {
                            Origin::Cell(cell.0, cell.1)
                        };
                        a.status = AgentStatus::Walking;
                    }
                    Ok(length)
                }
                None => Err(waiting),
            };
            let a = &mut self.agents[i];
            a.plans += 1;
            if let Err(w) = outcome {
                a.plan.truncate(1);
                a.status = AgentStatus::Waiting(w);
            }
            self.events.push(Event::Plan {
                step: self.step,
                agent: i,
                from,
                outcome,
                before,
                adopted,
                expanded,
                secs,
            });
        }
        if let Some(m) = [MeshChoice::Built, MeshChoice::Given]
            .into_iter()
            .find_map(|c| map.mesh_if_ready(c))
            && self.step > 0
        {
            self.events.push(Event::Mesh {
                step: self.step,
                version: grid.version(),
                repaired: m.repaired.map(|r| (r.removed, r.added)),
                secs: m.secs,
            });
        }
        Ok(())
    }

    /// Every walking agent walks `speed` along its plan; then the step ends.
    pub fn walk(&mut self) {
        let step = self.step;
        for (i, a) in self.agents.iter_mut().enumerate() {
            if a.status != AgentStatus::Walking {
                continue;
            }
            let mut left = self.options.speed;
            while left > 0.0 && a.plan.len() >= 2 {
                let d = dist(a.plan[0], a.plan[1]);
                if d <= left {
                    left -= d;
                    a.travelled += d;
                    a.plan.remove(0);
                    a.trail.push(a.plan[0]);
                    // Waypoints after the first are lattice points.
                    let (x, y) = a.plan[0];
                    a.origin = Origin::Lattice(Point::new(x as i32, y as i32));
                } else {
                    let t = left / d;
                    let (p, q) = (a.plan[0], a.plan[1]);
                    a.plan[0] = (p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t);
                    a.travelled += left;
                    left = 0.0;
                    a.trail.push(a.plan[0]);
                }
            }
            if a.plan.len() == 1 {
                a.status = AgentStatus::Reached(step + 1);
                self.events.push(Event::Reached {
                    step: step + 1,
                    agent: i,
                    travelled: a.travelled,
                });
            }
        }
        self.step += 1;
    }

    /// One whole step: edits due, re-plans, walk.
    ///
    /// # Errors
    /// As [`Simulation::replan`].
    pub fn advance(&mut self) -> Result<(), ScriptError> {
        self.apply_edits();
        self.replan()?;
        self.walk();
        Ok(())
    }

    /// Steps until [`Simulation::finished`].
    ///
    /// # Errors
    /// As [`Simulation::replan`].
    pub fn run_to_end(&mut self) -> Result<(), ScriptError> {
        while !self.finished() {
            self.advance()?;
        }
        Ok(())
    }
}
