// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/net/bonding/<bond> line scanner: splits the text into lines, checks
 * for damage (binary bytes, invalid UTF-8, over-long lines), finds the
 * blocks by their key names (never by blank lines: pasted files double,
 * drop or add them), and after the last line derives what the absence of
 * lines means (hidden LACP details, no ARP monitoring).
 *
 * Source of the format: drivers/net/bonding/bond_procfs.c,
 * bond_info_show_master() / bond_info_show_slave().
 */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bondcheck/file.h"
#include "bondcheck/names.h"
#include "bondcheck/proc.h"
#include "bondcheck/text.h"
#include "decode/proc-bonding.h"

#define HEADER "Ethernet Channel Bonding Driver:"
/* what a header still holds when a paste lost its start ("thernet Channel ...") */
#define HEADER_CORE "Channel Bonding Driver:"
/* binary lines tolerated after a valid header before the parse gives up */
#define MAX_BINARY_LINES 8

static void vwarn(struct proc_ctx *c, size_t lineno, const char *fmt, va_list ap)
{
	char msg[200];

	if (c->n_warn >= BC_PROC_MAX_WARNINGS) {
		c->n_warn_dropped++;
		return;
	}
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (bc_snapshot_warn(c->snap, "%s: line %zu: %s", c->bond->name, lineno, msg) < 0)
		c->rc = -ENOMEM;
	c->n_warn++;
}

void proc_warn(struct proc_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(c, c->lineno, fmt, ap);
	va_end(ap);
}

void proc_warn_at(struct proc_ctx *c, size_t lineno, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(c, lineno, fmt, ap);
	va_end(ap);
}

void proc_keep_unknown(struct proc_ctx *c, const char *key, const char *value)
{
	char k[BC_TEXT];

	if (c->bond->n_unknown >= BC_PROC_MAX_UNKNOWN) {
		if (!c->unknown_full)
			proc_warn(c, "more than %d unknown lines; the rest are not kept",
				  BC_PROC_MAX_UNKNOWN);
		c->unknown_full = true;
		return;
	}
	if (c->slave)
		snprintf(k, sizeof(k), "%s/%s", c->slave->name, key);
	else
		snprintf(k, sizeof(k), "%s", key);
	if (*key)
		proc_warn(c, "unknown key '%.60s' kept", key);
	else
		proc_warn(c, "unrecognised line '%.60s' kept", value);
	if (bc_bond_add_unknown(c->bond, k, value) < 0)
		c->rc = -ENOMEM;
}

/* Byte that never occurs in bonding text: C0 controls except TAB, and DEL. */
static bool is_binary_byte(unsigned char ch)
{
	return (ch < 0x20 && ch != '\t') || ch == 0x7f;
}

static bool has_binary(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (is_binary_byte((unsigned char)s[i]))
			return true;
	return false;
}

static char *trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Checks at the end of a slave block: every version prints MII Status. */
static void close_slave(struct proc_ctx *c)
{
	if (!c->slave)
		return;
	if (!(c->slave_seen & PROC_SLAVE_SEEN_MII))
		proc_warn_at(c, c->slave_line,
			     "slave '%s' has no 'MII Status' line (truncated file?)",
			     c->slave->name);
	if (c->n_closed)
		c->common_seen &= c->last_seen;
	else
		c->common_seen = ~0u;
	c->last_seen = c->slave_seen;
	c->n_closed++;
	c->slave = NULL;
}

static void open_slave(struct proc_ctx *c, const char *name)
{
	struct bc_slave *s;

	close_slave(c);
	if (c->bond->n_slaves >= BC_PROC_MAX_SLAVES) {
		proc_warn(c, "more than %d slaves; the rest are ignored", BC_PROC_MAX_SLAVES);
		c->rc = -E2BIG; /* internal: stop scanning, not an error */
		return;
	}
	if (!*name)
		proc_warn(c, "'Slave Interface:' without a name");
	else if (strlen(name) >= BC_IFNAMSIZ)
		proc_warn(c, "slave name '%.60s' is longer than 15 bytes; cut", name);
	if (bc_bond_find_slave(c->bond, name))
		proc_warn(c, "slave '%s' listed twice", name);
	s = bc_bond_add_slave(c->bond, name);
	if (!s) {
		c->rc = -ENOMEM;
		return;
	}
	c->slave = s;
	c->slave_seen = 0;
	c->slave_line = c->lineno;
	c->sec = PROC_SEC_SLAVE;
}

