#!/bin/bash
# Live capture CPU, slave taps against libpcap, at the same offered UDP rate,
# in one run of this script (issue 17 item 3; RESULTS.md "Live capture CPU").
#
# Two network namespaces joined by a veth pair, `bondcheck serve` in one and
# ONE long `bondcheck run -u -b RATE -l 1472` (no capture) from the other:
# the offered load never changes.  During that run, windows of W seconds
# follow each other, ROUNDS times: no capture, pcap, taps.  In a capture
# window `bc-capture-bench` opens each end's capture exactly as a run does
# (bc_run_capture_open(): taps or libpcap on the slaves, the host-pair
# filter), and the window starts once both ends are attached and running,
# so loading, verifying and attaching are left out.  It ends when both have
# stopped: pcap's files closed, the taps' ring drained and their per-slave
# pcap files of synthesized frames written.
#
# A capture's CPU in a window is measured three ways, side by side:
#   soakers (the figure used): bc-cpu-soak runs a SCHED_IDLE counting loop
#   pinned to every CPU, calibrated for 4 s before anything starts; what
#   every other task, interrupt and softirq used is the loops' lost count
#   (Andrew Morton's cyclesoak method).  It sees work that no process is
#   charged for: a softirq run on an otherwise idle CPU (after an
#   interrupt, a timer) is charged to the idle task, as this kernel has no
#   IRQ_TIME_ACCOUNTING.
#   processes: the capture processes' own CPU from ready to exit
#   (getrusage, every thread: the user-space writer and its syscalls) plus
#   what the other processes of the two namespaces and ksoftirqd spent over
#   their uncaptured rate (/proc/PID/stat).  Misses the idle task's share.
#   /proc/stat: the whole machine's busy jiffies (tick-sampled).
# Each is taken over the same round's uncaptured window (per second of
# wall time), per 10^6 captured datagrams (each datagram is captured twice:
# leaving one end, arriving at the other); median over rounds.  The
# attribution that follows a run (the same code for both sources) is not
# in these figures.  The machine must be otherwise idle: the soakers count
# every other process's CPU too.
#
# After the rounds: one taps window with kernel.bpf_stats_enabled (the
# programs' own ns per run, live), then the generator's full rate (-b 20G)
# with a pcap and a taps window: what each lost.
#
# Usage (root): tools/bench/tap/live.sh [BUILD] [RATE] [W] [ROUNDS]
set -eu
B_DIR=$(realpath "${1:-build}")
BC=$B_DIR/bondcheck
CB=$B_DIR/bc-capture-bench
SOAK=$B_DIR/bc-cpu-soak
RATE=${2:-800M}
W=${3:-8}
ROUNDS=${4:-5}
ID="bclv$$"
A="$ID-a"
B="$ID-b"
T=$(mktemp -d)
SP=
RP=
KP=
cleanup() {
	[ -n "$RP" ] && kill "$RP" 2>/dev/null
	[ -n "$SP" ] && kill "$SP" 2>/dev/null
	[ -n "$KP" ] && kill "$KP" 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	[ -n "${KEEP:-}" ] && echo "kept $T" >&2 || rm -rf "$T"
}
trap cleanup EXIT
for t in jq ip "$BC" "$CB" "$SOAK"; do
	command -v "$t" >/dev/null || { echo "live.sh: '$t' not found (build with -DBC_TAPS=ON)" >&2; exit 1; }
done
# the soakers: CPU used by everything (softirq and idle-task work included)
"$SOAK" 100 >"$T/soak" &
KP=$!
sleep 1
soakline() { tail -n 1 "$T/soak"; }
c0=$(soakline); sleep 4; c1=$(soakline)
CAL=$(echo "$c0 $c1" | awk '{ printf "%.1f", ($5 - $2) / ($6 * ($4 - $1) / 1e9) }')
echo "soak calibration: $CAL iterations per CPU-second, nothing running"
ip netns add "$A"
ip netns add "$B"
ip link add va netns "$A" type veth peer name vb netns "$B"
ip -n "$A" addr add 10.98.0.1/24 dev va
ip -n "$B" addr add 10.98.0.2/24 dev vb
for n in "$A" "$B"; do ip -n "$n" link set lo up; done
ip -n "$A" link set va up
ip -n "$B" link set vb up
ip netns exec "$B" "$BC" serve --bind 10.98.0.2 >"$T/serve.log" 2>&1 &
SP=$!
for _ in $(seq 50); do
	ip netns exec "$B" ss -Hltn 'sport = :5301' | grep -q LISTEN && break
	sleep 0.1
done
hz=$(getconf CLK_TCK)
total=$(( ROUNDS * 3 * (W + 6) + 20 ))
ip netns exec "$A" "$BC" run --peer 10.98.0.2 -u -b "$RATE" -t "$total" -l 1472 -j \
	>"$T/run.json" 2>"$T/run.err" &
RP=$!
sleep 4
kill -0 "$RP" 2>/dev/null || { echo "live.sh: the run ended early: $(tail -n 3 "$T/run.err")" >&2; exit 1; }

