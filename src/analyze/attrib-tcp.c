// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TCP attribution by byte range (model in bondcheck/attrib.h; DESIGN.md
 * "Capture and attribution": TCP analysis works in byte-sequence space;
 * kernel-interfaces.md 6.6 for TSO/GSO/GRO super-frames).
 *
 * Ingest keeps one 32-byte record per TCP segment that carries sequence
 * space (payload, SYN or FIN), with its sequence number unwrapped per flow
 * and link.  The merge, after the UDP one:
 *  1. cuts every segment that left into per-MSS chunks and orders them by
 *     sequence: bytes that had left before are a retransmission, the rest a
 *     first transmission; first transmissions are disjoint and numbered in
 *     sequence order (the ordinal RFC 4737/5236 count packets in);
 *  2. walks the receiver captures merged by timestamp, cuts each arrived
 *     segment at the first transmissions' boundaries and maps each piece to
 *     the transmission that carried it (path[tx][rx]); an arrival mapped to a
 *     first transmission feeds the flow's bc_seqwin (reordering, pairs,
 *     density), one mapped to a retransmission does not;
 *  3. counts what never arrived (lost when bracketed) and spurious
 *     retransmissions (the earlier copy arrived).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/grow.h"
#include "analyze/attrib-int.h"

#define TCP_FIN	  0x01
#define TCP_SYN	  0x02
#define MAX_CANDS 32

enum role { ROLE_LEFT = 0, ROLE_ARRIVED = 1 };

/* One segment that carried sequence space, as captured. */
struct trec {
	uint64_t ts;	  /* capture time, ns */
	int64_t rel;	  /* sequence number, unwrapped, relative to the flow's base */
	uint32_t payload; /* TCP payload bytes on the wire */
	uint32_t tf;	  /* index in a->tcp_flows */
	uint8_t syn, fin;
};

/* One transmission: a chunk that left on a link. */
struct txe {
	int64_t s, e;	   /* bytes [s, e), relative */
	uint64_t ts;	   /* when it left */
	uint32_t rx_bytes; /* bytes of arrivals mapped to it */
	uint8_t link;
	uint8_t retx_over; /* first transmission: a retransmission overlaps it */
};

/* An arrival that raised NextExp (RFC 4737): increasing in ordinal and position. */
struct record {
	uint64_t ord, pos; /* ordinal, arrival position */
	uint8_t link;
};

struct tflow {
	uint32_t base; /* raw sequence number of the first record */
	uint32_t link_mask;
	int64_t last[BC_ATTRIB_MAX_LINKS]; /* last unwrapped sequence per link */
	uint16_t hdrs;			   /* IP + TCP header bytes of a data segment */
	uint16_t opt;			   /* TCP option bytes of a data segment */
	uint32_t mss_obs;		   /* largest payload of a frame within cfg.mtu */
	uint32_t syn_mss;		   /* MSS option of this flow's SYN */
	int dir;			   /* BC_DIR_*, -1 foreign (merge) */

	struct txe *fc, *rt; /* first transmissions, retransmissions (by sequence) */
	size_t n_fc, cap_fc, n_rt, cap_rt;
	int64_t rt_maxlen;
	int64_t rx_max_end;
	bool any_rx;
	int64_t *rx_starts; /* no sender capture: distinct arrived chunk starts, sorted */
	size_t n_rx_starts, cap_rx_starts;
	size_t hint; /* the next first transmission / start an arrival likely maps to */

	struct record *rec; /* record-setting arrivals, for the pair search */
	size_t n_rec, cap_rec;
};

struct tcp_priv {
	struct tflow *f; /* parallel to a->tcp_flows */
	size_t cap_f;
	int32_t *flow_tcp; /* flow index -> TCP flow index, -1 */
	size_t cap_flow_tcp;
	struct trec *recs[BC_ATTRIB_MAX_LINKS]; /* capture order per link */
	size_t n[BC_ATTRIB_MAX_LINKS], cap[BC_ATTRIB_MAX_LINKS];
	int peer[BC_ATTRIB_MAX_LINKS]; /* merge: RX link each TX link feeds, -1 */
	int last_flow, last_tf;
};

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	return bc_grow(p, cap, need, elem, 256);
}

