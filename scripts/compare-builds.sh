#!/usr/bin/env bash
# Usage: scripts/compare-builds.sh BIN_A BIN_B
# Compares two flitsim binaries over configurations that exercise every router feature:
# `run --json` (without the wall-clock `perf`), cycle traces, VCD files, netlist checks,
# sweep and buffers CSV. The cost figures (`energy`, `area`, `activity` of run --json, the
# sweep CSV's power columns, buffers' area and leakage) are left out: they are new fields, not
# results to keep; nor are the latency `distributions` and `config.percentiles`. Prints one
# line per configuration; exit 1 on any difference.
set -u
A=$1; B=$2; N="$(cd "$(dirname "$0")/.." && pwd)/netlists"; fail=0
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
# Imported BookSim configurations (torus 8x8, BookSim's channel timing) with iSLIP and PIM at
# 1 and 2 iterations (`islip(2)`, as BookSim reads them) and wavefront, as VC and switch
# allocators: netlists written by B's importer, run by both builds.
printf '%s\n' 'topology = torus; k = 8; n = 2; routing_function = dim_order;' \
  'num_vcs = 4; vc_buf_size = 8; packet_size = 12; injection_rate_uses_flits = 1;' > "$T/bs.cfg"
bs=()
for al in 'islip 1' 'islip 2' 'pim 1' 'pim 2' 'wavefront 1'; do
  set -- $al; name="$1($2)"; [[ $1 == wavefront ]] && name=$1
  $B import booksim "$T/bs.cfg" "vc_allocator=$name" "sw_allocator=$name" --out "$T/bs-$1-$2.toml" >/dev/null 2>&1
  bs+=("run $T/bs-$1-$2.toml --traffic uniform-all --rate 0.0208333 --length 12 --warmup 500 --cycles 2000")
done
bs+=("run $T/bs-islip-1.toml --traffic uniform-all --rate 0.035 --length 12 --warmup 300 --cycles 1500 --set speculative=true")
bs+=("run $T/bs-islip-2.toml --traffic uniform-all --rate 0.035 --length 12 --warmup 300 --cycles 1500 --set input_speedup=2 --set output_speedup=2")
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
 "run $N/paper004-torus-8x8.toml --rate 0.01 --warmup 300 --cycles 1000 --routing minimal-adaptive --switching vct"
 "run $N/mesh-8x8.toml --rate 0.02 --length 6 --warmup 300 --cycles 1000 --routing negative-first --traffic transpose"
 "run $N/torus-8x8.toml --rate 0.01 --length 4 --warmup 300 --cycles 1000 --traffic hotspot:0,9:0.2 --latency-from injection --latency-to tail-leaves-router"
 "run $N/torus-8x8.toml --rate 0.08 --length 8 --warmup 300 --cycles 1000 --stop-when-saturated"
 "run $N/torus-4x4.toml --rate 0.05 --length 4 --warmup 200 --cycles 800 --drain --set dor_tie=plus --set dateline=wrap"
 "run $N/torus-32x32.toml --rate 0.005 --length 12 --warmup 100 --cycles 300 --threads 2"
 "run $N/torus-16x16.toml --rate 0.01 --length 12 --cycles 2000 --threads 2 --min-parallel-work 0"
 "run $N/torus-16x16.toml --rate 0.0108333 --length 12 --warmup 300 --cycles 1500 --threads 4"
 "run $N/torus-32x32.toml --rate 0.0054167 --length 12 --warmup 300 --cycles 800 --threads 16"
 "run $N/torus-8x8.toml --rate 0.02 --length 12 --warmup 300 --cycles 1500 --threads 5 --min-parallel-work 4"
 "run $N/mesh-8x8.toml --rate 0.01 --length 4 --warmup 200 --cycles 800 --routing source"
 "run $N/torus-8x8.toml --rate 0.5 --length 16 --warmup 200 --cycles 3000 --routing dor-nodateline --set vcs=1 --set deadlock_check=warn"
 "vcd $N/torus-4x4.toml --rate 0.05 --length 4 --routing duato --from 50 --to 120"
 "vcd $N/mesh-8x8.toml --rate 0.03 --length 3 --switching saf --to 100 --router r9"
 "netlist check $N/torus-8x8.toml --json"
 "netlist check $N/hetero-torus-4x4.toml --routing duato"
 "netlist expand $N/torus-3x3.toml"
 "sweep $N/torus-4x4.toml --length 4 --rates 0.02,0.1 --warmup 200 --cycles 800 --csv"
 "sweep $N/torus-4x4.toml --length 4 --rates auto --points 3 --probe-cycles 2000 --cycles 800 --warmup 200 --threads 2 --csv"
 "buffers $N/torus-4x4.toml --rate 0.04 --length 4 --warmup 200 --cycles 800 --json"
 "${bs[@]}"
)
for c in "${cfgs[@]}"; do
  if [[ $c == run* ]]; then
    oa=$( { $A $c --json 2>"$T/ea" | jq -S 'del(.perf, .energy, .area, .activity, .distributions, .config.percentiles)'; cat "$T/ea"; } 2>&1)
    ob=$( { $B $c --json 2>"$T/eb" | jq -S 'del(.perf, .energy, .area, .activity, .distributions, .config.percentiles)'; cat "$T/eb"; } 2>&1)
  elif [[ $c == vcd* ]]; then
    $A trace ${c#vcd } --vcd "$T/a.vcd" >/dev/null 2>&1; $B trace ${c#vcd } --vcd "$T/b.vcd" >/dev/null 2>&1
    oa=$(cat "$T/a.vcd" 2>&1); ob=$(cat "$T/b.vcd" 2>&1)
  elif [[ $c == *--csv ]]; then
    $A $c "$T/a.csv" >/dev/null 2>&1; $B $c "$T/b.csv" >/dev/null 2>&1
    oa=$(cut -d, -f1-12 "$T/a.csv" 2>&1); ob=$(cut -d, -f1-12 "$T/b.csv" 2>&1)
  elif [[ $c == buffers*--json ]]; then
    drop='del(.search.required_input_area_mm2, .search.required_input_leakage_mw, .search.tech, .config.percentiles)'
    oa=$($A $c 2>&1 | jq -S "$drop"); ob=$($B $c 2>&1 | jq -S "$drop")
  else
    oa=$($A $c 2>&1); ob=$($B $c 2>&1)
  fi
  if [[ "$oa" == "$ob" ]]; then echo "same  ($(echo -n "$oa" | md5sum | cut -c1-8)) $c"; else echo "DIFF  $c"; fail=1; fi
done
exit $fail
