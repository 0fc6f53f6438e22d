// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Attribution (analyze/attrib*.c) on synthetic per-slave pcaps written with
 * pcap_open_dead + pcap_dump: known striping, loss and reordering, exact
 * counts asserted.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bondcheck/analyze-report.h"
#include "bondcheck/attrib.h"
#include "bondcheck/findings.h"
#include "bondcheck/packet.h"

#define N  1000
#define US 1000ull

static char dir[64];

struct cap {
	pcap_t *p;
	pcap_dumper_t *d;
	char path[128];
};

static void cap_open(struct cap *c, const char *name)
{
	c->p = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_NANO);
	snprintf(c->path, sizeof(c->path), "%s/%s.pcap", dir, name);
	c->d = pcap_dump_open(c->p, c->path);
	assert_non_null(c->d);
}

static void cap_put(struct cap *c, uint64_t ts, const uint8_t *b, int len, uint32_t caplen)
{
	struct pcap_pkthdr h = {.caplen = caplen && caplen < (uint32_t)len ? caplen : (uint32_t)len,
				.len = (uint32_t)len};

	h.ts.tv_sec = (time_t)(ts / 1000000000ull);
	h.ts.tv_usec = (suseconds_t)(ts % 1000000000ull);
	pcap_dump((u_char *)c->d, &h, b);
}

static void cap_close(struct cap *c)
{
	pcap_dump_close(c->d);
	pcap_close(c->p);
}

static int udp_frame_vlan(uint64_t seq, uint16_t vlan_id, uint8_t *buf);

static int udp_frame(uint64_t seq, uint8_t *buf)
{
	return udp_frame_vlan(seq, 0, buf);
}

/* Our UDP datagram @seq, 10.0.0.1 -> 10.0.0.2, in an 802.1Q tag @vlan_id (0: none). */
static int udp_frame_vlan(uint64_t seq, uint16_t vlan_id, uint8_t *buf)
{
	struct bc_udphdr h = {.stream_id = 0, .test_id = 42, .seq = seq, .send_ns = seq * 10 * US};
	struct bc_pkt_spec s = {.ip_version = 4,
				.proto = 17,
				.sport = 40000,
				.dport = 5201,
				.ip_id = (uint32_t)seq,
				.payload_len = 100,
				.vlan_id = vlan_id,
				.ours = &h};

	s.src[0] = 10, s.src[3] = 1;
	s.dst[0] = 10, s.dst[3] = 2;
	return bc_pkt_build(&s, buf, 2048);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/bc-attrib-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return getenv("KEEP") ? 0 : system(cmd) ? -1 : 0;
}

static const struct bc_finding *find(const struct bc_attrib *a, const char *id)
{
	for (size_t i = 0; i < a->n_findings; i++)
		if (!strcmp(a->findings[i].id, id))
			return &a->findings[i];
	return NULL;
}

/*
 * 1000 datagrams striped round-robin over 3 links (seq % 3); on eth1 every
 * 20th datagram (k % 20 == 19 of its 333) is lost on the wire: 16; on eth2,
 * 20 datagrams (seq = 3j + 2, j = 10, 20, ..., 200) arrive after the next 2
 * (s+1 on eth0, s+2 on eth1), still before s+3 on their own link (a link
 * keeps its own order).
 */
