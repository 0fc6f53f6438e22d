// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Slave taps: tc programs for a slave's ingress and egress (docs/taps.md).
 *
 * Every skb is parsed (Ethernet, up to two VLAN tags, IPv4 or IPv6 with its
 * extension headers, UDP or TCP) with bpf_skb_load_bytes(), which also reads
 * non-linear skbs; nothing is modified and every program returns
 * TC_ACT_UNSPEC (tcx: TCX_NEXT), so the next filter or the stack decides.
 *
 *   - a bondcheck datagram (UDP whose payload starts with the "BCK1" magic,
 *     bondcheck/udp-header.h) or a non-first fragment, or a TCP segment of a
 *     test flow, gives one 48-byte record in the ring (bondcheck/tap-rec.h);
 *   - any IP packet counts in the per-flow, per-slave LRU hash.
 *
 * Build: clang -target bpf -O2 -g -mcpu=v3 (fetch-and-add for the pair ids).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "bondcheck/tap-rec.h"

#define BCK1_MAGIC 0x42434b31u
#define MAX_TUPLES 16384
#define V6_EXT_MAX 4
#define MAX_GSO_SEGS 64 /* UDP_MAX_SEGMENTS (include/linux/udp.h) */

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20); /* set by the loader before load */
} ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BC_TAP_CNT_N);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_TUPLES);
	__type(key, struct bc_tap_tuple_key);
	__type(value, __u32);
} tuples SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536); /* set by the loader before load */
	__type(key, struct bc_tap_flow_key);
	__type(value, struct bc_tap_flow_val);
} flows SEC(".maps");

struct bc_tap_cfg cfg = { .flags = BC_TAP_CFG_FRAGS | BC_TAP_CFG_FLOWS };
__u32 next_tuple;
/*
 * Wake the consumer only once this many bytes wait in the ring (set by the
 * loader: 1/16 of the ring); below that the consumer's poll timeout
 * collects them.  A wakeup per record (the default when the consumer has
 * caught up) costs an irq_work and a context switch per packet.
 */
__u64 wake_bytes = 1 << 20;

/* What the parse found; addresses are copied once into the flow key. */
struct pkt {
	struct bc_tap_flow_key fk;
	__u32 l4;	/* offset of the transport header (or the fragment's payload) */
	__u32 l4_len;	/* bytes of IP payload after the extension headers */
	__u32 ip_id;
	__u16 off8;
	__u8 frag, mf;
	__u16 vlan;
	__u8 has_vlan;
};

static __always_inline void count(__u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(&counters, &idx);

	if (v)
		*v += 1;
}

/* Ethernet and up to two 802.1Q/802.1ad tags; returns the L3 offset or < 0. */
static __always_inline int parse_l2(struct __sk_buff *skb, struct pkt *p, __u16 *proto)
{
	struct {
		__be16 tci, proto;
	} tag;
	__be16 h_proto;
	int off = ETH_HLEN;

	if (bpf_skb_load_bytes(skb, 12, &h_proto, 2))
		return -1;
	if (skb->vlan_present) { /* hardware-accelerated tag: not in the packet */
		p->vlan = (__u16)skb->vlan_tci;
		p->has_vlan = 1;
	}
#pragma unroll
	for (int i = 0; i < 2; i++) {
		if (h_proto != bpf_htons(ETH_P_8021Q) && h_proto != bpf_htons(ETH_P_8021AD))
			break;
		if (bpf_skb_load_bytes(skb, off, &tag, sizeof(tag)))
			return -1;
		if (!p->has_vlan) { /* the outer tag names the VLAN */
			p->vlan = bpf_ntohs(tag.tci);
			p->has_vlan = 1;
		}
		h_proto = tag.proto;
		off += 4;
	}
	*proto = bpf_ntohs(h_proto);
	return off;
}

static __always_inline int parse_v4(struct __sk_buff *skb, struct pkt *p, int off)
{
	struct iphdr ip;
	__u32 ihl, tot;
	__u16 fo;

	if (bpf_skb_load_bytes(skb, off, &ip, sizeof(ip)))
		return -1;
	ihl = (__u32)ip.ihl * 4;
	if (ip.version != 4 || ihl < sizeof(ip))
		return -1;
	p->fk.family = 4;
	p->fk.proto = ip.protocol;
	__builtin_memcpy(p->fk.src, &ip.saddr, 4);
	__builtin_memcpy(p->fk.dst, &ip.daddr, 4);
	tot = bpf_ntohs(ip.tot_len);
	/* tot_len 0 (BIG TCP) or past the skb: trust skb->len */
	if (tot < ihl || off + tot > skb->len)
		tot = skb->len - off;
	p->l4 = off + ihl;
	p->l4_len = tot > ihl ? tot - ihl : 0;
	fo = bpf_ntohs(ip.frag_off);
	if (fo & 0x3fff) {
		p->frag = 1;
		p->mf = !!(fo & 0x2000);
		p->off8 = fo & 0x1fff;
		p->ip_id = bpf_ntohs(ip.id);
	}
	return 0;
}

