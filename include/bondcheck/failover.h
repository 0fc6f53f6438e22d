/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Failover analysis (`bondcheck failover`, docs/failover.md): what a paced
 * UDP stream in each direction saw when one slave was cut and, after a hold,
 * brought back.  Pure: input is the per-slave captures of both ends (our
 * datagrams carry stream id and a 64-bit sequence number,
 * bondcheck/udp-header.h), the event times and each end's bond
 * configuration; output the figures below and the findings failover-slow,
 * failover-black-hole and failover-not-recovered.
 *
 * Hosts and directions.  Links are named "client/eth0", "agent/eth0": the
 * client is the host that cut its slave.  A datagram from the client's
 * address travels client-to-agent (BC_FO_C2A); one from the agent's
 * address agent-to-client.  A datagram captured on the sender's link
 * *left* there; on the receiver's link it *arrived*.
 *
 * Delivered arrivals.  In active-backup the bond hands the stack only what
 * arrives on its active slave (drivers/net/bonding/bond_main.c,
 * bond_should_deliver_exact_match(): frames on an inactive slave go to
 * packet sockets bound to that slave only, so the capture sees them but
 * the application does not).  With cfg.rx_on_tx_slave_only[host] set, an
 * arrival counts as delivered only when it came in on the slave that host
 * was transmitting on at that time (the link of its latest departure of the
 * other direction's stream); otherwise every captured arrival is delivered.
 *
 * Clocks.  Event times are the client's CLOCK_REALTIME, as are its capture
 * timestamps.  The agent's timestamps are moved onto the client's clock
 * by the offset estimated from both directions' one-way delays (NTP's
 * symmetric-path assumption, RFC 5905 8: offset = (min forward delay -
 * min reverse delay) / 2); on one kernel (the testbed) it is about 0.
 *
 * Per stream, on delivered arrivals in arrival order:
 *  - the down gap: among the intervals between consecutive delivered
 *    arrivals that end after the cut and start before the restore, the one
 *    that lost the most datagrams (a sender that paused loses nothing); with
 *    no loss at all, the one where the flow first left (or arrived) on
 *    another link than before the cut; else the longest.  Last datagram
 *    before, first after, their sequence numbers and links, and the
 *    datagrams in between never delivered (lost_in_gap).  A gap that ends
 *    after the restore (or never) is a black hole for the whole hold;
 *  - the up gap: the longest interval that ends after the restore and starts
 *    after the down gap ended (traffic moving back to the returned slave);
 *  - lost (sequence numbers between the first and last seen, never
 *    delivered), duplicates (a sequence number delivered again), reordered
 *    (RFC 4737 3.3: delivered with a sequence number below the next
 *    expected one);
 *  - the links it left and arrived on before the cut, after the failover
 *    and at the end (a datagram seen leaving twice counts where it left
 *    last: the engine retries a failed send with the same number).
 * A stream is interrupted when datagrams were lost in its down gap, moved
 * when the first datagram after it left or arrived on another link.
 *
 * Per link: our datagrams that left and arrived, gratuitous ARPs (ARP whose
 * sender and target protocol addresses are equal, RFC 5227 3) and
 * unsolicited neighbor advertisements (ICMPv6 136 to a multicast address
 * with the Solicited flag clear, RFC 4861 4.4 / 7.2.6) by sending host,
 * LACPDUs, the LACP timeout seen after the cut (first LACPDU whose actor
 * state lacks collecting/distributing or has EXPIRED/DEFAULTED set, IEEE
 * 802.1AX 6.4.2.3) and how long the other actor had been silent then (the
 * partner's last LACPDU to it: the timeout the kernel ran, independent of
 * when the cut took effect), when a LACPDU first showed DEFAULTED, the LACP
 * re-sync after the restore (every actor heard on the
 * link after the restore has sent synchronization + collecting +
 * distributing), and a timeline of datagrams per bin (cfg.bin_ns).
 *
 * Times are ns (CLOCK_REALTIME of the client) unless the name says ms.
 */
#ifndef BONDCHECK_FAILOVER_H
#define BONDCHECK_FAILOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

