// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The egress bond's slaves in run metadata, from the live collector
 * (src/collect/): settings before the run, driver counters as deltas over
 * it.  See bond-meta.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/inspect-report.h"
#include "bondcheck/collect.h"
#include "bondcheck/names.h"
#include "traffic/bond-meta.h"
#include "traffic/egress.h"

int bc_bond_collect(const char *name, struct bc_snapshot *snap, struct bc_error *err)
{
	const char *names[1] = {name};
	struct bc_collect_opts o = {.bonds = names, .n_bonds = 1};
	int rc;

	rc = bc_collect_snapshot(&o, snap, err);
	if (rc == 0 && snap->n_bonds != 1)
		rc = bc_error_set(err, -ENOENT, "the collector returned no bond %s", name);
	return rc;
}

void bc_bond_meta_begin(struct bc_bond_meta *m, const struct sockaddr_storage *local)
{
	struct bc_egress e;

	memset(m, 0, sizeof(*m));
	if (bc_egress_find(local, &e) < 0 || !e.is_bond)
		return;
	m->is_bond = true;
	snprintf(m->name, sizeof(m->name), "%s", e.dev.name);
	m->rc_before = bc_bond_collect(m->name, &m->before, &m->err);
}

void bc_bond_meta_end(struct bc_bond_meta *m)
{
	struct bc_error e = {0};

	if (!m->is_bond || m->rc_before)
		return;
	m->rc_after = bc_bond_collect(m->name, &m->after, &e);
	if (m->rc_after)
		m->err = e;
}

static struct json_object *ju32(const struct bc_u32 *f)
{
	return f->st == BC_KNOWN ? json_object_new_int64(f->v) : NULL;
}

static struct json_object *jtext(const char *s)
{
	return s[0] ? json_object_new_string(s) : NULL;
}

/* {"a": u32|null, ...} from name/field pairs; NULL-terminated. */
static struct json_object *u32s(const char *const *names, const struct bc_u32 *const *f)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; names[i]; i++)
		json_object_object_add(o, names[i], ju32(f[i]));
	return o;
}

/*
 * {name: after - before} over the counters of @a (after the run); a
 * counter missing before counts from 0, one that went backwards (driver
 * reset) is reported as its after value.
 */
static struct json_object *counter_deltas(const struct bc_counter *b, size_t nb,
					  const struct bc_counter *a, size_t na)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; i < na; i++) {
		uint64_t before = 0;

		if (i < nb && !strcmp(b[i].name, a[i].name))
			before = b[i].value;
		else
			for (size_t j = 0; j < nb; j++)
				if (!strcmp(b[j].name, a[i].name)) {
					before = b[j].value;
					break;
				}
		json_object_object_add(o, a[i].name,
				       json_object_new_uint64(a[i].value >= before
								      ? a[i].value - before
								      : a[i].value));
	}
	return o;
}

static struct json_object *slave_json(const struct bc_slave *s, const struct bc_slave *after)
{
	struct json_object *o = json_object_new_object();
	static const char *const ring_n[] = {"rx", "rx_max", "tx", "tx_max", NULL};
	static const char *const chan_n[] = {"rx", "tx", "combined", NULL};
	static const char *const coal_n[] = {"rx_usecs", "tx_usecs", NULL};
	static const char *const pause_n[] = {"rx", "tx", "autoneg", NULL};
	const struct bc_u32 *ring_f[] = {&s->rx_ring, &s->rx_ring_max, &s->tx_ring,
					 &s->tx_ring_max};
	const struct bc_u32 *chan_f[] = {&s->rx_channels, &s->tx_channels,
					 &s->combined_channels};
	const struct bc_u32 *coal_f[] = {&s->rx_usecs, &s->tx_usecs};
	const struct bc_u32 *pause_f[] = {&s->pause_rx, &s->pause_tx, &s->pause_autoneg};

	json_object_object_add(o, "name", json_object_new_string(s->name));
	/* the slave's MII status before the run and after it (a slave that went down) */
	json_object_object_add(o, "mii_status_before",
			       bc_u32_known(&s->mii_status)
				       ? json_object_new_string(bc_link_status_name((int)s->mii_status.v))
				       : NULL);
	json_object_object_add(
		o, "mii_status",
		after && bc_u32_known(&after->mii_status)
			? json_object_new_string(bc_link_status_name((int)after->mii_status.v))
			: NULL);
	/* bonding's own count of this slave's link failures (miimon/ARP) over the run */
	if (after && bc_u32_known(&s->link_failure_count) &&
	    bc_u32_known(&after->link_failure_count))
		json_object_object_add(o, "link_failures",
				       json_object_new_int64((int64_t)after->link_failure_count.v -
							     (int64_t)s->link_failure_count.v));
	json_object_object_add(o, "driver", jtext(s->driver));
	json_object_object_add(o, "driver_version", jtext(s->driver_version));
	json_object_object_add(o, "firmware_version", jtext(s->fw_version));
	json_object_object_add(o, "bus_info", jtext(s->bus_info));
	json_object_object_add(o, "mtu", ju32(&s->mtu));
	json_object_object_add(o, "speed_mbps", ju32(&s->speed_mbps));
	json_object_object_add(o, "offloads", bc_inspect_json_offloads(&s->offloads));
	json_object_object_add(o, "rings", u32s(ring_n, ring_f));
	json_object_object_add(o, "channels", u32s(chan_n, chan_f));
	json_object_object_add(o, "coalesce", u32s(coal_n, coal_f));
	json_object_object_add(o, "pause", u32s(pause_n, pause_f));
	json_object_object_add(o, "driver_counters",
			       after ? counter_deltas(s->driver_stats, s->n_driver_stats,
						      after->driver_stats, after->n_driver_stats)
				     : NULL);
	json_object_object_add(o, "standard_counters",
			       after ? counter_deltas(s->std_stats, s->n_std_stats,
						      after->std_stats, after->n_std_stats)
				     : NULL);
	return o;
}

struct json_object *bc_bond_meta_json(const struct bc_bond_meta *m)
{
	struct json_object *o, *a;
	const struct bc_bond *b, *ba;

	if (!m->is_bond)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "bond", json_object_new_string(m->name));
	json_object_object_add(o, "source", json_object_new_string("collector"));
	if (m->rc_before) {
		json_object_object_add(o, "error", json_object_new_string(m->err.msg));
		return o;
	}
	b = &m->before.bonds[0];
	ba = m->rc_after ? NULL : &m->after.bonds[0];
	json_object_object_add(o, "kernel_release", jtext(m->before.kernel_release));
	a = json_object_new_array();
	for (size_t i = 0; i < m->before.n_warnings; i++)
		json_object_array_add(a, json_object_new_string(m->before.warnings[i]));
	if (m->rc_after)
		json_object_array_add(
			a, json_object_new_string("counters after the run not read: no deltas"));
	json_object_object_add(o, "warnings", a);
	a = json_object_new_array();
	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *after = NULL;

		for (size_t j = 0; ba && j < ba->n_slaves; j++)
			if (!strcmp(ba->slaves[j].name, b->slaves[i].name))
				after = &ba->slaves[j];
		json_object_array_add(a, slave_json(&b->slaves[i], after));
	}
	json_object_object_add(o, "slaves", a);
	return o;
}

void bc_bond_meta_free(struct bc_bond_meta *m)
{
	bc_snapshot_free(&m->before);
	bc_snapshot_free(&m->after);
}
