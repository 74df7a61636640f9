#!/usr/bin/env bash
# How long the README's two commands take from a fresh clone: clones this repository's
# HEAD into a temporary directory (its own target/, nothing cached but cargo's registry),
# then times the main job (release build, then the sweep) and the tests.
# Usage: scripts/first-clone-times.sh [tests]   (with `tests`, also `cargo test --workspace`)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
git clone -q "$repo" "$dir/flitsim"
cd "$dir/flitsim"
echo "machine: $(nproc) cores, $(uptime | sed 's/.*load average/load average/')"
t0=$(date +%s)
cargo build --release -q
t1=$(date +%s)
cargo run --release -q -- sweep netlists/torus-8x8.toml --length 12 --rates auto --plot out/curve.svg >/dev/null
t2=$(date +%s)
echo "release build: $((t1 - t0)) s; sweep: $((t2 - t1)) s"
if [ "${1:-}" = tests ]; then
    cargo test --workspace -q >/dev/null
    t3=$(date +%s)
    echo "cargo test --workspace: $((t3 - t2)) s"
fi
echo "load average at the end: $(uptime | sed 's/.*load average: //')"