/* "bond bond0 has no active aggregator" (bond_3ad_get_active_agg_info() failed) */
static bool is_no_aggregator(const char *line)
{
	static const char sfx[] = " has no active aggregator";
	size_t n = strlen(line);

	return starts_with(line, "bond ") && n > sizeof(sfx) &&
	       !strcmp(line + n - (sizeof(sfx) - 1), sfx);
}

/* One trimmed, non-empty line after the header. */
static void body_line(struct proc_ctx *c, char *line)
{
	if (starts_with(line, "Slave Interface:")) {
		open_slave(c, trim(line + strlen("Slave Interface:")));
	} else if (c->sec == PROC_SEC_ORPHAN && !strcasecmp(line, "802.3ad info")) {
		c->seen |= PROC_SEEN_AD;
		c->sec = PROC_SEC_MASTER;
	} else if (c->sec == PROC_SEC_ORPHAN) {
		proc_warn(c, "'%.40s' follows a cut and belongs to no block shown; skipped", line);
	} else if (!strcasecmp(line, "802.3ad info") && !c->slave) {
		c->seen |= PROC_SEEN_AD;
	} else if (!strcasecmp(line, "Active Aggregator Info:") && !c->slave) {
		c->seen |= PROC_SEEN_AGG;
	} else if (is_no_aggregator(line) && !c->slave) {
		c->seen |= PROC_SEEN_NO_AGG;
	} else if (c->slave && !strcasecmp(line, "details actor lacp pdu:")) {
		c->sec = PROC_SEC_ACTOR;
		c->slave_seen |= PROC_SLAVE_SEEN_ACTOR;
	} else if (c->slave && !strcasecmp(line, "details partner lacp pdu:")) {
		c->sec = PROC_SEC_PARTNER;
		c->slave_seen |= PROC_SLAVE_SEEN_PARTNER;
	} else {
		proc_key_line(c, line);
	}
}

/*
 * "v3.7.1 (April 27, 2011)" is a driver version; since 5.7 the kernel prints
 * "v<uname -r>" instead, and RHEL 8 backports do too ("v4.18.0-272.el8...").
 * Driver versions were all 2.x/3.x with a date, so a dateless major >= 4 is
 * a kernel release.
 */
static void header_version(struct proc_ctx *c, const char *v)
{
	snprintf(c->bond->driver_version, sizeof(c->bond->driver_version), "%s", v);
	if (v[0] == 'v' && atoi(v + 1) >= 4 && !strchr(v, '(') && !c->snap->kernel_release[0])
		snprintf(c->snap->kernel_release, sizeof(c->snap->kernel_release), "%s", v + 1);
}

static void mark_hidden(struct bc_u32 *f)
{
	if (f->st == BC_NOT_REPORTED)
		f->st = BC_HIDDEN;
}

static void hide_port(struct bc_lacp_port *p)
{
	mark_hidden(&p->system_priority);
	mark_hidden(&p->key);
	mark_hidden(&p->port_priority);
	mark_hidden(&p->port_number);
	mark_hidden(&p->port_state);
	if (p->system_mac.st == BC_NOT_REPORTED)
		p->system_mac.st = BC_HIDDEN;
}

static void add_missing(char *buf, size_t cap, const char *what)
{
	size_t n = strlen(buf);

	snprintf(buf + n, cap - n, "%s%s", n ? "; " : "", what);
}

/* Names of the slave lines in @mask, for a "missing" note. */
static void slave_lines(unsigned int mask, char *buf, size_t cap)
{
	static const struct {
		unsigned int bit;
		const char *name;
	} lines[] = {
		{PROC_SLAVE_SEEN_MII, "MII Status"},
		{PROC_SLAVE_SEEN_SPEED, "Speed"},
		{PROC_SLAVE_SEEN_DUPLEX, "Duplex"},
		{PROC_SLAVE_SEEN_LFC, "Link Failure Count"},
		{PROC_SLAVE_SEEN_PERM, "Permanent HW addr"},
		{PROC_SLAVE_SEEN_QUEUE, "Slave queue ID"},
		{PROC_SLAVE_SEEN_AGG, "Aggregator ID"},
		{PROC_SLAVE_SEEN_CHURN, "churn lines"},
		{PROC_SLAVE_SEEN_ACTOR, "actor LACPDU details"},
		{PROC_SLAVE_SEEN_PARTNER, "partner LACPDU details"},
	};
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (mask & lines[i].bit)
			n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", n ? ", " : "",
					      lines[i].name);
}

