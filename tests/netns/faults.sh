#!/bin/bash
# netns tests of faults the agent and client must survive (issue 7):
# faults.sh CASE, with BC=<path to bondcheck>.
#   clock-skew  the agent's clock off by +-5 s (serve --test-clock-offset):
#               the offset is measured and flagged; between separate clocks
#               only the delay's variation is given, on one kernel the delay
#   flap        the veths flapped during a UDP run: counted (carrier_changes)
#               and reported (link-flap findings, JSON and text)
# (the full disk while writing --keep-pcaps is capture.sh full-disk)
. "$(dirname "$0")/lib.sh"

restart_agent() {
	kill "$AGENT_PID" && wait "$AGENT_PID" 2>/dev/null
	AGENT_PID=""
	agent "$@"
}

# owd_ok DIRECTION shared|separate: the one-way delay of stream 0 holds only
# what can be true.  One kernel (same boot_id): the transit is the delay, so
# min >= 0 (never the negative value an offset estimate made of agent work
# gave) and below 50 ms (veths and a tbf), bound 0.  Separate clocks (the
# agent's test offset plays another host): no min or max, only the
# variation, between 0 and 50 ms, and a note saying so.
owd_ok() {
	local min v
	min=$(j '.streams[0].one_way_delay.min_ms'); v=$(j '.streams[0].one_way_delay.variation_ms')
	note "$1: one-way delay min $min ms, max $(j '.streams[0].one_way_delay.max_ms') ms, variation $v ms"
	check "$1: the variation $v ms is possible (0..50)" within "$v" 0 50
	check "$1: clock $2" [ "$(j '.streams[0].one_way_delay.clock')" = "$2" ]
	if [ "$2" = shared ]; then
		check "$1: one kernel: min $min ms is a delay (0..50 ms), bound 0" \
			[ "$(j '.streams[0].one_way_delay | .min_ms >= 0 and .min_ms <= 50 and .bound_ms == 0')" = true ]
	else
		check "$1: separate clocks: no min or max" \
			[ "$(j '.streams[0].one_way_delay | has("min_ms") or has("max_ms")')" = false ]
		check "$1: ... a note says only the variation is given" \
			[ "$(j '[.notes[] | select(startswith("one-way delay: only its variation"))] | length')" -eq 1 ]
	fi
	check "$1: no raw cross-host transit left in the receiver object" \
		[ "$(j '.streams[0].receiver | has("transit_min_ms") or has("owd_min_ms")')" = false ]
}

case_clock_skew() {
	topo 100mbit
	local off b
	for skew in 5000 -5000; do
		if [ -n "$AGENT_PID" ]; then restart_agent --test-clock-offset "$skew"; else agent --test-clock-offset "$skew"; fi
		client --peer 10.77.2.1 -u -b 10M -t 1 --json
		check "agent clock $skew ms off: forward run exits 0 ($(head -c 200 "$WORK/err"))" [ "$RC" -eq 0 ]
		off=$(j '.clock.agent_minus_client_ms'); b=$(j '.clock.bound_ms')
		note "clock: agent - client = $off ms +- $b ms over $(j '.clock.exchanges') exchanges"
		check "... offset measured: $off ms within $skew +- 20" \
			within "$off" $((skew - 20)) $((skew + 20))
		check "... the true offset lies within the bound ($off +- $b contains $skew)" \
			awk -v o="$off" -v b="$b" -v s="$skew" 'BEGIN { exit !(o - b <= s && s <= o + b + 0.001) }'
		check "... flagged: synchronized false" [ "$(j '.clock.synchronized')" = false ]
		check "... and a note names the offset" \
			[ "$(j '[.notes[] | select(startswith("clocks: the agent'"'"'s clock is"))] | length')" -eq 1 ]
		owd_ok "forward, skew $skew" separate
		check "... jitter does not see a constant offset ($(j '.streams[0].jitter_ms') ms < 5)" \
			awk -v x="$(j '.streams[0].jitter_ms')" 'BEGIN { exit !(x < 5) }'
		client --peer 10.77.2.1 -u -b 10M -t 1 -R --json
		check "agent clock $skew ms off: reverse run exits 0" [ "$RC" -eq 0 ]
		owd_ok "reverse, skew $skew" separate
	done
	restart_agent
	client --peer 10.77.2.1 -u -b 10M -t 1 --json
	note "same clock: agent - client = $(j '.clock.agent_minus_client_ms') ms +- $(j '.clock.bound_ms') ms"
	check "one clock (no offset): synchronized true" [ "$(j '.clock.synchronized')" = true ]
	check "... no clock note" [ "$(j '[.notes[] | select(startswith("clocks:"))] | length')" -eq 0 ]
	owd_ok "forward, one clock" shared
}

