// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Failover analysis (analyze/failover*.c) on crafted packet sequences: a
 * paced stream each way (1 datagram per ms), a slave cut at 1000 ms and
 * restored at 2000 ms; the exact gaps, losses, links, delivered-arrival
 * rule, neighbour announcements, LACP timeout and re-sync, clock offset and
 * findings asserted; and what each configuration implies.
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

#include "bondcheck/failover-report.h"
#include "bondcheck/failover.h"
#include "bondcheck/json-get.h"
#include "bondcheck/findings.h"
#include "bondcheck/packet.h"
#include "bondcheck/plot.h"

#define MS   1000000ull
#define T0   (1700000000ull * 1000000000ull) /* a realistic CLOCK_REALTIME */
#define CUT  (T0 + 1000 * MS)
#define REST (T0 + 2000 * MS)
#define END  3000 /* ms of traffic */

static const uint8_t client_mac[6] = {0x02, 0xc1, 0, 0, 0, 1};
static const uint8_t agent_mac[6] = {0x02, 0xa9, 0, 0, 0, 2};

enum { C0, C1, C2, A0, A1, A2 }; /* link indices as declared by links() */

static void cfg_init(struct bc_fo_cfg *c)
{
	bc_fo_cfg_default(c);
	c->version = 4;
	c->client_addr[0] = 10, c->client_addr[3] = 1;
	c->agent_addr[0] = 10, c->agent_addr[3] = 2;
	c->test_id = 7;
	c->cut_ns = CUT;
	c->restore_ns = REST;
	snprintf(c->bond, sizeof(c->bond), "bond0");
	snprintf(c->cut_slave, sizeof(c->cut_slave), "eth0");
}

static void links(struct bc_failover *f, int n)
{
	struct bc_error err = {0};
	const char *names[3] = {"eth0", "eth1", "eth2"};

	for (int h = 0; h < 2; h++)
		for (int i = 0; i < 3; i++)
			assert_int_equal(bc_failover_add_link(f, h ? BC_FO_AGENT : BC_FO_CLIENT,
							      i < n ? names[i] : (h ? "ax" : "cx"),
							      &err),
					 h * 3 + i);
}

/* One datagram of stream @sid in direction @dir captured on @link at @ts (header @flags). */
static void dgram_f(struct bc_failover *f, int link, uint64_t ts, enum bc_fo_dir dir, uint32_t sid,
		    uint64_t seq, uint16_t flags)
{
	struct bc_udphdr h = {
		.stream_id = sid, .test_id = 7, .seq = seq, .send_ns = ts, .flags = flags};
	struct bc_pkt_spec s = {.ip_version = 4,
				.proto = 17,
				.sport = (uint16_t)(50000 + sid),
				.dport = (uint16_t)(5302 + sid),
				.payload_len = 64,
				.ours = &h};
	uint8_t buf[256];
	int n;

	s.src[0] = s.dst[0] = 10;
	s.src[3] = dir == BC_FO_C2A ? 1 : 2;
	s.dst[3] = dir == BC_FO_C2A ? 2 : 1;
	n = bc_pkt_build(&s, buf, sizeof(buf));
	assert_true(n > 0);
	memcpy(buf + 6, dir == BC_FO_C2A ? client_mac : agent_mac, 6);
	assert_int_equal(bc_failover_add_packet(f, link, ts, buf, (uint32_t)n, (uint32_t)n), 0);
}

static void dgram(struct bc_failover *f, int link, uint64_t ts, enum bc_fo_dir dir, uint32_t sid,
		  uint64_t seq)
{
	dgram_f(f, link, ts, dir, sid, seq, 0);
}

/* A gratuitous ARP from the host at 10.0.0.@ip with source MAC @mac. */
static void garp(struct bc_failover *f, int link, uint64_t ts, uint8_t ip, const uint8_t *mac)
{
	uint8_t b[60] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

	memcpy(b + 6, mac, 6);
	b[12] = 0x08, b[13] = 0x06;
	b[14] = 0, b[15] = 1, b[16] = 8, b[17] = 0, b[18] = 6, b[19] = 4, b[20] = 0, b[21] = 1;
	memcpy(b + 22, mac, 6);
	b[28] = 10, b[31] = ip;
	b[38] = 10, b[41] = ip;
	assert_int_equal(bc_failover_add_packet(f, link, ts, b, sizeof(b), sizeof(b)), 0);
}

/* An unsolicited NA to ff02::1 for fe80::1 (not a test address: classified by MAC). */
static void unsol_na(struct bc_failover *f, int link, uint64_t ts, const uint8_t *mac)
{
	uint8_t b[86] = {0x33, 0x33, 0, 0, 0, 1};

	memcpy(b + 6, mac, 6);
	b[12] = 0x86, b[13] = 0xdd;
	b[14] = 0x60;
	b[19] = 32; /* payload length */
	b[20] = 58, b[21] = 255;
	b[22] = 0xfe, b[23] = 0x80, b[37] = 1; /* src fe80::1 */
	b[38] = 0xff, b[39] = 0x02, b[53] = 1; /* dst ff02::1 */
	b[54] = 136;
	b[58] = 0x20; /* override, not solicited */
	b[62] = 0xfe, b[63] = 0x80, b[77] = 1;
	assert_int_equal(bc_failover_add_packet(f, link, ts, b, sizeof(b), sizeof(b)), 0);
}

static void lacpdu(struct bc_failover *f, int link, uint64_t ts, uint8_t sys, uint8_t state)
{
	struct bc_lacpdu l = {.version = 1};
	uint8_t b[128], mac[6] = {0x02, 0, 0, 0, 0, sys};
	int n;

	l.actor.system[0] = 0x02, l.actor.system[5] = sys;
	l.actor.port = 1;
	l.actor.state = state;
	n = bc_pkt_build_lacpdu(&l, mac, b, sizeof(b));
	assert_true(n > 0);
	assert_int_equal(bc_failover_add_packet(f, link, ts, b, (uint32_t)n, (uint32_t)n), 0);
}

/*
 * active-backup over eth0/eth1 on both ends.  Client eth0 goes admin down at
 * 1000 ms: what the client sends there in [1000, @cs) is dropped before its
 * tap; it switches to eth1 at @cs.  The agent's eth0 loses carrier: what it
 * sends there in [1000, @as) is captured and lost; it switches at @as.
 * Agent timestamps are @off ns ahead.  One-way delay 100 us.
 */
static void gen_ab(struct bc_failover *f, uint64_t cs, uint64_t as, int64_t off)
{
	/* the reverse stream's hellos (client to agent, stream 1): not a stream */
	for (uint64_t k = 0; k < 3; k++)
		dgram_f(f, C0, T0 - 10 * MS + k, BC_FO_C2A, 1, 0, BC_UDPHDR_F_HELLO);
	for (uint64_t k = 0; k < END; k++) {
		uint64_t t = T0 + k * MS;
		int cl = k < 1000 ? C0 : k < cs ? -1 : C1;
		int al = k < as ? A0 : A1;

		if (cl >= 0) {
			dgram(f, cl, t, BC_FO_C2A, 0, k);
			dgram(f, cl + 3, (uint64_t)((int64_t)(t + 100000) + off), BC_FO_C2A, 0, k);
		}
		dgram(f, al, (uint64_t)((int64_t)t + off), BC_FO_A2C, 1, k);
		if (k < 1000 || al == A1)
			dgram(f, al - 3, t + 100000, BC_FO_A2C, 1, k);
	}
	garp(f, C1, T0 + cs * MS + 500000, 1, client_mac);
	garp(f, A1, (uint64_t)((int64_t)(T0 + cs * MS + 600000) + off), 1, client_mac);
	garp(f, A1, (uint64_t)((int64_t)(T0 + as * MS + 500000) + off), 2, agent_mac);
	unsol_na(f, C1, T0 + cs * MS + 700000, client_mac);
}

static void ab_end(struct bc_fo_end *e, uint32_t miimon)
{
	memset(e, 0, sizeof(*e));
	e->known = e->is_bond = true;
	e->mode = BC_MODE_ACTIVEBACKUP;
	e->miimon_ms = miimon;
	e->lacp_rate = -1;
}

static const struct bc_finding *find(const struct bc_failover *f, const char *id, size_t nth)
{
	for (size_t i = 0; i < f->n_findings; i++)
		if (!strcmp(f->findings[i].id, id) && nth-- == 0)
			return &f->findings[i];
	return NULL;
}

