#!/bin/bash
# The eBPF slave taps on a veth pair (issue 17; label netns, root).
# Cases:
#   generator        taps on both ends while `bondcheck run -u` sends at the
#                    generator's full rate (IPv4, IPv6, IPv4 with UDP GSO): 0 ring drops;
#                    egress records = the datagrams the report says were sent,
#                    ingress records = those it says arrived
#   sigkill          tcx taps: after SIGKILL nothing stays attached
#                    (bpftool net, tc filter show)
#   clsact-leftover  clsact mode forced: a SIGKILLed run's filters are removed
#                    by the next start; a foreign filter (other handle) survives
#   vlan             802.1Q-tagged bondcheck datagrams (VLAN 100, IPv4 and IPv6,
#                    sent raw by tap-vlan-send.py: the host kernel has no
#                    8021q): the tag is read from the packet on egress and
#                    from vlan_tci on ingress (the stack untags it)
#   ring-drop        a 4 KiB ring at the generator's full rate: records lost to
#                    the full ring are counted, records + drops = datagrams sent
#   load-refused     a program the verifier refuses: its message is reported;
#                    without CAP_BPF / CAP_NET_ADMIN the open says which is missing
#   flow-evict       UDP from 1000 source ports, echoed, through a 64-entry flow
#                    table: inserted = the keys the traffic made (one per port
#                    and direction), evicted = inserted - present > 0
#   flow-no-evict    the same traffic through the default 65,536 entries: 0 evicted
# Topology: namespaces $ID-c (c0 10.78.1.1, fd78::1) -- veth -- $ID-a (a0
# 10.78.1.2, fd78::2); traffic stays inside them.  A missing prerequisite fails.
set -u

fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "# $*"; }
check() {
	local what=$1 neg=0
	shift
	[ "$1" = "!" ] && { neg=1; shift; }
	if [ $neg = 1 ]; then "$@" >/dev/null 2>&1 && fail "$what"; else "$@" >/dev/null || fail "$what"; fi
	echo "ok: $what"
}

[ "$(id -u)" -eq 0 ] || fail "tap tests need root (namespaces, BPF); found uid $(id -u)"
for t in ip tc jq bpftool python3; do
	command -v "$t" >/dev/null || fail "'$t' not found; install it (tools/install-deps)"
done
BC=${BC:-}
BCT=${BCT:-}
[ -x "$BC" ] || fail "bondcheck binary not given or not executable: '$BC'"
[ -x "$BCT" ] || fail "bc-tap-tool not given or not executable: '$BCT'"

ID="bctp$$"
C="$ID-c"; A="$ID-a"
PIDS=""
WORK=$(mktemp -d "/tmp/$ID.XXXXXX")

cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	for ns in "$C" "$A"; do ip netns del "$ns" 2>/dev/null; done
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

topo() {
	ip netns add "$C" && ip netns add "$A" || fail "cannot create namespaces"
	ip link add c0 netns "$C" type veth peer name a0 netns "$A" || fail "veth pair"
	ip -n "$C" addr add 10.78.1.1/24 dev c0
	ip -n "$C" addr add fd78::1/64 dev c0 nodad
	ip -n "$A" addr add 10.78.1.2/24 dev a0
	ip -n "$A" addr add fd78::2/64 dev a0 nodad
	for ns in "$C" "$A"; do ip -n "$ns" link set lo up; done
	ip -n "$C" link set c0 up
	ip -n "$A" link set a0 up
}

# tap NS NAME IF [ARGS]: start bc-tap-tool in NS on IF; waits until attached.
tap() {
	local ns=$1 name=$2 dev=$3
	shift 3
	rm -f "$WORK/$name.ready"
	ip netns exec "$ns" "$BCT" tap --ready "$WORK/$name.ready" "$@" "$dev" \
		>"$WORK/$name.json" 2>"$WORK/$name.err" &
	eval "PID_$name=$!"
	PIDS="$PIDS $!"
	for _ in $(seq 100); do
		[ -f "$WORK/$name.ready" ] && return 0
		kill -0 "$!" 2>/dev/null || break
		sleep 0.05
	done
	cat "$WORK/$name.err" >&2
	fail "bc-tap-tool did not attach in $ns on $dev"
}

