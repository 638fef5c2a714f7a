//! Reports of a spherical comparison: a CSV of instances per benchmark and `summary.md` in
//! the layout of the paper's Tables 1–4.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use super::stats::{Describe, describe, quantile_sorted};
use super::{Answered, BenchKind, BenchRun, Instance, RATIO_TOLERANCE, SphereOptions};
use crate::error::BenchError;
use crate::machine::Provenance;

/// How often a planner answered each way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Routes found.
    pub found: usize,
    /// Proved unreachable.
    pub unreachable: usize,
    /// Queries rejected (errors).
    pub rejected: usize,
}

impl Counts {
    fn add(&mut self, a: Answered) {
        match a {
            Answered::Found => self.found += 1,
            Answered::Unreachable => self.unreachable += 1,
            Answered::Rejected => self.rejected += 1,
            Answered::NotRun => {}
        }
    }
}

/// One row of the summary tables: a benchmark, or one of its suite's groups.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchSummary {
    /// The row's name.
    pub row: String,
    /// Maps with at least one instance in the row.
    pub maps: usize,
    /// Query pairs run.
    pub pairs: usize,
    /// Euclidean Anya's answers.
    pub anya: Counts,
    /// Spherical Anya's answers.
    pub sphere: Counts,
    /// Pairs where both found a route (the instances of Tables 1–3).
    pub both: usize,
    /// Pairs where only Spherical Anya found a route (through the longitude wrap or a pole).
    pub sphere_only: usize,
    /// Recipe-1 routes the checker rejects, percent of Anya's routes.
    pub r1_illegal_pct: f64,
    /// Recipe-2 routes the checker rejects, percent of Anya's routes.
    pub r2_illegal_pct: f64,
    /// Table 1: Spherical Anya's time over Anya's, both found.
    pub time: Option<Describe>,
    /// Table 2: Spherical Anya's length over Recipe 1's, both found.
    pub len_r1: Option<Describe>,
    /// Table 3: Spherical Anya's length over Recipe 2's, both found.
    pub len_r2: Option<Describe>,
    /// Table 4: as Table 2, on the instances whose Recipe-1 route is legal.
    pub len_r1_exclusive: Option<Describe>,
    /// Spherical Anya's µs per route found.
    pub sphere_us: Option<Describe>,
    /// 95th percentile of Spherical Anya's µs per route found.
    pub sphere_p95_us: f64,
    /// Nodes Euclidean Anya expanded, on the pairs both found.
    pub anya_expanded: Option<Describe>,
    /// Nodes Spherical Anya expanded, on the pairs both found.
    pub sphere_expanded: Option<Describe>,
    /// 95th percentile of [`Self::anya_expanded`].
    pub anya_expanded_p95: f64,
    /// 95th percentile of [`Self::sphere_expanded`].
    pub sphere_expanded_p95: f64,
    /// Median of the columns Spherical Anya swept without an expansion, on the pairs both
    /// found.
    pub sphere_swept_median: f64,
    /// Spherical Anya's expansions over Anya's, per pair both found (Anya expanded at least
    /// one node).
    pub expanded_ratio: Option<Describe>,
    /// Spherical Anya's routes the checker rejects.
    pub sphere_illegal: usize,
    /// Instances that failed a check.
    pub failures: usize,
}

