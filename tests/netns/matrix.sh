#!/bin/bash
# netns tests of `bondcheck matrix` and `run-to`: matrix.sh CASE, with BC=<bondcheck>.
#
# Topology: hosts in namespaces behind one bridge (namespace SW), addresses
# 10.77.8.N/24 on veth e0; the controller in its own namespace at
# 10.77.8.100.  Every host's e0 has a tbf (its visible link rate).  A
# "cable" namespace between a host and the bridge holds a hidden tbf on
# both of its veths: the host's link slowed where the host cannot see it.
#
# Cases:
#   find    4 hosts, h2 behind a 10 Mbit/s cable, h4 with MTU 9000 (the
#           bridge port 1500): host-slow on h2 and host-mtu-mismatch on h4.
#   faults  4 agents + one address without an agent + one agent with another
#           key, concurrency 2: both reported, the 12 good pairs run.
#   relay   run-to's security rules, agent by agent (tests/netns/relay-peer.py).
#   pairs   4 agents, --pairs ring --concurrency 2: the 4 ring pairs in 2
#           rounds of 2 disjoint pairs run at once, the concurrency reported
#           in JSON and text; --plan names the same pairs without an agent.
#   direction  5 hosts (issue 16 item 4): h2 slow only when sending (its own
#           egress tbf 12 of 40 Mbit/s), h4 behind a bridge port that drops
#           bursts (a tbf with a small queue on the bridge's veth towards
#           it); 5 runs, each must name h2 sending and h4 receiving, with
#           no efficiency over 100 % + 3 %.  BC_MATRIX_RUNS=N changes the
#           number of runs, BC_MATRIX_KEEP=PREFIX keeps each run's JSON.
#   docs, docs-direction  not tests: the outputs of docs/matrix.md into
#           $BC_DOCS_OUT.
. "$(dirname "$0")/lib.sh"

M="bcm$$"
SW="$M-sw"
CTL="$M-ctl"
AGENTS=()
command -v python3 >/dev/null || fail "'python3' not found; install it (tools/install-deps)"

cleanup_m() {
	for p in "${AGENTS[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	for ns in $(ip netns list | awk '{print $1}' | grep "^$M-"); do ip netns del "$ns"; done
	rm -rf "$WORK"
}
trap cleanup_m EXIT INT TERM

switch() {
	ip netns add "$SW" || fail "cannot create namespaces"
	ip -n "$SW" link add br0 type bridge || fail "bridge"
	ip -n "$SW" link set lo up
	ip -n "$SW" link set br0 up
}

# attach NS IFNAME PORT: a veth from NS (IFNAME) to the bridge (PORT).
attach() {
	ip link add name "$2" netns "$1" type veth peer name "$3" netns "$SW" || fail "veth $1-$3"
	ip -n "$SW" link set "$3" master br0 up
}

# host N [RATE]: namespace $M-hN at 10.77.8.N, tbf RATE (default 40mbit) on e0.
host() {
	local n=$1 rate=${2:-40mbit} ns="$M-h$1"
	ip netns add "$ns" || fail "namespace $ns"
	ip -n "$ns" link set lo up
	attach "$ns" e0 "p$n"
	ip -n "$ns" addr add "10.77.8.$n/24" dev e0
	ip -n "$ns" link set e0 up
	tc -n "$ns" qdisc add dev e0 root tbf rate "$rate" burst 64kb latency 50ms || fail "tbf on h$n"
}

# host_via_cable N RATE: host N whose link to the bridge crosses namespace
# $M-cN, shaped to RATE in both directions there (the host sees its own 40mbit tbf).
host_via_cable() {
	local n=$1 rate=$2 ns="$M-h$1" cab="$M-c$1"
	ip netns add "$ns" && ip netns add "$cab" || fail "namespaces for h$n"
	ip -n "$ns" link set lo up
	ip -n "$cab" link set lo up
	ip link add name e0 netns "$ns" type veth peer name ca netns "$cab" || fail "veth h$n-cable"
	attach "$cab" cb "p$n"
	ip -n "$cab" link add brc type bridge
	ip -n "$cab" link set ca master brc up
	ip -n "$cab" link set cb master brc up
	ip -n "$cab" link set brc up
	for d in ca cb; do
		tc -n "$cab" qdisc add dev "$d" root tbf rate "$rate" burst 16kb latency 50ms ||
			fail "tbf in the cable of h$n"
	done
	ip -n "$ns" addr add "10.77.8.$n/24" dev e0
	ip -n "$ns" link set e0 up
	tc -n "$ns" qdisc add dev e0 root tbf rate 40mbit burst 64kb latency 50ms || fail "tbf on h$n"
}

