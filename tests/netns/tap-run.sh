#!/bin/bash
# netns tests of run --capture with the slave taps (issue 17 item 2):
# tap-run.sh CASE, with BC=<path to bondcheck>.  No bond: the veths c0
# (client) and a0 (agent) are the captured "slaves" (a run on a plain
# interface is legitimate).  Namespaces bctr<pid>-*.
# Cases: both auto unprivileged user user-nobpf gso
. "$(dirname "$0")/lib.sh"
# our own prefix (lib.sh made bct<pid>-*, not created yet)
ID="bctr$$"; C="$ID-c"; R="$ID-r"; A="$ID-a"
for t in setpriv prlimit; do
	command -v "$t" >/dev/null || fail "'$t' not found (util-linux)"
done

# tvp FIELD LINK: a field of capture.tap_vs_pcap for LINK.
tvp() { j ".capture.tap_vs_pcap[] | select(.link == \"$2\") | .$1"; }
# an ANALYSIS FILTER: a value of capture.analysis (taps) or capture.analysis_pcap.
an() { j ".capture.$1 | $2"; }

case_both() {
	topo 100mbit
	# the client's slave drops on egress: a small tbf (1 packet of burst
	# above the rate, 20 kB of queue) under a 20 Mbit/s offered load
	tc -n "$C" qdisc add dev c0 root tbf rate 8mbit burst 3000 limit 20000 ||
		fail "tbf on c0"
	agent --once
	client --peer 10.77.2.1 -u -b 20M -t 1 --capture both --json
	check "run --capture both exits 0 or 1 ($(head -c 300 "$WORK/err"))" [ "$RC" -le 1 ]
	check "capture.source is both" [ "$(j '.capture.source')" = both ]
	check "both ends ran both sources" \
		[ "$(j '.capture.client.source + "," + .capture.agent.source')" = "both,both" ]
	check "no ring record lost on either end" \
		[ "$(j '[.capture.client.taps.counters.ring_drop, .capture.agent.taps.counters.ring_drop] | add')" -eq 0 ]
	local qd sent recv
	qd=$(tvp qdisc_drops tx:client/c0)
	sent=$(j '.streams[0].sent_packets'); recv=$(j '.streams[0].received_packets')
	note "sent $sent received $recv; c0 taps $(tvp tap_frames tx:client/c0) pcap $(tvp pcap_frames tx:client/c0) qdisc drops $qd"
	check "c0's tbf dropped (qdisc drops $qd > 0)" [ "$qd" -gt 0 ]
	check "tx:client/c0: frames the taps saw offered minus those pcap saw leave = the qdisc's drops ($qd)" \
		[ "$(tvp differ_frames tx:client/c0)" -eq "$qd" ]
	# the app's sends the qdisc refused (ENOBUFS) were offered too: taps >= sent
	check "pcap saw every datagram sent leave c0 ($sent)" \
		[ "$(tvp pcap_frames tx:client/c0)" -eq "$sent" ]
	check "rx:agent/a0: the same frames from taps and pcap" \
		[ "$(tvp differ_frames rx:agent/a0)" -eq 0 ]
	check "rx:agent/a0: the same frames arrived in both attributions" \
		[ "$(an analysis '.links[] | select(.name == "rx:agent/a0") | .units_arrived')" = \
		  "$(an analysis_pcap '.links[] | select(.name == "rx:agent/a0") | .units_arrived')" ]
	check "the same arrivals per path c0 -> a0" \
		[ "$(an analysis '.paths | map("\(.left_on)>\(.arrived_on)=\(.packets)") | join(" ")')" = \
		  "$(an analysis_pcap '.paths | map("\(.left_on)>\(.arrived_on)=\(.packets)") | join(" ")')" ]
	check "the same reordering (pairs and count)" \
		[ "$(an analysis '.reordering | tostring')" = "$(an analysis_pcap '.reordering | tostring')" ]
	# the generator re-offers a datagram the qdisc refused (ENOBUFS) with the
	# same sequence number: the drops are extra frames, not lost datagrams
	check "the same loss per path (c0: $(an analysis '.links[] | select(.name == "tx:client/c0") | .lost'))" \
		[ "$(an analysis '[.links[] | "\(.name)=\(.lost)"] | join(" ")')" = \
		  "$(an analysis_pcap '[.links[] | "\(.name)=\(.lost)"] | join(" ")')" ]
}

