#!/bin/bash
# netns tests of the run suite (bondcheck run --peer HOST without single-test
# options): suite.sh CASE, with BC=<path to bondcheck>.  No bonding driver
# here: the veth c0 is the client's one "link"; the testbed runs it on bonds.
# Cases: quick peer-lost usage loopback
. "$(dirname "$0")/lib.sh"

case_quick() {
	topo 20mbit
	agent
	local plot=""
	ip netns exec "$C" "$BC" run --help | grep -q -- "--plot DIR .*not built yet" || plot="--plot $WORK/plots"
	# shellcheck disable=SC2086
	client --peer 10.77.2.1 --quick --link-rate 20M --link-accounting tbf \
		--json-file "$WORK/suite.json" --csv "$WORK/suite.csv" $plot
	cp "$WORK/out" "$WORK/text"
	cp "$WORK/suite.json" "$WORK/out"
	note "exit $RC; $(grep -A4 '^Verdicts' "$WORK/text" | tr -s ' ' | head -c 400)"
	check "the suite exits 0 or 1 ($(head -c 300 "$WORK/err"))" [ "$RC" -le 1 ]
	local want=0
	[ "$(j '.summary.fail + .summary.error_findings')" -gt 0 ] && want=1
	check "exit status $RC follows the verdicts and error findings (want $want)" [ "$RC" -eq "$want" ]
	check "the report's last line says the exit status" \
		bash -c "tail -n 1 '$WORK/text' | grep -q '^exit $RC: '"
	check "a run-suite document, complete, quick" \
		[ "$(j '[.kind, .incomplete, .quick] | map(tostring) | join(" ")')" = "run-suite false true" ]
	check "tests: tcp-1, tcp-k, 1..3 search trials, udp-over, in that order" \
		bash -c "jq -r '[.tests[].name] | join(\" \")' '$WORK/out' | grep -Eq '^tcp-1 tcp-k (udp-trial-[1-3] ){1,3}udp-over$'"
	check "roles: baseline, aggregate, search..., over-rate" \
		[ "$(j '[.tests[].role] | unique | join(",")')" = "aggregate,baseline,over-rate,search" ]
	check "not a bond: one flow, not placed, the reason says so" \
		[ "$(j '.placement | [.placed, .flows, (.reason | test("not a bond"))] | map(tostring) | join(" ")')" = "false 1 true" ]
	check "the agent answered inspect: its end is a0, not a bond" \
		[ "$(j '.ends.agent.interface + " " + (.ends.agent.bonds | length | tostring)')" = "a0 0" ]
	# --link-rate 20M with tbf accounting: TCP 1448/1514 x 20M, UDP 1472/1514 x 20M
	check "c0's TCP ceiling is the --link-rate one (19.13 Mbit/s)" \
		within "$(j '.ceilings.client.slaves[0].tcp_ceiling_bps')" 19128000 19129000
	check "c0's UDP ceiling (19.45 Mbit/s) is where the search starts" \
		[ "$(j '(.udp_search.start_bps - .ceilings.client.slaves[0].udp_ceiling_bps) | fabs < 1')" = true ]
	check "only tcp-k and udp-over captured" \
		[ "$(j '[.tests[] | select(.result.capture) | .name] | join(",")')" = "tcp-k,udp-over" ]
	check "per-link rows: c0 (client) and a0 (agent) for both captured tests" \
		[ "$(j '[.links[] | .test + "/" + .end + "/" + .name] | join(",")')" = "tcp-k/client/c0,tcp-k/agent/a0,udp-over/client/c0,udp-over/agent/a0" ]
	check "one link carries everything: share 1 on c0" \
		[ "$(j '[.links[] | select(.name == "c0") | .share] | map(tostring) | join(",")')" = "1,1" ]
	check "the probe offered 1.25 x the no-drop rate" \
		[ "$(j '((.tests[-1].result.streams | map(.offered_bps) | add) / .udp_search.no_drop_rate_bps - 1.25) | fabs < 0.01')" = true ]
	check "the ledger is the probe's, six stages" \
		[ "$(j '.ledger_test + " " + (.ledger | length | tostring) + " " + .ledger_direction')" = "udp-over 6 client-to-agent" ]
	check "trials carry sent, received and no_drop" \
		[ "$(j '[.udp_search.trials[] | (.no_drop == (.sent_packets == .received_packets and .sent_packets > 0))] | all')" = true ]
	check "three verdicts, each with a status and a rendered answer" \
		[ "$(j '[.verdicts.aggregation, .verdicts.udp_gap, .verdicts.drivers | (.status | test("^(pass|fail|inconclusive|not-applicable)$")) and (.answer | length > 20)] | all')" = true ]
	check "no bond: Drivers is not applicable (one interface)" \
		[ "$(j '.verdicts.drivers.status')" = not-applicable ]
	check "the text report ends with the three verdict lines" \
		bash -c "sed -n '/^Verdicts/,\$p' '$WORK/text' | grep -c -E '^  (Aggregation|UDP gap|Drivers) +(PASS|FAIL|INCONCLUSIVE|N/A) ' | grep -qx 3"
	check "CSV: header and one row per test plus one per link row" \
		[ "$(($(wc -l <"$WORK/suite.csv") - 1))" -eq "$(j '(.tests | length) + (.links | length)')" ]
	check "CSV: every row has 18 fields" \
		[ "$(awk -F, '{print NF}' "$WORK/suite.csv" | sort -u)" = 18 ]
	if [ -n "$plot" ]; then
		check "--plot: per-link throughput of tcp-k and udp-over, reorder density, ledger" \
			bash -c "cd '$WORK/plots' && [ \"\$(grep -l '<svg' links-tcp-k.svg links-udp-over.svg reorder-density.svg ledger.svg | wc -l)\" -eq 4 ]"
	fi
	"$BC" run --from-json "$WORK/suite.json" >"$WORK/again"
	check "--from-json renders the same text" cmp -s "$WORK/text" "$WORK/again"
	"$BC" run --from-json "$WORK/suite.json" --csv - >"$WORK/again.csv"
	check "--from-json --csv - writes the same CSV to stdout" cmp -s "$WORK/suite.csv" "$WORK/again.csv"
}

