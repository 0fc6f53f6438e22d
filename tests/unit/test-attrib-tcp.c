// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TCP attribution by byte range (analyze/attrib-tcp.c) on synthetic
 * per-slave pcaps written with pcap_open_dead + pcap_dump: TSO super-frames
 * at the sender, GRO super-frames cut elsewhere at the receiver, sequence
 * numbers that wrap, a lost chunk and its retransmission, a spurious
 * retransmission, reordering on one link and a SYN MSS option; the exact
 * counts, paths, pairs and per-pair RFC 5236 density are asserted.
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
#include "bondcheck/run-report.h"

#define US	1000ull
#define MAXEV	4096
#define FRAMEMX 8192
#define SNAP	96

#define F_FIN 0x01
#define F_SYN 0x02
#define F_PSH 0x08
#define F_ACK 0x10

static char dir[64];

/* One frame of one capture file, written in time order at the end. */
struct ev {
	int file; /* 0..2 tx:ethN, 3..5 rx:ethN */
	uint64_t ts;
	int len;
	uint8_t buf[FRAMEMX];
};

struct gen {
	struct ev *ev;
	size_t n;
	int v6;
};

static void frame(struct gen *g, int file, uint64_t ts, bool fwd, uint32_t seq, uint32_t payload,
		  uint8_t flags, uint16_t mss_option)
{
	struct bc_pkt_spec s = {.ip_version = (uint8_t)(g->v6 ? 6 : 4),
				.proto = 6,
				.sport = fwd ? 40001 : 5201,
				.dport = fwd ? 5201 : 40001,
				.ip_id = (uint32_t)g->n,
				.payload_len = payload + (mss_option ? 4 : 0),
				.tcp_seq = seq,
				.tcp_flags = flags};
	struct ev *e;
	uint8_t *src = fwd ? s.src : s.dst, *dst = fwd ? s.dst : s.src;

	assert_true(g->n < MAXEV);
	if (g->v6) {
		src[0] = dst[0] = 0xfd;
		src[15] = 1;
		dst[15] = 2;
	} else {
		src[0] = dst[0] = 10;
		src[3] = 1;
		dst[3] = 2;
	}
	e = &g->ev[g->n++];
	e->file = file;
	e->ts = ts;
	e->len = bc_pkt_build(&s, e->buf, sizeof(e->buf));
	assert_true(e->len > 0);
	if (mss_option) {
		/* the 4 payload bytes become the option: data offset 6 words */
		size_t tcp = 14 + (g->v6 ? 40 : 20);

		e->buf[tcp + 12] = 6 << 4;
		e->buf[tcp + 20] = 2;
		e->buf[tcp + 21] = 4;
		e->buf[tcp + 22] = (uint8_t)(mss_option >> 8);
		e->buf[tcp + 23] = (uint8_t)mss_option;
	}
}

