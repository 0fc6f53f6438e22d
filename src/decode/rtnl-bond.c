// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IFLA_INFO_DATA of a bond (IFLA_BOND_*) and IFLA_INFO_SLAVE_DATA of a bond
 * port (IFLA_BOND_SLAVE_*) into the model, with libnl policies.  Kernel:
 * drivers/net/bonding/bond_netlink.c, bond_fill_info() and
 * bond_fill_slave_info(); numbers and types in kernel-interfaces.md 1.3-1.5.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <netlink/attr.h>
#include <netlink/errno.h>

#include "bondcheck/names.h"
#include "bondcheck/rtnl.h"
#include "decode/rtnl-int.h"

static struct nla_policy bond_policy[BC_IFLA_BOND_MAX_KNOWN + 1] = {
	[BC_IFLA_BOND_MODE] = {.type = NLA_U8},
	[BC_IFLA_BOND_ACTIVE_SLAVE] = {.type = NLA_U32},
	[BC_IFLA_BOND_MIIMON] = {.type = NLA_U32},
	[BC_IFLA_BOND_UPDELAY] = {.type = NLA_U32},
	[BC_IFLA_BOND_DOWNDELAY] = {.type = NLA_U32},
	[BC_IFLA_BOND_USE_CARRIER] = {.type = NLA_U8},
	[BC_IFLA_BOND_ARP_INTERVAL] = {.type = NLA_U32},
	[BC_IFLA_BOND_ARP_IP_TARGET] = {.type = NLA_NESTED},
	[BC_IFLA_BOND_ARP_VALIDATE] = {.type = NLA_U32},
	[BC_IFLA_BOND_ARP_ALL_TARGETS] = {.type = NLA_U32},
	[BC_IFLA_BOND_PRIMARY] = {.type = NLA_U32},
	[BC_IFLA_BOND_PRIMARY_RESELECT] = {.type = NLA_U8},
	[BC_IFLA_BOND_FAIL_OVER_MAC] = {.type = NLA_U8},
	[BC_IFLA_BOND_XMIT_HASH_POLICY] = {.type = NLA_U8},
	[BC_IFLA_BOND_RESEND_IGMP] = {.type = NLA_U32},
	[BC_IFLA_BOND_NUM_PEER_NOTIF] = {.type = NLA_U8},
	[BC_IFLA_BOND_ALL_SLAVES_ACTIVE] = {.type = NLA_U8},
	[BC_IFLA_BOND_MIN_LINKS] = {.type = NLA_U32},
	[BC_IFLA_BOND_LP_INTERVAL] = {.type = NLA_U32},
	[BC_IFLA_BOND_PACKETS_PER_SLAVE] = {.type = NLA_U32},
	[BC_IFLA_BOND_AD_LACP_RATE] = {.type = NLA_U8},
	[BC_IFLA_BOND_AD_SELECT] = {.type = NLA_U8},
	[BC_IFLA_BOND_AD_INFO] = {.type = NLA_NESTED},
	[BC_IFLA_BOND_AD_ACTOR_SYS_PRIO] = {.type = NLA_U16},
	[BC_IFLA_BOND_AD_USER_PORT_KEY] = {.type = NLA_U16},
	[BC_IFLA_BOND_AD_ACTOR_SYSTEM] = {.type = NLA_UNSPEC, .minlen = 6},
	[BC_IFLA_BOND_TLB_DYNAMIC_LB] = {.type = NLA_U8},
	[BC_IFLA_BOND_PEER_NOTIF_DELAY] = {.type = NLA_U32},
	[BC_IFLA_BOND_AD_LACP_ACTIVE] = {.type = NLA_U8},
	[BC_IFLA_BOND_MISSED_MAX] = {.type = NLA_U8},
	[BC_IFLA_BOND_NS_IP6_TARGET] = {.type = NLA_NESTED},
	[BC_IFLA_BOND_COUPLED_CONTROL] = {.type = NLA_U8},
	[BC_IFLA_BOND_BROADCAST_NEIGH] = {.type = NLA_U8},
	[BC_IFLA_BOND_LACP_STRICT] = {.type = NLA_U8},
};

