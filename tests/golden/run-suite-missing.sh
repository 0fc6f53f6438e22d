#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 14 item 10: a saved suite document of schema 1 re-analysed by
# `bondcheck run --from-json` follows the capacity model, and a copy with an
# input of the model removed (jq del) gives inconclusive verdicts that name
# the missing member, never a pass on a default.
# usage: run-suite-missing.sh BONDCHECK DATA_DIR
set -u
bc=$1
data=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

# check NAME DOC QUESTION STATUS MISSING: the verdict QUESTION of DOC has
# STATUS and (MISSING not "-") its cause names MISSING among the missing members
check() {
	"$bc" run --from-json "$2" -j >"$tmp/out.json" 2>/dev/null
	got=$(jq -r --arg q "$3" '.verdicts[$q] | [.status, (.cause.mechanism // "-"),
		(.cause.evidence.missing // "-")] | join("|")' "$tmp/out.json")
	st=${got%%|*}
	ok=1
	[ "$st" = "$4" ] || ok=0
	if [ "$5" != - ]; then
		case $got in
		*"|missing-input|"*"$5"*) ;;
		*) ok=0 ;;
		esac
	fi
	if [ $ok = 1 ]; then
		echo "ok   $1: $3 $got"
	else
		echo "FAIL $1: $3 is '$got', expected status $4, missing '$5'"
		fails=$((fails + 1))
	fi
}

# cut NAME SOURCE JQ: a copy of tests/data/run-suite/SOURCE.json edited by JQ
cut() {
	jq "$3" "$data/$2.json" >"$tmp/$1.json" || exit 1
}

placed=$data/8023ad-placed-quick.json
[ "$(jq .schema_version "$placed")" = 1 ] || { echo "FAIL $placed is not schema 1"; exit 1; }

# the saved document as it is: every input present, the model's verdicts
check placed "$placed" udp_gap pass -
check placed "$placed" drivers pass -
check placed "$placed" aggregation fail -

# no qdisc rate on eth1: its veth's nominal 10 Gbit/s must not become a ceiling
cut no-tbf 8023ad-placed-quick 'del(.egress.client.bond.slaves[1].tbf_bps)'
for q in aggregation udp_gap drivers; do
	check no-tbf "$tmp/no-tbf.json" $q inconclusive 'egress.client.bond.slaves[eth1].tbf_bps'
done
# no qdisc rate on mixed-drivers' eth0, an e1000: its speed is a real rate
# (the egress record names a driver, so it is no virtual device), but
# whether a shaper set it is not known
cut no-tbf-nic mixed-drivers-quick 'del(.egress.client.bond.slaves[0].tbf_bps)'
check no-tbf-nic "$tmp/no-tbf-nic.json" drivers inconclusive 'egress.client.bond.slaves[eth0].tbf_bps'
jq -r '.verdicts.drivers.cause.evidence.missing' "$tmp/out.json" | grep -q virtual &&
	{ echo "FAIL no-tbf-nic: names virtual for a NIC with a driver"; fails=$((fails + 1)); }
# no active aggregator: the selection is unknown (the old code passed UDP gap and Drivers)
cut no-ad-info 8023ad-placed-quick 'del(.ends.client.bonds[0].ad_info)'
for q in aggregation udp_gap drivers; do
	check no-ad-info "$tmp/no-ad-info.json" $q inconclusive 'ends.client.bonds[0].ad_info'
done
# a slave the inspection does not list is not taken as up
cut no-slave 8023ad-placed-quick 'del(.ends.client.bonds[0].slaves[2])'
check no-slave "$tmp/no-slave.json" udp_gap inconclusive 'ends.client.bonds[0].slaves[eth2]'
# no egress record of the client: no slave ceilings at all
cut no-egress 8023ad-placed-quick 'del(.egress.client)'
for q in aggregation udp_gap drivers; do
	check no-egress "$tmp/no-egress.json" $q inconclusive 'egress.client'
done
# 802.3ad keys: no duplex, no key
cut no-duplex 8023ad-placed-quick 'del(.ends.client.bonds[0].slaves[0].duplex)'
check no-duplex "$tmp/no-duplex.json" drivers inconclusive 'ends.client.bonds[0].slaves[eth0].duplex'
# the mixed-speed document: without eth1's aggregator the selection is unknown
cut no-agg-id 8023ad-mixed-speed-quick 'del(.ends.client.bonds[0].slaves[1].aggregator_id)'
check no-agg-id "$tmp/no-agg-id.json" aggregation inconclusive \
	'ends.client.bonds[0].slaves[eth1].aggregator_id'
# fragmented datagrams lost after arrival (the reassembled stage) and every
# search trial lossy: a schema-1 ledger counted reassembly from the captures
# alone, so UDP gap names the kernel's record it lacks; with the record
# (here empty) the verdict fails as before
over='(.tests[] | select(.name == "udp-over") | .result.capture.analysis)'
lossy="$over.fragments.messages_arrived = 700 | $over.ledger[3].drop = 500 |
	(.udp_search.trials[] |= (.no_drop = false | .loss_ratio = 0.5 |
	 .received_packets = ((.sent_packets / 2) | floor)))"