/* The MSS option (RFC 9293 3.2, kind 2) of a SYN, 0 when absent or snapped. */
static uint32_t syn_mss_option(const struct bc_pkt *p, const uint8_t *data, uint32_t caplen)
{
	uint32_t off = (uint32_t)p->l2_len + p->l3_hdr_len + 20;
	uint32_t end = (uint32_t)p->l2_len + p->l3_hdr_len + p->l4_hdr_len;

	if (end > caplen)
		end = caplen;
	while (off < end) {
		uint8_t kind = data[off], len;

		if (kind == 0)
			break;
		if (kind == 1) {
			off++;
			continue;
		}
		if (off + 1 >= end)
			break;
		len = data[off + 1];
		if (len < 2 || off + len > end)
			break;
		if (kind == 2 && len == 4)
			return (uint32_t)data[off + 2] << 8 | data[off + 3];
		off += len;
	}
	return 0;
}

static int tflow_index(struct bc_attrib *a, struct tcp_priv *tp, int flow, uint32_t seq)
{
	struct bc_attrib_tcp_flow *f;
	struct tflow *t;
	size_t need = (size_t)flow + 1, old = tp->cap_flow_tcp;

	if (tp->last_flow == flow)
		return tp->last_tf;
	if (need > old) {
		if (grow((void **)&tp->flow_tcp, &tp->cap_flow_tcp, need, sizeof(int32_t)))
			return -ENOMEM;
		for (size_t i = old; i < tp->cap_flow_tcp; i++)
			tp->flow_tcp[i] = -1;
	}
	if (tp->flow_tcp[flow] < 0) {
		size_t cap = tp->cap_f;

		if (grow((void **)&tp->f, &cap, a->n_tcp_flows + 1, sizeof(*tp->f)))
			return -ENOMEM;
		if (cap != tp->cap_f) {
			f = realloc(a->tcp_flows, cap * sizeof(*f));
			if (!f)
				return -ENOMEM;
			a->tcp_flows = f;
			tp->cap_f = cap;
		}
		t = &tp->f[a->n_tcp_flows];
		memset(t, 0, sizeof(*t));
		t->base = seq;
		f = &a->tcp_flows[a->n_tcp_flows];
		memset(f, 0, sizeof(*f));
		f->flow = flow;
		f->mss_source = "mtu";
		tp->flow_tcp[flow] = (int32_t)a->n_tcp_flows++;
	}
	tp->last_flow = flow;
	return tp->last_tf = tp->flow_tcp[flow];
}

int attrib_tcp_add(struct bc_attrib *a, int link, int flow, uint64_t ts, const struct bc_pkt *p,
		   const uint8_t *data, uint32_t caplen)
{
	struct priv *pv = a->priv;
	struct tcp_priv *tp = pv->tcp;
	bool syn = p->tcp_flags & TCP_SYN, fin = p->tcp_flags & TCP_FIN;
	uint32_t bit = 1u << link, expect;
	struct tflow *t;
	struct trec *r;
	int64_t ref, rel;
	int tf;

	if (!p->l4_payload && !syn && !fin)
		return 0; /* a pure ACK takes no sequence space */
	if (!tp) {
		tp = calloc(1, sizeof(*tp));
		if (!tp)
			return -ENOMEM;
		tp->last_flow = tp->last_tf = -1;
		pv->tcp = tp;
	}
	tf = tflow_index(a, tp, flow, p->tcp_seq);
	if (tf < 0)
		return tf;
	t = &tp->f[tf];
	/* unwrap against the last sequence number of this flow on this link */
	ref = t->link_mask & bit ? t->last[link] : 0;
	expect = t->base + (uint32_t)(uint64_t)ref;
	rel = ref + (int32_t)(p->tcp_seq - expect);
	t->last[link] = rel;
	t->link_mask |= bit;
	if (syn && !t->syn_mss)
		t->syn_mss = syn_mss_option(p, data, caplen);
	if (p->l4_payload) {
		if (!t->hdrs) {
			t->hdrs = (uint16_t)(p->l3_hdr_len + p->l4_hdr_len);
			t->opt = p->l4_hdr_len > 20 ? (uint16_t)(p->l4_hdr_len - 20) : 0;
		}
		if ((!a->cfg.mtu || p->ip_len <= a->cfg.mtu) && p->l4_payload > t->mss_obs)
			t->mss_obs = p->l4_payload;
	}
	if (grow((void **)&tp->recs[link], &tp->cap[link], tp->n[link] + 1, sizeof(struct trec)))
		return -ENOMEM;
	r = &tp->recs[link][tp->n[link]++];
	r->ts = ts;
	r->rel = rel;
	r->payload = p->l4_payload;
	r->tf = (uint32_t)tf;
	r->syn = syn;
	r->fin = fin;
	return 0;
}