static void test_striped_loss_reorder(void **state)
{
	const char *names[3] = {"eth0", "eth1", "eth2"};
	struct cap tx[3], rx[3];
	struct bc_attrib_cfg cfg;
	struct bc_error err = {0};
	struct bc_attrib a;
	const struct bc_finding *f;
	uint8_t buf[2048];
	int link[6];

	(void)state;
	for (int l = 0; l < 3; l++) {
		char n[16];

		snprintf(n, sizeof(n), "tx-%s", names[l]);
		cap_open(&tx[l], n);
		snprintf(n, sizeof(n), "rx-%s", names[l]);
		cap_open(&rx[l], n);
	}
	for (uint64_t s = 0; s < N; s++) {
		int l = (int)(s % 3), len = udp_frame(s, buf);
		uint64_t t = s * 10 * US, arr = t + 50 * US;
		uint64_t j = (s - 2) / 3;

		cap_put(&tx[l], t, buf, len, 96);
		if (l == 1 && (s / 3) % 20 == 19)
			continue; /* lost on the wire */
		if (l == 2 && j % 10 == 0 && j >= 10 && j <= 200)
			arr += 25 * US; /* after s+2 (at +70 us), before s+3 (+80) */
		cap_put(&rx[l], arr, buf, len, 96);
	}
	for (int l = 0; l < 3; l++) {
		cap_close(&tx[l]);
		cap_close(&rx[l]);
	}
	bc_attrib_cfg_default(&cfg);
	cfg.late_threshold = 2; /* the finding for 2-reordered datagrams */
	assert_int_equal(bc_attrib_init(&a, &cfg, &err), 0);
	for (int l = 0; l < 3; l++) {
		link[l] = bc_attrib_add_link(&a, BC_SIDE_TX, names[l], &err);
		assert_int_equal(bc_attrib_read_pcap(&a, link[l], tx[l].path, &err), 0);
	}
	for (int l = 0; l < 3; l++) {
		link[3 + l] = bc_attrib_add_link(&a, BC_SIDE_RX, names[l], &err);
		assert_int_equal(bc_attrib_read_pcap(&a, link[3 + l], rx[l].path, &err), 0);
	}
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	assert_true(a.local_inferred);
	assert_string_equal(a.links[0].name, "tx:eth0");
	assert_string_equal(a.links[4].name, "rx:eth1");
	assert_int_equal(a.links[0].dir[BC_DIR_FWD].frames, 334);
	assert_int_equal(a.links[1].dir[BC_DIR_FWD].frames, 333);
	assert_int_equal(a.links[4].dir[BC_DIR_FWD].frames, 317);
	/* bytes from the original length (142), never the 96-byte snap */
	assert_int_equal(a.links[0].dir[BC_DIR_FWD].bytes, 334 * 142);
	assert_int_equal(a.links[0].dir[BC_DIR_FWD].wire_bytes, 334 * (142 + 24));
	assert_int_equal(a.links[0].dir[BC_DIR_FWD].flows, 1);
	/* paths learned: eth_i -> eth_i */
	for (int l = 0; l < 3; l++) {
		assert_int_equal(a.links[l].peer, 3 + l);
		assert_int_equal(a.links[3 + l].peer, l);
	}
	assert_int_equal(a.path[1][4], 317);
	assert_int_equal(a.path[2][5], 333);
	assert_int_equal(a.path[0][4], 0);
	/* per-path loss: 16 on tx:eth1 only */
	assert_int_equal(a.links[0].lost, 0);
	assert_int_equal(a.links[1].lost, 16);
	assert_int_equal(a.links[2].lost, 0);
	assert_int_equal(a.n_streams, 1);
	assert_int_equal(a.streams[0].left, 1000);
	assert_int_equal(a.streams[0].arrived, 984);
	assert_int_equal(a.streams[0].lost, 16);
	/* reordering: 20 late on rx:eth2, each behind seq+1 on rx:eth0 */
	assert_int_equal(a.rx_received, 984);
	assert_int_equal(a.rx_reordered, 20);
	assert_int_equal(a.pairs[3][5], 20);
	for (int e = 0; e < 6; e++)
		for (int l = 0; l < 6; l++)
			if (e != 3 || l != 5)
				assert_int_equal(a.pairs[e][l], 0);
	assert_int_equal(a.pair_extent_max[3][5], 2);
	assert_int_equal(a.streams[0].win.nreord[1], 20);
	assert_int_equal(a.streams[0].win.nreord[2], 0);
	assert_int_equal(bc_rd_count(&a.streams[0].win.rd, 2), 20);
	/* per-pair RFC 5236 density: the 20 late ones, each D = 2 */
	assert_int_equal(bc_attrib_pair_rd(&a, 3, 5, 2), 20);
	assert_int_equal(bc_attrib_pair_rd(&a, 3, 5, 1) + bc_attrib_pair_rd(&a, 3, 5, 3), 0);
	assert_int_equal(bc_attrib_pair_rd_discarded(&a, 3, 5), 0);
	assert_int_equal(a.n_tcp_flows, 0);
	f = find(&a, "wire-loss");
	assert_non_null(f);
	assert_string_equal(f->subject, "tx:eth1");
	assert_string_equal(f->evidence[0].value, "10.0.0.1");
	f = find(&a, "reordering");
	assert_non_null(f);
	assert_string_equal(f->subject, "rx:eth2");
	assert_null(find(&a, "link-idle")); /* one flow for three links: expected idle */
	assert_null(find(&a, "capture-incomplete"));
	assert_int_equal(a.skew_units, 0);
	bc_attrib_free(&a);
}

/*
 * The two unit stores of the merge (attrib-merge.c): a stream with dense sequence
 * numbers keeps its units in an array indexed by seq, a sparse one (span over
 * twice its records + 16) in the hash table.  300 datagrams, seq = k x @stride,
 * striped over 3 links; every 10th of eth1's 100 lost (10); datagram k = 151
 * captured twice on rx:eth1 (a duplicate).  Both strides must attribute alike.
 */
