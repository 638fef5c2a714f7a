//! The compressed path database against independent shortest paths, across thread counts,
//! through its files, and in shards.

use proptest::prelude::*;
use taut_cpd::encoding::{decode_cpd, decode_shard, encode_cpd, encode_shard};
use taut_cpd::graph::Graph;
use taut_cpd::shard::{CpdShard, ShardSpec, ShardSpecError, merge_shards, read_shard, write_shard};
use taut_cpd::{
    BuildParams, Cpd, CpdError, Move, NoProgress, read_cpd, read_cpd_header, write_cpd,
};
use taut_mesh::MeshPoint;

/// A random geometric graph: `n` distinct points on a small integer grid (so that many
/// triples are collinear and shortest paths tie), each pair joined with probability
/// `density`/16; sparse choices give several components.
fn random_graph(n: usize, density: u64, seed: u64) -> Graph {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut pts: Vec<MeshPoint> = Vec::new();
    while pts.len() < n {
        let p = MeshPoint::new((next() % 9) as f64, (next() % 9) as f64);
        if !pts.contains(&p) {
            pts.push(p);
        }
    }
    let mut edges = Vec::new();
    for u in 0..n as u32 {
        for v in u + 1..n as u32 {
            if next() % 16 < density {
                edges.push((u, v));
            }
        }
    }
    Graph::from_points_and_edges(pts, &edges).unwrap()
}

/// All-pairs distances by Floyd–Warshall (`INFINITY` when unreachable).
fn floyd_warshall(g: &Graph) -> Vec<Vec<f64>> {
    let n = g.node_count();
    let mut d = vec![vec![f64::INFINITY; n]; n];
    for (u, row) in d.iter_mut().enumerate() {
        row[u] = 0.0;
        for &v in g.neighbours(u as u32) {
            row[v as usize] = g.weight(u as u32, v);
        }
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                let via = d[i][k] + d[k][j];
                if via < d[i][j] {
                    d[i][j] = via;
                }
            }
        }
    }
    d
}

fn build(g: &Graph) -> Cpd {
    Cpd::from_graph(g.clone(), [7; 32], &BuildParams::default(), &NoProgress)
}

