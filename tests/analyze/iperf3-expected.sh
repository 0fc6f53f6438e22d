#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 15 item 4: `bondcheck analyze -j` on the synthetic iperf3 capture
# (tests/data/pcap/iperf3-udp/make.py) finds exactly what make.py computed
# from the packets it generated (expected.json): per-link units, loss
# (bracketed, unbracketed), the reordering pairs, each stream's generator,
# counter width and its source, counts, duplicates and late datagrams, the
# connect datagrams and the datagrams of another generator per link.
# usage: iperf3-expected.sh BONDCHECK DATA_DIR
set -u
bc=$1
d=$2
command -v jq >/dev/null || { echo "FAIL: jq is needed (tools/install-deps)"; exit 1; }
[ -f "$d/expected.json" ] || { echo "FAIL: no $d/expected.json (run make.py there)"; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bc" analyze -j tx:eth0="$d/tx-eth0.pcap" tx:eth1="$d/tx-eth1.pcap" tx:eth2="$d/tx-eth2.pcap" \
	rx:eth0="$d/rx-eth0.pcap" rx:eth1="$d/rx-eth1.pcap" rx:eth2="$d/rx-eth2.pcap" >"$out"
rc=$?
[ "$rc" = 1 ] || { echo "FAIL: analyze exited $rc, expected 1 (wire-loss)"; exit 1; }
jq -S --slurpfile want "$d/expected.json" '
	. as $r |
	{
		links: ([.links[] | {key: .name, value: (if .side == "tx"
			then {units_left, lost, unbracketed} else {units_arrived} end)}] | from_entries),
		udp_other: ([.links[] | select(.side == "tx") | {key: .name, value: .udp_other}]
			| from_entries),
		iperf3_connect: ([.links[] | {key: .name, value: .iperf3_connect}] | from_entries),
		pairs: ([.reordering.pairs[] | {early_link, late_link, count}]
			| sort_by(.early_link, .late_link)),
		streams: ([.streams[] | {sport: $r.flows[.flow].sport, generator, counter_bits,
			counter_source, left, arrived, lost, duplicates, reordered}]
			| sort_by(.sport) | map(del(.sport)))
	} as $got |
	if $got == $want[0] then "ok: analyze found what make.py generated"
	else "FAIL: analyze found\n\($got)\nmake.py expects\n\($want[0])" | halt_error(1) end
' "$out"
