//! The bounded A* lookahead shared by RTAA*, daRTAA*, FRIT_RT and p-FRIT_RT (the paper's
//! `A*(k)` of Algorithms 3 and 4).

use taut_search::Entry;

use super::Ties;
use crate::world::{Budget, Scratch, View};

/// How a bounded lookahead ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// A state of lowest `f` satisfies the goal test (it is not expanded).
    Goal(u32),
    /// The budget ran out; this is the state with the lowest `f` on the open list.
    Frontier(u32),
    /// The open list ran empty: every state the search may reach was expanded.
    Exhausted,
}

/// Two `f`-values closer than this are tied (they are sums of 1s and √2s, so equal sums
/// taken in different orders may differ in the last bits).
const F_TIE: f64 = 1e-9;

/// A* from `start` expanding at most the budget's states: it stops when an open state of
/// lowest `f` passes `is_goal` (checked before it would be expanded, so the goal is never
/// extracted), when the budget is spent, or when the open list is empty. With `all_min_f`
/// every open state tied for the lowest `f` is tested, as Algorithm 4's line 6 reads ("while
/// each s' ∈ Open with minimum f-value is such that INTREE[c](s') is not true"); without it
/// only the state that would be expanded next. Successors are generated only through
/// [`Budget::expand`] and kept only when `admit(state, successor, direction)` accepts them
/// (p-FRIT_RT's border restriction). Ties in `f` go as `ties` says.
///
/// The open list pops the larger `Entry::g` first among equal `f`, so that field holds a *tie
/// key*: the state's `g` for [`Ties::LargerG`], minus the number of earlier pushes for
/// [`Ties::Insertion`]. An entry whose key is not its state's latest is stale (the state was
/// pushed again at a lower `g`): the latest key is the state's `g`, or for insertion order
/// the one `Scratch::key` remembers.
#[allow(clippy::too_many_arguments)]
pub(crate) fn bounded_astar(
    view: &View<'_>,
    start: u32,
    budget: &mut Budget,
    sc: &mut Scratch,
    h: &impl Fn(u32) -> f64,
    admit: &impl Fn(u32, u32, u8) -> bool,
    all_min_f: bool,
    ties: Ties,
    is_goal: &mut impl FnMut(u32, &mut Budget) -> bool,
) -> Stop {
    sc.begin(view.cells());
    let mut pushes = 0u32;
    let mut push = |sc: &mut Scratch, t: u32, g: f64, f: f64| {
        let key = match ties {
            Ties::LargerG => g,
            Ties::Insertion => {
                pushes += 1;
                let key = -f64::from(pushes);
                sc.key[t as usize] = key;
                key
            }
        };
        sc.open.push(Entry { f, g: key, id: t });
    };
    sc.set(start, 0.0, u32::MAX);
    push(sc, start, 0.0, h(start));
    let mut succ = std::mem::take(&mut sc.succ);
    let stop = loop {
        // Drop stale entries (improved since pushed, or already closed).
        while let Some(top) = sc.open.peek() {
            if sc.is_closed(top.id) || is_stale(sc, top, ties) {
                sc.open.pop();
            } else {
                break;
            }
        }
        let Some(&top) = sc.open.peek() else {
            break Stop::Exhausted;
        };
        if is_goal(top.id, budget) {
            break Stop::Goal(top.id);
        }
        if all_min_f && let Some(c) = tied_goal(sc, top, ties, budget, is_goal) {
            break Stop::Goal(c);
        }
        if budget.exhausted() {
            break Stop::Frontier(top.id);
        }
        sc.open.pop();
        let c = top.id;
        let g = sc.g(c);
        budget.expand(view, c, &mut succ);
        sc.close(c);
        for &(t, d, cost) in &succ {
            if sc.is_closed(t) || !admit(c, t, d) {
                continue;
            }
            let ng = g + cost;
            if ng < sc.g(t) {
                sc.set(t, ng, c);
                push(sc, t, ng, ng + h(t));
            }
        }
    };
    sc.succ = succ;
    stop
}

/// Whether `e` is an older entry of a state pushed again since (see `bounded_astar`).
#[inline(always)]
fn is_stale(sc: &Scratch, e: &Entry, ties: Ties) -> bool {
    e.g != match ties {
        Ties::LargerG => sc.g(e.id),
        Ties::Insertion => sc.key[e.id as usize],
    }
}

/// The first open state other than `top` tied with it for the lowest `f` that passes
/// `is_goal`, in heap order. Walks only the part of the heap whose entries are tied with the
/// top (children never come before their parent), skipping stale entries.
fn tied_goal(
    sc: &mut Scratch,
    top: Entry,
    ties: Ties,
    budget: &mut Budget,
    is_goal: &mut impl FnMut(u32, &mut Budget) -> bool,
) -> Option<u32> {
    let mut stack = std::mem::take(&mut sc.queue);
    stack.clear();
    stack.extend([1u32, 2]);
    let mut found = None;
    while let Some(i) = stack.pop_back() {
        let Some(&e) = sc.open.entries().get(i as usize) else {
            continue;
        };
        if e.f > top.f + F_TIE {
            continue;
        }
        stack.extend([2 * i + 1, 2 * i + 2]);
        if e.id == top.id || sc.is_closed(e.id) || is_stale(sc, &e, ties) {
            continue;
        }
        if is_goal(e.id, budget) {
            found = Some(e.id);
            break;
        }
    }
    stack.clear();
    sc.queue = stack;
    found
}