static __always_inline int parse_v6(struct __sk_buff *skb, struct pkt *p, int off)
{
	struct ipv6hdr ip;
	struct {
		__u8 nexthdr, len; /* hdrlen in 8-byte units, excluding the first 8 */
		__be16 frag_off;
		__be32 id;
	} ext;
	__u32 pl, used = 0;
	__u8 nh;

	if (bpf_skb_load_bytes(skb, off, &ip, sizeof(ip)))
		return -1;
	if (ip.version != 6)
		return -1;
	p->fk.family = 6;
	__builtin_memcpy(p->fk.src, &ip.saddr, 16);
	__builtin_memcpy(p->fk.dst, &ip.daddr, 16);
	pl = bpf_ntohs(ip.payload_len);
	off += sizeof(ip);
	if (pl == 0 || off + pl > skb->len) /* jumbogram / BIG TCP */
		pl = skb->len - off;
	nh = ip.nexthdr;
#pragma unroll
	for (int i = 0; i < V6_EXT_MAX; i++) {
		__u32 hl;

		if (nh != IPPROTO_HOPOPTS && nh != IPPROTO_ROUTING && nh != IPPROTO_DSTOPTS &&
		    nh != IPPROTO_FRAGMENT)
			break;
		if (bpf_skb_load_bytes(skb, off, &ext, sizeof(ext)))
			return -1;
		if (nh == IPPROTO_FRAGMENT) {
			__u16 fo = bpf_ntohs(ext.frag_off);

			hl = 8;
			p->frag = 1;
			p->mf = fo & 1;
			p->off8 = fo >> 3;
			p->ip_id = bpf_ntohl(ext.id);
		} else {
			hl = ((__u32)ext.len + 1) * 8;
		}
		nh = ext.nexthdr;
		off += hl;
		used += hl;
	}
	p->fk.proto = nh;
	p->l4 = off;
	p->l4_len = pl > used ? pl - used : 0;
	return 0;
}

/* @x and @y equal as addresses of @n bytes (4 or 16), read as words. */
static __always_inline int addr_eq(const __u8 *x, const __u8 *y, int n)
{
	const __u32 *a = (const __u32 *)x, *b = (const __u32 *)y;

	if (a[0] != b[0])
		return 0;
	return n == 4 || (a[1] == b[1] && a[2] == b[2] && a[3] == b[3]);
}

/* The configured host pair, either way (BC_TAP_CFG_PAIR). */
static __always_inline int pair_wanted(const struct pkt *p)
{
	int n = p->fk.family == 4 ? 4 : 16;

	if (!(cfg.flags & BC_TAP_CFG_PAIR))
		return 1;
	if (p->fk.family != cfg.family)
		return 0;
	return (addr_eq(p->fk.src, cfg.a, n) && addr_eq(p->fk.dst, cfg.b, n)) ||
	       (addr_eq(p->fk.src, cfg.b, n) && addr_eq(p->fk.dst, cfg.a, n));
}

/* The id of the packet's 5-tuple; allocated on first sight. */
static __always_inline __u32 tuple_id(const struct pkt *p)
{
	struct bc_tap_tuple_key k = { .family = p->fk.family, .proto = p->fk.proto,
				      .sport = p->fk.sport, .dport = p->fk.dport };
	__u32 *v, id;

	__builtin_memcpy(k.src, p->fk.src, 16);
	__builtin_memcpy(k.dst, p->fk.dst, 16);
	v = bpf_map_lookup_elem(&tuples, &k);
	if (v)
		return *v;
	id = __sync_fetch_and_add(&next_tuple, 1);
	if (id < MAX_TUPLES && !bpf_map_update_elem(&tuples, &k, &id, BPF_NOEXIST))
		return id;
	v = bpf_map_lookup_elem(&tuples, &k); /* another CPU inserted it first */
	if (v)
		return *v;
	count(BC_TAP_CNT_TUPLE_FULL);
	return BC_TAP_TUPLE_NONE;
}