static int cmp_ev(const void *x, const void *y)
{
	const struct ev *a = x, *b = y;

	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static const char *const names[3] = {"eth0", "eth1", "eth2"};

/* Write the six files (sorted by time) and read @nfiles of them, rx only with @rx_only. */
static void attribute(struct gen *g, struct bc_attrib *a, const struct bc_attrib_cfg *cfg,
		      int links, bool rx_only)
{
	pcap_t *p =
		pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_NANO);
	pcap_dumper_t *d[6];
	char path[6][128];
	struct bc_error err = {0};

	qsort(g->ev, g->n, sizeof(*g->ev), cmp_ev);
	for (int f = 0; f < 2 * links; f++) {
		snprintf(path[f], sizeof(path[f]), "%s/%s-%s.pcap", dir, f < links ? "tx" : "rx",
			 names[f % links]);
		d[f] = pcap_dump_open(p, path[f]);
		assert_non_null(d[f]);
	}
	for (size_t i = 0; i < g->n; i++) {
		struct ev *e = &g->ev[i];
		int f = e->file < 3 ? e->file : links + e->file - 3;
		struct pcap_pkthdr h = {.caplen = e->len < SNAP ? (uint32_t)e->len : SNAP,
					.len = (uint32_t)e->len};

		h.ts.tv_sec = (time_t)(e->ts / 1000000000ull);
		h.ts.tv_usec = (suseconds_t)(e->ts % 1000000000ull);
		pcap_dump((u_char *)d[f], &h, e->buf);
	}
	for (int f = 0; f < 2 * links; f++)
		pcap_dump_close(d[f]);
	pcap_close(p);
	assert_int_equal(bc_attrib_init(a, cfg, &err), 0);
	for (int f = rx_only ? links : 0; f < 2 * links; f++) {
		int l = bc_attrib_add_link(a, f < links ? BC_SIDE_TX : BC_SIDE_RX, names[f % links],
					   &err);

		assert_true(l >= 0);
		assert_int_equal(bc_attrib_read_pcap(a, l, path[f], &err), 0);
	}
	assert_int_equal(bc_attrib_finish(a, &err), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/bc-attrib-tcp-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return getenv("KEEP") ? 0 : system(cmd) ? -1 : 0;
}

static const struct bc_attrib_tcp_flow *data_flow(const struct bc_attrib *a)
{
	const struct bc_attrib_tcp_flow *best = NULL;

	for (size_t i = 0; i < a->n_tcp_flows; i++)
		if (!best || a->tcp_flows[i].seq_bytes + a->tcp_flows[i].chunks_arrived >
				     best->seq_bytes + best->chunks_arrived)
			best = &a->tcp_flows[i];
	assert_non_null(best);
	return best;
}

static const struct bc_finding *find(const struct bc_attrib *a, const char *id)
{
	for (size_t i = 0; i < a->n_findings; i++)
		if (!strcmp(a->findings[i].id, id))
			return &a->findings[i];
	return NULL;
}

/*
 * Scenario A (IPv4, MSS 1460 from the MTU, ISN 20000 below the 32-bit wrap):
 * SYN and SYN-ACK on eth0; 60 TSO super-frames of 4380 bytes (3 chunks),
 * segment i on eth(i % 3) at 200 + 100 i us, arriving 50 us later: on eth0
 * as 3 frames (GRO off), on eth1 as 2920 + 1460 (GRO cut elsewhere), on eth2
 * as the whole 4380.  Segments 5, 17 and 29 (eth2) arrive 160 us late,
 * behind segment i + 1 on eth0 and before i + 2.  Segment 10 (eth1) loses its
 * middle chunk on the wire; the sender retransmits it on eth2 at 1550 us,
 * and it arrives.  The receiver's pure ACKs and a FIN on eth0 end it.
 */
static void scenario_a(struct gen *g)
{
	const uint32_t isn = 0xffffffffu - 20000;
	uint32_t s0 = isn + 1;

	memset(g, 0, sizeof(*g));
	g->ev = calloc(MAXEV, sizeof(*g->ev));
	assert_non_null(g->ev);
	frame(g, 0, 0, true, isn, 0, F_SYN, 0);
	frame(g, 3, 50 * US, true, isn, 0, F_SYN, 0);
	frame(g, 3, 60 * US, false, 777, 0, F_SYN | F_ACK, 0); /* leaves rx:eth0 */
	frame(g, 0, 110 * US, false, 777, 0, F_SYN | F_ACK, 0);
	for (uint32_t i = 0; i < 60; i++) {
		int l = (int)(i % 3);
		uint64_t t = (200 + 100 * (uint64_t)i) * US, arr = t + 50 * US;
		uint32_t seq = s0 + 4380 * i;

		if (i == 5 || i == 17 || i == 29)
			arr += 160 * US;
		frame(g, l, t, true, seq, 4380, F_ACK | F_PSH, 0);
		if (l == 0) {
			for (uint32_t c = 0; c < 3; c++)
				frame(g, 3, arr + c * US, true, seq + 1460 * c, 1460, F_ACK, 0);
		} else if (l == 1 && i == 10) {
			frame(g, 4, arr, true, seq, 1460, F_ACK, 0);
			frame(g, 4, arr + US, true, seq + 2920, 1460, F_ACK, 0);
		} else if (l == 1) {
			frame(g, 4, arr, true, seq, 2920, F_ACK, 0);
			frame(g, 4, arr + US, true, seq + 2920, 1460, F_ACK, 0);
		} else {
			frame(g, 5, arr, true, seq, 4380, F_ACK | F_PSH, 0);
		}
		/* the receiver's pure ACK: no sequence space, never a unit */
		frame(g, 3 + l, arr + 5 * US, false, 778, 0, F_ACK, 0);
		frame(g, l, arr + 55 * US, false, 778, 0, F_ACK, 0);
	}
	frame(g, 2, 1550 * US, true, s0 + 4380 * 10 + 1460, 1460, F_ACK, 0); /* retransmission */
	frame(g, 5, 1600 * US, true, s0 + 4380 * 10 + 1460, 1460, F_ACK, 0);
	frame(g, 0, 6200 * US, true, s0 + 4380 * 60, 0, F_FIN | F_ACK, 0);
	frame(g, 3, 6250 * US, true, s0 + 4380 * 60, 0, F_FIN | F_ACK, 0);
}

static void test_tso_gro_loss_retransmit_reorder(void **state)
{
	struct bc_attrib_cfg cfg;
	struct bc_attrib a;
	struct gen g;
	const struct bc_attrib_tcp_flow *f;
	const struct bc_finding *fi;
	struct json_object *j, *x;

	(void)state;
	scenario_a(&g);
	bc_attrib_cfg_default(&cfg);
	attribute(&g, &a, &cfg, 3, false);
	free(g.ev);

	/* one data flow forward, the SYN-ACK as a one-chunk reverse flow */
	assert_int_equal(a.n_tcp_flows, 2);
	f = data_flow(&a);
	assert_int_equal(f->dir, BC_DIR_FWD);
	assert_int_equal(f->mss, 1460);
	assert_string_equal(f->mss_source, "mtu");
	assert_true(f->tx_seen && f->rx_seen);
	/* SYN + 60 x 3 chunks + FIN, across the 32-bit wrap */
	assert_int_equal(f->first_chunks, 182);
	assert_int_equal(f->seq_bytes, 1 + 60 * 4380 + 1);
	assert_int_equal(f->chunks_left, 183);
	assert_int_equal(f->retransmits, 1);
	assert_int_equal(f->retransmit_bytes, 1460);
	assert_int_equal(f->spurious, 0);
	assert_int_equal(f->chunks_arrived, 182);
	assert_int_equal(f->retransmits_arrived, 1);
	assert_int_equal(f->duplicates, 0);
	assert_int_equal(f->arrived_not_left, 0);
	assert_int_equal(f->lost, 1);
	assert_int_equal(f->lost_bytes, 1460);
	assert_int_equal(f->unbracketed, 0);
	/* RFC 4737: the retransmission's late arrival is not reordering */
	assert_int_equal(f->win.received, 181);
	assert_int_equal(f->win.reordered, 9);
	assert_int_equal(f->win.nreord[2], 3);
	assert_int_equal(f->win.extent_max, 5);
	assert_int_equal(bc_rd_count(&f->win.rd, 3), 9);
	assert_int_equal(bc_rd_count(&f->win.rd, -3), 9);
	/* per link: what left and arrived, loss on eth1, the retransmission on eth2 */
	assert_int_equal(a.links[0].tcp.chunks_left, 62);
	assert_int_equal(a.links[1].tcp.chunks_left, 60);
	assert_int_equal(a.links[2].tcp.chunks_left, 61);
	assert_int_equal(a.links[3].tcp.chunks_left, 1); /* the SYN-ACK */
	assert_int_equal(a.links[0].tcp.chunks_arrived, 1);
	assert_int_equal(a.links[3].tcp.chunks_arrived, 62);
	assert_int_equal(a.links[4].tcp.chunks_arrived, 59);
	assert_int_equal(a.links[5].tcp.chunks_arrived, 61);
	assert_int_equal(a.links[4].tcp.bytes_arrived, 20 * 4380 - 1460);
	assert_int_equal(a.links[1].tcp.lost, 1);
	assert_int_equal(a.links[1].tcp.lost_bytes, 1460);
	assert_int_equal(a.links[0].tcp.lost + a.links[2].tcp.lost, 0);
	assert_int_equal(a.links[2].tcp.retransmits, 1);
	assert_int_equal(a.links[0].tcp.retransmits + a.links[1].tcp.retransmits, 0);
	/* UDP counters untouched */
	assert_int_equal(a.links[1].units_left + a.links[1].lost, 0);
	/* paths: ethN -> ethN, the retransmission on eth2 */
	assert_int_equal(a.path[0][3], 62);
	assert_int_equal(a.path[1][4], 59);
	assert_int_equal(a.path[2][5], 61);
	assert_int_equal(a.path[3][0], 1);
	assert_int_equal(a.tcp_path[2][5], 61);
	assert_int_equal(a.path[1][5] + a.path[2][4] + a.path[0][4], 0);
	for (int l = 0; l < 3; l++)
		assert_int_equal(a.links[l].peer, 3 + l);
	/* pairs: late on rx:eth2 behind rx:eth0, density D = 3 */
	assert_int_equal(a.pairs[3][5], 9);
	assert_int_equal(a.tcp_pairs[3][5], 9);
	for (int e = 0; e < 6; e++)
		for (int l = 0; l < 6; l++)
			if (e != 3 || l != 5)
				assert_int_equal(a.pairs[e][l], 0);
	assert_int_equal(a.pair_extent_max[3][5], 5);
	assert_int_equal(bc_attrib_pair_rd(&a, 3, 5, 3), 9);
	assert_int_equal(bc_attrib_pair_rd(&a, 3, 5, -3), 0);
	assert_int_equal(bc_attrib_pair_rd_discarded(&a, 3, 5), 0);
	assert_int_equal(a.tcp_received, 182); /* + the SYN-ACK of the reverse flow */
	assert_int_equal(a.tcp_reordered, 9);
	assert_int_equal(a.rx_reordered, 9);
	assert_int_equal(a.rx_without_tx, 0);
	/* findings: the lost chunk is wire loss on tx:eth1; 3-reordered segments */
	fi = find(&a, "wire-loss");
	assert_non_null(fi);
	assert_string_equal(fi->subject, "tx:eth1");
	fi = find(&a, "reordering");
	assert_non_null(fi);
	assert_string_equal(fi->subject, "rx:eth2");
	assert_null(find(&a, "capture-incomplete"));

	/* JSON: tcp_flows[], links[].tcp, paths tcp share, pairs with density */
	j = bc_analyze_json(&a);
	assert_non_null(j);
	x = json_object_object_get(j, "tcp_flows");
	assert_int_equal(json_object_array_length(x), 2);
	assert_string_equal(
		json_object_to_json_string_ext(
			json_object_object_get(json_object_object_get(j, "reordering"), "pairs"),
			JSON_C_TO_STRING_PLAIN),
		"[{\"early_link\":\"rx:eth0\",\"late_link\":\"rx:eth2\",\"count\":9,"
		"\"extent_max\":5,\"tcp_count\":9,\"reorder_density\":{\"3\":9},"
		"\"reorder_density_discarded\":0}]");
	x = json_object_object_get(json_object_array_get_idx(json_object_object_get(j, "links"), 1),
				   "tcp");
	assert_int_equal(json_object_get_int64(json_object_object_get(x, "lost")), 1);
	assert_int_equal(json_object_get_int64(json_object_object_get(x, "chunks_left")), 60);
	/* run --capture's text renders the same JSON */
	{
		struct json_object *cap = json_object_new_object();
		char *txt = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&txt, &len);

		json_object_object_add(cap, "analysis", j);
		bc_run_report_capture(m, cap);
		fclose(m);
		assert_non_null(strstr(txt,
				       "10.0.0.1:40001 -> 10.0.0.2:5201 forward, MSS 1460: left "
				       "183 chunks (1 retransmitted, 0 spurious), arrived 182, "
				       "lost 1, reordered 9 of 181"));
		assert_non_null(strstr(txt,
				       "tx:eth1                    TCP chunks left 60, arrived "
				       "0, lost 1, retransmits 0"));
		assert_non_null(strstr(txt,
				       "late on rx:eth2 behind rx:eth0: 9 (extent max 5, TCP 9; "
				       "RFC 5236 D 3: 9)"));
		free(txt);
		json_object_put(cap);
	}
	bc_attrib_free(&a);
}

