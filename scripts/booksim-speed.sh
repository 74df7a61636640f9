#!/usr/bin/env bash
# Usage: scripts/booksim-speed.sh BOOKSIM FLITSIM PAIRS [callgrind] -- BookSim 2 against flitsim on the
# same configurations, one thread, each run a whole process (set-up included). Each row's BookSim
# config is written here; flitsim runs the netlist `flitsim import booksim` writes from it (the
# "imported" row) and its own netlist of the same torus (the "default" row), with the same traffic,
# load, packet length and seed. BookSim picks its own run length (a warm-up period, then samples
# until its latency converges, then the drain), so each program's cost is taken per simulated
# cycle: BookSim's cycles from its "Time taken is N cycles", flitsim's from --warmup + --cycles
# (--drain-cycles 0). Runs are interleaved (BookSim, flitsim imported, flitsim default, BookSim,
# ...); each pair's ratio is BookSim's user CPU seconds per cycle over flitsim's; the median of
# the PAIRS pairs is printed per row. With `callgrind`, each program runs once under callgrind
# on shorter runs instead and the ratio is of instructions per simulated cycle (independent of
# the machine's load). BOOKSIM is a BookSim 2 binary you built (docs/booksim.md).
set -u
BS=$1; FS=$2; P=$3; MODE=${4:-time}
N="$(cd "$(dirname "$0")/.." && pwd)/netlists"
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
# k, flits/node/cycle, BookSim sample period, flitsim warm-up and measured cycles
rows=("8 0.25 10000 10000 30000" "8 0.05 10000 10000 30000" "16 0.13 2500 2500 7500" "32 0.065 1000 1000 3000")
[ "$MODE" = callgrind ] && rows=("8 0.25 500 500 1500" "8 0.05 500 500 1500" "16 0.13 250 250 750" "32 0.065 100 100 300")
# cost CMD...: user CPU seconds of CMD (time mode) or instructions (callgrind mode); output to $dir/out
cost() {
  if [ "$MODE" = callgrind ]; then
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >"$dir/out" 2>"$dir/vg"
    grep -o 'Collected : [0-9]*' "$dir/vg" | grep -o '[0-9]*'
  else
    local TIMEFORMAT=%U
    { time "$@" >"$dir/out" 2>&1; } 2>&1
  fi
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2)}'; }
[ "$MODE" = callgrind ] && P=1
echo "network load booksim_cycles flitsim_cycles pair booksim flitsim_imported flitsim_default ratio_imported ratio_default"
for row in "${rows[@]}"; do
  set -- $row; k=$1; load=$2; period=$3; warm=$4; cyc=$5
  cfg=$dir/t$k.cfg
  cat > "$cfg" <<CFG
topology = torus; k = $k; n = 2;
routing_function = dim_order;
num_vcs = 4; vc_buf_size = 8;
traffic = uniform; injection_process = bernoulli;
packet_size = 12; injection_rate_uses_flits = 1; injection_rate = $load;
sim_type = latency; sample_period = $period; warmup_periods = 1; max_samples = 10; sim_count = 1; seed = 1;
CFG
  "$FS" import booksim "$cfg" --out "$dir/t$k.toml" >/dev/null 2>&1 || { echo "import failed: $cfg" >&2; exit 1; }
  rate=$(echo "$load / 12" | bc -l)
  flags="--traffic uniform-all --length 12 --rate $rate --warmup $warm --cycles $cyc --drain-cycles 0 --threads 1 --seed 1 --json"
  fc=$((warm + cyc))
  ri=(); rd=()
  for p in $(seq 1 "$P"); do
    b=$(cost "$BS" "$cfg"); bc_=$(grep -o 'Time taken is [0-9]*' "$dir/out" | grep -o '[0-9]*$')
    fi_=$(cost "$FS" run "$dir/t$k.toml" $flags)
    fd=$(cost "$FS" run "$N/torus-${k}x${k}.toml" $flags)
    a=$(echo "($b / $bc_) / ($fi_ / $fc)" | bc -l); d=$(echo "($b / $bc_) / ($fd / $fc)" | bc -l)
    ri+=("$a"); rd+=("$d")
    printf "torus-%sx%s %s %s %s %s %s %s %s %.1f %.1f\n" "$k" "$k" "$load" "$bc_" "$fc" "$p" "$b" "$fi_" "$fd" "$a" "$d"
  done
  mi=$(printf "%s\n" "${ri[@]}" | median); md=$(printf "%s\n" "${rd[@]}" | median)
  printf "torus-%sx%s %s median imported %.1fx default %.1fx\n" "$k" "$k" "$load" "$mi" "$md"
done
