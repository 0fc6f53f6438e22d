// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenario parser and validator.  libinih reads the INI syntax; a line-
 * counting reader gives every key and section its line, so errors say
 * "FILE:LINE: reason" both for syntax and for cross-references checked after
 * the whole file is read (an end naming an undeclared namespace, a wire on an
 * emulated NIC, an MTU the NIC model cannot carry).
 */
#include <ctype.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "scenario.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const model_names[SC_N_MODELS] = { "veth", "e1000", "rtl8139", "virtio" };

const char *sc_model_name(enum sc_model m)
{
	return m < SC_N_MODELS ? model_names[m] : "?";
}

struct parse_state {
	struct scenario *sc;
	const char *buf;
	size_t len, off;
	int line;          /* line number of the line inih is processing */
	int section_line;
	char section[128];
	void *cur;         /* current section object */
	char kind[16];     /* current section kind */
};

static int fail_at(struct scenario *sc, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail_at(struct scenario *sc, int line, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	if (sc->err[0])
		return 0;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sc->err_line = line;
	snprintf(sc->err, sizeof(sc->err), "%s:%d: %s", sc->file, line, msg);
	return 0; /* inih: handler error */
}

static int open_section(struct parse_state *ps, const char *section);

/*
 * inih calls the handler only for keys, so a section without keys
 * ("[bridge b br0]") would never be seen: sections are opened here instead.
 */
static void open_if_section(struct parse_state *ps, const char *line)
{
	char sec[128];
	const char *end;
	size_t n;

	while (*line == ' ' || *line == '\t')
		line++;
	if (*line != '[' || ps->sc->err[0])
		return;
	end = strchr(line, ']');
	if (!end) {
		fail_at(ps->sc, ps->line, "expected ']' to close the section header");
		return;
	}
	line++;
	while (*line == ' ')
		line++;
	n = (size_t)(end - line);
	while (n && line[n - 1] == ' ')
		n--;
	if (n >= sizeof(sec))
		n = sizeof(sec) - 1;
	memcpy(sec, line, n);
	sec[n] = '\0';
	open_section(ps, sec);
}

/* inih reader: one line at a time, counting lines; rejects over-long lines. */
static char *reader(char *str, int num, void *stream)
{
	struct parse_state *ps = stream;
	size_t n = 0;

	if (ps->off >= ps->len)
		return NULL;
	ps->line++;
	while (ps->off < ps->len) {
		char c = ps->buf[ps->off++];

		if (c == '\0') {
			fail_at(ps->sc, ps->line, "NUL byte in the file: expected text");
			c = ' ';
		}
		if ((int)n < num - 1)
			str[n++] = c;
		else if (c != '\n')
			fail_at(ps->sc, ps->line, "line longer than %d characters", num - 2);
		if (c == '\n')
			break;
	}
	str[n] = '\0';
	open_if_section(ps, str);
	return str;
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= SC_NAME)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

static bool parse_int(const char *v, long lo, long hi, long *out)
{
	char *end;
	long x = strtol(v, &end, 10);

	if (end == v || *end || x < lo || x > hi)
		return false;
	*out = x;
	return true;
}

/* a number followed by one of the units; e.g. "15mbit", "5ms", "2.5%" */
/*
 * A number followed by one of @units: finite, 0..1e6 in that unit (so
 * "1e30mbit", "inf" and "-1ms" are rejected before anything computes with
 * them: fuzz-scenario found the first overflowing a long in tbf_burst()).
 */
static bool num_unit(const char *v, const char *const *units)
{
	char *end;
	double x = strtod(v, &end);

	if (end == v || !isfinite(x) || x < 0 || x > 1e6)
		return false;
	for (; *units; units++)
		if (!strcmp(end, *units))
			return true;
	return false;
}

static const char *const rate_units[] = { "bit", "kbit", "mbit", "gbit", NULL };
static const char *const time_units[] = { "us", "ms", "s", NULL };
static const char *const pct_units[] = { "%", NULL };

static struct sc_ns *find_ns(struct scenario *sc, const char *name)
{
	for (size_t i = 0; i < sc->n_ns; i++)
		if (!strcmp(sc->ns[i].name, name))
			return &sc->ns[i];
	return NULL;
}

static struct sc_master *find_master(struct scenario *sc, const char *ns, const char *name)
{
	for (size_t i = 0; i < sc->n_master; i++)
		if (!strcmp(sc->master[i].ns, ns) && !strcmp(sc->master[i].name, name))
			return &sc->master[i];
	return NULL;
}

/* Bonding options (iproute2 spelling) and the values each accepts. */
struct bond_opt {
	const char *name;
	const char *const *values; /* NULL: a number */
	bool text;                 /* free text (validated elsewhere) */
};

static const char *const v_mode[] = { "balance-rr",  "active-backup", "balance-xor", "broadcast",
				      "802.3ad",     "balance-tlb",   "balance-alb", "0",
				      "1",           "2",             "3",           "4",
				      "5",           "6",             NULL };
static const char *const v_hash[] = { "layer2",   "layer3+4",   "layer2+3", "encap2+3",
				      "encap3+4", "vlan+srcmac", NULL };
static const char *const v_rate[] = { "slow", "fast", "0", "1", NULL };
static const char *const v_onoff[] = { "on", "off", "0", "1", NULL };
static const char *const v_select[] = { "stable", "bandwidth", "count", NULL };
static const char *const v_validate[] = { "none",   "active",        "backup",        "all",
					  "filter", "filter_active", "filter_backup", NULL };
static const char *const v_all[] = { "any", "all", NULL };
static const char *const v_reselect[] = { "always", "better", "failure", NULL };
static const char *const v_fom[] = { "none", "active", "follow", NULL };

static const struct bond_opt bond_opts[] = {
	{ "mode", v_mode, false },
	{ "xmit_hash_policy", v_hash, false },
	{ "lacp_rate", v_rate, false },
	{ "lacp_active", v_onoff, false },
	{ "ad_select", v_select, false },
	{ "arp_validate", v_validate, false },
	{ "arp_all_targets", v_all, false },
	{ "primary_reselect", v_reselect, false },
	{ "fail_over_mac", v_fom, false },
	{ "arp_ip_target", NULL, true },
	{ "ad_actor_system", NULL, true },
	{ "miimon", NULL, false },
	{ "updelay", NULL, false },
	{ "downdelay", NULL, false },
	{ "peer_notify_delay", NULL, false },
	{ "arp_interval", NULL, false },
	{ "arp_missed_max", NULL, false },
	{ "min_links", NULL, false },
	{ "num_grat_arp", NULL, false },
	{ "num_unsol_na", NULL, false },
	{ "resend_igmp", NULL, false },
	{ "all_slaves_active", NULL, false },
	{ "lp_interval", NULL, false },
	{ "packets_per_slave", NULL, false },
	{ "tlb_dynamic_lb", NULL, false },
	{ "use_carrier", NULL, false },
	{ "ad_actor_sys_prio", NULL, false },
	{ "ad_user_port_key", NULL, false },
};

static bool in_list(const char *v, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(v, *list))
			return true;
	return false;
}

