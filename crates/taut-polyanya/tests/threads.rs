//! One mesh shared by several threads, one search context per thread: every thread gets
//! exactly the answers of a single-threaded run. The types are checked at compile time to be
//! shareable (`Mesh: Send + Sync`) and movable (`SearchContext: Send`).

use taut_grid::Scenario;
use taut_mesh::{Ambiguity, Mesh, MeshAnswer, MeshPoint, read_mesh};
use taut_polyanya::{Options, PolyanyaPlanner, SearchContext};
use taut_testdata::fixtures;

const fn shared<T: Send + Sync>() {}
const fn movable<T: Send>() {}
const _: () = {
    shared::<Mesh>();
    shared::<Options>();
    movable::<SearchContext>();
    movable::<PolyanyaPlanner<'static>>();
};

#[test]
fn threads_sharing_one_mesh_agree_with_one_thread() {
    let mesh = read_mesh(&fixtures().join("meshes/arena-merged.mesh")).unwrap();
    let scen = Scenario::read(fixtures().join("maps/arena.map.scen")).unwrap();
    let p = |q: taut_grid::Point| MeshPoint::new(f64::from(q.x), f64::from(q.y));
    let o = Options {
        ambiguity: Ambiguity::Towards(1.0, 1.0),
        ..Options::default()
    };
    let solve = |order: &mut dyn Iterator<Item = usize>| {
        let mut ctx = SearchContext::new();
        let mut out = MeshAnswer::default();
        let mut answers = vec![None; scen.entries.len()];
        for i in order {
            let e = &scen.entries[i];
            ctx.search(&mesh, p(e.start), p(e.goal), &o, &mut out)
                .unwrap();
            answers[i] = Some(out.clone());
        }
        answers
    };
    let n = scen.entries.len();
    assert_ne!(
        n % 7,
        0,
        "the orders below are permutations because gcd(7, n) = 1"
    );
    let reference = solve(&mut (0..n));
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let solve = &solve;
                s.spawn(move || solve(&mut (0..n).map(|i| (i * 7 + t * 13) % n)))
            })
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), reference);
        }
    });
}
