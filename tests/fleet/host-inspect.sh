#!/bin/sh
# host-inspect.sh BONDCHECK RECORDINGS HOST: what one host of the fleet test
# runs under its engine (inside its network namespace): inspect replays the
# recording of a real bond that tests/fleet/engines.sh gives this host, named
# --host HOST (namespaces share one node name), one line of JSON for the
# engine to prefix.  Host -> recording: fl-node07 the virtio-net slave among
# veths, fl-node08 lacp_rate slow, the others the 802.3ad bond of
# mode-802.3ad.scn read without CAP_NET_ADMIN (its actor system hidden, so
# six replays of one bond do not share an actor system MAC).
bc=$1 rec=$2 host=$3
case $host in
*node07) r=fleet-8023ad-virtio ;;
*node08) r=fleet-8023ad-slow ;;
*) r=802.3ad-nonroot ;;
esac
exec "$bc" inspect --replay "$rec/$r" --host "$host" -j --json-line