# untap NAME: SIGTERM, wait; the summary is in $WORK/NAME.json
untap() {
	local pid
	eval "pid=\$PID_$1"
	kill -TERM "$pid"
	wait "$pid" || { cat "$WORK/$1.err" >&2; fail "bc-tap-tool $1 exited $?"; }
}

agent() {
	ip netns exec "$A" "$BC" serve "$@" 2>"$WORK/agent.log" &
	PIDS="$PIDS $!"
	for _ in $(seq 50); do
		ip netns exec "$A" ss -ltn 2>/dev/null | grep -q ":5301 " && return 0
		sleep 0.1
	done
	cat "$WORK/agent.log" >&2
	fail "agent did not start listening"
}

# generator FAMILY PEER A,B A B [ARGS]: one UDP run at the generator's full
# rate, both ends tapped.
generator() {
	local fam=$1 peer=$2 sent recv rcvbuf rx
	tap "$C" tx c0 --pair "$3"
	tap "$A" rx a0 --pair "$3"
	ip netns exec "$C" "$BC" run --peer "$peer" -u -b 20G -t "${DUR:-2}" --json "${@:6}" >"$WORK/out" 2>"$WORK/err" ||
		{ cat "$WORK/err" >&2; fail "bondcheck run ($fam) failed"; }
	untap tx
	untap rx
	sent=$(jq '[.streams[].sent_packets] | add' "$WORK/out")
	recv=$(jq '[.streams[].received_packets] | add' "$WORK/out")
	note "$fam: report: sent $sent received $recv; taps: $(jq -c '{mode, records, ring_drop}' "$WORK/tx.json") $(jq -c '{records, ring_drop}' "$WORK/rx.json")"
	check "$fam: the run sent something ($sent datagrams)" [ "$sent" -gt 1000 ]
	for side in tx rx; do
		check "$fam: $side taps dropped no record" [ "$(jq .ring_drop "$WORK/$side.json")" -eq 0 ]
		check "$fam: $side record times are CLOCK_REALTIME within the run" \
			[ "$(jq .ts_outside "$WORK/$side.json")" -eq 0 ]
	done
	check "$fam: egress records of c0 = datagrams sent ($(jq .links.c0.egress.udp_distinct "$WORK/tx.json") vs $sent)" \
		[ "$(jq .links.c0.egress.udp_distinct "$WORK/tx.json")" -eq "$sent" ]
	check "$fam: no duplicate record on egress" \
		[ "$(jq .links.c0.egress.udp "$WORK/tx.json")" -eq "$sent" ]
	# socket-buffer drops at the receiver: after the tap, before the report's count
	rcvbuf=$(jq '.ends.agent.counters.snmp | (.["Udp.RcvbufErrors"] // 0) + (.["Udp6.RcvbufErrors"] // 0)' "$WORK/out")
	rx=$(jq .links.a0.ingress.udp_distinct "$WORK/rx.json")
	note "$fam: a0 ingress records $rx; receiver socket-buffer drops $rcvbuf"
	if [ "$rcvbuf" -eq 0 ] || [ -z "${GSO:-}" ]; then
		check "$fam: ingress records of a0 = datagrams received + socket drops ($rx vs $recv + $rcvbuf)" \
			[ "$rx" -eq $((recv + rcvbuf)) ]
	else
		# with GRO a socket drop (RcvbufErrors) is one skb of many datagrams
		check "$fam: ingress records of a0 = egress records of c0 (the veth drops nothing)" [ "$rx" -eq "$sent" ]
		check "$fam: the receiver read fewer ($recv) after $rcvbuf GRO skbs were dropped" \
			[ "$recv" -lt "$rx" ] && [ $((recv + rcvbuf)) -le "$rx" ]
	fi
	check "$fam: the records' tuple ids resolve to UDP $4 -> $5 port 5302 (stream 0's)" \
		grep -q "^17 $4 [0-9]* $5 5302\$" <<<"$(jq -r .links.c0.egress.udp_tuple "$WORK/tx.json")"
	check "$fam: the same on the receiver" \
		grep -q "^17 $4 [0-9]* $5 5302\$" <<<"$(jq -r .links.a0.ingress.udp_tuple "$WORK/rx.json")"
	check "$fam: no test datagram on c0 ingress or a0 egress" \
		[ "$(jq '.links.c0.ingress.udp' "$WORK/tx.json")" -eq 0 ] && [ "$(jq '.links.a0.egress.udp' "$WORK/rx.json")" -eq 0 ]
}