controller() {
	ip netns add "$CTL" || fail "namespace $CTL"
	ip -n "$CTL" link set lo up
	attach "$CTL" e0 pctl
	ip -n "$CTL" addr add 10.77.8.100/24 dev e0
	ip -n "$CTL" link set e0 up
}

# serve N ARGS...: `bondcheck serve` in host N; waits until it listens.
serve() {
	local n=$1 ns="$M-h$1"
	shift
	ip netns exec "$ns" "$BC" serve "$@" 2>"$WORK/agent-$n.log" &
	AGENTS+=($!)
	for _ in $(seq 50); do
		ip netns exec "$ns" ss -ltn 2>/dev/null | grep -q ":5301 " && return 0
		sleep 0.1
	done
	cat "$WORK/agent-$n.log" >&2
	fail "agent in h$n did not start listening"
}

# matrix ARGS...: `bondcheck matrix` in the controller namespace.
matrix() {
	ip netns exec "$CTL" "$BC" matrix "$@" >"$WORK/out" 2>"$WORK/err"
	RC=$?
}

key() { head -c 32 /dev/urandom | base64 >"$1"; }

# pair FROM TO FILTER: a jq value of the pair FROM -> TO (host numbers).
pair() { jq -r --arg f "10.77.8.$1" --arg t "10.77.8.$2" ".pairs[] | select(.from == \$f and .to == \$t) | $3" "$WORK/out"; }

# jqe FILTER: FILTER is true on the last matrix output.
jqe() { jq -e "$1" "$WORK/out" >/dev/null; }

# subjects ID: the subjects of the findings with ID, space-separated.
subjects() { jq -r --arg id "$1" '[.findings[] | select(.id == $id) | .subject] | join(" ")' "$WORK/out"; }

# The find topology: h2 behind a 10 Mbit/s cable, h4 at MTU 9000, agents running.
find_topology() {
	key "$WORK/key"
	switch
	host 1
	host_via_cable 2 10mbit
	host 3
	host 4
	ip -n "$M-h4" link set e0 mtu 9000 || fail "MTU 9000 on h4"
	controller
	for n in 1 2 3 4; do serve "$n" --auth-key "$WORK/key"; done
}

# docs: not a test; the outputs of docs/matrix.md into $BC_DOCS_OUT (text, JSON, CSV, plots).
case_docs() {
	local out=${BC_DOCS_OUT:?set BC_DOCS_OUT to a directory}
	mkdir -p "$out"
	find_topology
	ip netns exec "$CTL" "$BC" matrix --hosts 10.77.8.1,10.77.8.2,10.77.8.3,10.77.8.4 \
		--auth-key "$WORK/key" -t 3 --csv "$out/matrix.csv" --plot "$out" >"$out/matrix.txt"
	echo "exit $?" >>"$out/matrix.txt"
	ip netns exec "$CTL" "$BC" matrix --hosts 10.77.8.1,10.77.8.2,10.77.8.3,10.77.8.4 \
		--auth-key "$WORK/key" -t 3 -j >"$out/matrix.json"
}

# docs-direction: not a test; the direction example of docs/matrix.md into $BC_DOCS_OUT.
case_docs_direction() {
	local out=${BC_DOCS_OUT:?set BC_DOCS_OUT to a directory}
	mkdir -p "$out"
	direction_topology
	ip netns exec "$CTL" "$BC" matrix --hosts 10.77.8.1,10.77.8.2,10.77.8.3,10.77.8.4,10.77.8.5 \
		--auth-key "$WORK/key" -t 2 --no-pmtu --concurrency 2 >"$out/matrix-direction.txt"
	echo "exit $?" >>"$out/matrix-direction.txt"
	ip netns exec "$CTL" "$BC" matrix --hosts 10.77.8.1,10.77.8.2,10.77.8.3,10.77.8.4,10.77.8.5 \
		--auth-key "$WORK/key" -t 2 --no-pmtu --concurrency 2 -j >"$out/matrix-direction.json"
}

