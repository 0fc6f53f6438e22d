#!/bin/sh
# Real-bond restore in the testbed (test-scenarios/restore-8023ad.scn):
#   restore-check.sh local NS BOND      journal, change mode/membership/order/
#                                       primary/queue id/MTU/MAC/options/admin
#                                       state by hand, `bondcheck restore`
#   restore-check.sh agent CLIENT_NS NS PEER BOND
#                                       change session from CLIENT_NS to the
#                                       agent in NS at PEER, SIGKILL the
#                                       agent, restore there
#   restore-check.sh primary NS BOND    active-backup: primary, order, queue id
# The state is compared with iproute2's own view (ip -d -j link and
# /proc/net/bonding order), not bondcheck's.
set -u
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok - $*"; }
tool=$(dirname "$(command -v bondcheck)")/tests/netns/bc-journal-tool
[ -x "$tool" ] || fail "bc-journal-tool not built next to bondcheck ($tool)"
export BC_JOURNAL_DIR=/tmp/bc-journal
O=/tmp/bc-out/restore-check
mkdir -p "$O"

# summary NS BOND: the promised fields as iproute2 reports them, one JSON
# document (three processes: a TCG guest pays ~0.3 s per process start)
summary() {
	order=$(ip netns exec "$1" sed -n 's/^Slave Interface: //p' /proc/net/bonding/"$2" | tr '\n' ' ')
	ip -n "$1" -d -j link show | jq -S --arg b "$2" --arg order "$order" '
		($order | split(" ") | map(select(. != ""))) as $o |
		(map({key: .ifname, value: .}) | from_entries) as $by |
		[$by[$b] | {name: .ifname, mtu, address, up: (.flags | index("UP") != null),
			opts: (.linkinfo.info_data | del(.ad_info) | del(.active_slave))}] +
		[$o[] | $by[.] | {name: .ifname, mtu, address, up: (.flags | index("UP") != null),
			queue_id: .linkinfo.info_slave_data.queue_id,
			prio: .linkinfo.info_slave_data.prio}]'
}

# in_sync NS BOND: every slave's actor and partner port state has 0x38 (sync, collecting, distributing)
in_sync() {
	ip -n "$1" -d -j link show master "$2" | jq -e 'length > 0 and all(.[];
		(.linkinfo.info_slave_data.ad_actor_oper_port_state // 0) as $a |
		(.linkinfo.info_slave_data.ad_partner_oper_port_state // 0) as $p |
		($a / 8 | floor) % 8 == 7 and ($p / 8 | floor) % 8 == 7)' >/dev/null
}

# Process starts dominate a TCG guest's time: every change is one `ip -batch`,
# every check one jq over the restore's JSON.
case_local() {
	ns=$1 b=$2
	summary "$ns" "$b" >"$O/local-before.json"
	in_sync "$ns" "$b" || fail "LACP not in sync before the test"
	ip netns exec "$ns" bondcheck restore -q --save "$b" || fail "restore --save $b"
	# every promised field changed by hand, the mode too (it needs no slaves, bond down)
	ip -n "$ns" -batch - <<-EOF || fail "the changes by hand failed"
	link set $b down
	link set eth0 nomaster
	link set eth1 nomaster
	link set eth2 nomaster
	link set $b type bond mode active-backup miimon 200 updelay 400
	link set eth2 master $b
	link set eth0 master $b
	link set $b type bond primary eth0 num_grat_arp 3
	link set eth0 type bond_slave queue_id 3
	link set $b mtu 1400 address 02:00:00:00:aa:01
	link set $b up
	link set eth2 down
	EOF
	ip netns exec "$ns" bondcheck restore --timeout 40 -j "$b" >"$O/local-restore.json" 2>"$O/local-restore.err"
	rc=$?
	[ $rc -eq 0 ] || fail "bondcheck restore exit $rc: $(cat "$O/local-restore.err") $(jq -c '.restores[0].report.fields[] | select(.ok | not)' "$O/local-restore.json")"
	ok "bondcheck restore exit 0 after mode/membership/order/primary/queue id/MTU/MAC/admin changes"
	jq -e --arg b "$b" '.restores[0].report | (.fields | map({key: .field, value: .}) | from_entries) as $f |
		$f[$b + ".mode"].before == "active-backup" and $f[$b + ".mode"].after == "802.3ad" and
		$f[$b + ".slaves"].before == "eth2 eth0" and $f[$b + ".slaves"].after == "eth0 eth1 eth2" and
		$f[$b + ".mtu"].before == "1400" and $f[$b + "/eth2.admin_state"].before == "down" and
		([.fields[] | select(.action != "none")] | length) >= 8' "$O/local-restore.json" >/dev/null ||
		fail "the report does not show what was changed: $(jq -c '[.restores[0].report.fields[] | select(.action != "none")]' "$O/local-restore.json")"
	ok "the report lists mode active-backup -> 802.3ad, slaves 'eth2 eth0' -> 'eth0 eth1 eth2', MTU, admin state"
	summary "$ns" "$b" >"$O/local-after.json"
	diff -u "$O/local-before.json" "$O/local-after.json" || fail "iproute2 sees a difference after restore"
	ok "iproute2's view (options, enslave order, queue ids, MTU, MAC, admin) equals the one before"
	in_sync "$ns" "$b" || fail "restore returned 0 but LACP is not in sync"
	ok "LACP back in sync on every slave (actor and partner 0x38) after $(jq '.restores[0].report.waited_ms' "$O/local-restore.json") ms"
}

case_agent() {
	client=$1 ns=$2 peer=$3 b=$4
	pid=$(cat /tmp/bc-out/restore-serve.pid)
	summary "$ns" "$b" >"$O/agent-before.json"
	ip netns exec "$client" "$tool" peer "$peer" - "$b" down:eth1 mtu:"$b":1400 hold >"$O/agent-session.out" 2>&1 &
	cp=$!
	i=0
	while kill -0 "$cp" 2>/dev/null && [ $i -lt 60 ]; do
		case $(cat "$O/agent-session.out") in *'"step":"mtu:'*) break ;; esac
		sleep 0.5
		i=$((i + 1))
	done
	jq -e -s '[.[] | select(.rc == 0) | .step] == ["open", "journal", "down:eth1", "mtu:'"$b"':1400"]' \
		"$O/agent-session.out" >/dev/null || fail "change session: $(cat "$O/agent-session.out")"
	ok "the agent journaled $b and took eth1 down, MTU 1400, each after waiting for stability"
	kill -KILL "$pid"
	kill "$cp" 2>/dev/null
	wait "$cp" 2>/dev/null
	ip netns exec "$ns" bondcheck restore --timeout 40 -j >"$O/agent-restore.json" 2>"$O/agent-restore.err"
	rc=$?
	[ $rc -eq 0 ] || fail "bondcheck restore in $ns exit $rc: $(cat "$O/agent-restore.err")"
	# only what the session changed is acted on: the options of a real bond
	# restore without spurious actions (idempotent)
	jq -e --arg b "$b" '.restores[0].report | (.fields | map({key: .field, value: .}) | from_entries) as $f |
		$f[$b + "/eth1.admin_state"].before == "down" and $f[$b + ".mtu"].before == "1400" and
		([.fields[] | select(.action != "none") | .field] - [$b + "/eth1.admin_state", $b + ".mtu",
			$b + "/eth0.mtu", $b + "/eth1.mtu", $b + "/eth2.mtu"] == [])' \
		"$O/agent-restore.json" >/dev/null ||
		fail "unexpected restore actions: $(jq -c '[.restores[0].report.fields[] | select(.action != "none") | {field, before, action}]' "$O/agent-restore.json")"
	ok "the restore acted only on eth1's admin state and the MTUs (no spurious option changes)"
	summary "$ns" "$b" >"$O/agent-after.json"
	diff -u "$O/agent-before.json" "$O/agent-after.json" || fail "difference after the restore"
	in_sync "$ns" "$b" || fail "LACP not back in sync"
	ok "after SIGKILL of the agent, bondcheck restore in $ns put $b back and LACP is in sync"
}

