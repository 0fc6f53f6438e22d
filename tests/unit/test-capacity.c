// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The capacity model (bondcheck/capacity.h) for every mode: the four levels
 * and which mechanism takes each gap.  Ceilings are round numbers in Mbit/s
 * so the expected sums can be checked by hand.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/capacity.h"
#include "bondcheck/model.h"

#define M		       1e6
#define assert_near(got, want) assert_true((got) > (want)-1 && (got) < (want) + 1)

static const char *const partner_a = "52:54:00:02:01:0b";

static void port(struct bc_cap_input *in, const char *name, double mbit, long long speed)
{
	struct bc_cap_port *p = &in->port[in->n++];

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->ceiling_bps = mbit * M;
	p->speed_mbps = speed;
	p->duplex = 1;
	p->up = true;
	p->aggregator_id = -1;
	p->partner_key = -1;
	p->partner_prio = -1;
	p->share = -1;
}

/* an 802.3ad port with a partner; @agg its aggregator id */
static void lacp_port(struct bc_cap_input *in, const char *name, double mbit, long long speed,
		      int agg, int partner_key)
{
	struct bc_cap_port *p;

	port(in, name, mbit, speed);
	p = &in->port[in->n - 1];
	p->aggregator_id = agg;
	p->partner_key = partner_key;
	p->partner_prio = 65535;
	snprintf(p->partner_mac, sizeof(p->partner_mac), "%s", partner_a);
}

static void input(struct bc_cap_input *in, int mode)
{
	memset(in, 0, sizeof(*in));
	in->mode = mode;
	in->active_aggregator_id = -1;
	in->carried_bps = -1;
}

static const struct bc_cap_gap *gap(const struct bc_capacity *c, enum bc_cap_mech m)
{
	for (size_t i = 0; i < c->n_gaps; i++)
		if (c->gap[i].mech == m)
			return &c->gap[i];
	return NULL;
}

static void test_keys(void **state)
{
	struct bc_cap_port p = {.speed_mbps = 1000, .duplex = 1};

	(void)state;
	/* bond_3ad.c: AD_LINK_SPEED_1000MBPS = 4, AD_LINK_SPEED_100MBPS = 3 */
	assert_int_equal(bc_cap_speed_key(1000), 4);
	assert_int_equal(bc_cap_speed_key(100), 3);
	assert_int_equal(bc_cap_speed_key(10000), 7);
	assert_int_equal(bc_cap_speed_key(-1), 0);
	assert_int_equal(bc_cap_actor_key(&p, 0), 9); /* testbed: e1000 key 9 */
	p.speed_mbps = 100;
	assert_int_equal(bc_cap_actor_key(&p, 0), 7);	/* 8139cp key 7 */
	assert_int_equal(bc_cap_actor_key(&p, 5), 327); /* 5 << 6 | 7 */
	p.duplex = 0;
	assert_int_equal(bc_cap_actor_key(&p, 0), 6);
}

