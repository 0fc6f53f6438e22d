// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reader of `inspect -j` documents for the fleet report (fleet.h): the
 * only fleet code that touches json-c.  Members as docs/inspect-json.md
 * defines them (schema 1 and 2; `host` since schema 3).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/fleet.h"

/* FNV-1a of a host name (http://www.isthe.com/chongo/tech/comp/fnv/). */
static size_t name_hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)h;
}

/* The slot of @name in f->slot: its host, or the empty slot it would take. */
static size_t *slot_of(struct bc_fleet *f, const char *name)
{
	size_t i = name_hash(name) & (f->n_slots - 1);

	while (f->slot[i] && strcmp(f->host[f->slot[i] - 1].host, name))
		i = (i + 1) & (f->n_slots - 1);
	return &f->slot[i];
}

/* Keeps the index at most half full (rebuilt from the hosts when it grows). */
static int index_grow(struct bc_fleet *f)
{
	size_t n = f->n_slots ? f->n_slots : 128;

	if (2 * (f->n_hosts + 1) <= f->n_slots)
		return 0;
	while (2 * (f->n_hosts + 1) > n)
		n *= 2;
	free(f->slot);
	f->slot = calloc(n, sizeof(*f->slot));
	if (!f->slot) {
		f->n_slots = 0;
		return -ENOMEM;
	}
	f->n_slots = n;
	for (size_t i = 0; i < f->n_hosts; i++)
		*slot_of(f, f->host[i].host) = i + 1;
	return 0;
}

static struct bc_fleet_host *new_host(struct bc_fleet *f, const char *name, const char *origin,
				      int *rc)
{
	struct bc_fleet_host *h;
	size_t *slot;

	*rc = index_grow(f);
	if (*rc)
		return NULL;
	slot = slot_of(f, name);
	if (*slot) {
		*rc = -EEXIST;
		return NULL;
	}
	if (f->n_hosts == f->cap_hosts) {
		size_t c = f->cap_hosts ? f->cap_hosts * 2 : 64;
		void *p = realloc(f->host, c * sizeof(*f->host));

		if (!p) {
			*rc = -ENOMEM;
			return NULL;
		}
		f->host = p;
		f->cap_hosts = c;
	}
	h = &f->host[f->n_hosts++];
	*slot = f->n_hosts;
	memset(h, 0, sizeof(*h));
	snprintf(h->host, sizeof(h->host), "%s", name);
	snprintf(h->origin, sizeof(h->origin), "%s", origin ? origin : "");
	return h;
}

int bc_fleet_add_failed(struct bc_fleet *f, const char *host, const char *origin, const char *why)
{
	int rc;
	struct bc_fleet_host *h = new_host(f, host, origin, &rc);

	if (!h)
		return rc;
	h->failed = true;
	snprintf(h->why, sizeof(h->why), "%s", why);
	return 0;
}

/*
 * Member @key of @o as compared text: an integer printed, a string kept;
 * false (and @out "") when absent, null, or of another type.
 */
