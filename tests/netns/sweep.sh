#!/bin/bash
# netns tests of `bondcheck sweep`: sweep.sh CASE, with BC=<bondcheck>.
# Cases:
#   udp-size  UDP payload 64/256/512/1472 through the router's tbf 10 Mbit/s
#             (lib.sh topology, --link-rate 10M --link-accounting tbf): every
#             point within 5 % of its ceiling, the curve rises with it.
#   streams   TCP streams 1,2 and UDP rate 2M,4M: the parameter reaches the plan.
#   mtu       MTU 1500/4000/9000 on a veth wire between two bridges (one per
#             end, the journaled master), tbf 20 Mbit/s with burst >= MTU + 14
#             on each bridge: each point within 3 % of the tbf ceiling at that
#             MTU; both ends restored to 1500 afterwards.
#   errors    usage errors.
. "$(dirname "$0")/lib.sh"

# sweep ARGS...: `bondcheck sweep` in C; stdout to $WORK/out, status in $RC.
sweep() {
	ip netns exec "$C" "$BC" sweep "$@" >"$WORK/out" 2>"$WORK/err"
	RC=$?
}

# point I FILTER: a jq value of point I.
point() { jq -r ".points[$1] | $2" "$WORK/out"; }

case_udp_size() {
	topo 10mbit
	# tbf burst just above one frame, so the first burst does not lift the goodput
	tc -n "$R" qdisc change dev r2 root tbf rate 10mbit burst 4kb latency 50ms || fail "tbf burst"
	agent
	sweep --peer 10.77.2.1 -u -b 12M --param size=64,256,512,1472 --repetitions 3 -t 2 \
		--link-rate 10M --link-accounting tbf -j --csv "$WORK/s.csv" --plot "$WORK/plot"
	check "sweep exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	check "4 points of 3 runs" [ "$(jq '[.points[] | .n] | join(",")' -r "$WORK/out")" = "3,3,3,3" ]
	local prev=0 i v m c lo hi
	for i in 0 1 2 3; do
		v=$(point $i .value); m=$(point $i .mean_bps); c=$(point $i .ceiling_bps)
		lo=$(point $i .ci_low_bps); hi=$(point $i .ci_high_bps)
		note "size $v: mean $m CI $lo..$hi ceiling $c efficiency $(point $i .efficiency) loss $(point $i .loss_ratio)"
		# tbf convention: 10e6 x L / (L + 8 + 20 + 14)
		check "size $v: ceiling is 10 Mbit/s x $v / ($v + 42)" \
			within "$c" "$(awk -v l="$v" 'BEGIN { printf "%.3f", 1e7 * l / (l + 42) - 1 }')" \
			"$(awk -v l="$v" 'BEGIN { printf "%.3f", 1e7 * l / (l + 42) + 1 }')"
		rate_check "size $v: mean within 5 % of the ceiling" within "$(point $i .efficiency)" 0.95 1.05
		check "size $v: the CI holds the mean" awk -v a="$lo" -v m="$m" -v b="$hi" 'BEGIN { exit !(a <= m && m <= b) }'
		check "size $v: the curve rises with the ceiling" awk -v a="$prev" -v b="$m" 'BEGIN { exit !(b > a) }'
		prev=$m
	done
	check "the ceiling itself rises: 64 B is 60 % of 1472 B's" \
		within "$(jq '.points[0].ceiling_bps / .points[3].ceiling_bps' "$WORK/out")" 0.61 0.63
	check "UDP over the tbf loses datagrams (offered 12M)" awk -v l="$(point 3 .loss_ratio)" 'BEGIN { exit !(l > 0.05) }'
	check "CSV: header and 4 points" [ "$(wc -l <"$WORK/s.csv")" -eq 5 ]
	check "CSV: the 512 row" grep -q '^size,512,3,' "$WORK/s.csv"
	check "--plot wrote the SVG curve" grep -q "<svg" "$WORK/plot/sweep.svg"
	check "... and said so" grep -q "wrote $WORK/plot/sweep.svg" "$WORK/err"
}

