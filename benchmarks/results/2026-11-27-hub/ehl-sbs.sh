#!/bin/bash
# Side by side: EHL (goldi1027/EHL) at grid sizes 1/16/64 vs taut hub labels, same merged meshes, same 2018 queries.
set -u
export DATA=/work/shared/data; S=$DATA/suites; G=$DATA/grid; TAUT=${TAUT:-/tmp/hubsbs/taut}; O=/tmp/hubsbs/out; mkdir -p $O
EHL=/work/anchors/ehl; sizes="1 16 64"
for m in "$@"; do
  me=$S/merged-mesh/dao/$m-merged.mesh; mp=$S/grid/dao/$m.map; s=$G/scen/$m.map.scen
  if [ -z "${SKIP_PREP:-}" ]; then
    $EHL/ehl_prep.sh dao $m $sizes > $O/$m.ehl-prep.txt 2>&1 || { echo "$m: EHL prep failed"; cat $O/$m.ehl-prep.txt; continue; }
    /usr/bin/time -f "taut hub build: %e s wall, %U s user, %M KB maxrss" -o $O/$m.taut-build.txt \
      $TAUT hub build --map $mp --mesh $me -o $O/$m.hub --jobs 2 >> $O/$m.taut-build.txt 2>&1
  fi
  for run in ${RUNS:-1 2}; do
    for g in $sizes; do
      /usr/bin/time -f "%e s %M KB" -o $O/$m.ehl$g.$run.time $EHL/ehl_run.sh dao $m $g $s --warm 1 --reps 1 > $O/$m.ehl$g.$run.csv 2>$O/$m.ehl$g.$run.err
    done
    /usr/bin/time -f "%e s %M KB" -o $O/$m.hub.$run.time $TAUT scen --algo hub --hub $O/$m.hub --mesh $me --map $mp --scen $s --format csv > $O/$m.hub.$run.csv 2>$O/$m.hub.$run.err
    /usr/bin/time -f "%e s %M KB" -o $O/$m.hubw.$run.time $TAUT scen --algo hub --hub $O/$m.hub --mesh $me --map $mp --scen $s --format csv --repeat 2 > $O/$m.hubw.$run.csv 2>$O/$m.hubw.$run.err
  done
  echo "$m done $(date +%T)"
done
