//! The frame scheduler: many agents' queries under one per-frame budget answer exactly as
//! one-shot queries, no frame spends more than its budget, and round robin gives every pending
//! query a turn within `ceil(pending / turns per frame)` frames.

use taut::grid::{Answer, Point, Status};
use taut::{FrameBudget, FrameScheduler, Map};
use taut_hardening::maps::{Family, generate, queries};

fn one_shot(map: &Map, name: &str, (s, t): (Point, Point)) -> Option<(Status, u64, Vec<Point>)> {
    let mut p = map.planner(&name.parse().unwrap()).unwrap();
    let mut a = Answer::default();
    let st = p.plan(s, t, &mut a).ok()?;
    Some((st, a.length.to_bits(), a.waypoints))
}

/// One agent per query of `qs`, each with its request made; their ids in order.
fn request_all(frames: &mut FrameScheduler, qs: &[(Point, Point)]) -> Vec<usize> {
    qs.iter()
        .map(|&(s, t)| {
            let id = frames.add_agent();
            frames.request(id, s, t).unwrap();
            id
        })
        .collect()
}

#[test]
fn scheduled_queries_equal_one_shot_within_every_frame_budget() {
    let mut checked = 0;
    for (i, family) in [
        Family::Rooms,
        Family::Random,
        Family::Corridors,
        Family::DiagonalWalls,
    ]
    .into_iter()
    .enumerate()
    {
        let map = Map::new(generate(family, 60, 45, 7 + i as u64));
        let qs = queries(map.grid(), 40, 7 + i as u64);
        for (name, budget) in [
            ("anya", FrameBudget::new(64, 8)),
            ("ray", FrameBudget::new(100, 100)),
            ("polyanya", FrameBudget::new(37, 5)),
            ("theta", FrameBudget::new(1, 1)),
            ("eps", FrameBudget::new(50, 10)),
        ] {
            // Fewer contexts than agents: most requests wait in the queue for one.
            let mut frames =
                FrameScheduler::new(&map, &name.parse().unwrap(), 1 + i * 3, budget).unwrap();
            let mut want = Vec::new();
            for &q in &qs {
                let id = frames.add_agent();
                let expected = one_shot(&map, name, q);
                match frames.request(id, q.0, q.1) {
                    Ok(()) => assert!(expected.is_some(), "{name}: {q:?} accepted"),
                    Err(_) => assert!(expected.is_none(), "{name}: {q:?} refused"),
                }
                want.push((id, expected));
            }
            let mut n = 0;
            while frames.pending() > 0 {
                let r = frames.frame();
                assert!(r.expansions <= budget.expansions, "{name}: {r:?}");
                assert!(r.turns >= 1);
                n += 1;
                assert!(n < 1_000_000, "{name}: no end");
            }
            let mut a = Answer::default();
            for (id, expected) in want {
                let Some((status, bits, path)) = expected else {
                    assert!(frames.take(id, &mut a).is_none());
                    continue;
                };
                let f = frames.take(id, &mut a).expect("finished");
                assert_eq!((f.status, a.length.to_bits()), (status, bits), "{name}");
                assert_eq!(a.waypoints, path, "{name}");
                assert!(frames.take(id, &mut a).is_none(), "taken once");
                checked += 1;
            }
        }
    }
    eprintln!("frame scheduler: {checked} scheduled answers equal one-shot answers");
    assert!(checked > 400, "{checked}");
}

#[test]
fn round_robin_gives_every_pending_query_a_turn() {
    // Long queries across an open map: none ends in a few turns of 4 expansions.
    let map = Map::new(generate(Family::Rooms, 120, 90, 3));
    let qs: Vec<_> = queries(map.grid(), 200, 3)
        .into_iter()
        .filter(|&(s, t)| {
            map.grid().check_query(s, t).is_ok() && (s.x - t.x).abs() + (s.y - t.y).abs() > 100
        })
        .take(30)
        .collect();
    assert!(qs.len() >= 10, "{}", qs.len());
    // One context per query; 5 turns per frame.
    let mut frames = FrameScheduler::new(
        &map,
        &"anya".parse().unwrap(),
        qs.len(),
        FrameBudget::new(20, 4),
    )
    .unwrap();
    let ids = request_all(&mut frames, &qs);
    let rounds = ids.len().div_ceil(5);
    for _ in 0..rounds {
        let r = frames.frame();
        assert_eq!(r.turns, 5.min(frames.pending() + r.finished));
    }
    for &id in &ids {
        let worked = frames.stats(id).map_or(0, |s| s.expanded);
        assert!(worked > 0, "agent {id} had no turn in {rounds} frames");
    }
    // Cancelling drops a query; a new request replaces one.
    frames.cancel(ids[0]);
    assert!(!frames.is_pending(ids[0]));
    assert_eq!(frames.stats(ids[0]), None);
    frames.request(ids[1], qs[1].0, qs[1].0).unwrap();
    while frames.is_pending(ids[1]) {
        frames.frame();
    }
    let mut a = Answer::default();
    assert_eq!(frames.take(ids[1], &mut a).unwrap().status, Status::Found);
    assert_eq!(a.length, 0.0);
}

#[test]
fn bad_endpoints_are_refused_at_the_request() {
    let map = Map::new(generate(Family::AllFree, 10, 10, 1));
    let mut frames =
        FrameScheduler::new(&map, &"ray".parse().unwrap(), 1, FrameBudget::new(10, 10)).unwrap();
    let id = frames.add_agent();
    assert!(
        frames
            .request(id, Point::new(0, 0), Point::new(10, 3))
            .is_err()
    );
    assert!(!frames.is_pending(id));
    assert_eq!(frames.frame().turns, 0);
}

#[test]
fn queued_requests_start_first_come_first_served() {
    let map = Map::new(generate(Family::Rooms, 80, 60, 4));
    let qs = queries(map.grid(), 40, 4);
    let qs: Vec<_> = qs
        .into_iter()
        .filter(|&(s, t)| map.grid().check_query(s, t).is_ok() && s != t)
        .take(6)
        .collect();
    assert_eq!(qs.len(), 6);
    let mut frames =
        FrameScheduler::new(&map, &"anya".parse().unwrap(), 2, FrameBudget::new(1, 1)).unwrap();
    let ids = request_all(&mut frames, &qs);
    frames.frame();
    // The first two hold the contexts; the rest wait, in order.
    assert!(!frames.is_queued(ids[0]) && !frames.is_queued(ids[1]));
    assert!(ids[2..].iter().all(|&id| frames.is_queued(id)));
    // Cancelling a queued request takes it out of the queue.
    frames.cancel(ids[3]);
    assert!(!frames.is_pending(ids[3]));
    // The frame in which each request left the queue.
    let mut started = [Some(0u64), Some(0), None, None, None, None];
    let mut finished = 0;
    let mut a = Answer::default();
    let mut frame = 1;
    while frames.pending() > 0 {
        frames.frame();
        for (k, &id) in ids.iter().enumerate() {
            if k != 3 && started[k].is_none() && !frames.is_queued(id) {
                started[k] = Some(frame);
            }
            if frames.take(id, &mut a).is_some() {
                finished += 1;
            }
        }
        frame += 1;
    }
    assert_eq!(finished, 5);
    // Requests 2, 4 and 5 started in the order they were made, each after an earlier one ended.
    let (s2, s4, s5) = (
        started[2].unwrap(),
        started[4].unwrap(),
        started[5].unwrap(),
    );
    assert!(0 < s2 && s2 <= s4 && s4 <= s5, "{started:?}");
}