static __always_inline void count_flow(struct __sk_buff *skb, struct pkt *p)
{
	struct bc_tap_flow_val *v, nv = { 1, skb->len };

	v = bpf_map_lookup_elem(&flows, &p->fk);
	if (v) {
		__sync_fetch_and_add(&v->packets, 1);
		__sync_fetch_and_add(&v->bytes, skb->len);
		return;
	}
	/*
	 * Every successful insert is counted: nothing deletes entries, so the
	 * entries inserted less those present are the LRU's evictions
	 * (bc_tap_flows()).  When the table is full the insert itself evicts.
	 */
	if (!bpf_map_update_elem(&flows, &p->fk, &nv, BPF_NOEXIST)) {
		count(BC_TAP_CNT_FLOW_NEW);
	} else {
		v = bpf_map_lookup_elem(&flows, &p->fk); /* raced with another CPU */
		if (!v) {
			count(BC_TAP_CNT_FLOW_FAIL);
			return;
		}
		__sync_fetch_and_add(&v->packets, 1);
		__sync_fetch_and_add(&v->bytes, skb->len);
	}
}

/* Our header after the UDP header (bondcheck/udp-header.h), up to seq. */
struct bck1 {
	__be32 magic;
	__be16 version, flags;
	__be32 stream, test_id;
	__be64 seq;
};

union l4 {
	struct {
		struct udphdr uh;
		struct bck1 h;
	} u;
	struct tcphdr th;
};

/* Reserve, fill and submit one record; the ring's fullness decides the wakeup. */
static __always_inline void emit(struct __sk_buff *skb, const struct pkt *p, __u8 kind,
				 __u8 egress, const union l4 *l4, const struct bck1 *h, __u32 len,
				 __u32 tuple, __u8 gso)
{
	struct bc_tap_rec *r = bpf_ringbuf_reserve(&ring, sizeof(*r), 0);

	if (!r) {
		count(BC_TAP_CNT_RING_DROP);
		return;
	}
	r->ts = bpf_ktime_get_ns();
	r->ifindex = skb->ifindex;
	r->tuple = tuple;
	r->len = len;
	r->vlan = p->vlan;
	r->kind = kind;
	r->flags = (egress ? BC_TAP_F_EGRESS : 0) | (p->frag ? BC_TAP_F_FRAG : 0) |
		   (p->mf ? BC_TAP_F_MF : 0) | (p->has_vlan ? BC_TAP_F_VLAN : 0) |
		   (p->fk.family == 6 ? BC_TAP_F_V6 : 0) | (gso ? BC_TAP_F_GSO : 0);
	r->ip_id = p->ip_id;
	r->off8 = p->off8;
	r->frag_len = p->frag ? (__u16)p->l4_len : 0;
	if (kind == BC_TAP_REC_UDP) {
		r->udp.seq = bpf_be64_to_cpu(h->seq);
		r->udp.stream = bpf_ntohl(h->stream);
		r->udp.test_id = bpf_ntohl(h->test_id);
	} else if (kind == BC_TAP_REC_TCP) {
		__u32 hl = (__u32)l4->th.doff * 4, plen = p->l4_len > hl ? p->l4_len - hl : 0;

		r->tcp.seq = bpf_ntohl(l4->th.seq);
		r->tcp.end_seq = r->tcp.seq + plen + l4->th.syn + l4->th.fin;
		r->tcp.sport = p->fk.sport;
		r->tcp.dport = p->fk.dport;
		r->tcp.tcp_flags = (__u8)(l4->th.fin | l4->th.syn << 1 | l4->th.rst << 2 |
					  l4->th.psh << 3 | l4->th.ack << 4);
		__builtin_memset(r->tcp.pad, 0, sizeof(r->tcp.pad));
	} else {
		r->udp.seq = 0;
		r->udp.stream = 0;
		r->udp.test_id = 0;
	}
	bpf_ringbuf_submit(r, bpf_ringbuf_query(&ring, BPF_RB_AVAIL_DATA) >= wake_bytes
				      ? BPF_RB_FORCE_WAKEUP
				      : BPF_RB_NO_WAKEUP);
	count(BC_TAP_CNT_RECORDS);
}

/*
 * A UDP GSO super-packet (egress; GRO-merged on ingress) carries
 * gso_segs datagrams of gso_size payload bytes each behind one UDP header,
 * and each begins with our header: one record per datagram, each with its
 * segment's length as if segmented (headers repeated).
 */
