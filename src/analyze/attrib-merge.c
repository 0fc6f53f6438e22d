// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Attribution, merge side (bondcheck/attrib.h): decide the direction of
 * every address pair, merge the captures of one role ("left on" or
 * "arrived on") by timestamp, join fragments to their datagram, map every
 * unit (stream, seq, fragment offset) to the link it left on and the link it
 * arrived on, feed the receiver metrics (bc_seqwin) in merged arrival order
 * and charge each late datagram to a link pair.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/grow.h"
#include "analyze/attrib-int.h"

enum role { ROLE_LEFT = 0, ROLE_ARRIVED = 1 };

/* 32 bytes, two per cache line: the table is probed once per record, at random. */
struct unit {
	uint64_t seq;
	uint64_t tx_ts;
	uint32_t stream;
	uint32_t lost_mask; /* first fragment's unit: links that lost a fragment of it */
	uint16_t off8;
	uint8_t tx, rx; /* link indices, 0xff none */
	uint8_t tx_n, rx_n;
	uint8_t msg; /* first fragment's unit: MSG_* of its datagram (tally) */
};
_Static_assert(sizeof(struct unit) == 32, "struct unit packs into 32 bytes");

enum { MSG_FRAG = 0x01, MSG_PART = 0x02 };

/* A datagram the sender's captures saw leave fragmented (key of its first fragment). */
struct txj {
	uint64_t key, ts, seq;
	uint32_t stream;
};

struct jent {
	uint64_t key; /* pair << 40 | proto << 32 | id */
	uint64_t first_ts, seq;
	uint32_t stream, pending; /* pending: recs index + 1 of a list via next[] */
	uint32_t covered, total, last_pos, nfrags;
	uint8_t used, resolved, foreign, too_far, late_link;
};

/*
 * A stream whose sequence numbers are dense keeps the units of its datagrams (fragment
 * offset 0) in a plain array indexed by seq - min: the merge then walks it almost in
 * order instead of probing a hash table at random.  Sparse streams (span over twice
 * their records: a hostile or a sampled capture) and non-first fragments use the hash.
 */
struct dense_stream {
	uint64_t min, span; /* span 0: the stream is hashed */
	size_t base;	    /* index of seq min in merge.dense */
};

struct merge {
	struct bc_attrib *a;
	struct priv *pv;
	enum role role;
	struct unit *units; /* open-addressing hash, units_size a power of two */
	size_t units_size;
	struct unit *dense; /* n_dense units of the dense streams */
	size_t n_dense;
	struct dense_stream *ds; /* per stream */
	struct jent *jt;
	size_t jt_size, jt_used;
	uint32_t *next;
	struct txj *txj; /* sorted by key, ts after the ROLE_LEFT pass */
	size_t n_txj, cap_txj;
	uint32_t src_rid[MAX_PAIRS];
	uint64_t too_far_by_link[BC_ATTRIB_MAX_LINKS];
	bool have_left[2];
};

static size_t pow2_at_least(size_t n)
{
	size_t s = 1024;

	while (s < n)
		s *= 2;
	return s;
}

