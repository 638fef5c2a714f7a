#!/bin/bash
# EHL's four preprocessing steps for one map and grid size, as ehl_prep.sh runs them, without its timers.
cd /work/anchors/ehl
m=$1; g=$2; suite=dao
V=dataset/visibility_graph/$suite/$m; H=dataset/hub_label/$suite/$m
./bin/build_visibility_graph dataset/merged-mesh/$suite/$m-merged.mesh dataset/grid/$suite/$m.map $V.vis > /dev/null 2>&1
./bin/hub_label_converter $V.vis $V.txt > /dev/null 2>&1
./bin/construct_hl $V.txt $H dataset/hub_label/result/$suite/$m $m $suite > /dev/null 2>&1
./bin/build_grid_based_hub_labelling $suite $m $g > /dev/null 2>&1
