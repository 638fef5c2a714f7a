//! The world an agent lives in: the true map (shared, immutable), the agent's belief (what it
//! has seen), the view through which it reads that belief, and the budget through which it
//! expands states.

use std::collections::VecDeque;
use std::f64::consts::SQRT_2;

use smallvec::SmallVec;
use taut_grid::Grid;
use taut_search::OpenList;

/// The 8 moves in the paper's clockwise order `δ` (x east, y south): `DIRS[i]` is
/// `Succ(s, i + 1)`. Even indices are straight moves, odd ones diagonal.
pub const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The cost of a move in direction `d` (an index into [`DIRS`]): 1 straight, √2 diagonal.
#[inline(always)]
pub fn move_cost(d: u8) -> f64 {
    if d.is_multiple_of(2) { 1.0 } else { SQRT_2 }
}

/// Octile distance between cells `(x0, y0)` and `(x1, y1)`: the cost of a shortest
/// 8-connected path on an empty map, a consistent heuristic for this move set.
#[inline(always)]
pub fn octile(x0: i32, y0: i32, x1: i32, y1: i32) -> f64 {
    let dx = (x1 - x0).unsigned_abs();
    let dy = (y1 - y0).unsigned_abs();
    let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
    f64::from(hi - lo) + f64::from(lo) * SQRT_2
}

/// Which diagonal moves are legal. Both rules move between the 8 neighbours of a cell, at
/// cost 1 straight and √2 diagonal, and never onto a blocked cell; they differ only in the
/// cells a diagonal move squeezes past.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MoveRule {
    /// A diagonal move also needs both cells it squeezes past to be free (the model of the
    /// MovingAI `.scen` files and of every other planner in taut). The default.
    #[default]
    NoCornerCut,
    /// A diagonal move needs only its target free, so an agent may slip between two blocked
    /// cells that touch at a corner. This is the p-FRIT_RT paper's model as written (its
    /// section 2: an arc joins two cells at distance at most √2, and it costs their distance
    /// unless one of them is an obstacle).
    CornerCut,
}

impl MoveRule {
    /// The name used by `taut agent` and `taut-bench frit` (`no-corner-cut`, `corner-cut`).
    pub fn name(self) -> &'static str {
        match self {
            MoveRule::NoCornerCut => "no-corner-cut",
            MoveRule::CornerCut => "corner-cut",
        }
    }
}

impl std::str::FromStr for MoveRule {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "no-corner-cut" => Ok(MoveRule::NoCornerCut),
            "corner-cut" => Ok(MoveRule::CornerCut),
            _ => Err(format!(
                "unknown move rule `{s}` (expected no-corner-cut or corner-cut)"
            )),
        }
    }
}

/// The true map shared by every agent: the grid, the move rule, and the grid's connected
/// components under that rule. Immutable and `Send + Sync`.
#[derive(Debug, Clone)]
pub struct World<'g> {
    grid: &'g Grid,
    width: i32,
    height: i32,
    moves: MoveRule,
    /// Component label per cell, 0 for blocked cells.
    component: Vec<u32>,
}

impl<'g> World<'g> {
    /// Wraps a grid under the default move rule ([`MoveRule::NoCornerCut`]) and labels its
    /// connected components (one flood fill, O(cells)).
    pub fn new(grid: &'g Grid) -> Self {
        Self::with_moves(grid, MoveRule::NoCornerCut)
    }

    /// Wraps a grid under the move rule `moves` and labels its connected components.
    pub fn with_moves(grid: &'g Grid, moves: MoveRule) -> Self {
        let cut = moves == MoveRule::CornerCut;
        let (width, height) = (grid.width(), grid.height());
        let n = width as usize * height as usize;
        let mut component = vec![0u32; n];
        let mut label = 0u32;
        let mut queue = VecDeque::new();
        for start in 0..n {
            let (x, y) = (
                (start % width as usize) as i32,
                (start / width as usize) as i32,
            );
            if component[start] != 0 || !grid.is_free(x, y) {
                continue;
            }
            label += 1;
            component[start] = label;
            queue.push_back(start as u32);
            while let Some(c) = queue.pop_front() {
                let (cx, cy) = ((c % width as u32) as i32, (c / width as u32) as i32);
                for d in 0..8u8 {
                    if let Some((nx, ny)) = legal_move(|x, y| grid.is_free(x, y), cut, cx, cy, d) {
                        let t = (ny * width + nx) as usize;
                        if component[t] == 0 {
                            component[t] = label;
                            queue.push_back(t as u32);
                        }
                    }
                }
            }
        }
        World {
            grid,
            width,
            height,
            moves,
            component,
        }
    }