fn summarise_rows(row: String, rows: &[&Instance]) -> BenchSummary {
    let mut anya = Counts::default();
    let mut sphere = Counts::default();
    for r in rows {
        anya.add(r.anya);
        sphere.add(r.sphere);
    }
    let mut maps: Vec<u32> = rows.iter().map(|r| r.map).collect();
    maps.sort_unstable();
    maps.dedup();
    let anya_found: Vec<&&Instance> = rows.iter().filter(|r| r.anya == Answered::Found).collect();
    let pct = |n: usize| {
        if anya_found.is_empty() {
            f64::NAN
        } else {
            100.0 * n as f64 / anya_found.len() as f64
        }
    };
    let illegal = |k: u8| {
        anya_found
            .iter()
            .filter(|r| {
                let r = if k == 1 { &r.r1 } else { &r.r2 };
                r.as_ref().is_some_and(|r| !r.legal)
            })
            .count()
    };
    let times: Vec<f64> = rows.iter().filter_map(|r| r.time_ratio()).collect();
    let less = 1.0 - RATIO_TOLERANCE;
    let l1: Vec<f64> = rows.iter().filter_map(|r| r.length_ratio(1)).collect();
    let l2: Vec<f64> = rows.iter().filter_map(|r| r.length_ratio(2)).collect();
    let l1x: Vec<f64> = rows
        .iter()
        .filter(|r| r.r1.as_ref().is_some_and(|x| x.legal))
        .filter_map(|r| r.length_ratio(1))
        .collect();
    let mut sus: Vec<f64> = rows
        .iter()
        .filter(|r| r.sphere == Answered::Found)
        .map(|r| r.sphere_us)
        .collect();
    sus.sort_by(f64::total_cmp);
    let both_found: Vec<&&Instance> = rows.iter().filter(|r| r.both_found()).collect();
    let anya_exp: Vec<f64> = both_found.iter().map(|r| r.anya_expanded as f64).collect();
    let sphere_exp: Vec<f64> = both_found
        .iter()
        .map(|r| r.sphere_expanded as f64)
        .collect();
    let mut swept: Vec<f64> = both_found.iter().map(|r| r.sphere_swept as f64).collect();
    swept.sort_by(f64::total_cmp);
    let exp_ratio: Vec<f64> = both_found
        .iter()
        .filter(|r| r.anya_expanded > 0)
        .map(|r| r.sphere_expanded as f64 / r.anya_expanded as f64)
        .collect();
    let p95 = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        if v.is_empty() {
            f64::NAN
        } else {
            quantile_sorted(&v, 0.95)
        }
    };
    BenchSummary {
        row,
        maps: maps.len(),
        pairs: rows.len(),
        anya,
        sphere,
        both: rows
            .iter()
            .filter(|r| r.anya == Answered::Found && r.sphere == Answered::Found)
            .count(),
        sphere_only: rows
            .iter()
            .filter(|r| r.anya != Answered::Found && r.sphere == Answered::Found)
            .count(),
        r1_illegal_pct: pct(illegal(1)),
        r2_illegal_pct: pct(illegal(2)),
        time: describe(&times, 1.0),
        len_r1: describe(&l1, less),
        len_r2: describe(&l2, less),
        len_r1_exclusive: describe(&l1x, less),
        sphere_us: describe(&sus, f64::NEG_INFINITY),
        sphere_p95_us: if sus.is_empty() {
            f64::NAN
        } else {
            quantile_sorted(&sus, 0.95)
        },
        anya_expanded: describe(&anya_exp, f64::NEG_INFINITY),
        sphere_expanded: describe(&sphere_exp, f64::NEG_INFINITY),
        anya_expanded_p95: p95(&anya_exp),
        sphere_expanded_p95: p95(&sphere_exp),
        sphere_swept_median: if swept.is_empty() {
            f64::NAN
        } else {
            quantile_sorted(&swept, 0.5)
        },
        expanded_ratio: describe(&exp_ratio, 1.0),
        sphere_illegal: rows
            .iter()
            .filter(|r| r.sphere_legal == Some(false))
            .count(),
        failures: rows.iter().filter(|r| r.failure.is_some()).count(),
    }
}

/// The summary rows of a benchmark: itself, then each group of its suite.
pub fn summarise(run: &BenchRun) -> Vec<BenchSummary> {
    let all: Vec<&Instance> = run.instances.iter().collect();
    let mut out = vec![summarise_rows(run.name.clone(), &all)];
    for g in &run.groups {
        let rows: Vec<&Instance> = run
            .instances
            .iter()
            .filter(|i| run.map_groups[i.map as usize].iter().any(|x| x == g))
            .collect();
        out.push(summarise_rows(g.clone(), &rows));
    }
    out
}

fn opt(v: Option<f64>, digits: usize) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v:.digits$}"),
        _ => String::new(),
    }
}

fn flag(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "1",
        Some(false) => "0",
        None => "",
    }
}

fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "'").replace('\n', " "))
    } else {
        s.to_owned()
    }
}

