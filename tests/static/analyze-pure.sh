#!/bin/sh
# The pure layer stays pure (issue 14 item 9): nothing in src/analyze links
# against src/traffic, and no src/analyze file includes the public header of
# a src/traffic source (include/bondcheck/X.h for src/traffic/X.c).
# Usage: analyze-pure.sh SOURCE_DIR BUILD_DIR
set -eu
src=$1 build=$2
obj=$build/CMakeFiles/libbondcheck.dir/src
fail=0
ls "$obj"/analyze/*.o >/dev/null 2>&1 || { echo "no objects under $obj/analyze: build first" >&2; exit 1; }
ls "$obj"/traffic/*.o >/dev/null 2>&1 || { echo "no objects under $obj/traffic: build first" >&2; exit 1; }
for c in "$src"/src/traffic/*.c; do
	h=bondcheck/$(basename "$c" .c).h
	[ -f "$src/include/$h" ] || continue
	if grep -ln "#include \"$h\"" "$src"/src/analyze/*.[ch]; then
		echo "the files above include $h, whose code is src/traffic/$(basename "$c")"
		fail=1
	fi
done
defs=$(mktemp)
trap 'rm -f "$defs"' EXIT
nm --defined-only -g "$obj"/traffic/*.o | awk 'NF == 3 { print $3 }' | sort -u >"$defs"
for o in "$obj"/analyze/*.o; do
	bad=$(nm -u "$o" | awk '{ print $NF }' | sort -u | comm -12 - "$defs")
	if [ -n "$bad" ]; then
		echo "$(basename "$o") uses src/traffic symbols: $bad"
		fail=1
	fi
done
[ $fail = 0 ] && echo "src/analyze: no include of a src/traffic header, no src/traffic symbol"
exit $fail
