#!/usr/bin/env bash
# Usage: scripts/hyperx-saturation.sh FLITSIM [SEED]
# Saturation throughput of the HyperX 4x4 and 4x4x4 netlists under uniform and
# bit-reversal traffic, for `minimal`, `valiant` and `ugal-l` routing: 4-flit packets,
# 4 VCs x 8 flits, the default 4-stage wormhole router, one thread. The auto sweep brackets
# the saturation rate; its first point is a quarter of it.
# Prints one markdown row per case: the saturation bracket (flits/terminal/cycle) and the
# latency at the first point with its 95% confidence half-width.
set -euo pipefail
F=$1; SEED=${2:-1}; D="$(cd "$(dirname "$0")/.." && pwd)/netlists"
r3() { jq -r "$1 * 10000 | round / 10000"; }
echo "| netlist | traffic | routing | saturation | latency at 1/4 saturation |"
echo "|---|---|---|---|---|"
for net in hyperx-4x4 hyperx-4x4x4; do
  for traffic in uniform bit-reversal; do
    for routing in minimal valiant ugal-l; do
      out=$($F sweep "$D/$net.toml" --routing "$routing" --traffic "$traffic" --length 4 \
        --rates auto --points 4 --threads 1 --seed "$SEED" --quiet --json)
      lo=$(jq '.curves[0].saturation.unsaturated * 4' <<<"$out" | r3 .)
      hi=$(jq '.curves[0].saturation.saturated * 4' <<<"$out" | r3 .)
      first=$(jq -c '.curves[0].points | min_by(.rate)' <<<"$out")
      lat=$(r3 .latency <<<"$first"); ci=$(r3 .latency_ci95 <<<"$first")
      off=$(r3 .offered <<<"$first")
      echo "| $net | $traffic | \`$routing\` | $lo - $hi | $lat +- $ci at $off |"
    done
  done
done
