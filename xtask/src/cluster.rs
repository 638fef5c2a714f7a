//! `cargo xtask preprocess --cpd --scheduler local|slurm`: the compressed path databases of
//! suites or maps built in shards by a scheduler, then merged and checked (docs/cluster.md).
//! With `--hub` instead, the hub label indexes: one task per map (`taut hub build`, which
//! cannot be split into shards), nothing to merge.
//!
//! One plan serves both schedulers:
//!
//! 1. [`plan`] reads every selected map, hashes its mesh and lists the work: a map whose CPD
//!    is up to date is skipped, and so is every shard file already built for the current
//!    mesh, parameters and shard count. What is left is one task per (map, shard), `taut cpd
//!    build --map M --shard I/N`, and one merge per map, `taut cpd merge --map M
//!    --remove-shards`, which checks the shards against the map's mesh hash, writes the CPD,
//!    reads it back and only then deletes the shards.
//! 2. A run directory (under `--work-dir`, default `target/cpd-runs`) gets the task list
//!    `tasks.tsv`, the merge list `merges.tsv`, the two scripts `shard.sh` and `merge.sh`,
//!    `logs/` and `status/`. A task appends taut's output to `logs/task-K.log` and writes
//!    `status/task-K.exit` (exit code, start and end time); the scheduler only runs scripts.
//! 3. `local` runs `bash shard.sh K` for every task on `--workers` processes, then `bash
//!    merge.sh`. `slurm` submits `shard.sh` as a job array (`sbatch --array`) and `merge.sh`
//!    as a job that starts when every array task has succeeded (`--dependency=afterok`,
//!    `--kill-on-invalid-dep=yes`); with `--wait` it follows them with `squeue`.
//! 4. A failed task (non-zero exit, or no status at all: killed by the scheduler) is run
//!    again up to `--retries` times; what still fails is reported with the tail of its log.
//!    Re-running the command plans again, so only missing shards are built.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context, bail};
use taut::cpd::shard::{ShardSpec, shard_path};

use crate::hub::{Want, hub_current};
use crate::preprocess::{Job, Kind, PreprocessArgs, cpd_built, flat, map_mesh, shard_built};

pub use crate::preprocess::{ClusterArgs, Scheduler};

/// One shard of one map to build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardTask {
    /// The map's label (`SUITE/MAP`).
    pub label: String,
    /// The .map file (absolute).
    pub map: PathBuf,
    /// The CPD file (absolute), whose shard goes to [`shard_path`] of it; or the hub index
    /// file to write.
    pub cpd: PathBuf,
    /// Which shard of the CPD; `None` for a hub index.
    pub spec: Option<ShardSpec>,
}

impl ShardTask {
    /// What the task builds, for messages: `shard 1/4`, or `hub index`.
    pub fn what(&self) -> String {
        self.spec
            .map_or_else(|| "hub index".to_owned(), |s| format!("shard {s}"))
    }
}

/// One map's merge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeTask {
    /// The map's label.
    pub label: String,
    /// The .map file (absolute): the merge checks the shards against its mesh.
    pub map: PathBuf,
    /// The CPD file to write (absolute).
    pub cpd: PathBuf,
    /// Its shard files, in order.
    pub shards: Vec<PathBuf>,
}

/// The work a sharded build has to do.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Plan {
    /// Shards to build.
    pub tasks: Vec<ShardTask>,
    /// Maps to merge (every map not up to date, in order).
    pub merges: Vec<MergeTask>,
    /// Labels of the maps whose CPD is up to date.
    pub up_to_date: Vec<String>,
    /// Shard files found already built for the current mesh and parameters.
    pub shards_done: usize,
    /// Shards per map (1 for hub indexes).
    pub shards: u32,
    /// The hub indexes asked for, when the plan builds those instead of CPDs.
    pub hub: Option<Want>,
}

impl Plan {
    /// The unit of work in messages: `shard` or `hub`.
    fn unit(&self) -> &'static str {
        if self.hub.is_some() { "hub" } else { "shard" }
    }
}

/// A path as it goes into a task list: absolute, UTF-8, without tabs or line breaks.
fn list_path(p: &Path) -> anyhow::Result<PathBuf> {
    let abs =
        std::path::absolute(p).with_context(|| format!("{}: no absolute path", p.display()))?;
    match abs.to_str() {
        Some(s) if !s.contains(['\t', '\n', '\r']) => Ok(abs),
        _ => bail!(
            "{}: a scheduled build needs file names in UTF-8 without tabs or line breaks",
            p.display()
        ),
    }
}

/// Lists the work of building the CPDs of `jobs` in `shards` shards each: what is up to date
/// (the CPD, or single shard files) is left out unless `force`.
///
/// # Errors
/// A map that cannot be read or meshed, a path that cannot go into a task list, `shards` 0.
pub fn plan(jobs: &[Job], shards: u32, force: bool) -> anyhow::Result<Plan> {
    if shards == 0 {
        bail!("--shards must be at least 1");
    }
    let mut plan = Plan {
        shards,
        ..Plan::default()
    };
    for job in jobs {
        let map = list_path(&job.map)?;
        let cpd = list_path(&job.out)?;
        let (_, hash) = map_mesh(&map).with_context(|| job.label.clone())?;
        if !force && cpd_built(&cpd, &hash) {
            plan.up_to_date.push(job.label.clone());
            continue;
        }
        let mut files = Vec::new();
        for index in 0..shards {
            let spec = ShardSpec::new(index, shards).map_err(flat)?;
            let path = shard_path(&cpd, spec);
            if shard_built(&path, &hash, spec) && !force {
                plan.shards_done += 1;
            } else {
                plan.tasks.push(ShardTask {
                    label: job.label.clone(),
                    map: map.clone(),
                    cpd: cpd.clone(),
                    spec: Some(spec),
                });
            }
            files.push(path);
        }
        plan.merges.push(MergeTask {
            label: job.label.clone(),
            map,
            cpd,
            shards: files,
        });
    }
    Ok(plan)
}

