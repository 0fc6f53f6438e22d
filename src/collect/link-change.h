/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the change layer: bond option and bond-slave option writes over
 * rtnetlink (RTM_NEWLINK with IFLA_LINKINFO / IFLA_INFO_DATA or
 * IFLA_INFO_SLAVE_DATA, as `ip link set ... type bond ...` sends them;
 * kernel drivers/net/bonding/bond_netlink.c bond_changelink and
 * bond_slave_changelink).  libnl 3.7 has no setters for most IFLA_BOND_*,
 * so the message is built with libnl's nlmsg/nla API.
 */
#ifndef BC_COLLECT_LINK_CHANGE_H
#define BC_COLLECT_LINK_CHANGE_H

#include <stddef.h>
#include <stdint.h>

#include "bondcheck/error.h"

enum bc_nla_kind {
	BC_NLA_U8,
	BC_NLA_U16,
	BC_NLA_U32,
	BC_NLA_BYTES,	 /* data/len (ad_actor_system: 6 bytes) */
	BC_NLA_TARGETS4, /* nest of be32 addresses, child type = index */
	BC_NLA_TARGETS6, /* nest of in6_addr, child type = index */
};

struct bc_nla {
	int type; /* IFLA_BOND_* or IFLA_BOND_SLAVE_* number */
	enum bc_nla_kind kind;
	uint32_t v;	  /* U8/U16/U32 */
	const void *data; /* BYTES: @len bytes; TARGETS4: n x 4; TARGETS6: n x 16 */
	size_t len;	  /* bytes of @data */
};

/*
 * bc_bond_set_attrs() - one RTM_NEWLINK on bond @bond carrying @attrs in
 * IFLA_INFO_DATA (kind "bond").  The kernel applies them in attribute
 * order and stops at the first it refuses.  Returns 0 or the kernel's
 * -errno with its extended-ack text in @err (e.g. "option lacp_rate:
 * unable to set because the bond device is up" -> -EBUSY).
 */
int bc_bond_set_attrs(const char *bond, const struct bc_nla *attrs, size_t n, struct bc_error *err);

/* bc_bond_slave_set_attrs() - the same for a slave's IFLA_INFO_SLAVE_DATA. */
int bc_bond_slave_set_attrs(const char *slave, const struct bc_nla *attrs, size_t n,
			    struct bc_error *err);

#endif
