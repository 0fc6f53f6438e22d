// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON of `bondcheck analyze` (schema: docs/analyze.md), built with json-c
 * from a finished struct bc_attrib.  Also the offline loss ledger stages,
 * shared with the text renderer.
 */
#include <arpa/inet.h>
#include <stdbool.h>
#include <stdio.h>

#include "bondcheck/analyze-report.h"
#include "bondcheck/names.h"
#include "report/analyze-ledger.h"

#define U64(v) json_object_new_int64((int64_t)(v))

void analyze_ledger(const struct bc_attrib *a, struct ledger_stage st[LEDGER_STAGES])
{
	uint64_t left = 0, arrived = 0, heads = 0, reasm;

	for (size_t i = 0; i < a->n_links; i++) {
		if (a->links[i].side == BC_SIDE_TX)
			left += a->links[i].units_left;
		else
			arrived += a->links[i].units_arrived;
	}
	for (size_t s = 0; s < a->n_streams; s++)
		if (a->streams[s].dir == BC_DIR_FWD)
			heads += a->streams[s].arrived + a->streams[s].arrived_partial;
	reasm = heads - (a->frag.incomplete + a->frag.too_far <= heads
				 ? a->frag.incomplete + a->frag.too_far
				 : heads);
	st[0] = (struct ledger_stage){"sent_by_app", true, 0,
				      "needs the sender's count (bondcheck run)"};
	st[1] = (struct ledger_stage){"left_on_link", false, left,
				      "sender slave captures: packets (fragments count each)"};
	st[2] = (struct ledger_stage){"arrived_on_link", false, arrived,
				      "receiver slave captures: packets"};
	st[3] = (struct ledger_stage){"reassembled", false, reasm,
				      "receiver captures: datagrams whole or with every fragment, "
				      "minus predicted FRAG_TOO_FAR"};
	st[4] = (struct ledger_stage){"reached_socket", true, 0,
				      "needs Udp RcvbufErrors/InErrors deltas (bondcheck run)"};
	st[5] = (struct ledger_stage){"read_by_app", true, 0,
				      "needs the receiver's count (bondcheck run)"};
}

static struct json_object *dir_json(const struct bc_attrib_link *l, enum bc_dir d)
{
	const struct bc_link_dir *x = &l->dir[d];
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "frames", U64(x->frames));
	json_object_object_add(o, "bytes", U64(x->bytes));
	json_object_object_add(o, "wire_frames", U64(x->wire_frames));
	json_object_object_add(o, "wire_bytes", U64(x->wire_bytes));
	json_object_object_add(o, "super_frames", U64(x->super_frames));
	json_object_object_add(o, "flows", U64(x->flows));
	json_object_object_add(o, "first_ns", U64(x->first_ns));
	json_object_object_add(o, "last_ns", U64(x->last_ns));
	json_object_object_add(o, "wire_bps", json_object_new_double(bc_attrib_wire_bps(l, d)));
	return o;
}

/* TCP chunks (per-MSS pieces of segments) of one link (attrib-tcp.c). */
static struct json_object *tcp_link_json(const struct bc_attrib_tcp_link *t)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "chunks_left", U64(t->chunks_left));
	json_object_object_add(o, "bytes_left", U64(t->bytes_left));
	json_object_object_add(o, "chunks_arrived", U64(t->chunks_arrived));
	json_object_object_add(o, "bytes_arrived", U64(t->bytes_arrived));
	json_object_object_add(o, "lost", U64(t->lost));
	json_object_object_add(o, "lost_bytes", U64(t->lost_bytes));
	json_object_object_add(o, "unbracketed", U64(t->unbracketed));
	json_object_object_add(o, "retransmits", U64(t->retransmits));
	json_object_object_add(o, "retransmit_bytes", U64(t->retransmit_bytes));
	json_object_object_add(o, "spurious_retransmits", U64(t->spurious));
	return o;
}

/* RFC 5236 RD bins of @rd: displacement -> count, non-zero bins only. */
static struct json_object *rd_json(const struct bc_rd *rd)
{
	struct json_object *o = json_object_new_object();

