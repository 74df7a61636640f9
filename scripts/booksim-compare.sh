#!/usr/bin/env bash
# Usage: scripts/booksim-compare.sh BOOKSIM FLITSIM [ROW...] -- BookSim 2 and flitsim on the same
# configs (docs/booksim.md): each row's BookSim config is written here, run by BOOKSIM (a
# BookSim 2 binary you built) and imported into flitsim with `flitsim import booksim ... --run`.
# Prints one line per (row, offered load in flits/node/cycle): the packet latency and accepted
# flit rate of each. Offered 1.0 runs BookSim with sim_type = throughput (no latency abort).
# Rows: mesh8 torus8-p12 torus8-p32 cube6 (default: all).
set -u
BS=$1; FS=$2; shift 2
rows=${*:-"mesh8 torus8-p12 torus8-p32 cube6"}
dir=$(mktemp -d)
for row in $rows; do
  case $row in
    mesh8) shape="topology = mesh; k = 8; n = 2;"; size=12; loads="0.01 0.1 0.2 0.3 0.35 0.4 1.0" ;;
    torus8-p12) shape="topology = torus; k = 8; n = 2;"; size=12; loads="0.01 0.1 0.2 0.3 0.35 0.4 0.45 1.0" ;;
    torus8-p32) shape="topology = torus; k = 8; n = 2;"; size=32; loads="0.01 0.1 0.2 0.3 0.35 0.4 1.0" ;;
    cube6) shape="topology = mesh; k = 2; n = 6;"; size=12; loads="0.01 0.2 0.4 0.6 0.8 1.0" ;;
    *) echo "unknown row $row" >&2; exit 1 ;;
  esac
  cfg=$dir/$row.cfg
  cat > "$cfg" <<CFG
$shape
routing_function = dim_order;
num_vcs = 4; vc_buf_size = 8; wait_for_tail_credit = 0;
vc_allocator = separable_output_first; sw_allocator = separable_output_first;
traffic = uniform; injection_process = bernoulli;
packet_size = $size; injection_rate_uses_flits = 1;
sample_period = 1000; warmup_periods = 3; max_samples = 10; sim_count = 1; seed = 1;
CFG
  for load in $loads; do
    mode=latency; [ "$load" = 1.0 ] && mode=throughput
    b=$("$BS" "$cfg" injection_rate=$load sim_type=$mode 2>&1 | awk -F'= ' '
      /^Packet latency average = .*samples/ {split($2, a, " "); lat=a[1]}
      /^Accepted flit rate average = .*samples/ {split($2, a, " "); acc=a[1]}
      /Aborting simulation/ {lat="unstable"}
      END {printf "%s %s", (lat == "" ? "-" : lat), (acc == "" ? "-" : acc)}')
    f=$("$FS" import booksim "$cfg" injection_rate=$load --out "$dir/$row.toml" --run -- --json 2>/dev/null |
      jq -r '"\(.latency.mean // "-") \(.accepted.flits_per_terminal_cycle // "-") \(.saturated)"')
    echo "$row $load booksim $b flitsim $f"
  done
done
rm -r "$dir"
