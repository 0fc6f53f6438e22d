/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `bondcheck scale`: does N+1 links beat N?  Repeated runs (bondcheck/
 * client.h) over configurations of 1..n usable slaves of the bond the route
 * to the agent leaves by, interleaved, one goodput per run; statistics,
 * verdict and causes by bondcheck/scale-doc.h; docs/scale.md.
 *
 * Methods:
 *   placement  changes nothing: balance-xor or 802.3ad with layer3+4; the K
 *              flows are placed (source ports, bondcheck/xmit-hash.h) onto
 *              the N slaves of the configuration, the others stay idle.
 *   links      takes slaves out on both ends (needs allow_changes and the
 *              journal, bondcheck/journal.h); any mode.
 */
#ifndef BONDCHECK_SCALE_H
#define BONDCHECK_SCALE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/client.h"
#include "bondcheck/error.h"

enum bc_scale_method {
	BC_SCALE_METHOD_PLACEMENT = 0,
	BC_SCALE_METHOD_LINKS = 1,
};

/* What the workflow is doing, for a progress line. */
struct bc_scale_progress {
	const char *phase;  /* "run", "diagnose", "probe", "change", "restore" */
	unsigned run, runs; /* 1-based index of the measured run, and their total */
	const char *protocol;
	unsigned n, rep;
	double last_bps; /* goodput of the previous measured run; 0 before the first */
};

struct bc_scale_cfg {
	/* peer, port, family, key, link rate; plan: duration_ms, omit_ms,
	 * tmax_ms, length (UDP; 0: the largest unfragmented), dport,
	 * sock_buf; the rest (protocol, streams, rate, placement) is set per run */
	struct bc_client_cfg client;
	enum bc_scale_method method;
	bool tcp, udp;		  /* protocols to measure (at least one) */
	uint32_t flows;		  /* K flows in every configuration; 0: the usable slaves */
	uint32_t repetitions;	  /* runs per configuration, >= 2 */
	double margin;		  /* practical margin, 0.05 = 5 % */
	uint32_t min_n;		  /* smallest configuration, >= 1 */
	const char *const *order; /* --order: slaves in the order they leave; NULL: default */
	size_t n_order;
	double udp_rate_bps; /* UDP total offered, bits/s; 0: 1.1 x K x the per-link ceiling */
	bool diagnose;	     /* capture run for each comparison that is not a gain */
	bool allow_changes;  /* links: may take slaves down on both ends */
	const volatile sig_atomic_t *stop; /* set by SIGINT/SIGTERM; NULL: none */
	void (*on_progress)(void *ctx, const struct bc_scale_progress *p);
	void *ctx;
};

/* bc_scale_cfg_defaults() - placement, TCP, 5 runs, margin 5 %, 5 s runs (1 s omitted), diagnose.
 */
void bc_scale_cfg_defaults(struct bc_scale_cfg *c);

/*
 * bc_scale_run() - measure every configuration @c->repetitions times and
 * analyse.  Returns 0 and the document in *@out (docs/scale.md "JSON").
 * On failure *@out may still hold a partial document ("incomplete": true,
 * "errors") and the return is: -EINVAL a choice that does not fit the
 * bond (method placement on a mode it cannot steer, --order naming a
 * slave that is not usable, K smaller than the largest N, fewer than two
 * usable slaves) - usage; -EINTR stopped by @c->stop (links: both ends
 * restored first); -ENOTSUP the route does not leave by a bond; other
 * -errno from bc_client_run() (agent unreachable, refused the plan, ...).
 */
int bc_scale_run(const struct bc_scale_cfg *c, struct json_object **out, struct bc_error *err);

#endif
