#!/bin/bash
# netns traffic tests: traffic.sh CASE, with BC=<path to bondcheck>.
# Cases: udp-50 udp-200 tcp ipv6 gso auth malformed sender-qdisc errors ceilings
. "$(dirname "$0")/lib.sh"

case_udp_50() {
	topo 100mbit
	agent --once
	client --peer 10.77.2.1 -u -b 50M -t 2 --json
	check "run exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	local sent recv lost
	sent=$(j '.streams[0].sent_packets'); recv=$(j '.streams[0].received_packets')
	lost=$(j '.streams[0].lost_packets')
	note "sent $sent received $recv lost $lost"
	check "UDP 50 Mbit/s through tbf 100 Mbit/s loses nothing" [ "$lost" -eq 0 ]
	check "received equals sent" [ "$recv" -eq "$sent" ]
	check "no duplicates, no reordering" [ "$(j '.streams[0].duplicate_packets + .streams[0].out_of_order_packets')" -eq 0 ]
	# 50e6 x 2 s / (8 x 1472) = 8491.8 datagrams offered
	rate_check "sender reached the offered rate (sent $sent of 8492)" within "$sent" 8300 8500
	check "agent counted the same datagrams (Udp InDatagrams = received)" \
		[ "$(j '.ends.agent.counters.snmp["Udp.InDatagrams"]')" -eq "$recv" ]
}

case_udp_200() {
	topo 100mbit
	agent --once
	client --peer 10.77.2.1 -u -b 200M -t 2 --link-rate 100M --link-accounting tbf --json
	check "run exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	local sent recv lost eff
	sent=$(j '.streams[0].sent_packets'); recv=$(j '.streams[0].received_packets')
	lost=$(j '.streams[0].lost_packets'); eff=$(j '.efficiency')
	note "sent $sent received $recv lost $lost efficiency $eff"
	check "lost equals sent minus received exactly" [ "$lost" -eq $((sent - recv)) ]
	rate_check "UDP 200 Mbit/s into tbf 100 Mbit/s loses datagrams" [ "$lost" -gt 0 ]
	check "no late datagrams" [ "$(j '.streams[0].late_packets')" -eq 0 ]
	# UDP ceiling of tbf 100 Mbit/s: 100 x 1472/1514 = 97.2 Mbit/s
	check "ceiling is the tbf UDP ceiling" within "$(j '.ceiling_bps')" 97200000 97250000
	rate_check "received goodput 90-101 % of the ceiling" within "$eff" 0.90 1.01
}

case_tcp() {
	topo 100mbit
	agent --once
	client --peer 10.77.2.1 -t 3 -O 1 --link-rate 100M --link-accounting tbf --json
	check "run exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	local gp eff
	gp=$(j '.streams[0].goodput_bps'); eff=$(j '.efficiency')
	note "TCP goodput $gp bit/s, efficiency $eff, retransmits $(j '.streams[0].retransmits')"
	# DESIGN.md: tbf 100mbit carries 1448/1514 x 100 = 95.64 Mbit/s of TCP
	check "ceiling is 95.64 Mbit/s" within "$(j '.ceiling_bps')" 95630000 95650000
	rate_check "TCP goodput 90-101 % of 95.6 Mbit/s" within "$eff" 0.90 1.01
	check "sender TCP_INFO was read" [ "$(j '.streams[0].sender.tcp_info.tcp_info_bytes')" -gt 100 ]
	check "both ends report counters and metadata" \
		[ "$(j '[.ends.client.metadata.kernel_release, .ends.agent.metadata.sysctls["net.ipv4.tcp_reordering"]] | length')" -eq 2 ]
}

case_ipv6() {
	topo 100mbit
	agent --once
	client --peer fd77:2::1 -u -b 20M -R -t 1 -l 1452 --json
	check "IPv6 reverse UDP run exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	check "agent sent, client received, none lost" \
		[ "$(j '.streams[0].direction + " " + (.streams[0].lost_packets|tostring)')" = "agent-to-client 0" ]
	check "received equals the agent's sent count" \
		[ "$(j '.streams[0].received_packets')" -eq "$(j '.streams[0].sent_packets')" ]
}

