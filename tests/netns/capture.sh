#!/bin/bash
# netns tests of run --capture pcap (per-interface capture on both ends, the bulk
# transfer of the agent's pcap files, attribution): capture.sh CASE, with
# BC=<path to bondcheck>.  No bonding driver here: the veths c0 (client) and
# a0 (agent) are the captured "slaves"; real bonds are the testbed's job.
# Cases: udp reverse stall loss errors full-disk ring-drop
. "$(dirname "$0")/lib.sh"
for t in setpriv; do
	command -v "$t" >/dev/null || fail "'$t' not found (util-linux)"
done

# link FIELD NAME: a field of the analysis link NAME.
link() { j ".capture.analysis.links[] | select(.name == \"$2\") | .$1"; }
# lacks TEXT FILE: FILE does not contain TEXT.
lacks() { ! grep -q "$1" "$2"; }
# ledger STAGE: the count of a ledger stage.
ledger() { j ".capture.analysis.ledger[] | select(.stage == \"$1\") | .count"; }

case_udp() {
	topo 100mbit
	agent --once
	client --peer 10.77.2.1 -u -b 20M -t 2 --capture pcap --keep-pcaps "$WORK/keep" --json
	check "run --capture pcap exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	local sent recv
	sent=$(j '.streams[0].sent_packets'); recv=$(j '.streams[0].received_packets')
	note "sent $sent received $recv; client c0 $(j '.capture.client.interfaces[0].frames') frames, agent a0 $(j '.capture.agent.interfaces[0].frames')"
	check "nothing lost at 20 Mbit/s through tbf 100 Mbit/s" [ "$recv" -eq "$sent" ]
	rate_check "about 2 x 1698 datagrams sent (got $sent)" within "$sent" 3300 3400
	check "the client captured c0, the agent a0 (the veths, not the router)" \
		[ "$(j '[.capture.client.interfaces[].name, .capture.agent.interfaces[].name] | join(",")')" = "c0,a0" ]
	check "pcap_stats on every interface, ps_drop 0" \
		[ "$(j '[.capture.client.interfaces[], .capture.agent.interfaces[] | .pcap_stats.ps_drop] | map(tostring) | join(",")')" = "0,0" ]
	check "ps_recv equals the frames written on both ends (nothing lost in the ring)" \
		[ "$(j '[.capture.client.interfaces[], .capture.agent.interfaces[] | .pcap_stats.ps_recv - .frames] | add')" -eq 0 ]
	# the filter keeps only the host pair minus the control port: exactly our datagrams
	check "client c0 frames equal the datagrams sent ($sent)" \
		[ "$(j '.capture.client.interfaces[0].frames')" -eq "$sent" ]
	check "tx:client/c0 frames equal the datagrams sent" [ "$(link frames tx:client/c0)" -eq "$sent" ]
	check "rx:agent/a0 frames equal the datagrams received" [ "$(link frames rx:agent/a0)" -eq "$recv" ]
	# 1472 payload + 8 UDP + 20 IPv4 + 14 Ethernet = 1514 bytes per frame
	check "tx:client/c0 bytes = sent x 1514" [ "$(link bytes tx:client/c0)" -eq $((sent * 1514)) ]
	check "every datagram left on c0 and arrived on a0, none lost" \
		[ "$(link units_left tx:client/c0) $(link units_arrived rx:agent/a0) $(link lost tx:client/c0)" = "$sent $recv 0" ]
	check "one path c0 -> a0 carrying every datagram" \
		[ "$(j '.capture.analysis.paths | map("\(.left_on)>\(.arrived_on)=\(.packets)") | join(" ")')" = "tx:client/c0>rx:agent/a0=$sent" ]
	check "peer learned: tx:client/c0 feeds rx:agent/a0" [ "$(link peer tx:client/c0)" = "rx:agent/a0" ]
	check "ledger: app sent = left = arrived = reached socket = read ($sent)" \
		[ "$(ledger sent_by_app) $(ledger left_on_link) $(ledger arrived_on_link) $(ledger reached_socket) $(ledger read_by_app)" = "$sent $sent $recv $recv $recv" ]
	check "no reordering on one veth" [ "$(j '.capture.analysis.reordering.reordered')" -eq 0 ]
	check "no capture-incomplete finding" \
		[ "$(j '[.findings[] | select(.id == "capture-incomplete")] | length')" -eq 0 ]
	# the bulk connection: the agent's file arrived whole
	check "--keep-pcaps kept one file per interface and side" \
		[ "$(ls "$WORK/keep" | sort | tr '\n' ' ')" = "agent-a0.pcap client-c0.pcap " ]
	check "agent-a0.pcap has the size the agent reported" \
		[ "$(stat -c %s "$WORK/keep/agent-a0.pcap")" -eq "$(j '.capture.agent.interfaces[0].file_bytes')" ]
	check "the JSON names the kept folder" [ "$(j '.capture.folder')" = "$WORK/keep" ]
	"$BC" analyze --json tx:c0="$WORK/keep/client-c0.pcap" rx:a0="$WORK/keep/agent-a0.pcap" >"$WORK/an" ||
		fail "analyze of the kept files failed"
	check "analyze of the kept files: the same frames per link" \
		[ "$(jq -r '[.links[].frames] | map(tostring) | join(",")' "$WORK/an")" = "$sent,$recv" ]
	check "the kept files have nanosecond stamps and snaplen 128" \
		[ "$(jq -r '[.links[].snaplen] | map(tostring) | join(",")' "$WORK/an")" = "128,128" ]
	ip netns exec "$C" "$BC" run --peer 10.77.2.1 -u -b 1M -t 0.2 --capture pcap >/dev/null 2>&1 &&
		fail "a second run against the --once agent should fail (it exited after the bulk transfer)"
	echo "ok - the --once agent exited after the test and its bulk transfer"
}

