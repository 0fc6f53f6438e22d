// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Key tables and value decoders of the `bond ...` and `bond_slave ...`
 * detail lines, shared by the text scanner and the JSON walker (which
 * renames its few different keys first, see ip-link-json.c).  Each entry is
 * a key exactly as iproute2 prints it (ip/iplink_bond.c,
 * ip/iplink_bond_slave.c), the model field it fills and its decoder.
 * Enumerations accept the name ip prints or the number it prints when the
 * value is out of its table ("state_index", "mii_status_index").
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bondcheck/ip-link.h"
#include "bondcheck/names.h"
#include "decode/ip-link.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum kind {
	K_U32,	    /* decimal */
	K_S32,	    /* signed decimal (slave prio), stored as its two's complement */
	K_ENUM,	    /* name from a table, or a number */
	K_MAC,	    /* colon-hex address */
	K_IFNAME,   /* interface name, or an ifindex when ip could not name it */
	K_TARGETS,  /* comma-separated IPv4 addresses */
	K_NSTARGET, /* comma-separated IPv6 addresses */
	K_XMIT,	    /* hash policy: number and name (kept when unknown) */
	K_MODE,
};

struct key_def {
	const char *key;
	enum kind kind;
	size_t off;
	const char *const *names; /* K_ENUM */
	size_t n_names;
};

#define FIELD(base, off, type) ((type *)((char *)(base) + (off)))

static const char *const arp_validate_names[] = {
	"none", "active", "backup", "all", "filter", "filter_active", "filter_backup",
};
static const char *const all_targets_names[] = {"any", "all"};
static const char *const reselect_names[] = {"always", "better", "failure"};
static const char *const fom_names[] = {"none", "active", "follow"};
static const char *const rate_names[] = {"slow", "fast"};
static const char *const onoff_names[] = {"off", "on"};
static const char *const select_names[] = {"stable", "bandwidth", "count", "actor_port_prio"};
/* iplink_bond_slave.c: slave_states[], slave_mii_status[], port_churn_state[] */
static const char *const state_names[] = {"ACTIVE", "BACKUP"};
static const char *const mii_names[] = {"UP", "GOING_DOWN", "DOWN", "GOING_BACK"};
static const char *const churn_names[] = {"MONITOR", "CHURN", "NO_CHURN"};

#define B(k, kind, field)                                                                          \
	{                                                                                          \
		k, kind, offsetof(struct bc_bond, field), NULL, 0                                  \
	}
#define BE(k, field, tab)                                                                          \
	{                                                                                          \
		k, K_ENUM, offsetof(struct bc_bond, field), tab, ARRAY_SIZE(tab)                   \
	}
#define S(k, kind, field)                                                                          \
	{                                                                                          \
		k, kind, offsetof(struct bc_slave, field), NULL, 0                                 \
	}
#define SE(k, field, tab)                                                                          \
	{                                                                                          \
		k, K_ENUM, offsetof(struct bc_slave, field), tab, ARRAY_SIZE(tab)                  \
	}

/* ip/iplink_bond.c bond_print_opt(), in print order */
static const struct key_def bond_keys[] = {
	B("mode", K_MODE, mode),
	B("active_slave", K_IFNAME, active_slave),
	B("miimon", K_U32, miimon_ms),
	B("updelay", K_U32, updelay_ms),
	B("downdelay", K_U32, downdelay_ms),
	B("peer_notify_delay", K_U32, peer_notif_delay_ms),
	B("use_carrier", K_U32, use_carrier),
	B("arp_interval", K_U32, arp_interval_ms),
	B("arp_missed_max", K_U32, arp_missed_max),
	B("arp_ip_target", K_TARGETS, arp_targets),
	B("ns_ip6_target", K_NSTARGET, ns_targets),
	BE("arp_validate", arp_validate, arp_validate_names),
	BE("arp_all_targets", arp_all_targets, all_targets_names),
	B("primary", K_IFNAME, primary),
	BE("primary_reselect", primary_reselect, reselect_names),
	BE("fail_over_mac", fail_over_mac, fom_names),
	B("xmit_hash_policy", K_XMIT, xmit_hash_policy),
	B("resend_igmp", K_U32, resend_igmp),
	B("num_grat_arp", K_U32, num_peer_notif),
	B("all_slaves_active", K_U32, all_slaves_active),
	B("min_links", K_U32, min_links),
	B("lp_interval", K_U32, lp_interval),
	B("packets_per_slave", K_U32, packets_per_slave),
	BE("lacp_active", lacp_active, onoff_names),
	BE("lacp_rate", lacp_rate, rate_names),
	BE("coupled_control", coupled_control, onoff_names),
	BE("ad_select", ad_select, select_names),
	B("ad_aggregator", K_U32, ad_aggregator_id),
	B("ad_num_ports", K_U32, ad_num_ports),
	B("ad_actor_key", K_U32, ad_actor_key),
	B("ad_partner_key", K_U32, ad_partner_key),
	B("ad_partner_mac", K_MAC, ad_partner_mac),
	B("ad_actor_sys_prio", K_U32, ad_actor_sys_prio),
	B("ad_user_port_key", K_U32, ad_user_port_key),
	B("ad_actor_system", K_MAC, ad_actor_system),
	B("tlb_dynamic_lb", K_U32, tlb_dynamic_lb),
};

