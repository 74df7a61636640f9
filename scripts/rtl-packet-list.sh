#!/bin/sh
# Prints a random packet list for the RTL cross-check (docs/rtl.md): uniform random
# traffic on a KxK mesh, Bernoulli packet arrivals at LOAD flits per terminal per cycle
# (a fraction of the 1 flit per cycle an injection channel carries), packets of 1 to 5
# flits, destinations other than the source, injection VCs 0 to 3, arrivals in cycles 0
# to CYCLES-1. Random numbers from awk's srand(SEED) (the lists in tests/data/rtl/ are
# stored, so a different awk changes only new lists).
#
#   scripts/rtl-packet-list.sh SEED LOAD CYCLES [K]
set -eu
if [ $# -lt 3 ]; then
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
awk -v seed="$1" -v load="$2" -v cycles="$3" -v k="${4:-3}" 'BEGIN {
    srand(seed); n = k * k; p = load / 3.0
    printf "# uniform random traffic, %dx%d mesh, %s flits/terminal/cycle, %d cycles, seed %d\n", k, k, load, cycles, seed
    print "# cycle source destination length vc"
    for (c = 0; c < cycles; c++)
        for (s = 0; s < n; s++)
            if (rand() < p) {
                d = int(rand() * (n - 1)); if (d >= s) d++
                printf "%d %d %d %d %d\n", c, s, d, 1 + int(rand() * 5), int(rand() * 4)
            }
}'
