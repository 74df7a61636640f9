#!/usr/bin/env bash
# Usage: [SPEEDUPS="1/1 2/1"] scripts/paper004-speedup.sh FLITSIM [L] [M] [SIDE] [SEED]
# Paper 004's saturation with internal speedup: the reproduce 004 router (the preset
# netlists/paper004-torus-8x8.toml, side SIDE), fixed-distance:L traffic, M-flit packets,
# run at lambda*m = 0.60, 0.65, ..., 0.95 for each (input_speedup, output_speedup) in
# SPEEDUPS (default 1/1 2/1 4/1 1/2 2/2 4/4), with reproduce 004's window (10,000 warm-up cycles, a
# window of 40 L / lambda clamped to 10,000..60,000, drain up to 20,000) and its verdict
# (saturated: more than 1% of the measured packets undelivered, under 95% of the offered
# flits accepted, a latency interval wider than 10% of the mean over 2000 packets, or a
# deadlock). Prints one markdown row per speedup: the verdict at each load (the latency
# and its 95% interval when steady, `sat` and the accepted load otherwise).
set -euo pipefail
F=$1; L=${2:-3}; M=${3:-10}; S=${4:-8}; SEED=${5:-1}
N=$(mktemp --suffix=.toml)
trap 'rm -f "$N"' EXIT
sed -e "s/radix = \[8, 8\]/radix = [$S, $S]/" \
  "$(cd "$(dirname "$0")/.." && pwd)/netlists/paper004-torus-8x8.toml" >"$N"
LOADS="0.60 0.65 0.70 0.75 0.80 0.85 0.90 0.95"
echo "| input / output speedup | $(sed 's/ / | /g' <<<"$LOADS") |"
echo "|---$(for _ in $LOADS; do echo -n '|---'; done)|"
for sp in ${SPEEDUPS:-1/1 2/1 4/1 1/2 2/2 4/4}; do
  set -- ${sp/\// }
  row="| $1 / $2 |"
  for x in $LOADS; do
    rate=$(awk -v x="$x" -v m="$M" 'BEGIN { printf "%.6f", x / m }')
    cycles=$(awk -v l="$L" -v r="$rate" 'BEGIN { c = int(40 * l / r + 0.999999); if (c < 10000) c = 10000; if (c > 60000) c = 60000; print c }')
    out=$("$F" run "$N" --traffic "fixed-distance:$L" --length "$M" --rate "$rate" \
      --warmup 10000 --cycles "$cycles" --drain-cycles 20000 --seed "$SEED" \
      --set "input_speedup=$1" --set "output_speedup=$2" --json 2>/dev/null || true)
    cell=$(jq -r '
      (.packets.generated) as $g | (.packets.delivered) as $d |
      (if $g > 0 then ($g - $d) / $g else 0 end) as $undelivered |
      (.offered.measured_flits_per_terminal_cycle) as $off |
      (.accepted.flits_per_terminal_cycle) as $acc |
      ((.latency.ci95 // 0) > 0.1 * (.latency.mean // 0) and $d >= 2000) as $wide |
      if ($undelivered > 0.01 or ($off > 0 and $acc < 0.95 * $off) or $wide or .deadlock != null)
      then "sat (\($acc * 1000 | round / 1000))"
      else "\(.latency.mean * 10 | round / 10) ± \(.latency.ci95 * 10 | round / 10)" end' <<<"$out")
    row="$row $cell |"
  done
  echo "$row"
done
