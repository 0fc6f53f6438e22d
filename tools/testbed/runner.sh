# Sourced by tools/testbed/testbed: run scenarios in one boot.
# Needs: $top $out $build $kver $vmlinuz $moddir $timeout_s (may be empty).

run_scenarios() {
	sc=$build/bc-scenario
	# 1. validate everything before booting: a bad file fails fast, with its line
	if ! "$sc" check "$@" >/dev/null; then
		die scenario "invalid scenario file (see the FILE:LINE message above)"
	fi
	"$sc" nics "$@" >"$out/pool" || die scenario "bc-scenario nics failed"
	build_initramfs

	# 2. compile each scenario into its guest script
	list=$out/scenarios
	: >"$list"
	total=0
	for f in "$@"; do
		set -- $("$sc" info "$f")
		name=$1 limit=$2
		grep -q "^$name " "$list" && die scenario "two scenarios are named '$name' ($f)"
		rm -rf "${out:?}/$name"
		mkdir -p "$out/$name"
		"$sc" compile "$f" >"$out/$name/script.sh" || die scenario "cannot compile $f"
		echo "pending" >"$out/$name/status"
		echo "$name $limit" >>"$list"
		total=$((total + limit + 15))
	done
	[ -n "$timeout_s" ] || timeout_s=$((total + 90))

	# 3. the guest runner: one scenario after another, torn down in between
	{
		cat <<EOF
#!/bin/sh
export PATH=$build:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export BC_GUEST_LIB=$top/tools/testbed/guest-lib.sh
export BC_TESTBED=1 LC_ALL=C
O=/tmp/bc-out
pool_macs="$(pool_macs <"$out/pool")"
EOF
		cat <<'EOF'
# Process starts are expensive in a TCG guest (~0.1-0.4 s each), so the
# teardown uses shell builtins and one batch per tool.
teardown() {
	for ns in $(ip netns list | awk '{print $1}'); do
		for d in $(ip -n "$ns" -o link show | sed -n 's/^[0-9]*: \([^:@]*\)[:@].* master .*/\1/p'); do
			ip -n "$ns" link set "$d" nomaster 2>/dev/null
		done
	done
	ip -all netns delete 2>/dev/null
	# emulated NICs return to the root namespace asynchronously: wait for them
	t=0
	while :; do
		have=" $(cat /sys/class/net/*/address 2>/dev/null | tr '\n' ' ') "
		missing=""
		for m in $pool_macs; do
			case $have in *" $m "*) ;; *) missing="$missing $m" ;; esac
		done
		[ -z "$missing" ] && break
		t=$((t + 1))
		[ $t -lt 100 ] || { echo "teardown: NIC(s)$missing did not come back"; return 1; }
		sleep 0.1
	done
	[ -n "$pool_macs" ] || return 0
	# reset the pool NICs: one ip batch, one tc batch
	links=""
	for d in /sys/class/net/*; do
		[ -f "$d/address" ] || continue # bonding_masters is a file, not a device
		read -r a <"$d/address" || continue
		case " $pool_macs " in *" $a "*) links="$links ${d##*/}" ;; esac
	done
	for n in $links; do echo "link set $n down mtu 1500"; done | ip -force -batch - 2>/dev/null
	for n in $links; do echo "qdisc del dev $n root"; done | tc -force -batch - 2>/dev/null
	return 0
}
echo "guest: $(uname -r), $(nproc) CPUs"
while read -r name limit; do
	echo running >"$O/$name/status"
	s=$(date +%s)
	timeout -k 5 "$limit" sh "$O/$name/script.sh" >"$O/$name/log" 2>&1
	rc=$?
	case $rc in
	0) st=pass ;;
	124|137) st=timeout; echo "TIMEOUT: the scenario ran past its limit of ${limit}s" >>"$O/$name/log" ;;
	2) st=setup-error ;;
	*) st=fail ;;
	esac
	echo "$(( $(date +%s) - s ))" >"$O/$name/seconds"
	echo "$st" >"$O/$name/status"
	echo "guest: $name $st"
	teardown >>"$O/$name/log" 2>&1 || echo "teardown failed" >>"$O/$name/log"
done <"$O/scenarios"
sync
EOF
	} >"$out/guest.sh"

	boot "$out/pool" "$timeout_s"

	# 4. summary
	failed=0
	printf '%-36s %-12s %s\n' scenario status seconds
	while read -r name limit; do
		st=$(cat "$out/$name/status")
		printf '%-36s %-12s %s\n' "$name" "$st" "$(cat "$out/$name/seconds" 2>/dev/null || echo -)"
		if [ "$st" != pass ]; then
			failed=$((failed + 1))
			[ -n "${BC_QUIET_FAIL:-}" ] || sed 's/^/    /' "$out/$name/log" | tail -n 40
		fi
	done <"$list"
	echo "guest kernel $(cat "$out/kernel-release"), $accel; $failed of $(wc -l <"$list") scenarios not passed"
	[ "$failed" -eq 0 ]
}

# MACs of the pool's NICs, for teardown (see nic_args in testbed)
pool_macs() {
	while read -r model count; do
		case $model in e1000) mid=01 ;; rtl8139) mid=02 ;; virtio) mid=03 ;; *) continue ;; esac
		i=1
		while [ "$i" -le "$count" ]; do
			pi=$(printf '%02x' "$i")
			printf '52:54:00:%s:%s:0a 52:54:00:%s:%s:0b ' "$mid" "$pi" "$mid" "$pi"
			i=$((i + 1))
		done
	done
}
