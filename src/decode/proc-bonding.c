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
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bondcheck/proc.h"
#include "bondcheck/text.h"
#include "decode/proc-bonding.h"

#define HEADER "Ethernet Channel Bonding Driver:"
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
	if (c->slave && !(c->slave_seen & PROC_SLAVE_SEEN_MII))
		proc_warn_at(c, c->slave_line,
			     "slave '%s' has no 'MII Status' line (truncated file?)",
			     c->slave->name);
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
	} else if (!strcasecmp(line, "802.3ad info") && !c->slave) {
		c->seen |= PROC_SEEN_AD;
	} else if (!strcasecmp(line, "Active Aggregator Info:") && !c->slave) {
		c->seen |= PROC_SEEN_AGG;
	} else if (is_no_aggregator(line) && !c->slave) {
		c->seen |= PROC_SEEN_NO_AGG;
	} else if (c->slave && !strcasecmp(line, "details actor lacp pdu:")) {
		c->sec = PROC_SEC_ACTOR;
	} else if (c->slave && !strcasecmp(line, "details partner lacp pdu:")) {
		c->sec = PROC_SEC_PARTNER;
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

	if (!bc_u32_known(&b->mode) || b->mode.v != BC_MODE_8023AD)
		return 0;
	if (!(c->seen & PROC_SEEN_AD))
		proc_warn(c, "802.3ad bond without an '802.3ad info' line (trimmed paste?)");
	if (c->seen & PROC_SEEN_NO_AGG) {
		b->ad_info_status = BC_NA;
	} else if (c->seen & PROC_SEEN_AGG) {
		b->ad_info_status = BC_KNOWN;
	} else if ((c->seen & PROC_SEEN_SYSPRIO)) {
		proc_warn(c, "802.3ad bond shows 'System priority' but no active aggregator lines");
	} else if (!(c->seen & PROC_SEEN_AD)) {
		/* warned above; nothing tells whether the details were hidden */
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

/* Scan every line; returns 0, -EINVAL (with @err set) or -ENOMEM. */
static int scan(struct proc_ctx *c, const char *text, size_t len, struct bc_error *err)
{
	char line[BC_PROC_LINE_MAX];
	bool header = false;
	unsigned int binary_lines = 0;
	size_t pos = 0;

	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		pos = 3; /* UTF-8 byte order mark from an editor */
	while (pos < len && !c->rc) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		char *t;

		pos += n + (nl ? 1 : 0);
		c->lineno++;
		if (n && s[n - 1] == '\r')
			n--;
		if (!header) {
			char what[96];
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
				continue;
			}
			describe_line(what, sizeof(what), s + k, n - k);
			return bc_error_set(err, -EINVAL,
					    "%s: expected a line '" HEADER
					    " ...' at line %zu, found %s",
					    c->bond->name, c->lineno, what);
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
			proc_warn(c, "a second '" HEADER "' header: the file holds more than "
				     "one bond; only the first was read");
			break;
		}
		body_line(c, t);
	}
	if (c->rc == -E2BIG)
		c->rc = 0; /* slave cap reached, already warned */
	if (!header)
		return bc_error_set(err, -EINVAL,
				    "%s: expected a line '" HEADER " ...' at line 1, found %s",
				    c->bond->name, len ? "only blank lines" : "an empty file");
	return c->rc;
}

int bc_proc_parse(const char *text, size_t len, const char *bond_name, struct bc_snapshot *snap,
		  struct bc_error *err)
{
	struct proc_ctx c = {.snap = snap};
	int rc;

	if (!bond_name || !*bond_name || strlen(bond_name) >= BC_IFNAMSIZ)
		return bc_error_set(err, -EINVAL,
				    "expected a bond name of 1 to 15 bytes, found '%.40s'",
				    bond_name ? bond_name : "(null)");
	if (len > BC_PROC_MAX_SIZE)
		return bc_error_set(err, -EFBIG,
				    "%s: %zu bytes of text; a /proc/net/bonding file is a few KiB, "
				    "and at most %u bytes are accepted",
				    bond_name, len, BC_PROC_MAX_SIZE);
	c.bond = bc_snapshot_add_bond(snap, bond_name);
	if (!c.bond)
		return bc_error_set(err, -ENOMEM, "out of memory");
	rc = scan(&c, text ? text : "", text ? len : 0, err);
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
	snap->have |= BC_HAVE_PROC;
	return 0;
}

/* Read at most BC_PROC_MAX_SIZE + 1 bytes (/proc files report st_size 0). */
static int read_capped(int fd, const char *path, char **out, size_t *out_len, struct bc_error *err)
{
	size_t cap = 64 * 1024, len = 0;
	char *buf = malloc(cap);

	if (!buf)
		return bc_error_set(err, -ENOMEM, "out of memory");
	for (;;) {
		ssize_t r;

		if (len == cap) {
			char *nb;

			if (cap > BC_PROC_MAX_SIZE) {
				free(buf);
				return bc_error_set(
					err, -EFBIG,
					"'%s' is larger than %u MiB; a /proc/net/bonding "
					"file is a few KiB: is it the right file?",
					path, BC_PROC_MAX_SIZE >> 20);
			}
			cap = cap * 2 > BC_PROC_MAX_SIZE + 1 ? BC_PROC_MAX_SIZE + 1 : cap * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return bc_error_set(err, -ENOMEM, "out of memory");
			}
			buf = nb;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(buf);
			return bc_error_set(err, -e, "cannot read '%s': %s", path, strerror(e));
		}
		if (!r)
			break;
		len += (size_t)r;
	}
	*out = buf;
	*out_len = len;
	return 0;
}

int bc_proc_parse_file(const char *path, const char *bond_name, struct bc_snapshot *snap,
		       struct bc_error *err)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return bc_error_set(err, -e, "cannot open '%s': %s", path, strerror(e));
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return bc_error_set(err, -EISDIR,
				    "'%s' is a directory; expected a /proc/net/bonding/<bond> file",
				    path);
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (off_t)BC_PROC_MAX_SIZE) {
		close(fd);
		return bc_error_set(err, -EFBIG,
				    "'%s' is %lld bytes, larger than %u MiB; a /proc/net/bonding "
				    "file is a few KiB: is it the right file?",
				    path, (long long)st.st_size, BC_PROC_MAX_SIZE >> 20);
	}
	rc = read_capped(fd, path, &buf, &len, err);
	close(fd);
	if (rc)
		return rc;
	rc = bc_proc_parse(buf, len, bond_name, snap, err);
	free(buf);
	if (!rc)
		snprintf(snap->bonds[snap->n_bonds - 1].origin, sizeof(snap->bonds[0].origin), "%s",
			 path);
	return rc;
}