case_auto() {
	topo 100mbit
	agent --once
	client --peer 10.77.2.1 -u -b 10M -t 0.5 --capture --json
	check "run --capture exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	check "--capture picks the taps when both ends can (capture.source $(j .capture.source))" \
		[ "$(j '.capture.source')" = taps ]
	check "the JSON says why" [ -n "$(j '.capture.source_reason')" ]
	check "no pcap ran (no interfaces[])" [ "$(j '.capture.client.interfaces')" = null ]
	local sent
	sent=$(j '.streams[0].sent_packets')
	check "tx:client/c0 frames from the taps = datagrams sent ($sent)" \
		[ "$(j '.capture.analysis.links[] | select(.name == "tx:client/c0") | .frames')" -eq "$sent" ]
	check "rx:agent/a0 frames from the taps = datagrams received" \
		[ "$(j '.capture.analysis.links[] | select(.name == "rx:agent/a0") | .frames')" -eq "$(j '.streams[0].received_packets')" ]
	# --capture pcap forces pcap (a new agent once the first, --once, has let go of its port)
	wait "$AGENT_PID" 2>/dev/null
	agent --once
	client --peer 10.77.2.1 -u -b 10M -t 0.5 --capture pcap --json
	check "--capture pcap exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	check "--capture pcap: capture.source pcap" [ "$(j '.capture.source')" = pcap ]
}

case_unprivileged() {
	topo 100mbit
	agent --once
	# root's uid without CAP_BPF and CAP_SYS_ADMIN (which also loads BPF)
	ip netns exec "$C" setpriv --inh-caps=-bpf,-sys_admin --bounding-set=-bpf,-sys_admin "$BC" run --peer 10.77.2.1 \
		-u -b 1M -t 0.2 --capture taps --json >"$WORK/out" 2>"$WORK/err"
	RC=$?
	check "--capture taps without CAP_BPF fails (exit $RC)" [ "$RC" -ne 0 ]
	check "and says which capability is missing ($(head -c 200 "$WORK/err"))" \
		grep -q "CAP_BPF" "$WORK/err"
	check "and names the way out (--capture pcap)" grep -q -- "--capture pcap" "$WORK/err"
}

# caps PID FIELD: a capability set (CapEff, CapPrm, CapBnd, CapInh) of PID, hex.
caps() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }

