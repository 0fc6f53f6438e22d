// SPDX-License-Identifier: GPL-2.0-or-later
/* Loss ledger arithmetic (bondcheck/ledger.h) on constructed inputs, exact counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/ledger.h"

/* Three slaves each way, tx:client/ethN -> rx:agent/ethN, every counter 0. */
static void base(struct bc_ledger_in *in, uint64_t per_link)
{
	bc_ledger_in_init(in);
	snprintf(in->sender, sizeof(in->sender), "client");
	snprintf(in->receiver, sizeof(in->receiver), "agent");
	snprintf(in->sender_addr, sizeof(in->sender_addr), "10.0.0.1");
	snprintf(in->receiver_addr, sizeof(in->receiver_addr), "10.0.0.2");
	snprintf(in->sender_bond, sizeof(in->sender_bond), "bond0");
	snprintf(in->receiver_bond, sizeof(in->receiver_bond), "bond0");
	in->n_tx = in->n_rx = 3;
	for (int i = 0; i < 3; i++) {
		snprintf(in->tx[i].name, BC_LEDGER_NAME, "tx:client/eth%d", i);
		snprintf(in->tx[i].peer, BC_LEDGER_NAME, "rx:agent/eth%d", i);
		snprintf(in->rx[i].name, BC_LEDGER_NAME, "rx:agent/eth%d", i);
		in->tx[i].left = per_link;
		in->tx[i].qdisc_drops = 0;
		in->tx[i].tx_dropped = 0;
		in->rx[i].rx_dropped = in->rx[i].rx_missed = in->rx[i].rx_over = 0;
		in->rx[i].driver_drops = 0;
	}
	in->sent_by_app = in->left = in->arrived = in->reassembled = in->read_by_app = 3 * per_link;
	in->snd_buf_errors = 0;
	in->rcv_in_datagrams = (int64_t)(3 * per_link);
	in->rcv_in_errors = in->rcv_buf_errors = in->rcv_reasm_fails = 0;
	in->softnet_dropped = 0;
	in->shared_kernel = true;
}

static const struct bc_ledger_finding *find(const struct bc_ledger *l, const char *id,
					    const char *subject)
{
	for (size_t i = 0; i < l->n_f; i++)
		if (!strcmp(l->f[i].id, id) && !strcmp(l->f[i].subject, subject))
			return &l->f[i];
	return NULL;
}

static void test_clean(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;

	(void)state;
	base(&in, 1000);
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.n_f, 0);
	assert_int_equal(l.wire_lost, 0);
	for (int i = 0; i < BC_LEDGER_STAGES; i++) {
		assert_int_equal(l.st[i].count, 3000);
		assert_int_equal(l.st[i].drop, 0);
		assert_true(l.st[i].known);
		assert_string_equal(l.st[i].counter, "");
	}
	assert_string_equal(l.st[4].stage, "reached_socket");
}

/* 5 % loss on the eth1 wire: 50 of 1000, no counter: wire-loss on that path only. */
static void test_wire(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	base(&in, 1000);
	in.tx[1].lost = 50;
	in.arrived = in.reassembled = in.read_by_app = 2950;
	in.rcv_in_datagrams = 2950;
	in.softnet_dropped = 7; /* shared kernel: named, never subtracted */
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.n_f, 1);
	f = find(&l, "wire-loss", "tx:client/eth1");
	assert_non_null(f);
	assert_int_equal(f->count, 50);
	assert_int_equal(f->of, 1000);
	assert_string_equal(f->host, "10.0.0.1");
	assert_string_equal(f->path, "tx:client/eth1 -> rx:agent/eth1");
	assert_int_equal(l.wire_lost, 50);
	assert_int_equal(l.st[2].drop, 50);
	assert_int_equal(l.st[2].explained, 0);
	assert_true(l.softnet_unsplittable);
	assert_non_null(strstr(l.st[2].counter, "softnet dropped +7 (global per CPU"));
	assert_int_equal(l.st[3].drop + l.st[4].drop + l.st[5].drop, 0);
}

