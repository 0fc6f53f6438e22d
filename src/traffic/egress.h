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
	struct bc_egress_link dev; /* the interface the local address is on */
	bool is_bond;
	int bond_mode; /* BOND_MODE_*, -1 unknown */
	struct bc_egress_link slaves[BC_EGRESS_MAX_SLAVES];
	unsigned n_slaves;
};

/* bc_egress_find() - by the local address of a connected socket.  0 or -ENODEV. */
int bc_egress_find(const struct sockaddr_storage *local, struct bc_egress *e);

/*
 * bc_egress_json() - the egress interface for run metadata: MTU, speed, tbf
 * rate, driver, IRQs with their CPU affinity; for a bond also every
 * bonding/ option and each slave the same way.
 */
struct json_object *bc_egress_json(const struct bc_egress *e);

#endif