#define BC_FO_MAX_LINKS	  32
#define BC_FO_NAME	  32
#define BC_FO_MAX_STREAMS 256
#define BC_FO_MAX_BINS	  4096
#define BC_FO_MAX_ACTORS  4			/* LACP actors tracked per link */
#define BC_FO_MAX_SPAN	  (1u << 24)		/* sequence numbers per stream kept */
#define BC_FO_NONE	  UINT64_MAX		/* "no such time" */
#define BC_FO_DEFAULT_BIN (10ull * 1000 * 1000) /* 10 ms */

enum bc_fo_host { BC_FO_CLIENT = 0, BC_FO_AGENT = 1 };
enum bc_fo_dir { BC_FO_C2A = 0, BC_FO_A2C = 1 };
enum bc_fo_cut { BC_FO_CUT_CARRIER = 0, BC_FO_CUT_SILENT = 1 };

/* ---- what the configuration implies -------------------------------------- */

/*
 * One end's bond configuration, from the collector (the client's model,
 * struct bc_bond) or the agent's run metadata (metadata.bond.options).
 * Times in ms as the kernel reports them.
 */
struct bc_fo_end {
	bool known;   /* false: the configuration of this end is not known */
	bool is_bond; /* false: a bridge or a plain interface, no failover of its own */
	int mode;     /* enum bc_bond_mode */
	uint32_t miimon_ms, updelay_ms, downdelay_ms;
	uint32_t arp_interval_ms;
	uint32_t arp_missed_max; /* 0: not reported (kernel < 5.17): the default 2 is used */
	uint32_t n_arp_targets, n_ns_targets;
	int lacp_rate; /* 0 slow, 1 fast, -1 not reported */
};

/* bc_fo_end_from_bond() - fill @e from a collected bond (known, is_bond set). */
void bc_fo_end_from_bond(const struct bc_bond *b, struct bc_fo_end *e);

enum bc_fo_detector {
	BC_FO_BY_NONE_NEEDED = 0, /* neither end is a bond (nothing to detect) */
	BC_FO_BY_CARRIER,	  /* carrier loss, seen at once (hash, round-robin, broadcast) */
	BC_FO_BY_MIIMON,	  /* carrier, polled every miimon ms */
	BC_FO_BY_ARP,		  /* ARP (or NS) monitoring */
	BC_FO_BY_LACP,		  /* the 802.3ad partner's LACPDUs stop */
	BC_FO_BY_NOTHING,	  /* no configured monitoring can see this cut */
};

/*
 * What one end's monitoring can observe of the cut (docs/failover.md, "Who
 * can see the cut"):
 *  - CARRIER: its own slave loses carrier (the client, a carrier cut);
 *  - FAR_CARRIER: it watches carrier only, and its slave's carrier follows
 *    the client's only when the two are wired straight to each other (a
 *    cable, a veth pair); through a switch or a bridge it keeps carrier and
 *    sees nothing (the agent, a carrier cut, miimon or a hash mode);
 *  - ARP: its ARP probes' replies stop (ARP monitoring, any cut);
 *  - LACPDUS: the partner's LACPDUs stop (802.3ad, any cut that drops them
 *    towards this end; a one-way cut is seen by the end it blinds only);
 *  - NOTHING: no monitoring it has sees this cut; NOT_NEEDED: not a bond.
 */
enum bc_fo_sees {
	BC_FO_SEES_NOT_NEEDED = 0,
	BC_FO_SEES_CARRIER,
	BC_FO_SEES_FAR_CARRIER,
	BC_FO_SEES_ARP,
	BC_FO_SEES_LACPDUS,
	BC_FO_SEES_NOTHING,
};

/* One end's own detection of the cut (index enum bc_fo_host). */
struct bc_fo_end_expect {
	enum bc_fo_detector by;
	enum bc_fo_sees sees;
	/*
	 * FAR_CARRIER only: what detects the cut when the carrier does not
	 * follow (through a switch): @far_by with @far_worst_ms, or
	 * BC_FO_BY_NOTHING (a black hole then)
	 */
	enum bc_fo_detector far_by;
	uint64_t far_worst_ms;
	uint64_t nominal_ms, min_ms, worst_ms, recovery_ms; /* ms, as in bc_failover_expect() */
	char basis[120];   /* "LACP long (lacp_rate slow) timeout 90000 ms (3 x 30000 ms)" */
	char missing[160]; /* by NOTHING: which monitoring is missing */
	char sight[200];   /* what its monitoring observes of this cut, in words */
	uint64_t
		lacp_timeout_ms; /* 802.3ad: its own LACP timeout (3000 fast, 90000 slow), else 0 */
};