# flap NS DEV DOWN_S: take DEV in NS down for DOWN_S seconds, then up again.
flap() { ip -n "$1" link set "$2" down && sleep "$3" && ip -n "$1" link set "$2" up; }

# The router's ends of the veths go down and up during a UDP run: the
# client's c0 loses carrier twice, the agent's a0 once (their addresses and
# routes stay: only the peer went down).
case_flap() {
	topo 100mbit
	agent
	ip netns exec "$C" "$BC" run --peer 10.77.2.1 -u -b 10M -t 4 --json >"$WORK/out" 2>"$WORK/err" &
	local pid=$!
	sleep 1
	flap "$R" r1 0.3
	sleep 0.5
	flap "$R" r2 0.3
	sleep 0.5
	flap "$R" r1 0.3
	wait "$pid"
	RC=$?
	note "exit $RC; lost $(j '.streams[0].lost_packets') of $(j '.streams[0].sent_packets'); findings: $(j '[.findings[] | "\(.id) \(.subject) \(.evidence | tostring)"] | join("; ")')"
	check "a run with flapping links ends, exit 0 ($(head -c 200 "$WORK/err"))" [ "$RC" -eq 0 ]
	check "c0 (client): carrier_changes +4 in the counters" \
		[ "$(j '.ends.client.counters.interfaces.c0.carrier_changes')" -eq 4 ]
	check "a0 (agent): carrier_changes +2 in the counters" \
		[ "$(j '.ends.agent.counters.interfaces.a0.carrier_changes')" -eq 2 ]
	check "link-flap finding for client/c0: 2 flaps" \
		[ "$(j '.findings[] | select(.id == "link-flap" and .subject == "client/c0") | .evidence.flaps')" = 2 ]
	check "link-flap finding for agent/a0: 1 flap" \
		[ "$(j '.findings[] | select(.id == "link-flap" and .subject == "agent/a0") | .evidence.flaps')" = 1 ]
	check "no link-flap for an interface that did not flap (lo)" \
		[ "$(j '[.findings[] | select(.id == "link-flap")] | length')" -eq 2 ]
	check "the outage shows as loss ($(j '.streams[0].lost_packets') datagrams)" \
		[ "$(j '.streams[0].lost_packets')" -gt 0 ]
	# the text report names it too
	ip netns exec "$C" "$BC" run --peer 10.77.2.1 -u -b 10M -t 2 >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	sleep 0.8
	flap "$R" r1 0.2
	wait "$pid"
	RC=$?
	check "text report: exit 0 and a Findings section with link-flap client/c0" \
		[ "$RC" -eq 0 ] && grep -q "^  warning link-flap *client/c0: c0 on the client lost and regained carrier" "$WORK/out"
}

# The client's hellos of a reverse stream lost: the router drops UDP
# towards the agent (policy routing to a blackhole) for the first second;
# the agent waits 3 s for a hello, and the client's receiver resends it
# until the first datagram arrives (stream-udp.c resend_hello()).
case_hello_lost() {
	topo 100mbit
	agent
	ip -n "$R" route add blackhole 10.77.2.1/32 table 100 || fail "blackhole route"
	ip -n "$R" rule add ipproto udp to 10.77.2.1 table 100 pref 100 || fail "ip rule ipproto udp"
	local d0 dropped
	d0=$(ip netns exec "$R" awk '/^Ip:/ && ++n == 2 { print $4 - $7 - $10 }' /proc/net/snmp)
	ip netns exec "$C" "$BC" run --peer 10.77.2.1 -u -b 5M -t 2 -R --json >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	sleep 1
	ip -n "$R" rule del pref 100
	dropped=$(( $(ip netns exec "$R" awk '/^Ip:/ && ++n == 2 { print $4 - $7 - $10 }' /proc/net/snmp) - d0 ))
	wait "$pid"
	RC=$?
	note "packets the router received and neither forwarded nor delivered in the first second: $dropped; exit $RC; notes: $(j '.notes | join("; ")')"
	check "the router dropped the opening hellos ($dropped packets)" [ "$dropped" -ge 3 ]
	check "reverse run with its first hellos lost exits 0 or 1 ($RC: $(head -c 200 "$WORK/err"))" [ "$RC" -le 1 ]
	check "the agent's stream started: received $(j '.streams[0].received_packets') datagrams" \
		[ "$(j '.streams[0].received_packets')" -gt 0 ]
	check "no 'no hello datagram' note" [ "$(j '[.notes[] | select(test("no hello datagram"))] | length')" -eq 0 ]
}

name=${1:-}
fn="case_${name//-/_}"
declare -F "$fn" >/dev/null || fail "unknown case '$name'"
"$fn"
echo "PASS: $name"
