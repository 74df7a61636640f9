#!/bin/sh
# Runs one packet list through the RTL harness (rtl/, under Icarus Verilog) and through
# flitsim, and prints the first differing record (docs/rtl.md).
#
#   scripts/rtl-crosscheck.sh RTL_DIR PACKETS [CONFIG]
#
# RTL_DIR: a copy of the Stanford open-source NoC router (its src/ and src/clib/).
# PACKETS: a packet list (lines "CYCLE SRC DST LEN VC").
# CONFIG:  mesh3x3 (default) or mesh4x4: rtl/configs/CONFIG.vh for the RTL,
#          tests/data/rtl/CONFIG.toml for flitsim.
# Environment: FLITSIM (default target/release/flitsim, built if missing), OUT (the
# build and log directory, default out/rtl/CONFIG), KEEP_RTL_LOG=FILE also copies the
# sorted RTL log there.
# Exit status: 0 identical, 1 a difference, 2 a usage or tool error.
set -eu
if [ $# -lt 2 ]; then
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
rtl=$1
packets=$2
config=${3:-mesh3x3}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/rtl/$config}
flitsim=${FLITSIM:-$root/target/release/flitsim}
vh=$root/rtl/configs/$config.vh
netlist=$root/tests/data/rtl/$config.toml
for f in "$rtl/src/vcr_top.v" "$rtl/src/clib/c_arbiter.v" "$vh" "$netlist" "$packets"; do
    if [ ! -f "$f" ]; then
        echo "error: $f not found" >&2
        exit 2
    fi
done
command -v iverilog >/dev/null || { echo "error: iverilog not installed (apt-get install iverilog)" >&2; exit 2; }
if [ ! -x "$flitsim" ]; then
    (cd "$root" && cargo build --release --quiet)
fi
mkdir -p "$out"
cp "$vh" "$out/config.vh"
vvp_file=$out/harness.vvp
if [ ! -f "$vvp_file" ] || [ "$vh" -nt "$vvp_file" ] || [ -n "$(find "$root/rtl" -name '*.v' -newer "$vvp_file")" ]; then
    iverilog -g2001 -o "$vvp_file" -I "$out" -I "$rtl/src" -I "$rtl/src/clib" \
        -y "$rtl/src" -y "$rtl/src/clib" \
        "$root/rtl/harness.v" "$root/rtl/trace_source.v" "$root/rtl/trace_sink.v"
fi
grep -v '^#' "$packets" | grep -v '^[[:space:]]*$' > "$out/packets.txt"
start=$(date +%s)
vvp -n "$vvp_file" +packets="$out/packets.txt" +log="$out/rtl.raw" +max_cycles=200000 > "$out/vvp.out"
end=$(date +%s)
if grep -q 'rtl_tb: error' "$out/vvp.out"; then
    cat "$out/vvp.out" >&2
    exit 2
fi
LC_ALL=C sort -s -t' ' -k1,1n -k2 "$out/rtl.raw" > "$out/rtl.log"
"$flitsim" trace "$netlist" --rate 0 --packets "$packets" --format rtl --max-lines 0 > "$out/flitsim.log"
if [ -n "${KEEP_RTL_LOG:-}" ]; then
    cp "$out/rtl.log" "$KEEP_RTL_LOG"
fi
echo "RTL: $(wc -l < "$out/rtl.log") records, Icarus $((end - start)) s; flitsim: $(wc -l < "$out/flitsim.log") records"
if cmp -s "$out/rtl.log" "$out/flitsim.log"; then
    echo "identical"
    exit 0
fi
echo "first difference (< RTL, > flitsim):"
diff "$out/rtl.log" "$out/flitsim.log" | head -n 12
exit 1