case_reverse() {
	# both ends make their temporary capture folders here
	export TMPDIR="$WORK/tmp"
	mkdir -p "$TMPDIR"
	topo 100mbit
	agent --once
	client --peer 10.77.2.1 -u -b 20M -t 1 -R --capture pcap --json
	check "run -R --capture pcap exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	local sent
	sent=$(j '.streams[0].sent_packets')
	note "agent sent $sent"
	# the reverse stream's 3 hellos go client -> agent: both captures see them
	check "agent a0 captured the datagrams it sent plus the 3 hellos" \
		[ "$(j '.capture.agent.interfaces[0].frames')" -eq $((sent + 3)) ]
	check "the agent's datagrams left on rx:agent/a0 and arrived on tx:client/c0" \
		[ "$(link units_left rx:agent/a0) $(link units_arrived tx:client/c0)" = "$sent $sent" ]
	check "the temporary capture folders are gone on both ends" \
		[ "$(ls -A "$TMPDIR" | wc -l)" -eq 0 ]
	check "... and were used (the agent logged no fetch failure)" \
		lacks "not fetched" "$WORK/agent.log"
}

# A capture ring that overflows, live: a 1 MiB ring (--capture-buffer) whose
# reader starts 2.5 s late (--test-capture-stall, client only).  The kernel
# drops; pcap_stats says so; the analysis flags the client's link instead of
# reporting short counts as loss.
case_ring_drop() {
	topo 1gbit
	agent
	client --peer 10.77.2.1 -u -b 200M -t 3 --capture pcap --capture-buffer 1M \
		--test-capture-stall 2500 --json
	check "run exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	local sent recv drop psrecv frames
	sent=$(j '.streams[0].sent_packets'); recv=$(j '.streams[0].received_packets')
	drop=$(j '.capture.client.interfaces[0].pcap_stats.ps_drop')
	psrecv=$(j '.capture.client.interfaces[0].pcap_stats.ps_recv')
	frames=$(j '.capture.client.interfaces[0].frames')
	note "sent $sent received $recv; client c0: ps_recv $psrecv ps_drop $drop frames $frames ring $(j '.capture.client.buffer_bytes'); agent a0 ps_drop $(j '.capture.agent.interfaces[0].pcap_stats.ps_drop')"
	check "the plan asked both ends for a 1 MiB ring" \
		[ "$(j '[.capture.client.buffer_bytes, .capture.agent.buffer_bytes] | map(tostring) | join(",")')" = "1048576,1048576" ]
	check "the stalled client ring dropped (ps_drop $drop > 1000)" [ "$drop" -gt 1000 ]
	check "... and wrote what it kept: frames = ps_recv - ps_drop" [ "$frames" -eq $((psrecv - drop)) ]
	check "... the agent, reading on time, dropped nothing" \
		[ "$(j '.capture.agent.interfaces[0].pcap_stats.ps_drop')" -eq 0 ]
	check "tx:client/c0 is flagged capture-incomplete with its ps_drop as evidence" \
		[ "$(j '[.findings[] | select(.id == "capture-incomplete" and .subject == "tx:client/c0") | .evidence.ps_drop | startswith("'"$drop"' ")] | any')" = true ]
	# the sender's capture missed datagrams: the loss of those is unseen
	check "... its counts and the loss charged to it are lower bounds ($(link bounds.counts tx:client/c0) $(link bounds.lost tx:client/c0))" \
		[ "$(link bounds.counts tx:client/c0) $(link bounds.lost tx:client/c0)" = "lower lower" ]
	check "... reordering stays exact: the receiving side's capture is complete" \
		[ "$(j '.capture.analysis.reordering.bound')" = exact ]
	check "... the complete agent link is exact" [ "$(link bounds.counts rx:agent/a0)" = exact ]
	check "tx:client/c0 frames = the frames the ring kept ($frames), fewer than sent" \
		[ "$(link frames tx:client/c0)" -eq "$frames" ] && [ "$frames" -lt "$sent" ]
	check "no wire-loss is claimed from the short capture" \
		[ "$(j '[.findings[] | select(.id == "wire-loss")] | length')" -eq 0 ]
	check "the finding tells how to fix it (--capture-buffer)" \
		[ "$(j '[.findings[] | select(.id == "capture-incomplete" and .subject == "tx:client/c0") | .advice | test("--capture-buffer")] | any')" = true ]
	# reverse: now the stalled ring is on the receiving end
	client --peer 10.77.2.1 -u -b 200M -t 3 -R --capture pcap --capture-buffer 1M \
		--test-capture-stall 2500 --json
	local rdrop
	rdrop=$(j '.capture.client.interfaces[0].pcap_stats.ps_drop')
	note "reverse: findings $(j '[.findings[] | "\(.id)@\(.subject)"] | join(" ")'); client c0 ps_drop $rdrop; bounds $(j '[.capture.analysis.links[] | "\(.name)=\(.bounds.counts)/\(.bounds.lost)"] | join(" ")'); reordering $(j '.capture.analysis.reordering.bound'); ledger[2] $(j '.capture.analysis.ledger[2] | "\(.stage) drop \(.drop) explained \(.explained): \(.counter)"')"
	check "reverse: run exits 0 and the client's (receiving) ring dropped ($rdrop)" \
		[ "$RC" -eq 0 ] && [ "$rdrop" -gt 1000 ]
	check "... the agent's datagrams left on rx:agent/a0: their loss is an upper bound" \
		[ "$(link bounds.lost rx:agent/a0)" = upper ]
	check "... reordering is unknown: the capture they arrived on is incomplete" \
		[ "$(j '.capture.analysis.reordering.bound')" = unknown ]
	check "... no wire-loss is claimed for what the ring dropped (analysis and ledger)" \
		[ "$(j '[.findings[], .capture.analysis.findings[]? | select(.id == "wire-loss")] | length')" -eq 0 ]
	check "... the ledger's arrival stage says its shortfall is at most that" \
		[ "$(j '.capture.analysis.ledger[2].counter | test("rx:agent/a0: [0-9]+ unexplained, at most")')" = true ]
	check "... tx:client/c0 is flagged capture-incomplete" \
		[ "$(j '[.findings[] | select(.id == "capture-incomplete" and .subject == "tx:client/c0")] | length')" -eq 1 ]
}