/*
 * One direction's expectation: the ends that must detect the cut for it
 * (@detectors, bit 1 << enum bc_fo_host): the sender, which must stop
 * transmitting on the dead slave, and an active-backup receiver, which
 * delivers only what arrives on its active slave.  The range is the
 * slowest of those ends.
 */
struct bc_fo_dir_expect {
	enum bc_fo_detector by; /* the slowest detecting end's detector */
	bool black_hole;	/* a detecting end has no monitoring that sees this cut */
	bool far_carrier;	/* the range assumes a detecting end sees the far carrier */
	unsigned detectors;	/* 1 << BC_FO_CLIENT | 1 << BC_FO_AGENT */
	enum bc_fo_host slowest;
	uint64_t nominal_ms, min_ms, worst_ms, limit_ms;
	char basis[256];   /* "agent: LACP long (lacp_rate slow) timeout ..." */
	char missing[256]; /* black_hole: "agent: miimon 100 sees only carrier, ..." */
};

struct bc_fo_expect {
	/* the slowest detector on either end: what the hold must cover */
	enum bc_fo_detector by;
	bool black_hole;     /* a direction has a detecting end that cannot see the cut */
	bool assumed_agent;  /* the agent's configuration was unknown: the client's assumed */
	uint64_t nominal_ms; /* of the slowest end (see bc_failover_expect) */
	uint64_t min_ms;     /* largest earliest detection of the two ends */
	uint64_t worst_ms;   /* latest detection either end's timers allow */
	uint64_t limit_ms;   /* worst + max(100, worst / 4) */
	uint64_t
		recovery_ms; /* miimon + updelay: the longest before the returned slave counts up */
	char basis[256];     /* "miimon 100 ms + downdelay 0 ms (client, agent)" */
	char missing[256];   /* black_hole: which end lacks which monitoring */
	struct bc_fo_end_expect end[2]; /* per host */
	struct bc_fo_dir_expect dir[2]; /* per direction: one range each */
	bool ends_differ;		/* both ends known bonds, configured differently */
	char differ[200];		/* "lacp_rate: client fast, agent slow" */
};

/* Tolerance of failover-slow: the measured gap may exceed worst_ms by this much. */
#define BC_FO_SLACK_MS(worst) ((worst) / 4 > 100 ? (worst) / 4 : 100)

/*
 * bc_failover_expect() - the traffic gap that the configuration of the two
 * ends implies for a cut of kind @cut (carrier loss, or a silent cut that
 * keeps carrier).  Per bond end:
 *   - 802.3ad: carrier loss with miimon > 0: miimon + downdelay; otherwise
 *     the LACP timeout: 3 LACPDU periods of the partner, fast 3 s (1 s
 *     periods), slow 90 s (30 s periods) (IEEE 802.1AX 6.4.4, short/long
 *     timeout); the last LACPDU arrived up to one period before the cut,
 *     and the current_while timer counts whole 100 ms ticks of the state
 *     machines (drivers/net/bonding/bond_3ad.c AD_TIMER_INTERVAL), its first
 *     tick coming up to one tick after the LACPDU: min = 2 periods - 100 ms
 *     (1977 ms was measured in the testbed), worst = 3 periods + 100 ms;
 *   - ARP (arp_interval > 0 with a target): nominal arp_interval x
 *     arp_missed_max (default 2); the active slave is declared down when
 *     nothing arrived for missed_max intervals plus half an interval,
 *     checked once per interval (bond_main.c bond_ab_arp_inspect(),
 *     bond_time_in_interval()): min (missed_max - 1) x interval, worst
 *     (missed_max + 1.5) x interval;
 *   - miimon > 0 and a carrier loss: nominal = worst = miimon + downdelay
 *     (the poll finds the carrier gone within one interval, then downdelay),
 *     min = downdelay;
 *   - anything else cannot see the cut: black hole (miimon sees carrier
 *     only; no monitoring at all sees nothing).
 * An end that is not a bond needs no detection.  Both ends must notice
 * (active-backup delivers only what arrives on the active slave), so the
 * figures are the slower end's.
 *   - balance-xor, 802.3ad, balance-rr and broadcast on a carrier loss: at
 *     once, whatever miimon says: the slave's netdev event refreshes the
 *     transmit array of the hash modes and rr/broadcast check carrier per
 *     packet (bond_main.c bond_slave_netdev_event() -> bond_update_slave_arr(),
 *     bond_slave_can_tx()); nominal = worst = 0 (the tolerance applies).  The
 *     slave is used again once miimon + updelay mark it up (recovery).
 * @agent may be unknown (known false): the
 * client's configuration is assumed for it (assumed_agent).  @client must
 * be known.  Returns 0, or -EINVAL when @client is not known.
 */
