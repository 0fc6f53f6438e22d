// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The matrix document's reader (bondcheck/matrix-doc.h): one walk of the
 * json-c tree into typed structs, with the strict readers of doc-read.h.
 * The only place in the matrix analysis that looks members up by key.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/matrix-doc.h"

/*
 * A number that may be JSON null (efficiency without a ceiling): absent is
 * a problem, null leaves *@out NAN and returns true, another type is a
 * problem.  doc-read.h treats null as absent, hence this helper.
 */
static bool dbl_or_null(struct bc_doc_read *r, struct json_object *o, const char *path,
			const char *key, double *out)
{
	struct json_object *v = NULL;

	*out = NAN;
	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v)) {
		bc_doc_problem(r, path, key, "absent");
		return false;
	}
	if (v)
		bc_doc_dbl(r, o, path, key, BC_DOC_REQUIRED, out);
	return !v;
}

static void read_end(struct bc_doc_read *r, struct json_object *pair, const char *ppath,
		     const char *which, struct bc_matrix_end_doc *e)
{
	struct json_object *o = bc_doc_member(r, pair, ppath, which, BC_DOC_REQUIRED);
	char path[64];

	*e = (struct bc_matrix_end_doc){.mtu = -1,
					.link_rate_bps = NAN,
					.ceiling_bps = NAN,
					.rx_dropped = -1,
					.rx_missed_errors = -1,
					.rx_over_errors = -1,
					.ingress_ceiling_bps = NAN,
					.tx_dropped = -1,
					.qdisc_drops = -1};
	if (!o)
		return;
	bc_doc_path(path, sizeof(path), ppath, which, 0);
	bc_doc_str(r, o, path, "interface", BC_DOC_REQUIRED, e->interface, sizeof(e->interface));
	bc_doc_i64(r, o, path, "mtu", BC_DOC_REQUIRED, &e->mtu);
	bc_doc_dbl(r, o, path, "link_rate_bps", BC_DOC_REQUIRED, &e->link_rate_bps);
	bc_doc_str(r, o, path, "rate_source", BC_DOC_REQUIRED, e->rate_source,
		   sizeof(e->rate_source));
	bc_doc_dbl(r, o, path, "ceiling_bps", BC_DOC_REQUIRED, &e->ceiling_bps);
	bc_doc_i64(r, o, path, "rx_dropped", BC_DOC_REQUIRED, &e->rx_dropped);
	bc_doc_i64(r, o, path, "rx_missed_errors", BC_DOC_REQUIRED, &e->rx_missed_errors);
	bc_doc_i64(r, o, path, "rx_over_errors", BC_DOC_REQUIRED, &e->rx_over_errors);
	bc_doc_dbl(r, o, path, "ingress_ceiling_bps", BC_DOC_OPTIONAL, &e->ingress_ceiling_bps);
	bc_doc_i64(r, o, path, "tx_dropped", BC_DOC_OPTIONAL, &e->tx_dropped);
	bc_doc_i64(r, o, path, "qdisc_drops", BC_DOC_OPTIONAL, &e->qdisc_drops);
}

static void read_pmtu(struct bc_doc_read *r, struct json_object *pair, const char *ppath,
		      struct bc_matrix_pair_doc *p)
{
	char path[80], ppm[64], pprobes[72];
	struct json_object *probes;
	size_t n;

	p->pmtu_obj = bc_doc_member(r, pair, ppath, "pmtu", BC_DOC_OPTIONAL);
	if (!p->pmtu_obj)
		return;
	bc_doc_path(ppm, sizeof(ppm), ppath, "pmtu", 0);
	probes = bc_doc_array(r, p->pmtu_obj, ppm, "probes", BC_DOC_REQUIRED, &n);
	if (n > BC_MATRIX_MAX_PROBES) {
		bc_doc_problem(r, ppm, "probes", "more probes than this version keeps");
		n = BC_MATRIX_MAX_PROBES;
	}
	bc_doc_path(pprobes, sizeof(pprobes), ppm, "probes", 0);
	for (size_t i = 0; i < n; i++) {
		struct json_object *pr = json_object_array_get_idx(probes, i);
		struct bc_matrix_probe_doc *d = &p->probes[i];
		enum bc_doc_need sent_need = bc_doc_member(r, pr, "", "error", BC_DOC_OPTIONAL)
						     ? BC_DOC_OPTIONAL
						     : BC_DOC_REQUIRED;

		*d = (struct bc_matrix_probe_doc){.size = -1, .sent = -1};
		bc_doc_path(path, sizeof(path), pprobes, NULL, i);
		bc_doc_i64(r, pr, path, "size", BC_DOC_REQUIRED, &d->size);
		bc_doc_bool(r, pr, path, "carried", BC_DOC_REQUIRED, &d->carried);
		/* a probe that failed has no result: it sent nothing */
		if (!bc_doc_i64(r, pr, path, "sent", sent_need, &d->sent) &&
		    sent_need == BC_DOC_OPTIONAL)
			d->sent = 0;
	}
	p->n_probes = n;
}