void attrib_tcp_free(struct bc_attrib *a)
{
	struct priv *pv = a->priv;
	struct tcp_priv *tp = pv ? pv->tcp : NULL;

	for (size_t i = 0; i < a->n_tcp_flows; i++) {
		if (a->tcp_flows[i].win_ready)
			bc_seqwin_free(&a->tcp_flows[i].win);
		if (!tp)
			continue;
		free(tp->f[i].fc);
		free(tp->f[i].rt);
		free(tp->f[i].rec);
		free(tp->f[i].rx_starts);
	}
	free(a->tcp_flows);
	a->tcp_flows = NULL;
	a->n_tcp_flows = 0;
	if (!tp)
		return;
	free(tp->f);
	free(tp->flow_tcp);
	for (size_t l = 0; l < BC_ATTRIB_MAX_LINKS; l++)
		free(tp->recs[l]);
	free(tp);
	pv->tcp = NULL;
}

/* ---- merge ---- */

static int role(const struct bc_attrib *a, const struct tflow *t, size_t link)
{
	if (t->dir < 0)
		return -1;
	return (a->links[link].side == BC_SIDE_TX) == (t->dir == BC_DIR_FWD) ? ROLE_LEFT
									     : ROLE_ARRIVED;
}

/* Reverse flow (the peer's direction of the same connection), or NULL. */
static const struct tflow *reverse_of(const struct bc_attrib *a, const struct tcp_priv *tp,
				      const struct bc_attrib_flow *f)
{
	for (size_t j = 0; j < a->n_tcp_flows; j++) {
		const struct bc_attrib_flow *g = &a->flows[a->tcp_flows[j].flow];

		if (tp->f[j].syn_mss && g->version == f->version && g->sport == f->dport &&
		    g->dport == f->sport && !memcmp(g->src, f->dst, 16) &&
		    !memcmp(g->dst, f->src, 16))
			return &tp->f[j];
	}
	return NULL;
}

/*
 * MSS of a flow: cfg.mtu minus its data segments' headers (what TSO cuts
 * at on a path of that MTU), capped by the peer's SYN MSS option less the
 * data segments' TCP options (the sender's mss_cache), raised to the largest
 * payload seen in a frame within cfg.mtu.  0 with cfg.mtu 0 (no cutting).
 */
static void choose_mss(struct bc_attrib *a, struct tcp_priv *tp, size_t i)
{
	struct bc_attrib_tcp_flow *f = &a->tcp_flows[i];
	const struct bc_attrib_flow *fl = &a->flows[f->flow];
	struct tflow *t = &tp->f[i];
	const struct tflow *rev;
	uint32_t hdrs = t->hdrs ? t->hdrs : (fl->version == 6 ? 60 : 40), mss;

	if (!a->cfg.mtu) {
		f->mss = 0;
		return;
	}
	mss = a->cfg.mtu > hdrs ? a->cfg.mtu - hdrs : 0;
	rev = mss ? reverse_of(a, tp, fl) : NULL;
	if (rev && rev->syn_mss > t->opt && rev->syn_mss - t->opt < mss) {
		mss = rev->syn_mss - t->opt;
		f->mss_source = "syn";
	}
	if (t->mss_obs > mss) {
		mss = t->mss_obs;
		f->mss_source = "observed";
	}
	f->mss = mss;
}

static int cmp_txe(const void *x, const void *y)
{
	const struct txe *a = x, *b = y;

	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return (int)a->link - (int)b->link;
}

/*
 * A segment is cut into chunks of @mss bytes of payload (a TSO/GSO/GRO
 * super-frame into the frames it was on the wire); SYN counts with the
 * first chunk, FIN with the last.  @mss 0: one chunk.
 */
static uint32_t n_chunks(const struct trec *r, uint32_t mss)
{
	return !mss || r->payload <= mss ? 1 : (r->payload + mss - 1) / mss;
}

static void chunk_at(const struct trec *r, uint32_t mss, uint32_t i, uint32_t n, int64_t *cs,
		     int64_t *ce)
{
	*cs = i ? r->rel + r->syn + (int64_t)i * mss : r->rel;
	*ce = i + 1 < n ? r->rel + r->syn + (int64_t)(i + 1) * mss
			: r->rel + r->payload + r->syn + r->fin;
}

