#!/usr/bin/env bash
# Usage: scripts/scaling.sh BIN [MAX_THREADS] [SIZES...]
# Torus k x k (generated into a temporary directory), uniform traffic at 2.08/k
# flits/terminal/cycle (the load of the docs/performance.md table), 12-flit packets, 4 VCs
# x 8 flits, DOR; --threads 1..MAX_THREADS (default: the cores). One line per run:
# size, threads asked, workers used, mean active workers, wall s, set-up s (wall minus
# simulated), simulated s, router-cycles/s, peak RSS MB.
# Cycles: --warmup 200 --cycles W with W = 400 for k <= 64, else 100 (--drain-cycles 0).
set -eu
B=$1; MAX=${2:-$(nproc)}; shift $(( $# > 1 ? 2 : 1 ))
SIZES=${*:-"8 16 32 64 128 256"}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
echo "size threads workers active wall_s setup_s sim_s router_cycles_per_s peak_rss_mb"
for k in $SIZES; do
  printf 'name = "torus-%sx%s"\n[topology]\nkind = "torus"\nradix = [%s, %s]\n[defaults]\nvcs = 4\nbuffer_depth = 8\nrouting = "dor"\n' \
    "$k" "$k" "$k" "$k" > "$T/t.toml"
  rate=$(echo "scale=8; 2.08 / $k / 12" | bc)
  cycles=400; [ "$k" -gt 64 ] && cycles=100
  for t in $(seq 1 "$MAX"); do
    /usr/bin/time -f "%e %M" -o "$T/time" "$B" run "$T/t.toml" --rate "$rate" --length 12 \
      --warmup 200 --cycles $cycles --drain-cycles 0 --threads "$t" --json > "$T/out.json"
    read -r wall rss < "$T/time"
    jq -r --arg k "$k" --arg t "$t" --arg wall "$wall" --arg rss "$rss" \
      '[$k + "x" + $k, $t, .perf.threads, (.perf.mean_active_workers * 100 | round / 100),
        $wall, (($wall | tonumber) - .perf.wall_seconds | . * 100 | round / 100),
        (.perf.wall_seconds * 100 | round / 100), (.perf.router_cycles_per_second | round),
        (($rss | tonumber) / 1024 | round)] | @tsv' "$T/out.json"
  done
done
