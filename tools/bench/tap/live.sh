#!/bin/bash
# Live capture CPU, slave taps against libpcap, at the same offered UDP rate,
# in one run of this script (issue 17 item 3; RESULTS.md "Slave taps").
#
# Two network namespaces joined by a veth pair, `bondcheck serve` in one,
# and `bondcheck run -u -b RATE -t S` from the other, ROUNDS times in turn
# with no capture, `--capture pcap` and `--capture taps`, each for S = T and
# S = 3T seconds.  CPU is the whole machine's (/proc/stat user + nice +
# system + irq + softirq jiffies, so the taps' work in softirq and both ends
# are counted) over each run.  The per-packet cost is the slope: what the
# longer run adds over the shorter, minus what it adds without capture, per
# million datagrams both ends saw (each datagram is captured twice: leaving
# one end, arriving at the other).  Fixed costs cancel: loading and
# attaching the BPF programs (a verifier pass on both ends, about 0.3 s of
# CPU here), opening pcap handles, the control exchange.  What remains
# includes the attribution of each datagram, the same code for both sources
# (the taps' records are written as per-slave pcap files first).
#
# Usage (root): tools/bench/tap/live.sh [BONDCHECK] [RATE] [SECONDS] [ROUNDS]
set -eu
BC=$(realpath "${1:-build/bondcheck}")
RATE=${2:-800M}
T=${3:-3}
ROUNDS=${4:-3}
ID="bclv$$"
A="$ID-a"
B="$ID-b"
W=$(mktemp -d)
SP=
cleanup() {
	[ -n "$SP" ] && kill "$SP" 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
for t in jq ip; do command -v "$t" >/dev/null || { echo "live.sh: '$t' not found" >&2; exit 1; }; done
ip netns add "$A"
ip netns add "$B"
ip link add va netns "$A" type veth peer name vb netns "$B"
ip -n "$A" addr add 10.98.0.1/24 dev va
ip -n "$B" addr add 10.98.0.2/24 dev vb
for n in "$A" "$B"; do ip -n "$n" link set lo up; done
ip -n "$A" link set va up
ip -n "$B" link set vb up
ip netns exec "$B" "$BC" serve --bind 10.98.0.2 >"$W/serve.log" 2>&1 &
SP=$!
for _ in $(seq 50); do
	ip netns exec "$B" ss -Hltn 'sport = :5301' | grep -q LISTEN && break
	sleep 0.1
done
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
hz=$(getconf CLK_TCK)
printf '%-5s %-5s %3s %10s %10s %10s %8s\n' round mode s datagrams cpu_s ring_drop ps_drop
for r in $(seq "$ROUNDS"); do
	for mode in none pcap taps; do
	for s in "$T" "$(awk -v t="$T" 'BEGIN { print 3 * t }')"; do
		opt=""
		[ "$mode" = none ] || opt="--capture $mode"
		b0=$(busy)
		# shellcheck disable=SC2086
		ip netns exec "$A" "$BC" run --peer 10.98.0.2 -u -b "$RATE" -t "$s" -l 1472 $opt -j \
			>"$W/$mode.json" 2>"$W/$mode.err" || [ $? -eq 1 ] ||
			{ echo "live.sh: $mode run failed: $(tail -n 3 "$W/$mode.err")" >&2; exit 1; }
		b1=$(busy)
		jq -r --arg r "$r" --arg m "$mode" --arg s "$s" --argjson cpu "$(( b1 - b0 ))" --argjson hz "$hz" \
			'[$r, $m, $s, (.streams[0].received_packets // 0), ($cpu / $hz),
			  ([.capture.client.taps.counters.ring_drop?, .capture.agent.taps.counters.ring_drop?] | map(. // 0) | add),
			  ([.capture.client.interfaces[]?.pcap_stats.ps_drop, .capture.agent.interfaces[]?.pcap_stats.ps_drop] | map(. // 0) | add)]
			 | @tsv' "$W/$mode.json" >>"$W/rows"
		tail -n 1 "$W/rows" | awk -F'\t' '{ printf "%-5s %-5s %3s %10d %10.2f %10d %8d\n", $1, $2, $3, $4, $5, $6, $7 }'
	done
	done
done
# per round: the slope of CPU over datagrams, less the uncaptured run's, per
# 10^6 captured datagrams (2 per datagram); then the median over rounds
awk -F'\t' -v T="$T" '
	{ k = $3 == T ? "s" : "l"
	  cpu[$1, $2, k] = $5; dg[$1, $2, k] = $4; if ($1 > n) n = $1 }
	function med(a, k,   i, j, t) {
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	function cost(r, m,   base) {
		base = cpu[r, "none", "l"] - cpu[r, "none", "s"]
		return ((cpu[r, m, "l"] - cpu[r, m, "s"]) - base) / (2 * (dg[r, m, "l"] - dg[r, m, "s"])) * 1e6
	}
	END {
		for (r = 1; r <= n; r++) { p[r] = cost(r, "pcap"); t[r] = cost(r, "taps") }
		mp = med(p, n); mt = med(t, n)
		printf "capture CPU per million captured datagrams, slope (median of %d rounds): pcap %.2f s, taps %.2f s", n, mp, mt
		if (mt > 0) printf ", pcap/taps %.1fx", mp / mt
		printf "\n"
	}' "$W/rows"
