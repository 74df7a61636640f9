#!/usr/bin/env bash
# Usage: scripts/allocator-saturation.sh FLITSIM [SEED]
# Saturation throughput of torus 8x8, dimension-order routing, uniform traffic, 12-flit
# packets, 4 VCs x 8 flits, for each allocator (the same kind for VC and switch
# allocation). The auto sweep brackets the saturation rate (k-section, 30000-cycle probes),
# then runs two fixed windows (3000 warm-up + 20000 measured cycles, no drain): 95% of the
# highest unsaturated rate and 10% above saturation (the accepted-throughput plateau).
# Prints one markdown row per allocator: the highest unsaturated offered load and the
# accepted throughput of both points (flits/terminal/cycle, with the 95% confidence
# interval of the batch means).
set -euo pipefail
F=$1; SEED=${2:-1}; N="$(cd "$(dirname "$0")/.." && pwd)/netlists/torus-8x8.toml"
ci() { jq -r '"\(.accepted * 1000 | round / 1000) ± \(if .accepted_ci95 == null then "n/a" else (.accepted_ci95 * 1000 | round / 1000 | tostring) end)"'; }
echo "| allocator | highest unsaturated offered load | accepted at 95% of it | accepted 10% past saturation |"
echo "|---|---|---|---|"
for a in separable-input-first separable-output-first islip:1 islip:2 islip:3 wavefront pim:1 pim:3; do
  kind=${a%%:*}; iters=1; [[ $a == *:* ]] && iters=${a##*:}
  out=$($F sweep "$N" --length 12 --rates auto --points 1 --warmup 3000 --cycles 20000 \
    --drain-cycles 0 --seed "$SEED" --quiet --json \
    --set vc_allocator="$kind" --set switch_allocator="$kind" --set alloc_iters="$iters")
  sat=$(jq -r '.curves[0].saturation.unsaturated_flits * 1000 | round / 1000' <<<"$out")
  below=$(jq -c '.curves[0].points | min_by(.rate)' <<<"$out" | ci)
  above=$(jq -c '.curves[0].points | max_by(.rate)' <<<"$out" | ci)
  echo "| $a | $sat | $below | $above |"
done
