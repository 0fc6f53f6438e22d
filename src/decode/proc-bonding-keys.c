// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Key tables and value decoders for /proc/net/bonding/<bond>.
 *
 * One table per block of the file, each entry a key exactly as
 * drivers/net/bonding/bond_procfs.c prints it (matched case-insensitively,
 * followed by ':'), the model field it fills and how to decode the value.
 * Matching by full key text rather than "split at the first colon" matters
 * for "NS IPv6 target/s (xx::xx form):", whose key itself holds colons.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bondcheck/names.h"
#include "bondcheck/proc.h"
#include "decode/proc-bonding.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ST_INVALID    0xff

struct key_def;
typedef void (*key_fn)(struct proc_ctx *c, const struct key_def *d, void *base, const char *v);

struct key_def {
	const char *key;
	key_fn fn;
	size_t off;	   /* offset of the target field in the block's struct */
	unsigned int seen; /* PROC_SEEN_* / PROC_SLAVE_SEEN_* to set */
};

#define FIELD(base, off, type) ((type *)((char *)(base) + (off)))

/*
 * Decode an unsigned decimal; "N/A" -> BC_NA, "Unknown" -> BC_UNKNOWN.
 * Returns the status, ST_INVALID when @v is none of these.
 */
static uint8_t parse_num(const char *v, uint32_t *out)
{
	unsigned long long n;
	char *end;

	if (!strcmp(v, "N/A"))
		return BC_NA;
	if (!strcasecmp(v, "unknown"))
		return BC_UNKNOWN;
	if (!isdigit((unsigned char)v[0]))
		return ST_INVALID;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || *end || n > UINT32_MAX)
		return ST_INVALID;
	*out = (uint32_t)n;
	return BC_KNOWN;
}

static void bad_value(struct proc_ctx *c, const struct key_def *d, const char *expected,
		      const char *v)
{
	proc_warn(c, "'%s' expected %s, found '%.60s'; value kept as an unknown key", d->key,
		  expected, v);
	proc_keep_unknown(c, d->key, v);
}

static void set_status(struct bc_u32 *f, uint8_t st, uint32_t v)
{
	f->st = st;
	f->v = st == BC_KNOWN ? v : 0;
}

static void h_u32(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	uint32_t n = 0;
	uint8_t st = parse_num(v, &n);

	if (st == ST_INVALID)
		return bad_value(c, d, "a number", v);
	set_status(FIELD(base, d->off, struct bc_u32), st, n);
}

