// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The planner of `bondcheck matrix` (analyze/matrix-plan.c) and the --plan
 * output (report/matrix-plan-report.c): every host at most once per round,
 * each rule's pairs, steps of at most `concurrency` pairs, the estimate.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "bondcheck/json-get.h"
#include "bondcheck/matrix-plan.h"
#include "bondcheck/matrix.h"

static struct bc_matrix_rule rule(enum bc_matrix_pairs_kind kind, unsigned k, uint64_t seed)
{
	struct bc_matrix_rule r = {.kind = kind, .k = k, .seed = seed};

	return r;
}

/*
 * The invariants of every plan: pairs of distinct hosts below n, no ordered
 * pair twice, ordered by round, no host twice in a round, each step inside
 * one round with 1..concurrency pairs, the counts as stated.  Returns the
 * plan (caller frees) and fills @seen[a * n + b] with the times a -> b was planned.
 */
static struct bc_matrix_plan check_plan(unsigned n, struct bc_matrix_rule r, unsigned conc,
					unsigned *seen)
{
	struct bc_matrix_plan p;
	unsigned *busy = calloc(n, sizeof(*busy)), *in_step, steps = 0, rmin = ~0u, rmax = 0;

	assert_non_null(busy);
	assert_int_equal(bc_matrix_plan_make(n, &r, conc, &p, NULL), 0);
	assert_int_equal(p.n_hosts, n);
	in_step = calloc(p.n_steps + 1, sizeof(*in_step));
	assert_non_null(in_step);
	for (size_t i = 0; i < p.n_slots; i++) {
		const struct bc_matrix_slot *s = &p.slots[i];

		assert_true(s->from < n && s->to < n && s->from != s->to);
		assert_int_equal(seen[s->from * n + s->to]++, 0); /* no ordered pair twice */
		assert_true(s->round < p.n_rounds && s->step < p.n_steps);
		if (i) {
			assert_true(s->round >= p.slots[i - 1].round);
			assert_true(s->step >= p.slots[i - 1].step);
			/* a step never spans two rounds */
			if (s->step == p.slots[i - 1].step)
				assert_int_equal(s->round, p.slots[i - 1].round);
		}
		in_step[s->step]++;
	}
	/* every host at most once per round: it sends or receives in one pair at most */
	for (size_t i = 0; i < p.n_slots;) {
		size_t e = i;

		memset(busy, 0, n * sizeof(*busy));
		while (e < p.n_slots && p.slots[e].round == p.slots[i].round) {
			assert_int_equal(busy[p.slots[e].from]++, 0);
			assert_int_equal(busy[p.slots[e].to]++, 0);
			e++;
		}
		if (e - i < rmin)
			rmin = (unsigned)(e - i);
		if (e - i > rmax)
			rmax = (unsigned)(e - i);
		steps += (unsigned)((e - i + conc - 1) / conc);
		i = e;
	}
	for (unsigned k = 0; k < p.n_steps; k++)
		assert_true(in_step[k] >= 1 && in_step[k] <= conc);
	assert_int_equal(p.n_steps, steps);
	assert_int_equal(p.round_min, p.n_slots ? rmin : 0);
	assert_int_equal(p.round_max, rmax);
	assert_int_equal(p.step_max, rmax < conc ? rmax : conc);
	free(busy);
	free(in_step);
	return p;
}

static void test_all(void **state)
{
	(void)state;
	for (unsigned n = 2; n <= 13; n++)
		for (unsigned c = 1; c <= 7; c += 3) {
			unsigned *seen = calloc((size_t)n * n, sizeof(*seen));
			struct bc_matrix_plan p = check_plan(n, rule(BC_MATRIX_PAIRS_ALL, 0, 0), c, seen);

			assert_non_null(seen);
			/* every ordered pair exactly once */
			for (unsigned a = 0; a < n; a++)
				for (unsigned b = 0; b < n; b++)
					assert_int_equal(seen[a * n + b], a != b);
			assert_int_equal(p.n_slots, n * (n - 1));
			/* circle method: 2(n-1) rounds of n/2 pairs (n even), 2n of (n-1)/2 (odd) */
			assert_int_equal(p.n_rounds, n % 2 ? 2 * n : 2 * (n - 1));
			assert_int_equal(p.round_min, n / 2);
			assert_int_equal(p.round_max, n / 2);
			assert_false(p.left_out);
			if (c == 1)
				assert_int_equal(p.n_steps, n * (n - 1));
			bc_matrix_plan_free(&p);
			free(seen);
		}
	/* a larger odd one */
	{
		unsigned n = 101, *seen = calloc((size_t)n * n, sizeof(*seen));
		struct bc_matrix_plan p = check_plan(n, rule(BC_MATRIX_PAIRS_ALL, 0, 0), 50, seen);

		assert_int_equal(p.n_rounds, 202);
		assert_int_equal(p.n_steps, 202);
		bc_matrix_plan_free(&p);
		free(seen);
	}
}