static void sparse_case(uint64_t stride)
{
	const char *names[3] = {"eth0", "eth1", "eth2"};
	struct cap tx[3], rx[3];
	struct bc_attrib_cfg cfg;
	struct bc_error err = {0};
	struct bc_attrib a;
	uint8_t buf[2048];

	for (int l = 0; l < 3; l++) {
		char n[32];

		snprintf(n, sizeof(n), "sp%llu-tx-%s", (unsigned long long)stride, names[l]);
		cap_open(&tx[l], n);
		snprintf(n, sizeof(n), "sp%llu-rx-%s", (unsigned long long)stride, names[l]);
		cap_open(&rx[l], n);
	}
	for (uint64_t k = 0; k < 300; k++) {
		int l = (int)(k % 3), len = udp_frame(k * stride, buf);
		uint64_t t = k * 10 * US;

		cap_put(&tx[l], t, buf, len, 96);
		if (l == 1 && (k / 3) % 10 == 9)
			continue;
		cap_put(&rx[l], t + 50 * US, buf, len, 96);
		if (k == 151)
			cap_put(&rx[l], t + 51 * US, buf, len, 96);
	}
	for (int l = 0; l < 3; l++) {
		cap_close(&tx[l]);
		cap_close(&rx[l]);
	}
	bc_attrib_cfg_default(&cfg);
	assert_int_equal(bc_attrib_init(&a, &cfg, &err), 0);
	for (int l = 0; l < 3; l++) {
		int i = bc_attrib_add_link(&a, BC_SIDE_TX, names[l], &err);

		assert_int_equal(bc_attrib_read_pcap(&a, i, tx[l].path, &err), 0);
	}
	for (int l = 0; l < 3; l++) {
		int i = bc_attrib_add_link(&a, BC_SIDE_RX, names[l], &err);

		assert_int_equal(bc_attrib_read_pcap(&a, i, rx[l].path, &err), 0);
	}
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	assert_int_equal(a.n_streams, 1);
	assert_int_equal(a.streams[0].left, 300);
	assert_int_equal(a.streams[0].arrived, 290);
	assert_int_equal(a.streams[0].lost, 10);
	assert_int_equal(a.streams[0].duplicates, 1);
	assert_int_equal(a.links[1].lost, 10);
	assert_int_equal(a.links[0].lost + a.links[2].lost, 0);
	assert_int_equal(a.links[1].units_left, 100);
	assert_int_equal(a.links[4].units_arrived, 90);
	for (int l = 0; l < 3; l++)
		assert_int_equal(a.links[l].peer, 3 + l);
	assert_int_equal(a.path[0][3], 100);
	assert_int_equal(a.path[1][4], 90);
	assert_int_equal(a.path[2][5], 100);
	assert_int_equal(a.path[0][4] + a.path[1][3] + a.path[2][3], 0);
	assert_int_equal(a.rx_without_tx, 0);
	bc_attrib_free(&a);
}

static void test_sparse_seq(void **state)
{
	(void)state;
	sparse_case(1);	   /* span 300: the array */
	sparse_case(4096); /* span 1.2 M for 600 records: the hash table */
}

/*
 * A capture with more streams than any run makes (a hostile or foreign one):
 * BC_ATTRIB_MAX_STREAMS + 52 streams of 3 datagrams each, interleaved so that
 * every record changes stream.  The first BC_ATTRIB_MAX_STREAMS are tracked
 * with every datagram; the datagrams of the other 52 count as foreign.
 */
static void test_stream_cap(void **state)
{
	const uint32_t n = BC_ATTRIB_MAX_STREAMS + 52;
	struct bc_attrib_cfg cfg;
	struct bc_error err = {0};
	struct bc_attrib a;
	struct cap c;
	uint8_t buf[2048];
	int l;

	(void)state;
	cap_open(&c, "streams");
	for (uint64_t seq = 0; seq < 3; seq++)
		for (uint32_t id = 0; id < n; id++) {
			struct bc_udphdr h = {.stream_id = id, .test_id = 7, .seq = seq};
			struct bc_pkt_spec sp = {.ip_version = 4, .proto = 17, .sport = 40000,
						 .dport = 5201, .payload_len = 64, .ours = &h};
			int len;

			sp.src[0] = 10, sp.src[3] = 1;
			sp.dst[0] = 10, sp.dst[3] = 2;
			len = bc_pkt_build(&sp, buf, sizeof(buf));
			cap_put(&c, (seq * n + id) * US, buf, len, 96);
		}
	cap_close(&c);
	bc_attrib_cfg_default(&cfg);
	assert_int_equal(bc_attrib_init(&a, &cfg, &err), 0);
	l = bc_attrib_add_link(&a, BC_SIDE_RX, "eth0", &err);
	assert_int_equal(bc_attrib_read_pcap(&a, l, c.path, &err), 0);
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	assert_int_equal(a.n_streams, BC_ATTRIB_MAX_STREAMS);
	assert_int_equal(a.links[l].foreign, 3 * 52);
	for (size_t s = 0; s < a.n_streams; s++) {
		assert_int_equal(a.streams[s].stream_id, s);
		assert_int_equal(a.streams[s].arrived, 3);
	}
	assert_int_equal(a.rx_received, 3 * BC_ATTRIB_MAX_STREAMS);
	bc_attrib_free(&a);
}

/*
 * A run over a VLAN on the bond (bond0.100 on both ends): every frame on the
 * slaves carries the 802.1Q tag 100.  300 datagrams striped over 3 links;
 * on eth1 every 10th of its 100 is lost (10); on eth2 the 5 datagrams
 * 3j + 2 (j = 10, 30, ..., 90) arrive behind seq+1 on eth0.  Attribution
 * must be the same as untagged: per link frames and bytes (the tag's 4
 * bytes included), learned paths, per-path loss, reordering pairs.
 */