    /// The move rule.
    pub fn moves(&self) -> MoveRule {
        self.moves
    }

    /// The cost of a shortest path from `start` to `goal` on the true map under the move rule
    /// (full knowledge: a lower bound on any agent's cost), or `None` when they are not
    /// connected. A* with the octile heuristic; allocates per call (it is for experiments, not
    /// for agents).
    pub fn optimal_cost(&self, start: u32, goal: u32) -> Option<f64> {
        if !self.connected(start, goal) {
            return None;
        }
        let cut = self.moves == MoveRule::CornerCut;
        let (gx, gy) = self.xy(goal);
        let h = |c: u32| {
            let (x, y) = self.xy(c);
            octile(x, y, gx, gy)
        };
        let free = |x: i32, y: i32| self.cell(x, y).is_some_and(|c| self.is_free(c));
        let mut g = vec![f64::INFINITY; self.cells()];
        let mut open = OpenList::default();
        g[start as usize] = 0.0;
        open.push(taut_search::Entry {
            f: h(start),
            g: 0.0,
            id: start,
        });
        while let Some(e) = open.pop() {
            if e.g > g[e.id as usize] {
                continue;
            }
            if e.id == goal {
                return Some(e.g);
            }
            let (x, y) = self.xy(e.id);
            for d in 0..8u8 {
                if let Some((nx, ny)) = legal_move(free, cut, x, y, d) {
                    let t = (ny * self.width + nx) as u32;
                    let ng = e.g + move_cost(d);
                    if ng < g[t as usize] {
                        g[t as usize] = ng;
                        open.push(taut_search::Entry {
                            f: ng + h(t),
                            g: ng,
                            id: t,
                        });
                    }
                }
            }
        }
        None
    }

    /// The true map.
    pub fn grid(&self) -> &'g Grid {
        self.grid
    }

    /// Width in cells.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// Number of cells (`width × height`).
    pub fn cells(&self) -> usize {
        self.component.len()
    }

    /// The index of cell `(x, y)`, or `None` off the map.
    pub fn cell(&self, x: i32, y: i32) -> Option<u32> {
        (x >= 0 && y >= 0 && x < self.width && y < self.height).then(|| (y * self.width + x) as u32)
    }

    /// The coordinates of a cell index.
    #[inline(always)]
    pub fn xy(&self, c: u32) -> (i32, i32) {
        (
            (c % self.width as u32) as i32,
            (c / self.width as u32) as i32,
        )
    }

    /// Whether cell `c` is truly free.
    #[inline(always)]
    pub fn is_free(&self, c: u32) -> bool {
        self.component[c as usize] != 0
    }

    /// Whether the goal can be reached from the start on the true map (full knowledge).
    pub fn connected(&self, a: u32, b: u32) -> bool {
        let ca = self.component[a as usize];
        ca != 0 && ca == self.component[b as usize]
    }
}

/// The target of a move from `(x, y)` in direction `d` if it is legal under `free`: the
/// target is free and, for a diagonal move without `corner_cut`, so are both cells it
/// squeezes past.
#[inline(always)]
pub(crate) fn legal_move(
    free: impl Fn(i32, i32) -> bool,
    corner_cut: bool,
    x: i32,
    y: i32,
    d: u8,
) -> Option<(i32, i32)> {
    let (dx, dy) = DIRS[d as usize];
    let (nx, ny) = (x + dx, y + dy);
    if !free(nx, ny) {
        return None;
    }
    if d % 2 == 1 && !corner_cut && !(free(x + dx, y) && free(x, y + dy)) {
        return None;
    }
    Some((nx, ny))
}

