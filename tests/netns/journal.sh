#!/bin/bash
# netns tests of the journal, `bondcheck restore` and the agent's change
# sessions: journal.sh CASE, with BC=<bondcheck> BCJ=<bc-journal-tool>.
#
# The host kernel has no bonding driver, so the master is a bridge br0 with
# veth ports p1 p2 p3 (peers q1 q2 q3) in one namespace; the journal
# handles any master (membership as a set, admin state, MTU, MAC).  Real
# bonds (options, enslave order, primary, queue ids, LACP) are tested in
# the testbed (test-scenarios/restore-8023ad.scn).  The agent listens on
# the namespace's loopback.
# Cases: fields idempotent sigkill malformed agent-refuses agent-disconnect
#        agent-sigterm agent-scope agent-user
. "$(dirname "$0")/lib.sh"
BCJ=${BCJ:-}
[ -x "$BCJ" ] || fail "bc-journal-tool not given or not executable: '$BCJ'"
export BC_JOURNAL_DIR="$WORK/journal"
CASE=${1:-}

# bridge: br0 with p1 p2 p3, fixed MACs; p3 admin down, p2 MTU 1400.
bridge() {
	ip netns add "$A" || fail "cannot create namespace $A"
	ip -n "$A" link set lo up
	ip -n "$A" link add br0 type bridge || fail "bridge br0"
	for i in 1 2 3; do
		ip -n "$A" link add p$i type veth peer name q$i || fail "veth p$i"
		ip -n "$A" link set p$i address 02:00:00:00:01:0$i
		ip -n "$A" link set p$i master br0
		ip -n "$A" link set q$i up
		ip -n "$A" link set p$i up
	done
	ip -n "$A" link set p2 mtu 1400
	ip -n "$A" link set p3 down
	ip -n "$A" link set br0 address 02:00:00:00:0b:01
	ip -n "$A" link set br0 mtu 1400
	ip -n "$A" link set br0 up
}

# state: one line per device: name master admin mtu mac (what the journal promises).
state() {
	ip -n "$A" -j link show | jq -r '
		[.[] | select(.ifname == "br0" or (.ifname | test("^p[0-9]$")))] | sort_by(.ifname) |
		.[] | "\(.ifname) \(.master // "-") \(if (.flags | index("UP")) then "up" else "down" end) \(.mtu) \(.address)"'
}

# mutate: change every promised field of the bridge and its ports.
mutate() {
	ip -n "$A" link set p1 down
	ip -n "$A" link set p3 up
	ip -n "$A" link set p2 nomaster
	ip -n "$A" link set p2 mtu 1300
	ip -n "$A" link set p1 address 02:00:00:00:01:99
	ip -n "$A" link set br0 address 02:00:00:00:0b:99
	ip -n "$A" link set br0 down
}

differs() { ! cmp -s "$@"; }
bcr() { ip netns exec "$A" "$BC" restore "$@"; }
tool() { ip netns exec "$A" "$BCJ" "$@"; }
# tool_bg OP...: a client change session on br0 that holds it after OP...; its pid in CP.
tool_bg() {
	ip netns exec "$A" "$BCJ" peer 127.0.0.1 - br0 "$@" hold >"$WORK/out" 2>&1 &
	CP=$!
}
JPATH() { echo "$BC_JOURNAL_DIR/br0@$A.json"; }

