/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Limits that both the traffic generator (src/traffic, bondcheck/plan.h)
 * and the pure analysis (src/analyze: sweep's parameter parser, the
 * capture attribution's stream ids) must agree on.  Constants only: this
 * header has no code behind it, so src/analyze can read it without
 * depending on src/traffic (DESIGN.md "Architecture").
 */
#ifndef BONDCHECK_STREAM_LIMITS_H
#define BONDCHECK_STREAM_LIMITS_H

/* Streams in one test, all directions together (a plan's "streams"; the
 * agent's max_streams limit; --parallel, --flows, a sweep's streams). */
#define BC_PLAN_MAX_STREAMS 128

#endif
