#!/bin/bash
# usage: check-regions.sh TAUT OUTDIR MAP... : builds g in $GS, runs 2018 + legacy scen, checks vs references
set -u
TAUT=$1; O=$2; shift 2; mkdir -p $O
S=/work/shared/data/suites; G=/work/shared/data/grid
for m in "$@"; do
  me=$S/merged-mesh/dao/$m-merged.mesh; mp=$S/grid/dao/$m.map
  for g in ${GS:-1 4 8 16 32 64}; do
    /usr/bin/time -f "%e s %M KB" -o $O/$m.r$g.time $TAUT hub build --map $mp --mesh $me -o $O/$m.r$g.hub --region $g --jobs 2 > $O/$m.r$g.build.txt 2>&1
    $TAUT scen --algo hub --hub $O/$m.r$g.hub --mesh $me --map $mp --scen $G/scen/$m.map.scen --format csv > $O/$m.r$g.csv 2>/dev/null
    echo "$m g=$g $(cat $O/$m.r$g.time) $(grep -o '[0-9.]* MB' $O/$m.r$g.build.txt)"
  done
done
