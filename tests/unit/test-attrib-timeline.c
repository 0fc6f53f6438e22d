// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The per-link timeline of the attribution (analyze/attrib-timeline.c):
 * crafted frames fed to bc_attrib_add_packet() at chosen times, bins
 * computed by hand; wider bins for long captures; the result independent of
 * the order frames come in; the JSON members.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bondcheck/analyze-report.h"
#include "bondcheck/attrib.h"
#include "bondcheck/json-get.h"
#include "bondcheck/packet.h"

#define MS 1000000ull
#define S  1000000000ull

/* A UDP datagram of ours, 100 payload bytes: 142-byte frame, 166 wire bytes. */
static int frame(uint8_t from, uint8_t to, uint64_t seq, uint8_t *buf)
{
	struct bc_udphdr h = {.stream_id = 0, .test_id = 9, .seq = seq, .send_ns = seq};
	struct bc_pkt_spec s = {.ip_version = 4,
				.proto = 17,
				.sport = 40000,
				.dport = 5201,
				.ip_id = (uint32_t)seq,
				.payload_len = 100,
				.ours = &h};

	s.src[0] = 10, s.src[3] = from;
	s.dst[0] = 10, s.dst[3] = to;
	return bc_pkt_build(&s, buf, 256);
}

static void put(struct bc_attrib *a, int link, uint64_t ts, uint8_t from, uint8_t to,
		uint64_t seq)
{
	uint8_t buf[256];
	int len = frame(from, to, seq, buf);

	assert_int_equal(len, 142);
	assert_int_equal(bc_attrib_add_packet(a, link, ts, buf, (uint32_t)len, (uint32_t)len), 0);
}

static void init(struct bc_attrib *a, uint64_t bin_ns)
{
	struct bc_attrib_cfg cfg;
	struct bc_error err = {0};

	bc_attrib_cfg_default(&cfg);
	cfg.bin_ns = bin_ns;
	cfg.have_local = true;
	cfg.local_version = 4;
	cfg.local[0] = 10, cfg.local[3] = 1;
	assert_int_equal(bc_attrib_init(a, &cfg, &err), 0);
}

static uint64_t sum(const uint64_t *v, size_t n)
{
	uint64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s;
}

static void assert_u64s(const uint64_t *got, const uint64_t *want, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (got[i] != want[i])
			fail_msg("bin %zu: got %llu, expected %llu", i, (unsigned long long)got[i],
				 (unsigned long long)want[i]);
	}
}

/*
 * 100 ms bins.  tx:eth0 sends at 5.020, 5.080, 5.130 and 5.410 s and gets
 * one reverse datagram at 5.150; rx:eth0 receives each 1 ms later.  A
 * foreign pair at 6.5 s and an ARP frame at 5.9 s are not counted and do
 * not stretch the timeline: bins 5.0..5.4 s, i.e. start 5 s, 5 bins.
 */
