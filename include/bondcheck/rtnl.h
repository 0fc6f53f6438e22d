/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoder for rtnetlink link dumps (RTM_GETLINK + NLM_F_DUMP replies: a
 * stream of RTM_NEWLINK messages, as received, concatenated) into the bond
 * model.  Pure: it reads bytes (live, or a --record/--replay file), never a
 * socket.  Attributes are parsed with libnl policies (nlmsg_parse,
 * nla_parse_nested); the kernel side is drivers/net/bonding/bond_netlink.c
 * and net/core/rtnetlink.c.  See kernel-interfaces.md section 1.
 *
 * The kernel's IFLA_BOND_* and IFLA_BOND_SLAVE_* are enum members, so
 * `#ifdef` cannot tell whether the build's headers know one: the numbers
 * below are ours (uapi include/uapi/linux/if_link.h order), and the parse
 * tables are sized for the largest known attribute.
 */
#ifndef BONDCHECK_RTNL_H
#define BONDCHECK_RTNL_H

#include <stddef.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

/* Top-level IFLA_* used here that are newer than 2.6 (uapi if_link.h). */
#define BC_IFLA_LINKINFO     18
#define BC_IFLA_STATS64	     23
#define BC_IFLA_CARRIER	     33
#define BC_IFLA_LINK_NETNSID 37 /* 4.0 */
#define BC_IFLA_PERM_ADDRESS 54 /* 5.6 */
#define BC_IFLA_MAX_KNOWN    70

/* IFLA_LINKINFO children. */
#define BC_IFLA_INFO_KIND	1
#define BC_IFLA_INFO_DATA	2
#define BC_IFLA_INFO_SLAVE_KIND 4 /* 3.14 */
#define BC_IFLA_INFO_SLAVE_DATA 5 /* 3.14 */
#define BC_IFLA_INFO_MAX_KNOWN	5

/* IFLA_INFO_DATA of kind "bond" (number = attribute type). */
#define BC_IFLA_BOND_MODE	       1  /* u8  BOND_MODE_* */
#define BC_IFLA_BOND_ACTIVE_SLAVE      2  /* u32 ifindex, only when set */
#define BC_IFLA_BOND_MIIMON	       3  /* u32 ms */
#define BC_IFLA_BOND_UPDELAY	       4  /* u32 ms */
#define BC_IFLA_BOND_DOWNDELAY	       5  /* u32 ms */
#define BC_IFLA_BOND_USE_CARRIER       6  /* u8 */
#define BC_IFLA_BOND_ARP_INTERVAL      7  /* u32 ms */
#define BC_IFLA_BOND_ARP_IP_TARGET     8  /* nest: child type = index, be32 */
#define BC_IFLA_BOND_ARP_VALIDATE      9  /* u32 */
#define BC_IFLA_BOND_ARP_ALL_TARGETS   10 /* u32 */
#define BC_IFLA_BOND_PRIMARY	       11 /* u32 ifindex, only when set */
#define BC_IFLA_BOND_PRIMARY_RESELECT  12 /* u8 */
#define BC_IFLA_BOND_FAIL_OVER_MAC     13 /* u8 */
#define BC_IFLA_BOND_XMIT_HASH_POLICY  14 /* u8 */
#define BC_IFLA_BOND_RESEND_IGMP       15 /* u32 */
#define BC_IFLA_BOND_NUM_PEER_NOTIF    16 /* u8 */
#define BC_IFLA_BOND_ALL_SLAVES_ACTIVE 17 /* u8 */
#define BC_IFLA_BOND_MIN_LINKS	       18 /* u32 */
#define BC_IFLA_BOND_LP_INTERVAL       19 /* u32 s */
#define BC_IFLA_BOND_PACKETS_PER_SLAVE 20 /* u32 */
#define BC_IFLA_BOND_AD_LACP_RATE      21 /* u8 */
#define BC_IFLA_BOND_AD_SELECT	       22 /* u8 */
#define BC_IFLA_BOND_AD_INFO	       23 /* nest, mode 4 with an active aggregator */
#define BC_IFLA_BOND_AD_ACTOR_SYS_PRIO 24 /* u16, mode 4 + CAP_NET_ADMIN (4.2) */
#define BC_IFLA_BOND_AD_USER_PORT_KEY  25 /* u16, mode 4 + CAP_NET_ADMIN */
#define BC_IFLA_BOND_AD_ACTOR_SYSTEM   26 /* 6 bytes, mode 4 + CAP_NET_ADMIN */
#define BC_IFLA_BOND_TLB_DYNAMIC_LB    27 /* u8 (4.3) */
#define BC_IFLA_BOND_PEER_NOTIF_DELAY  28 /* u32 ms (5.3) */
#define BC_IFLA_BOND_AD_LACP_ACTIVE    29 /* u8 (5.15) */
#define BC_IFLA_BOND_MISSED_MAX	       30 /* u8 (5.17) */
#define BC_IFLA_BOND_NS_IP6_TARGET     31 /* nest: child type = index, in6_addr (5.18) */
#define BC_IFLA_BOND_COUPLED_CONTROL   32 /* u8 (6.9) */
#define BC_IFLA_BOND_BROADCAST_NEIGH   33 /* u8 (6.17) */
#define BC_IFLA_BOND_LACP_STRICT       34 /* u8 (7.2-pre) */
#define BC_IFLA_BOND_MAX_KNOWN	       34