/* balance-rr over 8, 1.5, 8: n x the slowest; a down slave raises the floor. */
static void test_balance_rr(void **state)
{
	struct bc_cap_input in;
	struct bc_capacity c;
	const struct bc_cap_gap *g;

	(void)state;
	input(&in, BC_MODE_ROUNDROBIN);
	port(&in, "eth0", 8, 1000);
	port(&in, "eth1", 1.5, 100);
	port(&in, "eth2", 8, -1);
	in.carried_bps = 3 * M;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_INSTALLED], 17.5 * M);
	assert_near(c.level[BC_CAP_POTENTIAL], 4.5 * M);
	assert_near(c.level[BC_CAP_SELECTED], 4.5 * M);
	assert_near(c.level[BC_CAP_CARRIED], 3 * M);
	g = gap(&c, BC_CAP_MECH_EQUAL_SHARES);
	assert_non_null(g);
	assert_near(g->bps, 13 * M);
	assert_true(g->share > 0.74 && g->share < 0.75);
	g = gap(&c, BC_CAP_MECH_UNATTRIBUTED);
	assert_non_null(g);
	assert_int_equal(g->from, BC_CAP_SELECTED);
	assert_near(g->bps, 1.5 * M);
	assert_null(gap(&c, BC_CAP_MECH_SLAVE_DOWN));
	/* the receiver saw reordering: the same shortfall is reordering's */
	in.reordering = true;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_null(gap(&c, BC_CAP_MECH_UNATTRIBUTED));
	g = gap(&c, BC_CAP_MECH_REORDERING);
	assert_non_null(g);
	assert_near(g->bps, 1.5 * M);
	in.reordering = false;

	/* eth1 down: the two 8 Mbit/s slaves share equally, 16 > 4.5: no loss */
	in.port[1].up = false;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_SELECTED], 16 * M);
	assert_null(gap(&c, BC_CAP_MECH_SLAVE_DOWN));
	/* eth0 down instead: 2 x 1.5 */
	in.port[1].up = true;
	in.port[0].up = false;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_SELECTED], 3 * M);
	g = gap(&c, BC_CAP_MECH_SLAVE_DOWN);
	assert_non_null(g);
	assert_string_equal(g->where, "eth0");
	assert_near(g->bps, 1.5 * M);
	assert_null(gap(&c, BC_CAP_MECH_UNATTRIBUTED)); /* carried 3 = selected */
}

/*
 * The case: 802.3ad, 8139cp (100 Mb/s, key 7) in the active
 * aggregator 1, e1000 (1000 Mb/s, key 9) alone in aggregator 2.
 */
static void test_8023ad_slow_aggregator_selected(void **state)
{
	struct bc_cap_input in;
	struct bc_capacity c;
	const struct bc_cap_gap *g;

	(void)state;
	input(&in, BC_MODE_8023AD);
	in.ad_select = "stable";
	lacp_port(&in, "eth0", 1.91, 100, 1, 7);
	lacp_port(&in, "eth1", 7.65, 1000, 2, 9);
	in.active_aggregator_id = 1;
	in.carried_bps = 1.91 * M;
	in.port[0].share = 1;
	in.port[1].share = 0;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_INSTALLED], 9.56 * M);
	assert_near(c.level[BC_CAP_POTENTIAL], 7.65 * M);
	assert_near(c.level[BC_CAP_SELECTED], 1.91 * M);
	assert_int_equal(c.best_ports, 1u << 1);
	assert_int_equal(c.selected_ports, 1u << 0);
	assert_int_equal(c.best_key, 9);
	assert_int_equal(c.selected_key, 7);
	g = gap(&c, BC_CAP_MECH_LACP_KEY); /* eth0 cannot join eth1: keys 7 and 9 */
	assert_non_null(g);
	assert_string_equal(g->where, "eth0");
	assert_near(g->bps, 1.91 * M);
	g = gap(&c, BC_CAP_MECH_AGG_SELECTION);
	assert_non_null(g);
	assert_int_equal(g->from, BC_CAP_POTENTIAL);
	assert_string_equal(g->where, "eth1");
	assert_near(g->bps, 5.74 * M);
	assert_true(g->share > 0.74 && g->share < 0.76);
	assert_null(gap(&c, BC_CAP_MECH_HASH_PLACEMENT));
	assert_null(gap(&c, BC_CAP_MECH_UNATTRIBUTED));

	/* the ports' aggregator ids unknown (hidden /proc details): selected is
	 * unknown, not 0, and no selection loss is claimed */
	in.port[0].aggregator_id = in.port[1].aggregator_id = -1;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_true(c.level[BC_CAP_SELECTED] < 0);
	assert_null(gap(&c, BC_CAP_MECH_AGG_SELECTION));
	/* unknown partner MACs do not split the ports: still the key does */
	in.port[0].partner_mac[0] = in.port[1].partner_mac[0] = '\0';
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_non_null(gap(&c, BC_CAP_MECH_LACP_KEY));
	snprintf(in.port[0].partner_mac, sizeof(in.port[0].partner_mac), "%s", partner_a);
	snprintf(in.port[1].partner_mac, sizeof(in.port[1].partner_mac), "%s", partner_a);
	in.port[0].aggregator_id = 1;
	in.port[1].aggregator_id = 2;

	/* the fast aggregator selected (ad_select bandwidth): no selection loss */
	in.active_aggregator_id = 2;
	in.carried_bps = 7.5 * M;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_SELECTED], 7.65 * M);
	assert_null(gap(&c, BC_CAP_MECH_AGG_SELECTION));
}