case_generator() {
	topo
	agent
	generator IPv4 10.78.1.2 10.78.1.1,10.78.1.2 10.78.1.1 10.78.1.2
	DUR=1 generator IPv6 fd78::2 fd78::1,fd78::2 fd78::1 fd78::2
	# 1472 bytes + UDP 8 + IPv6 40 > MTU 1500: every datagram is two fragments
	check "IPv6: one trailing fragment recorded per datagram on each end" \
		[ "$(jq .links.c0.egress.frag "$WORK/tx.json")" -eq "$(jq .links.c0.egress.udp "$WORK/tx.json")" ] &&
		[ "$(jq .links.a0.ingress.frag "$WORK/rx.json")" -eq "$(jq .links.a0.ingress.udp "$WORK/rx.json")" ]
	check "IPv6 records are flagged IPv6" \
		[ "$(jq '.links.c0.egress.v6' "$WORK/tx.json")" -eq "$(jq '.links.c0.egress | .udp + .frag' "$WORK/tx.json")" ]
	# UDP GSO: the egress hook sees super-packets of up to 64 datagrams
	# behind one UDP header; each gets its own record
	DUR=1 GSO=1 generator "IPv4 GSO" 10.78.1.2 10.78.1.1,10.78.1.2 10.78.1.1 10.78.1.2 --gso -l 1400
	check "GSO: egress saw super-packets, their datagrams flagged ($(jq .links.c0.egress.gso "$WORK/tx.json") of $(jq .links.c0.egress.udp "$WORK/tx.json"))" \
		[ "$(jq .links.c0.egress.gso "$WORK/tx.json")" -gt 0 ]
}

# our_links: the tcx links (bpftool link: type 11; bpftool 7.1 predates the
# name) whose program is one of $PROGS
our_links() {
	bpftool -j link show | jq --arg p "$PROGS" '[.[] | select(.prog_id as $i | ($p | split(" ") | map(tonumber) | index($i)))] | length'
}

case_sigkill() {
	local pid
	topo
	BC_TAP_ATTACH=tcx tap "$C" k c0
	pid=$PID_k
	check "tcx mode on this kernel ($(uname -r))" [ "$(bpftool -j link show | jq '[.[] | select(.type == 11)] | length')" -ge 2 ]
	PROGS=$(bpftool -j prog show | jq -r '[.[] | select(.name == "bc_tap_ingress" or .name == "bc_tap_egress") | .id] | join(" ")')
	check "our two programs are loaded (ids $PROGS)" [ "$(echo "$PROGS" | wc -w)" -ge 2 ]
	check "two tcx links run them while the holder lives" [ "$(our_links)" -eq 2 ]
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	for _ in $(seq 40); do
		[ "$(our_links)" -eq 0 ] && break
		sleep 0.05
	done
	check "after SIGKILL no tcx link of ours is left (bpftool link)" [ "$(our_links)" -eq 0 ]
	check "after SIGKILL bpftool net lists no tc program on c0" \
		[ -z "$(ip netns exec "$C" bpftool -j net show dev c0 | jq -r '.[].tc[]?')" ]
	check "after SIGKILL tc lists no filter on c0" \
		[ -z "$(tc -n "$C" filter show dev c0 ingress)$(tc -n "$C" filter show dev c0 egress)" ]
	for id in $PROGS; do
		for _ in $(seq 40); do
			bpftool prog show id "$id" >/dev/null 2>&1 || break
			sleep 0.05
		done
		check "program $id is unloaded" ! bpftool prog show id "$id"
	done
}

