//! Bug2 (Lumelsky and Stepanov 1987) on the 8-connected grid.
//!
//! - The *m-line* is the digital straight line from start to goal: cell `i` (for
//!   `0 ≤ i ≤ N`, `N = max(|dx|, |dy|)`) is `start + round(i · (dx, dy) / N)`, so consecutive
//!   cells are neighbours and each cell of the line has a unique index.
//! - The agent walks the m-line until its next move is illegal in its belief; that cell is the
//!   *hit point*. It then follows the obstacle's boundary with the obstacle on its left: at
//!   each cell it knows a direction `w` toward a blocked neighbour (or an illegal move) and
//!   takes the first legal move clockwise after `w` (Moore-neighbour tracing); the rejected
//!   direction before the chosen one becomes the next `w`.
//! - It leaves the boundary at the first m-line cell with a larger index than the hit point
//!   (closer to the goal along the line), and walks the m-line again.
//! - If the boundary walk returns to the state (cell, `w`) where it started, with no obstacle
//!   discovered since, the walk is periodic and never meets the m-line ahead: Bug2 reports the
//!   goal unreachable. The walk's states number 8 per cell and the belief changes at most once
//!   per blocked cell, so this is detected within `8 · cells · (blocked cells + 1)` moves.
//! - Bug2 never cuts a corner, even where the world allows it ([`MoveRule::CornerCut`]): to
//!   its continuous original, two obstacles touching at a corner are one obstacle. (A boundary
//!   walk that slips between them circles the first of two touching cells the m-line crosses
//!   one after the other and never meets the m-line ahead.) So where corners may be cut, Bug2
//!   does not reach a goal reachable only through such a diagonal gap: it reports it
//!   unreachable (the simulator flags the claim as a failure) or walks to the move cap.
//!
//! Bug2 expands one state per decision (the cell it stands on).

use super::{Agent, Decision};
use crate::world::{Budget, DIRS, MoveRule, Scratch, View};

/// The moves Bug2 makes (see the module docs).
const RULE: MoveRule = MoveRule::NoCornerCut;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Walking the m-line; the agent is on its cell `idx`.
    Line { idx: u32 },
    /// Following a boundary since leaving m-line cell `hit`.
    Wall {
        hit: u32,
        /// Direction toward the wall.
        w: u8,
        /// The state the loop check compares against, and the belief it was taken under.
        ref_cell: u32,
        ref_w: u8,
        ref_known: u64,
        /// Whether the walk has moved since the reference state was taken.
        walked: bool,
    },
}

/// The Bug2 agent (see the module docs).
#[derive(Debug, Clone)]
pub struct Bug2 {
    start: (i32, i32),
    delta: (i32, i32),
    n: i32,
    mode: Mode,
}

impl Default for Bug2 {
    fn default() -> Self {
        Bug2 {
            start: (0, 0),
            delta: (0, 0),
            n: 0,
            mode: Mode::Line { idx: 0 },
        }
    }
}

/// `round(a / b)` for `b > 0`, halves away from zero.
fn div_round(a: i32, b: i32) -> i32 {
    if a >= 0 {
        (2 * a + b) / (2 * b)
    } else {
        -((-2 * a + b) / (2 * b))
    }
}

impl Bug2 {
    /// Cell `i` of the m-line.
    fn line(&self, i: i32) -> (i32, i32) {
        if self.n == 0 {
            return self.start;
        }
        (
            self.start.0 + div_round(i * self.delta.0, self.n),
            self.start.1 + div_round(i * self.delta.1, self.n),
        )
    }

    /// The m-line index of `(x, y)`, if it lies on the line.
    fn index_of(&self, x: i32, y: i32) -> Option<i32> {
        let i = if self.delta.0.abs() >= self.delta.1.abs() {
            (x - self.start.0) * self.delta.0.signum()
        } else {
            (y - self.start.1) * self.delta.1.signum()
        };
        ((0..=self.n).contains(&i) && self.line(i) == (x, y)).then_some(i)
    }

    /// The move along the m-line from cell `idx`, if the belief allows it.
    fn line_move(&self, view: &View<'_>, pos: u32, idx: i32) -> Option<u8> {
        let (nx, ny) = self.line(idx + 1);
        let d = view.dir(pos, view.index(nx, ny))?;
        view.step_under(pos, d, RULE).map(|_| d)
    }