static void join_list(const char *const *list, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (; *list && off + 1 < len; list++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", *list);
}

static int bond_key(struct parse_state *ps, struct sc_master *m, const char *k, const char *v)
{
	struct scenario *sc = ps->sc;
	long x;

	if (!strcmp(k, "primary")) {
		if (!valid_name(v))
			return fail_at(sc, ps->line, "primary: expected an interface name, found '%s'", v);
		snprintf(m->primary, sizeof(m->primary), "%s", v);
		return 1;
	}
	if (!strcmp(k, "mtu")) {
		if (!parse_int(v, 68, 65535, &x))
			return fail_at(sc, ps->line, "mtu: expected 68..65535, found '%s'", v);
		m->mtu = (int)x;
		return 1;
	}
	if (m->bridge)
		return fail_at(sc, ps->line, "unknown key '%s' in a bridge section (known: mtu)", k);
	for (size_t i = 0; i < ARRAY_SIZE(bond_opts); i++) {
		const struct bond_opt *o = &bond_opts[i];
		char allowed[256];

		if (strcmp(k, o->name))
			continue;
		if (o->values && !in_list(v, o->values)) {
			join_list(o->values, allowed, sizeof(allowed));
			return fail_at(sc, ps->line, "bond option %s: expected one of %s; found '%s'",
				       k, allowed, v);
		}
		if (!o->values && !o->text && !parse_int(v, 0, 1000000, &x))
			return fail_at(sc, ps->line, "bond option %s: expected a number, found '%s'",
				       k, v);
		if (o->text && strpbrk(v, " \t'\"$`;|&<>\\"))
			return fail_at(sc, ps->line, "bond option %s: unexpected character in '%s'",
				       k, v);
		for (size_t j = 0; j < m->n_opt; j++)
			if (!strcmp(m->opt[j].key, k))
				return fail_at(sc, ps->line, "bond option %s given twice (first on line %d)",
					       k, m->opt[j].line);
		if (m->n_opt >= SC_MAX)
			return fail_at(sc, ps->line, "too many bond options");
		snprintf(m->opt[m->n_opt].key, sizeof(m->opt[0].key), "%s", k);
		snprintf(m->opt[m->n_opt].val, sizeof(m->opt[0].val), "%s", v);
		m->opt[m->n_opt++].line = ps->line;
		return 1;
	}
	return fail_at(sc, ps->line, "unknown bond option '%s' (see test-scenarios/README.md)", k);
}

static int parse_end(struct parse_state *ps, struct sc_end *e, const char *v)
{
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);

	if (n == 0 || n >= SC_NAME)
		return fail_at(ps->sc, ps->line, "expected NAMESPACE[:MASTER], found '%s'", v);
	memcpy(e->ns, v, n);
	e->ns[n] = '\0';
	if (colon)
		snprintf(e->master, sizeof(e->master), "%s", colon + 1);
	if (!valid_name(e->ns) || (colon && !valid_name(e->master)))
		return fail_at(ps->sc, ps->line, "expected NAMESPACE[:MASTER] of names, found '%s'", v);
	e->set = true;
	return 1;
}

