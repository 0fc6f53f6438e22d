#!/bin/sh
# wire-drop.sh on|off WIRENS: a silent cut of one testbed wire, for
# `bondcheck failover --cut-mode silent --cut-cmd ... --restore-cmd ...`.
# A wire namespace (tools/testbed/guest-lib.sh link_wire) forwards wa <-> wb
# with ingress matchall + mirred filters; "on" gives both wa and wb a root
# netem qdisc that loses every packet (wb's egress carries a -> b, wa's
# b -> a), so both directions are dropped while every veth keeps its
# carrier: only ARP monitoring or LACP can notice.  "off" removes them.
# Both are idempotent.  The wire must carry no impairment of its own (its
# root qdisc is the veth default).  netem, not a tc drop action: the
# testbed loads sch_netem, not act_gact.
set -u
case ${1:-} in
on)
	for d in wa wb; do
		tc -n "$2" qdisc show dev "$d" root | grep -q 'netem 2ee0:' && continue
		tc -n "$2" qdisc add dev "$d" root handle 2ee0: netem loss 100% || exit 1
	done
	;;
off)
	for d in wa wb; do
		tc -n "$2" qdisc show dev "$d" root | grep -q 'netem 2ee0:' || continue
		tc -n "$2" qdisc del dev "$d" root handle 2ee0: || exit 1
	done
	;;
*)
	echo "usage: wire-drop.sh on|off WIRENS" >&2
	exit 2
	;;
esac