case_peer_lost() {
	topo 20mbit
	agent
	ip netns exec "$C" "$BC" run --peer 10.77.2.1 --link-rate 20M --json-file "$WORK/suite.json" \
		>"$WORK/text" 2>"$WORK/err" &
	local pid=$!
	# the default suite: tcp-1 runs 12 s; lose the agent during tcp-k
	for _ in $(seq 300); do
		[ "$(grep -c 'done' "$WORK/agent.log")" -ge 1 ] && grep -q "running: 1 stream" "$WORK/agent.log" &&
			[ "$(grep -c 'running' "$WORK/agent.log")" -ge 2 ] && break
		sleep 0.1
	done
	sleep 1
	kill -9 "$AGENT_PID" # a lost host, not a clean stop (SIGTERM lets the test finish)
	wait "$AGENT_PID" 2>/dev/null
	AGENT_PID=""
	wait "$pid"
	RC=$?
	cp "$WORK/suite.json" "$WORK/out"
	note "exit $RC: $(head -c 300 "$WORK/err")"
	note "agent log: $(tr '\n' '|' <"$WORK/agent.log")"
	check "peer lost mid-suite: exit 3" [ "$RC" -eq 3 ]
	check "the JSON says incomplete, with the error of the test that broke" \
		[ "$(j '[.incomplete, .errors[0].test] | map(tostring) | join(" ")')" = "true tcp-k" ]
	check "the baseline that finished is kept" [ "$(j '[.tests[].name] | join(",")')" = "tcp-1" ]
	check "the verdicts are not pass without the tests (aggregation inconclusive)" \
		[ "$(j '.verdicts.aggregation.status')" = inconclusive ]
	check "the text report says INCOMPLETE" grep -q "^INCOMPLETE" "$WORK/text"
	check "stderr says the suite stopped" grep -q "the suite stopped" "$WORK/err"
}

