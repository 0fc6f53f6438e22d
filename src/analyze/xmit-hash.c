// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Transmit-hash predictor: the policy values of reference/xmit-hash.md
 * section 2 and the final-step matrix of section 2.9.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "bondcheck/xmit-hash.h"

/* load32() of section 2.1 on a little-endian sender. */
static uint32_t load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t fold(uint32_t h)
{
	h ^= h >> 16;
	h ^= h >> 8;
	return h;
}

int bc_hash_kernel_from_release(const char *release, enum bc_hash_kernel *out, struct bc_error *err)
{
	unsigned maj = 0, min = 0, pat = 0;
	int n = sscanf(release, "%u.%u.%u", &maj, &min, &pat);

	if (n < 2)
		return bc_error_set(err, -EINVAL,
				    "kernel release '%s' does not start with MAJOR.MINOR", release);
	if (maj < 4 || (maj == 4 && min < 19))
		return bc_error_set(err, -EINVAL,
				    "kernel %u.%u is older than 4.19, the oldest hash model", maj,
				    min);
	if (maj == 4 || (maj == 5 && min < 15))
		*out = BC_HK_PRE_515;
	else if (maj == 5 && min == 15)
		*out = pat < 18 ? BC_HK_515_BROKEN : pat < 38 ? BC_HK_515_MID : BC_HK_CURRENT;
	else if (maj == 5 && min == 16)
		*out = BC_HK_515_BROKEN;
	else if (maj == 5 && min == 17)
		*out = pat < 6 ? BC_HK_515_MID : BC_HK_CURRENT;
	else
		*out = BC_HK_CURRENT;
	return 0;
}

/* bond_eth_hash(): d5 ^ s5 ^ ethertype (raw field before 5.15, section 2.3). */
static uint32_t l2_value(enum bc_hash_kernel k, const struct bc_flow *f)
{
	uint16_t et = f->family == AF_INET6 ? 0x86dd : 0x0800;

	if (k == BC_HK_PRE_515)
		et = (uint16_t)(et >> 8 | (et & 0xff) << 8);
	return (uint32_t)(f->dmac[5] ^ f->smac[5]) ^ et;
}

/* flow_get_u32_src()/dst(): the address, or the XOR of IPv6's four words. */
static uint32_t addr32(int family, const uint8_t *a)
{
	if (family == AF_INET)
		return load32(a);
	return load32(a) ^ load32(a + 4) ^ load32(a + 8) ^ load32(a + 12);
}

static uint32_t ports_value(const struct bc_flow *f)
{
	uint8_t b[4] = {(uint8_t)(f->sport >> 8), (uint8_t)f->sport, (uint8_t)(f->dport >> 8),
			(uint8_t)f->dport};

	if (f->fragment || (f->proto != IPPROTO_TCP && f->proto != IPPROTO_UDP))
		return 0;
	return load32(b);
}

int bc_xmit_hash(int policy, enum bc_hash_kernel k, const struct bc_flow *f, uint32_t *hash,
		 struct bc_error *err)
{
	uint32_t h;
	bool l34 = policy == BC_XMIT_LAYER34 || policy == BC_XMIT_ENCAP34;

