#!/usr/bin/env bash
# Usage: scripts/million.sh BIN [K...]
# Torus K x K (default: 512 then 1024; 1024 x 1024 is 1,048,576 routers), 4 VCs x 8
# flits, DOR, uniform traffic at 2.08/K flits/terminal/cycle, 12-flit packets,
# `run --warmup 0 --cycles 100 --drain-cycles 0 --threads 1`. One line per size: routers,
# wall s, set-up s (wall minus the simulated cycles' `perf.wall_seconds`), CPU s, peak
# RSS kB and bytes per router. Before each size it checks that the memory available
# (MemAvailable) exceeds the estimate at 18,000 bytes per router plus 1 GB, and skips the
# size otherwise: the machine may be shared.
set -eu
B=$1; shift
SIZES=${*:-"512 1024"}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
echo "size routers wall_s setup_s cpu_s peak_rss_kb bytes_per_router"
for k in $SIZES; do
  n=$((k * k))
  need_kb=$(( (n * 18000 + 1000000000) / 1024 ))
  avail_kb=$(awk '/MemAvailable/ {print $2}' /proc/meminfo)
  if [ "$avail_kb" -lt "$need_kb" ]; then
    echo "${k}x${k} skipped: ${avail_kb} kB available, ${need_kb} kB needed" >&2
    continue
  fi
  printf 'name = "torus-%sx%s"\n[topology]\nkind = "torus"\nradix = [%s, %s]\n[defaults]\nvcs = 4\nbuffer_depth = 8\nrouting = "dor"\n' \
    "$k" "$k" "$k" "$k" > "$T/t.toml"
  rate=$(echo "scale=10; 2.08 / $k / 12" | bc)
  /usr/bin/time -f "%e %U %S %M" -o "$T/time" "$B" run "$T/t.toml" --rate "$rate" --length 12 \
    --warmup 0 --cycles 100 --drain-cycles 0 --threads 1 --quiet --json > "$T/out.json"
  read -r wall user sys rss < "$T/time"
  jq -r --arg k "$k" --arg n "$n" --arg wall "$wall" --arg cpu "$(awk "BEGIN {print $user + $sys}")" \
    --arg rss "$rss" \
    '[$k + "x" + $k, $n, $wall, (($wall | tonumber) - .perf.wall_seconds | . * 100 | round / 100),
      $cpu, $rss, (($rss | tonumber) * 1024 / ($n | tonumber) | round)] | @tsv' "$T/out.json"
done
