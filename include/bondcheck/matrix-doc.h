/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The matrix document (bondcheck/matrix.h) as typed structs: what
 * bc_matrix_analyze() reasons on (issue 14 item 1, "decode once, then
 * reason on types").  bc_matrix_doc_read() walks the json-c tree once with
 * the strict readers of bondcheck/doc-read.h; the analysis never looks a
 * member up by key.
 *
 * Unknown values: NAN for doubles, -1 for counts and sizes, "" for strings.
 * A host or pair whose required members are absent or of the wrong type has
 * them named in its .missing ("pairs[3].goodput_bps (absent)", the jq path),
 * and the answers that need it are inconclusive: never a default.
 *
 * Which members are required (the rest are optional):
 *   hosts[i]: name, status; error when status is not "ok";
 *   pairs[k]: from, to, from_index, to_index, status;
 *     "ok": goodput_bps, ceiling_bps, efficiency (a number, or null without
 *           a ceiling), client and agent {interface, mtu, link_rate_bps,
 *           rate_source, ceiling_bps, rx_dropped, rx_missed_errors,
 *           rx_over_errors}; optional: retransmits (TCP), sent_packets and
 *           lost_packets (UDP), sender_ceiling_bps, receiver_ceiling_bps,
 *           each end's ingress_ceiling_bps, tx_dropped and qdisc_drops (a
 *           document of schema 1 has none of them: the loss and
 *           per-direction answers that need them are not judged); pmtu is
 *           optional, but when present its probes
 *           each need size and carried, and sent unless the probe has an
 *           error (a probe that failed sent nothing);
 *     "failed": error.code, error.message.
 * A pair's "missing" (optional: what bc_matrix_pair_fill() found lacking in
 * its relayed run result) makes it inconclusive too, naming those members.
 *
 * Units: bits/s, bytes.
 */
#ifndef BONDCHECK_MATRIX_DOC_H
#define BONDCHECK_MATRIX_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/doc-read.h"
#include "bondcheck/error.h"

/* Longest host name kept (a DNS name is at most 253 bytes), with the NUL. */
#define BC_MATRIX_NAME_LEN 256
/* Probes kept per pair (the controller sends at most 2: bc_matrix_probe_sizes). */
#define BC_MATRIX_MAX_PROBES 8
/* The problems of one host or pair, joined (bc_doc_problems_text). */
#define BC_MATRIX_MISSING_LEN 400

/* One end of a pair: {end} of bondcheck/matrix.h. */
struct bc_matrix_end_doc {
	char interface[64];
	int64_t mtu; /* bytes; -1 unknown */
	double link_rate_bps;
	char rate_source[32];
	double ceiling_bps;
	int64_t rx_dropped, rx_missed_errors, rx_over_errors; /* deltas; -1 unknown */
	/* optional (schema 2): receiving ceiling (NAN unknown), send-side drops (-1 unknown) */
	double ingress_ceiling_bps;
	int64_t tx_dropped, qdisc_drops;
};

/* One DF probe of pair.pmtu.probes. */
struct bc_matrix_probe_doc {
	int64_t size; /* IP packet bytes; -1 unknown */
	int64_t sent; /* datagrams; -1 unknown */
	bool carried;
};

enum bc_matrix_pair_status {
	BC_MATRIX_PAIR_OTHER, /* absent or a word this version does not know */
	BC_MATRIX_PAIR_OK,
	BC_MATRIX_PAIR_FAILED,
	BC_MATRIX_PAIR_SKIPPED,
};

struct bc_matrix_pair_doc {
	struct json_object *obj; /* the pair object, borrowed: where the analysis writes */
	char from[BC_MATRIX_NAME_LEN], to[BC_MATRIX_NAME_LEN];
	int64_t from_index, to_index; /* -1 unknown */
	enum bc_matrix_pair_status status;
	/* "failed" */
	char error_code[64], error_message[512];
	/* "ok" */
	double goodput_bps, ceiling_bps;
	double efficiency; /* NAN: null (no ceiling) or unknown */
	/* optional (schema 2): the sender's egress, the receiver's ingress ceiling; NAN unknown */
	double sender_ceiling_bps, receiver_ceiling_bps;
	/* optional: TCP retransmits, UDP datagrams sent and lost, summed over the streams; -1 */
	int64_t retransmits, sent_packets, lost_packets;
	struct bc_matrix_end_doc client, agent;
	struct json_object *pmtu_obj; /* pair.pmtu, borrowed; NULL when the probes did not run */
	size_t n_probes;
	struct bc_matrix_probe_doc probes[BC_MATRIX_MAX_PROBES];
	/* the problems of this pair ("" when none): its answers are inconclusive */
	size_t n_missing;
	char missing[BC_MATRIX_MISSING_LEN];
};

