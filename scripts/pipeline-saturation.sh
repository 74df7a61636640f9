#!/usr/bin/env bash
# Usage: scripts/pipeline-saturation.sh FLITSIM [SEED]
# Zero-load latency and saturation throughput of torus 8x8, dimension-order routing,
# uniform traffic, 12-flit packets, 4 VCs x 8 flits, for each router pipeline organisation
# (one-cycle stages): RC|VA|SA|ST, speculative RC|VA+SA|ST, lookahead VA|SA|ST,
# lookahead + speculative VA+SA|ST, and the one-stage router (also crossbar_delay = 0).
# The auto sweep brackets the saturation rate (k-section, 30000-cycle probes), then runs
# two fixed windows (3000 warm-up + 20000 measured cycles, no drain): 95% of the highest
# unsaturated rate and 10% above saturation (the accepted-throughput plateau). Prints one
# markdown row per organisation: the reported zero-load latency and the mean latency
# measured at 0.0005 packets per terminal per cycle (cycles), the highest unsaturated
# offered load and the accepted throughput of both points (flits/terminal/cycle, with the
# 95% confidence interval of the batch means).
set -euo pipefail
F=$1; SEED=${2:-1}; N="$(cd "$(dirname "$0")/.." && pwd)/netlists/torus-8x8.toml"
ci() { jq -r '"\(.accepted * 1000 | round / 1000) ± \(if .accepted_ci95 == null then "n/a" else (.accepted_ci95 * 1000 | round / 1000 | tostring) end)"'; }
echo "| organisation | zero-load latency (reported / measured) | highest unsaturated offered load | accepted at 95% of it | accepted 10% past saturation |"
echo "|---|---|---|---|---|"
for org in "4-stage:" "speculative:speculative=true" "lookahead:lookahead_routing=true" \
  "lookahead+speculative:speculative=true,lookahead_routing=true" \
  "1-stage:speculative=true,lookahead_routing=true,crossbar_delay=0"; do
  name=${org%%:*}; sets=()
  IFS=, read -ra kv <<<"${org#*:}"
  for s in "${kv[@]}"; do sets+=(--set "$s"); done
  low=$($F run "$N" --length 12 --rate 0.0005 --warmup 200 --cycles 20000 --seed "$SEED" \
    --json "${sets[@]}")
  t0=$(jq -r '"\(.zero_load_latency * 100 | round / 100) / \(.latency.mean * 100 | round / 100)"' <<<"$low")
  out=$($F sweep "$N" --length 12 --rates auto --points 1 --warmup 3000 --cycles 20000 \
    --drain-cycles 0 --seed "$SEED" --quiet --json "${sets[@]}")
  sat=$(jq -r '.curves[0].saturation.unsaturated_flits * 1000 | round / 1000' <<<"$out")
  below=$(jq -c '.curves[0].points | min_by(.rate)' <<<"$out" | ci)
  above=$(jq -c '.curves[0].points | max_by(.rate)' <<<"$out" | ci)
  echo "| $name | $t0 | $sat | $below | $above |"
done
