// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The planner of `bondcheck matrix` (bondcheck/matrix-plan.h): pair rules,
 * rounds of disjoint pairs, steps of at most `concurrency` pairs, and the
 * time estimate.  Pure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/matrix-plan.h"

int bc_matrix_rule_parse(const char *text, struct bc_matrix_rule *r, struct bc_error *err)
{
	static const char *const expected =
		"all, ring, random:K (K partners per host, 1..4095) or bisection";
	char *end;
	unsigned long k;

	memset(r, 0, sizeof(*r));
	if (!text)
		return bc_error_set(err, -EINVAL, "no pair rule; expected %s", expected);
	if (!strcmp(text, "all")) {
		r->kind = BC_MATRIX_PAIRS_ALL;
	} else if (!strcmp(text, "ring")) {
		r->kind = BC_MATRIX_PAIRS_RING;
	} else if (!strcmp(text, "bisection")) {
		r->kind = BC_MATRIX_PAIRS_BISECTION;
	} else if (!strncmp(text, "random:", 7)) {
		if (text[7] < '0' || text[7] > '9')
			return bc_error_set(err, -EINVAL, "'%.40s': K is not a number; expected %s",
					    text, expected);
		k = strtoul(text + 7, &end, 10);
		if (*end || k < 1 || k >= BC_MATRIX_PLAN_MAX_HOSTS)
			return bc_error_set(err, -EINVAL, "'%.40s'; expected %s", text, expected);
		r->kind = BC_MATRIX_PAIRS_RANDOM;
		r->k = (unsigned)k;
	} else {
		return bc_error_set(err, -EINVAL, "'%.40s'; expected %s", text, expected);
	}
	return 0;
}

const char *bc_matrix_rule_text(const struct bc_matrix_rule *r, char *buf, size_t len)
{
	switch (r->kind) {
	case BC_MATRIX_PAIRS_ALL:
		snprintf(buf, len, "all");
		break;
	case BC_MATRIX_PAIRS_RING:
		snprintf(buf, len, "ring");
		break;
	case BC_MATRIX_PAIRS_RANDOM:
		snprintf(buf, len, "random:%u", r->k);
		break;
	case BC_MATRIX_PAIRS_BISECTION:
		snprintf(buf, len, "bisection");
		break;
	default:
		snprintf(buf, len, "?");
		break;
	}
	return buf;
}

unsigned bc_matrix_round_steps(unsigned pairs, unsigned concurrency)
{
	return concurrency ? (pairs + concurrency - 1) / concurrency : 0;
}

/* --- the seeded generator ---------------------------------------------------------------- */

/* SplitMix64 (Steele, Lea, Flood 2014): one 64-bit output per call. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * A uniform integer in [0, @range), @range >= 1: Lemire, "Fast random
 * integer generation in an interval", ACM TOMACS 29(1), 2019 (the 32-bit
 * multiply-and-reject form; ranges here are below 2^32).
 */