	for (int d = -(int)rd->dt; d <= (int)rd->dt; d++) {
		char k[16];
		uint64_t c = bc_rd_count(rd, d);

		if (!c)
			continue;
		snprintf(k, sizeof(k), "%d", d);
		json_object_object_add(o, k, U64(c));
	}
	return o;
}

static struct json_object *links_json(const struct bc_attrib *a)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < a->n_links; i++) {
		const struct bc_attrib_link *l = &a->links[i];
		struct json_object *o = json_object_new_object();
		enum bc_dir main = BC_DIR_FWD;

		json_object_object_add(o, "name", json_object_new_string(l->name));
		json_object_object_add(o, "side",
				       json_object_new_string(l->side == BC_SIDE_TX ? "tx" : "rx"));
		/* frames/bytes: the test's data direction on this link */
		json_object_object_add(o, "frames", U64(l->dir[main].frames));
		json_object_object_add(o, "bytes", U64(l->dir[main].bytes));
		json_object_object_add(o, "forward", dir_json(l, BC_DIR_FWD));
		json_object_object_add(o, "reverse", dir_json(l, BC_DIR_REV));
		json_object_object_add(o, "units_left", U64(l->units_left));
		json_object_object_add(o, "units_arrived", U64(l->units_arrived));
		json_object_object_add(o, "lost", U64(l->lost));
		json_object_object_add(o, "unbracketed", U64(l->unbracketed));
		json_object_object_add(o, "messages_lost", U64(l->messages_lost));
		json_object_object_add(o, "peer",
				       l->peer >= 0 ? json_object_new_string(a->links[l->peer].name)
						    : NULL);
		json_object_object_add(o, "lacpdus", U64(l->lacpdus));
		if (l->lacpdus) {
			char w[128];
			struct json_object *lo = json_object_new_object();

			json_object_object_add(lo, "actor_state",
					       json_object_new_string(bc_lacp_state_words(
						       l->last_lacp.actor.state, w, sizeof(w))));
			json_object_object_add(lo, "partner_state",
					       json_object_new_string(bc_lacp_state_words(
						       l->last_lacp.partner.state, w, sizeof(w))));
			json_object_object_add(lo, "actor_key", U64(l->last_lacp.actor.key));
			json_object_object_add(lo, "partner_key", U64(l->last_lacp.partner.key));
			json_object_object_add(o, "last_lacpdu", lo);
		}
		json_object_object_add(o, "other_frames", U64(l->other_frames));
		json_object_object_add(o, "foreign", U64(l->foreign));
		json_object_object_add(o, "udp_other", U64(l->udp_other));
		json_object_object_add(o, "iperf3_connect", U64(l->iperf3_connect));
		json_object_object_add(o, "snapped", U64(l->snapped));
		json_object_object_add(o, "malformed", U64(l->malformed));
		json_object_object_add(o, "truncated", json_object_new_boolean(l->truncated));
		json_object_object_add(o, "snaplen", U64(l->snaplen));
		json_object_object_add(o, "tcp", tcp_link_json(&l->tcp));
		json_object_object_add(o, "complete",
				       json_object_new_boolean(!bc_attrib_link_incomplete(a, i)));
		{
			/* what each figure is worth (bondcheck/attrib.h "bc_bound") */
			struct json_object *b = json_object_new_object();

			json_object_object_add(b, "counts",
					       json_object_new_string(bc_bound_name(
						       bc_attrib_count_bound(a, i))));
			json_object_object_add(
				b, "lost",
				l->side == BC_SIDE_TX || l->units_left
					? json_object_new_string(
						  bc_bound_name(bc_attrib_loss_bound(a, (long)i)))
					: NULL);
			json_object_object_add(o, "bounds", b);
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *addr(uint8_t version, const uint8_t *a)
{
	char buf[64];

	inet_ntop(version == 6 ? AF_INET6 : AF_INET, a, buf, sizeof(buf));
	return json_object_new_string(buf);
}

static struct json_object *flows_json(const struct bc_attrib *a)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < a->n_flows; i++) {
		const struct bc_attrib_flow *f = &a->flows[i];
		struct json_object *o = json_object_new_object(), *ls = json_object_new_array();