static const char *ev(const struct bc_finding *x, const char *key)
{
	for (size_t i = 0; i < x->n_evidence; i++)
		if (!strcmp(x->evidence[i].key, key))
			return x->evidence[i].value;
	return "";
}

static uint64_t host_stall; /* cfg.host_stall_ns for the next run_ab() */

static void run_ab(struct bc_failover *f, uint64_t cs, uint64_t as, int64_t off)
{
	struct bc_fo_cfg c;
	struct bc_fo_end ce, ae;
	struct bc_error err = {0};

	cfg_init(&c);
	c.rx_on_tx_slave_only[BC_FO_CLIENT] = c.rx_on_tx_slave_only[BC_FO_AGENT] = true;
	c.host_stall_ns = host_stall;
	ab_end(&ce, 100);
	ab_end(&ae, 100);
	assert_int_equal(bc_failover_expect(&ce, &ae, BC_FO_CUT_CARRIER, &c.expect), 0);
	c.have_expect = true;
	assert_int_equal(bc_failover_init(f, &c, &err), 0);
	links(f, 2);
	gen_ab(f, cs, as, off);
	assert_int_equal(bc_failover_finish(f, &err), 0);
}

/* Client switches at 1080 ms, agent at 1060 ms: both directions stop 81 ms. */
static void test_active_backup(void **state)
{
	struct bc_failover f;
	const struct bc_fo_stream *fw, *rv;

	(void)state;
	run_ab(&f, 1080, 1060, 0);
	assert_int_equal(f.n_streams, 2); /* the hellos are no stream */
	fw = &f.streams[0];
	rv = &f.streams[1];
	assert_int_equal(fw->dir, BC_FO_C2A);
	assert_int_equal(rv->dir, BC_FO_A2C);
	/* forward: last delivered seq 999 at 999.1 ms, first 1080 at 1080.1 ms */
	assert_true(fw->down.found && !fw->down.open);
	assert_int_equal(fw->down.last_seq, 999);
	assert_int_equal(fw->down.first_seq, 1080);
	assert_int_equal(fw->down.gap_ns, 81 * MS);
	assert_int_equal(fw->down.lost_in_gap, 80);
	assert_int_equal(fw->lost, 80);
	assert_int_equal(fw->left_before, C0);
	assert_int_equal(fw->left_after, C1);
	assert_int_equal(fw->arrived_before, A0);
	assert_int_equal(fw->arrived_after, A1);
	assert_true(fw->interrupted && fw->used_cut_slave && !fw->black_hole);
	/* reverse: 1060..1079 arrive on client eth1 while the client still uses eth0 */
	assert_int_equal(rv->not_delivered, 20);
	assert_int_equal(rv->down.last_seq, 999);
	assert_int_equal(rv->down.first_seq, 1080);
	assert_int_equal(rv->down.gap_ns, 81 * MS);
	assert_int_equal(rv->down.lost_in_gap, 80);
	assert_int_equal(rv->arrived_before, C0);
	assert_int_equal(rv->left_before, A0);
	assert_int_equal(rv->left_after, A1);
	assert_true(rv->interrupted && rv->used_cut_slave);
	assert_int_equal(rv->duplicates + rv->reordered + fw->duplicates + fw->reordered, 0);
	/* summaries */
	assert_int_equal(f.dir[0].gap_ns, 81 * MS);
	assert_int_equal(f.dir[1].n_interrupted, 1);
	assert_int_equal(f.dir[0].tx_before, 1ull << C0);
	assert_int_equal(f.dir[0].tx_after, 1ull << C1);
	assert_int_equal(f.dir[1].tx_after, 1ull << A1);
	/* eth0 stays a backup after the restore: nothing returns to it */
	assert_int_equal(f.dir[0].returned_ns, BC_FO_NONE);
	/* neighbour announcements: by sender address, NA by source MAC */
	assert_int_equal(f.links[C1].garp[BC_FO_CLIENT], 1);
	assert_int_equal(f.links[A1].garp[BC_FO_CLIENT], 1);
	assert_int_equal(f.links[A1].garp[BC_FO_AGENT], 1);
	assert_int_equal(f.links[C1].unsol_na[BC_FO_CLIENT], 1);
	assert_int_equal(f.links[C1].first_garp_after_cut_ns, T0 + 1080 * MS + 500000);
	/* 81 ms is within miimon 100 (+ tolerance): no finding */
	assert_int_equal(f.cfg.expect.worst_ms, 100);
	assert_int_equal(f.cfg.expect.limit_ms, 200);
	assert_int_equal(f.n_findings, 0);
	/* timeline: 10 ms bins; client eth0 sent 10 per bin before the cut, none during it */
	assert_int_equal(f.tl_bin_ns, 10 * MS);
	assert_int_equal(f.links[C0].tl_left[50], 10);
	assert_int_equal(f.links[C0].tl_left[150], 0);
	assert_int_equal(f.links[C1].tl_left[150], 10);
	bc_failover_free(&f);
}

/* Same with the agent's clock 5 s ahead: the offset is found, the figures stay. */
static void test_clock_offset(void **state)
{
	struct bc_failover f;

	(void)state;
	run_ab(&f, 1080, 1060, 5000000000ll);
	assert_true(f.clock_offset_known);
	assert_int_equal(f.clock_offset_ns, 5000000000ll);
	assert_int_equal(f.streams[0].down.gap_ns, 81 * MS);
	assert_int_equal(f.streams[1].down.gap_ns, 81 * MS);
	assert_int_equal(f.streams[1].not_delivered, 20);
	bc_failover_free(&f);
}

/* The client takes 400 ms to switch: beyond miimon 100 + 100 ms tolerance. */
static void test_slow(void **state)
{
	struct bc_failover f;
	const struct bc_finding *x;

	(void)state;
	host_stall = 250 * MS; /* a busy host says so in the evidence */
	run_ab(&f, 1400, 1060, 0);
	host_stall = 0;
	assert_int_equal(f.dir[0].gap_ns, 401 * MS);
	assert_int_equal(f.dir[1].gap_ns, 401 * MS);
	assert_int_equal(f.n_findings, 2);
	x = find(&f, "failover-slow", 0);
	assert_non_null(x);
	assert_int_equal(x->severity, BC_SEV_WARNING);
	assert_string_equal(x->subject, "bond0/eth0");
	assert_string_equal(ev(x, "direction"), "client-to-agent");
	assert_string_equal(ev(x, "gap_ms"), "401");
	assert_string_equal(ev(x, "limit_ms"), "200");
	assert_non_null(strstr(ev(x, "host_stall_ms"), "250 "));
	assert_string_equal(ev(find(&f, "failover-slow", 1), "direction"), "agent-to-client");
	bc_failover_free(&f);
}

/*
 * miimon 0, no ARP, silent cut of eth0: both ends keep using eth0, the wire
 * drops everything during the hold; after the restore it flows again.
 */
static void test_black_hole(void **state)
{
	struct bc_failover f;
	struct bc_fo_cfg c;
	struct bc_fo_end e;
	struct bc_error err = {0};
	const struct bc_finding *x;

	(void)state;
	cfg_init(&c);
	c.cut = BC_FO_CUT_SILENT;
	c.rx_on_tx_slave_only[0] = c.rx_on_tx_slave_only[1] = true;
	ab_end(&e, 0);
	assert_int_equal(bc_failover_expect(&e, &e, BC_FO_CUT_SILENT, &c.expect), 0);
	assert_true(c.expect.black_hole);
	assert_int_equal(c.expect.by, BC_FO_BY_NOTHING);
	c.have_expect = true;
	assert_int_equal(bc_failover_init(&f, &c, &err), 0);
	links(&f, 2);
	for (uint64_t k = 0; k < END; k++) {
		uint64_t t = T0 + k * MS;
		bool wire = k < 1000 || k >= 2000;

		dgram(&f, C0, t, BC_FO_C2A, 0, k);
		dgram(&f, A0, t, BC_FO_A2C, 1, k);
		if (wire) {
			dgram(&f, A0, t + 100000, BC_FO_C2A, 0, k);
			dgram(&f, C0, t + 100000, BC_FO_A2C, 1, k);
		}
	}
	assert_int_equal(bc_failover_finish(&f, &err), 0);
	for (int d = 0; d < 2; d++) {
		assert_true(f.streams[d].black_hole);
		assert_int_equal(f.streams[d].down.gap_ns, 1001 * MS);
		assert_int_equal(f.streams[d].down.lost_in_gap, 1000);
		assert_int_equal(f.streams[d].left_after, f.streams[d].left_before);
	}
	assert_int_equal(f.n_findings, 2);
	x = find(&f, "failover-black-hole", 0);
	assert_non_null(x);
	assert_int_equal(x->severity, BC_SEV_ERROR);
	assert_string_equal(ev(x, "hold_ms"), "1000");
	assert_string_equal(ev(x, "gap_ms"), "1001");
	assert_string_equal(ev(x, "lost"), "1000");
	assert_non_null(strstr(ev(x, "monitoring"), "miimon 0 and no ARP monitoring"));
	assert_non_null(strstr(x->advice, "ARP monitoring"));
	assert_null(find(&f, "failover-not-recovered", 0));
	bc_failover_free(&f);
}