static int link_key(struct parse_state *ps, struct sc_link *l, const char *k, const char *v)
{
	struct scenario *sc = ps->sc;
	long x;

	if (!strcmp(k, "model")) {
		if (!strcmp(v, "virtio-net"))
			v = "virtio";
		for (int i = 0; i < SC_N_MODELS; i++)
			if (!strcmp(v, model_names[i])) {
				l->model = (enum sc_model)i;
				return 1;
			}
		return fail_at(sc, ps->line,
			       "unknown NIC model '%s': expected veth, e1000, rtl8139 or virtio", v);
	}
	if (!strcmp(k, "a"))
		return parse_end(ps, &l->a, v);
	if (!strcmp(k, "b"))
		return parse_end(ps, &l->b, v);
	if (!strcmp(k, "name_a") || !strcmp(k, "name_b")) {
		if (!valid_name(v))
			return fail_at(sc, ps->line, "%s: expected an interface name (max 15 chars), found '%s'", k, v);
		snprintf(k[5] == 'a' ? l->a.ifname : l->b.ifname, SC_NAME, "%s", v);
		return 1;
	}
	if (!strcmp(k, "wire")) {
		if (strcmp(v, "yes") && strcmp(v, "no"))
			return fail_at(sc, ps->line, "wire: expected yes or no, found '%s'", v);
		l->wire = !strcmp(v, "yes");
		return 1;
	}
	if (!strcmp(k, "rate")) {
		if (!num_unit(v, rate_units))
			return fail_at(sc, ps->line, "rate: expected a number 0..1e6 with bit, kbit, mbit or gbit, found '%s'", v);
		snprintf(l->rate, sizeof(l->rate), "%s", v);
		return 1;
	}
	if (!strcmp(k, "delay") || !strcmp(k, "jitter")) {
		if (!num_unit(v, time_units))
			return fail_at(sc, ps->line, "%s: expected a time 0..1e6 with us, ms or s, found '%s'", k, v);
		snprintf(k[0] == 'd' ? l->delay : l->jitter, 32, "%s", v);
		return 1;
	}
	if (!strcmp(k, "loss") || !strcmp(k, "duplicate")) {
		if (!num_unit(v, pct_units))
			return fail_at(sc, ps->line, "%s: expected a percentage like 5%%, found '%s'", k, v);
		snprintf(k[0] == 'l' ? l->loss : l->duplicate, 32, "%s", v);
		return 1;
	}
	if (!strcmp(k, "reorder")) {
		char a[32] = "", b[32] = "";
		int n = sscanf(v, "%31s %31s", a, b);

		if (n < 1 || !num_unit(a, pct_units) || (n == 2 && !num_unit(b, pct_units)))
			return fail_at(sc, ps->line, "reorder: expected 'P%%' or 'P%% CORRELATION%%', found '%s'", v);
		snprintf(l->reorder, sizeof(l->reorder), "%s", v);
		return 1;
	}
	if (!strcmp(k, "impair")) {
		static const char *const w[] = { "wire", "a", "b", "both" };

		for (int i = 0; i < 4; i++)
			if (!strcmp(v, w[i])) {
				l->at = (enum sc_where)(i + 1);
				return 1;
			}
		return fail_at(sc, ps->line, "impair: expected wire, a, b or both, found '%s'", v);
	}
	if (!strcmp(k, "direction")) {
		if (!strcmp(v, "both"))
			l->dir = SC_DIR_BOTH;
		else if (!strcmp(v, "a-to-b"))
			l->dir = SC_DIR_AB;
		else if (!strcmp(v, "b-to-a"))
			l->dir = SC_DIR_BA;
		else
			return fail_at(sc, ps->line, "direction: expected both, a-to-b or b-to-a, found '%s'", v);
		return 1;
	}
	if (!strcmp(k, "mtu")) {
		if (!parse_int(v, 68, 65535, &x))
			return fail_at(sc, ps->line, "mtu: expected 68..65535, found '%s'", v);
		l->mtu = (int)x;
		return 1;
	}
	return fail_at(sc, ps->line,
		       "unknown link key '%s' (known: model, a, b, name_a, name_b, wire, rate, delay, "
		       "jitter, loss, reorder, duplicate, impair, direction, mtu)", k);
}