case_find() {
	find_topology
	matrix --hosts 10.77.8.1,10.77.8.2,10.77.8.3,10.77.8.4 --auth-key "$WORK/key" -t 2 -j \
		--csv "$WORK/m.csv" --plot "$WORK/plot"
	check "matrix exits 1: error-level findings ($(head -c 400 "$WORK/err"))" [ "$RC" -eq 1 ]
	check "12 ordered pairs, all ok" [ "$(jq '[.pairs[] | select(.status == "ok")] | length' "$WORK/out")" -eq 12 ]
	check "all, concurrency 1: 6 rounds of disjoint pairs, 12 steps of one pair" \
		jqe '.pairs_rule == "all" and .rounds == 6 and .steps == 12 and .concurrent_pairs_max == 1'
	for a in 1 2 3 4; do for b in 1 2 3 4; do
		[ "$a" = "$b" ] && continue
		note "h$a -> h$b: $(pair $a $b '"\(.goodput_bps / 1e6 * 100 | round / 100) Mbit/s, efficiency \(.efficiency * 1000 | round / 1000), pmtu \(.pmtu.status) \(.pmtu.largest_carried)"')"
	done; done
	# tbf 40 Mbit/s at MTU 1500, TCP with timestamps: 40e6 x 1448 / 1514 = 38.256 Mbit/s
	check "pair ceiling h1 -> h3 is the tbf ceiling 38.26 Mbit/s" within "$(pair 1 3 .ceiling_bps)" 38250000 38262000
	check "pair ceiling h4 -> h1 is taken at the smaller MTU (1500), not 9000" within "$(pair 4 1 .ceiling_bps)" 38250000 38262000
	for p in "1 3" "3 1" "1 4" "4 3"; do
		# shellcheck disable=SC2086
		rate_check "pair ${p/ / -> } without h2 reaches >= 85 % of its ceiling" within "$(pair $p .efficiency)" 0.85 1.01
	done
	for p in "1 2" "2 1" "3 2" "2 4"; do
		# shellcheck disable=SC2086
		check "pair ${p/ / -> } through h2's 10 Mbit/s cable stays below 30 % of its ceiling" within "$(pair $p .efficiency)" 0.05 0.30
	done
	check "host-slow names h2 and only h2" [ "$(subjects host-slow)" = "10.77.8.2" ]
	check "... as sender and as receiver" \
		jqe '.findings[] | select(.id == "host-slow") | .evidence | has("as_sender") and has("as_receiver")'
	check "host-mtu-mismatch names h4 and only h4" [ "$(subjects host-mtu-mismatch)" = "10.77.8.4" ]
	check "... its 9000-byte probes were lost to all three peers" \
		[ "$(jq -r '.findings[] | select(.id == "host-mtu-mismatch") | .evidence.probe_lost_to' "$WORK/out")" = "10.77.8.1, 10.77.8.2, 10.77.8.3" ]
	check "h4 -> h1: 1500 carried, 9000 lost: pmtu mismatch, largest 1500" \
		[ "$(pair 4 1 '"\(.pmtu.status) \(.pmtu.largest_carried) \([.pmtu.probes[] | "\(.size):\(.carried)"] | join(","))"')" = "mismatch 1500 1500:true,9000:false" ]
	check "h1 -> h4: one probe (1500), carried" [ "$(pair 1 4 '"\(.pmtu.status) \(.pmtu.probes | length)"')" = "ok 1" ]
	check "h1 -> h3: path MTU 1500 ok" [ "$(pair 1 3 '"\(.pmtu.status) \(.pmtu.largest_carried)"')" = "ok 1500" ]
	check "no path-mtu-blackhole (no pair has both ends at 9000)" [ -z "$(subjects path-mtu-blackhole)" ]
	check "the h4 row of the pmtu matrix: 1500 to every peer" \
		[ "$(jq -c '.matrix.pmtu_largest[3]' "$WORK/out")" = "[1500,1500,1500,null]" ]
	check "--plot wrote the heatmap labelling every host's row and column" \
		python3 -c 'import sys, xml.etree.ElementTree as E
t = ["".join(x.itertext()) for x in E.parse(sys.argv[1]).iter("{http://www.w3.org/2000/svg}text")]
sys.exit(not all(t.count("10.77.8.%d" % n) == 2 for n in (1, 2, 3, 4)))' "$WORK/plot/matrix.svg"
	check "CSV: header and 12 rows" [ "$(wc -l <"$WORK/m.csv")" -eq 13 ]
	check "CSV: h4 -> h1 row carries MTUs 9000/1500 and the mismatch" \
		grep -q '^10.77.8.4,10.77.8.1,ok,.*,9000,1500,1500,mismatch,' "$WORK/m.csv"
	# the text form of the same document
	ip netns exec "$CTL" "$BC" matrix --hosts 10.77.8.1,10.77.8.3 --auth-key "$WORK/key" -t 1 >"$WORK/text" 2>&1
	check "text matrix of 2 hosts exits 0 ($(tail -3 "$WORK/text"))" [ $? -eq 0 ]
	check "text shows the goodput matrix and the path MTU table" \
		grep -q "Path MTU" "$WORK/text"
	grep -q "^10.77.8.1 .* - .*%" "$WORK/text" || fail "text: no matrix row for 10.77.8.1: $(cat "$WORK/text")"
}

