#!/bin/sh
# Every file in tests/data/bad-scenarios must be rejected by bc-scenario with
# the FILE:LINE: reason listed in EXPECTED; a file that passes is a failure.
# usage: check-bad-scenarios.sh BC_SCENARIO DIR
set -u
bcs=$1
dir=$2
fail=0
n=0
grep -v '^#' "$dir/EXPECTED" | while read -r file want; do
	[ -n "$file" ] || continue
	got=$(cd "$dir" && "$bcs" check "$file" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "FAIL $file: accepted, expected '$want'"
		exit 1
	fi
	case $got in
	*"$want"*) echo "ok   $file: $got" ;;
	*) echo "FAIL $file: expected '$want', got '$got'"; exit 1 ;;
	esac
done || fail=1
# every bad file must be listed
for f in "$dir"/*.scn; do
	n=$((n + 1))
	grep -q "^$(basename "$f") " "$dir/EXPECTED" || { echo "FAIL $(basename "$f") has no EXPECTED line"; fail=1; }
done
[ $n -ge 10 ] || { echo "FAIL only $n bad scenarios found in $dir"; fail=1; }
exit $fail
