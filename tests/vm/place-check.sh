#!/bin/sh
# Testbed check of `bondcheck run --place` on a live bond (issue 4, item 9).
# Runs inside the guest (POSIX sh), called from test-scenarios/run-placement.scn.
#
#   place-check.sh place  NS PEER BOND SLAVE...   layer3+4: every flow on its predicted slave
#   place-check.sh single NS PEER BOND POLICY      hash-single-path under POLICY, one slave used
#   place-check.sh reverse NS PEER BOND AGENT_NS SLAVE...  -R: every reverse flow on the
#                                                  slave the agent predicted
#
# Both run `bondcheck run -u --place per-slave -b 2M -l 200 -t 2` from NS
# (2 Mbit/s in all: ~2500 datagrams of 200 bytes) and read every slave's
# sysfs tx_packets before and after.
# place: tcpdump on every listed slave's egress counts each flow's datagrams
# (by client port) per slave; the predicted slave of every flow must carry
# >= 90 % of what was captured of that flow (the clear majority; tcpdump
# under TCG may miss some, so >= 50 % of the flow must be captured), each
# listed slave must be predicted K times, its tx_packets delta must be at
# least what its predicted flows sent and at most 5 % of all datagrams more
# (LACPDUs, control traffic), --rate stays the total, and
# both ends' run metadata hold the collector's view of every slave (driver,
# offloads, driver counter deltas).
# reverse: `run -u -R --place per-slave` (the agent sends); placement.reverse
# must be placed, name each of the agent's listed slaves K times, and each
# agent slave's tx_packets delta must be at least what its predicted flows
# sent and at most 5 % of all datagrams more.
# single: the run reports hash-single-path for POLICY and no placement, and
# one slave's tx_packets delta holds >= 95 % of the datagrams sent.
# Exit 0 when all holds; the figures are printed either way.  Process starts
# cost ~0.3 s in a TCG guest: one jq decides, the rest are shell builtins.
set -u
mode=$1 ns=$2 peer=$3 bond=$4
shift 4
O=/tmp/bc-out/place-check
mkdir -p "$O"
run() { ip netns exec "$ns" bondcheck run --peer "$peer" -u --place per-slave -l 200 -b 2M -t 2 -j; }
# {"slave": tx_packets, ...} of every slave of $bond (sysfs of the namespace:
# ip netns exec remounts /sys)
# tx_all [NS]: NS defaults to the client's
tx_all() {
	ip netns exec "${1:-$ns}" sh -c 'read -r sl </sys/class/net/'"$bond"'/bonding/slaves; c=""
		for s in $sl; do read -r v </sys/class/net/$s/statistics/tx_packets; c="$c${c:+,}\"$s\":$v"; done
		echo "{$c}"'
}