# the bond as active-backup with primary eth1 and a queue id, journaled, then changed
case_primary() {
	ns=$1 b=$2
	ip -n "$ns" -batch - <<-EOF || fail "active-backup setup failed"
	link set $b down
	link set eth0 nomaster
	link set eth1 nomaster
	link set eth2 nomaster
	link set $b type bond mode active-backup
	link set eth0 master $b
	link set eth1 master $b
	link set eth2 master $b
	link set $b type bond primary eth1
	link set eth2 type bond_slave queue_id 5
	link set $b up
	EOF
	ip netns exec "$ns" bondcheck restore -q --save "$b" || fail "restore --save"
	ip -n "$ns" -batch - <<-EOF || fail "the changes by hand failed"
	link set $b type bond primary eth2 miimon 50
	link set eth1 nomaster
	link set eth1 master $b
	link set eth2 type bond_slave queue_id 0
	EOF
	ip netns exec "$ns" bondcheck restore --timeout 20 -j "$b" >"$O/ab-restore.json" 2>"$O/ab-restore.err" ||
		fail "restore: $(cat "$O/ab-restore.err")"
	jq -e --arg b "$b" '.restores[0].report | (.fields | map({key: .field, value: .}) | from_entries) as $f |
		$f[$b + ".primary"].before == "eth2" and $f[$b + ".slaves"].before == "eth0 eth2 eth1" and
		$f[$b + "/eth2.queue_id"].before == "0" and $f[$b + ".miimon"].before == "50"' \
		"$O/ab-restore.json" >/dev/null || fail "the report does not show the changes: $(cat "$O/ab-restore.json")"
	# iproute2 and /proc, not bondcheck, say what the bond is now
	summary "$ns" "$b" | jq -e '.[0].opts.primary == "eth1" and .[0].opts.miimon == 100 and
		([.[1:][] | .name] == ["eth0", "eth1", "eth2"]) and .[3].queue_id == 5' >/dev/null ||
		fail "after the restore iproute2 shows: $(summary "$ns" "$b" | jq -c .)"
	ok "active-backup: primary eth2 -> eth1, order 'eth0 eth2 eth1' -> 'eth0 eth1 eth2', queue id 0 -> 5, miimon 50 -> 100 (iproute2's view)"
}

case "${1:-}" in
local) case_local "$2" "$3" ;;
agent) case_agent "$2" "$3" "$4" "$5" ;;
primary) case_primary "$2" "$3" ;;
*) fail "usage: restore-check.sh local|agent|primary ..." ;;
esac
