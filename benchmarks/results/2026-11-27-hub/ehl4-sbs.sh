#!/bin/bash
# EHL-4 beside taut with regions of 2 (and the full index), same merged meshes, same 2018 queries.
set -u
export DATA=/work/shared/data; S=$DATA/suites; G=$DATA/grid; TAUT=/work/main/target/release/taut; O=/tmp/hubsbs/out3; mkdir -p $O
EHL=/work/anchors/ehl
for m in "$@"; do
  me=$S/merged-mesh/dao/$m-merged.mesh; mp=$S/grid/dao/$m.map; s=$G/scen/$m.map.scen
  $EHL/ehl_prep.sh dao $m 4 > $O/$m.ehl-prep4.txt 2>&1
  for g in 1 2; do
    /usr/bin/time -f "taut hub build: %e s wall, %U s user, %M KB maxrss" -o $O/$m.r$g.build.txt \
      $TAUT hub build --map $mp --mesh $me -o $O/$m.r$g.hub --region $g --jobs 2 >> $O/$m.r$g.build.txt 2>&1
  done
  for run in 1 2; do
    $EHL/ehl_run.sh dao $m 4 $s --warm 1 --reps 1 > $O/$m.ehl4.$run.csv 2>/dev/null
    for g in 1 2; do
      $TAUT scen --algo hub --hub $O/$m.r$g.hub --mesh $me --map $mp --scen $s --format csv > $O/$m.r$g.$run.csv 2>/dev/null
    done
  done
  echo "$m done $(date +%T)"
done