/*
 * The same captures without the sender's: ordinals come from the arrived
 * sequence numbers, so the retransmission's late arrival cannot be told
 * from a late segment and counts as reordered (late on rx:eth2 behind the
 * chunk after it on rx:eth1).
 */
static void test_rx_only(void **state)
{
	struct bc_attrib_cfg cfg;
	struct bc_attrib a;
	struct gen g;
	const struct bc_attrib_tcp_flow *f;

	(void)state;
	scenario_a(&g);
	bc_attrib_cfg_default(&cfg);
	attribute(&g, &a, &cfg, 3, true);
	free(g.ev);
	f = data_flow(&a);
	assert_false(f->tx_seen);
	assert_true(f->rx_seen);
	assert_int_equal(f->chunks_arrived, 182);
	assert_int_equal(f->win.received, 182);
	assert_int_equal(f->win.reordered, 10);
	assert_int_equal(a.pairs[0][2], 9);
	assert_int_equal(a.pairs[1][2], 1);
	assert_int_equal(f->lost + f->retransmits, 0);
	assert_int_equal(a.rx_without_tx, 0);
	bc_attrib_free(&a);
}

/*
 * Scenario B (IPv6, 2 links, packets_per_slave 2): the SYN-ACK carries MSS
 * 1000, so the 3000-byte TSO super-frames are 3 chunks of 1000 (not the
 * 1440 the MTU allows).  Segment i leaves on eth((i / 2) % 2) at 200 + 100 i
 * us; the receiver's eth1 merges the last chunk of one segment with the
 * first two of the next (GRO across TX super-frames).  Segment 7 (eth1) is
 * held 1060 us; the sender retransmits its first chunk on eth0 at 1420 us
 * (spurious: the original arrives too).
 */
