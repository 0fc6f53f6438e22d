// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iperf3's UDP streams in the captures (bondcheck/iperf3.h, issue 15 item
 * 4): every UDP flow whose payloads read as iperf3's (iperf3's
 * src/iperf_udp.c iperf_udp_send(): sec, usec, then the packet counter, in
 * network byte order) is judged on all its datagrams at once, never on one;
 * an iperf3 flow becomes a stream whose sequence numbers are the counter,
 * attributed per link like bondcheck's own (loss per path, duplicates,
 * reordering pairs).  The counter's width comes from iperf3's parameter
 * JSON on the control connection when it was captured, else from the
 * datagrams (bytes 8-11 zero in all of them and 16 bytes: 64 bits).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/grow.h"
#include "bondcheck/iperf3.h"
#include "analyze/attrib-int.h"

void bc_iperf3_evidence_add(struct bc_iperf3_evidence *e, unsigned link, int side, uint64_t ts_ns,
			    uint32_t sec, uint32_t usec, uint64_t counter)
{
	int64_t off = (int64_t)ts_ns - (int64_t)((uint64_t)sec * 1000000000ull +
						 (uint64_t)(usec % 1000000u) * 1000ull);

	side = side ? 1 : 0;
	if (usec >= 1000000u || !counter)
		e->bad++;
	if (!e->n || counter < e->c_min)
		e->c_min = counter;
	if (!e->n || counter > e->c_max)
		e->c_max = counter;
	if (!e->n_side[side] || off < e->off_min[side])
		e->off_min[side] = off;
	if (!e->n_side[side] || off > e->off_max[side])
		e->off_max[side] = off;
	e->n++;
	e->n_side[side]++;
	if (link < BC_IPERF3_MAX_LINKS) {
		if (e->last[link]) {
			e->pairs++;
			e->rises += counter > e->last[link];
		}
		if (counter)
			e->last[link] = counter;
	}
}

bool bc_iperf3_judge(const struct bc_iperf3_evidence *e, const char **why)
{
	uint64_t busy = e->n_side[0] > e->n_side[1] ? e->n_side[0] : e->n_side[1];
	const char *w = NULL;

	if (busy < BC_IPERF3_MIN_DATAGRAMS)
		w = "too few datagrams to judge";
	else if (e->bad)
		w = "a datagram with usec >= 10^6 or counter 0";
	else if (e->c_max - e->c_min >= 2 * busy + 16)
		w = "counters too sparse";
	else if (e->pairs < 4 || (double)e->rises < BC_IPERF3_RISE_SHARE * (double)e->pairs)
		w = "counters not rising on each link";
	else
		for (int s = 0; s < 2 && !w; s++)
			if (e->n_side[s] && e->off_max[s] - e->off_min[s] > BC_IPERF3_OFFSET_SPREAD)
				w = "sender time does not advance with the capture";
	if (why)
		*why = w;
	return !w;
}

/* Per flow while judging (the evidence only for flows with candidates: see ev). */
struct i3flow {
	uint64_t n, first_ts;
	uint8_t bits, from_control, rev_done;
	int stream;  /* index in a->streams, -1 not iperf3 */
	int rev;     /* reverse flow, -1 none */
	uint32_t ev; /* index of its evidence pair */
};

/* The evidence of one flow for either counter width (at most one can pass). */
struct i3ev {
	struct bc_iperf3_evidence w[2]; /* 32-bit, 64-bit */
};

static bool addr_eq(uint8_t v, const uint8_t *a, const uint8_t *b, const struct bc_attrib_flow *f)
{
	return f->version == v && !memcmp(f->src, a, 16) && !memcmp(f->dst, b, 16);
}

/*
 * The counter width iperf3's parameter JSON gave for @f: the JSON between
 * the same two hosts (either way) last sent before the flow's first
 * datagram, else the first after it; 0 when none was captured.
 */
static uint8_t control_bits(const struct priv *pv, const struct bc_attrib_flow *f, uint64_t first)
{
	const struct i3_params *before = NULL, *after = NULL;

	for (size_t i = 0; i < pv->n_i3p; i++) {
		const struct i3_params *x = &pv->i3p[i];

		if (!addr_eq(x->version, x->src, x->dst, f) &&
		    !addr_eq(x->version, x->dst, x->src, f))
			continue;
		if (x->ts <= first) {
			if (!before || x->ts > before->ts)
				before = x;
		} else if (!after || x->ts < after->ts) {
			after = x;
		}
	}
	return before ? before->bits : after ? after->bits : 0;
}

static uint64_t counter_of(const struct rec *r, uint8_t bits)
{
	if (bits == 64)
		return r->flags & R_W16 ? r->seq : 0;
	return r->seq >> 32;
}

static int reverse_flow(const struct bc_attrib *a, struct i3flow *fe, size_t f)
{
	const struct bc_attrib_flow *x = &a->flows[f];

	if (fe[f].rev_done)
		return fe[f].rev;
	fe[f].rev_done = 1;
	fe[f].rev = -1;
	for (size_t g = 0; g < a->n_flows; g++) {
		const struct bc_attrib_flow *y = &a->flows[g];

		if (y->proto == x->proto && y->sport == x->dport && y->dport == x->sport &&
		    addr_eq(x->version, x->dst, x->src, y)) {
			fe[f].rev = (int)g;
			break;
		}
	}
	return fe[f].rev;
}