/* Step 1 for every flow: chunks that left, first transmissions, retransmissions. */
/*
 * The next record of @want role in merged capture order (earliest
 * timestamp over the links' cursors @pos, lower link first on a tie); NULL
 * at the end.
 */
static const struct trec *next_rec(const struct bc_attrib *a, const struct tcp_priv *tp,
				   size_t pos[BC_ATTRIB_MAX_LINKS], int want, size_t *link)
{
	const struct trec *best = NULL;

	for (size_t l = 0; l < a->n_links; l++) {
		while (pos[l] < tp->n[l] && role(a, &tp->f[tp->recs[l][pos[l]].tf], l) != want)
			pos[l]++;
		if (pos[l] < tp->n[l] && (!best || tp->recs[l][pos[l]].ts < best->ts)) {
			best = &tp->recs[l][pos[l]];
			*link = l;
		}
	}
	if (best)
		pos[*link]++;
	return best;
}

/*
 * Order a flow's chunks by (sequence, time, link).  Gathered in merged TX
 * time order they are sorted but for retransmissions (and segments a qdisc
 * let pass out of order): keep the ascending run in place, sort the rest
 * and merge the two.
 */
static int order_chunks(struct tflow *t)
{
	struct txe *rest = NULL, *out;
	size_t w = 0, n_rest = 0, cap_rest = 0, i = 0, j = 0, k = 0;

	if (!t->n_fc)
		return 0;
	for (size_t x = 0; x < t->n_fc; x++) {
		if (!w || cmp_txe(&t->fc[w - 1], &t->fc[x]) <= 0) {
			t->fc[w++] = t->fc[x];
			continue;
		}
		if (grow((void **)&rest, &cap_rest, n_rest + 1, sizeof(*rest))) {
			free(rest);
			return -ENOMEM;
		}
		rest[n_rest++] = t->fc[x];
	}
	if (!n_rest)
		return 0;
	qsort(rest, n_rest, sizeof(*rest), cmp_txe);
	out = malloc(t->n_fc * sizeof(*out));
	if (!out) {
		free(rest);
		return -ENOMEM;
	}
	while (i < w || j < n_rest)
		out[k++] = j == n_rest || (i < w && cmp_txe(&t->fc[i], &rest[j]) <= 0) ? t->fc[i++]
										       : rest[j++];
	free(t->fc);
	free(rest);
	t->fc = out;
	return 0;
}

/* Step 1 for every flow: chunks that left, first transmissions, retransmissions. */
static int sender_side(struct bc_attrib *a, struct tcp_priv *tp)
{
	size_t pos[BC_ATTRIB_MAX_LINKS] = {0}, l = 0;
	const struct trec *r;

	/* exact sizes first: no copies while growing */
	for (size_t m = 0; m < a->n_links; m++)
		for (size_t i = 0; i < tp->n[m]; i++) {
			r = &tp->recs[m][i];
			if (role(a, &tp->f[r->tf], m) == ROLE_LEFT)
				tp->f[r->tf].cap_fc += n_chunks(r, a->tcp_flows[r->tf].mss);
		}
	for (size_t i = 0; i < a->n_tcp_flows; i++)
		if (tp->f[i].cap_fc) {
			tp->f[i].fc = malloc(tp->f[i].cap_fc * sizeof(struct txe));
			if (!tp->f[i].fc)
				return -ENOMEM;
		}
	while ((r = next_rec(a, tp, pos, ROLE_LEFT, &l))) {
		struct tflow *t = &tp->f[r->tf];
		uint32_t mss = a->tcp_flows[r->tf].mss, n = n_chunks(r, mss);

		for (uint32_t c = 0; c < n; c++) {
			struct txe *x = &t->fc[t->n_fc++];

			memset(x, 0, sizeof(*x));
			chunk_at(r, mss, c, n, &x->s, &x->e);
			x->ts = r->ts;
			x->link = (uint8_t)l;
		}
	}
	for (size_t i = 0; i < a->n_tcp_flows; i++) {
		struct bc_attrib_tcp_flow *f = &a->tcp_flows[i];
		struct tflow *t = &tp->f[i];
		int64_t cur = INT64_MIN;
		size_t w = 0;

		if (order_chunks(t))
			return -ENOMEM;
		f->tx_seen = t->n_fc > 0;
		for (size_t k = 0; k < t->n_fc; k++) {
			struct txe c = t->fc[k];
			struct bc_attrib_tcp_link *tl = &a->links[c.link].tcp;
			int64_t over;

			tl->chunks_left++;
			tl->bytes_left += (uint64_t)(c.e - c.s);
			f->chunks_left++;
			if (c.s >= cur) {
				t->fc[w++] = c;
				cur = c.e;
				continue;
			}
			/* these bytes had left before: a retransmission */
			over = c.e < cur ? c.e : cur;
			if (grow((void **)&t->rt, &t->cap_rt, t->n_rt + 1, sizeof(*t->rt)))
				return -ENOMEM;
			t->rt[t->n_rt] = c;
			t->rt[t->n_rt].e = over;
			if (over - c.s > t->rt_maxlen)
				t->rt_maxlen = over - c.s;
			t->n_rt++;
			tl->retransmits++;
			tl->retransmit_bytes += (uint64_t)(over - c.s);
			f->retransmits++;
			f->retransmit_bytes += (uint64_t)(over - c.s);
			if (c.e > cur) { /* its tail is new */
				c.s = cur;
				t->fc[w++] = c;
				cur = c.e;
			}
		}
		t->n_fc = w;
		f->first_chunks = w;
		for (size_t k = 0; k < w; k++)
			f->seq_bytes += (uint64_t)(t->fc[k].e - t->fc[k].s);
	}
	return 0;
}