		json_object_object_add(o, "proto",
				       json_object_new_string(f->proto == 6    ? "tcp"
							      : f->proto == 17 ? "udp"
									       : "other"));
		json_object_object_add(o, "src", addr(f->version, f->src));
		json_object_object_add(o, "sport", U64(f->sport));
		json_object_object_add(o, "dst", addr(f->version, f->dst));
		json_object_object_add(o, "dport", U64(f->dport));
		json_object_object_add(
			o, "direction",
			json_object_new_string(f->dir == BC_DIR_FWD ? "forward" : "reverse"));
		json_object_object_add(o, "frames", U64(f->frames));
		json_object_object_add(o, "bytes", U64(f->bytes));
		for (size_t l = 0; l < a->n_links; l++)
			if (f->link_mask & (1ull << l))
				json_object_array_add(ls, json_object_new_string(a->links[l].name));
		json_object_object_add(o, "links", ls);
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *streams_json(const struct bc_attrib *a)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < a->n_streams; i++) {
		const struct bc_attrib_stream *s = &a->streams[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(
			o, "generator",
			json_object_new_string(s->gen == BC_GEN_IPERF3 ? "iperf3" : "bondcheck"));
		if (s->gen == BC_GEN_IPERF3) {
			json_object_object_add(o, "counter_bits", U64(s->counter_bits));
			json_object_object_add(o, "counter_source",
					       json_object_new_string(s->counter_from_control
									      ? "control"
									      : "inferred"));
		} else {
			json_object_object_add(o, "test_id", U64(s->test_id));
			json_object_object_add(o, "stream_id", U64(s->stream_id));
		}
		json_object_object_add(o, "flow", U64(s->flow));
		json_object_object_add(
			o, "direction",
			json_object_new_string(s->dir == BC_DIR_FWD ? "forward" : "reverse"));
		json_object_object_add(o, "left", U64(s->left));
		json_object_object_add(o, "arrived", U64(s->arrived));
		json_object_object_add(o, "arrived_partial", U64(s->arrived_partial));
		json_object_object_add(o, "lost", U64(s->lost));
		json_object_object_add(o, "lost_bound",
				       json_object_new_string(bc_bound_name(bc_attrib_loss_bound(a, -1))));
		json_object_object_add(o, "unbracketed", U64(s->unbracketed));
		json_object_object_add(o, "duplicates", U64(s->duplicates));
		if (s->win_ready) {
			json_object_object_add(o, "reordered", U64(s->win.reordered));
			json_object_object_add(
				o, "reordered_ratio",
				json_object_new_double(s->win.received
							       ? (double)s->win.reordered /
									 (double)s->win.received
							       : 0));
			json_object_object_add(o, "extent_max", U64(s->win.extent_max));
			json_object_object_add(o, "n3_reordered", U64(s->win.nreord[2]));
			/* RFC 5236 RD: displacement -> count, non-zero bins only */
			json_object_object_add(o, "reorder_density", rd_json(&s->win.rd));
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

/* RFC 5236 RD summed over the streams and TCP flows: displacement -> count, non-zero only */
static struct json_object *density_sum_json(const struct bc_attrib *a)
{
	struct json_object *rd = json_object_new_object();
	int dt = 0;

	for (size_t i = 0; i < a->n_streams; i++)
		if (a->streams[i].win_ready && (int)a->streams[i].win.rd.dt > dt)
			dt = (int)a->streams[i].win.rd.dt;
	for (size_t i = 0; i < a->n_tcp_flows; i++)
		if (a->tcp_flows[i].win_ready && (int)a->tcp_flows[i].win.rd.dt > dt)
			dt = (int)a->tcp_flows[i].win.rd.dt;
	for (int d = -dt; d <= dt; d++) {
		uint64_t c = 0;
		char k[16];

		for (size_t i = 0; i < a->n_streams; i++)
			if (a->streams[i].win_ready)
				c += bc_rd_count(&a->streams[i].win.rd, d);
		for (size_t i = 0; i < a->n_tcp_flows; i++)
			if (a->tcp_flows[i].win_ready)
				c += bc_rd_count(&a->tcp_flows[i].win.rd, d);
		if (!c)
			continue;
		snprintf(k, sizeof(k), "%d", d);
		json_object_object_add(rd, k, U64(c));
	}
	return rd;
}

/* TCP flows that carried sequence space (attrib-tcp.c), in flows[] order. */
static struct json_object *tcp_flows_json(const struct bc_attrib *a)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < a->n_tcp_flows; i++) {
		const struct bc_attrib_tcp_flow *t = &a->tcp_flows[i];
		const struct bc_attrib_flow *f = &a->flows[t->flow];
		struct json_object *o;

		if (!t->tx_seen && !t->rx_seen)
			continue; /* foreign */
		o = json_object_new_object();
		json_object_object_add(o, "flow", U64(t->flow));
		json_object_object_add(o, "src", addr(f->version, f->src));
		json_object_object_add(o, "sport", U64(f->sport));
		json_object_object_add(o, "dst", addr(f->version, f->dst));
		json_object_object_add(o, "dport", U64(f->dport));
		json_object_object_add(
			o, "direction",
			json_object_new_string(t->dir == BC_DIR_FWD ? "forward" : "reverse"));
		json_object_object_add(o, "mss", U64(t->mss));
		json_object_object_add(o, "mss_source", json_object_new_string(t->mss_source));
		json_object_object_add(o, "sender_captured", json_object_new_boolean(t->tx_seen));
		json_object_object_add(o, "receiver_captured", json_object_new_boolean(t->rx_seen));
		json_object_object_add(o, "seq_bytes", U64(t->seq_bytes));
		json_object_object_add(o, "first_chunks", U64(t->first_chunks));
		json_object_object_add(o, "chunks_left", U64(t->chunks_left));
		json_object_object_add(o, "retransmits", U64(t->retransmits));
		json_object_object_add(o, "retransmit_bytes", U64(t->retransmit_bytes));
		json_object_object_add(o, "spurious_retransmits", U64(t->spurious));
		json_object_object_add(o, "chunks_arrived", U64(t->chunks_arrived));
		json_object_object_add(o, "bytes_arrived", U64(t->bytes_arrived));
		json_object_object_add(o, "retransmits_arrived", U64(t->retransmits_arrived));
		json_object_object_add(o, "duplicates", U64(t->duplicates));
		json_object_object_add(o, "arrived_not_left", U64(t->arrived_not_left));
		json_object_object_add(o, "lost", U64(t->lost));
		json_object_object_add(o, "lost_bytes", U64(t->lost_bytes));
		json_object_object_add(o, "unbracketed", U64(t->unbracketed));
		json_object_object_add(o, "received", U64(t->win_ready ? t->win.received : 0));
		json_object_object_add(o, "reordered", U64(t->win_ready ? t->win.reordered : 0));
		json_object_object_add(
			o, "reordered_ratio",
			json_object_new_double(t->win_ready && t->win.received
						       ? (double)t->win.reordered /
								 (double)t->win.received
						       : 0));
		json_object_object_add(o, "extent_max", U64(t->win_ready ? t->win.extent_max : 0));
		json_object_object_add(o, "n3_reordered", U64(t->win_ready ? t->win.nreord[2] : 0));
		json_object_object_add(o, "reorder_density",
				       t->win_ready ? rd_json(&t->win.rd)
						    : json_object_new_object());
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *share_json(uint64_t received, uint64_t reordered)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "received", U64(received));
	json_object_object_add(o, "reordered", U64(reordered));
	json_object_object_add(
		o, "reordered_ratio",
		json_object_new_double(received ? (double)reordered / (double)received : 0));
	return o;
}

static struct json_object *reordering_json(const struct bc_attrib *a)
{
	struct json_object *o = json_object_new_object(), *pairs = json_object_new_array();

	json_object_object_add(o, "observation_point",
			       json_object_new_string("merged-rx-slave-captures"));
	json_object_object_add(o, "received", U64(a->rx_received));
	json_object_object_add(o, "reordered", U64(a->rx_reordered));
	json_object_object_add(o, "reordered_ratio",
			       json_object_new_double(bc_attrib_reordered_ratio(a)));
	json_object_object_add(o, "bound",
			       json_object_new_string(bc_bound_name(bc_attrib_reorder_bound(a))));
	json_object_object_add(
		o, "udp",
		share_json(a->rx_received - a->tcp_received, a->rx_reordered - a->tcp_reordered));
	json_object_object_add(o, "tcp", share_json(a->tcp_received, a->tcp_reordered));
	for (size_t e = 0; e < a->n_links; e++)
		for (size_t l = 0; l < a->n_links; l++) {
			struct json_object *p, *rd;

			if (!a->pairs[e][l])
				continue;
			p = json_object_new_object();
			json_object_object_add(p, "early_link",
					       json_object_new_string(a->links[e].name));
			json_object_object_add(p, "late_link",
					       json_object_new_string(a->links[l].name));
			json_object_object_add(p, "count", U64(a->pairs[e][l]));
			json_object_object_add(p, "extent_max", U64(a->pair_extent_max[e][l]));
			json_object_object_add(p, "tcp_count", U64(a->tcp_pairs[e][l]));
			rd = json_object_new_object();
			for (int d = -(int)a->cfg.rd_threshold; d <= (int)a->cfg.rd_threshold;
			     d++) {
				char k[16];
				uint64_t c = bc_attrib_pair_rd(a, e, l, d);

				if (!c)
					continue;
				snprintf(k, sizeof(k), "%d", d);
				json_object_object_add(rd, k, U64(c));
			}
			json_object_object_add(p, "reorder_density", rd);
			json_object_object_add(p, "reorder_density_discarded",
					       U64(bc_attrib_pair_rd_discarded(a, e, l)));
			json_object_array_add(pairs, p);
		}
	json_object_object_add(o, "pairs", pairs);
	json_object_object_add(o, "reorder_density", density_sum_json(a));
	json_object_object_add(o, "reorder_density_threshold", U64(a->cfg.rd_threshold));
	return o;
}

static struct json_object *u64_array(const uint64_t *v, size_t n)
{
	struct json_object *arr = json_object_new_array_ext((int)n);

	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, U64(v[i]));
	return arr;
}

static struct json_object *timeline_json(const struct bc_attrib *a)
{
	const struct bc_attrib_timeline *tl = &a->timeline;
	struct json_object *o = json_object_new_object(), *links = json_object_new_array();

