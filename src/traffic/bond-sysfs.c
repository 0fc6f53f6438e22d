// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The few bond facts flow placement needs, read from sysfs
 * (/sys/class/net/<bond>/bonding/, <slave>/bonding_slave/; kernel
 * drivers/net/bonding/bond_sysfs.c, bond_sysfs_slave.c): mode, policy,
 * enslave order, MII status, backup state, 802.3ad aggregator ids and
 * port state.  A stopgap next to the full collector (src/collect/).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/names.h"
#include "traffic/egress.h"

static int read_word(const char *dev, const char *attr, char *buf, size_t len, long *num)
{
	char path[160], line[256];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", dev, attr);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -ENODATA;
	}
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (buf)
		snprintf(buf, len, "%s", line);
	if (num) {
		char w[64];

		/* "balance-xor 2" and "layer3+4 1": the number follows the name */
		n = sscanf(line, "%63s %ld", w, num);
		if (n == 1 && sscanf(line, "%ld", num) != 1)
			return -ENODATA;
	}
	return 0;
}

int bc_egress_bond(const char *name, struct bc_snapshot *snap, struct bc_bond **out,
		   struct bc_error *err)
{
	struct bc_bond *b;
	char buf[256], slaves[1024], *save, *s;
	long v;

	b = bc_snapshot_add_bond(snap, name);
	if (!b)
		return bc_error_set(err, -ENOMEM, "out of memory");
	if (read_word(name, "bonding/mode", NULL, 0, &v) < 0)
		return bc_error_set(err, -ENODEV, "%s is not a bond (no bonding/mode in sysfs)",
				    name);
	bc_u32_set(&b->mode, (uint32_t)v);
	if (read_word(name, "bonding/xmit_hash_policy", buf, sizeof(buf), &v) == 0) {
		bc_u32_set(&b->xmit_hash_policy, (uint32_t)v);
		sscanf(buf, "%63s", b->xmit_hash_policy_name);
	}
	if (read_word(name, "bonding/tlb_dynamic_lb", NULL, 0, &v) == 0)
		bc_u32_set(&b->tlb_dynamic_lb, (uint32_t)v);
	if (read_word(name, "bonding/active_slave", b->active_slave.v, sizeof(b->active_slave.v),
		      NULL) == 0 &&
	    b->active_slave.v[0])
		b->active_slave.st = BC_KNOWN;
	if (read_word(name, "bonding/ad_aggregator", NULL, 0, &v) == 0) {
		bc_u32_set(&b->ad_aggregator_id, (uint32_t)v);
		b->ad_info_status = BC_KNOWN;
	}
	if (read_word(name, "address", b->mac.v, sizeof(b->mac.v), NULL) == 0)
		b->mac.st = BC_KNOWN;
	if (read_word(name, "bonding/slaves", slaves, sizeof(slaves), NULL) < 0)
		slaves[0] = '\0';
	for (s = strtok_r(slaves, " ", &save); s; s = strtok_r(NULL, " ", &save)) {
		struct bc_slave *sl = bc_bond_add_slave(b, s);

		if (!sl)
			return bc_error_set(err, -ENOMEM, "out of memory");
		if (read_word(s, "bonding_slave/mii_status", buf, sizeof(buf), NULL) == 0 &&
		    bc_link_status_from_name(buf) >= 0)
			bc_u32_set(&sl->mii_status, (uint32_t)bc_link_status_from_name(buf));
		if (read_word(s, "bonding_slave/state", buf, sizeof(buf), NULL) == 0)
			bc_u32_set(&sl->state, strcmp(buf, "backup") ? 0 : 1);
		if (read_word(s, "bonding_slave/ad_aggregator_id", NULL, 0, &v) == 0)
			bc_u32_set(&sl->aggregator_id, (uint32_t)v);
		if (read_word(s, "bonding_slave/ad_actor_oper_port_state", NULL, 0, &v) == 0)
			bc_u32_set(&sl->actor_oper_port_state, (uint32_t)v);
	}
	*out = b;
	return 0;
}