/// Lists the work of building the hub indexes of `jobs` as `want` asks: one task per map
/// whose index is not up to date (unless `force`), nothing to merge.
///
/// # Errors
/// A map that cannot be read or meshed, a path that cannot go into a task list.
pub fn plan_hubs(jobs: &[Job], want: Want, force: bool) -> anyhow::Result<Plan> {
    let mut plan = Plan {
        shards: 1,
        hub: Some(want),
        ..Plan::default()
    };
    for job in jobs {
        let map = list_path(&job.map)?;
        let out = list_path(&job.out)?;
        let (_, hash) = map_mesh(&map).with_context(|| job.label.clone())?;
        if !force && hub_current(&out, &hash, want) {
            plan.up_to_date.push(job.label.clone());
            continue;
        }
        plan.tasks.push(ShardTask {
            label: job.label.clone(),
            map,
            cpd: out,
            spec: None,
        });
    }
    Ok(plan)
}

/// The text of `tasks.tsv`: map, output file and shard (`I/N`, or `hub`) of task K on line K
/// (0-based).
pub fn tasks_tsv(plan: &Plan) -> String {
    let mut s = String::new();
    for t in &plan.tasks {
        let spec = t.spec.map_or_else(|| "hub".to_owned(), |s| s.to_string());
        let _ = writeln!(s, "{}\t{}\t{spec}", t.map.display(), t.cpd.display());
    }
    s
}

/// The text of `merges.tsv`: map, CPD and then every shard file of merge K on line K.
pub fn merges_tsv(plan: &Plan) -> String {
    let mut s = String::new();
    for m in &plan.merges {
        let _ = write!(s, "{}\t{}", m.map.display(), m.cpd.display());
        for f in &m.shards {
            let _ = write!(s, "\t{}", f.display());
        }
        s.push('\n');
    }
    s
}

/// `s` as one word for bash.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// What the scripts need to know.
#[derive(Debug, Clone)]
pub struct ScriptConfig {
    /// The run directory (absolute).
    pub run: PathBuf,
    /// The taut binary (absolute).
    pub taut: PathBuf,
    /// Threads of each `taut cpd build` (`--jobs`, and Slurm's `--cpus-per-task`).
    pub threads: usize,
    /// The size limit of each `taut cpd build` (`--max-size`, bytes).
    pub max_size: u64,
    /// Array task J runs tasks J, J + stride, J + 2·stride, ...
    pub stride: usize,
    /// The hub indexes the tasks build (`taut hub build`), when not CPD shards.
    pub hub: Option<Want>,
    /// Whether the scripts are Slurm batch scripts (with `#SBATCH` lines).
    pub slurm: bool,
    /// The `#SBATCH` options both jobs share beyond the scripts' own (partition, time, ...).
    pub sbatch: Vec<String>,
}

/// The `#SBATCH` options both jobs share.
fn common_sbatch(args: &ClusterArgs) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(p) = &args.partition {
        v.push(format!("--partition={p}"));
    }
    if let Some(t) = &args.time {
        v.push(format!("--time={t}"));
    }
    if let Some(m) = &args.mem {
        v.push(format!("--mem={m}"));
    }
    v.extend(args.sbatch_args.iter().cloned());
    v
}

/// The shebang line and, for Slurm, the `#SBATCH` lines of a script: its job name, Slurm's
/// own log `logs/OUTPUT` in the run directory, one task of `cpus` CPUs, and the options the
/// user gave.
fn script_head(c: &ScriptConfig, job: &str, output: &str, cpus: usize) -> String {
    let mut s = String::from("#!/usr/bin/env bash\n");
    if c.slurm {
        let _ = writeln!(s, "#SBATCH --job-name={job}");
        let _ = writeln!(s, "#SBATCH --output={}/logs/{output}", c.run.display());
        let _ = writeln!(s, "#SBATCH --ntasks=1");
        let _ = writeln!(s, "#SBATCH --cpus-per-task={cpus}");
        for o in &c.sbatch {
            let _ = writeln!(s, "#SBATCH {o}");
        }
    }
    s
}

/// The task script: `bash shard.sh J`, or as Slurm array task J.
pub fn shard_script(c: &ScriptConfig) -> String {
    let (job, what, task, command) = match c.hub {
        None => (
            "taut-cpd-shards",
            "--cpd --scheduler`: builds CPD shard files with\n# `taut cpd build --shard I/N`",
            "shard $shard",
            format!(
                r#""$taut" cpd build --map "$map" -o "$cpd" --shard "$shard" --jobs {} --max-size {}"#,
                c.threads, c.max_size
            ),
        ),
        Some(want) => (
            "taut-hub-builds",
            "--hub --scheduler`: builds hub label indexes with\n# `taut hub build`",
            "hub index",
            format!(
                r#""$taut" hub build --map "$map" -o "$cpd" {} --jobs {}"#,
                want.cli_args().join(" "),
                c.threads
            ),
        ),
    };
    let mut s = script_head(c, job, "slurm-%A_%a.out", c.threads);
    let _ = write!(
        s,
        r#"# Written by `cargo xtask preprocess {what}. Array task J (or `bash shard.sh J`) runs the lines J,
# J + {stride}, J + 2*{stride}, ... (0-based) of tasks.tsv, each line "map<TAB>file<TAB>I/N|hub",
# appending taut's output to logs/task-K.log and writing status/task-K.exit as
# "exit start end" (seconds since 1970). A task whose status already says 0 is skipped.
set -uo pipefail
run={run}
taut={taut}
stride={stride}
j=${{1:-${{SLURM_ARRAY_TASK_ID:?give the array index J, or run as a Slurm array task}}}}
if ! [[ "$j" =~ ^[0-9]+$ ]] || [ "$j" -ge "$stride" ]; then
    echo "shard.sh: array index '$j' is not one of 0..$((stride - 1))" >&2
    exit 2
fi
if [ ! -r "$run/tasks.tsv" ] || [ ! -w "$run/status" ] || [ ! -w "$run/logs" ]; then
    echo "shard.sh: $run/tasks.tsv, status/ or logs/ cannot be used on $(hostname): is the run directory on a file system every node mounts?" >&2
    exit 2
fi
failed=0
k=0
while IFS=$'\t' read -r map cpd shard; do
    if [ -n "$map" ] && [ $((k % stride)) -eq "$j" ]; then
        status_file="$run/status/task-$k.exit"
        if [ "$(cut -d' ' -f1 "$status_file" 2>/dev/null)" != 0 ]; then
            log="$run/logs/task-$k.log"
            start=$(date +%s.%N)
            echo "== task $k: {task} of $map on $(hostname) at $(date -u +%FT%TZ)${{SLURM_JOB_ID:+, Slurm job $SLURM_JOB_ID}}" >>"$log"
            {command} </dev/null >>"$log" 2>&1
            code=$?
            echo "== exit $code" >>"$log"
            echo "$code $start $(date +%s.%N)" >"$status_file.tmp" && mv -f "$status_file.tmp" "$status_file" || failed=1
            [ "$code" -eq 0 ] || failed=1
        fi
    fi
    k=$((k + 1))
done <"$run/tasks.tsv"
exit "$failed"
"#,
        run = sh_quote(&c.run.display().to_string()),
        taut = sh_quote(&c.taut.display().to_string()),
        stride = c.stride,
    );
    s
}