case $mode in
reverse)
	ans=$1
	shift
	want="$*" tag=reverse-$(echo "$*" | tr ' ' '-')
	t0=$(tx_all "$ans")
	ip netns exec "$ns" bondcheck run --peer "$peer" -u -R --place per-slave -l 200 -b 2M -t 2 -j \
		>"$O/$tag.json" 2>"$O/$tag.err"
	rc=$?
	t1=$(tx_all "$ans")
	jq -r -e --argjson t0 "$t0" --argjson t1 "$t1" --arg want "$want" --argjson rc $rc '
		([$t1 | keys[] | {key: ., value: ($t1[.] - $t0[.])}] | from_entries) as $d
		| ($want | split(" ")) as $w
		| .placement.reverse as $r
		| (($r.streams // []) | length) as $n
		| ($n / ($w | length) | floor) as $k
		| .streams as $st | ([$st[].sent_packets] | add) as $total
		| "reverse: agent slave TX deltas \($d | tojson); placement \($r | tojson)",
		  (if $rc != 0 then "FAIL: run exit \($rc)" else empty end),
		  (if $r.placed != true then "FAIL: the agent did not place: \($r.reason)" else empty end),
		  (if ([$r.streams[].predicted_slave] | sort) != ([range($k) as $_ | $w[]] | sort) or $n < ($w | length)
		   then "FAIL: agent predicted \([$r.streams[].predicted_slave]), expected each of \($w) \($k) time(s)" else empty end),
		  ($r.streams[] | . as $p | ([$st[] | select(.id == $p.id)][0]) as $s
		   | "flow \($p.id) agent port \($p.agent_port) -> client port \($p.client_port) (bound: \($s.client_port)) predicted \($p.predicted_slave): \($s.sent_packets) sent",
		     (if $s.client_port != $p.client_port then "FAIL: flow \($p.id) used client port \($s.client_port)" else empty end),
		     (if $s.sent_packets < 300 then "FAIL: flow \($p.id) sent only \($s.sent_packets)" else empty end)),
		  ($w[] as $s
		   | ([$r.streams[] | select(.predicted_slave == $s) | .id as $i | $st[] | select(.id == $i) | .sent_packets] | add // 0) as $exp
		   | if $d[$s] < $exp or $d[$s] > $exp + $total * 0.05
		     then "FAIL: agent \($s) TX delta \($d[$s]), its predicted flows sent \($exp) (of \($total))" else empty end)
		' "$O/$tag.json" >"$O/$tag.verdict" || { cat "$O/$tag.err" "$O/$tag.verdict"; exit 1; }
	;;
single)
	policy=$1 tag=single-$1
	ip -n "$ns" link set "$bond" type bond xmit_hash_policy "$policy" || { echo "FAIL: set $policy"; exit 1; }
	t0=$(tx_all)
	run >"$O/$tag.json" 2>"$O/$tag.err"
	rc=$?
	t1=$(tx_all)
	jq -r -e --argjson t0 "$t0" --argjson t1 "$t1" --arg policy "$policy" --argjson rc $rc '
		([$t1 | keys[] | {key: ., value: ($t1[.] - $t0[.])}] | from_entries) as $d
		| ([.streams[].sent_packets] | add) as $sent
		| ([$d[]] | max) as $max
		| [.findings[] | select(.id == "hash-single-path")] as $f
		| "single \($policy): \(.streams | length) streams, \($sent) datagrams sent; slave TX deltas \($d | tojson)",
		  (if $rc != 0 then "FAIL: run exit \($rc)" else empty end),
		  (if ($f | length) != 1 then "FAIL: no hash-single-path finding" else empty end),
		  (if $f[0].evidence.xmit_hash_policy != $policy then "FAIL: finding names \($f[0].evidence.xmit_hash_policy)" else empty end),
		  (if .placement then "FAIL: a placement was reported" else empty end),
		  (if $sent < 1000 then "FAIL: only \($sent) datagrams sent" else empty end),
		  (if $max < $sent * 0.95 then "FAIL: busiest slave carried \($max) of \($sent)" else empty end),
		  (if ([$d[]] | add) - $max > $sent * 0.05 then "FAIL: other slaves carried more than 5 %" else empty end)
		' "$O/$tag.json" >"$O/$tag.verdict" || { cat "$O/$tag.err" "$O/$tag.verdict"; exit 1; }
	;;
place)
	want="$*"
	tag=$(echo "$want" | tr ' ' '-')
	# a capture of our outgoing UDP on every listed slave (AF_PACKET is built
	# in; the testbed loads no tc classifier that could count by port)
	pids=""
	for s in $want; do
		ip netns exec "$ns" tcpdump -p -n -U -i "$s" -Q out -s 64 -B 4096 -w "$O/$tag-$s.pcap" \
			"udp and src host $(ip -n "$ns" -4 -j addr show dev "$bond" | jq -r '.[0].addr_info[0].local')" \
			>"$O/$tag-$s.log" 2>&1 &
		pids="$pids $!"
	done
	i=0
	for s in $want; do
		while ! grep -q "listening on" "$O/$tag-$s.log" 2>/dev/null; do
			i=$((i + 1))
			[ $i -lt 60 ] || { echo "FAIL: tcpdump on $s did not start"; cat "$O/$tag-$s.log"; kill $pids; exit 1; }
			sleep 0.25
		done
	done
	t0=$(tx_all)
	run >"$O/$tag.json" 2>"$O/$tag.err"
	rc=$?
	t1=$(tx_all)
	# tcpdump reads its ring behind the traffic under TCG, and what is still
	# in the ring at SIGINT is neither written nor counted as dropped: wait
	# until the files (packet-buffered, -U) stop growing
	last="" i=0
	while [ $i -lt 40 ]; do
		now=$(cd "$O" && stat -c %s $(for s in $want; do echo "$tag-$s.pcap"; done))
		[ "$now" = "$last" ] && break
		last=$now i=$((i + 1))
		sleep 0.5
	done
	kill -INT $pids
	wait
	# "IP 10.0.0.1.40001 > 10.0.0.2.5302: UDP, length 200" -> {"slave": {"port": n}}
	for s in $want; do
		echo "== $s $(grep "dropped by kernel" "$O/$tag-$s.log")"
		tcpdump -n -r "$O/$tag-$s.pcap" 2>/dev/null
	done | awk '
		$1 == "==" { s = $2; drop[s] = $3; next }
		$2 == "IP" { n = split($3, a, "."); c[s "\"" a[n]]++ }
		END {
			printf "{\"drops\":{"; sep = ""
			for (x in drop) { printf "%s\"%s\":%d", sep, x, drop[x]; sep = "," }
			printf "},\"counts\":["; sep = ""
			for (k in c) { split(k, p, "\""); printf "%s[\"%s\",%d,%d]", sep, p[1], p[2], c[k]; sep = "," }
			print "]}"
		}' >"$O/$tag.counts"
	jq -r -e --argjson t0 "$t0" --argjson t1 "$t1" --slurpfile cap "$O/$tag.counts" \
		--arg want "$want" --arg bond "$bond" --argjson rc $rc '
		([$t1 | keys[] | {key: ., value: ($t1[.] - $t0[.])}] | from_entries) as $d
		| $cap[0].counts as $c
		| ($want | split(" ")) as $w
		| (.placement.streams | length) as $n
		| ($n / ($w | length) | floor) as $k
		| "slave TX deltas \($d | tojson); capture drops \($cap[0].drops | tojson)",
		  "client bond metadata, first slave: \(.ends.client.metadata.bond.slaves[0] | {name, driver, offloads, rings, coalesce, driver_counters} | tojson)",
		  (if $rc != 0 then "FAIL: run exit \($rc)" else empty end),
		  (if ([.ends[].metadata.bond | select(.bond == $bond and .source == "collector") | .slaves[]
			| select(.driver != null and (.offloads.tso | type) == "boolean" and (.driver_counters | type) == "object")
			| .name] | sort) != ([$w[], $w[]] | sort)
		   then "FAIL: run metadata lacks the collector view of \($bond) slaves \($w) on both ends" else empty end),
		  (if ([$cap[0].drops[]] | add) != 0 then "FAIL: a capture dropped packets" else empty end),
		  (if any(.findings[]; .id == "hash-single-path") then "FAIL: hash-single-path under layer3+4" else empty end),
		  (if (.test.rate_bps_per_stream * .test.streams) < 1999990 or (.test.rate_bps_per_stream * .test.streams) > 2000000
		   then "FAIL: \(.test.rate_bps_per_stream) bit/s x \(.test.streams) streams is not the 2M total" else empty end),
		  (if ([.placement.streams[].predicted_slave] | sort) != ([range($k) as $_ | $w[]] | sort) or $n < ($w | length)
		   then "FAIL: predicted \([.placement.streams[].predicted_slave]), expected each of \($w) \($k) time(s)" else empty end),
		  (.streams as $st | .placement.streams[] | . as $p
		   | ([$st[] | select(.id == $p.id)][0].sent_packets) as $sent
		   | ([$c[] | select(.[1] == $p.client_port)]) as $mine
		   | ([$mine[] | select(.[0] == $p.predicted_slave) | .[2]] | add // 0) as $on
		   | ([$mine[][2]] | add // 0) as $all
		   | "flow \($p.id) port \($p.client_port) predicted \($p.predicted_slave): \($on) of \($all) captured (\($sent) sent), elsewhere \([$mine[] | select(.[0] != $p.predicted_slave)])",
		     (if $sent < 300 then "FAIL: flow \($p.id) sent only \($sent)" else empty end),
		     (if $on < $all * 0.9 then "FAIL: flow \($p.id): \($p.predicted_slave) carried \($on) of \($all)" else empty end),
		     (if $all < $sent * 0.5 then "FAIL: flow \($p.id): captured \($all) of \($sent) sent" else empty end)),
		  (.streams as $st | ([$st[].sent_packets] | add) as $total | $w[] as $s
		   | ([.placement.streams[] | select(.predicted_slave == $s) | .id as $i | $st[] | select(.id == $i) | .sent_packets] | add // 0) as $exp
		   | if $d[$s] < $exp or $d[$s] > $exp + $total * 0.05
		     then "FAIL: \($s) TX delta \($d[$s]), its predicted flows sent \($exp) (of \($total))" else empty end)
		' "$O/$tag.json" >"$O/$tag.verdict" || { cat "$O/$tag.err" "$O/$tag.verdict"; exit 1; }
	;;
*)
	echo "usage: place-check.sh place|single|reverse NS PEER BOND ..."
	exit 2
	;;
esac
cat "$O/$tag.verdict"
! grep -q "^FAIL" "$O/$tag.verdict"