/* ip/iplink_bond_slave.c bond_slave_print_opt() */
static const struct key_def slave_keys[] = {
	SE("state", state, state_names),
	SE("mii_status", mii_status, mii_names),
	S("link_failure_count", K_U32, link_failure_count),
	S("perm_hwaddr", K_MAC, perm_hwaddr),
	S("queue_id", K_U32, queue_id),
	S("prio", K_S32, prio),
	S("ad_aggregator_id", K_U32, aggregator_id),
	S("ad_actor_oper_port_state", K_U32, actor_oper_port_state),
	S("ad_partner_oper_port_state", K_U32, partner_oper_port_state),
	SE("churn_actor_state", actor_churn_state, churn_names),
	SE("churn_partner_state", partner_churn_state, churn_names),
};

/* Unsigned decimal that fits 32 bits; -1 when @v is not one. */
static long long parse_u32(const char *v)
{
	unsigned long long n;
	char *end;

	if (!isdigit((unsigned char)v[0]))
		return -1;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || *end || n > UINT32_MAX)
		return -1;
	return (long long)n;
}

static void bad(struct ip_ctx *c, const char *key, const char *expected, const char *v)
{
	ip_warn(c, "'%s' expected %s, found '%.60s'; ignored", key, expected, v);
}

void ip_mac(struct bc_str *f, const char *v)
{
	snprintf(f->v, sizeof(f->v), "%s", v);
	for (char *p = f->v; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	f->st = BC_KNOWN;
}

static bool is_mac(const char *v)
{
	size_t n = strlen(v);

	if (n < 2 || n >= BC_MAC_STR)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)v[i]) && v[i] != ':')
			return false;
	return true;
}

/* "192.0.2.1,192.0.2.2" into @dst[BC_MAX_TARGETS][@w]; returns the count. */
static size_t split_targets(struct ip_ctx *c, const char *key, const char *v, char *dst, size_t w)
{
	char buf[BC_IP_LINE_MAX];
	char *save = NULL;
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", v);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n >= BC_MAX_TARGETS) {
			ip_warn(c, "'%s' lists more than %d targets; the rest are ignored", key,
				BC_MAX_TARGETS);
			break;
		}
		if (strlen(t) >= w) {
			bad(c, key, "an IP address", t);
			continue;
		}
		snprintf(dst + n * w, w, "%s", t);
		n++;
	}
	return n;
}

static int enum_value(const struct key_def *d, const char *v)
{
	long long n;

	for (size_t i = 0; i < d->n_names; i++)
		if (!strcasecmp(d->names[i], v))
			return (int)i;
	n = parse_u32(v);
	return n >= 0 && n <= 255 ? (int)n : -1;
}

