/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoder for /proc/net/bonding/<bond> text, as printed by the kernel's
 * drivers/net/bonding/bond_procfs.c (bond_info_show_master() and
 * bond_info_show_slave(); before 3.x the same code lived in bond_main.c).
 *
 * Every format from bonding v2.6.0 (2004) to 6.x/7.x kernels is accepted:
 * a driver-version or kernel-release header, optional and missing lines,
 * either order of "Aggregator ID"/"Slave queue ID", the Active Aggregator
 * block indented by a tab, spaces or nothing, any number of blank lines
 * (sections are found by their key names), "N/A" and "Unknown" values,
 * unknown hash-policy names and unknown keys (kept, with a warning).
 * See docs/reference kernel-interfaces.md section 2 for the format history.
 *
 * Pastes are read as posted (docs/inspect.md, "Which files are accepted"):
 * shell prompts and comments, e-mail quoting, annotations after values and
 * markdown are dropped with a warning; a paste of several files is split
 * into its bonds; a cut paste (a cut marker, master fields that prove slaves
 * the list lacks, a last slave block missing a line every earlier block
 * printed) sets bond->slaves_incomplete and incomplete_reason.
 *
 * Field status mapping into the model (include/bondcheck/model.h):
 *   line absent (older kernel)           -> BC_NOT_REPORTED
 *   "Speed: Unknown", "Duplex: Unknown"  -> BC_UNKNOWN
 *   slave "Aggregator ID: N/A"           -> BC_NA (the port never joined one)
 *   "bond X has no active aggregator"    -> bond->ad_info_status = BC_NA
 *   802.3ad without "System priority", "Active Aggregator Info" and "has no
 *   active aggregator": read without CAP_NET_ADMIN -> ad_info_status,
 *   system priority/MAC and the slaves' LACPDU details = BC_HIDDEN and
 *   snap->lacp_hidden = true.
 */
#ifndef BONDCHECK_PROC_H
#define BONDCHECK_PROC_H

#include <stddef.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

/* Largest input accepted; a real file is a few KiB (about 1 KiB per slave). */
#define BC_PROC_MAX_SIZE (16u << 20)
/* Slaves read from one file; more is certainly not a real bond. */
#define BC_PROC_MAX_SLAVES 1024
/* Warnings one parse may add to the snapshot (then one "N more" line). */
#define BC_PROC_MAX_WARNINGS 32
/* Unknown keys one parse keeps. */
#define BC_PROC_MAX_UNKNOWN 128
/* Longest line parsed; the kernel's longest (16 IPv6 NS targets) is ~700. */
#define BC_PROC_LINE_MAX 1024

/*
 * bc_proc_parse() - decode /proc/net/bonding/<bond> text into new bonds:
 * one per header (a paste of several files gives several bonds).
 * @text:      the file's bytes; need not be NUL-terminated, may contain NULs
 * @len:       number of bytes at @text (at most BC_PROC_MAX_SIZE)
 * @bond_name: the first bond's interface name, 1..15 bytes; or NULL to let
 *             the text name it (a shell line "cat /proc/net/bonding/bond1"
 *             before the header), else "bond0", with a warning that says
 *             so.  Later bonds are named by the shell line before their
 *             header, else after the previous one (bond0 -> bond1)
 * @snap:      snapshot to append the bond to; also receives warnings
 *             (bc_snapshot_warn, prefixed "<bond>: line N:") and, for an
 *             unprivileged 802.3ad view, lacp_hidden = true
 * @err:       error detail (may be NULL)
 *
 * Damaged input gives a partial parse plus warnings where that is still
 * meaningful: binary lines after a valid header are skipped (parsing stops
 * after the 8th), over-long lines are cut at BC_PROC_LINE_MAX, invalid UTF-8
 * bytes become '?', slaves past BC_PROC_MAX_SLAVES are dropped; a later bond
 * of a multi-file paste that cannot be read is dropped with a warning.
 *
 * Return: 0 when at least one bond was appended (possibly with warnings);
 *   -EINVAL when the text is not a bonding file: empty, binary, no
 *     "Channel Bonding Driver:" header on any line, or no "Bonding Mode:"
 *     line; @bond_name empty or longer than 15 bytes;
 *   -EFBIG  when @len > BC_PROC_MAX_SIZE;
 *   -ENOMEM.
 * On error nothing is appended to @snap (warnings may have been added).
 */
int bc_proc_parse(const char *text, size_t len, const char *bond_name, struct bc_snapshot *snap,
		  struct bc_error *err);

/*
 * bc_proc_parse_file() - read @path (regular file, /proc file or pipe) and
 * bc_proc_parse() it.  Each bond's origin is set to @path.  With @bond_name
 * NULL, a shell line in the text names the bond, else the file's stem when
 * it is an interface name ("bond0", "bond0.txt"), else "bond0" with a note:
 * a file is never refused for its name.
 *
 * Return: as bc_proc_parse(), plus the open/read errno (-ENOENT, -EACCES,
 *   -EISDIR, ...) with a message naming @path, and -EFBIG when the file is
 *   larger than BC_PROC_MAX_SIZE (it is read only up to that size + 1).
 */
int bc_proc_parse_file(const char *path, const char *bond_name, struct bc_snapshot *snap,
		       struct bc_error *err);

#endif