int bc_failover_expect(const struct bc_fo_end *client, const struct bc_fo_end *agent,
		       enum bc_fo_cut cut, struct bc_fo_expect *out);

/*
 * bc_fo_takeover() - can another slave of @b take over when @cut_slave is
 * cut?  Checked before the cut, from the collector's snapshot:
 *  - every mode: another slave that is MII up ("going down", down and
 *    "going back" cannot carry traffic: bond_main.c bond_miimon_inspect(),
 *    bond_ab_arp_inspect());
 *  - 802.3ad: that slave in the cut slave's aggregator with its actor
 *    collecting and distributing (bond_3ad.c: only such ports are in the
 *    transmit array);
 *  - active-backup with ARP monitoring and arp_validate backup or all
 *    (2, 3, 6): a backup is kept up only by validated ARP it receives,
 *    which back to back never reaches it; named as the likely cause when
 *    the backup is not up.
 * Returns 1 when one can, 0 when none can (@why, @len: which slaves and
 * why, e.g. "b1 is going down; arp_validate all: ..."), -EINVAL for a
 * @cut_slave that is not a slave of @b.
 */
int bc_fo_takeover(const struct bc_bond *b, const char *cut_slave, char *why, size_t len);

/* bc_fo_detector_name() - "miimon", "arp", "lacp", "none-needed", "nothing". */
const char *bc_fo_detector_name(enum bc_fo_detector d);

/* ---- the measured side ------------------------------------------------------ */

struct bc_fo_cfg {
	uint8_t version;	 /* 4 or 6 */
	uint8_t client_addr[16]; /* IPv4 in the first 4 bytes */
	uint8_t agent_addr[16];
	uint32_t test_id;		       /* only datagrams of this test; 0: any */
	uint64_t cut_ns, restore_ns;	       /* the cut and the restore began (client clock) */
	uint64_t cut_done_ns, restore_done_ns; /* their commands finished; 0: at once */
	/* the longest the measuring host did not run its control loop (a busy
	 * CPU; the bond's own timers may have run late by as much): evidence */
	uint64_t host_stall_ns;
	char bond[BC_IFNAMSIZ];	     /* the client's bond (finding subjects) */
	char cut_slave[BC_IFNAMSIZ]; /* the client slave that was cut */
	enum bc_fo_cut cut;
	bool rx_on_tx_slave_only[2]; /* per host: see "Delivered arrivals" above */
	uint64_t bin_ns;	     /* timeline bin (BC_FO_DEFAULT_BIN) */
	struct bc_fo_expect expect;  /* from bc_failover_expect() */
	/* per host: before the cut no other slave could take over (bc_fo_takeover()),
	 * and why; @takeover_known false: not checked (an agent that did not answer) */
	bool no_takeover[2], takeover_known[2];
	char takeover_why[2][240];
	bool have_expect;
	/* --tcp: the TCP flow client -> agent to its port @tcp_dport (0: none
	 * analysed) from @tcp_sport (0: any); @tcp_srtt_ns its sender's smoothed
	 * RTT and @tcp_rto_ns its retransmission timeout (TCP_INFO at the end of
	 * the test; 0 unknown), for the expected RTO;
	 * @tcp_sender_retrans its segments retransmitted over the whole test
	 * (TCP_INFO total_retrans; -1 unknown), reported as they are */
	uint16_t tcp_dport, tcp_sport;
	uint64_t tcp_srtt_ns, tcp_rto_ns;
	int64_t tcp_sender_retrans;
};

/* bc_fo_cfg_default() - zeroes, 10 ms bins, carrier cut. */
void bc_fo_cfg_default(struct bc_fo_cfg *cfg);