/* 802.3ad, three equal ports: one has another partner, one is half duplex. */
static void test_8023ad_partner_and_duplex(void **state)
{
	struct bc_cap_input in;
	struct bc_capacity c;
	const struct bc_cap_gap *g;

	(void)state;
	input(&in, BC_MODE_8023AD);
	lacp_port(&in, "eth0", 10, 1000, 1, 9);
	lacp_port(&in, "eth1", 10, 1000, 1, 9);
	lacp_port(&in, "eth2", 10, 1000, 3, 9);
	lacp_port(&in, "eth3", 10, 1000, 4, 9);
	snprintf(in.port[2].partner_mac, sizeof(in.port[2].partner_mac), "52:54:00:09:09:09");
	in.port[3].duplex = 0;
	in.active_aggregator_id = 1;
	in.flows = 2;
	in.placed = true;
	in.carried_bps = 19 * M;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_INSTALLED], 40 * M);
	assert_near(c.level[BC_CAP_POTENTIAL], 20 * M);
	assert_near(c.level[BC_CAP_SELECTED], 20 * M);
	g = gap(&c, BC_CAP_MECH_LACP_PARTNER);
	assert_non_null(g);
	assert_string_equal(g->where, "eth2");
	g = gap(&c, BC_CAP_MECH_LACP_INDIVIDUAL);
	assert_non_null(g);
	assert_string_equal(g->where, "eth3");
	assert_null(gap(&c, BC_CAP_MECH_LACP_KEY));
	assert_null(gap(&c, BC_CAP_MECH_AGG_SELECTION));
	/* a partner MAC of zeros (no LACPDU) never joins: the best is one port */
	memset(in.port[1].partner_mac, 0, sizeof(in.port[1].partner_mac));
	snprintf(in.port[1].partner_mac, sizeof(in.port[1].partner_mac), "00:00:00:00:00:00");
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_POTENTIAL], 10 * M);
}

/* balance-xor: the sum; flows that leave a slave idle are hash placement. */
static void test_xor_placement(void **state)
{
	struct bc_cap_input in;
	struct bc_capacity c;
	const struct bc_cap_gap *g;

	(void)state;
	input(&in, BC_MODE_XOR);
	port(&in, "eth0", 10, 1000);
	port(&in, "eth1", 10, 1000);
	port(&in, "eth2", 10, 1000);
	in.carried_bps = 19 * M;
	in.port[0].share = 0.5;
	in.port[1].share = 0.5;
	in.port[2].share = 0.001;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_POTENTIAL], 30 * M);
	assert_near(c.level[BC_CAP_SELECTED], 30 * M);
	g = gap(&c, BC_CAP_MECH_HASH_PLACEMENT);
	assert_non_null(g);
	assert_string_equal(g->where, "eth2");
	assert_near(g->bps, 10 * M);
	g = gap(&c, BC_CAP_MECH_UNATTRIBUTED);
	assert_non_null(g);
	assert_near(g->bps, 1 * M);
	/* the same shortfall while CPU-bound is the CPU's */
	in.cpu_bound = true;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_null(gap(&c, BC_CAP_MECH_UNATTRIBUTED));
	assert_non_null(gap(&c, BC_CAP_MECH_CPU_BOUND));
}

