//! FRIT: follow the ideal tree, reconnect when a newly seen obstacle cuts it (Rivera, Illanes,
//! Baier and Hernández 2013/2014), and p-FRIT_RT (Rivera, Illanes and Baier), whose
//! reconnection search keeps to the borders of obstacles.
//!
//! # The ideal tree
//! Every cell `s` but the goal has a parent `p(s)`. Until reconnection sets it explicitly,
//! `p(s)` is implicit: the neighbour one step toward the goal (diagonal while both coordinates
//! differ, else straight), which minimises `c(s, t) + h(t)` for the octile `h` on the map the
//! agent first believes in (no obstacles). A pointer is *pruned* when the belief forbids its
//! move (its target, or a cell a diagonal squeezes past, was seen blocked); pruning is
//! evaluated when a pointer is read, which is the same as pruning every arc into an obstacle
//! when it is discovered, since beliefs only ever gain obstacles.
//!
//! # Reconnection
//! When `p(agent)` is pruned, a reconnection starts: a search for a state whose pointer
//! chain reaches the goal (`INTREE`), painting the states each walk passes so that a chain
//! that runs into a cycle, or into a chain already known not to reach the goal, is given up
//! (see [`Tree`] for how colours are kept). FRIT(BFS) searches breadth-first with unbounded
//! `INTREE`, then sets pointers along the path found. FRIT_RT and p-FRIT_RT run RTAA* with the
//! null heuristic and `INTREE` as the goal test, set `p(sᵢ) = sᵢ₊₁` along every step they
//! walk, and stop reconnecting on arriving at a state found in the tree. Their INTREE walks
//! take pointer steps from the episode's budget and answer "not yet" when it is spent:
//! FRIT_RT starts each walk afresh (Algorithm 2); p-FRIT_RT resumes the walk from `s` where
//! it stopped (Algorithm 5's super-parent `sp(s)`). p-FRIT_RT's A* also generates only states
//! that border a known obstacle (Algorithm 4), so the agent walks along walls like a bug.
//!
//! Where the paper leaves a choice, [`FritConfig`] names it: whether the learned
//! reconnection heuristic survives from one reconnection to the next, which open states are
//! goal-tested, which pointers the agent's steps overwrite, p-FRIT_RT's border rule, the
//! ideal tree's ties and the release below. `docs/frit.md` gives the measured effect of each.
//!
//! # Guards
//! - A reconnection started by p-FRIT_RT whose border-restricted search exhausts without
//!   finding the tree repeats the episode's search unrestricted.
//! - The border can trap p-FRIT_RT: round an island obstacle whose every border state has a
//!   chain cut by some obstacle far away, the restricted search never exhausts and never finds
//!   the tree (the paper's Theorem 1 assumes otherwise). Unless [`FritConfig::release`] is
//!   off, when p-FRIT_RT has searched from the same state that many times
//!   ([`RELEASE_VISITS`] by default) in one reconnection and that state's pointer is
//!   valid, it ends the reconnection and follows the tree, which takes it to where its chain
//!   is cut and reconnects there. The second time this happens at the same state in a run,
//!   the rest of the reconnection is searched unrestricted (as FRIT_RT), so the release
//!   cannot cycle.
//! - A resumed INTREE walk trusts the part of the chain it walked in earlier episodes, which
//!   later pointer updates may have changed, so following the tree could in principle run
//!   around a cycle. Following therefore remembers the cells it has passed since the last
//!   reconnection; revisiting one starts a new reconnection.

use hashbrown::{HashMap, HashSet};

use super::lookahead::{Stop, bounded_astar};
use super::{Agent, Decision};
use crate::world::{Budget, DIRS, Scratch, View};

/// How many times p-FRIT_RT searches from one state in one reconnection before it gives the
/// border restriction up there (see the module docs). Chosen on 5 problems per map of the
/// experiment: with 16, one Ramparts run at k = 16 was still going when we stopped it after
/// a minute (the whole 32-visit sweep took under 30 s), and lower values released too early
/// in an earlier variant; 32 reached every goal at every lookahead.
pub(crate) const RELEASE_VISITS: u32 = 32;