/*
 * balance-xor over 3 slaves, 3 forward streams on eth0/eth1/eth2.  eth0 is
 * cut; its stream moves to eth1 at 1090 ms; the others never stop.  Nothing
 * comes back after the restore: the last 500 ms of stream 0 are missing, so
 * it is "not recovered".
 */
static void test_xor_moved_and_unaffected(void **state)
{
	struct bc_failover f;
	struct bc_fo_cfg c;
	struct bc_error err = {0};

	(void)state;
	cfg_init(&c);
	assert_int_equal(bc_failover_init(&f, &c, &err), 0);
	links(&f, 3);
	for (uint64_t k = 0, seq[3] = {0, 0, 0}; k < END; k++) {
		uint64_t t = T0 + k * MS;

		for (uint32_t s = 0; s < 3; s++) {
			int l = (int)s;
			uint64_t q;

			/* streams 0 and 1 stall 300 ms (nothing sent, nothing lost) */
			if ((s < 2 && k >= 1500 && k < 1800) || (s == 0 && k >= 2500))
				continue;
			q = seq[s]++;
			if (s == 0 && k >= 1000 && k < 1090)
				continue; /* dropped before the tap: admin down */
			if (s == 0 && k >= 1090)
				l = 1;
			dgram(&f, l, t, BC_FO_C2A, s, q);
			dgram(&f, l + 3, t + 100000 + (s == 2 && k == 1500 ? 2 * MS : 0), BC_FO_C2A,
			      s, q);
		}
	}
	assert_int_equal(bc_failover_finish(&f, &err), 0);
	assert_int_equal(f.n_streams, 3);
	assert_true(f.streams[0].interrupted);
	assert_int_equal(f.streams[0].down.gap_ns, 91 * MS);
	assert_int_equal(f.streams[0].down.lost_in_gap, 90);
	assert_int_equal(f.streams[0].down.first_seq, 1090);
	assert_int_equal(f.streams[0].lost, 90);
	assert_int_equal(f.streams[0].left_after, C1);
	assert_true(!f.streams[1].interrupted && !f.streams[2].interrupted);
	assert_int_equal(f.streams[1].lost + f.streams[2].lost, 0);
	assert_false(f.streams[1].used_cut_slave);
	/* seq 1500 of stream 2 arrives 2 ms late, after 1501 and 1502 */
	assert_int_equal(f.streams[2].reordered, 1);
	assert_int_equal(f.dir[0].n_interrupted, 1);
	assert_int_equal(f.dir[0].n_used_cut, 1);
	assert_int_equal(f.dir[0].gap_ns, 91 * MS);
	/* the stall (longer, lossless) is not stream 0's failover; it is stream 1's longest gap */
	assert_int_equal(f.dir[0].unaffected_gap_ns, 301 * MS);
	assert_int_equal(f.dir[0].tx_before, (1ull << C0) | (1ull << C1) | (1ull << C2));
	/* stream 0 stopped at 2500 (after the restore): an up gap, not a failure to recover */
	assert_false(f.dir[0].not_recovered);
	assert_int_equal(f.n_findings, 0); /* no expectation given: no verdict */
	bc_failover_free(&f);
}

/*
 * A flow that moves without loss (the hash bond dropped the slave at once):
 * its gap is where it changed links, not a longer pause of the sender.
 */
static void test_moved_without_loss(void **state)
{
	struct bc_failover f;
	struct bc_fo_cfg c;
	struct bc_error err = {0};
	uint64_t seq = 0;

	(void)state;
	cfg_init(&c);
	assert_int_equal(bc_failover_init(&f, &c, &err), 0);
	links(&f, 2);
	for (uint64_t k = 0; k < END; k++) {
		uint64_t t = T0 + k * MS + (k >= 1050 ? 3 * MS : 0); /* 4 ms at the move */
		int l = k < 1050 ? C0 : C1;

		if (k >= 1500 && k < 1800)
			continue; /* the sender pauses 300 ms: nothing numbered, nothing lost */
		dgram(&f, l, t, BC_FO_C2A, 0, seq);
		dgram(&f, l + 3, t + 100000, BC_FO_C2A, 0, seq++);
	}
	assert_int_equal(bc_failover_finish(&f, &err), 0);
	assert_false(f.streams[0].interrupted);
	assert_int_equal(f.streams[0].lost, 0);
	assert_int_equal(f.streams[0].down.first_seq, 1050);
	assert_int_equal(f.streams[0].down.gap_ns, 4 * MS);
	assert_int_equal(f.streams[0].left_after, C1);
	assert_int_equal(f.streams[0].arrived_after, A1);
	assert_true(f.streams[0].used_cut_slave);
	assert_true(f.streams[0].moved);
	assert_int_equal(f.dir[0].n_moved, 1);
	assert_int_equal(f.dir[0].moved_gap_ns, 4 * MS);
	assert_int_equal(f.dir[0].unaffected_gap_ns, 0);
	bc_failover_free(&f);
}

/* LACP: timeout seen in the local actor's LACPDUs, re-sync after the restore. */
static void test_lacp(void **state)
{
	struct bc_failover f;
	struct bc_fo_cfg c;
	struct bc_error err = {0};
	const struct bc_fo_link *l;

	(void)state;
	cfg_init(&c);
	c.restore_ns = T0 + 6000 * MS;
	assert_int_equal(bc_failover_init(&f, &c, &err), 0);
	links(&f, 2);
	for (uint64_t k = 0; k < 1000; k += 300) {
		lacpdu(&f, C0, T0 + k * MS, 1, 0x3f);
		lacpdu(&f, C0, T0 + (k + 50) * MS, 2, 0x3f);
	}
	/* silent cut: only the local actor is heard; it expires at +2600 ms */
	lacpdu(&f, C0, T0 + 1900 * MS, 1, 0x3f);
	lacpdu(&f, C0, T0 + 3600 * MS, 1, 0x8f); /* expired, not collecting */
	lacpdu(&f, C0, T0 + 4600 * MS, 1, 0x47); /* defaulted */
	/* restored at 6000: partner heard in sync at 6300, local back at 6800 */
	lacpdu(&f, C0, T0 + 6100 * MS, 1, 0x0f);
	lacpdu(&f, C0, T0 + 6300 * MS, 2, 0x3f);
	lacpdu(&f, C0, T0 + 6800 * MS, 1, 0x3f);
	/* eth1's LACP never stopped: no re-sync to speak of there */
	for (uint64_t k = 0; k < 8000; k += 1000) {
		lacpdu(&f, C1, T0 + k * MS, 1, 0x3f);
		lacpdu(&f, C1, T0 + (k + 10) * MS, 2, 0x3f);
	}
	dgram(&f, C1, T0, BC_FO_C2A, 0, 0);
	assert_int_equal(bc_failover_finish(&f, &err), 0);
	l = &f.links[C0];
	assert_int_equal(l->lacpdus, 14);
	assert_int_equal(l->n_actors, 2);
	assert_int_equal(l->lacp_timeout_ns, T0 + 3600 * MS);
	/* the partner (actor 2) was last heard at 950 ms: silent 2650 ms when it showed */
	assert_int_equal(l->lacp_silence_ns, 2650 * MS);
	assert_int_equal(l->lacp_defaulted_ns, T0 + 4600 * MS);
	assert_int_equal(l->lacp_resync_ns, T0 + 6800 * MS);
	assert_int_equal(f.links[C1].lacpdus, 16);
	assert_int_equal(f.links[C1].lacp_timeout_ns, BC_FO_NONE);
	assert_int_equal(f.links[C1].lacp_resync_ns, BC_FO_NONE);
	bc_failover_free(&f);
}