static void test_syn_mss_spurious(void **state)
{
	struct bc_attrib_cfg cfg;
	struct bc_attrib a;
	struct gen g;
	const struct bc_attrib_tcp_flow *f;
	const uint32_t s0 = 1001;

	(void)state;
	memset(&g, 0, sizeof(g));
	g.v6 = 1;
	g.ev = calloc(MAXEV, sizeof(*g.ev));
	assert_non_null(g.ev);
	frame(&g, 0, 0, true, s0 - 1, 0, F_SYN, 0);
	frame(&g, 3, 50 * US, true, s0 - 1, 0, F_SYN, 0);
	frame(&g, 4, 60 * US, false, 5000, 0, F_SYN | F_ACK, 1000);
	frame(&g, 1, 110 * US, false, 5000, 0, F_SYN | F_ACK, 1000);
	for (uint32_t i = 0; i < 20; i++) {
		int l = (int)((i / 2) % 2);
		uint64_t t = (200 + 100 * (uint64_t)i) * US, arr = t + 50 * US;
		uint32_t seq = s0 + 3000 * i;

		frame(&g, l, t, true, seq, 3000, F_ACK | F_PSH, 0);
		if (i == 7) {
			frame(&g, 4, arr + 1060 * US, true, seq, 3000, F_ACK, 0);
		} else if (l == 1 && i % 2 == 0 && i != 6) {
			/* c0, c1 now; c2 merged with the next segment's c0 c1 */
			frame(&g, 4, arr, true, seq, 1000, F_ACK, 0);
			frame(&g, 4, arr + US, true, seq + 1000, 1000, F_ACK, 0);
			frame(&g, 4, arr + 100 * US, true, seq + 2000, 3000, F_ACK, 0);
			frame(&g, 4, arr + 101 * US, true, seq + 5000, 1000, F_ACK, 0);
			i++; /* the next segment's TX frame is written below */
			frame(&g, l, t + 100 * US, true, seq + 3000, 3000, F_ACK | F_PSH, 0);
		} else {
			for (uint32_t c = 0; c < 3; c++)
				frame(&g, 3 + l, arr + c * US, true, seq + 1000 * c, 1000, F_ACK,
				      0);
		}
	}
	frame(&g, 0, 1420 * US, true, s0 + 3000 * 7, 1000, F_ACK, 0); /* spurious */
	frame(&g, 3, 1470 * US, true, s0 + 3000 * 7, 1000, F_ACK, 0);
	bc_attrib_cfg_default(&cfg);
	attribute(&g, &a, &cfg, 2, false);
	free(g.ev);

	f = data_flow(&a);
	assert_int_equal(f->mss, 1000);
	assert_string_equal(f->mss_source, "syn");
	assert_int_equal(f->first_chunks, 61);
	assert_int_equal(f->retransmits, 1);
	assert_int_equal(f->spurious, 1);
	assert_int_equal(f->retransmits_arrived, 1);
	assert_int_equal(f->chunks_arrived, 62);
	assert_int_equal(f->lost + f->unbracketed + f->duplicates, 0);
	assert_int_equal(f->win.received, 61);
	assert_int_equal(f->win.reordered, 3);
	assert_int_equal(f->win.extent_max, 32);
	/* links 0, 1 = tx:eth0, tx:eth1; 2, 3 = rx:eth0, rx:eth1 */
	assert_int_equal(a.links[0].tcp.spurious, 1);
	assert_int_equal(a.links[0].tcp.retransmits, 1);
	assert_int_equal(a.path[0][2], 1 + 30 + 1);
	assert_int_equal(a.path[1][3], 30);
	assert_int_equal(a.path[3][1], 1); /* the SYN-ACK */
	assert_int_equal(a.pairs[2][3], 3);
	assert_int_equal(a.pair_extent_max[2][3], 32);
	/* displacement 30 > DT 16: RFC 5236 treats them as lost */
	assert_int_equal(bc_attrib_pair_rd_discarded(&a, 2, 3), 3);
	assert_int_equal(a.pairs[3][2] + a.pairs[2][2] + a.pairs[3][3], 0);
	bc_attrib_free(&a);
}

