// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The journal as data: the option table, JSON out and strict JSON in, the
 * file (atomic save, bounded load) and its default path (bondcheck/
 * journal.h, docs/restore.md).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bondcheck/names.h"
#include "bondcheck/rtnl.h"
#include "workflow/journal-int.h"

static const char *arp_all_targets_name(int v)
{
	return v == 0 ? "any" : v == 1 ? "all" : NULL;
}

static const char *on_off_name(int v)
{
	return v == 0 ? "off" : v == 1 ? "on" : NULL;
}

#define OPT(n, a, k, field, names, fl, ph)                                                         \
	{                                                                                          \
		n, a, k, offsetof(struct bc_bond, field), names, fl, ph                            \
	}

/* Restore phases: 0 no slaves, 1 bond down, 2 monitors, 3 delays, 4 the rest. */
const struct jopt_desc bc_jopts[] = {
	OPT("mode", BC_IFLA_BOND_MODE, BC_NLA_U8, mode, bc_mode_name, JOPT_NOSLAVES | JOPT_IFDOWN,
	    0),
	OPT("fail_over_mac", BC_IFLA_BOND_FAIL_OVER_MAC, BC_NLA_U8, fail_over_mac,
	    bc_fail_over_mac_name, JOPT_NOSLAVES, 0),
	OPT("lacp_rate", BC_IFLA_BOND_AD_LACP_RATE, BC_NLA_U8, lacp_rate, bc_lacp_rate_name,
	    JOPT_IFDOWN, 1),
	OPT("ad_select", BC_IFLA_BOND_AD_SELECT, BC_NLA_U8, ad_select, bc_ad_select_name,
	    JOPT_IFDOWN, 1),
	OPT("ad_actor_sys_prio", BC_IFLA_BOND_AD_ACTOR_SYS_PRIO, BC_NLA_U16, ad_actor_sys_prio,
	    NULL, JOPT_IFDOWN, 1),
	OPT("ad_user_port_key", BC_IFLA_BOND_AD_USER_PORT_KEY, BC_NLA_U16, ad_user_port_key, NULL,
	    JOPT_IFDOWN, 1),
	OPT("tlb_dynamic_lb", BC_IFLA_BOND_TLB_DYNAMIC_LB, BC_NLA_U8, tlb_dynamic_lb, NULL,
	    JOPT_IFDOWN, 1),
	OPT("lacp_active", BC_IFLA_BOND_AD_LACP_ACTIVE, BC_NLA_U8, lacp_active, on_off_name,
	    JOPT_IFDOWN, 1),
	OPT("coupled_control", BC_IFLA_BOND_COUPLED_CONTROL, BC_NLA_U8, coupled_control, NULL,
	    JOPT_IFDOWN, 1),
	OPT("miimon", BC_IFLA_BOND_MIIMON, BC_NLA_U32, miimon_ms, NULL, 0, 2),
	OPT("arp_interval", BC_IFLA_BOND_ARP_INTERVAL, BC_NLA_U32, arp_interval_ms, NULL, 0, 2),
	OPT("updelay", BC_IFLA_BOND_UPDELAY, BC_NLA_U32, updelay_ms, NULL, 0, 3),
	OPT("downdelay", BC_IFLA_BOND_DOWNDELAY, BC_NLA_U32, downdelay_ms, NULL, 0, 3),
	OPT("peer_notif_delay", BC_IFLA_BOND_PEER_NOTIF_DELAY, BC_NLA_U32, peer_notif_delay_ms,
	    NULL, 0, 3),
	OPT("xmit_hash_policy", BC_IFLA_BOND_XMIT_HASH_POLICY, BC_NLA_U8, xmit_hash_policy,
	    bc_xmit_hash_policy_name, 0, 4),
	OPT("primary_reselect", BC_IFLA_BOND_PRIMARY_RESELECT, BC_NLA_U8, primary_reselect,
	    bc_primary_reselect_name, 0, 4),
	OPT("use_carrier", BC_IFLA_BOND_USE_CARRIER, BC_NLA_U8, use_carrier, NULL, 0, 4),
	OPT("arp_validate", BC_IFLA_BOND_ARP_VALIDATE, BC_NLA_U32, arp_validate,
	    bc_arp_validate_name, 0, 4),
	OPT("arp_all_targets", BC_IFLA_BOND_ARP_ALL_TARGETS, BC_NLA_U32, arp_all_targets,
	    arp_all_targets_name, 0, 4),
	OPT("arp_missed_max", BC_IFLA_BOND_MISSED_MAX, BC_NLA_U8, arp_missed_max, NULL, 0, 4),
	OPT("resend_igmp", BC_IFLA_BOND_RESEND_IGMP, BC_NLA_U32, resend_igmp, NULL, 0, 4),
	OPT("num_peer_notif", BC_IFLA_BOND_NUM_PEER_NOTIF, BC_NLA_U8, num_peer_notif, NULL, 0, 4),
	OPT("all_slaves_active", BC_IFLA_BOND_ALL_SLAVES_ACTIVE, BC_NLA_U8, all_slaves_active, NULL,
	    0, 4),
	OPT("min_links", BC_IFLA_BOND_MIN_LINKS, BC_NLA_U32, min_links, NULL, 0, 4),
	OPT("lp_interval", BC_IFLA_BOND_LP_INTERVAL, BC_NLA_U32, lp_interval, NULL, 0, 4),
	OPT("packets_per_slave", BC_IFLA_BOND_PACKETS_PER_SLAVE, BC_NLA_U32, packets_per_slave,
	    NULL, 0, 4),
};
const size_t bc_n_jopts = sizeof(bc_jopts) / sizeof(bc_jopts[0]);