/* The same frames through a pcap file (read_pcap), and foreign test ids ignored. */
static void test_pcap_file(void **state)
{
	char dir[] = "/tmp/bc-fo-XXXXXX", path[64];
	struct bc_failover f;
	struct bc_fo_cfg c;
	struct bc_error err = {0};
	pcap_t *p;
	pcap_dumper_t *d;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/c.pcap", dir);
	p = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_NANO);
	d = pcap_dump_open(p, path);
	assert_non_null(d);
	cfg_init(&c);
	for (int i = 0; i < 3; i++) {
		struct bc_udphdr h = {.test_id = i == 2 ? 99 : 7, .seq = (uint64_t)i};
		struct bc_pkt_spec s = {.ip_version = 4,
					.proto = 17,
					.sport = 1,
					.dport = 2,
					.payload_len = 40,
					.ours = &h};
		struct pcap_pkthdr ph = {0};
		uint8_t b[128];
		int n;

		s.src[0] = s.dst[0] = 10, s.src[3] = 1, s.dst[3] = 2;
		n = bc_pkt_build(&s, b, sizeof(b));
		ph.caplen = ph.len = (uint32_t)n;
		ph.ts.tv_sec = (time_t)(T0 / 1000000000ull);
		ph.ts.tv_usec = (suseconds_t)i * 1000; /* ns with the nano magic */
		pcap_dump((u_char *)d, &ph, b);
	}
	pcap_dump_close(d);
	pcap_close(p);
	assert_int_equal(bc_failover_init(&f, &c, &err), 0);
	assert_int_equal(bc_failover_add_link(&f, BC_FO_CLIENT, "eth0", &err), 0);
	assert_int_equal(f.cut_link, 0);
	assert_int_equal(bc_failover_add_link(&f, BC_FO_CLIENT, "eth0", &err), -EEXIST);
	assert_int_equal(bc_failover_read_pcap(&f, 0, path, &err), 0);
	assert_int_equal(f.links[0].left, 2);
	assert_int_equal(f.foreign, 1);
	snprintf(path, sizeof(path), "%s/none.pcap", dir);
	bc_error_clear(&err);
	assert_true(bc_failover_read_pcap(&f, 0, path, &err) < 0);
	assert_non_null(strstr(err.msg, "none.pcap"));
	bc_failover_free(&f);
	snprintf(path, sizeof(path), "%s/c.pcap", dir);
	unlink(path);
	rmdir(dir);
}

/* The JSON and text renderers on the active-backup case. */
static void test_report(void **state)
{
	struct bc_failover f;
	struct json_object *o, *d, *l;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	run_ab(&f, 1400, 1060, 0);
	o = bc_failover_json(&f);
	assert_non_null(o);
	d = json_object_array_get_idx(json_object_object_get(o, "directions"), 0);
	assert_string_equal(bc_json_str(d, "verdict"), "slow");
	assert_true(bc_json_dbl(d, "gap_ms", 0) == 401.0);
	assert_int_equal(bc_json_i64(d, "lost_in_gap", 0), 400);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
				    json_object_object_get(d, "tx_after_failover"), 0)),
			    "client/eth1");
	assert_int_equal(bc_json_i64(json_object_object_get(o, "expected"), "limit_ms", 0), 200);
	l = json_object_array_get_idx(json_object_object_get(o, "links"), C1);
	assert_true(bc_json_dbl(l, "first_announcement_after_cut_ms", 0) == 400.5);
	assert_int_equal(
		bc_json_i64(json_object_object_get(l, "gratuitous_arp_after_cut"), "client", 0), 1);
	d = json_object_array_get_idx(
		json_object_object_get(json_object_object_get(o, "timeline"), "links"), C0);
	assert_int_equal(bc_json_len(json_object_object_get(d, "frames")), f.tl_bins);
	assert_string_equal(bc_json_str(d, "side"), "tx");
	/* client eth0 sent 10 per 10 ms before the cut, got the reverse 10 too */
	assert_int_equal(json_object_get_int(json_object_array_get_idx(
				 json_object_object_get(d, "frames"), 50)),
			 10);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(
				 json_object_object_get(d, "reverse_frames"), 50)),
			 10);
	assert_int_equal(
		bc_json_i64(json_object_array_get_idx(json_object_object_get(o, "events"), 0),
			    "time_ns", 0),
		(long long)CUT);
	assert_int_equal(bc_json_len(json_object_object_get(o, "findings")), 2);
	assert_true(
		json_object_is_type(json_object_object_get(json_object_object_get(o, "recovery"),
							   "carries_again_ms"),
				    json_type_null) ||
		!json_object_object_get(json_object_object_get(o, "recovery"), "carries_again_ms"));
	/* the document is bc_plot_failover_timeline()'s input as it is */
	{
		char svg[] = "/tmp/bc-fo-plot-XXXXXX";
		int fd = mkstemp(svg);
		struct bc_error err = {0};
		FILE *fp;
		char head[4096] = "";

		assert_true(fd >= 0);
		close(fd);
		assert_int_equal(bc_plot_failover_timeline(svg, o, &err), 0);
		fp = fopen(svg, "r");
		assert_non_null(fp);
		assert_true(fread(head, 1, sizeof(head) - 1, fp) > 0);
		fclose(fp);
		assert_non_null(strstr(head, "<svg"));
		unlink(svg);
	}
	json_object_object_add(o, "peer", json_object_new_string("10.0.0.2"));
	m = open_memstream(&buf, &len);
	bc_failover_report_text(m, o);
	fclose(m);
	assert_non_null(
		strstr(buf, "Failover of bond0/eth0 (carrier cut, hold 1.0 s) with 10.0.0.2"));
	assert_non_null(strstr(buf, "client-to-agent  slow"));
	assert_non_null(strstr(buf, "client/eth0 -> client/eth1 -> client/eth1"));
	assert_non_null(strstr(buf, "warning failover-slow bond0/eth0:"));
	free(buf);
	json_object_put(o);
	bc_failover_free(&f);
}

/* A TCP data segment client -> agent (port 40000 -> 5302) of @len bytes at @seq, on @link. */
static void tcp_seg(struct bc_failover *f, int link, uint64_t ts, uint32_t seq, uint32_t len)
{
	struct bc_pkt_spec s = {.ip_version = 4,
				.proto = 6,
				.sport = 40000,
				.dport = 5302,
				.payload_len = len,
				.tcp_seq = seq,
				.tcp_flags = 0x18};
	uint8_t buf[1600];
	int n;

	s.src[0] = s.dst[0] = 10;
	s.src[3] = 1;
	s.dst[3] = 2;
	n = bc_pkt_build(&s, buf, sizeof(buf));
	assert_true(n > 0);
	memcpy(buf + 6, client_mac, 6);
	assert_int_equal(bc_failover_add_packet(f, link, ts, buf, (uint32_t)n, (uint32_t)n), 0);
}

#define ISN 4294000000u /* wraps past 2^32 within the test */

/*
 * The TCP flow beside gen_ab(1080, 1060): one 1000-byte segment per ms on
 * client eth0 until the cut; what it sends in [1000, 1080) is lost before
 * the tap (after it with @orig_seen, as a silent cut: the capture sees them
 * leave); its retransmission timer fires at @at ms: segments 1000..1079
 * again on eth1, 10 us apart, 1001 last (held out of order until then); new
 * data from 1080 on, one per ms from @at + 1 ms.  100 us one way.
 */
static void gen_tcp(struct bc_failover *f, uint64_t at, bool orig_seen)
{
	uint64_t t;

	for (uint32_t k = 0; k < 1080; k++) {
		t = T0 + k * MS;
		if (k >= 1000) { /* lost: after the tap only with @orig_seen */
			if (orig_seen)
				tcp_seg(f, C0, t, ISN + k * 1000, 1000);
			continue;
		}
		tcp_seg(f, C0, t, ISN + k * 1000, 1000);
		tcp_seg(f, A0, t + 100000, ISN + k * 1000, 1000);
	}
	for (uint32_t i = 0; i < 80; i++) {
		uint32_t k = i == 79 ? 1001 : i == 0 ? 1000 : 1001 + i;

		t = T0 + at * MS + i * 10000;
		if (t >= T0 + END * MS)
			break;
		tcp_seg(f, C1, t, ISN + k * 1000, 1000);
		tcp_seg(f, A1, t + 100000, ISN + k * 1000, 1000);
	}
	for (uint32_t k = 1080; k < END; k++) {
		t = T0 + (at + k - 1079) * MS;
		if (t >= T0 + END * MS)
			break;
		tcp_seg(f, C1, t, ISN + k * 1000, 1000);
		tcp_seg(f, A1, t + 100000, ISN + k * 1000, 1000);
	}
}

