// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Attribution, ingest side: links, per-packet decode (decode/packet.c),
 * per-link counters, flows, our streams and the compact records that
 * attrib-merge.c joins and attributes.  Model in bondcheck/attrib.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/grow.h"
#include "bondcheck/iperf3.h"
#include "analyze/attrib-int.h"

void bc_attrib_cfg_default(struct bc_attrib_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mtu = 1500;
	cfg->ipfrag_window_ns = 30ull * 1000000000ull; /* net.ipv4.ipfrag_time default */
	cfg->ipfrag_max_dist = 64;		       /* net.ipv4.ipfrag_max_dist default */
	cfg->rd_threshold = 16;
	cfg->late_threshold = 3;
	cfg->idle_share = 0.01;
	cfg->bin_ns = BC_ATTRIB_BIN_NS;
}

int bc_attrib_init(struct bc_attrib *a, const struct bc_attrib_cfg *cfg, struct bc_error *err)
{
	struct priv *pv;

	memset(a, 0, sizeof(*a));
	a->cfg = *cfg;
	pv = calloc(1, sizeof(*pv));
	if (!pv)
		return bc_error_set(err, -ENOMEM, "out of memory for the attribution state");
	pv->last_pair = pv->last_flow = pv->last_stream = -1;
	a->priv = pv;
	a->frag.too_far_link = -1;
	return 0;
}

void bc_attrib_free(struct bc_attrib *a)
{
	struct priv *pv;

	if (!a)
		return;
	pv = a->priv;
	if (pv) {
		free(pv->recs);
		for (size_t i = 0; i < BC_ATTRIB_MAX_LINKS; i++)
			free(pv->link_recs[i]);
		free(pv->flow_tab);
		free(pv->flow_pair);
		free(pv->stream_min_seq);
		free(pv->stream_tab);
		free(pv->i3p);
		attrib_tl_free(pv);
		attrib_pairs_free(pv);
		attrib_tcp_free(a);
		free(pv);
	}
	for (size_t i = 0; i < a->n_streams; i++) {
		bc_seqwin_free(&a->streams[i].win);
		free(a->streams[i].rec_seq);
		free(a->streams[i].rec_pos);
		free(a->streams[i].rec_link);
	}
	free(a->streams);
	free(a->flows);
	free(a->findings);
	free(a->timeline.frames);
	free(a->timeline.wire_bytes);
	memset(a, 0, sizeof(*a));
}

int bc_attrib_add_link(struct bc_attrib *a, enum bc_side side, const char *name,
		       struct bc_error *err)
{
	char q[BC_ATTRIB_NAME];
	struct bc_attrib_link *l;

	if (a->n_links >= BC_ATTRIB_MAX_LINKS)
		return bc_error_set(err, -E2BIG, "more than %d captured links; give at most %d",
				    BC_ATTRIB_MAX_LINKS, BC_ATTRIB_MAX_LINKS);
	if (strlen(name) + 4 > sizeof(q))
		return bc_error_set(err, -ENAMETOOLONG,
				    "link name '%s' is longer than %zu characters", name,
				    sizeof(q) - 4);
	snprintf(q, sizeof(q), "%s:%s", side == BC_SIDE_TX ? "tx" : "rx", name);
	for (size_t i = 0; i < a->n_links; i++)
		if (!strcmp(a->links[i].name, q))
			return bc_error_set(err, -EEXIST,
					    "link %s given twice; name each capture once", q);
	l = &a->links[a->n_links];
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", q);
	l->side = side;
	l->peer = -1;
	return (int)a->n_links++;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	return bc_grow(p, cap, need, elem, 1024);
}

static int pair_index(struct priv *pv, const struct bc_pkt *p)
{
	struct addr_pair *ap;

	if (pv->last_pair >= 0) {
		ap = &pv->pairs[pv->last_pair];
		if (ap->version == p->ip_version && !memcmp(ap->src, p->src, 16) &&
		    !memcmp(ap->dst, p->dst, 16))
			return pv->last_pair;
	}
	for (size_t i = 0; i < pv->n_pairs; i++) {
		ap = &pv->pairs[i];
		if (ap->version == p->ip_version && !memcmp(ap->src, p->src, 16) &&
		    !memcmp(ap->dst, p->dst, 16))
			return pv->last_pair = (int)i;
	}
	if (pv->n_pairs == MAX_PAIRS)
		return -1;
	ap = &pv->pairs[pv->n_pairs];
	ap->version = p->ip_version;
	memcpy(ap->src, p->src, 16);
	memcpy(ap->dst, p->dst, 16);
	ap->dir = -1;
	return pv->last_pair = (int)pv->n_pairs++;
}