static void test_vlan_striped(void **state)
{
	const char *names[3] = {"eth0", "eth1", "eth2"};
	struct cap tx[3], rx[3];
	struct bc_attrib_cfg cfg;
	struct bc_error err = {0};
	struct bc_attrib a;
	uint8_t buf[2048];
	int link[6], len = 0;

	(void)state;
	for (int l = 0; l < 3; l++) {
		char n[16];

		snprintf(n, sizeof(n), "vtx-%s", names[l]);
		cap_open(&tx[l], n);
		snprintf(n, sizeof(n), "vrx-%s", names[l]);
		cap_open(&rx[l], n);
	}
	for (uint64_t s = 0; s < 300; s++) {
		int l = (int)(s % 3);
		uint64_t t = s * 10 * US, arr = t + 50 * US, j = (s - 2) / 3;

		len = udp_frame_vlan(s, 100, buf);
		assert_int_equal(buf[12], 0x81);
		cap_put(&tx[l], t, buf, len, 128);
		if (l == 1 && (s / 3) % 10 == 9)
			continue; /* lost on the wire */
		if (l == 2 && j % 20 == 10)
			arr += 25 * US; /* after s+1 (+60 us) and s+2 (+70), before s+3 */
		cap_put(&rx[l], arr, buf, len, 128);
	}
	for (int l = 0; l < 3; l++) {
		cap_close(&tx[l]);
		cap_close(&rx[l]);
	}
	assert_int_equal(len, 146); /* 142 untagged + the 4-byte tag */
	bc_attrib_cfg_default(&cfg);
	cfg.late_threshold = 2;
	assert_int_equal(bc_attrib_init(&a, &cfg, &err), 0);
	for (int l = 0; l < 3; l++) {
		link[l] = bc_attrib_add_link(&a, BC_SIDE_TX, names[l], &err);
		assert_int_equal(bc_attrib_read_pcap(&a, link[l], tx[l].path, &err), 0);
	}
	for (int l = 0; l < 3; l++) {
		link[3 + l] = bc_attrib_add_link(&a, BC_SIDE_RX, names[l], &err);
		assert_int_equal(bc_attrib_read_pcap(&a, link[3 + l], rx[l].path, &err), 0);
	}
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	for (int l = 0; l < 3; l++) {
		assert_int_equal(a.links[l].dir[BC_DIR_FWD].frames, 100);
		assert_int_equal(a.links[l].dir[BC_DIR_FWD].bytes, 100 * 146);
		assert_int_equal(a.links[l].dir[BC_DIR_FWD].wire_bytes, 100 * (146 + 24));
		assert_int_equal(a.links[l].peer, 3 + l);
		assert_int_equal(a.links[3 + l].dir[BC_DIR_FWD].frames, l == 1 ? 90 : 100);
		assert_int_equal(a.links[l].lost, l == 1 ? 10 : 0);
	}
	assert_int_equal(a.path[1][4], 90);
	assert_int_equal(a.path[0][4] + a.path[1][3] + a.path[2][3], 0);
	assert_int_equal(a.n_streams, 1);
	assert_int_equal(a.streams[0].left, 300);
	assert_int_equal(a.streams[0].arrived, 290);
	assert_int_equal(a.rx_reordered, 5);
	assert_int_equal(a.pairs[3][5], 5);
	assert_non_null(find(&a, "wire-loss"));
	assert_string_equal(find(&a, "wire-loss")->subject, "tx:eth1");
	for (int l = 0; l < 6; l++)
		assert_int_equal(a.links[l].other_frames + a.links[l].snapped + a.links[l].malformed,
				 0);
	bc_attrib_free(&a);
}

/*
 * 200 datagrams striped over 2 links; rx:eth1's capture missed 4 of its
 * arrivals (ps_drop 4: the ring was full), nothing was lost on the wire.
 * Each figure must say what it is worth: rx:eth1's counts a lower bound,
 * the capture-derived loss (4, all false) an upper bound, reordering
 * unknown; then the same with only tx:eth0's capture dropping: its counts
 * a lower bound, the loss on it a lower bound, reordering exact.
 */
static void bounds_run(struct bc_attrib *a, int drop_link)
{
	struct bc_attrib_cfg cfg;
	struct bc_error err = {0};
	uint8_t buf[2048];
	int l[4];

	bc_attrib_cfg_default(&cfg);
	assert_int_equal(bc_attrib_init(a, &cfg, &err), 0);
	l[0] = bc_attrib_add_link(a, BC_SIDE_TX, "eth0", &err);
	l[1] = bc_attrib_add_link(a, BC_SIDE_TX, "eth1", &err);
	l[2] = bc_attrib_add_link(a, BC_SIDE_RX, "eth0", &err);
	l[3] = bc_attrib_add_link(a, BC_SIDE_RX, "eth1", &err);
	for (uint64_t s = 0; s < 200; s++) {
		int k = (int)(s % 2), len = udp_frame(s, buf);
		uint64_t t = s * 10 * US;
		/* the ring of drop_link's capture overflowed 4 times */
		bool missed = (s / 2) % 25 == 7 && (drop_link == l[k] || drop_link == l[2 + k]);

		if (!(missed && drop_link == l[k]))
			assert_int_equal(bc_attrib_add_packet(a, l[k], t, buf, (uint32_t)len,
							      (uint32_t)len),
					 0);
		if (!(missed && drop_link == l[2 + k]))
			assert_int_equal(bc_attrib_add_packet(a, l[2 + k], t + 50 * US, buf,
							      (uint32_t)len, (uint32_t)len),
					 0);
	}
	a->links[drop_link].ps_drop = 4;
	assert_int_equal(bc_attrib_finish(a, &err), 0);
}

static const char *jstr(struct json_object *o, const char *k1, int i, const char *k2,
			const char *k3)
{
	o = json_object_object_get(o, k1);
	if (i >= 0)
		o = json_object_array_get_idx(o, (size_t)i);
	if (k2)
		o = json_object_object_get(o, k2);
	if (k3)
		o = json_object_object_get(o, k3);
	return o ? json_object_get_string(o) : "(none)";
}