/// The merge script: `bash merge.sh`, or the Slurm job that runs after the array.
pub fn merge_script(c: &ScriptConfig) -> String {
    let mut s = script_head(c, "taut-cpd-merge", "slurm-merge-%j.out", 1);
    let _ = write!(
        s,
        r#"# Written by `cargo xtask preprocess --cpd --scheduler`: merges each map's shard files
# into its CPD with `taut cpd merge --map M --remove-shards`, which checks the shards against
# the map's mesh hash, writes the CPD, reads it back and only then deletes the shards. Line
# K of merges.tsv is "map<TAB>cpd<TAB>shard..."; output goes to logs/merge-K.log, the status
# to status/merge-K.exit ("exit start end"). A merge whose status already says 0 is skipped.
set -uo pipefail
run={run}
taut={taut}
if [ ! -r "$run/merges.tsv" ] || [ ! -w "$run/status" ] || [ ! -w "$run/logs" ]; then
    echo "merge.sh: $run/merges.tsv, status/ or logs/ cannot be used on $(hostname): is the run directory on a file system every node mounts?" >&2
    exit 2
fi
failed=0
k=0
while IFS=$'\t' read -r -a f; do
    status_file="$run/status/merge-$k.exit"
    if [ "${{#f[@]}}" -ge 3 ] && [ "$(cut -d' ' -f1 "$status_file" 2>/dev/null)" != 0 ]; then
        log="$run/logs/merge-$k.log"
        start=$(date +%s.%N)
        echo "== merge $k: ${{f[1]}} on $(hostname) at $(date -u +%FT%TZ)${{SLURM_JOB_ID:+, Slurm job $SLURM_JOB_ID}}" >>"$log"
        "$taut" cpd merge --map "${{f[0]}}" --remove-shards -o "${{f[1]}}" "${{f[@]:2}}" </dev/null >>"$log" 2>&1
        code=$?
        echo "== exit $code" >>"$log"
        echo "$code $start $(date +%s.%N)" >"$status_file.tmp" && mv -f "$status_file.tmp" "$status_file" || failed=1
        [ "$code" -eq 0 ] || failed=1
    fi
    k=$((k + 1))
done <"$run/merges.tsv"
exit "$failed"
"#,
        run = sh_quote(&c.run.display().to_string()),
        taut = sh_quote(&c.taut.display().to_string()),
    );
    s
}

/// What a finished task or merge wrote to its status file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Status {
    /// Exit code of taut.
    pub code: i32,
    /// Start, seconds since 1970.
    pub start: f64,
    /// End, seconds since 1970.
    pub end: f64,
}

/// Reads `status/KIND-K.exit`; `None` when there is none (not run, or killed) or it is not
/// three numbers.
pub fn read_status(run: &Path, kind: &str, k: usize) -> Option<Status> {
    let text = std::fs::read_to_string(run.join(format!("status/{kind}-{k}.exit"))).ok()?;
    let mut w = text.split_whitespace();
    let code = w.next()?.parse().ok()?;
    let start = w.next()?.parse().ok()?;
    let end = w.next()?.parse().ok()?;
    Some(Status { code, start, end })
}

fn ok(run: &Path, kind: &str, k: usize) -> bool {
    read_status(run, kind, k).is_some_and(|s| s.code == 0)
}

/// A new run directory `ROOT/YYYYMMDDTHHMMSSZ-SCHEDULER[-n]`.
fn new_run_dir(root: &Path, scheduler: Scheduler) -> anyhow::Result<PathBuf> {
    let secs = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let stem = format!("{}-{}", utc_stamp(secs), scheduler.name());
    let root = list_path(root)?;
    for n in 1.. {
        let dir = if n == 1 {
            root.join(&stem)
        } else {
            root.join(format!("{stem}-{n}"))
        };
        if !dir.exists() {
            return Ok(dir);
        }
    }
    unreachable!("some run directory name is free")
}

/// `YYYYMMDDTHHMMSSZ` of a Unix time (proleptic Gregorian calendar, UTC).
fn utc_stamp(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}{m:02}{d:02}T{:02}{:02}{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The taut binary to run: `--taut`, or a fresh release build.
fn taut_binary(args: &ClusterArgs, repo: &Path, out: &mut dyn Write) -> anyhow::Result<PathBuf> {
    if let Some(t) = &args.taut {
        let t = list_path(t)?;
        if !t.is_file() {
            bail!("--taut {}: no such file", t.display());
        }
        return Ok(t);
    }
    writeln!(out, "building taut: cargo build --release -p taut-cli")?;
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(repo)
        .args(["build", "--quiet", "--release", "--package", "taut-cli"])
        .status()
        .context("running cargo build")?;
    if !status.success() {
        bail!("cargo build --release -p taut-cli failed ({status})");
    }
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| repo.join("target"), PathBuf::from);
    let bin = list_path(&target.join("release/taut"))?;
    if !bin.is_file() {
        bail!("{}: not found after the build", bin.display());
    }
    Ok(bin)
}

