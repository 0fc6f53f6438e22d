#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bondcheck matrix as a Slurm job (issue 16 item 2), with a real Slurm: this
# test starts a single-node cluster of its own on localhost (munged,
# slurmctld, slurmd; its own munge key, slurm.conf, ports, state and spool
# directories in a temporary directory, so that it neither uses nor
# disturbs a Slurm or munge of the machine) and submits
# tools/fleet/slurm-matrix.sh with sbatch.  One node has one hostname, so
# the job's `srun -n 4` tasks are the hosts: task SLURM_PROCID serves in
# network namespace bcsl-h(PROCID+1), behind one bridge (10.77.16.N/24,
# each link shaped to 40 Mbit/s), bcsl-h4 at MTU 9000 where the bridge
# carries 1500.  The matrix must run all 12 ordered pairs and name
# bcsl-h4's address, and only it, in host-mtu-mismatch; afterwards no agent
# may be left in any namespace, and no daemon of this test anywhere
# (trap, on every exit).
# usage: slurm.sh BONDCHECK SOURCE_DIR      (root: namespaces, daemons)
set -u
bc=$1
src=$2
job=$src/tools/fleet/slurm-matrix.sh
fails=0
ctlport=26817
dport=26818
nets="bcsl-h1 bcsl-h2 bcsl-h3 bcsl-h4"

fail() { echo "slurm: $*"; exit 1; }
for t in slurmctld slurmd sbatch srun scontrol sinfo; do
	command -v "$t" >/dev/null ||
		fail "$t not found: run tools/install-deps (packages slurm-wlm, munge)"
done
for t in munged mungekey; do
	command -v "$t" >/dev/null || fail "$t not found: run tools/install-deps (package munge)"
done
for t in ip tc ss jq; do
	command -v "$t" >/dev/null || fail "$t not found: run tools/install-deps"
done
[ "$(id -u)" = 0 ] || fail "must run as root (it creates network namespaces and runs slurmd as root)"
for p in $ctlport $dport; do
	[ -z "$(ss -Hltn "sport = :$p")" ] ||
		fail "TCP port $p is in use (another run of this test, or a Slurm on it): $(ss -Hltnp "sport = :$p")"
done

t0=$(date +%s)
secs() { echo "$(($(date +%s) - t0)) s"; }
tmp=$(mktemp -d /tmp/bcsl.XXXXXX) || exit 1
chmod 711 "$tmp"
export SLURM_CONF="$tmp/slurm.conf"

# alive PID: the process exists and is not a zombie (the daemons' parent
# is init, which may reap them late)
alive() { [ -r "/proc/$1/stat" ] && ! sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | grep -q '^Z'; }