/* active-backup on a worse slave: the gap is the active slave's, not the mode's. */
static void test_active_backup_worse_slave(void **state)
{
	struct bc_cap_input in;
	struct bc_capacity c;
	const struct bc_cap_gap *g;

	(void)state;
	input(&in, BC_MODE_ACTIVEBACKUP);
	port(&in, "eth0", 9.5, 1000);
	port(&in, "eth1", 1.9, 100);
	in.active_slave = "eth1";
	in.carried_bps = 1.8 * M;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_INSTALLED], 11.4 * M);
	assert_near(c.level[BC_CAP_POTENTIAL], 9.5 * M);
	assert_near(c.level[BC_CAP_SELECTED], 1.9 * M);
	g = gap(&c, BC_CAP_MECH_ONE_SLAVE);
	assert_non_null(g);
	assert_near(g->bps, 1.9 * M);
	g = gap(&c, BC_CAP_MECH_ACTIVE_SLAVE);
	assert_non_null(g);
	assert_string_equal(g->where, "eth1");
	assert_near(g->bps, 7.6 * M);
	/* the best one active: nothing lost to selection */
	in.active_slave = "eth0";
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_null(gap(&c, BC_CAP_MECH_ACTIVE_SLAVE));
	/* no active slave known: selected unknown, not 0 */
	in.active_slave = NULL;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_true(c.level[BC_CAP_SELECTED] < 0);
}

static void test_tlb_alb_broadcast_single(void **state)
{
	static const int modes[] = {BC_MODE_TLB, BC_MODE_ALB};
	struct bc_cap_input in;
	struct bc_capacity c;
	const struct bc_cap_gap *g;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		input(&in, modes[i]);
		port(&in, "eth0", 10, 1000);
		port(&in, "eth1", 5, 100);
		in.port[1].up = false;
		assert_int_equal(bc_capacity_model(&in, &c), 0);
		assert_near(c.level[BC_CAP_POTENTIAL], 15 * M);
		assert_near(c.level[BC_CAP_SELECTED], 10 * M);
		g = gap(&c, BC_CAP_MECH_SLAVE_DOWN);
		assert_non_null(g);
		assert_string_equal(g->where, "eth1");
		assert_true(c.level[BC_CAP_CARRIED] < 0); /* not measured */
	}
	input(&in, BC_MODE_BROADCAST);
	port(&in, "eth0", 10, 1000);
	port(&in, "eth1", 5, 100);
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_POTENTIAL], 5 * M);
	assert_non_null(gap(&c, BC_CAP_MECH_SLOWEST_COPY));
	input(&in, -1); /* one interface */
	port(&in, "eth0", 10, 1000);
	in.carried_bps = 9.9 * M;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_POTENTIAL], 10 * M);
	assert_int_equal(c.n_gaps, 1); /* 1 % short: over the 0.5 % floor, unattributed */
	assert_near(gap(&c, BC_CAP_MECH_UNATTRIBUTED)->bps, 0.1 * M);
	in.carried_bps = 9.96 * M; /* 0.4 % short: no gap */
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_int_equal(c.n_gaps, 0);
}

/* one ledger loss of @messages at @mech on @where */
static void loss(struct bc_cap_input *in, enum bc_cap_mech mech, const char *where,
		 const char *reason, double messages)
{
	struct bc_cap_loss *l = &in->loss[in->n_losses++];

	memset(l, 0, sizeof(*l));
	l->mech = mech;
	snprintf(l->where, sizeof(l->where), "%s", where);
	snprintf(l->reason, sizeof(l->reason), "%s", reason);
	l->messages = messages;
}

/*
 * The UDP loss ledger's stages take the selected -> carried gap, as
 * messages x message bits / duration, in the path order, each at most what
 * is left: the old model left all of it unattributed.
 */