/* A new iperf3 stream of @flow; its index, -ENOSPC past BC_ATTRIB_MAX_STREAMS, -ENOMEM. */
static int stream_new(struct bc_attrib *a, struct priv *pv, size_t flow, const struct i3flow *x)
{
	struct bc_attrib_stream *s;

	if (a->n_streams >= BC_ATTRIB_MAX_STREAMS)
		return -ENOSPC;
	if (bc_grow((void **)&a->streams, &pv->cap_streams, a->n_streams + 1, sizeof(*a->streams),
		    16) ||
	    bc_grow((void **)&pv->stream_min_seq, &pv->cap_min_seq, a->n_streams + 1,
		    sizeof(*pv->stream_min_seq), 16))
		return -ENOMEM;
	s = &a->streams[a->n_streams];
	memset(s, 0, sizeof(*s));
	s->gen = BC_GEN_IPERF3;
	s->counter_bits = x->bits;
	s->counter_from_control = x->from_control;
	s->flow = (int)flow;
	pv->stream_min_seq[a->n_streams] = UINT64_MAX;
	return (int)a->n_streams++;
}

/* Turn the candidate and connect records into units or counts, once the flows are judged. */
static void convert(struct bc_attrib *a, struct priv *pv, struct i3flow *fe)
{
	for (size_t i = 0; i < pv->n_recs; i++) {
		struct rec *r = &pv->recs[i];
		struct i3flow *x;
		uint64_t c;

		if (r->flags & R_CONN) {
			int g = reverse_flow(a, fe, r->stream);
			bool i3 = fe[r->stream].stream >= 0 || (g >= 0 && fe[g].stream >= 0);

			a->links[r->link].iperf3_connect += i3;
			a->links[r->link].udp_other += !i3;
			r->flags &= (uint8_t)~R_CONN;
			r->stream = NO_STREAM;
			continue;
		}
		if (!(r->flags & R_CAND))
			continue;
		x = &fe[r->stream];
		c = counter_of(r, x->bits);
		r->flags &= (uint8_t) ~(R_CAND | R_W16);
		if (x->stream < 0) {
			/* unfragmented: counted here; a first fragment: at the merge (frag()) */
			a->links[r->link].udp_other += !(r->flags & R_FRAG);
			r->stream = NO_STREAM;
			continue;
		}
		{
			uint32_t sec = (uint32_t)(r->send_ns >> 32), usec = (uint32_t)r->send_ns;

			r->flags |= R_OURS;
			r->seq = c;
			r->send_ns = (uint64_t)sec * 1000000000ull + (uint64_t)usec * 1000ull;
			r->stream = (uint32_t)x->stream;
			if (c < pv->stream_min_seq[x->stream])
				pv->stream_min_seq[x->stream] = c;
		}
	}
}

int attrib_iperf3_recognise(struct bc_attrib *a)
{
	struct priv *pv = a->priv;
	struct i3flow *fe;
	struct i3ev *ev;
	size_t n_ev = 0;
	int rc = 0;

	if (!pv->n_cand)
		return 0;
	fe = calloc(a->n_flows, sizeof(*fe));
	if (!fe)
		return -ENOMEM;
	for (size_t i = 0; i < pv->n_recs; i++) {
		const struct rec *r = &pv->recs[i];
		struct i3flow *x;

		if (!(r->flags & R_CAND))
			continue;
		x = &fe[r->stream];
		if (!x->n || r->ts < x->first_ts)
			x->first_ts = r->ts;
		x->n++;
	}
	for (size_t f = 0; f < a->n_flows; f++) {
		fe[f].stream = -1;
		if (fe[f].n)
			fe[f].ev = (uint32_t)n_ev++;
	}
	ev = calloc(n_ev ? n_ev : 1, sizeof(*ev));
	if (!ev) {
		free(fe);
		return -ENOMEM;
	}
	/* per link in capture order: the rising counters are a link's own order */
	for (size_t l = 0; l < a->n_links; l++)
		for (size_t k = 0; k < pv->n_link_recs[l]; k++) {
			const struct rec *r = &pv->recs[pv->link_recs[l][k]];
			struct i3flow *x;

			if (!(r->flags & R_CAND))
				continue;
			x = &fe[r->stream];
			for (int w = 0; w < 2; w++)
				bc_iperf3_evidence_add(&ev[x->ev].w[w], (unsigned)l,
						       a->links[l].side == BC_SIDE_RX, r->ts,
						       (uint32_t)(r->send_ns >> 32),
						       (uint32_t)r->send_ns,
						       counter_of(r, w ? 64 : 32));
		}
	/*
	 * The width: the one whose evidence passes (a 32-bit counter read as 64 bits
	 * spans 2^32 per step, a 64-bit one read as 32 bits is 0); the control JSON,
	 * when captured, only says whether it agrees.
	 */
	for (size_t f = 0; f < a->n_flows && !rc; f++) {
		struct i3flow *x = &fe[f];
		int s, w;

		if (!x->n)
			continue;
		if (bc_iperf3_judge(&ev[x->ev].w[0], NULL))
			w = 0;
		else if (bc_iperf3_judge(&ev[x->ev].w[1], NULL))
			w = 1;
		else
			continue;
		if (ev[x->ev].w[w].c_max >= BC_ATTRIB_MAX_SEQ)
			continue;
		x->bits = w ? 64 : 32;
		x->from_control = control_bits(pv, &a->flows[f], x->first_ts) == x->bits;
		s = stream_new(a, pv, f, x);
		if (s == -ENOMEM)
			rc = s;
		else if (s >= 0)
			x->stream = s;
	}
	if (!rc)
		convert(a, pv, fe);
	free(ev);
	free(fe);
	return rc;
}
