# Functions the compiled scenario scripts call inside the testbed guest
# (sourced; POSIX sh).  bc_step runs a setup step and stops the scenario on
# failure; bc_expect runs a check, records failure and goes on; bc_done
# exits 0 only if every check passed.  Every message names the scenario line.

BC_FAILED=0
BC_CHECKS=0

bc_scenario() {
	BC_NAME=$1
	BC_FILE=$2
	BC_T0=$(date +%s)
	echo "scenario $BC_NAME ($BC_FILE) on $(uname -r)"
}

_el() { echo "+$(($(date +%s) - BC_T0))s"; }

bc_step() {
	_line=$1
	shift
	if ! _out=$("$@" 2>&1); then
		echo "SETUP FAILED at $BC_FILE:$_line ($(_el)): $*"
		[ -z "$_out" ] || echo "$_out" | sed 's/^/    /'
		exit 2
	fi
	[ -z "$_out" ] || echo "$_out"
}

bc_expect() {
	_line=$1
	_kind=$2
	shift 2
	BC_CHECKS=$((BC_CHECKS + 1))
	if _out=$("expect_$_kind" "$@" 2>&1); then
		echo "ok   $BC_FILE:$_line ($(_el)): $_kind $*${_out:+: $_out}"
	else
		echo "FAIL $BC_FILE:$_line ($(_el)): $_kind $*"
		echo "$_out" | sed 's/^/    /'
		BC_FAILED=$((BC_FAILED + 1))
	fi
}

bc_done() {
	echo "$BC_CHECKS checks, $BC_FAILED failed ($(_el))"
	[ "$BC_FAILED" -eq 0 ]
}

# ---- topology ------------------------------------------------------------

ns_create() { ip netns add "$1" && ip -n "$1" link set lo up; }

ns_sysctl() { ip netns exec "$1" sysctl -qw "$2"; }

# bond_create NS NAME [OPTION VALUE]...
bond_create() {
	_ns=$1
	_name=$2
	shift 2
	ip -n "$_ns" link add "$_name" type bond "$@"
}

bridge_create() { ip -n "$1" link add "$2" type bridge; }

# veth_pair NSA IFA NSB IFB, in one netlink request.  It runs inside NSA:
# rtnetlink looks the new name up in the caller's namespace, and the root
# namespace may hold an emulated NIC called eth0.
veth_pair() { ip -n "$1" link add "$2" type veth peer name "$4" netns "$3"; }

link_veth() { veth_pair "$@"; }

