/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receiver sequence bookkeeping for one UDP stream: a sliding bitmap window
 * over 64-bit sequence numbers that tells received, lost, duplicate and
 * out-of-order datagrams apart, plus the reordering and delay-variation
 * metrics of reference/measurement.md:
 *
 *  - RFC 4737 section 3: Type-P-Reordered (s < NextExp, first copy only),
 *    reordered ratio = reordered / received;
 *  - RFC 4737 section 4.2: reordering extent e = i - j (arrival positions),
 *    j the earliest arrival with a larger sequence number; max and p99;
 *  - RFC 4737 section 5: n-reordering for n = 1..3;
 *  - RFC 5236 reorder density (bondcheck/reorder-density.h);
 *  - RFC 3550 section 6.4.1 interarrival jitter, in arrival order, ns.
 *
 * Window: the bitmap covers [base, base + window) where base + window - 1 is
 * the highest sequence number seen.  A datagram below base arrives later than
 * the window can tell (it may be a duplicate or a late first copy): it is
 * counted as "late" and, as RFC 7680 counts arrivals after Tmax, as lost.  So
 * sent == received + lost holds exactly once the sender's count is known.
 * Arrival positions (i, j) count only accepted first copies.
 */
#ifndef BONDCHECK_SEQWIN_H
#define BONDCHECK_SEQWIN_H

#include <stdint.h>

#include "bondcheck/error.h"
#include "bondcheck/reorder-density.h"

#define BC_SEQWIN_NREORD       3 /* n-reordering for n = 1..3 */
#define BC_SEQWIN_EXACT_EXTENT 1024

enum bc_seq_class {
	BC_SEQ_IN_ORDER = 0, /* s >= NextExp (may open a gap) */
	BC_SEQ_REORDERED,    /* s < NextExp, first copy */
	BC_SEQ_DUPLICATE,    /* copy of a datagram already received */
	BC_SEQ_LATE,	     /* below the window (or before first_seq): counted lost */
};

struct bc_seqwin_cfg {
	uint64_t first_seq;	/* sequence number of the sender's first datagram (0) */
	uint32_t window;	/* bitmap size, packets; power of two >= 64 */
	uint32_t extent_window; /* arrivals remembered for the extent; power of two >= 16 */
	uint32_t rd_threshold;	/* RFC 5236 DT, packets, 1..63 */
};

struct bc_extent_rec {
	uint64_t seq;
	uint64_t pos; /* arrival position */
};

struct bc_seqwin {
	struct bc_seqwin_cfg cfg;
	uint64_t *bits;	   /* cfg.window bits, bit (seq % window) */
	uint64_t base;	   /* lowest sequence number in the window */
	uint64_t next_exp; /* RFC 4737 NextExp */

	uint64_t received; /* accepted first copies (RFC 4737 L) */
	uint64_t bytes;	   /* payload bytes of accepted first copies */
	uint64_t duplicates;
	uint64_t reordered;
	uint64_t late;
	uint64_t nreord[BC_SEQWIN_NREORD];

	uint64_t last[BC_SEQWIN_NREORD]; /* last accepted arrivals, newest at [0] */
	uint32_t n_last;

	struct bc_extent_rec *recs; /* record-setting arrivals, ring */
	uint64_t rec_head, rec_count;
	uint64_t evicted_seq; /* seq of the newest record dropped from the ring */
	int evicted;
	uint64_t ext_exact[BC_SEQWIN_EXACT_EXTENT]; /* extents 0..1023 */
	uint64_t ext_log2[64];			    /* extents >= 1024 by floor(log2) */
	uint64_t extent_max;
	uint64_t extent_samples;
	uint64_t extent_truncated; /* extents that are lower bounds (ring too short) */

	int have_transit;
	int64_t prev_transit;		/* ns */
	double jitter_ns;		/* RFC 3550 J, ns */
	/* receive time minus send stamp: a one-way delay only when both stamps
	 * come from one clock (else it includes the clocks' offset) */
	int64_t owd_min_ns, owd_max_ns;

	struct bc_rd rd;
};

/* bc_seqwin_cfg_default() - window 65536, extent window 4096, DT 16, first_seq 0. */
void bc_seqwin_cfg_default(struct bc_seqwin_cfg *cfg);

/* bc_seqwin_init() - -EINVAL for a bad configuration (said in @err), -ENOMEM. */
int bc_seqwin_init(struct bc_seqwin *w, const struct bc_seqwin_cfg *cfg, struct bc_error *err);
void bc_seqwin_free(struct bc_seqwin *w);

/*
 * bc_seqwin_add() - one datagram in arrival order.
 * @send_ns: sender's CLOCK_REALTIME stamp; @recv_ns: receive time, same clock;
 * @bytes: payload length.  Returns its class.
 */
enum bc_seq_class bc_seqwin_add(struct bc_seqwin *w, uint64_t seq, uint64_t send_ns,
				uint64_t recv_ns, uint32_t bytes);

/* bc_seqwin_finish() - classify what RFC 5236 still holds; call before reading rd. */
void bc_seqwin_finish(struct bc_seqwin *w);

/*
 * bc_seqwin_lost() - datagrams lost out of @sent (the sender's count:
 * sequence numbers first_seq .. first_seq + sent - 1).  Late arrivals count
 * as lost.  Before the count is known, pass bc_seqwin_expected().
 */
uint64_t bc_seqwin_lost(const struct bc_seqwin *w, uint64_t sent);

/* bc_seqwin_expected() - NextExp - first_seq: datagrams the receiver knows were sent. */
uint64_t bc_seqwin_expected(const struct bc_seqwin *w);

/*
 * bc_seqwin_extent_pct() - reordering extent percentile (nearest rank),
 * packets; 0 without reordering.  Exact below BC_SEQWIN_EXACT_EXTENT, above
 * it the upper bound of the power-of-two bucket.  @pct in (0, 100].
 */
uint64_t bc_seqwin_extent_pct(const struct bc_seqwin *w, double pct);

#endif