# stop NAME:PID...: SIGTERM to each daemon, SIGKILL to those alive after
# 5 s (and says so), then reaps them.  The daemons run in the foreground as
# this script's children, so that they also die with its process tree.
stop() {
	for d in "$@"; do kill "${d#*:}" 2>/dev/null; done
	for _ in $(seq 50); do
		left=
		for d in "$@"; do alive "${d#*:}" && left="$left $d"; done
		[ -z "$left" ] && break
		sleep 0.1
	done
	for d in $left; do
		echo "slurm: ${d%%:*} (pid ${d#*:}) ignored SIGTERM for 5 s: SIGKILL"
		kill -9 "${d#*:}" 2>/dev/null
	done
	for d in "$@"; do wait "${d#*:}" 2>/dev/null; done
}
munged='' slurmctld='' slurmd=''
cleanup() {
	set --
	[ -n "$slurmd" ] && set -- "$@" "slurmd:$slurmd"
	[ -n "$slurmctld" ] && set -- "$@" "slurmctld:$slurmctld"
	[ "$#" = 0 ] || stop "$@"
	[ -z "$munged" ] || stop "munged:$munged"
	for ns in $nets bcsl-sw; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p"; done
		ip netns del "$ns" 2>/dev/null
	done
	if [ "$fails" != 0 ] || [ -n "${BC_KEEP_LOGS:-}" ]; then
		for f in "$tmp"/log/*.log "$tmp"/job.*; do
			[ -s "$f" ] && { echo "--- $f (last lines)"; tail -n 15 "$f"; }
		done
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'fails=$((fails + 1)); exit 1' INT TERM HUP

# the hosts: namespaces behind one bridge, as tests/netns/matrix.sh builds them
ip netns add bcsl-sw || fail "ip netns add bcsl-sw failed"
ip -n bcsl-sw link add br0 type bridge && ip -n bcsl-sw link set br0 up || fail "bridge in bcsl-sw"
n=0
for ns in $nets; do
	n=$((n + 1))
	ip netns add "$ns" || fail "ip netns add $ns failed"
	ip -n "$ns" link set lo up
	ip link add name e0 netns "$ns" type veth peer name "p$n" netns bcsl-sw || fail "veth $ns"
	ip -n bcsl-sw link set "p$n" master br0 up
	ip -n "$ns" addr add "10.77.16.$n/24" dev e0
	ip -n "$ns" link set e0 up
	tc -n "$ns" qdisc add dev e0 root tbf rate 40mbit burst 64kb latency 50ms || fail "tbf in $ns"
done
ip -n bcsl-h4 link set e0 mtu 9000 || fail "MTU 9000 in bcsl-h4"
head -c 32 /dev/urandom | base64 >"$tmp/bc.key"

# munge: a key and a daemon of this test's own, on its own socket
mkdir -m 700 "$tmp/munge" "$tmp/log" "$tmp/state" "$tmp/spool"
mungekey --create --keyfile="$tmp/munge/munge.key" || fail "mungekey --create failed"
munged -F --force --socket="$tmp/munge/socket" --key-file="$tmp/munge/munge.key" \
	--pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/seed" \
	--log-file="$tmp/log/munged.log" 2>>"$tmp/log/munged.log" &
munged=$!
i=0
until [ -S "$tmp/munge/socket" ]; do
	i=$((i + 1))
	[ "$i" -le 50 ] && alive "$munged" || { fails=1; fail "munged did not start"; }
	sleep 0.1
done

# slurm.conf: one node, localhost, with the CPUs slurmd finds on this machine
hw=$(slurmd -C | sed -n 's/^NodeName=[^ ]* \(.*\) RealMemory=.*/\1/p')
[ -n "$hw" ] || fail "slurmd -C printed no node line: $(slurmd -C 2>&1)"
cat >"$SLURM_CONF" <<EOF
ClusterName=bcsl
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctlport
SlurmdPort=$dport
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
PlugStackConfig=$tmp/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=6
MailProg=/bin/true
NodeName=localhost NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=bcsl Nodes=localhost Default=YES MaxTime=5 State=UP
EOF
: >"$tmp/plugstack.conf"
slurmctld -D 2>>"$tmp/log/slurmctld.log" &
slurmctld=$!
slurmd -D -N localhost 2>>"$tmp/log/slurmd.log" &
slurmd=$!
i=0
until [ "$(sinfo -h -n localhost -o %T 2>/dev/null)" = idle ]; do
	i=$((i + 1))
	[ "$i" -le 100 ] && alive "$slurmctld" && alive "$slurmd" ||
		{ fails=1; fail "the node did not become idle in 20 s: $(sinfo 2>&1)"; }
	sleep 0.2
done
echo "ok   single-node Slurm up: $(sinfo -h -o '%P %D %T %c CPUs') ($(secs))"

# the job: 4 tasks on the node's CPUs (-O: more tasks than CPUs), one per
# namespace; the matrix in the first, as from the batch host
BONDCHECK=$bc BC_AUTH_KEY=$tmp/bc.key BC_NETNS=$nets \
	BC_HOSTS=10.77.16.1,10.77.16.2,10.77.16.3,10.77.16.4 BC_MATRIX_ARGS="-t 1 --concurrency 2 -j" \
	timeout 90 sbatch --wait -n 4 -O -t 2 \
	-o "$tmp/job.out" -e "$tmp/job.err" "$job" >"$tmp/sbatch.out" 2>&1
rc=$?
[ "$rc" = 1 ] || { echo "FAIL sbatch --wait: exit $rc, expected the matrix's 1 (host-mtu-mismatch): $(cat "$tmp/sbatch.out")"; fails=$((fails + 1)); }
out=$tmp/job.out
if ! [ -s "$out" ] || ! jq -e .pairs "$out" >/dev/null 2>&1; then
	echo "FAIL the job printed no matrix document"
	fails=$((fails + 1))
else
	got=$(jq -c '[[.hosts[] | "\(.name) \(.status)"],
		([.pairs[] | select(.status == "ok")] | length),
		[.findings[] | select(.id == "host-mtu-mismatch") | .subject]]' "$out")
	want='[["10.77.16.1 ok","10.77.16.2 ok","10.77.16.3 ok","10.77.16.4 ok"],12,["10.77.16.4"]]'
	if [ "$got" = "$want" ]; then
		echo "ok   matrix in the job: 4 agents reached, 12 pairs ok, host-mtu-mismatch on 10.77.16.4 alone ($(secs))"
	else
		echo "FAIL matrix in the job: got  $got"
		echo "                        want $want"
		fails=$((fails + 1))
	fi
fi
# the agents were the job's: gone with it
for ns in $nets; do
	left=$(ip netns pids "$ns")
	[ -z "$left" ] || { echo "FAIL agent left in $ns after the job: $(ps -o pid=,args= -p "$left")"; fails=$((fails + 1)); }
done
[ "$fails" = 0 ] && echo "slurm: all checks passed ($(secs))"
[ "$fails" = 0 ]
