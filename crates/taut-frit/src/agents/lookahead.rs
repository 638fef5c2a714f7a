//! The bounded A* lookahead shared by RTAA*, daRTAA*, FRIT_RT and p-FRIT_RT (the paper's
//! `A*(k)` of Algorithms 3 and 4).

use taut_search::Entry;

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
/// (p-FRIT_RT's border restriction). Ties in `f` go to the larger `g`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn bounded_astar(
    view: &View<'_>,
    start: u32,
    budget: &mut Budget,
    sc: &mut Scratch,
    h: &impl Fn(u32) -> f64,
    admit: &impl Fn(u32, u32, u8) -> bool,
    all_min_f: bool,
    is_goal: &mut impl FnMut(u32, &mut Budget) -> bool,
) -> Stop {
    sc.begin(view.cells());
    sc.set(start, 0.0, u32::MAX);
    sc.open.push(Entry {
        f: h(start),
        g: 0.0,
        id: start,
    });
    let mut succ = std::mem::take(&mut sc.succ);
    let stop = loop {
        // Drop stale entries (improved since pushed, or already closed).
        while let Some(top) = sc.open.peek() {
            if sc.is_closed(top.id) || top.g > sc.g(top.id) {
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
        if all_min_f && let Some(c) = tied_goal(sc, top, budget, is_goal) {
            break Stop::Goal(c);
        }
        if budget.exhausted() {
            break Stop::Frontier(top.id);
        }
        sc.open.pop();
        let c = top.id;
        let g = top.g;
        budget.expand(view, c, &mut succ);
        sc.close(c);
        for &(t, d, cost) in &succ {
            if sc.is_closed(t) || !admit(c, t, d) {
                continue;
            }
            let ng = g + cost;
            if ng < sc.g(t) {
                sc.set(t, ng, c);
                sc.open.push(Entry {
                    f: ng + h(t),
                    g: ng,
                    id: t,
                });
            }
        }
    };
    sc.succ = succ;
    stop
}

/// The first open state other than `top` tied with it for the lowest `f` that passes
/// `is_goal`, in heap order. Walks only the part of the heap whose entries are tied with the
/// top (children never come before their parent), skipping stale entries.
fn tied_goal(
    sc: &mut Scratch,
    top: Entry,
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
        if e.id == top.id || sc.is_closed(e.id) || e.g > sc.g(e.id) {
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
