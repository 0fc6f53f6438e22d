#!/bin/sh
# failover-run.sh NAME NS PEER SLAVE [WIRENS[:a2b|:b2a]] [-- ARGS...]
# Run `bondcheck failover` in namespace NS against the agent PEER, cutting
# SLAVE: by carrier (admin down), or with WIRENS silently through
# wire-drop.sh in that wire namespace (--cut-mode silent with --cut-cmd /
# --restore-cmd).  The JSON goes to /tmp/bc-out/NAME.json, stderr to
# NAME.err, the exit status to NAME.rc; a one-line summary per direction is
# printed.  Exits 0 when bondcheck exited 0 or 1 (it ran; findings are
# checked by the scenario), else with bondcheck's status.
# failover-run.sh check NAME JQ-EXPR: jq -e EXPR on /tmp/bc-out/NAME.json,
# failing (unlike plain jq -e) when the file is empty or not JSON.
# failover-run.sh ends NAME RC CHECK...: the exit status and the named checks of
# failover-ends.jq (the per-end cases of failover.scn).
# failover-run.sh lacp NS BOND ACTOR PARTNER: wait for these LACP port states.
# failover-run.sh kill SIGNAL NS PEER SLAVE: start a carrier cut with a long
# hold, send SIGNAL once SLAVE is down, print the exit status and whether
# SLAVE is up and the journal is there (for the restore checks).
set -u
export BC_JOURNAL_DIR=/tmp/bc-journal
if [ "$1" = check ]; then
	[ -s "/tmp/bc-out/$2.json" ] || { echo "/tmp/bc-out/$2.json is empty"; exit 1; }
	exec jq -e -s ".[0] | ($3)" "/tmp/bc-out/$2.json"
fi
if [ "$1" = ends ]; then
	# failover-run.sh ends NAME RC CHECK...: NAME's exit status was RC, and every CHECK of
	# failover-ends.jq (beside this script) holds; the first that does not is named
	name=$2 rc=$3
	shift 3
	got=$(cat "/tmp/bc-out/$name.rc")
	[ "$got" = "$rc" ] || { echo "$name: exit status $got, expected $rc"; exit 1; }
	for c in "$@"; do
		jq -e --arg check "$c" -f "$(dirname "$0")/failover-ends.jq" "/tmp/bc-out/$name.json" ||
			{ echo "$name: check $c failed"; exit 1; }
	done
	exit 0
fi
if [ "$1" = lacp ]; then
	# failover-run.sh lacp NS BOND ACTOR PARTNER: wait up to 20 s until every slave of BOND
	# has these actor and partner LACP port states (ends configured differently)
	i=0
	until ip -n "$2" -d -j link show master "$3" | jq -e --argjson a "$4" --argjson p "$5" \
		'length > 0 and all(.[]; .linkinfo.info_slave_data | .ad_actor_oper_port_state == $a
		 and .ad_partner_oper_port_state == $p)' >/dev/null; do
		i=$((i + 1))
		[ $i -lt 100 ] || { ip -n "$2" -d -j link show master "$3"; exit 1; }
		sleep 0.2
	done
	exit 0
fi
if [ "$1" = kill ]; then
	sig=$2 ns=$3 peer=$4 slave=$5
	ip netns exec "$ns" bondcheck failover --peer "$peer" --slave "$slave" --allow-changes \
		--hold 30 -j >/tmp/bc-out/fo-kill-$sig.json 2>/tmp/bc-out/fo-kill-$sig.err &
	pid=$!
	i=0
	while ip -n "$ns" link show "$slave" | grep -q ',UP[,>]'; do
		i=$((i + 1))
		[ $i -lt 150 ] || { echo "$slave was not cut within 30 s"; kill "$pid"; exit 1; }
		sleep 0.2
	done
	kill -s "$sig" "$pid"
	wait "$pid"
	echo "exit $?"
	cat /tmp/bc-out/fo-kill-$sig.err
	ip -n "$ns" link show "$slave" | grep -q ',UP[,>]' && echo "$slave up" || echo "$slave down"
	ls "$BC_JOURNAL_DIR"
	exit 0
fi
name=$1 ns=$2 peer=$3 slave=$4
shift 4
wire=""
if [ $# -gt 0 ] && [ "$1" != -- ]; then
	wire=$1
	shift
fi
[ "${1:-}" = -- ] && shift
wd=$(cd "$(dirname "$0")" && pwd)/wire-drop.sh
# the journal goes to the guest's tmpfs (the root file system is read-only)
export BC_JOURNAL_DIR=/tmp/bc-journal
out=/tmp/bc-out/$name
rm -f "$out.json" "$out.err" "$out.rc"
if [ -n "$wire" ]; then
	# WIRENS:a2b (or :b2a) cuts one way only (wire-drop.sh)
	cmds=$("$wd" "${wire%%:*}" /tmp/bc-out $(echo "$wire" | sed -n 's/.*:\(.*\)/\1/p')) || exit 1
	cut=$(echo "$cmds" | sed -n 1p) restore=$(echo "$cmds" | sed -n 2p)
	ip netns exec "$ns" bondcheck failover --peer "$peer" --slave "$slave" --allow-changes \
		--cut-mode silent --cut-cmd "$cut" --restore-cmd "$restore" -j "$@" \
		>"$out.json" 2>"$out.err"
else
	ip netns exec "$ns" bondcheck failover --peer "$peer" --slave "$slave" --allow-changes \
		-j "$@" >"$out.json" 2>"$out.err"
fi
rc=$?
echo "$rc" >"$out.rc"
echo "bondcheck failover exit status $rc"
cat "$out.err"
jq -c '.directions[] | [.direction, .verdict, .streams, .interrupted, .gap_ms, .lost_in_gap,
	.tx_before, .tx_after_failover, .tx_end]' "$out.json"
jq -c '.streams[] | select(.used_cut_slave or (.lost > 0)) | [.id, .direction, .used_cut_slave,
	.interrupted, .down.gap_ms, .down.lost_in_gap, .lost, .left_before, .left_after]' "$out.json"
jq -c '[.elapsed, .cut_took_ms, .restore_took_ms, .recovery], [.links[] | [.name,
	.gratuitous_arp_after_cut.client, .first_announcement_after_cut_ms, .lacp_silence_ms,
	.lacp_defaulted_ms, .lacp_resync_ms]]' "$out.json"
jq -c '[.expected.basis, .expected.limit_ms], [.findings[] | [.id, .evidence]], .notes,
	.restore.text, .plots' "$out.json"
[ "$rc" -le 1 ]
