/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Joining two views of one bond: the netlink/ethtool view (primary) and the
 * /proc/net/bonding view (bc_proc_parse()), as kernel-interfaces.md
 * section 7 suggests.  Pure: reads and writes the model only.
 */
#ifndef BONDCHECK_MERGE_H
#define BONDCHECK_MERGE_H

#include "bondcheck/model.h"

/*
 * bc_merge_proc() - cross-check /proc's view @pr of a bond against the
 * netlink view @nl (same bond, in @snap) and complete @nl from it.
 *
 * Cross-checked (a difference is recorded with
 * bc_findings_add_disagreement(), sources "netlink" and "proc"): bond mode,
 * miimon, up/down delay, ARP interval, min_links, LACP rate/active,
 * ad_select, hash policy, bond MII status, active/primary slave, the active
 * aggregator (present or not, id, ports, keys, partner MAC), the slave list,
 * and per slave MII status, link failure count, queue id, aggregator id,
 * actor/partner oper port state, churn states, permanent address, and speed
 * and duplex (ethtool LINKMODES vs bonding's cached value).  Values that are
 * hidden or not reported on either side are never compared.
 *
 * Completed from /proc where @nl does not report a field (older kernels, or
 * fields netlink never carries): the LACPDU details, churned counts, churn
 * states before 7.1, speed/duplex when ethtool netlink is unavailable, the
 * driver version header; hidden /proc fields stay BC_HIDDEN.  @nl's slaves
 * are put in /proc's order (enslave order); slaves only one side lists
 * stay, after the others.
 *
 * Return: the number of disagreements recorded, or -ENOMEM.
 */
int bc_merge_proc(struct bc_snapshot *snap, struct bc_bond *nl, const struct bc_bond *pr);

/*
 * bc_merge_proc_as() - bc_merge_proc() for a primary view that is not
 * netlink: @src names it in the disagreements ("ip" for a saved `ip -d link`
 * listing in a sosreport, sos.h).  bc_merge_proc() is this with "netlink".
 */
int bc_merge_proc_as(struct bc_snapshot *snap, struct bc_bond *nl, const struct bc_bond *pr,
		     const char *src);

#endif