static uint64_t tcp_rto;		    /* cfg.tcp_rto_ns for the next run_tcp() */
static uint64_t tcp_agent_switch_ms = 1060; /* the agent's datagrams move to eth1 then */
static bool tcp_extra_copy;		    /* segment 1500 also arrives on agent eth1 at 1350 ms */

static void run_tcp(struct bc_failover *f, uint16_t dport, uint64_t at, bool orig_seen)
{
	struct bc_fo_cfg c;
	struct bc_fo_end ce, ae;
	struct bc_error err = {0};

	cfg_init(&c);
	c.rx_on_tx_slave_only[BC_FO_CLIENT] = c.rx_on_tx_slave_only[BC_FO_AGENT] = true;
	c.tcp_dport = dport;
	c.tcp_sport = 40000;
	c.tcp_srtt_ns = 1 * MS;
	c.tcp_sender_retrans = 80;
	c.tcp_rto_ns = tcp_rto;
	ab_end(&ce, 100);
	ab_end(&ae, 100);
	assert_int_equal(bc_failover_expect(&ce, &ae, BC_FO_CUT_CARRIER, &c.expect), 0);
	c.have_expect = true;
	assert_int_equal(bc_failover_init(f, &c, &err), 0);
	links(f, 2);
	gen_ab(f, 1080, tcp_agent_switch_ms, 0);
	gen_tcp(f, at, orig_seen);
	if (tcp_extra_copy)
		tcp_seg(f, A1, T0 + 1350 * MS, ISN + 1500 * 1000, 1000);
	assert_int_equal(bc_failover_finish(f, &err), 0);
}

/* The TCP flow's stall, retransmissions, goodput and links; its JSON and text. */
static void test_tcp(void **state)
{
	struct bc_failover f;
	const struct bc_fo_tcp *t = &f.tcp;
	struct json_object *o, *j;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	run_tcp(&f, 5302, 1300, false);
	/* the datagrams are what they were without it */
	assert_int_equal(f.n_streams, 2);
	assert_int_equal(f.streams[0].down.gap_ns, 81 * MS);
	assert_true(t->present);
	assert_int_equal(t->sport, 40000);
	/* in order up to segment 999 at 999.1 ms; next advance: the retransmitted 1000 at 1300.1 */
	assert_true(t->stall_found && !t->stall_open);
	assert_int_equal(t->last_before_ns, T0 + 999 * MS + 100000);
	assert_int_equal(t->first_after_ns, T0 + 1300 * MS + 100000);
	assert_int_equal(t->stall_ns, 301 * MS);
	/*
	 * The first copies of 1000..1079 never reached the capture: sent again they
	 * look new, except 1001, which left after 1079 (a lower bound: 1 of 80)
	 */
	assert_int_equal(t->retrans, 1);
	assert_int_equal(t->retrans_in_hold, 1);
	assert_int_equal(t->first_retrans_ns, T0 + 1300 * MS + 79 * 10000);
	assert_int_equal(t->segments_left, 1000 + 80 + 1699);
	assert_int_equal(t->bytes_sent, (1080 + 1699) * 1000ull);
	assert_int_equal(t->bytes_delivered, t->bytes_sent);
	assert_int_equal(t->not_delivered, 0);
	assert_int_equal(t->left_before, C0);
	assert_int_equal(t->left_after, C1);
	assert_int_equal(t->arrived_before, A0);
	assert_int_equal(t->arrived_after, A1);
	/* 1,000,000 bytes from 0.1 ms to the cut; 779 segments from 1300.1 ms to the restore */
	assert_int_equal(t->goodput_before_bps, 8000800);
	assert_int_equal(t->goodput_after_bps, 8904129);
	/* expected: UDP gap of the stream on the same slave 81 ms; RTO 1 + 200 ms */
	assert_int_equal(t->udp_gap_ns, 81 * MS);
	assert_int_equal(t->rto_ns, 201 * MS);
	assert_int_equal(t->min_ns, 61 * MS);
	assert_int_equal(t->max_ns, (2 * 81 + 201 + 100) * MS);
	assert_string_equal(t->verdict, "within");
	/* the timeline: the flow's segments per 10 ms on each slave, where it was */
	{
		uint64_t sum[6] = {0}, a0_last = 0, a1_first = UINT64_MAX;

		for (size_t b = 0; b < f.tl_bins; b++) {
			uint64_t at = f.tl_start_ns + b * f.tl_bin_ns;

			for (int l = 0; l < 6; l++)
				sum[l] += f.links[l].tl_tcp[b];
			if (f.links[A0].tl_tcp[b])
				a0_last = at;
			if (f.links[A1].tl_tcp[b] && a1_first == UINT64_MAX)
				a1_first = at;
		}
		assert_int_equal(sum[C0], 1000);
		assert_int_equal(sum[A0], 1000);
		/* on eth1 from the retransmissions at 1300 ms to the last datagram (3000 ms) */
		assert_int_equal(sum[C1], sum[A1]);
		assert_true(sum[A1] >= 80 + 1600 && sum[A1] <= 80 + 1699);
		assert_true(a0_last < CUT && a0_last >= CUT - 10 * MS);
		assert_int_equal(a1_first, T0 + 1300 * MS);
	}
	o = bc_failover_json(&f);
	{
		struct json_object *tl = json_object_object_get(o, "timeline");
		struct json_object *a1 =
			json_object_array_get_idx(json_object_object_get(tl, "links"), A1);
		struct json_object *tf = json_object_object_get(a1, "tcp_frames");
		long long s1 = 0;

		assert_int_equal(bc_json_len(tf), f.tl_bins);
		for (size_t b = 0; b < bc_json_len(tf); b++)
			s1 += json_object_get_int(json_object_array_get_idx(tf, b));
		assert_true(s1 >= 80 + 1600 && s1 <= 80 + 1699);
	}
	j = json_object_object_get(o, "tcp");
	assert_non_null(j);
	assert_true(bc_json_dbl(j, "stall_ms", 0) == 301.0);
	assert_true(bc_json_dbl(j, "last_before_ms", 0) == -0.9);
	assert_true(bc_json_dbl(j, "first_retransmission_ms", 0) == 300.79);
	assert_int_equal(bc_json_i64(j, "retransmissions_seen_in_hold", 0), 1);
	assert_int_equal(bc_json_i64(j, "sender_retransmissions", 0), 80);
	assert_string_equal(bc_json_str(j, "left_before"), "client/eth0");
	assert_string_equal(bc_json_str(j, "arrived_after"), "agent/eth1");
	assert_true(bc_json_dbl(json_object_object_get(j, "expected"), "max_ms", 0) == 463.0);
	json_object_object_add(o, "peer", json_object_new_string("10.0.0.2"));
	m = open_memstream(&buf, &len);
	bc_failover_report_text(m, o);
	fclose(m);
	assert_non_null(strstr(buf, "TCP client-to-agent (port 40000 -> 5302): stall 301.0 ms "
				    "(from -0.9 to +300.1 ms), within\n"));
	assert_non_null(strstr(buf, "  expected: at least the UDP gap 81.0 ms - 20; at most 2 x "
				    "81.0 + RTO 201.0 + 100 = 463.0 ms (61.0 ms..463.0 ms)\n"));
	assert_non_null(strstr(buf, "  retransmissions seen: 1 between the cut and the restore "
				    "(first at +300.8 ms), 1 in all; the sender's count "
				    "(TCP_INFO): 80\n"));
	assert_non_null(strstr(buf, "  goodput: 8.00 Mbit/s in the second before the cut, 8.90 "
				    "Mbit/s in the second after the stall\n"));
	assert_non_null(strstr(buf, "  slaves: left client/eth0 -> client/eth1, arrived "
				    "agent/eth0 -> agent/eth1\n"));
	free(buf);
	json_object_put(o);
	bc_failover_free(&f);
	/*
	 * The timer fires at 1700 ms: 701 ms is longer than 2 x 81 + 201 + 100.  The
	 * first copies were seen leaving (a silent cut): all 80 count, from 1000 ms
	 */
	run_tcp(&f, 5302, 1700, true);
	assert_int_equal(f.tcp.stall_ns, 701 * MS);
	assert_string_equal(f.tcp.verdict, "longer");
	assert_int_equal(f.tcp.retrans, 80);
	assert_int_equal(f.tcp.retrans_in_hold, 80);
	assert_int_equal(f.tcp.first_retrans_ns, T0 + 1700 * MS);
	assert_int_equal(f.tcp.segments_left, 1080 + 80 + 1299);
	bc_failover_free(&f);
	/* the sender's own RTO was 450 ms (TCP_INFO): 2 x 81 + 450 + 100 = 712 ms, within */
	tcp_rto = 450 * MS;
	run_tcp(&f, 5302, 1700, true);
	tcp_rto = 0;
	assert_int_equal(f.tcp.rto_ns, 450 * MS);
	assert_int_equal(f.tcp.max_ns, 712 * MS);
	assert_string_equal(f.tcp.verdict, "within");
	bc_failover_free(&f);
	/*
	 * The agent's datagrams still leave eth0 until 1400 ms, so by them its
	 * active slave is eth0 while the resent segments arrive on eth1 from
	 * 1300.1 ms.  None of them arrives again: the agent took them (the
	 * sender resent nothing more), so nothing is "not delivered" and the
	 * stall ends at 1300.1 ms as before.  (A CI run over IPv6 saw the agent's
	 * switch lag by a few ms and the model dropped one segment, then held
	 * every later one out of order: an open stall that TCP_INFO denied.)
	 */
	tcp_agent_switch_ms = 1400;
	run_tcp(&f, 5302, 1300, false);
	assert_int_equal(f.tcp.not_delivered, 0);
	assert_int_equal(f.tcp.bytes_delivered, f.tcp.bytes_sent);
	assert_false(f.tcp.stall_open);
	assert_int_equal(f.tcp.stall_ns, 301 * MS);
	bc_failover_free(&f);
	/* a copy of 1500 on eth1 at 1350 ms that arrives again at 1721.1 ms: that one was dropped
	 */
	tcp_extra_copy = true;
	run_tcp(&f, 5302, 1300, false);
	tcp_extra_copy = false;
	tcp_agent_switch_ms = 1060;
	assert_int_equal(f.tcp.not_delivered, 1);
	assert_int_equal(f.tcp.bytes_delivered, f.tcp.bytes_sent);
	assert_int_equal(f.tcp.stall_ns, 301 * MS);
	bc_failover_free(&f);
	/* never again within the capture: open from 999.1 ms to the last datagram (2999.1 ms) */
	run_tcp(&f, 5302, 5000, false);
	assert_true(f.tcp.stall_open);
	assert_int_equal(f.tcp.stall_ns, 2000 * MS);
	assert_int_equal(f.tcp.retrans, 0);
	assert_string_equal(f.tcp.verdict, "not-recovered");
	bc_failover_free(&f);
	/* no TCP port in the configuration: its segments are ignored, no "tcp" member */
	run_tcp(&f, 0, 1300, false);
	assert_false(f.tcp.present);
	assert_null(f.tcp.verdict);
	o = bc_failover_json(&f);
	assert_null(json_object_object_get(o, "tcp"));
	json_object_put(o);
	bc_failover_free(&f);
	/* another port: nothing of it seen, the verdict says no data */
	run_tcp(&f, 5999, 1300, false);
	assert_false(f.tcp.present);
	assert_string_equal(f.tcp.verdict, "no-data");
	bc_failover_free(&f);
}