static void test_capture_bounds(void **state)
{
	struct bc_attrib a;
	struct json_object *j;

	(void)state;
	bounds_run(&a, 3); /* rx:eth1 dropped */
	assert_int_equal(a.links[3].dir[BC_DIR_FWD].frames, 96);
	assert_int_equal(a.links[1].lost, 4); /* the capture's loss, not the wire's */
	assert_true(bc_attrib_link_incomplete(&a, 3));
	assert_false(bc_attrib_link_incomplete(&a, 1));
	assert_int_equal(bc_attrib_count_bound(&a, 3), BC_BOUND_LOWER);
	assert_int_equal(bc_attrib_count_bound(&a, 2), BC_BOUND_EXACT);
	assert_int_equal(bc_attrib_loss_bound(&a, 1), BC_BOUND_UPPER);
	assert_int_equal(bc_attrib_loss_bound(&a, -1), BC_BOUND_UPPER);
	assert_int_equal(bc_attrib_reorder_bound(&a), BC_BOUND_UNKNOWN);
	assert_non_null(find(&a, "capture-incomplete"));
	assert_string_equal(find(&a, "capture-incomplete")->subject, "rx:eth1");
	j = bc_analyze_json(&a);
	assert_string_equal(jstr(j, "capture_complete", -1, NULL, NULL), "false");
	assert_string_equal(jstr(j, "loss_bound", -1, NULL, NULL), "upper");
	assert_string_equal(jstr(j, "links", 1, "bounds", "lost"), "upper");
	assert_string_equal(jstr(j, "links", 1, "bounds", "counts"), "exact");
	assert_string_equal(jstr(j, "links", 3, "bounds", "counts"), "lower");
	assert_string_equal(jstr(j, "links", 3, "complete", NULL), "false");
	assert_string_equal(jstr(j, "links", 3, "bounds", "lost"), "(none)"); /* rx: no loss */
	assert_string_equal(jstr(j, "streams", 0, "lost_bound", NULL), "upper");
	assert_string_equal(jstr(j, "reordering", -1, "bound", NULL), "unknown");
	json_object_put(j);
	bc_attrib_free(&a);

	bounds_run(&a, 0); /* tx:eth0 dropped */
	assert_int_equal(a.links[0].dir[BC_DIR_FWD].frames, 96);
	assert_int_equal(a.links[0].lost, 0);
	assert_int_equal(a.rx_without_tx, 4);
	assert_int_equal(bc_attrib_count_bound(&a, 0), BC_BOUND_LOWER);
	assert_int_equal(bc_attrib_loss_bound(&a, 0), BC_BOUND_LOWER);
	assert_int_equal(bc_attrib_loss_bound(&a, 1), BC_BOUND_EXACT);
	assert_int_equal(bc_attrib_reorder_bound(&a), BC_BOUND_EXACT);
	j = bc_analyze_json(&a);
	assert_string_equal(jstr(j, "capture_complete", -1, NULL, NULL), "false");
	assert_string_equal(jstr(j, "links", 0, "bounds", "lost"), "lower");
	assert_string_equal(jstr(j, "links", 1, "bounds", "lost"), "exact");
	assert_string_equal(jstr(j, "reordering", -1, "bound", NULL), "exact");
	json_object_put(j);
	bc_attrib_free(&a);

	bounds_run(&a, 2); /* rx:eth0 dropped: no datagram is late, yet unknown */
	assert_int_equal(a.rx_reordered, 0);
	assert_int_equal(bc_attrib_reorder_bound(&a), BC_BOUND_UNKNOWN);
	assert_int_equal(bc_attrib_loss_bound(&a, 1), BC_BOUND_UPPER);
	bc_attrib_free(&a);
}

/* IPv4 fragments: 3 per message over 2 links; a middle fragment lost, a first fragment
 * lost (its message joined through the sender's capture), one too far. */
