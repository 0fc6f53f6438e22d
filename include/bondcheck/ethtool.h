/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoders for ethtool's two interfaces, from bytes (live or --replay):
 *
 * - generic netlink family "ethtool" (net/ethtool/netlink.c, uapi
 *   linux/ethtool_netlink.h): one decoder per message kind, each taking the
 *   reply stream of one request (the reply message, or the NLMSG_ERROR the
 *   kernel answered with) as received;
 * - the SIOCETHTOOL ioctl (net/ethtool/ioctl.c, uapi linux/ethtool.h):
 *   ETHTOOL_GDRVINFO (no netlink message carries driver, version, firmware,
 *   bus) and ETHTOOL_GSTRINGS(ETH_SS_STATS) + ETHTOOL_GSTATS, the driver's
 *   own counters (e1000's rx_no_buffer_count, ...).
 *
 * Kernel facts: kernel-interfaces.md section 4.
 */
#ifndef BONDCHECK_ETHTOOL_H
#define BONDCHECK_ETHTOOL_H

#include <stddef.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

/* The ethtool netlink requests inspect sends per slave. */
enum bc_ethtool_msg {
	BC_ETHTOOL_LINKINFO = 0, /* port type */
	BC_ETHTOOL_LINKMODES,	 /* speed, duplex, autoneg */
	BC_ETHTOOL_FEATURES,	 /* TSO, GSO, GRO, LRO, checksums, SG (active bits) */
	BC_ETHTOOL_RINGS,	 /* rx/tx ring sizes and maxima */
	BC_ETHTOOL_CHANNELS,	 /* rx/tx/combined queue counts */
	BC_ETHTOOL_PAUSE,	 /* pause autoneg/rx/tx */
	BC_ETHTOOL_COALESCE,	 /* rx/tx usecs */
	BC_ETHTOOL_STATS,	 /* standard stats groups eth-phy/mac/ctrl, rmon (5.13) */
	BC_ETHTOOL_N_MSGS,
};

/* bc_ethtool_msg_name() - "linkmodes", ...: also the recording's file name. */
const char *bc_ethtool_msg_name(enum bc_ethtool_msg m);

/* bc_ethtool_msg_cmd() - the request's ETHTOOL_MSG_*_GET number. */
int bc_ethtool_msg_cmd(enum bc_ethtool_msg m);

/* bc_ethtool_msg_header_attr() - the request's ETHTOOL_A_*_HEADER (1; STATS: 2). */
int bc_ethtool_msg_header_attr(enum bc_ethtool_msg m);

/*
 * bc_ethtool_decode() - decode the reply stream of one ethtool netlink GET.
 * @m:        which request it answers; the reply's genl cmd must be that
 *            request's ETHTOOL_MSG_*_GET_REPLY (the reply enum differs from
 *            the request enum after FEATURES), other messages are ignored
 * @buf, @len: netlink messages back to back (nlmsghdr + genlmsghdr + attrs),
 *            possibly an NLMSG_ERROR and an NLMSG_DONE
 * @s:        slave whose fields are set (BC_KNOWN / BC_UNKNOWN): LINKMODES
 *            speed 0xFFFFFFFF (SPEED_UNKNOWN) and duplex 0xFF are BC_UNKNOWN;
 *            FEATURES sets all eight offloads (a feature not listed in the
 *            ACTIVE bitset is off); STATS appends "group.Counter" entries to
 *            s->std_stats
 * @err:      error detail (may be NULL)
 *
 * Return: 0 decoded; -EOPNOTSUPP (or another -errno) when the kernel
 *   answered with that error, which for EOPNOTSUPP is normal (veth has no
 *   rings): the fields stay BC_NOT_REPORTED; -ENODATA when the stream holds
 *   no reply of the expected kind; -EPROTO malformed (libnl -NLE_* of the
 *   attribute parse translated); -ENOMEM.
 */
int bc_ethtool_decode(enum bc_ethtool_msg m, const void *buf, size_t len, struct bc_slave *s,
		      struct bc_error *err);

/*
 * bc_ethtool_decode_drvinfo() - struct ethtool_drvinfo bytes (ETHTOOL_GDRVINFO
 * ioctl result, 196 bytes) into s->driver, driver_version, fw_version,
 * bus_info, drvinfo_present.  Strings are cut at their field size even when
 * not NUL-terminated.
 * Return: 0; -EPROTO when @len is not sizeof(struct ethtool_drvinfo) or the
 *   cmd is not ETHTOOL_GDRVINFO.
 */
int bc_ethtool_decode_drvinfo(const void *buf, size_t len, struct bc_slave *s,
			      struct bc_error *err);

/*
 * bc_ethtool_decode_gstats() - driver counters: @strings is the
 * ETHTOOL_GSTRINGS result (struct ethtool_gstrings, string_set ETH_SS_STATS,
 * then len x ETH_GSTRING_LEN (32) bytes of names), @stats the ETHTOOL_GSTATS
 * result (struct ethtool_stats, then n_stats u64 values, host order).
 * Names pair with values by position; s->driver_stats is replaced.
 * Return: 0; -EPROTO when a header is short, a length does not match its
 *   count, or the counts differ; -ENOMEM.
 */
int bc_ethtool_decode_gstats(const void *strings, size_t slen, const void *stats, size_t vlen,
			     struct bc_slave *s, struct bc_error *err);

/* bc_slave_find_counter() - value of driver or standard counter @name, or NULL. */
const struct bc_counter *bc_slave_find_counter(const struct bc_slave *s, const char *name);

#endif
