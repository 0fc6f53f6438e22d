#!/bin/sh
# Testbed check of `bondcheck sweep --param mtu` on live bonds (issue 8).
# Runs inside the guest (POSIX sh), called from test-scenarios/sweep-mtu-bond.scn.
#
#   sweep-mtu-check.sh NS PEER BOND AGENT_NS
#
# From NS: sweep --param mtu=1500,9000 --allow-changes, 2 TCP runs of 2 s per
# point, against the agent on PEER (started with --allow-changes).  Holds
# when: the sweep exits 0; every point has 2 runs whose egress MTU is the
# point's; each ceiling is the tbf 10 Mbit/s one of the active slave at that
# MTU, 10e6 x (MTU - 52) / (MTU + 14) (+- 1 bit/s); each mean is >= 80 % of
# it (a TCG guest; 9000-byte frames only pass when the bond gave its slaves
# the MTU); both ends journaled a bond and report it restored; afterwards
# BOND and its slaves are at 1500 again on both ends and no journal is left.
# The figures are printed either way.
set -u
ns=$1 peer=$2 bond=$3 ans=$4
O=/tmp/bc-out/sweep-mtu
mkdir -p "$O/journal"
BC_JOURNAL_DIR=$O/journal ip netns exec "$ns" bondcheck sweep --peer "$peer" \
	--param mtu=1500,9000 --allow-changes --repetitions 2 -t 2 -j >"$O/sweep.json" 2>"$O/sweep.err"
rc=$?
cat "$O/sweep.err"
mtus() { # mtus NS: "bond:mtu slave:mtu ..."
	ip netns exec "$1" sh -c 'read -r sl </sys/class/net/'"$bond"'/bonding/slaves
		read -r m </sys/class/net/'"$bond"'/mtu; o="'"$bond"':$m"
		for s in $sl; do read -r m </sys/class/net/$s/mtu; o="$o $s:$m"; done; echo "$o"'
}
after_a=$(mtus "$ns")
after_b=$(mtus "$ans")
echo "after: $ns: $after_a; $ans: $after_b"
jq -r -e --argjson rc $rc --arg a "$after_a" --arg b "$after_b" --arg left "$(ls -A "$O/journal")" '
	def ceil(m): 1e7 * (m - 52) / (m + 14);
	(.points[] | "MTU \(.value): n \(.n) mean \(.mean_bps) ceiling \(.ceiling_bps) efficiency \(.efficiency) run MTUs \([.runs[].mtu])"),
	"changes: \(.changes.summary)",
	if $rc == 0
	   and ([.points[] | .value as $v | .n == 2 and ([.runs[].mtu] | unique == [$v])
	         and (.ceiling_bps - ceil(.value) | fabs) < 1 and .efficiency >= 0.8] | all)
	   and .changes.local.kind == "bond" and .changes.agent.kind == "bond" and .changes.restored
	   and ([$a, $b] | map(split(" ") | map(split(":")[1]) | unique == ["1500"]) | all)
	   and $left == ""
	then "sweep-mtu: ok" else error("sweep-mtu: FAIL (exit \($rc))") end' "$O/sweep.json"
