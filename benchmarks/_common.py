"""Helpers shared by the stop-gap benchmark scripts (baselines-2018.py, anya-2018.py) until the
taut-bench crate (`cargo xtask bench`) lands: the suites, the paths, sampling the 2018 scenario
files, running `taut scen` (each run starts with an untimed warm-up query), and the
machine/commit/date header line.

Environment: SAMPLE=k runs every k-th query of each scenario file (k=1: all); RAW_DIR=dir keeps
the csv output of every run (original query indices, no warm-up row); CARGO_TARGET_DIR locates the release `taut` binary.
"""
import csv, datetime, io, os, platform, subprocess, sys, tempfile

SUITES = {
    "dao": "arena arena2 brc202d den011d den312d den520d hrt201n lak303d orz702d orz900d ost000a ost000t ost100d",
    "sc1": "AcrosstheCape ArcticStation Aurora BigGameHunters Enigma Inferno JungleSiege Ramparts TheFrozenSea WheelofWar",
    "bg512": "AR0011SR AR0012SR AR0041SR AR0205SR AR0306SR AR0400SR AR0602SR AR0700SR",
    "da2": "ca_cave ht_chantry lt_0_lowtown w_woundedcoast",
    "street": "Berlin_0_256 Boston_0_512 Paris_0_512",
    "wc3": "battleground blastedlands duskwood",
    "rooms": "8room_000 32room_000",
    "mazes": "maze512-1-0 maze512-4-0",
    "random": "random512-10-0 random512-15-0 random512-20-0 random512-25-0 random512-30-0 random512-35-0 random512-40-0 random512-40-1",
}

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "data")
TAUT = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "taut")
SAMPLE = int(os.environ.get("SAMPLE", "1"))
RAW_DIR = os.environ.get("RAW_DIR")

_tmp = tempfile.mkdtemp(prefix="taut-bench-")


def check_binary():
    """Exits with a message when the release binary is missing; warns when a source file is newer."""
    if not os.path.exists(TAUT):
        sys.exit(f"no release binary at {TAUT}: run `cargo build --release -p taut-cli` "
                 "(with the same CARGO_TARGET_DIR)")
    built = os.path.getmtime(TAUT)
    for d, _, files in os.walk(os.path.join(ROOT, "crates")):
        if any(f.endswith(".rs") and os.path.getmtime(os.path.join(d, f)) > built for f in files):
            print(f"warning: {TAUT} is older than sources under {d}; rebuild it", file=sys.stderr)
            return


def scen_file(m):
    """The scenario file of map `m` reduced to every SAMPLE-th query and preceded by a warm-up
    query (a copy of the last one kept: `taut scen` times every query in one process, and the
    first query pays for growing the planner's buffers and first-touch page faults, which
    would distort sampled runs), and the original 0-based index of each timed query (the
    `idx` of optimal/scen.csv). None when `m` has no scenario file."""
    scen = os.path.join(DATA, "grid", "scen", m + ".map.scen")
    if not os.path.exists(scen):
        return None
    lines = open(scen).read().splitlines()
    queries = [l for l in lines[1:] if l.strip()]
    kept = list(range(0, len(queries), SAMPLE))
    sampled = os.path.join(_tmp, m + ".map.scen")
    with open(sampled, "w") as f:
        f.write("\n".join([lines[0], queries[kept[-1]]] + [queries[i] for i in kept]) + "\n")
    return sampled, kept


def run(m, args, name=None):
    """Runs `taut scen` on map `m` with the extra arguments `args` (e.g. ["--algo", "astar"]).
    Returns {original query index: csv row (dict of strings)} without the warm-up query, or
    None when `m` has no scenario. `name` names the RAW_DIR copy `m.name.csv` (default: the
    arguments joined): the csv output without the warm-up row, `index` rewritten to the
    original query index."""
    sc = scen_file(m)
    if sc is None:
        return None
    scen, orig = sc
    out = subprocess.run([TAUT, "scen", "--map", os.path.join(DATA, "grid", "maps", m + ".map"),
                          "--scen", scen] + args, check=True, capture_output=True, text=True).stdout
    rows = list(csv.DictReader(io.StringIO(out)))[1:]
    if len(rows) != len(orig):
        sys.exit(f"{m} {' '.join(args)}: {len(rows)} rows for {len(orig)} queries")
    for r in rows:
        r["index"] = str(orig[int(r["index"]) - 1])
    if RAW_DIR:
        os.makedirs(RAW_DIR, exist_ok=True)
        name = name or "_".join(a.lstrip("-") for a in args)
        with open(os.path.join(RAW_DIR, f"{m}.{name}.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else [], lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    return {int(r["index"]): r for r in rows}


def cpu():
    """The CPU model name."""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def commit():
    """`git rev-parse --short HEAD`, with `-dirty` when the work tree has uncommitted changes."""
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return head + ("-dirty" if dirty else "")


def header_line():
    """Machine, commit, date and sampling, for the top of every result file."""
    return (f"machine: {cpu()}, {os.cpu_count()} cores; commit {commit()}; date {datetime.date.today()}; "
            + ("every query of each file" if SAMPLE == 1 else f"every {SAMPLE}th query of each file (SAMPLE={SAMPLE})"))
