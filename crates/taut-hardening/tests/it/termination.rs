//! Termination: every grid planner answers an unreachable target with `Unreachable` after a
//! bounded amount of work, the bound documented here and in `docs/hardening.md`.
//!
//! Reachability on a grid is 4-connectivity of free cells (a path can cross between two cells
//! only through a shared edge with a free side, never through a double corner alone), so the
//! test computes the start's component independently with a flood fill and picks goals outside
//! it. Bounds, with `K` the cells of the start's component, `P` the lattice points touching
//! them, `C` the convex corners of the map and `W × H` its size:
//!
//! | planner | expansions on an unreachable target |
//! |---|---|
//! | A* | at most `K` (each cell of the component is closed once) |
//! | Theta*, Lazy Theta* | at most `P` (each lattice point closed once) |
//! | visibility graph | at most `C + 2` (each vertex closed once) |
//! | Anya | at most `(C + 2) · 2(W + 1)(H + 1)`: every root once into every row interval |
//! | Polyanya, EPS | at most `(V + 2) · E` for a mesh of `V` vertices and `E` polygon edges |
//!
//! The last two are coarse counting bounds, asserted here but not proved.
//!
//! The test asserts each bound on every family of `taut_hardening::maps` and prints the largest
//! observed ratio of expansions to `K`, which is the figure a user can plan with.

use std::sync::Arc;

use taut::anya::AnyaPlanner;
use taut::baselines::{Baseline, baseline_planner};
use taut::cpd::{BuildParams, Eps, EpsPlanner, NoProgress, Stop, build_cpd};
use taut::grid::{Answer, Grid, Planner, Point, Status};
use taut::mesh::mesh_from_grid;
use taut::polyanya::PolyanyaPlanner;
use taut_hardening::maps::{Family, generate};
use taut_hardening::show;

/// Component label of every cell (`usize::MAX` for blocked cells), 4-connected.
fn components(g: &Grid) -> Vec<usize> {
    let (w, h) = (g.width() as usize, g.height() as usize);
    let mut label = vec![usize::MAX; w * h];
    let mut next = 0;
    for start in 0..w * h {
        if label[start] != usize::MAX || !g.is_free((start % w) as i32, (start / w) as i32) {
            continue;
        }
        label[start] = next;
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            let around = [
                (x.wrapping_sub(1), y),
                (x + 1, y),
                (x, y.wrapping_sub(1)),
                (x, y + 1),
            ];
            for (nx, ny) in around {
                if nx < w
                    && ny < h
                    && label[ny * w + nx] == usize::MAX
                    && g.is_free(nx as i32, ny as i32)
                {
                    label[ny * w + nx] = next;
                    stack.push(ny * w + nx);
                }
            }
        }
        next += 1;
    }
    label
}

#[test]
fn unreachable_targets_end_within_each_planners_bound() {
    let mut worst: Vec<(&'static str, f64)> = Vec::new();
    let mut queries = 0;
    for family in Family::ALL {
        for (w, h, seed) in [
            (20, 14, 1u64),
            (40, 40, 2),
            (64, 33, 3),
            (64, 64, 4),
            (9, 64, 5),
        ] {
            let g = generate(family, w, h, seed);
            let (w, h) = (g.width() as usize, g.height() as usize);
            let label = components(&g);
            let ncomp = label
                .iter()
                .filter(|&&l| l != usize::MAX)
                .max()
                .map_or(0, |m| m + 1);
            if ncomp < 2 {
                continue;
            }
            let mesh = Arc::new(mesh_from_grid(&g).unwrap());
            let cpd = build_cpd(&mesh, &BuildParams::default(), &NoProgress).unwrap();
            let eps = Arc::new(Eps::new(mesh.clone(), Arc::new(cpd)).unwrap());
            let corners = (0..=h as i32)
                .flat_map(|y| (0..=w as i32).map(move |x| Point::new(x, y)))
                .filter(|&p| g.is_corner(p))
                .count() as u64;
            let edges: u64 = (0..mesh.polygon_count() as u32)
                .map(|p| mesh.poly_vertices(p).len() as u64)
                .sum();
            let lattice = ((w + 1) * (h + 1)) as u64;
            let mesh_bound = (mesh.vertex_count() as u64 + 2) * edges;
            // Bounds that depend on the start's component are filled in per query (0 here).
            let mut planners: Vec<(Box<dyn Planner + '_>, u64)> = vec![
                (baseline_planner(Baseline::AStar, &g), 0),
                (baseline_planner(Baseline::Theta, &g), 0),
                (baseline_planner(Baseline::LazyTheta, &g), 0),
                (baseline_planner(Baseline::Vg, &g), corners + 2),
                (Box::new(AnyaPlanner::new(&g)), (corners + 2) * 2 * lattice),
                (Box::new(PolyanyaPlanner::new(&g, mesh.clone())), mesh_bound),
                (
                    Box::new(EpsPlanner::new(&g, eps.clone(), Stop::Optimal)),
                    mesh_bound,
                ),
            ];
            // One start per component (its first cell), the goal in the next component.
            let mut first = vec![usize::MAX; ncomp];
            let mut size = vec![0u64; ncomp];
            for (i, &l) in label.iter().enumerate() {
                if l != usize::MAX {
                    size[l] += 1;
                    if first[l] == usize::MAX {
                        first[l] = i;
                    }
                }
            }
            let mut answer = Answer::default();
            for c in 0..ncomp.min(6) {
                let (s, t) = (first[c], first[(c + 1) % ncomp]);
                let s = Point::new((s % w) as i32, (s / w) as i32);
                let t = Point::new((t % w) as i32, (t / w) as i32);
                let k = size[c];
                queries += 1;
                for (p, fixed) in &mut planners {
                    let status = p.plan(s, t, &mut answer).unwrap();
                    let name = p.name();
                    assert_eq!(
                        status,
                        Status::Unreachable,
                        "{name} {s} -> {t} on\n{}",
                        show(&g)
                    );
                    let bound = match name {
                        "astar" => k,
                        "theta" | "lazy-theta" => 4 * k,
                        _ => *fixed,
                    };
                    let e = answer.stats.expanded;
                    assert!(
                        e <= bound,
                        "{name} expanded {e} > bound {bound} for {s} -> {t} on\n{}",
                        show(&g)
                    );
                    let ratio = e as f64 / k as f64;
                    match worst.iter_mut().find(|(n, _)| *n == name) {
                        Some(w) => w.1 = w.1.max(ratio),
                        None => worst.push((name, ratio)),
                    }
                }
            }
        }
    }
    assert!(
        queries >= 60,
        "only {queries} unreachable queries were generated"
    );
    eprintln!(
        "{queries} unreachable queries; largest expansions per cell of the start's component:"
    );
    for (name, r) in &worst {
        eprintln!("  {name}: {r:.2}");
    }
}