# CPU jiffies of the namespaces' processes (less the capture's) and ksoftirqd
others() {
	local skip=" ${1:-} " p s=0
	for p in $(ip netns pids "$A") $(ip netns pids "$B") $(pgrep -x 'ksoftirqd/[0-9]+'); do
		case "$skip" in *" $p "*) continue ;; esac
		[ -r "/proc/$p/stat" ] || continue
		s=$(( s + $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$p/stat" 2>/dev/null || echo 0) ))
	done
	echo "$s"
}
machine() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
now() { date +%s.%N; }
sent() { ip netns exec "$A" cat /sys/class/net/va/statistics/tx_packets; }

# window ROUND MODE: W seconds of MODE (none, pcap, taps); one row in $T/rows:
# round mode wall_s others_s capproc_s machine_s captured lost sent
window() {
	local r=$1 mode=$2 pa= pb= t0 t1 o0 o1 m0 m1 p0 p1 cap
	rm -f "$T/ra" "$T/rb"
	if [ "$mode" != none ]; then
		ip netns exec "$A" "$CB" "$mode" 10.98.0.1 10.98.0.2 "$T/ra" >"$T/ca.json" 2>"$T/ca.err" &
		pa=$!
		ip netns exec "$B" "$CB" "$mode" 10.98.0.2 10.98.0.1 "$T/rb" >"$T/cb.json" 2>"$T/cb.err" &
		pb=$!
		for _ in $(seq 300); do
			[ -e "$T/ra" ] && [ -e "$T/rb" ] && break
			kill -0 "$pa" 2>/dev/null && kill -0 "$pb" 2>/dev/null ||
				{ echo "live.sh: capture failed: $(cat "$T/ca.err" "$T/cb.err")" >&2; exit 1; }
			sleep 0.05
		done
	fi
	t0=$(now); o0=$(others "$pa $pb"); m0=$(machine); p0=$(sent); k0=$(soakline)
	sleep "$W"
	if [ "$mode" != none ]; then
		kill -TERM "$pa" "$pb"
		wait "$pa" "$pb" || { echo "live.sh: capture failed: $(cat "$T/ca.err" "$T/cb.err")" >&2; exit 1; }
	fi
	t1=$(now); o1=$(others "$pa $pb"); m1=$(machine); p1=$(sent); k1=$(soakline)
	kill -0 "$RP" 2>/dev/null || { echo "live.sh: the run ended during round $r: $(tail -n 3 "$T/run.err")" >&2; exit 1; }
	cap='0 0 0'
	[ "$mode" = none ] ||
		cap=$(jq -s -r '[(map(.cpu_s) | add), (map(.captured) | add), (map(.lost) | add)] | @tsv' "$T/ca.json" "$T/cb.json")
	# shellcheck disable=SC2086
	set -- $cap
	awk -v r="$r" -v m="$mode" -v t0="$t0" -v t1="$t1" -v o="$(( o1 - o0 ))" -v mc="$(( m1 - m0 ))" \
		-v hz="$hz" -v cc="$1" -v n="$2" -v l="$3" -v pk="$(( p1 - p0 ))" -v k="$k0 $k1" -v cal="$CAL" \
		'BEGIN { split(k, s, " "); used = s[6] * (s[4] - s[1]) / 1e9 - (s[5] - s[2]) / cal
		         printf "%s\t%s\t%.3f\t%.2f\t%.3f\t%.2f\t%d\t%d\t%d\t%.3f\t%.3f\n", r, m, t1 - t0, o / hz, cc, mc / hz, n, l, pk, used, (s[4] - s[1]) / 1e9 }' >>"$T/rows"
	tail -n 1 "$T/rows" | awk -F'\t' '{ printf "%-5s %-5s %7.2f %9.2f %9.2f %9.2f %9.3f %10d %6d %9d\n", $1, $2, $3, $10, $4, $6, $5, $7, $8, $9 }'
}

printf '%-5s %-5s %7s %9s %9s %9s %9s %10s %6s %9s\n' round mode wall_s soak_cpu others_s machine_s capproc_s captured lost sent
for r in $(seq "$ROUNDS"); do
	for mode in none pcap taps; do
		window "$r" "$mode"
	done
