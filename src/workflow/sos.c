// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A sosreport's bonding evidence joined into one snapshot (sos.h), the way
 * the live inspect joins its sources (src/collect/snapshot.c): /proc is
 * each bond's base, the ip listing completes and is cross-checked against
 * it with the same merge (bc_merge_proc_as(), sources "ip" and "proc"), and
 * the saved ethtool text gives drivers, firmware and link settings per slave.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/ethtool-i.h"
#include "bondcheck/findings.h"
#include "bondcheck/ip-link.h"
#include "bondcheck/merge.h"
#include "bondcheck/names.h"
#include "bondcheck/proc.h"
#include "bondcheck/sos.h"

static void where(const struct bc_sos *sos, const struct bc_sos_file *f, char *out, size_t cap)
{
	if (sos->is_dir)
		snprintf(out, cap, "%s/%s", sos->origin, f->path);
	else
		snprintf(out, cap, "%s:%s", sos->origin, f->path);
}

/* One proc/net/bonding file into @snap as a bond; unreadable text is a warning. */
static int load_proc(const struct bc_sos *sos, const struct bc_sos_file *f,
		     struct bc_snapshot *snap)
{
	struct bc_error e = {0};
	char name[BC_IFNAMSIZ], path[256];
	bool named = bc_ifname_from_file(f->name, name);
	int rc;

	if (!named || bc_snapshot_find_bond(snap, name)) {
		for (unsigned int i = 0; i < 1000; i++) {
			snprintf(name, sizeof(name), "bond%u", i);
			if (!bc_snapshot_find_bond(snap, name))
				break;
		}
		if (bc_snapshot_warn(snap, "%s: the file name '%s' %s; the bond is called %s here",
				     f->path, f->name,
				     named ? "names a bond read already"
					   : "is not an interface name",
				     name) < 0)
			return -ENOMEM;
	}
	where(sos, f, path, sizeof(path));
	rc = bc_proc_parse(f->data, f->len, name, snap, &e);
	if (rc == -ENOMEM)
		return rc;
	if (rc)
		return bc_snapshot_warn(snap, "%s: not read: %s", path, e.msg) < 0 ? -ENOMEM : 0;
	snprintf(snap->bonds[snap->n_bonds - 1].origin, sizeof(snap->bonds[0].origin), "%s", path);
	snap->have |= BC_HAVE_PROC;
	return 0;
}

static void free_bond(struct bc_bond *b)
{
	for (size_t j = 0; j < b->n_slaves; j++) {
		free(b->slaves[j].driver_stats);
		free(b->slaves[j].std_stats);
	}
	free(b->slaves);
	free(b->unknown);
	memset(b, 0, sizeof(*b));
}

/*
 * Join listing bond @ipb (in the scratch snapshot) into /proc's @pb: the
 * merge keeps the union in @ipb, then @ipb takes @pb's place and keeps what
 * only /proc knew of the file (its path, unknown lines, a cut slave list).
 */
static int join(struct bc_snapshot *snap, struct bc_bond *pb, struct bc_bond *ipb)
{
	int rc = bc_merge_proc_as(snap, ipb, pb, "ip");

	if (rc < 0)
		return rc;
	snprintf(ipb->origin, sizeof(ipb->origin), "%s", pb->origin);
	if (!ipb->n_unknown) {
		ipb->unknown = pb->unknown;
		ipb->n_unknown = pb->n_unknown;
		pb->unknown = NULL;
		pb->n_unknown = 0;
	}
	if (pb->slaves_incomplete && !ipb->slaves_incomplete) {
		ipb->slaves_incomplete = true;
		memcpy(ipb->incomplete_reason, pb->incomplete_reason,
		       sizeof(ipb->incomplete_reason));
	}
	free_bond(pb);
	*pb = *ipb;
	memset(ipb, 0, sizeof(*ipb));
	return 0;
}

static bool share_a_slave(const struct bc_bond *a, const struct bc_bond *b)
{
	for (size_t i = 0; i < a->n_slaves; i++)
		if (bc_bond_find_slave(b, a->slaves[i].name))
			return true;
	return false;
}

