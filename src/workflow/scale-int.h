/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared state of the scale workflow (scale.c, scale-links.c). */
#ifndef BC_WORKFLOW_SCALE_INT_H
#define BC_WORKFLOW_SCALE_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "bondcheck/ceiling.h"
#include "bondcheck/model.h"
#include "bondcheck/scale.h"
#include "traffic/bond-meta.h"
#include "traffic/egress.h"

#define BC_SCALE_MAX_SLAVES 16
/* Probe and diagnosis runs offer this share of the configuration's UDP ceiling. */
#define BC_SCALE_DIAG_SHARE 0.25

struct bc_scale_slave {
	char name[BC_IFNAMSIZ];
	struct bc_link_rate rate;
	double ceil[2];		/* TCP, UDP goodput ceiling of this link, bits/s; 0 unknown */
	int score;		/* inspect findings against it (error 100, warning 10, info 1) */
	char peer[BC_IFNAMSIZ]; /* links: the agent's slave at the other end ("" unknown) */
	bool down;		/* links: taken out (on both ends) right now */
	bool leaves_slowest;	/* ordered first as balance-rr's slowest (rr_slowest()) */
};

struct bc_scale {
	const struct bc_scale_cfg *c;
	struct sockaddr_storage local;		   /* our address toward the agent */
	struct sockaddr_storage peer;		   /* the agent's address */
	char metrics_note[BC_ERROR_MSG_MAX + 160]; /* TCP metrics could not be cleared */
	struct bc_egress e;
	struct bc_snapshot snap; /* the bond, read once at the start */
	char bond[BC_IFNAMSIZ];
	int mode, policy;
	char policy_name[BC_TEXT];
	bool placeable; /* balance-xor/802.3ad layer3+4: ports steer flows */
	struct bc_scale_slave sl[BC_SCALE_MAX_SLAVES]; /* usable slaves, enslave order */
	size_t n_sl;
	size_t order[BC_SCALE_MAX_SLAVES]; /* indices into sl: the order they leave */
	uint32_t k, nmin;
	uint32_t udp_length;
	double udp_total; /* UDP bits/s offered to every configuration */
	struct json_object *doc;
	struct json_object *cfg[2][BC_SCALE_MAX_SLAVES + 1]; /* [tcp/udp][N] */
	unsigned run_i, runs;
	double last_bps;
	void *links;		   /* scale-links.c state */
	struct json_object *extra; /* links: probe, journal, changes, restore (doc "links") */
};

/* Names of configuration N's slaves (enslave order) into @names; their count. */
size_t bc_scale_config_slaves(const struct bc_scale *s, uint32_t n, const char **names);

/* Ceiling of configuration @n for @proto (0 TCP, 1 UDP), bits/s; 0 unknown. */
double bc_scale_config_ceiling(const struct bc_scale *s, int proto, uint32_t n);

/* One run of @proto (0 TCP, 1 UDP) over configuration @n; UDP offered @rate_bps in total. */
int bc_scale_one_run(struct bc_scale *s, int proto, uint32_t n, double rate_bps, bool capture,
		     struct json_object **res, struct bc_error *err);

/*
 * The links method's steps (scale-links.c); no-ops for placement.
 * prepare: check what the method needs before anything runs (after
 *   load_bond); begin: probe (learn the agent's peer slaves and the links'
 *   evidence, which adds to their scores), journal both ends; check: once
 *   the order is built, every slave that leaves has a known agent peer;
 *   apply: make configuration @n the live one (slaves down/up on both
 *   ends, then wait until the bond is stable); end: restore both ends.
 */
int bc_scale_links_prepare(struct bc_scale *s, struct bc_error *err);
int bc_scale_links_begin(struct bc_scale *s, struct bc_error *err);
int bc_scale_links_check(struct bc_scale *s, struct bc_error *err);
int bc_scale_apply(struct bc_scale *s, uint32_t n, struct bc_error *err);
int bc_scale_links_end(struct bc_scale *s, struct bc_error *err);

#endif