/// Which member of the FRIT family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FritKind {
    /// FRIT(BFS): breadth-first reconnection, unbounded INTREE. Not real-time.
    Bfs,
    /// FRIT_RT(RTAA*): RTAA* reconnection with Algorithm 2's INTREE.
    Rt,
    /// p-FRIT_RT(RTAA*): border-restricted RTAA* reconnection (Algorithm 4) with the
    /// super-parent INTREE (Algorithm 5).
    PRt,
}

/// Which open states the reconnection search tests with INTREE before each expansion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GoalTest {
    /// Every open state tied for the lowest `f` (Algorithm 4, line 6, as written).
    AllMinF,
    /// Only the state the search would expand next (RTAA*'s usual goal test).
    Top,
}

/// What happens to the reconnection heuristic RTAA* learned when a reconnection ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LearnedH {
    /// Every reconnection starts from the null heuristic (Algorithm 1 calls RTAA* afresh, and
    /// Algorithm 3 takes "a heuristic function h" as its input).
    Reset,
    /// The values learned survive into later reconnections (our improvement: a reset agent
    /// re-learns the same wall at every reconnection).
    Keep,
}

/// Which parent pointers the steps taken while reconnecting overwrite (p-FRIT_RT only;
/// FRIT_RT always follows Algorithm 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pointers {
    /// `p(sᵢ) ← sᵢ₊₁` at every step (Algorithm 3, line 9).
    Trajectory,
    /// Only where `p(sᵢ)` is pruned (our improvement: a valid pointer may carry a chain that a
    /// super-parent walk has half verified).
    KeepValid,
}

/// Which states p-FRIT_RT's restricted search admits as successors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Border {
    /// A successor with any known blocked neighbour, the map border included (the paper's
    /// prose: "a state is added to Open only if it has a neighbor which is an obstacle").
    AnyNeighbour,
    /// A successor `Succ(s, i)` such that `Succ(s, i − 1)` or `Succ(s, i + 1)` is known blocked:
    /// an obstacle touching both states (Algorithm 4, line 10, as written). Without corner
    /// cutting such an obstacle forbids every diagonal move, so use it with
    /// [`crate::MoveRule::CornerCut`].
    CommonNeighbour,
}

/// The ideal tree's implicit parent pointers (before reconnection sets any).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdealTree {
    /// The first successor in the paper's clockwise order `δ` minimising `c(s, t) + h(t)` for
    /// the octile `h` (the paper's definition, ties broken by its successor order). Toward a
    /// goal that is farther along one axis, the straight step and the diagonal step tie; `δ`
    /// order takes whichever comes first.
    FirstInDelta,
    /// Diagonal while both coordinates differ, then straight (also a minimiser; our choice).
    DiagonalFirst,
}

/// How the reconnection search orders open states tied on `f` (FRIT_RT and p-FRIT_RT; the
/// other RTAA\* agents always take the larger `g`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ties {
    /// The state with the larger `g` first, the usual A\* choice (deeper states are nearer a
    /// goal state); ours in both profiles.
    LargerG,
    /// The state pushed first. The paper's Figure 2 assumes it for its worked example ("ties
    /// are broken in the priority queue in the same order" as cells were added); its
    /// algorithms say nothing.
    Insertion,
}

/// An option's values and their names: one table, read one way by [`FritConfig::set`] and
/// the other by `FritConfig`'s `Display`.
trait Named: Copy + PartialEq + 'static {
    const NAMES: [(Self, &'static str); 2];

    fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(v, _)| *v == self)
            .map_or("", |(_, n)| n)
    }

    fn parse(s: &str) -> Option<Self> {
        Self::NAMES.iter().find(|(_, n)| *n == s).map(|(v, _)| *v)
    }
}

