/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared between the rtnetlink decoders: rtnl-link.c (the dump stream and
 * generic link attributes) and rtnl-bond.c (IFLA_BOND_* / IFLA_BOND_SLAVE_*).
 */
#ifndef BC_DECODE_RTNL_INT_H
#define BC_DECODE_RTNL_INT_H

#include <netlink/attr.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

/* "aa:bb:..." of @len bytes into @out (BC_MAC_STR); st KNOWN. */
void rtnl_mac_text(struct bc_str *out, const void *addr, size_t len);

/*
 * rtnl_bond_info() - IFLA_INFO_DATA of a bond into @b.  @ifname_of maps an
 * ifindex to a name (NULL when unknown) for ACTIVE_SLAVE and PRIMARY.
 * Return 0 or a negative errno with @err set.
 */
int rtnl_bond_info(struct bc_snapshot *snap, struct bc_bond *b, struct nlattr *data,
		   const char *(*ifname_of)(void *ctx, int ifindex), void *ctx,
		   struct bc_error *err);

/*
 * rtnl_bond_mode_defaults() - after all slaves are known: 802.3ad fields
 * that the kernel omits (no AD_INFO, no aggregator id) become BC_NA.
 */
void rtnl_bond_absent(struct bc_snapshot *snap, struct bc_bond *b, bool had_info_data);

/* rtnl_slave_info() - IFLA_INFO_SLAVE_DATA of a bond port into @s. */
int rtnl_slave_info(const struct bc_bond *b, struct bc_slave *s, struct nlattr *data,
		    struct bc_error *err);

#endif