# filter_has DIR REGEX: a filter on c0 DIR matches REGEX
filter_has() { tc -n "$C" filter show dev c0 "$1" | grep -q "$2"; }

# ours DIR: our filters (handle 0xbc17, pref 48151) on c0 DIR
ours() { tc -n "$C" filter show dev c0 "$1" | grep -c 'pref 48151 bpf.*handle 0xbc17'; }

case_clsact_leftover() {
	local pid
	topo
	tc -n "$C" qdisc add dev c0 clsact || fail "clsact on c0"
	for d in ingress egress; do
		# another clsact user: a classic-BPF cls_bpf filter that matches nothing
		tc -n "$C" filter add dev c0 "$d" pref 100 handle 7 bpf bytecode '1,6 0 0 0,' ||
			fail "foreign cls_bpf filter on c0 $d"
	done
	BC_TAP_ATTACH=clsact tap "$C" k c0
	pid=$PID_k
	check "our filters attached in clsact mode" [ "$(ours ingress)" -eq 1 ] && [ "$(ours egress)" -eq 1 ]
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	check "a SIGKILLed clsact run leaves its filters (why the next start cleans)" \
		[ "$(ours ingress)" -eq 1 ] && [ "$(ours egress)" -eq 1 ]
	BC_TAP_ATTACH=clsact tap "$C" k2 c0
	check "the next start replaced the leftovers: one filter of ours per hook" \
		[ "$(ours ingress)" -eq 1 ] && [ "$(ours egress)" -eq 1 ]
	untap k2
	check "the next run reports clsact mode" [ "$(jq -r .mode "$WORK/k2.json")" = clsact ]
	check "SIGTERM detached our filters" [ "$(ours ingress)" -eq 0 ] && [ "$(ours egress)" -eq 0 ]
	for d in ingress egress; do
		check "the foreign filter on c0 $d survives" filter_has "$d" 'pref 100 bpf.*handle 0x7 .*bytecode'
	done
	check "the clsact qdisc is kept" grep -q clsact <<<"$(tc -n "$C" qdisc show dev c0)"
	BC_TAP_ATTACH=clsact tap "$C" k3 c0
	kill -KILL "$PID_k3"
	wait "$PID_k3" 2>/dev/null
	check "bc_tap_cleanup removes a SIGKILLed run's two filters" \
		[ "$(ip netns exec "$C" "$BCT" cleanup c0)" = 2 ]
	check "none of ours left, the foreign ones kept" [ "$(ours ingress)$(ours egress)" = 00 ] &&
		[ "$(tc -n "$C" filter show dev c0 ingress | grep -c 'handle 0x7 ')" -eq 1 ]
	# a foreign filter on our very handle and priority is never removed
	tc -n "$C" filter add dev c0 egress pref 48151 handle 0xbc17 bpf bytecode '1,6 0 0 0,' ||
		fail "foreign filter at our handle"
	BC_TAP_ATTACH=clsact ip netns exec "$C" "$BCT" tap c0 >/dev/null 2>"$WORK/busy.err"
	check "a foreign filter at our handle and priority: the start fails (exit $?)" [ $? -eq 1 ]
	note "$(cat "$WORK/busy.err")"
	check "and says why" grep -q 'not ours; left in place' "$WORK/busy.err"
	check "the foreign filter at our handle survives" filter_has egress 'pref 48151 bpf.*handle 0xbc17 .*bytecode'
	check "the failed start detached the ingress filter it had attached" [ "$(ours ingress)" -eq 0 ]
}

