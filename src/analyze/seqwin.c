// SPDX-License-Identifier: GPL-2.0-or-later
/* Sliding bitmap window and RFC 4737/3550 metrics; see bondcheck/seqwin.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/seqwin.h"

static int pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

void bc_seqwin_cfg_default(struct bc_seqwin_cfg *cfg)
{
	cfg->first_seq = 0;
	cfg->window = 65536;
	cfg->extent_window = 4096;
	cfg->rd_threshold = 16;
}

int bc_seqwin_init(struct bc_seqwin *w, const struct bc_seqwin_cfg *cfg, struct bc_error *err)
{
	int r;

	memset(w, 0, sizeof(*w));
	if (!pow2(cfg->window) || cfg->window < 64)
		return bc_error_set(err, -EINVAL,
				    "sequence window %u packets; expected a power of two >= 64",
				    cfg->window);
	if (!pow2(cfg->extent_window) || cfg->extent_window < 16)
		return bc_error_set(err, -EINVAL,
				    "extent window %u arrivals; expected a power of two >= 16",
				    cfg->extent_window);
	w->cfg = *cfg;
	w->base = cfg->first_seq;
	w->next_exp = cfg->first_seq;
	w->bits = calloc(cfg->window / 64, sizeof(uint64_t));
	w->recs = calloc(cfg->extent_window, sizeof(*w->recs));
	if (!w->bits || !w->recs) {
		bc_seqwin_free(w);
		return bc_error_set(err, -ENOMEM, "out of memory for a %u-packet window",
				    cfg->window);
	}
	r = bc_rd_init(&w->rd, cfg->rd_threshold, cfg->first_seq, err);
	if (r < 0) {
		bc_seqwin_free(w);
		return r;
	}
	return 0;
}

void bc_seqwin_free(struct bc_seqwin *w)
{
	if (!w)
		return;
	free(w->bits);
	free(w->recs);
	w->bits = NULL;
	w->recs = NULL;
	bc_rd_free(&w->rd);
}

static int test_bit(const struct bc_seqwin *w, uint64_t seq)
{
	uint64_t i = seq & (w->cfg.window - 1);

	return w->bits[i / 64] >> (i % 64) & 1;
}

static void set_bit(struct bc_seqwin *w, uint64_t seq)
{
	uint64_t i = seq & (w->cfg.window - 1);

	w->bits[i / 64] |= 1ull << (i % 64);
}

static void clear_bit(struct bc_seqwin *w, uint64_t seq)
{
	uint64_t i = seq & (w->cfg.window - 1);

	w->bits[i / 64] &= ~(1ull << (i % 64));
}

/* Move base up so that @seq fits; sequence numbers that leave are final. */
static void slide(struct bc_seqwin *w, uint64_t seq)
{
	uint64_t nb = seq - w->cfg.window + 1;

	if (nb - w->base >= w->cfg.window) {
		memset(w->bits, 0, w->cfg.window / 8);
	} else {
		for (uint64_t s = w->base; s < nb; s++)
			clear_bit(w, s);
	}
	w->base = nb;
}

static void extent_push(struct bc_seqwin *w, uint64_t seq, uint64_t pos)
{
	uint64_t cap = w->cfg.extent_window;

	if (w->rec_count == cap) {
		w->evicted_seq = w->recs[w->rec_head % cap].seq;
		w->evicted = 1;
		w->rec_head++;
		w->rec_count--;
	}
	w->recs[(w->rec_head + w->rec_count) % cap] = (struct bc_extent_rec){seq, pos};
	w->rec_count++;
}

static void extent_note(struct bc_seqwin *w, uint64_t e)
{
	if (e < BC_SEQWIN_EXACT_EXTENT)
		w->ext_exact[e]++;
	else
		w->ext_log2[63 - __builtin_clzll(e)]++;
	if (e > w->extent_max)
		w->extent_max = e;
	w->extent_samples++;
}

/*
 * RFC 4737 section 4.2: the earliest arrival j with s[j] > s.  Records (the
 * arrivals that raised NextExp) increase in both seq and position, so binary
 * search the first record whose seq exceeds @seq.
 */