/*
 * 802.3ad, client lacp_rate fast, agent slow; silent cut 1000..5000 ms of
 * eth0.  The client's port expires at 3500 ms and its flow moves to eth1;
 * the agent keeps sending on eth0 (its 90 s timeout) to the restore.
 * Client-to-agent: within the client's range.  Agent-to-client: nothing
 * delivered for the hold, shorter than the agent's detection: inconclusive,
 * and a black-hole finding all the same.
 */
static void test_asym_lacp(void **state)
{
	struct bc_failover f;
	struct bc_fo_cfg c;
	struct bc_fo_end ce, ae;
	struct bc_error err = {0};
	const struct bc_finding *x;
	struct json_object *o;
	char *buf = NULL;
	const char *a, *b;
	size_t len = 0;
	FILE *m;

	(void)state;
	cfg_init(&c);
	c.cut = BC_FO_CUT_SILENT;
	c.restore_ns = T0 + 5000 * MS;
	memset(&ce, 0, sizeof(ce));
	ce.known = ce.is_bond = true;
	ce.mode = BC_MODE_8023AD;
	ce.lacp_rate = 1;
	ae = ce;
	ae.lacp_rate = 0;
	assert_int_equal(bc_failover_expect(&ce, &ae, BC_FO_CUT_SILENT, &c.expect), 0);
	c.have_expect = true;
	assert_int_equal(bc_failover_init(&f, &c, &err), 0);
	links(&f, 2);
	for (uint64_t k = 0; k < 7000; k++) {
		uint64_t t = T0 + k * MS;
		bool wire = k < 1000 || k >= 5000;
		int cl = k >= 3500 && k < 5000 ? C1 : C0;

		dgram(&f, cl, t, BC_FO_C2A, 0, k);
		if (wire || cl == C1)
			dgram(&f, cl + 3, t + 100000, BC_FO_C2A, 0, k);
		dgram(&f, A0, t, BC_FO_A2C, 1, k);
		if (wire)
			dgram(&f, C0, t + 100000, BC_FO_A2C, 1, k);
	}
	assert_int_equal(bc_failover_finish(&f, &err), 0);
	assert_string_equal(f.dir[BC_FO_C2A].verdict, "within");
	assert_int_equal(f.dir[BC_FO_C2A].sender_moved, 1);
	assert_int_equal(f.dir[BC_FO_C2A].tx_after, 1ull << C1);
	assert_string_equal(f.dir[BC_FO_A2C].verdict, "inconclusive");
	assert_int_equal(f.dir[BC_FO_A2C].sender_moved, 0);
	assert_non_null(strstr(f.dir[BC_FO_A2C].why, "agent's detection (up to 90100 ms"));
	assert_non_null(strstr(f.dir[BC_FO_A2C].why, "--hold 91.1"));
	assert_non_null(strstr(f.dir[BC_FO_A2C].why, "agent kept sending on agent/eth0"));
	x = find(&f, "failover-ends-differ", 0);
	assert_non_null(x);
	assert_string_equal(ev(x, "differ"), "lacp_rate client fast, agent slow");
	x = find(&f, "failover-black-hole", 0);
	assert_non_null(x);
	assert_int_equal(x->severity, BC_SEV_ERROR);
	assert_string_equal(ev(x, "direction"), "agent-to-client");
	assert_string_equal(ev(x, "expected_ms"), "90100");
	assert_null(strstr(x->advice, "arp_ip_target"));
	assert_null(find(&f, "failover-black-hole", 1));
	assert_null(find(&f, "failover-slow", 0));
	assert_non_null(strstr(f.saw[BC_FO_AGENT], "had not seen it when the hold ended (4000 ms, "
						   "its detection up to 90100 ms)"));
	/* the report: the difference first, then one range per direction */
	o = bc_failover_json(&f);
	assert_non_null(o);
	/* one line per sentence: the prose wraps to COLUMNS (bondcheck/wrap.h) */
	setenv("COLUMNS", "1000", 1);
	m = open_memstream(&buf, &len);
	bc_failover_report_text(m, o);
	fclose(m);
	unsetenv("COLUMNS");
	if (getenv("BC_TEST_SHOW"))
		fputs(buf, stderr);
	a = strstr(buf, "ends configured differently: lacp_rate client fast, agent slow\n");
	assert_non_null(a);
	b = strstr(buf,
		   "expected agent-to-client: agent: LACP long (lacp_rate slow) timeout 90000 ms "
		   "(3 x 30000 ms) -> gap 90000 ms (59900..90100 ms)");
	assert_non_null(b);
	assert_true(a < b);
	assert_non_null(strstr(buf,
			       "expected client-to-agent: client: LACP short (lacp_rate fast) "
			       "timeout 3000 ms (3 x 1000 ms) -> gap 3000 ms (1900..3100 ms)"));
	assert_non_null(strstr(buf, "agent-to-client  inconclusive"));
	free(buf);
	json_object_put(o);
	bc_failover_free(&f);
}

