#!/bin/bash
# Build time and peak memory side by side: EHL (goldi1027/EHL, built by ../shared/peers/ehl/build.sh
# into $EHL) at grid sizes 16 and 64 beside `taut hub build --budget B`, B = the size of EHL's
# index at that setting (the criterion), on the same reference merged meshes.
# usage: build-sbs.sh MAP...   (writes $O/MAP.*.txt; summarise with build-summ.py)
set -u
export DATA=${DATA:-/work/shared/data}; S=$DATA/suites
TAUT=${TAUT:-target/release/taut}; EHL=${EHL:-/work/anchors/ehl}; O=${O:-/tmp/hubbuild}; mkdir -p "$O"
for m in "$@"; do
  me=$S/merged-mesh/dao/$m-merged.mesh; mp=$S/grid/dao/$m.map
  "$EHL"/ehl_prep.sh dao "$m" 16 64 > "$O/$m.ehl.txt" 2>&1 || { echo "$m: EHL prep failed"; cat "$O/$m.ehl.txt"; continue; }
  for g in 16 64; do
    # EHL's index at this setting: its grid files and the hub labels they index.
    budget=$(cat "$EHL"/dataset/ehl/dao/"$m".nt_*_"$g" "$EHL/dataset/hub_label/dao/$m.label" \
      "$EHL/dataset/hub_label/dao/$m.order" | wc -c)
    echo "budget $budget" > "$O/$m.taut$g.txt"
    /usr/bin/time -f "taut: %e s wall, %M KB maxrss, exit %x" -a -o "$O/$m.taut$g.txt" \
      "$TAUT" hub build --map "$mp" --mesh "$me" -o "$O/$m.b$g.hub" --budget "$budget" --jobs 2 >> "$O/$m.taut$g.txt" 2>&1
  done
  echo "$m done $(date +%T)"
done
