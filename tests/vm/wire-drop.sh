#!/bin/sh
# wire-drop.sh WIRENS DIR: prepare a silent cut of one testbed wire for
# `bondcheck failover --cut-mode silent`, and print the two commands:
#   --cut-cmd 'tc -n WIRENS -batch DIR/WIRENS-cut.tc'
#   --restore-cmd 'tc -n WIRENS -force -batch DIR/WIRENS-restore.tc'
# A wire namespace (tools/testbed/guest-lib.sh link_wire) forwards wa <-> wb
# with ingress matchall + mirred filters.  The cut gives wa and wb a root
# netem qdisc that loses every packet (wb's egress carries a -> b, wa's
# b -> a): both directions are dropped while every veth keeps its carrier,
# so only ARP monitoring or LACP can notice.  The restore deletes them.  The
# wire must carry no impairment of its own (its root qdisc is replaced).
# netem, not a tc drop action: the testbed loads sch_netem, not act_gact.
# One tc process per action (no shell script in between): in a loaded TCG
# guest every process start costs a large part of a second, and the cut's
# moment is only known to within the command's run time (cut_took_ms).
set -eu
ns=$1 dir=$2
printf 'qdisc replace dev %s root handle 2ee0: netem loss 100%%\n' wa wb >"$dir/$ns-cut.tc"
printf 'qdisc del dev %s root handle 2ee0:\n' wa wb >"$dir/$ns-restore.tc"
echo "tc -n $ns -batch $dir/$ns-cut.tc"
echo "tc -n $ns -force -batch $dir/$ns-restore.tc"