impl Named for GoalTest {
    const NAMES: [(Self, &'static str); 2] =
        [(GoalTest::AllMinF, "all-min-f"), (GoalTest::Top, "top")];
}

impl Named for LearnedH {
    const NAMES: [(Self, &'static str); 2] = [(LearnedH::Reset, "reset"), (LearnedH::Keep, "keep")];
}

impl Named for Pointers {
    const NAMES: [(Self, &'static str); 2] = [
        (Pointers::Trajectory, "trajectory"),
        (Pointers::KeepValid, "keep-valid"),
    ];
}

impl Named for Border {
    const NAMES: [(Self, &'static str); 2] = [
        (Border::AnyNeighbour, "any-neighbour"),
        (Border::CommonNeighbour, "common-neighbour"),
    ];
}

impl Named for Ties {
    const NAMES: [(Self, &'static str); 2] =
        [(Ties::LargerG, "larger-g"), (Ties::Insertion, "insertion")];
}

impl Named for IdealTree {
    const NAMES: [(Self, &'static str); 2] = [
        (IdealTree::FirstInDelta, "first-in-delta"),
        (IdealTree::DiagonalFirst, "diagonal-first"),
    ];
}

/// The choices that make up a FRIT-family agent: every decision the p-FRIT_RT paper leaves
/// open or that taut changed, as named options. [`FritConfig::paper`] (the default) is the
/// reading closest to the paper; [`FritConfig::taut`] holds our improvements.
/// `docs/frit.md` gives each option's measured effect.
///
/// Two deviations are in both: INTREE colours identify walks, not reconnections (with bounded
/// walks the paper's single colour livelocks), and INTREE's allowance is a number of pointer
/// steps per expansion ([`crate::RunParams::steps_per_expansion`]; the paper gives a time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FritConfig {
    /// See [`GoalTest`].
    pub goal_test: GoalTest,
    /// See [`LearnedH`].
    pub learned_h: LearnedH,
    /// See [`Pointers`].
    pub pointers: Pointers,
    /// See [`Border`].
    pub border: Border,
    /// See [`IdealTree`].
    pub tree: IdealTree,
    /// See [`Ties`].
    pub ties: Ties,
    /// p-FRIT_RT's release from border traps after this many searches from one state in one
    /// reconnection (see the module docs); `None` turns it off.
    pub release: Option<u32>,
}

impl Default for FritConfig {
    fn default() -> Self {
        Self::paper()
    }
}

impl FritConfig {
    /// The option names [`FritConfig::set`] accepts, with their values.
    pub const OPTIONS: [(&'static str, &'static str); 7] = [
        ("goal-test", "all-min-f | top"),
        ("learned-h", "reset | keep"),
        ("pointers", "trajectory | keep-valid"),
        ("border", "any-neighbour | common-neighbour"),
        ("tree", "first-in-delta | diagonal-first"),
        ("ties", "larger-g | insertion"),
        ("release", "off | N (searches from one state)"),
    ];

    /// The `--frit-option` help of the command-line tools, made from [`FritConfig::OPTIONS`]
    /// so that it always names every option: `name=v1|v2, ...`.
    pub fn options_help() -> String {
        let list: Vec<String> = Self::OPTIONS
            .iter()
            .map(|(name, values)| format!("{name}={}", values.replace(" | ", "|")))
            .collect();
        format!(
            "One FRIT option over the profile, NAME=VALUE (repeatable or comma-separated): {}",
            list.join(", ")
        )
    }

    /// The paper's algorithms as written, where they leave a choice the reading closest to
    /// them: all tied states goal-tested, the learned heuristic reset per reconnection,
    /// pointers along the whole trajectory, the prose's border rule, the tree's ties in `δ`
    /// order, and the release rule kept (see `docs/frit.md` for why).
    pub const fn paper() -> Self {
        FritConfig {
            goal_test: GoalTest::AllMinF,
            learned_h: LearnedH::Reset,
            pointers: Pointers::Trajectory,
            border: Border::AnyNeighbour,
            tree: IdealTree::FirstInDelta,
            ties: Ties::LargerG,
            release: Some(RELEASE_VISITS),
        }
    }

    /// taut's improvements: the learned heuristic kept, valid pointers kept, the release
    /// rule, only the top state goal-tested, diagonal-first ideal tree.
    pub const fn taut() -> Self {
        FritConfig {
            goal_test: GoalTest::Top,
            learned_h: LearnedH::Keep,
            pointers: Pointers::KeepValid,
            border: Border::AnyNeighbour,
            tree: IdealTree::DiagonalFirst,
            ties: Ties::LargerG,
            release: Some(RELEASE_VISITS),
        }
    }

    /// A named profile: `paper` or `taut`.
    pub fn profile(name: &str) -> Result<Self, String> {
        match name {
            "paper" => Ok(Self::paper()),
            "taut" => Ok(Self::taut()),
            _ => Err(format!("unknown profile `{name}` (expected paper or taut)")),
        }
    }

    /// Sets one option from its name and value (see [`FritConfig::OPTIONS`]).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let bad = || {
            let values = Self::OPTIONS
                .iter()
                .find(|(n, _)| *n == name)
                .map_or("", |(_, v)| v);
            format!("option `{name}` cannot be `{value}` (expected {values})")
        };
        let set = match name {
            "goal-test" => GoalTest::parse(value).map(|v| self.goal_test = v),
            "learned-h" => LearnedH::parse(value).map(|v| self.learned_h = v),
            "pointers" => Pointers::parse(value).map(|v| self.pointers = v),
            "border" => Border::parse(value).map(|v| self.border = v),
            "tree" => IdealTree::parse(value).map(|v| self.tree = v),
            "ties" => Ties::parse(value).map(|v| self.ties = v),
            "release" => match value {
                "off" => Some(None),
                n => n.parse::<u32>().ok().filter(|&n| n > 0).map(Some),
            }
            .map(|v| self.release = v),
            _ => {
                let names: Vec<_> = Self::OPTIONS.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "unknown FRIT option `{name}` (expected one of {})",
                    names.join(", ")
                ));
            }
        };
        set.ok_or_else(bad)
    }

    /// Sets options from `name=value` pairs separated by commas.
    pub fn set_all(&mut self, spec: &str) -> Result<(), String> {
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("FRIT option `{item}` is not name=value"))?;
            self.set(name.trim(), value.trim())?;
        }
        Ok(())
    }
}

impl std::fmt::Display for FritConfig {
    /// Every option as `name=value`, comma-separated (what [`FritConfig::set_all`] reads).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "goal-test={},learned-h={},pointers={},border={},tree={},ties={},release=",
            self.goal_test.name(),
            self.learned_h.name(),
            self.pointers.name(),
            self.border.name(),
            self.tree.name(),
            self.ties.name()
        )?;
        match self.release {
            Some(n) => write!(f, "{n}"),
            None => f.write_str("off"),
        }
    }
}

