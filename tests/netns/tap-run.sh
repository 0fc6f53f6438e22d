#!/bin/bash
# netns tests of run --capture with the slave taps (issue 17 item 2):
# tap-run.sh CASE, with BC=<path to bondcheck>.  No bond: the veths c0
# (client) and a0 (agent) are the captured "slaves" (a run on a plain
# interface is legitimate).  Namespaces bctr<pid>-*.
# Cases: both auto unprivileged
. "$(dirname "$0")/lib.sh"
# our own prefix (lib.sh made bct<pid>-*, not created yet)
ID="bctr$$"; C="$ID-c"; R="$ID-r"; A="$ID-a"
for t in setpriv; do
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

case "${1:-}" in
both | auto | unprivileged) "case_$1" ;;
*) fail "unknown case '${1:-}'; expected both, auto or unprivileged" ;;
esac