static uint64_t flow_hash(int pair, uint8_t proto, uint16_t sp, uint16_t dp)
{
	return attrib_mix(((uint64_t)pair << 40) | ((uint64_t)proto << 32) | ((uint64_t)sp << 16) |
			  dp);
}

static uint64_t flow_hash_at(const struct bc_attrib *a, const struct priv *pv, size_t i)
{
	const struct bc_attrib_flow *f = &a->flows[i];

	return flow_hash(pv->flow_pair[i], f->proto, f->sport, f->dport);
}

/*
 * Make room for one more entry in the index table *@tab (*@size slots, a power of
 * two, @first at the start) over the @n entries of an array (flows, streams): slots
 * hold index + 1, 0 empty; past a load of 1/2 the table doubles and every entry is
 * placed again by @hash(@a, @pv, index), linear probing.  0 or -ENOMEM.
 */
static int idx_reserve(uint32_t **tab, size_t *size, size_t first, size_t n,
		       uint64_t (*hash)(const struct bc_attrib *, const struct priv *, size_t),
		       const struct bc_attrib *a, const struct priv *pv)
{
	size_t sz = *size ? *size * 2 : first;
	uint32_t *t;

	if ((n + 1) * 2 <= *size)
		return 0;
	t = calloc(sz, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t k = hash(a, pv, i) & (sz - 1);

		while (t[k])
			k = (k + 1) & (sz - 1);
		t[k] = (uint32_t)i + 1;
	}
	free(*tab);
	*tab = t;
	*size = sz;
	return 0;
}

static int flow_index(struct bc_attrib *a, struct priv *pv, int pair, const struct bc_pkt *p)
{
	struct bc_attrib_flow *f;
	size_t k;

	if (pv->last_flow >= 0) {
		f = &a->flows[pv->last_flow];
		if (pv->flow_pair[pv->last_flow] == pair && f->proto == p->proto &&
		    f->sport == p->sport && f->dport == p->dport)
			return pv->last_flow;
	}
	if (idx_reserve(&pv->flow_tab, &pv->flow_tab_size, 256, a->n_flows, flow_hash_at, a, pv))
		return -ENOMEM;
	k = flow_hash(pair, p->proto, p->sport, p->dport) & (pv->flow_tab_size - 1);
	for (; pv->flow_tab[k]; k = (k + 1) & (pv->flow_tab_size - 1)) {
		uint32_t i = pv->flow_tab[k] - 1;

		f = &a->flows[i];
		if (pv->flow_pair[i] == pair && f->proto == p->proto && f->sport == p->sport &&
		    f->dport == p->dport)
			return pv->last_flow = (int)i;
	}
	if (a->n_flows == pv->cap_flows) {
		size_t n = pv->cap_flows ? pv->cap_flows * 2 : 64;
		void *q = realloc(a->flows, n * sizeof(*a->flows));

		if (!q)
			return -ENOMEM;
		a->flows = q;
		q = realloc(pv->flow_pair, n);
		if (!q)
			return -ENOMEM;
		pv->flow_pair = q;
		pv->cap_flows = n;
	}
	f = &a->flows[a->n_flows];
	memset(f, 0, sizeof(*f));
	f->version = p->ip_version;
	f->proto = p->proto;
	memcpy(f->src, p->src, 16);
	memcpy(f->dst, p->dst, 16);
	f->sport = p->sport;
	f->dport = p->dport;
	pv->flow_pair[a->n_flows] = (uint8_t)pair;
	pv->flow_tab[k] = (uint32_t)a->n_flows + 1;
	return pv->last_flow = (int)a->n_flows++;
}

static uint64_t stream_hash(int flow, uint32_t test_id, uint32_t stream_id)
{
	return attrib_mix(((uint64_t)(uint32_t)flow << 32 | test_id) ^
			  (uint64_t)stream_id * 0x9e3779b97f4a7c15ull);
}

static uint64_t stream_hash_at(const struct bc_attrib *a, const struct priv *pv, size_t i)
{
	const struct bc_attrib_stream *s = &a->streams[i];

	(void)pv;
	return stream_hash(s->flow, s->test_id, s->stream_id);
}

static bool stream_is(const struct bc_attrib_stream *s, int flow, const struct bc_pkt *p)
{
	return s->flow == flow && s->test_id == p->ours.test_id &&
	       s->stream_id == p->ours.stream_id;
}

/* Index of the stream of our datagram @p in @flow, added when new; -ENOSPC past
 * BC_ATTRIB_MAX_STREAMS (the datagram is then foreign), -ENOMEM. */