/// The ideal tree and INTREE's bookkeeping.
///
/// Colours identify *walks*, not just reconnections: every INTREE walk gets a fresh number,
/// and the walks of the current reconnection are those numbered from `first_walk` on (older
/// colours count as unpainted). Each walk of the current reconnection has a [`WalkState`].
/// A walk gives up when it meets a cell it painted itself (a cycle) or a cell painted by a
/// walk of this reconnection that gave up (its chain is known not to reach the goal). With
/// unbounded walks (FRIT(BFS)) every earlier walk of a reconnection has given up, so this is
/// exactly the paper's colour test; with bounded walks the paper's single colour per
/// reconnection makes walks that merge block each other for good (we saw agents circle a
/// pillar forever), which per-walk colours avoid.
/// A walk walks through cells painted by other walks that have not given up.
#[derive(Debug, Clone)]
struct Tree {
    /// Explicit parents set by reconnection; absent means implicit.
    parents: HashMap<u32, u32>,
    /// The walk that last painted each cell.
    color: HashMap<u32, u32>,
    /// The state of walk `first_walk + i` at index `i`.
    walks: Vec<WalkState>,
    /// Super-parents of the current reconnection: the walk started from `s` (absent means
    /// `sp(s) = s`, no walk yet); where it resumes is that walk's state.
    sp: HashMap<u32, u32>,
    /// The next walk number.
    next_walk: u32,
    /// The first walk number of the current reconnection.
    first_walk: u32,
    /// How implicit pointers are chosen.
    shape: IdealTree,
}

/// Where an INTREE walk of the current reconnection stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WalkState {
    /// Interrupted (out of pointer steps); it resumes at this cell.
    Running(u32),
    /// Its chain reached the goal.
    Reached,
    /// Its chain met a pruned pointer, itself, or a walk that gave up.
    Failed,
}

