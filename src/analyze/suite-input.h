/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The raw inputs of the suite's derive-tables stage (issue 14 item 1),
 * decoded once: what bc_suite_analyze() reads from a `bondcheck run` suite
 * document (options, egress, the inspections of both ends, the tests'
 * results and capture analyses, the UDP search, placement) before it writes
 * doc.ceilings, links, flows, ledger, reordering and findings.
 * bc_suite_input_read() (suite-input-read.c) is the only code of this stage
 * that looks members up by key; the tables are built from these structs.
 *
 * Strings are borrowed from the json-c document ("" when absent or not a
 * string) and stay valid while it does: the stage only adds members that
 * this reader does not read.  Members copied verbatim into the output (a
 * number whose JSON type the output keeps: a flow's goodput, a tcp_info
 * field; a subtree: the ledger, a capture's reordering, a finding) are kept
 * as borrowed json_object pointers (j_*, NULL when absent or JSON null),
 * never interpreted.
 *
 * A member a verdict needs and the document lacks or mistypes is recorded
 * in need[] (by jq path, the verdicts of bondcheck/suite-doc.h's
 * BC_SUITE_DOC_*); bc_suite_input_need() adds them to the decoded
 * document's, so that those verdicts are inconclusive and name it.
 */
#ifndef BC_ANALYZE_SUITE_INPUT_H
#define BC_ANALYZE_SUITE_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "bondcheck/doc-read.h"
#include "bondcheck/suite-doc.h"
#include "bondcheck/udp-search.h"

/* A finding of an inspection, the placement or a test (copied verbatim into doc.findings). */
struct bc_si_finding {
	struct json_object *obj; /* the finding object (borrowed) */
	const char *id, *subject, *severity;
};

/* One slave of egress.END.bond.slaves[] (or egress.END itself for a single interface). */
struct bc_si_eslave {
	const char *name, *driver;
	/* the member is there, a JSON null included (the ceilings' "missing" list) */
	bool has_tbf, has_mtu, has_speed, has_driver, has_virtual;
	double tbf_bps;	      /* 0 absent */
	long long speed_mbps; /* 0 absent or null */
	long long mtu;	      /* 1500 absent or null */
	bool virt;	      /* "virtual" */
};

/* One slave of ends.END.bonds[0].slaves[] (the inspection). */
struct bc_si_islave {
	const char *name, *mii_status, *driver;
	bool speed_present; /* speed_mbps there, a JSON null included */
	bool has_speed;	    /* speed_mbps a value */
	long long speed_mbps;
	bool has_aggregator_id;
	long long aggregator_id;
};

/* ends.END: the inspected bond bonds[0] and the findings of every bond. */
struct bc_si_end {
	bool have_bond;
	bool has_mode;
	long long mode_number;
	const char *active_slave, *ad_status; /* ad_info.status */
	bool has_ad_aggregator_id;
	long long ad_aggregator_id;
	size_t n_slaves;
	struct bc_si_islave *slave;
	size_t n_findings; /* of all of ends.END.bonds[] */
	struct bc_si_finding *finding;
	/* egress.END */
	bool have_egress, egress_is_bond;
	const char *egress_name, *egress_mode; /* egress.END.bond.options.mode ("balance-rr 0") */
	size_t n_eslaves;
	struct bc_si_eslave *eslave;
};

/* A link of a capture analysis (capture.analysis.links[]). */
struct bc_si_link {
	const char *name, *side, *peer;
	struct json_object *j_peer;
	double wire_bytes, wire_bps; /* forward.*; 0 absent */
	long long frames, lost;	     /* 0 absent */
};

/* A flow of a capture analysis: the links its frames crossed. */
struct bc_si_flow {
	bool forward;	 /* direction "forward" */
	long long sport; /* -1 absent */
	size_t n_links;
	const char **link; /* NULL for a JSON null element */
};

/* A receiver's reorder density bin (reordering.reorder_density), summed over streams. */
struct bc_si_bin {
	const char *key;
	long long count;
};

struct bc_si_stream {
	long long id, client_port;				       /* -1 absent */
	long long retransmits, received_packets, out_of_order_packets; /* 0 absent */
	long long reord_seen, dsack_dups; /* sender.tcp_info; 0 absent */
	size_t n_bins;
	struct bc_si_bin *bin;
	/* verbatim into doc.flows */
	struct json_object *j_client_port, *j_agent_port, *j_goodput_bps, *j_retransmits;
	struct json_object *j_reord_seen, *j_dsack_dups, *j_reordering, *j_rtt_us;
};

/* An interface's drop counters, result.ends.END.counters.interfaces.NAME. */
struct bc_si_ifc {
	const char *name;
	long long qdisc_drops, tx_dropped, rx_dropped, rx_missed_errors, rx_over_errors;
};

struct bc_si_result {
	const char *protocol;
	bool has_ip_version, has_length;
	long long ip_version, length; /* result.test.* */
	const char *tcp_timestamps;   /* ends.client.metadata.sysctls; NULL absent */
	double goodput_bps;	      /* 0 absent */
	size_t n_streams;
	struct bc_si_stream *stream;
	size_t n_ifc[2];
	struct bc_si_ifc *ifc[2]; /* [0] client, [1] agent */
	size_t n_placed;	  /* placement.streams[] */
	long long *placed_id;	  /* -2 absent */
	const char **placed_slave;
	bool has_analysis; /* capture.analysis */
	size_t n_links, n_flows;
	struct bc_si_link *link;
	struct bc_si_flow *flow;
	struct json_object *j_ledger, *j_ledger_direction, *j_reordering; /* of the analysis */
	size_t n_findings;
	struct bc_si_finding *finding;
};

struct bc_si_test {
	const char *name, *role;
	struct bc_si_result *res; /* NULL: no result */
};

struct bc_si_trial {
	struct json_object *obj; /* the trial, where the search summary writes */
	struct bc_udp_trial t;
};

struct bc_suite_input {
	const char *kind;
	/* options */
	bool has_ip_version, has_udp_length;
	long long ip_version, udp_length;
	double link_rate_bps; /* 0 absent */
	const char *link_accounting;
	struct bc_si_end end[2]; /* [0] client, [1] agent */
	size_t n_tests;
	struct bc_si_test *test;
	struct json_object *udp_search; /* where the search summary writes; NULL none */
	size_t n_trials;
	struct bc_si_trial *trial;
	bool has_trial_length;
	long long trial_length; /* udp_search.trials[0].length */
	size_t n_placement_findings;
	struct bc_si_finding *placement_finding;
	struct bc_doc_read need[3]; /* [BC_SUITE_DOC_AGG, _DRV, _UDP] */
	bool oom;		    /* an allocation failed: the decode is partial */
};

/* One slave's rate and ceilings (a row of doc.ceilings.END.slaves[]). */
struct bc_si_ceiling {
	const char *name;
	const char *driver;   /* NULL unknown */
	long long speed_mbps; /* <= 0 unknown */
	const char *rate_source;
	double tcp_ceiling_bps, udp_ceiling_bps; /* <= 0 unknown */
	bool usable;
};

/* doc.ceilings as built by bc_suite_ceilings(), for the per-link rows. */
struct bc_si_ceilings {
	size_t n[2];
	struct bc_si_ceiling *slave[2]; /* [0] client, [1] agent */
};

/*
 * bc_suite_input_read() - @in from the suite document @doc; never fails on
 * the document's content (what is absent stays as the struct's comments
 * say; required members go to in->need[]).  Returns 0, or -ENOMEM (@in is
 * then partial; bc_suite_input_free() it all the same).
 */
int bc_suite_input_read(struct json_object *doc, struct bc_suite_input *in);

/* bc_suite_input_free() - what bc_suite_input_read() allocated. */
void bc_suite_input_free(struct bc_suite_input *in);

/* bc_suite_input_result() - the result of the test named @name, or NULL. */
const struct bc_si_result *bc_suite_input_result(const struct bc_suite_input *in, const char *name);

/* bc_suite_input_need() - appends in->need[] to d->need[] (after bc_suite_doc_read()). */
void bc_suite_input_need(const struct bc_suite_input *in, struct bc_suite_doc *d);

#endif