# The emulated NIC with MAC 52:54:00:<model>:<pair>:0<end> (see testbed nic_args).
nic_by_mac() {
	for _d in /sys/class/net/*; do
		[ "$(cat "$_d/address" 2>/dev/null)" = "$1" ] && { basename "$_d"; return 0; }
	done
	echo "no NIC with MAC $1 in the root namespace (is the NIC pool large enough?)" >&2
	return 1
}

# link_nic MODEL PAIR NSA IFA NSB IFB: move an emulated cable's two NICs
link_nic() {
	for _e in a b; do
		if [ $_e = a ]; then _ns=$3 _if=$4; else _ns=$5 _if=$6; fi
		_dev=$(nic_by_mac "52:54:00:$1:$2:0$_e") || return 1
		# a temporary unique name first: the target may hold the kernel's name already
		ip link set "$_dev" down &&
			ip link set "$_dev" name "bctmp$1$2$_e" &&
			ip link set "bctmp$1$2$_e" netns "$_ns" &&
			ip -n "$_ns" link set "bctmp$1$2$_e" name "$_if" || return 1
	done
}

# link_wire WIRENS NSA IFA NSB IFB: A <-> wa [WIRENS: ingress mirred both ways] wb <-> B
link_wire() {
	ip netns add "$1" && ip -n "$1" link set lo up &&
		veth_pair "$2" "$3" "$1" wa && veth_pair "$4" "$5" "$1" wb || return 1
	for _p in "wa wb" "wb wa"; do
		set -- "$1" $_p
		tc -n "$1" qdisc add dev "$2" handle ffff: ingress &&
			tc -n "$1" filter add dev "$2" parent ffff: matchall \
				action mirred egress redirect dev "$3" || return 1
	done
	ip -n "$1" link set wa up && ip -n "$1" link set wb up
}

# set_mtu MTU NS DEV [NS DEV]...
set_mtu() {
	_mtu=$1
	shift
	while [ $# -ge 2 ]; do
		ip -n "$1" link set "$2" mtu "$_mtu" || return 1
		shift 2
	done
}

# impair NS DEV RATE BURST DELAY JITTER LOSS REORDER DUPLICATE: tbf root, netem below it
impair() {
	_ns=$1 _dev=$2 _rate=$3 _burst=$4 _delay=$5 _jitter=$6 _loss=$7 _reorder=$8 _dup=$9
	_parent="root handle 1:"
	if [ -n "$_rate" ]; then
		tc -n "$_ns" qdisc add dev "$_dev" root handle 1: tbf rate "$_rate" burst "$_burst" \
			latency 200ms || return 1
		_parent="parent 1:1 handle 10:"
	fi
	_args=""
	[ -z "$_delay" ] || _args="$_args delay $_delay $_jitter"
	[ -z "$_loss" ] || _args="$_args loss $_loss"
	[ -z "$_reorder" ] || _args="$_args reorder $_reorder"
	[ -z "$_dup" ] || _args="$_args duplicate $_dup"
	[ -z "$_args" ] && return 0
	# shellcheck disable=SC2086
	tc -n "$_ns" qdisc add dev "$_dev" $_parent netem limit 10000 $_args
}

# links are still down here (they come up after enslaving), as bonding wants
enslave() { ip -n "$1" link set "$2" master "$3"; }

bond_primary() { ip -n "$1" link set "$2" type bond primary "$3"; }

up() { ip -n "$1" link set "$2" up; }

addr() { ip -n "$1" addr add "$3" dev "$2" nodad 2>/dev/null || ip -n "$1" addr add "$3" dev "$2"; }

cmd() { sh -c "$1"; }

# ---- checks ----------------------------------------------------------------

_proc() { ip netns exec "$1" cat "/proc/net/bonding/$2"; }

# poll CMD... until it succeeds or $BC_POLL seconds pass (default 15)
_poll() {
	_t=0
	while ! "$@" >/dev/null 2>&1; do
		_t=$((_t + 1))
		[ $_t -lt $((${BC_POLL:-15} * 2)) ] || return 1
		sleep 0.5
	done
}

_bond_is_up() {
	_proc "$1" "$2" | sed -n '/^MII Status:/{p;q}' | grep -q 'up$' &&
		[ "$(ip -n "$1" -j link show "$2" | jq -r '.[0].operstate')" = UP ]
}

expect_bond_up() {
	_poll _bond_is_up "$1" "$2" && return 0
	echo "bond $2 in $1 is not up: /proc says '$(_proc "$1" "$2" | sed -n '/^MII Status:/{p;q}')', operstate $(ip -n "$1" -j link show "$2" | jq -r '.[0].operstate')"
	return 1
}

_mode_from_proc() {
	case $(_proc "$1" "$2" | sed -n 's/^Bonding Mode: //p' | sed 's/ (fail_over_mac.*//') in
	"load balancing (round-robin)") echo balance-rr ;;
	"fault-tolerance (active-backup)") echo active-backup ;;
	"load balancing (xor)") echo balance-xor ;;
	"fault-tolerance (broadcast)") echo broadcast ;;
	"IEEE 802.3ad Dynamic link aggregation") echo 802.3ad ;;
	"transmit load balancing") echo balance-tlb ;;
	"adaptive load balancing") echo balance-alb ;;
	*) echo unknown ;;
	esac
}

expect_bond_mode() {
	_p=$(_mode_from_proc "$1" "$2")
	_n=$(ip -n "$1" -d -j link show "$2" | jq -r '.[0].linkinfo.info_data.mode')
	[ "$_p" = "$3" ] && [ "$_n" = "$3" ] && return 0
	echo "expected mode $3; /proc/net/bonding says $_p, ip -d -j link says $_n"
	return 1
}

expect_bond_slaves() {
	_ns=$1 _b=$2
	shift 2
	_want=$(echo "$@" | tr ' ' '\n' | sort | tr '\n' ' ')
	_procs=$(_proc "$_ns" "$_b" | sed -n 's/^Slave Interface: //p' | sort | tr '\n' ' ')
	_nl=$(ip -n "$_ns" -j link show master "$_b" | jq -r '.[].ifname' | sort | tr '\n' ' ')
	_down=$(_proc "$_ns" "$_b" | awk '/^Slave Interface:/{s=$3} s && /^MII Status:/{if ($3 != "up") print s; s=""}')
	[ "$_procs" = "$_want" ] && [ "$_nl" = "$_want" ] && [ -z "$_down" ] && return 0
	echo "expected slaves '$_want' all up; /proc lists '$_procs', netlink '$_nl', down: '$_down'"
	return 1
}