impl Tree {
    fn new(shape: IdealTree) -> Self {
        Tree {
            parents: HashMap::new(),
            color: HashMap::new(),
            walks: Vec::new(),
            sp: HashMap::new(),
            next_walk: 0,
            first_walk: 0,
            shape,
        }
    }

    fn clear(&mut self) {
        self.parents.clear();
        self.color.clear();
        self.walks.clear();
        self.sp.clear();
        self.next_walk = 0;
        self.first_walk = 0;
    }

    /// Starts a reconnection: earlier walks no longer count.
    fn new_reconnection(&mut self) {
        self.sp.clear();
        self.walks.clear();
        self.first_walk = self.next_walk;
    }

    /// A new walk of the current reconnection, starting at `s`.
    fn new_walk(&mut self, s: u32) -> u32 {
        let w = self.next_walk;
        self.next_walk += 1;
        self.walks.push(WalkState::Running(s));
        w
    }

    #[inline]
    fn state(&self, w: u32) -> WalkState {
        self.walks[(w - self.first_walk) as usize]
    }

    #[inline]
    fn set_state(&mut self, w: u32, state: WalkState) {
        let i = (w - self.first_walk) as usize;
        self.walks[i] = state;
    }

    /// The walk of the current reconnection that painted `t`, if any.
    #[inline]
    fn painter(&self, t: u32) -> Option<u32> {
        self.color
            .get(&t)
            .copied()
            .filter(|&w| w >= self.first_walk)
    }

    /// `p(s)`, or `None` at the goal or when the belief prunes it.
    #[inline]
    fn parent(&self, view: &View<'_>, s: u32) -> Option<u32> {
        let goal = view.goal();
        if s == goal {
            return None;
        }
        let t = match self.parents.get(&s) {
            Some(&t) => t,
            None => implicit_parent(view, s, self.shape),
        };
        view.can_move(s, t).then_some(t)
    }

    /// Runs walk `w` (not finished) from `x` until the goal (`Some(true)`), a pruned pointer
    /// or a blocking cell (`Some(false)`), or the budget's pointer steps run out (`None`);
    /// records the outcome in the walk's state.
    fn walk(&mut self, view: &View<'_>, mut x: u32, w: u32, budget: &mut Budget) -> Option<bool> {
        let goal = view.goal();
        loop {
            if x == goal {
                self.set_state(w, WalkState::Reached);
                return Some(true);
            }
            if !budget.step() {
                self.set_state(w, WalkState::Running(x));
                return None;
            }
            self.color.insert(x, w);
            let Some(t) = self.parent(view, x) else {
                self.set_state(w, WalkState::Failed);
                return Some(false);
            };
            if let Some(other) = self.painter(t)
                && (other == w || self.state(other) == WalkState::Failed)
            {
                self.set_state(w, WalkState::Failed);
                return Some(false);
            }
            x = t;
        }
    }

    /// Algorithm 2: a fresh walk from `s`; `false` when it gives up or runs out of steps.
    fn intree(&mut self, view: &View<'_>, s: u32, budget: &mut Budget) -> bool {
        let w = self.new_walk(s);
        self.walk(view, s, w, budget) == Some(true)
    }

    /// Algorithm 5: resume the walk from `s` where it stopped.
    fn intree_sp(&mut self, view: &View<'_>, s: u32, budget: &mut Budget) -> bool {
        let w = match self.sp.get(&s) {
            Some(&w) => w,
            None => {
                let w = self.new_walk(s);
                self.sp.insert(s, w);
                w
            }
        };
        match self.state(w) {
            WalkState::Reached => true,
            WalkState::Running(x) => self.walk(view, x, w, budget) == Some(true),
            WalkState::Failed => false,
        }
    }
}

/// `p(s)` in the ideal tree on the map without obstacles, for `s` not the goal.
#[inline]
fn implicit_parent(view: &View<'_>, s: u32, shape: IdealTree) -> u32 {
    let (x, y) = view.xy(s);
    let (gx, gy) = view.xy(view.goal());
    match shape {
        IdealTree::DiagonalFirst => view.index(x + (gx - x).signum(), y + (gy - y).signum()),
        IdealTree::FirstInDelta => {
            let (dx, dy) = first_in_delta(gx - x, gy - y);
            view.index(x + dx, y + dy)
        }
    }
}