/*
 * /proc's bond for listing bond @ipb: the one of the same name; else, when
 * /proc has no bond of that name, the /proc bond whose name the listing does
 * not know and that lists a slave of @ipb (a file not named after its bond,
 * "status.txt"), renamed after @ipb.  NULL: the listing alone shows it.
 */
static struct bc_bond *match(struct bc_snapshot *snap, size_t n_proc, const struct bc_snapshot *ip,
			     const struct bc_bond *ipb)
{
	struct bc_bond *pb = bc_snapshot_find_bond(snap, ipb->name);

	for (size_t i = 0; !pb && i < n_proc; i++) {
		struct bc_bond *c = &snap->bonds[i];

		if (bc_snapshot_find_bond(ip, c->name) || !share_a_slave(c, ipb))
			continue;
		bc_snapshot_warn(snap,
				 "%s: called %s after the ip listing, which shows the same slaves",
				 c->origin, ipb->name);
		snprintf(c->name, sizeof(c->name), "%s", ipb->name);
		return c;
	}
	return pb;
}

static int load_ip(const struct bc_sos *sos, const struct bc_sos_file *f, struct bc_snapshot *snap)
{
	size_t n_proc = snap->n_bonds;
	struct bc_snapshot tmp = {0};
	struct bc_error e = {0};
	char path[256];
	int rc;

	where(sos, f, path, sizeof(path));
	rc = bc_ip_parse(f->data, f->len, path, &tmp, &e);
	if (rc) {
		bc_snapshot_free(&tmp);
		if (rc == -ENOMEM)
			return rc;
		return bc_snapshot_warn(snap, "%s: not read: %s", path, e.msg) < 0 ? -ENOMEM : 0;
	}
	for (size_t i = 0; i < tmp.n_warnings; i++)
		bc_snapshot_warn(snap, "%s", tmp.warnings[i]);
	snap->lacp_hidden |= tmp.lacp_hidden;
	snap->have |= tmp.have;
	for (size_t i = 0; !rc && i < tmp.n_bonds; i++) {
		struct bc_bond *ipb = &tmp.bonds[i], *pb = match(snap, n_proc, &tmp, ipb);

		if (pb && (size_t)(pb - snap->bonds) >= n_proc) { /* listed twice */
			rc = bc_snapshot_warn(snap, "%s: %s is listed twice; the second is ignored",
					      path, ipb->name);
			continue;
		}
		if (pb) {
			rc = join(snap, pb, ipb);
			continue;
		}
		if (snap->have & BC_HAVE_PROC &&
		    bc_snapshot_warn(snap,
				     "%s: only the ip listing shows it; the report has no "
				     "proc/net/bonding/%s",
				     ipb->name, ipb->name) < 0) {
			rc = -ENOMEM;
			break;
		}
		pb = bc_snapshot_add_bond(snap, ipb->name);
		if (!pb) {
			rc = -ENOMEM;
			break;
		}
		*pb = *ipb;
		memset(ipb, 0, sizeof(*ipb));
	}
	bc_snapshot_free(&tmp);
	return rc;
}

static const struct bc_sos_file *find_file(const struct bc_sos *sos, enum bc_sos_kind kind,
					   const char *name)
{
	for (size_t i = 0; i < sos->n_files; i++)
		if (sos->files[i].kind == kind && !strcmp(sos->files[i].name, name))
			return &sos->files[i];
	return NULL;
}

static void fill(struct bc_u32 *dst, const struct bc_u32 *src)
{
	if (dst->st == BC_NOT_REPORTED)
		*dst = *src;
}

/* ethtool -i and ethtool DEV of one slave: drivers, then link settings cross-checked. */
static int load_ethtool(const struct bc_sos *sos, struct bc_snapshot *snap, struct bc_bond *b,
			struct bc_slave *s)
{
	const struct bc_sos_file *f = find_file(sos, BC_SOS_ETHTOOL_I, s->name);
	struct bc_slave e = {0};
	struct bc_error err = {0};
	int rc;