/* Text field (MAC address or interface name); "N/A" and "None" -> BC_NA. */
static void h_str(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	struct bc_str *f = FIELD(base, d->off, struct bc_str);

	if (!strcmp(v, "N/A") || !strcmp(v, "None")) {
		f->st = BC_NA;
		f->v[0] = '\0';
		return;
	}
	if (!*v) { /* a blanked value ("Permanent HW addr:") says nothing */
		f->st = BC_UNKNOWN;
		f->v[0] = '\0';
		return;
	}
	if (strlen(v) >= sizeof(f->v))
		proc_warn(c, "'%s' value is %zu bytes, longer than any address; cut to %zu", d->key,
			  strlen(v), sizeof(f->v) - 1);
	snprintf(f->v, sizeof(f->v), "%s", v);
	for (char *p = f->v; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	f->st = BC_KNOWN;
}

/* Interface name (primary, active slave): keep case, cut at IFNAMSIZ. */
static void set_ifname(struct proc_ctx *c, const struct key_def *d, struct bc_str *f, const char *v,
		       size_t n)
{
	if (n >= BC_IFNAMSIZ)
		proc_warn(c, "'%s' names an interface of %zu bytes; Linux allows 15", d->key, n);
	snprintf(f->v, sizeof(f->v), "%.*s", (int)(n < BC_IFNAMSIZ ? n : BC_IFNAMSIZ - 1), v);
	f->st = BC_KNOWN;
}

/* "fault-tolerance (active-backup) (fail_over_mac active)" */
static void h_mode(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	struct bc_bond *b = base;
	char buf[BC_PROC_LINE_MAX];
	char *fom;
	int mode;

	snprintf(buf, sizeof(buf), "%s", v);
	fom = strstr(buf, " (fail_over_mac ");
	if (fom) {
		char *name = fom + strlen(" (fail_over_mac ");
		char *close = strchr(name, ')');
		int n;

		if (close)
			*close = '\0';
		n = bc_fail_over_mac_from_name(name);
		if (n >= 0)
			bc_u32_set(&b->fail_over_mac, (uint32_t)n);
		else
			bad_value(c, d, "fail_over_mac none, active or follow", name);
		*fom = '\0';
	}
	mode = bc_mode_from_proc_text(buf);
	if (mode < 0)
		mode = bc_mode_from_name(buf); /* hand-edited pastes say "802.3ad" */
	if (mode < 0)
		return bad_value(c, d, "one of the seven bonding mode texts", buf);
	bc_u32_set(&b->mode, (uint32_t)mode);
}

/* "layer3+4 (1)", "vlansrc (5)" (pre-merge RHEL 8 name): keep the printed name. */
static void h_hash(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	struct bc_bond *b = base;
	char buf[BC_TEXT];
	char *paren;
	long num = -1;
	int byname;

	(void)d;
	snprintf(buf, sizeof(buf), "%s", v);
	paren = strrchr(buf, '(');
	if (paren && paren > buf && paren[-1] == ' ' && isdigit((unsigned char)paren[1])) {
		char *end;

		num = strtol(paren + 1, &end, 10);
		if (!strcmp(end, ")")) {
			paren[-1] = '\0';
		} else {
			num = -1;
		}
	}
	snprintf(b->xmit_hash_policy_name, sizeof(b->xmit_hash_policy_name), "%s", buf);
	byname = bc_xmit_hash_policy_from_name(buf);
	if (num >= 0)
		bc_u32_set(&b->xmit_hash_policy, (uint32_t)num);
	else if (byname >= 0)
		bc_u32_set(&b->xmit_hash_policy, (uint32_t)byname);
	if (byname < 0)
		proc_warn(c, "unknown transmit hash policy '%s'%s; kept as printed", buf,
			  num >= 0 ? "" : " without a number");
	else if (num >= 0 && byname != num)
		proc_warn(c, "transmit hash policy '%s' printed with number %ld, expected %d", buf,
			  num, byname);
}

/* "None" or "eth0" or "eth0 (primary_reselect better)" */
static void h_primary(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	struct bc_bond *b = base;
	const char *sfx = strstr(v, " (primary_reselect ");
	size_t n = sfx ? (size_t)(sfx - v) : strlen(v);

	if (sfx) {
		char name[BC_TEXT];
		int r;

		snprintf(name, sizeof(name), "%s", sfx + strlen(" (primary_reselect "));
		name[strcspn(name, ")")] = '\0';
		r = bc_primary_reselect_from_name(name);
		if (r >= 0)
			bc_u32_set(&b->primary_reselect, (uint32_t)r);
		else
			bad_value(c, d, "primary_reselect always, better or failure", name);
	}
	if (n == 4 && !strncmp(v, "None", 4)) {
		b->primary.st = BC_NA;
		return;
	}
	set_ifname(c, d, &b->primary, v, n);
}

static void h_active(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	struct bc_bond *b = base;

	if (!strcmp(v, "None")) {
		b->active_slave.st = BC_NA;
		return;
	}
	set_ifname(c, d, &b->active_slave, v, strlen(v));
}

/* "up", "down", "going down", "going back" -> BOND_LINK_* */
static void h_link(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	int st = bc_link_status_from_name(v);

	if (st < 0)
		return bad_value(c, d, "up, down, going down or going back", v);
	bc_u32_set(FIELD(base, d->off, struct bc_u32), (uint32_t)st);
}

/*
 * "1000 Mbps" or "Unknown".  Kernels before 3.x printed SPEED_UNKNOWN
 * numerically: 65535 (16-bit ethtool speed) or -1 / 4294967295.
 */
static void h_speed(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	struct bc_slave *s = base;
	char buf[BC_TEXT];
	size_t n;
	uint32_t mbps = 0;
	uint8_t st;

	snprintf(buf, sizeof(buf), "%s", v);
	n = strlen(buf);
	if (n > 5 && !strcasecmp(buf + n - 5, " Mbps"))
		buf[n - 5] = '\0';
	if (!strcmp(buf, "-1")) {
		s->speed_mbps.st = BC_UNKNOWN;
		return;
	}
	st = parse_num(buf, &mbps);
	if (st == ST_INVALID || st == BC_NA)
		return bad_value(c, d, "'<n> Mbps' or 'Unknown'", v);
	if (st == BC_KNOWN && (mbps == 65535 || mbps == UINT32_MAX))
		st = BC_UNKNOWN;
	set_status(&s->speed_mbps, st, mbps);
}

static void h_duplex(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	struct bc_slave *s = base;

	if (!strcasecmp(v, "full"))
		bc_u32_set(&s->duplex, 1);
	else if (!strcasecmp(v, "half"))
		bc_u32_set(&s->duplex, 0);
	else if (!strcasecmp(v, "unknown"))
		s->duplex.st = BC_UNKNOWN;
	else
		bad_value(c, d, "full, half or Unknown", v);
}

/* "monitoring", "churned", "none"; the kernel prints "unknown" otherwise. */
static void h_churn(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	int st = bc_churn_from_name(v);

	if (st == BC_CHURN_OTHER && strcasecmp(v, "unknown"))
		proc_warn(c, "'%s' expected monitoring, churned, none or unknown, found '%.60s'",
			  d->key, v);
	bc_u32_set(FIELD(base, d->off, struct bc_u32), (uint32_t)st);
}

static void h_onoff(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	struct bc_u32 *f = FIELD(base, d->off, struct bc_u32);

	if (!strcasecmp(v, "on"))
		bc_u32_set(f, 1);
	else if (!strcasecmp(v, "off"))
		bc_u32_set(f, 0);
	else
		bad_value(c, d, "on or off", v);
}

static void h_rate(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	int r = bc_lacp_rate_from_name(v);

	if (r < 0)
		return bad_value(c, d, "slow or fast", v);
	bc_u32_set(FIELD(base, d->off, struct bc_u32), (uint32_t)r);
}

static void h_select(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	int r = bc_ad_select_from_name(v);

	if (r < 0)
		return bad_value(c, d, "stable, bandwidth, count or actor_port_prio", v);
	bc_u32_set(FIELD(base, d->off, struct bc_u32), (uint32_t)r);
}

/* "a.b.c.d, e.f.g.h" (one space after each comma); empty when no targets. */
static void split_targets(struct proc_ctx *c, const struct key_def *d, const char *v, char *out,
			  size_t width, size_t *n_out)
{
	const char *p = v;

	*n_out = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		const char *next = p[len] ? p + len + 1 : p + len;

		while (len && p[len - 1] == ' ')
			len--;
		if (!len) {
			p = next;
			while (*p == ' ')
				p++;
			continue;
		}
		if (*n_out >= BC_MAX_TARGETS) {
			proc_warn(c, "'%s' lists more than %d targets; the rest are ignored",
				  d->key, BC_MAX_TARGETS);
			return;
		}
		if (len >= width) {
			proc_warn(c, "'%s' target '%.*s' is too long; ignored", d->key,
				  (int)(len < 60 ? len : 60), p);
		} else {
			snprintf(out + *n_out * width, width, "%.*s", (int)len, p);
			(*n_out)++;
		}
		p = next;
		while (*p == ' ')
			p++;
	}
}

