#!/usr/bin/env bash
# Usage: scripts/lookahead-pairs.sh PAIRS BIN_OLD BIN_NEW -- two builds at --threads 2 on torus 64x64 with
# channel latency 2 (BookSim's torus) and 1, interleaved pairs in alternating order; prints per-run
# router-cycles/s, perf.threads, perf.lookahead and perf.barriers (null for a build without them).
# Environment: LATENCIES (default "2 1"), WARMUP (300), CYCLES (700).
P=$1; A=$2; B=$3; N="$(cd "$(dirname "$0")/.." && pwd)/netlists"
for lat in ${LATENCIES:-2 1}; do
  for k in $(seq 1 $P); do
    # Alternate which build goes first (the VM drifts within minutes).
    order="$A $B"; [ $((k % 2)) = 0 ] && order="$B $A"
    for b in $order; do
      o=$($b run $N/torus-64x64.toml --set channel_latency=$lat --rate 0.0025 --length 12 --warmup ${WARMUP:-300} --cycles ${CYCLES:-700} \
        --drain-cycles 0 --threads 2 --json |
        jq -r '[.perf.router_cycles_per_second, .perf.threads, .perf.lookahead, .perf.barriers] | @tsv')
      echo "latency$lat $b $k $o"
    done
  done
done
