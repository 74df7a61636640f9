#!/usr/bin/env bash
# Usage: scripts/speedup-saturation.sh FLITSIM [SEEDS]
# Saturation throughput of torus 8x8 (dimension-order routing, uniform traffic, 12-flit
# packets, 4 VCs x 8 flits, one-cycle stages) for each (input_speedup, output_speedup) in
# 1/1, 2/1, 1/2, 2/2, 4/4: the accepted throughput past saturation (offered 1.2
# flits/terminal/cycle, 3000 warm-up + 20000 measured cycles, no drain) with the 95%
# confidence interval of the batch means, for seeds 1..SEEDS (default 3). Prints one
# markdown row per speedup, one cell per seed.
set -euo pipefail
F=$1; SEEDS=${2:-3}; N="$(cd "$(dirname "$0")/.." && pwd)/netlists/torus-8x8.toml"
echo "| input / output speedup |$(for s in $(seq 1 "$SEEDS"); do echo -n " seed $s |"; done)"
echo "|---|$(for _ in $(seq 1 "$SEEDS"); do echo -n '---|'; done)"
for sp in 1/1 2/1 1/2 2/2 4/4; do
  row="| $sp |"
  for seed in $(seq 1 "$SEEDS"); do
    cell=$("$F" run "$N" --length 12 --rate 0.1 --warmup 3000 --cycles 20000 \
      --drain-cycles 0 --seed "$seed" --set "input_speedup=${sp%/*}" \
      --set "output_speedup=${sp#*/}" --json 2>/dev/null |
      jq -r '.accepted | "\(.flits_per_terminal_cycle * 1000 | round / 1000) ± \(.ci95 * 1000 | round / 1000)"')
    row="$row $cell |"
  done
  echo "$row"
done
