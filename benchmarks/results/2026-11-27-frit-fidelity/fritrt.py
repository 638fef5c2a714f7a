#!/usr/bin/env python3
"""FRIT_RT / p-FRIT_RT and daRTAA* / p-FRIT_RT at the paper's two lookaheads (1 and 16) from
the larger runs of issue 27: every `*.csv.gz` in this folder (or the files given as arguments), each the (map,
problem, algo, lookahead, status, cost) columns of a `taut-bench frit` run's runs.csv; files
whose names start with the same profile (`paper-`, `taut-`) are merged problem by problem. Ratio of mean costs with a 95 % bootstrap interval
(`combine.ratio`: problems resampled within each map, 2,000 resamples, as
`taut_bench::frit::cost_ratio`), the geometric mean of per-problem ratios, and the cut-off
counts.

Usage: fritrt.py [RUN.csv[.gz] ...]
"""
import collections, gzip, os, sys

from combine import parse, ratio

HERE = os.path.dirname(os.path.abspath(__file__))
PAPER = {('frit-rt', 1): 8.3, ('frit-rt', 16): 4.5, ('dartaa', 1): 6.9, ('dartaa', 16): 2.7}
NAMES = {'frit-rt': 'FRIT_RT', 'dartaa': 'daRTAA\\*'}


def load(path):
    """The costs of one run's file (gzipped or not), as `combine.parse` reads them."""
    with (gzip.open if path.endswith('.gz') else open)(path, 'rt') as f:
        return parse(f)


def main():
    paths = sys.argv[1:] or sorted(os.path.join(HERE, n) for n in os.listdir(HERE) if n.endswith('.csv.gz'))
    # Runs of one profile (the file name's first word) are merged problem by problem: an
    # extension run (`--first-problem`) adds problems to an earlier one.
    profiles = collections.defaultdict(lambda: collections.defaultdict(dict))
    for p in paths:
        profile = os.path.basename(p).split('-')[0]
        for key, runs in load(p).items():
            profiles[profile][key].update(runs)
    print('| profile | ratio | k | paper | ours [95 %] | half-width | geometric mean | numerator runs cut off | problems (maps) |')
    print('|---|---|---|---|---|---|---|---|---|')
    for name, runs in sorted(profiles.items()):
        for algo in ('frit-rt', 'dartaa'):
            for k in (1, 16):
                if (algo, k) not in runs or ('p-frit-rt', k) not in runs:
                    continue
                a, b = runs[(algo, k)], runs[('p-frit-rt', k)]
                v, lo, hi, geo, ca, cb, n = ratio(a, b)
                maps = len({m for m, _ in set(a) & set(b)})
                half = f'-{(1 - lo / v) * 100:.0f} % / +{(hi / v - 1) * 100:.0f} %'
                cut = f'{ca:,} of {n:,}' + (f' (p-FRIT_RT: {cb})' if cb else '')
                print(f'| {name} | {NAMES[algo]} / p-FRIT_RT | {k} | {PAPER[(algo, k)]} | {v:.2f} [{lo:.2f}, {hi:.2f}] | {half} | {geo:.2f} | {cut} | {n:,} ({maps}) |')

if __name__ == '__main__':
    main()
