// SPDX-License-Identifier: GPL-2.0-or-later
/* Receiver bookkeeping on synthetic arrival sequences with hand-computed results. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bondcheck/seqwin.h"

static void feed(struct bc_seqwin *w, const uint64_t *seq, size_t n)
{
	for (size_t i = 0; i < n; i++)
		bc_seqwin_add(w, seq[i], 1000 * seq[i], 1000 * seq[i] + 500, 100);
}

static void init(struct bc_seqwin *w, uint64_t first, uint32_t window, uint32_t extw)
{
	struct bc_seqwin_cfg cfg;

	bc_seqwin_cfg_default(&cfg);
	cfg.first_seq = first;
	cfg.window = window;
	cfg.extent_window = extw;
	assert_int_equal(bc_seqwin_init(w, &cfg, NULL), 0);
}

static void test_in_order_and_loss(void **state)
{
	struct bc_seqwin w;

	(void)state;
	init(&w, 0, 1024, 64);
	for (uint64_t s = 0; s < 100; s++)
		if (s != 10 && (s < 50 || s > 54))
			bc_seqwin_add(&w, s, 0, 0, 1472);
	bc_seqwin_finish(&w);
	assert_int_equal(w.received, 94);
	assert_int_equal(w.bytes, 94 * 1472);
	assert_int_equal(bc_seqwin_lost(&w, 100), 6);
	assert_int_equal(w.reordered, 0);
	assert_int_equal(w.duplicates, 0);
	/* RFC 5236: loss is not displacement */
	assert_int_equal(w.rd.counted, 94);
	bc_seqwin_free(&w);
}

static void test_duplicates(void **state)
{
	static const uint64_t seq[] = {0, 1, 1, 2, 2, 2, 3};
	struct bc_seqwin w;

	(void)state;
	init(&w, 0, 64, 16);
	assert_int_equal(bc_seqwin_add(&w, 0, 0, 0, 1), BC_SEQ_IN_ORDER);
	assert_int_equal(bc_seqwin_add(&w, 0, 0, 0, 1), BC_SEQ_DUPLICATE);
	feed(&w, seq + 1, 6);
	assert_int_equal(w.received, 4);
	assert_int_equal(w.duplicates, 4);
	assert_int_equal(w.reordered, 0);
	assert_int_equal(bc_seqwin_lost(&w, 4), 0);
	bc_seqwin_free(&w);
}

static void test_single_swap(void **state)
{
	static const uint64_t seq[] = {0, 1, 3, 2, 4, 5};
	struct bc_seqwin w;

	(void)state;
	init(&w, 0, 64, 16);
	feed(&w, seq, 6);
	bc_seqwin_finish(&w);
	assert_int_equal(w.received, 6);
	assert_int_equal(w.reordered, 1);
	assert_int_equal(w.extent_max, 1);
	assert_int_equal(w.nreord[0], 1);
	assert_int_equal(w.nreord[1], 0);
	/* RFC 5236: 3 is one early, 2 one late */
	assert_int_equal(bc_rd_count(&w.rd, 0), 4);
	assert_int_equal(bc_rd_count(&w.rd, -1), 1);
	assert_int_equal(bc_rd_count(&w.rd, 1), 1);
	assert_int_equal(bc_seqwin_lost(&w, 6), 0);
	bc_seqwin_free(&w);
}

static void test_extent_and_nreordering(void **state)
{
	/* 4,5,6 overtaken by 7,8,9: extents 3,4,5; only 4 is 1-, 2- and 3-reordered */
	static const uint64_t seq[] = {0, 1, 2, 3, 7, 8, 9, 4, 5, 6};
	static const uint64_t seq2[] = {0, 4, 1, 2, 3, 5};
	struct bc_seqwin w;

	(void)state;
	init(&w, 0, 64, 16);
	feed(&w, seq, 10);
	assert_int_equal(w.reordered, 3);
	assert_int_equal(w.extent_max, 5);
	assert_int_equal(bc_seqwin_extent_pct(&w, 50), 4);
	assert_int_equal(bc_seqwin_extent_pct(&w, 99), 5);
	assert_int_equal(w.nreord[0], 1);
	assert_int_equal(w.nreord[1], 1);
	assert_int_equal(w.nreord[2], 1);
	bc_seqwin_free(&w);

	/* 1,2,3 overtaken by 4: extents 1,2,3; 2 follows 1 so it is not 1-reordered */
	init(&w, 0, 64, 16);
	feed(&w, seq2, 6);
	assert_int_equal(w.reordered, 3);
	assert_int_equal(w.extent_max, 3);
	assert_int_equal(bc_seqwin_extent_pct(&w, 50), 2);
	assert_int_equal(w.nreord[0], 1);
	assert_int_equal(w.nreord[1], 0);
	bc_seqwin_free(&w);
}

static void test_extent_truncated(void **state)
{
	struct bc_seqwin w;

	(void)state;
	init(&w, 0, 64, 16);
	bc_seqwin_add(&w, 0, 0, 0, 1);
	for (uint64_t s = 2; s <= 30; s++)
		bc_seqwin_add(&w, s, 0, 0, 1);
	/* 1 was overtaken by 2 (position 1), which the 16-entry ring forgot */
	assert_int_equal(bc_seqwin_add(&w, 1, 0, 0, 1), BC_SEQ_REORDERED);
	assert_int_equal(w.extent_truncated, 1);
	assert_true(w.extent_max < 29);
	bc_seqwin_free(&w);
}

