/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoders for saved ethtool text, as a sosreport keeps it
 * (sos_commands/networking/ethtool_-i_<dev> and ethtool_<dev>): the offline
 * counterpart of the live ETHTOOL_GDRVINFO ioctl and LINKMODES/LINKSTATE
 * netlink replies in src/collect/ethtool.c.
 *
 * `ethtool -i DEV` prints "key: value" lines (ethtool.c dump_drvinfo()):
 *   old, up to ethtool 2.6.33:  driver, version, firmware-version, bus-info
 *   modern (ethtool 3.x-6.x):   the same plus expansion-rom-version (may be
 *                               empty) and five supports-* lines
 * Both are accepted in any order, with CRLF ends, blank lines, a shell prompt
 * line, indentation and unknown keys (ignored).
 *
 * `ethtool DEV` prints settings (ethtool.c dump_link_usettings() and
 * do_gset()); only "Speed:", "Duplex:", "Auto-negotiation:", "Port:" and
 * "Link detected:" are read.
 */
#ifndef BONDCHECK_ETHTOOL_I_H
#define BONDCHECK_ETHTOOL_I_H

#include <stddef.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

/* Largest ethtool text accepted; a real one is under 4 KiB. */
#define BC_ETHTOOL_TEXT_MAX (1u << 20)

/*
 * bc_ethtool_i_parse() - decode `ethtool -i DEV` text into @s.
 * @text: the bytes (need not be NUL-terminated; NULs end a line)
 * @len:  number of bytes, at most BC_ETHTOOL_TEXT_MAX
 * @s:    the slave: driver, driver_version, fw_version and bus_info are set
 *        from the "driver", "version", "firmware-version" and "bus-info"
 *        lines (cut to the model's 31 bytes, non-printable bytes become '?';
 *        "N/A" and empty values are kept as printed), drvinfo_present = true.
 *        Other fields are not touched.
 * @err:  error detail (may be NULL)
 *
 * Return: 0; -EINVAL when there is no "driver: NAME" line with a non-empty
 *   name (the message says what the first line was), @s untouched;
 *   -EFBIG when @len > BC_ETHTOOL_TEXT_MAX.
 */
int bc_ethtool_i_parse(const char *text, size_t len, struct bc_slave *s, struct bc_error *err);

/*
 * bc_ethtool_link_parse() - decode `ethtool DEV` text into @s.
 * @s: speed_mbps from "Speed: 1000Mb/s" (BC_UNKNOWN for "Unknown!"),
 *     duplex from "Duplex: Full|Half" (1/0; BC_UNKNOWN for "Unknown! (255)"),
 *     autoneg from "Auto-negotiation: on|off" (1/0), carrier from
 *     "Link detected: yes|no" (1/0), port from "Port:" (PORT_* number:
 *     0 Twisted Pair, 1 AUI, 2 BNC, 3 MII, 4 FIBRE, 5 Direct Attach Copper,
 *     0xef Other, 0xff None).  A line that is absent leaves the field as it
 *     was, so callers pass a zeroed slave to see what the text reported.
 *
 * Return: 0 when at least one of those lines was read; -EINVAL when none
 *   was (not `ethtool DEV` output); -EFBIG when @len > BC_ETHTOOL_TEXT_MAX.
 */
int bc_ethtool_link_parse(const char *text, size_t len, struct bc_slave *s, struct bc_error *err);

#endif