static void test_ledger_losses(void **state)
{
	struct bc_cap_input in;
	struct bc_capacity c;
	const struct bc_cap_gap *g;

	(void)state;
	input(&in, BC_MODE_ROUNDROBIN);
	port(&in, "eth0", 10, 1000);
	port(&in, "eth1", 10, 1000);
	in.carried_bps = 4 * M; /* gap 16 Mbit/s */
	in.msg_bits = 8 * 10000.0;
	in.duration_s = 2;
	/* listed out of order: the model takes them in the path order */
	loss(&in, BC_CAP_MECH_RX_LOSS_SOCKET, "agent/bond0", "", 25);	    /* 1 Mbit/s */
	loss(&in, BC_CAP_MECH_RX_LOSS_REASM, "agent/bond0", "memory", 250); /* 10 Mbit/s */
	loss(&in, BC_CAP_MECH_TX_LOSS, "tx:client/eth1", "", 50);	    /* 2 Mbit/s */
	loss(&in, BC_CAP_MECH_WIRE_LOSS, "eth0", "", 0);		    /* nothing lost */
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_SELECTED], 20 * M);
	assert_int_equal(c.n_gaps, 4);
	assert_int_equal(c.gap[0].mech, BC_CAP_MECH_TX_LOSS);
	assert_string_equal(c.gap[0].where, "tx:client/eth1");
	assert_near(c.gap[0].bps, 2 * M);
	assert_int_equal(c.gap[1].mech, BC_CAP_MECH_RX_LOSS_REASM);
	assert_string_equal(c.gap[1].where, "agent/bond0 (memory)");
	assert_near(c.gap[1].bps, 10 * M);
	assert_true(c.gap[1].share > 0.49 && c.gap[1].share < 0.51);
	assert_int_equal(c.gap[2].mech, BC_CAP_MECH_RX_LOSS_SOCKET);
	assert_near(c.gap[2].bps, 1 * M);
	assert_null(gap(&c, BC_CAP_MECH_WIRE_LOSS));
	g = gap(&c, BC_CAP_MECH_UNATTRIBUTED);
	assert_non_null(g);
	assert_near(g->bps, 3 * M);
	assert_string_equal(bc_cap_mech_name(BC_CAP_MECH_RX_LOSS_REASM), "rx-loss-reassembly");
	assert_string_equal(bc_cap_mech_name(BC_CAP_MECH_RX_LOSS_SOCKET), "rx-loss-socket");

	/* more lost than the gap: the first stages take it all, in order */
	in.carried_bps = 15 * M; /* gap 5 Mbit/s */
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(bc_cap_gap_sum(&c, BC_CAP_SELECTED, BC_CAP_MECH_TX_LOSS), 2 * M);
	assert_near(bc_cap_gap_sum(&c, BC_CAP_SELECTED, BC_CAP_MECH_RX_LOSS_REASM), 3 * M);
	assert_null(gap(&c, BC_CAP_MECH_RX_LOSS_SOCKET));
	assert_null(gap(&c, BC_CAP_MECH_UNATTRIBUTED));

	/* hash placement first, then the ledger, then the CPU for the rest */
	input(&in, BC_MODE_XOR);
	port(&in, "eth0", 10, 1000);
	port(&in, "eth1", 10, 1000);
	in.port[0].share = 1;
	in.port[1].share = 0;
	in.carried_bps = 5 * M; /* gap 15: 10 idle eth1 */
	in.msg_bits = 8 * 1000.0;
	in.duration_s = 1;
	in.cpu_bound = true;
	loss(&in, BC_CAP_MECH_RX_LOSS_NIC, "rx:agent/eth0", "", 250); /* 2 Mbit/s */
	loss(&in, BC_CAP_MECH_WIRE_LOSS, "eth0", "", 250);	      /* 2 Mbit/s */
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_int_equal(c.n_gaps, 4);
	assert_int_equal(c.gap[0].mech, BC_CAP_MECH_HASH_PLACEMENT);
	assert_near(c.gap[0].bps, 10 * M);
	assert_int_equal(c.gap[1].mech, BC_CAP_MECH_RX_LOSS_NIC);
	assert_near(c.gap[1].bps, 2 * M);
	assert_int_equal(c.gap[2].mech, BC_CAP_MECH_WIRE_LOSS);
	assert_near(c.gap[2].bps, 2 * M);
	assert_int_equal(c.gap[3].mech, BC_CAP_MECH_CPU_BOUND);
	assert_near(c.gap[3].bps, 1 * M);

	/* the message size or duration unknown: no bits/s, the gap unattributed */
	in.cpu_bound = false;
	in.msg_bits = 0;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_null(gap(&c, BC_CAP_MECH_RX_LOSS_NIC));
	assert_near(bc_cap_gap_sum(&c, BC_CAP_SELECTED, BC_CAP_MECH_UNATTRIBUTED), 5 * M);
}