/* Expectation kinds: name, minimum and maximum argument counts. */
struct expect_kind {
	const char *name;
	int min_args, max_args;
	bool bond_ref; /* first argument is NS:BOND */
};

static const struct expect_kind expect_kinds[] = {
	{ "bond_up", 1, 1, true },
	{ "bond_mode", 2, 2, true },
	{ "bond_slaves", 1, SC_MAX, true },
	{ "lacp_state", 2, 3, true },
	{ "lacp_no_partner", 1, 1, true },
	{ "drivers", 2, SC_MAX, true },
	{ "ping", 2, 2, false },
	{ "iperf_tcp", 6, 6, false },
	{ "iperf_udp", 7, 7, false },
	{ "findings", 2, SC_MAX, true },
	{ "no_findings", 2, SC_MAX, true },
	{ "cmd", 1, 1000, false },
	{ "cmd_fails", 1, 1000, false },
};

static int count_words(const char *v)
{
	int n = 0;
	bool in = false;

	for (; *v; v++) {
		if (isspace((unsigned char)*v))
			in = false;
		else if (!in) {
			in = true;
			n++;
		}
	}
	return n;
}

static int step_key(struct parse_state *ps, bool expect, const char *k, const char *v)
{
	struct scenario *sc = ps->sc;
	struct sc_step *arr = expect ? sc->expect : sc->run;
	size_t *n = expect ? &sc->n_expect : &sc->n_run;
	const struct expect_kind *ek = NULL;

	if (!expect) {
		if (strcmp(k, "cmd"))
			return fail_at(sc, ps->line, "unknown key '%s' in [run] (known: cmd)", k);
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(expect_kinds); i++)
			if (!strcmp(k, expect_kinds[i].name))
				ek = &expect_kinds[i];
		if (!ek)
			return fail_at(sc, ps->line,
				       "unknown expectation '%s' (see test-scenarios/README.md)", k);
		int w = count_words(v);

		if (w < ek->min_args || w > ek->max_args)
			return fail_at(sc, ps->line, "%s: expected %d..%d arguments, found %d", k,
				       ek->min_args, ek->max_args, w);
	}
	if (*n >= ARRAY_SIZE(sc->run))
		return fail_at(sc, ps->line, "too many steps");
	snprintf(arr[*n].kind, sizeof(arr[0].kind), "%s", k);
	snprintf(arr[*n].arg, sizeof(arr[0].arg), "%s", v);
	arr[*n].line = ps->line;
	(*n)++;
	return 1;
}

