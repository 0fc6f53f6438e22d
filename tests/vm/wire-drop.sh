#!/bin/sh
# wire-drop.sh on|off WIRENS: a silent cut of one testbed wire, for
# `bondcheck failover --cut-mode silent --cut-cmd ... --restore-cmd ...`.
# A wire namespace (tools/testbed/guest-lib.sh link_wire) forwards wa <-> wb
# with ingress matchall + mirred filters; "on" gives both wa and wb a root
# netem qdisc that loses every packet (wb's egress carries a -> b, wa's
# b -> a), so both directions are dropped while every veth keeps its
# carrier: only ARP monitoring or LACP can notice.  "off" removes them.
# Both are idempotent.  The wire must carry no impairment of its own (its
# root qdisc is replaced).  netem, not a tc drop action: the testbed loads
# sch_netem, not act_gact.  One tc process each way: in a loaded TCG guest
# every process start costs a large part of a second.
set -u
case ${1:-} in
on)
	printf 'qdisc replace dev %s root handle 2ee0: netem loss 100%%\n' wa wb |
		exec tc -n "$2" -batch -
	;;
off)
	printf 'qdisc del dev %s root handle 2ee0:\n' wa wb | tc -n "$2" -force -batch - 2>/dev/null ||
		! tc -n "$2" qdisc show | grep -q 'netem 2ee0:'
	;;
*)
	echo "usage: wire-drop.sh on|off WIRENS" >&2
	exit 2
	;;
esac