/* One LACP actor heard on a link. */
struct bc_fo_actor {
	uint8_t system[6];
	uint16_t port;
	uint64_t lacpdus;
	uint8_t last_state;
	uint64_t last_ns;		  /* its latest LACPDU so far */
	uint64_t synced_after_restore_ns; /* first full sync after the restore, BC_FO_NONE */
	bool after_restore;		  /* heard after the restore */
	bool late_in_hold;		  /* heard in the second half of the hold */
};

struct bc_fo_link {
	char name[BC_FO_NAME]; /* "client/eth0" */
	enum bc_fo_host host;
	char ifname[BC_IFNAMSIZ];
	uint64_t left, arrived;	       /* our datagrams */
	uint64_t garp[3], unsol_na[3]; /* sent by [client, agent, another host] */
	uint64_t garp_after_cut[3], unsol_na_after_cut[3];
	uint64_t first_garp_after_cut_ns; /* any sender; BC_FO_NONE */
	uint64_t arp_other;		  /* ARP that is not gratuitous */
	uint64_t lacpdus;
	uint64_t lacp_timeout_ns;      /* first LACPDU after the cut showing the timeout */
	uint64_t lacp_silence_ns;      /* from the last LACPDU of another actor to it */
	uint64_t lacp_defaulted_ns;    /* first LACPDU after the cut with DEFAULTED set */
	uint64_t lacp_partner_last_ns; /* at the timeout: the other actor's last LACPDU, or 0 */
	/* the other end's actor was still heard on this link in the second half
	 * of the hold: the cut did not stop its LACPDUs towards this end */
	bool lacp_partner_heard_late;
	uint64_t lacp_resync_ns; /* all actors heard after the restore in sync; only
				  * for a link LACP was disturbed on (a timeout, or
				  * fewer than two actors late in the hold) */
	struct bc_fo_actor actors[BC_FO_MAX_ACTORS];
	size_t n_actors;
	uint64_t returned_ns[2]; /* per direction: first datagram after the restore */
	uint64_t malformed, foreign;
	bool truncated;
	uint32_t *tl_left, *tl_arrived; /* timeline: datagrams per bin */
	/* timeline, `--tcp`: data segments of the TCP flow per bin, that left on
	 * this slave (client) or arrived on it (agent); NULL without the flow */
	uint32_t *tl_tcp;
};

/* One interval without delivered datagrams. */
struct bc_fo_gap {
	bool found;
	bool open; /* nothing was delivered after it (to the end) */
	uint64_t last_before_ns, first_after_ns;
	uint64_t gap_ns; /* first_after - last_before (open: to the end) */
	uint64_t last_seq, first_seq;
	int last_link, first_link; /* arrival links, -1 */
	int first_left_link;	   /* the link the first datagram after left on, -1 */
	uint64_t lost_in_gap;	   /* sequence numbers in between never delivered */
};

struct bc_fo_stream {
	uint32_t test_id, stream_id;
	enum bc_fo_dir dir;
	uint16_t sport, dport;
	uint64_t min_seq, max_seq;	   /* over departures and arrivals */
	uint64_t left, arrived, delivered; /* delivered: first copies */
	uint64_t lost, duplicates, reordered, not_delivered;
	struct bc_fo_gap down, up;
	bool used_cut_slave; /* left or arrived on the cut slave before the cut */
	bool interrupted;    /* down.lost_in_gap > 0 */
	bool black_hole;     /* down gap covers the whole hold */
	bool moved;	     /* left or arrived on another link after the gap */
	/* links it left on (-1): the last departure before the cut, the last
	 * before the restore (where the sender was at the end of the hold), the last */
	int left_before, left_after, left_end;
	int arrived_before, arrived_after, arrived_end;
	/* internal */
	uint32_t span;
	uint64_t *dep_ts, *arr_ts; /* per seq - min_seq, BC_FO_NONE */
	uint8_t *dep_link, *arr_link;
	uint16_t *arr_n;
};

