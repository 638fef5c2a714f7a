//! `taut world` end to end: the shipped door script runs to the end with every agent reached,
//! the same story in text and JSON, for Anya and for Polyanya (whose mesh is repaired after
//! every edit); frames are written before and after every edit; malformed scripts and bad
//! options fail with one line.

use crate::common::{arg, fails, fixture, ok, taut};

fn doors() -> String {
    fixture("worlds/arena-doors.world")
}

/// The `agent NAME STATUS walked W first_plan L plans P reached_step S` lines.
fn agent_lines(out: &str) -> Vec<Vec<String>> {
    out.lines()
        .filter(|l| l.starts_with("agent "))
        .map(|l| l.split(' ').map(str::to_owned).collect())
        .collect()
}

#[test]
fn the_door_script_runs_to_the_end_in_text_and_json() {
    for algo in ["anya", "polyanya"] {
        let text = ok(&["world", &doors(), "--algo", algo]);
        // The door waits for agent c, every goal is cut off at step 20 and everyone waits,
        // the right-hand door opens at step 40, a's goal cell is blocked from 48 to 56.
        assert!(
            text.contains("step 10: block 19,15..30,18 waits: agent c stands there"),
            "{text}"
        );
        assert!(
            text.contains("step 14: block 19,15..30,18: 48 cells changed (version 1)"),
            "{text}"
        );
        for name in ["a", "b", "c"] {
            assert!(
                text.contains(&format!("step 20: {name} plans from")),
                "{text}"
            );
        }
        assert_eq!(text.matches("no path: waits").count(), 3, "{text}");
        assert!(text.contains("a plans from") && text.contains("its goal cell is blocked: waits"));
        if algo == "polyanya" {
            assert!(
                text.contains("step 14: mesh of version 1 repaired:"),
                "{text}"
            );
        }
        let summary = text
            .lines()
            .find(|l| l.starts_with("agents "))
            .expect("summary");
        assert!(
            summary.starts_with("agents 3 ok 3 unreachable 0 limit 0 steps "),
            "{summary}"
        );
        assert!(summary.contains(" edits 5 deferred 1 "), "{summary}");
        let agents = agent_lines(&text);
        assert_eq!(agents.len(), 3);
        for a in &agents {
            assert_eq!(a[2], "ok", "{a:?}");
            let walked: f64 = a[4].parse().unwrap();
            let first: f64 = a[6].parse().unwrap();
            // Doors only lengthen the walk here: every detour is forced.
            assert!(walked > first, "{a:?}");
        }
        let json = ok(&["world", &doors(), "--algo", algo, "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&json).expect("one JSON object");
        assert_eq!(v["summary"]["ok"], 3);
        assert_eq!(v["summary"]["deferred"], 1);
        let rows = v["agents"].as_array().unwrap();
        for (row, a) in rows.iter().zip(&agents) {
            assert_eq!(row["name"], a[1].as_str());
            let walked = row["walked"].as_f64().unwrap();
            assert!((walked - a[4].parse::<f64>().unwrap()).abs() < 1e-6);
        }
        let plans = v["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["event"] == "plan")
            .count();
        assert_eq!(plans as u64, v["summary"]["plans"].as_u64().unwrap());
    }
}

#[test]
fn frames_are_drawn_before_and_after_every_edit() {
    let dir = std::env::temp_dir().join(format!("taut-world-frames-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    ok(&["world", &doors(), "--frames", &arg(&dir), "--every", "30"]);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names.first().map(String::as_str),
        Some("0000-step-0000-start.png")
    );
    assert!(names.last().unwrap().ends_with("-end.png"), "{names:?}");
    // Five edits applied: a before and an after frame each.
    assert_eq!(
        names.iter().filter(|n| n.ends_with("-before.png")).count(),
        5
    );
    assert_eq!(
        names.iter().filter(|n| n.ends_with("-after.png")).count(),
        5
    );
    assert!(
        names.iter().any(|n| n.contains("-step-0030-step.png")),
        "{names:?}"
    );
    for n in &names {
        let bytes = std::fs::read(dir.join(n)).unwrap();
        assert_eq!(&bytes[1..4], b"PNG", "{n}");
    }
    let svg = dir.join("svg");
    ok(&[
        "world",
        &doors(),
        "--frames",
        &arg(&svg),
        "--frame-format",
        "svg",
    ]);
    let first = std::fs::read_to_string(svg.join("0000-step-0000-start.svg")).unwrap();
    assert!(first.starts_with("<svg") && first.contains("class=\"plan\""));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_scripts_and_options_fail_with_one_line() {
    let dir = std::env::temp_dir().join(format!("taut-world-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let map = fixture("maps/arena.map");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        arg(&p)
    };
    let bad = write("bad.world", "agent a 5,4 40,44\nat 3 paint 1,1\n");
    let e = fails(&["world", &bad, "--map", &map], 1);
    assert!(
        e.contains("bad.world: line 2:") && e.contains("`block` or `free`"),
        "{e}"
    );
    let off = write("off.world", "agent a 5,4 40,44\nat 3 block 40,40 60,60\n");
    let e = fails(&["world", &off, "--map", &map], 1);
    assert!(e.contains("line 2: cells") && e.contains("49x49"), "{e}");
    let blocked = write("blocked.world", "agent a 0,0 40,44\n");
    let e = fails(&["world", &blocked, "--map", &map], 1);
    assert!(e.contains("agent a:") && e.contains("blocked"), "{e}");
    let nomap = write("nomap.world", "agent a 5,4 40,44\n");
    let e = fails(&["world", &nomap], 2);
    assert!(e.contains("no `map` line"), "{e}");
    let e = fails(&["world", &doors(), "--speed", "0"], 2);
    assert!(e.contains("--speed"), "{e}");
    let e = fails(&["world", &doors(), "--algo", "nosuch"], 2);
    assert!(e.contains("nosuch"), "{e}");
    let missing = fails(&["world", &arg(&dir.join("missing.world"))], 1);
    assert!(missing.contains("cannot read"), "{missing}");
    // A cut-off run: the goal is walled off for good; the agent ends unreachable, exit 0.
    let cut = write("cut.world", "agent a 5,4 5,44\nat 1 block 1,32 47,32\n");
    let out = taut(&["world", &cut, "--map", &map]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("agent a unreachable"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