_lacp_ok() {
	_j=$(ip -n "$1" -d -j link show master "$2")
	_agg=$(ip -n "$1" -d -j link show "$2" | jq -r '.[0].linkinfo.info_data.ad_info.aggregator // "none"')
	[ "$_agg" != none ] || return 1
	echo "$_j" | jq -e --argjson st "$3" --argjson agg "$_agg" \
		'length > 0 and all(.[]; .linkinfo.info_slave_data.ad_aggregator_id == $agg
		 and .linkinfo.info_slave_data.ad_actor_oper_port_state == $st
		 and .linkinfo.info_slave_data.ad_partner_oper_port_state == $st)' >/dev/null
}

# lacp_state NS BOND STATE [SECONDS]: every slave in the active aggregator,
# actor and partner oper port state == STATE, within SECONDS (default 10)
expect_lacp_state() {
	BC_POLL=${4:-10} _poll _lacp_ok "$1" "$2" "$3" && return 0
	echo "not every slave of $2 reached actor/partner port state $3 in one aggregator within ${4:-10}s:"
	ip -n "$1" -d -j link show master "$2" | jq -c '.[] | {ifname, agg: .linkinfo.info_slave_data.ad_aggregator_id,
		actor: .linkinfo.info_slave_data.ad_actor_oper_port_state,
		partner: .linkinfo.info_slave_data.ad_partner_oper_port_state}'
	return 1
}

expect_lacp_no_partner() {
	_m=$(ip -n "$1" -d -j link show "$2" | jq -r '.[0].linkinfo.info_data.ad_info.partner_mac // "none"')
	_p=$(_proc "$1" "$2" | sed -n 's/^\tPartner Mac Address: //p')
	[ "$_m" = 00:00:00:00:00:00 ] && [ "$_p" = 00:00:00:00:00:00 ] && return 0
	echo "expected partner MAC 00:00:00:00:00:00; netlink ad_info says $_m, /proc says '$_p'"
	return 1
}

# drivers NS BOND DRIVER...: ethtool -i of each slave, in /proc (enslave) order
expect_drivers() {
	_ns=$1 _b=$2
	shift 2
	_got=""
	for _s in $(_proc "$_ns" "$_b" | sed -n 's/^Slave Interface: //p'); do
		_got="$_got $(ip netns exec "$_ns" ethtool -i "$_s" | sed -n 's/^driver: //p')"
	done
	[ "$_got" = " $*" ] && { echo "drivers:$_got"; return 0; }
	echo "expected drivers '$*'; ethtool -i gives '${_got# }'"
	return 1
}

# 3 replies within 15 s (the first may wait for ARP and a bridge learning)
expect_ping() { ip netns exec "$1" ping -c 3 -i 0.3 -w 15 "$2"; }

# rate with SI suffix -> bits/s
_si() {
	echo "$1" | awk '{v=$1; u=substr(v, length(v)); if (u ~ /[kKmMgG]/) v=substr(v,1,length(v)-1);
		m=1; if (u=="k"||u=="K") m=1e3; if (u=="m"||u=="M") m=1e6; if (u=="g"||u=="G") m=1e9; printf "%.0f", v*m}'
}

# one-off iperf3 server in NS; wait until it listens (TCG guests are slow to start it)
_iperf_server() {
	ip netns exec "$1" iperf3 -s -1 -D -I "/tmp/bc-iperf-$1.pid" >/dev/null 2>&1
	BC_POLL=10 _poll sh -c "ip netns exec '$1' ss -Hltn 'sport = :5201' | grep -q LISTEN"
}

# iperf_tcp CLIENT_NS SERVER_NS ADDR SECONDS MIN MAX (bits/s received, SI suffixes)
expect_iperf_tcp() {
	_iperf_server "$2"
	_j=$(ip netns exec "$1" iperf3 -J -c "$3" -t "$4" 2>&1)
	_r=$(echo "$_j" | jq -r '.end.sum_received.bits_per_second // "error"' 2>/dev/null)
	[ -n "$_r" ] && [ "$_r" != error ] || { echo "iperf3 failed: $(echo "$_j" | jq -r .error 2>/dev/null || echo "$_j")"; return 1; }
	echo "received $(_si "$_r" | awk '{printf "%.2f", $1/1e6}') Mbit/s"
	awk -v r="$_r" -v lo="$(_si "$5")" -v hi="$(_si "$6")" 'BEGIN { exit !(r >= lo && r <= hi) }'
}

