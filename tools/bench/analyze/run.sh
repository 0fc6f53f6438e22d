#!/bin/sh
# Benchmark: `bondcheck analyze` against tshark's TCP analysis on the same
# generated capture (DESIGN.md "What fast means here"; issue 5 item 7).
#   tools/bench/analyze/run.sh [BUILD_DIR] [PACKETS]
# Generates PACKETS (default 1000000) packets with bc-pcapgen into a temporary
# directory (never committed): 3 links, 1 in 7 a TCP segment, every 20th of
# eth1 lost, every 10th of eth2 late.  Times, best of 3 (CPU seconds, user +
# sys, single-threaded both):
#   A  bondcheck analyze rx:eth0=all.pcap           (one file, every packet)
#   B  tshark -r all.pcap -q -z conv,tcp            (TCP sequence analysis on)
#   C  bondcheck analyze with all 6 per-slave files (2 x PACKETS frames)
# and prints packets/s and the ratio A vs B.  Needs tshark (apt-get install tshark).
set -eu
build=${1:-build-capture}
n=${2:-1000000}
dir=$(mktemp -d /tmp/bc-bench-analyze.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$build/tests/analyze/bc-pcapgen" "$dir" "$n" 3 1 20 2 10 7

cpu() { # best of 3 CPU seconds of "$@"
	best=
	for i in 1 2 3; do
		/usr/bin/time -o "$dir/time" -f '%U %S' "$@" >/dev/null 2>&1 || true
		t=$(tail -1 "$dir/time" | awk '{print $1 + $2}')
		best=$(echo "$t ${best:-$t}" | awk '{print ($1 < $2) ? $1 : $2}')
	done
	echo "$best"
}
a=$(cpu "$build/bondcheck" analyze -j "rx:eth0=$dir/all.pcap")
c=$(cpu "$build/bondcheck" analyze -j \
	"tx:eth0=$dir/tx-eth0.pcap" "tx:eth1=$dir/tx-eth1.pcap" "tx:eth2=$dir/tx-eth2.pcap" \
	"rx:eth0=$dir/rx-eth0.pcap" "rx:eth1=$dir/rx-eth1.pcap" "rx:eth2=$dir/rx-eth2.pcap")
frames=$(( n + $(for f in "$dir"/rx-*.pcap; do "$build/bondcheck" analyze -j "rx:x=$f" |
	jq '.links[0].frames'; done | paste -sd+ | bc) ))
if command -v tshark >/dev/null; then
	b=$(cpu tshark -r "$dir/all.pcap" -q -z conv,tcp)
else
	b=
fi
echo "packets (one file)      : $n"
echo "A bondcheck, one file   : ${a} s CPU, $(echo "$n / $a" | bc) packets/s"
echo "C bondcheck, 6 files    : ${c} s CPU, $frames frames, $(echo "$frames / $c" | bc) frames/s"
if [ -n "$b" ]; then
	echo "B tshark -z conv,tcp    : ${b} s CPU, $(echo "$n / $b" | bc) packets/s"
	echo "ratio tshark/bondcheck  : $(echo "scale=1; $b / $a" | bc)x"
fi