/*
 * balance-tlb/alb receiving the test: tlb receives on its active slave
 * only; alb balances per peer, one slave each (the old model gave the sum
 * whichever way the test went).
 */
static void test_tlb_alb_receive(void **state)
{
	struct bc_cap_input in;
	struct bc_capacity c;
	const struct bc_cap_gap *g;

	(void)state;
	input(&in, BC_MODE_ALB);
	port(&in, "eth0", 10, 1000);
	port(&in, "eth1", 5, 100);
	port(&in, "eth2", 8, 1000);
	in.dir = BC_CAP_DIR_RX;
	in.rx_peers = 1;
	in.carried_bps = 9.8 * M;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_INSTALLED], 23 * M);
	assert_near(c.level[BC_CAP_POTENTIAL], 10 * M); /* one peer: one slave */
	assert_near(c.level[BC_CAP_SELECTED], 10 * M);
	g = gap(&c, BC_CAP_MECH_ALB_RX_PEERS);
	assert_non_null(g);
	assert_string_equal(g->where, "eth1, eth2");
	assert_near(g->bps, 13 * M);
	assert_string_equal(bc_cap_mech_name(BC_CAP_MECH_ALB_RX_PEERS), "alb-rx-peers");
	/* two peers: the two best; the best down leaves the next ones */
	in.rx_peers = 2;
	in.port[0].up = false;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_POTENTIAL], 18 * M);
	assert_near(c.level[BC_CAP_SELECTED], 13 * M);
	g = gap(&c, BC_CAP_MECH_SLAVE_DOWN);
	assert_non_null(g);
	assert_string_equal(g->where, "eth0");
	assert_near(g->bps, 5 * M);
	/* as many peers as slaves: the sum, as for TX */
	in.rx_peers = 3;
	in.port[0].up = true;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_POTENTIAL], 23 * M);
	assert_null(gap(&c, BC_CAP_MECH_ALB_RX_PEERS));
	/* the peers unknown: no potential, no selected, never a guess */
	in.rx_peers = 0;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_true(c.level[BC_CAP_POTENTIAL] < 0);
	assert_true(c.level[BC_CAP_SELECTED] < 0);
	assert_near(c.level[BC_CAP_CARRIED], 9.8 * M);
	assert_int_equal(c.n_gaps, 0);
	/* TX: the sum */
	in.dir = BC_CAP_DIR_TX;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_POTENTIAL], 23 * M);

	/* balance-tlb receives on the active slave alone */
	input(&in, BC_MODE_TLB);
	port(&in, "eth0", 10, 1000);
	port(&in, "eth1", 5, 100);
	in.dir = BC_CAP_DIR_RX;
	in.active_slave = "eth1";
	in.carried_bps = 5 * M;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_POTENTIAL], 10 * M);
	assert_near(c.level[BC_CAP_SELECTED], 5 * M);
	assert_near(bc_cap_gap_sum(&c, BC_CAP_INSTALLED, BC_CAP_MECH_ONE_SLAVE), 5 * M);
	g = gap(&c, BC_CAP_MECH_ACTIVE_SLAVE);
	assert_non_null(g);
	assert_string_equal(g->where, "eth1");
	in.active_slave = NULL; /* the kernel's choice unknown */
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_true(c.level[BC_CAP_SELECTED] < 0);

	/* a balance-xor bond sending to an alb bond that receives from it alone:
	 * the receiving bond's one slave caps potential and selected */
	input(&in, BC_MODE_XOR);
	port(&in, "eth0", 10, 1000);
	port(&in, "eth1", 10, 1000);
	in.carried_bps = 9.97 * M;
	in.rx_end.potential_bps = 10 * M;
	in.rx_end.selected_bps = 10 * M;
	in.rx_end.mech = BC_CAP_MECH_ALB_RX_PEERS;
	snprintf(in.rx_end.where, sizeof(in.rx_end.where), "agent: eth1");
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_INSTALLED], 20 * M);
	assert_near(c.level[BC_CAP_POTENTIAL], 10 * M);
	assert_near(c.level[BC_CAP_SELECTED], 10 * M);
	g = gap(&c, BC_CAP_MECH_ALB_RX_PEERS);
	assert_non_null(g);
	assert_string_equal(g->where, "agent: eth1");
	assert_near(g->bps, 10 * M);
	assert_int_equal(c.n_gaps, 1); /* carried 0.3 % short: no gap */
	/* its active slave worse (tlb): the rest of the gap is its selection */
	in.rx_end.selected_bps = 4 * M;
	in.rx_end.sel_mech = BC_CAP_MECH_ACTIVE_SLAVE;
	snprintf(in.rx_end.sel_where, sizeof(in.rx_end.sel_where), "agent: eth1");
	in.carried_bps = 4 * M;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_near(c.level[BC_CAP_SELECTED], 4 * M);
	g = gap(&c, BC_CAP_MECH_ACTIVE_SLAVE);
	assert_non_null(g);
	assert_near(g->bps, 6 * M);
	/* its choice unknown: selected unknown */
	in.rx_end.selected_bps = -1;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_true(c.level[BC_CAP_SELECTED] < 0);
}

