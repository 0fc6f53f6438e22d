#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 15 item 7: scale's text says what was not restored.  A restore made
# to fail for real: a bridge br0 with ports p1 p2 (the host has no bonding
# driver; the journal handles any master) is journaled, p2 is taken down
# and p1 deleted, and `bondcheck restore -j` reports br0's slaves not
# restored.  That report, names mapped to a bond (br0 -> bond0, p1 -> eth2,
# p2 -> eth1), becomes the agent's restore in a copy of the saved scale
# document tests/data/scale/links-rr-reorder.json; `scale --from-json`
# must then name the agent's end, the field and the reason in the answer
# block and in the text.  The same without the vanished port: both ends
# restored.  With BC=<bondcheck>; needs root, ip and jq.
set -u
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok - $*"; }
[ "$(id -u)" -eq 0 ] || fail "needs root (a network namespace); found uid $(id -u)"
for t in ip jq; do command -v "$t" >/dev/null || fail "'$t' not found (tools/install-deps)"; done
BC=${BC:-}
[ -x "$BC" ] || fail "bondcheck binary not given or not executable: '$BC'"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
DOC=$SRC/tests/data/scale/links-rr-reorder.json
NS="tcli-sr$$"
WORK=$(mktemp -d "/tmp/$NS.XXXXXX")
trap 'ip netns del "$NS" 2>/dev/null; rm -rf "$WORK"' EXIT INT TERM

# restore_report VANISH: journal br0, change it (p2 down; p1 deleted when
# VANISH is 1), restore; the report, mapped to bond names, in $WORK/rep.json.
restore_report() {
	ip netns del "$NS" 2>/dev/null
	ip netns add "$NS" || fail "cannot create namespace $NS"
	ip -n "$NS" link add br0 type bridge || fail "bridge br0"
	for i in 1 2; do
		ip -n "$NS" link add p$i type veth peer name q$i || fail "veth p$i"
		ip -n "$NS" link set p$i master br0
		ip -n "$NS" link set q$i up
		ip -n "$NS" link set p$i up
	done
	ip -n "$NS" link set br0 up
	rm -f "$WORK/j.json"
	ip netns exec "$NS" "$BC" restore --save --journal "$WORK/j.json" br0 >/dev/null ||
		fail "restore --save br0"
	ip -n "$NS" link set p2 down
	[ "$1" = 1 ] && { ip -n "$NS" link del p1 || fail "deleting p1"; }
	ip netns exec "$NS" "$BC" restore --journal "$WORK/j.json" --timeout 2 --keep -j \
		>"$WORK/restore.json" 2>"$WORK/restore.err"
	RC=$?
	sed -e 's/br0/bond0/g; s/\bp1\b/eth2/g; s/\bp2\b/eth1/g' "$WORK/restore.json" |
		jq '.restores[0].report' >"$WORK/rep.json" || fail "no restore report: $(cat "$WORK/restore.err")"
}

# scale_text: the saved scale document with $WORK/rep.json as the agent's restore.
scale_text() {
	jq --slurpfile rep "$WORK/rep.json" \
		'.links.restore.agent = $rep[0] | .links.restore.ok = ($rep[0].ok and .links.restore.ok)' \
		"$DOC" >"$WORK/scale.json" || fail "jq on $DOC"
	COLUMNS=100 "$BC" scale --from-json "$WORK/scale.json" >"$WORK/out" 2>"$WORK/err"
}
# has PHRASE: the text holds PHRASE, with any run of spaces and line breaks
# read as one space (the prose wraps at 100 columns where the list it is in
# happens to reach them: the bridge's random MAC may or may not be set back)
norm() { tr '\n' ' ' | tr -s ' '; }
has() { norm <"$WORK/out" | grep -qF -- "$(printf '%s' "$1" | norm)" || fail "the text lacks '$1':
$(cat "$WORK/out")"; }

restore_report 1
[ "$RC" -ne 0 ] || fail "restore with p1 gone exited 0; expected a failure"
[ "$(jq -r '.ok' "$WORK/rep.json")" = false ] || fail "the restore report says ok"
ok "a restore fails for real: p1 vanished since the journal (exit $RC)"
scale_text
has "Restored     FAIL   the agent's bond0 not restored: bond0.slaves (slave eth2 no longer exists)"
has "  client: bond0 as its journal recorded it"
has "  agent: bond0 NOT restored; set back: "
has "bond0/eth1.admin_state set up"
has "    bond0.slaves: journal eth2 eth1, now eth1 (not restored: slave eth2 no longer exists)"
has "    bond0/eth2.admin_state: journal up, now absent"
has "  the agent was not restored: run \`bondcheck restore\` there"
grep -q "both ends were restored" "$WORK/out" && fail "the text says both ends were restored"
ok "scale's text names the agent's end, each field not restored and the reason"

restore_report 0
[ "$RC" -eq 0 ] || fail "restore of p2's admin state exited $RC: $(cat "$WORK/restore.err")"
scale_text
has "Restored     PASS   both ends: the client's bond0 and the agent's bond0 as journaled"
has "  agent: bond0 as its journal recorded it; set back: bond0/eth1.admin_state set up"
has "  both ends were restored"
ok "a restore that worked: both ends restored, with what was set back"
