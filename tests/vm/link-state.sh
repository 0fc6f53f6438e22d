#!/bin/sh
# link-state.sh NS BOND: what `bondcheck restore` promises about BOND in
# network namespace NS, as sorted JSON, for before/after comparisons in the
# scale scenarios: per interface (the bond and its slaves) the master, MTU,
# MAC address and admin state, and the bond's enslave order from sysfs.
set -eu
ns=$1 bond=$2
slaves=$(ip netns exec "$ns" cat "/sys/class/net/$bond/bonding/slaves")
ip -n "$ns" -j -d link show | jq -S --arg bond "$bond" --arg slaves "$slaves" '
  { order: $slaves,
    links: [ .[] | select(.ifname == $bond or .master == $bond or
                          (.ifname as $n | $slaves | split(" ") | index($n) != null))
             | {ifname, master, mtu, address, up: ((.flags | index("UP")) != null)} ]
           | sort_by(.ifname) }'
