/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The suite document decoded once (issue 14 item 1): what the suite's
 * verdict inputs (struct bc_suite_facts) and capacity model read from an
 * analysed `bondcheck run` document, as typed structs.  bc_suite_doc_read()
 * walks the json-c tree once with the strict readers of bondcheck/doc-read.h;
 * the facts, the model and the verdicts then reason on the struct only.
 *
 * Unknown values are the struct's own: NAN for a number, -1 for a count or
 * an id, "" for a string, and a has_ flag where "present but JSON null"
 * (recorded unknown) and "absent" (a document older than the member) must
 * be told apart.  A member that a verdict needs and that is absent or of
 * the wrong type is recorded, by its jq path, in need[] of the verdicts it
 * decides (BC_SUITE_DOC_AGG, _DRV, _UDP): those verdicts are inconclusive
 * and name it, never pass on a default.
 *
 * Limits (the first ones are kept, the rest are not read): 16 slaves per
 * end (BC_CAP_MAX_PORTS), 128 per-link rows of tcp-k and udp-over (the
 * only tests the verdicts read rows of), 64 findings per list, 16 ledger
 * stages, 32 search trials.
 */
#ifndef BONDCHECK_SUITE_DOC_H
#define BONDCHECK_SUITE_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/doc-read.h"

#define BC_SUITE_DOC_SLAVES   16
#define BC_SUITE_DOC_ROWS     128
#define BC_SUITE_DOC_FINDINGS 64
#define BC_SUITE_DOC_STAGES   16
#define BC_SUITE_DOC_TRIALS   32
#define BC_SUITE_DOC_MISSING  4

/* Which verdicts a member decides: the index of bc_suite_doc.need[]. */
enum bc_suite_doc_for {
	BC_SUITE_DOC_AGG = 0,
	BC_SUITE_DOC_DRV = 1,
	BC_SUITE_DOC_UDP = 2,
};

/* A finding: {id, subject, evidence {count, host, counter, drivers, speeds_mbps, ...}}. */
struct bc_suite_doc_finding {
	char id[32];
	char subject[64];
	long long count; /* evidence.count, a number or a decimal string; -1 absent */
	char host[64], counter[256];
	char drivers[96], speeds_mbps[96]; /* driver- and speed-mismatch evidence */
	char evidence_keys[120];	   /* offload-mismatch: the evidence's keys, ", " joined */
};

/* One slave of doc.ceilings.END.slaves[] (written by the analysis, suite-links.c). */
struct bc_suite_doc_ceiling {
	char name[16];
	bool usable;
	double tcp_ceiling_bps, udp_ceiling_bps; /* NAN unknown (null) */
	long long speed_mbps;			 /* -1 unknown */
	char driver[32];
	char rate_source[16]; /* "tbf", "htb", "link-rate", "speed", "" */
	double rate_bps;      /* NAN unknown */
	size_t n_missing;     /* its "missing" egress members */
	char missing[BC_SUITE_DOC_MISSING][128];
};

/* One slave of the client's inspection, ends.client.bonds[0].slaves[]. */
struct bc_suite_doc_islave {
	char name[16];
	bool has_mii_status, has_duplex, has_aggregator_id, has_partner; /* present, maybe null */
	char mii_status[16], duplex[16];
	long long aggregator_id;	     /* -1 unknown */
	long long partner_key, partner_prio; /* partner_lacpdu.oper_key, .system_priority; -1 */
	char partner_mac[18];
};

/* ends.END.bonds[0] of the inspection. */
struct bc_suite_doc_bond {
	bool have;
	char name[16], active_slave[16], ad_select[16], primary[16], primary_reselect[16];
	/* present (a JSON null records "unknown"); absent: an older document */
	bool has_active_slave, has_ad_select, has_primary, has_primary_reselect, has_ad_info;
	long long ad_user_port_key; /* 0 when absent: no document carries it */
	char ad_info_status[16];
	long long ad_info_aggregator_id; /* -1 unknown */
	size_t n_slaves;
	struct bc_suite_doc_islave slave[BC_SUITE_DOC_SLAVES];
	size_t n_findings;
	struct bc_suite_doc_finding finding[BC_SUITE_DOC_FINDINGS];
};