/// The CSV header of [`write_instances_csv`].
pub const CSV_HEADER: &str = "bench,map,idx,label,sx,sy,gx,gy,s_lat,s_lon,g_lat,g_lon,\
anya,anya_us,anya_len_grid,anya_turns,\
anya_len_r1,anya_legal_r1,r1_illegal_legs,anya_len_r2,anya_legal_r2,r2_legs,\
sphere,sphere_us,sphere_len,sphere_legal,sphere_legs,sphere_expanded,sphere_swept,anya_expanded,\
time_ratio,len_ratio_r1,len_ratio_r2,check";

/// Writes the instances of `run` to `path`: a `#` comment line with the provenance, the
/// seed and the sample sizes, the header [`CSV_HEADER`], then one row per instance. Lengths
/// are radians on the unit sphere (× 6371 for km), except `anya_len_grid` (grid units).
///
/// # Errors
/// [`BenchError::Write`] when the file cannot be written.
pub fn write_instances_csv(
    path: &Path,
    run: &BenchRun,
    prov: &Provenance,
    opts: &SphereOptions,
) -> Result<(), BenchError> {
    let err = |e: std::io::Error| BenchError::Write {
        path: path.to_owned(),
        msg: e.to_string(),
    };
    let file = std::fs::File::create(path).map_err(err)?;
    let mut w = std::io::BufWriter::new(file);
    writeln!(w, "# {}; {}", prov.line(), sample_line(opts)).map_err(err)?;
    writeln!(w, "{CSV_HEADER}").map_err(err)?;
    for i in &run.instances {
        let found = i.anya == Answered::Found;
        let (r1, r2) = (i.r1.as_ref(), i.r2.as_ref());
        let check = match &i.failure {
            None => "ok".to_owned(),
            Some(f) => format!("\"FAILED: {}\"", f.replace('"', "'")),
        };
        writeln!(
            w,
            "{},{},{},{},{},{},{},{},{:.9},{:.9},{:.9},{:.9},{},{:.3},{},{},{},{},{},{},{},{},{},{:.3},{},{},{},{},{},{},{},{},{},{}",
            run.name,
            run.maps[i.map as usize],
            i.idx,
            quote(&i.label),
            i.start.x,
            i.start.y,
            i.goal.x,
            i.goal.y,
            i.from.lat,
            i.from.lon,
            i.to.lat,
            i.to.lon,
            i.anya.name(),
            i.anya_us,
            if found { format!("{:.9}", i.anya_len) } else { String::new() },
            if found { i.anya_turns.to_string() } else { String::new() },
            opt(r1.map(|r| r.radians), 12),
            flag(r1.map(|r| r.legal)),
            r1.map_or(String::new(), |r| r.illegal_legs.to_string()),
            opt(r2.map(|r| r.radians), 12),
            flag(r2.map(|r| r.legal)),
            r2.map_or(String::new(), |r| r.legs.to_string()),
            i.sphere.name(),
            i.sphere_us,
            opt((i.sphere == Answered::Found).then_some(i.sphere_len), 12),
            flag(i.sphere_legal),
            if i.sphere == Answered::Found { i.sphere_legs.to_string() } else { String::new() },
            i.sphere_expanded,
            i.sphere_swept,
            i.anya_expanded,
            opt(i.time_ratio(), 6),
            opt(i.length_ratio(1), 9),
            opt(i.length_ratio(2), 9),
            check
        )
        .map_err(err)?;
    }
    w.flush().map_err(err)
}

/// The line naming the seed and the sample sizes.
fn sample_line(opts: &SphereOptions) -> String {
    format!(
        "seed {}; {} pairs per game map{}; {} random pairs per Earth raster; port pairs: {}; Recipe 2 step {} arc-second(s); {} thread(s)",
        opts.seed,
        opts.queries_per_map,
        opts.max_maps
            .map_or(String::new(), |k| format!(", at most {k} maps per suite")),
        opts.earth_queries,
        opts.max_ports
            .map_or("all".to_owned(), |k| format!("at most {k}")),
        opts.step_arcsec,
        opts.threads
    )
}

fn f3(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.3}")
    } else {
        "–".into()
    }
}

fn pct(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.2}")
    } else {
        "–".into()
    }
}

/// The eight statistic cells of a table row (`% less` to `StDev`), dashes when empty.
fn stat_cells(d: &Option<Describe>) -> String {
    match d {
        Some(d) => format!(
            "{} | {} | {} | {} | {} | {} | {} | {}",
            pct(d.less_pct),
            f3(d.min),
            f3(d.q1),
            f3(d.median),
            f3(d.mean),
            f3(d.q3),
            f3(d.max),
            f3(d.stdev)
        ),
        None => ["–"; 8].join(" | "),
    }
}

