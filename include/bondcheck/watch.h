/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `bondcheck watch` (issue 17 item 4; docs/watch.md): the traffic that the
 * host really runs on one bond, passive, no agent and no generated traffic.
 *
 * A sample is what one reading of the host gives (src/workflow/watch.c):
 * every slave's rtnetlink stats64 counters and bonding state, the
 * namespace's TCP counters (/proc/net/snmp, /proc/net/netstat) and the
 * host's own TCP connections over the bond (inet_diag, with their byte
 * counters from tcp_info).  Two samples make an interval (bc_watch_delta(),
 * pure): rates per slave and per flow, shares of the bond.  Which slave
 * carries a flow comes from the slave taps when they run (observed), else
 * from the bond's transmit hash for the host's own sockets (predicted,
 * bondcheck/xmit-hash.h; transmit only: what the peer or switch sends back
 * is unknown without taps).  bc_watch_judge() (pure) turns the whole watch
 * into verdicts as data (bondcheck/verdict.h); src/report renders them.
 *
 * Units: bytes and packets are counts, rates bits/s, times ns (samples)
 * and seconds (intervals).
 */
#ifndef BONDCHECK_WATCH_H
#define BONDCHECK_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bondcheck/model.h"
#include "bondcheck/verdict.h"
#include "bondcheck/xmit-hash.h"

#define BC_WATCH_MAX_SLAVES 16
#define BC_WATCH_MAX_FLOWS  256

/* Where a flow's slave comes from. */
enum bc_watch_src {
	BC_WATCH_SRC_UNKNOWN = 0, /* no taps, and no prediction (receive side, balance-rr, ...) */
	BC_WATCH_SRC_PREDICTED,	  /* the bond's transmit hash for this socket's 5-tuple */
	BC_WATCH_SRC_OBSERVED,	  /* seen by a slave tap */
};

/* One slave at one sample: the bond's view and the device's counters. */
struct bc_watch_slave {
	char name[BC_IFNAMSIZ];
	int ifindex;
	bool up;	   /* MII status up */
	bool usable;	   /* in the transmit set (bc_xmit_usable()): up, not backup, distributing */
	double speed_bps;  /* negotiated speed, bits/s; <= 0 unknown */
	uint64_t tx_bytes, rx_bytes, tx_packets, rx_packets;
	uint64_t drops;	   /* rx_dropped + tx_dropped */
	uint64_t errors;   /* rx_errors + tx_errors */
};

/* One TCP connection of this host over the bond, at one sample. */
struct bc_watch_flow {
	uint64_t cookie;       /* inet_diag socket cookie: the identity across samples */
	struct bc_flow flow;   /* as this host sends it: src local, dst the peer */
	uint64_t tx_bytes;     /* tcpi_bytes_acked (4.1+): payload the peer acknowledged */
	uint64_t rx_bytes;     /* tcpi_bytes_received (4.1+) */
	int tx_slave;	       /* index into the sample's slaves[]; -1 unknown */
	enum bc_watch_src tx_src;
	int tx_predicted;      /* the hash's slave (index), -1 none: with taps beside tx_slave */
	int rx_slave;	       /* -1 unknown (needs the taps) */
	enum bc_watch_src rx_src;
	char why[80];	       /* why tx_slave is unknown, "" when known */
	bool socket;	       /* a TCP connection of this host (sock_diag); else a 5-tuple the
				* taps counted (UDP, forwarded, another host's) */
	uint64_t tap_tx_best, tap_rx_best; /* bytes of the slave chosen each way (taps) */
	/* the taps' bytes of this flow on each slave (index into slaves[]), cumulative */
	uint64_t tap_tx_on[BC_WATCH_MAX_SLAVES], tap_rx_on[BC_WATCH_MAX_SLAVES];
};

/* One reading of the host. */
struct bc_watch_sample {
	int64_t mono_ns; /* CLOCK_MONOTONIC */
	char bond[BC_IFNAMSIZ];
	int mode;			/* enum bc_bond_mode; BC_MODE_UNKNOWN */
	char policy[BC_TEXT];		/* xmit_hash_policy as the kernel names it; "" n/a */
	struct bc_watch_slave slaves[BC_WATCH_MAX_SLAVES];
	size_t n_slaves;
	bool tcp_counters;		/* the counters below were read */
	uint64_t tcp_retrans_segs;	/* Tcp: RetransSegs */
	uint64_t tcp_out_segs;		/* Tcp: OutSegs */
	uint64_t tcp_reorder;		/* TcpExt: TCPSACKReorder + TCPTSReorder + TCPRenoReorder */
	struct bc_watch_flow flows[BC_WATCH_MAX_FLOWS];
	size_t n_flows;
	size_t flows_dropped;		/* connections past BC_WATCH_MAX_FLOWS, not listed */
	char flows_error[160];		/* why no connection was read; "" none */
	bool taps;			/* the slave taps observed the flows' slaves */
	uint64_t tap_flow_entries;	/* entries in the taps' flow table (LRU: evicts when full) */
	uint64_t tap_flow_capacity;
	uint64_t tap_flow_fail;		/* packets the taps could not count */
	uint64_t tap_flow_evicted;	/* LRU evictions since the taps were attached */
	int64_t tap_since_ns;		/* CLOCK_MONOTONIC when they were attached, ns */
};

