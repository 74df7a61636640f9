#!/usr/bin/env bash
# Usage: scripts/booksim-pairs.sh PAIRS BIN_OLD BIN_NEW -- interleaved wall-clock pairs on the four BookSim rows
# (one thread, --warmup 2000, cycles per row chosen so each run simulates about 13-20M router-cycles:
# shorter runs of torus 8x8 take a fraction of a second and are dominated by noise);
# prints per-run router-cycles/s and flit-hops/s.
P=$1; A=$2; B=$3; N="$(cd "$(dirname "$0")/.." && pwd)/netlists"
rows=("torus-8x8 0.0208333 200000" "torus-16x16 0.0108333 50000" "torus-32x32 0.0054167 20000" "torus-8x8 0.0041667 300000")
for r in "${rows[@]}"; do
  set -- $r; net=$1; rate=$2; cycles=$3
  for k in $(seq 1 $P); do
    for b in $A $B; do
      o=$($b run $N/$net.toml --rate $rate --length 12 --warmup 2000 --cycles $cycles --threads 1 --json | jq -r '[.perf.router_cycles_per_second, .perf.flit_hops_per_second] | @tsv')
      echo "$net $rate $b $k $o"
    done
  done
done
