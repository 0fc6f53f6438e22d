// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ethtool netlink STATS reply (5.13+, kernel net/ethtool/stats.c): one
 * ETHTOOL_A_STATS_GRP nest per group (eth-phy, eth-mac, eth-ctrl, rmon),
 * each with GRP_ID and GRP_STAT nests whose single attribute's type is the
 * counter id and whose payload is a u64.  Counters the driver did not fill
 * are omitted by the kernel.  Names are IEEE 802.3 / RFC 2819 names as the
 * kernel's string sets spell them (net/ethtool/common.c stats_*_names), so
 * no STRSET request is needed.  The groups are also where the request's
 * ETHTOOL_A_STATS_GROUPS bitset numbers come from.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool_netlink.h>

#include "decode/ethtool-int.h"

static const char *const groups[] = {
	[ETHTOOL_STATS_ETH_PHY] = "eth-phy",
	[ETHTOOL_STATS_ETH_MAC] = "eth-mac",
	[ETHTOOL_STATS_ETH_CTRL] = "eth-ctrl",
	[ETHTOOL_STATS_RMON] = "rmon",
};

static const char *const phy_names[ETHTOOL_A_STATS_ETH_PHY_MAX + 1] = {
	[ETHTOOL_A_STATS_ETH_PHY_5_SYM_ERR] = "SymbolErrorDuringCarrier",
};

static const char *const mac_names[ETHTOOL_A_STATS_ETH_MAC_MAX + 1] = {
	[ETHTOOL_A_STATS_ETH_MAC_2_TX_PKT] = "FramesTransmittedOK",
	[ETHTOOL_A_STATS_ETH_MAC_3_SINGLE_COL] = "SingleCollisionFrames",
	[ETHTOOL_A_STATS_ETH_MAC_4_MULTI_COL] = "MultipleCollisionFrames",
	[ETHTOOL_A_STATS_ETH_MAC_5_RX_PKT] = "FramesReceivedOK",
	[ETHTOOL_A_STATS_ETH_MAC_6_FCS_ERR] = "FrameCheckSequenceErrors",
	[ETHTOOL_A_STATS_ETH_MAC_7_ALIGN_ERR] = "AlignmentErrors",
	[ETHTOOL_A_STATS_ETH_MAC_8_TX_BYTES] = "OctetsTransmittedOK",
	[ETHTOOL_A_STATS_ETH_MAC_9_TX_DEFER] = "FramesWithDeferredXmissions",
	[ETHTOOL_A_STATS_ETH_MAC_10_LATE_COL] = "LateCollisions",
	[ETHTOOL_A_STATS_ETH_MAC_11_XS_COL] = "FramesAbortedDueToXSColls",
	[ETHTOOL_A_STATS_ETH_MAC_12_TX_INT_ERR] = "FramesLostDueToIntMACXmitError",
	[ETHTOOL_A_STATS_ETH_MAC_13_CS_ERR] = "CarrierSenseErrors",
	[ETHTOOL_A_STATS_ETH_MAC_14_RX_BYTES] = "OctetsReceivedOK",
	[ETHTOOL_A_STATS_ETH_MAC_15_RX_INT_ERR] = "FramesLostDueToIntMACRcvError",
	[ETHTOOL_A_STATS_ETH_MAC_18_TX_MCAST] = "MulticastFramesXmittedOK",
	[ETHTOOL_A_STATS_ETH_MAC_19_TX_BCAST] = "BroadcastFramesXmittedOK",
	[ETHTOOL_A_STATS_ETH_MAC_20_XS_DEFER] = "FramesWithExcessiveDeferral",
	[ETHTOOL_A_STATS_ETH_MAC_21_RX_MCAST] = "MulticastFramesReceivedOK",
	[ETHTOOL_A_STATS_ETH_MAC_22_RX_BCAST] = "BroadcastFramesReceivedOK",
	[ETHTOOL_A_STATS_ETH_MAC_23_IR_LEN_ERR] = "InRangeLengthErrors",
	[ETHTOOL_A_STATS_ETH_MAC_24_OOR_LEN] = "OutOfRangeLengthField",
	[ETHTOOL_A_STATS_ETH_MAC_25_TOO_LONG_ERR] = "FrameTooLongErrors",
};

static const char *const ctrl_names[ETHTOOL_A_STATS_ETH_CTRL_MAX + 1] = {
	[ETHTOOL_A_STATS_ETH_CTRL_3_TX] = "MACControlFramesTransmitted",
	[ETHTOOL_A_STATS_ETH_CTRL_4_RX] = "MACControlFramesReceived",
	[ETHTOOL_A_STATS_ETH_CTRL_5_RX_UNSUP] = "UnsupportedOpcodesReceived",
};

