// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck watch` as JSON lines (bondcheck/watch-report.h; docs/watch.md).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "bondcheck/names.h"
#include "bondcheck/watch-report.h"

#define NUM(x) json_object_new_double(x)
#define U64(x) json_object_new_uint64(x)
#define STR(x) json_object_new_string(x)

static const char *src_name(enum bc_watch_src s)
{
	return s == BC_WATCH_SRC_OBSERVED ? "observed" : s == BC_WATCH_SRC_PREDICTED ? "predicted"
										      : "unknown";
}

static struct json_object *slaves(const struct bc_watch_interval *iv)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < iv->n_slaves; i++) {
		const struct bc_watch_slave_rate *s = &iv->slaves[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "name", STR(s->name));
		json_object_object_add(o, "up", json_object_new_boolean(s->up));
		json_object_object_add(o, "usable", json_object_new_boolean(s->usable));
		json_object_object_add(o, "speed_bps", s->speed_bps > 0 ? NUM(s->speed_bps) : NULL);
		json_object_object_add(o, "tx_bps", NUM(s->tx_bps));
		json_object_object_add(o, "rx_bps", NUM(s->rx_bps));
		json_object_object_add(o, "tx_share", s->tx_share >= 0 ? NUM(s->tx_share) : NULL);
		json_object_object_add(o, "rx_share", s->rx_share >= 0 ? NUM(s->rx_share) : NULL);
		json_object_object_add(o, "tx_bytes", U64(s->tx_bytes));
		json_object_object_add(o, "rx_bytes", U64(s->rx_bytes));
		json_object_object_add(o, "drops", U64(s->drops));
		json_object_object_add(o, "errors", U64(s->errors));
		json_object_object_add(o, "flows_tx_bps", NUM(s->predicted_tx_bps));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *flows(const struct bc_watch_interval *iv)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < iv->n_flows; i++) {
		const struct bc_watch_flow_rate *f = &iv->flows[i];
		struct json_object *o = json_object_new_object();
		char s[INET6_ADDRSTRLEN] = "", d[INET6_ADDRSTRLEN] = "";

		inet_ntop(f->flow.family, f->flow.src, s, sizeof(s));
		inet_ntop(f->flow.family, f->flow.dst, d, sizeof(d));
		json_object_object_add(o, "local", STR(s));
		json_object_object_add(o, "local_port", json_object_new_int(f->flow.sport));
		json_object_object_add(o, "peer", STR(d));
		json_object_object_add(o, "peer_port", json_object_new_int(f->flow.dport));
		json_object_object_add(o, "tx_bps", NUM(f->tx_bps));
		json_object_object_add(o, "rx_bps", NUM(f->rx_bps));
		json_object_object_add(o, "tx_slave",
				       f->tx_slave >= 0 ? STR(iv->slaves[f->tx_slave].name) : NULL);
		json_object_object_add(o, "tx_source", STR(src_name(f->tx_src)));
		json_object_object_add(o, "rx_slave",
				       f->rx_slave >= 0 ? STR(iv->slaves[f->rx_slave].name) : NULL);
		json_object_object_add(o, "rx_source", STR(src_name(f->rx_src)));
		json_object_object_add(o, "unknown_because", f->why[0] ? STR(f->why) : NULL);
		json_object_object_add(o, "protocol", STR(f->flow.proto == IPPROTO_TCP   ? "tcp"
							  : f->flow.proto == IPPROTO_UDP ? "udp"
											 : "other"));
		json_object_object_add(o, "socket", json_object_new_boolean(f->socket));
		json_object_object_add(o, "tx_slave_predicted",
				       f->tx_predicted >= 0 ? STR(iv->slaves[f->tx_predicted].name)
							    : NULL);
		json_object_array_add(a, o);
	}
	return a;
}

