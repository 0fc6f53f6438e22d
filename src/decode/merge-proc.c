// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Netlink vs /proc/net/bonding: cross-check and completion (see merge.h).
 * Both views come from the same kernel objects (bond_netlink.c and
 * bond_procfs.c read the same struct bonding / struct slave), so a
 * difference means a change between the two reads or a decoder bug.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bondcheck/findings.h"
#include "bondcheck/merge.h"

struct u32_field {
	const char *name;
	size_t off;
	bool compare; /* false: /proc prints a default when the line is absent */
};

#define BF(n, f, c)                                                                                \
	{                                                                                          \
		n, offsetof(struct bc_bond, f), c                                                  \
	}
static const struct u32_field bond_fields[] = {
	BF("mode", mode, true),
	BF("miimon_ms", miimon_ms, true),
	BF("updelay_ms", updelay_ms, true),
	BF("downdelay_ms", downdelay_ms, true),
	BF("peer_notif_delay_ms", peer_notif_delay_ms, true),
	BF("arp_interval_ms", arp_interval_ms, true),
	BF("arp_missed_max", arp_missed_max, true),
	BF("min_links", min_links, true),
	BF("lacp_active", lacp_active, true),
	BF("lacp_rate", lacp_rate, true),
	BF("ad_select", ad_select, true),
	BF("xmit_hash_policy", xmit_hash_policy, true),
	BF("mii_status", mii_status, true),
	BF("ad_actor_sys_prio", ad_actor_sys_prio, true),
	BF("fail_over_mac", fail_over_mac, false),
	BF("primary_reselect", primary_reselect, false),
	BF("arp_validate", arp_validate, false),
	BF("use_carrier", use_carrier, false),
};
#undef BF

/* Fields of the active aggregator: compared only when both show one. */
#define AF(n, f)                                                                                   \
	{                                                                                          \
		n, offsetof(struct bc_bond, f), true                                               \
	}
static const struct u32_field agg_fields[] = {
	AF("ad_aggregator_id", ad_aggregator_id),
	AF("ad_num_ports", ad_num_ports),
	AF("ad_actor_key", ad_actor_key),
	AF("ad_partner_key", ad_partner_key),
};
#undef AF

#define SF(n, f)                                                                                   \
	{                                                                                          \
		n, offsetof(struct bc_slave, f), true                                              \
	}
static const struct u32_field slave_fields[] = {
	SF("mii_status", mii_status),
	SF("link_failure_count", link_failure_count),
	SF("queue_id", queue_id),
	SF("aggregator_id", aggregator_id),
	SF("actor_oper_port_state", actor_oper_port_state),
	SF("partner_oper_port_state", partner_oper_port_state),
	SF("actor_churn_state", actor_churn_state),
	SF("partner_churn_state", partner_churn_state),
	SF("speed_mbps", speed_mbps),
	SF("duplex", duplex),
	SF("actor_churned_count", actor_churned_count),
	SF("partner_churned_count", partner_churned_count),
};
#undef SF

#define N(a) (sizeof(a) / sizeof((a)[0]))

static struct bc_u32 *at(void *base, size_t off)
{
	return (struct bc_u32 *)((char *)base + off);
}

/* Compare (when asked) and complete a table of u32 fields; -ENOMEM or count. */
static int fields(struct bc_snapshot *snap, const char *src, const char *bond, const char *slave,
		  void *nl, const void *pr, const struct u32_field *tab, size_t n)
{
	int count = 0;

	for (size_t i = 0; i < n; i++) {
		struct bc_u32 *a = at(nl, tab[i].off);
		const struct bc_u32 *b = at((void *)pr, tab[i].off);

		if (tab[i].compare) {
			int rc = bc_findings_compare_u32(snap, bond, slave, tab[i].name, src, a,
							 "proc", b);

			if (rc < 0)
				return rc;
			count += rc;
		}
		if (a->st == BC_NOT_REPORTED)
			*a = *b;
	}
	return count;
}

/* Text fields: compare when both known (MACs case-insensitively), else complete. */
static int str_field(struct bc_snapshot *snap, const char *src, const char *bond, const char *slave,
		     const char *name, struct bc_str *a, const struct bc_str *b)
{
	if (a->st == BC_KNOWN && b->st == BC_KNOWN) {
		if (strcasecmp(a->v, b->v)) {
			int rc = bc_findings_add_disagreement(snap, bond, slave, name, src, a->v,
							      "proc", b->v);

			return rc < 0 ? rc : 1;
		}
		return 0;
	}
	if ((a->st == BC_KNOWN && b->st == BC_NA) || (a->st == BC_NA && b->st == BC_KNOWN)) {
		int rc = bc_findings_add_disagreement(snap, bond, slave, name, src,
						      a->st == BC_KNOWN ? a->v : "None", "proc",
						      b->st == BC_KNOWN ? b->v : "None");

		return rc < 0 ? rc : 1;
	}
	if (a->st == BC_NOT_REPORTED)
		*a = *b;
	return 0;
}

static const char *agg_text(uint8_t st)
{
	return st == BC_KNOWN ? "present" : "none";
}