/*
 * active-backup miimon 100 on both ends, the client's eth0 loses carrier and
 * the client moves to eth1 at 1100 ms; the agent's eth0 keeps carrier (a
 * switch between): it keeps sending on eth0 and delivers only what arrives
 * there.  Both directions are black holes; the sender's slaves come from its
 * departures (the client on eth1 after the failover), and the advice names
 * carrier-only monitoring, not ARP.
 */
static void test_one_end_sees(void **state)
{
	struct bc_failover f;
	struct bc_fo_cfg c;
	struct bc_fo_end e;
	struct bc_error err = {0};
	const struct bc_finding *x;

	(void)state;
	cfg_init(&c);
	c.rx_on_tx_slave_only[0] = c.rx_on_tx_slave_only[1] = true;
	ab_end(&e, 100);
	assert_int_equal(bc_failover_expect(&e, &e, BC_FO_CUT_CARRIER, &c.expect), 0);
	c.have_expect = true;
	assert_int_equal(bc_failover_init(&f, &c, &err), 0);
	links(&f, 2);
	for (uint64_t k = 0; k < END; k++) {
		uint64_t t = T0 + k * MS;
		bool cut = k >= 1000 && k < 2000;
		int cl = k >= 1100 && k < 2000 ? C1 : C0;

		if (!cut || cl == C1) /* admin down: dropped before the tap */
			dgram(&f, cl, t, BC_FO_C2A, 0, k);
		if (!cut || cl == C1)
			dgram(&f, cl + 3, t + 100000, BC_FO_C2A, 0, k);
		dgram(&f, A0, t, BC_FO_A2C, 1, k);
		if (!cut)
			dgram(&f, C0, t + 100000, BC_FO_A2C, 1, k);
	}
	assert_int_equal(bc_failover_finish(&f, &err), 0);
	for (int d = 0; d < 2; d++)
		assert_string_equal(f.dir[d].verdict, "black-hole");
	/* measured departures: the client left on eth1 at the end of the hold */
	assert_int_equal(f.dir[BC_FO_C2A].tx_after, 1ull << C1);
	assert_int_equal(f.dir[BC_FO_A2C].tx_after, 1ull << A0);
	assert_non_null(strstr(f.dir[BC_FO_C2A].why, "the client moved to client/eth1"));
	assert_non_null(strstr(f.dir[BC_FO_C2A].why, "agent kept sending on agent/eth0"));
	x = find(&f, "failover-black-hole", 1);
	assert_non_null(x);
	assert_string_equal(ev(x, "direction"), "agent-to-client");
	assert_string_equal(ev(x, "sender"), "kept sending on agent/eth0");
	assert_non_null(strstr(x->advice, "watches carrier only"));
	assert_null(strstr(x->advice, "arp_ip_target"));
	/* who saw the cut: the client did, the agent could not (carrier only) */
	assert_string_equal(
		f.saw[BC_FO_CLIENT],
		"saw it: left client/eth0 for client/eth1 at +100 ms, as its miimon allows");
	assert_non_null(strstr(f.saw[BC_FO_AGENT], "did not see it: it kept sending on agent/eth0; "
						   "it watches carrier only"));
	bc_failover_free(&f);
}

/*
 * Each direction's range from the ends that must detect the cut for it:
 * ends configured differently get one range per direction, never a
 * combined one, and the difference is named.
 */
static void test_expect_per_end(void **state)
{
	struct bc_fo_end c, a;
	struct bc_fo_expect x;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.known = c.is_bond = true;
	c.mode = BC_MODE_8023AD;
	c.miimon_ms = 100;
	c.lacp_rate = 1;
	a = c;
	a.lacp_rate = 0;
	assert_int_equal(bc_failover_expect(&c, &a, BC_FO_CUT_SILENT, &x), 0);
	assert_true(x.ends_differ);
	assert_string_equal(x.differ, "lacp_rate client fast, agent slow");
	/* 802.3ad delivers on any collecting port: the sender alone must detect */
	assert_int_equal(x.dir[BC_FO_C2A].detectors, 1u << BC_FO_CLIENT);
	assert_int_equal(x.dir[BC_FO_C2A].min_ms, 1900);
	assert_int_equal(x.dir[BC_FO_C2A].worst_ms, 3100);
	assert_int_equal(x.dir[BC_FO_A2C].detectors, 1u << BC_FO_AGENT);
	assert_int_equal(x.dir[BC_FO_A2C].slowest, BC_FO_AGENT);
	assert_int_equal(x.dir[BC_FO_A2C].min_ms, 59900);
	assert_int_equal(x.dir[BC_FO_A2C].worst_ms, 90100);
	assert_string_equal(x.dir[BC_FO_A2C].basis,
			    "agent: LACP long (lacp_rate slow) timeout 90000 ms (3 x 30000 ms)");
	assert_int_equal(x.end[BC_FO_CLIENT].sees, BC_FO_SEES_LACPDUS);
	/* the hold must cover the slowest end */
	assert_int_equal(x.worst_ms, 90100);

	/* active-backup: both ends must detect (the receiver delivers only on its active
	 * slave); a carrier cut reaches the agent's miimon only when wired straight */
	ab_end(&c, 100);
	ab_end(&a, 100);
	a.downdelay_ms = 300;
	assert_int_equal(bc_failover_expect(&c, &a, BC_FO_CUT_CARRIER, &x), 0);
	assert_string_equal(x.differ, "downdelay client 0, agent 300");
	for (int d = 0; d < 2; d++) {
		assert_int_equal(x.dir[d].detectors, 3u);
		assert_int_equal(x.dir[d].worst_ms, 400);
		assert_int_equal(x.dir[d].min_ms, 300);
		assert_int_equal(x.dir[d].slowest, BC_FO_AGENT);
		assert_true(x.dir[d].far_carrier);
		assert_false(x.dir[d].black_hole);
	}
	assert_int_equal(x.end[BC_FO_CLIENT].sees, BC_FO_SEES_CARRIER);
	assert_int_equal(x.end[BC_FO_AGENT].sees, BC_FO_SEES_FAR_CARRIER);
	assert_int_equal(x.end[BC_FO_AGENT].far_by, BC_FO_BY_NOTHING);
	assert_non_null(strstr(x.end[BC_FO_AGENT].sight, "through a switch nothing"));
	/* alike ends: no difference reported */
	assert_int_equal(bc_failover_expect(&c, &c, BC_FO_CUT_CARRIER, &x), 0);
	assert_false(x.ends_differ);
	/* ARP monitoring on both: both see it by the replies, whatever the cut */
	c.miimon_ms = 0;
	c.arp_interval_ms = 100;
	c.n_arp_targets = 1;
	assert_int_equal(bc_failover_expect(&c, &c, BC_FO_CUT_CARRIER, &x), 0);
	assert_int_equal(x.end[BC_FO_AGENT].sees, BC_FO_SEES_ARP);
	assert_false(x.dir[BC_FO_A2C].far_carrier);
}

/* Redundancy before the cut (bc_fo_takeover). */
static void test_takeover(void **state)
{
	struct bc_slave sl[2];
	struct bc_bond b;
	char why[240];

	(void)state;
	memset(&b, 0, sizeof(b));
	memset(sl, 0, sizeof(sl));
	b.slaves = sl;
	b.n_slaves = 2;
	snprintf(sl[0].name, sizeof(sl[0].name), "a1");
	snprintf(sl[1].name, sizeof(sl[1].name), "b1");
	/* active-backup, ARP monitoring with arp_validate all: the backup going down */
	b.mode = (struct bc_u32){.st = BC_KNOWN, .v = BC_MODE_ACTIVEBACKUP};
	b.arp_interval_ms = (struct bc_u32){.st = BC_KNOWN, .v = 100};
	b.arp_validate = (struct bc_u32){.st = BC_KNOWN, .v = 3};
	sl[0].mii_status = (struct bc_u32){.st = BC_KNOWN, .v = BC_LINK_UP};
	sl[1].mii_status = (struct bc_u32){.st = BC_KNOWN, .v = BC_LINK_FAIL};
	assert_int_equal(bc_fo_takeover(&b, "a1", why, sizeof(why)), 0);
	assert_non_null(strstr(why, "b1 is going down; arp_validate all keeps a backup up"));
	assert_int_equal(bc_fo_takeover(&b, "eth9", why, sizeof(why)), -EINVAL);
	sl[1].mii_status.v = BC_LINK_UP;
	assert_int_equal(bc_fo_takeover(&b, "a1", why, sizeof(why)), 1);
	/* 802.3ad: up but not collecting and distributing, or in another aggregator */
	b.mode.v = BC_MODE_8023AD;
	b.arp_interval_ms.v = 0;
	for (int i = 0; i < 2; i++) {
		sl[i].aggregator_id = (struct bc_u32){.st = BC_KNOWN, .v = 1};
		sl[i].actor_oper_port_state = (struct bc_u32){.st = BC_KNOWN, .v = 0x3f};
	}
	assert_int_equal(bc_fo_takeover(&b, "a1", why, sizeof(why)), 1);
	sl[1].actor_oper_port_state.v = 0x0f;
	assert_int_equal(bc_fo_takeover(&b, "a1", why, sizeof(why)), 0);
	assert_string_equal(why, "b1 is not collecting and distributing");
	sl[1].actor_oper_port_state.v = 0x3f;
	sl[1].aggregator_id.v = 2;
	assert_int_equal(bc_fo_takeover(&b, "a1", why, sizeof(why)), 0);
	assert_string_equal(why, "b1 is in aggregator 2, a1 in 1");
}

