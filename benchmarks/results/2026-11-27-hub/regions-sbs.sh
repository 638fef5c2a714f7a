#!/bin/bash
# Regions: taut hub --region G (G = 4 8 16 32 64) beside EHL-1/16/64 (indexes of run.sh), same merged meshes, same 2018 queries.
set -u
export DATA=/work/shared/data; S=$DATA/suites; G=$DATA/grid; TAUT=${TAUT:-/tmp/hubsbs/taut}; O=/tmp/hubsbs/out2; mkdir -p $O
EHL=/work/anchors/ehl
for m in "$@"; do
  me=$S/merged-mesh/dao/$m-merged.mesh; mp=$S/grid/dao/$m.map; s=$G/scen/$m.map.scen
  for g in 4 8 16 32 64; do
    /usr/bin/time -f "taut hub build: %e s wall, %U s user, %M KB maxrss" -o $O/$m.r$g.build.txt \
      $TAUT hub build --map $mp --mesh $me -o $O/$m.r$g.hub --region $g --jobs 2 >> $O/$m.r$g.build.txt 2>&1
  done
  for run in 1 2; do
    for e in 1 16 64; do
      $EHL/ehl_run.sh dao $m $e $s --warm 1 --reps 1 > $O/$m.ehl$e.$run.csv 2>/dev/null
    done
    for g in 4 8 16 32 64; do
      $TAUT scen --algo hub --hub $O/$m.r$g.hub --mesh $me --map $mp --scen $s --format csv > $O/$m.r$g.$run.csv 2>/dev/null
    done
  done
  echo "$m done $(date +%T)"
done