case_vlan() {
	local mac n=200
	topo
	mac=$(ip -n "$A" -j link show a0 | jq -r '.[0].address')
	tap "$C" tx c0
	tap "$A" rx a0
	ip netns exec "$C" python3 "$(dirname "$0")/tap-vlan-send.py" c0 "$mac" 100 "$n" ||
		fail "cannot send the tagged frames"
	sleep 0.2
	untap tx
	untap rx
	note "egress $(jq -c '.links.c0.egress | {udp, vlan, vid, v6}' "$WORK/tx.json"), ingress $(jq -c '.links.a0.ingress | {udp, vlan, vid, v6}' "$WORK/rx.json")"
	for x in "tx c0 egress" "rx a0 ingress"; do
		set -- $x
		check "$3: all $((2 * n)) tagged datagrams recorded (IPv4 and IPv6)" \
			[ "$(jq ".links.$2.$3.udp" "$WORK/$1.json")" -eq $((2 * n)) ]
		check "$3: each record carries the tag, VLAN 100" \
			[ "$(jq ".links.$2.$3.vlan" "$WORK/$1.json")" -eq $((2 * n)) ] &&
			[ "$(jq ".links.$2.$3.vid" "$WORK/$1.json")" -eq 100 ]
		check "$3: the IPv6 half is parsed behind the tag" \
			[ "$(jq ".links.$2.$3.v6" "$WORK/$1.json")" -eq "$n" ]
		check "$3: streams 3 and 4 each have $n distinct sequence numbers" \
			[ "$(jq -c ".links.$2.$3.udp_distinct_per_stream[3:5]" "$WORK/$1.json")" = "[$n,$n]" ]
	done
}

case_ring_drop() {
	local sent rec drop
	topo
	agent
	tap "$C" tx c0 --pair 10.78.1.1,10.78.1.2 --ring 4096
	ip netns exec "$C" "$BC" run --peer 10.78.1.2 -u -b 20G -t 1 --json >"$WORK/out" 2>"$WORK/err" ||
		{ cat "$WORK/err" >&2; fail "bondcheck run failed"; }
	untap tx
	sent=$(jq '[.streams[].sent_packets] | add' "$WORK/out")
	rec=$(jq .links.c0.egress.udp "$WORK/tx.json")
	drop=$(jq .ring_drop "$WORK/tx.json")
	note "sent $sent; egress records $rec, ring drops $drop"
	check "a 4 KiB ring (73 records) overflows at full rate: drops counted" [ "$drop" -gt 0 ]
	check "records + ring drops = datagrams sent ($rec + $drop vs $sent)" [ $((rec + drop)) -eq "$sent" ]
}

case_load_refused() {
	local out
	[ -f "${BCT_REFUSED:-}" ] || fail "the refused program's object not given: '${BCT_REFUSED:-}'"
	out=$("$BCT" load "$BCT_REFUSED")
	local rc=$?
	note "$out"
	check "a refused program fails the load" [ "$rc" -eq 1 ]
	check "the error quotes the verifier" grep -q 'refused.*invalid access to packet' <<<"$out"
	check "the error is -EACCES" grep -q '^rc -13:' <<<"$out"
	command -v capsh >/dev/null || fail "'capsh' not found; install libcap2-bin (tools/install-deps)"
	out=$(capsh --drop=cap_bpf,cap_sys_admin,cap_net_admin -- -c "'$BCT' tap lo" 2>&1)
	note "$out"
	check "without the capabilities the open names both" \
		grep -q 'need CAP_BPF and CAP_NET_ADMIN (or root); missing: CAP_BPF, CAP_NET_ADMIN' <<<"$out"
	out=$(capsh --drop=cap_net_admin -- -c "'$BCT' tap lo" 2>&1)
	check "without CAP_NET_ADMIN only that one" grep -q 'missing: CAP_NET_ADMIN$' <<<"$out"
}