static void test_gap_larger_than_window(void **state)
{
	struct bc_seqwin w;

	(void)state;
	init(&w, 0, 64, 16);
	for (uint64_t s = 0; s < 10; s++)
		bc_seqwin_add(&w, s, 0, 0, 1);
	for (uint64_t s = 200; s < 210; s++)
		bc_seqwin_add(&w, s, 0, 0, 1);
	assert_int_equal(w.base, 209 - 63);
	/* 5 is below the window: a duplicate or a very late first copy, unknowable */
	assert_int_equal(bc_seqwin_add(&w, 5, 0, 0, 1), BC_SEQ_LATE);
	/* 150 is inside the window and new: reordered, not lost */
	assert_int_equal(bc_seqwin_add(&w, 150, 0, 0, 1), BC_SEQ_REORDERED);
	assert_int_equal(w.received, 21);
	assert_int_equal(w.late, 1);
	assert_int_equal(bc_seqwin_lost(&w, 210), 189);
	assert_int_equal(bc_seqwin_expected(&w), 210);
	bc_seqwin_free(&w);
}

static void test_beyond_2_32(void **state)
{
	const uint64_t f = (1ull << 32) - 3;
	struct bc_seqwin w;

	(void)state;
	init(&w, f, 64, 16);
	/* f .. f+9 with f+3 (= 2^32) and f+2 swapped, f+6 lost */
	bc_seqwin_add(&w, f, 0, 0, 1);
	bc_seqwin_add(&w, f + 1, 0, 0, 1);
	bc_seqwin_add(&w, f + 3, 0, 0, 1);
	assert_int_equal(bc_seqwin_add(&w, f + 2, 0, 0, 1), BC_SEQ_REORDERED);
	for (uint64_t s = f + 4; s < f + 10; s++)
		if (s != f + 6)
			bc_seqwin_add(&w, s, 0, 0, 1);
	assert_int_equal(w.received, 9);
	assert_int_equal(w.reordered, 1);
	assert_int_equal(bc_seqwin_lost(&w, 10), 1);
	assert_true(w.next_exp == f + 10);
	/* 5 shares a bitmap slot with 2^32 + 5 but is a different, ancient number */
	assert_int_equal(bc_seqwin_add(&w, 5, 0, 0, 1), BC_SEQ_LATE);
	assert_int_equal(bc_seqwin_add(&w, (1ull << 32) + 5, 0, 0, 1), BC_SEQ_DUPLICATE);
	bc_seqwin_free(&w);
}

static void test_jitter_hand_computed(void **state)
{
	/* transits 10000, 10500, 10000, 10600 ns -> |D| = 500, 500, 600
	 * J = 500/16 = 31.25; + (500 - 31.25)/16 = 60.546875;
	 * + (600 - 60.546875)/16 = 94.2626953125 */
	static const uint64_t snd[] = {0, 1000, 2000, 3000};
	static const uint64_t rcv[] = {10000, 11500, 12000, 13600};
	struct bc_seqwin w;

	(void)state;
	init(&w, 0, 64, 16);
	for (int i = 0; i < 4; i++)
		bc_seqwin_add(&w, (uint64_t)i, snd[i], rcv[i], 1);
	assert_true(w.jitter_ns > 94.2626953 && w.jitter_ns < 94.2626954);
	assert_int_equal(w.owd_min_ns, 10000);
	assert_int_equal(w.owd_max_ns, 10600);
	/* a duplicate does not feed the jitter */
	bc_seqwin_add(&w, 3, 3000, 99999, 1);
	assert_true(w.jitter_ns > 94.2626953 && w.jitter_ns < 94.2626954);
	bc_seqwin_free(&w);
}

static void test_reorder_density_threshold(void **state)
{
	/* DT 2: 1 arrives 4 positions late, beyond DT -> treated as lost */
	static const uint64_t seq[] = {0, 2, 3, 4, 5, 1, 6};
	struct bc_rd rd;

	(void)state;
	assert_int_equal(bc_rd_init(&rd, 2, 0, NULL), 0);
	for (int i = 0; i < 7; i++)
		bc_rd_add(&rd, seq[i]);
	bc_rd_flush(&rd);
	assert_int_equal(rd.counted, 6);
	assert_int_equal(rd.discarded, 1);
	assert_int_equal(bc_rd_count(&rd, 0), 6);
	bc_rd_free(&rd);
	assert_int_equal(bc_rd_init(&rd, 64, 0, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order_and_loss),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_single_swap),
		cmocka_unit_test(test_extent_and_nreordering),
		cmocka_unit_test(test_extent_truncated),
		cmocka_unit_test(test_gap_larger_than_window),
		cmocka_unit_test(test_beyond_2_32),
		cmocka_unit_test(test_jitter_hand_computed),
		cmocka_unit_test(test_reorder_density_threshold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