static void test_fragments(void **state)
{
	struct bc_attrib_cfg cfg;
	struct bc_error err = {0};
	struct bc_attrib a;
	uint8_t buf[2048];
	int t0, t1, r0, r1;
	uint64_t ts = 0;

	(void)state;
	bc_attrib_cfg_default(&cfg);
	cfg.ipfrag_max_dist = 8;
	assert_int_equal(bc_attrib_init(&a, &cfg, &err), 0);
	t0 = bc_attrib_add_link(&a, BC_SIDE_TX, "a/eth0", &err);
	t1 = bc_attrib_add_link(&a, BC_SIDE_TX, "a/eth1", &err);
	r0 = bc_attrib_add_link(&a, BC_SIDE_RX, "b/eth0", &err);
	r1 = bc_attrib_add_link(&a, BC_SIDE_RX, "b/eth1", &err);
	/* 10 messages of 2952 bytes of UDP payload: fragments 1480 + 1480 + 0 */
	for (uint32_t m = 0; m < 10; m++) {
		struct bc_udphdr h = {.test_id = 1, .seq = m};

		for (uint32_t k = 0; k < 3; k++) {
			struct bc_pkt_spec s = {.ip_version = 4,
						.proto = 17,
						.sport = 1,
						.dport = 2,
						.ip_id = 500 + m,
						.frag_off = 1480 * k,
						.more_frags = k < 2,
						.ours = k ? NULL : &h,
						.payload_len = k == 0	? 1472
							       : k == 1 ? 1480
									: 8,
						.udp_total = 2968};
			int len, l = (int)((m + k) % 2);

			s.src[0] = 10, s.src[3] = 1;
			s.dst[0] = 10, s.dst[3] = 2;
			len = bc_pkt_build(&s, buf, sizeof(buf));
			ts += 1000;
			assert_int_equal(bc_attrib_add_packet(&a, l ? t1 : t0, ts, buf,
							      (uint32_t)len, (uint32_t)len),
					 0);
			if ((m == 3 && k == 1) || (m == 7 && k == 0))
				continue; /* lost */
			if (m == 5 && k == 2)
				continue; /* delivered below, after 12 other fragments */
			assert_int_equal(bc_attrib_add_packet(&a, l ? r1 : r0, ts + 100, buf,
							      (uint32_t)len, (uint32_t)len),
					 0);
			if (m == 9 && k == 2) {
				struct bc_pkt_spec s5 = s;

				s5.ip_id = 505;
				s5.more_frags = false;
				len = bc_pkt_build(&s5, buf, sizeof(buf));
				assert_int_equal(bc_attrib_add_packet(&a, r1, ts + 200, buf,
								      (uint32_t)len, (uint32_t)len),
						 0);
			}
		}
	}
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	assert_int_equal(a.frag.fragments[0], 30);
	assert_int_equal(a.frag.fragments[1], 28);
	assert_int_equal(a.frag.messages_rx, 10);
	assert_int_equal(a.frag.incomplete, 2);
	assert_int_equal(a.frag.complete, 8);
	assert_int_equal(a.frag.too_far, 1);
	assert_int_equal(a.frag.too_far_link, r1);
	assert_int_equal(a.frag.joined_late, 1);
	/* message 3 lost its middle fragment on eth0, message 7 its first on eth1; the
	 * other fragments of message 7 arrived (joined late): not counted lost */
	assert_int_equal(a.links[t0].lost, 1);
	assert_int_equal(a.links[t1].lost, 1);
	assert_int_equal(a.links[t0].messages_lost, 1);
	assert_int_equal(a.links[t1].messages_lost, 1);
	assert_int_equal(a.n_streams, 1);
	assert_int_equal(a.streams[0].arrived, 9);
	assert_int_equal(a.streams[0].arrived_partial, 1);
	assert_int_equal(a.streams[0].lost, 1);
	assert_int_equal(a.frag.unjoined[0] + a.frag.unjoined[1], 0);
	assert_null(find(&a, "capture-incomplete"));
	{
		const char *want[] = {"tx:a/eth0", "tx:a/eth1", "rx:b/eth1"};
		size_t n = 0;

		for (size_t i = 0; i < a.n_findings; i++) {
			if (strcmp(a.findings[i].id, "rx-loss-reassembly"))
				continue;
			assert_true(n < 3);
			assert_string_equal(a.findings[i].subject, want[n]);
			n++;
		}
		assert_int_equal(n, 3);
	}
	bc_attrib_free(&a);
}

/* Bad input: truncated file, wrong link type, tiny snap length, clock skew. */
static void test_bad_input(void **state)
{
	struct bc_attrib_cfg cfg;
	struct bc_error err = {0};
	struct bc_attrib a;
	struct cap c;
	uint8_t buf[2048];
	char path[160];
	pcap_t *p;
	pcap_dumper_t *d;
	int l, len;
	FILE *fp;
	long sz;

	(void)state;
	cap_open(&c, "trunc");
	for (uint64_t s = 0; s < 10; s++) {
		len = udp_frame(s, buf);
		cap_put(&c, s * US, buf, len, 0);
	}
	cap_close(&c);
	fp = fopen(c.path, "r+");
	fseek(fp, 0, SEEK_END);
	sz = ftell(fp);
	fclose(fp);
	assert_int_equal(truncate(c.path, sz - 50), 0);
	bc_attrib_cfg_default(&cfg);
	bc_attrib_init(&a, &cfg, &err);
	l = bc_attrib_add_link(&a, BC_SIDE_RX, "eth0", &err);
	assert_int_equal(bc_attrib_read_pcap(&a, l, c.path, &err), 0);
	assert_true(a.links[l].truncated);
	/* a tiny snap length: our header is cut, the file is flagged */
	p = pcap_open_dead(DLT_EN10MB, 60);
	snprintf(path, sizeof(path), "%s/snap.pcap", dir);
	d = pcap_dump_open(p, path);
	len = udp_frame(100, buf);
	{
		struct pcap_pkthdr h = {.caplen = 60, .len = (uint32_t)len};

		pcap_dump((u_char *)d, &h, buf);
	}
	pcap_dump_close(d);
	pcap_close(p);
	l = bc_attrib_add_link(&a, BC_SIDE_RX, "eth1", &err);
	assert_int_equal(bc_attrib_read_pcap(&a, l, path, &err), 0);
	assert_int_equal(a.links[l].snapped, 1);
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	assert_int_equal(a.links[0].dir[BC_DIR_FWD].frames, 9); /* the 10th was cut */
	assert_non_null(find(&a, "capture-incomplete"));
	assert_string_equal(find(&a, "capture-incomplete")->subject, "rx:eth0");
	bc_attrib_free(&a);

	/* a Linux cooked capture (tcpdump -i any) is refused with a clear error */
	p = pcap_open_dead(DLT_LINUX_SLL, 65535);
	snprintf(path, sizeof(path), "%s/sll.pcap", dir);
	d = pcap_dump_open(p, path);
	pcap_dump_close(d);
	pcap_close(p);
	bc_attrib_init(&a, &cfg, &err);
	l = bc_attrib_add_link(&a, BC_SIDE_TX, "eth0", &err);
	assert_int_equal(bc_attrib_read_pcap(&a, l, path, &err), -EPROTONOSUPPORT);
	assert_non_null(strstr(err.msg, "expected EN10MB"));
	err.msg[0] = 0;
	err.code = 0;
	assert_int_equal(bc_attrib_read_pcap(&a, l, "/nonexistent.pcap", &err), -ENOENT);

	/* receiver clock 1 s behind: arrivals before departures are counted */
	for (uint64_t s = 0; s < 5; s++) {
		len = udp_frame(s, buf);
		bc_attrib_add_packet(&a, l, 2000000000ull + s * US, buf, (uint32_t)len,
				     (uint32_t)len);
	}
	l = bc_attrib_add_link(&a, BC_SIDE_RX, "eth0", &err);
	for (uint64_t s = 0; s < 5; s++) {
		len = udp_frame(s, buf);
		bc_attrib_add_packet(&a, l, 1000000000ull + s * US, buf, (uint32_t)len,
				     (uint32_t)len);
	}
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	assert_int_equal(a.skew_units, 5);
	assert_int_equal(a.path[0][1], 5);
	bc_attrib_free(&a);
}