static struct nla_policy ad_info_policy[BC_IFLA_BOND_AD_INFO_MAX_KNOWN + 1] = {
	[BC_IFLA_BOND_AD_INFO_AGGREGATOR] = {.type = NLA_U16},
	[BC_IFLA_BOND_AD_INFO_NUM_PORTS] = {.type = NLA_U16},
	[BC_IFLA_BOND_AD_INFO_ACTOR_KEY] = {.type = NLA_U16},
	[BC_IFLA_BOND_AD_INFO_PARTNER_KEY] = {.type = NLA_U16},
	[BC_IFLA_BOND_AD_INFO_PARTNER_MAC] = {.type = NLA_UNSPEC, .minlen = 6},
};

static struct nla_policy slave_policy[BC_IFLA_BOND_SLAVE_MAX_KNOWN + 1] = {
	[BC_IFLA_BOND_SLAVE_STATE] = {.type = NLA_U8},
	[BC_IFLA_BOND_SLAVE_MII_STATUS] = {.type = NLA_U8},
	[BC_IFLA_BOND_SLAVE_LINK_FAILURE_COUNT] = {.type = NLA_U32},
	[BC_IFLA_BOND_SLAVE_PERM_HWADDR] = {.type = NLA_UNSPEC},
	[BC_IFLA_BOND_SLAVE_QUEUE_ID] = {.type = NLA_U16},
	[BC_IFLA_BOND_SLAVE_AD_AGGREGATOR_ID] = {.type = NLA_U16},
	[BC_IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE] = {.type = NLA_U8},
	/* nla_put_u16 in bond_fill_slave_info() although the value is 8-bit */
	[BC_IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE] = {.type = NLA_U16},
	[BC_IFLA_BOND_SLAVE_PRIO] = {.type = NLA_U32},
	[BC_IFLA_BOND_SLAVE_ACTOR_PORT_PRIO] = {.type = NLA_U16},
	[BC_IFLA_BOND_SLAVE_AD_CHURN_ACTOR_STATE] = {.type = NLA_U8},
	[BC_IFLA_BOND_SLAVE_AD_CHURN_PARTNER_STATE] = {.type = NLA_U8},
};

/* How to read one scalar attribute into a struct bc_u32 of the bond. */
struct scalar {
	int type;
	size_t off; /* offsetof(struct bc_bond, field) */
};

#define B(attr, field)                                                                             \
	{                                                                                          \
		BC_IFLA_BOND_##attr, offsetof(struct bc_bond, field)                               \
	}
static const struct scalar bond_scalars[] = {
	B(MODE, mode),
	B(MIIMON, miimon_ms),
	B(UPDELAY, updelay_ms),
	B(DOWNDELAY, downdelay_ms),
	B(USE_CARRIER, use_carrier),
	B(ARP_INTERVAL, arp_interval_ms),
	B(ARP_VALIDATE, arp_validate),
	B(ARP_ALL_TARGETS, arp_all_targets),
	B(PRIMARY_RESELECT, primary_reselect),
	B(FAIL_OVER_MAC, fail_over_mac),
	B(XMIT_HASH_POLICY, xmit_hash_policy),
	B(RESEND_IGMP, resend_igmp),
	B(NUM_PEER_NOTIF, num_peer_notif),
	B(ALL_SLAVES_ACTIVE, all_slaves_active),
	B(MIN_LINKS, min_links),
	B(LP_INTERVAL, lp_interval),
	B(PACKETS_PER_SLAVE, packets_per_slave),
	B(AD_LACP_RATE, lacp_rate),
	B(AD_SELECT, ad_select),
	B(AD_ACTOR_SYS_PRIO, ad_actor_sys_prio),
	B(AD_USER_PORT_KEY, ad_user_port_key),
	B(TLB_DYNAMIC_LB, tlb_dynamic_lb),
	B(PEER_NOTIF_DELAY, peer_notif_delay_ms),
	B(AD_LACP_ACTIVE, lacp_active),
	B(MISSED_MAX, arp_missed_max),
	B(COUPLED_CONTROL, coupled_control),
};
#undef B