/// Runs a sharded build of the maps `args` select.
///
/// # Errors
/// Those of planning; a scheduler that cannot be reached; tasks or merges that still fail
/// after the retries (reported with their logs).
pub fn run(args: &PreprocessArgs, repo: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let c = &args.cluster;
    let scheduler = c.scheduler.context("no --scheduler")?;
    let hub = match (args.cpd, args.hub) {
        (true, true) => bail!("--scheduler builds one kind at a time: --cpd or --hub"),
        (false, false) => bail!("say what to preprocess: --cpd or --hub"),
        (_, hub) => hub.then(|| Want::of(args)),
    };
    if hub.is_some() && c.shards.is_some() {
        bail!("--shards is for CPDs: a hub index is built by one task per map");
    }
    let workers = match c.workers {
        Some(0) => bail!("--workers must be at least 1"),
        Some(w) => w,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if scheduler == Scheduler::Slurm && c.workers.is_some() {
        bail!("--workers is for --scheduler local; Slurm decides where array tasks run");
    }
    let shards = c.shards.unwrap_or(match scheduler {
        Scheduler::Local => u32::try_from(workers).unwrap_or(u32::MAX),
        Scheduler::Slurm => 4,
    });
    let threads = match args.jobs {
        Some(0) => bail!("--jobs must be at least 1"),
        Some(n) if n > usize::from(u16::MAX) => bail!("--jobs {n}: taut takes at most 65535"),
        Some(n) => n,
        None => 1,
    };
    if c.max_array == 0 {
        bail!("--max-array must be at least 1");
    }
    let kind = if hub.is_some() { Kind::Hub } else { Kind::Cpd };
    let jobs = crate::preprocess::jobs(args, repo, kind)?;
    if jobs.is_empty() {
        bail!("no maps selected: give --suite NAME or --map FILE");
    }
    let root = c
        .work_dir
        .clone()
        .unwrap_or_else(|| repo.join(format!("target/{}-runs", kind.names().0)));
    if !c.dry_run {
        check_earlier_submission(&root, out)?;
    }
    let t0 = Instant::now();
    let plan = match hub {
        Some(want) => plan_hubs(&jobs, want, args.force)?,
        None => plan(&jobs, shards, args.force)?,
    };
    let planned = t0.elapsed();
    if hub.is_some() {
        writeln!(
            out,
            "plan: {} maps, {} up to date; {} hub indexes to build ({:.2} s)",
            jobs.len(),
            plan.up_to_date.len(),
            plan.tasks.len(),
            planned.as_secs_f64()
        )?;
    } else {
        writeln!(
            out,
            "plan: {} maps, {} up to date; {} shards per map: {} to build, {} already built; {} merges ({:.2} s)",
            jobs.len(),
            plan.up_to_date.len(),
            shards,
            plan.tasks.len(),
            plan.shards_done,
            plan.merges.len(),
            planned.as_secs_f64()
        )?;
    }
    if plan.tasks.is_empty() && plan.merges.is_empty() {
        let what = if hub.is_some() { "hub index" } else { "CPD" };
        writeln!(out, "nothing to do: every {what} is up to date")?;
        return Ok(());
    }
    let run = new_run_dir(&root, scheduler)?;
    let source = if c.dry_run {
        match &c.taut {
            Some(t) => list_path(t)?,
            None => list_path(&repo.join("target/release/taut"))?,
        }
    } else {
        taut_binary(c, repo, out)?
    };
    // The tasks run a copy in the run directory: a rebuild of target/release/taut while
    // array tasks wait in the queue must not change what they run.
    let taut = run.join("bin/taut");
    let stride = plan.tasks.len().clamp(1, c.max_array as usize);
    let config = ScriptConfig {
        run: run.clone(),
        taut: taut.clone(),
        threads,
        max_size: args
            .max_size
            .unwrap_or(taut::cpd::estimate::DEFAULT_MAX_BYTES),
        stride,
        hub,
        slurm: scheduler == Scheduler::Slurm,
        sbatch: if scheduler == Scheduler::Slurm {
            common_sbatch(c)
        } else {
            Vec::new()
        },
    };
    if scheduler == Scheduler::Slurm
        && run
            .to_str()
            .is_some_and(|s| s.contains(char::is_whitespace))
    {
        bail!(
            "{}: Slurm's #SBATCH lines cannot hold a run directory with spaces; give --work-dir",
            run.display()
        );
    }
    let mut files = vec![
        ("tasks.tsv", tasks_tsv(&plan)),
        ("shard.sh", shard_script(&config)),
    ];
    if !plan.merges.is_empty() {
        files.push(("merges.tsv", merges_tsv(&plan)));
        files.push(("merge.sh", merge_script(&config)));
    }
    if c.dry_run {
        writeln!(
            out,
            "taut: {} would be a copy of {}",
            taut.display(),
            source.display()
        )?;
        return dry_run(scheduler, &plan, &config, &files, workers, out);
    }
    for dir in ["logs", "status", "bin"] {
        std::fs::create_dir_all(run.join(dir))
            .with_context(|| format!("creating {}", run.join(dir).display()))?;
    }
    std::fs::copy(&source, &taut)
        .with_context(|| format!("copying {} to {}", source.display(), taut.display()))?;
    for (name, text) in &files {
        let p = run.join(name);
        std::fs::write(&p, text).with_context(|| format!("writing {}", p.display()))?;
    }
    for parent in plan
        .merges
        .iter()
        .map(|m| &m.cpd)
        .chain(plan.tasks.iter().map(|t| &t.cpd))
        .filter_map(|f| f.parent())
    {
        {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
    }
    writeln!(out, "run directory: {}", run.display())?;
    match scheduler {
        Scheduler::Local => run_local(&plan, &config, workers, c.retries, t0, out),
        Scheduler::Slurm => run_slurm(&plan, &config, c, &root, t0, out),
    }
}

fn dry_run(
    scheduler: Scheduler,
    plan: &Plan,
    config: &ScriptConfig,
    files: &[(&str, String)],
    workers: usize,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "dry run: nothing written, submitted or run; the run directory would be {}",
        config.run.display()
    )?;
    for (name, text) in files {
        writeln!(out, "\n---- {name}")?;
        let lines: Vec<&str> = text.lines().collect();
        let shown = if name.ends_with(".tsv") {
            20
        } else {
            lines.len()
        };
        for l in lines.iter().take(shown) {
            writeln!(out, "{l}")?;
        }
        if lines.len() > shown {
            writeln!(out, "... ({} lines in all)", lines.len())?;
        }
    }
    writeln!(out, "\n---- commands")?;
    let run = sh_quote(&config.run.display().to_string());
    match scheduler {
        Scheduler::Local => {
            if !plan.tasks.is_empty() {
                writeln!(
                    out,
                    "bash {run}/shard.sh K   for K in 0..{}, {workers} at a time",
                    plan.tasks.len()
                )?;
            }
            if !plan.merges.is_empty() {
                writeln!(out, "bash {run}/merge.sh")?;
            }
        }
        Scheduler::Slurm => {
            let array = (!plan.tasks.is_empty()).then(|| {
                format!(
                    "sbatch --parsable --array={} {run}/shard.sh",
                    ranges(&(0..config.stride).collect())
                )
            });
            if plan.merges.is_empty() {
                if let Some(a) = &array {
                    writeln!(out, "{a}")?;
                }
            } else if let Some(a) = &array {
                writeln!(out, "{a}   # prints the array job id A")?;
                writeln!(
                    out,
                    "sbatch --parsable --dependency=afterok:A --kill-on-invalid-dep=yes {run}/merge.sh"
                )?;
            } else {
                writeln!(out, "sbatch --parsable {run}/merge.sh")?;
            }
        }
    }
    Ok(())
}

/// Slurm's array syntax for a set of indices: `0-3,7,9-10`.
pub fn ranges(set: &BTreeSet<usize>) -> String {
    let mut parts = Vec::new();
    let mut it = set.iter().copied().peekable();
    while let Some(a) = it.next() {
        let mut b = a;
        while it.peek() == Some(&(b + 1)) {
            b += 1;
            it.next();
        }
        parts.push(if a == b {
            a.to_string()
        } else {
            format!("{a}-{b}")
        });
    }
    parts.join(",")
}

/// The tasks (indices into `plan.tasks`) that have not succeeded.
fn failed_tasks(plan: &Plan, run: &Path) -> Vec<usize> {
    (0..plan.tasks.len())
        .filter(|&k| !ok(run, "task", k))
        .collect()
}

fn failed_merges(plan: &Plan, run: &Path) -> Vec<usize> {
    (0..plan.merges.len())
        .filter(|&k| !ok(run, "merge", k))
        .collect()
}

/// The last `n` lines of a file, indented.
fn tail(path: &Path, n: usize) -> String {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let lines: Vec<&str> = text.lines().collect();
            lines[lines.len().saturating_sub(n)..]
                .iter()
                .map(|l| format!("      | {l}\n"))
                .collect()
        }
        Err(_) => "      (no log)\n".to_owned(),
    }
}

