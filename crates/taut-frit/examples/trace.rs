//! Debug aid: prints an agent's trail on a map.
//! `cargo run --example trace -- MAP SX SY GX GY ALGO K [MOVES [PROFILE]]`
use taut_frit::{AgentAlgo, FritConfig, MoveRule, RunParams, Scratch, World, run};
use taut_grid::{FreeSet, Grid, MapFile};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let grid = Grid::from_map(&MapFile::read(&a[1]).unwrap(), &FreeSet::default());
    let n = |i: usize| a[i].parse::<i32>().unwrap();
    let algo: AgentAlgo = a[6].parse().unwrap();
    let moves: MoveRule = a
        .get(8)
        .map_or(Ok(MoveRule::NoCornerCut), |m| m.parse())
        .unwrap();
    let config = FritConfig::profile(a.get(9).map_or("paper", String::as_str)).unwrap();
    let world = World::with_moves(&grid, moves);
    let mut p = RunParams::new(algo.effective_lookahead(n(7) as u32));
    p.record = true;
    let out = run(
        &world,
        algo.agent_with(&config).as_mut(),
        (n(2), n(3)),
        (n(4), n(5)),
        &p,
        &mut Scratch::new(),
    )
    .unwrap();
    println!("{:?} {:?}", out.status, out.stats);
    let trail = out.trail.unwrap();
    let mut count = vec![0u32; world.cells()];
    for &c in &trail {
        count[c as usize] += 1;
    }
    for y in 0..grid.height() {
        let row: String = (0..grid.width())
            .map(|x| {
                let c = (y * grid.width() + x) as usize;
                if !grid.is_free(x, y) {
                    '@'
                } else if count[c] == 0 {
                    '.'
                } else if count[c] < 10 {
                    char::from(b'0' + count[c] as u8)
                } else {
                    '+'
                }
            })
            .collect();
        println!("{row}");
    }
    if trail.len() < 200 {
        println!(
            "{:?}",
            trail.iter().map(|&c| world.xy(c)).collect::<Vec<_>>()
        );
    }
}