# flows_udp SIZE N: N UDP datagrams, each from its own source port, from c0
# to an echo on a0, through a flow table of SIZE entries on c0; the walk's
# figures are checked against the keys the traffic made.
flows_udp() {
	local size=$1 n=$2 echoed keys f nfail during
	# ins, pres, ev: global, for the caller's checks
	topo
	# no IPv6 on the veth: no MLD or router solicitations, only our IPv4 flows
	for x in "$C c0" "$A a0"; do
		set -- $x
		ip netns exec "$1" sysctl -qw "net.ipv6.conf.$2.disable_ipv6=1" || fail "IPv6 off on $2"
	done
	rm -f "$WORK/echo.ready"
	ip netns exec "$A" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("10.78.1.2", 7))
open(sys.argv[1], "w").close()
while True:
    d, a = s.recvfrom(2048)
    s.sendto(d, a)
' "$WORK/echo.ready" 2>"$WORK/echo.err" &
	PIDS="$PIDS $!"
	for _ in $(seq 100); do
		[ -f "$WORK/echo.ready" ] && break
		sleep 0.05
	done
	[ -f "$WORK/echo.ready" ] || { cat "$WORK/echo.err" >&2; fail "the UDP echo did not start"; }
	tap "$C" fl c0 --flows "$size"
	# one datagram per source port 20000..20000+N-1; prints the replies received
	echoed=$(ip netns exec "$C" python3 -c '
import socket, sys
n, got = int(sys.argv[1]), 0
for p in range(20000, 20000 + n):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("10.78.1.1", p))
    s.settimeout(1.0)
    s.sendto(b"bondcheck flow-evict", ("10.78.1.2", 7))
    try:
        s.recv(64)
        got += 1
    except socket.timeout:
        pass
    s.close()
print(got)
' "$n") || fail "cannot send the datagrams"
	untap fl
	f=$WORK/fl.json
	ins=$(jq .flows.inserted "$f"); pres=$(jq .flows.present "$f"); ev=$(jq .flows.evicted "$f")
	nfail=$(jq .flows.fail "$f"); during=$(jq .flows.inserted_during_walk "$f")
	# c0 egress: one key per source port; c0 ingress: one per echoed reply
	keys=$((n + echoed))
	note "table $size: sent $n, echoed $echoed ($keys keys); flows $(jq -c .flows "$f")"
	check "every datagram was echoed ($echoed of $n)" [ "$echoed" -eq "$n" ]
	check "capacity is the asked $size" [ "$(jq .flows.capacity "$f")" -eq "$size" ]
	check "no packet failed to count ($nfail)" [ "$nfail" -eq 0 ]
	check "the walk ran on a quiet table (inserted during it: $during)" [ "$during" -eq 0 ]
	check "inserted = the keys the traffic made ($ins vs $keys)" [ "$ins" -eq "$keys" ]
	check "present <= the table's $size entries ($pres)" [ "$pres" -le "$size" ]
	check "evicted = inserted - present ($ev vs $ins - $pres)" [ "$ev" -eq $((ins - pres)) ]
}

case_flow_evict() {
	flows_udp 64 1000
	check "a 64-entry table evicted ($ev)" [ "$ev" -gt 0 ]
}

case_flow_no_evict() {
	flows_udp 65536 1000
	check "65,536 entries hold them all: none evicted, all present ($ev, $pres)" \
		[ "$ev" -eq 0 ] && [ "$pres" -eq "$ins" ]
}

case "${1:-}" in
generator) case_generator ;;
sigkill) case_sigkill ;;
clsact-leftover) case_clsact_leftover ;;
vlan) case_vlan ;;
ring-drop) case_ring_drop ;;
load-refused) case_load_refused ;;
flow-evict) case_flow_evict ;;
flow-no-evict) case_flow_no_evict ;;
*) fail "unknown case '${1:-}'" ;;
esac
echo "PASS"