static void test_ring(void **state)
{
	(void)state;
	for (unsigned n = 2; n <= 17; n++)
		for (unsigned c = 1; c <= 9; c += 4) {
			unsigned *seen = calloc((size_t)n * n, sizeof(*seen));
			struct bc_matrix_plan p =
				check_plan(n, rule(BC_MATRIX_PAIRS_RING, 0, 0), c, seen);

			assert_int_equal(p.n_slots, n);
			for (unsigned a = 0; a < n; a++)
				for (unsigned b = 0; b < n; b++)
					assert_int_equal(seen[a * n + b], b == (a + 1) % n);
			/* a cycle: 2 rounds when even, 3 when odd (n = 2: 0 -> 1, 1 -> 0) */
			assert_int_equal(p.n_rounds, n % 2 ? 3 : 2);
			bc_matrix_plan_free(&p);
			free(seen);
		}
}

static void test_random(void **state)
{
	static const unsigned ns[] = {2, 3, 5, 8, 13, 100, 257};

	(void)state;
	for (size_t t = 0; t < sizeof(ns) / sizeof(ns[0]); t++) {
		unsigned n = ns[t];
		unsigned ks[] = {1, 2, 3, n - 1};

		for (size_t q = 0; q < 4; q++) {
			unsigned k = ks[q], *seen, *out, *in;
			struct bc_matrix_plan p, p2;

			if (k < 1 || k > n - 1)
				continue;
			seen = calloc((size_t)n * n, sizeof(*seen));
			out = calloc(n, sizeof(*out));
			in = calloc(n, sizeof(*in));
			p = check_plan(n, rule(BC_MATRIX_PAIRS_RANDOM, k, 42 + t), 3, seen);
			assert_int_equal(p.n_slots, (size_t)n * k);
			for (size_t i = 0; i < p.n_slots; i++) {
				out[p.slots[i].from]++;
				in[p.slots[i].to]++;
			}
			/* K distinct partners each way (no pair twice: check_plan) */
			for (unsigned h = 0; h < n; h++) {
				assert_int_equal(out[h], k);
				assert_int_equal(in[h], k);
			}
			assert_true(p.n_rounds <= 3 * k);
			/* the same seed, the same pairs in the same rounds */
			assert_int_equal(bc_matrix_plan_make(n, &p.rule, 3, &p2, NULL), 0);
			assert_int_equal(p2.n_slots, p.n_slots);
			assert_memory_equal(p2.slots, p.slots, p.n_slots * sizeof(*p.slots));
			bc_matrix_plan_free(&p2);
			bc_matrix_plan_free(&p);
			free(seen);
			free(out);
			free(in);
		}
	}
	/* another seed, other pairs (100 hosts, 3 partners: the chance of equal plans is nil) */
	{
		struct bc_matrix_rule a = rule(BC_MATRIX_PAIRS_RANDOM, 3, 1);
		struct bc_matrix_rule b = rule(BC_MATRIX_PAIRS_RANDOM, 3, 2);
		struct bc_matrix_plan pa, pb;
		size_t same = 0;

		assert_int_equal(bc_matrix_plan_make(100, &a, 1, &pa, NULL), 0);
		assert_int_equal(bc_matrix_plan_make(100, &b, 1, &pb, NULL), 0);
		for (size_t i = 0; i < pa.n_slots; i++)
			same += pa.slots[i].from == pb.slots[i].from &&
				pa.slots[i].to == pb.slots[i].to;
		assert_true(same < pa.n_slots / 2);
		bc_matrix_plan_free(&pa);
		bc_matrix_plan_free(&pb);
	}
}

static void test_bisection(void **state)
{
	(void)state;
	for (unsigned n = 2; n <= 11; n++) {
		unsigned *seen = calloc((size_t)n * n, sizeof(*seen)), h = n / 2;
		struct bc_matrix_plan p =
			check_plan(n, rule(BC_MATRIX_PAIRS_BISECTION, 0, 0), h, seen);

		assert_int_equal(p.n_slots, 2 * h);
		assert_int_equal(p.n_rounds, 2);
		/* a round at once at concurrency n/2 */
		assert_int_equal(p.n_steps, 2);
		assert_int_equal(p.step_max, h);
		for (unsigned a = 0; a < n; a++)
			for (unsigned b = 0; b < n; b++)
				assert_int_equal(seen[a * n + b],
						 (a < h && b == a + h) || (b < h && a == b + h));
		for (size_t i = 0; i < p.n_slots; i++) /* first half sends first */
			assert_int_equal(p.slots[i].round, p.slots[i].from >= h);
		assert_int_equal(p.left_out, n % 2);
		bc_matrix_plan_free(&p);
		free(seen);
	}
}

