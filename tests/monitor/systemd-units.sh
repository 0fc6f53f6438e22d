#!/bin/sh
# The example units of tools/fleet (issue 16 item 5): systemd-analyze verify
# accepts them without a word, and the service's ExecStart, run here with
# this build's bondcheck replaying recordings, writes the .prom atomically
# (no temporary file left, the file complete) and exits as the unit expects:
# 1 for findings (SuccessExitStatus=1: the unit succeeds), 3 when inspect
# failed (the unit fails, the file says bondcheck_up 0).
#
#   systemd-units.sh BONDCHECK SOURCE_DIR
set -u
bc=$1 src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v systemd-analyze >/dev/null ||
	fail "systemd-analyze not found: install Debian's package systemd (tools/install-deps)"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
units=$src/tools/fleet
svc=$units/bondcheck-textfile.service

# --man=no: the man page is not installed on a build machine
out=$(systemd-analyze verify --man=no "$svc" "$units/bondcheck-textfile.timer" 2>&1) ||
	fail "systemd-analyze verify refused the units: $out"
[ -z "$out" ] || fail "systemd-analyze verify warned: $out"
grep -qx 'SuccessExitStatus=1' "$svc" || fail "$svc: expected SuccessExitStatus=1 (findings are no failure)"

# The ExecStart line in shell syntax: systemd's $$ is the shell's $
line=$(sed -n 's/^ExecStart=//p' "$svc")
[ -n "$line" ] || fail "$svc: no ExecStart"
run() { # RECORDING: runs ExecStart with the output in $tmp/tf/bondcheck.prom
	cmd=$(printf '%s\n' "$line" | sed -e 's/\$\$/$/g' \
		-e "s|/usr/bin/bondcheck inspect|\"$bc\" inspect --replay \"$src/tests/data/recordings/$1\"|" \
		-e "s|/var/lib/prometheus/node-exporter/bondcheck.prom|$tmp/tf/bondcheck.prom|")
	eval "$cmd" 2>/dev/null
}
mkdir "$tmp/tf"
run lacp-split
rc=$?
[ $rc -eq 1 ] || fail "lacp-split: ExecStart exited $rc, expected 1 (error-level findings)"
[ "$(ls -A "$tmp/tf")" = bondcheck.prom ] || fail "expected bondcheck.prom alone, found: $(ls -A "$tmp/tf")"
grep -qx 'bondcheck_up 1' "$tmp/tf/bondcheck.prom" || fail "lacp-split: no 'bondcheck_up 1'"
grep -q '^bondcheck_finding{id="lacp-split-aggregator"' "$tmp/tf/bondcheck.prom" ||
	fail "lacp-split: no lacp-split-aggregator finding"
[ "$(stat -c %a "$tmp/tf/bondcheck.prom")" = 644 ] || fail "the .prom is not mode 0644"
run no-bonds
rc=$?
[ $rc -eq 3 ] || fail "no-bonds: ExecStart exited $rc, expected 3 (environment)"
[ "$(ls -A "$tmp/tf")" = bondcheck.prom ] || fail "expected bondcheck.prom alone, found: $(ls -A "$tmp/tf")"
grep -qx 'bondcheck_up 0' "$tmp/tf/bondcheck.prom" || fail "no-bonds: no 'bondcheck_up 0'"
echo "ok: units verified, ExecStart writes atomically and exits 1/3"
