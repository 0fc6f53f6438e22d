// SPDX-License-Identifier: GPL-2.0-or-later
/* Link and bond goodput ceilings; formulas and sources in bondcheck/ceiling.h. */
#include <errno.h>

#include "bondcheck/ceiling.h"
#include "bondcheck/model.h"

#define ETH_WIRE_OVERHEAD 38 /* preamble+SFD 8, header 14, FCS 4, IFG 12 */
#define ETH_MIN_SLOT	  84 /* 64-byte minimum frame + preamble + IFG */
#define QDISC_OVERHEAD	  14 /* tbf/htb charge skb->len: MAC header, no FCS */
#define VLAN_TAG	  4

const char *bc_rate_source_name(enum bc_rate_source s)
{
	switch (s) {
	case BC_RATE_TBF:
		return "tbf";
	case BC_RATE_HTB:
		return "htb";
	case BC_RATE_OPTION:
		return "option";
	case BC_RATE_ETHTOOL:
		return "ethtool";
	case BC_RATE_MEASURED:
		return "measured";
	default:
		return "none";
	}
}

/* Bytes the rate is charged for one IP packet of @ip_len bytes. */
static uint64_t frame_cost(const struct bc_ceiling_in *in, uint32_t ip_len)
{
	uint64_t tag = in->vlan ? VLAN_TAG : 0;

	if (in->conv == BC_CONV_QDISC)
		return ip_len + QDISC_OVERHEAD + tag;
	if (ip_len + ETH_WIRE_OVERHEAD + tag < ETH_MIN_SLOT)
		return ETH_MIN_SLOT;
	return ip_len + ETH_WIRE_OVERHEAD + tag;
}

int bc_ceiling_link(const struct bc_ceiling_in *in, struct bc_ceiling *out, struct bc_error *err)
{
	uint32_t iph, l4, max_udp, frag_data, msg_len;
	uint64_t cost = 0;

	if (in->ip_version != 4 && in->ip_version != 6)
		return bc_error_set(err, -EINVAL, "IP version %d; expected 4 or 6", in->ip_version);
	if (!(in->rate_bps > 0))
		return bc_error_set(err, -EINVAL, "link rate %.0f bit/s; expected > 0",
				    in->rate_bps);
	iph = in->ip_version == 4 ? 20 : 40;
	if (in->mtu < (in->ip_version == 4 ? 68u : 1280u) || in->mtu > 65535)
		return bc_error_set(err, -EINVAL, "MTU %u is outside IPv%d's range (%u..65535)",
				    in->mtu, in->ip_version, in->ip_version == 4 ? 68u : 1280u);
	*out = (struct bc_ceiling){0};
	if (in->proto == BC_L4_TCP) {
		l4 = 20 + (in->tcp_timestamps ? 12 : 0);
		out->payload = in->mtu - iph - l4;
		out->frames_per_message = 1;
		cost = frame_cost(in, in->mtu);
	} else {
		max_udp = in->ip_version == 4 ? 65507 : 65527;
		msg_len = in->udp_payload ? in->udp_payload : in->mtu - iph - 8;
		if (msg_len > max_udp)
			return bc_error_set(err, -EINVAL,
					    "UDP payload %u bytes exceeds the IPv%d maximum of %u",
					    msg_len, in->ip_version, max_udp);
		out->payload = msg_len;
		if (msg_len + 8 + iph <= in->mtu) {
			out->frames_per_message = 1;
			cost = frame_cost(in, msg_len + 8 + iph);
		} else {
			/* IPv6 fragments carry an 8-byte fragment header */
			uint32_t fh = in->ip_version == 6 ? 8 : 0, left = msg_len + 8;

			frag_data = (in->mtu - iph - fh) & ~7u;
			while (left) {
				uint32_t d = left > frag_data ? frag_data : left;

				cost += frame_cost(in, d + iph + fh);
				out->frames_per_message++;
				left -= d;
			}
		}
	}
	out->cost_per_message = cost;
	out->messages_per_s = in->rate_bps / (8.0 * (double)cost);
	out->frames_per_s = out->messages_per_s * out->frames_per_message;
	out->goodput_bps = out->messages_per_s * out->payload * 8.0;
	out->efficiency = out->goodput_bps / in->rate_bps;
	return 0;
}

int bc_link_rate_choose(double tbf_bps, double htb_bps, double option_bps, uint32_t speed_mbps,
			struct bc_link_rate *out)
{
	if (tbf_bps > 0)
		*out = (struct bc_link_rate){tbf_bps, BC_CONV_QDISC, BC_RATE_TBF};
	else if (htb_bps > 0)
		*out = (struct bc_link_rate){htb_bps, BC_CONV_QDISC, BC_RATE_HTB};
	else if (option_bps > 0)
		*out = (struct bc_link_rate){option_bps, BC_CONV_ETHERNET, BC_RATE_OPTION};
	else if (speed_mbps > 0 && speed_mbps != UINT32_MAX)
		*out = (struct bc_link_rate){speed_mbps * 1e6, BC_CONV_ETHERNET, BC_RATE_ETHTOOL};
	else {
		*out = (struct bc_link_rate){0, BC_CONV_ETHERNET, BC_RATE_NONE};
		return -ENODATA;
	}
	return 0;
}

int bc_ceiling_bond(int mode, const double *goodput_bps, size_t n, uint64_t used, double *out,
		    struct bc_error *err)
{
	double min, sum = 0;
	size_t n_used = 0;

	if (n == 0 || n > 64)
		return bc_error_set(err, -EINVAL, "bond ceiling over %zu links; expected 1..64", n);
	if (n < 64 && used >> n)
		return bc_error_set(err, -EINVAL, "used-link mask 0x%llx names links beyond %zu",
				    (unsigned long long)used, n);
	min = goodput_bps[0];
	for (size_t i = 0; i < n; i++) {
		if (goodput_bps[i] < min)
			min = goodput_bps[i];
		if (used >> i & 1) {
			sum += goodput_bps[i];
			n_used++;
		}
	}
	switch (mode) {
	case BC_MODE_ROUNDROBIN:
		*out = (double)n * min;
		return 0;
	case BC_MODE_BROADCAST:
		*out = min;
		return 0;
	case BC_MODE_ACTIVEBACKUP:
		if (n_used != 1)
			return bc_error_set(
				err, -EINVAL,
				"active-backup ceiling needs exactly one active link, got %zu",
				n_used);
		*out = sum;
		return 0;
	case BC_MODE_XOR:
	case BC_MODE_8023AD:
	case BC_MODE_TLB:
	case BC_MODE_ALB:
		if (!n_used)
			return bc_error_set(
				err, -EINVAL,
				"hash-mode ceiling needs the links the flows use; none given");
		*out = sum;
		return 0;
	default:
		return bc_error_set(err, -EINVAL, "bond mode %d has no ceiling rule", mode);
	}
}

double bc_efficiency(double measured_bps, double ceiling_bps)
{
	return ceiling_bps > 0 ? measured_bps / ceiling_bps : 0;
}
