#!/bin/bash
# Cost against side: taut ray and anya (`taut scen --repeat 1`) and RayScan portable
# (`rayscan_bench_portable MAP SCEN WARM REPS`) on the generated maps of KINDS at 512² to 4096²,
# one map at a time, one program at a time. Writes one CSV per (map, program) into $O and
# prints nothing else; fit.py reads them.
# At 4096² only the first $LIMIT4096 queries run (a bad Anya query there takes a minute).
set -u
cd "$(dirname "$0")/../../.."
T=target/release/taut; R=/tmp/anchors/rayscan/rayscan_bench_portable
G=target/big-maps; O=${O:-/tmp/big-exp}; mkdir -p "$O"
KINDS=${KINDS:-"walls traps"}; SIDES=${SIDES:-"512 1024 2048 4096"}; LIMIT4096=${LIMIT4096:-10}
for k in $KINDS; do for n in $SIDES; do
  m=big-$k-$n-0; s=$G/$m.map.scen
  if [ "$n" -ge 4096 ]; then head -n $((LIMIT4096 + 1)) "$s" > "$O/$m.scen"; s=$O/$m.scen; fi
  warm=1; [ "$n" -ge 2048 ] && warm=0
  for a in ray anya; do
    timeout 1800 $T scen --map $G/$m.map --scen "$s" --algo $a --repeat 1 > "$O/$m.$a.csv" || echo "$m $a: exit $?" >&2
  done
  timeout 1800 $R $G/$m.map "$s" $warm 1 > "$O/$m.rayscan.csv" 2>/dev/null || echo "$m rayscan: exit $?" >&2
done; done