static int aggregator(struct bc_snapshot *snap, const char *src, struct bc_bond *nl,
		      const struct bc_bond *pr)
{
	bool a_vis = nl->ad_info_status == BC_KNOWN || nl->ad_info_status == BC_NA;
	bool b_vis = pr->ad_info_status == BC_KNOWN || pr->ad_info_status == BC_NA;
	int rc, count = 0;

	if (a_vis && b_vis && nl->ad_info_status != pr->ad_info_status) {
		rc = bc_findings_add_disagreement(snap, nl->name, NULL, "active_aggregator", src,
						  agg_text(nl->ad_info_status), "proc",
						  agg_text(pr->ad_info_status));
		return rc < 0 ? rc : 1;
	}
	if (nl->ad_info_status == BC_NOT_REPORTED) {
		nl->ad_info_status = pr->ad_info_status;
		for (size_t i = 0; i < N(agg_fields); i++)
			*at(nl, agg_fields[i].off) = *at((void *)pr, agg_fields[i].off);
		nl->ad_partner_mac = pr->ad_partner_mac;
		return 0;
	}
	if (nl->ad_info_status != BC_KNOWN || pr->ad_info_status != BC_KNOWN)
		return 0;
	rc = fields(snap, src, nl->name, NULL, nl, pr, agg_fields, N(agg_fields));
	if (rc < 0)
		return rc;
	count += rc;
	rc = str_field(snap, src, nl->name, NULL, "ad_partner_mac", &nl->ad_partner_mac,
		       &pr->ad_partner_mac);
	return rc < 0 ? rc : count + rc;
}

static int slave(struct bc_snapshot *snap, const char *src, const char *bond, struct bc_slave *a,
		 const struct bc_slave *b)
{
	int rc, count;

	count = fields(snap, src, bond, a->name, a, b, slave_fields, N(slave_fields));
	if (count < 0)
		return count;
	rc = str_field(snap, src, bond, a->name, "perm_hwaddr", &a->perm_hwaddr, &b->perm_hwaddr);
	if (rc < 0)
		return rc;
	/* netlink never carries the LACPDU details: /proc's, or its "hidden" */
	if (a->actor.port_state.st == BC_NOT_REPORTED)
		a->actor = b->actor;
	if (a->partner.port_state.st == BC_NOT_REPORTED)
		a->partner = b->partner;
	return count + rc;
}

static void name_list(const struct bc_bond *b, char *out, size_t cap)
{
	out[0] = '\0';
	for (size_t i = 0; i < b->n_slaves; i++) {
		size_t len = strlen(out);

		snprintf(out + len, cap - len, "%s%s", i ? " " : "", b->slaves[i].name);
	}
}

/* /proc lists slaves in enslave order; dump order is ifindex order. */
static int reorder(struct bc_snapshot *snap, const char *src, struct bc_bond *nl,
		   const struct bc_bond *pr)
{
	struct bc_slave *arr;
	size_t n = 0;
	bool same = nl->n_slaves == pr->n_slaves;

	if (!nl->n_slaves)
		goto check;
	arr = calloc(nl->n_slaves, sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	for (size_t i = 0; i < pr->n_slaves; i++) {
		struct bc_slave *s = bc_bond_find_slave(nl, pr->slaves[i].name);

		if (s) {
			arr[n++] = *s;
			s->name[0] = '\0'; /* taken */
		} else {
			same = false;
		}
	}
	for (size_t i = 0; i < nl->n_slaves; i++)
		if (nl->slaves[i].name[0])
			arr[n++] = nl->slaves[i];
	free(nl->slaves);
	nl->slaves = arr;
check:
	if (!same) {
		char a[256], b[256];

		name_list(nl, a, sizeof(a));
		name_list(pr, b, sizeof(b));
		if (bc_findings_add_disagreement(snap, nl->name, NULL, "slaves", src, a, "proc",
						 b) < 0)
			return -ENOMEM;
		return 1;
	}
	return 0;
}

int bc_merge_proc(struct bc_snapshot *snap, struct bc_bond *nl, const struct bc_bond *pr)
{
	return bc_merge_proc_as(snap, nl, pr, "netlink");
}

int bc_merge_proc_as(struct bc_snapshot *snap, struct bc_bond *nl, const struct bc_bond *pr,
		     const char *src)
{
	int rc, count = 0;

	rc = fields(snap, src, nl->name, NULL, nl, pr, bond_fields, N(bond_fields));
	if (rc < 0)
		return rc;
	count += rc;
	if (!nl->xmit_hash_policy_name[0])
		snprintf(nl->xmit_hash_policy_name, sizeof(nl->xmit_hash_policy_name), "%s",
			 pr->xmit_hash_policy_name);
	rc = str_field(snap, src, nl->name, NULL, "active_slave", &nl->active_slave,
		       &pr->active_slave);
	if (rc < 0)
		return rc;
	count += rc;
	rc = str_field(snap, src, nl->name, NULL, "primary", &nl->primary, &pr->primary);
	if (rc < 0)
		return rc;
	count += rc;
	if (nl->ad_actor_system.st == BC_NOT_REPORTED)
		nl->ad_actor_system = pr->ad_actor_system;
	rc = aggregator(snap, src, nl, pr);
	if (rc < 0)
		return rc;
	count += rc;
	if (!nl->n_arp_targets && pr->n_arp_targets) {
		memcpy(nl->arp_targets, pr->arp_targets, sizeof(nl->arp_targets));
		nl->n_arp_targets = pr->n_arp_targets;
	}
	snprintf(nl->driver_version, sizeof(nl->driver_version), "%s", pr->driver_version);
	for (size_t i = 0; i < nl->n_slaves; i++) {
		const struct bc_slave *ps = bc_bond_find_slave(pr, nl->slaves[i].name);

		if (!ps)
			continue;
		rc = slave(snap, src, nl->name, &nl->slaves[i], ps);
		if (rc < 0)
			return rc;
		count += rc;
	}
	rc = reorder(snap, src, nl, pr);
	return rc < 0 ? rc : count + rc;
}
