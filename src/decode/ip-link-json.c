// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON walker of saved `ip -j -d link show` / `ip -j -d address` output:
 * an array of interface objects (several documents one after another are
 * read in turn).  Parsed with json-c; every member is type-checked, so a
 * member of another type is skipped with a warning, never dereferenced.
 *
 * Keys (iproute2 ip/ipaddress.c, ip/iplink_bond.c, ip/iplink_bond_slave.c):
 * "ifindex", "ifname", "link", "flags" [..], "mtu", "master", "operstate",
 * "address", "linkinfo" {"info_kind": "bond", "info_data": {...},
 * "info_slave_kind": "bond", "info_slave_data": {...}}, "stats64" (or
 * "stats") {"rx": {...}, "tx": {...}}.  info_data's values go through the
 * same decoders as the text (ip-link-keys.c); the few keys JSON spells
 * differently are renamed first (rename[] below).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "bondcheck/ip-link.h"
#include "decode/ip-link.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* JSON member -> the text key that ip prints for it */
static const struct {
	const char *json, *text;
} renames[] = {
	{"ad_lacp_rate", "lacp_rate"},	    {"ad_lacp_active", "lacp_active"},
	{"num_peer_notif", "num_grat_arp"}, {"active_slave_index", "active_slave"},
	{"primary_index", "primary"},	    {"aggregator", "ad_aggregator"}, /* "ad_info" members */
	{"num_ports", "ad_num_ports"},	    {"actor_key", "ad_actor_key"},
	{"partner_key", "ad_partner_key"},  {"partner_mac", "ad_partner_mac"},
	{"state_index", "state"}, /* info_slave_data */
	{"mii_status_index", "mii_status"},
};

static const char *text_key(const char *k)
{
	for (size_t i = 0; i < ARRAY_SIZE(renames); i++)
		if (!strcmp(renames[i].json, k))
			return renames[i].text;
	return k;
}

static const char *str_member(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* A scalar or an array of strings as the text ip prints ("a,b" for arrays). */
static bool value_text(struct json_object *v, char *buf, size_t cap)
{
	size_t len = 0;

	switch (json_object_get_type(v)) {
	case json_type_string:
	case json_type_int:
		snprintf(buf, cap, "%s", json_object_get_string(v));
		return true;
	case json_type_boolean:
		snprintf(buf, cap, "%s", json_object_get_boolean(v) ? "on" : "off");
		return true;
	case json_type_array:
		buf[0] = '\0';
		for (size_t i = 0; i < json_object_array_length(v) && len < cap; i++) {
			struct json_object *e = json_object_array_get_idx(v, i);

			if (!json_object_is_type(e, json_type_string))
				return false;
			len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? "," : "",
						json_object_get_string(e));
		}
		return true;
	default:
		return false;
	}
}

/* The members of info_data, ad_info or info_slave_data. */
static void options(struct ip_ctx *c, struct ip_link *l, struct json_object *o, bool slave)
{
	char val[BC_IP_LINE_MAX];

	json_object_object_foreach(o, k, v)
	{
		const char *key = text_key(k);

		if (!slave && !strcmp(k, "ad_info") && json_object_is_type(v, json_type_object)) {
			options(c, l, v, false);
			continue;
		}
		if (!v && !slave && !strcmp(k, "arp_validate")) {
			ip_bond_kv(c, l, key, "none"); /* ip prints null for 0 */
			continue;
		}
		if (!v || !value_text(v, val, sizeof(val)))
			continue; /* "*_str" arrays of words, objects of later versions */
		if (slave)
			ip_slave_kv(c, l, key, val);
		else
			ip_bond_kv(c, l, key, val);
	}
}

static void linkinfo(struct ip_ctx *c, struct ip_link *l, struct json_object *li)
{
	struct json_object *d;
	const char *kind = str_member(li, "info_kind");
	const char *skind = str_member(li, "info_slave_kind");

	if (kind && !strcmp(kind, "bond")) {
		if (json_object_object_get_ex(li, "info_data", &d) &&
		    json_object_is_type(d, json_type_object))
			options(c, l, d, false);
		if (!l->bond)
			ip_warn(c,
				"%s: bond without its \"info_data\"; its options are not reported",
				l->name);
		if (!l->bond && !(l->bond = calloc(1, sizeof(*l->bond))))
			c->rc = -ENOMEM;
	}
	if (skind && !strcmp(skind, "bond")) {
		if (json_object_object_get_ex(li, "info_slave_data", &d) &&
		    json_object_is_type(d, json_type_object))
			options(c, l, d, true);
		if (!l->slave && !(l->slave = calloc(1, sizeof(*l->slave))))
			c->rc = -ENOMEM;
		if (l->slave)
			l->slave->ifindex = l->ifindex;
	}
}

