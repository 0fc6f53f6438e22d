/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bonding driver's transmit hash and slave choice, as a pure predictor
 * (reference/xmit-hash.md; kernel drivers/net/bonding/bond_main.c
 * bond_xmit_hash(), bond_eth_hash(), bond_ip_hash(), bond_vlan_srcmac_hash(),
 * bond_xmit_3ad_xor_slave_get()).
 *
 * The model is a little-endian sender (x86_64, arm64): addresses and ports
 * are loaded as the kernel does, load32 of wire bytes with the first byte
 * least significant, whatever the host bondcheck runs on (section 2.1).
 */
#ifndef BONDCHECK_XMIT_HASH_H
#define BONDCHECK_XMIT_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

/* Kernel classes that hash differently (xmit-hash.md section 0). */
enum bc_hash_kernel {
	BC_HK_PRE_515 = 0, /* 4.19 .. 5.14: raw ethertype field, >> 1 for every IP policy */
	BC_HK_515_BROKEN,  /* 5.15.0-17, 5.16: wrong header offsets, unpredictable */
	BC_HK_515_MID,	   /* 5.15.18-37, 5.17.0-5: numeric ethertype, >> 1 for every IP policy */
	BC_HK_CURRENT,	   /* 5.15.38+, 5.17.6+, 5.18+: >> 1 only for layer3+4, encap3+4 */
};

/* BOND_XMIT_POLICY_* (uapi if_bonding.h) */
enum {
	BC_XMIT_LAYER2 = 0,
	BC_XMIT_LAYER34 = 1,
	BC_XMIT_LAYER23 = 2,
	BC_XMIT_ENCAP23 = 3,
	BC_XMIT_ENCAP34 = 4,
	BC_XMIT_VLAN_SRCMAC = 5,
};

/* One flow as the bond sees its frames. */
struct bc_flow {
	int family;		  /* AF_INET or AF_INET6 */
	uint8_t src[16], dst[16]; /* wire order; IPv4 uses the first 4 bytes */
	uint16_t sport, dport;	  /* host order */
	uint8_t proto;		  /* IPPROTO_TCP, IPPROTO_UDP; anything else hashes ports 0 */
	bool fragment;		  /* IP fragments (first included) hash with ports 0 */
	bool connected;		  /* TCP or connected UDP: encap3+4 uses the random sk_txhash */
	uint8_t smac[6];	  /* the bond's MAC for locally sent frames */
	uint8_t dmac[6];	  /* next hop's MAC */
	bool vlan;		  /* out-of-band 802.1Q tag (VLAN device above the bond) */
	uint16_t vlan_tci;	  /* full TCI, PCP and DEI included */
};

/*
 * bc_hash_kernel_from_release() - classify a kernel release ("6.1.0-25-amd64",
 * "5.15.148").  Distribution releases such as "5.15.0-91-generic" hide the
 * stable level and classify as BC_HK_515_BROKEN (confirm by capture).
 * Returns -EINVAL for text that does not start with MAJOR.MINOR, or a
 * kernel older than 4.19.
 */
int bc_hash_kernel_from_release(const char *release, enum bc_hash_kernel *out,
				struct bc_error *err);

/*
 * bc_xmit_hash() - the 32-bit value the bond reduces modulo the usable-slave
 * count.  Returns 0; -ENOTSUP when the kernel class or the policy makes it
 * unpredictable (5.15.0-17; encap3+4 with TCP or connected UDP, section 2.7);
 * -EINVAL for an unknown policy or family, or vlan+srcmac before 5.12.
 */
int bc_xmit_hash(int policy, enum bc_hash_kernel k, const struct bc_flow *f, uint32_t *hash,
		 struct bc_error *err);

/*
 * bc_xmit_usable() - the usable-slave array (section 3): indices into
 * b->slaves in enslave order, MII status up (or not reported), not a backup
 * slave, and for 802.3ad in the active aggregator and distributing when
 * those are known.  Writes up to @max indices; returns their count.
 */
size_t bc_xmit_usable(const struct bc_bond *b, size_t *idx, size_t max);

/*
 * bc_xmit_slave() - index into b->slaves of the slave that transmits @f.
 * balance-xor, 802.3ad and tlb/alb with tlb_dynamic_lb 0: usable[hash % n];
 * active-backup: the active slave.  Returns 0; -ENOTSUP for balance-rr,
 * broadcast and dynamic tlb/alb (per packet or time dependent) and for
 * unpredictable hashes; -ENODATA when no slave is usable or the active
 * slave is unknown.
 */
int bc_xmit_slave(const struct bc_bond *b, enum bc_hash_kernel k, const struct bc_flow *f,
		  size_t *slave, struct bc_error *err);

/*
 * bc_xmit_single_path() - true when two hosts always share one link under
 * this bond's mode and policy: balance-xor or 802.3ad with layer2, layer2+3,
 * encap2+3 or vlan+srcmac (all flows of one host pair carry the same MACs,
 * addresses and tag).  The run reports `hash-single-path` instead of placing.
 */
bool bc_xmit_single_path(const struct bc_bond *b);

/*
 * bc_place_ports() - choose source ports so that stream i leaves on usable
 * slave i % n (n usable slaves; K per slave when @n_streams = K x n).
 * @flows: one template per stream (addresses, MACs, dport, protocol); the
 * chosen port is written to flows[i].sport.  Candidates are @base,
 * @base + @stride, ... up to 65535, each used once.  @slave_of (may be NULL)
 * receives each stream's index into b->slaves.
 * Returns 0; -EDOM when the bond is single-path (bc_xmit_single_path());
 * -EINVAL for fragmenting flows (fragments hash with ports 0) or stride 0;
 * -ENOTSUP when the mode or policy cannot be steered by ports;
 * -EADDRNOTAVAIL when the port range runs out.
 */
int bc_place_ports(const struct bc_bond *b, enum bc_hash_kernel k, struct bc_flow *flows,
		   size_t n_streams, uint16_t base, uint16_t stride, size_t *slave_of,
		   struct bc_error *err);

/*
 * bc_place_ports_onto() - as bc_place_ports(), onto a subset of the usable
 * slaves: stream i leaves on b->slaves[@targets[i % @n_targets]] (indices
 * into b->slaves, each a usable slave).  The hash still reduces modulo
 * every usable slave (the bond does not know about the subset); only the
 * ports change.  `bondcheck scale --method placement` uses it to load N of
 * the bond's slaves and leave the others idle.  Errors as bc_place_ports(),
 * and -EINVAL when a target is out of range or not usable.
 */
int bc_place_ports_onto(const struct bc_bond *b, enum bc_hash_kernel k, struct bc_flow *flows,
			size_t n_streams, const size_t *targets, size_t n_targets, uint16_t base,
			uint16_t stride, size_t *slave_of, struct bc_error *err);

/*
 * bc_place_peer_ports() - as bc_place_ports(), but choose each flow's
 * destination port (written to flows[i].dport), for a sender whose own
 * port is fixed: the agent of a reverse TCP stream sends from its listening
 * port, so it steers by the client port it asks the client to bind.  The
 * layer3+4 hash is not symmetric in the two ports (the folded word keeps
 * sport in its upper half, which h % n sees unless n is a power of two), so
 * this is a search of its own, not a swap.
 */
int bc_place_peer_ports(const struct bc_bond *b, enum bc_hash_kernel k, struct bc_flow *flows,
			size_t n_streams, uint16_t base, uint16_t stride, size_t *slave_of,
			struct bc_error *err);

#endif