case_fields() {
	bridge
	state >"$WORK/before"
	tool save br0 "$(JPATH)" || fail "journal not saved"
	check "the journal file is private (0600)" [ "$(stat -c %a "$(JPATH)")" = 600 ]
	check "the journal names the bridge and its 3 ports in its JSON" \
		[ "$(jq -r '[.bond, .kind, (.slaves | map(.name) | join(","))] | join(" ")' "$(JPATH)")" = "br0 bridge p1,p2,p3" ]
	mutate
	state >"$WORK/changed"
	check "the mutation changed the state" differs "$WORK/before" "$WORK/changed"
	bcr --check br0 >"$WORK/out" 2>&1
	check "restore --check exits 1 while fields differ" [ $? -eq 1 ]
	check "--check changed nothing" cmp -s "$WORK/changed" <(state)
	bcr br0 -j --timeout 10 >"$WORK/out" 2>"$WORK/err"
	RC=$?
	check "restore exits 0 ($(head -c 300 "$WORK/err"))" [ "$RC" -eq 0 ]
	check "every device is back: $(diff "$WORK/before" <(state) | tr '\n' ' ')" cmp -s "$WORK/before" <(state)
	check "the report says restored, ok" [ "$(j '.restores[0].result + " " + (.restores[0].report.ok | tostring)')" = "restored true" ]
	for f in br0.slaves br0.mac br0.admin_state br0/p1.admin_state br0/p1.mac br0/p2.mtu br0/p3.admin_state; do
		check "report field $f: journal = after, before differed, an action taken" \
			[ "$(j ".restores[0].report.fields[] | select(.field == \"$f\") | (.journal == .after) and (.before != .journal) and (.action != \"none\") and .ok")" = true ]
	done
	check "the journal is removed after a complete restore" [ ! -e "$(JPATH)" ]
	bcr br0 >"$WORK/out" 2>&1
	check "a second restore finds nothing to do (exit 0: $(cat "$WORK/out"))" [ $? -eq 0 ]
	grep -q "no journal" "$WORK/out" || fail "the second restore does not say there is no journal"
}

case_idempotent() {
	bridge
	state >"$WORK/before"
	tool save br0 "$(JPATH)" || fail "journal not saved"
	bcr --keep -j br0 >"$WORK/out" 2>"$WORK/err"
	check "restore of an unchanged bridge exits 0" [ $? -eq 0 ]
	check "... and takes no action" [ "$(j '[.restores[0].report.fields[].action | select(. != "none")] | length')" = 0 ]
	mutate
	bcr --keep -j br0 >"$WORK/out" 2>"$WORK/err" || fail "first restore failed: $(cat "$WORK/err")"
	check "first restore acted on fields" [ "$(j '[.restores[0].report.fields[].action | select(. != "none")] | length')" -gt 3 ]
	bcr --keep -j br0 >"$WORK/out" 2>"$WORK/err"
	check "second restore exits 0" [ $? -eq 0 ]
	check "second restore takes no action (idempotent)" [ "$(j '[.restores[0].report.fields[].action | select(. != "none")] | length')" = 0 ]
	check "state equals the journal's after both" cmp -s "$WORK/before" <(state)
	check "--keep kept the journal" [ -e "$(JPATH)" ]
	tool save br0 "$(JPATH)" 2>"$WORK/err"
	check "a second journal of the same bond is refused while one is unrestored" [ $? -ne 0 ]
	grep -q "bondcheck restore" "$WORK/err" || fail "the refusal does not say to run bondcheck restore: $(cat "$WORK/err")"
}

case_sigkill() {
	bridge
	state >"$WORK/before"
	agent --bind 127.0.0.1 --test-any-master --allow-changes
	tool_bg down:p1 mtu:p2:1300
	local cp=$CP
	for _ in $(seq 50); do grep -q '"step":"mtu:p2:1300"' "$WORK/out" && break; sleep 0.1; done
	check "the agent journaled and changed p1, p2 ($(tr '\n' ' ' <"$WORK/out" | head -c 300))" \
		[ "$(jq -rs '[.[] | select(.rc == 0) | .step] | join(" ")' "$WORK/out")" = "open journal down:p1 mtu:p2:1300" ]
	kill -KILL "$AGENT_PID"; wait "$AGENT_PID" 2>/dev/null; AGENT_PID=""
	kill "$cp" 2>/dev/null; wait "$cp" 2>/dev/null
	check "after SIGKILL of the agent the changes are still there" differs "$WORK/before" <(state)
	check "and its journal is on disk" [ -e "$(JPATH)" ]
	bcr --timeout 10 >"$WORK/out" 2>"$WORK/err"
	check "bondcheck restore (no argument: every journal of this namespace) exits 0 ($(cat "$WORK/err"))" [ $? -eq 0 ]
	check "every device is back: $(diff "$WORK/before" <(state) | tr '\n' ' ')" cmp -s "$WORK/before" <(state)
	check "the journal is removed" [ ! -e "$(JPATH)" ]
}

# write_bad NAME CONTENT: a hostile journal; restore must refuse it (exit 4, bad
# input data) naming the problem.
bad_journal() {
	local name=$1 want=$2 f="$WORK/bad-$1.json"
	cat >"$f"
	bcr --journal "$f" >"$WORK/out" 2>"$WORK/err"
	RC=$?
	check "$name: exit 4 ($RC)" [ "$RC" -eq 4 ]
	grep -q -- "$want" "$WORK/err" || fail "$name: message lacks '$want': $(cat "$WORK/err")"
	check "$name: nothing changed" cmp -s "$WORK/changed" <(state)
	check "$name: the file is kept" [ -e "$f" ]
}

case_malformed() {
	bridge
	tool save br0 "$WORK/good.json" || fail "journal not saved"
	mutate
	state >"$WORK/changed"
	local g="$WORK/good.json"
	printf 'not json' | bad_journal not-json "not valid JSON"
	head -c 100 "$g" | bad_journal truncated "not valid JSON"
	jq '.schema = 99' "$g" | bad_journal schema "schema 99"
	jq '.device.mtu = "1500"' "$g" | bad_journal mtu-type "member 'mtu': expected an integer"
	jq '.device.mtu = 10' "$g" | bad_journal mtu-range "out of range"
	jq '.device.mac = "zz:00"' "$g" | bad_journal mac "not a colon-hex hardware address"
	jq '.slaves[0].name = "../../etc"' "$g" | bad_journal ifname "not an interface name"
	jq '.slaves[1].name = .slaves[0].name' "$g" | bad_journal duplicate "listed twice"
	jq '.bond = "p1"' "$g" | bad_journal bond-is-slave "listed twice"
	jq '.evil = 1' "$g" | bad_journal unknown-member "evil is not a journal member"
	jq '.options = {"mode": "802.3ad"}' "$g" | bad_journal options-on-bridge "has no bond options"
	jq '.kind = "bond" | .options = {"mode": "turbo"}' "$g" | bad_journal bad-mode "unknown value"
	jq '.slaves = [range(70) | {name: "x\(.)", admin_state: "up", mtu: 1500, mac: "02:00:00:00:00:01"}]' "$g" |
		bad_journal too-many "more than 64 slaves"
	python3 -c 'print("[" * 100000)' | bad_journal deep "not valid JSON"
	head -c 300000 /dev/zero | tr '\0' ' ' | bad_journal huge "at most"
	printf '{"schema":1}\0{}' | bad_journal nul "NUL byte"
	jq '.' "$g" | sed 's/"up"/"sideways"/' | bad_journal state-word "expected \"up\" or \"down\""
	bcr --journal /nonexistent/j.json >/dev/null 2>"$WORK/err"
	check "a missing journal file: exit 3" [ $? -eq 3 ]
	bcr --journal "$g" br0 >/dev/null 2>&1
	check "--journal with a bond name is a usage error (2)" [ $? -eq 2 ]
	bcr --timeout -1 >/dev/null 2>&1
	check "--timeout -1 is a usage error (2)" [ $? -eq 2 ]
	bcr --journal "$g" >"$WORK/out" 2>"$WORK/err"
	check "the intact journal still restores (exit 0)" [ $? -eq 0 ]
}

case_agent_refuses() {
	bridge
	state >"$WORK/before"
	agent --bind 127.0.0.1 --test-any-master
	tool peer 127.0.0.1 - br0 down:p1 >"$WORK/out" 2>&1
	check "without --allow-changes the session is refused: changes-not-allowed" \
		grep -q '"step":"open","rc":-1,.*changes-not-allowed' "$WORK/out"
	check "nothing changed" cmp -s "$WORK/before" <(state)
	check "no journal was written" [ ! -e "$(JPATH)" ]
	grep -q "refused a change request" "$WORK/agent.log" || fail "the agent did not log the refusal"
	kill -0 "$AGENT_PID" || fail "the agent is gone"
}

# the agent restores when its client disappears (SIGKILL of the controller)
case_agent_disconnect() {
	bridge
	state >"$WORK/before"
	agent --bind 127.0.0.1 --test-any-master --allow-changes
	tool_bg down:p1 mtu:br0:1300
	local cp=$CP
	for _ in $(seq 50); do grep -q '"step":"mtu:br0:1300"' "$WORK/out" && break; sleep 0.1; done
	check "changes in force while the client holds the session" \
		[ "$(state | awk '$1 == "p1" { print $3 }')" = down ]
	# tests run on other connections while the change session is open
	ip netns exec "$A" "$BC" run --peer 127.0.0.1 -u -b 10M -t 0.5 --json >"$WORK/run.json" 2>"$WORK/run.err"
	check "a test runs beside the open change session ($(head -c 200 "$WORK/run.err"))" \
		[ $? -eq 0 -a "$(jq -r '.streams[0].received_packets' "$WORK/run.json")" -gt 0 ]
	check "and the change session's changes are still in force" \
		[ "$(state | awk '$1 == "p1" { print $3 }')" = down ]
	kill -KILL "$cp"; wait "$cp" 2>/dev/null
	for _ in $(seq 100); do cmp -s "$WORK/before" <(state) && [ ! -e "$(JPATH)" ] && break; sleep 0.1; done
	check "the agent restored after its client was SIGKILLed: $(diff "$WORK/before" <(state) | tr '\n' ' ')" \
		cmp -s "$WORK/before" <(state)
	check "and removed its journal" [ ! -e "$(JPATH)" ]
	grep -q "br0 restored" "$WORK/agent.log" || fail "the agent log lacks 'br0 restored': $(cat "$WORK/agent.log")"
	# an explicit restore returns the report and leaves the session open
	tool peer 127.0.0.1 - br0 down:p3 down:p1 restore up:p1 >"$WORK/out" 2>&1
	check "explicit restore: result ok with a report" \
		[ "$(jq -rs '.[] | select(.step == "restore") | "\(.rc) \(.data.ok)"' "$WORK/out")" = "0 true" ]
	check "a change after the restore needs a new journal (no-journal)" \
		grep -q '"step":"up:p1","rc":-2,.*no-journal' "$WORK/out"
	check "state back after the explicit restore" cmp -s "$WORK/before" <(state)
}

case_agent_sigterm() {
	bridge
	state >"$WORK/before"
	agent --bind 127.0.0.1 --test-any-master --allow-changes
	tool_bg down:p1 mtu:p2:1300
	local cp=$CP
	for _ in $(seq 50); do grep -q '"step":"mtu:p2:1300"' "$WORK/out" && break; sleep 0.1; done
	check "changes in force" differs "$WORK/before" <(state)
	kill -TERM "$AGENT_PID"
	wait "$AGENT_PID"
	local rc=$?
	AGENT_PID=""
	kill "$cp" 2>/dev/null; wait "$cp" 2>/dev/null
	check "the agent exits 0 on SIGTERM ($rc)" [ "$rc" -eq 0 ]
	check "and restored before it exited: $(diff "$WORK/before" <(state) | tr '\n' ' ')" cmp -s "$WORK/before" <(state)
	grep -q "restoring br0 (the agent is stopping)" "$WORK/agent.log" ||
		fail "the agent log lacks the stop restore: $(cat "$WORK/agent.log")"
	check "no journal left" [ ! -e "$(JPATH)" ]
}

case_agent_scope() {
	bridge
	local key="$WORK/key"
	printf '%s\n' "journal-test-key-0123456789abcdef" >"$key"
	printf '%s\n' "another-key-0123456789abcdefghij" >"$WORK/wrong"
	state >"$WORK/before"
	agent --bind 127.0.0.1 --test-any-master --allow-changes --auth-key "$key"
	tool peer 127.0.0.1 "$WORK/wrong" br0 down:p1 >"$WORK/out" 2>&1
	check "a wrong key: no change session" grep -q '"step":"open","rc":-13' "$WORK/out"
	tool peer 127.0.0.1 - br0 down:p1 >"$WORK/out" 2>&1
	check "no key: no change session" grep -q '"step":"open","rc":-13' "$WORK/out"
	check "nothing changed" cmp -s "$WORK/before" <(state)
	# without the test-only --test-any-master the agent journals only bonds
	kill "$AGENT_PID"; wait "$AGENT_PID" 2>/dev/null
	agent --bind 127.0.0.1 --allow-changes --auth-key "$key"
	tool peer 127.0.0.1 "$key" br0 down:p1 >"$WORK/out" 2>&1
	check "a bridge is not journaled by a normal agent (no-such-bond)" \
		grep -q '"step":"journal","rc":-19,.*not a bond: this agent changes only bonds' "$WORK/out"
	check "no change after that refusal" grep -q '"step":"down:p1","rc":-2,.*no-journal' "$WORK/out"
	kill "$AGENT_PID"; wait "$AGENT_PID" 2>/dev/null
	agent --bind 127.0.0.1 --test-any-master --allow-changes --auth-key "$key"
	tool peer 127.0.0.1 "$key" br0 down:q1 down:lo mtu:lo:1400 down:br0 mtu:p1:20 raw-change:reboot down:p1 close >"$WORK/out" 2>&1
	check "q1 (not a port of br0) refused: change-refused" grep -q '"step":"down:q1","rc":-1,.*change-refused' "$WORK/out"
	check "lo refused" grep -q '"step":"down:lo","rc":-1,.*change-refused' "$WORK/out"
	check "mtu of lo refused" grep -q '"step":"mtu:lo:1400","rc":-1,.*change-refused' "$WORK/out"
	check "slave-down of the bond itself refused" grep -q '"step":"down:br0","rc":-1,.*change-refused' "$WORK/out"
	check "MTU 20 refused as malformed" grep -q '"step":"mtu:p1:20","rc":-22' "$WORK/out"
	check "an unknown op refused" grep -q '"step":"raw-change:reboot","rc":-22' "$WORK/out"
	check "a port of the journaled bridge changes" grep -q '"step":"down:p1","rc":0' "$WORK/out"
	for _ in $(seq 50); do cmp -s "$WORK/before" <(state) && break; sleep 0.1; done
	check "restored after close" cmp -s "$WORK/before" <(state)
	# p3 is admin down: taking p1 and then p2 down would leave br0 without an up port
	tool peer 127.0.0.1 "$key" br0 down:p1 down:p2 >"$WORK/out" 2>&1
	check "the last up port is refused" grep -q '"step":"down:p2","rc":-1,.*without an up slave' "$WORK/out"
	for _ in $(seq 50); do cmp -s "$WORK/before" <(state) && break; sleep 0.1; done
	check "restored after that session too" cmp -s "$WORK/before" <(state)
}

# --user nobody: the agent journals into a directory it was handed as root
# and changes the bond with CAP_NET_ADMIN only
case_agent_user() {
	bridge
	id nobody >/dev/null 2>&1 || fail "user nobody does not exist"
	chmod 711 "$WORK"
	state >"$WORK/before"
	agent --bind 127.0.0.1 --test-any-master --allow-changes --user nobody
	check "the journal directory belongs to nobody, mode 700" \
		[ "$(stat -c '%U %a' "$BC_JOURNAL_DIR")" = "nobody 700" ]
	tool_bg down:p1 mtu:p2:1300
	local cp=$CP
	for _ in $(seq 50); do grep -q '"step":"mtu:p2:1300"' "$WORK/out" && break; sleep 0.1; done
	check "as nobody the agent journaled and changed p1, p2 ($(tr '\n' ' ' <"$WORK/out" | head -c 300))" \
		[ "$(jq -rs '[.[] | select(.rc == 0) | .step] | join(" ")' "$WORK/out")" = "open journal down:p1 mtu:p2:1300" ]
	check "its journal file is owned by nobody" [ "$(stat -c %U "$(JPATH)")" = nobody ]
	kill -KILL "$cp"; wait "$cp" 2>/dev/null
	for _ in $(seq 100); do cmp -s "$WORK/before" <(state) && [ ! -e "$(JPATH)" ] && break; sleep 0.1; done
	check "and restored after its client was killed: $(diff "$WORK/before" <(state) | tr '\n' ' ')" \
		cmp -s "$WORK/before" <(state)
}

case "$CASE" in
fields | idempotent | sigkill | malformed | agent-refuses | agent-disconnect | agent-sigterm | agent-scope | agent-user)
	"case_${CASE//-/_}" ;;
*) fail "unknown case '$CASE'" ;;
esac
echo "PASS: journal $CASE"
