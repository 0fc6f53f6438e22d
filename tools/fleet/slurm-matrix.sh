#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#SBATCH --job-name=bondcheck-matrix
#
# bondcheck matrix as a Slurm job (docs/fleet.md, "With Slurm"): one
# `bondcheck serve` agent per task, started as one job step with
# `srun --overlap` (so that it does not hold the allocation's CPUs against
# the next steps), then `bondcheck matrix` over the job's hosts from the
# batch host, then the agents are stopped.  Agents cannot outlive the job:
# Slurm ends its steps when the script ends.
#
#   sbatch -N 16 --ntasks-per-node=1 --export=ALL,BC_AUTH_KEY=/etc/bondcheck/key tools/fleet/slurm-matrix.sh
#
# The hosts are the job's nodes, `scontrol show hostnames "$SLURM_JOB_NODELIST"`,
# one task per node (--ntasks-per-node=1); the batch host, the first
# node, is also the controller.  Environment:
#   BC_AUTH_KEY     the agents' pre-shared key file, readable on every node
#                   (required; `bondcheck matrix --auth-key`)
#   BONDCHECK       the bondcheck binary (default: bondcheck, on PATH)
#   BC_MATRIX_ARGS  further matrix options, split on blanks (default: -t 5)
#   BC_PORT         the agents' control port (default 5301)
#   BC_HOSTS        the matrix's --hosts list (default: the job's nodes,
#                   comma-joined); give it when the nodes' test addresses
#                   are not their Slurm names
#   BC_NETNS        test form on one node (tests/fleet/slurm.sh): one
#                   network namespace per task, blank-separated; task
#                   SLURM_PROCID serves inside the (PROCID+1)-th, and the
#                   matrix runs inside the first, as the batch host is
#                   the first node.  One node has one hostname, so the
#                   tasks, not the nodes, are the hosts there.
#   BC_READY_S      seconds to wait for every agent to listen (default 20)
# The matrix document goes to standard output (the job's output file), its
# exit status is the job's (0 no error-level finding, 1 findings, 2 usage,
# 3 no pair could run; docs/matrix.md); 5 when the agents did not start.
set -u
bc=${BONDCHECK:-bondcheck}
port=${BC_PORT:-5301}
key=${BC_AUTH_KEY:?BC_AUTH_KEY: the agents\' key file is required}
: "${SLURM_JOB_ID:?not inside a Slurm job: submit with sbatch (or run under salloc)}"
ntasks=${SLURM_NTASKS:-${SLURM_JOB_NUM_NODES:-1}}
export BONDCHECK="$bc" BC_PORT="$port" BC_AUTH_KEY="$key" BC_NETNS="${BC_NETNS:-}"

# in_task CMD...: run CMD in this task's host: its namespace in the test
# form, else here (the task's node).  Passed to srun as a shell snippet,
# since the tasks of other nodes do not have this script.
in_task='if [ -n "$BC_NETNS" ]; then
	ns=; i=0
	for n in $BC_NETNS; do [ "$i" = "$SLURM_PROCID" ] && ns=$n; i=$((i + 1)); done
	[ -n "$ns" ] || { echo "task $SLURM_PROCID: no namespace in BC_NETNS ($BC_NETNS)" >&2; exit 1; }
	exec ip netns exec "$ns" "$0" "$@"
fi
exec "$0" "$@"'

if [ -z "${BC_HOSTS:-}" ]; then
	BC_HOSTS=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | paste -sd, -)
fi

# the agents: one step of $ntasks tasks, in the background
srun --overlap -n "$ntasks" sh -c "$in_task" "$bc" serve --port "$port" --auth-key "$key" &
agents=$!
trap 'kill "$agents" 2>/dev/null; wait "$agents" 2>/dev/null' EXIT

# wait until every task's agent listens: a step beside the agents' one
# (--overlap again), each task looking at its own host's sockets
srun --overlap -n "$ntasks" sh -c "$in_task" sh -c '
	i=0
	while ! ss -Hltn "sport = :$1" | grep -q .; do
		i=$((i + 1))
		[ "$i" -le $(($2 * 5)) ] || { echo "agent not listening on port $1 after $2 s" >&2; exit 1; }
		sleep 0.2
	done' ready "$port" "${BC_READY_S:-20}" ||
	{ echo "slurm-matrix: the agents did not start (job $SLURM_JOB_ID)" >&2; exit 5; }

# the matrix, from the batch host (the first namespace in the test form)
set -- "$bc" matrix --hosts "$BC_HOSTS" --port "$port" --auth-key "$key"
if [ -n "$BC_NETNS" ]; then
	# shellcheck disable=SC2086
	set -- ip netns exec ${BC_NETNS%% *} "$@"
fi
# shellcheck disable=SC2086
"$@" ${BC_MATRIX_ARGS:--t 5}
rc=$?

# stop the agents: srun passes SIGTERM on to every task
kill "$agents" 2>/dev/null
wait "$agents" 2>/dev/null
trap - EXIT
exit "$rc"
