//! The route, read back from the goal's root along its chain of parents: a great-circle leg
//! between two roots, and a parallel leg where the path followed an edge.

use super::SearchContext;
use super::node::{NONE, RootData, RootKind};
use crate::geo::LatLon;
use crate::grid::SphereGrid;
use crate::route::{Leg, Route};

impl SearchContext {
    /// Writes the route ending at root `id` into `out`.
    pub(super) fn reconstruct(&self, grid: &SphereGrid, id: u32, out: &mut Route) {
        // Points are written in degrees; tangent and departure points on an edge get the row
        // line's latitude computed in degrees (a 60° line is written as 60 exactly), so that
        // consecutive legs share their end points bit for bit.
        let line_deg = |line: u32| 90.0 - f64::from(line) * 180.0 / f64::from(grid.height());
        let pos = |r: &RootData| match r.kind {
            RootKind::Point { v, .. } => v.to_lat_lon(),
            RootKind::Edge { line, lon_t, .. } => LatLon::new(line_deg(line), lon_t.to_degrees()),
        };
        // `out`'s legs keep their capacity from query to query: no allocation when warm.
        let legs = &mut out.legs;
        legs.clear();
        let mut cur = id;
        while self.roots[cur as usize].parent != NONE {
            let c = self.roots[cur as usize];
            let p = self.roots[c.parent as usize];
            let here = pos(&c);
            match p.kind {
                RootKind::Point { .. } => push_great(legs, pos(&p), here),
                RootKind::Edge { lon_t, line, .. } => {
                    let dep = LatLon::new(line_deg(line), c.dep_lon.to_degrees());
                    push_great(legs, dep, here);
                    if (c.dep_lon - lon_t).abs() > 1e-15 {
                        legs.push(Leg::Parallel {
                            lat: line_deg(line),
                            from_lon: lon_t.to_degrees(),
                            to_lon: c.dep_lon.to_degrees(),
                        });
                    }
                }
            }
            cur = c.parent;
        }
        legs.reverse();
        out.radians = out.legs.iter().map(Leg::radians).sum();
    }
}

fn push_great(legs: &mut Vec<Leg>, a: LatLon, b: LatLon) {
    if a.to_vec().angle(b.to_vec()) > 1e-15 {
        legs.push(Leg::Great { from: a, to: b });
    }
}
