// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck fleet -j` (fleet-report.h; layout in docs/fleet.md).
 */
#include <stdbool.h>
#include <string.h>

#include <json-c/json.h>

#include "bondcheck/fleet-report.h"

void bc_fleet_count(const struct bc_fleet *f, struct bc_fleet_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->missing = f->n_missing;
	for (size_t i = 0; i < f->n_hosts; i++) {
		const struct bc_fleet_host *h = &f->host[i];
		bool err = false;

		c->read += !h->failed;
		c->failed += h->failed;
		for (size_t b = 0; !h->failed && b < h->n_bonds; b++)
			err = err || h->bonds[b].n_error;
		c->with_errors += err;
	}
	for (size_t i = 0; i < f->n_findings; i++) {
		const char *sev = "";

		bc_fleet_kind_id(f->finding[i].kind, &sev);
		c->errors += !strcmp(sev, "error");
		switch (f->finding[i].kind) {
		case BC_FLEET_DRIFT:
			c->drift++;
			break;
		case BC_FLEET_DIFFERS:
			c->differs++;
			break;
		case BC_FLEET_BOND_ALONE:
			c->alone++;
			break;
		case BC_FLEET_DUP_ACTOR:
			c->dup_actor++;
			break;
		default:
			break;
		}
	}
}

static struct json_object *str_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

static struct json_object *finding_json(const struct bc_fleet_finding *x)
{
	struct json_object *o = json_object_new_object(), *hosts = json_object_new_array();
	const char *sev = "";
	const char *id = bc_fleet_kind_id(x->kind, &sev);

	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "severity", json_object_new_string(sev));
	json_object_object_add(o, "bond", str_or_null(x->bond));
	json_object_object_add(o, "mode", str_or_null(x->mode));
	json_object_object_add(o, "attribute", str_or_null(bc_fleet_attr_name(x->attr)));
	json_object_object_add(o, "kernel_release", str_or_null(x->kernel_release));
	json_object_object_add(o, "value", str_or_null(x->value));
	json_object_object_add(o, "majority", str_or_null(x->majority));
	json_object_object_add(o, "majority_hosts",
			       x->majority[0] ? json_object_new_int64(x->majority_hosts) : NULL);
	json_object_object_add(o, "group_hosts",
			       x->group_hosts ? json_object_new_int64(x->group_hosts) : NULL);
	json_object_object_add(o, "detail", str_or_null(x->detail));
	for (size_t k = 0; k < x->n_hosts; k++)
		json_object_array_add(hosts, json_object_new_string(x->hosts[k]));
	json_object_object_add(o, "hosts", hosts);
	return o;
}

static struct json_object *bond_json(const struct bc_fleet_bond *b)
{
	struct json_object *o = json_object_new_object(), *v = json_object_new_object(),
			   *n = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(b->name));
	json_object_object_add(o, "mode", str_or_null(b->mode));
	json_object_object_add(o, "slaves_incomplete", json_object_new_boolean(b->slaves_incomplete));
	for (int a = 0; a < BC_FLEET_N_ATTRS; a++)
		json_object_object_add(v, bc_fleet_attr_name(a), str_or_null(b->value[a]));
	json_object_object_add(o, "values", v);
	json_object_object_add(n, "error", json_object_new_int64(b->n_error));
	json_object_object_add(n, "warning", json_object_new_int64(b->n_warning));
	json_object_object_add(n, "info", json_object_new_int64(b->n_info));
	json_object_object_add(o, "finding_counts", n);
	return o;
}

struct json_object *bc_fleet_json(const struct bc_fleet *f, const char *generated_at)
{
	struct json_object *o = json_object_new_object(), *hosts = json_object_new_array(),
			   *fs = json_object_new_array(), *cnt = json_object_new_object();
	struct bc_fleet_counts c;

	bc_fleet_count(f, &c);
	json_object_object_add(o, "schema_version", json_object_new_int(BC_FLEET_JSON_SCHEMA));
	json_object_object_add(o, "bondcheck_version", json_object_new_string(BC_VERSION));
	json_object_object_add(o, "generated_at", str_or_null(generated_at));
	json_object_object_add(cnt, "hosts_read", json_object_new_int64((int64_t)c.read));
	json_object_object_add(cnt, "hosts_failed", json_object_new_int64((int64_t)c.failed));
	json_object_object_add(cnt, "hosts_missing", json_object_new_int64((int64_t)c.missing));
	json_object_object_add(cnt, "hosts_with_errors",
			       json_object_new_int64((int64_t)c.with_errors));
	json_object_object_add(cnt, "drift", json_object_new_int64((int64_t)c.drift));
	json_object_object_add(cnt, "differs", json_object_new_int64((int64_t)c.differs));
	json_object_object_add(o, "counts", cnt);
	for (size_t i = 0; i < f->n_findings; i++)
		json_object_array_add(fs, finding_json(&f->finding[i]));
	json_object_object_add(o, "findings", fs);
	for (size_t i = 0; i < f->n_hosts; i++) {
		const struct bc_fleet_host *h = &f->host[i];
		struct json_object *ho = json_object_new_object(), *bs = json_object_new_array();

		json_object_object_add(ho, "host", json_object_new_string(h->host));
		json_object_object_add(ho, "origin", str_or_null(h->origin));
		json_object_object_add(ho, "kernel_release", str_or_null(h->kernel_release));
		json_object_object_add(ho, "failed", json_object_new_boolean(h->failed));
		json_object_object_add(ho, "why", str_or_null(h->why));
		for (size_t b = 0; !h->failed && b < h->n_bonds; b++)
			json_object_array_add(bs, bond_json(&h->bonds[b]));
		json_object_object_add(ho, "bonds", bs);
		json_object_array_add(hosts, ho);
	}
	json_object_object_add(o, "hosts", hosts);
	return o;
}