# Issue 15: the suite over loopback (lo's MTU 65536) ran into "--length 65508
# exceeds IPv4's UDP maximum 65507", a length derived from the MTU, and
# exited 3.  Agent and client in one namespace, over its lo.
case_loopback() {
	ip netns add "$C" || fail "cannot create namespace"
	ip -n "$C" link set lo up
	ip netns exec "$C" "$BC" serve --bind 127.0.0.1 2>"$WORK/agent.log" &
	AGENT_PID=$!
	for _ in $(seq 50); do
		ip netns exec "$C" ss -ltn 2>/dev/null | grep -q ":5301 " && break
		sleep 0.1
	done
	client --peer 127.0.0.1 --quick --json-file "$WORK/suite.json"
	cp "$WORK/out" "$WORK/text"
	cp "$WORK/suite.json" "$WORK/out"
	note "exit $RC; $(head -c 300 "$WORK/err")"
	check "the suite over loopback exits 0 or 1, not 3" [ "$RC" -le 1 ]
	check "no derived length refused" bash -c "! grep -q 'exceeds IPv4' '$WORK/err'"
	check "complete: every test ran, the probe too" \
		[ "$(j '[.incomplete, .tests[-1].name] | map(tostring) | join(" ")')" = "false udp-over" ]
	check "lo's MTU 65536 gives the IPv4 UDP maximum, 65507 bytes" \
		[ "$(j '[.egress.client.mtu, .options.udp_length] | map(tostring) | join(" ")')" = "65536 65507" ]
}

case_usage() {
	topo 20mbit
	client --peer 10.77.2.1 --quick -u
	check "--quick with -u: exit 2" [ "$RC" -eq 2 ]
	check "... names both options" grep -q -- "--quick runs the suite; it cannot be combined with the single-test option -u/--udp" "$WORK/err"
	client --peer 10.77.2.1 -t 2 --csv "$WORK/x.csv"
	check "--csv with -t: exit 2 naming -t" bash -c "[ $RC -eq 2 ] && grep -q -- 'single-test option -t/--duration' '$WORK/err'"
	if ip netns exec "$C" "$BC" run --help | grep -q -- "--plot DIR .*not built yet"; then
		client --peer 10.77.2.1 --plot "$WORK/plots"
		check "--plot: exit 2, plots not built (not a silent no-op)" \
			bash -c "[ $RC -eq 2 ] && grep -q 'plots are not built' '$WORK/err'"
	else
		client --from-json "$(dirname "$0")/../data/run-suite/veth-quick.json" --plot "$WORK/plots"
		check "--plot of a saved suite: exit 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
		check "--plot wrote the ledger and the reorder density" \
			bash -c "[ -s '$WORK/plots/ledger.svg' ] && [ -s '$WORK/plots/reorder-density.svg' ]"
	fi
	client --quick
	check "the suite without --peer: exit 2" bash -c "[ $RC -eq 2 ] && grep -q -- '--peer HOST is required' '$WORK/err'"
	client --from-json /nonexistent.json
	check "--from-json of a missing file: exit 4 (bad input), one line" \
		bash -c "[ $RC -eq 4 ] && grep -qx 'bondcheck run: --from-json /nonexistent.json: cannot open it: No such file or directory' '$WORK/err'"
	client --from-json /nonexistent.json -j
	check "-j: the input error on stdout too" \
		[ "$(j '.error | [.exit, .kind] | map(tostring) | join(" ")')" = "4 input" ]
	echo '{"kind": "scale"}' >"$WORK/scale.json"
	client --from-json "$WORK/scale.json"
	check "--from-json of another document: exit 4 naming its kind" \
		bash -c "[ $RC -eq 4 ] && grep -q \"kind is 'scale'\" '$WORK/err'"
	client --peer 10.77.2.1 --quick
	check "no agent: exit 3, unreachable" bash -c "[ $RC -eq 3 ] && grep -q unreachable '$WORK/err'"
	check "no agent: no report on stdout" [ ! -s "$WORK/out" ]
	client --peer 10.77.2.1 --quick -j
	check "no agent, -j: the environment error on stdout, with the message" \
		[ "$(j '.error | [.exit, .kind, (.message | test("unreachable"))] | map(tostring) | join(" ")')" = "3 environment true" ]
	client --peer 10.77.2.1 -j --csv -
	check "-j with --csv -: exit 2" [ "$RC" -eq 2 ]
	ip netns exec "$C" "$BC" run --help | grep -q "Any single-test option" ||
		fail "--help explains which options select the single test"
	echo "ok - --help explains the single-test options"
}

name=${1:-}
fn="case_${name//-/_}"
declare -F "$fn" >/dev/null || fail "unknown case '$name'"
"$fn"
echo "PASS: $name"