/*
 * Is the text cut?  The master block and the slave list are checked against
 * each other: a bond whose master fields prove slaves (MII up, a named
 * active slave, an active aggregator with ports) yet lists none, an active
 * slave that is not listed, fewer listed ports in the active aggregator than
 * it counts, a last slave block without a line that every earlier block (or
 * every bonding version: MII Status, Link Failure Count, Permanent HW addr)
 * printed, or a cut marker.  Sets bond->slaves_incomplete and the reason.
 * Never inferred from the header version: enterprise kernels print newer
 * lines under old headers (kernel-interfaces.md 2.3).
 */
static void detect_cut(struct proc_ctx *c)
{
	struct bc_bond *b = c->bond;
	char missing[sizeof(b->incomplete_reason)] = "", what[160];

	if (c->cut_line) {
		snprintf(what, sizeof(what), "text cut at line %zu (%s)", c->cut_line,
			 c->cut_before_slaves ? "before any slave block" : "within the slave list");
		add_missing(missing, sizeof(missing), what);
	}
	if (!b->n_slaves) {
		bool mii_up = bc_u32_known(&b->mii_status) && b->mii_status.v == BC_LINK_UP;
		bool active = b->active_slave.st == BC_KNOWN;
		bool agg_ports = b->ad_info_status == BC_KNOWN && bc_u32_known(&b->ad_num_ports) &&
				 b->ad_num_ports.v > 0;

		if (mii_up || active || agg_ports) {
			snprintf(what, sizeof(what), "the slave blocks (the bond shows %s)",
				 active	     ? "a Currently Active Slave"
				 : agg_ports ? "an active aggregator with ports"
					     : "MII Status up, which needs an up slave");
			add_missing(missing, sizeof(missing), what);
		}
	} else {
		size_t in_active = 0;

		if (b->active_slave.st == BC_KNOWN && !bc_bond_find_slave(b, b->active_slave.v)) {
			snprintf(what, sizeof(what), "the block of the active slave %s",
				 b->active_slave.v);
			add_missing(missing, sizeof(missing), what);
		}
		for (size_t i = 0; i < b->n_slaves; i++)
			in_active += bc_u32_known(&b->slaves[i].aggregator_id) &&
				     bc_u32_known(&b->ad_aggregator_id) &&
				     b->slaves[i].aggregator_id.v == b->ad_aggregator_id.v;
		if (b->ad_info_status == BC_KNOWN && bc_u32_known(&b->ad_num_ports) &&
		    b->ad_num_ports.v > in_active && bc_u32_known(&b->ad_aggregator_id)) {
			snprintf(what, sizeof(what),
				 "slave blocks (the active aggregator counts %u ports, %zu listed)",
				 b->ad_num_ports.v, in_active);
			add_missing(missing, sizeof(missing), what);
		}
		if (c->n_closed) {
			unsigned int expect = PROC_SLAVE_ALWAYS;
			unsigned int lack;
			char names[120];

			if (c->n_closed > 1)
				expect |= c->common_seen;
			lack = expect & ~c->last_seen;
			/* an "Aggregator ID: N/A" port prints no churn or details lines */
			if (b->slaves[b->n_slaves - 1].aggregator_id.st == BC_NA)
				lack &= ~(PROC_SLAVE_SEEN_CHURN | PROC_SLAVE_SEEN_ACTOR |
					  PROC_SLAVE_SEEN_PARTNER);
			if (lack) {
				slave_lines(lack, names, sizeof(names));
				snprintf(what, sizeof(what), "the end of slave %s's block (%s)",
					 b->slaves[b->n_slaves - 1].name, names);
				add_missing(missing, sizeof(missing), what);
			}
		}
	}
	if (missing[0]) {
		b->slaves_incomplete = true;
		snprintf(b->incomplete_reason, sizeof(b->incomplete_reason), "%s", missing);
	}
}

/*
 * What missing lines mean, once the whole file is read.  Returns 0 or
 * -EINVAL when the file never said which mode the bond is in.
 */