static uint32_t bounded(uint64_t *state, uint32_t range)
{
	uint64_t m = (splitmix64(state) >> 32) * range;
	uint32_t low = (uint32_t)m;

	if (low < range) {
		uint32_t t = (uint32_t)(-range) % range;

		while (low < t) {
			m = (splitmix64(state) >> 32) * range;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

/* --- rules -------------------------------------------------------------------------------- */

static unsigned gcd(unsigned a, unsigned b)
{
	while (b) {
		unsigned t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * The pairs perm[j] -> perm[(j + d) mod n] of one offset @d, in rounds
 * from @base: the offset's cycles (gcd(n, d) of them, each of length
 * L = n / gcd) are coloured edge by edge, 0 1 0 1 ..., and the last edge of
 * an odd cycle 2 (it meets both colours).  Appends to @s at *@k; returns
 * the rounds used (2 or 3).
 */
static unsigned offset_rounds(unsigned n, const unsigned *perm, unsigned d, unsigned base,
			      struct bc_matrix_slot *s, size_t *k)
{
	unsigned g = gcd(n, d), len = n / g, colours = len % 2 ? 3 : 2;

	for (unsigned c = 0; c < colours; c++)
		for (unsigned start = 0; start < g; start++)
			for (unsigned i = 0; i < len; i++) {
				unsigned col = len % 2 && i == len - 1 ? 2 : i % 2;
				unsigned pos = (unsigned)((start + (uint64_t)i * d) % n);

				if (col != c)
					continue;
				s[*k].from = perm[pos];
				s[*k].to = perm[(pos + d) % n];
				s[*k].round = base + c;
				(*k)++;
			}
	return colours;
}

/* every ordered pair: the circle method, each round of unordered pairs once per direction */
static unsigned rule_all(unsigned n, struct bc_matrix_slot *s, size_t *k)
{
	unsigned m = n + (n & 1), round = 0;

	for (unsigned r = 0; r + 1 < m; r++)
		for (int dir = 0; dir < 2; dir++, round++)
			for (unsigned i = 0; i < m / 2; i++) {
				unsigned a = i == 0 ? m - 1 : (r + i) % (m - 1);
				unsigned b = i == 0 ? r : (r + (m - 1) - i) % (m - 1);

				if (a >= n || b >= n) /* the bye of an odd n */
					continue;
				s[*k].from = dir ? b : a;
				s[*k].to = dir ? a : b;
				s[*k].round = round;
				(*k)++;
			}
	return round;
}

static unsigned rule_random(unsigned n, const struct bc_matrix_rule *rule, unsigned *perm,
			    unsigned *offs, struct bc_matrix_slot *s, size_t *k)
{
	uint64_t st = rule->seed;
	unsigned rounds = 0;

	for (unsigned i = 0; i < n; i++)
		perm[i] = i;
	for (unsigned i = n - 1; i > 0; i--) { /* Fisher-Yates */
		unsigned j = bounded(&st, i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (unsigned i = 0; i + 1 < n; i++)
		offs[i] = i + 1;
	for (unsigned i = 0; i < rule->k; i++) { /* the first K of a shuffle of 1 .. n-1 */
		unsigned j = i + bounded(&st, n - 1 - i), t = offs[i];

		offs[i] = offs[j];
		offs[j] = t;
		rounds += offset_rounds(n, perm, offs[i], rounds, s, k);
	}
	return rounds;
}

static uint64_t rule_pairs(unsigned n, const struct bc_matrix_rule *rule)
{
	switch (rule->kind) {
	case BC_MATRIX_PAIRS_ALL:
		return (uint64_t)n * (n - 1);
	case BC_MATRIX_PAIRS_RING:
		return n;
	case BC_MATRIX_PAIRS_RANDOM:
		return (uint64_t)n * rule->k;
	case BC_MATRIX_PAIRS_BISECTION:
		return 2 * (uint64_t)(n / 2);
	}
	return 0;
}

void bc_matrix_plan_free(struct bc_matrix_plan *p)
{
	free(p->slots);
	memset(p, 0, sizeof(*p));
}

int bc_matrix_plan_make(unsigned n, const struct bc_matrix_rule *rule, unsigned concurrency,
			struct bc_matrix_plan *p, struct bc_error *err)
{
	unsigned *perm = NULL, *offs = NULL, rounds = 0;
	uint64_t want;
	size_t k = 0;
	char name[32];

	memset(p, 0, sizeof(*p));
	bc_matrix_rule_text(rule, name, sizeof(name));
	if (n < 2 || n > BC_MATRIX_PLAN_MAX_HOSTS)
		return bc_error_set(err, -EINVAL, "%u hosts; a matrix takes 2..%d", n,
				    BC_MATRIX_PLAN_MAX_HOSTS);
	if (concurrency == 0)
		return bc_error_set(err, -EINVAL, "concurrency 0; expected at least 1");
	if (rule->kind == BC_MATRIX_PAIRS_RANDOM && (rule->k < 1 || rule->k > n - 1))
		return bc_error_set(err, -EINVAL,
				    "random:%u over %u hosts; expected 1..%u distinct partners",
				    rule->k, n, n - 1);
	want = rule_pairs(n, rule);
	if (want > BC_MATRIX_PLAN_MAX_PAIRS)
		return bc_error_set(err, -EINVAL,
				    "%s over %u hosts makes %llu ordered pairs, more than %u; "
				    "use --pairs ring, random:K or bisection at this size",
				    name, n, (unsigned long long)want, BC_MATRIX_PLAN_MAX_PAIRS);
	p->slots = calloc(want ? want : 1, sizeof(*p->slots));
	if (rule->kind == BC_MATRIX_PAIRS_RING || rule->kind == BC_MATRIX_PAIRS_RANDOM) {
		perm = calloc(n, sizeof(*perm));
		offs = calloc(n, sizeof(*offs));
	}
	if (!p->slots || ((rule->kind == BC_MATRIX_PAIRS_RING ||
			   rule->kind == BC_MATRIX_PAIRS_RANDOM) &&
			  (!perm || !offs))) {
		free(perm);
		free(offs);
		bc_matrix_plan_free(p);
		return bc_error_set(err, -ENOMEM, "out of memory for %llu pairs",
				    (unsigned long long)want);
	}
	switch (rule->kind) {
	case BC_MATRIX_PAIRS_ALL:
		rounds = rule_all(n, p->slots, &k);
		break;
	case BC_MATRIX_PAIRS_RING:
		for (unsigned i = 0; i < n; i++)
			perm[i] = i;
		rounds = offset_rounds(n, perm, 1, 0, p->slots, &k);
		break;
	case BC_MATRIX_PAIRS_RANDOM:
		rounds = rule_random(n, rule, perm, offs, p->slots, &k);
		break;
	case BC_MATRIX_PAIRS_BISECTION:
		for (unsigned dir = 0; dir < 2; dir++)
			for (unsigned i = 0; i < n / 2; i++) {
				p->slots[k].from = dir ? n / 2 + i : i;
				p->slots[k].to = dir ? i : n / 2 + i;
				p->slots[k].round = dir;
				k++;
			}
		rounds = 2;
		p->left_out = n % 2;
		break;
	}
	free(perm);
	free(offs);
	p->rule = *rule;
	p->n_hosts = n;
	p->concurrency = concurrency;
	p->n_slots = k;
	p->n_rounds = rounds;
	p->round_min = ~0u;
	/* steps: each round cut into runs of at most `concurrency` pairs */
	for (size_t i = 0; i < k;) {
		size_t e = i;
		unsigned in_round;

		while (e < k && p->slots[e].round == p->slots[i].round)
			e++;
		in_round = (unsigned)(e - i);
		if (in_round < p->round_min)
			p->round_min = in_round;
		if (in_round > p->round_max)
			p->round_max = in_round;
		for (size_t j = i; j < e; j++)
			p->slots[j].step = p->n_steps + (unsigned)((j - i) / concurrency);
		p->n_steps += bc_matrix_round_steps(in_round, concurrency);
		i = e;
	}
	if (!k)
		p->round_min = 0;
	p->step_max = p->round_max < concurrency ? p->round_max : concurrency;
	return 0;
}

void bc_matrix_plan_estimate(const struct bc_matrix_plan *p, uint32_t duration_ms,
			     uint32_t tmax_ms, bool pmtu, struct bc_matrix_estimate *e)
{
	memset(e, 0, sizeof(*e));
	e->duration_ms = duration_ms;
	e->tmax_ms = tmax_ms;
	e->probe_ms = pmtu ? 2 * BC_MATRIX_PROBE_MS : 0;
	e->setup_ms = (pmtu ? 2 : 1) * BC_MATRIX_SETUP_MS;
	e->step_ms = e->duration_ms + e->tmax_ms + e->probe_ms + e->setup_ms;
	e->host_checks_ms = (uint64_t)p->n_hosts * BC_MATRIX_SETUP_MS;
	e->total_ms = p->n_steps * e->step_ms + e->host_checks_ms;
	e->serial_ms = p->n_slots * e->step_ms + e->host_checks_ms;
}