static int ns_key(struct parse_state *ps, struct sc_ns *ns, const char *k, const char *v)
{
	struct scenario *sc = ps->sc;

	if (!strcmp(k, "sysctl")) {
		const char *eq = strchr(v, '=');

		if (!eq || eq == v || strpbrk(v, " \t'\"$`;|&<>\\"))
			return fail_at(sc, ps->line, "sysctl: expected KEY=VALUE, found '%s'", v);
		if (ns->n_sysctl >= SC_MAX)
			return fail_at(sc, ps->line, "too many sysctls");
		snprintf(ns->sysctl[ns->n_sysctl].val, SC_VAL, "%s", v);
		ns->sysctl[ns->n_sysctl++].line = ps->line;
		return 1;
	}
	if (!strcmp(k, "addr")) {
		char dev[64], a[128];

		if (sscanf(v, "%63s %127s", dev, a) != 2 || !valid_name(dev) || !strchr(a, '/') ||
		    strpbrk(a, "'\"$`;|&<>\\"))
			return fail_at(sc, ps->line, "addr: expected 'DEVICE ADDRESS/PREFIX', found '%s'", v);
		if (ns->n_addr >= SC_MAX)
			return fail_at(sc, ps->line, "too many addresses");
		snprintf(ns->addr[ns->n_addr].key, sizeof(ns->addr[0].key), "%s", dev);
		snprintf(ns->addr[ns->n_addr].val, SC_VAL, "%s", a);
		ns->addr[ns->n_addr++].line = ps->line;
		return 1;
	}
	return fail_at(sc, ps->line, "unknown key '%s' in a namespace section (known: sysctl, addr)", k);
}