case_streams() {
	topo 50mbit
	agent
	sweep --peer 10.77.2.1 --param streams=1,3 --repetitions 2 -t 1 -j
	check "TCP streams sweep exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	check "2 points, 2 runs each" [ "$(jq -r '[.points[] | .n] | join(",")' "$WORK/out")" = "2,2" ]
	check "param streams, unit streams" [ "$(jq -r '.param + " " + .unit' "$WORK/out")" = "streams streams" ]
	check "TCP metrics of the peer cleared before each run" \
		[ "$(jq '[.points[].runs[] | select(has("tcp_metrics_error"))] | length' "$WORK/out")" = 0 ]
	# without CAP_NET_ADMIN the metrics cannot be cleared: every run and a note say so
	ip netns exec "$C" capsh --drop=cap_net_admin -- -c \
		"exec '$BC' sweep --peer 10.77.2.1 --param streams=1 --repetitions 1 -t 0.5 -j" \
		>"$WORK/out2" 2>"$WORK/err2"
	check "no CAP_NET_ADMIN: each run carries the error" \
		[ "$(jq '[.points[].runs[] | select(.tcp_metrics_error | test("permission|EPERM|not permitted|CAP_NET_ADMIN"; "i"))] | length' "$WORK/out2")" = 1 ]
	check "no CAP_NET_ADMIN: a note names it" \
		[ "$(jq '[.notes[] | select(test("TCP metrics"))] | length' "$WORK/out2")" = 1 ]
	sweep --peer 10.77.2.1 -u --param rate=2M,6M --repetitions 2 -t 1 -j
	check "UDP rate sweep exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	# 2 Mbit/s x 1 s / (8 x 1472) = 169.8 datagrams; 6M: 509.5
	check "rate 2M: about 170 datagrams per run" within "$(jq '.points[0].runs[0].sent_packets' "$WORK/out")" 160 175
	check "rate 6M: about 510 datagrams per run" within "$(jq '.points[1].runs[0].sent_packets' "$WORK/out")" 495 515
	check "UDP below the link: no loss" [ "$(jq '[.points[].loss_ratio] | add' "$WORK/out")" = 0 ]
	check "goodput follows the offered rate" within "$(jq '.points[1].mean_bps / .points[0].mean_bps' "$WORK/out")" 2.8 3.2
	sweep --peer 10.77.2.1 --param streams=1,2 --repetitions 1 -t 0.5
	check "text output exits 0" [ "$RC" -eq 0 ]
	check "text: a table with the CI column" grep -q "95 % CI" "$WORK/out"
	check "text: one run, no CI" grep -Eq '^ +1 +1 +[0-9.]+ +- ' "$WORK/out"
}

# wire RATE BURST: C and A joined by one veth (c0 - a0), each end a port of
# a bridge br0 that holds the address (10.77.1.1 / 10.77.1.2) and a root tbf.
wire() {
	ip netns add "$C" && ip netns add "$A" || fail "cannot create namespaces"
	ip link add name c0 netns "$C" type veth peer name a0 netns "$A" || fail "veth"
	for ns in "$C" "$A"; do
		ip -n "$ns" link set lo up
		ip -n "$ns" link add br0 type bridge || fail "bridge"
		tc -n "$ns" qdisc add dev br0 root tbf rate "$1" burst "$2" latency 50ms || fail "tbf"
	done
	ip -n "$C" link set c0 master br0 up
	ip -n "$A" link set a0 master br0 up
	ip -n "$C" addr add 10.77.1.1/24 dev br0
	ip -n "$A" addr add 10.77.1.2/24 dev br0
	ip -n "$C" link set br0 up
	ip -n "$A" link set br0 up
}

