#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The installed tree of `cmake --install` (issue 16 item 6): the unit
# bondcheck-serve.service is in PREFIX/lib/systemd/system, names the
# installed binary, passes `systemd-analyze verify` without a single message
# (an unknown key or a bad value is only a warning there, exit 0: any output
# fails this test), its man page (Documentation=man:bondcheck(8), found
# through MANPATH in the installed tree), and keeps the hardening:
# `systemd-analyze security --offline` exposure at most 2.0, with the
# capabilities, NoNewPrivileges, the key credential and no --allow-changes.
# usage: systemd-unit.sh BUILD_DIR CMAKE      (no root needed)
set -u
build=$1
cmake=$2
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
command -v systemd-analyze >/dev/null ||
	{ echo "systemd-unit: systemd-analyze not found: run tools/install-deps (package systemd)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
"$cmake" --install "$build" --prefix "$root" >"$tmp/install.log" 2>&1 ||
	{ echo "systemd-unit: cmake --install failed:"; cat "$tmp/install.log"; exit 1; }
unit=$root/lib/systemd/system/bondcheck-serve.service
[ -f "$unit" ] || { echo "systemd-unit: $unit not installed:"; cat "$tmp/install.log"; exit 1; }
for f in "$root/sbin/bondcheck" "$root/share/man/man8/bondcheck.8" \
	"$root/share/doc/bondcheck/examples/bondcheck.default"; do
	[ -f "$f" ] || fail "not installed: ${f#"$root"/}"
done

# ExecStart names the binary of this tree, with the key from the credential
exec_line=$(sed -n 's/^ExecStart=//p' "$unit")
want="$root/sbin/bondcheck serve --auth-key %d/auth-key \$BONDCHECK_SERVE_OPTS"
[ "$exec_line" = "$want" ] || fail "ExecStart: got '$exec_line', want '$want'"
grep -qx 'LoadCredential=auth-key:/etc/bondcheck/auth.key' "$unit" ||
	fail "no LoadCredential=auth-key:/etc/bondcheck/auth.key"
case $exec_line in *--allow-changes*) fail "--allow-changes in ExecStart" ;; esac
grep -qx 'BONDCHECK_SERVE_OPTS=' "$root/share/doc/bondcheck/examples/bondcheck.default" ||
	fail "examples/bondcheck.default does not leave BONDCHECK_SERVE_OPTS empty"
for kv in 'NoNewPrivileges=yes' 'AmbientCapabilities=CAP_NET_RAW CAP_NET_ADMIN CAP_BPF CAP_PERFMON' \
	'CapabilityBoundingSet=CAP_NET_RAW CAP_NET_ADMIN CAP_BPF CAP_PERFMON' 'DynamicUser=yes' \
	'RestrictAddressFamilies=AF_INET AF_INET6 AF_NETLINK AF_PACKET AF_UNIX'; do
	grep -qx "$kv" "$unit" || fail "no '$kv' in the unit"
done

# verify: exit 0 and silent (a warning is a failure here)
(cd "$tmp" && MANPATH=$root/share/man systemd-analyze verify "$unit") >"$tmp/verify.out" 2>&1
rc=$?
if [ "$rc" != 0 ] || [ -s "$tmp/verify.out" ]; then
	fail "systemd-analyze verify: exit $rc:"
	cat "$tmp/verify.out"
else
	echo "ok   systemd-analyze verify $unit: exit 0, no message"
fi
# the same check must fail on a unit with a typo (the test can see a warning)
sed 's/^NoNewPrivileges=yes/NoNewPrivilege=yes/' "$unit" >"$tmp/bondcheck-serve.service"
(cd "$tmp" && MANPATH=$root/share/man systemd-analyze verify "$tmp/bondcheck-serve.service") \
	>"$tmp/verify-typo.out" 2>&1
grep -q "Unknown key" "$tmp/verify-typo.out" ||
	fail "systemd-analyze verify said nothing of a misspelt key: $(cat "$tmp/verify-typo.out")"

# exposure (0 = fully sandboxed, 10 = none): 1.8 when written
systemd-analyze security --offline=yes --threshold=20 "$unit" >"$tmp/security.out" 2>&1
rc=$?
level=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$tmp/security.out")
if [ "$rc" != 0 ] || [ -z "$level" ]; then
	fail "systemd-analyze security: exposure '${level:-?}' above 2.0 or not measured (exit $rc):"
	grep '✗' "$tmp/security.out"
else
	echo "ok   systemd-analyze security --offline: exposure $level (at most 2.0)"
fi

[ "$fails" = 0 ] || { echo "systemd-unit: $fails failure(s)"; exit 1; }
echo "systemd-unit: ok"
