// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Failover analysis, finish: the agent clock onto the client's, delivered
 * arrivals, per-stream gaps, links before/after, per-link neighbour
 * announcements, LACP timeout and re-sync, timeline, per-direction
 * summaries.  Definitions in bondcheck/failover.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/failover-int.h"

#define SYNC_BITS (BC_LACP_SYNCHRONIZATION | BC_LACP_COLLECTING | BC_LACP_DISTRIBUTING)
#define CD_BITS	  (BC_LACP_COLLECTING | BC_LACP_DISTRIBUTING)

struct arr {
	uint64_t ts, seq;
	uint8_t link;
};

static int cmp_dep(const void *a, const void *b)
{
	const struct fo_dep *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int cmp_arr(const void *a, const void *b)
{
	const struct arr *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sender host of a stream's direction. */
static enum bc_fo_host sender(enum bc_fo_dir d)
{
	return d == BC_FO_C2A ? BC_FO_CLIENT : BC_FO_AGENT;
}

static int alloc_stream(struct bc_fo_stream *s)
{
	s->dep_ts = malloc(s->span * sizeof(*s->dep_ts));
	s->arr_ts = malloc(s->span * sizeof(*s->arr_ts));
	s->dep_link = malloc(s->span);
	s->arr_link = malloc(s->span);
	s->arr_n = calloc(s->span, sizeof(*s->arr_n));
	if (!s->dep_ts || !s->arr_ts || !s->dep_link || !s->arr_link || !s->arr_n)
		return -ENOMEM;
	for (uint32_t k = 0; k < s->span; k++)
		s->dep_ts[k] = s->arr_ts[k] = BC_FO_NONE;
	memset(s->dep_link, 0xff, s->span);
	memset(s->arr_link, 0xff, s->span);
	return 0;
}

/* Sequence range per stream, arrays; a record outside the kept span is dropped. */
static int spans(struct bc_failover *f, struct fo_priv *pv)
{
	for (size_t i = 0; i < pv->n_recs; i++) {
		struct bc_fo_stream *s = &f->streams[pv->recs[i].stream];

		if (pv->recs[i].seq < s->min_seq)
			s->min_seq = pv->recs[i].seq;
	}
	for (size_t i = 0; i < pv->n_recs; i++) {
		struct bc_fo_stream *s = &f->streams[pv->recs[i].stream];
		uint64_t k = pv->recs[i].seq - s->min_seq;

		if (k >= BC_FO_MAX_SPAN)
			continue;
		if (k + 1 > s->span)
			s->span = (uint32_t)(k + 1);
	}
	for (size_t i = 0; i < f->n_streams; i++) {
		struct bc_fo_stream *s = &f->streams[i];

		if (!s->span)
			s->span = 1;
		s->max_seq = s->min_seq + s->span - 1;
		if (alloc_stream(s))
			return -ENOMEM;
	}
	return 0;
}

static bool in_span(const struct bc_fo_stream *s, uint64_t seq)
{
	return seq >= s->min_seq && seq - s->min_seq < s->span;
}

/*
 * Agent clock - client clock, from the smallest one-way delay each way
 * (RFC 5905 8): forward delay d + off, reverse d' - off, off = (m1 - m2) / 2.
 */
static void clock_offset(struct bc_failover *f, struct fo_priv *pv)
{
	int64_t m[2] = {INT64_MAX, INT64_MAX};

	/* departures first (sender clocks), then each arrival against its departure */
	for (size_t i = 0; i < pv->n_recs; i++) {
		struct fo_rec *r = &pv->recs[i];
		struct bc_fo_stream *s = &f->streams[r->stream];

		if (r->left && in_span(s, r->seq) && s->dep_ts[r->seq - s->min_seq] == BC_FO_NONE)
			s->dep_ts[r->seq - s->min_seq] = r->ts;
	}
	for (size_t i = 0; i < pv->n_recs; i++) {
		struct fo_rec *r = &pv->recs[i];
		struct bc_fo_stream *s = &f->streams[r->stream];
		uint64_t d;

		if (r->left || !in_span(s, r->seq))
			continue;
		d = s->dep_ts[r->seq - s->min_seq];
		if (d != BC_FO_NONE && (int64_t)(r->ts - d) < m[s->dir])
			m[s->dir] = (int64_t)(r->ts - d);
	}
	for (size_t i = 0; i < f->n_streams; i++)
		for (uint32_t k = 0; k < f->streams[i].span; k++)
			f->streams[i].dep_ts[k] = BC_FO_NONE;
	if (m[0] == INT64_MAX || m[1] == INT64_MAX)
		return;
	f->clock_offset_ns = (m[0] - m[1]) / 2;
	f->clock_offset_known = true;
}

static void to_client_clock(struct bc_failover *f, struct fo_priv *pv)
{
	for (size_t i = 0; i < pv->n_recs; i++)
		if (f->links[pv->recs[i].link].host == BC_FO_AGENT)
			pv->recs[i].ts = (uint64_t)((int64_t)pv->recs[i].ts - f->clock_offset_ns);
	for (size_t i = 0; i < pv->n_evs; i++)
		if (f->links[pv->evs[i].link].host == BC_FO_AGENT)
			pv->evs[i].ts = (uint64_t)((int64_t)pv->evs[i].ts - f->clock_offset_ns);
}

int fo_tx_link_at(const struct fo_dep *d, size_t n, uint64_t ts)
{
	size_t lo = 0, hi = n;

	if (!n)
		return -1;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (d[mid].ts <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? d[lo - 1].link : d[0].link;
}

static int fill_streams(struct bc_failover *f, struct fo_priv *pv)
{
	struct fo_dep **deps = pv->deps;
	size_t *nd = pv->n_deps;

	for (int h = 0; h < 2; h++) {
		free(deps[h]);
		nd[h] = 0;
		deps[h] = malloc((pv->n_recs + 1) * sizeof(**deps));
		if (!deps[h])
			return -ENOMEM;
	}
	for (size_t i = 0; i < pv->n_recs; i++) {
		struct fo_rec *x = &pv->recs[i];
		struct bc_fo_stream *s = &f->streams[x->stream];
		uint64_t k;

		if (x->ts < f->first_ns)
			f->first_ns = x->ts;
		if (x->ts > f->last_ns)
			f->last_ns = x->ts;
		if (!x->left || !in_span(s, x->seq))
			continue;
		k = x->seq - s->min_seq;
		s->left++;
		deps[sender(s->dir)][nd[sender(s->dir)]++] = (struct fo_dep){x->ts, x->link};
		/* the latest: a send that failed after the tap (a veth whose peer is
		 * down) is retried with the same number, on the slave that works */
		if (s->dep_ts[k] == BC_FO_NONE || x->ts > s->dep_ts[k]) {
			s->dep_ts[k] = x->ts;
			s->dep_link[k] = x->link;
		}
	}
	for (int h = 0; h < 2; h++)
		qsort(deps[h], nd[h], sizeof(**deps), cmp_dep);
	for (size_t i = 0; i < pv->n_recs; i++) {
		struct fo_rec *x = &pv->recs[i];
		struct bc_fo_stream *s = &f->streams[x->stream];
		enum bc_fo_host rh = f->links[x->link].host;
		uint64_t k;

		if (x->left || !in_span(s, x->seq))
			continue;
		k = x->seq - s->min_seq;
		s->arrived++;
		if (f->cfg.rx_on_tx_slave_only[rh] && nd[rh] &&
		    fo_tx_link_at(deps[rh], nd[rh], x->ts) != x->link) {
			s->not_delivered++;
			continue;
		}
		if (s->arr_n[k] < UINT16_MAX)
			s->arr_n[k]++;
		if (s->arr_ts[k] == BC_FO_NONE || x->ts < s->arr_ts[k]) {
			s->arr_ts[k] = x->ts;
			s->arr_link[k] = x->link;
		}
	}
	return 0;
}

/* Lost between two delivered sequence numbers (exclusive), or after @a when @b is none. */
static uint64_t lost_between(const struct bc_fo_stream *s, uint64_t a, uint64_t b)
{
	uint64_t n = 0, lo = a - s->min_seq + 1, hi = b == BC_FO_NONE ? s->span : b - s->min_seq;

	for (uint64_t k = lo; k < hi && k < s->span; k++)
		n += s->arr_ts[k] == BC_FO_NONE;
	return n;
}

static void set_gap(const struct bc_failover *f, const struct bc_fo_stream *s, struct bc_fo_gap *g,
		    const struct arr *a, const struct arr *b)
{
	g->found = true;
	g->last_before_ns = a->ts;
	g->last_seq = a->seq;
	g->last_link = a->link;
	if (b) {
		g->open = false;
		g->first_after_ns = b->ts;
		g->first_seq = b->seq;
		g->first_link = b->link;
		g->gap_ns = b->ts - a->ts;
		g->first_left_link = s->dep_link[b->seq - s->min_seq] == 0xff
					     ? -1
					     : s->dep_link[b->seq - s->min_seq];
		g->lost_in_gap = lost_between(s, a->seq, b->seq);
	} else {
		g->open = true;
		g->first_after_ns = BC_FO_NONE;
		g->first_seq = 0;
		g->first_link = g->first_left_link = -1;
		g->gap_ns = f->last_ns > a->ts ? f->last_ns - a->ts : 0;
		g->lost_in_gap = lost_between(s, a->seq, BC_FO_NONE);
	}
}

/* Gaps, order, links of one stream from its delivered arrivals @a (time order). */
static void stream_gaps(struct bc_failover *f, struct bc_fo_stream *s, struct arr *a, size_t n)
{
	uint64_t cut = f->cfg.cut_ns, restore = f->cfg.restore_ns, next = 0, best = 0, loss = 0;
	size_t bi = SIZE_MAX;

	s->down.last_link = s->down.first_link = s->down.first_left_link = -1;
	s->up = s->down;
	for (size_t i = 0; i < n; i++) {
		if (a[i].seq < next)
			s->reordered++;
		else
			next = a[i].seq + 1;
	}
	s->arrived_before = s->arrived_after = s->arrived_end = -1;
	if (!n)
		return;
	s->arrived_end = a[n - 1].link;
	for (size_t i = 0; i < n && a[i].ts < cut; i++)
		s->arrived_before = a[i].link;
	/*
	 * The down gap: ends after the cut, starts before the restore; the one
	 * that lost the most datagrams, then the longest (a pause of the sender,
	 * or a host too busy to send, loses nothing and is not the failover);
	 * or open at the end.
	 */
	for (size_t i = 0; i + 1 < n; i++) {
		uint64_t l, g = a[i + 1].ts - a[i].ts;

		if (a[i + 1].ts <= cut || a[i].ts >= restore)
			continue;
		l = lost_between(s, a[i].seq, a[i + 1].seq);
		if (l > loss || (l == loss && g > best)) {
			loss = l;
			best = g;
			bi = i;
		}
	}
	/*
	 * Nothing lost: a flow that moved to another slave without loss (a hash
	 * bond that drops the slave at once) has its failover where the first
	 * datagram after the cut left (or arrived) on another link than before.
	 */
	if (!loss && bi != SIZE_MAX) {
		for (size_t i = 1; i < n && a[i].ts < restore; i++) {
			uint8_t dl = s->dep_link[a[i].seq - s->min_seq];

			if (a[i].ts <= cut)
				continue;
			if ((s->left_before >= 0 && dl != 0xff && dl != s->left_before) ||
			    (s->arrived_before >= 0 && a[i].link != s->arrived_before)) {
				bi = i - 1;
				break;
			}
		}
	}
	if (a[0].ts < cut) {
		uint64_t tail = lost_between(s, a[n - 1].seq, BC_FO_NONE);

		if (a[n - 1].ts < restore && tail && tail >= loss)
			set_gap(f, s, &s->down, &a[n - 1], NULL);
		else if (bi != SIZE_MAX)
			set_gap(f, s, &s->down, &a[bi], &a[bi + 1]);
	}
	if (s->down.found) {
		s->arrived_after = s->down.first_link;
		s->interrupted = s->down.lost_in_gap > 0;
		s->black_hole = s->down.open || s->down.first_after_ns >= restore;
	}
	if (!s->down.found || s->down.open)
		return;
	best = loss = 0;
	bi = SIZE_MAX;
	for (size_t i = 0; i + 1 < n; i++) {
		uint64_t l, g = a[i + 1].ts - a[i].ts;

		if (a[i + 1].ts <= restore || a[i].ts < s->down.first_after_ns)
			continue;
		l = lost_between(s, a[i].seq, a[i + 1].seq);
		if (l > loss || (l == loss && g > best)) {
			loss = l;
			best = g;
			bi = i;
		}
	}
	if (bi != SIZE_MAX)
		set_gap(f, s, &s->up, &a[bi], &a[bi + 1]);
}

static int streams_analyze(struct bc_failover *f)
{
	struct arr *a = NULL;
	size_t cap = 0;

	for (size_t i = 0; i < f->n_streams; i++) {
		struct bc_fo_stream *s = &f->streams[i];
		uint64_t last_dep = 0, last_before = 0, last_hold = 0;
		size_t n = 0;

		if (!a || s->span > cap) {
			free(a);
			cap = s->span;
			a = malloc(cap * sizeof(*a));
			if (!a)
				return -ENOMEM;
		}
		s->left_before = s->left_after = s->left_end = -1;
		for (uint32_t k = 0; k < s->span; k++) {
			if (s->dep_ts[k] != BC_FO_NONE) {
				if (s->dep_ts[k] >= last_dep) {
					last_dep = s->dep_ts[k];
					s->left_end = s->dep_link[k];
				}
				if (s->dep_ts[k] < f->cfg.cut_ns && s->dep_ts[k] >= last_before) {
					last_before = s->dep_ts[k];
					s->left_before = s->dep_link[k];
				}
				/* where the sender was at the end of the hold, delivered or not */
				if (s->dep_ts[k] >= f->cfg.cut_ns &&
				    s->dep_ts[k] < f->cfg.restore_ns && s->dep_ts[k] >= last_hold) {
					last_hold = s->dep_ts[k];
					s->left_after = s->dep_link[k];
				}
			}
			if (s->arr_ts[k] == BC_FO_NONE) {
				s->lost++;
				continue;
			}
			s->delivered++;
			s->duplicates += s->arr_n[k] - 1u;
			a[n++] = (struct arr){s->arr_ts[k], s->min_seq + k, s->arr_link[k]};
		}
		if (n > 1) /* a is still NULL for a stream of span 0 */
			qsort(a, n, sizeof(*a), cmp_arr);
		stream_gaps(f, s, a, n);
		if (s->left_after < 0)
			s->left_after = s->down.first_left_link;
		s->moved = s->down.found && !s->down.open &&
			   ((s->left_before >= 0 && s->down.first_left_link >= 0 &&
			     s->down.first_left_link != s->left_before) ||
			    (s->arrived_before >= 0 && s->arrived_after >= 0 &&
			     s->arrived_after != s->arrived_before));
		s->used_cut_slave = f->cut_link >= 0 &&
				    ((s->dir == BC_FO_C2A && s->left_before == f->cut_link) ||
				     (s->dir == BC_FO_A2C && s->arrived_before == f->cut_link));
	}
	free(a);
	return 0;
}

static int timeline(struct bc_failover *f, struct fo_priv *pv)
{
	uint64_t span, bin = f->cfg.bin_ns;

	if (f->first_ns == BC_FO_NONE || f->last_ns < f->first_ns)
		return 0;
	span = f->last_ns - f->first_ns + 1;
	if (span / bin + 1 > BC_FO_MAX_BINS)
		bin = ((span / BC_FO_MAX_BINS) / f->cfg.bin_ns + 1) * f->cfg.bin_ns;
	f->tl_bin_ns = bin;
	f->tl_start_ns = f->first_ns - f->first_ns % bin;
	f->tl_bins = (size_t)((f->last_ns - f->tl_start_ns) / bin + 1);
	for (size_t i = 0; i < f->n_links; i++) {
		f->links[i].tl_left = calloc(f->tl_bins, sizeof(uint32_t));
		f->links[i].tl_arrived = calloc(f->tl_bins, sizeof(uint32_t));
		if (!f->links[i].tl_left || !f->links[i].tl_arrived)
			return -ENOMEM;
	}
	for (size_t i = 0; i < pv->n_recs; i++) {
		struct fo_rec *r = &pv->recs[i];
		size_t b = (size_t)((r->ts - f->tl_start_ns) / bin);
		struct bc_fo_link *l = &f->links[r->link];

		if (r->left)
			l->tl_left[b]++;
		else
			l->tl_arrived[b]++;
	}
	return 0;
}

/* The first datagram per direction on each link after the restore. */
static void returned(struct bc_failover *f, struct fo_priv *pv)
{
	for (size_t i = 0; i < pv->n_recs; i++) {
		struct fo_rec *r = &pv->recs[i];
		struct bc_fo_link *l = &f->links[r->link];
		enum bc_fo_dir d = f->streams[r->stream].dir;

		if (r->ts >= f->cfg.restore_ns && r->ts < l->returned_ns[d])
			l->returned_ns[d] = r->ts;
	}
}

static int host_of_mac(const struct fo_priv *pv, const uint8_t *mac)
{
	for (int h = 0; h < 2; h++)
		for (size_t i = 0; i < pv->n_macs[h]; i++)
			if (!memcmp(pv->macs[h][i], mac, 6))
				return h;
	return 2;
}

static struct bc_fo_actor *actor(struct bc_fo_link *l, const struct fo_ev *e)
{
	for (size_t i = 0; i < l->n_actors; i++)
		if (!memcmp(l->actors[i].system, e->mac, 6) && l->actors[i].port == e->port)
			return &l->actors[i];
	if (l->n_actors == BC_FO_MAX_ACTORS)
		return NULL;
	l->actors[l->n_actors] =
		(struct bc_fo_actor){.port = e->port, .synced_after_restore_ns = BC_FO_NONE};
	memcpy(l->actors[l->n_actors].system, e->mac, 6);
	return &l->actors[l->n_actors++];
}

/*
 * @own: the LACPDU's actor is the host the link belongs to, or not known
 * to be the other one: the link's timeout is that host's own port expiring
 * (a one-way cut shows the other end's expiry on this link too, which is not it).
 */
static void lacp_event(struct bc_failover *f, struct bc_fo_link *l, const struct fo_ev *e, bool own)
{
	struct bc_fo_actor *x = actor(l, e);
	uint8_t st = e->lacp_state;
	bool bad = (st & (BC_LACP_EXPIRED | BC_LACP_DEFAULTED)) || (st & CD_BITS) != CD_BITS;

	if (!x)
		return;
	x->lacpdus++;
	x->last_state = st;
	if (e->ts > f->cfg.cut_ns && e->ts < f->cfg.restore_ns && bad && own &&
	    l->lacp_timeout_ns == BC_FO_NONE) {
		uint64_t heard = 0;

		l->lacp_timeout_ns = e->ts;
		for (size_t i = 0; i < l->n_actors; i++)
			if (&l->actors[i] != x && l->actors[i].lacpdus &&
			    l->actors[i].last_ns > heard)
				heard = l->actors[i].last_ns;
		if (heard) {
			l->lacp_silence_ns = e->ts - heard;
			l->lacp_partner_last_ns = heard;
		}
	}
	if (e->ts > f->cfg.cut_ns && e->ts < f->cfg.restore_ns && (st & BC_LACP_DEFAULTED) && own &&
	    l->lacp_defaulted_ns == BC_FO_NONE)
		l->lacp_defaulted_ns = e->ts;
	x->last_ns = e->ts;
	if (e->ts >= f->cfg.cut_ns + (f->cfg.restore_ns - f->cfg.cut_ns) / 2 &&
	    e->ts < f->cfg.restore_ns)
		x->late_in_hold = true;
	if (e->ts < f->cfg.restore_ns)
		return;
	x->after_restore = true;
	if (x->synced_after_restore_ns == BC_FO_NONE && (st & SYNC_BITS) == SYNC_BITS &&
	    !(st & (BC_LACP_EXPIRED | BC_LACP_DEFAULTED)))
		x->synced_after_restore_ns = e->ts;
}

static void events(struct bc_failover *f, struct fo_priv *pv)
{
	for (size_t i = 0; i < pv->n_evs; i++) {
		struct fo_ev *e = &pv->evs[i];
		struct bc_fo_link *l = &f->links[e->link];
		int who = e->sender >= 0 ? e->sender : host_of_mac(pv, e->mac);
		bool after = e->ts >= f->cfg.cut_ns;

		switch (e->kind) {
		case EV_LACP:
			lacp_event(f, l, e, host_of_mac(pv, e->mac) != (int)!l->host);
			break;
		case EV_ARP:
			l->arp_other++;
			break;
		case EV_GARP:
		case EV_NA:
			if (e->kind == EV_GARP) {
				l->garp[who]++;
				l->garp_after_cut[who] += after;
			} else {
				l->unsol_na[who]++;
				l->unsol_na_after_cut[who] += after;
			}
			if (after && e->ts < l->first_garp_after_cut_ns)
				l->first_garp_after_cut_ns = e->ts;
			break;
		}
	}
	for (size_t i = 0; i < f->n_links; i++) {
		struct bc_fo_link *l = &f->links[i];
		uint64_t t = 0;
		size_t heard = 0, late = 0;
		bool all = true;

		for (size_t k = 0; k < l->n_actors; k++) {
			late += l->actors[k].late_in_hold;
			/* the actor system is the bond's MAC, its datagrams' source */
			if (l->actors[k].late_in_hold &&
			    host_of_mac(pv, l->actors[k].system) == (int)!l->host)
				l->lacp_partner_heard_late = true;
		}
		if (late >= 2 && l->lacp_timeout_ns == BC_FO_NONE &&
		    l->lacp_defaulted_ns == BC_FO_NONE)
			continue; /* LACP went on undisturbed on this link */
		for (size_t k = 0; k < l->n_actors; k++) {
			if (!l->actors[k].after_restore)
				continue;
			heard++;
			if (l->actors[k].synced_after_restore_ns == BC_FO_NONE)
				all = false;
			else if (l->actors[k].synced_after_restore_ns > t)
				t = l->actors[k].synced_after_restore_ns;
		}
		/* both ends of the link must be back in sync */
		if (heard >= 2 && all)
			l->lacp_resync_ns = t;
	}
}

static void summaries(struct bc_failover *f)
{
	for (int d = 0; d < 2; d++) {
		struct bc_fo_dirsum *x = &f->dir[d];

		memset(x, 0, sizeof(*x));
		x->sender_moved = -2; /* none seen yet */
		x->left_at_ns = BC_FO_NONE;
		x->returned_ns =
			f->cut_link >= 0 ? f->links[f->cut_link].returned_ns[d] : BC_FO_NONE;
	}
	for (size_t i = 0; i < f->n_streams; i++) {
		struct bc_fo_stream *s = &f->streams[i];
		struct bc_fo_dirsum *x = &f->dir[s->dir];

		x->n_streams++;
		x->lost += s->lost;
		x->duplicates += s->duplicates;
		x->reordered += s->reordered;
		x->n_used_cut += s->used_cut_slave;
		if (s->left_before >= 0)
			x->tx_before |= 1ull << s->left_before;
		if (s->left_after >= 0)
			x->tx_after |= 1ull << s->left_after;
		if (s->left_end >= 0)
			x->tx_end |= 1ull << s->left_end;
		if (s->interrupted) {
			x->n_interrupted++;
			x->n_black_hole += s->black_hole;
			x->lost_in_gap += s->down.lost_in_gap;
			if (s->down.gap_ns > x->gap_ns)
				x->gap_ns = s->down.gap_ns;
		} else if (s->down.found && !s->moved && s->down.gap_ns > x->unaffected_gap_ns) {
			x->unaffected_gap_ns = s->down.gap_ns;
		}
		if (s->moved) {
			x->n_moved++;
			if (s->down.gap_ns > x->moved_gap_ns)
				x->moved_gap_ns = s->down.gap_ns;
		}
		if (s->used_cut_slave && s->left_before >= 0 && s->left_after >= 0) {
			int m = s->left_after != s->left_before;
			uint64_t at = BC_FO_NONE;

			for (uint32_t k = 0; m && k < s->span; k++)
				if (s->dep_ts[k] != BC_FO_NONE && s->dep_ts[k] >= f->cfg.cut_ns &&
				    s->dep_link[k] != s->left_before && s->dep_ts[k] < at)
					at = s->dep_ts[k];
			if (at != BC_FO_NONE && (x->left_at_ns == BC_FO_NONE || at > x->left_at_ns))
				x->left_at_ns = at;

			x->sender_moved = x->sender_moved == -2 || x->sender_moved == m ? m : -1;
		}
		if (s->up.found && s->up.lost_in_gap && s->up.gap_ns > x->up_gap_ns)
			x->up_gap_ns = s->up.gap_ns;
		/* delivered nothing after the restore although the capture went on */
		if (s->down.found && s->down.open && f->last_ns > f->cfg.restore_ns)
			x->not_recovered = true;
	}
	for (int d = 0; d < 2; d++)
		if (f->dir[d].sender_moved == -2)
			f->dir[d].sender_moved = -1;
}

int fo_finish(struct bc_failover *f, struct bc_error *err)
{
	struct fo_priv *pv = f->priv;
	int r;

	r = spans(f, pv);
	if (r < 0)
		goto oom;
	clock_offset(f, pv);
	to_client_clock(f, pv);
	r = fill_streams(f, pv);
	if (r < 0)
		goto oom;
	r = streams_analyze(f);
	if (r < 0)
		goto oom;
	r = timeline(f, pv);
	if (r < 0)
		goto oom;
	returned(f, pv);
	events(f, pv);
	summaries(f);
	if (fo_tcp_finish(f) < 0)
		goto oom;
	return 0;
oom:
	return bc_error_set(err, -ENOMEM, "out of memory in the failover analysis");
}
