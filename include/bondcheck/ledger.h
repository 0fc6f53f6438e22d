/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live UDP loss ledger of a run (reference/measurement.md 3.1; DESIGN.md
 * "Capture and attribution"): where, between the sending app and the
 * receiving app, the datagrams disappeared, and which counter says so.
 *
 * Pure arithmetic on counts the caller collected: the captures' per-link
 * figures (bondcheck/attrib.h) and both ends' counter deltas over the run.
 * Stages, in datagrams (a fragmented message counts once: at the taps when
 * any of its fragments was captured there):
 *
 *   0 sent_by_app      the sender app's sendmsg successes
 *   1 left_on_link     seen leaving by the sender's slave captures; the gap
 *                      to 0 is before the tap: qdisc drops on the sender's
 *                      slaves (netem, tbf), SndbufErrors -> tx-loss
 *   2 arrived_on_link  seen by the receiver's slave captures; the gap to 1
 *                      (bracketed loss, per path) is explained first by the
 *                      receiving slave's NIC drops (rx_dropped,
 *                      rx_missed_errors, rx_over_errors, or the driver's own
 *                      drop counters: the larger) -> rx-loss-nic, then by
 *                      the receiving veth's peer's tx_dropped (a veth counts
 *                      a frame its peer's input backlog refused on its own
 *                      tx_dropped: drivers/net/veth.c veth_xmit) ->
 *                      rx-loss-nic, then by the sending slave's tx_dropped
 *                      (driver drops after the tap; when that slave is the
 *                      receiving veth's peer, what the peer step used is
 *                      not counted again) -> tx-loss, then, when the ends have
 *                      their own kernels, by the receiver's softnet dropped
 *                      -> rx-loss-nic (backlog); what is left is wire-loss
 *   3 reassembled      the unfragmented datagrams that arrived plus the
 *                      fragmented messages the receiver's kernel reassembled
 *                      (Ip ReasmOKs), at most what arrived (without the
 *                      counter: whole at the tap minus those predicted to
 *                      fail, FRAG_TOO_FAR).  The gap to 2 is
 *                      explained per TX link by the fragmented messages that
 *                      reached the receiver in part and lost a fragment on
 *                      that link (one lost fragment costs the whole message)
 *                      -> rx-loss-reassembly on the link, then by
 *                      FRAG_TOO_FAR, then by the kernel's own refusals of
 *                      messages whole at the tap -> rx-loss-reassembly on the
 *                      receiver's bond, with the reason the counters support
 *                      (net/ipv4/ip_fragment.c, inet_fragment.c):
 *                        memory   ReasmFails beyond one per failed queue: over
 *                                 ipfrag_high_thresh inet_frag_find() refuses
 *                                 every fragment, each a ReasmFails
 *                        timeout  ReasmTimeout (ip_expire(): one ReasmFails
 *                                 and one ReasmTimeout per queue after
 *                                 ipfrag_time)
 *                      The Ip counters cover the receiver's whole network
 *                      namespace: when ReasmReqds exceeds the fragments the
 *                      receiver's captures saw, other traffic moved them and
 *                      the stage says so.
 *   4 reached_socket   receiver Udp InDatagrams + InErrors; the gap to 3 is
 *                      explained by the receiving slaves' rx_nohandler (frames
 *                      the bond refused after the tap: an inactive or not
 *                      collecting slave) -> rx-loss-nic; the receiver's
 *                      Ip InReceives is named (what reached IP at all)
 *   5 read_by_app      the receiver app's count; the gap to 4 is
 *                      RcvbufErrors/InErrors, or the test sockets' own
 *                      drops column of /proc/net/udp (sk_drops; the larger)
 *                      -> rx-loss-socket
 *
 * softnet_stat is global per CPU: with both ends on one kernel (same boot
 * id, the testbed) its drops cannot be split between the ends, so they are
 * never subtracted, only named as evidence.  Unknown counters are -1.
 */
#ifndef BONDCHECK_LEDGER_H
#define BONDCHECK_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bondcheck/model.h"

#define BC_LEDGER_MAX_LINKS 32
#define BC_LEDGER_NAME	    32
#define BC_LEDGER_STAGES    6

/* One sender slave (packets: every fragment counts). */
struct bc_ledger_tx {
	char name[BC_LEDGER_NAME]; /* "tx:client/eth1" */
	char peer[BC_LEDGER_NAME]; /* the receive link its packets reached, "" unknown */
	uint64_t left;		   /* captured leaving, bracketed */
	uint64_t lost;		   /* left, bracketed, never arrived */
	int64_t qdisc_drops;	   /* root qdisc drops delta (rtnetlink TCA_STATS2), -1 */
	int64_t tx_dropped;	   /* interface tx_dropped delta, -1 */
	uint64_t messages_lost;	   /* fragmented datagrams that reached the receiver in part
				    * and lost a fragment here (captures) */
	bool lost_upper;	   /* @lost is only an upper bound: a receiving capture
				    * dropped frames (analysis bounds.lost "upper"/"unknown") */
};