/*
 * Seeded random striping over 3 links (1-3 chunks per segment, 10 % of
 * segments late by up to 60 us, 3 % lose one chunk that is retransmitted
 * 300 us later on a random link, 2 % have their first chunk retransmitted
 * although it arrived): the counts the generator knows are exact, and the
 * invariants hold: every chunk that left arrived once, was lost or is
 * unbracketed; the TCP pairs add up to the reordered chunks, and each pair's
 * RFC 5236 bins account for each of its late chunks.
 */
static void test_random_invariants(void **state)
{
	struct bc_attrib_cfg cfg;
	struct bc_attrib a;
	struct gen g;
	const struct bc_attrib_tcp_flow *f;
	uint32_t seq = 0xfffff000u, drops = 0, spurious = 0, seed = 12345;
	uint64_t pairs = 0;

	(void)state;
	memset(&g, 0, sizeof(g));
	g.ev = calloc(MAXEV, sizeof(*g.ev));
	assert_non_null(g.ev);
	for (uint32_t i = 0; i < 400; i++) {
		uint32_t n, lost = 99;
		int l = (int)(i % 3);
		uint64_t t = (100 + 20 * (uint64_t)i) * US, arr = t + 50 * US;

		seed = seed * 1103515245u + 12345u;
		n = 1 + (seed >> 16) % 3;
		if ((seed >> 8) % 10 == 0)
			arr += ((seed >> 4) % 60) * US;
		frame(&g, l, t, true, seq, 1460 * n, F_ACK, 0);
		if (i < 380 && (seed >> 20) % 100 < 3) {
			lost = (seed >> 12) % n;
			drops++;
		}
		for (uint32_t c = 0; c < n; c++)
			if (c != lost)
				frame(&g, 3 + l, arr + c, true, seq + 1460 * c, 1460, F_ACK, 0);
		if (lost != 99 || (seed >> 24) % 100 < 2) {
			uint32_t c = lost != 99 ? lost : 0;
			int rl = (int)((seed >> 2) % 3);

			spurious += lost == 99;
			frame(&g, rl, t + 300 * US, true, seq + 1460 * c, 1460, F_ACK, 0);
			frame(&g, 3 + rl, t + 350 * US, true, seq + 1460 * c, 1460, F_ACK, 0);
		}
		seq += 1460 * n;
	}
	bc_attrib_cfg_default(&cfg);
	attribute(&g, &a, &cfg, 3, false);
	free(g.ev);
	f = data_flow(&a);
	assert_true(drops > 5 && spurious > 3); /* the seed exercises both */
	assert_int_equal(f->lost, drops);
	assert_int_equal(f->retransmits, drops + spurious);
	assert_int_equal(f->spurious, spurious);
	assert_int_equal(f->retransmits_arrived, drops + spurious);
	assert_int_equal(f->duplicates + f->unbracketed + f->arrived_not_left, 0);
	assert_int_equal(f->win.received, f->first_chunks - drops);
	assert_true(f->win.reordered > 0);
	for (int l = 0; l < 3; l++) {
		uint64_t arrived = 0;

		for (int r = 0; r < 6; r++)
			arrived += a.tcp_path[l][r];
		assert_int_equal(a.links[l].tcp.chunks_left,
				 arrived + a.links[l].tcp.lost + a.links[l].tcp.unbracketed);
		assert_int_equal(a.links[l].peer, 3 + l);
	}
	for (int e = 0; e < 6; e++)
		for (int l = 0; l < 6; l++) {
			uint64_t binned = bc_attrib_pair_rd_discarded(&a, (size_t)e, (size_t)l);

			for (int d = -16; d <= 16; d++)
				binned += bc_attrib_pair_rd(&a, (size_t)e, (size_t)l, d);
			assert_int_equal(binned, a.tcp_pairs[e][l]);
			pairs += a.tcp_pairs[e][l];
		}
	assert_int_equal(pairs, f->win.reordered);
	bc_attrib_free(&a);
}

