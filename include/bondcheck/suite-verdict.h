/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The three verdicts of `bondcheck run`'s suite (docs/run.md "Verdicts"),
 * from facts the suite measured.  Pure: struct in, JSON object out.
 *
 * Each verdict is {"status": "pass"|"fail"|"inconclusive", "text", ...
 * figures}; the thresholds below are stated in the text and in docs/run.md.
 * A failing verdict from a run flagged CPU-bound (either end's counters
 * `cpu_bound`, BC_CPU_BOUND_PCT) is "inconclusive" and says CPU-bound: the
 * figures may measure the host, not the bond.
 *
 * Units: bits/s (application payload) unless a name says otherwise.
 */
#ifndef BONDCHECK_SUITE_VERDICT_H
#define BONDCHECK_SUITE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* The older Aggregation threshold, kept as the figures' "threshold" (= BC_VERDICT_CARRIED_PASS). */
#define BC_VERDICT_AGG_PASS 0.80
/* UDP gap passes when the no-drop rate is >= 80 % of the bond's UDP ceiling. */
#define BC_VERDICT_UDP_PASS 0.80
/* A link at >= 85 % of its own ceiling is saturated ... */
#define BC_VERDICT_LINK_NEAR 0.85
/* ... and peers at <= 70 % of theirs run far below (or: fall short). */
#define BC_VERDICT_LINK_FAR 0.70
/* A receiving slave whose NIC dropped >= 1 % of the frames that arrived on it, while
 * its peers dropped none, holds the bond back. */
#define BC_VERDICT_RX_DROP_SHARE 0.01
/* Per-link ceilings that differ by more than 10 % are a mismatch. */
#define BC_VERDICT_CEILING_SPREAD 0.10

#define BC_SUITE_MAX_LINKS    16
#define BC_SUITE_MAX_MISMATCH 8

/* One slave of one end in one test (the client sends, the agent receives). */
struct bc_suite_link {
	char name[16];
	char driver[32];       /* "" unknown */
	long long speed_mbps;  /* < 0 unknown */
	double ceiling_bps;    /* client: the link's own ceiling for the test's traffic;
				* agent: the path's, the smaller of its own (a tbf/htb rate
				* shapes its sending only: unknown then) and its sending
				* peer client slave's; <= 0 unknown */
	double goodput_bps;    /* capture share x the test's goodput; < 0 not measured */
	long long retransmits; /* TCP retransmits of the flows placed on it; < 0 not attributable */
	long long frames;      /* frames of the test captured on it (left or arrived) */
	long long drops;       /* client: qdisc + tx drops + capture loss on the link;
				* agent: the receiving slave's NIC drops (rx_dropped,
				* rx_missed_errors, rx_over_errors) */
};

/* The per-link evidence of one captured test. */
struct bc_suite_evidence {
	bool measured;	/* the test ran with capture and attribution */
	bool cpu_bound; /* either end */
	size_t n;
	struct bc_suite_link l[BC_SUITE_MAX_LINKS];
};

struct bc_suite_facts {
	int mode;	 /* BC_MODE_* of the client's egress bond; -1 not a bond (one link) */
	size_t n_usable; /* usable slaves (active-backup: the active one only counts) */
	const char *active_slave; /* active-backup; NULL unknown */
	bool placed;		  /* the aggregate flows were placed one per usable slave */
	const char *unplaced_reason;
	unsigned flows; /* flows of the aggregate test */

	/* Aggregation (TCP) */
	double agg_bps;		 /* aggregate test goodput; < 0 not measured */
	double base_bps;	 /* single-flow baseline; < 0 not measured */
	double link_ceiling_bps; /* one link: the best usable slave's TCP ceiling; <= 0 unknown */
	double bond_ceiling_bps; /* mode-aware TCP ceiling; <= 0 unknown */
	double rr_cap_bps;	 /* balance-rr: n x the slowest link's ceiling; <= 0 unknown */
	size_t links_used;	 /* links the aggregate flows used (capture >= 1 %), 0 unknown */
	bool agg_cpu_bound;

	/* UDP gap (the over-rate probe and the search) */
	bool udp_measured;	/* the over-rate probe ran */
	double udp_offered_bps; /* the probe's offered rate */
	uint64_t udp_sent, udp_received;
	uint64_t udp_send_errors;    /* sends the sender's kernel refused (not in udp_sent) */
	const char *refused_counter; /* the ledger's counters at left_on_link ("qdisc drops ...") */
	double udp_sent_bps, udp_received_bps;
	double no_drop_bps; /* search result; 0 every trial dropped; < 0 no search */
	double no_drop_resolution_bps;
	double udp_ceiling_bps;	    /* mode-aware UDP ceiling; <= 0 unknown */
	double udp_equal_share_bps; /* balance-rr, placed flows: n x the slowest slave; <= 0 n/a */
	bool udp_cpu_bound;    /* the probe or a trial was CPU-bound or sender-limited by CPU */
	const char *gap_stage; /* ledger stage with the largest drop; NULL no ledger */
	long long gap_stage_drop;
	const char *gap_finding; /* the loss finding id there (tx-loss, wire-loss, ...) */
	const char *gap_link;	 /* its subject, "tx:client/eth1" */
	const char *gap_host;
	const char *gap_counter; /* the counter that moved */
	long long gap_count;
	char gap_link_buf[64]; /* storage for gap_link when parsed from a counter */
	/*
	 * The probe lost fragmented datagrams after they arrived (the ledger's
	 * reassembled or reached_socket stage) and its analysis has no
	 * "reassembly" record (the kernel's Ip Reasm* deltas, a document of
	 * schema 1): where they died cannot be told.
	 */
	bool reasm_missing;

