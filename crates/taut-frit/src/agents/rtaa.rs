//! Real-time heuristic search baselines: LRTA* (one-step lookahead), RTAA* and daRTAA*.
//!
//! All three learn: they raise the heuristic of states they have searched so that an agent
//! trapped in a heuristic depression eventually climbs out. The learned values are this
//! agent's memory (a hash map from cell to value, octile distance to the goal when absent).

use hashbrown::HashMap;

use super::Ties;
use super::lookahead::{Stop, bounded_astar, open_states};
use super::{Agent, Decision};
use crate::world::{Budget, Scratch, View};

/// The learned heuristic: the octile distance to the goal until a state is updated.
#[derive(Debug, Clone, Default)]
pub(crate) struct Learned {
    h: HashMap<u32, f64>,
}

impl Learned {
    #[inline]
    pub(crate) fn get(&self, view: &View<'_>, c: u32) -> f64 {
        match self.h.get(&c) {
            Some(&v) => v,
            None => view.octile(c, view.goal()),
        }
    }

    #[inline]
    pub(crate) fn raise(&mut self, view: &View<'_>, c: u32, v: f64) {
        if v > self.get(view, c) {
            self.h.insert(c, v);
        }
    }

    pub(crate) fn clear(&mut self) {
        self.h.clear();
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.h.capacity() * (std::mem::size_of::<(u32, f64)>() + 1)
    }
}

/// LRTA* (Korf 1990) with lookahead 1: expand the current state, raise its heuristic to the
/// best `c(s, t) + h(t)` among its successors, and move to that successor (first in `DIRS`
/// order on ties).
#[derive(Debug, Clone, Default)]
pub struct Lrta {
    learned: Learned,
}

impl Agent for Lrta {
    fn name(&self) -> &'static str {
        "lrta"
    }

    fn reset(&mut self, _view: &View<'_>, _start: u32) {
        self.learned.clear();
    }

    fn decide(
        &mut self,
        view: &View<'_>,
        pos: u32,
        budget: &mut Budget,
        scratch: &mut Scratch,
    ) -> Decision {
        if !budget.expand(view, pos, &mut scratch.succ) {
            return Decision::Wait;
        }
        let best = scratch
            .succ
            .iter()
            .map(|&(t, d, cost)| (cost + self.learned.get(view, t), d))
            .fold(None, |best: Option<(f64, u8)>, x| match best {
                Some(b) if b.0 <= x.0 => Some(b),
                _ => Some(x),
            });
        match best {
            // No legal move at all: the agent's whole component is its own cell.
            None => Decision::Unsolvable,
            Some((f, d)) => {
                self.learned.raise(view, pos, f);
                Decision::Move(d)
            }
        }
    }

    fn heap_bytes(&self) -> usize {
        self.learned.heap_bytes()
    }
}

/// RTAA* (Koenig and Likhachev 2006) and, with depression avoidance, daRTAA* (Hernández and
/// Baier 2012).
///
/// Each episode runs A* from the agent for at most `k` expansions (it stops before it would
/// expand the goal), takes `next`, the open state of lowest `f`, and sets
/// `h(s) ← f(next) − g(s)` for every expanded `s` (the learning step, which keeps `h`
/// consistent). RTAA* then walks the A* path to `next`; daRTAA* instead walks to the open
/// state whose heuristic has risen least above its initial value (`h(s) − h₀(s)`, the
/// "depression degree"), ties to lower `f`, which steers the agent out of depressions it has
/// already learned about. The walk needs no further planning and stops early when a newly
/// seen obstacle blocks it.
#[derive(Debug, Clone)]
pub struct Rtaa {
    depression_avoidance: bool,
    learned: Learned,
    plan: Vec<u32>,
    at: usize,
}

impl Rtaa {
    /// RTAA*, or daRTAA* with `depression_avoidance`.
    pub fn new(depression_avoidance: bool) -> Self {
        Rtaa {
            depression_avoidance,
            learned: Learned::default(),
            plan: Vec::new(),
            at: 0,
        }
    }
}

impl Agent for Rtaa {
    fn name(&self) -> &'static str {
        if self.depression_avoidance {
            "dartaa"
        } else {
            "rtaa"
        }
    }

    fn reset(&mut self, _view: &View<'_>, _start: u32) {
        self.learned.clear();
        self.plan.clear();
        self.at = 0;
    }

    fn decide(
        &mut self,
        view: &View<'_>,
        pos: u32,
        budget: &mut Budget,
        sc: &mut Scratch,
    ) -> Decision {
        if let Some(&next) = self.plan.get(self.at)
            && view.can_move(pos, next)
        {
            self.at += 1;
            return view.dir(pos, next).map_or(Decision::Wait, Decision::Move);
        }
        let goal = view.goal();
        let learned = &self.learned;
        let h = |c: u32| learned.get(view, c);
        let stop = bounded_astar(
            view,
            pos,
            budget,
            sc,
            &h,
            &|_, _, _| true,
            false,
            Ties::LargerG,
            &mut |c, _| c == goal,
        );
        let best = match stop {
            // Every state reachable in the belief was expanded and none is the goal: since
            // the belief never blocks a free cell, the goal is unreachable.
            Stop::Exhausted => return Decision::Unsolvable,
            Stop::Goal(c) | Stop::Frontier(c) => c,
        };
        if best == pos {
            // No expansion was affordable this frame.
            return Decision::Wait;
        }
        let f_best = sc.g(best) + self.learned.get(view, best);
        for i in 0..sc.closed.len() {
            let c = sc.closed[i];
            let v = f_best - sc.g(c);
            self.learned.raise(view, c, v);
        }
        let target = if self.depression_avoidance {
            let learned = &self.learned;
            let key = |c: u32| {
                let h = learned.get(view, c);
                (h - view.octile(c, goal), sc.g(c) + h)
            };
            // Depression degrees are compared with a tolerance: float noise in `h − h₀`
            // must not overrule the tie-break by `f` (it made the agent oscillate forever).
            let better =
                |a: (f64, f64), b: (f64, f64)| a.0 < b.0 - 1e-9 || (a.0 <= b.0 + 1e-9 && a.1 < b.1);
            open_states(sc)
                .map(|c| (c, key(c)))
                .fold(None, |acc: Option<(u32, (f64, f64))>, x| match acc {
                    Some(a) if !better(x.1, a.1) => Some(a),
                    _ => Some(x),
                })
                .map(|(c, _)| c)
                .unwrap_or(best)
        } else {
            best
        };
        sc.path_to(target, &mut self.plan);
        self.at = 0;
        match self.plan.first() {
            Some(&next) => {
                self.at = 1;
                view.dir(pos, next).map_or(Decision::Wait, Decision::Move)
            }
            None => Decision::Wait,
        }
    }

    fn heap_bytes(&self) -> usize {
        self.learned.heap_bytes() + self.plan.capacity() * 4
    }
}
