#!/usr/bin/env bash
# Usage: scripts/cost-vs-size.sh RUNS BIN -- cost versus size at 0.03 flits/terminal/cycle, one thread, with peak RSS
R=$1; B=$2; N="$(cd "$(dirname "$0")/.." && pwd)/netlists"
rows=("torus-8x8 20000" "torus-16x16 5000" "torus-32x32 1500" "torus-64x64 700")
for r in "${rows[@]}"; do
  set -- $r
  for k in $(seq 1 $R); do
    o=$( { /usr/bin/time -v $B run $N/$1.toml --rate 0.0025 --length 12 --warmup 1000 --cycles $2 --threads 1 --json | jq -r '[.perf.router_cycles_per_second, .perf.flit_hops_per_second] | @tsv'; } 2>"${TMPDIR:-/tmp}/flitsim-time.err" )
    rss=$(grep "Maximum resident" "${TMPDIR:-/tmp}/flitsim-time.err" | grep -o '[0-9]*')
    echo "$1 $k $o $rss"
  done
done