/// An agent's belief about the map under the free-space assumption: a cell is believed
/// blocked only once it has been observed blocked; unseen cells are believed free. One bit per
/// cell (`observed`), so a belief costs `cells / 8` bytes; the map border is always known.
#[derive(Debug, Clone, Default)]
pub struct Belief {
    observed: Vec<u64>,
    width: i32,
    known_blocked: u64,
}

impl Belief {
    /// Forgets everything and sizes the belief for `world`, keeping the allocation.
    pub fn reset(&mut self, world: &World<'_>) {
        self.width = world.width;
        self.known_blocked = 0;
        self.observed.clear();
        self.observed.resize(world.cells().div_ceil(64), 0);
    }

    #[inline(always)]
    fn seen(&self, c: u32) -> bool {
        self.observed[(c / 64) as usize] & (1 << (c % 64)) != 0
    }

    /// Observes cell `pos` and its 8 neighbours (the sensor of the paper); returns how many
    /// blocked cells were seen for the first time.
    pub fn sense(&mut self, world: &World<'_>, pos: u32) -> u32 {
        let (x, y) = world.xy(pos);
        let mut new = 0;
        for (dx, dy) in std::iter::once((0, 0)).chain(DIRS) {
            if let Some(c) = world.cell(x + dx, y + dy)
                && !self.seen(c)
            {
                self.observed[(c / 64) as usize] |= 1 << (c % 64);
                if !world.is_free(c) {
                    new += 1;
                }
            }
        }
        self.known_blocked += u64::from(new);
        new
    }

    /// How many blocked cells have been observed so far: it changes exactly when the belief
    /// does.
    pub fn known_blocked(&self) -> u64 {
        self.known_blocked
    }

    /// Heap bytes of the belief.
    pub fn heap_bytes(&self) -> usize {
        self.observed.capacity() * 8
    }
}

/// Successor lists: `(cell, direction, cost)`.
pub type Successors = SmallVec<[(u32, u8, f64); 8]>;

/// What an agent may read: the map's size, its goal, and its belief (never the true map).
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    world: &'a World<'a>,
    belief: &'a Belief,
    goal: u32,
}

impl<'a> View<'a> {
    /// A view of `world` through `belief`, for an agent heading to `goal`.
    pub fn new(world: &'a World<'a>, belief: &'a Belief, goal: u32) -> Self {
        View {
            world,
            belief,
            goal,
        }
    }

    /// The goal cell.
    #[inline(always)]
    pub fn goal(&self) -> u32 {
        self.goal
    }

    /// Map width.
    #[inline(always)]
    pub fn width(&self) -> i32 {
        self.world.width
    }

    /// Map height.
    #[inline(always)]
    pub fn height(&self) -> i32 {
        self.world.height
    }

    /// Number of cells.
    #[inline(always)]
    pub fn cells(&self) -> usize {
        self.world.cells()
    }

    /// Coordinates of a cell.
    #[inline(always)]
    pub fn xy(&self, c: u32) -> (i32, i32) {
        self.world.xy(c)
    }

    /// Index of an on-map cell `(x, y)`.
    #[inline(always)]
    pub fn index(&self, x: i32, y: i32) -> u32 {
        (y * self.world.width + x) as u32
    }

    /// Whether `(x, y)` is believed free: on the map and not observed blocked.
    #[inline(always)]
    pub fn free(&self, x: i32, y: i32) -> bool {
        if x < 0 || y < 0 || x >= self.world.width || y >= self.world.height {
            return false;
        }
        let c = self.index(x, y);
        self.world.is_free(c) || !self.belief.seen(c)
    }

    /// Whether `(x, y)` is known blocked (off the map counts as blocked).
    #[inline(always)]
    pub fn blocked(&self, x: i32, y: i32) -> bool {
        !self.free(x, y)
    }

    /// The cell reached from `c` by a move in direction `d`, if the belief allows it.
    #[inline(always)]
    pub fn step(&self, c: u32, d: u8) -> Option<u32> {
        self.step_under(c, d, self.world.moves)
    }