/* netem on the sender's slave eth2: 40 qdisc drops before the tap. */
static void test_tx_qdisc(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	base(&in, 1000);
	in.sent_by_app = 3040;
	in.tx[2].qdisc_drops = 43; /* 3 more than test datagrams: ARP, LACP */
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.n_f, 1);
	f = find(&l, "tx-loss", "tx:client/eth2");
	assert_non_null(f);
	assert_int_equal(f->count, 40);
	assert_int_equal(f->of, 3040);
	assert_int_equal(l.st[1].drop, 40);
	assert_int_equal(l.st[1].explained, 40);
	assert_string_equal(l.st[1].counter, "qdisc drops tx:client/eth2 +43");
	assert_null(find(&l, "wire-loss", "tx:client/eth2"));
	assert_int_equal(l.wire_lost, 0);
}

/* tbf limit drop: qdisc and SndbufErrors both move for the same datagrams. */
static void test_tx_sndbuf(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	base(&in, 1000);
	in.sent_by_app = 3010;
	in.snd_buf_errors = 10;
	bc_ledger_compute(&in, &l);
	f = find(&l, "tx-loss", "client/bond0");
	assert_non_null(f);
	assert_int_equal(f->count, 10);
	assert_int_equal(l.st[1].explained, 10);
	in.tx[0].qdisc_drops = 10;
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.n_f, 1);
	assert_int_equal(l.f[0].count, 10);
	assert_string_equal(l.f[0].subject, "tx:client/eth0");
	assert_int_equal(l.st[1].explained, 10);
}

/* Receiver NIC drops explain part of a path's loss; tx_dropped a part; the rest is wire. */
static void test_nic_then_wire(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	base(&in, 1000);
	in.tx[0].lost = 30;
	in.tx[0].tx_dropped = 5;
	in.rx[0].rx_dropped = 12;
	in.rx[0].driver_drops = 20; /* larger: the driver's view wins, not 32 */
	snprintf(in.rx[0].driver_counter, sizeof(in.rx[0].driver_counter), "rx_no_buffer_count");
	in.arrived = in.reassembled = in.read_by_app = 2970;
	in.rcv_in_datagrams = 2970;
	bc_ledger_compute(&in, &l);
	assert_int_equal(bc_ledger_nic_drops(&in.rx[0]), 20);
	f = find(&l, "rx-loss-nic", "rx:agent/eth0");
	assert_non_null(f);
	assert_int_equal(f->count, 20);
	assert_string_equal(f->host, "10.0.0.2");
	assert_non_null(strstr(f->counter, "rx_no_buffer_count +20"));
	f = find(&l, "tx-loss", "tx:client/eth0");
	assert_non_null(f);
	assert_int_equal(f->count, 5);
	f = find(&l, "wire-loss", "tx:client/eth0");
	assert_non_null(f);
	assert_int_equal(f->count, 5);
	assert_int_equal(l.wire_lost, 5);
	assert_int_equal(l.st[2].drop, 30);
	assert_int_equal(l.st[2].explained, 25);
	assert_int_equal(l.n_f, 3);
}

/* Ends on separate kernels: the receiver's softnet drops explain before wire-loss. */
static void test_softnet_own_kernel(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	base(&in, 1000);
	in.shared_kernel = false;
	in.softnet_dropped = 8;
	in.tx[1].lost = 10;
	in.arrived = in.reassembled = in.read_by_app = 2990;
	in.rcv_in_datagrams = 2990;
	bc_ledger_compute(&in, &l);
	f = find(&l, "rx-loss-nic", "agent/bond0");
	assert_non_null(f);
	assert_int_equal(f->count, 8);
	f = find(&l, "wire-loss", "tx:client/eth1");
	assert_non_null(f);
	assert_int_equal(f->count, 2);
	assert_false(l.softnet_unsplittable);
	assert_int_equal(l.st[2].explained, 8);
}

/* A slow reader: 400 RcvbufErrors, the app read 2600 of 3000. */
static void test_socket(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	base(&in, 1000);
	in.read_by_app = 2600;
	in.rcv_in_datagrams = 2600;
	in.rcv_buf_errors = 400;
	in.rcv_in_errors = 400;
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.st[4].count, 3000);
	assert_int_equal(l.st[4].drop, 0);
	assert_int_equal(l.st[5].drop, 400);
	assert_int_equal(l.st[5].explained, 400);
	assert_string_equal(l.st[5].counter, "Udp RcvbufErrors +400, Udp InErrors +400");
	assert_int_equal(l.n_f, 1);
	f = find(&l, "rx-loss-socket", "agent/bond0");
	assert_non_null(f);
	assert_int_equal(f->count, 400);
	assert_int_equal(f->of, 3000);
	assert_string_equal(f->host, "10.0.0.2");
}