/// The step of [`IdealTree::FirstInDelta`] toward a goal at offset `(dx, dy) ≠ (0, 0)`: the
/// first direction of `DIRS` minimising `c(s, t) + h(t)` for the octile `h`. Only two can: the
/// diagonal toward the goal and, when the goal is farther along one axis, the straight step
/// along that axis (both cost `1 + √2` less per step taken; a goal on an axis or a diagonal
/// has one minimiser). So no heuristic is evaluated per INTREE pointer step.
#[inline]
fn first_in_delta(dx: i32, dy: i32) -> (i32, i32) {
    let (sx, sy) = (dx.signum(), dy.signum());
    let (ax, ay) = (dx.abs(), dy.abs());
    if ax == ay || ax == 0 || ay == 0 {
        return (sx, sy);
    }
    let diagonal = (sx, sy);
    let straight = if ax > ay { (sx, 0) } else { (0, sy) };
    let index = |d: (i32, i32)| DIRS.iter().position(|&o| o == d);
    if index(straight) < index(diagonal) {
        straight
    } else {
        diagonal
    }
}

/// A FRIT-family agent (see the module docs).
#[derive(Debug, Clone)]
pub struct Frit {
    kind: FritKind,
    config: FritConfig,
    tree: Tree,
    /// The reconnection heuristic learned by RTAA* (null heuristic: 0 when absent).
    learned: HashMap<u32, f64>,
    reconnecting: bool,
    plan: Vec<u32>,
    at: usize,
    /// Whether the plan's last cell was found in the tree.
    plan_in_tree: bool,
    /// The follow phase in which each cell was last passed while following the tree.
    followed: HashMap<u32, u32>,
    phase: u32,
    /// p-FRIT_RT: how often the agent stood on each cell in the current reconnection.
    visits: HashMap<u32, u32>,
    /// p-FRIT_RT: the border restriction is lifted for the rest of the reconnection.
    unrestricted: bool,
    /// p-FRIT_RT: cells where a reconnection was given up to follow the tree (see the
    /// module docs), for the whole run.
    released: HashSet<u32>,
}

impl Frit {
    /// A fresh agent of the given kind with the default configuration
    /// ([`FritConfig::paper`]).
    pub fn new(kind: FritKind) -> Self {
        Self::with_config(kind, FritConfig::default())
    }

    /// A fresh agent of the given kind and configuration.
    pub fn with_config(kind: FritKind, config: FritConfig) -> Self {
        Frit {
            kind,
            config,
            tree: Tree::new(config.tree),
            learned: HashMap::new(),
            reconnecting: false,
            plan: Vec::new(),
            at: 0,
            plan_in_tree: false,
            followed: HashMap::new(),
            phase: 1,
            visits: HashMap::new(),
            unrestricted: false,
            released: HashSet::new(),
        }
    }

    /// The agent's configuration.
    pub fn config(&self) -> FritConfig {
        self.config
    }

    fn start_reconnection(&mut self) {
        self.tree.new_reconnection();
        if self.config.learned_h == LearnedH::Reset {
            self.learned.clear();
        }
        self.visits.clear();
        self.unrestricted = false;
        self.plan.clear();
        self.at = 0;
        self.plan_in_tree = false;
        self.reconnecting = true;
    }

    fn end_reconnection(&mut self) {
        self.reconnecting = false;
        self.phase += 1;
        self.plan.clear();
        self.at = 0;
    }

    /// Follows `p(pos)` if it exists and has not been passed in this follow phase.
    fn follow(&mut self, view: &View<'_>, pos: u32) -> Option<Decision> {
        let t = self.tree.parent(view, pos)?;
        if self.followed.insert(pos, self.phase) == Some(self.phase) {
            return None;
        }
        view.dir(pos, t).map(Decision::Move)
    }

