#!/bin/bash
# Zero wrong answers on the 2018 and the older scenarios of the five dao maps: taut's hub at
# EHL-64's and EHL-1's budgets (regions of 8 and point labels), End Point Search and Polyanya
# on the same merged meshes, each against the reference optima (len_gppc) and hub against
# the other two. usage: check.sh [MAP...]   (writes $O/; summarise with check.py)
set -u
D=${DATA:-/work/shared/data}; S=$D/suites; TAUT=${TAUT:-target/release/taut}; O=${O:-/tmp/chk}; mkdir -p "$O"
declare -A b64=([arena2]=1680000 [den520d]=3580000 [brc202d]=6020000 [orz900d]=13280000 [ost100d]=51350000)
declare -A b1=([arena2]=76230000 [den520d]=149700000 [brc202d]=184650000 [orz900d]=430780000 [ost100d]=2778700000)
for m in ${@:-arena2 den520d brc202d orz900d ost100d}; do
  me=$S/merged-mesh/dao/$m-merged.mesh; mp=$S/grid/dao/$m.map
  "$TAUT" cpd build --mesh "$me" -o "$O/$m.cpd" > "$O/$m.cpd.txt" 2>&1 || { echo "$m: cpd build failed"; continue; }
  "$TAUT" hub build --map "$mp" --mesh "$me" -o "$O/$m.b64.hub" --budget "${b64[$m]}" > "$O/$m.b64.txt" 2>&1 || { echo "$m: hub build failed"; continue; }
  "$TAUT" hub build --map "$mp" --mesh "$me" -o "$O/$m.b1.hub" --budget "${b1[$m]}" > "$O/$m.b1.txt" 2>&1 || { echo "$m: hub build failed"; continue; }
  for gen in scen scen-legacy; do
    s=$D/grid/$gen/$m.map.scen
    run() { "$TAUT" scen --mesh "$me" --map "$mp" --scen "$s" --format csv "$@"; }
    run --algo hub --hub "$O/$m.b64.hub" > "$O/$m.$gen.hub64.csv" 2>/dev/null
    run --algo hub --hub "$O/$m.b1.hub" > "$O/$m.$gen.hub1.csv" 2>/dev/null
    run --algo eps --cpd "$O/$m.cpd" > "$O/$m.$gen.eps.csv" 2>/dev/null
    run --algo polyanya > "$O/$m.$gen.polyanya.csv" 2>/dev/null
  done
  echo "$m done $(date +%T)"
done
