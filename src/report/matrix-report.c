// SPDX-License-Identifier: GPL-2.0-or-later
/* Text and CSV of the matrix document (bondcheck/matrix.h).  Pure. */
#include <stdio.h>
#include <string.h>

#include "bondcheck/answer.h"
#include "bondcheck/csv.h"
#include "bondcheck/json-get.h"
#include "bondcheck/matrix.h"
#include "bondcheck/plot.h"
#include "bondcheck/wrap.h"

/* @text after @prefix, wrapped to the report's width with a hanging indent. */
static void wrap(FILE *out, const char *prefix, const char *text)
{
	bc_wrap(out, bc_answer_width(out), prefix, strlen(prefix), text);
}

static struct json_object *member(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static struct json_object *cell(struct json_object *grid, size_t i, size_t j)
{
	return json_object_array_get_idx(json_object_array_get_idx(grid, i), j);
}

static struct json_object *find_pair(struct json_object *pairs, size_t i, size_t j)
{
	for (size_t k = 0; k < bc_json_len(pairs); k++) {
		struct json_object *p = json_object_array_get_idx(pairs, k);

		if (bc_json_i64(p, "from_index", -1) == (long long)i &&
		    bc_json_i64(p, "to_index", -1) == (long long)j)
			return p;
	}
	return NULL;
}

static void header(FILE *out, struct json_object *names, int w0, int w)
{
	fprintf(out, "%-*s", w0, "from \\ to");
	for (size_t j = 0; j < bc_json_len(names); j++)
		fprintf(out, " %*s", w,
			json_object_get_string(json_object_array_get_idx(names, j)));
	fputc('\n', out);
}

/*
 * "Matrix: N hosts, --pairs RULE: P ordered pairs in R rounds of disjoint
 * pairs, ...": the pair rule (and seed), and how many pairs ran at once,
 * because concurrent pairs share the fabric and that changes what is measured.
 */
static void concurrency_line(FILE *out, struct json_object *doc, size_t n, size_t n_pairs)
{
	const char *rule = bc_json_str(doc, "pairs_rule");
	struct json_object *seed = member(doc, "seed");
	long long conc = bc_json_i64(doc, "concurrency", 1);
	long long most = bc_json_i64(doc, "concurrent_pairs_max", 1);

	fprintf(out, "\nMatrix: %zu hosts, --pairs %s", n, *rule ? rule : "all");
	if (seed && json_object_is_type(seed, json_type_int))
		fprintf(out, " (seed %s)", json_object_get_string(seed));
	fprintf(out, ": %zu ordered pairs in %lld rounds of disjoint pairs, ", n_pairs,
		bc_json_i64(doc, "rounds", 0));
	if (most > 1)
		fprintf(out, "up to %lld at once (--concurrency %lld: pairs at once share the "
			     "fabric)", most, conc);
	else
		fprintf(out, "one at a time (--concurrency %lld)", conc);
}

void bc_matrix_report_text(FILE *out, struct json_object *doc)
{
	struct json_object *m = member(doc, "matrix"), *names = member(m, "hosts");
	struct json_object *pairs = member(doc, "pairs"), *hosts = member(doc, "hosts");
	struct json_object *fs = member(doc, "findings");
	size_t n = bc_json_len(names);
	int w0 = 9, w = 15;
	bool udp = !strcmp(bc_json_str(doc, "protocol"), "udp");

	for (size_t i = 0; i < n; i++) {
		int l = (int)strlen(json_object_get_string(json_object_array_get_idx(names, i)));

		if (l > w0)
			w0 = l;
		if (l > w)
			w = l;
	}
	bc_matrix_report_answers(out, doc);
	concurrency_line(out, doc, n, bc_json_len(pairs));
	fprintf(out, ", %s, %lld stream(s)", udp ? "UDP" : "TCP", bc_json_i64(doc, "streams", 1));
	if (udp)
		fprintf(out, " of %.2f Mbit/s, %lld-byte datagrams",
			bc_json_dbl(doc, "rate_bps_per_stream", 0) / 1e6,
			bc_json_i64(doc, "length", 0));
	fprintf(out, ", %.1f s per pair%s\n\n", bc_json_dbl(doc, "duration_ms", 0) / 1000,
		json_object_get_boolean(member(doc, "incomplete")) ? " (INCOMPLETE)" : "");

	fprintf(out, "Goodput Mbit/s and efficiency against each pair's ceiling, the smaller of "
		     "the sender's egress and the receiver's ingress (row sends to column):\n");
	header(out, names, w0, w);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%-*s", w0,
			json_object_get_string(json_object_array_get_idx(names, i)));
		for (size_t j = 0; j < n; j++) {
			struct json_object *g = cell(member(m, "goodput_bps"), i, j);
			struct json_object *e = cell(member(m, "efficiency"), i, j);
			struct json_object *p = find_pair(pairs, i, j);
			char buf[64];

			if (i == j)
				snprintf(buf, sizeof(buf), "-");
			else if (!g)
				snprintf(buf, sizeof(buf), "%s",
					 p ? bc_json_str(p, "status") : "?");
			else if (e)
				snprintf(buf, sizeof(buf), "%.2f %3.0f%%",
					 json_object_get_double(g) / 1e6,
					 100 * json_object_get_double(e));
			else
				snprintf(buf, sizeof(buf), "%.2f   ?%%",
					 json_object_get_double(g) / 1e6);
			fprintf(out, " %*s", w, buf);
		}
		fputc('\n', out);
	}
	fprintf(out, "\n%s per pair and their share of the %s sent (row sends to column):\n",
		udp ? "Datagrams lost" : "Retransmits", udp ? "datagrams" : "segments");
	header(out, names, w0, w);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%-*s", w0,
			json_object_get_string(json_object_array_get_idx(names, i)));
		for (size_t j = 0; j < n; j++) {
			struct json_object *p = find_pair(pairs, i, j);
			struct json_object *c = member(p, udp ? "lost_packets" : "retransmits");
			struct json_object *sh = member(p, "loss_share");
			char buf[64];

			if (i == j)
				snprintf(buf, sizeof(buf), "-");
			else if (!p || strcmp(bc_json_str(p, "status"), "ok") || !c)
				snprintf(buf, sizeof(buf), "?");
			else if (sh && !json_object_is_type(sh, json_type_null))
				snprintf(buf, sizeof(buf), "%lld %4.1f%%",
					 (long long)json_object_get_int64(c),
					 100 * json_object_get_double(sh));
			else
				snprintf(buf, sizeof(buf), "%lld", (long long)json_object_get_int64(c));
			fprintf(out, " %*s", w, buf);
		}
		fputc('\n', out);
	}
	if (json_object_get_boolean(member(doc, "pmtu_probes"))) {
		fprintf(out, "\nPath MTU: largest DF probe carried, bytes (! = a probe of a size "
			     "both ends take was lost, ~ = the sender's larger MTU was lost):\n");
		header(out, names, w0, w);
		for (size_t i = 0; i < n; i++) {
			fprintf(out, "%-*s", w0,
				json_object_get_string(json_object_array_get_idx(names, i)));
			for (size_t j = 0; j < n; j++) {
				struct json_object *p = find_pair(pairs, i, j),
						   *pm = member(p, "pmtu");
				const char *st = bc_json_str(pm, "status");
				char buf[64];

				if (i == j)
					snprintf(buf, sizeof(buf), "-");
				else if (!pm)
					snprintf(buf, sizeof(buf), "?");
				else
					snprintf(buf, sizeof(buf), "%lld%s",
						 bc_json_i64(pm, "largest_carried", 0),
						 !strcmp(st, "blackhole")  ? " !"
						 : !strcmp(st, "mismatch") ? " ~"
									   : "");
				fprintf(out, " %*s", w, buf);
			}
			fputc('\n', out);
		}
	}
	fprintf(out, "\nHosts:\n");
	for (size_t h = 0; h < bc_json_len(hosts); h++) {
		struct json_object *ho = json_object_array_get_idx(hosts, h);
		char line[900];

		if (strcmp(bc_json_str(ho, "status"), "ok")) {
			snprintf(line, sizeof(line), "  %-*s %s: ", w0, bc_json_str(ho, "name"),
				 bc_json_str(ho, "status"));
			wrap(out, line, bc_json_str(ho, "error"));
			continue;
		}
		fprintf(out, "  %-*s %s MTU %lld", w0, bc_json_str(ho, "name"),
			bc_json_str(ho, "interface"), bc_json_i64(ho, "mtu", 0));
		if (bc_json_dbl(ho, "link_rate_bps", 0) > 0)
			fprintf(out, ", sending %.1f Mbit/s (%s), ceiling %.2f Mbit/s",
				bc_json_dbl(ho, "link_rate_bps", 0) / 1e6,
				bc_json_str(ho, "rate_source"),
				bc_json_dbl(ho, "link_ceiling_bps", 0) / 1e6);
		else
			fprintf(out, ", sending rate unknown");
		if (bc_json_dbl(ho, "ingress_ceiling_bps", 0) > 0)
			fprintf(out, "; receiving ceiling %.2f Mbit/s (NIC speed)",
				bc_json_dbl(ho, "ingress_ceiling_bps", 0) / 1e6);
		else if (member(ho, "ingress_ceiling_bps"))
			fprintf(out, "; receiving ceiling unknown");
		fputc('\n', out);
	}
	{
		bool any = false;

		for (size_t k = 0; k < bc_json_len(pairs); k++) {
			struct json_object *p = json_object_array_get_idx(pairs, k);
			char line[700];

			if (strcmp(bc_json_str(p, "status"), "failed"))
				continue;
			if (!any)
				fprintf(out, "\nFailed pairs:\n");
			any = true;
			snprintf(line, sizeof(line), "  %s -> %s (%s): ", bc_json_str(p, "from"),
				 bc_json_str(p, "to"), bc_json_str(member(p, "error"), "code"));
			wrap(out, line, bc_json_str(member(p, "error"), "message"));
		}
	}
	fprintf(out, "\nFindings:\n");
	if (!bc_json_len(fs))
		fprintf(out, "  none\n");
	for (size_t k = 0; k < bc_json_len(fs); k++) {
		struct json_object *f = json_object_array_get_idx(fs, k);

		fprintf(out, "  %-7s %-18s %s\n", bc_json_str(f, "severity"), bc_json_str(f, "id"),
			bc_json_str(f, "subject"));
		wrap(out, "          ", bc_json_str(f, "advice"));
	}
}