static const char *const rmon_names[ETHTOOL_A_STATS_RMON_MAX + 1] = {
	[ETHTOOL_A_STATS_RMON_UNDERSIZE] = "etherStatsUndersizePkts",
	[ETHTOOL_A_STATS_RMON_OVERSIZE] = "etherStatsOversizePkts",
	[ETHTOOL_A_STATS_RMON_FRAG] = "etherStatsFragments",
	[ETHTOOL_A_STATS_RMON_JABBER] = "etherStatsJabbers",
};

static const struct {
	const char *const *names;
	size_t n;
} counter_names[] = {
	[ETHTOOL_STATS_ETH_PHY] = {phy_names, ETHTOOL_A_STATS_ETH_PHY_MAX + 1},
	[ETHTOOL_STATS_ETH_MAC] = {mac_names, ETHTOOL_A_STATS_ETH_MAC_MAX + 1},
	[ETHTOOL_STATS_ETH_CTRL] = {ctrl_names, ETHTOOL_A_STATS_ETH_CTRL_MAX + 1},
	[ETHTOOL_STATS_RMON] = {rmon_names, ETHTOOL_A_STATS_RMON_MAX + 1},
};

static struct nla_policy stats_policy[ETHTOOL_A_STATS_MAX + 1] = {
	[ETHTOOL_A_STATS_HEADER] = {.type = NLA_NESTED},
	[ETHTOOL_A_STATS_GROUPS] = {.type = NLA_NESTED},
	[ETHTOOL_A_STATS_GRP] = {.type = NLA_NESTED},
};

static int add_counter(struct bc_slave *s, uint32_t grp, uint32_t id, uint64_t v)
{
	struct bc_counter *arr = realloc(s->std_stats, (s->n_std_stats + 1) * sizeof(*arr));
	const char *g = grp < sizeof(groups) / sizeof(groups[0]) ? groups[grp] : NULL;
	const char *n = NULL;

	if (!arr)
		return -ENOMEM;
	s->std_stats = arr;
	if (g && id < counter_names[grp].n)
		n = counter_names[grp].names[id];
	if (g && n)
		snprintf(arr[s->n_std_stats].name, BC_TEXT, "%s.%s", g, n);
	else if (g)
		snprintf(arr[s->n_std_stats].name, BC_TEXT, "%s.%u", g, id);
	else
		snprintf(arr[s->n_std_stats].name, BC_TEXT, "group%u.%u", grp, id);
	arr[s->n_std_stats++].value = v;
	return 0;
}

/* One ETHTOOL_A_STATS_GRP: ID, then STAT nests { <counter id>: u64 }. */
static int group(struct nlattr *grp, struct bc_slave *s, struct bc_error *err)
{
	struct nlattr *a, *id_attr = NULL;
	uint32_t id;
	int rem, rc;

	nla_for_each_nested (a, grp, rem) {
		if (nla_type(a) == ETHTOOL_A_STATS_GRP_ID && nla_len(a) >= 4)
			id_attr = a;
	}
	if (!id_attr)
		return bc_error_set(err, -EPROTO, "ethtool STATS group without GRP_ID");
	id = nla_get_u32(id_attr);
	nla_for_each_nested (a, grp, rem) {
		struct nlattr *c;
		int crem;

		if (nla_type(a) != ETHTOOL_A_STATS_GRP_STAT)
			continue; /* HIST_RX/HIST_TX buckets are not kept */
		nla_for_each_nested (c, a, crem) {
			uint64_t v;

			if (nla_len(c) < 8)
				return bc_error_set(err, -EPROTO, "short ethtool STATS counter");
			memcpy(&v, nla_data(c), sizeof(v)); /* only 4-byte aligned */
			rc = add_counter(s, id, (uint32_t)nla_type(c), v);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int stats(struct nlattr **tb, struct nlattr *attrs, int attrlen, struct bc_slave *s,
		 struct bc_error *err)
{
	struct nlattr *a;
	int rem, rc;

	(void)tb;
	free(s->std_stats);
	s->std_stats = NULL;
	s->n_std_stats = 0;
	nla_for_each_attr (a, attrs, attrlen, rem) {
		if (nla_type(a) != ETHTOOL_A_STATS_GRP)
			continue;
		rc = group(a, s, err);
		if (rc)
			return rc;
	}
	return 0;
}

const struct eth_kind eth_stats = {
	"stats",
	ETHTOOL_MSG_STATS_GET,
	ETHTOOL_MSG_STATS_GET_REPLY,
	ETHTOOL_A_STATS_HEADER,
	ETHTOOL_A_STATS_MAX,
	stats_policy,
	stats,
};