case_stall() {
	# a receiver with a 4 KiB SO_RCVBUF that reads only after 1 s: its socket drops
	topo 100mbit
	agent --once --test-read-stall 1000 --test-rcvbuf 4096
	client --peer 10.77.2.1 -u -l 600 -b 20M -t 2 --capture pcap --json
	# an error-level finding (rx-loss-socket) stands: exit 1 (bondcheck(8), exit status)
	check "run exits 1 for its rx-loss-socket ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 1 ]
	local sent recv drops rcvbuf
	sent=$(j '.streams[0].sent_packets'); recv=$(j '.streams[0].received_packets')
	drops=$(j '.streams[0].proc_udp_drops'); rcvbuf=$(j '.ends.agent.counters.snmp["Udp.RcvbufErrors"]')
	note "sent $sent read $recv; socket drops (/proc/net/udp) $drops, Udp RcvbufErrors +$rcvbuf"
	# the agent's files came although the client fetched them right after the result
	check "the agent's capture files arrived (no note says otherwise)" \
		[ "$(j '[.notes[] | select(test("did not arrive"))] | length')" -eq 0 ]
	check "arrived_on_link counts every datagram sent ($sent)" [ "$(ledger arrived_on_link)" -eq "$sent" ]
	check "the stall dropped datagrams at the socket" [ "$drops" -gt 100 ]
	check "the socket's /proc/net/udp drops = Udp RcvbufErrors = sent - read" \
		[ "$drops $rcvbuf" = "$rcvbuf $((sent - recv))" ]
	check "read_by_app: the drop is explained and names the socket drops" \
		[ "$(j '.capture.analysis.ledger[5] | "\(.drop) \(.explained) \(.counter | test("socket drops [(]/proc/net/udp[)] [+]'"$drops"'"))"')" = "$drops $drops true" ]
	check "rx-loss-socket with the socket drops as evidence" \
		[ "$(j '[.findings[] | select(.id == "rx-loss-socket") | .evidence.counter | test("socket drops")] | map(tostring) | join(",")')" = "true" ]
	# a0's veth peer (r2, in the router's namespace) read through IFLA_TARGET_NETNSID
	check "a0's veth peer: tx_dropped read in the router's namespace, not enslaved" \
		[ "$(j '.ends.agent.counters.interfaces.a0 | "\(.peer_tx_dropped) \(.peer_enslaved)"')" = "0 false" ]
}