static void test_bins_by_hand(void **state)
{
	static const uint64_t tx_f[5] = {2, 1, 0, 0, 1}, tx_b[5] = {332, 166, 0, 0, 166};
	static const uint64_t tx_rf[5] = {0, 1, 0, 0, 0}, rx_f[5] = {2, 1, 0, 0, 1};
	static const uint64_t t[4] = {5020 * MS, 5080 * MS, 5130 * MS, 5410 * MS};
	uint8_t arp[60] = {[12] = 0x08, [13] = 0x06};
	struct bc_error err = {0};
	struct json_object *j, *tl, *l0, *l1;
	struct bc_attrib a;
	int tx, rx;

	(void)state;
	init(&a, 100 * MS);
	tx = bc_attrib_add_link(&a, BC_SIDE_TX, "a/eth0", &err);
	rx = bc_attrib_add_link(&a, BC_SIDE_RX, "b/eth0", &err);
	for (int i = 0; i < 4; i++)
		put(&a, tx, t[i], 1, 2, (uint64_t)i);
	put(&a, tx, 5150 * MS, 2, 1, 0);
	put(&a, tx, 6500 * MS, 7, 8, 0);
	assert_int_equal(bc_attrib_add_packet(&a, tx, 5900 * MS, arp, 60, 60), 0);
	for (int i = 0; i < 4; i++)
		put(&a, rx, t[i] + MS, 1, 2, (uint64_t)i);
	assert_int_equal(bc_attrib_finish(&a, &err), 0);

	assert_int_equal(a.timeline.bin_ns, 100 * MS);
	assert_int_equal(a.timeline.start_ns, 5 * S);
	assert_int_equal(a.timeline.n_bins, 5);
	assert_u64s(bc_attrib_tl_frames(&a, tx, BC_DIR_FWD), tx_f, 5);
	assert_u64s(bc_attrib_tl_wire_bytes(&a, tx, BC_DIR_FWD), tx_b, 5);
	assert_u64s(bc_attrib_tl_frames(&a, tx, BC_DIR_REV), tx_rf, 5);
	assert_int_equal(bc_attrib_tl_wire_bytes(&a, tx, BC_DIR_REV)[1], 166);
	assert_u64s(bc_attrib_tl_frames(&a, rx, BC_DIR_FWD), rx_f, 5);
	assert_int_equal(sum(bc_attrib_tl_frames(&a, rx, BC_DIR_REV), 5), 0);
	/* the bins add up to the link's counters */
	assert_int_equal(sum(bc_attrib_tl_wire_bytes(&a, tx, BC_DIR_FWD), 5),
			 a.links[tx].dir[BC_DIR_FWD].wire_bytes);
	assert_int_equal(a.links[tx].foreign, 1);
	assert_int_equal(a.links[tx].other_frames, 1);

	/* JSON: timeline{bin_ns, start_ns, links[{name, side, frames, wire_bytes, reverse_*}]} */
	j = bc_analyze_json(&a);
	tl = json_object_object_get(j, "timeline");
	assert_int_equal(bc_json_i64(tl, "bin_ns", -1), 100 * MS);
	assert_int_equal(bc_json_i64(tl, "start_ns", -1), 5 * S);
	l0 = json_object_array_get_idx(json_object_object_get(tl, "links"), 0);
	l1 = json_object_array_get_idx(json_object_object_get(tl, "links"), 1);
	assert_string_equal(bc_json_str(l0, "name"), "tx:a/eth0");
	assert_string_equal(bc_json_str(l0, "side"), "tx");
	assert_string_equal(bc_json_str(l1, "side"), "rx");
	assert_int_equal(bc_json_len(json_object_object_get(l0, "frames")), 5);
	assert_int_equal(json_object_get_int64(json_object_array_get_idx(
				 json_object_object_get(l0, "wire_bytes"), 0)),
			 332);
	assert_int_equal(json_object_get_int64(json_object_array_get_idx(
				 json_object_object_get(l0, "reverse_frames"), 1)),
			 1);
	assert_int_equal(json_object_get_int64(json_object_array_get_idx(
				 json_object_object_get(l1, "frames"), 4)),
			 1);
	json_object_put(j);
	bc_attrib_free(&a);
}

/*
 * 1000 s of one datagram a second plus one at 999.95 s: 10 000 bins of
 * 100 ms, 5000 of 200 ms, 2500 of 400 ms: the width is 400 ms.  Datagram k
 * falls in bin floor(k / 0.4); the extra one in bin 2499.  Fed in time
 * order, in reverse, and from two links read one after the other (the later
 * one starting earlier), the result is the same.
 */
static void check_long(const struct bc_attrib *a, size_t link)
{
	const uint64_t *f = bc_attrib_tl_frames(a, link, BC_DIR_FWD);

	assert_int_equal(a->timeline.bin_ns, 400 * MS);
	assert_int_equal(a->timeline.start_ns, 0);
	assert_int_equal(a->timeline.n_bins, 2500);
	assert_int_equal(f[0], 1);
	assert_int_equal(f[1], 0);
	assert_int_equal(f[2], 1); /* 1 s */
	assert_int_equal(f[5], 1); /* 2 s */
	assert_int_equal(f[2497], 1); /* 999 s */
	assert_int_equal(f[2499], 1); /* 999.95 s */
	assert_int_equal(sum(f, 2500), 1001);
}