struct bc_watch_slave_rate {
	char name[BC_IFNAMSIZ];
	bool up, usable;
	double speed_bps;	   /* <= 0 unknown */
	double tx_bps, rx_bps;	   /* device counters, all traffic */
	double tx_share, rx_share; /* of the bond's slaves' sum, 0..1; < 0 when the bond was idle */
	double predicted_tx_bps;   /* the flows placed on it by prediction or taps */
	uint64_t tx_bytes, rx_bytes, drops, errors; /* deltas */
};

struct bc_watch_flow_rate {
	uint64_t cookie;
	struct bc_flow flow;
	uint64_t tx_bytes, rx_bytes; /* deltas */
	double tx_bps, rx_bps;
	int tx_slave, rx_slave; /* index into the interval's slaves[]; -1 unknown */
	enum bc_watch_src tx_src, rx_src;
	int tx_predicted;	/* the hash's slave with taps observing (index), -1 none */
	bool socket;		/* one of this host's TCP connections (else seen by the taps only) */
	char why[80];
	/*
	 * The interval's tx_bytes and rx_bytes by slave (index into slaves[]):
	 * observed, split as the taps' per-slave counters grew; predicted, all
	 * on tx_slave; unknown, on none (their sum is then below the bytes).
	 */
	uint64_t tx_on[BC_WATCH_MAX_SLAVES], rx_on[BC_WATCH_MAX_SLAVES];
};

/* What happened between two samples. */
struct bc_watch_interval {
	double dt_s;
	char added[BC_WATCH_MAX_SLAVES][BC_IFNAMSIZ]; /* slaves enslaved since the previous sample */
	size_t n_added;
	char removed[BC_WATCH_MAX_SLAVES][BC_IFNAMSIZ];
	size_t n_removed;
	struct bc_watch_slave_rate slaves[BC_WATCH_MAX_SLAVES]; /* the current sample's slaves */
	size_t n_slaves;
	double tx_bps, rx_bps; /* sum over the slaves */
	bool tcp_counters;
	uint64_t tcp_retrans_segs, tcp_out_segs, tcp_reorder; /* deltas */
	struct bc_watch_flow_rate flows[BC_WATCH_MAX_FLOWS];   /* busiest first */
	size_t n_flows;
	bool flows_read; /* both samples read the connections (no flows_error) */
	bool taps;	 /* the current sample read the slave taps */
	uint64_t tap_flow_entries, tap_flow_capacity; /* the current sample's flow table */
	/*
	 * Flow table entries the LRU evicted in this interval (all since the
	 * attach when the taps were reattached in it).  A flow evicted and
	 * inserted again restarts its counters: the rate of a flow only the
	 * taps see is underestimated in that interval, and a flow evicted for
	 * good loses its observed slave.
	 */
	uint64_t tap_flow_evicted;
};

/*
 * bc_watch_delta() - the interval from @prev to @cur (@cur later).  Slaves
 * are matched by name: a slave of @cur absent from @prev is "added" and its
 * rates are 0 for this interval (no earlier counter); one of @prev absent
 * from @cur is "removed".  A counter that went backwards (a device
 * re-created under the same name) counts 0.  Flows are matched by cookie; a
 * connection absent from @prev opened since, so all its bytes count (one
 * that opened and closed between the two samples is not seen, and a
 * connection past BC_WATCH_MAX_FLOWS in @prev would count twice: the
 * sampler keeps the busiest).  Flows are sorted by tx + rx rate, busiest
 * first.  With the taps in @cur, the flow table's entries and the evictions
 * since @prev (since the attach when @prev's taps were another attach or
 * none).  Returns 0, or -EINVAL when @cur is not later than @prev.
 */
int bc_watch_delta(const struct bc_watch_sample *prev, const struct bc_watch_sample *cur,
		   struct bc_watch_interval *out);

/* Every connection seen over a whole watch, with its bytes summed over the intervals. */
struct bc_watch_flow_sum {
	uint64_t cookie;
	struct bc_flow flow;
	uint64_t tx_bytes, rx_bytes;
	char tx_slave[BC_IFNAMSIZ]; /* the last interval's; "" unknown */
	char rx_slave[BC_IFNAMSIZ];
	char tx_predicted[BC_IFNAMSIZ];
	enum bc_watch_src tx_src, rx_src;
	bool socket;
	char why[80];
	/* bytes by slave (index into the table's slave[]), summed over the intervals */
	uint64_t tx_on[BC_WATCH_MAX_SLAVES], rx_on[BC_WATCH_MAX_SLAVES];
};