static bool scalar_text(struct bc_doc_read *r, struct json_object *o, const char *key, char *out,
			size_t len)
{
	struct json_object *v = bc_doc_member(r, o, "", key, BC_DOC_OPTIONAL);

	out[0] = '\0';
	if (v && json_object_is_type(v, json_type_int)) {
		snprintf(out, len, "%lld", (long long)json_object_get_int64(v));
		return true;
	}
	if (v && json_object_is_type(v, json_type_string))
		return bc_doc_str(r, o, "", key, BC_DOC_OPTIONAL, out, len);
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The distinct values of member @key over the bond's slaves, sorted and
 * joined ("e1000e", "8139cp, e1000e"): what the slaves are, not how many
 * (slave_count is compared on its own, so one missing slave is one drift,
 * not one per attribute).  "" when any slave lacks the member (an offline
 * source has no drivers: nothing to compare) or there are no slaves.
 */
static void slave_list(struct bc_doc_read *r, struct json_object *slaves, size_t n,
		       const char *key, char *out, size_t len)
{
	char buf[BC_FLEET_MAX_SLAVES][40], *v[BC_FLEET_MAX_SLAVES];
	size_t used = 0;

	out[0] = '\0';
	if (!n || n > BC_FLEET_MAX_SLAVES)
		return;
	for (size_t i = 0; i < n; i++) {
		v[i] = buf[i];
		if (!scalar_text(r, json_object_array_get_idx(slaves, i), key, buf[i],
				 sizeof(buf[i]))) {
			out[0] = '\0';
			return;
		}
	}
	qsort(v, n, sizeof(*v), cmp_str);
	for (size_t i = 0; i < n && used < len; i++) {
		int w;

		if (i && !strcmp(v[i], v[i - 1]))
			continue;
		w = snprintf(out + used, len - used, "%s%s", used ? ", " : "", v[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* A bond member as the compared value: numbers printed, strings kept, "" unknown. */
static void member(struct bc_doc_read *r, struct json_object *b, const char *key, char *out,
		   size_t len)
{
	scalar_text(r, b, key, out, len);
}

static int read_bond(struct bc_doc_read *r, struct json_object *b, const char *path,
		     struct bc_fleet_bond *fb)
{
	struct json_object *slaves, *fs;
	size_t n = 0, nf = 0;
	char (*v)[BC_FLEET_VALUE_LEN] = fb->value;

	bc_doc_str(r, b, path, "name", BC_DOC_REQUIRED, fb->name, sizeof(fb->name));
	bc_doc_str(r, b, path, "mode", BC_DOC_OPTIONAL, fb->mode, sizeof(fb->mode));
	bc_doc_bool(r, b, path, "slaves_incomplete", BC_DOC_OPTIONAL, &fb->slaves_incomplete);
	slaves = bc_doc_array(r, b, path, "slaves", BC_DOC_REQUIRED, &n);
	if (n) {
		fb->slaves = calloc(n, sizeof(*fb->slaves));
		if (!fb->slaves)
			return -ENOMEM;
		fb->n_slaves = n;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(slaves, i), *pdu;

		bc_doc_str(r, s, "", "name", BC_DOC_OPTIONAL, fb->slaves[i].name,
			   sizeof(fb->slaves[i].name));
		pdu = bc_doc_member(r, s, "", "actor_lacpdu", BC_DOC_OPTIONAL);
		bc_doc_str(r, pdu, "", "system_mac", BC_DOC_OPTIONAL, fb->slaves[i].actor_system,
			   sizeof(fb->slaves[i].actor_system));
	}
	if (!fb->slaves_incomplete) {
		snprintf(v[BC_FLEET_SLAVE_COUNT], BC_FLEET_VALUE_LEN, "%zu", n);
		slave_list(r, slaves, n, "driver", v[BC_FLEET_DRIVER], BC_FLEET_VALUE_LEN);
		slave_list(r, slaves, n, "driver_version", v[BC_FLEET_DRIVER_VERSION],
			   BC_FLEET_VALUE_LEN);
		slave_list(r, slaves, n, "firmware_version", v[BC_FLEET_FIRMWARE],
			   BC_FLEET_VALUE_LEN);
		slave_list(r, slaves, n, "speed_mbps", v[BC_FLEET_SPEED], BC_FLEET_VALUE_LEN);
		slave_list(r, slaves, n, "mtu", v[BC_FLEET_SLAVE_MTU], BC_FLEET_VALUE_LEN);
	}
	member(r, b, "mtu", v[BC_FLEET_MTU], BC_FLEET_VALUE_LEN);
	member(r, b, "miimon_ms", v[BC_FLEET_MIIMON], BC_FLEET_VALUE_LEN);
	member(r, b, "arp_interval_ms", v[BC_FLEET_ARP_INTERVAL], BC_FLEET_VALUE_LEN);
	member(r, b, "lacp_rate", v[BC_FLEET_LACP_RATE], BC_FLEET_VALUE_LEN);
	member(r, b, "xmit_hash_policy", v[BC_FLEET_XMIT_HASH_POLICY], BC_FLEET_VALUE_LEN);
	member(r, b, "ad_select", v[BC_FLEET_AD_SELECT], BC_FLEET_VALUE_LEN);
	fs = bc_doc_array(r, b, path, "findings", BC_DOC_OPTIONAL, &nf);
	if (nf) {
		fb->findings = calloc(nf, sizeof(*fb->findings));
		if (!fb->findings)
			return -ENOMEM;
	}
	for (size_t i = 0; i < nf; i++) {
		struct bc_fleet_inspect_finding *x = &fb->findings[fb->n_findings];
		char sev[16] = "";

		bc_doc_str(r, json_object_array_get_idx(fs, i), "", "severity", BC_DOC_OPTIONAL, sev,
			   sizeof(sev));
		if (!strcmp(sev, "error"))
			fb->n_error++;
		else if (!strcmp(sev, "warning"))
			fb->n_warning++;
		else
			fb->n_info++;
		/* the id, for the heatmap of --plot; a finding without one is counted only */
		if (bc_doc_str(r, json_object_array_get_idx(fs, i), "", "id", BC_DOC_OPTIONAL, x->id,
			       sizeof(x->id)) &&
		    x->id[0]) {
			x->severity = !strcmp(sev, "error") ? 2 : !strcmp(sev, "warning") ? 1 : 0;
			fb->n_findings++;
		}
	}
	return 0;
}

int bc_fleet_read_doc(struct bc_fleet *f, struct json_object *doc, const char *host_hint,
		      const char *origin)
{
	struct bc_doc_read r;
	struct json_object *err, *bonds;
	char name[BC_HOST_LEN] = "";
	struct bc_fleet_host *h;
	size_t n = 0;
	int rc;

	bc_doc_read_init(&r);
	if (!bc_doc_str(&r, doc, "", "host", BC_DOC_OPTIONAL, name, sizeof(name)) || !name[0])
		snprintf(name, sizeof(name), "%s", host_hint ? host_hint : "");
	if (!name[0])
		snprintf(name, sizeof(name), "%s", "(unnamed)");
	h = new_host(f, name, origin, &rc);
	if (!h)
		return rc;
	err = bc_doc_member(&r, doc, "", "error", BC_DOC_OPTIONAL);
	if (err) {
		char kind[32] = "?", msg[200] = "";
		int64_t code = -1;

		bc_doc_i64(&r, err, "error", "exit", BC_DOC_OPTIONAL, &code);
		bc_doc_str(&r, err, "error", "kind", BC_DOC_OPTIONAL, kind, sizeof(kind));
		/* a long message is cut, not dropped */
		struct json_object *m = bc_doc_member(&r, err, "error", "message", BC_DOC_OPTIONAL);

		if (m && json_object_is_type(m, json_type_string))
			snprintf(msg, sizeof(msg), "%s", json_object_get_string(m));
		h->failed = true;
		snprintf(h->why, sizeof(h->why), "inspect failed (%s, exit %lld): %s", kind,
			 (long long)code, msg);
		return 0;
	}
	bc_doc_str(&r, doc, "", "kernel_release", BC_DOC_OPTIONAL, h->kernel_release,
		   sizeof(h->kernel_release));
	bonds = bc_doc_array(&r, doc, "", "bonds", BC_DOC_REQUIRED, &n);
	if (!bonds) {
		char text[220];

		h->failed = true;
		snprintf(h->why, sizeof(h->why), "not an inspect -j document: %s",
			 bc_doc_problems_text(&r, text, sizeof(text)));
		return 0;
	}
	if (n) {
		h->bonds = calloc(n, sizeof(*h->bonds));
		if (!h->bonds)
			return -ENOMEM;
		h->n_bonds = n;
	}
	for (size_t i = 0; i < n; i++) {
		char path[32];

		bc_doc_path(path, sizeof(path), "bonds", NULL, i);
		rc = read_bond(&r, json_object_array_get_idx(bonds, i), path, &h->bonds[i]);
		if (rc)
			return rc;
	}
	if (r.n_problems) {
		char text[220];

		/* a bond without a name or slave list cannot be compared */
		h->failed = true;
		snprintf(h->why, sizeof(h->why), "malformed inspect -j document: %s",
			 bc_doc_problems_text(&r, text, sizeof(text)));
	}
	return 0;
}
