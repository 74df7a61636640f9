#!/usr/bin/env bash
# Usage: scripts/cachegrind.sh BIN [OUT_PREFIX] -- simulated data-cache misses on torus 8x8, one thread, at 0.25 and
# 0.05 flits/terminal/cycle (the callgrind.sh runs), with this machine's L1 (32 KiB, 8-way) and a 1 MiB 8-way LL
# standing for its per-core L2. Prints instructions, D1 read/write misses and LL misses; with OUT_PREFIX keeps the
# cachegrind files (OUT_PREFIX-0.25.out, OUT_PREFIX-0.05.out) for `cg_annotate --show=D1mr,D1mw --sort=D1mr`.
B=$1; P=$2; N="$(cd "$(dirname "$0")/.." && pwd)/netlists/torus-8x8.toml"
for r in 0.0208333:0.25 0.0041667:0.05; do
  rate=${r%%:*}; name=${r##*:}
  out=/dev/null; [ -n "$P" ] && out="$P-$name.out"
  valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=1048576,8,64 \
    --cachegrind-out-file="$out" "$B" run "$N" --rate "$rate" --length 12 --warmup 1000 --cycles 3000 \
    --drain-cycles 0 --threads 1 --json 2>&1 >/dev/null |
    tr -d ',()' | awk -v n="$name" '/I *refs:/{ir=$NF} /D1 *misses:/{d1r=$(NF-4); d1w=$(NF-1)} /LLd misses:/{ll=$(NF-5)}
      END{printf "rate %s: Ir %s, D1 misses %s rd + %s wr, LLd misses %s\n", n, ir, d1r, d1w, ll}'
done