/* Open a section: "scenario", "ns NAME", "bond NS NAME", "bridge NS NAME", "link NAME", "run", "expect". */
static int open_section(struct parse_state *ps, const char *section)
{
	struct scenario *sc = ps->sc;
	char kind[16] = "", a[64] = "", b[64] = "", extra[8] = "";
	int n = sscanf(section, "%15s %63s %63s %7s", kind, a, b, extra);

	snprintf(ps->section, sizeof(ps->section), "%s", section);
	ps->section_line = ps->line;
	ps->cur = NULL;
	ps->kind[0] = '\0';
	if ((!strcmp(kind, "scenario") || !strcmp(kind, "run") || !strcmp(kind, "expect")) && n == 1) {
		snprintf(ps->kind, sizeof(ps->kind), "%s", kind);
		return 1;
	}
	if (!strcmp(kind, "ns") && n == 2) {
		if (!valid_name(a))
			return fail_at(sc, ps->line, "namespace name '%s': expected up to 15 of [A-Za-z0-9_.-]", a);
		if (find_ns(sc, a))
			return fail_at(sc, ps->line, "namespace '%s' declared twice", a);
		if (sc->n_ns >= SC_MAX)
			return fail_at(sc, ps->line, "too many namespaces");
		struct sc_ns *ns = &sc->ns[sc->n_ns++];

		snprintf(ns->name, sizeof(ns->name), "%s", a);
		ns->line = ps->line;
		ps->cur = ns;
		snprintf(ps->kind, sizeof(ps->kind), "%s", kind);
		return 1;
	}
	if ((!strcmp(kind, "bond") || !strcmp(kind, "bridge")) && n == 3) {
		if (!valid_name(a) || !valid_name(b))
			return fail_at(sc, ps->line, "expected [%s NAMESPACE NAME] with names of up to 15 characters", kind);
		if (find_master(sc, a, b))
			return fail_at(sc, ps->line, "'%s' declared twice in namespace '%s'", b, a);
		if (sc->n_master >= SC_MAX)
			return fail_at(sc, ps->line, "too many bonds and bridges");
		struct sc_master *m = &sc->master[sc->n_master++];

		snprintf(m->ns, sizeof(m->ns), "%s", a);
		snprintf(m->name, sizeof(m->name), "%s", b);
		m->bridge = kind[1] == 'r';
		m->line = ps->line;
		ps->cur = m;
		snprintf(ps->kind, sizeof(ps->kind), "%s", kind);
		return 1;
	}
	if (!strcmp(kind, "link") && n == 2) {
		if (!valid_name(a))
			return fail_at(sc, ps->line, "link name '%s': expected up to 15 of [A-Za-z0-9_.-]", a);
		for (size_t i = 0; i < sc->n_link; i++)
			if (!strcmp(sc->link[i].name, a))
				return fail_at(sc, ps->line, "link '%s' declared twice", a);
		if (sc->n_link >= SC_MAX)
			return fail_at(sc, ps->line, "too many links");
		struct sc_link *l = &sc->link[sc->n_link++];

		snprintf(l->name, sizeof(l->name), "%s", a);
		l->line = ps->line;
		ps->cur = l;
		snprintf(ps->kind, sizeof(ps->kind), "%s", kind);
		return 1;
	}
	return fail_at(sc, ps->line,
		       "unknown section [%s]: expected [scenario], [ns NAME], [bond NS NAME], "
		       "[bridge NS NAME], [link NAME], [run] or [expect]", section);
}

static int handler(void *user, const char *section, const char *k, const char *v)
{
	struct parse_state *ps = user;
	struct scenario *sc = ps->sc;
	long x;

	(void)section; /* opened by the reader, see open_if_section() */
	if (sc->err[0])
		return 0;
	if (!ps->kind[0])
		return fail_at(sc, ps->line, "key '%s' outside any section", k);
	if (!strcmp(ps->kind, "scenario")) {
		if (!strcmp(k, "name")) {
			if (!valid_name(v) && strlen(v) >= sizeof(sc->name))
				return fail_at(sc, ps->line, "name: expected a short name, found '%s'", v);
			snprintf(sc->name, sizeof(sc->name), "%s", v);
		} else if (!strcmp(k, "description")) {
			snprintf(sc->description, sizeof(sc->description), "%s", v);
		} else if (!strcmp(k, "timeout")) {
			if (!parse_int(v, 1, 3600, &x))
				return fail_at(sc, ps->line, "timeout: expected 1..3600 seconds, found '%s'", v);
			sc->timeout_s = (int)x;
		} else {
			return fail_at(sc, ps->line,
				       "unknown key '%s' in [scenario] (known: name, description, timeout)", k);
		}
		return 1;
	}
	if (!strcmp(ps->kind, "ns"))
		return ns_key(ps, ps->cur, k, v);
	if (!strcmp(ps->kind, "bond") || !strcmp(ps->kind, "bridge"))
		return bond_key(ps, ps->cur, k, v);
	if (!strcmp(ps->kind, "link"))
		return link_key(ps, ps->cur, k, v);
	if (!strcmp(ps->kind, "run"))
		return step_key(ps, false, k, v);
	if (!strcmp(ps->kind, "expect"))
		return step_key(ps, true, k, v);
	return 0;
}

