/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the suite analysis files (suite.c, suite-links.c, suite-facts.c). */
#ifndef BC_ANALYZE_SUITE_INT_H
#define BC_ANALYZE_SUITE_INT_H

#include <stdbool.h>

#include <json-c/json.h>

#include "bondcheck/capacity.h"
#include "bondcheck/suite-doc.h"
#include "bondcheck/suite-verdict.h"
#include "bondcheck/verdict.h"

struct bc_suite_input;
struct bc_si_ceilings;

/*
 * bc_suite_ceilings() - doc.ceilings from the decoded inputs @in (egress,
 * ends, options): per end and slave the rate (tbf, --link-rate, negotiated
 * speed), its accounting, the TCP and UDP ceilings (bondcheck/ceiling.h)
 * and whether the slave is usable.  The slaves' rows also go to @c, for
 * bc_suite_links() (bc_suite_ceilings_free() it).
 */
struct json_object *bc_suite_ceilings(const struct bc_suite_input *in, struct bc_si_ceilings *c);
void bc_suite_ceilings_free(struct bc_si_ceilings *c);

/*
 * bc_suite_links() - doc.links: one row per captured test and slave of
 * either end (capture share x goodput, wire rate, drops, retransmits of
 * flows that kept to one link, efficiency against the slave's ceiling @c).
 */
struct json_object *bc_suite_links(const struct bc_suite_input *in, const struct bc_si_ceilings *c);

/* bc_suite_flows() - doc.flows: the aggregate test's flows with their links. */
struct json_object *bc_suite_flows(const struct bc_suite_input *in);

/* bc_suite_loss_id() - a loss-ledger finding id (tx-loss, wire-loss, rx-loss-*). */
bool bc_suite_loss_id(const char *id);

/* bc_suite_facts_fill() - the verdict inputs from the decoded analysed document @d. */
void bc_suite_facts_fill(const struct bc_suite_doc *d, struct bc_suite_facts *f);

/* What the model's input does not hold about a client slave, for the verdicts' words. */
struct bc_suite_port {
	char driver[32];
	char rate_source[16]; /* "tbf", "htb", "link-rate", "speed", "" */
	double rate_bps;      /* the rate the ceiling comes from; <= 0 unknown */
};

/*
 * The capacity model of the suite's aggregate TCP test (tcp-k), or of its
 * UDP search (udp: UDP ceilings, carried = the no-drop rate), client end.
 */
struct bc_suite_model {
	bool ok;  /* the model ran (the client has slaves) */
	bool udp; /* UDP ceilings and the no-drop rate */
	struct bc_cap_input in;
	struct bc_capacity c;
	struct bc_suite_port x[BC_CAP_MAX_PORTS]; /* per in.port[] */
	/* per in.loss[]: the ledger finding it comes from (in the decoded document) */
	const struct bc_suite_doc_finding *loss_finding[BC_CAP_MAX_LOSSES];
	char bond[16], ad_select[16], active_slave[16], primary[16], primary_reselect[16];
	long long reord_seen,
		dsack_dups; /* tcp-k's receiver-side reordering (doc.reordering.tcp) */
	/*
	 * The model's inputs that the document lacks (a member absent, not a
	 * JSON null, which records "unknown"): a suite document saved before
	 * a member existed (schema 1).  Each is named by its path, e.g.
	 * "ceilings.client.slaves[eth0].rate_source", and tagged with the
	 * verdicts it decides (BC_SUITE_NEED_*); ", "-separated, cut at 255.
	 */
	size_t n_missing;
	unsigned missing_for; /* the union of the tags */
	char missing[3][256]; /* [0] aggregation, [1] drivers, [2] udp_gap */
};

/* Which verdicts read a model input (bc_suite_model.missing). */
#define BC_SUITE_NEED_AGG 1u
#define BC_SUITE_NEED_DRV 2u
#define BC_SUITE_NEED_UDP 4u
#define BC_SUITE_NEED_ALL (BC_SUITE_NEED_AGG | BC_SUITE_NEED_DRV | BC_SUITE_NEED_UDP)

/*
 * bc_suite_model_fill() - @m from the decoded analysed document @d and its
 * facts @f: the client's slaves (doc.ceilings), their MII and LACP state
 * (the client's inspection), the tcp-k goodput and per-slave shares (@udp:
 * the UDP ceilings, the no-drop rate and the udp-over shares).  An input
 * member that the document lacks, and every problem the reader recorded in
 * d->need[], is recorded in m->missing (never taken as a default the
 * verdicts could pass on).  Returns 0; -EINVAL when the client has no
 * slave (m->ok false).
 */
int bc_suite_model_fill(const struct bc_suite_doc *d, const struct bc_suite_facts *f, bool udp,
			struct bc_suite_model *m);

/* bc_suite_model_json() - doc.capacity: levels, gaps, the ports selected. */
struct json_object *bc_suite_model_json(const struct bc_suite_model *m);

/*
 * The three verdicts as data (bondcheck/verdict.h), from the facts and the
 * model; @j is Drivers' measured per-link judgement
 * (bc_suite_drivers_judge(); NULL none), read for what the model cannot see.  Each fills @v whole
 * (bc_verdict_init() first); they never fail.
 */
void bc_suite_answer_aggregation(const struct bc_suite_facts *f, const struct bc_suite_model *m,
				 struct bc_verdict *v);
void bc_suite_answer_drivers(const struct bc_suite_facts *f, const struct bc_suite_model *m,
			     const struct bc_suite_judgement *j, struct bc_verdict *v);
void bc_suite_answer_udp_gap(const struct bc_suite_facts *f, const struct bc_suite_model *mu,
			     struct bc_verdict *v);

#endif
