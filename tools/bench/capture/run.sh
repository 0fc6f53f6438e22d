#!/bin/sh
# Capture keep-up benchmark (issue 5 item 7): boots the QEMU testbed (one VM
# at a time: the flock) on keep-up.scn and prints its summary lines.
# Usage: tools/bench/capture/run.sh [BUILD_DIR] [OUT_DIR]
set -eu
build=${1:-build}
out=${2:-$build/tb-keep-up}
here=$(dirname "$0")
BC_CACHE=${BC_CACHE:-/work/main/.cache} flock /tmp/bc-vm.lock \
	"$here/../../testbed/testbed" --build "$build" --out "$out" run "$here/keep-up.scn" || true
grep -E '^\{"run"|model name|^[0-9]+$' "$out/keep-up/log" || cat "$out/keep-up/log"