/*
 * Wires between the ends (a wire namespace): the receiving veth eth2's peer
 * is the wire's veth, whose tx_dropped moved by 14 (eth2's backlog refused
 * them); 20 lost on eth2: 14 rx-loss-nic on rx:agent/eth2, 6 wire-loss.
 * The sender's own tx_dropped (3, another counter) still explains tx-loss
 * on eth0.
 */
static void test_veth_peer_wire(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	base(&in, 1000);
	in.tx[2].lost = 20;
	in.rx[2].peer_tx_dropped = 14;
	in.rx[2].peer_is_sender = false;
	in.tx[0].lost = 3;
	in.tx[0].tx_dropped = 3;
	in.arrived = in.reassembled = in.read_by_app = 2977;
	in.rcv_in_datagrams = 2977;
	bc_ledger_compute(&in, &l);
	f = find(&l, "rx-loss-nic", "rx:agent/eth2");
	assert_non_null(f);
	assert_int_equal(f->count, 14);
	assert_non_null(strstr(f->counter, "tx_dropped +14 on the peer of the veth rx:agent/eth2"));
	f = find(&l, "wire-loss", "tx:client/eth2");
	assert_non_null(f);
	assert_int_equal(f->count, 6);
	f = find(&l, "tx-loss", "tx:client/eth0");
	assert_non_null(f);
	assert_int_equal(f->count, 3);
	assert_int_equal(l.st[2].drop, 23);
	assert_int_equal(l.st[2].explained, 17);
	assert_non_null(strstr(l.st[2].counter, "veth peer tx_dropped rx:agent/eth2 +14"));
	assert_int_equal(l.n_f, 3);
}

/*
 * A direct veth cable: rx:agent/eth1's peer is the sender's eth1, so the
 * peer's tx_dropped (9) and the sender slave's tx_dropped (9) are one
 * counter: 9 rx-loss-nic (the receiver's backlog), no tx-loss, nothing
 * counted twice; the 2 left over are wire-loss.
 */
static void test_veth_peer_is_sender(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	base(&in, 1000);
	in.tx[1].lost = 11;
	in.tx[1].tx_dropped = 9;
	in.rx[1].peer_tx_dropped = 9;
	in.rx[1].peer_is_sender = true;
	in.arrived = in.reassembled = in.read_by_app = 2989;
	in.rcv_in_datagrams = 2989;
	bc_ledger_compute(&in, &l);
	f = find(&l, "rx-loss-nic", "rx:agent/eth1");
	assert_non_null(f);
	assert_int_equal(f->count, 9);
	assert_null(find(&l, "tx-loss", "tx:client/eth1"));
	f = find(&l, "wire-loss", "tx:client/eth1");
	assert_non_null(f);
	assert_int_equal(f->count, 2);
	assert_int_equal(l.st[2].explained, 9);
	assert_int_equal(l.n_f, 2);
	/* the same counts without the peer's view: the sender's tx_dropped is tx-loss */
	in.rx[1].peer_tx_dropped = -1;
	bc_ledger_compute(&in, &l);
	f = find(&l, "tx-loss", "tx:client/eth1");
	assert_non_null(f);
	assert_int_equal(f->count, 9);
	assert_null(find(&l, "rx-loss-nic", "rx:agent/eth1"));
}

/*
 * The receiving sockets' /proc/net/udp drops (250): InErrors +250 makes the
 * read_by_app gap, RcvbufErrors is unknown; the sockets' own drops explain
 * it and are named in the stage and the finding; without them the finding
 * says they are unknown and InErrors alone explains.
 */