static int finish(struct proc_ctx *c, struct bc_error *err)
{
	struct bc_bond *b = c->bond;

	close_slave(c);
	if (!(c->seen & PROC_SEEN_MODE))
		return bc_error_set(
			err, -EINVAL,
			"%s: expected a 'Bonding Mode:' line after the header, found %s", b->name,
			c->lineno <= 2 ? "end of file (truncated?)"
				       : "none (not a /proc/net/bonding file?)");
	if (!(c->seen & PROC_SEEN_DOWNDELAY))
		proc_warn(c, "the bond block has no 'Down Delay (ms)' line (truncated file?)");
	/*
	 * bond_procfs.c has printed the ARP lines only when arp_interval > 0
	 * since 2.6.x, so once the block is complete their absence means 0.
	 */
	if (!(c->seen & PROC_SEEN_ARP) && (c->seen & PROC_SEEN_DOWNDELAY))
		bc_u32_set(&b->arp_interval_ms, 0);

	if (!bc_u32_known(&b->mode) || b->mode.v != BC_MODE_8023AD) {
		detect_cut(c);
		return 0;
	}
	if (!(c->seen & PROC_SEEN_AD))
		proc_warn(c, "802.3ad bond without an '802.3ad info' line (trimmed paste?)");
	if (c->seen & PROC_SEEN_NO_AGG) {
		b->ad_info_status = BC_NA;
	} else if (c->seen & PROC_SEEN_AGG) {
		b->ad_info_status = BC_KNOWN;
	} else if ((c->seen & PROC_SEEN_SYSPRIO)) {
		proc_warn(c, "802.3ad bond shows 'System priority' but no active aggregator lines");
	} else if (!(c->seen & PROC_SEEN_AD) || (c->cut_line && c->cut_before_slaves)) {
		/*
		 * No 802.3ad section (warned above), or a cut where the privileged
		 * lines would start: nothing tells whether they were hidden.
		 */
	} else if (!b->n_slaves && !(c->seen & PROC_SEEN_ADSELECT)) {
		proc_warn(c, "the 802.3ad section ends before its aggregator lines (truncated "
			     "file?); aggregator and LACP details not reported");
	} else {
		/*
		 * Since 4.x (commit 4cd6b4754492) System priority/MAC, the
		 * Active Aggregator block (or "has no active aggregator") and
		 * the LACPDU details need CAP_NET_ADMIN; older kernels always
		 * printed the aggregator lines.  The unprivileged lines up to
		 * ad_select (or a slave block after them) are there but none
		 * of those: an unprivileged reader.  Slave "Aggregator ID" and
		 * churn lines stay visible.
		 */
		b->ad_info_status = BC_HIDDEN;
		c->snap->lacp_hidden = true;
		mark_hidden(&b->ad_actor_sys_prio);
		if (b->ad_actor_system.st == BC_NOT_REPORTED)
			b->ad_actor_system.st = BC_HIDDEN;
		mark_hidden(&b->ad_aggregator_id);
		mark_hidden(&b->ad_num_ports);
		mark_hidden(&b->ad_actor_key);
		mark_hidden(&b->ad_partner_key);
		if (b->ad_partner_mac.st == BC_NOT_REPORTED)
			b->ad_partner_mac.st = BC_HIDDEN;
		for (size_t i = 0; i < b->n_slaves; i++) {
			struct bc_slave *s = &b->slaves[i];

			if (s->aggregator_id.st != BC_KNOWN)
				continue; /* N/A ports print no details even to root */
			hide_port(&s->actor);
			hide_port(&s->partner);
			mark_hidden(&s->actor_oper_port_state);
			mark_hidden(&s->partner_oper_port_state);
		}
	}
	detect_cut(c);
	return 0;
}

/* Quote the start of an unexpected first line, or say it is binary. */
static void describe_line(char *out, size_t cap, const char *s, size_t n)
{
	char clean[64];

	if (has_binary(s, n) || !bc_utf8_valid(s, n < 200 ? n : 200)) {
		snprintf(out, cap, "binary data");
		return;
	}
	bc_utf8_sanitize(clean, sizeof(clean), s, n, '?');
	snprintf(out, cap, "'%s%s'", clean, n >= sizeof(clean) ? "..." : "");
}

static void drop_last_bond(struct bc_snapshot *snap)
{
	struct bc_bond *b = &snap->bonds[snap->n_bonds - 1];

	for (size_t i = 0; i < b->n_slaves; i++) {
		free(b->slaves[i].driver_stats);
		free(b->slaves[i].std_stats);
	}
	free(b->slaves);
	free(b->unknown);
	snap->n_bonds--;
}

/*
 * Pastes carry more than the kernel printed.  These helpers recognise what
 * people add around and inside the text, so the kernel's values are read and
 * the additions dropped (each with a warning).
 */

