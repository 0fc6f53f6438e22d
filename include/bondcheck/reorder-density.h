/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RFC 5236 Reorder Density (RD): a histogram of packet displacements
 * D = RI - S (receive index minus sequence number; D > 0 late, D < 0 early),
 * for -DT <= D <= DT, orthogonal to loss and duplication.
 *
 * Online form (reference/measurement.md section 1.2): the packet at the head
 * of a look-ahead FIFO of DT+1 arrivals is classified once the next DT
 * arrivals are known.  When the expected index RI is neither among them nor
 * already seen as an early arrival, RI is treated as lost and jumps to the
 * smallest sequence number that is present, so loss never shows up as
 * displacement.  A packet with |D| > DT is itself treated as lost
 * ("discarded").  Duplicates must be filtered before bc_rd_add().
 * Memory O(DT); time O(DT) per packet.
 */
#ifndef BONDCHECK_REORDER_DENSITY_H
#define BONDCHECK_REORDER_DENSITY_H

#include <stdint.h>

#include "bondcheck/error.h"

#define BC_RD_DT_MAX 63

/*
 * Observer of single classifications (optional): called once for every
 * packet that carried a non-zero tag (bc_rd_tag_last()) when it is
 * classified, with its displacement @d (packets; D > 0 late) and whether it
 * was counted (|D| <= DT) or discarded (|D| > DT, treated as lost).  Used to
 * split the density by the link pair a late packet was charged to.
 */
typedef void (*bc_rd_observer)(void *ctx, uint32_t tag, int64_t d, int counted);

struct bc_rd {
	uint32_t dt;	/* displacement threshold DT, packets, 1..BC_RD_DT_MAX */
	uint64_t *fifo; /* look-ahead ring of dt+1 sequence numbers */
	uint32_t head, count;
	uint64_t ri;	    /* receive index: the sequence number expected next */
	uint64_t early;	    /* bit k: sequence ri+k was already classified (early) */
	uint64_t *hist;	    /* 2*dt+1 bins; hist[D + dt] */
	uint64_t counted;   /* packets with |D| <= DT */
	uint64_t discarded; /* packets with |D| > DT, treated as lost */
	uint32_t *tags;	    /* with an observer: tag of each look-ahead entry, 0 none */
	bc_rd_observer observe;
	void *observe_ctx;
};

/*
 * bc_rd_init() - @dt threshold in packets (1..63); @first_seq the stream's
 * first sequence number.  -EINVAL for a bad @dt, -ENOMEM.
 */
int bc_rd_init(struct bc_rd *rd, uint32_t dt, uint64_t first_seq, struct bc_error *err);
void bc_rd_free(struct bc_rd *rd);

/* bc_rd_add() - one arrival (first copy only), in arrival order. */
void bc_rd_add(struct bc_rd *rd, uint64_t seq);

/*
 * bc_rd_set_observer() - call @fn(@ctx, tag, D, counted) for every tagged
 * packet as it is classified.  Call once, before the first bc_rd_add().
 * -ENOMEM.
 */
int bc_rd_set_observer(struct bc_rd *rd, bc_rd_observer fn, void *ctx);

/*
 * bc_rd_tag_last() - tag the packet added last (still in the look-ahead:
 * DT >= 1) with @tag (non-zero); without an observer it does nothing.
 */
void bc_rd_tag_last(struct bc_rd *rd, uint32_t tag);

/* bc_rd_flush() - classify the look-ahead FIFO; call once at the end. */
void bc_rd_flush(struct bc_rd *rd);

/* bc_rd_count() - packets classified with displacement @d (0 outside -DT..DT). */
uint64_t bc_rd_count(const struct bc_rd *rd, int d);

#endif