    /// FRIT(BFS)'s reconnection: breadth-first from `pos` to the first state in the tree.
    fn reconnect_bfs(
        &mut self,
        view: &View<'_>,
        pos: u32,
        budget: &mut Budget,
        sc: &mut Scratch,
    ) -> Decision {
        sc.begin(view.cells());
        sc.set(pos, 0.0, u32::MAX);
        sc.queue.push_back(pos);
        let mut succ = std::mem::take(&mut sc.succ);
        let mut found = None;
        let mut out_of_budget = false;
        while let Some(c) = sc.queue.pop_front() {
            if self.tree.intree(view, c, budget) {
                found = Some(c);
                break;
            }
            if !budget.expand(view, c, &mut succ) {
                out_of_budget = true;
                break;
            }
            let g = sc.g(c);
            for &(t, _, _) in &succ {
                if sc.g(t).is_infinite() {
                    sc.set(t, g + 1.0, c);
                    sc.queue.push_back(t);
                }
            }
        }
        sc.succ = succ;
        match found {
            Some(t) => {
                sc.path_to(t, &mut self.plan);
                let mut prev = pos;
                for &x in &self.plan {
                    self.tree.parents.insert(prev, x);
                    prev = x;
                }
                self.end_reconnection();
                self.follow(view, pos).unwrap_or(Decision::Wait)
            }
            // Every state reachable in the belief was searched and none is in the tree (the
            // goal always is): the goal is unreachable.
            None if !out_of_budget => Decision::Unsolvable,
            // Out of budget (only in a batch frame): try again next frame.
            None => Decision::Wait,
        }
    }

    /// Algorithm 3, line 10: the agent steps from `pos` to `next` while reconnecting, so
    /// `p(pos) ← next`. With [`Pointers::KeepValid`] p-FRIT_RT keeps a pointer that is still
    /// valid: a super-parent walk from `pos` may have verified the chain behind it in earlier
    /// episodes, and the agent can only follow that chain if it is still there when it comes
    /// back (overwriting it with the agent's own circuit round an obstacle closes a cycle
    /// that every later walk runs into; we saw agents circle a pillar forever).
    fn record_step(&mut self, view: &View<'_>, pos: u32, next: u32) {
        let keep_valid = self.kind == FritKind::PRt && self.config.pointers == Pointers::KeepValid;
        if !keep_valid || self.tree.parent(view, pos).is_none() {
            self.tree.parents.insert(pos, next);
        }
    }

    /// One episode of RTAA* reconnection (FRIT_RT and p-FRIT_RT).
    fn reconnect_rtaa(
        &mut self,
        view: &View<'_>,
        pos: u32,
        budget: &mut Budget,
        sc: &mut Scratch,
    ) -> Decision {
        if let Some(d) = self.plan_step(view, pos) {
            return d;
        }
        if let Some(release) = self.config.release
            && self.kind == FritKind::PRt
            && !self.unrestricted
        {
            let v = self.visits.entry(pos).or_insert(0);
            *v += 1;
            if *v >= release && self.tree.parent(view, pos).is_some() {
                if self.released.insert(pos) {
                    self.end_reconnection();
                    if let Some(d) = self.follow(view, pos) {
                        return d;
                    }
                    self.start_reconnection();
                } else {
                    self.unrestricted = true;
                }
            }
        }
        let restrict = self.kind == FritKind::PRt && !self.unrestricted;
        let mut stop = self.search(view, pos, budget, sc, restrict);
        if restrict && stop == Stop::Exhausted {
            stop = self.search(view, pos, budget, sc, false);
        }
        let (best, in_tree) = match stop {
            // The unrestricted search expanded every state reachable in the belief and none
            // is in the tree; the goal always is, so it is unreachable.
            Stop::Exhausted => return Decision::Unsolvable,
            Stop::Goal(c) => (c, true),
            Stop::Frontier(c) => (c, false),
        };
        if best == pos {
            if in_tree {
                self.end_reconnection();
                if let Some(d) = self.follow(view, pos) {
                    return d;
                }
                self.start_reconnection();
            }
            return Decision::Wait;
        }
        let f_best = sc.g(best) + self.learned.get(&best).copied().unwrap_or(0.0);
        for &c in &sc.closed {
            let v = f_best - sc.g(c);
            let e = self.learned.entry(c).or_insert(0.0);
            if v > *e {
                *e = v;
            }
        }
        sc.path_to(best, &mut self.plan);
        self.plan_in_tree = in_tree;
        self.at = 0;
        self.plan_step(view, pos).unwrap_or(Decision::Wait)
    }