	json_object_object_add(o, "bin_ns", U64(tl->bin_ns));
	json_object_object_add(o, "start_ns", U64(tl->start_ns));
	for (size_t l = 0; l < a->n_links; l++) {
		struct json_object *lo = json_object_new_object();
		size_t n = tl->n_bins;

		json_object_object_add(lo, "name", json_object_new_string(a->links[l].name));
		json_object_object_add(
			lo, "side",
			json_object_new_string(a->links[l].side == BC_SIDE_TX ? "tx" : "rx"));
		json_object_object_add(
			lo, "frames",
			u64_array(n ? bc_attrib_tl_frames(a, l, BC_DIR_FWD) : NULL, n));
		json_object_object_add(
			lo, "wire_bytes",
			u64_array(n ? bc_attrib_tl_wire_bytes(a, l, BC_DIR_FWD) : NULL, n));
		json_object_object_add(
			lo, "reverse_frames",
			u64_array(n ? bc_attrib_tl_frames(a, l, BC_DIR_REV) : NULL, n));
		json_object_object_add(
			lo, "reverse_wire_bytes",
			u64_array(n ? bc_attrib_tl_wire_bytes(a, l, BC_DIR_REV) : NULL, n));
		json_object_array_add(links, lo);
	}
	json_object_object_add(o, "links", links);
	return o;
}

static struct json_object *findings_json(const struct bc_attrib *a)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < a->n_findings; i++) {
		const struct bc_finding *f = &a->findings[i];
		struct json_object *o = json_object_new_object(), *ev = json_object_new_object();

