// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON renderer of `inspect`, built with json-c.  The layout is documented
 * in docs/inspect-json.md; keep the two in step and bump
 * BC_INSPECT_JSON_SCHEMA on an incompatible change.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "bondcheck/findings.h"
#include "bondcheck/inspect-report.h"
#include "bondcheck/names.h"
#include "bondcheck/text.h"

/* A string member; invalid UTF-8 bytes become '?' so the document stays valid. */
static struct json_object *jstr(const char *s)
{
	char buf[512];

	if (!s)
		return NULL;
	bc_utf8_sanitize(buf, sizeof(buf), s, strlen(s), '?');
	return json_object_new_string(buf);
}

static void put(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v); /* NULL v is JSON null */
}

static struct json_object *ju32(const struct bc_u32 *f)
{
	return f->st == BC_KNOWN ? json_object_new_int64(f->v) : NULL;
}

static struct json_object *jstatus(uint8_t st)
{
	return json_object_new_string(bc_field_status_name(st));
}

static struct json_object *jbstr(const struct bc_str *f)
{
	return f->st == BC_KNOWN ? jstr(f->v) : NULL;
}

/* A name from a names.h table, or null when unknown / out of range. */
static struct json_object *jname(const struct bc_u32 *f, const char *(*name)(int))
{
	const char *n;

	if (f->st != BC_KNOWN)
		return NULL;
	n = name((int)f->v);
	return n ? json_object_new_string(n) : NULL;
}

static const char *onoff_name(int v)
{
	return v ? "on" : "off";
}

static const char *duplex_name(int v)
{
	return v ? "full" : "half";
}

static const char *churn_name(int v)
{
	return bc_churn_name(v);
}

static struct json_object *jtext(const char *s)
{
	return s && *s ? jstr(s) : NULL;
}

/* Port state: number, status and decoded words (null unless known). */
static void put_state(struct json_object *o, const char *key, const struct bc_u32 *f)
{
	char k[64], words[112];
	struct json_object *arr = NULL;

	put(o, key, ju32(f));
	snprintf(k, sizeof(k), "%s_status", key);
	put(o, k, jstatus(f->st));
	if (f->st == BC_KNOWN) {
		char *save = NULL;

		arr = json_object_new_array();
		bc_lacp_state_words(f->v, words, sizeof(words));
		for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
			json_object_array_add(arr, json_object_new_string(w));
	}
	snprintf(k, sizeof(k), "%s_words", key);
	put(o, k, arr);
}

/* "details actor/partner lacp pdu" block, or null when nothing of it is known. */
static struct json_object *lacpdu(const struct bc_lacp_port *p, const char *key_name)
{
	struct json_object *o;

	if (p->system_priority.st == BC_NOT_REPORTED && p->port_state.st == BC_NOT_REPORTED)
		return NULL;
	o = json_object_new_object();
	put(o, "status", jstatus(p->port_state.st));
	put(o, "system_priority", ju32(&p->system_priority));
	put(o, "system_mac", jbstr(&p->system_mac));
	put(o, key_name, ju32(&p->key));
	put(o, "port_priority", ju32(&p->port_priority));
	put(o, "port_number", ju32(&p->port_number));
	put(o, "port_state", ju32(&p->port_state));
	return o;
}

struct json_object *bc_inspect_json_offloads(const struct bc_offloads *x)
{
	const struct {
		const char *name;
		const struct bc_u32 *f;
	} feats[] = {
		{"tso", &x->tso},	  {"tso6", &x->tso6}, {"gso", &x->gso},
		{"gro", &x->gro},	  {"lro", &x->lro},   {"rx_csum", &x->rx_csum},
		{"tx_csum", &x->tx_csum}, {"sg", &x->sg},
	};
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
		put(o, feats[i].name,
		    feats[i].f->st == BC_KNOWN ? json_object_new_boolean(feats[i].f->v != 0)
					       : NULL);
	return o;
}

static struct json_object *slave_json(const struct bc_slave *s)
{
	struct json_object *o = json_object_new_object();

