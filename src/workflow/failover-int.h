/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private parts of `bondcheck failover` (workflow/failover-run.c, failover-ends.c). */
#ifndef BC_WORKFLOW_FAILOVER_INT_H
#define BC_WORKFLOW_FAILOVER_INT_H

#include <stdbool.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "bondcheck/failover-run.h"
#include "bondcheck/journal.h"
#include "bondcheck/model.h"

/* What the run found out and did. */
struct fo_setup {
	const struct bc_failover_run_cfg *c;
	char bond[BC_IFNAMSIZ];
	char slave[BC_IFNAMSIZ];
	int bond_mode, xmit_hash_policy;
	struct bc_fo_end client_end;
	/* the agent's bond, asked before the test (`inspect`); known false when it did not answer
	 */
	struct bc_fo_end agent_end;
	char agent_note[300]; /* why the agent's bond was not read before the test, or "" */
	/* per host (enum bc_fo_host): no other slave could take over before the cut */
	bool no_takeover[2], takeover_known[2];
	char takeover_why[2][240];
	struct sockaddr_storage local, peer; /* the test's addresses */
	enum bc_fo_cut cut;
	int64_t cut_at_ns; /* elapsed since the streams started */
	int64_t hold_ns, settle_ns;
	/* progress: cut started, cut in place, restore started, restored */
	bool cut_done, cut_in_place, restoring, restored;
	pid_t pid; /* a --cut-cmd / --restore-cmd running, or 0 */
	int64_t cut_in_place_mono, restored_mono;
	uint64_t cut_ns, restore_ns; /* CLOCK_REALTIME when each action began */
	uint64_t cut_took_ns, restore_took_ns;
	int64_t last_tick_mono, max_stall_ns; /* the control loop's longest pause */
	struct bc_journal *journal;	      /* the bond before the cut */
	char journal_path[4096];
};

/* The agent's bond configuration from run metadata (egress.bond.options, sysfs text). */
void fo_agent_end(struct json_object *res, struct bc_fo_end *e);
/* The same from an egress object (bc_egress_json(): the `inspect` reply's "egress"). */
void fo_agent_end_egress(struct json_object *egress, struct bc_fo_end *e);
/*
 * fo_agent_takeover() - from the agent's inspect document (@end: {"bonds":
 * [{"mode", "slaves": [{"name", "mii_status", "actor_port_state"}]}]}),
 * can the agent's bond lose a slave and go on?  At least two slaves MII up
 * (and, 802.3ad, collecting and distributing): the one facing the cut is not
 * known before the test.  1 yes, 0 no (@why), -1 not a bond or unreadable.
 */
int fo_agent_takeover(struct json_object *end, char *why, size_t len);
/* {bond, mode, miimon, ...} of one end; NULL when unknown. */
struct json_object *fo_end_json(const struct bc_fo_end *e);

/*
 * fo_analyze() - read DIR/client-*.pcap and DIR/agent-*.pcap as listed in
 * @res "capture", analyse with the events of @s; *@out = bc_failover_json()
 * plus "ends".  0 or -ENOMEM.
 */
int fo_analyze(const struct fo_setup *s, struct json_object *res, const char *dir,
	       struct json_object **out, struct bc_error *err);

/* /bin/sh -c @cmd, its output on stderr; 0 when it exits 0, else -EIO. */
int fo_run_cmd(const char *what, const char *cmd, struct bc_error *err);
/* Start /bin/sh -c @cmd without waiting: *@pid.  0 or -errno. */
int fo_spawn_cmd(const char *what, const char *cmd, pid_t *pid, struct bc_error *err);
/* 1 when @pid has exited with status 0, 0 while it runs, -EIO when it failed (@what, @cmd named).
 */
int fo_cmd_poll(const char *what, const char *cmd, pid_t pid, bool wait, struct bc_error *err);

#endif