/* E-mail quoting: "> " or ">> " before the text; bonding lines never start with '>'. */
static size_t quote_prefix(const char *s, size_t n)
{
	size_t k = 0, q = 0;

	for (;;) {
		size_t j = k;

		while (j < n && (s[j] == ' ' || s[j] == '\t'))
			j++;
		if (j < n && s[j] == '>') {
			k = j + 1;
			q = k;
			continue;
		}
		return q;
	}
}

/*
 * The bond a shell line names: "cat /proc/net/bonding/bond1", "==>
 * /proc/net/bonding/bond1 <==" (head/tail of several files).  Returns true
 * and the name in @hint when the line holds such a path.
 */
static bool path_hint(const char *t, char hint[BC_IFNAMSIZ])
{
	static const char dir[] = "/proc/net/bonding/";
	const char *p = strstr(t, dir);
	size_t n = 0;

	if (!p)
		return false;
	p += sizeof(dir) - 1;
	while (p[n] && !strchr(" \t'\"<>|;&*?", p[n]))
		n++;
	hint[0] = '\0';
	if (n && n < BC_IFNAMSIZ && !memchr(p, ':', n) && !memchr(p, '/', n))
		snprintf(hint, BC_IFNAMSIZ, "%.*s", (int)n, p);
	return true;
}

/*
 * A shell prompt or a command line: "[root@host ~]# cat ...", "user@h:~$ ...",
 * "$ cat ...", or a prompt alone at the end of a paste.  The kernel prints
 * no line that ends in '#' or '$' or starts with "$ ".
 */
static bool is_prompt(const char *t)
{
	size_t n = strlen(t);

	if (!n)
		return false;
	if (t[n - 1] == '#' || t[n - 1] == '$' || !strncmp(t, "$ ", 2))
		return true;
	return (strchr(t, '@') && (strstr(t, "# ") || strstr(t, "$ "))) || strstr(t, "]# ") ||
	       strstr(t, "]$ ");
}

/*
 * A mark where the poster cut the paste: "--- snip ---", "<snip>", "[...]",
 * "...", "(output truncated)", "-- 8< --".  Such a line has no "Key:" form.
 */
static bool is_cut_marker(const char *t)
{
	char low[64];
	size_t n = strlen(t), dots = 0, other = 0;

	if (strchr(t, ':') || n >= sizeof(low))
		return false;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)(t[i] >= 'A' && t[i] <= 'Z' ? t[i] + 32 : t[i]);
	if (strstr(low, "snip") || strstr(low, "truncat") || strstr(low, "omitted") ||
	    strstr(low, "8<") || strstr(low, ">8") || strstr(low, "cut here"))
		return true;
	if (strstr(t, "\xe2\x80\xa6")) /* U+2026 HORIZONTAL ELLIPSIS */
		return true;
	for (size_t i = 0; i < n; i++) {
		if (t[i] == '.')
			dots++;
		else if (!strchr(" \t-=_~*[]()<>`", t[i]))
			other++;
	}
	return dots >= 3 && !other;
}

/*
 * Remove an annotation from a value line: a '#' that follows whitespace
 * (interface names may hold '#', but never whitespace before it) or an
 * arrow "<--".  Returns true when something was removed.
 */
static bool strip_annotation(char *t)
{
	for (char *p = t + 1; *p; p++) {
		if ((p[-1] == ' ' || p[-1] == '\t') && (*p == '#' || !strncmp(p, "<--", 3))) {
			*p = '\0';
			return true;
		}
	}
	return false;
}

/*
 * Markdown a poster wrapped around a line: "**MII Status: up**", a code
 * span's backtick at the start or end ("`# cat ...", "[...]`").
 */
static char *strip_markup(struct proc_ctx *c, char *t)
{
	size_t n = strlen(t);
	bool did = false;

	/* emphasis around the line, or one end of it left over ("ens36**") */
	while (n >= 2 && (!strncmp(t, "**", 2) || !strncmp(t, "__", 2))) {
		t += 2;
		n -= 2;
		did = true;
	}
	while (n >= 2 && (!strcmp(t + n - 2, "**") || !strcmp(t + n - 2, "__"))) {
		t[n - 2] = '\0';
		n -= 2;
		did = true;
	}
	while (n && (t[0] == '`' || t[n - 1] == '`')) {
		if (t[0] == '`') {
			t++;
			n--;
		} else {
			t[--n] = '\0';
		}
		did = true;
	}
	if (did)
		proc_warn(c, "markdown around the line removed");
	return trim(t);
}