	put(o, "name", jstr(s->name));
	put(o, "driver", jtext(s->driver));
	put(o, "driver_version", jtext(s->driver_version));
	put(o, "firmware_version", jtext(s->fw_version));
	put(o, "bus_info", jtext(s->bus_info));
	put(o, "mii_status", jname(&s->mii_status, bc_link_status_name));
	put(o, "speed_mbps", ju32(&s->speed_mbps));
	put(o, "speed_status", jstatus(s->speed_mbps.st));
	put(o, "duplex", jname(&s->duplex, duplex_name));
	put(o, "duplex_status", jstatus(s->duplex.st));
	put(o, "link_failure_count", ju32(&s->link_failure_count));
	put(o, "perm_hwaddr", jbstr(&s->perm_hwaddr));
	put(o, "queue_id", ju32(&s->queue_id));
	put(o, "mtu", ju32(&s->mtu));
	put(o, "carrier",
	    bc_u32_known(&s->carrier) ? json_object_new_boolean(s->carrier.v != 0) : NULL);
	put(o, "offloads", bc_inspect_json_offloads(&s->offloads));
	put(o, "aggregator_id", ju32(&s->aggregator_id));
	put(o, "aggregator_id_status", jstatus(s->aggregator_id.st));
	put_state(o, "actor_port_state", &s->actor_oper_port_state);
	put_state(o, "partner_port_state", &s->partner_oper_port_state);
	put(o, "actor_churn_state", jname(&s->actor_churn_state, churn_name));
	put(o, "partner_churn_state", jname(&s->partner_churn_state, churn_name));
	put(o, "actor_churned_count", ju32(&s->actor_churned_count));
	put(o, "partner_churned_count", ju32(&s->partner_churned_count));
	put(o, "actor_lacpdu", lacpdu(&s->actor, "port_key"));
	put(o, "partner_lacpdu", lacpdu(&s->partner, "oper_key"));
	return o;
}

/* Evidence values that are plain non-negative integers become JSON numbers. */
static struct json_object *evidence_value(const char *v)
{
	size_t n = strlen(v);

	if (n && n < 16 && strspn(v, "0123456789") == n && (n == 1 || v[0] != '0'))
		return json_object_new_int64(strtoll(v, NULL, 10));
	return jstr(v);
}

static struct json_object *finding_json(const struct bc_finding *f)
{
	struct json_object *o = json_object_new_object();
	struct json_object *ev = json_object_new_object();

	put(o, "id", json_object_new_string(f->id));
	put(o, "severity", json_object_new_string(bc_severity_name(f->severity)));
	put(o, "subject", jstr(f->subject));
	for (size_t i = 0; i < f->n_evidence; i++)
		put(ev, f->evidence[i].key, evidence_value(f->evidence[i].value));
	put(o, "evidence", ev);
	put(o, "advice", jstr(f->advice));
	return o;
}

static struct json_object *targets(const char *base, size_t width, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, jstr(base + i * width));
	return a;
}

static void put_bond_options(struct json_object *o, const struct bc_bond *b)
{
	put(o, "mode", jname(&b->mode, bc_mode_name));
	put(o, "mode_number", ju32(&b->mode));
	put(o, "xmit_hash_policy", jtext(b->xmit_hash_policy_name));
	put(o, "xmit_hash_policy_number", ju32(&b->xmit_hash_policy));
	put(o, "mii_status", jname(&b->mii_status, bc_link_status_name));
	put(o, "miimon_ms", ju32(&b->miimon_ms));
	put(o, "updelay_ms", ju32(&b->updelay_ms));
	put(o, "downdelay_ms", ju32(&b->downdelay_ms));
	put(o, "peer_notif_delay_ms", ju32(&b->peer_notif_delay_ms));
	put(o, "arp_interval_ms", ju32(&b->arp_interval_ms));
	put(o, "arp_missed_max", ju32(&b->arp_missed_max));
	put(o, "arp_ip_targets",
	    targets(&b->arp_targets[0][0], sizeof(b->arp_targets[0]), b->n_arp_targets));
	put(o, "ns_ip6_targets",
	    targets(&b->ns_targets[0][0], sizeof(b->ns_targets[0]), b->n_ns_targets));
	put(o, "primary", jbstr(&b->primary));
	put(o, "primary_status", jstatus(b->primary.st));
	put(o, "primary_reselect", jname(&b->primary_reselect, bc_primary_reselect_name));
	put(o, "active_slave", jbstr(&b->active_slave));
	put(o, "active_slave_status", jstatus(b->active_slave.st));
	put(o, "fail_over_mac", jname(&b->fail_over_mac, bc_fail_over_mac_name));
	put(o, "min_links", ju32(&b->min_links));
	put(o, "mtu", ju32(&b->mtu));
	put(o, "lacp_active", jname(&b->lacp_active, onoff_name));
	put(o, "lacp_rate", jname(&b->lacp_rate, bc_lacp_rate_name));
	put(o, "ad_select", jname(&b->ad_select, bc_ad_select_name));
	put(o, "ad_actor_sys_prio", ju32(&b->ad_actor_sys_prio));
	put(o, "ad_actor_system", jbstr(&b->ad_actor_system));
}

static struct json_object *ad_info(const struct bc_bond *b)
{
	struct json_object *o = json_object_new_object();