/* Direction of each address pair: forward when its source is the sender. */
static void decide_dirs(struct bc_attrib *a, struct priv *pv)
{
	struct addr_pair *best = NULL;

	if (!a->cfg.have_local) {
		for (size_t i = 0; i < pv->n_pairs; i++)
			if (!best || pv->pairs[i].tx_bytes > best->tx_bytes)
				best = &pv->pairs[i];
		if (!best) /* no TX capture: the most frequent pair in any */
			best = pv->n_pairs ? &pv->pairs[0] : NULL;
		if (best) {
			memcpy(a->cfg.local, best->src, 16);
			a->cfg.local_version = best->version;
			a->local_inferred = true;
		}
	}
	for (size_t i = 0; i < pv->n_pairs; i++) {
		struct addr_pair *ap = &pv->pairs[i];

		ap->dir = -1;
		if (ap->version != a->cfg.local_version)
			continue;
		if (!memcmp(ap->src, a->cfg.local, 16))
			ap->dir = BC_DIR_FWD;
		else if (!memcmp(ap->dst, a->cfg.local, 16))
			ap->dir = BC_DIR_REV;
	}
	for (size_t l = 0; l < a->n_links; l++)
		for (size_t i = 0; i < pv->n_pairs; i++) {
			const struct pair_stats *ps = &pv->ls[l][i];
			struct bc_link_dir *d;

			if (!ps->frames)
				continue;
			if (pv->pairs[i].dir < 0) {
				a->links[l].foreign += ps->frames;
				continue;
			}
			d = &a->links[l].dir[pv->pairs[i].dir];
			if (!d->frames || ps->first_ns < d->first_ns)
				d->first_ns = ps->first_ns;
			if (ps->last_ns > d->last_ns)
				d->last_ns = ps->last_ns;
			d->frames += ps->frames;
			d->bytes += ps->bytes;
			d->wire_frames += ps->wire_frames;
			d->wire_bytes += ps->wire_bytes;
			d->super_frames += ps->super_frames;
		}
	for (size_t f = 0; f < a->n_flows; f++) {
		int dir = pv->pairs[pv->flow_pair[f]].dir;

		a->flows[f].dir = dir < 0 ? BC_DIR_FWD : (enum bc_dir)dir;
		if (dir < 0)
			continue;
		for (size_t l = 0; l < a->n_links; l++)
			if (a->flows[f].link_mask & (1ull << l))
				a->links[l].dir[dir].flows++;
	}
	for (size_t s = 0; s < a->n_streams; s++) {
		int f = a->streams[s].flow;

		a->streams[s].dir = f >= 0 ? a->flows[f].dir : BC_DIR_FWD;
	}
}

static int rec_role(const struct bc_attrib *a, const struct priv *pv, const struct rec *r)
{
	int dir = pv->pairs[r->pair].dir;

	if (dir < 0)
		return -1;
	return (a->links[r->link].side == BC_SIDE_TX) == (dir == BC_DIR_FWD) ? ROLE_LEFT
									     : ROLE_ARRIVED;
}

static size_t unit_slot(const struct merge *m, uint32_t stream, uint64_t seq, uint16_t off8)
{
	return attrib_mix(seq * 0x9e3779b97f4a7c15ull ^ ((uint64_t)stream << 16 | off8)) &
	       (m->units_size - 1);
}

/* The unit of (stream, seq, 0) in a dense stream's array; NULL when it is hashed. */
static struct unit *unit_dense(const struct merge *m, uint32_t stream, uint64_t seq, uint16_t off8)
{
	const struct dense_stream *d = &m->ds[stream];

	if (off8 || seq - d->min >= d->span)
		return NULL;
	return &m->dense[d->base + (seq - d->min)];
}

static struct unit *unit_get(struct merge *m, uint32_t stream, uint64_t seq, uint16_t off8)
{
	struct unit *u = unit_dense(m, stream, seq, off8);
	size_t k;

	if (u) {
		if (!u->tx_n && !u->rx_n) {
			u->seq = seq;
			u->stream = stream;
			u->tx = u->rx = 0xff;
		}
		return u;
	}
	for (k = unit_slot(m, stream, seq, off8);; k = (k + 1) & (m->units_size - 1)) {
		u = &m->units[k];

		if (!u->tx_n && !u->rx_n) {
			u->seq = seq;
			u->stream = stream;
			u->off8 = off8;
			u->tx = u->rx = 0xff;
			return u;
		}
		if (u->seq == seq && u->stream == stream && u->off8 == off8)
			return u;
	}
}

static struct unit *unit_find(struct merge *m, uint32_t stream, uint64_t seq, uint16_t off8)
{
	struct unit *u = unit_dense(m, stream, seq, off8);
	size_t k;

	if (u)
		return u->tx_n || u->rx_n ? u : NULL;
	for (k = unit_slot(m, stream, seq, off8);; k = (k + 1) & (m->units_size - 1)) {
		u = &m->units[k];

		if (!u->tx_n && !u->rx_n)
			return NULL;
		if (u->seq == seq && u->stream == stream && u->off8 == off8)
			return u;
	}
}

