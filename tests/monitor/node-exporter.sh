#!/bin/sh
# inspect --format prometheus read by a real node_exporter (issue 16 item 5):
# Debian's prometheus-node-exporter, started here on a free loopback port
# with only the textfile collector, reads *.prom files that inspect wrote
# (a recording with findings, the escaped bond name, a failed inspect);
# scraped with curl, the bondcheck series are there and
# node_textfile_scrape_error is 0.  A file node_exporter cannot parse must
# make it 1, so the check has teeth.  The exporter is killed on every exit.
#
#   node-exporter.sh BONDCHECK SOURCE_DIR
set -u
bc=$1 src=$2
ne=/usr/bin/prometheus-node-exporter
pid=
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$ne" ] || fail "$ne not found: install Debian's package prometheus-node-exporter (tools/install-deps)"
command -v curl >/dev/null || fail "curl not found: install curl"
command -v python3 >/dev/null || fail "python3 not found (picks a free port)"
tmp=$(mktemp -d) || fail "mktemp"
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

rec=$src/tests/data/recordings
c16=$src/tests/data/proc-net-bonding/16-8023ad-v6.6-wsl2-nonroot-view.txt
mkdir "$tmp/textfile"
# as the example unit does: a temporary file in the same folder, then a rename
"$bc" inspect --replay "$rec/lacp-split" --format prometheus >"$tmp/textfile/.bondcheck.prom.tmp"
[ $? -eq 1 ] || fail "inspect of lacp-split: expected exit 1 (error-level findings)"
mv "$tmp/textfile/.bondcheck.prom.tmp" "$tmp/textfile/bondcheck.prom"

# a free port: the kernel picks one, python releases it, node_exporter takes it
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') ||
	fail "no free port"
"$ne" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$tmp/textfile" >"$tmp/ne.log" 2>&1 &
pid=$!

scrape() { # into $tmp/scrape; waits up to 10 s for the exporter to listen
	i=0
	while ! curl -sf "http://127.0.0.1:$port/metrics" >"$tmp/scrape" 2>/dev/null; do
		kill -0 "$pid" 2>/dev/null || fail "node_exporter exited: $(cat "$tmp/ne.log")"
		i=$((i + 1))
		[ $i -lt 100 ] || fail "node_exporter did not answer on 127.0.0.1:$port in 10 s"
		sleep 0.1
	done
}
want() { grep -qxF "$1" "$tmp/scrape" || fail "expected the line '$1' in the scrape (log: $(tail -3 "$tmp/ne.log"))"; }

scrape
want "node_textfile_scrape_error 0"
want "bondcheck_up 1"
want 'bondcheck_finding{bond="bond0",id="lacp-split-aggregator",severity="error",subject="bond0/eth0"} 1'
want 'bondcheck_slave_link_failures_total{bond="bond0",slave="eth0"} 0'
want 'bondcheck_slave_lacp_port_flag{bond="bond0",end="partner",flag="synchronization",slave="eth1"} 1'
want 'bondcheck_bond_info{ad_select="stable",bond="bond0",lacp_rate="fast",mode="802.3ad",primary="",xmit_hash_policy="layer2"} 1'
grep -q '^# TYPE bondcheck_slave_link_failures_total counter$' "$tmp/scrape" ||
	fail "bondcheck_slave_link_failures_total is not a counter in the scrape"

# an escaped name and a failed inspect, in files of their own: node_exporter
# merges families across files, so each file names its own bond
"$bc" inspect --from-proc "$c16" --name 'b"o\nd' --format prometheus \
	| grep -v '^bondcheck_up\|^# [A-Z]* bondcheck_up ' >"$tmp/textfile/escaped.prom"
scrape
want "node_textfile_scrape_error 0"
want 'bondcheck_bond_slaves{bond="b\"o\\nd"} 2'

"$bc" inspect --replay "$rec/no-bonds" --format prometheus >"$tmp/textfile/bondcheck.prom" 2>/dev/null
[ $? -eq 3 ] || fail "inspect of no-bonds: expected exit 3 (environment)"
scrape
want "node_textfile_scrape_error 0"
want "bondcheck_up 0"

echo 'bondcheck_broken{bond="x} 1' >"$tmp/textfile/broken.prom"
scrape
want "node_textfile_scrape_error 1"
echo "ok: node_exporter on 127.0.0.1:$port read the bondcheck series"
