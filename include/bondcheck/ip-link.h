/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoder for saved iproute2 link listings: `ip -d link show`, `ip -d
 * address`, `ip -s -d link`, the one-line `ip -o` forms of these, and the
 * JSON of `ip -j -d link show` / `ip -j -d address` (parsed with json-c).
 *
 * Sources of the format: iproute2 ip/ipaddress.c (the link line
 * "N: NAME[@LINK]: <FLAGS> mtu N qdisc Q master M state S ...", the
 * `link/ether` line, print_stats64()'s RX/TX counter tables),
 * ip/iplink_bond.c (the `bond ...` line, JSON object "info_data") and
 * ip/iplink_bond_slave.c (the `bond_slave ...` line, "info_slave_data"); the
 * values are the kernel's IFLA_BOND_* and IFLA_BOND_SLAVE_* attributes of
 * uapi linux/if_link.h (kernel-interfaces.md section 1.3-1.5).
 *
 * Shapes and units: one struct bc_bond per interface with a `bond mode ...`
 * line (JSON: linkinfo.info_kind "bond"), one struct bc_slave per interface
 * with a `bond_slave ...` line (JSON: linkinfo.info_slave_kind "bond"), or
 * whose `master NAME` is a bond of the listing.  Times (miimon, updelay,
 * downdelay, peer_notify_delay, arp_interval) are in ms as the kernel
 * reports them and ip prints them; lp_interval in s; counters in packets or
 * bytes as ip prints them.  A field the listing does not print stays
 * BC_NOT_REPORTED; nothing is guessed.
 *
 * Netlink gating differs from /proc's: IFLA_BOND_AD_INFO and the slaves'
 * port states are printed to any reader.  Only ad_actor_sys_prio,
 * ad_user_port_key and ad_actor_system need CAP_NET_ADMIN: on an 802.3ad
 * bond whose line has tlb_dynamic_lb (printed after them since Linux 4.3)
 * but not those three, they are BC_HIDDEN and snap->lacp_hidden is set.
 * An 802.3ad bond without `ad_aggregator ...` but with `ad_select` (same
 * kernel/iproute generation) and no carrier has no active aggregator
 * (ad_info_status BC_NA: the kernel omits AD_INFO then); with carrier the
 * absence is not explained and stays BC_NOT_REPORTED.
 *
 * Device facts: flags LOWER_UP / NO-CARRIER give slave->carrier (known only
 * when the interface is administratively UP: the kernel reports LOWER_UP
 * only for running devices) and the bond's mii_status (the bond's carrier
 * is /proc's "MII Status"); `state X` gives operstate (IF_OPER_*: UNKNOWN 0,
 * NOTPRESENT 1, DOWN 2, LOWERLAYERDOWN 3, TESTING 4, DORMANT 5, UP 6).
 *
 * Partial listings (`ip link show dev bond0`, `ip link show master bond0`):
 *   - a slave whose master is not in the listing creates a bond of that
 *     name whose fields are all BC_NOT_REPORTED, slaves_incomplete = true;
 *   - a bond with fewer slaves in the listing than its own fields prove
 *     (ad_num_ports, an active_slave or primary not listed, carrier up with
 *     no slave) gets slaves_incomplete = true and an incomplete_reason;
 *   - a bond with no slave at all in a listing that is not a full dump gets
 *     slaves_incomplete = true too: an `ip` listing filtered to some
 *     interfaces cannot prove there are none.  A listing is a full dump when
 *     it holds the loopback device (`lo`, flag LOOPBACK), which `ip link`
 *     without a filter always prints first.  Only then does a bond with no
 *     slave lines and nothing that proves slaves have no slaves.
 *
 * Tolerated: trailing spaces, CRLF, a UTF-8 BOM, `> ` mail quoting, shell
 * prompts and other lines before the first interface, lines after the
 * bond/bond_slave line (`vf N ...`, `altname`, `bridge_slave`, `prop`,
 * `inet`/`inet6`/`valid_lft` address lines), `link-netns`, old iproute2
 * without minmtu/maxmtu, both RX/TX header styles ("RX: bytes packets
 * errors dropped overrun mcast" and "RX:  bytes packets errors dropped
 * missed mcast"), the `<active,short_timeout,...>` words after port states,
 * unknown keys (skipped).  Damaged input gives warnings, never a crash.
 */
#ifndef BONDCHECK_IP_LINK_H
#define BONDCHECK_IP_LINK_H

#include <stddef.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

/* Largest input accepted; a sosreport's `ip -d address` of 500 links is ~1 MiB. */
#define BC_IP_MAX_SIZE (16u << 20)
/* Interfaces read from one listing; more is not a real host's listing. */
#define BC_IP_MAX_LINKS 16384
/* Longest logical line parsed; a bond line with 16 NS targets is ~1.7 KiB. */
#define BC_IP_LINE_MAX 4096
/* Warnings one parse may add to the snapshot (then one "N more" line). */
#define BC_IP_MAX_WARNINGS 32

/*
 * bc_ip_parse() - decode one saved `ip` listing and append every bond in it
 * (with its slaves) to @snap.
 * @text:   the listing's bytes; need not be NUL-terminated, may contain NULs
 *          (such lines are skipped with a warning)
 * @len:    number of bytes at @text (at most BC_IP_MAX_SIZE)
 * @origin: where it was read from (a path), copied to each new bond's
 *          origin; NULL or "" for none
 * @snap:   snapshot to append to; also receives warnings (prefixed
 *          "<origin>: line N:"), lacp_hidden, and have |= BC_HAVE_RTNL
 * @err:    error detail (may be NULL)
 *
 * JSON is detected by the first non-blank character of a line being '[' or
 * '{'; anything else is read as text.
 *
 * Return: 0 when at least one bond was appended (possibly with warnings);
 *   -EINVAL when there is no bond or bond slave in the text: the message
 *     says what was expected (`bond`/`bond_slave` detail lines, given by
 *     `ip -d`) and what was found (no interface lines, N interfaces none of
 *     them a bond, invalid JSON and where);
 *   -EFBIG  when @len > BC_IP_MAX_SIZE;
 *   -ENOMEM.
 * On error nothing is appended to @snap (warnings may have been added).
 */
int bc_ip_parse(const char *text, size_t len, const char *origin, struct bc_snapshot *snap,
		struct bc_error *err);

/*
 * bc_ip_parse_file() - read @path (regular file or pipe) and bc_ip_parse()
 * it with @path as the origin.
 *
 * Return: as bc_ip_parse(), plus the open/read errno (-ENOENT, -EACCES,
 *   -EISDIR, ...) with a message naming @path, and -EFBIG when the file is
 *   larger than BC_IP_MAX_SIZE.
 */
int bc_ip_parse_file(const char *path, struct bc_snapshot *snap, struct bc_error *err);

#endif