done
# one more taps window with kernel.bpf_stats_enabled: the programs' own
# ns per run, live (the kernel adds two clock reads per run, so this window
# is not one of the rounds above)
st0=$(sysctl -n kernel.bpf_stats_enabled)
sysctl -qw kernel.bpf_stats_enabled=1
rm -f "$T/ra" "$T/rb"
ip netns exec "$A" "$CB" taps 10.98.0.1 10.98.0.2 "$T/ra" >"$T/ca.json" 2>"$T/ca.err" &
pa=$!
ip netns exec "$B" "$CB" taps 10.98.0.2 10.98.0.1 "$T/rb" >"$T/cb.json" 2>"$T/cb.err" &
pb=$!
for _ in $(seq 300); do [ -e "$T/ra" ] && [ -e "$T/rb" ] && break; sleep 0.05; done
bpftool -j prog show >"$T/p0.json"
sleep "$W"
bpftool -j prog show >"$T/p1.json"
kill -TERM "$pa" "$pb"; wait "$pa" "$pb" || true
sysctl -qw kernel.bpf_stats_enabled="$st0"
jq -r -n --slurpfile a "$T/p0.json" --slurpfile b "$T/p1.json" '
	def per(p): [p[0][] | select(.name | test("^bc_tap_(egress|ingress)$")) | {key: "\(.id)", value: .}] | from_entries;
	(per($a)) as $x | (per($b)) as $y
	| ["egress", "ingress"] | map(. as $d
		| [$y | to_entries[] | select(.value.name == "bc_tap_" + $d)
		   | {t: (.value.run_time_ns - ($x[.key].run_time_ns // 0)), n: (.value.run_cnt - ($x[.key].run_cnt // 0))}]
		| {d: $d, t: (map(.t) | add), n: (map(.n) | add)})
	| map("program \(.d): \(.n) runs, \(if .n > 0 then (.t / .n | floor) else "-" end) ns per run (bpf_stats, live)")
	| .[]'
kill "$RP" 2>/dev/null; wait "$RP" 2>/dev/null || true; RP=
# capacity: the generator's full rate (-b 20G, no GSO), a pcap and a taps
# window; what each lost (ps_drop, ring drops).  Their capture spans
# (attach to stop) are not the window, so captured is not compared with sent
ip netns exec "$A" "$BC" run --peer 10.98.0.2 -u -b 20G -t $(( 2 * (W + 6) + 8 )) -l 1472 -j \
	>"$T/run.json" 2>"$T/run.err" &
RP=$!
sleep 4
cp "$T/rows" "$T/rows.rate"
: >"$T/rows"
echo "full rate:"
window full pcap
window full taps
kill "$RP" 2>/dev/null; wait "$RP" 2>/dev/null || true; RP=
awk -F'\t' '{ printf "full rate, %s: %.0f datagrams/s sent, %d captured on both ends, lost %d (%s)\n", $2, $9 / $3, $7, $8, $2 == "pcap" ? "ps_drop" : "ring drops" }' "$T/rows"
mv "$T/rows.rate" "$T/rows"
# Per capture window: its CPU over the uncaptured rate (the mean of all
# the uncaptured windows, per second of wall time) per 10^6 captured
# datagrams.  Mean +- 2 standard errors over the rounds, and the median.
awk -F'\t' '
	{ wall[$1, $2] = $3; oth[$1, $2] = $4; cp[$1, $2] = $5; mach[$1, $2] = $6; n[$1, $2] = $7
	  pk[$1, $2] = $9; sk[$1, $2] = $10; sw[$1, $2] = $11
	  if ($2 == "none") { nsk += $10; nsw += $11; noth += $4; nwall += $3; rate[++nr] = $9 / $3 }
	  if ($1 > R) R = $1 }
	function med(a, k,   i, j, t, b) {
		for (i = 1; i <= k; i++) b[i] = a[i]
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (b[j] < b[i]) { t = b[i]; b[i] = b[j]; b[j] = t }
		return k % 2 ? b[(k + 1) / 2] : (b[k / 2] + b[k / 2 + 1]) / 2
	}
	function mean(a, k,   i, x) { for (i = 1; i <= k; i++) x += a[i]; return x / k }
	function se2(a, k,   i, m, x) { m = mean(a, k); for (i = 1; i <= k; i++) x += (a[i] - m) ^ 2; return k > 1 ? 2 * sqrt(x / (k - 1) / k) : 0 }
	function show(name, a, k) { printf "%s %.3f +- %.3f (median %.3f)", name, mean(a, k), se2(a, k), med(a, k) }
	END {
		for (r = 1; r <= R; r++) {
			for (q = 0; q < 2; q++) {
				m = q ? "taps" : "pcap"
				s[q, r] = (sk[r, m] - nsk / nsw * sw[r, m]) / n[r, m] * 1e6
				u[q, r] = cp[r, m] / n[r, m] * 1e6
				k[q, r] = (oth[r, m] - noth / nwall * wall[r, m]) / n[r, m] * 1e6
			}
		}
		printf "offered: %.0f datagrams/s (median of the %d uncaptured windows)\n", med(rate, nr), nr
		printf "CPU s per 10^6 captured datagrams over %d rounds, mean +- 2 SE (median):\n", R
		for (q = 0; q < 2; q++) {
			for (r = 1; r <= R; r++) { a[r] = s[q, r]; b[r] = u[q, r]; c[r] = k[q, r] }
			printf "  %s:", q ? "taps" : "pcap"; show(" all (soakers)", a, R); printf ";"
			show(" capture processes", b, R); printf ";"; show(" other processes", c, R); printf "\n"
			tot[q] = mean(a, R); own[q] = mean(b, R)
		}
		printf "  ratio pcap/taps of the means: all %.2fx, capture processes %.2fx\n", tot[0] / tot[1], own[0] / own[1]
	}' "$T/rows"