/// What went wrong with failed tasks and merges, each with its log's last lines.
fn failure_report(
    plan: &Plan,
    config: &ScriptConfig,
    tasks: &[usize],
    merges: &[usize],
    scheduler_log: &dyn Fn(usize) -> String,
) -> String {
    let run = &config.run;
    let mut s = String::new();
    const SHOWN: usize = 8;
    for &k in tasks.iter().take(SHOWN) {
        let t = &plan.tasks[k];
        let log = run.join(format!("logs/task-{k}.log"));
        let why = match read_status(run, "task", k) {
            Some(st) => format!("exit {}", st.code),
            None => format!(
                "no exit status: the task was not run to its end (killed by the scheduler: \
                 time limit, memory, node failure?); see {}",
                scheduler_log(k % config.stride)
            ),
        };
        let _ = writeln!(
            s,
            "  task {k}, {} of {}: {why}; log {}",
            t.what(),
            t.label,
            log.display()
        );
        s.push_str(&tail(&log, 6));
    }
    if tasks.len() > SHOWN {
        let _ = writeln!(s, "  ... and {} more tasks", tasks.len() - SHOWN);
    }
    for &k in merges.iter().take(SHOWN) {
        let m = &plan.merges[k];
        let log = run.join(format!("logs/merge-{k}.log"));
        let why = read_status(run, "merge", k).map_or_else(
            || "not run to its end".to_owned(),
            |st| format!("exit {}", st.code),
        );
        let _ = writeln!(s, "  merge {k}, {}: {why}; log {}", m.label, log.display());
        s.push_str(&tail(&log, 6));
    }
    if merges.len() > SHOWN {
        let _ = writeln!(s, "  ... and {} more merges", merges.len() - SHOWN);
    }
    s
}

/// Span (first start to last end) and total of the statuses of `kind` 0..n.
fn span(run: &Path, kind: &str, n: usize) -> (f64, f64) {
    let st: Vec<Status> = (0..n).filter_map(|k| read_status(run, kind, k)).collect();
    if st.is_empty() {
        return (0.0, 0.0);
    }
    let first = st.iter().map(|s| s.start).fold(f64::INFINITY, f64::min);
    let last = st.iter().map(|s| s.end).fold(f64::NEG_INFINITY, f64::max);
    (last - first, st.iter().map(|s| s.end - s.start).sum())
}

