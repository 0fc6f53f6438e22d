// SPDX-License-Identifier: GPL-2.0-or-later
/* RFC 5236 Reorder Density, online with a DT+1 look-ahead; see the header. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/reorder-density.h"

int bc_rd_init(struct bc_rd *rd, uint32_t dt, uint64_t first_seq, struct bc_error *err)
{
	memset(rd, 0, sizeof(*rd));
	if (dt < 1 || dt > BC_RD_DT_MAX)
		return bc_error_set(err, -EINVAL,
				    "reorder-density threshold %u out of range; expected 1..%d", dt,
				    BC_RD_DT_MAX);
	rd->dt = dt;
	rd->ri = first_seq;
	rd->fifo = calloc(dt + 1, sizeof(*rd->fifo));
	rd->hist = calloc(2 * dt + 1, sizeof(*rd->hist));
	if (!rd->fifo || !rd->hist) {
		bc_rd_free(rd);
		return bc_error_set(err, -ENOMEM, "out of memory for the reorder-density window");
	}
	return 0;
}

void bc_rd_free(struct bc_rd *rd)
{
	if (!rd)
		return;
	free(rd->fifo);
	free(rd->hist);
	free(rd->tags);
	rd->fifo = NULL;
	rd->hist = NULL;
	rd->tags = NULL;
}

int bc_rd_set_observer(struct bc_rd *rd, bc_rd_observer fn, void *ctx)
{
	if (!rd->tags) {
		rd->tags = calloc(rd->dt + 1, sizeof(*rd->tags));
		if (!rd->tags)
			return -ENOMEM;
	}
	rd->observe = fn;
	rd->observe_ctx = ctx;
	return 0;
}

void bc_rd_tag_last(struct bc_rd *rd, uint32_t tag)
{
	if (rd->tags && rd->count)
		rd->tags[(rd->head + rd->count - 1) % (rd->dt + 1)] = tag;
}

static uint64_t fifo_at(const struct bc_rd *rd, uint32_t i)
{
	return rd->fifo[(rd->head + i) % (rd->dt + 1)];
}

/* Is @ri among the look-ahead arrivals or already classified as early? */
static int present(const struct bc_rd *rd, uint64_t ri)
{
	if (rd->early & 1)
		return 1;
	for (uint32_t i = 0; i < rd->count; i++)
		if (fifo_at(rd, i) == ri)
			return 1;
	return 0;
}

static void advance(struct bc_rd *rd, uint64_t by)
{
	rd->early = by >= 64 ? 0 : rd->early >> by;
	rd->ri += by;
}

/* RI is lost: jump to the smallest present sequence number above it, if any. */
static void skip_lost(struct bc_rd *rd, uint64_t s)
{
	uint64_t cand = UINT64_MAX;

	if (s > rd->ri)
		cand = s;
	for (uint32_t i = 0; i < rd->count; i++) {
		uint64_t x = fifo_at(rd, i);

		if (x > rd->ri && x < cand)
			cand = x;
	}
	if (rd->early)
		for (unsigned k = 1; k < 64; k++)
			if (rd->early >> k & 1) {
				if (rd->ri + k < cand)
					cand = rd->ri + k;
				break;
			}
	if (cand != UINT64_MAX)
		advance(rd, cand - rd->ri);
}

static void classify_head(struct bc_rd *rd)
{
	uint64_t s = rd->fifo[rd->head];
	uint32_t tag = rd->tags ? rd->tags[rd->head] : 0;
	int64_t d;

	rd->head = (rd->head + 1) % (rd->dt + 1);
	rd->count--;
	if (s != rd->ri && !present(rd, rd->ri))
		skip_lost(rd, s);
	d = (int64_t)(rd->ri - s);
	if (d > (int64_t)rd->dt || d < -(int64_t)rd->dt) {
		rd->discarded++;
		if (tag && rd->observe)
			rd->observe(rd->observe_ctx, tag, d, 0);
		return;
	}
	rd->hist[d + rd->dt]++;
	rd->counted++;
	if (tag && rd->observe)
		rd->observe(rd->observe_ctx, tag, d, 1);
	if (s > rd->ri)
		rd->early |= 1ull << (s - rd->ri);
	advance(rd, 1);
}

void bc_rd_add(struct bc_rd *rd, uint64_t seq)
{
	uint32_t i = (rd->head + rd->count) % (rd->dt + 1);

	if (rd->tags)
		rd->tags[i] = 0;
	rd->fifo[i] = seq;
	rd->count++;
	if (rd->count == rd->dt + 1)
		classify_head(rd);
}

void bc_rd_flush(struct bc_rd *rd)
{
	while (rd->count)
		classify_head(rd);
}

uint64_t bc_rd_count(const struct bc_rd *rd, int d)
{
	if (d > (int)rd->dt || d < -(int)rd->dt)
		return 0;
	return rd->hist[d + (int)rd->dt];
}