static void test_unknown_and_errors(void **state)
{
	struct bc_cap_input in;
	struct bc_capacity c;

	(void)state;
	input(&in, BC_MODE_XOR);
	assert_int_equal(bc_capacity_model(&in, &c), -EINVAL);
	port(&in, "eth0", 10, 1000);
	port(&in, "eth1", 0, -1); /* ceiling unknown */
	in.carried_bps = 5 * M;
	assert_int_equal(bc_capacity_model(&in, &c), 0);
	assert_true(c.level[BC_CAP_INSTALLED] < 0);
	assert_true(c.level[BC_CAP_POTENTIAL] < 0);
	assert_near(c.level[BC_CAP_CARRIED], 5 * M);
	assert_int_equal(c.n_gaps, 0);
	assert_string_equal(bc_cap_mech_name(BC_CAP_MECH_AGG_SELECTION), "aggregator-selection");
	assert_string_equal(bc_cap_level_name(BC_CAP_POTENTIAL), "potential");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_balance_rr),
		cmocka_unit_test(test_8023ad_slow_aggregator_selected),
		cmocka_unit_test(test_8023ad_partner_and_duplex),
		cmocka_unit_test(test_xor_placement),
		cmocka_unit_test(test_active_backup_worse_slave),
		cmocka_unit_test(test_tlb_alb_broadcast_single),
		cmocka_unit_test(test_ledger_losses),
		cmocka_unit_test(test_tlb_alb_receive),
		cmocka_unit_test(test_unknown_and_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