# An agent started with `serve --user nobody` keeps CAP_BPF (root has it
# here) and runs the taps, tcx and clsact (the kernels before 6.6 have only
# clsact), with RLIMIT_MEMLOCK 0: the kernel charges BPF memory to the
# memory cgroup (>= 5.11), so nothing has to lift the limit.
case_user() {
	id nobody >/dev/null || fail "user 'nobody' not found"
	topo 100mbit
	local att sent recv
	local AGENT_WRAP=(prlimit --memlock=0:0)
	for att in tcx clsact; do
		[ -n "$AGENT_PID" ] && wait "$AGENT_PID" 2>/dev/null
		BC_TAP_ATTACH=$att agent --once --user nobody
		[ "$(cat "/proc/$AGENT_PID/comm")" = bondcheck ] || fail "AGENT_PID is not the agent"
		note "$att: $(grep -E '^(Uid|CapEff|CapPrm|CapBnd)' "/proc/$AGENT_PID/status" | tr -s '\t\n' '  ')"
		# CAP_NET_ADMIN bit 12, CAP_NET_RAW bit 13, CAP_PERFMON bit 38, CAP_BPF bit 39
		check "$att: agent runs as nobody" [ "$(awk '/^Uid:/ { print $3 }' "/proc/$AGENT_PID/status")" = 65534 ]
		check "$att: CapEff = CapPrm = CapBnd = CAP_NET_RAW|CAP_NET_ADMIN|CAP_PERFMON|CAP_BPF" \
			[ "$(caps "$AGENT_PID" CapEff) $(caps "$AGENT_PID" CapPrm) $(caps "$AGENT_PID" CapBnd)" = \
			  "000000c000003000 000000c000003000 000000c000003000" ]
		check "$att: RLIMIT_MEMLOCK is 0 in the agent" \
			[ "$(awk '/^Max locked memory/ { print $4 $5 }' "/proc/$AGENT_PID/limits")" = 00 ]
		check "$att: the agent's log names CAP_BPF ($(head -c 200 "$WORK/agent.log"))" \
			grep -q "with CAP_NET_RAW, CAP_NET_ADMIN, CAP_BPF and CAP_PERFMON only" "$WORK/agent.log"
		client --peer 10.77.2.1 -u -b 10M -t 0.5 --capture --json
		check "$att: run --capture exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
		note "$att: capture.source_reason: $(j '.capture.source_reason')"
		check "$att: capture.agent.source is taps ($(j '.capture.agent.source'))" \
			[ "$(j '.capture.agent.source')" = taps ]
		check "$att: capture.source is taps ($(j '.capture.source'))" [ "$(j '.capture.source')" = taps ]
		check "$att: the agent attached with $att ($(j '.capture.agent.taps.attach'))" \
			[ "$(j '.capture.agent.taps.attach')" = "$att" ]
		sent=$(j '.streams[0].sent_packets'); recv=$(j '.streams[0].received_packets')
		check "$att: rx:agent/a0 frames from the agent's taps = datagrams received ($recv of $sent)" \
			[ "$(j '.capture.analysis.links[] | select(.name == "rx:agent/a0") | .frames')" -eq "$recv" ]
		check "$att: no pcap on the agent (no interfaces[])" [ "$(j '.capture.agent.interfaces')" = null ]
	done
	# A SIGKILLed clsact agent leaves its filters on a0.  The next agent under
	# --user cannot tell them its own (opening a program by id needs
	# CAP_SYS_ADMIN): it falls back to pcap, says so and leaves them; root's
	# `bondcheck restore` removes them.
	wait "$AGENT_PID" 2>/dev/null
	BC_TAP_ATTACH=clsact agent --user nobody
	ip netns exec "$C" "$BC" run --peer 10.77.2.1 -u -b 1M -t 10 --capture taps --json \
		>/dev/null 2>&1 &
	local cpid=$! i
	for i in $(seq 50); do
		[ "$(ours_a0)" = 11 ] && break
		sleep 0.1
	done
	check "the agent's clsact filters are on a0 during the run" [ "$(ours_a0)" = 11 ]
	kill -KILL "$AGENT_PID"; wait "$AGENT_PID" 2>/dev/null; AGENT_PID=""
	kill "$cpid" 2>/dev/null; wait "$cpid" 2>/dev/null
	check "SIGKILL left them" [ "$(ours_a0)" = 11 ]
	BC_TAP_ATTACH=clsact agent --once --user nobody
	client --peer 10.77.2.1 -u -b 10M -t 0.5 --capture --json
	check "leftover: run --capture exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	note "leftover: capture.agent.source_reason: $(j '.capture.agent.source_reason')"
	check "leftover: the agent fell back to pcap (capture.source $(j .capture.source))" \
		[ "$(j '.capture.agent.source'),$(j '.capture.source')" = pcap,mixed ]
	check "leftover: its reason says it may not inspect the program and names restore" \
		grep -q "may not inspect.*CAP_SYS_ADMIN.*bondcheck restore" <<<"$(j '.capture.agent.source_reason')"
	check "the filters were left in place" [ "$(ours_a0)" = 11 ]
	ip netns exec "$A" "$BC" restore -j >"$WORK/restore.json" 2>"$WORK/restore.err"
	check "root's bondcheck restore removed the two ($(head -c 200 "$WORK/restore.err"))" \
		[ "$(jq -r .tap_filters_removed "$WORK/restore.json")" = 2 ] && [ "$(ours_a0)" = 00 ]
}

# ours_a0: our clsact filters (handle 0xbc17, pref 48151) on a0, ingress then egress count.
ours_a0() {
	local d
	for d in ingress egress; do
		tc -n "$A" filter show dev a0 "$d" 2>/dev/null | grep -c 'pref 48151 bpf.*handle 0xbc17'
	done | tr -d '\n'
}