    /// The cell reached from `c` by a move in direction `d` under `rule` instead of the
    /// world's, if the belief allows it (Bug2 follows walls without cutting corners).
    #[inline(always)]
    pub fn step_under(&self, c: u32, d: u8, rule: MoveRule) -> Option<u32> {
        let (x, y) = self.xy(c);
        let cut = rule == MoveRule::CornerCut;
        legal_move(|x, y| self.free(x, y), cut, x, y, d).map(|(nx, ny)| self.index(nx, ny))
    }

    /// The direction of the move from `a` to its neighbour `b`, if they are neighbours.
    #[inline(always)]
    pub fn dir(&self, a: u32, b: u32) -> Option<u8> {
        let (ax, ay) = self.xy(a);
        let (bx, by) = self.xy(b);
        DIRS.iter()
            .position(|&d| d == (bx - ax, by - ay))
            .map(|i| i as u8)
    }

    /// Whether the belief allows the move from `a` to its neighbour `b`.
    #[inline(always)]
    pub fn can_move(&self, a: u32, b: u32) -> bool {
        self.dir(a, b).and_then(|d| self.step(a, d)) == Some(b)
    }

    /// How many blocked cells the agent has observed: a cheap "has my belief changed?" test.
    #[inline(always)]
    pub fn known_blocked(&self) -> u64 {
        self.belief.known_blocked()
    }

    /// Octile distance between two cells.
    #[inline(always)]
    pub fn octile(&self, a: u32, b: u32) -> f64 {
        let (ax, ay) = self.xy(a);
        let (bx, by) = self.xy(b);
        octile(ax, ay, bx, by)
    }

    /// The move rule of the world the agent lives in (agents know how they may move).
    #[inline(always)]
    pub fn moves(&self) -> MoveRule {
        self.world.moves
    }

    /// Whether cell `c` borders a known obstacle: one of its 8 neighbours is known blocked
    /// (the map border counts).
    #[inline(always)]
    pub fn borders_obstacle(&self, c: u32) -> bool {
        let (x, y) = self.xy(c);
        DIRS.iter().any(|&(dx, dy)| self.blocked(x + dx, y + dy))
    }

    /// Whether the move from `c` in direction `d` passes a known obstacle that touches both
    /// `c` and its target: `Succ(c, d − 1)` or `Succ(c, d + 1)` in the paper's clockwise
    /// order is known blocked (Algorithm 4, line 10 of the p-FRIT_RT paper).
    #[inline(always)]
    pub fn move_skirts_obstacle(&self, c: u32, d: u8) -> bool {
        let (x, y) = self.xy(c);
        let (ax, ay) = DIRS[usize::from((d + 7) % 8)];
        let (bx, by) = DIRS[usize::from((d + 1) % 8)];
        self.blocked(x + ax, y + ay) || self.blocked(x + bx, y + by)
    }
}

/// The thinking budget of one planning episode, counted by the simulator: at most `limit`
/// expansions (an expansion generates one state's successors, and only [`Budget::expand`]
/// does that) and at most `step_limit` pointer steps (one step of an INTREE walk along the
/// ideal tree). An agent cannot exceed it: both methods refuse once it is spent.
#[derive(Debug, Clone)]
pub struct Budget {
    limit: u32,
    expansions: u32,
    step_limit: u64,
    steps: u64,
}

impl Budget {
    /// A budget of `limit` expansions and `step_limit` pointer steps.
    pub fn new(limit: u32, step_limit: u64) -> Self {
        Budget {
            limit,
            expansions: 0,
            step_limit,
            steps: 0,
        }
    }

    /// Expansions used so far.
    pub fn expansions(&self) -> u32 {
        self.expansions
    }

    /// Pointer steps used so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The pointer-step allowance.
    pub fn step_limit(&self) -> u64 {
        self.step_limit
    }

    /// Expansions left.
    pub fn expansions_left(&self) -> u32 {
        self.limit - self.expansions
    }

    /// Whether no expansion is left.
    pub fn exhausted(&self) -> bool {
        self.expansions >= self.limit
    }