case_gso() {
	topo 100mbit
	agent
	client --peer 10.77.2.1 -u -b 50M -t 1 --gso --json
	check "UDP GSO/GRO run exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	check "GSO: every datagram counted once, none lost" \
		[ "$(j '.streams[0].received_packets') $(j '.streams[0].lost_packets')" = "$(j '.streams[0].sent_packets') 0" ]
	rate_check "GSO: the offered 50 Mbit/s was sent" within "$(j '.streams[0].sent_packets')" 4150 4260
	client --peer 10.77.2.1 -u -b 50M -t 1 --gso -R --json
	check "GSO reverse: none lost" [ "$(j '.streams[0].lost_packets')" -eq 0 ]
	# loopback inside A keeps GSO packets whole, so the receiver gets GRO batches to split
	ip netns exec "$A" "$BC" run --peer 127.0.0.1 -u -b 2G -t 0.5 --gso --json >"$WORK/out" 2>"$WORK/err"
	check "GSO on loopback exits 0 ($(head -c 300 "$WORK/err"))" [ $? -eq 0 ]
	note "loopback GSO: sent $(j '.streams[0].sent_packets') received $(j '.streams[0].received_packets') lost $(j '.streams[0].lost_packets')"
	check "GRO batches split into datagrams: no duplicates, no foreign, nothing reordered" \
		[ "$(j '.streams[0].duplicate_packets + .streams[0].out_of_order_packets + .streams[0].receiver.foreign_packets')" -eq 0 ]
	check "GRO: lost equals sent minus received" \
		[ "$(j '.streams[0].lost_packets')" -eq "$(j '.streams[0].sent_packets - .streams[0].received_packets')" ]
	check "GRO: datagrams arrived" [ "$(j '.streams[0].received_packets')" -gt 1000 ]
	check "GRO: some reads held several datagrams" [ "$(j '.streams[0].receiver.gro_reads')" -gt 0 ]
	client --peer 10.77.2.1 -u -b 5M -t 0.5 --gso -l 4000 --json
	check "GSO with datagrams above the MTU: the run says the kernel refused them" \
		jq -e '.notes | map(test("refused 4000-byte datagrams with UDP GSO")) | any' "$WORK/out" >/dev/null
}

case_auth() {
	topo 1gbit
	head -c 32 /dev/urandom | base64 >"$WORK/key"
	head -c 32 /dev/urandom | base64 >"$WORK/other"
	agent --auth-key "$WORK/key"
	client --peer 10.77.2.1 --auth-key "$WORK/key" -t 0.5
	check "right key: exit 0 ($(cat "$WORK/err"))" [ "$RC" -eq 0 ]
	client --peer 10.77.2.1 --auth-key "$WORK/other" -t 0.5
	check "wrong key: exit 3" [ "$RC" -eq 3 ]
	check "wrong key: says the key differs" grep -q "differs" "$WORK/err"
	client --peer 10.77.2.1 -t 0.5
	check "no key: exit 3" [ "$RC" -eq 3 ]
	check "no key: says a key is required" grep -q "requires a pre-shared key" "$WORK/err"
	client --peer 10.77.2.1 --auth-key "$WORK/key" -u -b 5M -t 0.5
	check "agent still serves after refusals" [ "$RC" -eq 0 ]
	kill "$AGENT_PID"; wait "$AGENT_PID" 2>/dev/null; AGENT_PID=""
	agent --once
	client --peer 10.77.2.1 --auth-key "$WORK/key" -t 0.5
	check "client with a key refuses an agent without one: exit 3" [ "$RC" -eq 3 ]
	check "... and says the agent did not prove the key" grep -q "did not prove" "$WORK/err"
}

# send_raw HEXBYTES: one connection to the agent, print what it answers.
send_raw() {
	ip netns exec "$C" python3 - "$1" <<'PY'
import socket, sys
s = socket.create_connection(("10.77.2.1", 5301), timeout=1)
s.sendall(bytes.fromhex(sys.argv[1]))
data = b""
try:
    while len(data) < 4096:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
except (socket.timeout, ConnectionResetError):
    pass
print(data[8:].decode("utf-8", "replace"))
PY
}