static void test_socket_proc_drops(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	base(&in, 1000);
	in.read_by_app = 2750;
	in.rcv_in_datagrams = 2750;
	in.rcv_buf_errors = -1;
	in.rcv_in_errors = 250;
	in.rcv_sock_drops = 250;
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.st[4].count, 3000);
	assert_int_equal(l.st[5].drop, 250);
	assert_int_equal(l.st[5].explained, 250);
	assert_string_equal(l.st[5].counter,
			    "Udp InErrors +250, socket drops (/proc/net/udp) +250");
	f = find(&l, "rx-loss-socket", "agent/bond0");
	assert_non_null(f);
	assert_int_equal(f->count, 250);
	assert_non_null(strstr(f->counter, "socket drops (/proc/net/udp) +250"));
	/* InErrors unknown: reached_socket cannot be counted, the sockets' drops still name the
	 * cause */
	in.rcv_in_errors = -1;
	bc_ledger_compute(&in, &l);
	assert_false(l.st[4].known);
	assert_non_null(strstr(l.st[5].counter, "socket drops (/proc/net/udp) +250"));
	in.rcv_in_errors = 250;
	in.rcv_sock_drops = -1;
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.st[5].explained, 250);
	assert_string_equal(l.st[5].counter, "Udp InErrors +250");
	f = find(&l, "rx-loss-socket", "agent/bond0");
	assert_non_null(f);
	assert_non_null(strstr(f->counter, "socket drops (/proc/net/udp) unknown"));
}

/*
 * The run-ledger-8023ad gap (main's build-ledger run): 9212 whole at the
 * receiver's taps, UDP counted 9081 (InDatagrams, InErrors 0), Ip
 * InReceives 9088 (7 of them TCP): 131 never reached IP.  With the
 * receiving slave's rx_nohandler +131 (the bond refused them after the tap)
 * the reached_socket gap is rx-loss-nic on that slave; without a counter it
 * stays unexplained and the stage names Ip InReceives.
 */
static void test_nohandler(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	base(&in, 3000);
	in.sent_by_app = in.left = in.arrived = in.reassembled = 9212;
	in.read_by_app = 9081;
	in.rcv_in_datagrams = 9081;
	in.rcv_ip_in_receives = 9088;
	in.rx[1].rx_nohandler = 131;
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.st[4].count, 9081);
	assert_int_equal(l.st[4].drop, 131);
	assert_int_equal(l.st[4].explained, 131);
	assert_non_null(strstr(l.st[4].counter, "rx_nohandler rx:agent/eth1 +131"));
	assert_non_null(strstr(l.st[4].counter, "Ip InReceives +9088"));
	f = find(&l, "rx-loss-nic", "rx:agent/eth1");
	assert_non_null(f);
	assert_int_equal(f->count, 131);
	assert_non_null(strstr(f->counter, "rx_nohandler on rx:agent/eth1 +131"));
	assert_int_equal(l.st[5].drop, 0);
	assert_int_equal(l.n_f, 1);
	/* no counter moved: unexplained, no finding, Ip InReceives still named */
	in.rx[1].rx_nohandler = 0;
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.st[4].drop, 131);
	assert_int_equal(l.st[4].explained, 0);
	assert_int_equal(l.n_f, 0);
	assert_string_equal(l.st[4].counter,
			    "Ip InReceives +9088 (every protocol: fewer than arrived means they "
			    "never reached IP)");
}

/* Fragmented messages: 12 complete but too far, 9 ReasmFails; unknown socket counters. */
static void test_reassembly_unknown_socket(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	base(&in, 100);
	in.too_far = 12;
	in.reassembled = 288;
	in.read_by_app = 288;
	in.rcv_reasm_fails = 9;
	in.rcv_in_datagrams = -1;
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.st[3].drop, 12);
	assert_int_equal(l.st[3].explained, 12);
	assert_false(l.st[4].known);
	assert_int_equal(l.st[4].count, 288);
	f = find(&l, "rx-loss-reassembly", "agent/bond0");
	assert_non_null(f);
	assert_int_equal(f->count, 12);
	assert_non_null(strstr(f->counter, "ReasmFails +9"));
	assert_int_equal(l.n_f, 1);
}

/*
 * Field note 1's 10240-byte messages: 490 sent, 7 fragments each over two slaves; 47
 * fragments lost on the eth1 wire cost 46 messages (two fragments of one message
 * lost), every message reached the receiver in part.  The messages are lost at
 * the reassembled stage, on eth1; the fragments stay a wire-loss of eth1.
 */
