#!/bin/sh
# failover-run.sh NAME NS PEER SLAVE [WIRENS] [-- ARGS...]
# Run `bondcheck failover` in namespace NS against the agent PEER, cutting
# SLAVE: by carrier (admin down), or with WIRENS silently through
# wire-drop.sh in that wire namespace (--cut-mode silent with --cut-cmd /
# --restore-cmd).  The JSON goes to /tmp/bc-out/NAME.json, stderr to
# NAME.err, the exit status to NAME.rc; a one-line summary per direction is
# printed.  Exits 0 when bondcheck exited 0 or 1 (it ran; findings are
# checked by the scenario), else with bondcheck's status.
# failover-run.sh check NAME JQ-EXPR: jq -e EXPR on /tmp/bc-out/NAME.json,
# failing (unlike plain jq -e) when the file is empty or not JSON.
set -u
if [ "$1" = check ]; then
	[ -s "/tmp/bc-out/$2.json" ] || { echo "/tmp/bc-out/$2.json is empty"; exit 1; }
	exec jq -e -s ".[0] | ($3)" "/tmp/bc-out/$2.json"
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
out=/tmp/bc-out/$name
rm -f "$out.json" "$out.err" "$out.rc"
if [ -n "$wire" ]; then
	ip netns exec "$ns" bondcheck failover --peer "$peer" --slave "$slave" --allow-changes \
		--cut-mode silent --cut-cmd "$wd on $wire" --restore-cmd "$wd off $wire" -j "$@" \
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
jq -c '[.expected.basis, .expected.limit_ms], [.findings[] | [.id, .evidence]], .notes,
	.restore.text' "$out.json"
[ "$rc" -le 1 ]