_Static_assert(sizeof(bc_jopts) / sizeof(bc_jopts[0]) <= 40, "struct bc_journal opt[] too small");

int bc_jopt_index(const char *name)
{
	for (size_t i = 0; i < bc_n_jopts; i++)
		if (!strcmp(bc_jopts[i].name, name))
			return (int)i;
	return -1;
}

const char *bc_jopt_text(size_t i, uint32_t v, char *buf, size_t len)
{
	const char *n = bc_jopts[i].name_of && v <= 255 ? bc_jopts[i].name_of((int)v) : NULL;

	if (n)
		snprintf(buf, len, "%s", n);
	else
		snprintf(buf, len, "%u", v);
	return buf;
}

static uint32_t kind_max(enum bc_nla_kind k)
{
	return k == BC_NLA_U8 ? 0xff : k == BC_NLA_U16 ? 0xffff : 0xffffffffu;
}

const char *bc_journal_bond(const struct bc_journal *j)
{
	return j->bond;
}

const char *bc_journal_kind(const struct bc_journal *j)
{
	return j->kind;
}

size_t bc_journal_n_slaves(const struct bc_journal *j)
{
	return j->n_slaves;
}

const char *bc_journal_slave(const struct bc_journal *j, size_t i)
{
	return i < j->n_slaves ? j->slaves[i].name : NULL;
}

const struct bc_jslave *bc_journal_find_slave(const struct bc_journal *j, const char *name)
{
	for (size_t i = 0; i < j->n_slaves; i++)
		if (!strcmp(j->slaves[i].name, name))
			return &j->slaves[i];
	return NULL;
}

bool bc_journal_has_slave(const struct bc_journal *j, const char *name)
{
	return name && (!strcmp(j->bond, name) || bc_journal_find_slave(j, name));
}

void bc_journal_free(struct bc_journal *j)
{
	if (!j)
		return;
	free(j->slaves);
	free(j);
}

/* ---- JSON out ---- */

static struct json_object *str_or_null(const char *s)
{
	return s[0] ? json_object_new_string(s) : NULL;
}

struct json_object *bc_journal_to_json(const struct bc_journal *j)
{
	struct json_object *o = json_object_new_object(), *d, *sl;
	char buf[64];