static void test_reassembly_fragment_lost(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	base(&in, 0);
	in.n_tx = in.n_rx = 2;
	in.tx[0].left = 1713;
	in.tx[1].left = 1710;
	in.tx[1].lost = 47;
	in.tx[1].messages_lost = 46;
	in.sent_by_app = in.left = in.arrived = 490;
	in.reassembled = in.read_by_app = 444;
	in.rcv_in_datagrams = 444;
	in.rcv_reasm_fails = 46;
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.st[2].drop, 0);
	assert_int_equal(l.st[3].drop, 46);
	assert_int_equal(l.st[3].explained, 46);
	assert_non_null(strstr(l.st[3].counter, "fragment lost on tx:client/eth1: 46 messages"));
	assert_non_null(strstr(l.st[3].counter, "Ip ReasmFails +46"));
	f = find(&l, "rx-loss-reassembly", "tx:client/eth1");
	assert_non_null(f);
	assert_int_equal(f->count, 46);
	assert_int_equal(f->of, 490);
	assert_string_equal(f->host, "10.0.0.2");
	assert_string_equal(f->path, "tx:client/eth1 -> rx:agent/eth1");
	assert_non_null(strstr(f->counter, "47 fragments lost"));
	f = find(&l, "wire-loss", "tx:client/eth1");
	assert_non_null(f);
	assert_int_equal(f->count, 47);
	assert_int_equal(f->of, 1710);
	assert_null(find(&l, "rx-loss-reassembly", "agent/bond0"));
	assert_int_equal(l.n_f, 2);
}

/*
 * Issue 14's failing case: 10240-byte UDP over balance-rr, two streams, the
 * receiver's net.ipv4.ipfrag_high_thresh 20480, no wire loss.  Every one of
 * the 733 messages reached the receiver's taps whole (5131 fragments), the
 * kernel reassembled 4 (ReasmOKs +4) and refused 5069 fragments over the
 * memory limit (ReasmFails +5069: once per fragment, more than the 729
 * messages that died).  The 729 die at the reassembled stage, for memory.
 */
static void reasm_memory_in(struct bc_ledger_in *in)
{
	base(in, 0);
	in->n_tx = in->n_rx = 2;
	in->tx[0].left = 2566;
	in->tx[1].left = 2565;
	in->sent_by_app = in->left = in->arrived = 733;
	in->reassembled = 733; /* the captures: every message whole at the tap */
	in->frag_messages = in->frag_complete = 733;
	in->frag_arrived = 5131;
	in->rcv_reasm_reqds = 5131;
	in->rcv_reasm_oks = 4;
	in->rcv_reasm_fails = 5069;
	in->rcv_reasm_timeout = 0;
	in->ipfrag_high_thresh = 20480;
	in->ipfrag_time = 30;
	in->ipfrag_max_dist = 64;
	in->datagram_max = 1472;
	in->rcv_in_datagrams = 4;
	in->read_by_app = 4;
}

static void test_reassembly_memory(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	reasm_memory_in(&in);
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.st[2].drop, 0);
	assert_int_equal(l.st[3].count, 4);
	assert_int_equal(l.st[3].drop, 729);
	assert_int_equal(l.st[3].explained, 729);
	assert_int_equal(l.st[4].drop, 0);
	assert_int_equal(l.st[5].drop, 0);
	assert_string_equal(l.reasm_reason, "memory");
	assert_false(l.reasm_other_traffic);
	assert_non_null(strstr(l.st[3].counter, "Ip ReasmReqds +5131 (fragments; 5131 captured"));
	f = find(&l, "rx-loss-reassembly", "agent/bond0");
	assert_non_null(f);
	assert_int_equal(f->count, 729);
	assert_int_equal(f->of, 733);
	assert_non_null(strstr(f->counter, "ReasmFails +5069"));
	assert_non_null(strstr(f->counter, "net.ipv4.ipfrag_high_thresh (20480 bytes)"));
	assert_non_null(strstr(f->advice, "raise net.ipv4.ipfrag_high_thresh"));
	assert_non_null(strstr(f->advice, "at most 1472 bytes"));
	assert_null(find(&l, "wire-loss", "tx:client/eth0"));
	assert_null(find(&l, "wire-loss", "tx:client/eth1"));
	assert_int_equal(l.n_f, 1);
}

