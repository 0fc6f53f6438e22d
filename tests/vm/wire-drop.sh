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
# wire-drop.sh WIRENS DIR a2b (or b2a): one way only, a one-way cut (netem on
# wb, or on wa): the other direction, LACPDUs included, still passes.
set -eu
ns=$1 dir=$2 way=${3:-both}
case $way in
both) devs="wa wb" ;;
a2b) devs=wb ;;
b2a) devs=wa ;;
*) echo "wire-drop.sh: direction '$way': both, a2b or b2a" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086 # one line per device
printf 'qdisc replace dev %s root handle 2ee0: netem loss 100%%\n' $devs >"$dir/$ns-cut.tc"
# shellcheck disable=SC2086
printf 'qdisc del dev %s root handle 2ee0:\n' $devs >"$dir/$ns-restore.tc"
echo "tc -n $ns -batch $dir/$ns-cut.tc"
echo "tc -n $ns -force -batch $dir/$ns-restore.tc"
