#!/bin/bash
# Build time of `taut hub build --budget B` (B: EHL-64's index size, docs/hub.md) for several
# taut binaries, interleaved run by run so that the machine's drift hits them alike.
# usage: RUNS=3 ab.sh NAME=BINARY... -- MAP...   (prints: map binary run seconds maxrss_kb)
set -u
S=${DATA:-/work/shared/data}/suites
declare -A budget=([arena2]=1680000 [den520d]=3580000 [brc202d]=6020000 [orz900d]=13280000 [ost100d]=51350000)
bins=(); while [ "$1" != "--" ]; do bins+=("$1"); shift; done; shift
for m in "$@"; do
  for run in $(seq ${RUNS:-3}); do
    for nb in "${bins[@]}"; do
      name=${nb%%=*}; bin=${nb#*=}
      /usr/bin/time -f "%e %M" -o /tmp/ab.time "$bin" hub build --map "$S/grid/dao/$m.map" \
        --mesh "$S/merged-mesh/dao/$m-merged.mesh" -o "/tmp/ab-$name.hub" --budget "${budget[$m]}" --jobs 2 > /dev/null 2>&1
      echo "$m $name $run $(cat /tmp/ab.time)"
    done
    cmp -s "/tmp/ab-${bins[0]%%=*}.hub" "/tmp/ab-${bins[-1]%%=*}.hub" || echo "$m: files differ"
  done
done