static int stream_index(struct bc_attrib *a, struct priv *pv, int flow, const struct bc_pkt *p)
{
	struct bc_attrib_stream *s;
	uint64_t *m;
	size_t k;

	if (pv->last_stream >= 0 && stream_is(&a->streams[pv->last_stream], flow, p))
		return pv->last_stream;
	if (idx_reserve(&pv->stream_tab, &pv->stream_tab_size, 64, a->n_streams, stream_hash_at, a,
			pv))
		return -ENOMEM;
	k = stream_hash(flow, p->ours.test_id, p->ours.stream_id) & (pv->stream_tab_size - 1);
	for (; pv->stream_tab[k]; k = (k + 1) & (pv->stream_tab_size - 1))
		if (stream_is(&a->streams[pv->stream_tab[k] - 1], flow, p))
			return pv->last_stream = (int)pv->stream_tab[k] - 1;
	if (a->n_streams == BC_ATTRIB_MAX_STREAMS)
		return -ENOSPC;
	if (bc_grow((void **)&a->streams, &pv->cap_streams, a->n_streams + 1, sizeof(*a->streams),
		    16) ||
	    bc_grow((void **)&pv->stream_min_seq, &pv->cap_min_seq, a->n_streams + 1,
		    sizeof(*pv->stream_min_seq), 16))
		return -ENOMEM;
	s = &a->streams[a->n_streams];
	memset(s, 0, sizeof(*s));
	s->test_id = p->ours.test_id;
	s->stream_id = p->ours.stream_id;
	s->flow = flow;
	m = pv->stream_min_seq;
	m[a->n_streams] = UINT64_MAX;
	pv->stream_tab[k] = (uint32_t)a->n_streams + 1;
	return pv->last_stream = (int)a->n_streams++;
}

static int add_rec(struct bc_attrib *a, struct priv *pv, int link, const struct rec *r)
{
	if (grow((void **)&pv->recs, &pv->cap_recs, pv->n_recs + 1, sizeof(*pv->recs)) ||
	    grow((void **)&pv->link_recs[link], &pv->cap_link_recs[link], pv->n_link_recs[link] + 1,
		 sizeof(uint32_t)))
		return -ENOMEM;
	if (pv->n_recs >= UINT32_MAX)
		return -E2BIG;
	pv->link_recs[link][pv->n_link_recs[link]++] = (uint32_t)pv->n_recs;
	pv->recs[pv->n_recs++] = *r;
	(void)a;
	return 0;
}

/*
 * iperf3 (bondcheck/iperf3.h): mark @r, a UDP datagram or first fragment of
 * @flow without our header, as a candidate (R_CAND, judged per flow at
 * finish) or a connect datagram (R_CONN).  Returns the flag set, or 0.
 */
static unsigned iperf3_mark(const struct bc_pkt *p, int flow, const uint8_t *data, uint32_t caplen,
			    struct rec *r)
{
	uint32_t off = (uint32_t)p->l2_len + p->l3_hdr_len + p->l4_hdr_len;
	struct bc_iperf3_udp h;
	const uint8_t *pl;
	uint32_t cap;

	if (flow < 0 || off > caplen)
		return 0;
	pl = data + off;
	cap = caplen - off;
	if (!p->frag && bc_iperf3_udp_is_connect(pl, cap, p->l4_payload)) {
		r->flags |= R_CONN;
		r->stream = (uint32_t)flow;
		return R_CONN;
	}
	if (bc_iperf3_udp_read(pl, cap, p->l4_payload, &h))
		return 0;
	r->flags |= R_CAND | (h.has_w3 ? R_W16 : 0);
	r->seq = (uint64_t)h.w2 << 32 | h.w3;
	r->send_ns = (uint64_t)h.sec << 32 | h.usec;
	r->stream = (uint32_t)flow;
	return R_CAND;
}

/* iperf3's parameter JSON in a TCP segment (its own segment, or after the 4-byte length). */
static int iperf3_params(struct priv *pv, const struct bc_pkt *p, uint64_t ts, const uint8_t *data,
			 uint32_t caplen)
{
	uint32_t off = (uint32_t)p->l2_len + p->l3_hdr_len + p->l4_hdr_len, cap;
	const uint8_t *pl;
	struct i3_params *x;
	int bits;

	if (!p->l4_payload || off > caplen)
		return 0;
	pl = data + off;
	cap = caplen - off;
	if (!(cap >= 2 && pl[0] == '{' && pl[1] == '"') &&
	    !(cap >= 6 && pl[4] == '{' && pl[5] == '"'))
		return 0;
	bits = bc_iperf3_params_bits(pl, cap);
	if (!bits)
		return 0;
	if (bc_grow((void **)&pv->i3p, &pv->cap_i3p, pv->n_i3p + 1, sizeof(*pv->i3p), 4))
		return -ENOMEM;
	x = &pv->i3p[pv->n_i3p++];
	x->ts = ts;
	x->version = p->ip_version;
	x->bits = (uint8_t)bits;
	memcpy(x->src, p->src, 16);
	memcpy(x->dst, p->dst, 16);
	return 0;
}

