/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Physical goodput ceilings: one module that every throughput verdict uses
 * (reference/measurement.md section 4, field-notes.md "Physical ceilings").
 *
 * Per link, full-size frames, one direction:
 *
 *   Ethernet convention (a real NIC): each frame costs IP length + 38 bytes on
 *   the wire (preamble+SFD 8, MAC header 14, FCS 4, gap 12; +4 with an
 *   802.1Q tag), and at least the 84-byte minimum slot.  goodput =
 *   rate x payload / wire_bytes (section 4.1).
 *
 *   qdisc convention (a tbf or htb limit): the shaper counts each segment as
 *   its L2 frame without FCS, IP length + 14 bytes (+4 tagged), even for GSO
 *   packets.  So tbf 100 Mbit/s carries 1448/1514 x 100 = 95.6 Mbit/s of TCP
 *   (DESIGN.md, testbed facts).
 *
 * Payloads: TCP MSS = MTU - IP header (20 / 40) - 20 - 12 with timestamps;
 * UDP datagrams larger than fit one frame are counted as IP fragments of
 * (MTU - 20) & ~7 data bytes (IPv4) or (MTU - 48) & ~7 (IPv6, fragment
 * header), as in section 3.11.
 *
 * Units: rates and goodputs in bits/s, sizes in bytes.
 */
#ifndef BONDCHECK_CEILING_H
#define BONDCHECK_CEILING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bondcheck/error.h"

enum bc_l4 {
	BC_L4_TCP = 0,
	BC_L4_UDP = 1,
};

enum bc_rate_conv {
	BC_CONV_ETHERNET = 0, /* IP length + 38 per frame */
	BC_CONV_QDISC = 1,    /* tbf/htb: IP length + 14 per segment */
};

/* Where a link's rate came from, in the order bc_link_rate_choose() prefers. */
enum bc_rate_source {
	BC_RATE_NONE = 0,
	BC_RATE_TBF,
	BC_RATE_HTB,
	BC_RATE_OPTION,	  /* --link-rate */
	BC_RATE_ETHTOOL,  /* negotiated speed; veth and emulated NICs do not enforce it */
	BC_RATE_MEASURED, /* single-link baseline */
};

struct bc_link_rate {
	double rate_bps;
	enum bc_rate_conv conv;
	enum bc_rate_source source;
};

struct bc_ceiling_in {
	double rate_bps; /* link rate, bits/s (> 0) */
	uint32_t mtu;	 /* IP MTU, bytes: >= 68 (IPv4), >= 1280 (IPv6) */
	int ip_version;	 /* 4 or 6 */
	enum bc_l4 proto;
	bool tcp_timestamps; /* Linux default: on */
	bool vlan;	     /* 802.1Q tag on the wire */
	enum bc_rate_conv conv;
	uint32_t udp_payload; /* UDP payload bytes; 0 = the largest unfragmented */
};

struct bc_ceiling {
	double goodput_bps;	     /* application payload bits/s */
	double frames_per_s;	     /* frames (or fragments) per second */
	double messages_per_s;	     /* TCP segments or UDP datagrams per second */
	uint32_t payload;	     /* payload per message: MSS or UDP payload */
	uint32_t frames_per_message; /* 1, or the IP fragments of a UDP datagram */
	uint64_t cost_per_message;   /* bytes the rate is charged per message */
	double efficiency;	     /* goodput / rate */
};

/* bc_rate_source_name() - "tbf", "htb", "option", "ethtool", "measured", "none". */
const char *bc_rate_source_name(enum bc_rate_source s);

/*
 * bc_ceiling_link() - per-link ceiling.  Returns 0, or -EINVAL (said in @err)
 * for a rate <= 0, an IP version other than 4/6, an MTU below the IP minimum,
 * or a UDP payload above 65507 (IPv4) / 65527 (IPv6).
 */
int bc_ceiling_link(const struct bc_ceiling_in *in, struct bc_ceiling *out, struct bc_error *err);

/*
 * bc_link_rate_choose() - pick a link's rate: a tbf limit, else an htb
 * limit (both with the qdisc convention), else --link-rate, else the
 * negotiated speed (Ethernet convention).  Arguments are 0 when absent;
 * rates in bits/s, @speed_mbps in Mbit/s.  Returns -ENODATA when all are 0.
 */
int bc_link_rate_choose(double tbf_bps, double htb_bps, double option_bps, uint32_t speed_mbps,
			struct bc_link_rate *out);

/*
 * bc_ceiling_bond() - what a bond of @n links can carry one way
 * (measurement.md section 4.3):
 *   balance-rr: n x the slowest link's goodput;
 *   active-backup: the active link (exactly one bit of @used);
 *   broadcast: the slowest link (every frame goes on every link);
 *   balance-xor, 802.3ad, balance-tlb, balance-alb: the sum over the links
 *   the test flows actually use (bits of @used; placement or capture).
 * @goodput_bps: per-link ceilings in enslave order, usable slaves only.
 * Returns 0 and *@out in bits/s; -EINVAL for n == 0, n > 64, an empty or
 * out-of-range @used, or an unknown mode.
 */
int bc_ceiling_bond(int mode, const double *goodput_bps, size_t n, uint64_t used, double *out,
		    struct bc_error *err);

/*
 * Goodput over its ceiling by more than this fraction is a defect of the
 * ceiling, never a measurement: a goodput averaged over >= 1 s may exceed
 * the rate by the shaper's burst (the testbed's tbf: 10 ms at the rate, 1 %
 * of a second) plus the timing of the first and last datagram (~1 %).
 */
#define BC_EFFICIENCY_TOLERANCE 0.03

/* bc_efficiency() - measured / ceiling, 0 when the ceiling is unknown (<= 0). */
double bc_efficiency(double measured_bps, double ceiling_bps);

#endif
