#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 15 item 6: `bondcheck run` as a person sees it.  The quick suite
# runs over the loopback of a network namespace of its own (agent `serve`
# on 127.0.0.1 there, so no port of the host is used) inside tmux, on a
# pseudo-terminal of 80 x 24 (the classic size: a progress line wider than the terminal would wrap and leave its first part behind).  While it runs, the pane is polled: the
# progress line ("[i/n] test what, ~N s left", on stderr, a terminal) must
# appear and change.  At the end the whole scrollback (`capture-pane -p
# -S -`) must hold no progress line (cleared), and the answer block
# (Aggregation, UDP gap, Drivers) must be among the report's first 24
# lines.  With BC=<bondcheck>; needs root, ip and tmux.
set -u
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok - $*"; }
[ "$(id -u)" -eq 0 ] || fail "needs root (a network namespace, captures); found uid $(id -u)"
command -v ip >/dev/null || fail "'ip' not found (iproute2; tools/install-deps)"
command -v tmux >/dev/null || fail "'tmux' not found: install it (tools/install-deps installs tmux)"
BC=${BC:-}
[ -x "$BC" ] || fail "bondcheck binary not given or not executable: '$BC'"
BC=$(cd "$(dirname "$BC")" && pwd)/$(basename "$BC")
NS="tcli-tm$$"
SOCK="tcli-tm$$"
WORK=$(mktemp -d "/tmp/$NS.XXXXXX")
AGENT=""
cleanup() {
	tmux -L "$SOCK" kill-server 2>/dev/null
	[ -n "$AGENT" ] && kill "$AGENT" 2>/dev/null && wait "$AGENT" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

ip netns add "$NS" || fail "cannot create namespace $NS"
ip -n "$NS" link set lo up
ip netns exec "$NS" "$BC" serve --bind 127.0.0.1 -q 2>"$WORK/agent.log" &
AGENT=$!
for _ in $(seq 100); do
	ip netns exec "$NS" ss -ltn 2>/dev/null | grep -q "127.0.0.1:5301 " && break
	sleep 0.05
done
ip netns exec "$NS" ss -ltn | grep -q "127.0.0.1:5301 " ||
	fail "the agent did not listen on 127.0.0.1:5301: $(cat "$WORK/agent.log")"

# the suite in a pane of 80 x 24 (no login shell: the pane's first line is
# the run's); the exit status is written after it, and the pane stays
tmux -L "$SOCK" -f /dev/null new-session -d -s run -x 80 -y 24 \
	"env COLUMNS= ip netns exec $NS $BC run --peer 127.0.0.1 --quick; echo \"__exit \$?__\"; sleep 600" ||
	fail "tmux new-session failed"
tmux -L "$SOCK" set-option -t run history-limit 5000 >/dev/null

pane() { tmux -L "$SOCK" capture-pane -p -t run "$@"; }
progress='^\[[0-9]+/[0-9]+\] [a-z]'
seen=""
n_seen=0
done=0
# poll every 0.1 s (the quick suite takes about 10-20 s); give up after 180 s
for _ in $(seq 1800); do
	screen=$(pane 2>/dev/null) || fail "tmux capture-pane failed"
	line=$(printf '%s\n' "$screen" | grep -E "$progress" | tail -n 1)
	if [ -n "$line" ] && [ "$line" != "$seen" ]; then
		seen=$line
		n_seen=$((n_seen + 1))
		echo "# progress: $line"
	fi
	if printf '%s\n' "$screen" | grep -q '^__exit [0-9]*__$'; then
		done=1
		break
	fi
	sleep 0.1
done
[ "$done" = 1 ] || fail "the run did not end within 180 s; the pane shows:
$(pane)"
all=$(pane -S -)
printf '%s\n' "$all" >"$WORK/scrollback"
status=$(printf '%s\n' "$all" | sed -n 's/^__exit \([0-9]*\)__$/\1/p')
case "$status" in
0 | 1) ;;
*) fail "run exited $status (expected 0 or 1: a report); scrollback:
$all" ;;
esac
[ "$n_seen" -ge 1 ] || fail "no progress line ('[i/n] test what, ~N s left') was seen while the suite ran"
ok "the progress line appeared: $n_seen distinct line(s)"
[ "$n_seen" -ge 2 ] || fail "the progress line never changed (seen only: '$seen')"
ok "the progress line updated"
if printf '%s\n' "$all" | grep -nE "$progress|\[[0-9]+/[0-9]+\] " >"$WORK/left"; then
	fail "a progress line is left in the scrollback at the end:
$(cat "$WORK/left")"
fi
ok "no progress line is left at the end"
# the report: from the pane's first non-blank line to the exit marker
first=$(printf '%s\n' "$all" | grep -n -m1 . | cut -d: -f1)
for q in "Aggregation " "UDP gap " "Drivers "; do
	at=$(printf '%s\n' "$all" | grep -n -m1 "^$q" | cut -d: -f1)
	[ -n "$at" ] || fail "no '$q' answer line in the report; scrollback:
$all"
	rel=$((at - first + 1))
	[ "$rel" -le 24 ] || fail "the answer '$q' is on line $rel of the report, not among the first 24"
	echo "# '$q' on line $rel of the report"
done
ok "the answer block is among the first 24 lines of the report (exit $status)"
