// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Flow placement: source ports that put one (or K) test flows on each slave
 * (reference/xmit-hash.md section 9 step 4, DESIGN.md "Flow placement").
 */
#include <errno.h>
#include <stdlib.h>

#include "bondcheck/xmit-hash.h"

bool bc_xmit_single_path(const struct bc_bond *b)
{
	int mode = bc_u32_known(&b->mode) ? (int)b->mode.v : -1;
	int pol = bc_u32_known(&b->xmit_hash_policy) ? (int)b->xmit_hash_policy.v : -1;

	if (mode != BC_MODE_XOR && mode != BC_MODE_8023AD)
		return false;
	/* every flow between two hosts carries the same MACs, addresses and tag */
	return pol == BC_XMIT_LAYER2 || pol == BC_XMIT_LAYER23 || pol == BC_XMIT_ENCAP23 ||
	       pol == BC_XMIT_VLAN_SRCMAC;
}

/* Is @slave (index into b->slaves) among the @n usable ones? */
static bool is_usable(const size_t *usable, size_t n, size_t slave)
{
	for (size_t i = 0; i < n; i++)
		if (usable[i] == slave)
			return true;
	return false;
}

/*
 * @peer: vary the destination port (the far end binds it) instead of the
 * source port.  @targets: stream i goes to b->slaves[targets[i % n_targets]];
 * NULL: to usable slave i % n.
 */
static int place(const struct bc_bond *b, enum bc_hash_kernel k, struct bc_flow *flows,
		 size_t n_streams, const size_t *targets, size_t n_targets, uint16_t base,
		 uint16_t stride, size_t *slave_of, bool peer, struct bc_error *err)
{
	size_t usable[64], n, slave;
	unsigned char *taken;
	int r = 0;

	if (bc_xmit_single_path(b))
		return bc_error_set(
			err, -EDOM,
			"%s: %s hashing puts every flow between two hosts on one link "
			"(hash-single-path); ports cannot place flows",
			b->name, b->xmit_hash_policy_name[0] ? b->xmit_hash_policy_name : "this");
	if (!stride)
		return bc_error_set(err, -EINVAL, "port stride 0; expected 1 or more");
	n = bc_xmit_usable(b, usable, 64);
	if (!n)
		return bc_error_set(err, -ENODATA, "%s: no usable slave", b->name);
	if (targets && !n_targets)
		return bc_error_set(err, -EINVAL, "no target slave to place flows onto");
	for (size_t i = 0; targets && i < n_targets; i++)
		if (targets[i] >= b->n_slaves || !is_usable(usable, n, targets[i]))
			return bc_error_set(
				err, -EINVAL,
				"%s: slave %s is not usable (down, a backup, or not distributing "
				"in the active aggregator); flows can only be placed onto usable "
				"slaves",
				b->name,
				targets[i] < b->n_slaves ? b->slaves[targets[i]].name : "?");
	taken = calloc(65536, 1);
	if (!taken)
		return bc_error_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n_streams && !r; i++) {
		size_t want = targets ? targets[i % n_targets] : usable[i % n];
		uint32_t p;

		if (flows[i].fragment) {
			r = bc_error_set(err, -EINVAL,
					 "stream %zu sends IP fragments, which hash with ports 0: "
					 "use a length that fits the MTU to place flows",
					 i);
			break;
		}
		for (p = base; p <= 65535; p += stride) {
			if (taken[p])
				continue;
			if (peer)
				flows[i].dport = (uint16_t)p;
			else
				flows[i].sport = (uint16_t)p;
			r = bc_xmit_slave(b, k, &flows[i], &slave, err);
			if (r < 0)
				break;
			if (slave == want) {
				taken[p] = 1;
				if (slave_of)
					slave_of[i] = slave;
				break;
			}
		}
		if (!r && p > 65535)
			r = bc_error_set(err, -EADDRNOTAVAIL,
					 "no %s port from %u (stride %u) puts stream %zu on %s",
					 peer ? "destination" : "source", base, stride, i,
					 b->slaves[want].name);
	}
	free(taken);
	return r;
}

int bc_place_ports(const struct bc_bond *b, enum bc_hash_kernel k, struct bc_flow *flows,
		   size_t n_streams, uint16_t base, uint16_t stride, size_t *slave_of,
		   struct bc_error *err)
{
	return place(b, k, flows, n_streams, NULL, 0, base, stride, slave_of, false, err);
}

int bc_place_peer_ports(const struct bc_bond *b, enum bc_hash_kernel k, struct bc_flow *flows,
			size_t n_streams, uint16_t base, uint16_t stride, size_t *slave_of,
			struct bc_error *err)
{
	return place(b, k, flows, n_streams, NULL, 0, base, stride, slave_of, true, err);
}

int bc_place_ports_onto(const struct bc_bond *b, enum bc_hash_kernel k, struct bc_flow *flows,
			size_t n_streams, const size_t *targets, size_t n_targets, uint16_t base,
			uint16_t stride, size_t *slave_of, struct bc_error *err)
{
	if (!targets)
		return bc_error_set(err, -EINVAL, "no target slave to place flows onto");
	return place(b, k, flows, n_streams, targets, n_targets, base, stride, slave_of, false,
		     err);
}