    /// Starts following the boundary at `pos` after the m-line move in direction `d` failed.
    fn hit(&mut self, view: &View<'_>, pos: u32, idx: i32, d: u8) {
        let (x, y) = view.xy(pos);
        let blocked = |k: u8| {
            let (dx, dy) = DIRS[usize::from(k % 8)];
            view.blocked(x + dx, y + dy)
        };
        // Point `w` at a blocked cell: the m-line cell itself, or, when a diagonal was refused
        // for squeezing past a blocked cell, that cell.
        let w = if blocked(d) || d.is_multiple_of(2) {
            d
        } else if blocked(d + 7) {
            (d + 7) % 8
        } else {
            (d + 1) % 8
        };
        self.mode = Mode::Wall {
            hit: idx as u32,
            w,
            ref_cell: pos,
            ref_w: w,
            ref_known: view.known_blocked(),
            walked: false,
        };
    }
}

impl Agent for Bug2 {
    fn name(&self) -> &'static str {
        "bug2"
    }

    fn reset(&mut self, view: &View<'_>, start: u32) {
        let s = view.xy(start);
        let g = view.xy(view.goal());
        self.start = s;
        self.delta = (g.0 - s.0, g.1 - s.1);
        self.n = self.delta.0.abs().max(self.delta.1.abs());
        self.mode = Mode::Line { idx: 0 };
    }

    fn decide(
        &mut self,
        view: &View<'_>,
        pos: u32,
        budget: &mut Budget,
        scratch: &mut Scratch,
    ) -> Decision {
        // Bug2 looks only at its own cell's neighbours: one expansion.
        if !budget.expand(view, pos, &mut scratch.succ) {
            return Decision::Wait;
        }
        if let Mode::Line { idx } = self.mode {
            let idx = idx as i32;
            if let Some(d) = self.line_move(view, pos, idx) {
                self.mode = Mode::Line {
                    idx: idx as u32 + 1,
                };
                return Decision::Move(d);
            }
            let (nx, ny) = self.line(idx + 1);
            let d = view.dir(pos, view.index(nx, ny)).unwrap_or(0);
            self.hit(view, pos, idx, d);
        }
        let Mode::Wall {
            hit,
            w,
            mut ref_cell,
            mut ref_w,
            mut ref_known,
            walked,
        } = self.mode
        else {
            return Decision::Wait;
        };
        let known = view.known_blocked();
        if known != ref_known {
            // The belief changed: the walk so far says nothing about the walk from here.
            (ref_cell, ref_w, ref_known) = (pos, w, known);
        } else if walked && (pos, w) == (ref_cell, ref_w) {
            // Back in the reference state under the same belief: the walk is periodic and
            // never reaches the m-line ahead of the hit point.
            return Decision::Unsolvable;
        }
        // First legal move clockwise after the wall direction.
        let Some(k) = (1..8u8).find(|&k| view.step_under(pos, (w + k) % 8, RULE).is_some()) else {
            return Decision::Unsolvable;
        };
        let d = (w + k) % 8;
        let (dx, dy) = DIRS[usize::from(d)];
        let (x, y) = view.xy(pos);
        // The next wall direction: toward the nearest known-blocked neighbour of `pos`
        // counter-clockwise from `d`, seen from the new cell (a diagonal refused for cutting a
        // corner points past a free cell, so the blocked cell is looked for explicitly).
        let new_w = (1..8u8)
            .map(|j| DIRS[usize::from((d + 8 - j) % 8)])
            .find(|&(bx, by)| view.blocked(x + bx, y + by))
            .and_then(|(bx, by)| DIRS.iter().position(|&o| o == (bx - dx, by - dy)))
            .map_or((d + 4) % 8, |i| i as u8);
        let (x, y) = view.xy(pos);
        let (x, y) = (x + dx, y + dy);
        self.mode = match self.index_of(x, y) {
            Some(j) if j as u32 > hit => Mode::Line { idx: j as u32 },
            _ => Mode::Wall {
                hit,
                w: new_w,
                ref_cell,
                ref_w,
                ref_known,
                walked: true,
            },
        };
        Decision::Move(d)
    }

    fn heap_bytes(&self) -> usize {
        0
    }
}