/*
 * Loss is bracketed per TX link: 10 one-chunk segments alternate over 2
 * links; segment 3 (eth1) is dropped on the wire, segment 9 (eth1, the last
 * one there) is still queued when the captures stop, while the FIN sent
 * after it on eth0 arrives.  Segment 3 is lost (segment 5 on eth1 arrived),
 * segment 9 unbracketed although later bytes of the flow arrived.
 */
static void test_loss_bracketed_per_link(void **state)
{
	struct bc_attrib_cfg cfg;
	struct bc_attrib a;
	struct gen g;
	const struct bc_attrib_tcp_flow *f;

	(void)state;
	memset(&g, 0, sizeof(g));
	g.ev = calloc(MAXEV, sizeof(*g.ev));
	assert_non_null(g.ev);
	for (uint32_t i = 0; i < 10; i++) {
		int l = (int)(i % 2);
		uint64_t t = (100 + 100 * (uint64_t)i) * US;

		frame(&g, l, t, true, 1 + 1460 * i, 1460, F_ACK, 0);
		if (i != 3 && i != 9)
			frame(&g, 3 + l, t + 50 * US, true, 1 + 1460 * i, 1460, F_ACK, 0);
	}
	frame(&g, 0, 1100 * US, true, 1 + 1460 * 10, 0, F_FIN | F_ACK, 0);
	frame(&g, 3, 1150 * US, true, 1 + 1460 * 10, 0, F_FIN | F_ACK, 0);
	bc_attrib_cfg_default(&cfg);
	attribute(&g, &a, &cfg, 2, false);
	free(g.ev);
	f = data_flow(&a);
	assert_int_equal(f->lost, 1);
	assert_int_equal(f->unbracketed, 1);
	assert_int_equal(a.links[1].tcp.lost, 1);
	assert_int_equal(a.links[1].tcp.unbracketed, 1);
	assert_int_equal(a.links[0].tcp.lost + a.links[0].tcp.unbracketed, 0);
	bc_attrib_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tso_gro_loss_retransmit_reorder),
		cmocka_unit_test(test_rx_only),
		cmocka_unit_test(test_syn_mss_spurious),
		cmocka_unit_test(test_random_invariants),
		cmocka_unit_test(test_loss_bracketed_per_link),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