static void h_arp_targets(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	struct bc_bond *b = base;

	split_targets(c, d, v, &b->arp_targets[0][0], sizeof(b->arp_targets[0]), &b->n_arp_targets);
}

static void h_ns_targets(struct proc_ctx *c, const struct key_def *d, void *base, const char *v)
{
	struct bc_bond *b = base;

	split_targets(c, d, v, &b->ns_targets[0][0], sizeof(b->ns_targets[0]), &b->n_ns_targets);
}

#define B(f) offsetof(struct bc_bond, f)
#define S(f) offsetof(struct bc_slave, f)
#define P(f) offsetof(struct bc_lacp_port, f)

/* bond_info_show_master(): the master block, incl. 802.3ad info and Active Aggregator Info. */
static const struct key_def master_keys[] = {
	{"Bonding Mode", h_mode, 0, PROC_SEEN_MODE},
	{"Transmit Hash Policy", h_hash, 0, 0},
	{"Primary Slave", h_primary, 0, 0},
	{"Currently Active Slave", h_active, 0, 0},
	{"MII Status", h_link, B(mii_status), 0},
	{"MII Polling Interval (ms)", h_u32, B(miimon_ms), 0},
	{"Up Delay (ms)", h_u32, B(updelay_ms), 0},
	{"Down Delay (ms)", h_u32, B(downdelay_ms), PROC_SEEN_DOWNDELAY},
	{"Peer Notification Delay (ms)", h_u32, B(peer_notif_delay_ms), 0},
	{"ARP Polling Interval (ms)", h_u32, B(arp_interval_ms), PROC_SEEN_ARP},
	{"ARP Missed Max", h_u32, B(arp_missed_max), 0},
	{"ARP IP target/s (n.n.n.n form)", h_arp_targets, 0, 0},
	{"NS IPv6 target/s (xx::xx form)", h_ns_targets, 0, 0},
	{"LACP active", h_onoff, B(lacp_active), 0},
	{"LACP rate", h_rate, B(lacp_rate), 0},
	{"Min links", h_u32, B(min_links), 0},
	{"Aggregator selection policy (ad_select)", h_select, B(ad_select), PROC_SEEN_ADSELECT},
	{"System priority", h_u32, B(ad_actor_sys_prio), PROC_SEEN_SYSPRIO},
	{"System MAC address", h_str, B(ad_actor_system), PROC_SEEN_SYSPRIO},
	{"Aggregator ID", h_u32, B(ad_aggregator_id), PROC_SEEN_AGG},
	{"Number of ports", h_u32, B(ad_num_ports), PROC_SEEN_AGG},
	{"Actor Key", h_u32, B(ad_actor_key), PROC_SEEN_AGG},
	{"Partner Key", h_u32, B(ad_partner_key), PROC_SEEN_AGG},
	{"Partner Mac Address", h_str, B(ad_partner_mac), PROC_SEEN_AGG},
};

