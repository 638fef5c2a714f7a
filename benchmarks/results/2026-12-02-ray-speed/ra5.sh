#!/bin/bash
# ray vs anya on every 5th query of every shared map's 2018 scen, one pass each; clutter from the old csv
D=/work/shared/data/grid; B=${B:-/tmp/rayref/taut-fs}; OLD=/work/main/benchmarks/results/2026-12-02-ray/ray-vs-anya-every-5th.csv
O=/tmp/rayref/ra5; mkdir -p $O
echo "map,clutter,queries,anya_us,ray_us,anya_exp,ray_exp"
for f in $D/scen/*.map.scen; do
  m=$(basename $f .map.scen)
  c=$(awk -F, -v m=$m '$1==m{print $2}' $OLD)
  awk 'NR==1 || NR%5==2' $f > $O/$m.scen
  $B scen --map $D/maps/$m.map --scen $O/$m.scen --algo anya > $O/$m.anya.csv 2>/dev/null
  $B scen --map $D/maps/$m.map --scen $O/$m.scen --algo ray > $O/$m.ray.csv 2>/dev/null
  python3 - $O $m "$c" <<'PY'
import csv,sys
O,m,c=sys.argv[1:4]
a=[r for r in csv.DictReader(open(f'{O}/{m}.anya.csv')) if r['status']=='ok']
b={r['index']:r for r in csv.DictReader(open(f'{O}/{m}.ray.csv'))}
ks=[r['index'] for r in a if r['index'] in b and b[r['index']]['status']=='ok']
bad=sum(1 for r in a if r['index'] in b and abs(float(r['length'])-float(b[r['index']]['length']))>1e-6)
A={r['index']:r for r in a}
mean=lambda d,col: sum(float(d[k][col]) for k in ks)/max(1,len(ks))
print(f"{m},{c},{len(ks)},{mean(A,'time_us'):.1f},{mean(b,'time_us'):.1f},{mean(A,'expanded'):.0f},{mean(b,'expanded'):.0f}" + (f",MISMATCH {bad}" if bad else ""))
PY
done