/* One receiver slave. */
struct bc_ledger_rx {
	char name[BC_LEDGER_NAME];		/* "rx:agent/eth1" */
	int64_t rx_dropped, rx_missed, rx_over; /* interface statistics deltas, -1 */
	int64_t driver_drops;			/* sum of the driver's drop counters, -1 */
	char driver_counter[48];		/* the driver counter that moved most */
	/* a veth slave: its peer's tx_dropped delta (frames this slave's input
	 * backlog refused), -1 unknown or not a veth */
	int64_t peer_tx_dropped;
	bool peer_is_sender;  /* the peer is the sending end's slave (a direct veth cable) */
	int64_t rx_nohandler; /* delta: delivered to no handler (the bond refused it), -1 */
};

struct bc_ledger_in {
	char sender[16], receiver[16];		 /* "client", "agent" */
	char sender_addr[48], receiver_addr[48]; /* the test addresses */
	char sender_bond[16], receiver_bond[16]; /* "bond0" */
	uint64_t sent_by_app;			 /* datagrams */
	uint64_t left, arrived;			 /* datagrams at the taps (any fragment) */
	uint64_t unbracketed;			 /* left after the last arrival of their stream */
	uint64_t reassembled;			 /* messages whole and not too far */
	uint64_t too_far;			 /* complete but predicted FRAG_TOO_FAR */
	uint64_t read_by_app;
	int64_t snd_buf_errors; /* sender Udp SndbufErrors delta */
	int64_t rcv_in_datagrams, rcv_in_errors, rcv_buf_errors, rcv_reasm_fails;
	/* receiver Ip deltas (namespace-wide): fragments queued for reassembly,
	 * datagrams reassembled, queues expired; -1 unknown */
	int64_t rcv_reasm_reqds, rcv_reasm_oks, rcv_reasm_timeout;
	/* receiver captures: fragmented messages any fragment of which arrived,
	 * of them those whole, and the fragments seen arriving */
	uint64_t frag_messages, frag_complete, frag_arrived;
	/* receiver sysctls (per netns): bytes, seconds, fragments; -1 unknown */
	int64_t ipfrag_high_thresh, ipfrag_time, ipfrag_max_dist;
	uint32_t datagram_max;	/* the largest UDP payload under the path MTU, bytes; 0 unknown */
	int64_t rcv_sock_drops; /* the receiving sockets' /proc/net/udp drops, summed; -1 */
	int64_t rcv_ip_in_receives; /* receiver Ip InReceives delta (every protocol), -1 */
	int64_t softnet_dropped;    /* receiver softnet dropped delta */
	bool shared_kernel;	    /* both ends on one kernel (same boot id) */
	struct bc_ledger_tx tx[BC_LEDGER_MAX_LINKS];
	size_t n_tx;
	struct bc_ledger_rx rx[BC_LEDGER_MAX_LINKS];
	size_t n_rx;
};

struct bc_ledger_stage {
	const char *stage; /* "sent_by_app", ... */
	uint64_t count;
	bool known;	    /* false: a counter it needs is missing */
	uint64_t drop;	    /* count of the previous stage minus this one (0 when <) */
	uint64_t explained; /* of drop, explained by a counter */
	char counter[400];  /* the counters that moved, "name +delta, ..." or "" */
};

/* What one ledger finding says (the caller turns it into a struct bc_finding). */
struct bc_ledger_finding {
	const char *id; /* tx-loss, rx-loss-nic, wire-loss, rx-loss-reassembly, rx-loss-socket */
	char subject[BC_LEDGER_NAME]; /* link, or "host/bond" for host-wide stages */
	char host[48];
	uint64_t count;	   /* datagrams or packets this stage lost */
	uint64_t of;	   /* what it was out of (left on the link, ...) */
	char counter[160]; /* the counter that moved, with its delta */
	char path[2 * BC_LEDGER_NAME + 4];
	char advice[320]; /* the next step (a sysctl, a size), "" none */
};

#define BC_LEDGER_MAX_FINDINGS (3 * BC_LEDGER_MAX_LINKS + 4)

struct bc_ledger {
	struct bc_ledger_stage st[BC_LEDGER_STAGES];
	struct bc_ledger_finding f[BC_LEDGER_MAX_FINDINGS];
	size_t n_f;
	uint64_t wire_lost; /* packets no counter explains, over all paths */
	/* stage 3's reason, the last that explained messages: "lost-fragment"
	 * (captures), "too-far" (predicted), "memory" or "timeout" (the Ip
	 * counters), "" none; and whether other traffic in the receiver's
	 * namespace moved the Ip counters */
	const char *reasm_reason;
	bool reasm_other_traffic;
	bool softnet_unsplittable; /* softnet dropped moved on a shared kernel */
};

/* bc_ledger_in_init() - zero @in and mark every counter unknown (-1; rx[]/tx[]
 * entries the caller adds must set theirs). */
void bc_ledger_in_init(struct bc_ledger_in *in);

/* bc_ledger_compute() - the stages and findings of @in into @out. */
void bc_ledger_compute(const struct bc_ledger_in *in, struct bc_ledger *out);

/* bc_ledger_nic_drops() - the receive drops a slave reports: the larger of the
 * interface sum and the driver's, 0 when none is known. */
uint64_t bc_ledger_nic_drops(const struct bc_ledger_rx *rx);

#endif
