#!/bin/bash
# big maps: ray, anya (taut) and RayScan portable, one pass each, 30 queries per map
B=${B:-/tmp/rayref/taut-sbs3}; R=/tmp/anchors/rayscan/rayscan_bench_portable; cd ${BIG:-/tmp/rayref/big}
echo "map,side,planner,mean_us,max_us,mean_expanded"
for s in 512 768 1024 2048; do
  m=big$s
  for a in ray anya; do
    $B scen --map $m.map --scen $m.map.scen --algo $a > $m.$a.csv 2>/dev/null
    awk -F, -v m=$m -v s=$s -v a=$a 'NR>1{t+=$10;e+=$8;if($10>x)x=$10;n++} END {printf "%s,%s,%s,%.0f,%.0f,%.0f\n", m,s,a,t/n,x,e/n}' $m.$a.csv
  done
  $R $m.map $m.map.scen 0 1 > $m.rs.csv 2>/dev/null
  awk -F, -v m=$m -v s=$s 'NR>1{t+=$3;e+=$4;if($3>x)x=$3;n++} END {printf "%s,%s,rayscan,%.0f,%.0f,%.0f\n", m,s,t/n,x,e/n}' $m.rs.csv
  python3 -c "
import csv
a={r['index']:float(r['length']) for r in csv.DictReader(open('$m.ray.csv'))}
b={r['index']:float(r['length']) for r in csv.DictReader(open('$m.anya.csv'))}
c={r['index']:float(r['length']) for r in csv.DictReader(open('$m.rs.csv'))}
bad=[k for k in a if abs(a[k]-b[k])>1e-6]
badr=[k for k in a if k in c and abs(a[k]-c[k])>1e-6*max(1,a[k])]
import sys; print(f'# {\"$m\"}: ray vs anya mismatches {len(bad)}, ray vs rayscan {len(badr)}', file=sys.stderr)
"
done
