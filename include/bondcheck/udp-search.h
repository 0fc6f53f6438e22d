/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The UDP no-drop rate search of `bondcheck run`'s suite: which rate to
 * offer in the next trial, and what the trials found.  Pure.
 *
 * RFC 2544 section 26.1 defines throughput as the highest offered rate at
 * which every frame arrives, found by trials of at least 60 s each
 * (reference/measurement.md 2.2).  The suite departs from that on purpose:
 * at most BC_UDP_SEARCH_MAX_TRIALS trials of a few seconds (the caller
 * states the trial length), so loss that builds up more slowly than one
 * trial is missed; the result says so in its note.
 *
 * The search:
 *   1. the first trial offers @start_bps (what the bond can carry with the
 *      suite's flows when the ceilings are known, else a measured TCP goodput);
 *   2. a trial that drops bounds the rate from above (hi) and tells what the
 *      bond delivered (received bits/s): while no trial was drop-free, the
 *      next offers the lower of 0.97 x that delivered rate and 0.9 x hi
 *      (steps of at most 10 % down, as RFC 2544 26.3 walks its loss rates);
 *   3. with a drop-free rate lo and a dropping rate hi, the next offers
 *      min((lo + hi) / 2, max(1.06 x lo, 1.03 x delivered at hi)): just
 *      above the estimate first, then halving the bracket;
 *   4. it stops when hi - lo <= BC_UDP_SEARCH_RESOLUTION x hi, when the
 *      trials run out, or when the first trial (the ceiling) drops nothing;
 *      without a ceiling a drop-free trial is followed by 1.25 x its rate.
 * A trial's rate is what it really offered (bc_udp_trial_rate()); a send
 * the kernel refused is a drop (RFC 2544 counts every offered frame).
 * Rates are application payload bits/s, totals over every stream.
 */
#ifndef BONDCHECK_UDP_SEARCH_H
#define BONDCHECK_UDP_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BC_UDP_SEARCH_MAX_TRIALS 6
#define BC_UDP_SEARCH_RESOLUTION 0.02  /* stop when the bracket is <= 2 % of hi */
#define BC_UDP_PDR_LOSS		 0.005 /* partial drop rate: loss ratio <= 0.5 % */

struct bc_udp_trial {
	double rate_bps;     /* offered, total */
	double sent_bps;     /* what the senders achieved (0: not known) */
	uint64_t sent;	     /* datagrams the sender's kernel accepted */
	uint64_t received;   /* datagrams the receiver read */
	uint64_t refused;    /* sends the sender's kernel refused (ENOBUFS: a full qdisc) */
	double received_bps; /* receiver goodput, bits/s */
};

/*
 * bc_udp_trial_no_drop() - every sent datagram arrived, the kernel refused
 * no send, and something was sent.
 */
bool bc_udp_trial_no_drop(const struct bc_udp_trial *t);

/*
 * bc_udp_trial_rate() - the rate the trial really offered the bond: the
 * senders' achieved rate when they fell short of the offered one (blocked
 * by a full queue, or CPU), else the offered rate.  The search's brackets
 * and its result use it, so a sender that could not reach a rate never
 * claims it.
 */
double bc_udp_trial_rate(const struct bc_udp_trial *t);

/* bc_udp_trial_loss() - (sent + refused - received) / (sent + refused); 0 when nothing was sent. */
double bc_udp_trial_loss(const struct bc_udp_trial *t);

/*
 * bc_udp_search_next() - the rate of the next trial after the @n trials in
 * @t, or 0 when the search is over (@n >= @max_trials included).
 * @start_is_ceiling: @start_bps is the bond's ceiling, so a drop-free first
 * trial ends the search (offering more than the links carry proves nothing).
 */
double bc_udp_search_next(double start_bps, bool start_is_ceiling, const struct bc_udp_trial *t,
			  size_t n, size_t max_trials);

struct bc_udp_search_result {
	double no_drop_bps; /* highest drop-free rate (bc_udp_trial_rate()); 0: every trial dropped
			     */
	double drop_bps;    /* lowest rate that dropped; 0: none dropped */
	double resolution_bps; /* drop_bps - no_drop_bps when both exist, else 0 (unbounded) */
	double pdr_bps;	       /* highest rate with loss <= BC_UDP_PDR_LOSS; 0 none */
};

/* bc_udp_search_result() - what the @n trials found. */
void bc_udp_search_result(const struct bc_udp_trial *t, size_t n, struct bc_udp_search_result *r);

#endif
