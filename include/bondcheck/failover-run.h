/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `bondcheck failover`: take one slave of the local bond down under a
 * paced UDP stream in both directions, bring it back after a hold, and
 * measure what the streams saw (bondcheck/failover.h); docs/failover.md.
 *
 * Sequence: read the bond (collector) and check that the route to the
 * agent leaves by it; journal the bond; run the traffic engine's --bidir
 * UDP test (with @tcp, plus one paced TCP stream client -> agent) with capture on every slave of both ends (plan member
 * capture_neigh: the hosts' gratuitous ARPs and NAs too); pre_ms after the
 * streams start, cut the slave (admin down; or run @cut_cmd for a silent
 * cut); hold_ms later bring it back (admin up; or @restore_cmd); keep the
 * streams going settle_ms to see the recovery; restore the bond from the
 * journal; attribute both ends' captures.
 *
 * The bond is journaled (bondcheck/journal.h, $BC_JOURNAL_DIR) before the
 * cut and restored from the journal on every exit path of this function
 * (errors and *@interrupted alike; bc_journal_restore() also waits until the
 * bond is stable, LACP in sync); after a crash `bondcheck restore` does it
 * from the journal.  A silent cut's @restore_cmd is run on every path once
 * @cut_cmd ran; it is not journaled.
 */
#ifndef BONDCHECK_FAILOVER_RUN_H
#define BONDCHECK_FAILOVER_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/client.h"
#include "bondcheck/error.h"
#include "bondcheck/failover.h"

struct bc_failover_run_cfg {
	struct bc_client_cfg client; /* peer, port, family, key, connect timeout */
	const char *slave;	     /* the local slave to cut */
	uint32_t rate_pps;	     /* datagrams/s per direction, all streams together */
	uint32_t length;	     /* UDP payload bytes (>= 32, the test header) */
	/* --tcp: one TCP stream client -> agent alongside the UDP streams (plan
	 * member tcp_streams), paced at tcp_rate_bps (payload bits/s, 0 unpaced) */
	bool tcp;
	uint64_t tcp_rate_bps;
	uint32_t pre_ms;	     /* streams before the cut */
	uint32_t hold_ms;	     /* 0: 2000, or the configuration's worst detection + 1000 */
	uint32_t settle_ms;	     /* after the restore; 0: from the configuration */
	enum bc_fo_cut cut;
	const char *cut_cmd, *restore_cmd;  /* silent cut: shell commands (/bin/sh -c) */
	const char *keep_pcaps;		    /* keep the pcaps here; NULL: a temporary folder */
	const char *plot_dir;		    /* --plot DIR, or NULL */
	volatile sig_atomic_t *interrupted; /* set by the caller's SIGINT/SIGTERM handler */
	/* progress for a TTY: called with one short line ("cut eth0") */
	void (*progress)(void *ctx, const char *line);
	void *ctx;
};

void bc_failover_run_defaults(struct bc_failover_run_cfg *c);

/*
 * bc_failover_run() - run it.  Returns 0 and the document in *@out (kind
 * "failover": the bc_failover_json() members plus peer, bond, slave,
 * rate_pps, length, pre_ms, hold_ms, settle_ms, cut_cmd, restore_cmd,
 * "ends" {client, agent: the configurations compared}, "restore" {ok,
 * text, journal, commands[], report (bc_journal_restore()'s)}, "plots",
 * "elapsed", "run" (the traffic engine's result), "notes"); or
 *   -ENODEV   @slave is not a slave of a bond, or not up;
 *   -EEXIST   an earlier journal of the bond was never restored (run
 *             `bondcheck restore` first); other journal errors (-EACCES,
 *             -EROFS: set $BC_JOURNAL_DIR);
 *   -EINVAL   a usage problem found once the bond is known (the route to the
 *             agent does not leave by that bond; a silent cut without
 *             commands); the message names the option;
 *   -EINTR    *@interrupted was set: streams stopped, bond restored;
 *   -EIO      the slave could not be restored (the message says how to
 *             restore it by hand);
 *   the errors of bc_client_run() for the agent and the test.
 * @err says which.  *@out may be set with -EIO (the measurement is valid,
 * the restore failed).
 */
int bc_failover_run(const struct bc_failover_run_cfg *c, struct json_object **out,
		    struct bc_error *err);

/*
 * bc_failover_plot() - @dir/failover-timeline.svg (bc_plot_failover_timeline)
 * from a failover document (its timeline, events, cut.cut_ns,
 * cut.restore_ns, cut.restore_done_ns, settle_ms), from 0.5 s before the
 * cut to at most 1.5 s after the restore (its command's end); @dir is created (one level) when
 * missing; adds "plots": {"failover-timeline": path} to @doc.  0 or the plot layer's -errno
 * (-ENODATA: nothing arrived), -EINVAL without a timeline.
 */
int bc_failover_plot(const char *dir, struct json_object *doc, struct bc_error *err);

#endif