static void test_errors(void **state)
{
	struct bc_matrix_rule r;
	struct bc_matrix_plan p;
	struct bc_error err = {0};
	char buf[32];

	(void)state;
	assert_int_equal(bc_matrix_rule_parse("all", &r, NULL), 0);
	assert_int_equal(r.kind, BC_MATRIX_PAIRS_ALL);
	assert_int_equal(bc_matrix_rule_parse("ring", &r, NULL), 0);
	assert_int_equal(r.kind, BC_MATRIX_PAIRS_RING);
	assert_int_equal(bc_matrix_rule_parse("bisection", &r, NULL), 0);
	assert_int_equal(r.kind, BC_MATRIX_PAIRS_BISECTION);
	assert_int_equal(bc_matrix_rule_parse("random:3", &r, NULL), 0);
	assert_int_equal(r.kind, BC_MATRIX_PAIRS_RANDOM);
	assert_int_equal(r.k, 3);
	assert_string_equal(bc_matrix_rule_text(&r, buf, sizeof(buf)), "random:3");
	for (size_t i = 0; i < 6; i++) {
		static const char *const bad[] = {"random:", "random:0", "random:x",
						  "random:3x", "star", "random:-1"};

		bc_error_clear(&err);
		assert_int_equal(bc_matrix_rule_parse(bad[i], &r, &err), -EINVAL);
		assert_non_null(strstr(err.msg, "expected all, ring, random:K"));
	}
	r = rule(BC_MATRIX_PAIRS_ALL, 0, 0);
	assert_int_equal(bc_matrix_plan_make(1, &r, 1, &p, &err), -EINVAL);
	assert_null(p.slots);
	assert_int_equal(bc_matrix_plan_make(BC_MATRIX_PLAN_MAX_HOSTS + 1, &r, 1, &p, NULL), -EINVAL);
	assert_int_equal(bc_matrix_plan_make(4, &r, 0, &p, NULL), -EINVAL);
	/* every ordered pair of 4096 hosts is more than a plan holds: the error names the way out */
	bc_error_clear(&err);
	assert_int_equal(bc_matrix_plan_make(4096, &r, 1, &p, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "ring, random:K or bisection"));
	r = rule(BC_MATRIX_PAIRS_RANDOM, 4, 1);
	bc_error_clear(&err);
	assert_int_equal(bc_matrix_plan_make(4, &r, 1, &p, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "1..3 distinct partners"));
}

/*
 * The --plan estimate for 1,000 hosts, computed here from the counts alone:
 * all: 2(N-1) rounds of N/2 disjoint pairs, ceil((N/2)/C) steps each; every
 * step one pair's time: the test, Tmax, one DF probe (300 ms + its Tmax of
 * 300 ms) and 120 ms of control work per relay (the test's and the probe's);
 * 120 ms per host for the controller's key proofs before the rounds.
 */
static void test_estimate_1000(void **state)
{
	const unsigned n = 1000;
	const uint64_t step = 10000 + 1000 + (300 + 300) + 2 * 120, checks = n * 120ull;
	static const unsigned concs[] = {1, 64, 500};
	struct bc_matrix_rule r = rule(BC_MATRIX_PAIRS_ALL, 0, 0);
	struct bc_matrix_estimate e;
	struct bc_matrix_plan p;
	char buf[32];

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		unsigned c = concs[i];
		uint64_t steps = 2ull * (n - 1) * ((n / 2 + c - 1) / c);

		assert_int_equal(bc_matrix_plan_make(n, &r, c, &p, NULL), 0);
		assert_int_equal(p.n_slots, 999000);
		assert_int_equal(p.n_rounds, 1998);
		assert_int_equal(p.n_steps, steps);
		bc_matrix_plan_estimate(&p, 10000, 1000, true, &e);
		assert_int_equal(e.step_ms, step);
		assert_int_equal(e.host_checks_ms, checks);
		assert_int_equal(e.total_ms, steps * step + checks);
		assert_int_equal(e.serial_ms, 999000ull * step + checks);
		bc_matrix_plan_free(&p);
	}
	/* 500 at once: 1998 x 11.84 s + 120 s = 23,776.32 s, 6 h 36 min */
	assert_int_equal(e.total_ms, 23776320);
	bc_matrix_duration_text(e.total_ms, buf, sizeof(buf));
	assert_string_equal(buf, "6 h 36 min");
	/* serially: 999,000 x 11.84 s + 120 s = 11,828,280 s = 136 d 21.7 h (whole hours shown) */
	bc_matrix_duration_text(e.serial_ms, buf, sizeof(buf));
	assert_string_equal(buf, "136 d 21 h");
	/* ring of 1,000, serially, without probes: 1,000 x (10 + 1 + 0.12) s + 120 s */
	r = rule(BC_MATRIX_PAIRS_RING, 0, 0);
	assert_int_equal(bc_matrix_plan_make(n, &r, 1, &p, NULL), 0);
	bc_matrix_plan_estimate(&p, 10000, 1000, false, &e);
	assert_int_equal(e.total_ms, 1000ull * 11120 + checks);
	bc_matrix_plan_free(&p);
	/* bisection of 1,000 at 500 at once: 2 steps */
	r = rule(BC_MATRIX_PAIRS_BISECTION, 0, 0);
	assert_int_equal(bc_matrix_plan_make(n, &r, 500, &p, NULL), 0);
	bc_matrix_plan_estimate(&p, 10000, 1000, true, &e);
	assert_int_equal(e.total_ms, 2 * step + checks);
	bc_matrix_plan_free(&p);
}