static int stream_rx(struct merge *m, struct bc_attrib_stream *s, uint32_t idx, uint64_t seq,
		     uint64_t send_ns, uint64_t ts, uint8_t link)
{
	struct bc_attrib *a = m->a;
	enum bc_seq_class cls;
	uint64_t pos;

	if (!s->win_ready) {
		struct bc_seqwin_cfg c;

		bc_seqwin_cfg_default(&c);
		c.first_seq = m->pv->stream_min_seq[idx];
		c.rd_threshold = a->cfg.rd_threshold;
		if (bc_seqwin_init(&s->win, &c, NULL))
			return -ENOMEM;
		s->win_ready = true;
		if (attrib_pair_observe(a, &s->win.rd))
			return -ENOMEM;
	}
	if (!s->any_rx || seq > s->max_rx_seq)
		s->max_rx_seq = seq;
	s->any_rx = true;
	pos = s->win.received;
	cls = bc_seqwin_add(&s->win, seq, send_ns, ts, 0);
	if (cls == BC_SEQ_IN_ORDER) {
		if (s->n_rec == s->cap_rec) {
			size_t n = s->cap_rec ? s->cap_rec * 2 : 256;
			void *q1 = realloc(s->rec_seq, n * 8), *q2, *q3;

			if (!q1)
				return -ENOMEM;
			s->rec_seq = q1;
			q2 = realloc(s->rec_pos, n * 8);
			if (!q2)
				return -ENOMEM;
			s->rec_pos = q2;
			q3 = realloc(s->rec_link, n);
			if (!q3)
				return -ENOMEM;
			s->rec_link = q3;
			s->cap_rec = n;
		}
		s->rec_seq[s->n_rec] = seq;
		s->rec_pos[s->n_rec] = pos;
		s->rec_link[s->n_rec++] = link;
	} else if (cls == BC_SEQ_REORDERED && s->n_rec) {
		/* RFC 4737 4.2: j = earliest arrival with a larger sequence number */
		size_t lo = 0, hi = s->n_rec - 1;
		uint64_t ext;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (s->rec_seq[mid] > seq)
				hi = mid;
			else
				lo = mid + 1;
		}
		ext = pos - s->rec_pos[lo];
		return attrib_pair_charge(a, s->rec_link[lo], link, ext, &s->win.rd, false);
	}
	return 0;
}

static int emit(struct merge *m, uint32_t stream, uint64_t seq, const struct rec *r)
{
	struct bc_attrib *a = m->a;
	struct unit *u = unit_get(m, stream, seq, r->off8);

	if (m->role == ROLE_LEFT) {
		if (!u->tx_n++) {
			u->tx = r->link;
			u->tx_ts = r->ts;
		}
		if (!u->tx_n)
			u->tx_n = 255; /* saturate */
		return 0;
	}
	if (u->rx_n++) {
		if (!u->rx_n)
			u->rx_n = 255;
		if (!r->off8)
			a->streams[stream].duplicates++;
		return 0;
	}
	u->rx = r->link;
	if (u->tx_n) {
		int64_t d = (int64_t)(r->ts - u->tx_ts);

		if (d < 0)
			a->skew_units++;
		if (!a->delay_min_ns && !a->delay_max_ns)
			a->delay_min_ns = a->delay_max_ns = d;
		if (d < a->delay_min_ns)
			a->delay_min_ns = d;
		if (d > a->delay_max_ns)
			a->delay_max_ns = d;
	}
	if (r->off8)
		return 0;
	return stream_rx(m, &a->streams[stream], stream, seq, r->send_ns, r->ts, r->link);
}