    /// Takes the plan's next step if the belief still allows it (Algorithm 3, line 9),
    /// ending the reconnection on arriving at a state found in the tree.
    fn plan_step(&mut self, view: &View<'_>, pos: u32) -> Option<Decision> {
        let next = *self.plan.get(self.at)?;
        if !view.can_move(pos, next) {
            return None;
        }
        self.at += 1;
        self.record_step(view, pos, next);
        if self.at == self.plan.len() && self.plan_in_tree {
            self.end_reconnection();
        }
        Some(view.dir(pos, next).map_or(Decision::Wait, Decision::Move))
    }

    fn search(
        &mut self,
        view: &View<'_>,
        pos: u32,
        budget: &mut Budget,
        sc: &mut Scratch,
        restrict: bool,
    ) -> Stop {
        let learned = &self.learned;
        let tree = &mut self.tree;
        let h = |c: u32| learned.get(&c).copied().unwrap_or(0.0);
        let common = self.config.border == Border::CommonNeighbour;
        let admit = |c: u32, t: u32, d: u8| {
            !restrict
                || if common {
                    view.move_skirts_obstacle(c, d)
                } else {
                    view.borders_obstacle(t)
                }
        };
        let resume = self.kind == FritKind::PRt;
        let all_min_f = self.config.goal_test == GoalTest::AllMinF;
        let ties = self.config.ties;
        bounded_astar(
            view,
            pos,
            budget,
            sc,
            &h,
            &admit,
            all_min_f,
            ties,
            &mut |c, b| {
                if resume {
                    tree.intree_sp(view, c, b)
                } else {
                    tree.intree(view, c, b)
                }
            },
        )
    }
}

impl Agent for Frit {
    fn name(&self) -> &'static str {
        match self.kind {
            FritKind::Bfs => "frit-bfs",
            FritKind::Rt => "frit-rt",
            FritKind::PRt => "p-frit-rt",
        }
    }

    fn reset(&mut self, _view: &View<'_>, _start: u32) {
        self.tree.clear();
        self.learned.clear();
        self.followed.clear();
        self.released.clear();
        self.start_reconnection();
        self.reconnecting = false;
        self.phase = 1;
    }

    fn decide(
        &mut self,
        view: &View<'_>,
        pos: u32,
        budget: &mut Budget,
        sc: &mut Scratch,
    ) -> Decision {
        if !self.reconnecting {
            if let Some(d) = self.follow(view, pos) {
                return d;
            }
            self.start_reconnection();
        }
        match self.kind {
            FritKind::Bfs => self.reconnect_bfs(view, pos, budget, sc),
            FritKind::Rt | FritKind::PRt => self.reconnect_rtaa(view, pos, budget, sc),
        }
    }

    fn heap_bytes(&self) -> usize {
        let entry = std::mem::size_of::<(u32, u32)>() + 1;
        (self.tree.parents.capacity()
            + self.tree.color.capacity()
            + self.tree.sp.capacity()
            + self.followed.capacity()
            + self.visits.capacity()
            + self.released.capacity())
            * entry
            + self.learned.capacity() * (std::mem::size_of::<(u32, f64)>() + 1)
            + self.plan.capacity() * 4
            + self.tree.walks.capacity() * std::mem::size_of::<WalkState>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{move_cost, octile};

    /// `first_in_delta` against the definition: the first direction in `DIRS` whose
    /// `c(s, t) + h(t)` is smallest, ties within rounding kept by the earlier one.
    #[test]
    fn first_in_delta_is_the_first_minimiser_in_delta_order() {
        for dx in -9..=9 {
            for dy in -9..=9 {
                if (dx, dy) == (0, 0) {
                    continue;
                }
                let mut best = (f64::INFINITY, (0, 0));
                for (d, &(ox, oy)) in DIRS.iter().enumerate() {
                    let v = move_cost(d as u8) + octile(ox, oy, dx, dy);
                    if v < best.0 - 1e-9 {
                        best = (v, (ox, oy));
                    }
                }
                assert_eq!(first_in_delta(dx, dy), best.1, "goal at ({dx}, {dy})");
            }
        }
    }
}