	if (f && bc_ethtool_i_parse(f->data, f->len, s, &err) < 0 &&
	    bc_snapshot_warn(snap, "%s: not read: %s", f->path, err.msg) < 0)
		return -ENOMEM;
	f = find_file(sos, BC_SOS_ETHTOOL, s->name);
	if (!f)
		return 0;
	bc_error_clear(&err);
	if (bc_ethtool_link_parse(f->data, f->len, &e, &err) < 0)
		return bc_snapshot_warn(snap, "%s: not read: %s", f->path, err.msg) < 0 ? -ENOMEM
											: 0;
	rc = bc_findings_compare_u32(snap, b->name, s->name, "speed_mbps", "ethtool", &e.speed_mbps,
				     "proc", &s->speed_mbps);
	if (rc >= 0)
		rc = bc_findings_compare_u32(snap, b->name, s->name, "duplex", "ethtool", &e.duplex,
					     "proc", &s->duplex);
	if (rc >= 0)
		rc = bc_findings_compare_u32(snap, b->name, s->name, "carrier", "ethtool",
					     &e.carrier, "ip", &s->carrier);
	if (rc < 0)
		return rc;
	fill(&s->speed_mbps, &e.speed_mbps);
	fill(&s->duplex, &e.duplex);
	fill(&s->carrier, &e.carrier);
	fill(&s->autoneg, &e.autoneg);
	fill(&s->port, &e.port);
	return 0;
}

static const struct bc_sos_file *best_ip(const struct bc_sos *sos)
{
	const struct bc_sos_file *best = NULL;

	for (size_t i = 0; i < sos->n_files; i++)
		if (sos->files[i].kind == BC_SOS_IP && (!best || sos->files[i].rank < best->rank))
			best = &sos->files[i];
	return best;
}

static int nothing_found(const struct bc_sos *sos, struct bc_error *err)
{
	size_t n_eth = 0, n_ip = 0, n_proc = 0;

	for (size_t i = 0; i < sos->n_files; i++) {
		n_proc += sos->files[i].kind == BC_SOS_PROC_BOND;
		n_ip += sos->files[i].kind == BC_SOS_IP;
		n_eth += sos->files[i].kind == BC_SOS_ETHTOOL_I ||
			 sos->files[i].kind == BC_SOS_ETHTOOL;
	}
	return bc_error_set(err, -ENOENT,
			    "%s: no bond found: expected proc/net/bonding/<bond> or a bond in "
			    "sos_commands/networking/ip_-d_address (or ip_-s_-d_link, "
			    "ip_-d_link)%s%s; found %zu bonding file(s), %zu ip listing(s), %zu "
			    "ethtool file(s)%s",
			    sos->origin, sos->root[0] ? " below " : "", sos->root, n_proc, n_ip,
			    n_eth, sos->n_notes ? " (see the warnings for what was skipped)" : "");
}

int bc_sos_load(const struct bc_sos *sos, struct bc_snapshot *snap, struct bc_error *err)
{
	const struct bc_sos_file *ip = best_ip(sos);
	int rc = 0;

	snap->source = BC_SRC_SOS;
	for (size_t i = 0; !rc && i < sos->n_notes; i++)
		rc = bc_snapshot_warn(snap, "%s: %s", sos->origin, sos->notes[i]);
	for (size_t i = 0; !rc && i < sos->n_files; i++)
		if (sos->files[i].kind == BC_SOS_PROC_BOND)
			rc = load_proc(sos, &sos->files[i], snap);
	if (!rc && ip)
		rc = load_ip(sos, ip, snap);
	for (size_t i = 0; !rc && i < snap->n_bonds; i++)
		for (size_t j = 0; !rc && j < snap->bonds[i].n_slaves; j++)
			rc = load_ethtool(sos, snap, &snap->bonds[i], &snap->bonds[i].slaves[j]);
	if (rc)
		return rc;
	if (!snap->n_bonds)
		return nothing_found(sos, err);
	return 0;
}

int bc_sos_inspect(const char *path, struct bc_snapshot *snap, struct bc_error *err)
{
	struct bc_sos sos = {0};
	int rc = bc_sos_read(path, &sos, err);

	if (!rc)
		rc = bc_sos_load(&sos, snap, err);
	bc_sos_free(&sos);
	return rc;
}