/// The Markdown summary of `runs`.
pub fn sphere_markdown(
    runs: &[BenchRun],
    prov: &Provenance,
    opts: &SphereOptions,
    command: &str,
) -> String {
    let mut s = String::new();
    let names: Vec<&str> = runs.iter().map(|r| r.name.as_str()).collect();
    let _ = writeln!(
        s,
        "# Spherical Anya against Euclidean Anya (paper Section 6): {}\n",
        names.join(", ")
    );
    let _ = writeln!(s, "{}\n", prov.line());
    let _ = writeln!(s, "{}.\n", sample_line(opts));
    let _ = writeln!(s, "Command: `{command}`\n");
    let _ = writeln!(
        s,
        "Each query is timed alone, single-threaded, after one untimed warm-up query per planner and map (or chunk of {} Earth pairs); the two planners take turns map by map. Time and length ratios are Spherical Anya's figure over Euclidean Anya's, measured in this run. Lengths are great-circle lengths on the unit sphere. See `docs/bench.md`, \"Spherical comparison\".\n",
        super::EARTH_CHUNK
    );
    let summaries: Vec<(&BenchRun, Vec<BenchSummary>)> =
        runs.iter().map(|r| (r, summarise(r))).collect();

    let _ = writeln!(s, "## Checks\n");
    let _ = writeln!(
        s,
        "| benchmark | maps | pairs | endpoints | Anya found / unreachable / rejected | Spherical found / unreachable / rejected | both found | Spherical only | Recipe 1 illegal % | Recipe 2 illegal % | Spherical illegal | wall s | **failures** |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (run, rows) in &summaries {
        for b in rows {
            let endpoints = if b.row != run.name {
                "".to_owned()
            } else {
                match run.kind {
                    BenchKind::GameMaps => format!(
                        "{} of {} free cells' corners usable",
                        run.sampling.candidates, run.sampling.free_cells
                    ),
                    BenchKind::EarthRandom => format!(
                        "sea of {} cells; {} pairs dropped",
                        run.sampling.free_cells, run.sampling.dropped
                    ),
                    BenchKind::EarthPorts => format!("{} pairs dropped", run.sampling.dropped),
                }
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} / {} / {} | {} / {} / {} | {} | {} | {} | {} | {} | {} | **{}** |",
                b.row,
                b.maps,
                b.pairs,
                endpoints,
                b.anya.found,
                b.anya.unreachable,
                b.anya.rejected,
                b.sphere.found,
                b.sphere.unreachable,
                b.sphere.rejected,
                b.both,
                b.sphere_only,
                pct(b.r1_illegal_pct),
                pct(b.r2_illegal_pct),
                b.sphere_illegal,
                if b.row == run.name {
                    format!("{:.0}", run.wall.as_secs_f64())
                } else {
                    String::new()
                },
                b.failures
            );
        }
    }
    for (run, _) in &summaries {
        for m in &run.sampling.skipped_maps {
            let _ = writeln!(s, "\n- {}: map skipped: {m}", run.name);
        }
    }
    let total_found: usize = runs
        .iter()
        .flat_map(|r| &r.instances)
        .filter(|i| i.sphere == Answered::Found)
        .count();
    let total: usize = runs.iter().map(|r| r.instances.len()).sum();
    if total > 0 && total_found == 0 {
        let _ = writeln!(
            s,
            "\n**NOTICE: Spherical Anya found no route at all ({total} pairs).** The planner is unfinished or broken: every ratio below is empty."
        );
    }
    let failures: Vec<(&BenchRun, &Instance)> = runs
        .iter()
        .flat_map(|run| run.failures().map(move |i| (run, i)))
        .collect();
    if !failures.is_empty() {
        let _ = writeln!(s, "\n### FAILURES ({})\n", failures.len());
        for (run, i) in failures.iter().take(50) {
            let _ = writeln!(
                s,
                "- {} {} pair {} {} ({:?}→{:?}): {}",
                run.name,
                run.maps[i.map as usize],
                i.idx,
                i.label,
                i.start,
                i.goal,
                i.failure.as_deref().unwrap_or_default()
            );
        }
        if failures.len() > 50 {
            let _ = writeln!(s, "- ... and {} more (see the CSVs)", failures.len() - 50);
        }
    }

    let head = "% less | Min | Q1 | Median | Mean | Q3 | Max | StDev |";
    let rule = "---|---|---|---|---|---|---|---|";
    type Pick = fn(&BenchSummary) -> &Option<Describe>;
    let tables: [(&str, &str, Pick); 3] = [
        (
            "Table 1. Spherical Anya vs. Anya, execution time (all routes)",
            "Spherical Anya's µs over Anya's µs on the pairs both solved; % less: share of ratios below 1.",
            |b| &b.time,
        ),
        (
            "Table 2. Spherical Anya vs. Anya, route length (Recipe 1)",
            "Spherical Anya's length over Recipe 1's (Anya's turning points joined by great circles), legal or not; % less: share below 1 − 1e-9. % illegal: Recipe-1 routes the checker rejects, of all Anya's routes.",
            |b| &b.len_r1,
        ),
        (
            "Table 3. Spherical Anya vs. Anya, route length (Recipe 2)",
            "As Table 2 with Recipe 2 (each illegal leg replaced by great circles between points one step apart along the straight latitude/longitude segment).",
            |b| &b.len_r2,
        ),
    ];
    for (k, (title, note, pick)) in tables.iter().enumerate() {
        let _ = writeln!(s, "\n## {title}\n\n{note}\n");
        let (ill_head, ill_rule) = if k > 0 {
            ("% illegal | ", "---|")
        } else {
            ("", "")
        };
        let _ = writeln!(s, "| Benchmark | #Maps | #Instances | {ill_head}{head}");
        let _ = writeln!(s, "|---|---|---|{ill_rule}{rule}");
        for (_, rows) in &summaries {
            for b in rows {
                let d = pick(b);
                let ill = match k {
                    1 => format!("{} | ", pct(b.r1_illegal_pct)),
                    2 => format!("{} | ", pct(b.r2_illegal_pct)),
                    _ => String::new(),
                };
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {}{} |",
                    b.row,
                    b.maps,
                    d.map_or(0, |d| d.n),
                    ill,
                    stat_cells(d)
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "\n## Table 4. Spherical Anya vs. Anya, route length (Exclusive, Recipe 1)\n\nAs Table 2, on the pairs whose Recipe-1 route is legal.\n"
    );
    let _ = writeln!(s, "| Benchmark | #Instances | {head}");
    let _ = writeln!(s, "|---|---|{rule}");
    for (_, rows) in &summaries {
        for b in rows {
            let _ = writeln!(
                s,
                "| {} | {} | {} |",
                b.row,
                b.len_r1_exclusive.map_or(0, |d| d.n),
                stat_cells(&b.len_r1_exclusive)
            );
        }
    }
    let earth: Vec<&BenchSummary> = summaries
        .iter()
        .filter(|(r, _)| r.kind != BenchKind::GameMaps)
        .map(|(_, rows)| &rows[0])
        .collect();
    if !earth.is_empty() {
        let _ = writeln!(
            s,
            "\n## Spherical Anya alone on the Earth rasters\n\nMicroseconds per route found (the same timings as Table 1).\n"
        );
        let _ = writeln!(
            s,
            "| benchmark | pairs | found | unreachable | rejected | median µs | p95 µs | mean µs | max µs |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|");
        for b in earth {
            let d = b.sphere_us;
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                b.row,
                b.pairs,
                b.sphere.found,
                b.sphere.unreachable,
                b.sphere.rejected,
                d.map_or("–".into(), |d| format!("{:.1}", d.median)),
                if b.sphere_p95_us.is_finite() {
                    format!("{:.1}", b.sphere_p95_us)
                } else {
                    "–".into()
                },
                d.map_or("–".into(), |d| format!("{:.1}", d.mean)),
                d.map_or("–".into(), |d| format!("{:.1}", d.max)),
            );
        }
    }
    let _ = writeln!(
        s,
        "\n## Expansions per route\n\nNodes each planner expanded, on the pairs both solved: medians, 95th percentiles, and the median of Spherical Anya's count over Anya's per pair. Neither count includes the steps a planner takes without a node: Anya's intermediate nodes expanded in place, Spherical Anya's swept columns (their median is the last column).\n"
    );
    let _ = writeln!(
        s,
        "| benchmark | pairs | Anya median | Spherical median | Anya p95 | Spherical p95 | median ratio | Spherical swept columns, median |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
    let med = |d: &Option<Describe>| d.map_or("–".into(), |d| format!("{:.0}", d.median));
    for (_, rows) in &summaries {
        for b in rows {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                b.row,
                b.anya_expanded.map_or(0, |d| d.n),
                med(&b.anya_expanded),
                med(&b.sphere_expanded),
                f0(b.anya_expanded_p95),
                f0(b.sphere_expanded_p95),
                b.expanded_ratio
                    .map_or("–".into(), |d| format!("{:.2}", d.median)),
                f0(b.sphere_swept_median),
            );
        }
    }
    s
}