	json_object_object_add(o, "schema", json_object_new_int(BC_JOURNAL_SCHEMA));
	json_object_object_add(o, "bondcheck_version", json_object_new_string(j->version));
	json_object_object_add(o, "bond", json_object_new_string(j->bond));
	json_object_object_add(o, "kind", json_object_new_string(j->kind));
	json_object_object_add(o, "ifindex", json_object_new_int(j->ifindex));
	json_object_object_add(o, "taken_at", json_object_new_string(j->taken_at));
	json_object_object_add(o, "host", json_object_new_string(j->host));
	json_object_object_add(o, "pid", json_object_new_int64(j->pid));
	json_object_object_add(o, "boot_id", json_object_new_string(j->boot_id));
	json_object_object_add(o, "netns_inode", json_object_new_int64((int64_t)j->netns_inode));
	json_object_object_add(o, "netns", json_object_new_string(j->netns));
	json_object_object_add(o, "kernel", json_object_new_string(j->kernel));
	d = json_object_new_object();
	json_object_object_add(d, "admin_state",
			       json_object_new_string(j->admin_up ? "up" : "down"));
	json_object_object_add(d, "mtu", json_object_new_int64(j->mtu));
	json_object_object_add(d, "mac", json_object_new_string(j->mac));
	json_object_object_add(o, "device", d);
	if (j->is_bond) {
		d = json_object_new_object();
		for (size_t i = 0; i < bc_n_jopts; i++) {
			const char *n;

			if (!j->opt[i].known)
				continue;
			n = bc_jopts[i].name_of && j->opt[i].v <= 255
				    ? bc_jopts[i].name_of((int)j->opt[i].v)
				    : NULL;
			json_object_object_add(d, bc_jopts[i].name,
					       n ? json_object_new_string(n)
						 : json_object_new_int64(j->opt[i].v));
		}
		if (j->arp_targets_known) {
			struct json_object *a = json_object_new_array();

			for (size_t i = 0; i < j->n_arp_targets; i++)
				json_object_array_add(a, json_object_new_string(j->arp_targets[i]));
			json_object_object_add(d, "arp_ip_target", a);
		}
		if (j->ns_targets_known) {
			struct json_object *a = json_object_new_array();

			for (size_t i = 0; i < j->n_ns_targets; i++)
				json_object_array_add(a, json_object_new_string(j->ns_targets[i]));
			json_object_object_add(d, "ns_ip6_target", a);
		}
		if (j->ad_actor_system_known)
			json_object_object_add(d, "ad_actor_system",
					       json_object_new_string(j->ad_actor_system));
		if (j->primary_known)
			json_object_object_add(d, "primary", str_or_null(j->primary));
		json_object_object_add(o, "options", d);
		if (j->active_known)
			json_object_object_add(o, "active_slave", str_or_null(j->active_slave));
	}
	sl = json_object_new_array();
	for (size_t i = 0; i < j->n_slaves; i++) {
		const struct bc_jslave *s = &j->slaves[i];

		d = json_object_new_object();
		json_object_object_add(d, "name", json_object_new_string(s->name));
		json_object_object_add(d, "admin_state",
				       json_object_new_string(s->admin_up ? "up" : "down"));
		json_object_object_add(d, "mtu", json_object_new_int64(s->mtu));
		json_object_object_add(d, "mac", json_object_new_string(s->mac));
		if (s->perm_hwaddr[0])
			json_object_object_add(d, "perm_hwaddr",
					       json_object_new_string(s->perm_hwaddr));
		if (s->queue_id_known)
			json_object_object_add(d, "queue_id", json_object_new_int64(s->queue_id));
		if (s->prio_known)
			json_object_object_add(d, "prio", json_object_new_int(s->prio));
		if (s->mii_status >= 0)
			json_object_object_add(
				d, "mii_status",
				json_object_new_string(bc_link_status_name(s->mii_status)));
		if (j->is_bond)
			json_object_object_add(d, "lacp_in_sync",
					       json_object_new_boolean(s->lacp_in_sync));
		json_object_array_add(sl, d);
	}
	json_object_object_add(o, "slaves", sl);
	(void)buf;
	return o;
}

/* ---- JSON in: strict ---- */

struct jin {
	const char *origin;
	struct bc_error *err;
};

static int bad(struct jin *c, const char *member, const char *fmt, const char *found)
{
	char what[200];

	snprintf(what, sizeof(what), fmt, found);
	return bc_error_set(c->err, -EINVAL,
			    "%s: member '%s': %s; not a bondcheck journal or "
			    "damaged (restore needs an intact one: take it from a backup "
			    "or restore by hand)",
			    c->origin, member, what);
}

static const char *type_name(struct json_object *v)
{
	return v ? json_type_to_name(json_object_get_type(v)) : "null";
}

/* Only @allowed keys may appear in @o. */
static int only_keys(struct jin *c, struct json_object *o, const char *where,
		     const char *const *allowed)
{
	json_object_object_foreach(o, k, v)
	{
		bool ok = false;

		(void)v;
		for (size_t i = 0; allowed[i]; i++)
			ok = ok || !strcmp(k, allowed[i]);
		if (!ok) {
			char m[96];

			snprintf(m, sizeof(m), "%s.%.60s", where, k);
			return bad(c, m, "%s is not a journal member", k);
		}
	}
	return 0;
}

static int get_str(struct jin *c, struct json_object *o, const char *k, bool required, char *dst,
		   size_t len)
{
	struct json_object *v;
	const char *s;

	if (!json_object_object_get_ex(o, k, &v) || !v) {
		if (required)
			return bad(c, k, "%s", "missing (expected a string)");
		dst[0] = '\0';
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return bad(c, k, "expected a string, found %s", type_name(v));
	s = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) >= len ||
	    strlen(s) != (size_t)json_object_get_string_len(v))
		return bad(c, k, "%s", "string too long or with a NUL byte");
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return bad(c, k, "%s", "string holds control characters");
	snprintf(dst, len, "%s", s);
	return 0;
}