    /// Expands `c`: fills `out` with its successors in the belief, in the order of [`DIRS`].
    /// Returns `false` (and leaves `out` empty) when the budget is spent.
    #[inline]
    pub fn expand(&mut self, view: &View<'_>, c: u32, out: &mut Successors) -> bool {
        out.clear();
        if self.expansions >= self.limit {
            return false;
        }
        self.expansions += 1;
        for d in 0..8u8 {
            if let Some(t) = view.step(c, d) {
                out.push((t, d, move_cost(d)));
            }
        }
        true
    }

    /// Takes one pointer step; `false` when none is left.
    #[inline]
    pub fn step(&mut self) -> bool {
        if self.steps >= self.step_limit {
            return false;
        }
        self.steps += 1;
        true
    }
}

/// Per-thread scratch for the searches inside one episode (g-values, back pointers, the open
/// and closed lists, a BFS queue). Reset in O(1) per episode by an epoch counter; shared by
/// every agent a thread moves, since nothing in it outlives an episode.
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    pub(crate) g: Vec<f64>,
    /// The tie key of each state's latest open-list entry (`Entry::g` of that entry; see
    /// `bounded_astar`): an entry with another key is stale.
    pub(crate) key: Vec<f64>,
    pub(crate) back: Vec<u32>,
    pub(crate) seen: Vec<u32>,
    pub(crate) shut: Vec<u32>,
    pub(crate) epoch: u32,
    pub(crate) open: OpenList,
    pub(crate) closed: Vec<u32>,
    pub(crate) queue: VecDeque<u32>,
    pub(crate) succ: Successors,
    /// States generated in the current search, in order (the open list is those not closed).
    pub(crate) generated: Vec<u32>,
}

impl Scratch {
    /// An empty scratch; it sizes itself on first use.
    pub fn new() -> Self {
        Scratch::default()
    }

    /// Sizes the per-cell arrays for a map of `cells` cells, so that the first episode on a
    /// larger map does not pay for it (the simulator calls it before a run; an episode that
    /// grew them measured milliseconds on the experiment's maps).
    pub fn reserve(&mut self, cells: usize) {
        if self.seen.len() < cells {
            self.g.resize(cells, f64::INFINITY);
            self.key.resize(cells, f64::NAN);
            self.back.resize(cells, u32::MAX);
            self.seen.resize(cells, 0);
            self.shut.resize(cells, 0);
        }
    }

    /// Starts a new search over `cells` cells: forgets all g-values in O(1).
    pub(crate) fn begin(&mut self, cells: usize) {
        self.reserve(cells);
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.seen.fill(0);
            self.shut.fill(0);
            self.epoch = 1;
        }
        self.open.clear();
        self.closed.clear();
        self.queue.clear();
        self.generated.clear();
    }

    /// The g-value of `c` in the current search (infinite if not reached).
    #[inline(always)]
    pub(crate) fn g(&self, c: u32) -> f64 {
        if self.seen[c as usize] == self.epoch {
            self.g[c as usize]
        } else {
            f64::INFINITY
        }
    }

    #[inline(always)]
    pub(crate) fn set(&mut self, c: u32, g: f64, back: u32) {
        if self.seen[c as usize] != self.epoch {
            self.generated.push(c);
        }
        self.seen[c as usize] = self.epoch;
        self.g[c as usize] = g;
        self.back[c as usize] = back;
    }

    #[inline(always)]
    pub(crate) fn is_closed(&self, c: u32) -> bool {
        self.shut[c as usize] == self.epoch
    }

    #[inline(always)]
    pub(crate) fn close(&mut self, c: u32) {
        self.shut[c as usize] = self.epoch;
        self.closed.push(c);
    }

    /// Writes the path from the search's start to `to` (excluding the start) into `out`.
    pub(crate) fn path_to(&self, to: u32, out: &mut Vec<u32>) {
        out.clear();
        let mut c = to;
        while self.back[c as usize] != u32::MAX {
            out.push(c);
            c = self.back[c as usize];
        }
        out.reverse();
    }
}
