/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The egress bond of a run, read with the live collector (bondcheck/collect.h)
 * before and after the traffic: per-slave driver, offloads, rings, channels,
 * coalescing and pause as they were in force, and the driver counters
 * (ETHTOOL_GSTATS) and ethtool standard statistics as deltas over the run.
 * Used on both ends (workflow/client.c, workflow/agent.c); bond-meta.c.
 */
#ifndef BC_TRAFFIC_BOND_META_H
#define BC_TRAFFIC_BOND_META_H

#include <stdbool.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

struct bc_bond_meta {
	bool is_bond;		    /* the local address is on a bond */
	char name[BC_IFNAMSIZ];	    /* that bond */
	struct bc_snapshot before;  /* collector snapshot of that bond alone */
	struct bc_snapshot after;
	int rc_before, rc_after;    /* 0 or the collector's -errno */
	struct bc_error err;	    /* the first collector failure */
};

/*
 * bc_bond_collect() - bc_collect_snapshot() of bond @name only, in the
 * caller's network namespace, into @snap (zeroed by the caller).  Returns
 * 0 and snap->bonds[0]; -ENODEV/-ENOENT when @name is not a bond; other
 * -errno from the collector.  @err says which.
 */
int bc_bond_collect(const char *name, struct bc_snapshot *snap, struct bc_error *err);

/*
 * bc_bond_meta_begin() - find the interface that carries @local; when it is
 * a bond, snapshot it (the "before" state).  Never fails: a collector error
 * is kept in @m and reported by bc_bond_meta_json().
 */
void bc_bond_meta_begin(struct bc_bond_meta *m, const struct sockaddr_storage *local);

/* bc_bond_meta_end() - the "after" snapshot, for counter deltas. */
void bc_bond_meta_end(struct bc_bond_meta *m);

/*
 * bc_bond_meta_json() - {"bond", "source": "collector", "kernel_release",
 * "warnings": [...], "slaves": [{name, driver, driver_version,
 * firmware_version, bus_info, mtu, speed_mbps, offloads{tso, tso6, gso,
 * gro, lro, rx_csum, tx_csum, sg: bool|null}, rings{rx, rx_max, tx,
 * tx_max}, channels{rx, tx, combined}, coalesce{rx_usecs, tx_usecs},
 * pause{rx, tx, autoneg}, driver_counters{name: delta},
 * standard_counters{"group.name": delta}}]}, or {"error": "..."}; NULL
 * when the egress is not a bond.  Counts in packets/bytes/events as the
 * driver defines them; times in microseconds; values a source did not
 * report are null.
 */
struct json_object *bc_bond_meta_json(const struct bc_bond_meta *m);

/* bc_bond_meta_free() - release both snapshots; @m may be all zero. */
void bc_bond_meta_free(struct bc_bond_meta *m);

#endif