mtus() { # mtus NS: "port bridge" MTUs
	echo "$(ip -n "$1" -j link show dev "${1##*-}0" | jq '.[0].mtu') $(ip -n "$1" -j link show dev br0 | jq '.[0].mtu')"
}

case_mtu() {
	# tbf burst 10 KiB >= 9000 + 14: a smaller burst drops every jumbo frame
	wire 20mbit 10kb
	export BC_JOURNAL_DIR="$WORK/journal"
	# --test-any-master: the agent journals a bridge (normal agents only bonds)
	agent --allow-changes --test-any-master
	# no --omit: a receiver starved on the shared CPUs at the omit boundary reads
	# data that arrived before it and inflates the goodput; without omit every
	# byte and the whole time count
	sweep --peer 10.77.1.2 --param mtu=1500,4000,9000 --allow-changes --repetitions 2 -t 3 -j
	check "MTU sweep exits 0 ($(head -c 400 "$WORK/err"))" [ "$RC" -eq 0 ]
	local i v
	for i in 0 1 2; do
		v=$(point $i .value)
		note "MTU $v: mean $(point $i .mean_bps) CI $(point $i .ci_low_bps)..$(point $i .ci_high_bps) ceiling $(point $i .ceiling_bps) efficiency $(point $i .efficiency)"
		# tbf convention, TCP with timestamps: 20e6 x (MTU - 52) / (MTU + 14)
		check "MTU $v: the ceiling is 20 Mbit/s x ($v - 52) / ($v + 14)" \
			within "$(point $i .ceiling_bps)" \
			"$(awk -v m="$v" 'BEGIN { printf "%.3f", 2e7 * (m - 52) / (m + 14) - 1 }')" \
			"$(awk -v m="$v" 'BEGIN { printf "%.3f", 2e7 * (m - 52) / (m + 14) + 1 }')"
		check "MTU $v: the runs saw that MTU on the egress" \
			[ "$(point $i '[.runs[].mtu] | unique | join(",")')" = "$v" ]
		rate_check "MTU $v: mean within 3 % of the ceiling" within "$(point $i .efficiency)" 0.97 1.03
	done
	check "the changes were journaled and restored on both ends" \
		[ "$(jq -r '"\(.changes.local.kind) \(.changes.agent.kind) \(.changes.restored)"' "$WORK/out")" = "bridge bridge true" ]
	check "three change steps, all ok" [ "$(jq '[.changes.steps[] | select(.ok)] | length' "$WORK/out")" -eq 3 ]
	check "client port and bridge back at 1500" [ "$(mtus "$C")" = "1500 1500" ]
	check "agent port and bridge back at 1500" [ "$(mtus "$A")" = "1500 1500" ]
	check "no journal left behind" [ -z "$(ls -A "$WORK/journal" 2>/dev/null)" ]
	# the peer's port at 2000 first: restore must give back exactly that
	ip -n "$A" link set a0 mtu 2000 || fail "a0 mtu"
	sweep --peer 10.77.1.2 --param mtu=4000 --allow-changes --repetitions 1 -t 0.5 -j
	check "second sweep exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	check "... the agent's port is back at 2000, its bridge at 1500" [ "$(mtus "$A")" = "2000 1500" ]
	# an agent without --allow-changes: refused after the local journal; nothing stays changed
	kill "$AGENT_PID"; wait "$AGENT_PID" 2>/dev/null; AGENT_PID=""
	agent
	sweep --peer 10.77.1.2 --param mtu=4000 --allow-changes --repetitions 1 -t 0.5 -j
	check "agent without --allow-changes: exit 3 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 3 ]
	check "... says the agent does not allow changes" grep -qi "allow-changes" "$WORK/err"
	check "... no run was made" [ "$(jq '.points[0].n' "$WORK/out")" -eq 0 ]
	check "... the client's MTUs untouched" [ "$(mtus "$C")" = "1500 1500" ]
	check "... no local journal left behind" [ -z "$(ls -A "$WORK/journal" 2>/dev/null)" ]
}

# docs: not a test; the outputs of docs/sweep.md into $BC_DOCS_OUT/{size,mtu}.
case_docs() {
	local out=${BC_DOCS_OUT:?set BC_DOCS_OUT to a directory}
	mkdir -p "$out/size" "$out/mtu"
	topo 10mbit
	tc -n "$R" qdisc change dev r2 root tbf rate 10mbit burst 4kb latency 50ms || fail "tbf burst"
	agent
	ip netns exec "$C" "$BC" sweep --peer 10.77.2.1 -u -b 12M --param size=64,128,256,512,1024,1472 \
		--repetitions 3 -t 2 --link-rate 10M --link-accounting tbf --csv "$out/size/sweep.csv" \
		--plot "$out/size" >"$out/size/sweep.txt"
	kill "$AGENT_PID"; wait "$AGENT_PID" 2>/dev/null; AGENT_PID=""
	for ns in "$C" "$R" "$A"; do ip netns del "$ns"; done
	wire 20mbit 10kb
	export BC_JOURNAL_DIR="$WORK/journal"
	agent --allow-changes --test-any-master
	ip netns exec "$C" "$BC" sweep --peer 10.77.1.2 --param mtu=1500,3000,4000,6000,9000 \
		--allow-changes --repetitions 3 -t 3 --csv "$out/mtu/sweep.csv" --plot "$out/mtu" \
		>"$out/mtu/sweep.txt"
}

case_errors() {
	topo 50mbit
	sweep --peer 10.77.2.1 --param mtu=1500,9000
	check "MTU without --allow-changes: exit 2" [ "$RC" -eq 2 ]
	grep -q "allow-changes" "$WORK/err" || fail "message: $(cat "$WORK/err")"
	sweep --peer 10.77.2.1 --param rate=1M
	check "rate with TCP: exit 2" [ "$RC" -eq 2 ]
	sweep --peer 10.77.2.1 --param speed=1,2
	check "unknown parameter: exit 2 naming it" [ "$RC" -eq 2 ]
	grep -q "unknown parameter 'speed'" "$WORK/err" || fail "message: $(cat "$WORK/err")"
	sweep --peer 10.77.2.1 --param size=64,x
	check "bad value: exit 2" [ "$RC" -eq 2 ]
	grep -q "'x' is not a size" "$WORK/err" || fail "message: $(cat "$WORK/err")"
	sweep --peer 10.77.2.1 --param streams=2,2
	check "a value twice: exit 2" [ "$RC" -eq 2 ]
	sweep --peer 10.77.2.1 --param size=64 --allow-changes
	check "--allow-changes without mtu: exit 2" [ "$RC" -eq 2 ]
	sweep --peer 10.77.2.1 --param size=512 -t 0.5 --repetitions 1
	check "no agent: exit 3" [ "$RC" -eq 3 ]
	check "... the run's error is in the table" grep -q "run 1 failed" "$WORK/out"
}

name=${1:-}
fn="case_${name//-/_}"
declare -F "$fn" >/dev/null || fail "unknown case '$name'"
"$fn"
echo "PASS: $name"