		json_object_object_add(o, "id", json_object_new_string(f->id));
		json_object_object_add(o, "severity",
				       json_object_new_string(bc_severity_name(f->severity)));
		json_object_object_add(o, "subject", json_object_new_string(f->subject));
		for (size_t k = 0; k < f->n_evidence; k++)
			json_object_object_add(ev, f->evidence[k].key,
					       json_object_new_string(f->evidence[k].value));
		json_object_object_add(o, "evidence", ev);
		json_object_object_add(o, "advice", json_object_new_string(f->advice));
		json_object_array_add(arr, o);
	}
	return arr;
}

struct json_object *bc_analyze_json(const struct bc_attrib *a)
{
	struct json_object *o = json_object_new_object(), *paths, *fr, *ledger;
	struct ledger_stage st[LEDGER_STAGES];

	if (!o)
		return NULL;
	json_object_object_add(o, "sender", addr(a->cfg.local_version, a->cfg.local));
	json_object_object_add(o, "sender_inferred", json_object_new_boolean(a->local_inferred));
	/* false: a capture missed or cut frames; the figures' bounds say how */
	json_object_object_add(o, "capture_complete",
			       json_object_new_boolean(!bc_attrib_side_incomplete(a, BC_SIDE_TX) &&
						       !bc_attrib_side_incomplete(a, BC_SIDE_RX)));
	json_object_object_add(o, "loss_bound",
			       json_object_new_string(bc_bound_name(bc_attrib_loss_bound(a, -1))));
	json_object_object_add(o, "links", links_json(a));
	json_object_object_add(o, "flows", flows_json(a));
	json_object_object_add(o, "streams", streams_json(a));
	json_object_object_add(o, "tcp_flows", tcp_flows_json(a));
	paths = json_object_new_array();
	for (size_t t = 0; t < a->n_links; t++)
		for (size_t r = 0; r < a->n_links; r++) {
			struct json_object *p;

			if (!a->path[t][r])
				continue;
			p = json_object_new_object();
			json_object_object_add(p, "left_on",
					       json_object_new_string(a->links[t].name));
			json_object_object_add(p, "arrived_on",
					       json_object_new_string(a->links[r].name));
			json_object_object_add(p, "packets", U64(a->path[t][r]));
			json_object_object_add(p, "tcp_chunks", U64(a->tcp_path[t][r]));
			json_object_array_add(paths, p);
		}
	json_object_object_add(o, "paths", paths);
	json_object_object_add(o, "reordering", reordering_json(a));
	json_object_object_add(o, "timeline", a->timeline.bin_ns ? timeline_json(a) : NULL);
	fr = json_object_new_object();
	json_object_object_add(fr, "fragments_left", U64(a->frag.fragments[0]));
	json_object_object_add(fr, "fragments_arrived", U64(a->frag.fragments[1]));
	json_object_object_add(fr, "messages_arrived", U64(a->frag.messages_rx));
	json_object_object_add(fr, "complete", U64(a->frag.complete));
	json_object_object_add(fr, "incomplete", U64(a->frag.incomplete));
	json_object_object_add(fr, "too_far", U64(a->frag.too_far));
	json_object_object_add(fr, "unjoined_left", U64(a->frag.unjoined[0]));
	json_object_object_add(fr, "unjoined_arrived", U64(a->frag.unjoined[1]));
	json_object_object_add(fr, "joined_late", U64(a->frag.joined_late));
	json_object_object_add(o, "fragments", fr);
	json_object_object_add(o, "arrived_not_left", U64(a->rx_without_tx));
	json_object_object_add(o, "clock_skew_packets", U64(a->skew_units));
	ledger = json_object_new_array();
	analyze_ledger(a, st);
	for (int i = 0; i < LEDGER_STAGES; i++) {
		struct json_object *s = json_object_new_object();

		json_object_object_add(s, "stage", json_object_new_string(st[i].stage));
		json_object_object_add(s, "count", st[i].absent ? NULL : U64(st[i].count));
		json_object_object_add(s, "absent_offline", json_object_new_boolean(st[i].absent));
		json_object_object_add(s, "source", json_object_new_string(st[i].source));
		json_object_array_add(ledger, s);
	}
	json_object_object_add(o, "ledger", ledger);
	json_object_object_add(o, "findings", findings_json(a));
	return o;
}
