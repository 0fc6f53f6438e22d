// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ethtool netlink LINKINFO, LINKMODES and FEATURES replies (kernel
 * net/ethtool/linkinfo.c, linkmodes.c, features.c, bitset.c).
 */
#include <errno.h>
#include <string.h>

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>

#include "decode/ethtool-int.h"

static struct nla_policy linkinfo_policy[ETHTOOL_A_LINKINFO_MAX + 1] = {
	[ETHTOOL_A_LINKINFO_HEADER] = {.type = NLA_NESTED},
	[ETHTOOL_A_LINKINFO_PORT] = {.type = NLA_U8},
	[ETHTOOL_A_LINKINFO_PHYADDR] = {.type = NLA_U8},
	[ETHTOOL_A_LINKINFO_TRANSCEIVER] = {.type = NLA_U8},
};

static int linkinfo(struct nlattr **tb, struct nlattr *attrs, int attrlen, struct bc_slave *s,
		    struct bc_error *err)
{
	(void)attrs, (void)attrlen, (void)err;
	if (tb[ETHTOOL_A_LINKINFO_PORT])
		bc_u32_set(&s->port, nla_get_u8(tb[ETHTOOL_A_LINKINFO_PORT]));
	return 0;
}

const struct eth_kind eth_linkinfo = {
	"linkinfo",
	ETHTOOL_MSG_LINKINFO_GET,
	ETHTOOL_MSG_LINKINFO_GET_REPLY,
	ETHTOOL_A_LINKINFO_HEADER,
	ETHTOOL_A_LINKINFO_MAX,
	linkinfo_policy,
	linkinfo,
};

static struct nla_policy linkmodes_policy[ETHTOOL_A_LINKMODES_MAX + 1] = {
	[ETHTOOL_A_LINKMODES_HEADER] = {.type = NLA_NESTED},
	[ETHTOOL_A_LINKMODES_AUTONEG] = {.type = NLA_U8},
	[ETHTOOL_A_LINKMODES_OURS] = {.type = NLA_NESTED},
	[ETHTOOL_A_LINKMODES_PEER] = {.type = NLA_NESTED},
	[ETHTOOL_A_LINKMODES_SPEED] = {.type = NLA_U32},
	[ETHTOOL_A_LINKMODES_DUPLEX] = {.type = NLA_U8},
};

/*
 * SPEED_UNKNOWN is (u32)-1 and DUPLEX_UNKNOWN 0xff (uapi ethtool.h): the
 * kernel says "Unknown", which is a value, not absence.  A speed of 0 is
 * what some drivers report with the link down; it is Unknown too (bonding's
 * bond_update_speed_duplex() treats it so).
 */
static int linkmodes(struct nlattr **tb, struct nlattr *attrs, int attrlen, struct bc_slave *s,
		     struct bc_error *err)
{
	(void)attrs, (void)attrlen, (void)err;
	if (tb[ETHTOOL_A_LINKMODES_SPEED]) {
		uint32_t v = nla_get_u32(tb[ETHTOOL_A_LINKMODES_SPEED]);

		if (v == (uint32_t)SPEED_UNKNOWN || v == 0)
			s->speed_mbps.st = BC_UNKNOWN;
		else
			bc_u32_set(&s->speed_mbps, v);
	}
	if (tb[ETHTOOL_A_LINKMODES_DUPLEX]) {
		uint8_t d = nla_get_u8(tb[ETHTOOL_A_LINKMODES_DUPLEX]);

		if (d == DUPLEX_HALF || d == DUPLEX_FULL)
			bc_u32_set(&s->duplex, d);
		else
			s->duplex.st = BC_UNKNOWN;
	}
	if (tb[ETHTOOL_A_LINKMODES_AUTONEG])
		bc_u32_set(&s->autoneg, nla_get_u8(tb[ETHTOOL_A_LINKMODES_AUTONEG]));
	return 0;
}

const struct eth_kind eth_linkmodes = {
	"linkmodes",
	ETHTOOL_MSG_LINKMODES_GET,
	ETHTOOL_MSG_LINKMODES_GET_REPLY,
	ETHTOOL_A_LINKMODES_HEADER,
	ETHTOOL_A_LINKMODES_MAX,
	linkmodes_policy,
	linkmodes,
};

static struct nla_policy features_policy[ETHTOOL_A_FEATURES_MAX + 1] = {
	[ETHTOOL_A_FEATURES_HEADER] = {.type = NLA_NESTED},
	[ETHTOOL_A_FEATURES_HW] = {.type = NLA_NESTED},
	[ETHTOOL_A_FEATURES_WANTED] = {.type = NLA_NESTED},
	[ETHTOOL_A_FEATURES_ACTIVE] = {.type = NLA_NESTED},
	[ETHTOOL_A_FEATURES_NOCHANGE] = {.type = NLA_NESTED},
};