struct bc_fo_dirsum {
	size_t n_streams, n_interrupted, n_black_hole, n_used_cut, n_moved;
	uint64_t gap_ns;	    /* longest down gap of the interrupted streams (0: none) */
	uint64_t up_gap_ns;	    /* longest up gap with loss (0: none) */
	uint64_t unaffected_gap_ns; /* longest down gap of the streams neither interrupted nor moved
				     */
	uint64_t moved_gap_ns;	    /* longest down gap of the streams that moved */
	uint64_t lost, lost_in_gap, duplicates, reordered;
	uint64_t returned_ns; /* first datagram on the cut slave after the restore */
	/* bit masks of links the sender used, from its measured departures: before the cut,
	 * at the end of the hold (its last departure before the restore), at the end */
	uint64_t tx_before, tx_after, tx_end;
	bool not_recovered; /* a stream delivered nothing after the restore */
	/* of the streams that used the cut slave: 1 when every one left on
	 * another slave by the end of the hold (the sender detected the cut),
	 * 0 when none did, -1 mixed or no such stream */
	int sender_moved;
	/* when the last of them first left on another slave after the cut: the
	 * sender's own detection, measured (BC_FO_NONE: none moved) */
	uint64_t left_at_ns;
	/* set by bc_failover_finish(): within, slow, black-hole, inconclusive,
	 * not-interrupted, no-expectation; @why says what it rests on */
	const char *verdict;
	char why[800];
};

/*
 * The TCP flow client -> agent (cfg.tcp_dport), from the captures: data
 * segments that left on a client slave and arrived on an agent slave
 * (delivered as for datagrams, "Delivered arrivals"), sequence numbers
 * relative to the earliest data segment seen.
 *  - the stall: the receiver's in-order point (RCV.NXT, RFC 9293 3.3.1)
 *    advances when a delivered segment covers it (later segments already
 *    held count then); among the intervals between two advances that end
 *    after the cut and start before the restore, the longest; open when
 *    its last advance came before the restore and the capture went on
 *    after it (stall_ns: to the last datagram captured);
 *  - retransmissions seen: a data segment leaving the client that starts
 *    below the highest sequence sent so far (TCP sends below SND.NXT only
 *    to retransmit), over the whole capture and between the cut and the
 *    restore.  A lower bound: a segment whose first copy never reached the
 *    capture (dropped by a slave taken admin down) looks new when it is
 *    sent again; the sender's own count is cfg.tcp_sender_retrans;
 *  - goodput before: in-order bytes delivered in the BC_FO_TCP_WINDOW
 *    before the cut (from the first delivery when later), after: in the
 *    BC_FO_TCP_WINDOW after the stall ended (up to the restore when
 *    sooner), bits/s of payload;
 *  - links: the client slave of the last data segment that left before the
 *    cut, and of the latest one that left up to the end of the stall; the
 *    agent slave of the last delivery before the stall, and of the one
 *    that ended it.
 * What is expected (the reference is the longest down gap of the
 * client-to-agent UDP streams that left on the same client slave before
 * the cut, else of the direction): TCP cannot deliver while the path is
 * down, so the stall is at least that gap (min = gap - BC_FO_TCP_TOL); and
 * TCP only resends when its retransmission timer fires, the timeout
 * doubling each time (RFC 6298 5.5), so the first retransmission after a
 * path that returned G after the loss comes before 2 G + RTO (the timer
 * fires at RTO (2^k - 1)): max = 2 x gap + RTO + BC_FO_TCP_TOL_MAX.  RTO is
 * the sender's own (cfg.tcp_rto_ns), at least its srtt + 200 ms: Linux's
 * smallest (__tcp_set_rto(): srtt + rttvar, rttvar at least TCP_RTO_MIN
 * 200 ms); RFC 6298 2.4 recommends 1 s, which other stacks may use.  A tail
 * loss probe (RFC 8985 7) fires no later than the RTO would and leaves it
 * counted from the oldest unacknowledged segment (tcp_rearm_rto()).
 */
#define BC_FO_TCP_WINDOW  (1000ull * 1000 * 1000) /* 1 s */
#define BC_FO_TCP_TOL	  (20ull * 1000 * 1000)	  /* 20 ms: segments and datagrams interleave */
#define BC_FO_TCP_TOL_MAX (100ull * 1000 * 1000)  /* 100 ms */
#define BC_FO_TCP_RTO_MIN (200ull * 1000 * 1000)  /* Linux TCP_RTO_MIN */