/* Checks that need the whole file: cross-references and physical limits. */
static int validate(struct scenario *sc)
{
	if (sc->n_ns < 2)
		return fail_at(sc, 1, "a scenario needs two or more [ns NAME] sections, found %zu", sc->n_ns);
	for (size_t i = 0; i < sc->n_master; i++) {
		struct sc_master *m = &sc->master[i];

		if (!find_ns(sc, m->ns))
			return fail_at(sc, m->line, "namespace '%s' is not declared", m->ns);
		if (!m->bridge) {
			bool has_mode = false;

			for (size_t j = 0; j < m->n_opt; j++)
				has_mode |= !strcmp(m->opt[j].key, "mode");
			if (!has_mode)
				return fail_at(sc, m->line, "bond %s:%s has no mode", m->ns, m->name);
		}
	}
	for (size_t i = 0; i < sc->n_link; i++) {
		struct sc_link *l = &sc->link[i];
		struct sc_end *ends[2] = { &l->a, &l->b };

		for (int e = 0; e < 2; e++) {
			struct sc_end *end = ends[e];

			if (!end->set)
				return fail_at(sc, l->line, "link %s has no end %c", l->name, "ab"[e]);
			if (!find_ns(sc, end->ns))
				return fail_at(sc, l->line, "link %s: namespace '%s' is not declared",
					       l->name, end->ns);
			if (end->master[0] && !find_master(sc, end->ns, end->master))
				return fail_at(sc, l->line, "link %s: no bond or bridge '%s' in namespace '%s'",
					       l->name, end->master, end->ns);
			if (!end->ifname[0])
				snprintf(end->ifname, sizeof(end->ifname), "%s", l->name);
		}
		if (!strcmp(l->a.ns, l->b.ns) && !strcmp(l->a.ifname, l->b.ifname))
			return fail_at(sc, l->line,
				       "link %s: both ends are '%s' in namespace '%s'; set name_a/name_b",
				       l->name, l->a.ifname, l->a.ns);
		if (l->wire && l->model != SC_VETH)
			return fail_at(sc, l->line,
				       "impossible topology: link %s is an emulated %s cable; a wire namespace needs model veth",
				       l->name, model_names[l->model]);
		if (l->at == SC_AT_WIRE && !l->wire)
			return fail_at(sc, l->line, "link %s: impair = wire needs wire = yes", l->name);
		if (l->reorder[0] && !l->delay[0])
			return fail_at(sc, l->line, "link %s: netem reorder needs a delay", l->name);
		if (l->jitter[0] && !l->delay[0])
			return fail_at(sc, l->line, "link %s: jitter needs a delay", l->name);
		if (l->model == SC_RTL8139 && l->mtu > 4096)
			return fail_at(sc, l->line,
				       "impossible topology: link %s: 8139cp carries at most MTU 4096, found %d",
				       l->name, l->mtu);
		if (l->model == SC_E1000 && l->mtu > 16110)
			return fail_at(sc, l->line,
				       "impossible topology: link %s: e1000 carries at most MTU 16110, found %d",
				       l->name, l->mtu);
		if (l->at == SC_AT_DEFAULT)
			l->at = l->wire ? SC_AT_WIRE : SC_AT_BOTH;
		if (l->model != SC_VETH)
			l->pair = (int)++sc->nic_pairs[l->model];
		/* interface names must be unique per namespace */
		for (size_t j = 0; j < i; j++)
			for (int e = 0; e < 2; e++)
				for (int f = 0; f < 2; f++) {
					struct sc_end *x = e ? &l->b : &l->a;
					struct sc_end *y = f ? &sc->link[j].b : &sc->link[j].a;

					if (!strcmp(x->ns, y->ns) && !strcmp(x->ifname, y->ifname))
						return fail_at(sc, l->line,
							       "link %s: interface '%s' already exists in namespace '%s' (link %s)",
							       l->name, x->ifname, x->ns, sc->link[j].name);
				}
	}
	for (size_t i = 0; i < sc->n_master; i++) {
		struct sc_master *m = &sc->master[i];
		bool found = !m->primary[0];

		for (size_t j = 0; j < sc->n_link && !found; j++) {
			struct sc_link *l = &sc->link[j];

			found = (!strcmp(l->a.ns, m->ns) && !strcmp(l->a.master, m->name) &&
				 !strcmp(l->a.ifname, m->primary)) ||
				(!strcmp(l->b.ns, m->ns) && !strcmp(l->b.master, m->name) &&
				 !strcmp(l->b.ifname, m->primary));
		}
		if (!found)
			return fail_at(sc, m->line, "bond %s:%s: primary '%s' is not one of its slaves",
				       m->ns, m->name, m->primary);
	}
	for (size_t i = 0; i < sc->n_expect; i++) {
		struct sc_step *s = &sc->expect[i];
		char ref[64], ns[SC_NAME + 1], bond[SC_NAME + 1];
		const struct expect_kind *ek = NULL;

		for (size_t j = 0; j < ARRAY_SIZE(expect_kinds); j++)
			if (!strcmp(s->kind, expect_kinds[j].name))
				ek = &expect_kinds[j];
		if (ek && ek->bond_ref) {
			if (sscanf(s->arg, "%63s", ref) != 1 ||
			    sscanf(ref, "%16[^:]:%16s", ns, bond) != 2 || !find_master(sc, ns, bond))
				return fail_at(sc, s->line, "%s: expected NAMESPACE:BOND of a declared bond first, found '%s'",
					       s->kind, s->arg);
		}
	}
	if (!sc->timeout_s)
		sc->timeout_s = 120;
	return 1;
}

