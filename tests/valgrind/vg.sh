#!/bin/sh
# vg.sh VALGRIND MAXRC CMD [ARGS...]: run CMD under valgrind memcheck; pass when
# valgrind found no invalid access, no uninitialised read and no definite
# leak (its exit 99) and CMD exited 0..MAXRC (findings and input errors are
# normal exits; a signal or another status fails).  Output only on failure.
vg=$1 max=$2
shift 2
command -v "$vg" >/dev/null 2>&1 || { echo "valgrind not found ('$vg'): run tools/install-deps"; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$vg" -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--track-origins=yes "$@" >"$out" 2>&1
rc=$?
if [ "$rc" -eq 99 ] || [ "$rc" -gt "$max" ]; then
	tail -60 "$out"
	echo "FAIL: exit $rc (99: valgrind found an error; allowed 0..$max): $*"
	exit 1
fi
echo "ok: exit $rc under valgrind: $*"
