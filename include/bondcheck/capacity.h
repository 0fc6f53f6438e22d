/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The capacity model of one bond and one test (issue 14, item 2;
 * DESIGN.md "Reports").  Pure: struct in, struct out, no JSON, no I/O.
 *
 * Four levels, bits/s of application payload (the slaves' ceilings from
 * bondcheck/ceiling.h for the test's protocol):
 *
 *   installed  the sum of every slave's ceiling;
 *   potential  the best these slaves could carry under the mode's rules:
 *              balance-rr n x the slowest; balance-xor the sum; 802.3ad the
 *              sum over the best aggregator the ports could form by the
 *              kernel's key and partner rules (below); active-backup the best
 *              slave; balance-tlb / balance-alb the sum when the bond sends
 *              the test (TX), and for what it receives (RX) see below;
 *              broadcast the slowest; no bond the one interface;
 *   selected   what the kernel's current choice allows: 802.3ad the ports of
 *              the active aggregator that are up; active-backup the active
 *              slave; the other modes the slaves that are up (balance-rr
 *              n_up x the slowest up slave, broadcast the slowest up one);
 *   carried    what the test measured.
 *
 * Every gap between two neighbouring levels is split into named mechanisms
 * (enum bc_cap_mech), each with the ports it concerns and its share.
 * selected -> carried is attributed in this order, each mechanism taking at
 * most what is left of the gap:
 *   1. hash placement (hash modes): the selected ports the flows left idle,
 *      at most their ceilings;
 *   2. loss at a stage of the UDP loss ledger (bondcheck/ledger.h), in the
 *      datagram's path order: tx-loss, rx-loss-nic, wire-loss,
 *      rx-loss-reassembly (reassembly memory, timeout or a lost fragment),
 *      rx-loss-socket (the receiver's socket buffer); each of @in->loss[]
 *      (one stage on one link or host) in that order, and in input order
 *      within one stage, as
 *          bits/s = lost messages x message bits / duration
 *      with message bits = 8 x the UDP payload length (@in->msg_bits) and
 *      duration the test's (@in->duration_s) over which the ledger
 *      counted.  The ledger's stages count disjoint messages (a message is
 *      lost once, at the first stage it does not pass), so the terms add;
 *   3. the rest: to the CPU when a CPU was the bound, else to reordering
 *      when the receiver saw it, else it is unattributed.
 * The losses are those of the test whose gap this is; the suite's UDP model
 * (carried = the rate search's no-drop rate) takes them from the over-rate
 * probe, which lost datagrams where the rate above the no-drop rate does.
 *
 * balance-tlb / balance-alb receive side (@in->dir BC_CAP_DIR_RX, the test's
 * traffic arrives at this bond; drivers/net/bonding/bond_alb.c):
 *   balance-tlb  does not balance what it receives: every peer learns the
 *                bond's MAC, that of the current active slave, which alone
 *                receives.  Potential the best slave (one-active-slave);
 *                selected the active slave (@in->active_slave; unknown
 *                without it), a worse one being active-slave's gap;
 *   balance-alb  balances receive load per peer (receive load balancing,
 *                rlb): the bond answers each peer's ARP with the MAC of the
 *                slave it chose for that peer, so one peer's traffic arrives
 *                on one slave.  Potential the sum of the min(peers, n) best
 *                ceilings (alb-rx-peers names the ports left out); with one
 *                peer, as in a suite between two hosts, the best slave.
 *                Selected the same over the slaves that are up: which slave
 *                rlb chose for a peer (its hash table, in debugfs only) is in
 *                no document, so this is an upper bound.  Peers unknown
 *                (@in->rx_peers 0): potential, selected unknown.
 * Which end of a test is the bond and which way the traffic went is the
 * caller's to say; it must not guess (the suite takes it from the test's
 * "direction" and records the member as missing when absent).
 *
 * The receiving end (@in->rx_end): when the test's traffic arrives at
 * another bond whose receive side carries less than this one sends (the
 * suite: a forward test to a balance-tlb/alb agent, whose own model with
 * BC_CAP_DIR_RX gives these), potential is at most that bond's potential
 * (the gap named by its mechanism, @in->rx_end.where naming its ports) and
 * selected at most its selected (the rest of the gap from potential named
 * by its selection mechanism).
 *
 * 802.3ad key and partner rules (drivers/net/bonding/bond_3ad.c,
 * ad_port_selection_logic() and ad_update_actor_keys()): a port's actor
 * oper key is ad_user_port_key << 6 | speed << 1 | duplex, speed being the
 * kernel's enum ad_link_speed_type (bc_cap_speed_key()), duplex 1 for full.
 * A half-duplex port does not aggregate (LACP is disabled on it: it is
 * individual).  A port joins another's aggregator only when both have equal
 * actor keys, equal partner system MAC, system priority and oper key, a
 * non-zero partner system MAC, and neither is individual.  The best
 * aggregator is the group with the largest sum of ceilings (ad_select
 * bandwidth counts speeds, which order links the same way when the
 * ceilings come from the speeds).
 */
#ifndef BONDCHECK_CAPACITY_H
#define BONDCHECK_CAPACITY_H

#include <stdbool.h>
#include <stddef.h>

#define BC_CAP_MAX_PORTS 16
#define BC_CAP_MAX_GAPS	 20

/* A port that carried less than this share of the test's frames was idle. */
#define BC_CAP_IDLE_SHARE 0.01

enum bc_cap_level {
	BC_CAP_INSTALLED = 0,
	BC_CAP_POTENTIAL,
	BC_CAP_SELECTED,
	BC_CAP_CARRIED,
	BC_CAP_N_LEVELS,
};

/* Why capacity is missing between two levels; names in bc_cap_mech_name(). */
enum bc_cap_mech {
	/* installed -> potential: the mode's rule */
	BC_CAP_MECH_EQUAL_SHARES = 0, /* balance-rr: every slave gets 1/n, the slowest caps */
	BC_CAP_MECH_ONE_SLAVE,	      /* active-backup: one slave carries */
	BC_CAP_MECH_SLOWEST_COPY,     /* broadcast: every frame on every slave */
	BC_CAP_MECH_LACP_KEY,	      /* ports that cannot join the best aggregator by key */
	BC_CAP_MECH_LACP_PARTNER,     /* ... by partner (other system, key, no partner) */
	BC_CAP_MECH_LACP_INDIVIDUAL,  /* ... individual (half duplex, LACP off) */
	BC_CAP_MECH_ALB_RX_PEERS,     /* balance-alb RX: one slave per peer, fewer peers */
	/* potential -> selected: the kernel's choice */
	BC_CAP_MECH_AGG_SELECTION, /* the active aggregator is not the best one */
	BC_CAP_MECH_ACTIVE_SLAVE,  /* the active slave is not the best one */
	BC_CAP_MECH_SLAVE_DOWN,	   /* a slave is down */
	/* selected -> carried: the test */
	BC_CAP_MECH_HASH_PLACEMENT, /* selected ports that the flows left idle */
	/* the UDP loss ledger's stages, in path order (bondcheck/ledger.h) */
	BC_CAP_MECH_TX_LOSS,	    /* tx-loss: sender's qdisc, socket buffer, driver */
	BC_CAP_MECH_RX_LOSS_NIC,    /* rx-loss-nic: receiving NIC, backlog, the bond's refusals */
	BC_CAP_MECH_WIRE_LOSS,	    /* wire-loss: between the taps, no counter explains it */
	BC_CAP_MECH_RX_LOSS_REASM,  /* rx-loss-reassembly: reassembly memory, timeout, a fragment */
	BC_CAP_MECH_RX_LOSS_SOCKET, /* rx-loss-socket: the receiver's socket buffer */
	BC_CAP_MECH_REORDERING,	    /* segments reordered across slaves, and TCP's response */
	BC_CAP_MECH_CPU_BOUND,	    /* a CPU of either end was the limit */
	BC_CAP_MECH_UNATTRIBUTED,   /* what no mechanism above accounts for */
	BC_CAP_MECH_N,
};

/* Which way the test's traffic crossed the bond (balance-tlb/alb read it). */
enum bc_cap_dir {
	BC_CAP_DIR_TX = 0, /* the bond sent the test */
	BC_CAP_DIR_RX,	   /* the bond received it */
};

#define BC_CAP_MAX_LOSSES 8

/* Messages of the test lost at one ledger stage on one link or host. */
struct bc_cap_loss {
	enum bc_cap_mech mech; /* BC_CAP_MECH_TX_LOSS ... BC_CAP_MECH_RX_LOSS_SOCKET */
	char where[64];	       /* the ledger finding's subject: "tx:client/eth1", "agent/bond0" */
	char reason[32];       /* rx-loss-reassembly: "memory", "timeout", ...; "" none */
	double messages;       /* messages (datagrams) lost there; <= 0 ignored */
};

/* One slave as the model needs it. */
struct bc_cap_port {
	char name[16];
	double ceiling_bps;	 /* the slave's ceiling for the test's traffic; <= 0 unknown */
	const char *rate_source; /* "tbf", "htb", "link-rate", "speed", NULL unknown */
	long long speed_mbps;	 /* < 0 unknown */
	int duplex;		 /* 1 full, 0 half, -1 unknown (taken as full) */
	bool up;		 /* MII up */
	/* 802.3ad (ignored by the other modes) */
	int aggregator_id;    /* < 0 unknown, or the port never joined one */
	int partner_key;      /* oper key in the partner's LACPDU; < 0 unknown */
	int partner_prio;     /* partner system priority; < 0 unknown */
	char partner_mac[18]; /* partner system MAC, "" unknown */
	/* the test: the share of its frames that left on this port; < 0 unknown */
	double share;
};

struct bc_cap_input {
	int mode;		      /* BC_MODE_*; -1 not a bond (one interface) */
	int ad_user_port_key;	      /* bond option, 0 default */
	const char *ad_select;	      /* "stable", "bandwidth", "count", ...; NULL unknown */
	int active_aggregator_id;     /* 802.3ad; < 0 unknown */
	const char *active_slave;     /* active-backup; NULL unknown */
	const char *primary;	      /* active-backup option; NULL none */
	const char *primary_reselect; /* active-backup option; NULL unknown */
	size_t n;
	struct bc_cap_port port[BC_CAP_MAX_PORTS];
	unsigned flows;	     /* flows of the test */
	bool placed;	     /* the flows were placed one per selected port */
	double carried_bps;  /* measured goodput; < 0 not measured */
	bool cpu_bound;	     /* either end was CPU-bound during the test */
	bool reordering;     /* the receiver saw reordering (TCP: tcpi_reord_seen, DSACKs) */
	enum bc_cap_dir dir; /* balance-tlb/alb: which way the test crossed the bond */
	unsigned rx_peers; /* RX: the hosts that sent to the bond (alb: a slave each); 0 unknown */
	/* the UDP loss ledger of the test: bits/s = messages x msg_bits / duration_s */
	double msg_bits;   /* application payload bits per message; <= 0 unknown */
	double duration_s; /* the test's duration the ledger counted over; <= 0 unknown */
	size_t n_losses;
	struct bc_cap_loss loss[BC_CAP_MAX_LOSSES];
	/* the receiving end, another bond; potential_bps < 0 (or 0 in a zeroed input) none */
	struct {
		double potential_bps, selected_bps; /* its levels for this test; < 0 unknown */
		enum bc_cap_mech mech, sel_mech;    /* its gaps' mechanisms (alb-rx-peers, ...) */
		char where[96];			    /* "agent: eth1, eth2" */
		char sel_where[96];
	} rx_end;
};

/* One part of a gap between level @from and level @from + 1. */
struct bc_cap_gap {
	enum bc_cap_level from;
	enum bc_cap_mech mech;
	char where[96]; /* the ports it concerns, "eth1" or "eth0, eth2"; "" the bond */
	double bps;	/* capacity it takes, bits/s (> 0) */
	double share;	/* bps / the level @from */
};

struct bc_capacity {
	double level[BC_CAP_N_LEVELS]; /* bits/s; < 0 unknown */
	/* 802.3ad: the ports of the best aggregator the ports could form and
	 * of the kernel's active one (bit i = port i of the input) */
	unsigned best_ports, selected_ports;
	int best_key, selected_key; /* their actor oper keys, -1 unknown */
	size_t n_gaps;
	struct bc_cap_gap gap[BC_CAP_MAX_GAPS];
};

/*
 * bc_cap_hash_mode() - whether bond mode @mode (BOND_MODE_*) places each
 * flow on one slave by a transmit hash: balance-xor, 802.3ad, and
 * balance-tlb/alb for what they send.  Such modes need several flows to use
 * several slaves; a single flow is not an aggregation test there.
 */
bool bc_cap_hash_mode(int mode);

/*
 * bc_cap_speed_key() - the kernel's 5-bit speed code of @speed_mbps (enum
 * ad_link_speed_type in drivers/net/bonding/bond_3ad.c: 1 Mb/s = 1,
 * 10 = 2, 100 = 3, 1000 = 4, 2500 = 5, 5000 = 6, 10000 = 7, 14000 = 8,
 * 20000 = 9, 25000 = 10, 40000 = 11, 50000 = 12, 56000 = 13,
 * 100000 = 14, 200000 = 15, 400000 = 16, 800000 = 17); 0 for a speed the
 * kernel does not know (its key then says speed 0, as the kernel's does).
 */
int bc_cap_speed_key(long long speed_mbps);

/*
 * bc_cap_actor_key() - the actor oper key the kernel gives port @p of a
 * bond with @user_port_key: user_port_key << 6 | speed << 1 | duplex.
 */
int bc_cap_actor_key(const struct bc_cap_port *p, int user_port_key);

/*
 * bc_capacity_model() - the four levels and the gaps of @in into @out.
 * A level is -1 when a ceiling it needs is unknown (and the levels below it
 * that depend on it); carried is -1 when @in->carried_bps is.  Gaps are
 * listed in level order, only where both levels are known and the gap is
 * > 0.5 % of the upper level.  Returns 0; -EINVAL when @in has no port or
 * more than BC_CAP_MAX_PORTS.
 */
int bc_capacity_model(const struct bc_cap_input *in, struct bc_capacity *out);

/* bc_cap_mech_name() - "equal-shares", "aggregator-selection", ... */
const char *bc_cap_mech_name(enum bc_cap_mech m);

/* bc_cap_level_name() - "installed", "potential", "selected", "carried". */
const char *bc_cap_level_name(enum bc_cap_level l);

/*
 * bc_cap_gap_sum() - the bits/s of the gaps from level @from that mechanism
 * @m accounts for (0 when none).
 */
double bc_cap_gap_sum(const struct bc_capacity *c, enum bc_cap_level from, enum bc_cap_mech m);

#endif