static void counters(struct bc_link_stats *s, struct json_object *o, bool rx)
{
	static const struct {
		bool rx;
		const char *k;
		size_t off;
	} map[] = {
		{true, "bytes", offsetof(struct bc_link_stats, rx_bytes)},
		{true, "packets", offsetof(struct bc_link_stats, rx_packets)},
		{true, "errors", offsetof(struct bc_link_stats, rx_errors)},
		{true, "dropped", offsetof(struct bc_link_stats, rx_dropped)},
		{true, "over_errors", offsetof(struct bc_link_stats, rx_over_errors)},
		{true, "missed_errors", offsetof(struct bc_link_stats, rx_missed_errors)},
		{true, "crc_errors", offsetof(struct bc_link_stats, rx_crc_errors)},
		{true, "fifo_errors", offsetof(struct bc_link_stats, rx_fifo_errors)},
		{true, "nohandler", offsetof(struct bc_link_stats, rx_nohandler)},
		{false, "bytes", offsetof(struct bc_link_stats, tx_bytes)},
		{false, "packets", offsetof(struct bc_link_stats, tx_packets)},
		{false, "errors", offsetof(struct bc_link_stats, tx_errors)},
		{false, "dropped", offsetof(struct bc_link_stats, tx_dropped)},
		{false, "carrier_errors", offsetof(struct bc_link_stats, tx_carrier_errors)},
		{false, "fifo_errors", offsetof(struct bc_link_stats, tx_fifo_errors)},
	};
	struct json_object *v;

	for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
		if (map[i].rx != rx || !json_object_object_get_ex(o, map[i].k, &v) ||
		    !json_object_is_type(v, json_type_int))
			continue;
		*(uint64_t *)((char *)s + map[i].off) = (uint64_t)json_object_get_uint64(v);
		s->present = true;
	}
}

static void stats(struct ip_link *l, struct json_object *o)
{
	struct json_object *st, *d;

	if (!json_object_object_get_ex(o, "stats64", &st) &&
	    !json_object_object_get_ex(o, "stats", &st))
		return;
	if (!json_object_is_type(st, json_type_object))
		return;
	if (json_object_object_get_ex(st, "rx", &d) && json_object_is_type(d, json_type_object))
		counters(&l->stats, d, true);
	if (json_object_object_get_ex(st, "tx", &d) && json_object_is_type(d, json_type_object))
		counters(&l->stats, d, false);
}

static void one_link(struct ip_ctx *c, struct json_object *o)
{
	const char *name = str_member(o, "ifname"), *s;
	struct json_object *v;
	struct ip_link *l;
	int op;

	if (!json_object_is_type(o, json_type_object) || !name) {
		ip_warn(c, "expected an interface object with an \"ifname\"; skipped");
		return;
	}
	l = ip_new_link(c, name);
	if (!l)
		return;
	if (json_object_object_get_ex(o, "ifindex", &v) && json_object_is_type(v, json_type_int))
		l->ifindex = json_object_get_int(v);
	if ((s = str_member(o, "link")))
		ip_set_name(c, l->link, s);
	if ((s = str_member(o, "master")))
		ip_set_name(c, l->master, s);
	if (json_object_object_get_ex(o, "flags", &v) && json_object_is_type(v, json_type_array))
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			struct json_object *f = json_object_array_get_idx(v, i);

			if (json_object_is_type(f, json_type_string))
				ip_flag_word(l, json_object_get_string(f));
		}
	if (json_object_object_get_ex(o, "mtu", &v) && json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) >= 0 && json_object_get_int64(v) <= UINT32_MAX)
		bc_u32_set(&l->mtu, (uint32_t)json_object_get_int64(v));
	if ((s = str_member(o, "operstate")) && (op = ip_operstate(s)) >= 0)
		bc_u32_set(&l->operstate, (uint32_t)op);
	if ((s = str_member(o, "address")) && strchr(s, ':') && strlen(s) < BC_MAC_STR)
		ip_mac(&l->mac, s);
	if (json_object_object_get_ex(o, "linkinfo", &v) &&
	    json_object_is_type(v, json_type_object))
		linkinfo(c, l, v);
	stats(l, o);
}

static void document(struct ip_ctx *c, struct json_object *doc)
{
	if (json_object_is_type(doc, json_type_object)) {
		c->lineno++;
		one_link(c, doc);
		return;
	}
	for (size_t i = 0; i < json_object_array_length(doc) && !c->rc; i++) {
		c->lineno++;
		one_link(c, json_object_array_get_idx(doc, i));
	}
}

int ip_scan_json(struct ip_ctx *c, const char *text, size_t len, struct bc_error *err)
{
	struct json_tokener *tok = json_tokener_new();
	size_t pos = 0;
	int docs = 0;

	if (!tok)
		return -ENOMEM;
	c->json = true;
	while (pos < len && !c->rc) {
		struct json_object *doc;
		enum json_tokener_error e;

		while (pos < len && strchr(" \t\r\n", text[pos]) && text[pos])
			pos++;
		if (pos == len)
			break;
		json_tokener_reset(tok);
		doc = json_tokener_parse_ex(tok, text + pos, (int)(len - pos));
		e = json_tokener_get_error(tok);
		if (!doc || e != json_tokener_success) {
			size_t at = pos + json_tokener_get_parse_end(tok);

			json_object_put(doc);
			json_tokener_free(tok);
			if (docs) {
				ip_warn(c,
					"text after the JSON document at byte %zu is not JSON; "
					"ignored",
					pos);
				return 0;
			}
			return bc_error_set(
				err, -EINVAL,
				"%s: expected the JSON of `ip -j -d link show`; found %s at byte "
				"%zu",
				c->origin,
				e == json_tokener_continue ? "the end of the text inside a value "
							     "(truncated?)"
							   : json_tokener_error_desc(e),
				at);
		}
		pos += json_tokener_get_parse_end(tok);
		if (!json_object_is_type(doc, json_type_array) &&
		    !json_object_is_type(doc, json_type_object)) {
			json_object_put(doc);
			json_tokener_free(tok);
			return bc_error_set(
				err, -EINVAL,
				"%s: expected a JSON array of interfaces (`ip -j -d link "
				"show`); found a %s",
				c->origin, json_type_to_name(json_object_get_type(doc)));
		}
		document(c, doc);
		json_object_put(doc);
		docs++;
	}
	json_tokener_free(tok);
	return c->rc;
}