case_loss() {
	topo 100mbit
	# the router's egress to the agent carries 10 Mbit/s: loss between the two captures
	tc -n "$R" qdisc replace dev r2 root tbf rate 10mbit burst 16kb latency 20ms || fail "tbf 10mbit"
	agent --once
	client --peer 10.77.2.1 -u -b 20M -t 1 --capture pcap --json
	# an error-level finding (wire-loss) stands: exit 1 (bondcheck(8), exit status)
	check "run exits 1 for its wire-loss ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 1 ]
	local lost caplost unbr
	lost=$(j '.streams[0].lost_packets'); caplost=$(link lost tx:client/c0)
	unbr=$(link unbracketed tx:client/c0)
	note "receiver lost $lost; capture: lost $caplost + unbracketed $unbr on tx:client/c0"
	check "about half of 20 Mbit/s is lost in a 10 Mbit/s tbf" within "$lost" 500 1100
	check "capture loss (bracketed + tail) equals the receiver's loss exactly" \
		[ $((caplost + unbr)) -eq "$lost" ]
	check "left_on_link - arrived_on_link equals the receiver's loss" \
		[ $(($(ledger left_on_link) - $(ledger arrived_on_link))) -eq "$lost" ]
	check "wire-loss finding names tx:client/c0" \
		[ "$(j '[.findings[] | select(.id == "wire-loss") | .subject] | join(",")' | grep -c 'c0')" -ge 1 ]
}