static int get_int(struct jin *c, struct json_object *o, const char *k, bool required, long long lo,
		   long long hi, long long *out, bool *present)
{
	struct json_object *v;
	long long x;
	char found[64];

	if (present)
		*present = false;
	*out = 0;
	if (!json_object_object_get_ex(o, k, &v)) {
		if (required)
			return bad(c, k, "%s", "missing (expected an integer)");
		return 0;
	}
	if (!json_object_is_type(v, json_type_int))
		return bad(c, k, "expected an integer, found %s", type_name(v));
	errno = 0;
	x = json_object_get_int64(v);
	if (x < lo || x > hi || (errno == EINVAL)) {
		snprintf(found, sizeof(found), "%lld (allowed %lld-%lld)", x, lo, hi);
		return bad(c, k, "out of range: %s", found);
	}
	*out = x;
	if (present)
		*present = true;
	return 0;
}

static bool valid_ifname(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= BC_IFNAMSIZ || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (const char *p = s; *p; p++)
		if (*p == '/' || *p == ':' || isspace((unsigned char)*p) ||
		    (unsigned char)*p < 0x21)
			return false;
	return true;
}

/* colon-hex, 1-20 bytes, two hex digits each */
static bool valid_mac(const char *s)
{
	size_t n = 0;

	for (const char *p = s;; p += 3) {
		if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]))
			return false;
		n++;
		if (p[2] == '\0')
			break;
		if (p[2] != ':')
			return false;
	}
	return n >= 1 && n <= 20;
}

static int get_ifname(struct jin *c, struct json_object *o, const char *k, char *dst)
{
	int r = get_str(c, o, k, true, dst, BC_IFNAMSIZ);

	if (r < 0)
		return r;
	if (!valid_ifname(dst))
		return bad(c, k,
			   "'%s' is not an interface name (1-15 characters, no '/', ':' or "
			   "spaces)",
			   dst);
	return 0;
}

static int get_mac(struct jin *c, struct json_object *o, const char *k, bool required, char *dst)
{
	int r = get_str(c, o, k, required, dst, BC_MAC_STR);

	if (r < 0)
		return r;
	if (dst[0] && !valid_mac(dst))
		return bad(c, k, "'%s' is not a colon-hex hardware address", dst);
	return 0;
}

static int get_state(struct jin *c, struct json_object *o, const char *k, bool *up)
{
	char s[16];
	int r = get_str(c, o, k, true, s, sizeof(s));

	if (r < 0)
		return r;
	if (strcmp(s, "up") && strcmp(s, "down"))
		return bad(c, k, "expected \"up\" or \"down\", found \"%s\"", s);
	*up = !strcmp(s, "up");
	return 0;
}

static int get_option(struct jin *c, struct json_object *v, size_t i, struct bc_jopt *out)
{
	const struct jopt_desc *d = &bc_jopts[i];
	char found[64];

	if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);

		for (int k = 0; d->name_of && k < 256; k++) {
			const char *n = d->name_of(k);

			if (n && !strcmp(n, s)) {
				out->known = true;
				out->v = (uint32_t)k;
				return 0;
			}
		}
		snprintf(found, sizeof(found), "\"%.40s\"", s);
		return bad(c, d->name, "unknown value %s", found);
	}
	if (json_object_is_type(v, json_type_int)) {
		int64_t x = json_object_get_int64(v);

		if (x < 0 || (uint64_t)x > kind_max(d->kind)) {
			snprintf(found, sizeof(found), "%lld (allowed 0-%u)", (long long)x,
				 kind_max(d->kind));
			return bad(c, d->name, "out of range: %s", found);
		}
		out->known = true;
		out->v = (uint32_t)x;
		return 0;
	}
	return bad(c, d->name, "expected a name or an integer, found %s", type_name(v));
}

