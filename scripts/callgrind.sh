#!/usr/bin/env bash
# Usage: scripts/callgrind.sh BIN -- callgrind instruction counts on torus 8x8, one thread, at 0.25 and 0.05 flits/terminal/cycle
B=$1
for r in 0.0208333 0.0041667; do
  ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null $B run "$(cd "$(dirname "$0")/.." && pwd)/netlists/torus-8x8.toml" --rate $r --length 12 --warmup 1000 --cycles 3000 --drain-cycles 0 --threads 1 --json 2>&1 >/dev/null | grep -o 'Collected : [0-9]*' | grep -o '[0-9]*')
  echo "rate $r: $ir instructions"
done