static void test_wider_bins(void **state)
{
	struct bc_error err = {0};
	struct bc_attrib a, b, c;
	int l, m;

	(void)state;
	init(&a, 100 * MS);
	l = bc_attrib_add_link(&a, BC_SIDE_RX, "eth0", &err);
	for (uint64_t k = 0; k < 1000; k++)
		put(&a, l, k * S, 1, 2, k);
	put(&a, l, 999950 * MS, 1, 2, 1000);
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	check_long(&a, (size_t)l);

	init(&b, 100 * MS);
	l = bc_attrib_add_link(&b, BC_SIDE_RX, "eth0", &err);
	put(&b, l, 999950 * MS, 1, 2, 1000);
	for (uint64_t k = 1000; k-- > 0;)
		put(&b, l, k * S, 1, 2, k);
	assert_int_equal(bc_attrib_finish(&b, &err), 0);
	check_long(&b, (size_t)l);
	assert_memory_equal(a.timeline.wire_bytes, b.timeline.wire_bytes, 2 * 2500 * 8);

	/* eth0 carries 500..999 s and is read first; eth1 carries 0..499 s */
	init(&c, 100 * MS);
	l = bc_attrib_add_link(&c, BC_SIDE_RX, "eth0", &err);
	m = bc_attrib_add_link(&c, BC_SIDE_RX, "eth1", &err);
	for (uint64_t k = 500; k < 1000; k++)
		put(&c, l, k * S, 1, 2, k);
	put(&c, l, 999950 * MS, 1, 2, 1000);
	for (uint64_t k = 0; k < 500; k++)
		put(&c, m, k * S, 1, 2, k);
	assert_int_equal(bc_attrib_finish(&c, &err), 0);
	assert_int_equal(c.timeline.bin_ns, 400 * MS);
	assert_int_equal(c.timeline.n_bins, 2500);
	for (size_t i = 0; i < 2500; i++)
		assert_int_equal(bc_attrib_tl_frames(&c, (size_t)l, BC_DIR_FWD)[i] +
					 bc_attrib_tl_frames(&c, (size_t)m, BC_DIR_FWD)[i],
				 bc_attrib_tl_frames(&a, 0, BC_DIR_FWD)[i]);
	assert_int_equal(bc_attrib_tl_frames(&c, (size_t)m, BC_DIR_FWD)[1247], 1); /* 499 s */
	assert_int_equal(bc_attrib_tl_frames(&c, (size_t)l, BC_DIR_FWD)[1250], 1); /* 500 s */
	assert_int_equal(sum(bc_attrib_tl_frames(&c, (size_t)l, BC_DIR_FWD), 2500), 501);
	bc_attrib_free(&a);
	bc_attrib_free(&b);
	bc_attrib_free(&c);
}

/*
 * Failover's 10 ms bins: 2000 datagrams/s (one per 0.5 ms) on eth0 from
 * 1.000 s to 1.4995 s, none for 150 ms, then on eth1 from 1.650 s to
 * 1.9995 s.  eth0: 50 bins of 20, eth1: 35 bins of 20 after 15 empty ones.
 */
static void test_failover_bins(void **state)
{
	struct bc_error err = {0};
	struct bc_attrib a;
	const uint64_t *f0, *f1;
	uint64_t seq = 0;
	int l0, l1;

	(void)state;
	init(&a, 10 * MS);
	l0 = bc_attrib_add_link(&a, BC_SIDE_RX, "eth0", &err);
	l1 = bc_attrib_add_link(&a, BC_SIDE_RX, "eth1", &err);
	for (uint64_t t = 1000 * MS; t < 1500 * MS; t += MS / 2)
		put(&a, l0, t, 1, 2, seq++);
	for (uint64_t t = 1650 * MS; t < 2000 * MS; t += MS / 2)
		put(&a, l1, t, 1, 2, seq++);
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	assert_int_equal(a.timeline.bin_ns, 10 * MS);
	assert_int_equal(a.timeline.start_ns, 1 * S);
	assert_int_equal(a.timeline.n_bins, 100);
	f0 = bc_attrib_tl_frames(&a, (size_t)l0, BC_DIR_FWD);
	f1 = bc_attrib_tl_frames(&a, (size_t)l1, BC_DIR_FWD);
	for (size_t i = 0; i < 100; i++) {
		assert_int_equal(f0[i], i < 50 ? 20 : 0);
		assert_int_equal(f1[i], i >= 65 ? 20 : 0);
	}
	bc_attrib_free(&a);
}

/* bin_ns 0 turns the timeline off: no bins, JSON "timeline": null. */
static void test_disabled(void **state)
{
	struct bc_error err = {0};
	struct json_object *j, *tl = NULL;
	struct bc_attrib a;
	int l;

	(void)state;
	init(&a, 0);
	l = bc_attrib_add_link(&a, BC_SIDE_RX, "eth0", &err);
	put(&a, l, S, 1, 2, 0);
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	assert_int_equal(a.timeline.n_bins, 0);
	assert_null(a.timeline.frames);
	assert_int_equal(a.links[l].dir[BC_DIR_FWD].frames, 1);
	j = bc_analyze_json(&a);
	assert_true(json_object_object_get_ex(j, "timeline", &tl));
	assert_null(tl);
	json_object_put(j);
	bc_attrib_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bins_by_hand),
		cmocka_unit_test(test_wider_bins),
		cmocka_unit_test(test_failover_bins),
		cmocka_unit_test(test_disabled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