fn f0(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.0}")
    } else {
        "–".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sphere::RecipeOutcome;
    use taut::geom::Point;
    use taut::spherical::LatLon;

    fn recipe(radians: f64, legal: bool) -> Option<RecipeOutcome> {
        Some(RecipeOutcome {
            radians,
            legal,
            illegal_legs: u32::from(!legal),
            legs: 2,
            violation: None,
        })
    }

    /// An instance where both planners found a route: Anya in `anya_us`, Spherical Anya in
    /// `sphere_us`, Recipe 1 of length 1 (legal or not), Recipe 2 of length 1.25.
    fn both(map: u32, anya_us: f64, sphere_us: f64, sphere_len: f64, r1_legal: bool) -> Instance {
        Instance {
            map,
            idx: 0,
            label: "a,b".into(),
            start: Point::new(1, 2),
            goal: Point::new(3, 4),
            from: LatLon::new(1.0, 2.0),
            to: LatLon::new(3.0, 4.0),
            anya: Answered::Found,
            anya_us,
            anya_len: 7.0,
            anya_turns: 3,
            anya_expanded: 3,
            r1: recipe(1.0, r1_legal),
            r2: recipe(1.25, true),
            sphere: Answered::Found,
            sphere_us,
            sphere_len,
            sphere_legal: Some(true),
            sphere_legs: 2,
            sphere_expanded: 9,
            sphere_swept: 12,
            failure: None,
        }
    }

    fn run() -> BenchRun {
        let mut run = BenchRun::new("demo".into(), "demo".into(), BenchKind::GameMaps);
        run.maps = vec!["m0".into(), "m1".into()];
        run.map_groups = vec![vec!["g".into()], Vec::new()];
        run.groups = vec!["g".into()];
        run.instances = vec![
            both(0, 10.0, 5.0, 1.0, true),
            both(0, 10.0, 10.0, 0.9, true),
            both(1, 10.0, 20.0, 0.8, false),
            both(1, 10.0, 40.0, 1.0, false),
        ];
        // Anya found, Spherical Anya not: counted, failed, in no ratio.
        let mut a = both(1, 10.0, 1.0, f64::INFINITY, true);
        a.sphere = Answered::Unreachable;
        a.sphere_legal = None;
        a.failure = Some("Spherical Anya found no route".into());
        // Spherical Anya only (through the wrap).
        let mut b = both(1, 10.0, 1.0, 0.5, true);
        b.anya = Answered::Unreachable;
        b.r1 = None;
        b.r2 = None;
        run.instances.extend([a, b]);
        run
    }

    #[test]
    fn summary_rows_hold_the_papers_statistics() {
        let rows = summarise(&run());
        assert_eq!(rows.len(), 2);
        let s = &rows[0];
        assert_eq!((s.row.as_str(), s.maps, s.pairs), ("demo", 2, 6));
        assert_eq!(
            s.anya,
            Counts {
                found: 5,
                unreachable: 1,
                rejected: 0
            }
        );
        assert_eq!((s.sphere.found, s.sphere.unreachable), (5, 1));
        assert_eq!((s.both, s.sphere_only, s.failures), (4, 1, 1));
        // Recipe 1: 2 illegal of Anya's 5 routes; Recipe 2: none.
        assert!((s.r1_illegal_pct - 40.0).abs() < 1e-12);
        assert_eq!(s.r2_illegal_pct, 0.0);
        // Time ratios 0.5, 1, 2, 4: one strictly below 1.
        let t = s.time.unwrap();
        assert_eq!(t.n, 4);
        assert!((t.less_pct - 25.0).abs() < 1e-12);
        assert!((t.q1 - 0.875).abs() < 1e-12);
        assert!((t.median - 1.5).abs() < 1e-12);
        assert!((t.q3 - 2.5).abs() < 1e-12);
        assert!((t.mean - 1.875).abs() < 1e-12);
        // Recipe 1 ratios 1, 0.9, 0.8, 1: two below 1; exclusive: the legal ones, 1 and 0.9.
        let l1 = s.len_r1.unwrap();
        assert_eq!((l1.n, l1.min, l1.max), (4, 0.8, 1.0));
        assert!((l1.less_pct - 50.0).abs() < 1e-12);
        let x = s.len_r1_exclusive.unwrap();
        assert_eq!((x.n, x.min, x.max), (2, 0.9, 1.0));
        assert!((x.less_pct - 50.0).abs() < 1e-12);
        // Recipe 2 ratios are the Recipe 1 ones over 1.25.
        let l2 = s.len_r2.unwrap();
        assert!((l2.max - 0.8).abs() < 1e-12 && (l2.less_pct - 100.0).abs() < 1e-12);
        // Spherical Anya's own times: 5, 10, 20, 40 and the sphere-only 1.
        let us = s.sphere_us.unwrap();
        assert_eq!((us.n, us.median), (5, 10.0));
        assert!((s.sphere_p95_us - 36.0).abs() < 1e-9);
        // Expansions on the 4 pairs both found: 3 for Anya, 9 for Spherical Anya.
        assert_eq!(s.anya_expanded.unwrap().n, 4);
        assert_eq!(s.anya_expanded.unwrap().median, 3.0);
        assert_eq!(s.sphere_expanded.unwrap().median, 9.0);
        assert_eq!(s.sphere_expanded_p95, 9.0);
        assert_eq!(s.expanded_ratio.unwrap().median, 3.0);
        assert_eq!(s.sphere_swept_median, 12.0);
        // The group holds map 0 only.
        let g = &rows[1];
        assert_eq!((g.row.as_str(), g.maps, g.pairs, g.both), ("g", 1, 2, 2));
        assert_eq!(g.len_r1_exclusive.unwrap().n, 2);
    }

    #[test]
    fn reports_list_every_instance_and_table() {
        let run = run();
        let prov = Provenance {
            commit: "abc".into(),
            cpu: "cpu".into(),
            cores: 2,
            date: "2026-01-01".into(),
            optimised: true,
        };
        let opts = SphereOptions::default();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("demo.csv");
        write_instances_csv(&path, &run, &prov, &opts).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2 + run.instances.len());
        assert!(lines[0].starts_with("# machine: cpu") && lines[0].contains("seed 20240601"));
        assert_eq!(lines[1], CSV_HEADER);
        let cols = CSV_HEADER.split(',').count();
        // The label "a,b" is quoted; every row has the header's columns.
        for l in &lines[2..] {
            assert!(l.contains("\"a,b\""));
            assert_eq!(l.replace("\"a,b\"", "ab").split(',').count(), cols, "{l}");
        }
        assert!(lines[2].ends_with(",0.500000,1.000000000,0.800000000,ok"));
        assert!(lines[6].contains("FAILED: Spherical Anya found no route"));
        let md = sphere_markdown(&[run], &prov, &opts, "taut-bench sphere");
        for t in [
            "Table 1.",
            "Table 2.",
            "Table 3.",
            "Table 4.",
            "## Expansions per route",
            "| demo | 4 | 3 | 9 | 3 | 9 | 3.00 |",
            "### FAILURES (1)",
        ] {
            assert!(md.contains(t), "{t}");
        }
        assert!(
            md.contains("| demo | 2 | 4 | 25.00 | 0.500 | 0.875 | 1.500 | 1.875 | 2.500 | 4.000 |")
        );
        assert!(md.contains("| g | 1 | 2 | 0.00 |"));
        assert!(!md.contains("NOTICE"));
        // Every table row has as many cells as its header.
        for table in md.split("\n\n").filter(|b| b.starts_with("| ")) {
            let mut lines = table.lines();
            let n = lines.next().unwrap().matches('|').count();
            for l in lines {
                assert_eq!(l.matches('|').count(), n, "{l}");
            }
        }
    }
}
