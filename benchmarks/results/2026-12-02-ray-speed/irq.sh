#!/bin/bash
# irq.sh BIN MAP -> taut ray Ir for s5 minus s1 (query work only), in M
D=/work/shared/data/grid
f() { valgrind --tool=callgrind --callgrind-out-file=/tmp/rayref/q.cg $1 scen --map $D/maps/$2.map --scen /tmp/rayref/$3.$2.scen --algo ${ALGO:-ray} >/dev/null 2>/tmp/rayref/q.err; grep -o "Collected : [0-9]*" /tmp/rayref/q.err | awk '{print $3}'; }
a=$(f $1 $2 s5); b=$(f $1 $2 s1); echo "$2 $(( (a-b)/1000000 )) M"