/* Value of a fixed-size integer attribute by its policy type. */
static uint32_t get_uint(const struct nlattr *a, int policy_type)
{
	switch (policy_type) {
	case NLA_U8:
		return nla_get_u8((struct nlattr *)a);
	case NLA_U16:
		return nla_get_u16((struct nlattr *)a);
	default:
		return nla_get_u32((struct nlattr *)a);
	}
}

static int parse_err(struct bc_error *err, int nle, const char *what)
{
	return bc_error_set(err, -EPROTO, "malformed %s attribute in the rtnetlink reply: %s", what,
			    nl_geterror(nle));
}

/* ARP (be32) or NS (in6_addr) target array: child type = index 0..15. */
static void targets(struct nlattr *nest, int family, char *out, size_t width, size_t *n)
{
	struct nlattr *a;
	int rem;

	*n = 0;
	nla_for_each_nested (a, nest, rem) {
		size_t need = family == AF_INET ? 4 : 16;

		if (*n >= BC_MAX_TARGETS || (size_t)nla_len(a) < need)
			continue;
		if (inet_ntop(family, nla_data(a), out + *n * width, (socklen_t)width))
			(*n)++;
	}
}

static int ad_info(struct bc_bond *b, struct nlattr *nest, struct bc_error *err)
{
	struct nlattr *t[BC_IFLA_BOND_AD_INFO_MAX_KNOWN + 1];
	int rc = nla_parse_nested(t, BC_IFLA_BOND_AD_INFO_MAX_KNOWN, nest, ad_info_policy);

	if (rc < 0)
		return parse_err(err, rc, "IFLA_BOND_AD_INFO");
	b->ad_info_status = BC_KNOWN;
	if (t[BC_IFLA_BOND_AD_INFO_AGGREGATOR])
		bc_u32_set(&b->ad_aggregator_id, nla_get_u16(t[BC_IFLA_BOND_AD_INFO_AGGREGATOR]));
	if (t[BC_IFLA_BOND_AD_INFO_NUM_PORTS])
		bc_u32_set(&b->ad_num_ports, nla_get_u16(t[BC_IFLA_BOND_AD_INFO_NUM_PORTS]));
	if (t[BC_IFLA_BOND_AD_INFO_ACTOR_KEY])
		bc_u32_set(&b->ad_actor_key, nla_get_u16(t[BC_IFLA_BOND_AD_INFO_ACTOR_KEY]));
	if (t[BC_IFLA_BOND_AD_INFO_PARTNER_KEY])
		bc_u32_set(&b->ad_partner_key, nla_get_u16(t[BC_IFLA_BOND_AD_INFO_PARTNER_KEY]));
	if (t[BC_IFLA_BOND_AD_INFO_PARTNER_MAC])
		rtnl_mac_text(&b->ad_partner_mac, nla_data(t[BC_IFLA_BOND_AD_INFO_PARTNER_MAC]), 6);
	return 0;
}

int rtnl_bond_info(struct bc_snapshot *snap, struct bc_bond *b, struct nlattr *data,
		   const char *(*ifname_of)(void *ctx, int ifindex), void *ctx,
		   struct bc_error *err)
{
	struct nlattr *t[BC_IFLA_BOND_MAX_KNOWN + 1];
	const char *name;
	int rc;

