#!/usr/bin/env bash
# Usage: scripts/locality.sh ROUNDS BIN [cachegrind] -- does the router state's size limit torus 8x8 at 0.25?
# Runs tori 2x2, 3x3, 4x4 and 8x8 at the same per-router load as the BookSim row (0.25 flits/terminal/cycle on
# 8x8: 1.266 flit-router traversals per router-cycle), in interleaved rounds, one thread: the smaller the network,
# the more of its state stays in L1 while each router does the same work. Prints router-cycles/s per run; with
# `cachegrind`, instead prints the simulated instructions, D1 misses and mispredictions over 256,000
# router-cycles per network (this machine's L1, a 1 MiB LL), as scripts/cachegrind.sh does.
R=$1; B=$2; MODE=$3; N="$(cd "$(dirname "$0")/.." && pwd)/netlists"
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
# torus-2x2 is not shipped (each router's +1 and -1 neighbours are the same router); made from the 3x3 netlist.
sed 's/radix = \[3, 3\]/radix = [2, 2]/; s/torus-3x3/torus-2x2/' "$N/torus-3x3.toml" >"$T/torus-2x2.toml"
for k in 3x3 4x4 8x8; do cp "$N/torus-$k.toml" "$T/"; done
load=$(awk 'BEGIN { print 0.25 * (4.063492063492063 + 1) }') # 8x8: flits/terminal/cycle x routers a flit crosses
for k in 2x2 3x3 4x4 8x8; do
  d=$($B netlist check "$T/torus-$k.toml" --json | jq .average_distance)
  routers=$($B netlist check "$T/torus-$k.toml" --json | jq .routers)
  # packets/terminal/cycle (12-flit packets) for the same flit-router traversals per router-cycle
  rate[${#rate[@]}]="$k $(awk -v l=$load -v d=$d 'BEGIN { printf "%.7f", l / (d + 1) / 12 }') $routers"
done
for r in "${rate[@]}"; do
  set -- $r; [ "$MODE" = cachegrind ] || continue
  cycles=$((256000 / $3)); warm=$((cycles / 4))
  valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=1048576,8,64 \
    --cachegrind-out-file=/dev/null "$B" run "$T/torus-$1.toml" --rate "$2" --length 12 --warmup $warm \
    --cycles $((cycles - warm)) --drain-cycles 0 --threads 1 --json 2>&1 >/dev/null |
    tr -d ',()' | awk -v n="$1" '/I *refs:/{ir=$NF} /D1 *misses:/{d1=$(NF-5)} /Mispredicts:/{m=$(NF-5)}
      END{printf "torus %s: Ir %s, D1 misses %s, mispredicts %s\n", n, ir, d1, m}'
done
[ "$MODE" = cachegrind ] && exit 0
for i in $(seq 1 $R); do
  for r in "${rate[@]}"; do
    set -- $r
    o=$($B run "$T/torus-$1.toml" --rate "$2" --length 12 --warmup 2000 --cycles $((12800000 / $3)) --threads 1 --json |
      jq -r '[.perf.router_cycles_per_second, .perf.flit_hops_per_second / .perf.router_cycles_per_second] | @tsv')
    echo "torus-$1 $2 $i $o"
  done
done
