// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Failover analysis of the TCP flow alongside the datagrams (`failover
 * --tcp`): stall of the receiver's in-order point, retransmissions,
 * goodput before and after, links, and what is expected.  Definitions in
 * bondcheck/failover.h (struct bc_fo_tcp).  Runs at the end of fo_finish(),
 * after the agent's clock was moved onto the client's for the datagrams.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/failover-int.h"
#include "bondcheck/grow.h"

#define TCP_MAX_SEGMENTS (1u << 24) /* records kept (a 20 s test at 8 Mbit/s: ~14000) */
#define OOO_MAX		 4096	    /* out-of-order ranges held by the receiver model */

int fo_tcp_packet(struct bc_failover *f, int link, uint64_t ts, const struct bc_pkt *p, int src,
		  int dst)
{
	struct fo_priv *pv = f->priv;
	struct fo_tcp_rec r;

	/* data of the flow client -> agent only: the ACKs say nothing the data does not */
	if (src != BC_FO_CLIENT || dst != BC_FO_AGENT || p->dport != f->cfg.tcp_dport ||
	    (f->cfg.tcp_sport && p->sport != f->cfg.tcp_sport) || !p->l4_payload)
		return 0;
	if (pv->n_tcp >= TCP_MAX_SEGMENTS)
		return 0;
	if (bc_grow((void **)&pv->tcp, &pv->cap_tcp, pv->n_tcp + 1, sizeof(*pv->tcp), 1024))
		return -ENOMEM;
	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.seq = p->tcp_seq;
	r.len = p->l4_payload;
	r.link = (uint8_t)link;
	r.left = f->links[link].host == BC_FO_CLIENT;
	pv->tcp[pv->n_tcp++] = r;
	f->tcp.sport = p->sport;
	f->tcp.dport = p->dport;
	return 0;
}

static int cmp_ts(const void *a, const void *b)
{
	const struct fo_tcp_rec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->left > y->left ? -1 : x->left < y->left; /* a departure first */
}

/* The link the host of @recs' departures sent on at @ts: its latest departure at or before. */
static int latest_left(const struct fo_tcp_rec *r, size_t n, uint64_t ts)
{
	int link = -1;

	for (size_t i = 0; i < n && r[i].ts <= ts; i++)
		if (r[i].left)
			link = r[i].link;
	return link;
}

/*
 * Whether an arrival after @i (in time order) at the agent carries byte
 * @lo again: the sender resent it, so the copy at @i was not taken.
 */
static bool arrives_again(const struct fo_tcp_rec *r, size_t n, size_t i, uint32_t base,
			  uint64_t lo)
{
	for (size_t j = i + 1; j < n; j++) {
		uint64_t l = (uint32_t)(r[j].seq - base);

		if (!r[j].left && l <= lo && lo < l + r[j].len)
			return true;
	}
	return false;
}

struct ooo {
	uint64_t lo, hi; /* [lo, hi) relative bytes */
};

/* Add [lo, hi) beyond the in-order point; ranges kept sorted and disjoint. */
static void ooo_add(struct ooo *o, size_t *n, uint64_t lo, uint64_t hi)
{
	size_t i = 0, j;

	while (i < *n && o[i].hi < lo)
		i++;
	if (i < *n && o[i].lo <= hi) { /* overlaps or touches: merge forward */
		if (lo < o[i].lo)
			o[i].lo = lo;
		if (hi > o[i].hi)
			o[i].hi = hi;
		for (j = i + 1; j < *n && o[j].lo <= o[i].hi; j++)
			if (o[j].hi > o[i].hi)
				o[i].hi = o[j].hi;
		memmove(&o[i + 1], &o[j], (*n - j) * sizeof(*o));
		*n -= j - i - 1;
		return;
	}
	if (*n == OOO_MAX)
		return; /* the model forgets it; a later retransmission fills the hole */
	memmove(&o[i + 1], &o[i], (*n - i) * sizeof(*o));
	o[i] = (struct ooo){lo, hi};
	(*n)++;
}

/* The in-order point after taking held ranges that now start at or below it. */
static uint64_t ooo_take(struct ooo *o, size_t *n, uint64_t nxt)
{
	size_t k = 0;

	while (k < *n && o[k].lo <= nxt) {
		if (o[k].hi > nxt)
			nxt = o[k].hi;
		k++;
	}
	memmove(o, &o[k], (*n - k) * sizeof(*o));
	*n -= k;
	return nxt;
}

/* One advance of the in-order point. */
struct adv {
	uint64_t ts, nxt;
	uint8_t link;
};

/* In-order bytes delivered in [from, to) by the advances @a. */
static uint64_t bytes_in(const struct adv *a, size_t n, uint64_t from, uint64_t to)
{
	uint64_t before = 0, at = 0;

	for (size_t i = 0; i < n && a[i].ts < to; i++) {
		if (a[i].ts < from)
			before = a[i].nxt;
		at = a[i].nxt;
	}
	return at > before ? at - before : 0;
}

static uint64_t bps(uint64_t bytes, uint64_t ns)
{
	return ns ? (uint64_t)((double)bytes * 8e9 / (double)ns) : 0;
}

static void expected(struct bc_failover *f, struct bc_fo_tcp *t)
{
	uint64_t ref = 0;
	bool same = false;

	for (size_t i = 0; i < f->n_streams; i++) {
		const struct bc_fo_stream *s = &f->streams[i];

		if (s->dir != BC_FO_C2A || !s->down.found)
			continue;
		if (t->left_before >= 0 && s->left_before == t->left_before) {
			if (!same || s->down.gap_ns > ref)
				ref = s->down.gap_ns;
			same = true;
		} else if (!same && s->down.gap_ns > ref) {
			ref = s->down.gap_ns;
		}
	}
	t->udp_gap_ns = ref;
	t->rto_ns = f->cfg.tcp_srtt_ns + BC_FO_TCP_RTO_MIN;
	if (f->cfg.tcp_rto_ns > t->rto_ns)
		t->rto_ns = f->cfg.tcp_rto_ns;
	t->min_ns = ref > BC_FO_TCP_TOL ? ref - BC_FO_TCP_TOL : 0;
	t->max_ns = 2 * ref + t->rto_ns + BC_FO_TCP_TOL_MAX;
	if (!t->present)
		t->verdict = "no-data";
	else if (!t->stall_found)
		t->verdict = "no-stall";
	else if (t->stall_open)
		t->verdict = "not-recovered";
	else if (t->stall_ns < t->min_ns)
		t->verdict = "shorter";
	else if (t->stall_ns > t->max_ns)
		t->verdict = "longer";
	else
		t->verdict = "within";
}

/* The flow's data segments per timeline bin and link (after the clock move); those
 * outside the datagrams' timeline are left out.  0 or -ENOMEM. */
static int timeline(struct bc_failover *f, const struct fo_priv *pv)
{
	if (!f->tl_bins)
		return 0;
	for (size_t i = 0; i < f->n_links; i++) {
		f->links[i].tl_tcp = calloc(f->tl_bins, sizeof(uint32_t));
		if (!f->links[i].tl_tcp)
			return -ENOMEM;
	}
	for (size_t i = 0; i < pv->n_tcp; i++) {
		const struct fo_tcp_rec *r = &pv->tcp[i];
		uint64_t b;

		if (r->ts < f->tl_start_ns)
			continue;
		b = (r->ts - f->tl_start_ns) / f->tl_bin_ns;
		if (b < f->tl_bins)
			f->links[r->link].tl_tcp[b]++;
	}
	return 0;
}

int fo_tcp_finish(struct bc_failover *f)
{
	struct fo_priv *pv = f->priv;
	struct bc_fo_tcp *t = &f->tcp;
	uint64_t cut = f->cfg.cut_ns, restore = f->cfg.restore_ns, base = 0, sent_hi = 0, nxt = 0;
	uint64_t first_delivery = BC_FO_NONE, best = 0;
	struct ooo *o = NULL;
	struct adv *a = NULL;
	/* the agent's active slave, as its datagrams' departures show it */
	const struct fo_dep *deps = pv->deps[BC_FO_AGENT];
	size_t no = 0, na = 0, bi = SIZE_MAX, nd = pv->n_deps[BC_FO_AGENT];
	bool have_base = false;

	t->left_before = t->left_after = t->arrived_before = t->arrived_after = -1;
	t->first_retrans_ns = t->last_before_ns = t->first_after_ns = BC_FO_NONE;
	if (!f->cfg.tcp_dport) {
		t->verdict = NULL;
		return 0;
	}
	t->present = pv->n_tcp > 0;
	if (!t->present) {
		expected(f, t);
		return 0;
	}
	for (size_t i = 0; i < pv->n_tcp; i++)
		if (f->links[pv->tcp[i].link].host == BC_FO_AGENT)
			pv->tcp[i].ts = (uint64_t)((int64_t)pv->tcp[i].ts - f->clock_offset_ns);
	qsort(pv->tcp, pv->n_tcp, sizeof(*pv->tcp), cmp_ts);
	if (timeline(f, pv))
		return -ENOMEM;
	o = malloc(OOO_MAX * sizeof(*o));
	a = malloc((pv->n_tcp + 1) * sizeof(*a));
	if (!o || !a) {
		free(o);
		free(a);
		return -ENOMEM;
	}
	/* relative sequence numbers from the earliest data segment (32-bit wrap) */
	for (size_t i = 0; i < pv->n_tcp && !have_base; i++)
		if (pv->tcp[i].left) {
			base = pv->tcp[i].seq;
			have_base = true;
		}
	if (!have_base)
		base = pv->tcp[0].seq;
	for (size_t i = 0; i < pv->n_tcp; i++) {
		const struct fo_tcp_rec *x = &pv->tcp[i];
		uint64_t lo = (uint32_t)(x->seq - (uint32_t)base), hi = lo + x->len;

		if (lo >= (1u << 31))
			continue; /* before the first segment seen */
		if (x->left) {
			t->segments_left++;
			if (lo < sent_hi) {
				t->retrans++;
				if (x->ts >= cut && x->ts < restore) {
					t->retrans_in_hold++;
					if (t->first_retrans_ns == BC_FO_NONE)
						t->first_retrans_ns = x->ts;
				}
			}
			if (hi > sent_hi)
				sent_hi = hi;
			if (x->ts < cut)
				t->left_before = x->link;
			continue;
		}
		t->segments_arrived++;
		/*
		 * active-backup hands the stack only what arrives on the active
		 * slave.  The agent's active slave is known from its datagrams'
		 * departures, which around the failover lag the switch by up to
		 * a datagram interval; a segment that arrived on the other slave
		 * was dropped only if the sender resent it (a copy arrives
		 * again), else it was taken.
		 */
		if (f->cfg.rx_on_tx_slave_only[BC_FO_AGENT] && nd &&
		    fo_tx_link_at(deps, nd, x->ts) != x->link &&
		    arrives_again(pv->tcp, pv->n_tcp, i, (uint32_t)base, lo)) {
			t->not_delivered++;
			continue;
		}
		if (hi <= nxt)
			continue; /* a copy of what it has */
		if (lo > nxt) {
			ooo_add(o, &no, lo, hi);
			continue;
		}
		nxt = ooo_take(o, &no, hi);
		if (first_delivery == BC_FO_NONE)
			first_delivery = x->ts;
		a[na++] = (struct adv){x->ts, nxt, x->link};
	}
	t->bytes_sent = sent_hi;
	t->bytes_delivered = nxt;
	/* the stall: the longest interval between advances ending after the cut, starting before
	 * the restore */
	for (size_t i = 0; i + 1 < na; i++) {
		uint64_t g = a[i + 1].ts - a[i].ts;

		if (a[i + 1].ts <= cut || a[i].ts >= restore)
			continue;
		if (bi == SIZE_MAX || g > best) {
			best = g;
			bi = i;
		}
	}
	if (na && a[na - 1].ts < restore && f->last_ns != BC_FO_NONE && f->last_ns > restore) {
		/* nothing advanced it after the restore though the capture went on */
		t->stall_found = t->stall_open = true;
		t->last_before_ns = a[na - 1].ts;
		t->stall_ns = f->last_ns - a[na - 1].ts;
		t->arrived_before = a[na - 1].link;
	} else if (bi != SIZE_MAX) {
		t->stall_found = true;
		t->last_before_ns = a[bi].ts;
		t->first_after_ns = a[bi + 1].ts;
		t->stall_ns = best;
		t->arrived_before = a[bi].link;
		t->arrived_after = a[bi + 1].link;
		t->left_after = latest_left(pv->tcp, pv->n_tcp, a[bi + 1].ts);
	}
	if (first_delivery != BC_FO_NONE && first_delivery < cut) {
		uint64_t from = cut > first_delivery + BC_FO_TCP_WINDOW ? cut - BC_FO_TCP_WINDOW
									: first_delivery;

		t->goodput_before_bps = bps(bytes_in(a, na, from, cut), cut - from);
	}
	if (t->stall_found && !t->stall_open) {
		uint64_t from = t->first_after_ns, to = from + BC_FO_TCP_WINDOW;

		if (restore > from && restore < to)
			to = restore;
		/* from the advance that ended the stall: what it held back counts too */
		t->goodput_after_bps = bps(bytes_in(a, na, from, to), to - from);
	}
	free(o);
	free(a);
	expected(f, t);
	return 0;
}