/* First first-transmission index whose end is above @s. */
static size_t fc_find(const struct tflow *t, int64_t s)
{
	size_t lo = 0, hi = t->n_fc;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->fc[mid].e <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* First retransmission index whose start is at or above @s. */
static size_t rt_find(const struct tflow *t, int64_t s)
{
	size_t lo = 0, hi = t->n_rt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rt[mid].s < s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void mark_retransmitted(struct tcp_priv *tp, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct tflow *t = &tp->f[i];

		for (size_t j = 0; j < t->n_rt; j++)
			for (size_t k = fc_find(t, t->rt[j].s);
			     k < t->n_fc && t->fc[k].s < t->rt[j].e; k++)
				t->fc[k].retx_over = 1;
	}
}

/*
 * Which RX link each TX link feeds, from the UDP units and the TCP pieces
 * whose bytes left only once; used to map the arrival of bytes that left
 * more than once.  Only needed when a flow retransmitted.
 */
static void learn_feeds(struct bc_attrib *a, struct tcp_priv *tp)
{
	uint64_t tmp[BC_ATTRIB_MAX_LINKS][BC_ATTRIB_MAX_LINKS];
	bool any = false;

	for (size_t i = 0; i < a->n_tcp_flows; i++)
		any |= tp->f[i].n_rt > 0;
	for (size_t l = 0; l < BC_ATTRIB_MAX_LINKS; l++)
		tp->peer[l] = -1;
	if (!any)
		return;
	memcpy(tmp, a->path, sizeof(tmp));
	for (size_t l = 0; l < a->n_links; l++)
		for (size_t i = 0; i < tp->n[l]; i++) {
			const struct trec *r = &tp->recs[l][i];
			const struct tflow *t = &tp->f[r->tf];
			int64_t e = r->rel + r->payload + r->syn + r->fin;

			if (role(a, t, l) != ROLE_ARRIVED)
				continue;
			for (size_t k = fc_find(t, r->rel); k < t->n_fc && t->fc[k].s < e; k++)
				if (!t->fc[k].retx_over)
					tmp[t->fc[k].link][l]++;
		}
	for (size_t t = 0; t < a->n_links; t++) {
		uint64_t best = 0;

		for (size_t r = 0; r < a->n_links; r++)
			if (tmp[t][r] > best) {
				best = tmp[t][r];
				tp->peer[t] = (int)r;
			}
	}
}

/*
 * The transmission an arrived piece [ps, pe) of first transmission @k
 * belongs to when its bytes left more than once: among the copies, prefer
 * those whose TX link feeds @link, then those that left before @ts; of
 * those, the latest that has not fully arrived yet, else the latest.
 */
static struct txe *choose(struct tcp_priv *tp, struct tflow *t, size_t k, int64_t ps, int64_t pe,
			  unsigned link, uint64_t ts)
{
	struct txe *cand[MAX_CANDS], *best = NULL;
	bool any_feed = false, any_before = false;
	size_t n = 0;

	cand[n++] = &t->fc[k];
	for (size_t j = rt_find(t, ps - t->rt_maxlen); j < t->n_rt && t->rt[j].s < pe; j++)
		if (t->rt[j].e > ps && n < MAX_CANDS)
			cand[n++] = &t->rt[j];
	for (size_t i = 0; i < n; i++)
		any_feed |= tp->peer[cand[i]->link] == (int)link;
	for (size_t i = 0; i < n; i++)
		if (!any_feed || tp->peer[cand[i]->link] == (int)link)
			any_before |= cand[i]->ts <= ts;
	for (int pass = 0; pass < 2 && !best; pass++)
		for (size_t i = 0; i < n; i++) {
			struct txe *c = cand[i];

			if (any_feed && tp->peer[c->link] != (int)link)
				continue;
			if (any_before && c->ts > ts)
				continue;
			if (!pass && c->rx_bytes >= (uint64_t)(c->e - c->s))
				continue;
			if (!best || c->ts > best->ts)
				best = c;
		}
	return best ? best : &t->fc[k];
}

/* RFC 4737 / 5236 on ordinals in merged arrival order; pairs as for UDP. */
static int feed(struct bc_attrib *a, struct bc_attrib_tcp_flow *f, struct tflow *t, uint64_t ord,
		unsigned link, uint64_t ts, uint64_t sent_ts, uint32_t bytes)
{
	enum bc_seq_class cls;
	uint64_t pos;

	if (!f->win_ready) {
		struct bc_seqwin_cfg c;

		bc_seqwin_cfg_default(&c);
		c.rd_threshold = a->cfg.rd_threshold;
		if (bc_seqwin_init(&f->win, &c, NULL))
			return -ENOMEM;
		f->win_ready = true;
		if (attrib_pair_observe(a, &f->win.rd))
			return -ENOMEM;
	}
	pos = f->win.received;
	cls = bc_seqwin_add(&f->win, ord, sent_ts, ts, bytes);
	if (cls == BC_SEQ_IN_ORDER) {
		if (grow((void **)&t->rec, &t->cap_rec, t->n_rec + 1, sizeof(*t->rec)))
			return -ENOMEM;
		t->rec[t->n_rec++] = (struct record){ord, pos, (uint8_t)link};
	} else if (cls == BC_SEQ_REORDERED && t->n_rec) {
		/* RFC 4737 4.2: j = earliest arrival with a larger ordinal */
		size_t lo = 0, hi = t->n_rec - 1;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (t->rec[mid].ord > ord)
				hi = mid;
			else
				lo = mid + 1;
		}
		return attrib_pair_charge(a, t->rec[lo].link, link, pos - t->rec[lo].pos,
					  &f->win.rd, true);
	}
	return 0;
}

