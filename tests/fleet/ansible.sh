#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bondcheck fleet through Ansible (issue 16 item 2): real ansible-playbook
# runs tools/fleet/inspect.yml over an inventory of nine "hosts",
# bcan-node01..09, with ansible_connection=local and the inspect command
# wrapped in `ip netns exec {{ inventory_hostname }}` (bc_wrap).  Eight
# are network namespaces this test creates, each replaying a recording of
# a real bond (as tests/fleet/host-inspect.sh gives them: bcan-node07 the
# virtio-net slave among veths, bcan-node08 lacp_rate slow); bcan-node09
# has no namespace, so its inspect fails and sends nothing.  The playbook
# fetches the documents and runs `bondcheck fleet` on the controller, which
# must find exactly the two drifts of the fleet-of-8 (engines.sh), naming
# bcan-node07 and bcan-node08, and bcan-node09 failed.
# usage: ansible.sh BONDCHECK SOURCE_DIR      (root: it creates namespaces)
set -u
bc=$1
src=$2
rec=$src/tests/data/recordings
fails=0
fail() { echo "ansible: $*"; exit 1; }
command -v ansible-playbook >/dev/null ||
	fail "ansible-playbook not found: run tools/install-deps (package ansible-core)"
for t in ip jq python3; do
	command -v "$t" >/dev/null || fail "$t not found: run tools/install-deps"
done
[ "$(id -u)" = 0 ] || fail "must run as root (it creates network namespaces)"
t0=$(date +%s)
tmp=$(mktemp -d) || exit 1
cleanup() {
	for i in 1 2 3 4 5 6 7 8; do ip netns del "bcan-node0$i" 2>/dev/null; done
	[ -n "${BC_KEEP:-}" ] && cp "$tmp/play.out" "$BC_KEEP"
	rm -rf "$tmp"
}
trap cleanup EXIT
for i in 1 2 3 4 5 6 7 8; do
	ip netns add "bcan-node0$i" || fail "ip netns add bcan-node0$i failed"
done

# the inventory: namespaces as hosts, each with the recording it replays
{
	echo "[fleet]"
	for i in 1 2 3 4 5 6 7 8 9; do
		case $i in
		7) r=fleet-8023ad-virtio ;;
		8) r=fleet-8023ad-slow ;;
		*) r=802.3ad-nonroot ;;
		esac
		echo "bcan-node0$i bc_inspect_args=\"--replay '$rec/$r'\""
	done
	echo "[all:vars]"
	echo "ansible_connection=local"
	echo "ansible_python_interpreter=$(command -v python3)"
	echo "bc_bondcheck=$bc"
	echo "bc_wrap=\"ip netns exec {{ inventory_hostname }}\""
	echo "bc_out=$tmp/out"
} >"$tmp/hosts.ini"
# Ansible of its own: no user or directory ansible.cfg, temporary files
# here; ansible-core refuses to start without a UTF-8 locale
: >"$tmp/ansible.cfg"
LC_ALL=C.UTF-8 ANSIBLE_CONFIG=$tmp/ansible.cfg ANSIBLE_HOME=$tmp/home \
	ANSIBLE_LOCAL_TEMP=$tmp/local-tmp ANSIBLE_REMOTE_TEMP=$tmp/remote-tmp ANSIBLE_NOCOLOR=1 \
	ansible-playbook -i "$tmp/hosts.ini" "$src/tools/fleet/inspect.yml" >"$tmp/play.out" 2>&1
rc=$?
[ "$rc" = 0 ] || { echo "FAIL ansible-playbook: exit $rc, expected 0"; tail -n 30 "$tmp/play.out"; fails=$((fails + 1)); }
n=$(find "$tmp/out/hosts" -name "*.json" 2>/dev/null | wc -l)
[ "$n" = 9 ] || { echo "FAIL $n documents fetched, expected 9: $(ls "$tmp/out/hosts" 2>&1)"; fails=$((fails + 1)); }
[ "$(jq -r .host "$tmp/out/hosts/bcan-node03.json" 2>&1)" = bcan-node03 ] ||
	{ echo "FAIL bcan-node03.json is not bcan-node03's document: $(head -c 300 "$tmp/out/hosts/bcan-node03.json")"; fails=$((fails + 1)); }

got=$(jq -c '[.counts.hosts_read, .counts.hosts_failed, .counts.hosts_missing,
	[.findings[] | select(.id == "fleet-drift") | [.attribute, .value, .majority, .hosts]],
	[.findings[] | select(.id != "fleet-drift" and .id != "fleet-host-failed") | .id],
	[.findings[] | select(.id == "fleet-host-failed") | .hosts[]]]' "$tmp/out/fleet.json" 2>&1)
want='[8,1,0,[["driver","veth, virtio_net","veth",["bcan-node07"]],["lacp_rate","slow","fast",["bcan-node08"]]],[],["bcan-node09"]]'
if [ "$got" = "$want" ]; then
	echo "ok   fleet.json: 8 hosts read, bcan-node09 failed, driver drift on bcan-node07, lacp_rate on bcan-node08"
else
	echo "FAIL fleet.json: got  $got"
	echo "                 want $want"
	fails=$((fails + 1))
fi
grep -q "^Drift .*driver on bcan-node07; lacp_rate on bcan-node08" "$tmp/out/fleet.txt" ||
	{ echo "FAIL fleet.txt's Drift answer does not name both:"; cat "$tmp/out/fleet.txt"; fails=$((fails + 1)); }
grep -q '"fleet exit 1"' "$tmp/play.out" ||
	{ echo "FAIL the play did not show the report with fleet's exit 1:"; tail -n 30 "$tmp/play.out"; fails=$((fails + 1)); }
[ "$fails" = 0 ] && echo "ansible: all checks passed ($(($(date +%s) - t0)) s)"
[ "$fails" = 0 ]
