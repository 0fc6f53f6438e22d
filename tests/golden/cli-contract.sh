#!/bin/bash
# The command line as the tools around it behave (issue 15 items 5 and 8):
# cli-contract.sh BONDCHECK, run in the source tree.  Options anywhere; one
# line for a bad option; bad input files exit 4 with one line; with -j, a
# failing command prints {"error": {...}} on stdout.
set -u
BC=$1
export SOURCE_DATE_EPOCH=1764547200 # the same generated_at in the runs compared
T=$(mktemp -d /tmp/bc-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok - $*"; }
# run ARGS...: stdout in $T/out, stderr in $T/err, status in $RC
run() { "$BC" "$@" >"$T/out" 2>"$T/err"; RC=$?; }
lines() { wc -l <"$1" | tr -d ' '; }

# 1. options anywhere, as getopt_long permutes them
d=tests/data/pcap/rr3
run analyze -j tx:eth0=$d/tx-eth0.pcap rx:eth0=$d/rx-eth0.pcap
cp "$T/out" "$T/first"
run analyze tx:eth0=$d/tx-eth0.pcap rx:eth0=$d/rx-eth0.pcap -j
cmp -s "$T/first" "$T/out" && jq -e .links "$T/out" >/dev/null || fail "analyze FILES -j differs from analyze -j FILES"
ok "analyze FILES -j"
rec=tests/data/recordings/mode-balance-rr
run inspect --replay $rec bond0 -j
jq -e '.bonds[0].name == "bond0"' "$T/out" >/dev/null || fail "inspect --replay DIR bond0 -j: $(head -c 300 "$T/err")"
ok "inspect --replay DIR bond0 -j"
run failover --from-json tests/data/failover/lacp.json -j
jq -e '.kind == "failover"' "$T/out" >/dev/null || fail "failover --from-json FILE -j"
ok "failover --from-json FILE -j"

# 2. an unknown option, a missing value: one line naming it, exit 2, no usage
for c in inspect serve run analyze restore matrix sweep scale failover; do
	run $c --frobnicate
	[ "$RC" -eq 2 ] || fail "$c --frobnicate: exit $RC, want 2"
	[ "$(lines "$T/err")" -eq 1 ] || fail "$c --frobnicate: $(lines "$T/err") lines on stderr, want 1"
	grep -qx "bondcheck $c: unknown option '--frobnicate'; see \`bondcheck $c --help\`" "$T/err" ||
		fail "$c --frobnicate: '$(cat "$T/err")'"
	[ ! -s "$T/out" ] || fail "$c --frobnicate: stdout not empty"
done
ok "every command: an unknown option is one line with the --help hint, exit 2"
run run --peer
grep -qx "bondcheck run: option '--peer' expects a value; see \`bondcheck run --help\`" "$T/err" &&
	[ "$RC" -eq 2 ] || fail "run --peer: '$(cat "$T/err")'"
run inspect -jz
grep -qx "bondcheck inspect: unknown option '-z'; see \`bondcheck inspect --help\`" "$T/err" ||
	fail "inspect -jz: '$(cat "$T/err")'"
run run --json=yes
grep -q "option '--json' takes no value" "$T/err" || fail "run --json=yes: '$(cat "$T/err")'"
ok "a missing value, a short option in a cluster, a value to a flag: named"

# 3. input files: one line naming the file, exit 4
printf 'garbage\n' >"$T/garbage.json"
for c in run scale failover; do
	run $c --from-json /nonexistent.json
	[ "$RC" -eq 4 ] || fail "$c --from-json missing: exit $RC, want 4"
	grep -qx "bondcheck $c: --from-json /nonexistent.json: cannot open it: No such file or directory" "$T/err" ||
		fail "$c --from-json missing: '$(cat "$T/err")'"
	run $c --from-json "$T/garbage.json"
	[ "$RC" -eq 4 ] && [ "$(lines "$T/err")" -eq 1 ] &&
		grep -q "not a JSON document: unexpected character at line 1" "$T/err" ||
		fail "$c --from-json garbage: exit $RC, '$(cat "$T/err")'"
done
ok "run, scale, failover --from-json: a missing or garbage file is one line, exit 4"
run restore --journal "$T/garbage.json" --check
[ "$RC" -eq 4 ] || fail "restore --journal garbage: exit $RC, want 4 ($(cat "$T/err"))"
run inspect --replay "$T"
[ "$RC" -eq 4 ] || fail "inspect --replay of a folder that is no recording: exit $RC, want 4"
ok "a garbage journal, a folder that is no recording: exit 4"

# 4. the thing asked for, and what exists
run inspect --replay tests/data/recordings/no-bonds bond7
[ "$RC" -eq 3 ] && grep -q "no bond named 'bond7'; no bonds here in network namespace b. Is the bonding driver loaded" "$T/err" ||
	fail "inspect bond7 without bonds: '$(cat "$T/err")'"
ok "inspect NAME where there is no bond: names it, says there are none, the module hint"
mkdir "$T/journals" && : >"$T/journals/bond1.json"
BC_JOURNAL_DIR=$T/journals run restore bond9
grep -q "^bond9: no journal at $T/journals/bond9.json .*; bonds journaled here: bond1\$" "$T/out" ||
	fail "restore bond9: '$(cat "$T/out")'"
# sysfs of this host: the list depends on it, the form does not (nothing is sent:
# the slave is checked before the agent is reached)
run failover --peer 127.0.0.1 -p 1 --slave bc-no-such0 --allow-changes
[ "$RC" -eq 3 ] && grep -Eq "^bondcheck failover: --slave bc-no-such0: no such interface; (no bonds here|bonds here: [^ ]+ [(].*[)])\$" "$T/err" ||
	fail "failover --slave unknown: exit $RC '$(cat "$T/err")'"
ok "restore BOND and failover --slave NAME list what exists"

# 5. -j: the error object on stdout, the message on stderr too
run run --frobnicate -j
jq -e '.error == {"exit": 2, "kind": "usage", "message": "unknown option '"'"'--frobnicate'"'"'; see `bondcheck run --help`"}' \
	"$T/out" >/dev/null || fail "usage error -j: '$(cat "$T/out")'"
grep -q "unknown option" "$T/err" || fail "usage error -j: stderr lost the message"
run inspect --replay tests/data/recordings/no-bonds -j
[ "$RC" -eq 3 ] && jq -e '.error | .exit == 3 and .kind == "environment" and (.message | startswith("no bond found in network namespace b."))' \
	"$T/out" >/dev/null || fail "environment error -j: exit $RC '$(cat "$T/out")'"
run scale -j --from-json /nonexistent.json
[ "$RC" -eq 4 ] && jq -e '.error == {"exit": 4, "kind": "input", "message": "--from-json /nonexistent.json: cannot open it: No such file or directory"}' \
	"$T/out" >/dev/null || fail "input error -j: exit $RC '$(cat "$T/out")'"
run inspect -qj --from-proc /nonexistent/bond0
[ "$RC" -eq 4 ] && jq -e '.error.kind == "input"' "$T/out" >/dev/null || fail "-qj: '$(cat "$T/out")'"
run run --from-json /nonexistent.json
[ ! -s "$T/out" ] || fail "without -j, nothing on stdout"
ok "-j: usage, environment and input errors as {\"error\": ...} on stdout"
echo PASS