static int get_targets(struct jin *c, struct json_object *v, const char *k, int family,
		       char (*dst)[48], size_t width, size_t *n)
{
	size_t len;

	if (!json_object_is_type(v, json_type_array))
		return bad(c, k, "expected an array of addresses, found %s", type_name(v));
	len = json_object_array_length(v);
	if (len > BC_MAX_TARGETS)
		return bad(c, k, "%s", "more than 16 targets (the kernel's maximum)");
	for (size_t i = 0; i < len; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		unsigned char bin[16];
		const char *s;

		if (!json_object_is_type(e, json_type_string))
			return bad(c, k, "expected address strings, found %s", type_name(e));
		s = json_object_get_string(e);
		if (strlen(s) >= width || inet_pton(family, s, bin) != 1)
			return bad(c, k, "'%.60s' is not an address of the right family", s);
		snprintf((char *)dst + i * width, width, "%s", s);
	}
	*n = len;
	return 0;
}

static int slave_from_json(struct jin *c, struct json_object *o, bool is_bond, struct bc_jslave *s)
{
	static const char *const keys[] = {"name",	   "admin_state", "mtu",  "mac",
					   "perm_hwaddr",  "queue_id",	  "prio", "mii_status",
					   "lacp_in_sync", NULL};
	struct json_object *v;
	long long x;
	bool have;
	int r;

	if (!json_object_is_type(o, json_type_object))
		return bad(c, "slaves[]", "expected objects, found %s", type_name(o));
	if ((r = only_keys(c, o, "slaves[]", keys)) < 0 ||
	    (r = get_ifname(c, o, "name", s->name)) < 0 ||
	    (r = get_state(c, o, "admin_state", &s->admin_up)) < 0 ||
	    (r = get_int(c, o, "mtu", true, 68, 65535, &x, NULL)) < 0)
		return r;
	s->mtu = (uint32_t)x;
	if ((r = get_mac(c, o, "mac", true, s->mac)) < 0 ||
	    (r = get_mac(c, o, "perm_hwaddr", false, s->perm_hwaddr)) < 0 ||
	    (r = get_int(c, o, "queue_id", false, 0, 65535, &x, &have)) < 0)
		return r;
	s->queue_id_known = have;
	s->queue_id = have ? (uint32_t)x : 0;
	if ((r = get_int(c, o, "prio", false, INT32_MIN, INT32_MAX, &x, &have)) < 0)
		return r;
	s->prio_known = have;
	s->prio = have ? (int32_t)x : 0;
	s->mii_status = -1;
	if (json_object_object_get_ex(o, "mii_status", &v)) {
		char t[16];

		if ((r = get_str(c, o, "mii_status", true, t, sizeof(t))) < 0)
			return r;
		s->mii_status = bc_link_status_from_name(t);
		if (s->mii_status < 0)
			return bad(c, "mii_status", "unknown MII status \"%s\"", t);
	}
	s->lacp_in_sync = false;
	if (json_object_object_get_ex(o, "lacp_in_sync", &v)) {
		if (!json_object_is_type(v, json_type_boolean))
			return bad(c, "lacp_in_sync", "expected true or false, found %s",
				   type_name(v));
		s->lacp_in_sync = json_object_get_boolean(v);
	}
	(void)is_bond;
	return 0;
}

static int options_from_json(struct jin *c, struct json_object *o, struct bc_journal *j)
{
	struct json_object *v;
	int r;

	if (!json_object_is_type(o, json_type_object))
		return bad(c, "options", "expected an object, found %s", type_name(o));
	json_object_object_foreach(o, k, val)
	{
		int i = bc_jopt_index(k);

		if (i >= 0) {
			r = get_option(c, val, (size_t)i, &j->opt[i]);
			if (r < 0)
				return r;
		} else if (strcmp(k, "arp_ip_target") && strcmp(k, "ns_ip6_target") &&
			   strcmp(k, "ad_actor_system") && strcmp(k, "primary")) {
			char m[80];

			snprintf(m, sizeof(m), "options.%.60s", k);
			return bad(c, m, "%s is not a bond option this version knows", k);
		}
	}
	if (!j->opt[0].known)
		return bad(c, "options.mode", "%s", "missing (a bond journal needs its mode)");
	if (json_object_object_get_ex(o, "arp_ip_target", &v)) {
		char tmp[BC_MAX_TARGETS][48];

		r = get_targets(c, v, "arp_ip_target", AF_INET, tmp, 48, &j->n_arp_targets);
		if (r < 0)
			return r;
		for (size_t i = 0; i < j->n_arp_targets; i++)
			snprintf(j->arp_targets[i], sizeof(j->arp_targets[i]), "%s", tmp[i]);
		j->arp_targets_known = true;
	}
	if (json_object_object_get_ex(o, "ns_ip6_target", &v)) {
		r = get_targets(c, v, "ns_ip6_target", AF_INET6, j->ns_targets, 48,
				&j->n_ns_targets);
		if (r < 0)
			return r;
		j->ns_targets_known = true;
	}
	if (json_object_object_get_ex(o, "ad_actor_system", &v)) {
		if ((r = get_mac(c, o, "ad_actor_system", true, j->ad_actor_system)) < 0)
			return r;
		j->ad_actor_system_known = true;
	}
	if (json_object_object_get_ex(o, "primary", &v)) {
		j->primary_known = true;
		if (v) {
			if ((r = get_ifname(c, o, "primary", j->primary)) < 0)
				return r;
		}
	}
	return 0;
}