static struct nla_policy bitset_policy[ETHTOOL_A_BITSET_MAX + 1] = {
	[ETHTOOL_A_BITSET_NOMASK] = {.type = NLA_FLAG},
	[ETHTOOL_A_BITSET_SIZE] = {.type = NLA_U32},
	[ETHTOOL_A_BITSET_BITS] = {.type = NLA_NESTED},
};

static struct nla_policy bit_policy[ETHTOOL_A_BITSET_BIT_MAX + 1] = {
	[ETHTOOL_A_BITSET_BIT_INDEX] = {.type = NLA_U32},
	[ETHTOOL_A_BITSET_BIT_NAME] = {.type = NLA_STRING},
	[ETHTOOL_A_BITSET_BIT_VALUE] = {.type = NLA_FLAG},
};

/* Kernel feature names (net/ethtool/common.c netdev_features_strings). */
static const struct {
	const char *name;
	size_t off;
	bool prefix; /* any feature starting with name */
} feature_map[] = {
	{"tx-tcp-segmentation", offsetof(struct bc_offloads, tso), false},
	{"tx-tcp6-segmentation", offsetof(struct bc_offloads, tso6), false},
	{"tx-generic-segmentation", offsetof(struct bc_offloads, gso), false},
	{"rx-gro", offsetof(struct bc_offloads, gro), false},
	{"rx-lro", offsetof(struct bc_offloads, lro), false},
	{"rx-checksum", offsetof(struct bc_offloads, rx_csum), false},
	{"tx-checksum-", offsetof(struct bc_offloads, tx_csum), true},
	{"tx-scatter-gather", offsetof(struct bc_offloads, sg), false},
};

#define N_FEATURES (sizeof(feature_map) / sizeof(feature_map[0]))

/*
 * A verbose bitset (the default without ETHTOOL_FLAG_COMPACT_BITSETS):
 * BITS { BIT { INDEX, NAME, [VALUE] } ... }.  With NOMASK only the bits that
 * are set are listed; with a mask every masked bit is listed and VALUE says
 * whether it is set (bitset.c ethnl_put_bitset32()).
 */
static int active_bits(struct nlattr *set, struct bc_offloads *o, struct bc_error *err)
{
	struct nlattr *t[ETHTOOL_A_BITSET_MAX + 1], *bit;
	bool nomask;
	int rc, rem;

	rc = nla_parse_nested(t, ETHTOOL_A_BITSET_MAX, set, bitset_policy);
	if (rc < 0)
		return bc_error_set(err, -EPROTO, "malformed FEATURES bitset");
	if (!t[ETHTOOL_A_BITSET_BITS])
		return bc_error_set(err, -EPROTO,
				    "FEATURES bitset is compact (no names); expected verbose");
	nomask = t[ETHTOOL_A_BITSET_NOMASK] != NULL;
	for (size_t k = 0; k < N_FEATURES; k++)
		bc_u32_set((struct bc_u32 *)((char *)o + feature_map[k].off), 0);
	nla_for_each_nested (bit, t[ETHTOOL_A_BITSET_BITS], rem) {
		struct nlattr *b[ETHTOOL_A_BITSET_BIT_MAX + 1];
		const char *name;

		if (nla_type(bit) != ETHTOOL_A_BITSET_BITS_BIT)
			continue;
		if (nla_parse_nested(b, ETHTOOL_A_BITSET_BIT_MAX, bit, bit_policy) < 0 ||
		    !b[ETHTOOL_A_BITSET_BIT_NAME])
			return bc_error_set(err, -EPROTO, "malformed FEATURES bit");
		if (!nomask && !b[ETHTOOL_A_BITSET_BIT_VALUE])
			continue;
		name = nla_get_string(b[ETHTOOL_A_BITSET_BIT_NAME]);
		for (size_t k = 0; k < N_FEATURES; k++) {
			const char *n = feature_map[k].name;

			if (feature_map[k].prefix ? !strncmp(name, n, strlen(n)) : !strcmp(name, n))
				bc_u32_set((struct bc_u32 *)((char *)o + feature_map[k].off), 1);
		}
	}
	return 0;
}

static int features(struct nlattr **tb, struct nlattr *attrs, int attrlen, struct bc_slave *s,
		    struct bc_error *err)
{
	(void)attrs, (void)attrlen;
	if (!tb[ETHTOOL_A_FEATURES_ACTIVE])
		return 0;
	return active_bits(tb[ETHTOOL_A_FEATURES_ACTIVE], &s->offloads, err);
}

const struct eth_kind eth_features = {
	"features",
	ETHTOOL_MSG_FEATURES_GET,
	ETHTOOL_MSG_FEATURES_GET_REPLY,
	ETHTOOL_A_FEATURES_HEADER,
	ETHTOOL_A_FEATURES_MAX,
	features_policy,
	features,
};
