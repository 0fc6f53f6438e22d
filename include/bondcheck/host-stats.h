/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host counters and run metadata, taken on each end before and after a run
 * (DESIGN.md "Traffic engine"; measurement.md section 3):
 *
 *  - /proc/net/snmp (Ip, Udp, Tcp) and /proc/net/netstat (TcpExt): per
 *    network namespace;
 *  - /proc/net/softnet_stat: global per-CPU, the same in every namespace, so
 *    two ends on one kernel see the same numbers (the JSON says so);
 *  - /sys/class/net/<dev>/statistics for every interface of the namespace
 *    (IFLA_STATS64 values), plus "qdisc_drops": the root qdisc's drops from
 *    rtnetlink (`tc -s qdisc`), where a netem/tbf drop on a slave shows, and
 *    "carrier_changes" (/sys/class/net/<dev>/carrier_changes, 3.15+): each
 *    carrier loss and return, so a link that flapped during the run shows;
 *    and "rx_nohandler" (statistics/rx_nohandler, 4.6+): frames the stack
 *    took in but no handler wanted, e.g. a bond slave's frames the bond
 *    refused (an inactive or not collecting slave: bond_handle_frame returns
 *    RX_HANDLER_EXACT), dropped after the capture tap;
 *  - for a veth, its peer's tx_dropped (IFLA_STATS64 over rtnetlink, in the
 *    peer's namespace through IFLA_TARGET_NETNSID when the peer is
 *    elsewhere): a veth that cannot queue a frame onto its peer's input
 *    backlog counts it on its own tx_dropped (drivers/net/veth.c
 *    veth_xmit), so this is the receiving veth's backlog drop; and whether
 *    that peer is enslaved (then it is the other end's bond slave);
 *  - /proc/stat per-CPU busy and softirq time, to flag a CPU-bound run.
 */
#ifndef BONDCHECK_HOST_STATS_H
#define BONDCHECK_HOST_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/mib-text.h"

#define BC_HOST_MAX_IFS	    64
#define BC_HOST_IF_COUNTERS 13

struct bc_if_counters {
	char name[16];
	uint64_t v[BC_HOST_IF_COUNTERS]; /* order of if_counter_names in host-stats.c */
	bool peer_known;		 /* a veth whose peer's statistics were read */
	uint64_t peer_tx_dropped;	 /* that peer's tx_dropped */
	bool peer_enslaved;		 /* that peer has a master (a bond slave) */
};

struct bc_host_sample {
	struct bc_mib snmp, netstat;
	struct bc_softnet softnet;
	struct bc_cpu_times cpu;
	struct bc_if_counters ifs[BC_HOST_MAX_IFS];
	unsigned n_ifs;
	int64_t mono_ns;
};

/* CPU busy share at or above which a run is flagged CPU-bound. */
#define BC_CPU_BOUND_PCT 90.0

/* bc_host_sample_take() - read everything; unreadable sources are left empty. */
void bc_host_sample_take(struct bc_host_sample *s);
void bc_host_sample_free(struct bc_host_sample *s);

/*
 * bc_host_delta_json() - counters that moved from @a to @b: {"snmp":{...},
 * "netstat":{...}, "softnet":{...}, "interfaces":{...}, "cpu":[...],
 * "cpu_bound":bool}.  Ip and Udp counters are listed even when zero.
 */
struct json_object *bc_host_delta_json(const struct bc_host_sample *a,
				       const struct bc_host_sample *b);

/*
 * bc_host_metadata_json() - kernel release, hostname, boot id and the
 * sysctls that decide the outcome (tcp_reordering, tcp_max_reordering,
 * tcp_recovery, congestion control, rmem/wmem, netdev_max_backlog, ipfrag_*).
 */
struct json_object *bc_host_metadata_json(void);

#endif