/// The open states of the last search (generated, not closed).
pub(crate) fn open_states(sc: &Scratch) -> impl Iterator<Item = u32> + '_ {
    sc.generated.iter().copied().filter(|&c| !sc.is_closed(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{Belief, Successors, World, octile};
    use taut_grid::Grid;

    /// The order in which a list-based A* takes states, by the definitions: the open entry of
    /// least `f` (exact comparison), ties to the larger `g` or to the earlier push; an entry
    /// is dropped when its state was closed or pushed again at a lower `g`. Returns the
    /// `(state, f, g)` of each state taken, the goal test included.
    fn reference_order(view: &View<'_>, start: u32, k: u32, ties: Ties) -> Vec<(u32, f64, f64)> {
        let (gx, gy) = view.xy(view.goal());
        let h = |c: u32| {
            let (x, y) = view.xy(c);
            octile(x, y, gx, gy)
        };
        let mut g = vec![f64::INFINITY; view.cells()];
        let mut closed = vec![false; view.cells()];
        let mut open: Vec<(f64, f64, u32)> = vec![(h(start), 0.0, start)];
        g[start as usize] = 0.0;
        let mut order = Vec::new();
        let mut budget = Budget::new(k, 0);
        let mut succ = Successors::new();
        loop {
            open.retain(|&(_, eg, id)| !closed[id as usize] && eg == g[id as usize]);
            // `min_by` keeps the first of equal elements, so pushes are in order.
            let Some(i) = (0..open.len()).min_by(|&a, &b| {
                let (ea, eb) = (open[a], open[b]);
                let by_g = match ties {
                    Ties::LargerG => eb.1.total_cmp(&ea.1),
                    Ties::Insertion => std::cmp::Ordering::Equal,
                };
                ea.0.total_cmp(&eb.0).then(by_g)
            }) else {
                break;
            };
            let (f, eg, c) = open[i];
            order.push((c, f, eg));
            if c == view.goal() || budget.exhausted() {
                break;
            }
            open.remove(i);
            closed[c as usize] = true;
            budget.expand(view, c, &mut succ);
            for &(t, _, cost) in &succ {
                let ng = eg + cost;
                if !closed[t as usize] && ng < g[t as usize] {
                    g[t as usize] = ng;
                    open.push((ng + h(t), ng, t));
                }
            }
        }
        order
    }

    /// `bounded_astar` takes states in the order the definitions give, for both tie rules:
    /// the very states for insertion order (every tie has one answer), the same `(f, g)`
    /// sequence for the larger `g` (states tied on both are in heap order).
    #[test]
    fn ties_follow_their_definitions() {
        let grid = Grid::from_ascii(&[
            "..........",
            "...#......",
            "...#..##..",
            "...#......",
            ".....#....",
            "..####....",
            "..........",
        ])
        .unwrap();
        let world = World::new(&grid);
        let mut belief = Belief::default();
        belief.reset(&world);
        for c in 0..world.cells() as u32 {
            belief.sense(&world, c);
        }
        let mut sc = Scratch::new();
        let cells = [(0, 0), (9, 6), (4, 3), (0, 6), (9, 0), (6, 4)];
        for &(sx, sy) in &cells {
            for &(gx, gy) in &cells {
                let (start, goal) = (world.cell(sx, sy).unwrap(), world.cell(gx, gy).unwrap());
                let view = View::new(&world, &belief, goal);
                let h = |c: u32| {
                    let (x, y) = view.xy(c);
                    octile(x, y, gx, gy)
                };
                for ties in [Ties::LargerG, Ties::Insertion] {
                    for k in [1, 3, 10, 40, 1000] {
                        let mut taken = Vec::new();
                        let mut budget = Budget::new(k, 0);
                        bounded_astar(
                            &view,
                            start,
                            &mut budget,
                            &mut sc,
                            &h,
                            &|_, _, _| true,
                            false,
                            ties,
                            &mut |c, _| {
                                taken.push(c);
                                c == goal
                            },
                        );
                        let want = reference_order(&view, start, k, ties);
                        let what = format!("{ties:?}, k = {k}, ({sx}, {sy}) to ({gx}, {gy})");
                        assert_eq!(taken.len(), want.len(), "{what}");
                        if ties == Ties::Insertion {
                            let ids: Vec<u32> = want.iter().map(|w| w.0).collect();
                            assert_eq!(taken, ids, "{what}");
                        } else {
                            // The same (f, g) at every step (states tied on both may differ).
                            for (&c, &(_, f, g)) in taken.iter().zip(&want) {
                                let got = (sc.g(c) + h(c), sc.g(c));
                                assert!((got.0 - f).abs() < 1e-9, "{what}: f {got:?} {f}");
                                assert!((got.1 - g).abs() < 1e-9, "{what}: g {got:?} {g}");
                            }
                        }
                    }
                }
            }
        }
    }
}