static void decode(struct ip_ctx *c, const struct key_def *d, void *base, struct ip_link *l,
		   const char *v)
{
	struct bc_bond *b = base;
	long long n;
	int e;

	switch (d->kind) {
	case K_U32:
		n = parse_u32(v);
		if (n < 0)
			return bad(c, d->key, "a number", v);
		bc_u32_set(FIELD(base, d->off, struct bc_u32), (uint32_t)n);
		return;
	case K_S32:
		n = strtoll(v, NULL, 10);
		if ((v[0] != '-' && !isdigit((unsigned char)v[0])) || n < INT32_MIN ||
		    n > INT32_MAX)
			return bad(c, d->key, "a number", v);
		bc_u32_set(FIELD(base, d->off, struct bc_u32), (uint32_t)(int32_t)n);
		return;
	case K_ENUM:
		e = enum_value(d, v);
		if (e < 0)
			return bad(c, d->key, "a value ip prints", v);
		bc_u32_set(FIELD(base, d->off, struct bc_u32), (uint32_t)e);
		return;
	case K_MAC:
		if (!is_mac(v))
			return bad(c, d->key, "a colon-hex address", v);
		ip_mac(FIELD(base, d->off, struct bc_str), v);
		return;
	case K_IFNAME: {
		struct bc_str *f = FIELD(base, d->off, struct bc_str);
		int *idx = !strcmp(d->key, "primary") ? &l->primary_index : &l->active_index;

		n = parse_u32(v);
		if (n > 0 && n <= INT32_MAX)
			*idx = (int)n; /* resolved against the listing's ifindexes later */
		ip_set_name(c, f->v, v);
		f->st = BC_KNOWN;
		return;
	}
	case K_TARGETS:
		b->n_arp_targets =
			split_targets(c, d->key, v, b->arp_targets[0], sizeof(b->arp_targets[0]));
		return;
	case K_NSTARGET:
		b->n_ns_targets =
			split_targets(c, d->key, v, b->ns_targets[0], sizeof(b->ns_targets[0]));
		return;
	case K_XMIT:
		e = bc_xmit_hash_policy_from_name(v);
		if (e < 0 && (n = parse_u32(v)) >= 0 && n < 256)
			e = (int)n;
		snprintf(b->xmit_hash_policy_name, sizeof(b->xmit_hash_policy_name), "%s", v);
		if (e >= 0)
			bc_u32_set(&b->xmit_hash_policy, (uint32_t)e);
		else
			ip_warn(c, "unknown xmit_hash_policy '%.40s' kept as printed", v);
		return;
	case K_MODE:
		e = bc_mode_from_name(v);
		if (e < 0)
			return bad(c, d->key, "a bonding mode (balance-rr ... balance-alb)", v);
		bc_u32_set(&b->mode, (uint32_t)e);
		return;
	}
}

static const struct key_def *find(const struct key_def *tab, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(tab[i].key, key))
			return &tab[i];
	return NULL;
}

bool ip_bond_kv(struct ip_ctx *c, struct ip_link *l, const char *key, const char *val)
{
	const struct key_def *d = find(bond_keys, ARRAY_SIZE(bond_keys), key);

	if (!d)
		return false;
	if (!l->bond) {
		l->bond = calloc(1, sizeof(*l->bond));
		if (!l->bond) {
			c->rc = -ENOMEM;
			return true;
		}
	}
	l->has_ad_info |= !strncmp(key, "ad_aggregator", 13);
	l->has_ad_select |= !strcmp(key, "ad_select");
	l->has_tlb |= !strcmp(key, "tlb_dynamic_lb");
	l->has_sys_prio |= !strcmp(key, "ad_actor_sys_prio");
	decode(c, d, l->bond, l, val);
	return true;
}

bool ip_slave_kv(struct ip_ctx *c, struct ip_link *l, const char *key, const char *val)
{
	const struct key_def *d = find(slave_keys, ARRAY_SIZE(slave_keys), key);

	if (!d)
		return false;
	if (!l->slave) {
		l->slave = calloc(1, sizeof(*l->slave));
		if (!l->slave) {
			c->rc = -ENOMEM;
			return true;
		}
	}
	decode(c, d, l->slave, l, val);
	return true;
}

/* ip/ipaddress.c print_link_flags() words that matter here */
void ip_flag_word(struct ip_link *l, const char *w)
{
	static const struct {
		const char *w;
		unsigned int f;
	} flags[] = {
		{"UP", IPF_UP},		{"LOWER_UP", IPF_LOWER_UP}, {"NO-CARRIER", IPF_NO_CARRIER},
		{"MASTER", IPF_MASTER}, {"SLAVE", IPF_SLAVE},	    {"LOOPBACK", IPF_LOOPBACK},
	};

	l->flags |= IPF_SEEN;
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		if (!strcmp(flags[i].w, w))
			l->flags |= flags[i].f;
}

/* uapi if.h IF_OPER_* in order; ip prints oper_states[] of ipaddress.c */
int ip_operstate(const char *s)
{
	static const char *const names[] = {
		"UNKNOWN", "NOTPRESENT", "DOWN", "LOWERLAYERDOWN", "TESTING", "DORMANT", "UP",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcasecmp(names[i], s))
			return (int)i;
	return -1;
}

void ip_set_name(struct ip_ctx *c, char *dst, const char *src)
{
	if (strlen(src) >= BC_IFNAMSIZ)
		ip_warn(c, "interface name '%.40s' is longer than 15 bytes; cut", src);
	snprintf(dst, BC_IFNAMSIZ, "%.*s", BC_IFNAMSIZ - 1, src);
}