/*
 * pair.missing: what bc_matrix_pair_fill() found absent or mistyped in the
 * relayed run result ("ends.agent.metadata.egress.mtu (absent)").
 */
static void read_result_missing(struct bc_doc_read *r, struct json_object *pair, const char *path)
{
	struct json_object *m;
	char why[BC_DOC_PROBLEM_LEN];
	size_t n;

	m = bc_doc_array(r, pair, path, "missing", BC_DOC_OPTIONAL, &n);
	for (size_t i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(m, i);

		snprintf(why, sizeof(why), "the relayed result's %s",
			 json_object_is_type(v, json_type_string) ? json_object_get_string(v)
								  : "(not a string)");
		bc_doc_problem(r, path, NULL, why);
	}
}

static const struct {
	const char *word;
	enum bc_matrix_pair_status st;
} pair_status_names[] = {
	{"ok", BC_MATRIX_PAIR_OK},
	{"failed", BC_MATRIX_PAIR_FAILED},
	{"skipped", BC_MATRIX_PAIR_SKIPPED},
};

static void read_pair(struct json_object *o, size_t k, struct bc_matrix_pair_doc *p)
{
	struct bc_doc_read r;
	struct json_object *e;
	char path[32], epath[48], st[32] = "";

	bc_doc_read_init(&r);
	memset(p, 0, sizeof(*p));
	p->obj = o;
	p->from_index = p->to_index = -1;
	p->goodput_bps = p->ceiling_bps = p->efficiency = NAN;
	p->sender_ceiling_bps = p->receiver_ceiling_bps = NAN;
	p->retransmits = p->sent_packets = p->lost_packets = -1;
	bc_doc_path(path, sizeof(path), "pairs", NULL, k);
	if (!json_object_is_type(o, json_type_object))
		bc_doc_problem(&r, path, NULL, "not an object");
	bc_doc_str(&r, o, path, "from", BC_DOC_REQUIRED, p->from, sizeof(p->from));
	bc_doc_str(&r, o, path, "to", BC_DOC_REQUIRED, p->to, sizeof(p->to));
	bc_doc_i64(&r, o, path, "from_index", BC_DOC_REQUIRED, &p->from_index);
	bc_doc_i64(&r, o, path, "to_index", BC_DOC_REQUIRED, &p->to_index);
	bc_doc_str(&r, o, path, "status", BC_DOC_REQUIRED, st, sizeof(st));
	for (size_t i = 0; i < sizeof(pair_status_names) / sizeof(pair_status_names[0]); i++)
		if (!strcmp(st, pair_status_names[i].word))
			p->status = pair_status_names[i].st;
	read_result_missing(&r, o, path);
	switch (p->status) {
	case BC_MATRIX_PAIR_OK:
		bc_doc_dbl(&r, o, path, "goodput_bps", BC_DOC_REQUIRED, &p->goodput_bps);
		bc_doc_dbl(&r, o, path, "ceiling_bps", BC_DOC_REQUIRED, &p->ceiling_bps);
		/* null means "no ceiling": with one it would hide the figure */
		if (dbl_or_null(&r, o, path, "efficiency", &p->efficiency) && p->ceiling_bps > 0 &&
		    !isnan(p->goodput_bps))
			bc_doc_problem(&r, path, "efficiency", "null with a ceiling");
		bc_doc_dbl(&r, o, path, "sender_ceiling_bps", BC_DOC_OPTIONAL,
			   &p->sender_ceiling_bps);
		bc_doc_dbl(&r, o, path, "receiver_ceiling_bps", BC_DOC_OPTIONAL,
			   &p->receiver_ceiling_bps);
		bc_doc_i64(&r, o, path, "retransmits", BC_DOC_OPTIONAL, &p->retransmits);
		bc_doc_i64(&r, o, path, "sent_packets", BC_DOC_OPTIONAL, &p->sent_packets);
		bc_doc_i64(&r, o, path, "lost_packets", BC_DOC_OPTIONAL, &p->lost_packets);
		read_end(&r, o, path, "client", &p->client);
		read_end(&r, o, path, "agent", &p->agent);
		read_pmtu(&r, o, path, p);
		break;
	case BC_MATRIX_PAIR_FAILED:
		e = bc_doc_member(&r, o, path, "error", BC_DOC_REQUIRED);
		bc_doc_path(epath, sizeof(epath), path, "error", 0);
		if (e) {
			bc_doc_str(&r, e, epath, "code", BC_DOC_REQUIRED, p->error_code,
				   sizeof(p->error_code));
			bc_doc_str(&r, e, epath, "message", BC_DOC_REQUIRED, p->error_message,
				   sizeof(p->error_message));
		}
		break;
	default:
		break;
	}
	p->n_missing = r.n_problems;
	bc_doc_problems_text(&r, p->missing, sizeof(p->missing));
}