/* bond_info_show_slave(): one block per slave, in enslave order. */
static const struct key_def slave_keys[] = {
	{"MII Status", h_link, S(mii_status), PROC_SLAVE_SEEN_MII},
	{"Speed", h_speed, 0, PROC_SLAVE_SEEN_SPEED},
	{"Duplex", h_duplex, 0, PROC_SLAVE_SEEN_DUPLEX},
	{"Link Failure Count", h_u32, S(link_failure_count), PROC_SLAVE_SEEN_LFC},
	{"Permanent HW addr", h_str, S(perm_hwaddr), PROC_SLAVE_SEEN_PERM},
	{"Slave queue ID", h_u32, S(queue_id), PROC_SLAVE_SEEN_QUEUE},
	{"Aggregator ID", h_u32, S(aggregator_id), PROC_SLAVE_SEEN_AGG},
	{"Actor Churn State", h_churn, S(actor_churn_state), PROC_SLAVE_SEEN_CHURN},
	{"Partner Churn State", h_churn, S(partner_churn_state), PROC_SLAVE_SEEN_CHURN},
	{"Actor Churned Count", h_u32, S(actor_churned_count), PROC_SLAVE_SEEN_CHURN},
	{"Partner Churned Count", h_u32, S(partner_churned_count), PROC_SLAVE_SEEN_CHURN},
};

/* "details actor lacp pdu:" / "details partner lacp pdu:" (4.x+, CAP_NET_ADMIN). */
static const struct key_def pdu_keys[] = {
	{"system priority", h_u32, P(system_priority), 0},
	{"system mac address", h_str, P(system_mac), 0},
	{"port key", h_u32, P(key), 0}, /* actor */
	{"oper key", h_u32, P(key), 0}, /* partner */
	{"port priority", h_u32, P(port_priority), 0},
	{"port number", h_u32, P(port_number), 0},
	{"port state", h_u32, P(port_state), 0},
};

/* Entry whose key starts @line and is followed by ':'; *val = trimmed rest. */
static const struct key_def *match(const struct key_def *tab, size_t n, const char *line,
				   const char **val)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(tab[i].key);

		if (!strncasecmp(line, tab[i].key, k) && line[k] == ':') {
			const char *v = line + k + 1;

			while (*v == ' ' || *v == '\t')
				v++;
			*val = v;
			return &tab[i];
		}
	}
	return NULL;
}

static void keep_line(struct proc_ctx *c, const char *line)
{
	char key[BC_TEXT];
	const char *colon = strchr(line, ':');
	size_t klen;

	if (!colon) {
		proc_keep_unknown(c, "", line);
		return;
	}
	klen = (size_t)(colon - line);
	snprintf(key, sizeof(key), "%.*s", (int)(klen < sizeof(key) ? klen : sizeof(key) - 1),
		 line);
	colon++;
	while (*colon == ' ' || *colon == '\t')
		colon++;
	proc_keep_unknown(c, key, colon);
}

void proc_key_line(struct proc_ctx *c, const char *line)
{
	const struct key_def *d;
	const char *v;

	if (c->sec == PROC_SEC_ACTOR || c->sec == PROC_SEC_PARTNER) {
		struct bc_lacp_port *port =
			c->sec == PROC_SEC_ACTOR ? &c->slave->actor : &c->slave->partner;

		d = match(pdu_keys, ARRAY_SIZE(pdu_keys), line, &v);
		if (d) {
			d->fn(c, d, port, v);
			/* the oper port state is the one the findings read */
			if (d->off == P(port_state)) {
				if (c->sec == PROC_SEC_ACTOR)
					c->slave->actor_oper_port_state = port->port_state;
				else
					c->slave->partner_oper_port_state = port->port_state;
			}
			return;
		}
		c->sec = PROC_SEC_SLAVE; /* a slave key after the details: tolerate */
	}
	if (c->sec == PROC_SEC_SLAVE) {
		d = match(slave_keys, ARRAY_SIZE(slave_keys), line, &v);
		if (d) {
			c->slave_seen |= d->seen;
			d->fn(c, d, c->slave, v);
			return;
		}
		keep_line(c, line);
		return;
	}
	d = match(master_keys, ARRAY_SIZE(master_keys), line, &v);
	if (d) {
		c->seen |= d->seen;
		d->fn(c, d, c->bond, v);
		return;
	}
	keep_line(c, line);
}
