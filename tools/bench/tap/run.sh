#!/bin/sh
# Slave tap benchmark (issue 17, "Speed"): the programs' cost per packet
# (bpf_prog_test_run_opts, repeat 10^6, a consumer draining the ring
# concurrently) and the ring consumer's records per second on one core.
# Runs bc-tap-bench ROUNDS times and prints the median and the minimum of
# each figure (a shared host: the median is the figure, the minimum what
# the code can do when nothing else runs).  Root (BPF).
# Usage: tools/bench/tap/run.sh [BUILD_DIR] [ROUNDS] [REPEAT]
set -eu
build=${1:-build}
rounds=${2:-3}
repeat=${3:-1000000}
bench=$build/bc-tap-bench
[ -x "$bench" ] || { echo "run.sh: $bench not built (configure with BC_TAPS; tools/install-deps)" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
i=0
while [ "$i" -lt "$rounds" ]; do
	nice -n 0 "$bench" "$repeat" >>"$out"
	i=$((i + 1))
done
echo "# $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $rounds rounds of repeat $repeat"
jq -s -r '
  def med: sort | .[(length - 1) / 2 | floor];
  (map(select(.figure == "prog-cost")) | group_by(.packet)[] |
    "prog-cost  \(.[0].packet): median \(map(.ns_per_packet) | med) ns/packet, min \(map(.ns_per_packet) | min) ns; ring drops \(map(.ring_drop_total) | max)"),
  (map(select(.figure == "consumer")) |
    "consumer   \(.[0].records) records: median \(map(.records_per_cpu_s) | med / 1e6 | floor) M records per CPU-second (\(map(.ns_per_record) | med) ns each), wall median \(map(.records / .wall_s) | med / 1e6 | floor) M/s")
' "$out"