case_faults() {
	key "$WORK/key"
	key "$WORK/other"
	switch
	for n in 1 2 3 4 6; do host "$n" 20mbit; done
	host 5 20mbit # an address without an agent
	controller
	for n in 1 2 3 4; do serve "$n" --auth-key "$WORK/key"; done
	serve 6 --auth-key "$WORK/other"
	matrix --hosts 10.77.8.1,10.77.8.2,10.77.8.5,10.77.8.3,10.77.8.6,10.77.8.4 \
		--auth-key "$WORK/key" -t 1 --concurrency 2 --no-pmtu -j
	check "matrix exits 1 (unreachable hosts are error findings) ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 1 ]
	check "h5 (no agent) is unreachable" \
		[ "$(jq -r '.hosts[] | select(.name == "10.77.8.5") | .status' "$WORK/out")" = "unreachable" ]
	check "h6 (another key) is auth-failed" \
		[ "$(jq -r '.hosts[] | select(.name == "10.77.8.6") | .status' "$WORK/out")" = "auth-failed" ]
	check "... and the error says the key differs" \
		jqe '.hosts[] | select(.name == "10.77.8.6") | .error | test("differs")'
	check "host-unreachable findings for h5 and h6" [ "$(subjects host-unreachable)" = "10.77.8.5 10.77.8.6" ]
	check "30 ordered pairs: 12 ok, 18 skipped, none failed" \
		[ "$(jq -r '[.pairs[] | .status] | "\(length) \(map(select(. == "ok")) | length) \(map(select(. == "skipped")) | length)"' "$WORK/out")" = "30 12 18" ]
	check "concurrency 2: steps hold at most 2 pairs, rounds never one host twice" \
		jqe '([.pairs | map(select(.step != null)) | group_by(.step)[] | length <= 2] | all) and ([.pairs | map(select(.round != null)) | group_by(.round)[] | [.[] | .from, .to] | length == (unique | length)] | all)'
	check "concurrency 2: 4 usable hosts make 6 rounds of 2 pairs, each one step" \
		jqe '.rounds == 6 and .steps == 6 and ([.pairs | map(select(.status == "ok")) | group_by(.step)[] | length] | min == 2)'
	check "skipped pairs have no round nor step" jqe '[.pairs[] | select(.status == "skipped") | .round == null and .step == null] | all'
	check "every good pair moved data" jqe '[.pairs[] | select(.status == "ok") | .goodput_bps > 1e6] | all'
	check "incomplete is true" jqe '.incomplete == true'
	check "the agent with another key logged the refusal" grep -q "wrong key" "$WORK/agent-6.log"
	# usage errors
	matrix --hosts 10.77.8.1 --auth-key "$WORK/key"
	check "one host: exit 2" [ "$RC" -eq 2 ]
	matrix --hosts 10.77.8.1,10.77.8.2
	check "no --auth-key: exit 2, says why" [ "$RC" -eq 2 ]
	grep -q "auth-key FILE is required" "$WORK/err" || fail "no-key message: $(cat "$WORK/err")"
	matrix --hosts 10.77.8.1,10.77.8.1 --auth-key "$WORK/key"
	check "a host listed twice: exit 2" [ "$RC" -eq 2 ]
	matrix --hosts 10.77.8.5,10.77.8.6 --auth-key "$WORK/key" -t 0.5
	check "no pair can run: exit 3" [ "$RC" -eq 3 ]
}