	(void)snap;
	rc = nla_parse_nested(t, BC_IFLA_BOND_MAX_KNOWN, data, bond_policy);
	if (rc < 0)
		return parse_err(err, rc, "IFLA_BOND_*");
	for (size_t i = 0; i < sizeof(bond_scalars) / sizeof(bond_scalars[0]); i++) {
		const struct scalar *sc = &bond_scalars[i];

		if (t[sc->type])
			bc_u32_set((struct bc_u32 *)((char *)b + sc->off),
				   get_uint(t[sc->type], bond_policy[sc->type].type));
	}
	if (bc_u32_known(&b->xmit_hash_policy)) {
		name = bc_xmit_hash_policy_name((int)b->xmit_hash_policy.v);
		snprintf(b->xmit_hash_policy_name, sizeof(b->xmit_hash_policy_name), "%s",
			 name ? name : "");
	}
	/* ACTIVE_SLAVE and PRIMARY are emitted only when set */
	if (t[BC_IFLA_BOND_ACTIVE_SLAVE]) {
		name = ifname_of(ctx, (int)nla_get_u32(t[BC_IFLA_BOND_ACTIVE_SLAVE]));
		snprintf(b->active_slave.v, sizeof(b->active_slave.v), "%s", name ? name : "?");
		b->active_slave.st = BC_KNOWN;
	}
	if (t[BC_IFLA_BOND_PRIMARY]) {
		name = ifname_of(ctx, (int)nla_get_u32(t[BC_IFLA_BOND_PRIMARY]));
		snprintf(b->primary.v, sizeof(b->primary.v), "%s", name ? name : "?");
		b->primary.st = BC_KNOWN;
	}
	if (t[BC_IFLA_BOND_AD_ACTOR_SYSTEM])
		rtnl_mac_text(&b->ad_actor_system, nla_data(t[BC_IFLA_BOND_AD_ACTOR_SYSTEM]), 6);
	if (t[BC_IFLA_BOND_ARP_IP_TARGET])
		targets(t[BC_IFLA_BOND_ARP_IP_TARGET], AF_INET, &b->arp_targets[0][0],
			sizeof(b->arp_targets[0]), &b->n_arp_targets);
	if (t[BC_IFLA_BOND_NS_IP6_TARGET])
		targets(t[BC_IFLA_BOND_NS_IP6_TARGET], AF_INET6, &b->ns_targets[0][0],
			sizeof(b->ns_targets[0]), &b->n_ns_targets);
	if (t[BC_IFLA_BOND_AD_INFO]) {
		rc = ad_info(b, t[BC_IFLA_BOND_AD_INFO], err);
		if (rc)
			return rc;
	}
	return 0;
}

static void hide_u32(struct bc_u32 *f)
{
	if (f->st == BC_NOT_REPORTED)
		f->st = BC_HIDDEN;
}

void rtnl_bond_absent(struct bc_snapshot *snap, struct bc_bond *b, bool had_info_data)
{
	bool mode4 = bc_u32_known(&b->mode) && b->mode.v == BC_MODE_8023AD;

	if (!had_info_data)
		return; /* kernel before 3.13: netlink says nothing about bonding */
	/* bond_uses_primary(): modes 1, 5, 6 keep an active slave; absent = none */
	if (bc_u32_known(&b->mode) &&
	    (b->mode.v == BC_MODE_ACTIVEBACKUP || b->mode.v == BC_MODE_TLB ||
	     b->mode.v == BC_MODE_ALB) &&
	    b->active_slave.st == BC_NOT_REPORTED)
		b->active_slave.st = BC_NA;
	if (bc_u32_known(&b->mode) &&
	    (b->mode.v == BC_MODE_ACTIVEBACKUP || b->mode.v == BC_MODE_TLB ||
	     b->mode.v == BC_MODE_ALB) &&
	    b->primary.st == BC_NOT_REPORTED)
		b->primary.st = BC_NA;
	if (!mode4)
		return;
	/*
	 * AD_INFO is not gated by CAP_NET_ADMIN and is emitted whenever an
	 * active aggregator exists (bond_3ad_get_active_agg_info() == 0), so
	 * its absence next to the always-present MIIMON (3.14+) means none.
	 */
	if (b->ad_info_status == BC_NOT_REPORTED && bc_u32_known(&b->miimon_ms))
		b->ad_info_status = BC_NA;
	/*
	 * The actor attributes (4.2+) need capable(CAP_NET_ADMIN).  Their
	 * absence means hidden when the kernel is new enough to have them:
	 * TLB_DYNAMIC_LB (4.3) is always emitted, so it tells.
	 */
	if (!snap->cap_net_admin && bc_u32_known(&b->tlb_dynamic_lb) &&
	    b->ad_actor_sys_prio.st == BC_NOT_REPORTED) {
		hide_u32(&b->ad_actor_sys_prio);
		hide_u32(&b->ad_user_port_key);
		if (b->ad_actor_system.st == BC_NOT_REPORTED)
			b->ad_actor_system.st = BC_HIDDEN;
		snap->lacp_hidden = true;
	}
	/* a port without an aggregator carries none of 6..8 (N/A in /proc) */
	for (size_t i = 0; i < b->n_slaves; i++) {
		struct bc_slave *s = &b->slaves[i];

		if (s->aggregator_id.st != BC_NOT_REPORTED || s->state.st != BC_KNOWN)
			continue;
		s->aggregator_id.st = BC_NA;
		s->actor_oper_port_state.st = BC_NA;
		s->partner_oper_port_state.st = BC_NA;
	}
}

