// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ethtool netlink RINGS, CHANNELS, PAUSE and COALESCE replies (kernel
 * net/ethtool/rings.c, channels.c, pause.c, coalesce.c): sizes and counts
 * of a NIC's queues and interrupt moderation.  Drivers without the op answer
 * EOPNOTSUPP (veth: rings, pause, coalesce), handled in ethtool-msg.c.
 */
#include <linux/ethtool_netlink.h>

#include "decode/ethtool-int.h"

static void u32_attr(struct nlattr *a, struct bc_u32 *f)
{
	if (a)
		bc_u32_set(f, nla_get_u32(a));
}

static void u8_attr(struct nlattr *a, struct bc_u32 *f)
{
	if (a)
		bc_u32_set(f, nla_get_u8(a));
}

static struct nla_policy rings_policy[ETHTOOL_A_RINGS_MAX + 1] = {
	[ETHTOOL_A_RINGS_HEADER] = {.type = NLA_NESTED},
	[ETHTOOL_A_RINGS_RX_MAX] = {.type = NLA_U32},
	[ETHTOOL_A_RINGS_TX_MAX] = {.type = NLA_U32},
	[ETHTOOL_A_RINGS_RX] = {.type = NLA_U32},
	[ETHTOOL_A_RINGS_TX] = {.type = NLA_U32},
};

static int rings(struct nlattr **tb, struct nlattr *attrs, int attrlen, struct bc_slave *s,
		 struct bc_error *err)
{
	(void)attrs, (void)attrlen, (void)err;
	u32_attr(tb[ETHTOOL_A_RINGS_RX], &s->rx_ring);
	u32_attr(tb[ETHTOOL_A_RINGS_RX_MAX], &s->rx_ring_max);
	u32_attr(tb[ETHTOOL_A_RINGS_TX], &s->tx_ring);
	u32_attr(tb[ETHTOOL_A_RINGS_TX_MAX], &s->tx_ring_max);
	return 0;
}

const struct eth_kind eth_rings = {
	"rings",
	ETHTOOL_MSG_RINGS_GET,
	ETHTOOL_MSG_RINGS_GET_REPLY,
	ETHTOOL_A_RINGS_HEADER,
	ETHTOOL_A_RINGS_MAX,
	rings_policy,
	rings,
};

static struct nla_policy channels_policy[ETHTOOL_A_CHANNELS_MAX + 1] = {
	[ETHTOOL_A_CHANNELS_HEADER] = {.type = NLA_NESTED},
	[ETHTOOL_A_CHANNELS_RX_COUNT] = {.type = NLA_U32},
	[ETHTOOL_A_CHANNELS_TX_COUNT] = {.type = NLA_U32},
	[ETHTOOL_A_CHANNELS_COMBINED_COUNT] = {.type = NLA_U32},
};

static int channels(struct nlattr **tb, struct nlattr *attrs, int attrlen, struct bc_slave *s,
		    struct bc_error *err)
{
	(void)attrs, (void)attrlen, (void)err;
	u32_attr(tb[ETHTOOL_A_CHANNELS_RX_COUNT], &s->rx_channels);
	u32_attr(tb[ETHTOOL_A_CHANNELS_TX_COUNT], &s->tx_channels);
	u32_attr(tb[ETHTOOL_A_CHANNELS_COMBINED_COUNT], &s->combined_channels);
	return 0;
}

const struct eth_kind eth_channels = {
	"channels",
	ETHTOOL_MSG_CHANNELS_GET,
	ETHTOOL_MSG_CHANNELS_GET_REPLY,
	ETHTOOL_A_CHANNELS_HEADER,
	ETHTOOL_A_CHANNELS_MAX,
	channels_policy,
	channels,
};

static struct nla_policy pause_policy[ETHTOOL_A_PAUSE_MAX + 1] = {
	[ETHTOOL_A_PAUSE_HEADER] = {.type = NLA_NESTED},
	[ETHTOOL_A_PAUSE_AUTONEG] = {.type = NLA_U8},
	[ETHTOOL_A_PAUSE_RX] = {.type = NLA_U8},
	[ETHTOOL_A_PAUSE_TX] = {.type = NLA_U8},
	[ETHTOOL_A_PAUSE_STATS] = {.type = NLA_NESTED},
};

static int pause_(struct nlattr **tb, struct nlattr *attrs, int attrlen, struct bc_slave *s,
		  struct bc_error *err)
{
	(void)attrs, (void)attrlen, (void)err;
	u8_attr(tb[ETHTOOL_A_PAUSE_AUTONEG], &s->pause_autoneg);
	u8_attr(tb[ETHTOOL_A_PAUSE_RX], &s->pause_rx);
	u8_attr(tb[ETHTOOL_A_PAUSE_TX], &s->pause_tx);
	return 0;
}

const struct eth_kind eth_pause = {
	"pause",
	ETHTOOL_MSG_PAUSE_GET,
	ETHTOOL_MSG_PAUSE_GET_REPLY,
	ETHTOOL_A_PAUSE_HEADER,
	ETHTOOL_A_PAUSE_MAX,
	pause_policy,
	pause_,
};

static struct nla_policy coalesce_policy[ETHTOOL_A_COALESCE_MAX + 1] = {
	[ETHTOOL_A_COALESCE_HEADER] = {.type = NLA_NESTED},
	[ETHTOOL_A_COALESCE_RX_USECS] = {.type = NLA_U32},
	[ETHTOOL_A_COALESCE_TX_USECS] = {.type = NLA_U32},
};

static int coalesce(struct nlattr **tb, struct nlattr *attrs, int attrlen, struct bc_slave *s,
		    struct bc_error *err)
{
	(void)attrs, (void)attrlen, (void)err;
	u32_attr(tb[ETHTOOL_A_COALESCE_RX_USECS], &s->rx_usecs);
	u32_attr(tb[ETHTOOL_A_COALESCE_TX_USECS], &s->tx_usecs);
	return 0;
}

const struct eth_kind eth_coalesce = {
	"coalesce",
	ETHTOOL_MSG_COALESCE_GET,
	ETHTOOL_MSG_COALESCE_GET_REPLY,
	ETHTOOL_A_COALESCE_HEADER,
	ETHTOOL_A_COALESCE_MAX,
	coalesce_policy,
	coalesce,
};
