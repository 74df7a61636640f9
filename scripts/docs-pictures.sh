#!/usr/bin/env bash
# Usage: scripts/docs-pictures.sh BIN -- regenerates the pictures in docs/ from real runs of BIN (a release
# build of flitsim), with the commands the docs show. The reproduce pictures of paper 004 come from a full
# `reproduce 004` (about 7 minutes of CPU), the others from runs of seconds to a minute.
set -euo pipefail
B=$1; R="$(cd "$(dirname "$0")/.." && pwd)"; D="$R/docs"; N="$R/netlists"
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
$B sweep "$N/torus-8x8.toml" --length 12 --rates auto --plot "$D/torus-8x8-curve.svg" >/dev/null
$B buffers "$N/torus-8x8.toml" --length 12 --rate 0.03 --no-search --plot "$D/torus-8x8-buffers-heat.svg" >/dev/null
$B check "$N/torus-8x8.toml" --routing dor --rate 0.02 --length 12 --warmup 5000 --cycles 50000 \
  --plot "$D/check-torus-8x8-dor-0.02.svg" >/dev/null
$B reproduce 000 --out "$T/000" >/dev/null && cp "$T/000/reproduce-000-8x8.svg" "$D/"
$B reproduce 004 --out "$T/004" >/dev/null && cp "$T/004/reproduce-004-8x8-l3.svg" "$T/004/reproduce-004-fig9.svg" "$D/"
$B sweep "$N/torus-8x8.toml" --vary vcs=2,4,8 --length 12 --rates auto -q --plot "$D/design-vcs.svg" >/dev/null
$B buffers "$N/torus-8x8.toml" --length 12 -q --plot "$D/design-buffers-heat.svg" >/dev/null