static void arrived(struct bc_attrib *a, struct bc_attrib_tcp_flow *f, unsigned link,
		    uint64_t bytes)
{
	a->links[link].tcp.chunks_arrived++;
	a->links[link].tcp.bytes_arrived += bytes;
	f->chunks_arrived++;
	f->bytes_arrived += bytes;
}

/* Arrived bytes no sender capture saw leave: counted per MSS. */
static void not_left(struct bc_attrib *a, struct bc_attrib_tcp_flow *f, unsigned link,
		     int64_t bytes)
{
	uint64_t n = f->mss ? ((uint64_t)bytes + f->mss - 1) / f->mss : 1;

	for (uint64_t i = 0; i < n; i++)
		arrived(a, f, link,
			i + 1 < n ? f->mss : (uint64_t)bytes - (n - 1) * (uint64_t)f->mss);
	f->arrived_not_left += n;
	a->rx_without_tx += n;
}

static int piece(struct bc_attrib *a, struct tcp_priv *tp, struct bc_attrib_tcp_flow *f,
		 struct tflow *t, size_t k, int64_t ps, int64_t pe, unsigned link, uint64_t ts)
{
	struct txe *c = &t->fc[k], *x = c->retx_over ? choose(tp, t, k, ps, pe, link, ts) : c;
	uint32_t len = (uint32_t)(pe - ps);
	bool first_arrival;