case_pairs() {
	local hosts=10.77.8.1,10.77.8.2,10.77.8.3,10.77.8.4 t0 t1
	key "$WORK/key"
	switch
	for n in 1 2 3 4; do host "$n" 40mbit; done
	controller
	# the plan first, with no agent running: --plan contacts no host
	matrix --hosts "$hosts" --pairs ring --concurrency 2 -t 1 --no-pmtu --plan -j
	check "--plan exits 0 without agents or a key ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	cp "$WORK/out" "$WORK/plan.json"
	check "--plan: the ring's 4 pairs in 2 rounds of 2, 2 steps" \
		jqe '.ordered_pairs == 4 and .rounds == 2 and .steps == 2 and .concurrent_pairs_max == 2'
	for n in 1 2 3 4; do serve "$n" --auth-key "$WORK/key"; done
	t0=$(date +%s.%N)
	matrix --hosts "$hosts" --auth-key "$WORK/key" --pairs ring --concurrency 2 -t 1 --no-pmtu -j
	t1=$(date +%s.%N)
	note "4 pairs in 2 steps of 2 took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s; --plan estimated $(jq .estimate.total_ms "$WORK/plan.json") ms"
	check "ring run exits 0 or 1, a report ($(head -c 300 "$WORK/err"))" [ "$RC" -le 1 ]
	check "the ring's pairs and only them: h1->h2, h2->h3, h3->h4, h4->h1, all ok" \
		[ "$(jq -r '[.pairs[] | select(.status == "ok") | "\(.from_index)>\(.to_index)"] | sort | join(" ")' "$WORK/out")" = "0>1 1>2 2>3 3>0" ]
	check "the pairs --plan named" \
		[ "$(jq -r '[.schedule[].pairs[] | "\(.from)>\(.to)"] | sort | join(" ")' "$WORK/plan.json")" = \
		  "$(jq -r '[.pairs[] | "\(.from)>\(.to)"] | sort | join(" ")' "$WORK/out")" ]
	check "every pair moved data" jqe '[.pairs[] | .goodput_bps > 1e6] | all'
	check "schema 3; rule, concurrency and the most pairs at once reported" \
		jqe '.schema_version == 3 and .pairs_rule == "ring" and .seed == null and .concurrency == 2 and .concurrent_pairs_max == 2'
	check "2 rounds of disjoint pairs, run as 2 steps of 2 pairs" jqe '.rounds == 2 and .steps == 2'
	check "each step: 2 pairs inside one round, no host twice" \
		jqe '[.pairs | group_by(.step)[] | (length == 2) and ([.[].round] | unique | length == 1) and ([.[] | .from, .to] | length == (unique | length))] | all'
	matrix --hosts "$hosts" --auth-key "$WORK/key" --pairs ring --concurrency 2 -t 0.5 --no-pmtu
	check "text: the concurrency line ($(grep '^Matrix:' "$WORK/out"))" \
		grep -q '^Matrix: 4 hosts, --pairs ring: 4 ordered pairs in 2 rounds of disjoint pairs, up to 2 at once (--concurrency 2: pairs at once share the fabric)' "$WORK/out"
	matrix --hosts "$hosts" --auth-key "$WORK/key" --seed 3
	check "--seed without random:K: exit 2" [ "$RC" -eq 2 ]
}

# The direction topology: 5 hosts at 40 Mbit/s; h2 sends at 12 Mbit/s (its own
# egress tbf, which the agent sees); the bridge port towards h4 queues at most
# 6 kB at 40 Mbit/s, so bursts into h4 are dropped there, out of h4's sight.
direction_topology() {
	key "$WORK/key"
	switch
	host 1
	host 2
	# a small bucket: 64 kB of burst would be 4 % over 12 Mbit/s in a 1 s test
	tc -n "$M-h2" qdisc replace dev e0 root tbf rate 12mbit burst 16kb latency 50ms ||
		fail "tbf 12mbit on h2"
	host 3
	host 4
	host 5
	tc -n "$SW" qdisc add dev p4 root tbf rate 40mbit burst 6kb limit 6kb ||
		fail "the bursty port's tbf on p4"
	controller
	for n in 1 2 3 4 5; do serve "$n" --auth-key "$WORK/key"; done
}