/* Handle one line that is not the kernel's; returns true when it was consumed. */
static bool pasted_line(struct proc_ctx *c, char *t, char next_hint[BC_IFNAMSIZ])
{
	char hint[BC_IFNAMSIZ];

	if (path_hint(t, hint)) {
		/* names the next bond of a multi-file paste */
		if (hint[0])
			snprintf(next_hint, BC_IFNAMSIZ, "%s", hint);
		proc_warn(c, "shell line '%.60s' skipped", t);
		return true;
	}
	if (!strncmp(t, "```", 3) || !strncmp(t, "~~~", 3) || !strcmp(t, "`")) {
		proc_warn(c, "markdown fence '%.20s' skipped", t);
		return true;
	}
	if (t[0] == '#' || !strncmp(t, "//", 2)) {
		proc_warn(c, "comment line '%.60s' skipped (not the kernel's text)", t);
		return true;
	}
	if (is_prompt(t)) {
		proc_warn(c, "shell prompt '%.60s' skipped", t);
		return true;
	}
	if (is_cut_marker(t)) {
		if (!c->cut_line) {
			c->cut_line = c->lineno;
			c->cut_before_slaves = !c->slave && !c->n_closed;
		}
		/*
		 * A cut in the master block leaves master lines after it; after a
		 * slave block, what follows belongs to no block shown until a new
		 * one starts (it must not land on the bond).
		 */
		if (c->slave || c->n_closed) {
			close_slave(c);
			c->sec = PROC_SEC_ORPHAN;
		}
		proc_warn(c, "'%.40s' marks a cut: text that the kernel printed here is missing",
			  t);
		return true;
	}
	return false;
}

/* Scan every line; returns 0, -EINVAL (with @err set) or -ENOMEM. */
static int scan(struct proc_ctx *c, const char *text, size_t len, char next_hint[BC_IFNAMSIZ],
		struct bc_error *err)
{
	char line[BC_PROC_LINE_MAX];
	bool header = false;
	unsigned int binary_lines = 0, skipped = 0;
	size_t pos = 0, quoted = 0, first_line = 0;
	char first[96] = "";

	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		pos = 3; /* UTF-8 byte order mark from an editor */
	while (pos < len && !c->rc) {
		size_t at = pos;
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		size_t q;
		char *t;

		pos += n + (nl ? 1 : 0);
		c->lineno++;
		if (n && s[n - 1] == '\r')
			n--;
		q = quote_prefix(s, n);
		if (q) {
			s += q;
			n -= q;
			quoted++;
		}
		if (!header) {
			size_t k = 0;

			while (k < n && (s[k] == ' ' || s[k] == '\t'))
				k++;
			if (k == n)
				continue; /* leading blank lines */
			if (n - k >= strlen(HEADER) && !memcmp(s + k, HEADER, strlen(HEADER)) &&
			    !has_binary(s, n)) {
				bc_utf8_sanitize(line, sizeof(line), s + k, n - k, '?');
				header_version(c, trim(line + strlen(HEADER)));
				header = true;
				if (skipped)
					proc_warn_at(c, first_line,
						     "%u line%s before the header skipped (a shell "
						     "prompt or a comment: not the kernel's text)",
						     skipped, skipped == 1 ? "" : "s");
				continue;
			}
			if (!has_binary(s, n) && n - k < BC_PROC_LINE_MAX &&
			    memmem(s + k, n - k, HEADER_CORE, strlen(HEADER_CORE))) {
				/* the header after a prompt on one line, or with its start lost */
				const char *h =
					memmem(s + k, n - k, HEADER_CORE, strlen(HEADER_CORE));
				size_t off = (size_t)(h - s) + strlen(HEADER_CORE);

				bc_utf8_sanitize(line, sizeof(line), s + off, n - off, '?');
				header_version(c, trim(line));
				header = true;
				proc_warn(c,
					  "the header line is damaged or follows other text; read "
					  "from 'Channel Bonding Driver:'");
				continue;
			}
			if (!skipped++) {
				first_line = c->lineno;
				describe_line(first, sizeof(first), s + k, n - k);
			}
			if (has_binary(s, n) && skipped > MAX_BINARY_LINES)
				break; /* a binary file, not a paste with a preamble */
			continue;
		}
		if (has_binary(s, n)) {
			if (++binary_lines > MAX_BINARY_LINES) {
				proc_warn(c, "binary data again; stopped reading (the file is "
					     "damaged: what was read before is kept)");
				break;
			}
			proc_warn(c, "binary data (control or NUL bytes); line skipped");
			continue;
		}
		if (n >= BC_PROC_LINE_MAX) {
			proc_warn(c,
				  "line of %zu bytes, longer than any line bonding prints; "
				  "cut to %d",
				  n, BC_PROC_LINE_MAX - 1);
			n = BC_PROC_LINE_MAX - 1;
		}
		if (bc_utf8_sanitize(line, sizeof(line), s, n, '?'))
			proc_warn(c, "bytes that are not UTF-8 replaced by '?'");
		t = trim(line);
		if (!*t)
			continue;
		if (starts_with(t, HEADER)) {
			c->next_header = at; /* the next bond of a multi-file paste */
			break;
		}
		t = strip_markup(c, t);
		if (!*t)
			continue;
		if (pasted_line(c, t, next_hint))
			continue;
		if (strip_annotation(t)) {
			if (!c->n_annotations++)
				proc_warn(c, "an annotation after the kernel's value was removed "
					     "(the text after ' #' or ' <--')");
			t = trim(t);
		}
		body_line(c, t);
	}
	if (c->rc == -E2BIG)
		c->rc = 0; /* slave cap reached, already warned */
	if (!header)
		return bc_error_set(err, -EINVAL,
				    "%s: expected a line '" HEADER " ...' at line %zu, found %s%s",
				    c->bond->name, skipped ? first_line : 1,
				    !len      ? "an empty file"
				    : skipped ? first
					      : "only blank lines",
				    skipped > 1 ? " (and no header in the lines after it)" : "");
	if (quoted && c->lineno)
		proc_warn_at(c, 1, "e-mail quoting ('> ') removed from %zu lines", quoted);
	return c->rc;
}