int bc_journal_from_json(struct json_object *o, const char *origin, struct bc_journal **out,
			 struct bc_error *err)
{
	static const char *const keys[] = {"schema",  "bondcheck_version", "bond",	   "kind",
					   "ifindex", "taken_at",	   "host",	   "pid",
					   "boot_id", "netns_inode",	   "netns",	   "kernel",
					   "device",  "options",	   "active_slave", "slaves",
					   NULL};
	static const char *const dkeys[] = {"admin_state", "mtu", "mac", NULL};
	struct jin c = {.origin = origin ? origin : "journal", .err = err};
	struct json_object *v, *d;
	struct bc_journal *j;
	long long x;
	size_t n;
	int r;

	*out = NULL;
	if (!o || !json_object_is_type(o, json_type_object))
		return bad(&c, "(top)", "expected a JSON object, found %s", type_name(o));
	j = calloc(1, sizeof(*j));
	if (!j)
		return bc_error_set(err, -ENOMEM, "out of memory");
	if ((r = only_keys(&c, o, "(top)", keys)) < 0)
		goto fail;
	if ((r = get_int(&c, o, "schema", true, 0, INT32_MAX, &x, NULL)) < 0)
		goto fail;
	if (x != BC_JOURNAL_SCHEMA) {
		r = bc_error_set(err, -EINVAL,
				 "%s: journal schema %lld, this bondcheck reads schema %d; restore "
				 "with the bondcheck version that wrote it",
				 c.origin, x, BC_JOURNAL_SCHEMA);
		goto fail;
	}
	if ((r = get_str(&c, o, "bondcheck_version", false, j->version, sizeof(j->version))) < 0 ||
	    (r = get_ifname(&c, o, "bond", j->bond)) < 0 ||
	    (r = get_str(&c, o, "kind", true, j->kind, sizeof(j->kind))) < 0 ||
	    (r = get_int(&c, o, "ifindex", false, 0, INT32_MAX, &x, NULL)) < 0)
		goto fail;
	j->ifindex = (int)x;
	x = 0;
	if ((r = get_str(&c, o, "taken_at", true, j->taken_at, sizeof(j->taken_at))) < 0 ||
	    (r = get_str(&c, o, "host", false, j->host, sizeof(j->host))) < 0 ||
	    (r = get_int(&c, o, "pid", false, 0, INT32_MAX, &j->pid, NULL)) < 0 ||
	    (r = get_str(&c, o, "boot_id", false, j->boot_id, sizeof(j->boot_id))) < 0 ||
	    (r = get_int(&c, o, "netns_inode", false, 0, INT64_MAX, &x, NULL)) < 0)
		goto fail;
	j->netns_inode = (unsigned long long)x;
	if ((r = get_str(&c, o, "netns", false, j->netns, sizeof(j->netns))) < 0 ||
	    (r = get_str(&c, o, "kernel", false, j->kernel, sizeof(j->kernel))) < 0)
		goto fail;
	if (!j->kind[0] ||
	    strspn(j->kind, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(j->kind)) {
		r = bad(&c, "kind", "'%s' is not a link kind", j->kind);
		goto fail;
	}
	j->is_bond = !strcmp(j->kind, "bond");
	if (!json_object_object_get_ex(o, "device", &d) ||
	    !json_object_is_type(d, json_type_object)) {
		r = bad(&c, "device", "expected an object, found %s", d ? type_name(d) : "nothing");
		goto fail;
	}
	if ((r = only_keys(&c, d, "device", dkeys)) < 0 ||
	    (r = get_state(&c, d, "admin_state", &j->admin_up)) < 0 ||
	    (r = get_int(&c, d, "mtu", true, 68, 65535, &x, NULL)) < 0)
		goto fail;
	j->mtu = (uint32_t)x;
	if ((r = get_mac(&c, d, "mac", true, j->mac)) < 0)
		goto fail;
	if (json_object_object_get_ex(o, "options", &v)) {
		if (!j->is_bond) {
			r = bad(&c, "options", "a %s has no bond options", j->kind);
			goto fail;
		}
		if ((r = options_from_json(&c, v, j)) < 0)
			goto fail;
	} else if (j->is_bond) {
		r = bad(&c, "options", "%s", "missing (a bond journal needs its options)");
		goto fail;
	}
	if (json_object_object_get_ex(o, "active_slave", &v)) {
		j->active_known = true;
		if (v && (r = get_ifname(&c, o, "active_slave", j->active_slave)) < 0)
			goto fail;
	}
	if (!json_object_object_get_ex(o, "slaves", &v) ||
	    !json_object_is_type(v, json_type_array)) {
		r = bad(&c, "slaves", "expected an array, found %s", v ? type_name(v) : "nothing");
		goto fail;
	}
	n = json_object_array_length(v);
	if (n > BC_JOURNAL_MAX_SLAVES) {
		r = bad(&c, "slaves", "%s", "more than 64 slaves");
		goto fail;
	}
	j->slaves = calloc(n + 1, sizeof(*j->slaves));
	if (!j->slaves) {
		r = bc_error_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		r = slave_from_json(&c, json_object_array_get_idx(v, i), j->is_bond, &j->slaves[i]);
		if (r < 0)
			goto fail;
		if (!strcmp(j->slaves[i].name, j->bond) ||
		    bc_journal_find_slave(j, j->slaves[i].name)) {
			r = bad(&c, "slaves", "'%s' is listed twice (or is the bond itself)",
				j->slaves[i].name);
			goto fail;
		}
		j->n_slaves = i + 1;
	}
	j->n_slaves = n;
	if (j->primary[0] && !bc_journal_find_slave(j, j->primary)) {
		r = bad(&c, "options.primary", "'%s' is not one of the journaled slaves",
			j->primary);
		goto fail;
	}
	*out = j;
	return 0;
fail:
	bc_journal_free(j);
	return r;
}

/* ---- files ---- */

unsigned long long bc_journal_netns_inode(void)
{
	struct stat st;

	return stat("/proc/self/ns/net", &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

void bc_journal_boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The name of the netns we are in under /run/netns (ip-netns(8)), "" none. */
static void netns_name(unsigned long long ino, char *buf, size_t len)
{
	DIR *d = opendir("/run/netns");
	struct dirent *e;

	buf[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d))) {
		char p[PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/run/netns/%s", e->d_name);
		if (stat(p, &st) == 0 && (unsigned long long)st.st_ino == ino) {
			snprintf(buf, len, "%s", e->d_name);
			break;
		}
	}
	closedir(d);
}

int bc_journal_default_path(const char *bond, char *buf, size_t len, struct bc_error *err)
{
	const char *dir = getenv("BC_JOURNAL_DIR");
	unsigned long long ino = bc_journal_netns_inode();
	char ns[64] = "";
	struct stat init;
	int n;

	if (!bond || !valid_ifname(bond))
		return bc_error_set(err, -EINVAL, "'%s' is not an interface name",
				    bond ? bond : "(null)");
	if (!dir || !*dir)
		dir = BC_JOURNAL_DIR;
	netns_name(ino, ns, sizeof(ns));
	if (ns[0])
		n = snprintf(buf, len, "%s/%s@%s.json", dir, bond, ns);
	else if (ino && stat("/proc/1/ns/net", &init) == 0 &&
		 (unsigned long long)init.st_ino != ino)
		n = snprintf(buf, len, "%s/%s@netns-%llu.json", dir, bond, ino);
	else
		n = snprintf(buf, len, "%s/%s.json", dir, bond);
	if (n < 0 || (size_t)n >= len)
		return bc_error_set(err, -ENAMETOOLONG, "the journal path under %s is too long",
				    dir);
	return 0;
}

static int mkdir_p(char *dir)
{
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int bc_journal_save(const struct bc_journal *j, const char *path, struct bc_error *err)
{
	char dir[PATH_MAX], tmp[PATH_MAX + 32];
	struct json_object *o;
	const char *text;
	struct stat st;
	int fd, r;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return bc_error_set(err, -ENAMETOOLONG, "journal path too long");
	if (strrchr(dir, '/'))
		*strrchr(dir, '/') = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	if (stat(path, &st) == 0) {
		struct bc_journal *old = NULL;
		struct bc_error e2 = {0};

		if (bc_journal_load(path, &old, &e2) == 0 && old) {
			r = bc_error_set(err, -EEXIST,
					 "an unrestored journal of %s exists at %s (taken %s by "
					 "pid %lld on %s): the bond may still be changed; run "
					 "`bondcheck restore --journal %s` first (or remove the "
					 "file if the bond is known to be right)",
					 old->bond, path, old->taken_at, old->pid, old->host, path);
			bc_journal_free(old);
			return r;
		}
		return bc_error_set(err, -EEXIST,
				    "%s exists and is not a valid journal (%s); move it away "
				    "before journaling again",
				    path, e2.msg);
	}
	r = mkdir_p(dir);
	if (r < 0)
		return bc_error_set(err, r, "cannot create the journal directory %s: %s", dir,
				    strerror(-r));
	o = bc_journal_to_json(j);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							 JSON_C_TO_STRING_NOSLASHESCAPE);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		r = -errno;
		json_object_put(o);
		return bc_error_set(err, r, "cannot write the journal %s: %s", tmp, strerror(-r));
	}
	r = write_all(fd, text, strlen(text));
	if (r == 0)
		r = write_all(fd, "\n", 1);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	json_object_put(o);
	if (r == 0 && renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) < 0) {
		r = -errno;
		if (r == -EINVAL && link(tmp, path) == 0)
			r = 0; /* a file system without RENAME_NOREPLACE: link() also never replaces
				*/
		if (r == 0)
			unlink(tmp);
	}
	if (r < 0) {
		unlink(tmp);
		if (r == -EEXIST)
			return bc_error_set(err, r,
					    "another process wrote a journal to %s at the same "
					    "time; run `bondcheck restore --journal %s` when it is "
					    "done",
					    path, path);
		return bc_error_set(err, r, "cannot write the journal %s: %s", path, strerror(-r));
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	return 0;
}

int bc_journal_remove(const char *path, struct bc_error *err)
{
	if (unlink(path) < 0 && errno != ENOENT)
		return bc_error_set(err, -errno, "cannot remove the journal %s: %s", path,
				    strerror(errno));
	return 0;
}

int bc_journal_load(const char *path, struct bc_journal **out, struct bc_error *err)
{
	struct json_tokener *tok;
	struct json_object *o;
	struct stat st;
	char *buf;
	ssize_t n;
	int fd, r;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bc_error_set(err, -errno, "cannot open the journal %s: %s", path,
				    strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return bc_error_set(err, -EINVAL, "%s is not a regular file", path);
	}
	if (st.st_size > BC_JOURNAL_MAX_FILE) {
		close(fd);
		return bc_error_set(err, -EFBIG,
				    "%s is %lld bytes; a journal is at most %d bytes: not a "
				    "bondcheck journal",
				    path, (long long)st.st_size, BC_JOURNAL_MAX_FILE);
	}
	buf = malloc(BC_JOURNAL_MAX_FILE + 1);
	if (!buf) {
		close(fd);
		return bc_error_set(err, -ENOMEM, "out of memory");
	}
	n = read(fd, buf, BC_JOURNAL_MAX_FILE + 1);
	close(fd);
	if (n < 0 || n > BC_JOURNAL_MAX_FILE) {
		free(buf);
		return bc_error_set(err, n < 0 ? -EIO : -EFBIG, "cannot read the journal %s", path);
	}
	buf[n] = '\0';
	if ((size_t)n != strlen(buf)) {
		free(buf);
		return bc_error_set(err, -EINVAL, "%s holds a NUL byte: not a bondcheck journal",
				    path);
	}
	tok = json_tokener_new_ex(16);
	if (!tok) {
		free(buf);
		return bc_error_set(err, -ENOMEM, "out of memory");
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, buf, (int)n);
	if (!o || json_tokener_get_error(tok) != json_tokener_success) {
		r = bc_error_set(
			err, -EINVAL,
			"%s is not valid JSON (%s at byte %zu): not a "
			"bondcheck journal, or damaged",
			path,
			json_tokener_error_desc(json_tokener_get_error(tok) == json_tokener_success
							? json_tokener_continue
							: json_tokener_get_error(tok)),
			json_tokener_get_parse_end(tok));
		json_object_put(o);
		json_tokener_free(tok);
		free(buf);
		return r;
	}
	/* nothing but white space after the object */
	for (size_t i = json_tokener_get_parse_end(tok); i < (size_t)n; i++)
		if (!isspace((unsigned char)buf[i])) {
			json_object_put(o);
			json_tokener_free(tok);
			free(buf);
			return bc_error_set(err, -EINVAL,
					    "%s has data after the JSON object (byte %zu): not a "
					    "bondcheck journal",
					    path, i);
		}
	json_tokener_free(tok);
	free(buf);
	r = bc_journal_from_json(o, path, out, err);
	json_object_put(o);
	return r;
}