fn summary(
    plan: &Plan,
    config: &ScriptConfig,
    how: &str,
    retried: usize,
    t0: Instant,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let run = &config.run;
    let (task_span, task_busy) = span(run, "task", plan.tasks.len());
    let (merge_span, _) = span(run, "merge", plan.merges.len());
    let wall = t0.elapsed().as_secs_f64();
    writeln!(out, "{:<14} {how}", "scheduler")?;
    if plan.hub.is_some() {
        writeln!(
            out,
            "{:<14} {} hub indexes built, {} up to date, {} run again",
            "maps",
            plan.tasks.len(),
            plan.up_to_date.len(),
            retried
        )?;
    } else {
        writeln!(
            out,
            "{:<14} {} merged, {} up to date",
            "maps",
            plan.merges.len(),
            plan.up_to_date.len()
        )?;
        writeln!(
            out,
            "{:<14} {} built ({} per map), {} already built, {} run again",
            "shards",
            plan.tasks.len(),
            plan.shards,
            plan.shards_done,
            retried
        )?;
    }
    writeln!(
        out,
        "{:<14} {task_span:.2} s from the first task's start to the last one's end ({task_busy:.2} s of tasks, {} threads each)",
        format!("{} phase", plan.unit()),
        config.threads
    )?;
    if !plan.merges.is_empty() {
        writeln!(
            out,
            "{:<14} {merge_span:.2} s (mesh hash checked, read back, shards deleted)",
            "merge phase"
        )?;
    }
    writeln!(
        out,
        "{:<14} {:.2} s (planning, scheduling and waiting included)",
        "wall time", wall
    )?;
    writeln!(out, "{:<14} {}", "run directory", run.display())?;
    Ok(())
}

/// Runs `bash SCRIPT ARG` for every arg of `items`, `workers` at a time; the script's own
/// output goes to `logs/local-NAME-ARG.out`.
fn run_pool(
    config: &ScriptConfig,
    script: &str,
    items: &[usize],
    workers: usize,
    bar: &indicatif::ProgressBar,
) -> anyhow::Result<()> {
    let next = AtomicUsize::new(0);
    let errors = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..workers.min(items.len()).max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&arg) = items.get(i) else { break };
                    let log = config.run.join(format!(
                        "logs/local-{}-{arg}.out",
                        script.trim_end_matches(".sh")
                    ));
                    let result = std::fs::File::create(&log).and_then(|f| {
                        let err = f.try_clone()?;
                        Command::new("bash")
                            .arg(config.run.join(script))
                            .arg(arg.to_string())
                            .stdin(Stdio::null())
                            .stdout(f)
                            .stderr(err)
                            .status()
                    });
                    if let Err(e) = result {
                        errors
                            .lock()
                            .expect("not poisoned")
                            .push(format!("running bash {script} {arg}: {e}"));
                    }
                    bar.inc(1);
                }
            });
        }
    });
    let errors = errors.into_inner().expect("not poisoned");
    if let Some(e) = errors.first() {
        bail!("{e}");
    }
    Ok(())
}

