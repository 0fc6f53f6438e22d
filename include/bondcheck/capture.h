/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Live per-slave capture with libpcap (DESIGN.md "Capture and attribution";
 * reference/kernel-interfaces.md 6; reference/measurement.md 3.8).
 *
 * One pcap handle and one thread per interface: every slave of the bond the
 * test leaves by, never the bond device (it hides which link a frame used,
 * LACPDUs and backup-slave frames); an interface that is not a bond is
 * captured itself.  Each thread writes its frames to one pcap file
 * (nanosecond magic, snap length BC_CAPTURE_SNAPLEN).  At the end
 * pcap_stats() is read on every handle: ps_drop > 0 means the capture
 * missed frames (counts are lower bounds, capture-derived loss an upper
 * bound, reordering unknown).
 *
 * Lifecycle: bc_capture_open -> bc_capture_start -> bc_capture_stop ->
 * bc_capture_free.  Library: never prints; libpcap errbufs are translated
 * into -errno + struct bc_error here.
 */
#ifndef BONDCHECK_CAPTURE_H
#define BONDCHECK_CAPTURE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "bondcheck/error.h"

/*
 * Snap length, bytes: Ethernet 14 + one VLAN tag 4 + IPv6 40 + a fragment
 * header 8 + UDP 8 + our header 32 = 106; a TCP header with the largest
 * options is 60, so Ethernet + VLAN + IPv6 + TCP = 118.  Rounded up to 128.
 */
#define BC_CAPTURE_SNAPLEN 128
/* Kernel ring per handle, bytes (the 2 MiB default holds 8 TPACKET_V3 blocks). */
#define BC_CAPTURE_BUFFER (64u << 20)
/* TPACKET_V3 block timeout, ms: a block is handed over at least this often. */
#define BC_CAPTURE_TIMEOUT_MS 50
#define BC_CAPTURE_MAX_IFS    16
#define BC_CAPTURE_FILTER_MAX 512

/* bc_capture_filter_ext() flags */
#define BC_CAPTURE_NEIGH 0x1 /* also the hosts' gratuitous ARPs and unsolicited NAs */

struct bc_capture;

struct bc_capture_if {
	char name[16];	 /* interface (slave) name */
	char path[4096]; /* the pcap file written */
	void *pcap;	 /* pcap_t * */
	void *dumper;	 /* pcap_dumper_t * */
	uint64_t frames; /* frames written */
	uint64_t bytes;	 /* sum of original lengths (pcap header len), bytes */
	uint64_t file_bytes;
	/* pcap_stats() at stop (libpcap running sums; u_int, 32 bits) */
	bool have_stats;
	uint32_t ps_recv, ps_drop, ps_ifdrop;
	int error; /* -errno when the capture broke off (interface vanished, file not written) */
	char error_msg[256];
	/* the file could not be written (full disk, quota): it holds only the
	 * frames before; error is then -ENOSPC, -EDQUOT, -EIO... */
	bool write_failed;
	/* internal */
	struct bc_capture *owner;
	pthread_t th;
	bool running;
};

struct bc_capture {
	uint32_t test_stall_ms; /* test only: each thread reads nothing this long at start */
	char host[16]; /* "client" or "agent": qualifies file and link names */
	char filter[BC_CAPTURE_FILTER_MAX];
	char bond[16];	       /* the bond whose slaves are captured; "" when not a bond */
	uint32_t buffer_bytes; /* ring per interface; 0 = BC_CAPTURE_BUFFER */
	struct bc_capture_if ifs[BC_CAPTURE_MAX_IFS];
	size_t n;
	atomic_int stop;
	int64_t start_ns, stop_ns; /* CLOCK_REALTIME, ns */
};