int sc_parse_buffer(const char *buf, size_t len, const char *name, struct scenario *sc)
{
	struct parse_state ps = { .sc = sc, .buf = buf, .len = len };
	const char *base;
	int rc;

	memset(sc, 0, sizeof(*sc));
	snprintf(sc->file, sizeof(sc->file), "%s", name);
	rc = ini_parse_stream(reader, &ps, handler, &ps);
	if (rc && !sc->err[0])
		fail_at(sc, rc > 0 ? rc : 0, "syntax error: expected [section] or key = value");
	if (sc->err[0])
		return -1;
	if (!validate(sc))
		return -1;
	if (!sc->name[0]) {
		base = strrchr(name, '/');
		base = base ? base + 1 : name;
		const char *dot = strrchr(base, '.');

		snprintf(sc->name, sizeof(sc->name), "%.*s",
			 (int)(dot && dot != base ? (size_t)(dot - base) : strlen(base)), base);
	}
	return 0;
}

int sc_parse_file(const char *path, struct scenario *sc)
{
	FILE *f = fopen(path, "rb");
	struct stat st = { 0 };
	char *buf;
	long len;
	int rc;

	if (!f) {
		memset(sc, 0, sizeof(*sc));
		snprintf(sc->err, sizeof(sc->err), "%s: cannot open: %m", path);
		return -1;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		memset(sc, 0, sizeof(*sc));
		snprintf(sc->err, sizeof(sc->err), "%s: expected a scenario file, found %s", path,
			 S_ISDIR(st.st_mode) ? "a directory" : "something that is not a regular file");
		return -1;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	if (len < 0 || len > (1 << 20)) {
		fclose(f);
		memset(sc, 0, sizeof(*sc));
		snprintf(sc->err, sizeof(sc->err), "%s: expected a scenario file under 1 MiB", path);
		return -1;
	}
	buf = malloc((size_t)len + 1);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		fclose(f);
		memset(sc, 0, sizeof(*sc));
		snprintf(sc->err, sizeof(sc->err), "%s: read failed", path);
		return -1;
	}
	fclose(f);
	rc = sc_parse_buffer(buf, (size_t)len, path, sc);
	free(buf);
	return rc;
}
