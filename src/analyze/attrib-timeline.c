// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Attribution, per-link timeline (struct bc_attrib_timeline in
 * bondcheck/attrib.h): frames and wire bytes per time bin, per link and
 * address pair while ingesting, folded by direction at finish.
 *
 * The bins live in fixed arrays of BC_ATTRIB_MAX_BINS slots.  A frame
 * outside the slots re-lays them out: the width doubles (bins 2i and 2i+1
 * merge, as absolute index ts / 2w = (ts / w) / 2) until the counted span
 * fits, and the span is centred with free slots on both sides, so a link
 * that starts earlier or a capture that runs on costs one re-layout, not
 * one per frame.  The width depends only on the first and last counted
 * frames, never on the order they came in.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/attrib-int.h"

#define NB BC_ATTRIB_MAX_BINS

/* Re-lay every pair's bins so that absolute indices lo..hi (at the current
 * width) fit: widen by 2^k, centre, move the counts. */
static int relayout(struct tl_state *t, size_t n_links, uint64_t lo, uint64_t hi)
{
	uint64_t *scratch, nbase, span, slack;
	unsigned k = 0;

	while ((hi >> k) - (lo >> k) + 1 > NB)
		k++;
	span = (hi >> k) - (lo >> k) + 1;
	slack = (NB - span) / 2;
	nbase = (lo >> k) >= slack ? (lo >> k) - slack : 0;
	scratch = malloc(2 * NB * sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	for (size_t l = 0; l < n_links; l++)
		for (size_t p = 0; p < MAX_PAIRS; p++) {
			uint64_t *b = t->bins[l][p];

			if (!b)
				continue;
			memset(scratch, 0, 2 * NB * sizeof(*scratch));
			if (t->any)
				for (uint64_t i = t->min_i; i <= t->max_i; i++) {
					size_t from = (size_t)(i - t->base);
					size_t to = (size_t)((i >> k) - nbase);

					scratch[to] += b[from];
					scratch[NB + to] += b[NB + from];
				}
			memcpy(b, scratch, 2 * NB * sizeof(*b));
		}
	free(scratch);
	t->w <<= k;
	t->base = nbase;
	if (t->any) {
		t->min_i >>= k;
		t->max_i >>= k;
	}
	for (size_t l = 0; l < BC_ATTRIB_MAX_LINKS; l++)
		t->cache[l].lo = t->cache[l].hi = 0;
	return 0;
}

int attrib_tl_add_slow(struct bc_attrib *a, int link, int pair, uint64_t ts, uint64_t wire_bytes)
{
	struct tl_state *t = &((struct priv *)a->priv)->tl;
	uint64_t i, lo, hi;
	size_t slot;
	int rc;

	if (!a->cfg.bin_ns)
		return 0;
	if (!t->w)
		t->w = a->cfg.bin_ns;
	if (!t->bins[link][pair]) {
		t->bins[link][pair] = calloc(2 * NB, sizeof(uint64_t));
		if (!t->bins[link][pair])
			return -ENOMEM;
	}
	i = ts / t->w;
	if (!t->any) {
		t->base = i;
		t->min_i = t->max_i = i;
	}
	lo = t->any && t->min_i < i ? t->min_i : i;
	hi = t->any && t->max_i > i ? t->max_i : i;
	if (i < t->base || i - t->base >= NB) {
		rc = relayout(t, a->n_links, lo, hi);
		if (rc)
			return rc;
		i = ts / t->w;
		lo = i < t->min_i ? i : t->min_i;
		hi = i > t->max_i ? i : t->max_i;
	}
	t->any = true;
	t->min_i = lo;
	t->max_i = hi;
	slot = (size_t)(i - t->base);
	t->cache[link].slot = slot;
	t->cache[link].lo = i * t->w;
	t->cache[link].hi = t->cache[link].lo + t->w < t->cache[link].lo ? UINT64_MAX
									  : t->cache[link].lo + t->w;
	t->bins[link][pair][slot]++;
	t->bins[link][pair][NB + slot] += wire_bytes;
	return 0;
}

int attrib_tl_fold(struct bc_attrib *a)
{
	struct priv *pv = a->priv;
	struct tl_state *t = &pv->tl;
	struct bc_attrib_timeline *tl = &a->timeline;
	size_t first = NB, last = 0, n;

	memset(tl, 0, sizeof(*tl));
	tl->bin_ns = a->cfg.bin_ns ? t->w : 0;
	if (!t->any)
		goto out;
	/* cut to the bins of frames with a direction (foreign pairs are not counted) */
	for (size_t l = 0; l < a->n_links; l++)
		for (size_t p = 0; p < pv->n_pairs; p++) {
			const uint64_t *b = t->bins[l][p];

			if (!b || pv->pairs[p].dir < 0)
				continue;
			for (size_t j = 0; j < NB; j++)
				if (b[j]) {
					first = j < first ? j : first;
					last = j > last ? j : last;
				}
		}
	if (first > last)
		goto out;
	n = last - first + 1;
	tl->frames = calloc(a->n_links * 2 * n, sizeof(uint64_t));
	tl->wire_bytes = calloc(a->n_links * 2 * n, sizeof(uint64_t));
	if (!tl->frames || !tl->wire_bytes) {
		free(tl->frames);
		free(tl->wire_bytes);
		tl->frames = tl->wire_bytes = NULL;
		return -ENOMEM;
	}
	tl->n_bins = n;
	tl->start_ns = (t->base + first) * t->w;
	for (size_t l = 0; l < a->n_links; l++)
		for (size_t p = 0; p < pv->n_pairs; p++) {
			const uint64_t *b = t->bins[l][p];
			size_t off;

			if (!b || pv->pairs[p].dir < 0)
				continue;
			off = (l * 2 + (size_t)pv->pairs[p].dir) * n;
			for (size_t j = 0; j < n; j++) {
				tl->frames[off + j] += b[first + j];
				tl->wire_bytes[off + j] += b[NB + first + j];
			}
		}
out:
	attrib_tl_free(pv);
	return 0;
}

void attrib_tl_free(struct priv *pv)
{
	for (size_t l = 0; l < BC_ATTRIB_MAX_LINKS; l++)
		for (size_t p = 0; p < MAX_PAIRS; p++) {
			free(pv->tl.bins[l][p]);
			pv->tl.bins[l][p] = NULL;
		}
}
