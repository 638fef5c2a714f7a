//! Mesh reader and Polyanya on whatever it accepts: any text gives a validated mesh or a typed
//! error, never a panic; an accepted mesh writes back to text that parses to the same mesh, and
//! a search between two points inside it ends (libFuzzer's -timeout catches a loop) with a
//! legal answer shape: a path from start to goal whose length is its polyline's.
#![no_main]

use libfuzzer_sys::fuzz_target;
use taut::mesh::{Ambiguity, MeshAnswer, MeshPoint, format_mesh, parse_mesh};
use taut::polyanya::{Options, SearchContext};

fn centroid(mesh: &taut::mesh::Mesh, p: u32) -> MeshPoint {
    let vs = mesh.poly_vertices(p);
    let n = vs.len() as f64;
    let (sx, sy) = vs.iter().fold((0.0, 0.0), |(sx, sy), &v| {
        let q = mesh.point(v);
        (sx + q.x, sy + q.y)
    });
    MeshPoint::new(sx / n, sy / n)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(mesh) = parse_mesh(text) else {
        return;
    };
    let again = parse_mesh(&format_mesh(&mesh)).expect("format_mesh output must parse");
    assert_eq!(mesh, again, "format_mesh must round-trip");
    if mesh.polygon_count() == 0 {
        return;
    }
    let last = (mesh.polygon_count() - 1) as u32;
    let mut ctx = SearchContext::new();
    let mut out = MeshAnswer::default();
    let queries = [
        (centroid(&mesh, 0), centroid(&mesh, last)),
        (mesh.point(0), centroid(&mesh, last)),
        (
            centroid(&mesh, last / 2),
            mesh.point((mesh.vertex_count() - 1) as u32),
        ),
    ];
    for ambiguity in [Ambiguity::Refuse, Ambiguity::Towards(1.0, 1.0)] {
        let options = Options {
            ambiguity,
            ..Options::default()
        };
        for &(s, t) in &queries {
            if let Ok(taut::grid::Status::Found) = ctx.search(&mesh, s, t, &options, &mut out) {
                let w = &out.waypoints;
                assert!(!w.is_empty());
                assert_eq!((w[0], w[w.len() - 1]), (s, t));
                let len: f64 = w.windows(2).map(|p| p[0].dist(p[1])).sum();
                assert!(
                    (len - out.length).abs() <= 1e-9 * (1.0 + len),
                    "length {} but polyline {len}",
                    out.length
                );
                assert!(out.length + 1e-9 * (1.0 + len) >= s.dist(t));
            }
        }
    }
});
