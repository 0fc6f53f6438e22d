#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 15 item 4 on a real bond: tcpdump on every slave of both ends while
# iperf3 runs a UDP test (-J, 2 streams, 64-bit counters), then `bondcheck
# analyze` of those captures must recognise iperf3's streams, put the loss on
# LOSSY's link and sum it to iperf3's lost_packets within the tolerance below.
#
# Tolerance: iperf3 -J's end.sum.lost_packets is the server's count
# (iperf_udp_recv(): gaps in the counter, minus late arrivals; minus what
# --omit's seconds lost, and this test omits none).  The captures' bracketed
# loss S differs from it L only by
#  - datagrams that reached the server's slave but not iperf3 (socket buffer
#    drops: Udp InErrors in the server's namespace, R): iperf3 counts them
#    lost, the captures arrived, so S >= L - R;
#  - losses bracketed only by datagrams the server never read (it stops at
#    TEST_END, the last ~ms in flight: at 4 Mbit/s of 1000-byte datagrams 1-2
#    datagrams, each lost with p ~ 5 % / 3): the captures count them, iperf3
#    not, so S <= L + 2.
# usage: iperf3-capture.sh CLIENT_NS SERVER_NS SERVER_ADDR LOSSY SLAVE...
# shellcheck disable=SC2086,SC2016 # $pids is a list; awk and jq programs in single quotes
set -u
a=$1 b=$2 addr=$3 lossy=$4
shift 4
slaves=$*
O=/tmp/bc-out/iperf3-capture
rm -rf "$O"
mkdir -p "$O"
fail() { echo "FAIL: $*"; exit 1; }
t0=$(date +%s.%N)
step() { awk -v t="$(date +%s.%N)" -v t0="$t0" -v m="$*" 'BEGIN { printf "+%.1fs %s\n", t - t0, m }'; }

pids=""
for ns in "$a" "$b"; do
	for s in $slaves; do
		ip netns exec "$ns" tcpdump -p -n -U -i "$s" -s 400 -B 8192 --time-stamp-precision=nano \
			-w "$O/$ns-$s.pcap" >"$O/$ns-$s.log" 2>&1 &
		pids="$pids $!"
	done
done
for ns in "$a" "$b"; do
	for s in $slaves; do
		i=0
		while ! grep -q "listening on" "$O/$ns-$s.log" 2>/dev/null; do
			i=$((i + 1))
			[ $i -lt 60 ] || { kill $pids; fail "tcpdump on $ns/$s did not start: $(cat "$O/$ns-$s.log")"; }
			sleep 0.25
		done
	done
done
step "tcpdump listening on $(echo "$slaves" | wc -w) slaves of both ends"
inerr() { ip netns exec "$b" awk '/^Udp:/ { if (h) print $4; h = 1 }' /proc/net/snmp; }
r0=$(inerr)
# iperf3's one-datagram UDP handshake can be lost on the lossy wire: retry
try=1
while :; do
	ip netns exec "$b" iperf3 -s -1 -D -I "$O/iperf3-server.pid" >/dev/null 2>&1
	i=0
	until ip netns exec "$b" ss -Hlnt 'sport = :5201' | grep -q LISTEN; do
		i=$((i + 1))
		[ $i -lt 40 ] || fail "iperf3 server did not listen"
		sleep 0.25
	done
	ip netns exec "$a" timeout 25 iperf3 -J -u -c "$addr" -t 3 -b 2M -l 1000 -P 2 \
		--udp-counters-64bit >"$O/iperf3.json" 2>&1
	jq -e '.end.sum.lost_packets' "$O/iperf3.json" >/dev/null 2>&1 && break
	[ $try -lt 3 ] || fail "iperf3 failed 3 times: $(head -c 300 "$O/iperf3.json")"
	echo "attempt $try: iperf3 failed (its UDP handshake lost?); retrying"
	[ -f "$O/iperf3-server.pid" ] && kill "$(cat "$O/iperf3-server.pid")" 2>/dev/null
	sleep 1
	try=$((try + 1))
done
r=$(($(inerr) - r0))
step "iperf3 done (attempt $try)"
# tcpdump reads its ring behind the traffic under TCG: wait until the files stop growing
last="" i=0
while [ $i -lt 40 ]; do
	now=$(stat -c %s "$O"/*.pcap)
	[ "$now" = "$last" ] && break
	last=$now i=$((i + 1))
	sleep 0.5
done
kill -INT $pids
wait
step "captures closed"
for f in "$O"/*.log; do
	grep -q "^0 packets dropped by kernel" "$f" || fail "$f: tcpdump dropped: $(cat "$f")"
done
caps=""
for s in $slaves; do
	caps="$caps tx:client/$s=$O/$a-$s.pcap rx:agent/$s=$O/$b-$s.pcap"
done
bondcheck analyze -j $caps >"$O/analyze.json"
rc=$?
[ $rc -le 1 ] || fail "analyze exited $rc"
step "analyzed"
jq -r '(.links[] | "\(.name): left \(.units_left) arrived \(.units_arrived) lost \(.lost) udp_other \(.udp_other) peer \(.peer)"),
	(. as $a | .streams[] | "stream \(.generator) \(.counter_bits)-bit (\(.counter_source)) port \($a.flows[.flow].sport) \(.direction): left \(.left) arrived \(.arrived) lost \(.lost) reordered \(.reordered)")' \
	"$O/analyze.json"
l=$(jq '.end.sum.lost_packets' "$O/iperf3.json")
p=$(jq '.end.sum.packets' "$O/iperf3.json")
echo "iperf3: lost_packets $l of $p (server), Udp InErrors at the server +$r; per stream: $(jq -r '
	.start.connected as $c | [.end.streams[].udp | .socket as $s
	| "port \($c[] | select(.socket == $s) | .local_port) lost \(.lost_packets) of \(.packets)"]
	| join(", ")' "$O/iperf3.json")"
q='. as $a |
	[.streams[] | select(.generator == "iperf3" and .direction == "forward")] as $s |
	([.links[] | select(.side == "tx") | .lost] | add) as $sum |
	([.links[] | select(.side == "tx" and (.name | endswith("/" + $lossy))) | .lost] | add) as $on'
jq -r --argjson l "$l" --argjson r "$r" --arg lossy "$lossy" "$q"' |
	"analyze: \($s | length) iperf3 streams (\([$s[] | "\(.counter_bits)-bit from \(.counter_source)"]
	| unique | join(", "))), left \([$s[].left] | add), lost \($sum) (\($on) on \($lossy)), "
	+ "tolerance [\($l - $r), \($l + 2)]"' "$O/analyze.json"
jq -e --argjson l "$l" --argjson r "$r" --arg lossy "$lossy" "$q"' |
	($s | length) == 2 and all($s[]; .counter_bits == 64 and .counter_source == "control" and .left > 500)
	and $sum > 0 and $on == $sum and $sum >= $l - $r and $sum <= $l + 2
	and ([$a.links[] | select(.side == "tx") | .peer // "-" | sub("^.*/"; "")]
		== [$a.links[] | select(.side == "tx") | .name | sub("^.*/"; "")])' \
	"$O/analyze.json" >/dev/null || fail "analyze does not match iperf3 (see above)"
echo "ok"