/* IFLA_BOND_AD_INFO children. */
#define BC_IFLA_BOND_AD_INFO_AGGREGATOR	 1 /* u16 */
#define BC_IFLA_BOND_AD_INFO_NUM_PORTS	 2 /* u16 */
#define BC_IFLA_BOND_AD_INFO_ACTOR_KEY	 3 /* u16 */
#define BC_IFLA_BOND_AD_INFO_PARTNER_KEY 4 /* u16 */
#define BC_IFLA_BOND_AD_INFO_PARTNER_MAC 5 /* 6 bytes */
#define BC_IFLA_BOND_AD_INFO_MAX_KNOWN	 5

/* IFLA_INFO_SLAVE_DATA of slave kind "bond". */
#define BC_IFLA_BOND_SLAVE_STATE		      1	 /* u8 0 active / 1 backup */
#define BC_IFLA_BOND_SLAVE_MII_STATUS		      2	 /* u8 BOND_LINK_* */
#define BC_IFLA_BOND_SLAVE_LINK_FAILURE_COUNT	      3	 /* u32 */
#define BC_IFLA_BOND_SLAVE_PERM_HWADDR		      4	 /* addr_len bytes */
#define BC_IFLA_BOND_SLAVE_QUEUE_ID		      5	 /* u16 */
#define BC_IFLA_BOND_SLAVE_AD_AGGREGATOR_ID	      6	 /* u16, mode 4 with an aggregator */
#define BC_IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE   7	 /* u8 (4.2) */
#define BC_IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE 8	 /* u16 on the wire (4.2) */
#define BC_IFLA_BOND_SLAVE_PRIO			      9	 /* s32 (6.0) */
#define BC_IFLA_BOND_SLAVE_ACTOR_PORT_PRIO	      10 /* u16 (6.18) */
#define BC_IFLA_BOND_SLAVE_AD_CHURN_ACTOR_STATE	      11 /* u8 AD_CHURN_* (7.1) */
#define BC_IFLA_BOND_SLAVE_AD_CHURN_PARTNER_STATE     12 /* u8 (7.1) */
#define BC_IFLA_BOND_SLAVE_MAX_KNOWN		      12

/*
 * bc_rtnl_decode_links() - decode an RTM_GETLINK dump into @snap.
 * @buf, @len: the reply stream: RTM_NEWLINK messages (struct nlmsghdr +
 *             struct ifinfomsg + IFLA_* attributes) back to back, each at
 *             NLMSG_ALIGN; an NLMSG_DONE ends it (optional)
 * @snap:      receives one bond per link of IFLA_INFO_KIND "bond" (dump
 *             order), its slaves (links whose IFLA_MASTER is that bond, in
 *             dump order; /proc order is applied later by bc_merge_proc),
 *             every IFLA_BOND_* / IFLA_BOND_SLAVE_* value, IFLA_STATS64,
 *             MTU, operstate, MAC, IFLA_INFO_KIND and the upper devices
 *             (links whose IFLA_LINK is the bond, e.g. VLANs, and the bond's
 *             own master, e.g. a bridge).  snap->cap_net_admin must be set
 *             before: in 802.3ad the actor attributes (24-26) are absent for
 *             an unprivileged reader, which is recorded as BC_HIDDEN and
 *             snap->lacp_hidden.  Netlink AD_INFO is not gated: in 802.3ad
 *             its absence means "no active aggregator" (ad_info_status
 *             BC_NA).
 * @err:       error detail (may be NULL)
 *
 * Return: 0; -EPROTO when a message is truncated or malformed (a libnl
 *   -NLE_* from nlmsg_parse is translated); -EIO with the kernel's errno in
 *   the message when the stream holds an NLMSG_ERROR; -ENOMEM.
 */
int bc_rtnl_decode_links(const void *buf, size_t len, struct bc_snapshot *snap,
			 struct bc_error *err);

#endif
