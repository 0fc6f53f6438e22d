// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Link-pair charging shared by the UDP streams (attrib-merge.c) and the TCP
 * flows (attrib-tcp.c): a late packet (RFC 4737 s < NextExp) that arrived on
 * link A behind the earliest later packet, which arrived on link B, counts
 * for the pair (B, A) with its extent (RFC 4737 4.2), and its RFC 5236
 * displacement D (reference/measurement.md 1.2) goes into the pair's own
 * reorder-density bins once the flow's bc_rd classifies it.
 */
#include <errno.h>
#include <stdlib.h>

#include "analyze/attrib-int.h"

/* Tag of a pair in bc_rd: early * BC_ATTRIB_MAX_LINKS + late + 1 (0 = none). */
static void observe(void *ctx, uint32_t tag, int64_t d, int counted)
{
	struct bc_attrib *a = ctx;
	struct priv *pv = a->priv;
	uint32_t e = (tag - 1) / BC_ATTRIB_MAX_LINKS, l = (tag - 1) % BC_ATTRIB_MAX_LINKS;
	uint64_t *bins = pv->pair_rd[e][l];
	int64_t dt = a->cfg.rd_threshold;

	if (!bins)
		return; /* allocated when the pair was charged */
	if (counted)
		bins[d + dt]++;
	else
		bins[2 * dt + 1]++;
}

int attrib_pair_observe(struct bc_attrib *a, struct bc_rd *rd)
{
	return bc_rd_set_observer(rd, observe, a);
}

int attrib_pair_charge(struct bc_attrib *a, unsigned early, unsigned late, uint64_t extent,
		       struct bc_rd *rd, bool tcp)
{
	struct priv *pv = a->priv;

	a->pairs[early][late]++;
	if (tcp)
		a->tcp_pairs[early][late]++;
	if (extent > a->pair_extent_max[early][late])
		a->pair_extent_max[early][late] = extent;
	if (!pv->pair_rd[early][late]) {
		pv->pair_rd[early][late] =
			calloc(2 * (size_t)a->cfg.rd_threshold + 2, sizeof(uint64_t));
		if (!pv->pair_rd[early][late])
			return -ENOMEM;
	}
	if (rd)
		bc_rd_tag_last(rd, early * BC_ATTRIB_MAX_LINKS + late + 1);
	return 0;
}

void attrib_pairs_free(struct priv *pv)
{
	for (size_t e = 0; e < BC_ATTRIB_MAX_LINKS; e++)
		for (size_t l = 0; l < BC_ATTRIB_MAX_LINKS; l++) {
			free(pv->pair_rd[e][l]);
			pv->pair_rd[e][l] = NULL;
		}
}

uint64_t bc_attrib_pair_rd(const struct bc_attrib *a, size_t early, size_t late, int d)
{
	const struct priv *pv = a->priv;
	int dt = (int)a->cfg.rd_threshold;

	if (!pv || early >= BC_ATTRIB_MAX_LINKS || late >= BC_ATTRIB_MAX_LINKS ||
	    !pv->pair_rd[early][late] || d < -dt || d > dt)
		return 0;
	return pv->pair_rd[early][late][d + dt];
}

uint64_t bc_attrib_pair_rd_discarded(const struct bc_attrib *a, size_t early, size_t late)
{
	const struct priv *pv = a->priv;

	if (!pv || early >= BC_ATTRIB_MAX_LINKS || late >= BC_ATTRIB_MAX_LINKS ||
	    !pv->pair_rd[early][late])
		return 0;
	return pv->pair_rd[early][late][2 * a->cfg.rd_threshold + 1];
}