/* The --plan document: valid JSON although written a round at a time. */
static void test_plan_json(void **state)
{
	const char *hosts[] = {"h1", "h2", "h3", "h4", "h5"};
	struct bc_matrix_rule r = rule(BC_MATRIX_PAIRS_RING, 0, 0);
	struct bc_matrix_estimate e;
	struct bc_matrix_plan p;
	struct json_object *d, *sched, *pairs;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(bc_matrix_plan_make(5, &r, 2, &p, NULL), 0);
	bc_matrix_plan_estimate(&p, 1000, 1000, false, &e);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(bc_matrix_plan_report_json(f, &p, hosts, &e), 0);
	fclose(f);
	d = json_tokener_parse(buf);
	assert_non_null(d);
	assert_string_equal(bc_json_str(d, "kind"), "matrix-plan");
	assert_string_equal(bc_json_str(d, "pairs_rule"), "ring");
	assert_int_equal(bc_json_i64(d, "ordered_pairs", 0), 5);
	assert_int_equal(bc_json_i64(d, "rounds", 0), 3);
	assert_int_equal(bc_json_i64(json_object_object_get(d, "estimate"), "total_ms", 0),
			 (int64_t)e.total_ms);
	sched = json_object_object_get(d, "schedule");
	assert_int_equal(bc_json_len(sched), 3);
	pairs = json_object_object_get(json_object_array_get_idx(sched, 2), "pairs");
	assert_int_equal(bc_json_len(pairs), 1); /* the odd ring's third colour: h5 -> h1 */
	assert_string_equal(bc_json_str(json_object_array_get_idx(pairs, 0), "from"), "h5");
	assert_string_equal(bc_json_str(json_object_array_get_idx(pairs, 0), "to"), "h1");
	json_object_put(d);
	free(buf);
	/* the text names the rounds and the estimate */
	buf = NULL;
	f = open_memstream(&buf, &len);
	bc_matrix_plan_report_text(f, &p, hosts, &e);
	fclose(f);
	assert_non_null(strstr(buf, "5 ordered pairs in 3 rounds of disjoint pairs (1 to 2 pairs"));
	assert_non_null(strstr(buf, "round 3 (1 pair, 1 step): h5 -> h1"));
	assert_non_null(strstr(buf, "Estimated time: "));
	free(buf);
	bc_matrix_plan_free(&p);
}

/* The results' concurrency line: the rule, its seed, and how many pairs ran at once. */
static void test_report_line(void **state)
{
	static const char *const docs[][2] = {
		{"{\"pairs_rule\": \"random:2\", \"seed\": 7, \"concurrency\": 2, "
		 "\"concurrent_pairs_max\": 2, \"rounds\": 6, \"hosts\": [], \"pairs\": [], "
		 "\"matrix\": {\"hosts\": []}}",
		 "--pairs random:2 (seed 7): 0 ordered pairs in 6 rounds of disjoint pairs, up to 2 "
		 "at once (--concurrency 2: pairs at once share the fabric)"},
		{"{\"pairs_rule\": \"ring\", \"seed\": null, \"concurrency\": 8, "
		 "\"concurrent_pairs_max\": 1, \"rounds\": 2, \"hosts\": [], \"pairs\": [], "
		 "\"matrix\": {\"hosts\": []}}",
		 "--pairs ring: 0 ordered pairs in 2 rounds of disjoint pairs, one at a time "
		 "(--concurrency 8)"},
	};

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct json_object *d = json_tokener_parse(docs[i][0]);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(d);
		bc_matrix_report_text(f, d);
		fclose(f);
		assert_non_null(strstr(buf, docs[i][1]));
		free(buf);
		json_object_put(d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all),	   cmocka_unit_test(test_ring),
		cmocka_unit_test(test_random),	   cmocka_unit_test(test_bisection),
		cmocka_unit_test(test_errors),	   cmocka_unit_test(test_estimate_1000),
		cmocka_unit_test(test_plan_json),  cmocka_unit_test(test_report_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