static void read_host(struct json_object *o, size_t h, struct bc_matrix_host_doc *ho)
{
	struct bc_doc_read r;
	char path[32];

	bc_doc_read_init(&r);
	memset(ho, 0, sizeof(*ho));
	ho->obj = o;
	ho->mtu = -1;
	ho->link_rate_bps = ho->link_ceiling_bps = ho->ingress_ceiling_bps = NAN;
	bc_doc_path(path, sizeof(path), "hosts", NULL, h);
	if (!json_object_is_type(o, json_type_object))
		bc_doc_problem(&r, path, NULL, "not an object");
	bc_doc_str(&r, o, path, "name", BC_DOC_REQUIRED, ho->name, sizeof(ho->name));
	bc_doc_str(&r, o, path, "status", BC_DOC_REQUIRED, ho->status, sizeof(ho->status));
	if (ho->status[0] && strcmp(ho->status, "ok"))
		bc_doc_str(&r, o, path, "error", BC_DOC_REQUIRED, ho->error, sizeof(ho->error));
	bc_doc_str(&r, o, path, "interface", BC_DOC_OPTIONAL, ho->interface, sizeof(ho->interface));
	bc_doc_str(&r, o, path, "rate_source", BC_DOC_OPTIONAL, ho->rate_source,
		   sizeof(ho->rate_source));
	bc_doc_i64(&r, o, path, "mtu", BC_DOC_OPTIONAL, &ho->mtu);
	bc_doc_dbl(&r, o, path, "link_rate_bps", BC_DOC_OPTIONAL, &ho->link_rate_bps);
	bc_doc_dbl(&r, o, path, "link_ceiling_bps", BC_DOC_OPTIONAL, &ho->link_ceiling_bps);
	bc_doc_dbl(&r, o, path, "ingress_ceiling_bps", BC_DOC_OPTIONAL, &ho->ingress_ceiling_bps);
	ho->n_missing = r.n_problems;
	bc_doc_problems_text(&r, ho->missing, sizeof(ho->missing));
}

int bc_matrix_doc_read(struct json_object *doc, struct bc_matrix_doc *d, struct bc_error *err)
{
	struct json_object *hosts, *pairs;
	struct bc_doc_read r;
	char text[2 * BC_DOC_PROBLEM_LEN];

	char proto[16] = "";

	memset(d, 0, sizeof(*d));
	d->duration_ms = -1;
	bc_doc_read_init(&r);
	bc_doc_str(&r, doc, "", "protocol", BC_DOC_OPTIONAL, proto, sizeof(proto));
	d->udp = !strcmp(proto, "udp");
	bc_doc_i64(&r, doc, "", "duration_ms", BC_DOC_OPTIONAL, &d->duration_ms);
	hosts = bc_doc_array(&r, doc, "", "hosts", BC_DOC_REQUIRED, &d->n_hosts);
	pairs = bc_doc_array(&r, doc, "", "pairs", BC_DOC_REQUIRED, &d->n_pairs);
	if (!hosts || !pairs) {
		d->n_hosts = d->n_pairs = 0;
		return bc_error_set(err, -EINVAL,
				    "matrix document without \"hosts\" and \"pairs\": %s",
				    bc_doc_problems_text(&r, text, sizeof(text)));
	}
	d->hosts = calloc(d->n_hosts + 1, sizeof(*d->hosts));
	d->pairs = calloc(d->n_pairs + 1, sizeof(*d->pairs));
	if (!d->hosts || !d->pairs) {
		d->n_hosts = d->n_pairs = 0;
		return bc_error_set(err, -ENOMEM, "out of memory for the matrix document");
	}
	for (size_t h = 0; h < d->n_hosts; h++)
		read_host(json_object_array_get_idx(hosts, h), h, &d->hosts[h]);
	for (size_t k = 0; k < d->n_pairs; k++)
		read_pair(json_object_array_get_idx(pairs, k), k, &d->pairs[k]);
	return 0;
}

void bc_matrix_doc_free(struct bc_matrix_doc *d)
{
	free(d->hosts);
	free(d->pairs);
	memset(d, 0, sizeof(*d));
}