/* A ledger stage of a test's capture analysis. */
struct bc_suite_doc_stage {
	char stage[32];
	long long drop; /* 0 when absent */
	char counter[256];
};

/* One test's result, doc.tests[NAME].result. */
struct bc_suite_doc_result {
	bool have;
	double goodput_bps; /* NAN unknown */
	bool cpu_bound;	    /* either end's counters, or a stream limited_by "cpu" */
	size_t n_streams;
	/* the streams' sums (UDP) */
	double offered_bps;
	uint64_t sent_packets, received_packets, send_errors;
	double sent_bps; /* bc_suite_sent_bps(): sent_bytes over duration - omit; 0 unknown */
	long long snd_buf_errors; /* ends.client.counters.snmp["Udp.SndbufErrors"]; 0 absent */
	/* capture.analysis */
	size_t n_stages;
	struct bc_suite_doc_stage stage[BC_SUITE_DOC_STAGES];
	bool fragmented;       /* fragments.messages_arrived or fragments_arrived > 0 */
	bool has_reassembly;   /* the kernel's Ip Reasm* record is there */
	char reasm_reason[24]; /* capture.analysis.reassembly.reason: "memory", "timeout", ... */
	/* test (the plan): "forward" (the client sends), "reverse", "bidir"; "" absent */
	char direction[16];
	double length_bytes; /* test.length, the UDP payload per message; NAN absent */
	double duration_ms;  /* test.duration_ms, the whole test (omit included); NAN absent */
	size_t n_findings;
	struct bc_suite_doc_finding finding[BC_SUITE_DOC_FINDINGS];
};

/* A per-link row of doc.links[] of tcp-k or udp-over (written by the analysis, suite-links.c). */
struct bc_suite_doc_row {
	char test[16], end[8], name[16], driver[32];
	double share;	       /* NAN absent */
	long long speed_mbps;  /* -1 unknown */
	double ceiling_bps;    /* NAN unknown */
	double goodput_bps;    /* NAN not measured */
	long long retransmits; /* -1 not attributable */
	long long frames, drops;
};

struct bc_suite_trial {
	bool no_drop, cpu_bound;
	double effective_bps; /* NAN absent */
};

struct bc_suite_doc {
	int mode;	/* ceilings.client.mode_number: BC_MODE_*; -1 not a bond */
	int agent_mode; /* ceilings.agent.mode_number: BC_MODE_*; -1 not a bond, unknown */
	size_t n_ceil[2];
	struct bc_suite_doc_ceiling ceil[2][BC_SUITE_DOC_SLAVES]; /* [0] client, [1] agent */
	struct bc_suite_doc_bond bond[2];			  /* [0] client, [1] agent */
	bool placed;
	char unplaced_reason[160];
	long long placement_flows; /* 0 absent */
	struct bc_suite_doc_result tcp_k, tcp_1, udp_over;
	bool has_search; /* udp_search with trials */
	size_t n_trials;
	struct bc_suite_trial trial[BC_SUITE_DOC_TRIALS];
	double no_drop_bps, resolution_bps; /* NAN absent */
	size_t n_rows;
	struct bc_suite_doc_row row[BC_SUITE_DOC_ROWS];
	long long reord_seen, dsack_dups; /* doc.reordering.tcp; 0 absent */
	bool has_egress_client;
	size_t n_egress_client_slaves; /* egress.client.bond.slaves[] */
	/* the problems with members each verdict needs ([BC_SUITE_DOC_*]) */
	struct bc_doc_read need[3];
};

/*
 * bc_suite_doc_read() - @d from the analysed suite document @doc (after
 * bc_suite_analyze() has written ceilings, links and reordering).  Never
 * fails: what is absent or mistyped stays unknown in @d, and a member a
 * verdict needs is recorded in d->need[].
 */
void bc_suite_doc_read(struct json_object *doc, struct bc_suite_doc *d);

#endif