/*
 * A fixed table (4 x BC_WATCH_MAX_FLOWS connections, about 500 KB): the
 * memory of a watch does not grow with its length or its connections.
 */
struct bc_watch_flow_sums {
	struct bc_watch_flow_sum v[4 * BC_WATCH_MAX_FLOWS];
	size_t n;
	size_t dropped; /* connections past the table, not summed */
	/* every slave seen during the watch, by name, in the order first seen */
	char slave[BC_WATCH_MAX_SLAVES][BC_IFNAMSIZ];
	size_t n_slaves;
};

/*
 * bc_watch_flows_add() - add interval @iv's connections to @t (by cookie):
 * a connection that closes during the watch keeps the bytes it carried.
 * Its bytes by slave (tx_on, rx_on) are summed by the slave's name: a flow
 * that moves (failover, a slave enslaved) shows on both slaves.  Bytes on
 * a slave past the BC_WATCH_MAX_SLAVES names the table holds are left out
 * of tx_on/rx_on (unplaced, like bytes of an unknown slave).
 */
void bc_watch_flows_add(struct bc_watch_flow_sums *t, const struct bc_watch_interval *iv);

/*
 * bc_watch_flows_apply() - @total's flows become @t's sums as rates over
 * total->dt_s (busiest first, at most BC_WATCH_MAX_FLOWS), and each slave's
 * predicted_tx_bps their sum per slave (by name).
 */
void bc_watch_flows_apply(const struct bc_watch_flow_sums *t, struct bc_watch_interval *total);

/* Thresholds of bc_watch_judge(), fractions of the bond's traffic. */
#define BC_WATCH_BUSY_SHARE	0.90 /* a slave carrying this much beside an idle one */
#define BC_WATCH_IDLE_SHARE	0.05 /* a usable slave under this share is idle */
#define BC_WATCH_ONE_FLOW_SHARE 0.80 /* one flow carrying this much of the bond */
#define BC_WATCH_MIN_BYTES	(256 * 1024) /* below this in the whole watch nothing is judged */
#define BC_WATCH_SATURATED	0.90 /* a slave's rate against its speed: the slave is full */

/* The whole watch, from the first sample to the last (bc_watch_judge()). */
struct bc_watch_verdicts {
	struct bc_verdict balance;    /* "balance": the slaves' shares, both ways */
	struct bc_verdict top_flow;   /* "top_flow": one flow pinned to one slave */
	struct bc_verdict ports;      /* "ports": traffic sent on a slave out of the transmit set */
	struct bc_verdict reordering; /* "reordering": TCP reordering growing with balance-rr */
};

/*
 * bc_watch_judge() - verdicts on @total (bc_watch_delta() of the first and
 * the last sample) with @n_busy of the @n_intervals intervals showing TCP
 * reordering (reordering counter up).  Mechanisms named in the verdicts:
 *   balance:    "single-flow" (one flow carries >= 80 % and a hash mode
 *               keeps a connection on one slave), "few-flows" (fewer
 *               flows than usable slaves), "hash-placement" (the flows'
 *               slaves, predicted or observed, crowd onto one),
 *               "hash-single-path" (layer2, layer2+3: every connection to
 *               one peer hashes alike), "hash-placement" (>= 90 % of the
 *               flows' placed TX on the busy slave), "peer-placement" (the
 *               imbalance is in what arrives), "unexplained" otherwise
 *               (also when the connections could not be read); not
 *               applicable for active-backup and broadcast (one slave, or
 *               every slave, by design) and with one usable slave.
 *               Saturation, a fact beside the mechanism: evidence
 *               "saturated" "yes" when a usable slave's rate in the judged
 *               direction is >= BC_WATCH_SATURATED of its negotiated speed
 *               while another usable slave carries <= BC_WATCH_IDLE_SHARE
 *               (then it fails even below BC_WATCH_BUSY_SHARE, and "where"
 *               is that slave: the bond, not the application, is the
 *               limit), with "utilisation" ("94 %"), "speed_bps" and
 *               "utilised" (the slave); "no" with the most utilised slave's
 *               figures; "unknown" with "speed_unknown" (the busiest slave,
 *               which reports no speed: virtio often does not);
 *   top_flow:   the busiest flow's share and slave; NFS (port 2049) gets
 *               the nconnect= advice, which needs layer3+4 or encap3+4;
 *   ports:      a slave outside the transmit set whose TX counter grew by
 *               more than 1 % of the bond's (LACPDUs and ARP monitoring
 *               are small), "non-distributing-port";
 *   reordering: balance-rr with reordering in at least half the intervals
 *               that carried TCP, "rr-reordering"; the counters are the
 *               namespace's, all its TCP, which the evidence says.
 * Inconclusive when the bond carried less than BC_WATCH_MIN_BYTES.
 */
void bc_watch_judge(const struct bc_watch_sample *first, const struct bc_watch_interval *total,
		    size_t n_intervals, size_t n_reorder_intervals, size_t n_tcp_intervals,
		    struct bc_watch_verdicts *v);

#endif