static void body(struct json_object *o, const struct bc_watch_interval *iv)
{
	struct json_object *a;

	json_object_object_add(o, "dt_s", NUM(iv->dt_s));
	json_object_object_add(o, "tx_bps", NUM(iv->tx_bps));
	json_object_object_add(o, "rx_bps", NUM(iv->rx_bps));
	json_object_object_add(o, "slaves", slaves(iv));
	a = json_object_new_array();
	for (size_t i = 0; i < iv->n_added; i++)
		json_object_array_add(a, STR(iv->added[i]));
	json_object_object_add(o, "slaves_added", a);
	a = json_object_new_array();
	for (size_t i = 0; i < iv->n_removed; i++)
		json_object_array_add(a, STR(iv->removed[i]));
	json_object_object_add(o, "slaves_removed", a);
	if (iv->tcp_counters) {
		struct json_object *t = json_object_new_object();

		json_object_object_add(t, "retrans_segs", U64(iv->tcp_retrans_segs));
		json_object_object_add(t, "out_segs", U64(iv->tcp_out_segs));
		json_object_object_add(t, "reorder_events", U64(iv->tcp_reorder));
		json_object_object_add(o, "tcp", t);
	} else {
		json_object_object_add(o, "tcp", NULL);
	}
	json_object_object_add(o, "flows", flows(iv));
}

struct json_object *bc_watch_json_interval(const struct bc_watch_interval *iv, double t_s)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "type", STR("interval"));
	json_object_object_add(o, "t_s", NUM(t_s));
	body(o, iv);
	/* the taps' flow table now, and its LRU evictions in this interval */
	json_object_object_add(o, "tap_flow_entries", iv->taps ? U64(iv->tap_flow_entries) : NULL);
	json_object_object_add(o, "tap_flow_evicted", iv->taps ? U64(iv->tap_flow_evicted) : NULL);
	return o;
}

bool bc_watch_failed(const struct bc_watch_verdicts *v)
{
	return v->balance.status == BC_VERDICT_FAIL || v->top_flow.status == BC_VERDICT_FAIL ||
	       v->ports.status == BC_VERDICT_FAIL || v->reordering.status == BC_VERDICT_FAIL;
}

struct json_object *bc_watch_json_summary(const struct bc_watch_run_info *ri,
					  const struct bc_watch_interval *total,
					  const struct bc_watch_verdicts *v)
{
	struct json_object *o = json_object_new_object(), *vs = json_object_new_object();
	const struct bc_verdict *all[4] = {&v->balance, &v->top_flow, &v->ports, &v->reordering};

	json_object_object_add(o, "type", STR("summary"));
	json_object_object_add(o, "schema_version", json_object_new_int(1));
	json_object_object_add(o, "bond", STR(ri->bond));
	json_object_object_add(o, "mode", bc_mode_name(ri->mode) ? STR(bc_mode_name(ri->mode))
								 : NULL);
	json_object_object_add(o, "xmit_hash_policy", ri->policy[0] ? STR(ri->policy) : NULL);
	json_object_object_add(o, "elapsed_s", NUM(ri->elapsed_s));
	json_object_object_add(o, "intervals", json_object_new_int((int)ri->n_intervals));
	json_object_object_add(o, "flow_source", STR(ri->taps ? "taps" : "predicted"));
	json_object_object_add(o, "flows_error",
			       ri->flows_error && ri->flows_error[0] ? STR(ri->flows_error) : NULL);
	json_object_object_add(o, "flows_not_followed", U64(ri->flows_dropped));
	if (ri->taps) {
		struct json_object *t = json_object_new_object();

		json_object_object_add(t, "entries", U64(ri->tap_flow_entries));
		json_object_object_add(t, "capacity", U64(ri->tap_flow_capacity));
		json_object_object_add(t, "full", json_object_new_boolean(
							 ri->tap_flow_entries >= ri->tap_flow_capacity));
		json_object_object_add(t, "evicted", U64(ri->tap_flow_evicted));
		json_object_object_add(t, "packets_not_counted", U64(ri->tap_flow_fail));
		json_object_object_add(o, "tap_flow_table", t);
	} else {
		json_object_object_add(o, "tap_flow_table", NULL);
	}
	body(o, total);
	/* the --top busiest flows' bytes by slave, as --plot draws them */
	json_object_object_add(o, "placement",
			       ri->sums ? bc_watch_json_placement(ri->sums, NULL, ri->top) : NULL);
	for (int i = 0; i < 4; i++) {
		struct json_object *x = json_object_new_object();

		struct json_object *e = json_object_new_object();

		bc_verdict_json_data(all[i], x);
		/* every evidence value, also of a verdict without a cause */
		for (size_t k = 0; k < all[i]->n_evidence; k++)
			json_object_object_add(e, all[i]->evidence[k].key,
					       STR(all[i]->evidence[k].value));
		json_object_object_add(x, "evidence", e);
		json_object_object_add(x, "mechanism", all[i]->mechanism[0]
								? STR(all[i]->mechanism)
								: NULL);
		json_object_object_add(x, "where", all[i]->where[0] ? STR(all[i]->where) : NULL);
		json_object_object_add(vs, all[i]->question, x);
	}
	json_object_object_add(o, "verdicts", vs);
	return o;
}