/* value of evidence @key of @f, or NULL */
static const char *ev(const struct bc_finding *f, const char *key)
{
	for (size_t i = 0; i < f->n_evidence; i++)
		if (!strcmp(f->evidence[i].key, key))
			return f->evidence[i].value;
	return NULL;
}

/*
 * Two counting bases (issue 15): 1000 datagrams striped over eth0..eth3
 * (seq % 4), each link in its own order; 15 of eth3's arrive one position
 * late (behind s+1 on eth0), 25 of eth3's three positions late (behind s+1,
 * s+2, s+3), still before s+4 on their own link.  The finding's n_reordered
 * counts the 3-reordered (25), the pairs every late one (40): the top pair
 * (40) is given out of the pairs' total, not beside the 25 alone.
 */
static void test_reorder_pair_within_total(void **state)
{
	const char *names[4] = {"eth0", "eth1", "eth2", "eth3"};
	struct cap tx[4], rx[4];
	struct bc_attrib_cfg cfg;
	struct bc_error err = {0};
	struct bc_attrib a;
	const struct bc_finding *f;
	uint8_t buf[2048];
	int link;

	(void)state;
	for (int l = 0; l < 4; l++) {
		char n[16];

		snprintf(n, sizeof(n), "tx-%s", names[l]);
		cap_open(&tx[l], n);
		snprintf(n, sizeof(n), "rx-%s", names[l]);
		cap_open(&rx[l], n);
	}
	for (uint64_t s = 0; s < N; s++) {
		int l = (int)(s % 4), len = udp_frame(s, buf);
		uint64_t t = s * 10 * US, arr = t + 50 * US;

		cap_put(&tx[l], t, buf, len, 96);
		if (s % 40 == 3 && s < 600)
			arr += 15 * US; /* after s+1 (+60 us), before s+2 (+70) */
		if (s % 40 == 23)
			arr += 35 * US; /* after s+3 (+80 us), before s+4 (+90) */
		cap_put(&rx[l], arr, buf, len, 96);
	}
	for (int l = 0; l < 4; l++) {
		cap_close(&tx[l]);
		cap_close(&rx[l]);
	}
	bc_attrib_cfg_default(&cfg);
	cfg.late_threshold = 3;
	assert_int_equal(bc_attrib_init(&a, &cfg, &err), 0);
	for (int l = 0; l < 4; l++) {
		link = bc_attrib_add_link(&a, BC_SIDE_TX, names[l], &err);
		assert_int_equal(bc_attrib_read_pcap(&a, link, tx[l].path, &err), 0);
	}
	for (int l = 0; l < 4; l++) {
		link = bc_attrib_add_link(&a, BC_SIDE_RX, names[l], &err);
		assert_int_equal(bc_attrib_read_pcap(&a, link, rx[l].path, &err), 0);
	}
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	assert_int_equal(a.rx_reordered, 40);
	assert_int_equal(a.pairs[4][7], 40);
	assert_int_equal(a.streams[0].win.nreord[2], 25);
	f = find(&a, "reordering");
	assert_non_null(f);
	assert_string_equal(f->subject, "rx:eth3");
	assert_string_equal(ev(f, "n_reordered"), "25 packets 3-reordered");
	assert_non_null(ev(f, "n_late"));
	assert_string_equal(ev(f, "n_late"), "40 packets late (any extent), charged to link pairs");
	assert_string_equal(ev(f, "top_pair"), "rx:eth3 late behind rx:eth0: 40 of the 40 late");
	assert_null(ev(f, "out_of_order_on_one_link"));
	bc_attrib_free(&a);
}

/*
 * A link out of order with itself (issue 15): one link; 10 datagrams arrive
 * behind the next one on the same link.  The pair (rx:eth0, rx:eth0) stays
 * in the pairs with its RFC 5236 bins, but the finding names no pair of a
 * link with itself: it says they were out of order within one link.
 */
