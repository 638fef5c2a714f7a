#!/bin/bash
# Query time of the hub index at every region side the budget can choose (1, 2, 4, 8, 16, 32),
# on the five dao maps of issue 31, same reference merged meshes and 2018 queries as sbs.sh.
# Each side is built once (--region G), then ROUNDS rounds run every side in turn, each round
# twice: every query once (as sbs.sh times taut beside EHL), then --repeat 5 (warm planner,
# median of five per query). Summarise with sides.py MAP...
# usage: O=DIR TAUT=BIN [ROUNDS=2] [SIDES="1 2 4 8 16 32"] sides.sh MAP...
set -u
export DATA=${DATA:-/work/shared/data}; S=$DATA/suites; G=$DATA/grid
TAUT=${TAUT:-target/release/taut}; O=${O:-/tmp/hubsides}; mkdir -p "$O"
SIDES=${SIDES:-1 2 4 8 16 32}
for m in "$@"; do
  me=$S/merged-mesh/dao/$m-merged.mesh; mp=$S/grid/dao/$m.map
  for g in $SIDES; do
    [ -f "$O/$m.g$g.hub" ] || "$TAUT" hub build --map "$mp" --mesh "$me" -o "$O/$m.g$g.hub" --region "$g" --jobs 2 > "$O/$m.g$g.txt" 2>&1
  done
done
for round in $(seq 1 "${ROUNDS:-2}"); do
  for m in "$@"; do
    me=$S/merged-mesh/dao/$m-merged.mesh; mp=$S/grid/dao/$m.map; s=$G/scen/$m.map.scen
    for g in $SIDES; do
      "$TAUT" scen --algo hub --hub "$O/$m.g$g.hub" --mesh "$me" --map "$mp" --scen "$s" --format csv > "$O/$m.g$g.once.$round.csv" 2>/dev/null
      "$TAUT" scen --algo hub --hub "$O/$m.g$g.hub" --mesh "$me" --map "$mp" --scen "$s" --format csv --repeat 5 > "$O/$m.g$g.rep5.$round.csv" 2>/dev/null
    done
  done
  echo "round $round done $(date +%T)"
done