/* What each configuration implies (bc_failover_expect). */
static void test_expect(void **state)
{
	struct bc_fo_end c, a;
	struct bc_fo_expect x;

	(void)state;
	ab_end(&c, 100);
	c.downdelay_ms = 200;
	c.updelay_ms = 400;
	assert_int_equal(bc_failover_expect(&c, &c, BC_FO_CUT_CARRIER, &x), 0);
	assert_int_equal(x.by, BC_FO_BY_MIIMON);
	assert_int_equal(x.nominal_ms, 300);
	assert_int_equal(x.min_ms, 200);
	assert_int_equal(x.limit_ms, 400);
	assert_int_equal(x.recovery_ms, 500);
	assert_string_equal(x.basis, "miimon 100 ms + downdelay 200 ms (client and agent)");

	/* miimon only, silent cut: nothing sees it */
	assert_int_equal(bc_failover_expect(&c, NULL, BC_FO_CUT_SILENT, &x), 0);
	assert_true(x.black_hole && x.assumed_agent);
	assert_non_null(strstr(x.missing, "miimon 100 sees only carrier"));

	/* ARP 100 ms x 3 missed */
	ab_end(&c, 0);
	c.arp_interval_ms = 100;
	c.arp_missed_max = 3;
	c.n_arp_targets = 1;
	assert_int_equal(bc_failover_expect(&c, &c, BC_FO_CUT_SILENT, &x), 0);
	assert_int_equal(x.by, BC_FO_BY_ARP);
	assert_int_equal(x.nominal_ms, 300);
	assert_int_equal(x.min_ms, 200);
	assert_int_equal(x.worst_ms, 450);
	assert_int_equal(x.limit_ms, 562);
	/* the default missed_max 2 when the kernel does not report it */
	c.arp_missed_max = 0;
	assert_int_equal(bc_failover_expect(&c, &c, BC_FO_CUT_SILENT, &x), 0);
	assert_int_equal(x.nominal_ms, 200);
	/* ARP interval without a target is no monitoring */
	c.n_arp_targets = 0;
	assert_int_equal(bc_failover_expect(&c, &c, BC_FO_CUT_SILENT, &x), 0);
	assert_true(x.black_hole);
	assert_non_null(strstr(x.missing, "miimon 0 and no ARP monitoring: none at all"));

	/* 802.3ad: LACP timeouts; carrier loss with miimon is faster */
	memset(&c, 0, sizeof(c));
	c.known = c.is_bond = true;
	c.mode = BC_MODE_8023AD;
	c.miimon_ms = 100;
	c.lacp_rate = 1;
	assert_int_equal(bc_failover_expect(&c, &c, BC_FO_CUT_SILENT, &x), 0);
	assert_int_equal(x.by, BC_FO_BY_LACP);
	assert_int_equal(x.nominal_ms, 3000);
	assert_int_equal(x.min_ms, 1900);
	assert_int_equal(x.worst_ms, 3100);
	assert_int_equal(x.limit_ms, 3100 + 775);
	assert_int_equal(bc_failover_expect(&c, &c, BC_FO_CUT_CARRIER, &x), 0);
	/* the client drops the slave at once; the agent only when its carrier follows,
	 * else at its LACP timeout: that is what the hold must cover */
	assert_int_equal(x.dir[BC_FO_C2A].by, BC_FO_BY_CARRIER);
	assert_int_equal(x.dir[BC_FO_C2A].worst_ms, 0);
	assert_int_equal(x.dir[BC_FO_C2A].limit_ms, 100);
	assert_int_equal(x.dir[BC_FO_C2A].detectors, 1u << BC_FO_CLIENT);
	assert_int_equal(x.end[BC_FO_AGENT].sees, BC_FO_SEES_FAR_CARRIER);
	assert_int_equal(x.end[BC_FO_AGENT].far_by, BC_FO_BY_LACP);
	assert_int_equal(x.dir[BC_FO_A2C].min_ms, 0);
	assert_int_equal(x.dir[BC_FO_A2C].worst_ms, 3100);
	assert_true(x.dir[BC_FO_A2C].far_carrier);
	assert_int_equal(x.worst_ms, 3100);
	assert_int_equal(x.recovery_ms, 100);
	/* balance-xor without any monitoring still drops a slave that loses carrier */
	c.mode = BC_MODE_XOR;
	c.miimon_ms = 0;
	assert_int_equal(bc_failover_expect(&c, &c, BC_FO_CUT_CARRIER, &x), 0);
	assert_false(x.black_hole);
	assert_string_equal(x.basis,
			    "carrier loss, seen at once in balance-xor (the slave's netdev "
			    "event) (client and agent)");
	assert_int_equal(bc_failover_expect(&c, &c, BC_FO_CUT_SILENT, &x), 0);
	assert_true(x.black_hole);
	c.mode = BC_MODE_8023AD;
	c.lacp_rate = 0;
	assert_int_equal(bc_failover_expect(&c, &c, BC_FO_CUT_SILENT, &x), 0);
	assert_int_equal(x.nominal_ms, 90000);

	/* the agent is a bridge: the client's detection alone; a slower agent wins */
	ab_end(&c, 100);
	memset(&a, 0, sizeof(a));
	a.known = true;
	assert_int_equal(bc_failover_expect(&c, &a, BC_FO_CUT_CARRIER, &x), 0);
	assert_int_equal(x.worst_ms, 100);
	assert_string_equal(x.basis, "client: miimon 100 ms + downdelay 0 ms; agent: not a bond");
	ab_end(&a, 500);
	assert_int_equal(bc_failover_expect(&c, &a, BC_FO_CUT_CARRIER, &x), 0);
	assert_int_equal(x.worst_ms, 500);
	/* an agent that cannot see it makes it a black hole */
	ab_end(&a, 0);
	assert_int_equal(bc_failover_expect(&c, &a, BC_FO_CUT_CARRIER, &x), 0);
	assert_true(x.black_hole);
	assert_string_equal(x.missing, "agent: miimon 0 and no ARP monitoring: none at all");
	assert_int_equal(bc_failover_expect(&a, NULL, BC_FO_CUT_CARRIER, &x), 0);
	assert_null(strstr(x.missing, "agent"));
	/* the client's configuration is required */
	memset(&c, 0, sizeof(c));
	assert_int_equal(bc_failover_expect(&c, &a, BC_FO_CUT_CARRIER, &x), -EINVAL);
	assert_non_null(bc_findings_lookup("failover-slow"));
	assert_int_equal(bc_findings_lookup("failover-black-hole")->severity, BC_SEV_ERROR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_active_backup),
		cmocka_unit_test(test_clock_offset),
		cmocka_unit_test(test_slow),
		cmocka_unit_test(test_black_hole),
		cmocka_unit_test(test_xor_moved_and_unaffected),
		cmocka_unit_test(test_moved_without_loss),
		cmocka_unit_test(test_lacp),
		cmocka_unit_test(test_pcap_file),
		cmocka_unit_test(test_expect),
		cmocka_unit_test(test_expect_per_end),
		cmocka_unit_test(test_takeover),
		cmocka_unit_test(test_asym_lacp),
		cmocka_unit_test(test_one_end_sees),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_tcp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