	put(o, "status", jstatus(b->ad_info_status));
	put(o, "aggregator_id", ju32(&b->ad_aggregator_id));
	put(o, "num_ports", ju32(&b->ad_num_ports));
	put(o, "actor_key", ju32(&b->ad_actor_key));
	put(o, "partner_key", ju32(&b->ad_partner_key));
	put(o, "partner_mac", jbstr(&b->ad_partner_mac));
	return o;
}

static struct json_object *bond_json(const struct bc_snapshot *snap, const struct bc_bond *b)
{
	struct json_object *o = json_object_new_object();
	struct json_object *arr;

	put(o, "name", jstr(b->name));
	put(o, "origin", jtext(b->origin));
	/* schema 2: a source that shows only part of the bond (issue 13) */
	put(o, "slaves_incomplete", json_object_new_boolean(b->slaves_incomplete));
	put(o, "incomplete_reason", b->slaves_incomplete ? jtext(b->incomplete_reason) : NULL);
	put(o, "driver_version", jtext(b->driver_version));
	put_bond_options(o, b);
	put(o, "ad_info", ad_info(b));
	arr = json_object_new_array();
	for (size_t i = 0; i < b->n_unknown; i++) {
		struct json_object *kv = json_object_new_object();

		put(kv, "key", jstr(b->unknown[i].key));
		put(kv, "value", jstr(b->unknown[i].value));
		json_object_array_add(arr, kv);
	}
	put(o, "unknown_keys", arr);
	arr = json_object_new_array();
	for (size_t i = 0; i < b->n_slaves; i++)
		json_object_array_add(arr, slave_json(&b->slaves[i]));
	put(o, "slaves", arr);
	arr = json_object_new_array();
	for (size_t i = 0; i < snap->n_findings; i++)
		if (bc_finding_is_about(&snap->findings[i], b->name))
			json_object_array_add(arr, finding_json(&snap->findings[i]));
	put(o, "findings", arr);
	return o;
}

static const char *source_name(enum bc_source_kind k)
{
	switch (k) {
	case BC_SRC_PROC_FILE:
		return "proc-file";
	case BC_SRC_REPLAY:
		return "replay";
	case BC_SRC_IP_FILE:
		return "ip-file";
	case BC_SRC_SOS:
		return "sosreport";
	default:
		return "live";
	}
}

struct json_object *bc_inspect_json_build(const struct bc_snapshot *snap,
					  const struct bc_inspect_render_opts *opts)
{
	struct json_object *root = json_object_new_object();
	struct json_object *arr;

	if (!root)
		return NULL;
	put(root, "schema_version", json_object_new_int(BC_INSPECT_JSON_SCHEMA));
	put(root, "bondcheck_version",
	    json_object_new_string(opts && opts->version ? opts->version : BC_VERSION));
	put(root, "generated_at", opts && opts->generated_at ? jstr(opts->generated_at) : NULL);
	put(root, "host", opts && opts->host && *opts->host ? jstr(opts->host) : NULL);
	put(root, "source", json_object_new_string(source_name(snap->source)));
	put(root, "netns", jtext(snap->netns));
	put(root, "kernel_release", jtext(snap->kernel_release));
	put(root, "lacp_hidden", json_object_new_boolean(snap->lacp_hidden));
	put(root, "tcp_reordering", ju32(&snap->tcp_reordering));
	arr = json_object_new_array();
	for (size_t i = 0; i < snap->n_warnings; i++)
		json_object_array_add(arr, jstr(snap->warnings[i]));
	put(root, "warnings", arr);
	arr = json_object_new_array();
	for (size_t i = 0; i < snap->n_bonds; i++)
		json_object_array_add(arr, bond_json(snap, &snap->bonds[i]));
	put(root, "bonds", arr);
	arr = json_object_new_object();
	put(arr, "error", json_object_new_int64((int64_t)bc_findings_count(snap, BC_SEV_ERROR)));
	put(arr, "warning",
	    json_object_new_int64((int64_t)bc_findings_count(snap, BC_SEV_WARNING)));
	put(arr, "info", json_object_new_int64((int64_t)bc_findings_count(snap, BC_SEV_INFO)));
	put(root, "finding_counts", arr);
	return root;
}

int bc_inspect_json_write(FILE *out, const struct bc_snapshot *snap,
			  const struct bc_inspect_render_opts *opts)
{
	struct json_object *root = bc_inspect_json_build(snap, opts);
	const char *s;
	int rc = 0;

	if (!root)
		return -ENOMEM;
	s = json_object_to_json_string_ext(root, opts && opts->json_line
							 ? JSON_C_TO_STRING_PLAIN |
								   JSON_C_TO_STRING_NOSLASHESCAPE
							 : JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_SPACED |
								   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s)
		rc = -ENOMEM;
	else if (fputs(s, out) < 0 || fputc('\n', out) == EOF)
		rc = -EIO;
	json_object_put(root);
	return rc;
}
