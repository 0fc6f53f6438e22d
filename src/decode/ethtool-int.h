/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the ethtool netlink decoders: ethtool-msg.c walks a reply
 * stream and dispatches to one decoder per message kind
 * (ethtool-link.c, ethtool-queues.c, ethtool-stats.c).
 */
#ifndef BC_DECODE_ETHTOOL_INT_H
#define BC_DECODE_ETHTOOL_INT_H

#include <netlink/attr.h>

#include "bondcheck/error.h"
#include "bondcheck/ethtool.h"

/*
 * One message kind.  @tb holds the reply's attributes parsed with @policy
 * (size @maxattr + 1); @attrs/@attrlen are the raw attributes for kinds with
 * repeated ones (STATS_GRP).
 */
struct eth_kind {
	const char *name;
	int req_cmd, reply_cmd;
	int header_attr; /* ETHTOOL_A_*_HEADER of the request */
	int maxattr;
	struct nla_policy *policy;
	int (*decode)(struct nlattr **tb, struct nlattr *attrs, int attrlen, struct bc_slave *s,
		      struct bc_error *err);
};

extern const struct eth_kind eth_linkinfo, eth_linkmodes, eth_features;
extern const struct eth_kind eth_rings, eth_channels, eth_pause, eth_coalesce;
extern const struct eth_kind eth_stats;

/* Largest maxattr of any kind (tb[] size). */
#define ETH_TB_MAX 64

#endif
