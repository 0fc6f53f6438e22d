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
 *           rx_over_errors}; pmtu is optional, but when present its probes
 *           each need size and carried, and sent unless the probe has an
 *           error (a probe that failed sent nothing);
 *     "failed": error.code, error.message.
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
	size_t n_missing;
	char missing[BC_MATRIX_MISSING_LEN];
};

struct bc_matrix_doc {
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

#endif