struct bc_fo_tcp {
	bool present; /* data segments of the flow were captured */
	uint16_t sport, dport;
	uint64_t segments_left, segments_arrived, not_delivered;
	uint64_t bytes_sent;	  /* highest relative sequence sent */
	uint64_t bytes_delivered; /* in order at the agent */
	bool stall_found, stall_open;
	uint64_t last_before_ns, first_after_ns, stall_ns;
	uint64_t retrans, retrans_in_hold; /* seen in the capture: a lower bound */
	uint64_t first_retrans_ns;	   /* first one seen after the cut; BC_FO_NONE */
	uint64_t goodput_before_bps, goodput_after_bps;
	int left_before, left_after, arrived_before, arrived_after; /* links, -1 */
	/* expected */
	uint64_t udp_gap_ns; /* the reference UDP gap */
	uint64_t rto_ns;     /* max(cfg.tcp_rto_ns, srtt + TCP_RTO_MIN) */
	uint64_t min_ns, max_ns;
	const char *verdict; /* within, longer, shorter, not-recovered, no-stall, no-data */
};

struct bc_failover {
	struct bc_fo_cfg cfg;
	struct bc_fo_link links[BC_FO_MAX_LINKS];
	size_t n_links;
	struct bc_fo_stream *streams;
	size_t n_streams;
	struct bc_fo_dirsum dir[2];
	int64_t clock_offset_ns; /* agent clock - client clock (estimated) */
	bool clock_offset_known;
	int cut_link;			 /* index of client/<cut_slave>, -1 */
	uint64_t first_ns, last_ns;	 /* our datagrams, client clock */
	uint64_t tl_start_ns, tl_bin_ns; /* timeline */
	size_t tl_bins;
	uint64_t foreign; /* our header, other test id or out-of-range seq */
	struct bc_fo_tcp tcp;
	struct bc_finding *findings;
	size_t n_findings;
	/*
	 * per host: what the measurement says of its sight of the cut (set by
	 * bc_failover_finish() with an expectation): whether it left the slave
	 * facing the cut before the restore (its own streams' departures), by
	 * which mechanism when the captures tell (its LACP port expiring, a
	 * gap beyond what carrier allows), or why it did not
	 */
	char saw[2][300];
	bool finished;
	void *priv;
};

/* bc_failover_init() - 0 or -ENOMEM. */
int bc_failover_init(struct bc_failover *f, const struct bc_fo_cfg *cfg, struct bc_error *err);
void bc_failover_free(struct bc_failover *f);

/*
 * bc_failover_add_link() - declare a capture of @ifname on @host.  Returns
 * its index; -E2BIG past BC_FO_MAX_LINKS; -EEXIST for a duplicate;
 * -ENAMETOOLONG for a name longer than an interface name.
 */
int bc_failover_add_link(struct bc_failover *f, enum bc_fo_host host, const char *ifname,
			 struct bc_error *err);

/*
 * bc_failover_add_packet() - one captured frame of @link in capture order
 * (@ts_ns on that host's clock).  Returns 0 or -ENOMEM; frames that are not
 * ours, ARP, NA or LACP are ignored; undecodable ones counted malformed.
 */
int bc_failover_add_packet(struct bc_failover *f, int link, uint64_t ts_ns, const uint8_t *data,
			   uint32_t caplen, uint32_t wire_len);

/*
 * bc_failover_read_pcap() - every frame of a pcap/pcapng file (nanosecond
 * timestamps).  -ENOENT/-EIO when libpcap cannot open it,
 * -EPROTONOSUPPORT for a link type other than Ethernet; a file that ends
 * inside a record marks the link truncated.
 */
int bc_failover_read_pcap(struct bc_failover *f, int link, const char *path, struct bc_error *err);

/*
 * bc_failover_finish() - clock offset, delivered arrivals, gaps, per-link
 * LACP and timeline, direction summaries and findings.  0 or -ENOMEM.
 */
int bc_failover_finish(struct bc_failover *f, struct bc_error *err);

/*
 * bc_failover_judge() - the verdicts, who saw the cut and the findings of
 * @f from its expectation (cfg.expect) and its direction summaries (dir[]),
 * as bc_failover_finish() ends with; for a re-read of saved figures
 * (bc_failover_reread()).  Replaces @f's findings.  0 or -ENOMEM.
 */
int bc_failover_judge(struct bc_failover *f);

/* bc_fo_dir_name() - "client-to-agent" / "agent-to-client". */
const char *bc_fo_dir_name(enum bc_fo_dir d);

#endif