/* One field (RFC 4180, bc_csv_text()) and its separator. */
static void csv_field(FILE *out, const char *s, bool last)
{
	bc_csv_text(out, s);
	fputs(last ? "\r\n" : ",", out);
}

static void csv_num_sep(FILE *out, struct json_object *o, const char *k, const char *fmt,
			bool last)
{
	struct json_object *v = member(o, k);
	char buf[64] = "";

	if (v && !json_object_is_type(v, json_type_null)) {
		if (json_object_is_type(v, json_type_int))
			snprintf(buf, sizeof(buf), "%lld", (long long)json_object_get_int64(v));
		else
			snprintf(buf, sizeof(buf), fmt, json_object_get_double(v));
	}
	csv_field(out, buf, last);
}

static void csv_num(FILE *out, struct json_object *o, const char *k, const char *fmt)
{
	csv_num_sep(out, o, k, fmt, false);
}

static void csv_last_num(FILE *out, struct json_object *o, const char *k, const char *fmt)
{
	csv_num_sep(out, o, k, fmt, true);
}

void bc_matrix_report_csv(FILE *out, struct json_object *doc)
{
	struct json_object *pairs = member(doc, "pairs");

	fputs("from,to,status,goodput_bps,ceiling_bps,efficiency,limited_by,retransmits,"
	      "lost_packets,from_mtu,to_mtu,pmtu_largest_carried,pmtu_status,error,loss_share,"
	      "sender_ceiling_bps,receiver_ceiling_bps\r\n",
	      out);
	for (size_t k = 0; k < bc_json_len(pairs); k++) {
		struct json_object *p = json_object_array_get_idx(pairs, k),
				   *pm = member(p, "pmtu");
		char msg[700];

		csv_field(out, bc_json_str(p, "from"), false);
		csv_field(out, bc_json_str(p, "to"), false);
		csv_field(out, bc_json_str(p, "status"), false);
		csv_num(out, p, "goodput_bps", "%.0f");
		csv_num(out, p, "ceiling_bps", "%.0f");
		csv_num(out, p, "efficiency", "%.4f");
		csv_field(out, bc_json_str(p, "limited_by"), false);
		csv_num(out, p, "retransmits", "%.0f");
		csv_num(out, p, "lost_packets", "%.0f");
		csv_num(out, member(p, "client"), "mtu", "%.0f");
		csv_num(out, member(p, "agent"), "mtu", "%.0f");
		csv_num(out, pm, "largest_carried", "%.0f");
		csv_field(out, bc_json_str(pm, "status"), false);
		msg[0] = '\0';
		if (member(p, "error"))
			snprintf(msg, sizeof(msg), "%s: %s",
				 bc_json_str(member(p, "error"), "code"),
				 bc_json_str(member(p, "error"), "message"));
		csv_field(out, msg, false);
		csv_num(out, p, "loss_share", "%.4f");
		csv_num(out, p, "sender_ceiling_bps", "%.0f");
		csv_last_num(out, p, "receiver_ceiling_bps", "%.0f");
	}
}

