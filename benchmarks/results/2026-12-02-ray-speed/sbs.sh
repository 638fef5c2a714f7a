#!/bin/bash
# side by side, one run: taut ray, taut anya, RayScan portable; every query of the 2018 scen; 
# taut: --repeat 3 (median per query); RayScan: warm 1, reps 3 (min per query)
D=/work/shared/data/grid; B=${B:-/tmp/rayref/taut-sbs}; R=/tmp/anchors/rayscan/rayscan_bench_portable
O=/tmp/rayref/sbs; mkdir -p $O
echo "map,queries,ray_us,anya_us,auto_us,auto_build_ms,rayscan_us,ray_exp,anya_exp,rayscan_exp"
for m in "$@"; do
  $B scen --map $D/maps/$m.map --scen $D/scen/$m.map.scen --algo ray --repeat 3 > $O/$m.ray.csv
  $B scen --map $D/maps/$m.map --scen $D/scen/$m.map.scen --algo anya --repeat 3 > $O/$m.anya.csv
  $B scen --map $D/maps/$m.map --scen $D/scen/$m.map.scen --algo auto --repeat 3 --summary > $O/$m.auto.csv 2> $O/$m.auto.err
  $R $D/maps/$m.map $D/scen/$m.map.scen 1 3 > $O/$m.rs.csv 2>/dev/null
  python3 - $O $m <<'PY'
import csv,sys
O,m=sys.argv[1],sys.argv[2]
def rd(f,tcol,ecol,lcol):
    d={}
    for r in csv.DictReader(open(f)):
        d[int(r['index'])]=(float(r[tcol]),float(r[ecol]),float(r[lcol]))
    return d
ray=rd(f'{O}/{m}.ray.csv','time_us','expanded','length'); an=rd(f'{O}/{m}.anya.csv','time_us','expanded','length'); rs=rd(f'{O}/{m}.rs.csv','time_us','expanded','length')
au=rd(f'{O}/{m}.auto.csv','time_us','expanded','length')
import re
mt=re.search(r'built in ([0-9.]+) ms', open(f'{O}/{m}.auto.err').read())
bms=float(mt.group(1)) if mt else 0.0
ks=[k for k in ray if k in an and k in rs and k in au and rs[k][2]>=0]
bad=sum(1 for k in ks if abs(ray[k][2]-an[k][2])>1e-6 or abs(au[k][2]-an[k][2])>1e-6)
if bad: print(f'# {m}: {bad} length mismatches', file=sys.stderr)
mean=lambda d,i: sum(d[k][i] for k in ks)/len(ks)
print(f"{m},{len(ks)},{mean(ray,0):.1f},{mean(an,0):.1f},{mean(au,0):.1f},{bms:.1f},{mean(rs,0):.1f},{mean(ray,1):.0f},{mean(an,1):.0f},{mean(rs,1):.0f}")
PY
done