# iperf_udp CLIENT_NS SERVER_NS ADDR SECONDS RATE MIN_LOSS% MAX_LOSS%
# iperf3's UDP test starts with a one-datagram handshake each way on the stream
# socket (iperf_udp_connect, a fixed 30 s SO_RCVTIMEO). When the netem loss under
# test eats one of those two datagrams, iperf3 fails with "unable to read from
# stream socket" before it has measured anything; that attempt says nothing about
# the loss asked for, so it is retried (at most 3 attempts, each one announced).
expect_iperf_udp() {
	_try=1
	while :; do
		_iperf_server "$2"
		_j=$(ip netns exec "$1" iperf3 -J -u -c "$3" -t "$4" -b "$5" 2>&1)
		_e=$(echo "$_j" | jq -r '.error // empty' 2>/dev/null)
		case $_e in
		*"stream socket"*) [ "$_try" -lt 3 ] || break ;;
		*) break ;;
		esac
		echo "attempt $_try: iperf3's UDP handshake was lost ($_e); retrying"
		[ -f "/tmp/bc-iperf-$2.pid" ] && kill "$(cat "/tmp/bc-iperf-$2.pid")" 2>/dev/null
		BC_POLL=10 _poll sh -c "! ip netns exec '$2' ss -Hltn 'sport = :5201' | grep -q LISTEN"
		_try=$((_try + 1))
	done
	_l=$(echo "$_j" | jq -r '.end.sum.lost_percent // "error"' 2>/dev/null)
	[ -n "$_l" ] && [ "$_l" != error ] || { echo "iperf3 failed: $(echo "$_j" | jq -r .error 2>/dev/null || echo "$_j")"; return 1; }
	echo "lost $_l % of $(echo "$_j" | jq -r '.end.sum.packets') datagrams"
	awk -v l="$_l" -v lo="$6" -v hi="$7" 'BEGIN { exit !(l >= lo && l <= hi) }'
}

# bondcheck's own verdicts: `bondcheck inspect -j BOND` run in NS ($BC_INSPECT_ARGS adds options)
_inspect_ids() {
	# shellcheck disable=SC2086
	ip netns exec "$1" bondcheck inspect -j ${BC_INSPECT_ARGS:-} "$2" >/tmp/bc-inspect.json 2>/tmp/bc-inspect.err
	[ $? -le 1 ] || { cat /tmp/bc-inspect.err; return 2; }
	jq -r --arg b "$2" '.bonds[] | select(.name == $b) | .findings[].id' /tmp/bc-inspect.json
}

# _has_id IDS ID: ID is one of the newline-separated IDS (ID* matches a prefix)
_has_id() {
	case $2 in
	*\*) echo "$1" | grep -q "^${2%\*}" ;;
	*) echo "$1" | grep -qx "$2" ;;
	esac
}

# findings NS:BOND ID...: every ID is among the findings (ID* matches a prefix)
expect_findings() {
	_ns=$1 _b=$2
	shift 2
	_ids=$(_inspect_ids "$_ns" "$_b") || { echo "bondcheck inspect failed: $_ids"; return 1; }
	_miss=""
	for _id in "$@"; do
		_has_id "$_ids" "$_id" || _miss="$_miss $_id"
	done
	echo "findings: $(echo $_ids)"
	[ -z "$_miss" ] || { echo "missing:$_miss"; return 1; }
}

# no_findings NS:BOND ID...: none of the IDs is among the findings (ID* = prefix)
expect_no_findings() {
	_ns=$1 _b=$2
	shift 2
	_ids=$(_inspect_ids "$_ns" "$_b") || { echo "bondcheck inspect failed: $_ids"; return 1; }
	_bad=""
	for _id in "$@"; do
		_has_id "$_ids" "$_id" && _bad="$_bad $_id"
	done
	echo "findings: $(echo $_ids)"
	[ -z "$_bad" ] || { echo "unexpected:$_bad"; return 1; }
}

expect_cmd() { sh -c "$1"; }

expect_cmd_fails() { ! sh -c "$1"; }