static void extent_reordered(struct bc_seqwin *w, uint64_t seq, uint64_t pos)
{
	uint64_t cap = w->cfg.extent_window, lo = 0, hi = w->rec_count;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (w->recs[(w->rec_head + mid) % cap].seq > seq)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo == w->rec_count)
		return; /* cannot happen: the newest record is NextExp - 1 > seq */
	if (lo == 0 && w->evicted && w->evicted_seq > seq)
		w->extent_truncated++;
	extent_note(w, pos - w->recs[(w->rec_head + lo) % cap].pos);
}

/* RFC 4737 section 5: s < s[k] for each of the n previous arrivals. */
static void nreordering(struct bc_seqwin *w, uint64_t seq)
{
	for (uint32_t n = 0; n < w->n_last; n++) {
		if (!(seq < w->last[n]))
			break;
		w->nreord[n]++;
	}
}

static void remember(struct bc_seqwin *w, uint64_t seq)
{
	memmove(&w->last[1], &w->last[0], (BC_SEQWIN_NREORD - 1) * sizeof(w->last[0]));
	w->last[0] = seq;
	if (w->n_last < BC_SEQWIN_NREORD)
		w->n_last++;
}

/* RFC 3550 section 6.4.1, A.8: J += (|D| - J) / 16, pairs in arrival order. */
static void jitter(struct bc_seqwin *w, uint64_t send_ns, uint64_t recv_ns)
{
	int64_t transit = (int64_t)(recv_ns - send_ns), d;

	if (!w->have_transit || transit < w->owd_min_ns)
		w->owd_min_ns = transit;
	if (!w->have_transit || transit > w->owd_max_ns)
		w->owd_max_ns = transit;
	if (w->have_transit) {
		d = transit - w->prev_transit;
		if (d < 0)
			d = -d;
		w->jitter_ns += ((double)d - w->jitter_ns) / 16.0;
	}
	w->prev_transit = transit;
	w->have_transit = 1;
}

enum bc_seq_class bc_seqwin_add(struct bc_seqwin *w, uint64_t seq, uint64_t send_ns,
				uint64_t recv_ns, uint32_t bytes)
{
	enum bc_seq_class c;
	uint64_t pos;

	if (seq < w->base) {
		w->late++;
		return BC_SEQ_LATE;
	}
	if (seq - w->base >= w->cfg.window)
		slide(w, seq);
	if (test_bit(w, seq)) {
		w->duplicates++;
		return BC_SEQ_DUPLICATE;
	}
	set_bit(w, seq);
	pos = w->received++;
	w->bytes += bytes;
	if (seq >= w->next_exp) {
		c = BC_SEQ_IN_ORDER;
		w->next_exp = seq + 1;
		extent_push(w, seq, pos);
	} else {
		c = BC_SEQ_REORDERED;
		w->reordered++;
		extent_reordered(w, seq, pos);
		nreordering(w, seq);
	}
	remember(w, seq);
	jitter(w, send_ns, recv_ns);
	bc_rd_add(&w->rd, seq);
	return c;
}

void bc_seqwin_finish(struct bc_seqwin *w)
{
	bc_rd_flush(&w->rd);
}

uint64_t bc_seqwin_expected(const struct bc_seqwin *w)
{
	return w->next_exp - w->cfg.first_seq;
}

uint64_t bc_seqwin_lost(const struct bc_seqwin *w, uint64_t sent)
{
	return sent > w->received ? sent - w->received : 0;
}

uint64_t bc_seqwin_extent_pct(const struct bc_seqwin *w, double pct)
{
	uint64_t rank, acc = 0;

	if (!w->extent_samples)
		return 0;
	rank = (uint64_t)(pct / 100.0 * (double)w->extent_samples);
	if ((double)rank < pct / 100.0 * (double)w->extent_samples)
		rank++;
	if (rank < 1)
		rank = 1;
	for (uint64_t e = 0; e < BC_SEQWIN_EXACT_EXTENT; e++) {
		acc += w->ext_exact[e];
		if (acc >= rank)
			return e;
	}
	for (unsigned b = 10; b < 64; b++) {
		acc += w->ext_log2[b];
		if (acc >= rank)
			return b == 63 ? UINT64_MAX : (2ull << b) - 1;
	}
	return w->extent_max;
}