	/* Drivers */
	size_t n_mismatch;
	char mismatch[BC_SUITE_MAX_MISMATCH][160]; /* "driver: e1000, 8139cp (client bond0)" */
	struct bc_suite_evidence tcp, udp;	   /* aggregate test, over-rate probe: client */
	struct bc_suite_evidence tcp_rx, udp_rx;   /* the same tests, the agent's slaves */
};

/* bc_suite_facts_init() - all "unknown / not measured". */
void bc_suite_facts_init(struct bc_suite_facts *f);

/*
 * bc_verdict_aggregation() - the Aggregation verdict's figures:
 * {"status" ("inconclusive" until the answer replaces it), "goodput_bps",
 * "baseline_bps", "link_ceiling_bps", "bond_ceiling_bps" (the mode-aware
 * ceiling over the usable slaves), "rr_cap_bps", "efficiency", "speedup"
 * (over the best link's ceiling), "speedup_baseline", "flows", "placed",
 * "cpu_bound", "threshold"}; unknown figures are null.  The status, the
 * levels and the cause come from the capacity model
 * (src/analyze/suite-answers.c, bondcheck/verdict.h), which compares
 * carried with potential, never with the usable slaves.
 */
struct json_object *bc_verdict_aggregation(const struct bc_suite_facts *f);

/*
 * bc_verdict_udp_gap() - the UDP gap's figures: {"status" (a placeholder,
 * "inconclusive"), "sent_packets", "send_errors", "received_packets",
 * "sent_bps", "received_bps", "offered_bps", "no_drop_rate_bps",
 * "udp_ceiling_bps", "stage", "finding", "link", "host", "count",
 * "cpu_bound", "threshold"}; unknown figures are null.  No sentence: the
 * status, the cause (the ledger stage that lost datagrams) and the answer
 * come from bc_suite_answer_udp_gap() (src/analyze/suite-answers.c) and
 * bc_verdict_render().  Returns a new object.
 */
struct json_object *bc_verdict_udp_gap(const struct bc_suite_facts *f);

/*
 * bc_verdict_drivers() - the Drivers verdict's measured per-link judgement,
 * as data (no sentence: src/report/verdict-text.c renders it): {"status",
 * "judgement", "mismatch": [...], "links": [{name, end, driver, speed_mbps,
 * test, ceiling_bps, goodput_bps, utilization, retransmits, drops}],
 * "cause_link", "cause_end", "cause", "cause_test", "cause_driver",
 * "cause_utilization", "cause_ceiling_bps", "cause_goodput_bps",
 * "cause_drops", "cause_frames", "by_ceiling", "active_utilization",
 * "cpu_bound", "thresholds"}.  judgement: "not-a-bond", "no-mismatch",
 * "holds-back", "falls-short", "cost-nothing", "ceilings-unknown",
 * "no-evidence", "unplaced", "active-ok", "active-low", "active-missing".
 *   No mismatch: pass.  With one:
 *   balance-rr and broadcast (equal shares): a saturated link -- at >=
 *   BC_VERDICT_LINK_NEAR of its own ceiling, or the only one whose queue
 *   overflowed (drops) -- while every peer is at <= BC_VERDICT_LINK_FAR of
 *   theirs and dropped nothing holds the bond back (fail, cause_link);
 *   placed flows: a link at <= BC_VERDICT_LINK_FAR while every peer is >=
 *   BC_VERDICT_LINK_NEAR falls short (fail, cause_link);
 *   both ends are judged: the client's (sending) slaves first, then the
 *   agent's (receiving) slaves, where a slave also holds the bond back when
 *   it is the only one whose NIC dropped on receive, >= BC_VERDICT_RX_DROP_SHARE
 *   of its frames (cause_end says which end, "client" or "agent");
 *   otherwise "cost-nothing" (pass), or inconclusive when the ceilings or
 *   the per-link evidence are missing.  The capacity model's cost of the
 *   mismatch (suite-answers.c) decides first.
 */
struct json_object *bc_verdict_drivers(const struct bc_suite_facts *f);

/* The Drivers verdict's measured per-link judgement as data (the JSON above). */
struct bc_suite_judgement {
	const char *status;			 /* "pass", "fail", "inconclusive" */
	const char *judgement;			 /* the words above */
	const char *cause;			 /* "holds-back", "falls-short"; NULL none */
	const char *test;			 /* the test that showed it; NULL none */
	const struct bc_suite_link *cause_link;	 /* into the facts; NULL none */
	const struct bc_suite_link *active_link; /* active-backup: the active slave's row */
	bool agent;				 /* cause_link is one of the agent's slaves */
	bool by_ceiling, cpu_bound;
};

/*
 * bc_suite_drivers_judge() - @j from @f by the rules of bc_verdict_drivers()
 * (which writes it as JSON).  Pointers in @j point into @f.
 */
void bc_suite_drivers_judge(const struct bc_suite_facts *f, struct bc_suite_judgement *j);

/* bc_suite_link_util() - a link's goodput over its own ceiling; -1 when either is unknown. */
double bc_suite_link_util(const struct bc_suite_link *l);

#endif
