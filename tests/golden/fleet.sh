#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bondcheck fleet end to end on recordings of real bonds (tests/data/recordings,
# the testbed's 6.1 kernel and bonding driver): each "host" replays one
# recording with `inspect --replay REC --host NAME -j --json-line`, its line
# prefixed "NAME: " as pdsh -R exec prints it, the hosts interleaved; fleet
# reads that from stdin with --expect.  The text and JSON reports are compared
# with tests/golden/fleet/*.{txt,json} (BC_GOLDEN_UPDATE=1 rewrites them), and
# the exit status must be 1 (missing hosts, a duplicate LACP actor system).
# The same documents as one file per host give the same JSON but for the
# origins.
# usage: fleet.sh BONDCHECK SOURCE_DIR
set -u
bc=$1
src=$2
rec=$src/tests/data/recordings
gold=$src/tests/golden/fleet
tmp=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=0
fails=0

# node01 and node05 replay one recording: the same LACP actor system MAC on
# two hosts (cloned VMs), which fleet must report; node03 has two slaves
# where the others have three, node04 another driver and speed, node06 a
# balance-rr bond0 among 802.3ad ones, node07 no bond (inspect exits 3 and
# prints its {"error": ...} object on one line: a failed host), node08 nothing.
hosts="node01:mode-802.3ad node02:802.3ad-nonroot node03:lacp-no-partner node04:lacp-split
node05:mode-802.3ad node06:mixed-drivers node07:no-bonds"
for hr in $hosts; do
	h=${hr%%:*} r=${hr#*:}
	"$bc" inspect --replay "$rec/$r" --host "$h" -j --json-line >"$tmp/$h.json" 2>/dev/null
	sed "s/^/$h: /" "$tmp/$h.json" >"$tmp/$h.pdsh"
done
# interleave as pdsh does: lines of different hosts in arrival order
paste -d '\n' "$tmp"/node0[1-7].pdsh | sed '/^$/d' >"$tmp/all.pdsh"

compare() { # NAME: $tmp/NAME against $gold/NAME (version masked)
	sed 's/"bondcheck_version":"[^"]*"/"bondcheck_version":"VERSION"/' "$tmp/$1" >"$tmp/$1.m"
	if [ "${BC_GOLDEN_UPDATE:-}" = 1 ]; then
		cp "$tmp/$1.m" "$gold/$1"
		echo "updated $gold/$1"
	elif ! diff -u "$gold/$1" "$tmp/$1.m"; then
		echo "FAIL: $1 differs from $gold/$1"
		fails=$((fails + 1))
	fi
}

"$bc" fleet --expect 'node[01-08]' <"$tmp/all.pdsh" >"$tmp/pdsh.txt" 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] || { echo "FAIL: fleet exit $rc, expected 1"; cat "$tmp/err"; fails=$((fails + 1)); }
compare pdsh.txt
"$bc" fleet --expect 'node[01-08]' -j <"$tmp/all.pdsh" >"$tmp/pdsh.json"
compare pdsh.json

# one file per host (an Ansible fetch): the same findings and hosts
mkdir "$tmp/dir"
# (node07's inspect -j --json-line printed its error object: a failed host both ways)
for h in node01 node02 node03 node04 node05 node06 node07; do cp "$tmp/$h.json" "$tmp/dir/"; done
"$bc" fleet --expect 'node[01-08]' -j "$tmp/dir" >"$tmp/dir.json"
a=$(jq -c '[.findings, [.hosts[] | del(.origin)]]' "$tmp/dir.json")
b=$(jq -c '[.findings, [.hosts[] | del(.origin)]]' "$tmp/pdsh.json")
[ -n "$a" ] && [ "$a" != "[null,[]]" ] || { echo "FAIL: no fleet document from the folder"; fails=$((fails + 1)); }
[ "$a" = "$b" ] || { echo "FAIL: a folder of files gives other findings than pdsh output"; fails=$((fails + 1)); }

# a line without a 'HOST: ' prefix (a dshbak -c separator) is said and
# skipped (a "word: text" line is a prefix by syntax, as dshbak takes it); an empty
# stdin is no input (exit 4); a bad --expect is a usage error (exit 2)
{ echo "----------------"; cat "$tmp/all.pdsh"; } |
	"$bc" fleet >/dev/null 2>"$tmp/err"
grep -q "1 line without a 'HOST: ' prefix ignored (the first is line 1)" "$tmp/err" ||
	{ echo "FAIL: the unprefixed line was not reported"; cat "$tmp/err"; fails=$((fails + 1)); }
"$bc" fleet </dev/null >/dev/null 2>&1
[ $? = 4 ] || { echo "FAIL: empty stdin: expected exit 4"; fails=$((fails + 1)); }
"$bc" fleet --expect 'node[3-1]' "$tmp/dir" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "from low to high" "$tmp/err" ||
	{ echo "FAIL: --expect node[3-1]: expected exit 2 naming the range"; fails=$((fails + 1)); }
[ "$fails" = 0 ] && echo "fleet: all checks passed"
[ "$fails" = 0 ]