int bc_matrix_report_plot(const char *path, struct json_object *doc, struct bc_error *err)
{
	struct json_object *v = json_object_new_object(), *pairs = json_object_new_array();
	struct json_object *src = member(doc, "pairs");
	int r;

	/* bc_plot_heatmap's input: host names, and per ordered pair goodput or null */
	json_object_object_add(v, "hosts", json_object_get(member(member(doc, "matrix"), "hosts")));
	for (size_t k = 0; k < bc_json_len(src); k++) {
		struct json_object *p = json_object_array_get_idx(src, k),
				   *o = json_object_new_object();
		struct json_object *e = member(p, "efficiency");
		bool ok = !strcmp(bc_json_str(p, "status"), "ok");

		json_object_object_add(o, "from", json_object_new_string(bc_json_str(p, "from")));
		json_object_object_add(o, "to", json_object_new_string(bc_json_str(p, "to")));
		json_object_object_add(o, "goodput_bps",
				       ok ? json_object_new_double(bc_json_dbl(p, "goodput_bps", 0))
					  : NULL);
		if (ok && e && !json_object_is_type(e, json_type_null))
			json_object_object_add(o, "efficiency", json_object_get(e));
		json_object_array_add(pairs, o);
	}
	json_object_object_add(v, "pairs", pairs);
	r = bc_plot_heatmap(path, v, err);
	json_object_put(v);
	return r;
}