	a->path[x->link][link]++;
	a->tcp_path[x->link][link]++;
	arrived(a, f, link, len);
	if (x != c) {
		x->rx_bytes += len;
		f->retransmits_arrived++;
		return 0; /* a retransmission's arrival is not reordering */
	}
	if (c->rx_bytes >= (uint64_t)(c->e - c->s)) {
		c->rx_bytes += len;
		f->duplicates++;
		return 0;
	}
	first_arrival = !c->rx_bytes;
	c->rx_bytes += len;
	if (!first_arrival)
		return 0; /* another piece of a chunk the receiver saw cut elsewhere */
	return feed(a, f, t, k, link, ts, c->ts, (uint32_t)(c->e - c->s));
}

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * Without a sender capture the ordinal of an arrived chunk is the rank of
 * its start among the flow's distinct arrived chunk starts (TCP sends new
 * data in sequence order); a retransmission then looks like a late segment.
 */
static int rx_only_ordinals(struct bc_attrib *a, struct tcp_priv *tp)
{
	for (size_t l = 0; l < a->n_links; l++)
		for (size_t i = 0; i < tp->n[l]; i++) {
			const struct trec *r = &tp->recs[l][i];
			struct tflow *t = &tp->f[r->tf];
			uint32_t mss = a->tcp_flows[r->tf].mss, n = n_chunks(r, mss);

			if (t->n_fc || role(a, t, l) != ROLE_ARRIVED)
				continue;
			if (grow((void **)&t->rx_starts, &t->cap_rx_starts, t->n_rx_starts + n,
				 sizeof(int64_t)))
				return -ENOMEM;
			for (uint32_t c = 0; c < n; c++) {
				int64_t ce;

				chunk_at(r, mss, c, n, &t->rx_starts[t->n_rx_starts++], &ce);
			}
		}
	for (size_t i = 0; i < a->n_tcp_flows; i++) {
		struct tflow *t = &tp->f[i];
		bool sorted = true;
		size_t w = 0;

		for (size_t k = 1; k < t->n_rx_starts && sorted; k++)
			sorted = t->rx_starts[k - 1] <= t->rx_starts[k];
		if (!sorted)
			qsort(t->rx_starts, t->n_rx_starts, sizeof(int64_t), cmp_i64);
		for (size_t k = 0; k < t->n_rx_starts; k++)
			if (!w || t->rx_starts[k] != t->rx_starts[w - 1])
				t->rx_starts[w++] = t->rx_starts[k];
		t->n_rx_starts = w;
	}
	return 0;
}

static uint64_t start_rank(struct tflow *t, int64_t s)
{
	size_t lo = 0, hi = t->n_rx_starts;

	if (t->hint < t->n_rx_starts && t->rx_starts[t->hint] == s)
		return t->hint++; /* in order: the next start */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rx_starts[mid] < s)
			lo = mid + 1;
		else
			hi = mid;
	}
	t->hint = lo + 1;
	return lo;
}

/* Step 2: one segment that arrived on @link, in merged arrival order. */
static int arrival(struct bc_attrib *a, struct tcp_priv *tp, const struct trec *r, unsigned link)
{
	struct bc_attrib_tcp_flow *f = &a->tcp_flows[r->tf];
	struct tflow *t = &tp->f[r->tf];
	int64_t s = r->rel, e = s + r->payload + r->syn + r->fin, cur = s;
	size_t k0, k;
	int rc = 0;

	if (!t->any_rx || e > t->rx_max_end)
		t->rx_max_end = e;
	t->any_rx = true;
	f->rx_seen = true;
	if (!t->n_fc) {
		/* no sender capture: ordinals from the sequence, per MSS */
		uint32_t n = n_chunks(r, f->mss);

		for (uint32_t c = 0; c < n && !rc; c++) {
			int64_t cs, ce;

			chunk_at(r, f->mss, c, n, &cs, &ce);
			arrived(a, f, link, (uint64_t)(ce - cs));
			rc = feed(a, f, t, start_rank(t, cs), link, r->ts, r->ts,
				  (uint32_t)(ce - cs));
		}
		return rc;
	}
	/* in order, the arrival starts in the first transmission after the last one */
	k0 = t->hint < t->n_fc && t->fc[t->hint].s <= s && s < t->fc[t->hint].e ? t->hint
										: fc_find(t, s);
	for (k = k0; k < t->n_fc && t->fc[k].s < e && !rc; k++) {
		int64_t ps = s > t->fc[k].s ? s : t->fc[k].s, pe = e < t->fc[k].e ? e : t->fc[k].e;

		if (ps > cur)
			not_left(a, f, link, ps - cur);
		cur = pe;
		rc = piece(a, tp, f, t, k, ps, pe, link, r->ts);
	}
	t->hint = k;
	if (!rc && e > cur)
		not_left(a, f, link, e - cur);
	return rc;
}