/* "tcp 10.0.0.1:40000 > 10.0.0.2:5201", cut to @len - 1 characters with "...". */
static void flow_label(const struct bc_flow *f, char *out, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?", b[INET6_ADDRSTRLEN] = "?";
	const char *fmt = f->family == AF_INET6 ? "%s [%s]:%u > [%s]:%u" : "%s %s:%u > %s:%u";

	inet_ntop(f->family, f->src, a, sizeof(a));
	inet_ntop(f->family, f->dst, b, sizeof(b));
	if ((size_t)snprintf(out, len, fmt,
			     f->proto == IPPROTO_TCP   ? "tcp"
			     : f->proto == IPPROTO_UDP ? "udp"
						       : "ip",
			     a, f->sport, b, f->dport) >= len &&
	    len > 4)
		memcpy(out + len - 4, "...", 4);
}

static uint64_t flow_sum_bytes(const struct bc_watch_flow_sum *x)
{
	return x->tx_bytes + x->rx_bytes;
}

struct json_object *bc_watch_json_placement(const struct bc_watch_flow_sums *t, const char *bond,
					    size_t max)
{
	struct json_object *o = json_object_new_object(), *sl = json_object_new_array(),
			   *fl = json_object_new_array();
	size_t *idx = t->n ? calloc(t->n, sizeof(*idx)) : NULL, n = 0;

	if (bond && *bond)
		json_object_object_add(o, "bond", STR(bond));
	for (size_t i = 0; i < t->n_slaves; i++)
		json_object_array_add(sl, STR(t->slave[i]));
	json_object_object_add(o, "slaves", sl);
	json_object_object_add(o, "flows", fl);
	if (!idx)
		return o;
	/* the @max busiest that carried anything, by a partial selection (n is small) */
	for (size_t k = 0; k < t->n; k++) {
		size_t at;

		if (!flow_sum_bytes(&t->v[k]))
			continue;
		for (at = n; at > 0 && flow_sum_bytes(&t->v[idx[at - 1]]) < flow_sum_bytes(&t->v[k]);
		     at--)
			;
		if (at >= max)
			continue;
		if (n < max)
			n++;
		memmove(idx + at + 1, idx + at, (n - 1 - at) * sizeof(*idx));
		idx[at] = k;
	}
	for (size_t r = 0; r < n; r++) {
		const struct bc_watch_flow_sum *x = &t->v[idx[r]];
		struct json_object *f = json_object_new_object(), *tx = json_object_new_array(),
				   *rx = json_object_new_array();
		char label[64];

		flow_label(&x->flow, label, sizeof(label));
		json_object_object_add(f, "label", STR(label));
		json_object_object_add(f, "tx_source", STR(src_name(x->tx_src)));
		json_object_object_add(f, "rx_source", STR(src_name(x->rx_src)));
		json_object_object_add(f, "tx_bytes", U64(x->tx_bytes));
		json_object_object_add(f, "rx_bytes", U64(x->rx_bytes));
		for (size_t i = 0; i < t->n_slaves; i++) {
			json_object_array_add(tx, U64(x->tx_on[i]));
			json_object_array_add(rx, U64(x->rx_on[i]));
		}
		json_object_object_add(f, "tx_on", tx);
		json_object_object_add(f, "rx_on", rx);
		json_object_array_add(fl, f);
	}
	free(idx);
	return o;
}