static void test_reorder_same_link(void **state)
{
	struct cap tx, rx;
	struct bc_attrib_cfg cfg;
	struct bc_error err = {0};
	struct bc_attrib a;
	const struct bc_finding *f;
	uint8_t buf[2048];
	uint64_t bins = 0;
	int link;

	(void)state;
	cap_open(&tx, "tx-eth0");
	cap_open(&rx, "rx-eth0");
	for (uint64_t s = 0; s < N; s++) {
		int len = udp_frame(s, buf);
		uint64_t t = s * 10 * US, arr = t + 50 * US;

		cap_put(&tx, t, buf, len, 96);
		if (s % 100 == 50)
			continue; /* put after s + 1 below */
		cap_put(&rx, arr, buf, len, 96);
		if (s % 100 == 51) {
			len = udp_frame(s - 1, buf);
			cap_put(&rx, arr + 1 * US, buf, len, 96);
		}
	}
	cap_close(&tx);
	cap_close(&rx);
	bc_attrib_cfg_default(&cfg);
	cfg.late_threshold = 1;
	assert_int_equal(bc_attrib_init(&a, &cfg, &err), 0);
	link = bc_attrib_add_link(&a, BC_SIDE_TX, "eth0", &err);
	assert_int_equal(bc_attrib_read_pcap(&a, link, tx.path, &err), 0);
	link = bc_attrib_add_link(&a, BC_SIDE_RX, "eth0", &err);
	assert_int_equal(bc_attrib_read_pcap(&a, link, rx.path, &err), 0);
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	assert_int_equal(a.pairs[1][1], 10);
	for (int d = -(int)cfg.rd_threshold; d <= (int)cfg.rd_threshold; d++)
		bins += bc_attrib_pair_rd(&a, 1, 1, d);
	assert_int_equal(bins + bc_attrib_pair_rd_discarded(&a, 1, 1), 10);
	f = find(&a, "reordering");
	assert_non_null(f);
	assert_string_equal(f->subject, "rx");
	assert_null(ev(f, "top_pair"));
	assert_null(strstr(f->advice, "behind rx:eth0"));
	assert_non_null(strstr(f->advice, "out of order within one link"));
	assert_non_null(ev(f, "out_of_order_on_one_link"));
	assert_int_equal(strncmp(ev(f, "out_of_order_on_one_link"), "10 late", 7), 0);
	bc_attrib_free(&a);
}

/*
 * Why a healthy run showed capture-incomplete ... arrived_not_left=5 (issue
 * 15): the sender's capture stopped before the receiver's.  1000 datagrams
 * over eth0/eth1; the sender's captures stop 5 datagrams early (what a TCP
 * socket buffer or a qdisc still sends after the client stopped capturing
 * Tmax after its stop, while the agent's capture ran on): the 5 arrived but
 * never "left", and the tx side is incomplete.  With the sender's window
 * holding the receiver's (the client now stops its capture after the
 * agent's result), nothing is reported.
 */
static void not_left_case(uint64_t tx_stop, uint64_t want)
{
	const char *names[2] = {"eth0", "eth1"};
	struct cap tx[2], rx[2];
	struct bc_attrib_cfg cfg;
	struct bc_error err = {0};
	struct bc_attrib a;
	const struct bc_finding *f;
	uint8_t buf[2048];
	int link;

	for (int l = 0; l < 2; l++) {
		char n[16];

		snprintf(n, sizeof(n), "tx-%s", names[l]);
		cap_open(&tx[l], n);
		snprintf(n, sizeof(n), "rx-%s", names[l]);
		cap_open(&rx[l], n);
	}
	for (uint64_t s = 0; s < N; s++) {
		int l = (int)(s % 2), len = udp_frame(s, buf);

		if (s < tx_stop)
			cap_put(&tx[l], s * 10 * US, buf, len, 96);
		cap_put(&rx[l], s * 10 * US + 50 * US, buf, len, 96);
	}
	for (int l = 0; l < 2; l++) {
		cap_close(&tx[l]);
		cap_close(&rx[l]);
	}
	bc_attrib_cfg_default(&cfg);
	assert_int_equal(bc_attrib_init(&a, &cfg, &err), 0);
	for (int l = 0; l < 2; l++) {
		link = bc_attrib_add_link(&a, BC_SIDE_TX, names[l], &err);
		assert_int_equal(bc_attrib_read_pcap(&a, link, tx[l].path, &err), 0);
	}
	for (int l = 0; l < 2; l++) {
		link = bc_attrib_add_link(&a, BC_SIDE_RX, names[l], &err);
		assert_int_equal(bc_attrib_read_pcap(&a, link, rx[l].path, &err), 0);
	}
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	assert_int_equal(a.rx_without_tx, want);
	assert_int_equal(a.streams[0].lost, 0);
	f = find(&a, "capture-incomplete");
	if (!want) {
		assert_null(f);
	} else {
		assert_non_null(f);
		assert_string_equal(f->subject, "tx");
		assert_string_equal(ev(f, "arrived_not_left"), "5");
	}
	bc_attrib_free(&a);
}

static void test_sender_capture_stopped_first(void **state)
{
	(void)state;
	not_left_case(N - 5, 5);
	not_left_case(N, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_striped_loss_reorder),
		cmocka_unit_test(test_sparse_seq),
		cmocka_unit_test(test_stream_cap),
		cmocka_unit_test(test_vlan_striped),
		cmocka_unit_test(test_capture_bounds),
		cmocka_unit_test(test_fragments),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_reorder_pair_within_total),
		cmocka_unit_test(test_reorder_same_link),
		cmocka_unit_test(test_sender_capture_stopped_first),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
