//! Every agent on every problem of `../shared/data/frit/testmaps`: reaches the goal, never
//! beats the full-knowledge optimum, and never expands more than its lookahead.

use std::path::Path;

use taut_frit::{AgentAlgo, FritConfig, RunParams, Scratch, Status, World, run};
use taut_grid::{FreeSet, Grid, LENGTH_TOLERANCE, MapFile, Scenario};

fn load(dir: &Path) -> Vec<(String, Grid, Scenario)> {
    let mut maps: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "map"))
        .collect();
    maps.sort();
    maps.into_iter()
        .map(|m| {
            let grid = Grid::from_map(&MapFile::read(&m).unwrap(), &FreeSet::default());
            let scen = Scenario::read(m.with_extension("map.scen")).unwrap();
            (
                m.file_name().unwrap().to_string_lossy().into_owned(),
                grid,
                scen,
            )
        })
        .collect()
}

#[test]
fn every_agent_solves_every_testmap_problem() {
    let Some(data) = taut_testdata::shared_data("every_agent_solves_every_testmap_problem") else {
        return;
    };
    let maps = load(&data.join("frit/testmaps"));
    assert_eq!(maps.len(), 4, "expected the 4 test maps");
    let mut scratch = Scratch::new();
    let mut runs = 0;
    for (name, grid, scen) in &maps {
        let world = World::new(grid);
        for (i, e) in scen.entries.iter().enumerate() {
            for algo in AgentAlgo::ALL {
                for k in [1, 2, 4, 16, 64, 512] {
                    let mut agent = algo.agent();
                    let out = run(
                        &world,
                        agent.as_mut(),
                        (e.start.x, e.start.y),
                        (e.goal.x, e.goal.y),
                        &RunParams::new(algo.effective_lookahead(k)),
                        &mut scratch,
                    )
                    .unwrap();
                    assert_eq!(out.status, Status::Reached, "{name} #{i} {algo} k={k}");
                    assert!(
                        out.stats.cost >= e.octile - LENGTH_TOLERANCE,
                        "{name} #{i} {algo} k={k}: cost {} below the optimum {}",
                        out.stats.cost,
                        e.octile
                    );
                    println!(
                        "{name} #{i} {algo:>9} k={k:>3}: cost {:9.2} (opt {:7.2}) moves {:6} episodes {:6} max exp {}",
                        out.stats.cost,
                        e.octile,
                        out.stats.moves,
                        out.stats.episodes,
                        out.stats.max_episode_expansions
                    );
                    runs += 1;
                    if !algo.uses_lookahead() {
                        break;
                    }
                }
            }
        }
    }
    assert!(runs > 0);
}

/// p-FRIT_RT problems from the experiment (`taut-bench frit`, seed 20130611) on which
/// earlier versions ran to the move cap: at k = 1 the border search circled an island whose
/// every border state's chain was cut far away (fixed by the release in `frit.rs`), and
/// with a lower release threshold an agent cycled between an island and a cut.
#[test]
fn p_frit_escapes_the_islands_that_trapped_it() {
    let Some(data) = taut_testdata::shared_data("p_frit_escapes_the_islands_that_trapped_it")
    else {
        return;
    };
    let cases = [
        ("ost000a", (303, 659), (86, 220), 1),
        ("ost000t", (360, 780), (143, 777), 1),
        ("Ramparts", (484, 230), (42, 269), 1),
        ("Ramparts", (139, 169), (373, 83), 16),
    ];
    let mut scratch = Scratch::new();
    for ((map, start, goal, k), config) in cases
        .into_iter()
        .flat_map(|c| [(c, FritConfig::paper()), (c, FritConfig::taut())])
    {
        let path = data.join("grid/maps").join(format!("{map}.map"));
        let grid = Grid::from_map(&MapFile::read(&path).unwrap(), &FreeSet::default());
        let world = World::new(&grid);
        let mut agent = AgentAlgo::PFritRt.agent_with(&config);
        let out = run(
            &world,
            agent.as_mut(),
            start,
            goal,
            &RunParams::new(k),
            &mut scratch,
        )
        .unwrap();
        assert_eq!(
            out.status,
            Status::Reached,
            "{map} {start:?}->{goal:?} k={k} {config}"
        );
        println!(
            "{map} k={k} {config}: cost {:.1}, {} moves",
            out.stats.cost, out.stats.moves
        );
    }
}