static int txj_cmp(const void *pa, const void *pb)
{
	const struct txj *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static int txj_add(struct merge *m, uint64_t key, uint64_t ts, uint32_t stream, uint64_t seq)
{
	if (bc_grow((void **)&m->txj, &m->cap_txj, m->n_txj + 1, sizeof(*m->txj), 1024))
		return -ENOMEM;
	m->txj[m->n_txj++] = (struct txj){.key = key, .ts = ts, .seq = seq, .stream = stream};
	return 0;
}

/* The sender's datagram of @key whose first fragment left nearest to @ts, within the
 * join window; NULL when none. */
static const struct txj *txj_find(const struct merge *m, uint64_t key, uint64_t ts)
{
	size_t lo = 0, hi = m->n_txj;
	const struct txj *best = NULL;
	uint64_t best_d = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->txj[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < m->n_txj && m->txj[i].key == key; i++) {
		uint64_t d = m->txj[i].ts > ts ? m->txj[i].ts - ts : ts - m->txj[i].ts;

		if (d <= m->a->cfg.ipfrag_window_ns && (!best || d < best_d)) {
			best = &m->txj[i];
			best_d = d;
		}
	}
	return best;
}

static int jent_finalize(struct merge *m, struct jent *e)
{
	struct bc_attrib_frag *fr = &m->a->frag;
	int rc = 0;

	if (m->role == ROLE_ARRIVED && !e->resolved && !e->foreign && e->pending) {
		/* the first fragment was lost: the sender's captures know the datagram */
		const struct txj *t = txj_find(m, e->key, e->first_ts);

		if (t) {
			e->resolved = 1;
			e->stream = t->stream;
			e->seq = t->seq;
			for (uint32_t i = e->pending; i && !rc; i = m->next[i - 1])
				rc = emit(m, t->stream, t->seq, &m->pv->recs[i - 1]);
			e->pending = 0;
			fr->joined_late++;
			if (rc)
				return rc;
		}
	}
	for (uint32_t i = e->pending; i; i = m->next[i - 1])
		fr->unjoined[m->role]++;
	e->pending = 0;
	if (m->role != ROLE_ARRIVED || !e->resolved)
		return 0;
	fr->messages_rx++;
	if (e->total && e->covered >= e->total) {
		fr->complete++;
		if (e->too_far) {
			fr->too_far++;
			m->too_far_by_link[e->late_link]++;
		}
	} else {
		fr->incomplete++;
	}
	return 0;
}

static int jt_rehash(struct merge *m)
{
	size_t n = m->jt_size ? m->jt_size * 2 : 4096;
	struct jent *t = calloc(n, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < m->jt_size; i++) {
		size_t k;

		if (!m->jt[i].used)
			continue;
		for (k = attrib_mix(m->jt[i].key) & (n - 1); t[k].used; k = (k + 1) & (n - 1))
			;
		t[k] = m->jt[i];
	}
	free(m->jt);
	m->jt = t;
	m->jt_size = n;
	return 0;
}

static int frag(struct merge *m, uint32_t gi, const struct rec *r)
{
	uint64_t key = (uint64_t)r->pair << 40 | (uint64_t)r->proto << 32 | r->ip_id;
	bool first_ours = !r->off8 && (r->flags & R_OURS);
	struct jent *e;
	size_t k;
	int rc;

	m->a->frag.fragments[m->role]++;
	if ((m->jt_used + 1) * 2 > m->jt_size && jt_rehash(m))
		return -ENOMEM;
	for (k = attrib_mix(key) & (m->jt_size - 1); m->jt[k].used && m->jt[k].key != key;
	     k = (k + 1) & (m->jt_size - 1))
		;
	e = &m->jt[k];
	if (e->used &&
	    (r->ts - e->first_ts > m->a->cfg.ipfrag_window_ns ||
	     (first_ours && e->resolved && (e->stream != r->stream || e->seq != r->seq)))) {
		/* the id was reused, or the kernel would have expired it */
		rc = jent_finalize(m, e);
		if (rc)
			return rc;
		memset(e, 0, sizeof(*e));
		m->jt_used--;
	}
	if (!e->used) {
		e->used = 1;
		e->key = key;
		e->first_ts = r->ts;
		m->jt_used++;
	}
	if (m->role == ROLE_ARRIVED && m->a->cfg.ipfrag_max_dist) {
		/* ip_frag_too_far(): per-source counter of fragments, checked per queue */
		uint32_t rid = ++m->src_rid[r->pair];

		if (e->nfrags && rid - e->last_pos > m->a->cfg.ipfrag_max_dist && !e->too_far) {
			e->too_far = 1;
			e->late_link = r->link;
		}
		e->last_pos = rid;
	}
	e->nfrags++;
	e->covered += r->frag_len;
	if (!(r->flags & R_MF))
		e->total = (uint32_t)r->off8 * 8 + r->frag_len;
	if (first_ours) {
		if (m->role == ROLE_LEFT && !e->resolved &&
		    txj_add(m, key, r->ts, r->stream, r->seq))
			return -ENOMEM;
		e->resolved = 1;
		e->stream = r->stream;
		e->seq = r->seq;
		rc = emit(m, r->stream, r->seq, r);
		for (uint32_t i = e->pending; i && !rc; i = m->next[i - 1])
			rc = emit(m, r->stream, r->seq, &m->pv->recs[i - 1]);
		e->pending = 0;
		return rc;
	}
	if (!r->off8) {
		e->foreign = 1; /* first fragment of a datagram that is not ours */
		m->a->links[r->link].udp_other += r->proto == 17;
		e->pending = 0;
		return 0;
	}
	if (e->resolved)
		return emit(m, e->stream, e->seq, r);
	if (!e->foreign) {
		m->next[gi] = e->pending;
		e->pending = gi + 1;
	}
	return 0;
}

/* Records of one link looked ahead to prefetch their unit slot: the k-way merge takes
 * the links in turn, so this hides about PREFETCH_AHEAD x links records of latency. */
enum { PREFETCH_AHEAD = 8 };

static int pass(struct merge *m, enum role role)
{
	struct bc_attrib *a = m->a;
	struct priv *pv = m->pv;
	size_t pos[BC_ATTRIB_MAX_LINKS] = {0};
	int rc = 0;

	m->role = role;
	memset(m->src_rid, 0, sizeof(m->src_rid));
	for (;;) {
		const struct rec *best = NULL;
		size_t bl = 0;
		uint32_t gi;

		for (size_t l = 0; l < a->n_links; l++) {
			while (pos[l] < pv->n_link_recs[l] &&
			       rec_role(a, pv, &pv->recs[pv->link_recs[l][pos[l]]]) != (int)role)
				pos[l]++;
			if (pos[l] < pv->n_link_recs[l]) {
				const struct rec *r = &pv->recs[pv->link_recs[l][pos[l]]];

				if (!best || r->ts < best->ts) {
					best = r;
					bl = l;
				}
			}
		}
		if (!best)
			break;
		gi = pv->link_recs[bl][pos[bl]++];
		if (pos[bl] + PREFETCH_AHEAD < pv->n_link_recs[bl]) {
			/* the unit this link's record PREFETCH_AHEAD on will probe (a guess for
			 * fragments, whose datagram is known only at the join) */
			const struct rec *q =
				&pv->recs[pv->link_recs[bl][pos[bl] + PREFETCH_AHEAD]];

			if (q->stream < m->a->n_streams &&
			    !unit_dense(m, q->stream, q->seq, q->off8))
				__builtin_prefetch(
					&m->units[unit_slot(m, q->stream, q->seq, q->off8)], 1);
		}
		m->have_left[pv->pairs[best->pair].dir] |= role == ROLE_LEFT;
		if (best->flags & R_FRAG)
			rc = frag(m, gi, best);
		else if (best->flags & R_OURS)
			rc = emit(m, best->stream, best->seq, best);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < m->jt_size && !rc; i++)
		if (m->jt[i].used)
			rc = jent_finalize(m, &m->jt[i]);
	if (rc)
		return rc;
	if (role == ROLE_LEFT && m->n_txj)
		qsort(m->txj, m->n_txj, sizeof(*m->txj), txj_cmp);
	free(m->jt);
	m->jt = NULL;
	m->jt_size = m->jt_used = 0;
	return 0;
}

void attrib_learn_peers(struct bc_attrib *a)
{
	for (size_t t = 0; t < a->n_links; t++)
		a->links[t].peer = -1;
	for (size_t t = 0; t < a->n_links; t++) {
		uint64_t best = 0;

		for (size_t r = 0; r < a->n_links; r++)
			if (a->path[t][r] > best) {
				best = a->path[t][r];
				a->links[t].peer = (int)r;
			}
		if (a->links[t].peer >= 0 && a->links[a->links[t].peer].peer < 0)
			a->links[a->links[t].peer].peer = (int)t;
	}
}

/* Unit @i of all: the dense array, then the hash table (empty slots included). */
static const struct unit *unit_at(const struct merge *m, size_t i)
{
	return i < m->n_dense ? &m->dense[i] : &m->units[i - m->n_dense];
}

static bool unit_lost(const struct bc_attrib *a, const struct unit *u)
{
	const struct bc_attrib_stream *s = &a->streams[u->stream];

	return u->tx_n && !u->rx_n && u->tx < BC_ATTRIB_MAX_LINKS && s->any_rx &&
	       u->seq < s->max_rx_seq;
}

/*
 * Fragmented datagrams, by the unit of their first fragment: the links that lost one
 * of their fragments (bracketed), and whether any fragment reached the receiver.  A
 * datagram that reached it in part fails reassembly: it counts in messages_lost of
 * every link that lost one of its fragments, and in arrived_partial of its stream
 * when its first fragment was the one lost.
 */
static void tally_messages(struct merge *m)
{
	struct bc_attrib *a = m->a;

	for (size_t i = 0; i < m->n_dense + m->units_size; i++) {
		const struct unit *u = unit_at(m, i);
		struct unit *h;

		if ((!u->tx_n && !u->rx_n) || !u->off8)
			continue;
		h = unit_find(m, u->stream, u->seq, 0);
		if (!h)
			continue; /* its first fragment was never seen: not ours to judge */
		h->msg |= MSG_FRAG | (u->rx_n ? MSG_PART : 0);
		if (unit_lost(a, u))
			h->lost_mask |= 1u << u->tx;
	}
	for (size_t i = 0; i < m->n_dense + m->units_size; i++) {
		const struct unit *u = unit_at(m, i);
		uint32_t mask;

		if (!(u->msg & MSG_FRAG) || !(u->rx_n || (u->msg & MSG_PART)))
			continue;
		mask = u->lost_mask | (unit_lost(a, u) ? 1u << u->tx : 0);
		for (size_t l = 0; l < a->n_links && mask; l++)
			if (mask & (1u << l))
				a->links[l].messages_lost++;
		if (!u->rx_n)
			a->streams[u->stream].arrived_partial++;
	}
}

static void tally(struct merge *m)
{
	struct bc_attrib *a = m->a;

	for (size_t i = 0; i < m->n_dense + m->units_size; i++) {
		const struct unit *u = unit_at(m, i);
		struct bc_attrib_stream *s;
		bool bracketed;

		if (!u->tx_n && !u->rx_n)
			continue;
		s = &a->streams[u->stream];
		bracketed = s->any_rx && u->seq < s->max_rx_seq;
		if (u->tx_n) {
			a->links[u->tx].units_left++;
			s->left += !u->off8;
		}
		if (u->rx_n) {
			a->links[u->rx].units_arrived++;
			s->arrived += !u->off8;
		}
		if (u->tx_n && u->rx_n)
			a->path[u->tx][u->rx]++;
		else if (u->tx_n && bracketed) {
			a->links[u->tx].lost++;
			s->lost += !u->off8;
		} else if (u->tx_n) {
			a->links[u->tx].unbracketed++;
			s->unbracketed += !u->off8;
		} else if (m->have_left[s->dir]) {
			a->rx_without_tx++;
		}
	}
	tally_messages(m);
	attrib_learn_peers(a);
	for (size_t s = 0; s < a->n_streams; s++) {
		struct bc_attrib_stream *st = &a->streams[s];

		if (!st->win_ready)
			continue;
		bc_seqwin_finish(&st->win);
		a->rx_received += st->win.received;
		a->rx_reordered += st->win.reordered;
	}
	{
		uint64_t best = 0;

		for (size_t l = 0; l < a->n_links; l++)
			if (m->too_far_by_link[l] > best) {
				best = m->too_far_by_link[l];
				a->frag.too_far_link = (int)l;
			}
	}
}

/*
 * Size the unit stores from one pass over the records: a stream is dense when the
 * span of its sequence numbers is at most twice its records (+ 16); every other
 * record may make one hashed unit, at a load factor of 2/3 at most (an upper bound:
 * the linear probing needs a free slot).  -ENOMEM.
 */
static int plan_units(struct merge *m)
{
	const struct bc_attrib *a = m->a;
	struct priv *pv = m->pv;
	uint64_t *max, *cnt;
	size_t hashed = 0;

	m->ds = calloc(a->n_streams + 1, sizeof(*m->ds));
	max = calloc(a->n_streams + 1, sizeof(*max));
	cnt = calloc(a->n_streams + 1, sizeof(*cnt));
	if (!m->ds || !max || !cnt) {
		free(max);
		free(cnt);
		return -ENOMEM;
	}
	for (size_t i = 0; i < pv->n_recs; i++) {
		const struct rec *r = &pv->recs[i];

		hashed += r->off8 != 0; /* a non-first fragment: always hashed */
		if (!(r->flags & R_OURS) || r->off8)
			continue;
		cnt[r->stream]++;
		if (r->seq > max[r->stream])
			max[r->stream] = r->seq;
	}
	for (size_t s = 0; s < a->n_streams; s++) {
		uint64_t span = cnt[s] ? max[s] - pv->stream_min_seq[s] + 1 : 0;

		m->ds[s].min = pv->stream_min_seq[s];
		if (cnt[s] && span <= 2 * cnt[s] + 16) {
			m->ds[s].span = span;
			m->ds[s].base = m->n_dense;
			m->n_dense += span;
		} else {
			hashed += cnt[s];
		}
	}
	free(max);
	free(cnt);
	m->units_size = pow2_at_least(hashed + hashed / 2 + 1);
	m->units = calloc(m->units_size, sizeof(*m->units));
	m->dense = m->n_dense ? calloc(m->n_dense, sizeof(*m->dense)) : NULL;
	if (!m->units || (m->n_dense && !m->dense))
		return -ENOMEM;
	return 0;
}

int attrib_merge(struct bc_attrib *a, struct bc_error *err)
{
	struct merge m = {.a = a, .pv = a->priv};
	int rc;

	if (attrib_iperf3_recognise(a))
		return bc_error_set(err, -ENOMEM, "out of memory judging iperf3 streams");
	decide_dirs(a, m.pv);
	if (attrib_tl_fold(a))
		return bc_error_set(err, -ENOMEM, "out of memory for the per-link timeline");
	m.next = calloc(m.pv->n_recs + 1, sizeof(*m.next));
	if (!m.next || plan_units(&m)) {
		free(m.next);
		free(m.ds);
		free(m.dense);
		free(m.units);
		return bc_error_set(err, -ENOMEM, "out of memory for %zu packet records",
				    m.pv->n_recs);
	}
	rc = pass(&m, ROLE_LEFT);
	if (!rc)
		rc = pass(&m, ROLE_ARRIVED);
	if (!rc)
		tally(&m);
	if (!rc)
		rc = attrib_tcp_merge(a);
	free(m.units);
	free(m.dense);
	free(m.ds);
	free(m.next);
	free(m.jt);
	free(m.txj);
	if (rc)
		return bc_error_set(err, rc, "out of memory while attributing packets");
	return 0;
}

int bc_attrib_finish(struct bc_attrib *a, struct bc_error *err)
{
	int rc;

	if (a->finished)
		return 0;
	rc = attrib_merge(a, err);
	if (rc)
		return rc;
	a->finished = true;
	rc = bc_attrib_findings(a);
	if (rc)
		return bc_error_set(err, rc, "out of memory for findings");
	return 0;
}
