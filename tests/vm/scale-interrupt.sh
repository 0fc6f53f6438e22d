#!/bin/sh
# scale-interrupt.sh SIGNAL OUT: start `bondcheck scale --method links` from
# namespace a to the agent 10.0.0.2 (journals in OUT/ja), wait until it has
# taken a slave of bond0 down (after its probe and the journals), let the run
# go on for a second, send SIGNAL (INT, TERM or KILL) and wait for the end.
# Leaves OUT/SIGNAL.json, OUT/SIGNAL.err and the exit status in OUT/SIGNAL.rc.
set -u
sig=$1 out=$2
down='[.[] | select(.master == "bond0") | select((.flags | index("UP")) == null)] | length > 0'

ip netns exec a env BC_JOURNAL_DIR="$out/ja" bondcheck scale --peer 10.0.0.2 --method links \
	--allow-changes -t 3 --repetitions 5 -j >"$out/$sig.json" 2>"$out/$sig.err" &
pid=$!
i=0
until ip -n a -j link show | jq -e "$down" >/dev/null; do
	i=$((i + 1))
	if [ $i -gt 600 ] || ! kill -0 $pid 2>/dev/null; then
		echo "scale-interrupt: no slave of bond0 went down within 60 s"
		cat "$out/$sig.err"
		kill -9 $pid 2>/dev/null
		exit 1
	fi
	sleep 0.1
done
echo "scale-interrupt: a slave went down after $((i / 10)) s; SIG$sig in 1 s"
sleep 1
kill -"$sig" $pid
wait $pid
rc=$?
echo $rc >"$out/$sig.rc"
echo "scale-interrupt: exit status $rc"
cat "$out/$sig.err"