/* The same counters moved by 869 more fragments than the test's: other traffic
 * in the receiver's namespace; the captures' prediction stands, nothing is
 * attributed to the kernel, and the stage says why. */
static void test_reassembly_other_traffic(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;

	(void)state;
	reasm_memory_in(&in);
	in.rcv_reasm_reqds = 6000;
	bc_ledger_compute(&in, &l);
	assert_true(l.reasm_other_traffic);
	assert_int_equal(l.st[3].count, 733);
	assert_int_equal(l.st[3].drop, 0);
	assert_non_null(strstr(l.st[3].counter, "other traffic"));
	assert_int_equal(l.st[4].drop, 729);
	assert_null(find(&l, "rx-loss-reassembly", "agent/bond0"));
}

/* Whole at the tap, 10 queues expired (ReasmTimeout +10, ReasmFails +10, one per
 * queue): the timeout, with ipfrag_time named. */
static void test_reassembly_timeout(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	reasm_memory_in(&in);
	in.rcv_reasm_oks = 723;
	in.rcv_reasm_fails = 10;
	in.rcv_reasm_timeout = 10;
	in.rcv_in_datagrams = 723;
	in.read_by_app = 723;
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.st[3].drop, 10);
	assert_string_equal(l.reasm_reason, "timeout");
	f = find(&l, "rx-loss-reassembly", "agent/bond0");
	assert_non_null(f);
	assert_int_equal(f->count, 10);
	assert_non_null(strstr(f->counter, "net.ipv4.ipfrag_time (30 s)"));
}

/*
 * test-scenarios/run-frag-reasm.scn's numbers (3 % loss on the eth1 wire,
 * ipfrag_time 1 s): 489 messages, 54 lost a fragment on eth1.  The captures
 * split messages whose first fragment was lost (492 messages, 434 whole);
 * the kernel reassembled 435 and expired 54 queues.  The stage drops 54, all
 * for the lost fragments; the kernel's timeouts are those same queues.
 */
static void test_reassembly_lost_fragment_counters(void **state)
{
	struct bc_ledger_in in;
	struct bc_ledger l;
	const struct bc_ledger_finding *f;

	(void)state;
	reasm_memory_in(&in);
	in.tx[1].lost = 57;
	in.tx[1].messages_lost = 54;
	in.sent_by_app = in.left = in.arrived = 489;
	in.frag_messages = 492;
	in.frag_complete = in.reassembled = 434;
	in.frag_arrived = in.rcv_reasm_reqds = 3366;
	in.rcv_reasm_oks = 435;
	in.rcv_reasm_fails = in.rcv_reasm_timeout = 54;
	in.ipfrag_time = 1;
	in.rcv_in_datagrams = in.read_by_app = 435;
	bc_ledger_compute(&in, &l);
	assert_int_equal(l.st[3].count, 435);
	assert_int_equal(l.st[3].drop, 54);
	assert_int_equal(l.st[3].explained, 54);
	assert_string_equal(l.reasm_reason, "lost-fragment");
	f = find(&l, "rx-loss-reassembly", "tx:client/eth1");
	assert_non_null(f);
	assert_int_equal(f->count, 54);
	assert_non_null(strstr(f->counter, "net.ipv4.ipfrag_time 1 s"));
	assert_null(find(&l, "rx-loss-reassembly", "agent/bond0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_wire),
		cmocka_unit_test(test_tx_qdisc),
		cmocka_unit_test(test_tx_sndbuf),
		cmocka_unit_test(test_nic_then_wire),
		cmocka_unit_test(test_softnet_own_kernel),
		cmocka_unit_test(test_socket),
		cmocka_unit_test(test_reassembly_unknown_socket),
		cmocka_unit_test(test_reassembly_fragment_lost),
		cmocka_unit_test(test_veth_peer_wire),
		cmocka_unit_test(test_veth_peer_is_sender),
		cmocka_unit_test(test_socket_proc_drops),
		cmocka_unit_test(test_nohandler),
		cmocka_unit_test(test_reassembly_memory),
		cmocka_unit_test(test_reassembly_other_traffic),
		cmocka_unit_test(test_reassembly_timeout),
		cmocka_unit_test(test_reassembly_lost_fragment_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
