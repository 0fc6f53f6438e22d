#!/bin/sh
# Score bondcheck on every case under the given folders: prints each failed
# fact and "N of M right" (a case is right when all its facts hold).
#   tests/cases/score.sh BONDCHECK DIR...
set -eu
[ $# -ge 2 ] || { echo "usage: $0 BONDCHECK DIR..." >&2; exit 2; }
bc=$1
shift
here=$(dirname "$0")
right=0
total=0
for d in "$@"; do
	for e in "$d"/*.expect; do
		[ -e "$e" ] || continue
		total=$((total + 1))
		if "$here/check-case.sh" "$bc" "$e"; then right=$((right + 1)); fi
	done
done
echo "$right of $total right"
[ "$right" -eq "$total" ]
