//! The corners' label entries sorted by direction ([`TurnOrder`]): those a point needs from
//! a corner it sees, by the taut arcs of `turns.rs` (see its documentation).

use taut_mesh::corners::Corners;
use taut_mesh::{Mesh, MeshPoint};

use crate::core::CoreLabels;
use crate::turns::{Dir, diff, edge_bounds, sort_row, taut_arc};

/// One label entry of a corner, in the order of its path's first direction.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Turn {
    /// `d(c, h)`.
    pub dist: f64,
    /// The hub's rank.
    pub hub: u32,
    /// The entry's index among the core's entries.
    pub entry: u32,
}

/// The corners' label entries by direction (see the module's documentation).
#[derive(Debug, Default)]
pub(crate) struct TurnOrder {
    /// Corner `c`'s entries are `turns[off[c]..off[c + 1]]`: first, up to `mid[c]`, those
    /// read from every point (its own entry, and entries whose next corner stands where `c`
    /// does: the two corners of a double corner), then the others by direction. Empty when
    /// the mesh's coordinates are not integers.
    off: Vec<u32>,
    mid: Vec<u32>,
    /// Per corner, [`edge_bounds`] of its directions (those after `mid`).
    bounds: Vec<[u32; 2]>,
    dir: Vec<Dir>,
    turns: Vec<Turn>,
}

impl TurnOrder {
    /// The order of `core`'s labels over `corners` of `mesh` (empty when the mesh's
    /// coordinates are not integers).
    pub fn new(mesh: &Mesh, corners: &Corners, core: &CoreLabels) -> TurnOrder {
        if !mesh.is_integer() {
            return TurnOrder::default();
        }
        let n = core.len();
        let mut off = Vec::with_capacity(n + 1);
        let mut mid = Vec::with_capacity(n);
        let mut bounds = Vec::with_capacity(n);
        let mut dir = Vec::with_capacity(core.entry_count());
        let mut turns = Vec::with_capacity(core.entry_count());
        off.push(0u32);
        let mut row: Vec<(Dir, Turn)> = Vec::new();
        for c in 0..n as u32 {
            let pc = corners.point(c);
            let start = core.label_start(c);
            row.clear();
            for (k, e) in core.label(c).iter().enumerate() {
                let turn = Turn {
                    dist: e.dist,
                    hub: e.hub,
                    entry: start + k as u32,
                };
                let d = e
                    .next_entry()
                    .map_or((0, 0), |j| diff(corners.point(core.corner_of(j)), pc));
                row.push((d, turn));
            }
            let fixed = sort_row(&mut row, |a, b| a.hub.cmp(&b.hub));
            mid.push((turns.len() + fixed) as u32);
            dir.extend(row.iter().map(|r| r.0));
            bounds.push(edge_bounds(
                pc,
                corners.wedge_points()[c as usize],
                &dir[dir.len() - (row.len() - fixed)..],
            ));
            turns.extend(row.iter().map(|r| r.1));
            off.push(turns.len() as u32);
        }
        TurnOrder {
            off,
            mid,
            bounds,
            dir,
            turns,
        }
    }

    /// Whether the order was built (integer coordinates).
    pub fn is_built(&self) -> bool {
        !self.off.is_empty()
    }

    /// The entries of corner `c` that a point `p` seeing it must read: those without
    /// a direction and those whose paths are taut at `c`, as up to three runs; `None` when
    /// every entry must be read (`p` at `c`, or the order not built). `hint` is the corner's
    /// hint for `turns::partition_near`, any value at first.
    pub fn taut_runs(
        &self,
        corners: &Corners,
        c: u32,
        p: MeshPoint,
        hint: &mut u32,
    ) -> Option<[&[Turn]; 3]> {
        if !self.is_built() {
            return None;
        }
        let pc = corners.point(c);
        let (a, m, b) = (
            self.off[c as usize] as usize,
            self.mid[c as usize] as usize,
            self.off[c as usize + 1] as usize,
        );
        let wedge = corners.wedge_points()[c as usize];
        let bounds = self.bounds[c as usize];
        let [r, s] = taut_arc(pc, wedge, bounds, diff(pc, p), &self.dir[m..b], Some(hint))?;
        let turns = &self.turns[m..b];
        Some([&self.turns[a..m], &turns[r], &turns[s]])
    }
}