static __always_inline void emit_udp_segs(struct __sk_buff *skb, const struct pkt *p, __u8 egress,
					  const union l4 *l4, __u32 tuple)
{
	__u32 segs = skb->gso_segs, gsz = skb->gso_size, hdrs = p->l4 + sizeof(struct udphdr);
	__u32 total = skb->len > hdrs ? skb->len - hdrs : 0;
	struct bck1 h;

	emit(skb, p, BC_TAP_REC_UDP, egress, l4, &l4->u.h, hdrs + (gsz < total ? gsz : total),
	     tuple, 1);
	for (__u32 i = 1; i < MAX_GSO_SEGS; i++) {
		__u32 at = i * gsz, seg;

		if (i >= segs || at >= total)
			break;
		seg = total - at < gsz ? total - at : gsz;
		if (bpf_skb_load_bytes(skb, hdrs + at, &h, sizeof(h)) ||
		    h.magic != bpf_htonl(BCK1_MAGIC))
			continue;
		emit(skb, p, BC_TAP_REC_UDP, egress, l4, &h, hdrs + seg, tuple, 1);
	}
}

static __always_inline int tap(struct __sk_buff *skb, __u8 egress)
{
	struct pkt p = {};
	union l4 l4;
	__u8 kind = 0;
	__u16 proto;
	__u32 tuple;
	int off;

	count(BC_TAP_CNT_PACKETS);
	off = parse_l2(skb, &p, &proto);
	if (off < 0)
		return TC_ACT_UNSPEC;
	if (proto == ETH_P_IP) {
		if (parse_v4(skb, &p, off))
			return TC_ACT_UNSPEC;
	} else if (proto == ETH_P_IPV6) {
		if (parse_v6(skb, &p, off))
			return TC_ACT_UNSPEC;
	} else {
		return TC_ACT_UNSPEC;
	}
	p.fk.ifindex = skb->ifindex;
	p.fk.egress = egress;
	p.fk.vid = p.vlan & 0x0fff;

	if (p.frag && p.off8) {
		if ((cfg.flags & BC_TAP_CFG_FRAGS) && pair_wanted(&p))
			kind = BC_TAP_REC_FRAG;
	} else if (p.fk.proto == IPPROTO_UDP) {
		if (!bpf_skb_load_bytes(skb, p.l4, &l4.u, sizeof(l4.u))) {
			p.fk.sport = bpf_ntohs(l4.u.uh.source);
			p.fk.dport = bpf_ntohs(l4.u.uh.dest);
			if (l4.u.h.magic == bpf_htonl(BCK1_MAGIC) && pair_wanted(&p))
				kind = BC_TAP_REC_UDP;
		} else if (!bpf_skb_load_bytes(skb, p.l4, &l4.u.uh, sizeof(l4.u.uh))) {
			p.fk.sport = bpf_ntohs(l4.u.uh.source);
			p.fk.dport = bpf_ntohs(l4.u.uh.dest);
		}
	} else if (p.fk.proto == IPPROTO_TCP) {
		if (!bpf_skb_load_bytes(skb, p.l4, &l4.th, sizeof(l4.th))) {
			p.fk.sport = bpf_ntohs(l4.th.source);
			p.fk.dport = bpf_ntohs(l4.th.dest);
			if ((cfg.flags & (BC_TAP_CFG_TCP | BC_TAP_CFG_PAIR)) ==
				    (BC_TAP_CFG_TCP | BC_TAP_CFG_PAIR) &&
			    (!cfg.ctl_port ||
			     (p.fk.sport != cfg.ctl_port && p.fk.dport != cfg.ctl_port)) &&
			    pair_wanted(&p))
				kind = BC_TAP_REC_TCP;
		}
	}
	if (cfg.flags & BC_TAP_CFG_FLOWS)
		count_flow(skb, &p);
	if (!kind)
		return TC_ACT_UNSPEC;
	tuple = tuple_id(&p);
	if (kind == BC_TAP_REC_UDP && !p.frag && skb->gso_segs > 1 && skb->gso_size)
		emit_udp_segs(skb, &p, egress, &l4, tuple);
	else
		emit(skb, &p, kind, egress, &l4, &l4.u.h, skb->len, tuple, 0);
	return TC_ACT_UNSPEC;
}

SEC("tc")
int bc_tap_ingress(struct __sk_buff *skb)
{
	return tap(skb, 0);
}

SEC("tc")
int bc_tap_egress(struct __sk_buff *skb)
{
	return tap(skb, 1);
}