/*
 * bc_capture_filter() - the kernel BPF filter for a test between the hosts
 * @a and @b: IP packets between both addresses (not 5-tuples: non-first IP
 * fragments carry no ports), except the TCP control and bulk connections
 * on @ctl_port (0: keep them); LACP (ether proto 0x8809); and the same
 * inside one VLAN tag:
 *   P = ((ip or ip6) and host A and host B and not tcp port CTL)
 *       or ether proto 0x8809
 *   P or (vlan and (P))
 * Returns 0; -EAFNOSUPPORT for a family other than IPv4/IPv6;
 * -ENAMETOOLONG when @len is too small.
 */
int bc_capture_filter(char *buf, size_t len, const struct sockaddr_storage *a,
		      const struct sockaddr_storage *b, uint16_t ctl_port, struct bc_error *err);

/*
 * bc_capture_filter_ext() - bc_capture_filter() with @flags: BC_CAPTURE_NEIGH
 * adds, for `failover`, the neighbour announcements a failover sends
 * (reference/kernel-interfaces.md 6.1: on the new active slave):
 *   ARP whose sender protocol address is A or B (IPv4 tests; arp[14:4] is
 *   the sender IP of an Ethernet/IPv4 ARP, RFC 826), and ICMPv6 neighbor
 *   advertisements to a multicast address (icmp6 and ip6[40] == 136 and ip6
 *   multicast: unsolicited ones, RFC 4861 7.2.6; solicited ones are unicast).
 */
int bc_capture_filter_ext(char *buf, size_t len, const struct sockaddr_storage *a,
			  const struct sockaddr_storage *b, uint16_t ctl_port, unsigned flags,
			  struct bc_error *err);

/*
 * bc_capture_ifaces() - the interfaces to capture for traffic that leaves
 * by @dev: the bond's slaves (/sys/class/net/DEV/bonding/slaves) when @dev
 * is a bond, else @dev itself.  Fills @c->ifs[].name, @c->n and @c->bond.
 * Returns 0; -ENODEV when @dev does not exist or a bond has no slave;
 * -E2BIG above BC_CAPTURE_MAX_IFS slaves.
 */
int bc_capture_ifaces(struct bc_capture *c, const char *dev, struct bc_error *err);

/*
 * bc_capture_open() - open and activate a handle on each of @c->ifs (set
 * by bc_capture_ifaces() or by the caller), with BC_CAPTURE_SNAPLEN,
 * @c->buffer_bytes (0: BC_CAPTURE_BUFFER), nanosecond timestamps, immediate mode off, the filter
 * @filter, and a pcap file "@dir/@host-NAME.pcap" for each.  All or
 * nothing: on error every handle opened so far is closed.
 * Returns 0;
 *   -EPERM     no capture permission (CAP_NET_RAW; run as root);
 *   -ENODEV    an interface does not exist (a vanished slave);
 *   -ENETDOWN  an interface is down;
 *   -EINVAL    the filter does not compile;
 *   -EIO       another libpcap failure, or the file cannot be written.
 * @err names the interface and quotes libpcap.
 */
int bc_capture_open(struct bc_capture *c, const char *host, const char *filter, const char *dir,
		    struct bc_error *err);

/* bc_capture_start() - one capture thread per interface.  0 or -errno (-EAGAIN). */
int bc_capture_start(struct bc_capture *c, struct bc_error *err);

/*
 * bc_capture_stop() - stop the threads, drain what the ring still holds,
 * read pcap_stats() into each interface, flush and close the files.
 * A thread that broke off (interface gone) left its -errno in ifs[i].error.
 */
void bc_capture_stop(struct bc_capture *c);

/* bc_capture_free() - close whatever is open (NULL-safe, idempotent). */
void bc_capture_free(struct bc_capture *c);

/* bc_capture_dropped() - sum of ps_drop over every interface. */
uint64_t bc_capture_dropped(const struct bc_capture *c);

/*
 * bc_capture_json() - {"host", "bond", "filter", "snaplen", "buffer_bytes",
 * "interfaces": [{"name", "frames", "bytes", "file_bytes",
 * "pcap_stats": {"ps_recv", "ps_drop", "ps_ifdrop"}, "error"?}]}.
 */
struct json_object *bc_capture_json(const struct bc_capture *c);

#endif