# One-line summary of the last matrix: the findings about h2 and h4.
about() {
	jq -r --arg h "10.77.8.$1" '[.findings[] | select(.subject == $h) |
		"\(.id)(\(.evidence.direction // "-")\(if .evidence.mechanism then "," + .evidence.mechanism else "" end))"] | join(" ")' "$WORK/out"
}

case_direction() {
	local runs=${BC_MATRIX_RUNS:-5} hosts=10.77.8.1,10.77.8.2,10.77.8.3,10.77.8.4,10.77.8.5
	direction_topology
	for run in $(seq "$runs"); do
		# concurrency 2: disjoint pairs share no host link (the bridge is a
		# software switch at 40 Mbit/s a port), and the 5 runs take half the time
		matrix --hosts "$hosts" --auth-key "$WORK/key" -t 1 --no-pmtu --concurrency 2 -j
		cp "$WORK/out" "$WORK/run-$run.json"
		[ -n "${BC_MATRIX_KEEP:-}" ] && cp "$WORK/out" "$BC_MATRIX_KEEP-$run.json"
		check "run $run: exit 1 (error-level findings) ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 1 ]
		check "run $run: 20 ordered pairs, all ok" \
			[ "$(jq '[.pairs[] | select(.status == "ok")] | length' "$WORK/out")" -eq 20 ]
		note "run $run: efficiency min/max $(jq -r '[.pairs[].efficiency] | "\(min * 1000 | round / 1000) \(max * 1000 | round / 1000)"' "$WORK/out"); retransmits into h4 $(jq -r '[.pairs[] | select(.to == "10.77.8.4") | .retransmits] | join(",")' "$WORK/out"), elsewhere $(jq -r '[.pairs[] | select(.to != "10.77.8.4") | .retransmits] | join(",")' "$WORK/out")"
		note "run $run: h2: $(about 2); h4: $(about 4); others: $(jq -r '[.findings[] | select(.subject != "10.77.8.2" and .subject != "10.77.8.4") | "\(.id) \(.subject)"] | join(", ")' "$WORK/out")"
		check "run $run: no efficiency over 100 % + 3 %" \
			jqe '[.pairs[] | .efficiency <= 1.03] | all'
		check "run $run: no pair-over-ceiling finding" [ -z "$(subjects pair-over-ceiling)" ]
		check "run $run: the pairs towards h2 are held by their senders, not h2's 12 Mbit/s" \
			jqe '[.pairs[] | select(.to == "10.77.8.2") | .limited_by == "sender" and .ceiling_bps > 30e6] | all'
		check "run $run: host-link-slower names h2, sending" \
			jqe '[.findings[] | select(.id == "host-link-slower")] | length == 1 and .[0].subject == "10.77.8.2" and .[0].evidence.direction == "sending"'
		check "run $run: ... holding its pairs to h1, h3, h4, h5 (sorted)" \
			jqe '.findings[] | select(.id == "host-link-slower") | .evidence.held_pairs_to == "10.77.8.1, 10.77.8.3, 10.77.8.4, 10.77.8.5"'
		check "run $run: h2 is not slow in any direction (its pairs run at its own ceiling)" \
			jqe '[.findings[] | select(.subject == "10.77.8.2" and (.id == "host-slow" or .id == "host-borderline"))] | length == 0'
		check "run $run: host-loss names h4 receiving, and no other host receiving" \
			jqe '[.findings[] | select(.id == "host-loss" and .evidence.direction == "receiving") | .subject] == ["10.77.8.4"]'
		check "run $run: ... a queue before h4 overflowed (h4's own drop counters stayed 0)" \
			jqe '.findings[] | select(.id == "host-loss" and .subject == "10.77.8.4") | .evidence.mechanism == "queue-overflow-before-host" and .evidence.host_rx_drops == "0"'
		# h2's own tbf drops what TCP pushes past its queue: loss out of h2 is
		# true, and then it must be h2's own egress queue, sending
		check "run $run: any other host-loss is h2 sending, at its own egress queue" \
			jqe '[.findings[] | select(.id == "host-loss" and .subject != "10.77.8.4") | .subject == "10.77.8.2" and .evidence.direction == "sending" and .evidence.mechanism == "own-egress-queue"] | all'
		check "run $run: no host but h4 is named slow or borderline" \
			jqe '[.findings[] | select((.id == "host-slow" or .id == "host-borderline") and .subject != "10.77.8.4")] | length == 0'
		check "run $run: if h4 is named slow or borderline, it is receiving" \
			jqe '[.findings[] | select((.id == "host-slow" or .id == "host-borderline") and .subject == "10.77.8.4") | .evidence.direction == "receiving"] | all'
	done
}

