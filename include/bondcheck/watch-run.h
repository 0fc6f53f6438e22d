/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `bondcheck watch`, the live sampler (src/workflow/watch.c; the pure part
 * is bondcheck/watch.h).
 */
#ifndef BONDCHECK_WATCH_RUN_H
#define BONDCHECK_WATCH_RUN_H

#include <stdbool.h>

#include "bondcheck/error.h"
#include "bondcheck/watch.h"

/*
 * bc_watch_sample_take() - read @bond now into @s: its slaves (rtnetlink
 * stats64 counters, MII status, whether the bond transmits on each), the
 * namespace's TCP counters, and this host's TCP connections over the bond
 * with their byte counters and predicted transmit slave.  What could not be
 * read is left out and said: s->tcp_counters false, s->flows_error set.
 * Returns 0; -ENODEV when @bond is not a bond here (anymore); the
 * collector's errors (-EACCES, -ENOBUFS, ...) with a message.
 */
int bc_watch_sample_take(const char *bond, struct bc_watch_sample *s, struct bc_error *err);

/*
 * The slave taps for watch (bondcheck/tap.h): flow counters only, on the
 * sample's slaves.
 * bc_watch_taps_open() - 0; -EOPNOTSUPP (built without taps), -EPERM
 *   (CAP_BPF, CAP_NET_ADMIN missing), bc_tap_open()'s errors; @err says why.
 * bc_watch_taps_cover() - the taps are on exactly @s's slaves (else reopen:
 *   a slave came or went).
 * bc_watch_taps_read() - after bc_watch_sample_take(): each flow's TX and RX
 *   slave as observed (the slave with the most bytes each way), and the
 *   5-tuples that are not this host's TCP connections (UDP, forwarded) as
 *   flows of their own with the taps' byte counters; s->taps set.  The
 *   counters are cumulative since the taps opened (a reopen restarts them),
 *   as are the flow table's LRU evictions (s->tap_flow_evicted, since
 *   s->tap_since_ns; exact when no flow is inserted during the walk, else
 *   within the inserts meanwhile: struct bc_tap_flow_stats).
 * bc_watch_taps_close() - detach (NULL-safe).
 */
struct bc_watch_taps;
int bc_watch_taps_open(struct bc_watch_taps **t, const struct bc_watch_sample *s,
		       struct bc_error *err);
bool bc_watch_taps_cover(const struct bc_watch_taps *t, const struct bc_watch_sample *s);
int bc_watch_taps_read(struct bc_watch_taps *t, struct bc_watch_sample *s, struct bc_error *err);
void bc_watch_taps_close(struct bc_watch_taps *t);

#endif
