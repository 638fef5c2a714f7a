#!/bin/bash
# tm.sh MAP SCEN ROUNDS BIN... : min over rounds of the mean per-query time (repeat 3, pinned to cpu 1)
M=$1; S=$2; R=$3; shift 3
for b in "$@"; do echo -n "" > /tmp/rayref/tm.$(basename $b); done
for r in $(seq $R); do for b in "$@"; do taskset -c 1 $b scen --map $M --scen $S --algo ${ALGO:-ray} --repeat 3 2>/dev/null | awk -F, 'NR>1{t+=$10;n++} END {print t/n}' >> /tmp/rayref/tm.$(basename $b); done; done
for b in "$@"; do echo "$(basename $b) $(sort -g /tmp/rayref/tm.$(basename $b) | head -1) (all: $(tr '\n' ' ' < /tmp/rayref/tm.$(basename $b)))"; done