# relay ARGS...: relay-peer.py from the controller namespace; output in $WORK/relay.
relay() {
	ip netns exec "$CTL" python3 "$(dirname "$0")/relay-peer.py" "$@" >"$WORK/relay" 2>&1
}
r() { jq -r "$1" "$WORK/relay"; }

case_relay() {
	command -v tcpdump >/dev/null || fail "'tcpdump' not found; install it (tools/install-deps)"
	key "$WORK/key"
	key "$WORK/other"
	switch
	for n in 1 2 3 4 5; do host "$n" 50mbit; done
	controller
	serve 1 --auth-key "$WORK/key" --max-rate 20M
	serve 2 --auth-key "$WORK/key"
	serve 3 --auth-key "$WORK/other"
	serve 4 # no key
	# h5 runs no agent; watch h3 and h5 for any UDP from h1
	for n in 3 5; do
		ip netns exec "$M-h$n" tcpdump -i e0 -n -U -w "$WORK/h$n.pcap" udp 2>"$WORK/tcpdump-$n.err" &
		AGENTS+=($!)
	done
	sleep 1
	relay 10.77.8.1 "$WORK/key" 10.77.8.2
	check "run-to h1 -> h2 (same key): relayed ($(cat "$WORK/relay"))" [ "$(r .reply)" = relayed ]
	check "... h2 received every datagram h1 sent" [ "$(r .received)" -eq "$(r .sent)" ] 
	check "... and some were sent" [ "$(r .sent)" -gt 10 ]
	relay 10.77.8.1 "$WORK/key" 10.77.8.3
	check "run-to towards an agent with another key: peer-auth-failed ($(cat "$WORK/relay"))" [ "$(r .code)" = peer-auth-failed ]
	relay 10.77.8.1 "$WORK/key" 10.77.8.5
	check "run-to towards a host without an agent: peer-unreachable ($(cat "$WORK/relay"))" [ "$(r .code)" = peer-unreachable ]
	relay 10.77.8.4 - 10.77.8.2
	check "an agent without a key refuses run-to: auth-required ($(cat "$WORK/relay"))" [ "$(r .code)" = auth-required ]
	relay 10.77.8.1 "$WORK/key" 10.77.8.2 '{"capture": 1}'
	check "run-to with a capture: bad-plan" [ "$(r .code)" = bad-plan ]
	relay 10.77.8.1 "$WORK/key" 10.77.8.2 '{"rate_bps_per_stream": 30000000}'
	check "run-to above the relaying agent's --max-rate: bad-plan naming the limit ($(r .message))" \
		[ "$(r .code)" = bad-plan ]
	relay 10.77.8.1 "$WORK/key" '-x --evil'
	check "run-to with a malformed peer: bad-plan" [ "$(r .code)" = bad-plan ]
	relay 10.77.8.1 "$WORK/key" 10.77.8.2
	check "h1 still relays after the refusals" [ "$(r .reply)" = relayed ]
	sleep 0.5
	for n in 3 5; do
		check "h$n (did not consent) received no UDP at all" \
			[ "$(tcpdump -r "$WORK/h$n.pcap" -n 2>/dev/null | wc -l)" -eq 0 ]
	done
	check "h1 logged the refusal of the other key" grep -q "run-to refused: agent 10.77.8.3" "$WORK/agent-1.log"
}

name=${1:-}
fn="case_${name//-/_}"
declare -F "$fn" >/dev/null || fail "unknown case '$name'"
"$fn"
echo "PASS: $name"