# Fallback: an agent whose bounding set lacks CAP_BPF before `--user`
# keeps CAP_NET_RAW and CAP_NET_ADMIN only and captures with pcap, saying
# why; the client's taps make the run `mixed`.
case_user_nobpf() {
	id nobody >/dev/null || fail "user 'nobody' not found"
	topo 100mbit
	local AGENT_WRAP=(setpriv --inh-caps=-bpf --bounding-set=-bpf)
	agent --user nobody
	[ "$(cat "/proc/$AGENT_PID/comm")" = bondcheck ] || fail "AGENT_PID is not the agent"
	check "CapEff = CapPrm = CapBnd = CAP_NET_RAW|CAP_NET_ADMIN (no CAP_BPF)" \
		[ "$(caps "$AGENT_PID" CapEff) $(caps "$AGENT_PID" CapPrm) $(caps "$AGENT_PID" CapBnd)" = \
		  "0000000000003000 0000000000003000 0000000000003000" ]
	check "the agent's log says the captures use pcap ($(head -c 300 "$WORK/agent.log"))" \
		grep -q "CAP_BPF or CAP_PERFMON not held: captures use pcap" "$WORK/agent.log"
	client --peer 10.77.2.1 -u -b 10M -t 0.5 --capture --json
	check "run --capture exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	note "capture.source_reason: $(j '.capture.source_reason')"
	check "capture.client.source is taps, capture.agent.source pcap" \
		[ "$(j '.capture.client.source + "," + .capture.agent.source')" = "taps,pcap" ]
	check "capture.source is mixed" [ "$(j '.capture.source')" = mixed ]
	check "the agent's reason names the missing CAP_BPF" \
		grep -q "missing: CAP_BPF" <<<"$(j '.capture.agent.source_reason')"
	check "the agent captured a0 with pcap, every datagram" \
		[ "$(j '.capture.agent.interfaces[0] | "\(.name) \(.frames)"')" = "a0 $(j '.streams[0].received_packets')" ]
	# --capture taps: the agent refuses the plan (capture-failed, exit 3)
	client --peer 10.77.2.1 -u -b 1M -t 0.2 --capture taps --json
	check "--capture taps against it exits 3 ($RC: $(head -c 300 "$WORK/err"))" [ "$RC" -eq 3 ]
	check "and names CAP_BPF" grep -q "CAP_BPF" "$WORK/err"
}

# UDP GSO: pcap sees each super-packet as one frame (the veth does not
# segment), the taps every datagram in it; the run says so when pcap ran
case_gso() {
	topo 10gbit
	local sent units
	agent --once
	client --peer 10.77.2.1 -u -b 2G --gso -t 0.5 --capture taps --json
	check "--gso --capture taps exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	sent=$(j '.streams[0].sent_packets')
	units=$(j '.capture.analysis.links[] | select(.name == "tx:client/c0") | .units_left')
	check "taps: tx:client/c0 units $units = datagrams sent $sent" [ "$units" -eq "$sent" ]
	check "taps: no GSO note" [ "$(j '[.notes[] | select(test("UDP GSO with pcap"))] | length')" -eq 0 ]
	wait "$AGENT_PID" 2>/dev/null
	agent --once
	client --peer 10.77.2.1 -u -b 2G --gso -t 0.5 --capture pcap --json
	check "--gso --capture pcap exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	sent=$(j '.streams[0].sent_packets')
	units=$(j '.capture.analysis.links[] | select(.name == "tx:client/c0") | .units_left')
	note "pcap: $units units for $sent datagrams"
	check "pcap: fewer units ($units) than half the datagrams sent ($sent): super-packets" \
		[ "$(( 2 * units ))" -lt "$sent" ]
	check "pcap: the run notes that its units are super-packets, on both ends" \
		[ "$(j '[.notes[] | select(test("UDP GSO with pcap on the client and the agent"))] | length')" -eq 1 ]
}

case "${1:-}" in
both | auto | unprivileged | user | gso) "case_$1" ;;
user-nobpf) case_user_nobpf ;;
*) fail "unknown case '${1:-}'; expected both, auto, unprivileged, user, user-nobpf or gso" ;;
esac