fn bar(len: usize, what: &str) -> indicatif::ProgressBar {
    let b = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(len as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    b.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{what:>8} [{{bar:30}}] {{pos}}/{{len}} ({{elapsed_precise}}, {{eta}} left)"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    b
}

fn run_local(
    plan: &Plan,
    config: &ScriptConfig,
    workers: usize,
    retries: u32,
    t0: Instant,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let mut retried = 0;
    let mut pending: Vec<usize> = (0..config.stride.min(plan.tasks.len())).collect();
    for round in 0..=retries {
        if pending.is_empty() {
            break;
        }
        let b = bar(
            pending.len(),
            if plan.hub.is_some() { "hubs" } else { "shards" },
        );
        run_pool(config, "shard.sh", &pending, workers, &b)?;
        b.finish_and_clear();
        let failed = failed_tasks(plan, &config.run);
        if failed.is_empty() {
            break;
        }
        if round == retries {
            bail!(
                "{} of {} {} tasks failed{}{}:\n{}re-run the command to build only what is missing",
                failed.len(),
                plan.tasks.len(),
                plan.unit(),
                if retries > 0 {
                    format!(" after {retries} retries")
                } else {
                    String::new()
                },
                if plan.merges.is_empty() {
                    ""
                } else {
                    ", so no map was merged"
                },
                failure_report(plan, config, &failed, &[], &|j| {
                    config
                        .run
                        .join(format!("logs/local-shard-{j}.out"))
                        .display()
                        .to_string()
                })
            );
        }
        writeln!(
            out,
            "{} tasks failed; running them again ({} of {retries}): {}",
            failed.len(),
            round + 1,
            failed
                .iter()
                .map(|&k| format!("{} of {}", plan.tasks[k].what(), plan.tasks[k].label))
                .collect::<Vec<_>>()
                .join(", ")
        )?;
        retried += failed.len();
        pending = failed
            .iter()
            .map(|&k| k % config.stride)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
    }
    for round in 0..=retries {
        if plan.merges.is_empty() {
            break;
        }
        let b = bar(1, "merge");
        run_pool(config, "merge.sh", &[0], 1, &b)?;
        b.finish_and_clear();
        let failed = failed_merges(plan, &config.run);
        if failed.is_empty() {
            break;
        }
        if round == retries {
            bail!(
                "{} of {} merges failed:\n{}",
                failed.len(),
                plan.merges.len(),
                failure_report(plan, config, &[], &failed, &|_| String::new())
            );
        }
        writeln!(out, "{} merges failed; running them again", failed.len())?;
    }
    summary(
        plan,
        config,
        &format!("local, {workers} workers"),
        retried,
        t0,
        out,
    )
}

/// Runs a Slurm command, returning its stdout; the error names the command and its stderr.
fn slurm_cmd(program: &str, args: &[String]) -> anyhow::Result<String> {
    let output = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .with_context(|| {
            format!("running {program}: is Slurm installed here (a login node)? --scheduler local runs without it")
        })?;
    if !output.status.success() {
        bail!(
            "{program} {} failed ({}): {}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Submits a script; returns the job id.
fn sbatch(args: &[String]) -> anyhow::Result<String> {
    let mut all = vec!["--parsable".to_owned()];
    all.extend_from_slice(args);
    let text = slurm_cmd("sbatch", &all)?;
    // `--parsable` prints "ID" or "ID;CLUSTER".
    let id = text.trim().split(';').next().unwrap_or("").to_owned();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        bail!("sbatch printed {:?}, not a job id", text.trim());
    }
    Ok(id)
}

/// The jobs of `ids` still queued or running, as `squeue` lists them ("ID STATE REASON"
/// lines).
fn queued(ids: &[String]) -> anyhow::Result<Vec<String>> {
    let args = vec![
        "-h".to_owned(),
        "-o".to_owned(),
        "%i %T %r".to_owned(),
        "-j".to_owned(),
        ids.join(","),
    ];
    match slurm_cmd("squeue", &args) {
        Ok(text) => Ok(text.lines().map(str::to_owned).collect()),
        // Jobs that have left the controller's memory are not an error: they are done.
        Err(e) if e.to_string().contains("Invalid job id") => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

/// Refuses to start while the jobs of an earlier Slurm submission under `root` are queued or
/// running (they would build the same shards twice); once they are done, reports what that
/// submission left failed or unfinished.
fn check_earlier_submission(root: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let active = active_file(root);
    if let Ok(text) = std::fs::read_to_string(&active) {
        let mut lines = text.lines();
        let earlier = lines.next().unwrap_or("").to_owned();
        let ids: Vec<String> = lines.map(str::to_owned).filter(|l| !l.is_empty()).collect();
        if !ids.is_empty() {
            let left = queued(&ids)?;
            if left.is_empty() {
                // Said once: the next run does not repeat it.
                std::fs::remove_file(&active).ok();
                let report = earlier_failures(Path::new(&earlier));
                if !report.is_empty() {
                    writeln!(
                        out,
                        "the earlier submission ({earlier}) did not finish everything:\n{report}\
                         submitting what is missing"
                    )?;
                }
            } else {
                bail!(
                    "jobs {} of an earlier submission ({earlier}) are still queued or running: \
                     wait for them (squeue -j {}) or cancel them (scancel {}), then re-run",
                    ids.join(", "),
                    ids.join(","),
                    ids.join(" ")
                );
            }
        }
    }
    Ok(())
}

/// The failed or unfinished tasks and merges of an earlier run directory, one line each
/// with its log (empty when every one of them succeeded).
fn earlier_failures(run: &Path) -> String {
    let mut s = String::new();
    let mut tasks_failed = false;
    for (kind, list) in [("task", "tasks.tsv"), ("merge", "merges.tsv")] {
        let Ok(text) = std::fs::read_to_string(run.join(list)) else {
            continue;
        };
        for (k, line) in text.lines().enumerate() {
            let what = match read_status(run, kind, k) {
                Some(st) if st.code == 0 => continue,
                Some(st) => format!("exit {}", st.code),
                None if kind == "merge" && tasks_failed => {
                    "not run (shard tasks failed, so the merge job was cancelled)".to_owned()
                }
                None => "not run to its end".to_owned(),
            };
            tasks_failed |= kind == "task";
            let mut f = line.split('\t');
            let map = f.next().unwrap_or("");
            let shard = match (kind, f.nth(1)) {
                ("task", Some("hub")) => " hub index".to_owned(),
                ("task", spec) => format!(" shard {}", spec.unwrap_or("?")),
                _ => String::new(),
            };
            let _ = writeln!(
                s,
                "  {kind} {k}{shard} of {map}: {what}; log {}",
                run.join(format!("logs/{kind}-{k}.log")).display()
            );
        }
    }
    s
}

/// The file that records the jobs of the latest submission under a work directory.
fn active_file(root: &Path) -> PathBuf {
    root.join("slurm-active")
}

fn run_slurm(
    plan: &Plan,
    config: &ScriptConfig,
    c: &ClusterArgs,
    root: &Path,
    t0: Instant,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let active = active_file(root);
    let run = &config.run;
    let script_log = |j: usize| {
        run.join(format!("logs/slurm-*_{j}.out"))
            .display()
            .to_string()
    };
    let mut pending: BTreeSet<usize> = (0..config.stride.min(plan.tasks.len())).collect();
    let mut retried = 0;
    let mut submitted = Vec::new();
    let record = |ids: &[String]| {
        std::fs::write(&active, format!("{}\n{}\n", run.display(), ids.join("\n")))
            .with_context(|| format!("writing {}", active.display()))
    };
    let waiting = Instant::now();
    for round in 0..=c.retries {
        let array = if pending.is_empty() {
            None
        } else {
            let a = sbatch(&[
                format!("--array={}", ranges(&pending)),
                run.join("shard.sh").display().to_string(),
            ])?;
            record(std::slice::from_ref(&a))?;
            Some(a)
        };
        if plan.merges.is_empty() {
            // Hub indexes: the array is the whole work.
            let Some(a) = &array else {
                bail!("nothing was submitted: no task is pending");
            };
            submitted.push(a.clone());
            writeln!(
                out,
                "submitted array job {a} ({} array tasks for {} hub indexes)",
                pending.len(),
                plan.tasks.len()
            )?;
        }
        let merge = if plan.merges.is_empty() {
            None
        } else {
            let mut merge_args = Vec::new();
            if let Some(a) = &array {
                merge_args.push(format!("--dependency=afterok:{a}"));
                merge_args.push("--kill-on-invalid-dep=yes".to_owned());
            }
            merge_args.push(run.join("merge.sh").display().to_string());
            Some(match sbatch(&merge_args) {
                Ok(m) => m,
                Err(e) => {
                    // Without its merge job the array would build shards nobody merges.
                    if let Some(a) = &array {
                        let cancelled = slurm_cmd("scancel", std::slice::from_ref(a)).is_ok();
                        if cancelled {
                            std::fs::remove_file(&active).ok();
                        }
                        return Err(e.context(format!(
                            "submitting the merge job failed, so array job {a} was {}",
                            if cancelled {
                                "cancelled"
                            } else {
                                "left queued (scancel failed too)"
                            }
                        )));
                    }
                    return Err(e);
                }
            })
        };
        let ids: Vec<String> = array.iter().cloned().chain(merge.clone()).collect();
        if let Some(merge) = &merge {
            record(&ids)?;
            submitted.extend(ids.iter().cloned());
            match &array {
                Some(a) => writeln!(
                    out,
                    "submitted array job {a} ({} array tasks for {} shards) and merge job {merge} \
                     (runs when every array task has succeeded)",
                    pending.len(),
                    plan.tasks.len()
                )?,
                None => writeln!(out, "submitted merge job {merge} (every shard is built)")?,
            }
        }
        if !c.wait {
            writeln!(
                out,
                "not waiting (--wait waits, retries and reports): follow them with `squeue -j {}`; \
                 logs in {}/logs; when they are done, re-run this command: it submits only \
                 what is missing, and reports the failures",
                ids.join(","),
                run.display()
            )?;
            return Ok(());
        }
        let mut last = String::new();
        let mut last_said = None;
        let mut squeue_errors = 0;
        loop {
            let left = match queued(&ids) {
                Ok(left) => {
                    squeue_errors = 0;
                    left
                }
                // A controller busy for a moment: look again, up to 5 times in a row.
                Err(e) if squeue_errors < 4 => {
                    squeue_errors += 1;
                    writeln!(out, "  squeue failed ({e}); trying again")?;
                    std::thread::sleep(Duration::from_secs_f64(c.poll.max(0.05) * 2.0));
                    continue;
                }
                Err(e) => return Err(e.context("squeue failed 5 times in a row")),
            };
            if left.is_empty() {
                break;
            }
            if let Some(limit) = c.wait_timeout
                && waiting.elapsed().as_secs_f64() > limit
            {
                bail!(
                    "jobs {} still queued or running after {limit} s ({last}); they go on: \
                     follow them with `squeue -j {}` and re-run this command when they are \
                     done, or cancel them with `scancel {}`",
                    ids.join(", "),
                    ids.join(","),
                    ids.join(" ")
                );
            }
            let mut states: Vec<(String, usize)> = Vec::new();
            for l in &left {
                let mut w = l.split_whitespace();
                let st = w.nth(1).unwrap_or("?").to_owned();
                // A pending job's reason, when it says something is wrong (a partition
                // down, a node not available, a limit) rather than that it waits its turn.
                let st = match w.next() {
                    Some(r)
                        if st == "PENDING"
                            && !matches!(
                                r,
                                "None" | "Priority" | "Resources" | "Dependency" | "BeginTime"
                            ) =>
                    {
                        format!("{st} ({r})")
                    }
                    _ => st,
                };
                match states.iter_mut().find(|(s, _)| *s == st) {
                    Some(e) => e.1 += 1,
                    None => states.push((st, 1)),
                }
            }
            let finished = (0..plan.tasks.len())
                .filter(|&k| read_status(run, "task", k).is_some())
                .count();
            let now = format!(
                "{finished}/{} {}s finished; jobs: {}",
                plan.tasks.len(),
                plan.unit(),
                states
                    .iter()
                    .map(|(s, n)| format!("{n} {}", s.to_lowercase()))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            // A line when something changed, at most one each 30 s (and the first at once).
            if now != last && last_said.is_none_or(|t: Instant| t.elapsed().as_secs() >= 30) {
                writeln!(out, "  [{:>7.1} s] {now}", t0.elapsed().as_secs_f64())?;
                last = now;
                last_said = Some(Instant::now());
            }
            std::thread::sleep(Duration::from_secs_f64(c.poll.max(0.05)));
        }
        let failed = failed_tasks(plan, run);
        let merges_failed = failed_merges(plan, run);
        if failed.is_empty() && merges_failed.is_empty() {
            std::fs::remove_file(&active).ok();
            return summary(
                plan,
                config,
                &format!("slurm, jobs {}", submitted.join(" ")),
                retried,
                t0,
                out,
            );
        }
        if round == c.retries {
            std::fs::remove_file(&active).ok();
            let after = if c.retries > 0 {
                format!(" after {} retries", c.retries)
            } else {
                String::new()
            };
            let what = if failed.is_empty() {
                format!(
                    "{} of {} merges failed{after}",
                    merges_failed.len(),
                    plan.merges.len()
                )
            } else if plan.merges.is_empty() {
                format!(
                    "{} of {} hub tasks failed{after}",
                    failed.len(),
                    plan.tasks.len()
                )
            } else {
                format!(
                    "{} of {} shard tasks failed{after}, so Slurm cancelled the merge job \
                     (--dependency=afterok)",
                    failed.len(),
                    plan.tasks.len()
                )
            };
            let merges_shown: &[usize] = if failed.is_empty() {
                &merges_failed
            } else {
                &[]
            };
            bail!(
                "{what}:\n{}Slurm's own logs are {}/logs/slurm-*.out; re-run the command to \
                 submit only what is missing",
                failure_report(plan, config, &failed, merges_shown, &script_log),
                run.display()
            );
        }
        if failed.is_empty() {
            writeln!(
                out,
                "{} merges failed; submitting the merge job again ({} of {})",
                merges_failed.len(),
                round + 1,
                c.retries
            )?;
        } else if plan.merges.is_empty() {
            writeln!(
                out,
                "{} hub tasks failed; submitting them again ({} of {})",
                failed.len(),
                round + 1,
                c.retries
            )?;
        } else {
            writeln!(
                out,
                "{} shard tasks failed, so Slurm cancelled the merge job; submitting them \
                 again ({} of {})",
                failed.len(),
                round + 1,
                c.retries
            )?;
        }
        retried += failed.len();
        pending = failed.iter().map(|&k| k % config.stride).collect();
    }
    unreachable!("the last round returns")
}

#[cfg(test)]
mod tests;