/*
 * A multi-bond paste names its next bonds by shell lines; without one, the
 * next name follows the previous: bond0 -> bond1, else NAME-2.
 */
static void next_name(const struct bc_snapshot *snap, const char *prev, const char *hint,
		      char out[BC_IFNAMSIZ])
{
	size_t n = strlen(prev), d = n;

	if (hint && *hint && !bc_snapshot_find_bond(snap, hint)) {
		snprintf(out, BC_IFNAMSIZ, "%s", hint);
		return;
	}
	while (d && prev[d - 1] >= '0' && prev[d - 1] <= '9')
		d--;
	for (unsigned int k = 1; k < 1000; k++) {
		if (d < n)
			snprintf(out, BC_IFNAMSIZ, "%.*s%lu", (int)d, prev,
				 strtoul(prev + d, NULL, 10) + k);
		else
			snprintf(out, BC_IFNAMSIZ, "%.11s-%u", prev, k + 1);
		if (!bc_snapshot_find_bond(snap, out))
			return;
	}
}

/* The bond name a shell line before the header gives ("cat /proc/net/bonding/X"). */
static void preamble_hint(const char *text, size_t len, char hint[BC_IFNAMSIZ])
{
	size_t pos = 0;

	hint[0] = '\0';
	while (pos < len) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		char line[256];

		if (n >= strlen(HEADER) && memmem(s, n, HEADER, strlen(HEADER)))
			return;
		bc_utf8_sanitize(line, sizeof(line), s, n < sizeof(line) ? n : sizeof(line) - 1,
				 '?');
		path_hint(line, hint);
		pos += n + (nl ? 1 : 0);
	}
	hint[0] = '\0';
}

/* Parse one bond at @text; *@next receives the offset of the next header or 0. */
static int parse_one(const char *text, size_t len, const char *bond_name, struct bc_snapshot *snap,
		     char next_hint[BC_IFNAMSIZ], size_t *next, struct bc_error *err)
{
	struct proc_ctx c = {.snap = snap};
	int rc;

	*next = 0;
	c.bond = bc_snapshot_add_bond(snap, bond_name);
	if (!c.bond)
		return bc_error_set(err, -ENOMEM, "out of memory");
	rc = scan(&c, text, len, next_hint, err);
	if (!rc)
		rc = finish(&c, err);
	if (!rc && c.rc)
		rc = c.rc;
	if (rc == -ENOMEM)
		bc_error_set(err, rc, "%s: out of memory while parsing", bond_name);
	if (!rc && c.n_warn_dropped &&
	    bc_snapshot_warn(snap, "%s: %u more warnings not shown", bond_name, c.n_warn_dropped) <
		    0)
		rc = bc_error_set(err, -ENOMEM, "out of memory");
	if (rc) {
		drop_last_bond(snap);
		return rc;
	}
	*next = c.next_header;
	return 0;
}