cut reasm 8023ad-placed-quick "$lossy"
check reasm "$tmp/reasm.json" udp_gap inconclusive 'tests[udp-over].result.capture.analysis.reassembly'
cut reasm-kept 8023ad-placed-quick "$lossy | $over.reassembly = {}"
check reasm-kept "$tmp/reasm-kept.json" udp_gap fail -
# UDP gap as data: the cause is the ledger's loss finding, with its stage,
# link and counter, and the next step names the sysctl; the UDP capacity
# model takes 500 messages x 1472 bytes x 8 / 1 s of the gap for it
# (capacity.h), which the cause gives as lost
cut reasm-found 8023ad-placed-quick "$lossy | $over.reassembly = {} |
	(.tests[] | select(.name == \"udp-over\") | .result.findings) += [{id: \"rx-loss-reassembly\",
	severity: \"error\", subject: \"rx:agent/eth1\", evidence: {host: \"agent\",
	count: \"500\", counter: \"Ip ReasmFails +500\"}}]"
"$bc" run --from-json "$tmp/reasm-found.json" -j 2>/dev/null >"$tmp/out.json"
got=$(jq -r '.verdicts.udp_gap | [.status, .cause.mechanism, .cause.where,
	.cause.evidence.stage, .cause.evidence.counter, .cause.evidence.lost] | join("|")' "$tmp/out.json")
want='fail|rx-loss-reassembly|rx:agent/eth1|reassembled|Ip ReasmFails +500|5.89 Mbit/s'
if [ "$got" = "$want" ] && jq -e '.verdicts.udp_gap.next_step | test("ipfrag_high_thresh")' \
	"$tmp/out.json" >/dev/null; then
	echo "ok   reasm-found: udp_gap $got"
else
	echo "FAIL reasm-found: udp_gap is '$got', expected '$want' and a next step naming ipfrag_high_thresh"
	fails=$((fails + 1))
fi
# the decoded document's own checks (src/analyze/suite-doc.c): a measured
# member a verdict reads is never a default.  The old code took an absent
# tcp-k goodput as 0 (Aggregation fail), absent packet counts as 0 and an
# absent placement as "not placed"
k='(.tests[] | select(.name == "tcp-k") | .result)'
cut no-goodput 8023ad-placed-quick "del($k.goodput_bps)"
check no-goodput "$tmp/no-goodput.json" aggregation inconclusive 'tests[tcp-k].result.goodput_bps'
o='(.tests[] | select(.name == "udp-over") | .result)'
cut no-sent 8023ad-placed-quick "del($o.streams[1].sent_packets)"
check no-sent "$tmp/no-sent.json" udp_gap inconclusive \
	'tests[udp-over].result.streams[1].sent_packets'
cut no-placed 8023ad-placed-quick 'del(.placement.placed)'
for q in aggregation udp_gap drivers; do
	check no-placed "$tmp/no-placed.json" $q inconclusive 'placement.placed'
done
cut str-goodput 8023ad-placed-quick "$k.goodput_bps = \"fast\""
check str-goodput "$tmp/str-goodput.json" aggregation inconclusive 'tests[tcp-k].result.goodput_bps'
# a search trial without its refused sends was taken as a clean trial
cut no-refused 8023ad-placed-quick 'del(.udp_search.trials[0].refused)'
check no-refused "$tmp/no-refused.json" udp_gap inconclusive 'udp_search.trials[0].refused'
# the derive-tables stage's reader (src/analyze/suite-input-read.c): a
# capture link without its forward wire bytes was a link that carried
# nothing (share 0: the model blamed hash placement), and a test without
# its protocol had its UDP rows judged against the TCP ceilings
cut no-fwd 8023ad-placed-quick "del($k.capture.analysis.links[0].forward)"
for q in aggregation drivers; do
	check no-fwd "$tmp/no-fwd.json" $q inconclusive \
		'tests[tcp-k].result.capture.analysis.links[0].forward.wire_bytes'
done
cut over-no-fwd 8023ad-placed-quick "del($o.capture.analysis.links[1].forward.wire_bytes)"
check over-no-fwd "$tmp/over-no-fwd.json" udp_gap inconclusive \
	'tests[udp-over].result.capture.analysis.links[1].forward.wire_bytes'
cut no-proto 8023ad-placed-quick "del($o.test.protocol)"
check no-proto "$tmp/no-proto.json" drivers inconclusive 'tests[udp-over].result.test.protocol'
# a receiver stream without its reorder density (the old code crashed)
cut no-density 8023ad-placed-quick "del($o.streams[0].reordering)"
check no-density "$tmp/no-density.json" udp_gap pass -
# a JSON null is "unknown", not missing: mixed-drivers' virtio slave has a null duplex
check mixed-drivers "$data/mixed-drivers-quick.json" drivers fail -

# the exit status: nothing failed, nothing passed
"$bc" run --from-json "$tmp/no-ad-info.json" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc != 0 ]; then
	echo "FAIL no-ad-info: exit $rc, expected 0 (every verdict inconclusive)"
	fails=$((fails + 1))
fi
exit $((fails > 0))