int rtnl_slave_info(const struct bc_bond *b, struct bc_slave *s, struct nlattr *data,
		    struct bc_error *err)
{
	struct nlattr *t[BC_IFLA_BOND_SLAVE_MAX_KNOWN + 1];
	int rc;

	(void)b;
	rc = nla_parse_nested(t, BC_IFLA_BOND_SLAVE_MAX_KNOWN, data, slave_policy);
	if (rc < 0)
		return parse_err(err, rc, "IFLA_BOND_SLAVE_*");
	if (t[BC_IFLA_BOND_SLAVE_STATE])
		bc_u32_set(&s->state, nla_get_u8(t[BC_IFLA_BOND_SLAVE_STATE]));
	if (t[BC_IFLA_BOND_SLAVE_MII_STATUS])
		bc_u32_set(&s->mii_status, nla_get_u8(t[BC_IFLA_BOND_SLAVE_MII_STATUS]));
	if (t[BC_IFLA_BOND_SLAVE_LINK_FAILURE_COUNT])
		bc_u32_set(&s->link_failure_count,
			   nla_get_u32(t[BC_IFLA_BOND_SLAVE_LINK_FAILURE_COUNT]));
	if (t[BC_IFLA_BOND_SLAVE_PERM_HWADDR] && nla_len(t[BC_IFLA_BOND_SLAVE_PERM_HWADDR]) > 0)
		rtnl_mac_text(&s->perm_hwaddr, nla_data(t[BC_IFLA_BOND_SLAVE_PERM_HWADDR]),
			      (size_t)nla_len(t[BC_IFLA_BOND_SLAVE_PERM_HWADDR]));
	if (t[BC_IFLA_BOND_SLAVE_QUEUE_ID])
		bc_u32_set(&s->queue_id, nla_get_u16(t[BC_IFLA_BOND_SLAVE_QUEUE_ID]));
	if (t[BC_IFLA_BOND_SLAVE_AD_AGGREGATOR_ID])
		bc_u32_set(&s->aggregator_id, nla_get_u16(t[BC_IFLA_BOND_SLAVE_AD_AGGREGATOR_ID]));
	if (t[BC_IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE])
		bc_u32_set(&s->actor_oper_port_state,
			   nla_get_u8(t[BC_IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE]));
	if (t[BC_IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE])
		bc_u32_set(&s->partner_oper_port_state,
			   nla_get_u16(t[BC_IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE]) & 0xff);
	if (t[BC_IFLA_BOND_SLAVE_PRIO])
		bc_u32_set(&s->prio, nla_get_u32(t[BC_IFLA_BOND_SLAVE_PRIO]));
	if (t[BC_IFLA_BOND_SLAVE_AD_CHURN_ACTOR_STATE])
		bc_u32_set(&s->actor_churn_state,
			   nla_get_u8(t[BC_IFLA_BOND_SLAVE_AD_CHURN_ACTOR_STATE]));
	if (t[BC_IFLA_BOND_SLAVE_AD_CHURN_PARTNER_STATE])
		bc_u32_set(&s->partner_churn_state,
			   nla_get_u8(t[BC_IFLA_BOND_SLAVE_AD_CHURN_PARTNER_STATE]));
	return 0;
}
