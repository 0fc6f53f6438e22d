#!/bin/bash
# bc_tcp_metrics_forget() (bondcheck/tcp-metrics.h), which `scale` calls
# before every TCP run: a real TCP run from C to A leaves a metrics entry for
# A's address in C (IPv4 and IPv6); forget removes exactly that entry; a
# second forget (no entry) is not an error; without CAP_NET_ADMIN it fails
# with EPERM.  ~5 s.
. "$(dirname "$0")/lib.sh"
BCT=${BCT:-}
[ -x "$BCT" ] || fail "bc-tcp-metrics-tool not given or not executable: '$BCT'"

topo 100mbit
agent --bind 10.77.2.1
entry() { ip -n "$C" tcp_metrics show "$1" 2>/dev/null | grep -c "^$1 "; }

client --peer 10.77.2.1 -t 1 -j
check "the TCP run passed" test "$RC" -eq 0
check "the kernel cached metrics for 10.77.2.1 after the run" test "$(entry 10.77.2.1)" -eq 1
check "forget 10.77.2.1 returns 0" ip netns exec "$C" "$BCT" forget 10.77.2.1
check "the entry is gone" test "$(entry 10.77.2.1)" -eq 0
check "forget without an entry returns 0" ip netns exec "$C" "$BCT" forget 10.77.2.1
kill "$AGENT_PID"; wait "$AGENT_PID" 2>/dev/null
agent --bind fd77:2::1
client --peer fd77:2::1 -t 1 -j
check "the IPv6 run passed" test "$RC" -eq 0
check "an IPv6 entry after the run" test "$(entry fd77:2::1)" -eq 1
check "forget fd77:2::1 returns 0" ip netns exec "$C" "$BCT" forget fd77:2::1
check "the IPv6 entry is gone" test "$(entry fd77:2::1)" -eq 0
out=$(ip netns exec "$C" setpriv --inh-caps=-all --bounding-set=-all --reuid=65534 --regid=65534 --clear-groups "$BCT" forget 10.77.2.1)
check "without CAP_NET_ADMIN: EPERM, named" sh -c "echo '$out' | grep -q 'rc=-1 .*CAP_NET_ADMIN'"
echo "all ok"