case_malformed() {
	command -v python3 >/dev/null || fail "python3 not found (needed to send raw bytes)"
	topo 1gbit
	agent
	# a frame whose JSON is broken: {{{{{
	send_raw "42434b0100000005$(printf '{{{{{' | od -An -tx1 | tr -d ' \n')" >"$WORK/r1"
	check "malformed JSON gets a 'malformed' error reply" grep -q '"code":"malformed"' "$WORK/r1"
	# a header announcing 2 GiB
	send_raw "42434b017fffffff" >"$WORK/r2"
	check "oversized message gets a 'too-large' error reply" grep -q '"code":"too-large"' "$WORK/r2"
	# protocol version 9
	send_raw "42434b0900000002$(printf '{}' | od -An -tx1 | tr -d ' \n')" >"$WORK/r3"
	check "another protocol version gets 'version-mismatch'" grep -q '"code":"version-mismatch"' "$WORK/r3"
	# a hello claiming protocol 2
	local h='{"type":"hello","protocol":2}'
	send_raw "42434b01$(printf '%08x' ${#h})$(printf '%s' "$h" | od -An -tx1 | tr -d ' \n')" >"$WORK/r4"
	check "hello with protocol 2 gets 'version-mismatch'" grep -q '"code":"version-mismatch"' "$WORK/r4"
	send_raw "$(printf 'GET / HTTP/1.0\r\n\r\n' | od -An -tx1 | tr -d ' \n')" >/dev/null
	client --peer 10.77.2.1 -u -b 5M -t 0.5 --json
	check "agent keeps serving: a normal run after the garbage exits 0 ($(cat "$WORK/err"))" [ "$RC" -eq 0 ]
	check "... and counts its datagrams" [ "$(j '.streams[0].lost_packets')" -eq 0 ]
	# a client killed mid-test: the agent cleans up and the next test works
	(ip netns exec "$C" timeout -s KILL 1 "$BC" run --peer 10.77.2.1 -u -b 5M -t 5) >/dev/null 2>&1
	sleep 0.3
	client --peer 10.77.2.1 -u -b 5M -t 0.5 --json
	check "after a client was killed mid-test the next test works" [ "$RC" -eq 0 ]
}

case_sender_qdisc() {
	topo 1gbit
	agent
	# small tbf queue on the client's own veth: qdisc drops come back as ENOBUFS (IP_RECVERR)
	tc -n "$C" qdisc add dev c0 root tbf rate 20mbit burst 16kb limit 16kb || fail "tbf on c0"
	client --peer 10.77.2.1 -u -b 200M -t 1 --socket-buffer 256K --json
	check "run exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	note "small queue: limited_by $(j '.streams[0].limited_by'), send errors $(j '.streams[0].send_errors'), lost $(j '.streams[0].lost_packets')"
	check "small queue: the run says send-side drops" [ "$(j '.streams[0].limited_by')" = "send-errors" ]
	check "failed sends consumed no sequence number: lost 0" [ "$(j '.streams[0].lost_packets')" -eq 0 ]
	check "the link rate comes from the tbf on the egress veth" [ "$(j '.link.rate_source')" = tbf ]
	# 20 Mbit/s x 1472 / 1514 = 19.445 Mbit/s
	check "ceiling uses the tbf accounting" within "$(j '.ceiling_bps')" 19440000 19450000
	# a queue larger than the socket buffer: the socket blocks instead
	tc -n "$C" qdisc replace dev c0 root tbf rate 20mbit burst 16kb limit 64mb || fail "tbf on c0"
	client --peer 10.77.2.1 -u -b 200M -t 1 --socket-buffer 256K --json
	check "run exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	note "large queue: limited_by $(j '.streams[0].limited_by'), send errors $(j '.streams[0].send_errors')"
	check "large queue: the run says the sender was back-pressured" \
		[ "$(j '.streams[0].limited_by')" = "back-pressured" ]
	check "large queue: no send errors" [ "$(j '.streams[0].send_errors')" -eq 0 ]
}

