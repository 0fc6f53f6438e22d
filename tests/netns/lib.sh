#!/bin/bash
# Shared setup for the host network-namespace tests (label netns).
#
# Topology, every name unique per test run and removed on exit:
#
#   [C: client 10.77.1.1, fd77:1::1] --veth-- [R: router, tbf on both
#   egress veths] --veth-- [A: agent 10.77.2.1, fd77:2::1]
#
# Test traffic goes only to addresses inside these namespaces.
# A missing prerequisite is a failure, never a skip.
set -u

fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "# $*"; }

[ "$(id -u)" -eq 0 ] || fail "netns tests need root (network namespaces, tc); found uid $(id -u)"
for t in ip tc jq; do
	command -v "$t" >/dev/null || fail "'$t' not found; install it (tools/install-deps)"
done
BC=${BC:-}
[ -x "$BC" ] || fail "bondcheck binary not given or not executable: '$BC'"

SAN=${BC_SANITIZE_BUILD:-0}
ID="bct$$"
C="$ID-c"; R="$ID-r"; A="$ID-a"
AGENT_PID=""
WORK=$(mktemp -d "/tmp/$ID.XXXXXX")

cleanup() {
	[ -n "$AGENT_PID" ] && kill "$AGENT_PID" 2>/dev/null && wait "$AGENT_PID" 2>/dev/null
	for ns in "$C" "$R" "$A"; do ip netns del "$ns" 2>/dev/null; done
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

# topo RATE: build the three namespaces; RATE is the tbf limit on the router's egress.
topo() {
	local rate=$1
	ip netns add "$C" && ip netns add "$R" && ip netns add "$A" || fail "cannot create namespaces"
	ip link add c0 netns "$C" type veth peer name r1 netns "$R" || fail "veth C-R"
	ip link add a0 netns "$A" type veth peer name r2 netns "$R" || fail "veth A-R"
	ip -n "$C" addr add 10.77.1.1/24 dev c0
	ip -n "$C" addr add fd77:1::1/64 dev c0 nodad
	ip -n "$R" addr add 10.77.1.254/24 dev r1
	ip -n "$R" addr add fd77:1::fe/64 dev r1 nodad
	ip -n "$R" addr add 10.77.2.254/24 dev r2
	ip -n "$R" addr add fd77:2::fe/64 dev r2 nodad
	ip -n "$A" addr add 10.77.2.1/24 dev a0
	ip -n "$A" addr add fd77:2::1/64 dev a0 nodad
	for ns in "$C" "$R" "$A"; do ip -n "$ns" link set lo up; done
	ip -n "$C" link set c0 up; ip -n "$A" link set a0 up
	ip -n "$R" link set r1 up; ip -n "$R" link set r2 up
	ip -n "$C" route add default via 10.77.1.254
	ip -n "$C" -6 route add default via fd77:1::fe
	ip -n "$A" route add default via 10.77.2.254
	ip -n "$A" -6 route add default via fd77:2::fe
	ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
	for d in r1 r2; do
		tc -n "$R" qdisc add dev "$d" root tbf rate "$rate" burst 64kb latency 50ms ||
			fail "tbf on $d"
	done
}

# agent [ARGS...]: start `bondcheck serve` in A and wait until it listens.
# AGENT_WRAP (an array, e.g. setpriv with its options) runs before "$BC";
# it must exec bondcheck (AGENT_PID is then the agent's pid).
agent() {
	ip netns exec "$A" ${AGENT_WRAP[@]+"${AGENT_WRAP[@]}"} "$BC" serve "$@" 2>"$WORK/agent.log" &
	AGENT_PID=$!
	for _ in $(seq 50); do
		ip netns exec "$A" ss -ltn 2>/dev/null | grep -q ":5301 " && return 0
		sleep 0.1
	done
	cat "$WORK/agent.log" >&2
	fail "agent did not start listening"
}

# client ARGS...: run `bondcheck run` in C; stdout to $WORK/out, status in $RC.
client() {
	ip netns exec "$C" "$BC" run "$@" >"$WORK/out" 2>"$WORK/err"
	RC=$?
}

# j FILTER: a jq value from the last client JSON output.
j() { jq -r "$1" "$WORK/out"; }

# within VALUE LOW HIGH: LOW <= VALUE <= HIGH (decimal).
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }

check() { # check DESCRIPTION COMMAND...
	local what=$1; shift
	"$@" || fail "$what"
	echo "ok - $what"
}

# rate_check DESCRIPTION COMMAND...: rate-sensitive; relaxed only in the sanitizer build.
rate_check() {
	local what=$1; shift
	if "$@"; then echo "ok - $what"; return; fi
	[ "$SAN" = 1 ] && { echo "ok - $what (relaxed: sanitizer build)"; return; }
	fail "$what"
}