case_errors() {
	topo 100mbit
	agent
	ip netns exec "$C" setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all \
		"$BC" run --peer 10.77.2.1 -u -b 1M -t 0.3 --capture pcap >"$WORK/out" 2>"$WORK/err"
	RC=$?
	note "unprivileged: exit $RC: $(head -c 300 "$WORK/err")"
	check "capture without CAP_NET_RAW: a clean exit, not a crash" [ "$RC" -ne 0 ] && [ "$RC" -lt 128 ]
	check "... names the interface and the missing capability" grep -q "c0.*CAP_NET_RAW" "$WORK/err"
	client --peer 10.77.2.1 -u -b 1M -t 0.3 --json
	check "the agent still serves a run without --capture pcap (no capture member)" \
		[ "$RC" -eq 0 ] && [ "$(j '.capture')" = "null" ]
	# a plan asking for a capture version this agent does not serve
	client --peer 10.77.2.1 -u -b 1M -t 0.3 --keep-pcaps /proc/forbidden
	check "--keep-pcaps into a folder that cannot be made: exit 3" [ "$RC" -eq 3 ]
	check "... names the folder" grep -q "/proc/forbidden" "$WORK/err"
	# an interface that vanishes during the capture: the run ends cleanly, no crash
	ip netns exec "$C" "$BC" run --peer 10.77.2.1 -u -b 5M -t 3 --capture pcap --json \
		>"$WORK/out" 2>"$WORK/err" &
	local pid=$!
	sleep 1.5
	ip -n "$C" link del c0
	wait "$pid"
	RC=$?
	note "vanished c0: exit $RC: $(head -c 300 "$WORK/err")"
	check "a vanished interface: exit below 128 (no crash)" [ "$RC" -lt 128 ]
}

# --keep-pcaps on a 64 KiB tmpfs: the client's own capture file and then the
# agent's fetched one hit "No space left on device"; the report still comes
# (text and JSON), says so, flags the incomplete capture, and the run exits 3.
case_full_disk() {
	topo 100mbit
	agent
	mkdir -p "$WORK/small" && mount -t tmpfs -o size=64k tmpfs "$WORK/small" ||
		fail "cannot mount a 64 KiB tmpfs on $WORK/small"
	trap 'umount "$WORK/small" 2>/dev/null; cleanup' EXIT INT TERM
	client --peer 10.77.2.1 -u -b 20M -t 1 --capture pcap --keep-pcaps "$WORK/small" --json
	note "exit $RC; stderr: $(head -c 600 "$WORK/err" | tr "\n" " "); df: $(df -k "$WORK/small" | tail -n1); notes: $(j "[.notes[] | select(startswith(\"capture\"))]")"
	check "full disk: exit 3" [ "$RC" -eq 3 ]
	check "... the JSON report is still printed, with the streams ($(j '.streams[0].received_packets') received)" \
		[ "$(j '.streams[0].received_packets')" -gt 1000 ]
	check "... stderr names the client's file and the cause" \
		grep -q "bondcheck run: capture: writing the capture file $WORK/small/client-c0.pcap failed after [0-9]* frames: No space left on device" "$WORK/err"
	check "... the agent's file could not be written either" \
		grep -q "bondcheck run: capture: cannot write $WORK/small/agent-a0.pcap: No space left on device" "$WORK/err"
	check "... capture.errors holds both ($(j '.capture.errors | length'))" [ "$(j '.capture.errors | length')" -eq 2 ]
	check "... the client's interface carries the error" \
		[ "$(j '.capture.client.interfaces[0].error' | grep -c 'No space left')" -eq 1 ]
	check "... its link is flagged capture-incomplete, not silently short" \
		[ "$(j '[.findings[] | select(.id == "capture-incomplete") | .subject] | index("tx:client/c0") != null')" = true ]
	check "... and no wire-loss is claimed from the cut files" \
		[ "$(j '[.findings[] | select(.id == "wire-loss")] | length')" -eq 0 ]
	rm -f "$WORK/small"/*
	client --peer 10.77.2.1 -u -b 20M -t 1 --capture pcap --keep-pcaps "$WORK/small"
	check "text report on a full disk: exit 3, the report printed with an ERROR line" \
		[ "$RC" -eq 3 ] && grep -q "^  ERROR: writing the capture file" "$WORK/out" &&
		grep -q "^Capture (every slave, both ends)" "$WORK/out"
	umount "$WORK/small"
	client --peer 10.77.2.1 -u -b 1M -t 0.3 --json
	check "the agent serves the next run" [ "$RC" -eq 0 ]
}

name=${1:-}
fn="case_${name//-/_}"
declare -F "$fn" >/dev/null || fail "unknown case '$name'"
"$fn"
echo "PASS: $name"
