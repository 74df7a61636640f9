#!/usr/bin/env bash
# Usage: scripts/booksim-power.sh BOOKSIM [FLITSIM] [ROW...] -- BookSim 2's power module and
# flitsim's cost model on the same configs (docs/power.md): each row's BookSim config (DOR,
# 4 VCs x 8 flits, 128-bit flits, BookSim's 32 nm technology file, uniform traffic at 0.2
# flits/node/cycle, packets of 4 flits) is run by BOOKSIM with `sim_power = 1` and imported
# into flitsim with `flitsim import booksim ... --run` (which maps the power keys and picks
# `--cost-model booksim`). Prints one markdown table per row: each power component (W) and
# area component (mm^2) of both, and flitsim's difference in percent; then flitsim's total
# power with the corrected model. BookSim's technology file is read from the binary's
# source tree (src/power/techfile.txt) unless TECH_FILE is set.
# Rows: torus4 torus8 torus444 mesh8 (default: all).
set -eu
BS=$1; FS=${2:-target/release/flitsim}; shift; [ $# -gt 0 ] && shift
rows=${*:-"torus4 torus8 torus444 mesh8"}
tech=${TECH_FILE:-$(dirname "$BS")/power/techfile.txt}
dir=$(mktemp -d)
for row in $rows; do
  case $row in
    torus4) shape="topology = torus; k = 4; n = 2;" ;;
    torus8) shape="topology = torus; k = 8; n = 2;" ;;
    torus444) shape="topology = torus; k = 4; n = 3;" ;;
    mesh8) shape="topology = mesh; k = 8; n = 2;" ;;
    *) echo "unknown row $row" >&2; exit 1 ;;
  esac
  cfg=$dir/$row.cfg
  cat > "$cfg" <<CFG
$shape
routing_function = dim_order;
num_vcs = 4; vc_buf_size = 8; wait_for_tail_credit = 0;
vc_allocator = separable_output_first; sw_allocator = separable_output_first;
traffic = uniform; injection_process = bernoulli;
packet_size = 4; injection_rate_uses_flits = 1; injection_rate = 0.2;
sample_period = 10000; warmup_periods = 3; max_samples = 10; sim_count = 1; seed = 1;
sim_power = 1; power_output_file = $dir/pwr; tech_file = $tech; channel_width = 128;
CFG
  # BookSim exits with 255 after a successful run.
  "$BS" "$cfg" > "$dir/$row.booksim" 2>&1 || true
  "$FS" import booksim "$cfg" --out "$dir/$row.toml" --run -- --json --quiet > "$dir/$row.json" 2> "$dir/$row.import"
  flags=$(sed -n 's/^  flitsim run [^ ]* //p' "$dir/$row.import" | sed 's/ --cost-model booksim//')
  # shellcheck disable=SC2086
  corrected=$("$FS" run "$dir/$row.toml" $flags --json --quiet | jq '.energy.total_power_mw / 1000')
  echo "### $row"
  echo
  echo "| component | BookSim | flitsim | difference |"
  echo "|---|---:|---:|---:|"
  awk -F: '
    /- Channel Wire Power/ {print "channel_wire", $2}
    /- Channel Clock Power/ {print "channel_clock", $2}
    /- Channel Retiming Power/ {print "channel_retiming", $2}
    /- Channel Leakage Power/ {print "channel_leakage", $2}
    /- Input Read Power/ {print "input_read", $2}
    /- Input Write Power/ {print "input_write", $2}
    /- Input Leakage Power/ {print "input_leakage", $2}
    /- Switch Power/ {print "switch", $2}
    /- Switch Control Power/ {print "switch_control", $2}
    /- Switch Leakage Power/ {print "switch_leakage", $2}
    /- Output DFF Power/ {print "output_register", $2}
    /- Output Clk Power/ {print "output_clock", $2}
    /- Output Control Power/ {print "output_control", $2}
    /- Total Power/ {print "total_power", $2}
    /- Channel Area/ {print "channel_mm2", $2}
    /- Switch  Area/ {print "switch_mm2", $2}
    /- Input  Area/ {print "input_mm2", $2}
    /- Output  Area/ {print "output_mm2", $2}
    /- Total Area/ {print "total_mm2", $2}' "$dir/$row.booksim" |
  while read -r key b; do
    case $key in
      total_power) f=$(jq '.energy.total_power_mw / 1000' "$dir/$row.json"); unit="W" ;;
      *_mm2) f=$(jq ".area.$key" "$dir/$row.json"); unit="mm^2" ;;
      *) f=$(jq ".energy.power_mw.$key / 1000" "$dir/$row.json"); unit="W" ;;
    esac
    awk -v k="$key" -v b="$b" -v f="$f" -v u="$unit" \
      'BEGIN {printf "| %s (%s) | %.6g | %.6g | %+.2f%% |\n", k, u, b, f, (b == 0 ? 0 : 100 * (f - b) / b)}'
  done
  acc_b=$(awk -F'= ' '/^Accepted flit rate average = .*samples/ {split($2, a, " "); print a[1]}' "$dir/$row.booksim")
  acc_f=$(jq '.accepted.flits_per_terminal_cycle' "$dir/$row.json")
  echo
  echo "Accepted flits/node/cycle: BookSim $acc_b (its measurement window), flitsim $acc_f."
  echo "Total power with the corrected model (flitsim's default): $corrected W."
  echo
done
rm -r "$dir"