	if (f->family != AF_INET && f->family != AF_INET6)
		return bc_error_set(err, -EINVAL, "address family %d; expected IPv4 or IPv6",
				    f->family);
	if (policy < BC_XMIT_LAYER2 || policy > BC_XMIT_VLAN_SRCMAC)
		return bc_error_set(err, -EINVAL, "xmit_hash_policy %d is unknown", policy);
	if (k == BC_HK_515_BROKEN)
		return bc_error_set(err, -ENOTSUP,
				    "kernels 5.15.0-5.15.17 and 5.16 read the wrong header bytes "
				    "(xmit-hash.md section 8 item 1): placement is unpredictable");
	if (policy == BC_XMIT_ENCAP34 && f->connected)
		return bc_error_set(
			err, -ENOTSUP,
			"encap3+4 hashes TCP and connected UDP with the socket's random "
			"sk_txhash: placement is unpredictable; use layer3+4");
	if (policy == BC_XMIT_VLAN_SRCMAC) {
		if (k == BC_HK_PRE_515)
			return bc_error_set(err, -EINVAL,
					    "vlan+srcmac does not exist before kernel 5.12");
		*hash = (f->vlan ? f->vlan_tci : 0) ^
			((uint32_t)f->smac[0] << 16 | (uint32_t)f->smac[1] << 8 | f->smac[2]) ^
			((uint32_t)f->smac[3] << 16 | (uint32_t)f->smac[4] << 8 | f->smac[5]);
		return 0;
	}
	if (policy == BC_XMIT_LAYER2) {
		*hash = l2_value(k, f);
		return 0;
	}
	h = l34 ? ports_value(f) : l2_value(k, f);
	h ^= addr32(f->family, f->src) ^ addr32(f->family, f->dst);
	h = fold(h);
	if (l34 || k != BC_HK_CURRENT)
		h >>= 1;
	*hash = h;
	return 0;
}

size_t bc_xmit_usable(const struct bc_bond *b, size_t *idx, size_t max)
{
	bool ad = bc_u32_known(&b->mode) && b->mode.v == BC_MODE_8023AD;
	size_t n = 0;

	for (size_t i = 0; i < b->n_slaves && n < max; i++) {
		const struct bc_slave *s = &b->slaves[i];

		if (bc_u32_known(&s->mii_status) && s->mii_status.v != BC_LINK_UP)
			continue;
		if (bc_u32_known(&s->state) && s->state.v == 1)
			continue;
		if (ad && b->ad_info_status == BC_KNOWN && bc_u32_known(&b->ad_aggregator_id) &&
		    (!bc_u32_known(&s->aggregator_id) ||
		     s->aggregator_id.v != b->ad_aggregator_id.v))
			continue;
		if (ad && bc_u32_known(&s->actor_oper_port_state) &&
		    !(s->actor_oper_port_state.v & BC_LACP_DISTRIBUTING))
			continue;
		idx[n++] = i;
	}
	return n;
}

int bc_xmit_slave(const struct bc_bond *b, enum bc_hash_kernel k, const struct bc_flow *f,
		  size_t *slave, struct bc_error *err)
{
	size_t idx[64], n;
	uint32_t h = 0; /* set by bc_xmit_hash() when it returns 0 */
	int mode = bc_u32_known(&b->mode) ? (int)b->mode.v : -1, r;
	bool dynamic = !bc_u32_known(&b->tlb_dynamic_lb) || b->tlb_dynamic_lb.v != 0;

	if (mode == BC_MODE_ACTIVEBACKUP) {
		for (size_t i = 0; i < b->n_slaves; i++)
			if (b->active_slave.st == BC_KNOWN &&
			    !strcmp(b->slaves[i].name, b->active_slave.v)) {
				*slave = i;
				return 0;
			}
		return bc_error_set(err, -ENODATA, "%s: active-backup with no known active slave",
				    b->name);
	}
	if (mode != BC_MODE_XOR && mode != BC_MODE_8023AD &&
	    !((mode == BC_MODE_TLB || mode == BC_MODE_ALB) && !dynamic))
		return bc_error_set(
			err, -ENOTSUP,
			"%s: mode %d spreads per packet or by load over time; only "
			"balance-xor, 802.3ad and tlb/alb with tlb_dynamic_lb 0 are predictable",
			b->name, mode);
	if (!bc_u32_known(&b->xmit_hash_policy))
		return bc_error_set(err, -ENODATA, "%s: xmit_hash_policy unknown", b->name);
	n = bc_xmit_usable(b, idx, 64);
	if (!n)
		return bc_error_set(err, -ENODATA, "%s: no usable slave to transmit on", b->name);
	r = bc_xmit_hash((int)b->xmit_hash_policy.v, k, f, &h, err);
	if (r < 0)
		return r;
	*slave = idx[h % n];
	return 0;
}
