/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `bondcheck watch`, the live sampler (src/workflow/watch.c; the pure part
 * is bondcheck/watch.h).
 */
#ifndef BONDCHECK_WATCH_RUN_H
#define BONDCHECK_WATCH_RUN_H

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

#endif