/*
 * bond_name: the caller's name (--name) or NULL; fallback: the name of the
 * file's stem when it is an interface name, or NULL.  Without bond_name the
 * text's own shell line wins, then the fallback, then "bond0", with a note.
 */
static int parse_named(const char *text, size_t len, const char *bond_name, const char *fallback,
		       struct bc_snapshot *snap, struct bc_error *err)
{
	char name[BC_IFNAMSIZ] = "bond0", hint[BC_IFNAMSIZ] = "";
	const char *why = NULL;
	size_t off = 0, next;
	int rc;

	if (bond_name && (!*bond_name || strlen(bond_name) >= BC_IFNAMSIZ))
		return bc_error_set(err, -EINVAL,
				    "expected a bond name of 1 to 15 bytes, found '%.40s'",
				    bond_name);
	if (len > BC_PROC_MAX_SIZE)
		return bc_error_set(err, -EFBIG,
				    "%s: %zu bytes of text; a /proc/net/bonding file is a few KiB, "
				    "and at most %u bytes are accepted",
				    bond_name ? bond_name : "the text", len, BC_PROC_MAX_SIZE);
	if (!text)
		text = "";
	if (bond_name) {
		snprintf(name, sizeof(name), "%s", bond_name);
	} else {
		char said[BC_IFNAMSIZ];

		preamble_hint(text, len, said);
		if (said[0]) {
			snprintf(name, sizeof(name), "%s", said);
			why = "a shell line in the text names it";
		} else if (fallback && *fallback && strlen(fallback) < BC_IFNAMSIZ)
			snprintf(name, sizeof(name), "%s", fallback);
		else
			why = "neither the file name nor the text names it";
		if (bc_snapshot_find_bond(snap, name)) {
			char taken[BC_IFNAMSIZ];

			snprintf(taken, sizeof(taken), "%s", name);
			next_name(snap, taken[0] ? taken : "bond0", NULL, name);
			why = "an earlier input has a bond of that name";
		}
	}
	rc = parse_one(text, len, name, snap, hint, &next, err);
	if (rc)
		return rc;
	if (why && bc_snapshot_warn(snap, "%s: read as '%s' (%s); give --name NAME to name it",
				    name, name, why) < 0)
		return bc_error_set(err, -ENOMEM, "out of memory");
	while (next && next < len) {
		char prev[BC_IFNAMSIZ];
		struct bc_error e2 = {0};
		size_t base = off + next;

		snprintf(prev, sizeof(prev), "%s", snap->bonds[snap->n_bonds - 1].name);
		next_name(snap, prev, hint, name);
		hint[0] = '\0';
		if (bc_snapshot_warn(snap,
				     "%s: the text holds another bond after %s (a paste of several "
				     "files); read as '%s'",
				     name, prev, name) < 0)
			return bc_error_set(err, -ENOMEM, "out of memory");
		rc = parse_one(text + base, len - base, name, snap, hint, &next, &e2);
		if (rc == -ENOMEM)
			return bc_error_set(err, rc, "%s", e2.msg);
		if (rc) {
			if (bc_snapshot_warn(snap, "%s: not read: %s", name, e2.msg) < 0)
				return bc_error_set(err, -ENOMEM, "out of memory");
			break;
		}
		off = base;
	}
	snap->have |= BC_HAVE_PROC;
	return 0;
}

int bc_proc_parse(const char *text, size_t len, const char *bond_name, struct bc_snapshot *snap,
		  struct bc_error *err)
{
	return parse_named(text, len, bond_name, NULL, snap, err);
}

int bc_proc_parse_file(const char *path, const char *bond_name, struct bc_snapshot *snap,
		       struct bc_error *err)
{
	char *buf = NULL, stem[BC_IFNAMSIZ];
	size_t len = 0, first;
	int rc;

	rc = bc_file_read_capped(path, BC_PROC_MAX_SIZE, "a /proc/net/bonding/<bond> file",
				 "a /proc/net/bonding file is a few KiB", &buf, &len, err);
	if (rc)
		return rc;
	bc_ifname_from_file(path, stem);
	first = snap->n_bonds;
	rc = parse_named(buf, len, bond_name, stem, snap, err);
	free(buf);
	for (size_t i = first; !rc && i < snap->n_bonds; i++)
		snprintf(snap->bonds[i].origin, sizeof(snap->bonds[i].origin), "%s", path);
	return rc;
}
