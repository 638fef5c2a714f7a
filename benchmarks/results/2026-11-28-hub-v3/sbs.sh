#!/bin/bash
# EHL at grid sizes 1, 4, 16 and 64 beside `taut hub build --budget B`, B = the size of EHL's index
# at that setting (the criterion), on the same reference merged meshes and the same 2018
# queries: build time and peak memory of both (EHL: visibility graph, conversion, hub labels and
# that setting's grid step, as ../shared/peers/ehl times them), then two query runs of each.
# usage: sbs.sh MAP...   (writes $O/MAP.*; summarise with summ.py MAP...)
# SETTINGS="16 64" sbs.sh MAP... (and the same SETTINGS for summ.py): those grid sizes only.
set -u
export DATA=${DATA:-/work/shared/data}; S=$DATA/suites; G=$DATA/grid
TAUT=${TAUT:-target/release/taut}; EHL=${EHL:-/work/anchors/ehl}; O=${O:-/tmp/hubv3}; mkdir -p "$O"
for m in "$@"; do
  me=$S/merged-mesh/dao/$m-merged.mesh; mp=$S/grid/dao/$m.map; s=$G/scen/$m.map.scen
  "$EHL"/ehl_prep.sh dao "$m" ${SETTINGS:-1 4 16 64} > "$O/$m.ehl.txt" 2>&1 || { echo "$m: EHL prep failed"; cat "$O/$m.ehl.txt"; continue; }
  for g in ${SETTINGS:-1 4 16 64}; do
    budget=$(cat "$EHL"/dataset/ehl/dao/"$m".nt_*_"$g" "$EHL/dataset/hub_label/dao/$m.label" \
      "$EHL/dataset/hub_label/dao/$m.order" | wc -c)
    echo "budget $budget" > "$O/$m.taut$g.txt"
    /usr/bin/time -f "taut: %e s wall, %M KB maxrss, exit %x" -a -o "$O/$m.taut$g.txt" \
      "$TAUT" hub build --map "$mp" --mesh "$me" -o "$O/$m.b$g.hub" --budget "$budget" --jobs 2 >> "$O/$m.taut$g.txt" 2>&1 \
      || rm -f "$O/$m.b$g.hub"
  done
  for run in 1 2; do
    for g in ${SETTINGS:-1 4 16 64}; do
      "$EHL"/ehl_run.sh dao "$m" "$g" "$s" --warm 1 --reps 1 > "$O/$m.ehl$g.$run.csv" 2>/dev/null
      [ -f "$O/$m.b$g.hub" ] && "$TAUT" scen --algo hub --hub "$O/$m.b$g.hub" --mesh "$me" --map "$mp" --scen "$s" \
        --format csv > "$O/$m.taut$g.$run.csv" 2>/dev/null
    done
  done
  echo "$m done $(date +%T)"
done
