#!/usr/bin/env bash
# Usage: scripts/fat-tree-saturation.sh FLITSIM [SEED]
# Saturation throughput of the fat-tree 4-ary 2-tree and 4-ary 3-tree netlists under
# uniform traffic: `minimal` (d-mod-k up ports) and `minimal-adaptive` (any up port) on
# the shipped 4 VCs x 8 flits, `minimal` on 1 and 8 VCs, and `minimal` on 4 VCs with input
# and output speedup 2 (docs/router.md); 4-flit packets, the default
# 4-stage wormhole router, one thread. The auto sweep brackets the saturation rate
# (k-section), then runs two fixed windows (3000 warm-up + 20000 measured cycles, no
# drain): 95% of the highest unsaturated rate and 10% above saturation (the
# accepted-throughput plateau).
# Prints one markdown row per case: the highest unsaturated offered load and the accepted
# throughput of both points (flits/terminal/cycle, with the 95% confidence interval of the
# batch means). The ideal capacity is 1 (full bisection: every channel carries at most
# one terminal's rate under uniform traffic).
set -euo pipefail
F=$1; SEED=${2:-1}; D="$(cd "$(dirname "$0")/.." && pwd)/netlists"
ci() { jq -r '"\(.accepted * 1000 | round / 1000) ± \(if .accepted_ci95 == null then "n/a" else (.accepted_ci95 * 1000 | round / 1000 | tostring) end)"'; }
echo "| netlist | routing | VCs | speedup | highest unsaturated offered load | accepted at 95% of it | accepted 10% past saturation |"
echo "|---|---|---|---|---|---|---|"
for net in fat-tree-4ary2 fat-tree-4ary3; do
  for case in minimal:4:1 minimal-adaptive:4:1 minimal:1:1 minimal:8:1 minimal:4:2; do
    IFS=: read -r routing vcs speedup <<<"$case"
    out=$($F sweep "$D/$net.toml" --routing "$routing" --set vcs="$vcs" --length 4 \
      --set input_speedup="$speedup" --set output_speedup="$speedup" \
      --rates auto --points 1 --warmup 3000 --cycles 20000 --drain-cycles 0 --threads 1 \
      --seed "$SEED" --quiet --json)
    sat=$(jq -r '.curves[0].saturation.unsaturated_flits * 1000 | round / 1000' <<<"$out")
    below=$(jq -c '.curves[0].points | min_by(.rate)' <<<"$out" | ci)
    above=$(jq -c '.curves[0].points | max_by(.rate)' <<<"$out" | ci)
    echo "| $net | \`$routing\` | $vcs | $speedup | $sat | $below | $above |"
  done
done