case_errors() {
	topo 1gbit
	client --peer 10.77.2.1 -t 1
	check "no agent: exit 3" [ "$RC" -eq 3 ]
	check "no agent: says unreachable" grep -q "unreachable" "$WORK/err"
	agent
	ip netns exec "$A" "$BC" serve 2>"$WORK/err2"
	check "second agent on the same port: exit 3" [ $? -eq 3 ]
	check "... says the port is in use" grep -q "in use" "$WORK/err2"
	ip netns exec "$C" "$BC" run --peer 10.77.2.1 -u -b 1M -t 2 >/dev/null 2>&1 &
	local first=$!
	sleep 0.7
	client --peer 10.77.2.1 -t 0.5
	check "a second client during a test: exit 3" [ "$RC" -eq 3 ]
	check "... told the agent is busy" grep -q "running another test" "$WORK/err"
	wait "$first"
	check "the first client's test completed" [ $? -eq 0 ]
	client --peer 10.77.2.1 -P 0
	check "-P 0: exit 2" [ "$RC" -eq 2 ]
	check "-P 0: names the option and the range" grep -q -- "-P/--parallel '0' is invalid; expected 1..128" "$WORK/err"
	client --peer 10.77.2.1 -u -l 70000
	check "--length 70000: exit 2 naming --length" [ "$RC" -eq 2 ]
	grep -q -- "length" "$WORK/err" || fail "--length message: $(cat "$WORK/err")"
	client --peer 10.77.2.1 --place per-slave -t 0.5
	check "--place without a bond on the route: exit 3" [ "$RC" -eq 3 ]
	check "... names the interface the route leaves by ($(cat "$WORK/err"))" grep -q "leaves by c0" "$WORK/err"
	client --peer 10.77.2.1 --place every-slave
	check "--place every-slave: exit 2" [ "$RC" -eq 2 ]
	client --peer 10.77.2.1 --dport 5301 -t 0.5
	check "a TCP data port the agent cannot bind (its control port): exit 3" [ "$RC" -eq 3 ]
	check "... says the port is in use" grep -q "in use" "$WORK/err"
}

# Ceilings that cannot lie (issue 14 item 6): the client's egress c0 is a veth
# without a shaper (its 10000 Mb/s is nominal, veth enforces nothing): the
# ceiling is unknown, not ~9.6 Gbit/s with "efficiency 0.0 %"; then
# --link-rate 10M below the router's 100 Mbit/s tbf: goodput over the ceiling
# beyond the stated tolerance is reported as a defect of the ceiling.
case_ceilings() {
	topo 100mbit
	agent
	client --peer 10.77.2.1 -u -b 20M -t 1 --json
	check "run exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	note "no rate: ceiling $(j .ceiling_bps) efficiency $(j .efficiency) rate source $(j .link.rate_source)"
	check "a veth's nominal speed is no ceiling: ceiling 0 (unknown)" [ "$(j .ceiling_bps)" = 0 ]
	check "... its efficiency is null, not 0" [ "$(j .efficiency)" = null ]
	check "... the rate source is none, not ethtool" [ "$(j .link.rate_source)" = none ]
	client --peer 10.77.2.1 -u -b 20M -t 1
	check "text run exits 0" [ "$RC" -eq 0 ]
	check "... the text says the ceiling is unknown" grep -q "ceiling unknown" "$WORK/out"
	client --peer 10.77.2.1 -u -b 30M -t 1 --link-rate 10M --json
	note "--link-rate 10M: goodput $(j .goodput_bps) ceiling $(j .ceiling_bps) efficiency $(j .efficiency)"
	rate_check "goodput is well over the 10M ceiling (efficiency > 1.5)" within "$(j .efficiency)" 1.5 10
	check "efficiency_over_tolerance is true" [ "$(j .efficiency_over_tolerance)" = true ]
	check "a note states the defect" [ "$(j '[.notes[] | select(startswith("DEFECT: efficiency"))] | length')" = 1 ]
	client --peer 10.77.2.1 -u -b 30M -t 1 --link-rate 10M
	check "the text states the defect" grep -q "DEFECT: over the ceiling beyond the 3 % tolerance" "$WORK/out"
}

name=${1:-}
fn="case_${name//-/_}"
declare -F "$fn" >/dev/null || fail "unknown case '$name'"
"$fn"
echo "PASS: $name"
