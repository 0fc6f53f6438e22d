#!/bin/sh
# inspect --format prometheus checked by Prometheus's own linter (issue 16
# item 5): `promtool check metrics` (Debian package prometheus) on the output
# of every recording of a real bond (tests/data/recordings, --replay), every
# shared /proc case (--from-proc), a bond name that needs escaping, and an
# inspect that failed (bondcheck_up 0).  promtool exits 1 on a parse error
# and 3 on a lint problem (a counter without _total, a non-base unit); both
# fail the test.  A broken file must be refused, so the check has teeth.
#
#   promtool.sh BONDCHECK SOURCE_DIR
set -u
bc=$1 src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v promtool >/dev/null ||
	fail "promtool not found: install Debian's package prometheus (tools/install-deps)"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT

n=0
check() { # NAME EXPECTED-UP: the output in $tmp/out.prom
	out=$(promtool check metrics <"$tmp/out.prom" 2>&1) ||
		fail "$1: promtool check metrics refused it: $out"
	[ -z "$out" ] || fail "$1: promtool said: $out"
	grep -qx "bondcheck_up $2" "$tmp/out.prom" || fail "$1: expected 'bondcheck_up $2'"
	! grep -q '^bondcheck_.*} [0-9.e+-]* [0-9]' "$tmp/out.prom" ||
		fail "$1: a sample carries a timestamp"
	n=$((n + 1))
}

for d in "$src"/tests/data/recordings/*/; do
	[ -f "$d/meta/format" ] || continue
	name=$(basename "$d")
	"$bc" inspect --replay "$d" --format prometheus >"$tmp/out.prom" 2>"$tmp/err"
	rc=$?
	case "$name:$rc" in
	no-bonds:3) check "$name" 0 ;;
	no-bonds:*) fail "$name: exit $rc, expected 3 (no bond)" ;;
	*:0 | *:1) check "$name" 1 ;;
	*) fail "$name: exit $rc: $(cat "$tmp/err")" ;;
	esac
done
for f in "$src"/tests/data/proc-net-bonding/*.txt; do
	"$bc" inspect --from-proc "$f" --name bond0 --format prometheus >"$tmp/out.prom" 2>/dev/null
	rc=$?
	[ $rc -le 1 ] || fail "$(basename "$f"): exit $rc"
	check "$(basename "$f")" 1
done
# a legal interface name with a quote and a backslash: escaped label values
c16=$src/tests/data/proc-net-bonding/16-8023ad-v6.6-wsl2-nonroot-view.txt
"$bc" inspect --from-proc "$c16" --name 'b"o\nd' --format prometheus >"$tmp/out.prom" ||
	fail "escaped name: exit $?"
check escaped-name 1
grep -q 'bondcheck_bond_info{bond="b\\"o\\\\nd",' "$tmp/out.prom" ||
	fail "escaped name: expected bond=\"b\\\"o\\\\nd\" in bondcheck_bond_info"
# an input that cannot be read: bondcheck_up 0 on stdout, the error on stderr, exit 4
"$bc" inspect --from-proc /nonexistent/bond0 --format prometheus >"$tmp/out.prom" 2>"$tmp/err"
rc=$?
[ $rc -eq 4 ] || fail "missing file: exit $rc, expected 4"
grep -q "cannot open '/nonexistent/bond0'" "$tmp/err" || fail "missing file: no error on stderr"
check missing-file 0

printf 'bondcheck_up{bond="x} 1\n' >"$tmp/out.prom"
promtool check metrics <"$tmp/out.prom" >/dev/null 2>&1 &&
	fail "promtool accepted a broken file: the check proves nothing"
echo "ok: promtool accepted $n outputs"