static void rec_init(struct rec *r, int link, int pair, uint64_t ts, const struct bc_pkt *p)
{
	memset(r, 0, sizeof(*r));
	r->ts = ts;
	r->link = (uint8_t)link;
	r->pair = (uint8_t)pair;
	r->proto = p->proto;
	r->stream = NO_STREAM;
}

int bc_attrib_add_packet(struct bc_attrib *a, int link, uint64_t ts_ns, const uint8_t *data,
			 uint32_t caplen, uint32_t wire_len)
{
	struct priv *pv = a->priv;
	struct bc_attrib_link *l = &a->links[link];
	struct pair_stats *ps;
	struct bc_pkt p;
	struct rec r;
	uint64_t wb;
	uint32_t wf;
	int pair, flow = -1, rc;

	if (bc_pkt_decode(data, caplen, wire_len, &p)) {
		l->malformed++;
		return 0;
	}
	if (p.layer == BC_PKT_LACP) {
		l->lacpdus++;
		l->last_lacp = p.lacp;
		return 0;
	}
	if (p.layer < BC_PKT_L3) {
		if (p.stop == BC_PKT_STOP_SNAPPED)
			l->snapped++;
		else
			l->other_frames++;
		return 0;
	}
	pair = pair_index(pv, &p);
	if (pair < 0) {
		l->foreign++;
		return 0;
	}
	ps = &pv->ls[link][pair];
	wf = bc_pkt_wire_frames(&p, a->cfg.mtu, &wb);
	if (!ps->frames)
		ps->first_ns = ts_ns;
	ps->frames++;
	ps->bytes += p.wire_len;
	ps->wire_frames += wf;
	ps->wire_bytes += wb;
	ps->super_frames += wf > 1;
	ps->last_ns = ts_ns;
	rc = attrib_tl_add(a, link, pair, ts_ns, wb);
	if (rc)
		return rc;
	if (l->side == BC_SIDE_TX)
		pv->pairs[pair].tx_bytes += p.wire_len;
	if (p.stop == BC_PKT_STOP_SNAPPED && p.layer < BC_PKT_OURS && p.proto == 17)
		l->snapped++;
	if (p.layer >= BC_PKT_L4) {
		flow = flow_index(a, pv, pair, &p);
		if (flow < 0)
			return flow;
		a->flows[flow].frames++;
		a->flows[flow].bytes += p.wire_len;
		a->flows[flow].link_mask |= 1ull << link;
		if (p.proto == 6 && !p.frag) {
			rc = iperf3_params(pv, &p, ts_ns, data, caplen);
			if (rc)
				return rc;
			return attrib_tcp_add(a, link, flow, ts_ns, &p, data, caplen);
		}
	}
	rec_init(&r, link, pair, ts_ns, &p);
	if (p.layer != BC_PKT_OURS && !p.frag) {
		if (p.proto != 17 || p.layer < BC_PKT_L4)
			return 0;
		if (!iperf3_mark(&p, flow, data, caplen, &r)) {
			l->udp_other++;
			return 0;
		}
		pv->n_cand++;
		return add_rec(a, pv, link, &r);
	}
	if (p.frag) {
		r.flags |= R_FRAG | (p.more_frags ? R_MF : 0);
		r.ip_id = p.ip_id;
		r.off8 = (uint16_t)(p.frag_off / 8);
		r.frag_len = p.ip_len - p.l3_hdr_len;
		if (!p.frag_off && p.layer == BC_PKT_L4 && p.proto == 17 &&
		    iperf3_mark(&p, flow, data, caplen, &r))
			pv->n_cand++;
	}
	if (p.layer == BC_PKT_OURS) {
		if (p.ours.seq >= BC_ATTRIB_MAX_SEQ) {
			l->foreign++;
			return 0;
		}
		rc = stream_index(a, pv, flow, &p);
		if (rc == -ENOSPC) {
			l->foreign++;
			return 0;
		}
		if (rc < 0)
			return rc;
		r.flags |= R_OURS;
		r.stream = (uint32_t)rc;
		r.seq = p.ours.seq;
		r.send_ns = p.ours.send_ns;
		if (r.seq < pv->stream_min_seq[rc])
			pv->stream_min_seq[rc] = r.seq;
	}
	return add_rec(a, pv, link, &r);
}

double bc_attrib_wire_bps(const struct bc_attrib_link *l, enum bc_dir d)
{
	const struct bc_link_dir *x = &l->dir[d];

	if (x->frames < 2 || x->last_ns <= x->first_ns)
		return 0;
	return (double)x->wire_bytes * 8e9 / (double)(x->last_ns - x->first_ns);
}

double bc_attrib_reordered_ratio(const struct bc_attrib *a)
{
	return a->rx_received ? (double)a->rx_reordered / (double)a->rx_received : 0;
}
