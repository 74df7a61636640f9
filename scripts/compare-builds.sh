#!/usr/bin/env bash
# Usage: scripts/compare-builds.sh BIN_A BIN_B  -- compares --json (without .perf) and traces of two flitsim binaries
# over configurations that exercise every router feature. Prints DIFF lines; exit 1 on any diff.
set -u
A=$1; B=$2; N="$(cd "$(dirname "$0")/.." && pwd)/netlists"; fail=0
cfgs=(
 "run $N/torus-8x8.toml --rate 0.0208333 --length 12 --warmup 500 --cycles 2000 --channel-stats"
 "run $N/torus-8x8.toml --rate 0.04 --length 12 --warmup 500 --cycles 2000 --routing duato"
 "run $N/torus-8x8.toml --rate 0.03 --length exp:8 --warmup 500 --cycles 2000 --routing quaglia --channel-stats"
 "run $N/torus-8x8.toml --rate 0.03 --length 12 --warmup 500 --cycles 2000 --routing duato-nbc --set vcs=6 --set switch_allocator=separable-output-first"
 "run $N/torus-8x8.toml --rate 0.03 --length 8 --warmup 500 --cycles 2000 --switching vct --routing duato"
 "run $N/torus-8x8.toml --rate 0.01 --length 8 --warmup 500 --cycles 2000 --switching saf --set arbiter=matrix"
 "run $N/torus-8x8.toml --rate 0.05 --length 8 --warmup 500 --cycles 2000 --routing duato --timeout 20 --backoff 5"
 "run $N/hypercube-6.toml --rate 0.02 --length 8 --warmup 500 --cycles 2000 --routing pcube"
 "run $N/mesh-8x8.toml --rate 0.02 --length 8 --warmup 500 --cycles 2000 --routing west-first --selection random"
 "run $N/hetero-torus-4x4.toml --rate 0.02 --length mix:2,16,0.5 --warmup 500 --cycles 2000"
 "run $N/torus-8x8.toml --rate 0.02 --length 1 --warmup 500 --cycles 2000 --set vcs=16 --set channel_latency=3 --set credit_delay=2"
 "run $N/torus-16x16.toml --rate 0.01 --length 12 --warmup 300 --cycles 1000 --threads 2 --min-parallel-work 0"
 "run $N/paper004-torus-8x8.toml --rate 0.01 --warmup 300 --cycles 1000"
 "trace $N/torus-4x4.toml --rate 0.05 --length 4 --to 300"
 "trace $N/torus-4x4.toml --rate 0.08 --length 4 --routing duato --timeout 10 --to 300"
 "trace $N/mesh-8x8.toml --rate 0.02 --length 3 --switching vct --routing north-last --to 200"
)
for c in "${cfgs[@]}"; do
  if [[ $c == run* ]]; then
    oa=$($A $c --json 2>&1 | jq -S 'del(.perf)' 2>&1); ob=$($B $c --json 2>&1 | jq -S 'del(.perf)' 2>&1)
  else
    oa=$($A $c 2>&1); ob=$($B $c 2>&1)
  fi
  if [[ "$oa" == "$ob" ]]; then echo "same  ($(echo -n "$oa" | md5sum | cut -c1-8)) $c"; else echo "DIFF  $c"; fail=1; fi
done
exit $fail
