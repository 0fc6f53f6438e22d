/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interface a test leaves by, and the link rate to judge it against
 * (DESIGN.md "Rates": a tbf limit first, else the negotiated speed; bonds
 * from their slaves).  Live: getifaddrs, sysfs, rtnetlink qdiscs (libnl).
 */
#ifndef BC_TRAFFIC_EGRESS_H
#define BC_TRAFFIC_EGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "bondcheck/ceiling.h"
#include "bondcheck/error.h"
#include "bondcheck/model.h"

#define BC_EGRESS_MAX_SLAVES 16

struct bc_egress_link {
	char name[16];
	uint32_t mtu;
	uint32_t speed_mbps; /* 0 unknown */
	double tbf_bps;	     /* root tbf rate, 0 when none */
	struct bc_link_rate rate;
};

struct bc_egress {
	/* the interface the local address is on, or the bond below it when that
	 * interface is stacked on a bond (a VLAN bond0.100: then via names it) */
	struct bc_egress_link dev;
	char via[16]; /* the upper the address is on ("bond0.100"); "" when none */
	bool is_bond;
	int bond_mode; /* BOND_MODE_*, -1 unknown */
	struct bc_egress_link slaves[BC_EGRESS_MAX_SLAVES];
	unsigned n_slaves;
};

/*
 * bc_egress_find() - by the local address of a connected socket.  When the
 * address sits on an upper stacked on a bond (an 802.1Q VLAN bond0.100, or
 * a VLAN on that VLAN), dev is the bond and via the upper, so the bond's
 * slaves are what a run captures and counts.  0 or -ENODEV.
 */
int bc_egress_find(const struct sockaddr_storage *local, struct bc_egress *e);

/*
 * bc_egress_lower_bond() - the bond below @dev in the sysfs tree at @sysfs_net
 * ("/sys/class/net" live; a test's copy): follows the single lower_NAME link
 * of each upper (an 802.1Q VLAN has exactly one, its real device) at most 4
 * levels down until a device with a bonding/ directory.  Writes the bond's
 * name into @bond (@len bytes) and returns 0; -ENOENT when @dev is a bond
 * itself, has no single lower or none of them is a bond.
 */
int bc_egress_lower_bond(const char *sysfs_net, const char *dev, char *bond, size_t len);

/*
 * bc_egress_json() - the egress interface for run metadata: MTU, speed, tbf
 * rate, driver, IRQs with their CPU affinity; for a bond also every
 * bonding/ option and each slave the same way.
 */
struct json_object *bc_egress_json(const struct bc_egress *e);

#endif