static int receiver_side(struct bc_attrib *a, struct tcp_priv *tp)
{
	size_t pos[BC_ATTRIB_MAX_LINKS] = {0}, l = 0;
	const struct trec *r;
	int rc = rx_only_ordinals(a, tp);

	if (rc)
		return rc;
	while ((r = next_rec(a, tp, pos, ROLE_ARRIVED, &l))) {
		rc = arrival(a, tp, r, (unsigned)l);
		if (rc)
			return rc;
	}
	return 0;
}

/* Is transmission @x sent after @y (time, then sequence: chunks of one super-frame)? */
static bool sent_after(const struct txe *x, const struct txe *y)
{
	return x->ts > y->ts || (x->ts == y->ts && x->s > y->s);
}

/*
 * Step 3: what never arrived, spurious retransmissions, totals.  A
 * transmission that never arrived is lost when one sent after it on the same
 * TX link arrived (a link keeps its order; other links may hold longer
 * queues, so the flow's last arrival does not bracket it), else unbracketed
 * (still queued when the captures stopped: TCP keeps sending after the app
 * stops writing).
 */
static void tally(struct bc_attrib *a, struct tcp_priv *tp)
{
	for (size_t i = 0; i < a->n_tcp_flows; i++) {
		struct bc_attrib_tcp_flow *f = &a->tcp_flows[i];
		struct tflow *t = &tp->f[i];
		const struct txe *last[BC_ATTRIB_MAX_LINKS] = {NULL};

		for (int list = 0; list < 2; list++) {
			const struct txe *v = list ? t->rt : t->fc;
			size_t n = list ? t->n_rt : t->n_fc;

			for (size_t k = 0; k < n; k++)
				if (v[k].rx_bytes &&
				    (!last[v[k].link] || sent_after(&v[k], last[v[k].link])))
					last[v[k].link] = &v[k];
		}
		for (int list = 0; list < 2; list++) {
			struct txe *v = list ? t->rt : t->fc;
			size_t n = list ? t->n_rt : t->n_fc;

			for (size_t k = 0; k < n; k++) {
				struct bc_attrib_tcp_link *tl = &a->links[v[k].link].tcp;

				if (v[k].rx_bytes)
					continue;
				if (last[v[k].link] && sent_after(last[v[k].link], &v[k])) {
					tl->lost++;
					tl->lost_bytes += (uint64_t)(v[k].e - v[k].s);
					f->lost++;
					f->lost_bytes += (uint64_t)(v[k].e - v[k].s);
				} else {
					tl->unbracketed++;
					f->unbracketed++;
				}
			}
		}
		for (size_t j = 0; j < t->n_rt; j++) {
			bool earlier_arrived = false;

			for (size_t k = fc_find(t, t->rt[j].s);
			     k < t->n_fc && t->fc[k].s < t->rt[j].e && !earlier_arrived; k++)
				earlier_arrived = t->fc[k].rx_bytes > 0;
			if (earlier_arrived) {
				f->spurious++;
				a->links[t->rt[j].link].tcp.spurious++;
			}
		}
		if (f->win_ready) {
			bc_seqwin_finish(&f->win);
			f->duplicates += f->win.duplicates;
			a->tcp_received += f->win.received;
			a->tcp_reordered += f->win.reordered;
		}
	}
	a->rx_received += a->tcp_received;
	a->rx_reordered += a->tcp_reordered;
}

int attrib_tcp_merge(struct bc_attrib *a)
{
	struct priv *pv = a->priv;
	struct tcp_priv *tp = pv->tcp;
	int rc;

	if (!tp || !a->n_tcp_flows)
		return 0;
	for (size_t i = 0; i < a->n_tcp_flows; i++) {
		int f = a->tcp_flows[i].flow;

		tp->f[i].dir = pv->pairs[pv->flow_pair[f]].dir;
		a->tcp_flows[i].dir = a->flows[f].dir;
		choose_mss(a, tp, i);
	}
	rc = sender_side(a, tp);
	if (rc)
		return rc;
	mark_retransmitted(tp, a->n_tcp_flows);
	learn_feeds(a, tp);
	rc = receiver_side(a, tp);
	if (rc)
		return rc;
	tally(a, tp);
	attrib_learn_peers(a);
	return 0;
}