struct bc_matrix_host_doc {
	struct json_object *obj; /* the host object, borrowed: where the summary is written */
	char name[BC_MATRIX_NAME_LEN];
	char status[32]; /* "ok", "unreachable", ...; "" unknown */
	char error[512];
	/* the summary a previous analysis wrote (optional; replaced from the pairs) */
	char interface[64], rate_source[32];
	int64_t mtu;
	double link_rate_bps, link_ceiling_bps;
	double ingress_ceiling_bps; /* the receiving side's; NAN unknown */
	size_t n_missing;
	char missing[BC_MATRIX_MISSING_LEN];
};

struct bc_matrix_doc {
	bool udp;	     /* "protocol": "udp" (optional, "tcp") */
	int64_t duration_ms; /* per pair (optional); -1 unknown */
	size_t n_hosts, n_pairs;
	struct bc_matrix_host_doc *hosts; /* malloc'd */
	struct bc_matrix_pair_doc *pairs; /* malloc'd */
};

/*
 * bc_matrix_doc_read() - decode matrix document @doc (its "hosts" and
 * "pairs") into @d.  Members missing in one host or pair are recorded in
 * that entry's .missing, not returned as errors.  The structs borrow json
 * objects of @doc (.obj, .pmtu_obj) for the analysis to write into; @doc
 * must outlive @d.  Returns 0; -EINVAL when "hosts" or "pairs" is absent or
 * not an array (@err names the member); -ENOMEM.  Free with
 * bc_matrix_doc_free() whatever it returned.
 */
int bc_matrix_doc_read(struct json_object *doc, struct bc_matrix_doc *d, struct bc_error *err);

/* bc_matrix_doc_free() - frees what bc_matrix_doc_read() allocated; @d may be empty. */
void bc_matrix_doc_free(struct bc_matrix_doc *d);

/*
 * The relayed `run` result of one pair (bondcheck/client.h), as
 * bc_matrix_pair_fill() and bc_matrix_probe_add() need it.
 *
 * Required: "streams" (an array), "goodput_bps", test.protocol, and in each
 * end's metadata.egress, when the end has one, name, mtu, speed_mbps,
 * tbf_bps and, for a bond, bond.options.mode and each slave's speed_mbps and
 * tbf_bps; per stream retransmits (TCP) or sent_packets, received_packets,
 * lost_packets (UDP).  Optional, with the meaning of their absence:
 * test.ip_version (4), test.length (0: TCP), ceiling_bps (0), notes ([]),
 * the client's sysctl net.ipv4.tcp_timestamps (on, the kernel default),
 * counters.cpu_bound (false), the interface counter deltas (0: the end
 * collected none for it), a probe's sender.send_errors (0).
 */
#define BC_MATRIX_MAX_SLAVES 64

/* A link of an egress object (the egress interface or a bond's slave). */
struct bc_matrix_link_doc {
	double tbf_bps;	   /* 0: no tbf */
	double speed_mbps; /* 0: unknown speed */
};

struct bc_matrix_run_end {
	char hostname[BC_MATRIX_NAME_LEN];
	bool have_egress;
	size_t egress_problems; /* absent or mistyped egress members: the ceiling is unknown */
	char ifname[64];
	int64_t mtu; /* 0 unknown */
	struct bc_matrix_link_doc link;
	bool is_bond;
	int mode; /* bond mode number from "balance-rr 0"; -1 unknown */
	size_t n_slaves;
	struct bc_matrix_link_doc slaves[BC_MATRIX_MAX_SLAVES];
	/* deltas of counters.interfaces.<ifname>: rx_dropped, rx_missed_errors,
	 * rx_over_errors, tx_dropped, qdisc_drops (bondcheck/matrix.h {end}) */
	int64_t counters[5];
	bool cpu_bound;
};

struct bc_matrix_run_doc {
	double goodput_bps; /* NAN when absent or mistyped */
	double ceiling_bps;
	bool udp;
	int ip_version;
	int64_t length;		      /* UDP payload bytes */
	bool tcp_timestamps;	      /* the client's net.ipv4.tcp_timestamps */
	bool have_streams;	      /* "streams" is an array */
	int64_t retransmits;	      /* summed over the streams */
	int64_t sent, received, lost; /* datagrams, summed over the streams */
	int64_t probe_sent, probe_received, probe_send_errors; /* streams[0] */
	struct json_object *notes;			       /* borrowed; NULL when absent */
	struct bc_matrix_run_end client, agent;
	struct bc_doc_read r; /* the problems, by path in the result */
};

/* The counter names of bc_matrix_run_end.counters, in order. */
extern const char *const bc_matrix_end_counters[5];

/*
 * bc_matrix_run_read() - decode the relayed run result @result (may be NULL)
 * into @d; problems in d->r.  @probe: a DF probe's result, of which only
 * test.ip_version and streams[0] are read (sent_packets, received_packets
 * required).  @d borrows d->notes from @result.
 */
void bc_matrix_run_read(struct json_object *result, bool probe, struct bc_matrix_run_doc *d);

#endif
