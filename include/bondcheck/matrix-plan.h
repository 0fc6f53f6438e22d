/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The planner of `bondcheck matrix` (docs/matrix.md, "Pairs and rounds"):
 * which ordered pairs of a host list are tested, in which rounds of
 * disjoint pairs, and how long that takes.  Pure: host indexes in, a
 * schedule out; no I/O, no clock, its only randomness a seeded generator.
 *
 * A round is a set of ordered pairs in which every host appears at most
 * once (it sends or receives in at most one pair of the round), so the
 * pairs of a round can run together without two tests sharing a host.  A
 * round runs in steps of at most `concurrency` pairs at a time; a step
 * waits for all its pairs.
 *
 * Pair rules, for n hosts (indexes 0 .. n-1, in the order of --hosts):
 *   all        every ordered pair, n(n-1): the round-robin circle method
 *              (host m-1 fixed, the others rotate; m = n rounded up to even,
 *              index n the bye of an odd n) gives m-1 rounds of disjoint
 *              unordered pairs, each run once per direction: 2(n-1) rounds
 *              of n/2 pairs for n even, 2n rounds of (n-1)/2 pairs for n odd.
 *   ring       i -> i+1, and n-1 -> 0: n pairs (2 for n = 2), each host
 *              sends once and receives once; 2 rounds for n even, 3 for n
 *              odd (a cycle of odd length needs a third colour).
 *   random:K   every host sends to K distinct partners and receives from K
 *              distinct partners, n K pairs: a seeded permutation p of the
 *              hosts and K distinct offsets d drawn from 1 .. n-1; host p[j]
 *              sends to p[(j + d) mod n].  Each offset is a permutation of
 *              the hosts made of cycles, scheduled as rings: 2 rounds when
 *              its cycles are even, 3 when odd.  The generator is
 *              SplitMix64 (Steele, Lea, Flood, "Fast splittable
 *              pseudorandom number generators", OOPSLA 2014) with Lemire's
 *              unbiased bounded draw, so a seed gives the same pairs on
 *              every platform and version.  1 <= K <= n-1.
 *   bisection  the first half of the list against the second: with h =
 *              n/2, round 0 is i -> h+i for every i < h, round 1 h+i -> i:
 *              2 rounds of h pairs, meant to run all at once (the fabric's
 *              bisection under load).  An odd n leaves the last host out.
 *
 * Units: ms.
 */
#ifndef BONDCHECK_MATRIX_PLAN_H
#define BONDCHECK_MATRIX_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bondcheck/error.h"

/* Most hosts a plan (and a matrix run) takes. */
#define BC_MATRIX_PLAN_MAX_HOSTS 4096
/* Most ordered pairs a plan holds (all of 2048 hosts: 4,192,256; 16 bytes each). */
#define BC_MATRIX_PLAN_MAX_PAIRS (1u << 22)
/* Most pairs at once (one controller thread and socket each). */
#define BC_MATRIX_MAX_CONCURRENCY 512

enum bc_matrix_pairs_kind {
	BC_MATRIX_PAIRS_ALL,
	BC_MATRIX_PAIRS_RING,
	BC_MATRIX_PAIRS_RANDOM,
	BC_MATRIX_PAIRS_BISECTION,
};

/* A pair rule: --pairs all|ring|random:K|bisection, and --seed for random. */
struct bc_matrix_rule {
	enum bc_matrix_pairs_kind kind;
	unsigned k;    /* random: partners per host */
	uint64_t seed; /* random: the generator's seed */
};

/* One ordered pair of the plan: host indexes, its round, its step. */
struct bc_matrix_slot {
	unsigned from, to;
	unsigned round; /* 0-based round of disjoint pairs */
	unsigned step;  /* 0-based, over the whole plan: the pairs run at once */
};

struct bc_matrix_plan {
	struct bc_matrix_rule rule;
	unsigned n_hosts;
	unsigned concurrency;
	size_t n_slots;
	struct bc_matrix_slot *slots; /* malloc'd; ordered by round, then step */
	unsigned n_rounds, n_steps;
	unsigned round_min, round_max; /* fewest and most pairs in a round */
	unsigned step_max;             /* most pairs in a step: the concurrency used */
	bool left_out;                 /* bisection of an odd n: host n-1 in no pair */
};

/*
 * bc_matrix_rule_parse() - @text "all", "ring", "random:K" (K decimal,
 * 1 .. BC_MATRIX_PLAN_MAX_HOSTS - 1) or "bisection" into @r (seed 0).
 * Returns 0, or -EINVAL with a message saying what was expected.
 */
int bc_matrix_rule_parse(const char *text, struct bc_matrix_rule *r, struct bc_error *err);

/* bc_matrix_rule_text() - "all", "ring", "random:K", "bisection" into @buf. */
const char *bc_matrix_rule_text(const struct bc_matrix_rule *r, char *buf, size_t len);

/*
 * bc_matrix_plan_make() - the pairs of @rule over @n hosts in rounds of
 * disjoint pairs, each round cut into steps of at most @concurrency pairs.
 * Returns 0 and @p (free with bc_matrix_plan_free()); -EINVAL for n < 2
 * (bisection: n < 2 is the same), n > BC_MATRIX_PLAN_MAX_HOSTS, concurrency
 * 0, random with K > n-1 or 0, or more than BC_MATRIX_PLAN_MAX_PAIRS pairs
 * (the message names a sparser rule); -ENOMEM.  On error @p is empty.
 */
int bc_matrix_plan_make(unsigned n, const struct bc_matrix_rule *rule, unsigned concurrency,
			struct bc_matrix_plan *p, struct bc_error *err);

/* bc_matrix_plan_free() - releases @p's slots; @p is empty afterwards. */
void bc_matrix_plan_free(struct bc_matrix_plan *p);

/*
 * bc_matrix_round_steps() - ceil(@pairs / @concurrency): the steps of a
 * round of @pairs pairs (0 for concurrency 0).
 */
unsigned bc_matrix_round_steps(unsigned pairs, unsigned concurrency);

/*
 * What one step costs, and the whole plan's estimate.  A step's pairs run
 * together and the step ends with its slowest pair, so a step costs one
 * pair's time, taken from what the controller and the agents do per pair
 * (workflow/matrix.c, workflow/client.c, workflow/agent.c):
 *   duration_ms  the test (-t; the warm-up -O is inside it);
 *   tmax_ms      the agent's wait after the test before it answers (RFC 7680
 *                Tmax, 1 s by default);
 *   probe_ms     the DF probes: one relayed UDP test of BC_MATRIX_PROBE_MS
 *                plus its Tmax of BC_MATRIX_PROBE_MS per probe size, one
 *                size when the two ends' MTUs are equal (the plan does not
 *                know them; a pair with different MTUs sends two); 0 with
 *                --no-pmtu;
 *   setup_ms     the control work of each relayed test (the controller's
 *                and the relaying agent's TCP connections, key proofs,
 *                start/started, the result): BC_MATRIX_SETUP_MS per relay,
 *                the test's and the probe's.
 * Before the first round the controller proves its key to every host, one
 * after another: n x BC_MATRIX_SETUP_MS (host_checks_ms).
 */
#define BC_MATRIX_PROBE_MS 300
/*
 * Control work of one relayed test, ms (also taken for each host's key
 * proof), measured on network namespaces with 4 agents (tests/netns/
 * matrix.sh topology, 12 pairs one at a time): -t 0.5 without probes took
 * 19.7 s for 18.0 s of tests and Tmax, with probes 28.2 s for 25.2 s of
 * tests, Tmax and probes (24 relays), -t 2 without probes 37.4 s for 36.0 s:
 * 0.11 to 0.14 s per relay, the process start included.  A LAN adds its
 * round trips (a handful per relay).
 */
#define BC_MATRIX_SETUP_MS 120

struct bc_matrix_estimate {
	uint64_t duration_ms, tmax_ms, probe_ms, setup_ms; /* per pair, as above */
	uint64_t step_ms;                                   /* their sum */
	uint64_t host_checks_ms;                            /* n x BC_MATRIX_SETUP_MS */
	uint64_t total_ms; /* n_steps x step_ms + host_checks_ms */
	uint64_t serial_ms; /* the same pairs one at a time: n_slots x step_ms + checks */
};

/*
 * bc_matrix_plan_estimate() - the estimate of @p for tests of @duration_ms
 * with Tmax @tmax_ms, with DF probes when @pmtu, into @e.
 */
void bc_matrix_plan_estimate(const struct bc_matrix_plan *p, uint32_t duration_ms,
			     uint32_t tmax_ms, bool pmtu, struct bc_matrix_estimate *e);

/* Output (report/matrix-plan-report.c; pure). */
/*
 * bc_matrix_duration_text() - @ms as "12.3 s", "5 min 07 s", "5 h 33 min"
 * or "115 d 15 h" into @buf.
 */
void bc_matrix_duration_text(uint64_t ms, char *buf, size_t len);

/*
 * bc_matrix_plan_report_text() - `matrix --plan`: the rule, the rounds and
 * pairs per round, the steps at this concurrency, the estimate @e with what
 * it assumes, and the rounds' pairs (the first 64 rounds, 12 pairs of each) with the names
 * @hosts (@p->n_hosts of them).
 */
void bc_matrix_plan_report_text(FILE *out, const struct bc_matrix_plan *p,
				const char *const *hosts, const struct bc_matrix_estimate *e);

/*
 * bc_matrix_plan_report_json() - `matrix --plan -j`: the plan document
 * (docs/matrix.md, "Planning"): kind "matrix-plan", hosts, pairs_rule,
 * seed, left_out, concurrency, ordered_pairs, rounds, steps,
 * pairs_per_round{min, max}, concurrent_pairs_max, runnable, estimate{
 * total_ms, serial_ms, step_ms, duration_ms, tmax_ms, probe_ms, setup_ms,
 * host_checks_ms, assumes[]}, schedule[{round, pairs[{from, to, step}]}]
 * (one round a line, written as it goes).  Returns 0, or -1 when @out had
 * a write error.
 */
int bc_matrix_plan_report_json(FILE *out, const struct bc_matrix_plan *p,
			       const char *const *hosts, const struct bc_matrix_estimate *e);

#endif
