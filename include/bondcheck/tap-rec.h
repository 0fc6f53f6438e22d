/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The slave taps' shared layouts: the records in the BPF ring buffer, the
 * keys and values of their maps and the configuration block.  Included by
 * the BPF C (src/tap/tap.bpf.c) and by user space (bondcheck/tap.h), so it
 * uses the kernel's fixed-width types only.  docs/taps.md describes how
 * the attribution consumes a record.
 *
 * All fields are in host byte order except the addresses (network order,
 * as on the wire).  Sizes are fixed and checked on both sides.
 */
#ifndef BONDCHECK_TAP_REC_H
#define BONDCHECK_TAP_REC_H

#include <linux/types.h>

/* struct bc_tap_rec.kind */
enum {
	BC_TAP_REC_UDP = 1,  /* bondcheck datagram (whole, or its first fragment) */
	BC_TAP_REC_FRAG = 2, /* a non-first IP fragment (no transport header) */
	BC_TAP_REC_TCP = 3,  /* a TCP segment of a test flow */
};

/* struct bc_tap_rec.flags */
enum {
	BC_TAP_F_EGRESS = 0x01, /* seen on egress (offered to the slave); else ingress */
	BC_TAP_F_FRAG = 0x02,	/* an IP fragment: ip_id, off8, frag_len are valid */
	BC_TAP_F_MF = 0x04,	/* more fragments follow */
	BC_TAP_F_VLAN = 0x08,	/* vlan holds an 802.1Q TCI */
	BC_TAP_F_V6 = 0x10,	/* IPv6 (else IPv4) */
	BC_TAP_F_GSO = 0x20,	/* one datagram of a UDP GSO/GRO super-packet; len is its segment's */
};

/*
 * One record, 48 bytes (the attribution's own struct rec is 48 too).
 * ts: bpf_ktime_get_ns() (CLOCK_MONOTONIC) in the ring; bc_tap_poll()
 * rewrites it to CLOCK_REALTIME ns (the pcap clock) before the caller sees it.
 * tuple: id of the packet's 5-tuple (family, protocol, addresses, ports;
 * ports 0 for non-first fragments) in the tuples map, resolved once per id
 * with bc_tap_tuple(); BC_TAP_TUPLE_NONE when that map was full.  len: skb->len from the MAC
 * header, bytes, so a GSO (egress) or GRO (ingress) super-packet counts
 * whole: compare with rtnetlink stats64 by bytes, not packets.
 */
struct bc_tap_rec {
	__u64 ts;
	__u32 ifindex;
	__u32 tuple;
	__u32 len;
	__u16 vlan; /* TCI: PCP 3 bits, DEI 1, VID 12 (BC_TAP_F_VLAN) */
	__u8 kind;  /* BC_TAP_REC_* */
	__u8 flags; /* BC_TAP_F_* */
	union {
		struct {
			__u64 seq;     /* our header's sequence number */
			__u32 stream;  /* our header's stream id */
			__u32 test_id; /* our header's test id */
		} udp;
		struct {
			__u32 seq;     /* first sequence number */
			__u32 end_seq; /* seq + payload bytes (+1 SYN, +1 FIN) */
			__u16 sport, dport;
			__u8 tcp_flags; /* FIN 0x01 SYN 0x02 RST 0x04 PSH 0x08 ACK 0x10 */
			__u8 pad[3];
		} tcp;
	};
	__u32 ip_id;	/* fragments: IPv4 id (16 bits) or IPv6 fragment id */
	__u16 off8;	/* fragments: offset / 8 */
	__u16 frag_len; /* fragments: bytes of IP payload this fragment carries */
};

_Static_assert(sizeof(struct bc_tap_rec) == 48, "struct bc_tap_rec is 48 bytes on both sides");

#define BC_TAP_TUPLE_NONE 0xffffffffu

/* Key of the tuples map (hash, never evicted while attached: ids stay resolvable). */
struct bc_tap_tuple_key {
	__u8 family; /* 4 or 6 */
	__u8 proto;  /* IPPROTO_* */
	__u16 sport, dport; /* host order; 0 for non-first fragments */
	__u16 pad;
	__u8 src[16]; /* network order; IPv4: the first 4 bytes, the rest 0 */
	__u8 dst[16];
};

/* Key of the flow counters (LRU hash): one entry per 5-tuple, slave and direction. */
struct bc_tap_flow_key {
	__u8 family; /* 4 or 6 */
	__u8 proto;  /* IPPROTO_* (non-first fragments: their protocol, ports 0) */
	__u8 egress; /* 1: egress, 0: ingress */
	__u8 pad;
	__u16 sport, dport; /* host order; 0 when unknown */
	__u16 vid;	    /* VLAN id, 0 when untagged */
	__u16 pad2;
	__u32 ifindex;
	__u8 src[16], dst[16];
};

_Static_assert(sizeof(struct bc_tap_flow_key) == 48, "struct bc_tap_flow_key is 48 bytes");

struct bc_tap_flow_val {
	__u64 packets; /* skbs (a GSO/GRO super-packet counts once) */
	__u64 bytes;   /* sum of skb->len, bytes */
};

/* Indices of the per-CPU counters array. */
enum {
	BC_TAP_CNT_PACKETS,   /* skbs seen by the programs */
	BC_TAP_CNT_RECORDS,   /* records submitted to the ring */
	BC_TAP_CNT_RING_DROP, /* bpf_ringbuf_reserve() failed: records lost (like ps_drop) */
	BC_TAP_CNT_TUPLE_FULL, /* tuples map full: records with tuple BC_TAP_TUPLE_NONE */
	BC_TAP_CNT_FLOW_FAIL, /* flow counter insert failed */
	BC_TAP_CNT_FLOW_NEW,  /* new flow entries inserted (BPF_NOEXIST succeeded) */
	BC_TAP_CNT_N,
};

/* bc_tap_cfg.flags */
enum {
	BC_TAP_CFG_PAIR = 0x01,	 /* records only between addresses a and b (both ways) */
	BC_TAP_CFG_TCP = 0x02,	 /* TCP records (needs BC_TAP_CFG_PAIR) */
	BC_TAP_CFG_FRAGS = 0x04, /* records for non-first fragments */
	BC_TAP_CFG_FLOWS = 0x08, /* per-flow counters */
};

/* The programs' configuration, a global in their .data (changeable while attached). */
struct bc_tap_cfg {
	__u32 flags;	/* BC_TAP_CFG_* */
	__u8 family;	/* of a and b: 4 or 6 */
	__u8 pad;
	__u16 ctl_port; /* TCP port never recorded (the control connection); 0: none */
	__u8 a[16], b[16];
};

#endif
