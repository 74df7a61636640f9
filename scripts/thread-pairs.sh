#!/usr/bin/env bash
# Usage: scripts/thread-pairs.sh PAIRS BIN -- --threads 1 vs 2, interleaved pairs in alternating order,
# router-cycles/s, perf.threads and perf.serial_cycles_fraction per run
P=$1; B=$2; N="$(cd "$(dirname "$0")/.." && pwd)/netlists"
rows=("torus-8x8 0.0041667 1000 20000" "torus-8x8 0.0208333 1000 20000" "torus-16x16 0.0108333 1000 5000" "torus-32x32 0.0054167 1000 3000" "torus-64x64 0.0025 300 700")
for r in "${rows[@]}"; do
  set -- $r
  for k in $(seq 1 $P); do
    # Alternate which run of the pair goes first (the VM drifts within minutes).
    order="1 2"; [ $((k % 2)) = 0 ] && order="2 1"
    for t in $order; do
      o=$($B run $N/$1.toml --rate $2 --length 12 --warmup $3 --cycles $4 --drain-cycles 0 --threads $t --json | jq -r '[.perf.router_cycles_per_second, .perf.threads, .perf.serial_cycles_fraction] | @tsv')
      echo "$1 $2 t$t $k $o"
    done
  done
done