fn check_against_floyd_warshall(g: &Graph, cpd: &Cpd) {
    let d = floyd_warshall(g);
    let n = g.node_count() as u32;
    let mut path = Vec::new();
    for s in 0..n {
        for t in 0..n {
            let want = d[s as usize][t as usize];
            let got = cpd.path(s, t, &mut path);
            if want.is_infinite() {
                assert_eq!(got, None, "{s} -> {t} is unreachable");
                continue;
            }
            let got = got.unwrap_or_else(|| panic!("no path {s} -> {t}"));
            assert!(
                (got - want).abs() <= 1e-9 * want.max(1.0),
                "{s} -> {t}: CPD path {got}, shortest {want}"
            );
            assert_eq!(cpd.path_length(s, t), Some(got));
            // The path is a walk in the graph from s to t whose length is the sum returned.
            assert_eq!((path[0], *path.last().unwrap()), (s, t));
            let sum: f64 = path.windows(2).map(|w| g.weight(w[0], w[1])).sum();
            assert!(path.windows(2).all(|w| g.neighbours(w[0]).contains(&w[1])));
            assert_eq!(sum, got);
            let adjacent = g.neighbours(s).contains(&t);
            match cpd.first_move(s, t) {
                Move::Arrived => assert_eq!(s, t),
                Move::Direct => {
                    assert!(adjacent, "{s} -> {t}: direct move between non-neighbours");
                    assert_eq!(cpd.next_hop(s, t), t);
                }
                Move::Via(u) => {
                    assert!(g.neighbours(s).contains(&u));
                    assert_eq!(cpd.next_hop(s, t), u);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn paths_are_shortest(n in 1usize..28, density in 1u64..10, seed in any::<u64>()) {
        let g = random_graph(n, density, seed);
        let cpd = build(&g);
        check_against_floyd_warshall(&g, &cpd);
        let st = cpd.stats();
        prop_assert_eq!(st.nodes, n);
        prop_assert_eq!(st.runs, (0..n as u32).map(|s| cpd.row_runs(s)).sum::<usize>());
        prop_assert!(st.runs >= n);
    }
}

#[test]
fn exact_ties_need_no_tolerance_for_correctness() {
    for seed in 0..40 {
        let g = random_graph(30, 6, seed);
        let exact = Cpd::from_graph(
            g.clone(),
            [0; 32],
            &BuildParams { tie_tolerance: 0.0 },
            &NoProgress,
        );
        check_against_floyd_warshall(&g, &exact);
        // Ties only add symbols to the sets, so the tolerant CPD never has more runs.
        let tolerant = build(&g);
        assert!(tolerant.stats().runs <= exact.stats().runs);
    }
}

#[test]
fn out_of_range_nodes_have_no_path() {
    let cpd = build(&random_graph(5, 8, 1));
    let mut out = vec![1, 2, 3];
    assert_eq!(cpd.path(0, 5, &mut out), None);
    assert_eq!(cpd.path_length(9, 0), None);
}

#[test]
fn the_empty_graph() {
    let g = Graph::from_points_and_edges(Vec::new(), &[]).unwrap();
    let cpd = build(&g);
    assert_eq!(cpd.stats().runs, 0);
    assert_eq!(decode_cpd(&encode_cpd(&cpd)).unwrap(), cpd);
    for k in 1..4 {
        let shards = (0..k)
            .map(|i| {
                CpdShard::from_graph(
                    &g,
                    [7; 32],
                    &BuildParams::default(),
                    ShardSpec::new(i, k).unwrap(),
                    &NoProgress,
                )
            })
            .collect();
        assert_eq!(merge_shards(shards).unwrap(), cpd);
    }
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn one_and_two_threads_agree() {
    for seed in 0..10 {
        let g = random_graph(60, 3, seed);
        let one = in_pool(1, || build(&g));
        let two = in_pool(2, || build(&g));
        assert_eq!(one, two);
        assert_eq!(encode_cpd(&one), encode_cpd(&two));
    }
}

#[test]
fn round_trip() {
    let dir = tempfile::tempdir().unwrap();
    for seed in 0..20 {
        let g = random_graph(40, 2 + seed % 6, seed);
        let cpd = build(&g);
        let bytes = encode_cpd(&cpd);
        let back = decode_cpd(&bytes).unwrap();
        assert_eq!(back, cpd);
        assert_eq!(encode_cpd(&back), bytes);
        let path = dir.path().join("x.cpd");
        write_cpd(&path, &cpd).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        assert_eq!(read_cpd(&path).unwrap(), cpd);
        let h = read_cpd_header(&path).unwrap();
        let st = cpd.stats();
        assert_eq!(h.mesh_hash, *cpd.mesh_hash());
        assert_eq!(h.params, *cpd.params());
        assert_eq!(
            (h.nodes, h.edges, h.runs),
            (st.nodes as u64, st.edges as u64, st.runs as u64)
        );
        assert_eq!((h.symbol_bits, h.shard), (16, None));
    }
}

fn shards_of(g: &Graph, count: u32, hash: [u8; 32]) -> Vec<CpdShard> {
    (0..count)
        .map(|i| {
            CpdShard::from_graph(
                g,
                hash,
                &BuildParams::default(),
                ShardSpec::new(i, count).unwrap(),
                &NoProgress,
            )
        })
        .collect()
}

#[test]
fn merged_shards_are_byte_identical_to_one_build() {
    let dir = tempfile::tempdir().unwrap();
    let g = random_graph(37, 3, 99);
    let full = encode_cpd(&build(&g));
    for count in [1u32, 2, 3, 5, 36, 37, 38, 50] {
        let mut shards = shards_of(&g, count, [7; 32]);
        assert_eq!(
            shards.iter().map(CpdShard::runs).sum::<usize>(),
            build(&g).stats().runs
        );
        // Any order of arguments; through files.
        shards.reverse();
        shards.rotate_left(count as usize / 2);
        let mut read = Vec::new();
        for (k, s) in shards.iter().enumerate() {
            let path = dir.path().join(format!("s{k}.cpds"));
            write_shard(&path, s).unwrap();
            let back = read_shard(&path).unwrap();
            assert_eq!(&back, s);
            assert_eq!(decode_shard(&encode_shard(s)).unwrap(), back);
            // A shard file is not a CPD file, and the other way round.
            assert!(matches!(read_cpd(&path), Err(CpdError::WrongKind { .. })));
            read.push(back);
        }
        let merged = merge_shards(read).unwrap();
        assert_eq!(encode_cpd(&merged), full, "{count} shards");
    }
}

#[test]
fn merge_errors() {
    let g = random_graph(20, 4, 5);
    let all = shards_of(&g, 4, [7; 32]);
    let mut missing = all.clone();
    missing.remove(2);
    assert!(matches!(
        merge_shards(missing),
        Err(CpdError::MissingShard { index: 2, count: 4 })
    ));
    let mut missing_last = all.clone();
    missing_last.pop();
    assert!(matches!(
        merge_shards(missing_last),
        Err(CpdError::MissingShard { index: 3, count: 4 })
    ));
    let mut dup = all.clone();
    dup.push(all[1].clone());
    assert!(matches!(
        merge_shards(dup),
        Err(CpdError::DuplicateShard { index: 1, count: 4 })
    ));
    let mut foreign = all.clone();
    foreign[3] = shards_of(&g, 4, [8; 32]).remove(3);
    let e = merge_shards(foreign).unwrap_err();
    assert!(
        matches!(
            e,
            CpdError::ShardMismatch {
                what: "mesh hash",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("3/4"), "{e}");
    let mut other_graph = all.clone();
    other_graph[1] = shards_of(&random_graph(20, 4, 6), 4, [7; 32]).remove(1);
    assert!(matches!(
        merge_shards(other_graph),
        Err(CpdError::ShardMismatch { what: "graph", .. })
    ));
    let mut other_params = all.clone();
    other_params[0] = CpdShard::from_graph(
        &g,
        [7; 32],
        &BuildParams { tie_tolerance: 0.0 },
        ShardSpec::new(0, 4).unwrap(),
        &NoProgress,
    );
    assert!(matches!(
        merge_shards(other_params),
        Err(CpdError::ShardMismatch {
            what: "build parameters",
            ..
        })
    ));
    let mut other_count = all.clone();
    other_count[2] = shards_of(&g, 5, [7; 32]).remove(2);
    assert!(matches!(
        merge_shards(other_count),
        Err(CpdError::ShardMismatch {
            what: "shard count",
            ..
        })
    ));
    assert!(matches!(merge_shards(Vec::new()), Err(CpdError::NoShards)));
    assert!(merge_shards(all).is_ok());
}

#[test]
fn shard_specs() {
    let s: ShardSpec = "2/5".parse().unwrap();
    assert_eq!((s.index, s.count), (2, 5));
    assert_eq!(s.to_string(), "2/5");
    assert_eq!(
        "5/5".parse::<ShardSpec>(),
        Err(ShardSpecError::IndexOutOfRange { index: 5, count: 5 })
    );
    assert_eq!("0/0".parse::<ShardSpec>(), Err(ShardSpecError::ZeroCount));
    for bad in ["", "1", "a/2", "1/2/3", "-1/2", "1/"] {
        assert!(
            matches!(bad.parse::<ShardSpec>(), Err(ShardSpecError::Syntax(_))),
            "{bad}"
        );
    }
    // The shards' rows tile 0..n for every count, including more shards than nodes.
    for n in 0..20usize {
        for count in 1..25u32 {
            let mut next = 0;
            for i in 0..count {
                let r = ShardSpec::new(i, count).unwrap().rows(n);
                assert_eq!(r.start, next);
                next = r.end;
            }
            assert_eq!(next as usize, n);
        }
    }
}

#[test]
fn stale_mesh_is_named() {
    let cpd = build(&random_graph(5, 8, 1));
    assert!(cpd.check_mesh(&[7; 32]).is_ok());
    let e = cpd.check_mesh(&[0xab; 32]).unwrap_err();
    assert!(
        matches!(&e, CpdError::StaleMesh { expected, found } if expected.starts_with("abab") && found.starts_with("0707"))
    );
}

#[test]
fn invalid_params_are_refused() {
    for t in [-1e-12, 1e-3, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            BuildParams { tie_tolerance: t }.validate(),
            Err(CpdError::Params(_))
        ));
    }
    assert!(BuildParams::default().validate().is_ok());
}

#[test]
fn cpd_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Cpd>();
    check::<CpdShard>();
}
