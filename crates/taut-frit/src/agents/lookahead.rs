//! The bounded A* lookahead shared by RTAA*, daRTAA*, FRIT_RT and p-FRIT_RT (the paper's
//! `A*(k)` of Algorithms 3 and 4).

use taut_search::Entry;

use crate::world::{Budget, Scratch, View};

/// How a bounded lookahead ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The state with the lowest `f` satisfies the goal test (it is not expanded).
    Goal(u32),
    /// The budget ran out; this is the state with the lowest `f` on the open list.
    Frontier(u32),
    /// The open list ran empty: every state the search may reach was expanded.
    Exhausted,
}

/// A* from `start` expanding at most the budget's states: it stops when the open state of
/// lowest `f` passes `is_goal` (checked before it would be expanded, so the goal is never
/// extracted), when the budget is spent, or when the open list is empty. Successors are
/// generated only through [`Budget::expand`] and kept only when `admit` accepts them
/// (p-FRIT_RT's border restriction). Ties in `f` go to the larger `g`.
pub(crate) fn bounded_astar(
    view: &View<'_>,
    start: u32,
    budget: &mut Budget,
    sc: &mut Scratch,
    h: &impl Fn(u32) -> f64,
    admit: &impl Fn(u32) -> bool,
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
        if budget.exhausted() {
            break Stop::Frontier(top.id);
        }
        sc.open.pop();
        let c = top.id;
        let g = top.g;
        budget.expand(view, c, &mut succ);
        sc.close(c);
        for &(t, _, cost) in &succ {
            if sc.is_closed(t) || !admit(t) {
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

/// The open states of the last search (generated, not closed).
pub(crate) fn open_states(sc: &Scratch) -> impl Iterator<Item = u32> + '_ {
    sc.generated.iter().copied().filter(|&c| !sc.is_closed(c))
}
