#!/bin/sh
# flap-when.sh STEP...: run in a network namespace (ip netns exec NS sh
# flap-when.sh ...); waits until bond0 there has received 100 more packets
# (the test traffic has started), then runs the steps in order: a number
# sleeps that many seconds, any other word is `ip link set eth1 WORD`.
# Timing the flaps from the traffic, not from the launch, keeps them inside
# the run's window on a loaded host, where starting the run can take seconds.
read -r p0 </sys/class/net/bond0/statistics/rx_packets
while read -r p </sys/class/net/bond0/statistics/rx_packets && [ "$p" -lt $((p0 + 100)) ]; do
	sleep 0.1
done
for step in "$@"; do
	case $step in
	[0-9]*) sleep "$step" ;;
	*) ip link set eth1 "$step" ;;
	esac
done
