#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bondcheck fleet through the engines sites run it with (issue 16 item 2):
# real pdsh (-R exec) and ClusterShell (clush -R exec) launch
# `bondcheck inspect` on eight "hosts", network namespaces bcfl-node01..08
# that this test creates, each replaying a recording of a real bond made in
# the QEMU testbed (tests/fleet/host-inspect.sh says which).  Their output,
# "HOST: line" as each engine prints it, goes into `bondcheck fleet`, which
# must find exactly two drifts: bcfl-node07's slave of another driver
# (virtio_net among veth) and bcfl-node08's lacp_rate slow among fast; a
# ninth host that does not exist (no namespace: the engine reports the
# failure on stderr, nothing on stdout) is missing under --expect.
# usage: engines.sh BONDCHECK SOURCE_DIR      (root: it creates namespaces)
set -u
bc=$1
src=$2
rec=$src/tests/data/recordings
hi=$src/tests/fleet/host-inspect.sh
fails=0
for t in pdsh clush ip jq; do
	command -v "$t" >/dev/null ||
		{ echo "engines: $t not found: run tools/install-deps (packages pdsh, clustershell)"; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "engines: must run as root (it creates network namespaces)"; exit 1; }
tmp=$(mktemp -d) || exit 1
cleanup() {
	for i in 1 2 3 4 5 6 7 8; do ip netns del "bcfl-node0$i" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
for i in 1 2 3 4 5 6 7 8; do
	ip netns add "bcfl-node0$i" || { echo "engines: ip netns add bcfl-node0$i failed"; exit 1; }
done

# check NAME FILE: the fleet document FILE has 8 hosts read, the ninth
# missing, and exactly the two drifts
check() {
	got=$(jq -c '[.counts.hosts_read, .counts.hosts_missing,
		[.findings[] | select(.id == "fleet-drift") | [.attribute, .value, .majority, .hosts]],
		[.findings[] | select(.id != "fleet-drift" and .id != "fleet-host-missing") | .id],
		[.findings[] | select(.id == "fleet-host-missing") | .hosts[]]]' "$2")
	want='[8,1,[["driver","veth, virtio_net","veth",["bcfl-node07"]],["lacp_rate","slow","fast",["bcfl-node08"]]],[],["bcfl-node09"]]'
	if [ "$got" = "$want" ]; then
		echo "ok   $1: 8 hosts read, bcfl-node09 missing, driver drift on bcfl-node07, lacp_rate on bcfl-node08"
	else
		echo "FAIL $1: got  $got"
		echo "            want $want"
		fails=$((fails + 1))
	fi
}

# pdsh -R exec runs the command once per host, %h replaced, and prefixes
# each line of its output with "HOST: "
pdsh -R exec -w 'bcfl-node[01-09]' ip netns exec %h sh "$hi" "$bc" "$rec" %h \
	>"$tmp/pdsh.out" 2>"$tmp/pdsh.err"
grep -q "^bcfl-node01: {" "$tmp/pdsh.out" ||
	{ echo "FAIL pdsh printed no prefixed document"; head -5 "$tmp/pdsh.out" "$tmp/pdsh.err"; fails=$((fails + 1)); }
"$bc" fleet --expect 'bcfl-node[01-09]' -j <"$tmp/pdsh.out" >"$tmp/pdsh.json" 2>"$tmp/fleet.err"
rc=$?
[ "$rc" = 1 ] || { echo "FAIL pdsh: fleet exit $rc, expected 1 (a missing host)"; cat "$tmp/fleet.err"; fails=$((fails + 1)); }
check pdsh "$tmp/pdsh.json"

# clush -R exec: the same, ClusterShell's exec worker
clush -R exec -w 'bcfl-node[01-09]' ip netns exec %h sh "$hi" "$bc" "$rec" %h \
	>"$tmp/clush.out" 2>"$tmp/clush.err"
"$bc" fleet --expect 'bcfl-node[01-09]' -j <"$tmp/clush.out" >"$tmp/clush.json" 2>/dev/null
check clush "$tmp/clush.json"

# the text report names both in its answers
"$bc" fleet --brief --expect 'bcfl-node[01-09]' <"$tmp/pdsh.out" >"$tmp/brief.txt" 2>/dev/null
grep -q "^Drift .*driver on bcfl-node07; lacp_rate on bcfl-node08" "$tmp/brief.txt" ||
	{ echo "FAIL the Drift answer does not name both:"; cat "$tmp/brief.txt"; fails=$((fails + 1)); }
[ "$fails" = 0 ] && echo "engines: all checks passed"
[ "$fails" = 0 ]
