/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoders for the kernel's counter text files (measurement.md 3.2-3.4):
 *
 *  - /proc/net/snmp and /proc/net/netstat: pairs of lines, a header
 *    "Group: Name1 Name2 ..." followed by "Group: v1 v2 ..."; counters are
 *    named "Group.Name" (e.g. "Udp.RcvbufErrors", "TcpExt.TCPSACKReorder").
 *    Values are signed (Tcp MaxConn is -1).
 *  - /proc/net/softnet_stat: one hex line per CPU; columns 1-3 are
 *    processed, dropped, time_squeeze.  Older kernels print fewer columns.
 *  - /proc/stat "cpuN" lines: user nice system idle iowait irq softirq
 *    steal, in USER_HZ ticks.
 *
 * Pure: text in, numbers out.
 */
#ifndef BONDCHECK_MIB_TEXT_H
#define BONDCHECK_MIB_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "bondcheck/error.h"

struct bc_mib_entry {
	char name[64]; /* "Group.Name" */
	int64_t value;
};

struct bc_mib {
	struct bc_mib_entry *e;
	size_t n;
};

struct bc_softnet {
	uint32_t cpus;
	uint64_t processed, dropped, time_squeeze; /* summed over CPUs */
};

#define BC_MAX_CPUS 256

struct bc_cpu_times {
	uint32_t n;		    /* CPUs (cpuN lines) */
	uint64_t busy[BC_MAX_CPUS]; /* all ticks but idle and iowait */
	uint64_t softirq[BC_MAX_CPUS];
	uint64_t total[BC_MAX_CPUS];
};

/*
 * bc_mib_parse() - parse snmp/netstat text, appending to @m.
 * Returns 0; -EBADMSG when a value line does not match its header (group
 * name or column count); -ENOMEM.
 */
int bc_mib_parse(const char *text, struct bc_mib *m, struct bc_error *err);
void bc_mib_free(struct bc_mib *m);

/* bc_mib_get() - value of "Group.Name"; returns 0 and *@v, or -ENOENT. */
int bc_mib_get(const struct bc_mib *m, const char *name, int64_t *v);

/*
 * bc_proc_udp_drops() - the `drops` column (the socket's sk_drops: every
 * datagram dropped for it, rcvbuf full, memory, checksum at read time;
 * reference/measurement.md 3.5) of the row of /proc/net/udp or udp6 text
 * whose inode is @inode (fstat() of the socket: st_ino).  Columns of a row:
 * sl local rem st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
 * ref pointer drops (net/ipv4/udp.c udp4_format_sock).
 * Returns 0 and *@drops; -ENOENT when no row has @inode; -EBADMSG when the
 * header has no trailing `drops` column (kernels before 2.6.27) or a row
 * is short.
 */
int bc_proc_udp_drops(const char *text, uint64_t inode, uint64_t *drops, struct bc_error *err);

/* bc_softnet_parse() - sum the per-CPU lines.  -EBADMSG for a non-hex line. */
int bc_softnet_parse(const char *text, struct bc_softnet *s, struct bc_error *err);

/* bc_cpu_times_parse() - per-CPU lines of /proc/stat.  -EBADMSG when none. */
int bc_cpu_times_parse(const char *text, struct bc_cpu_times *c, struct bc_error *err);

#endif
