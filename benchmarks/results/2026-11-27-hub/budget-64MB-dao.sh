#!/bin/bash
# taut hub build --budget 64MB on every map of the dao suite: chosen side, size, seconds, peak memory.
D=/work/shared/data/suites/grid/dao; O=/tmp/hubbudget; T=/tmp/hubsbs/taut-budget
echo "map,status,line,wall_s,peak_kb" > $O/budget.csv
for f in $(ls $D/*.map); do
  m=$(basename $f .map)
  /usr/bin/time -f "%e %M" -o $O/time.txt $T hub build --map $f -o $O/cur.hub --budget 64MB --jobs 2 > $O/out.txt 2> $O/err.txt
  rc=$?
  line=$(cat $O/out.txt $O/err.txt | tr ',' ';' | tr '\n' ' ')
  read wall peak < $O/time.txt
  echo "$m,$rc,$line,$wall,$peak" >> $O/budget.csv
done
echo done >> $O/budget.csv
