// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `ip` listing decoder, the part after scanning: which interfaces are
 * bonds and slaves, the bonds and slaves they become in the snapshot, what
 * the listing leaves unproven (hidden actor details, a slave list the
 * listing may not show in full), and reading a file.  The rules are
 * documented in include/bondcheck/ip-link.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bondcheck/file.h"
#include "bondcheck/ip-link.h"
#include "decode/ip-link.h"

void ip_warn(struct ip_ctx *c, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	if (c->n_warn >= BC_IP_MAX_WARNINGS) {
		c->n_warn_dropped++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (bc_snapshot_warn(c->snap, "%s: %s %zu: %s", c->origin, c->json ? "element" : "line",
			     c->lineno, msg) < 0)
		c->rc = -ENOMEM;
	c->n_warn++;
}

struct ip_link *ip_new_link(struct ip_ctx *c, const char *name)
{
	struct ip_link *arr, *l;

	if (c->n_links >= BC_IP_MAX_LINKS) {
		if (c->n_links == BC_IP_MAX_LINKS)
			ip_warn(c, "more than %d interfaces; the rest are ignored",
				BC_IP_MAX_LINKS);
		c->n_links = BC_IP_MAX_LINKS; /* warned once */
		return NULL;
	}
	arr = realloc(c->links, (c->n_links + 1) * sizeof(*arr));
	if (!arr) {
		c->rc = -ENOMEM;
		return NULL;
	}
	c->links = arr;
	l = &arr[c->n_links++];
	memset(l, 0, sizeof(*l));
	ip_set_name(c, l->name, name);
	l->line = c->lineno;
	return l;
}

static const struct ip_link *find_link(const struct ip_ctx *c, const char *name)
{
	for (size_t i = 0; i < c->n_links; i++)
		if (c->links[i].bond && !strcmp(c->links[i].name, name))
			return &c->links[i];
	return NULL;
}

static bool is_slave(const struct ip_ctx *c, const struct ip_link *l)
{
	return l->slave || (l->master[0] && find_link(c, l->master));
}

/* An ifindex that ip could not name: the listing may hold that interface. */
static void resolve_index(const struct ip_ctx *c, struct bc_str *f, int idx)
{
	if (!idx)
		return;
	for (size_t i = 0; i < c->n_links; i++)
		if (c->links[i].ifindex == idx) {
			snprintf(f->v, sizeof(f->v), "%s", c->links[i].name);
			return;
		}
}

static void device_facts(const struct ip_link *l, struct bc_u32 *mtu, struct bc_u32 *oper,
			 struct bc_str *mac, struct bc_link_stats *st)
{
	*mtu = l->mtu;
	*oper = l->operstate;
	*mac = l->mac;
	*st = l->stats;
}

/*
 * Hidden actor details: an 802.3ad bond line printed by a kernel that has
 * them (tlb_dynamic_lb, 4.3+, comes after them) but without them.
 */
static void mark_hidden(struct ip_ctx *c, struct bc_bond *b, const struct ip_link *l)
{
	if (!bc_u32_known(&b->mode) || b->mode.v != BC_MODE_8023AD)
		return;
	if (l->has_tlb && !l->has_sys_prio) {
		b->ad_actor_sys_prio.st = BC_HIDDEN;
		b->ad_user_port_key.st = BC_HIDDEN;
		b->ad_actor_system.st = BC_HIDDEN;
		c->snap->lacp_hidden = true;
	}
	if (l->has_ad_info)
		b->ad_info_status = BC_KNOWN;
	else if (l->has_ad_select && (l->flags & IPF_UP) && !(l->flags & IPF_LOWER_UP))
		b->ad_info_status = BC_NA; /* the kernel omits AD_INFO without an active one */
}

static int add_bond(struct ip_ctx *c, const struct ip_link *l)
{
	struct bc_bond *b = bc_snapshot_add_bond(c->snap, l->name);

	if (!b)
		return -ENOMEM;
	memcpy(b, l->bond, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", l->name);
	snprintf(b->origin, sizeof(b->origin), "%s", c->origin);
	b->ifindex = l->ifindex;
	device_facts(l, &b->mtu, &b->operstate, &b->mac, &b->stats);
	if (l->flags & IPF_UP)
		bc_u32_set(&b->mii_status, l->flags & IPF_LOWER_UP ? BC_LINK_UP : BC_LINK_DOWN);
	resolve_index(c, &b->active_slave, l->active_index);
	resolve_index(c, &b->primary, l->primary_index);
	if (l->master[0])
		snprintf(b->uppers[b->n_uppers++], BC_IFNAMSIZ, "%s", l->master);
	for (size_t i = 0; i < c->n_links && b->n_uppers < 8; i++)
		if (!strcmp(c->links[i].link, l->name))
			snprintf(b->uppers[b->n_uppers++], BC_IFNAMSIZ, "%s", c->links[i].name);
	mark_hidden(c, b, l);
	return 0;
}

static int add_slave(struct bc_bond *b, const struct ip_link *l)
{
	struct bc_slave *s = bc_bond_add_slave(b, l->name);

	if (!s)
		return -ENOMEM;
	if (l->slave)
		memcpy(s, l->slave, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", l->name);
	s->ifindex = l->ifindex;
	device_facts(l, &s->mtu, &s->operstate, &s->mac, &s->stats);
	if (l->flags & IPF_UP)
		bc_u32_set(&s->carrier, l->flags & IPF_LOWER_UP ? 1 : 0);
	/* the kernel gives a mode-4 port without an aggregator no AD attributes */
	if (bc_u32_known(&b->mode) && b->mode.v == BC_MODE_8023AD &&
	    b->ad_info_status == BC_KNOWN && l->slave && s->aggregator_id.st == BC_NOT_REPORTED)
		s->aggregator_id.st = BC_NA;
	return 0;
}

static void incomplete(struct bc_bond *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void incomplete(struct bc_bond *b, const char *fmt, ...)
{
	va_list ap;

	if (b->slaves_incomplete)
		return; /* the first reason is the strongest */
	b->slaves_incomplete = true;
	va_start(ap, fmt);
	vsnprintf(b->incomplete_reason, sizeof(b->incomplete_reason), fmt, ap);
	va_end(ap);
}

/*
 * A bond known only from its slaves: the kernel gives a port an aggregator
 * id and LACP port states only in 802.3ad mode (bond_fill_slave_info()),
 * so those prove the mode even without the master's line.
 */
static void mode_from_slaves(struct bc_bond *b)
{
	if (b->mode.st != BC_NOT_REPORTED)
		return;
	for (size_t i = 0; i < b->n_slaves; i++)
		if (bc_u32_known(&b->slaves[i].aggregator_id) ||
		    bc_u32_known(&b->slaves[i].actor_oper_port_state)) {
			bc_u32_set(&b->mode, BC_MODE_8023AD);
			return;
		}
}

/* What the bond's own fields prove about its slave list (ip-link.h). */
static void check_complete(struct bc_bond *b, bool full_dump, bool master_listed)
{
	if (!master_listed) {
		incomplete(b,
			   "the listing shows slaves of %s but not %s itself: other slaves "
			   "may exist",
			   b->name, b->name);
		return;
	}
	if (b->ad_info_status == BC_KNOWN && bc_u32_known(&b->ad_num_ports) &&
	    b->ad_num_ports.v > b->n_slaves)
		incomplete(b, "ad_num_ports %u but %zu slave%s in the listing", b->ad_num_ports.v,
			   b->n_slaves, b->n_slaves == 1 ? "" : "s");
	if (b->active_slave.st == BC_KNOWN && !bc_bond_find_slave(b, b->active_slave.v))
		incomplete(b, "active_slave %s is not in the listing", b->active_slave.v);
	if (b->primary.st == BC_KNOWN && !bc_bond_find_slave(b, b->primary.v))
		incomplete(b, "primary %s is not in the listing", b->primary.v);
	if (b->n_slaves)
		return;
	if (bc_u32_known(&b->mii_status) && b->mii_status.v == BC_LINK_UP)
		incomplete(b, "the bond has carrier (LOWER_UP), which needs an up slave, but "
			      "the listing shows none");
	else if (!full_dump)
		incomplete(b,
			   "the listing shows %s without its slaves; an ip listing filtered "
			   "to some interfaces cannot show that there are none",
			   b->name);
}

/* Bonds first (listing order), then every slave into its master. */
static int assemble(struct ip_ctx *c, size_t first)
{
	bool full_dump = false;
	int rc;

	for (size_t i = 0; i < c->n_links; i++)
		full_dump |= (c->links[i].flags & IPF_LOOPBACK) != 0;
	for (size_t i = 0; i < c->n_links; i++) {
		const struct ip_link *l = &c->links[i];

		if (!l->bond)
			continue;
		if (l->slave)
			ip_warn(c, "%s has both a 'bond' and a 'bond_slave' line; read as a bond",
				l->name);
		if (bc_snapshot_find_bond(c->snap, l->name)) {
			ip_warn(c,
				"bond %s was already read (listed twice?); this listing of it "
				"is skipped",
				l->name);
			continue;
		}
		rc = add_bond(c, l);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < c->n_links; i++) {
		const struct ip_link *l = &c->links[i];
		struct bc_bond *b;

		if (l->bond || !is_slave(c, l))
			continue;
		if (!l->master[0]) {
			ip_warn(c, "%s has a 'bond_slave' line but no 'master NAME'; skipped",
				l->name);
			continue;
		}
		b = bc_snapshot_find_bond(c->snap, l->master);
		if (b && (size_t)(b - c->snap->bonds) < first) {
			ip_warn(c,
				"%s: its master %s was read from another source; a new entry "
				"is not made",
				l->name, l->master);
			continue;
		}
		if (!b) {
			b = bc_snapshot_add_bond(c->snap, l->master);
			if (!b)
				return -ENOMEM;
			snprintf(b->origin, sizeof(b->origin), "%s", c->origin);
		}
		if (bc_bond_find_slave(b, l->name)) {
			ip_warn(c, "slave %s is listed twice; the first listing is kept", l->name);
			continue;
		}
		rc = add_slave(b, l);
		if (rc)
			return rc;
	}
	for (size_t i = first; i < c->snap->n_bonds; i++) {
		struct bc_bond *b = &c->snap->bonds[i];

		if (!find_link(c, b->name))
			mode_from_slaves(b);
		check_complete(b, full_dump, find_link(c, b->name) != NULL);
	}
	return 0;
}

static void free_links(struct ip_ctx *c)
{
	for (size_t i = 0; i < c->n_links; i++) {
		free(c->links[i].bond);
		free(c->links[i].slave);
	}
	free(c->links);
}

static void drop_bonds(struct bc_snapshot *snap, size_t first)
{
	while (snap->n_bonds > first) {
		struct bc_bond *b = &snap->bonds[--snap->n_bonds];

		free(b->slaves); /* a staged slave owns no counters */
		free(b->unknown);
	}
}

/* "eth0, eth1, ... (4 interfaces)" for the no-bond error. */
static void name_links(const struct ip_ctx *c, char *buf, size_t cap)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->n_links && i < 6 && len < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "",
					c->links[i].name);
	if (c->n_links > 6 && len < cap)
		snprintf(buf + len, cap - len, ", ...");
}

/* -EINVAL when the listing holds no bond and no bond slave: say what it holds. */
static int check_any_bond(const struct ip_ctx *c, bool json, struct bc_error *err)
{
	bool flagged = false;
	char names[96];

	for (size_t i = 0; i < c->n_links; i++) {
		if (c->links[i].bond || c->links[i].slave)
			return 0;
		flagged |= (c->links[i].flags & (IPF_MASTER | IPF_SLAVE)) != 0;
	}
	if (!c->n_links)
		return bc_error_set(
			err, -EINVAL, "%s: expected an `ip -d link` listing; found no interface %s",
			c->origin,
			json ? "object with an \"ifname\"" : "line 'N: NAME: <FLAGS> ...'");
	name_links(c, names, sizeof(names));
	return bc_error_set(err, -EINVAL,
			    "%s: expected an `ip -d link` listing with a 'bond mode ...' or "
			    "'bond_slave ...' line (%s); found %zu interface%s (%s) and none is a "
			    "bond or bond slave%s",
			    c->origin,
			    json ? "JSON: linkinfo.info_kind \"bond\"" : "`ip -d` prints them",
			    c->n_links, c->n_links == 1 ? "" : "s", names,
			    flagged ? "; MASTER/SLAVE flags are there: taken without -d?" : "");
}

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/*
 * Whether a JSON array of objects or an object starts at @p: "[{", "[]",
 * "{\"" or "{}" with blanks between.  A prompt "[root@host ~]# ip -j ..."
 * also starts with '[', and is not one.
 */
static bool json_start(const char *p, const char *end)
{
	char open = *p++;

	while (p < end && blank(*p))
		p++;
	if (p == end)
		return false;
	return open == '[' ? *p == '{' || *p == ']' : *p == '"' || *p == '}';
}

/*
 * JSON when a line starts (after blanks) with a JSON array or object before
 * any interface line ("N: ..."); lines before it (a prompt, the command) are
 * skipped.  @start is where the JSON begins.
 */
static bool looks_json(const char *text, size_t len, size_t *start)
{
	const char *end = text + len;
	size_t i = 0;

	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len) {
		const char *nl;

		while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
			i++;
		if (i < len && (text[i] == '[' || text[i] == '{') && json_start(text + i, end)) {
			*start = i;
			return true;
		}
		if (i < len && text[i] >= '0' && text[i] <= '9')
			return false; /* an interface line first: text */
		nl = memchr(text + i, '\n', len - i);
		if (!nl)
			break;
		i = (size_t)(nl - text) + 1;
	}
	return false;
}

int bc_ip_parse(const char *text, size_t len, const char *origin, struct bc_snapshot *snap,
		struct bc_error *err)
{
	struct ip_ctx c = {.snap = snap, .origin = origin && *origin ? origin : "ip listing"};
	size_t first = snap->n_bonds, start = 0;
	bool json;
	int rc;

	if (len > BC_IP_MAX_SIZE)
		return bc_error_set(err, -EFBIG,
				    "%s: %zu bytes; an `ip -d link` listing is at most a few MiB, "
				    "and at most %u bytes are accepted",
				    c.origin, len, BC_IP_MAX_SIZE);
	if (!text)
		len = 0;
	json = looks_json(text, len, &start);
	rc = json ? ip_scan_json(&c, text + start, len - start, err) : ip_scan_text(&c, text, len);
	if (!rc && c.rc)
		rc = c.rc;
	if (!rc)
		rc = check_any_bond(&c, json, err);
	if (!rc)
		rc = assemble(&c, first);
	if (!rc && c.rc)
		rc = c.rc;
	if (rc == -ENOMEM)
		bc_error_set(err, rc, "%s: out of memory while parsing", c.origin);
	if (!rc && c.n_warn_dropped &&
	    bc_snapshot_warn(snap, "%s: %u more warnings not shown", c.origin, c.n_warn_dropped) <
		    0)
		rc = bc_error_set(err, -ENOMEM, "out of memory");
	free_links(&c);
	if (rc) {
		drop_bonds(snap, first);
		return rc;
	}
	snap->have |= BC_HAVE_RTNL;
	return 0;
}

int bc_ip_parse_file(const char *path, struct bc_snapshot *snap, struct bc_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	rc = bc_file_read_capped(path, BC_IP_MAX_SIZE, "a file holding `ip -d link` output",
				 "an `ip -d link` listing is much smaller", &buf, &len, err);
	if (rc)
		return rc;
	rc = bc_ip_parse(buf, len, path, snap, err);
	free(buf);
	return rc;
}
