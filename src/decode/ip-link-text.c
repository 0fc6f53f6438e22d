// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text scanner of saved `ip -d link` / `ip -d address` / `ip -s -d link`
 * listings, multi-line or `ip -o` one-line (`\` joins the lines).  An
 * interface starts at its interface line ("6: eth0@if5: <FLAGS> mtu 1500
 * ... master bond0 state UP ..."); the lines after it belong to it, and
 * only these are read: `link/...` (the address), `bond ...`, `bond_slave
 * ...` and the RX/TX counter tables.  Everything else (address lines,
 * `vf`, `altname`, `bridge_slave`, prompts before the first interface) is
 * skipped.  Source of the format: iproute2 ip/ipaddress.c print_linkinfo()
 * and print_stats64().
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/ip-link.h"
#include "bondcheck/text.h"
#include "decode/ip-link.h"

#define MAX_TOKENS 1024
#define MAX_COLS   12

/* A counter table header waiting for its line of numbers. */
struct pending {
	char dir; /* 'R', 'T', 0 when none */
	size_t n; /* columns */
	char col[MAX_COLS][16];
};

struct text_ctx {
	struct ip_ctx *c;
	struct ip_link *cur; /* interface being read; NULL before the first */
	struct pending pend;
};

static bool is_binary_byte(unsigned char ch)
{
	return (ch < 0x20 && ch != '\t') || ch == 0x7f;
}

static size_t tokenize(char *s, char **tok, size_t max)
{
	size_t n = 0;
	char *save = NULL;

	for (char *t = strtok_r(s, " \t", &save); t && n < max; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	return n;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* "6:" "eth0@if5:" "<FLAGS>": the line that starts an interface. */
static bool is_link_line(char **tok, size_t n)
{
	size_t l0, l1;

	if (n < 3)
		return false;
	l0 = strlen(tok[0]);
	l1 = strlen(tok[1]);
	if (l0 < 2 || tok[0][l0 - 1] != ':' || l1 < 2 || tok[1][l1 - 1] != ':' || tok[2][0] != '<')
		return false;
	for (size_t i = 0; i + 1 < l0; i++)
		if (!isdigit((unsigned char)tok[0][i]))
			return false;
	return true;
}

static void link_line(struct text_ctx *t, char **tok, size_t n)
{
	struct ip_ctx *c = t->c;
	char *name = tok[1], *at, *flags;
	struct ip_link *l;
	int v;

	name[strlen(name) - 1] = '\0';
	at = strchr(name, '@');
	if (at)
		*at++ = '\0';
	l = ip_new_link(c, name);
	t->cur = l;
	t->pend.dir = 0;
	if (!l)
		return;
	l->ifindex = atoi(tok[0]);
	if (at && strcmp(at, "NONE"))
		ip_set_name(c, l->link, at);
	flags = tok[2] + 1;
	flags[strcspn(flags, ">")] = '\0';
	for (char *save = NULL, *w = strtok_r(flags, ",", &save); w; w = strtok_r(NULL, ",", &save))
		ip_flag_word(l, w);
	for (size_t i = 3; i + 1 < n; i++) {
		if (!strcmp(tok[i], "mtu") && all_digits(tok[i + 1])) {
			bc_u32_set(&l->mtu, (uint32_t)strtoul(tok[++i], NULL, 10));
		} else if (!strcmp(tok[i], "master")) {
			ip_set_name(c, l->master, tok[++i]);
		} else if (!strcmp(tok[i], "state")) {
			v = ip_operstate(tok[++i]);
			if (v >= 0)
				bc_u32_set(&l->operstate, (uint32_t)v);
			else
				ip_warn(c, "%s: operstate '%.30s' unknown; ignored", l->name,
					tok[i]);
		}
	}
}

/* Counter of column @name in an RX or TX table (ip/ipaddress.c print_stats64). */
static uint64_t *stat_field(struct bc_link_stats *s, char dir, const char *name)
{
	static const struct {
		char dir;
		const char *name;
		size_t off;
	} cols[] = {
		{'R', "bytes", offsetof(struct bc_link_stats, rx_bytes)},
		{'R', "packets", offsetof(struct bc_link_stats, rx_packets)},
		{'R', "errors", offsetof(struct bc_link_stats, rx_errors)},
		{'R', "dropped", offsetof(struct bc_link_stats, rx_dropped)},
		{'R', "overrun", offsetof(struct bc_link_stats, rx_over_errors)},
		{'R', "missed", offsetof(struct bc_link_stats, rx_missed_errors)},
		{'R', "crc", offsetof(struct bc_link_stats, rx_crc_errors)},
		{'R', "fifo", offsetof(struct bc_link_stats, rx_fifo_errors)},
		{'R', "nohandler", offsetof(struct bc_link_stats, rx_nohandler)},
		{'T', "bytes", offsetof(struct bc_link_stats, tx_bytes)},
		{'T', "packets", offsetof(struct bc_link_stats, tx_packets)},
		{'T', "errors", offsetof(struct bc_link_stats, tx_errors)},
		{'T', "dropped", offsetof(struct bc_link_stats, tx_dropped)},
		{'T', "carrier", offsetof(struct bc_link_stats, tx_carrier_errors)},
		{'T', "fifo", offsetof(struct bc_link_stats, tx_fifo_errors)},
	};

	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (cols[i].dir == dir && !strcmp(cols[i].name, name))
			return (uint64_t *)((char *)s + cols[i].off);
	return NULL;
}

static void stats_header(struct text_ctx *t, char dir, char **tok, size_t n)
{
	struct pending *p = &t->pend;

	p->dir = dir;
	p->n = 0;
	for (size_t i = 0; i < n && p->n < MAX_COLS; i++)
		snprintf(p->col[p->n++], sizeof(p->col[0]), "%s", tok[i]);
}

/* The line of numbers under a header; false when @tok is not one. */
static bool stats_numbers(struct text_ctx *t, char **tok, size_t n)
{
	struct pending *p = &t->pend;

	if (!p->dir || !n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!all_digits(tok[i]))
			return false;
	for (size_t i = 0; i < n && i < p->n; i++) {
		uint64_t *f = stat_field(&t->cur->stats, p->dir, p->col[i]);

		if (f)
			*f = strtoull(tok[i], NULL, 10);
	}
	t->cur->stats.present = true;
	p->dir = 0;
	return true;
}

/* `bond ...` or `bond_slave ...`: known keys take the next word as value. */
static void detail_line(struct text_ctx *t, bool slave, char **tok, size_t n)
{
	struct ip_ctx *c = t->c;
	struct ip_link *l = t->cur;
	size_t known = 0;

	for (size_t i = 1; i + 1 < n; i++) {
		bool hit = slave ? ip_slave_kv(c, l, tok[i], tok[i + 1])
				 : ip_bond_kv(c, l, tok[i], tok[i + 1]);

		if (hit) {
			known++;
			i++;
		}
	}
	if (!known) {
		ip_warn(c, "%s: '%s' line without any option ip prints; ignored", l->name,
			slave ? "bond_slave" : "bond");
		return;
	}
	if (slave && l->slave)
		l->slave->ifindex = l->ifindex;
}

static void logical_line(struct text_ctx *t, char *s)
{
	char *tok[MAX_TOKENS];
	size_t n = tokenize(s, tok, MAX_TOKENS);

	if (!n)
		return;
	if (is_link_line(tok, n))
		return link_line(t, tok, n);
	if (!t->cur)
		return; /* a prompt or other text before the first interface */
	if (stats_numbers(t, tok, n))
		return;
	t->pend.dir = 0;
	if (!strncmp(tok[0], "link/", 5)) {
		if (n > 1 && strchr(tok[1], ':') && strlen(tok[1]) < BC_MAC_STR)
			ip_mac(&t->cur->mac, tok[1]);
	} else if (!strcmp(tok[0], "bond")) {
		detail_line(t, false, tok, n);
	} else if (!strcmp(tok[0], "bond_slave")) {
		detail_line(t, true, tok, n);
	} else if (!strcmp(tok[0], "RX:") || !strcmp(tok[0], "TX:")) {
		stats_header(t, tok[0][0], tok + 1, n - 1);
	} else if (n > 1 && (!strcmp(tok[0], "RX") || !strcmp(tok[0], "TX")) &&
		   !strcmp(tok[1], "errors:")) {
		stats_header(t, tok[0][0], tok + 2, n - 2);
	}
}

/* One logical line: cut when over-long, bytes that are not UTF-8 become '?'. */
static void segment(struct text_ctx *t, const char *s, size_t n)
{
	char line[BC_IP_LINE_MAX];

	if (n >= BC_IP_LINE_MAX) {
		ip_warn(t->c, "line of %zu bytes, longer than any line ip prints; cut to %d", n,
			BC_IP_LINE_MAX - 1);
		n = BC_IP_LINE_MAX - 1;
	}
	if (bc_utf8_sanitize(line, sizeof(line), s, n, '?'))
		ip_warn(t->c, "bytes that are not UTF-8 replaced by '?'");
	logical_line(t, line);
}

/* One physical line: strip mail quoting, split `ip -o` records at "\ ". */
static void physical_line(struct text_ctx *t, const char *s, size_t n)
{
	size_t i = 0, start;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	while (i < n && s[i] == '>') { /* e-mail quoting "> > " */
		i++;
		if (i < n && s[i] == ' ')
			i++;
	}
	for (start = i; i < n; i++) {
		if (s[i] == '\\' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\t')) {
			segment(t, s + start, i - start);
			start = i + 1;
		}
	}
	segment(t, s + start, n - start);
}

int ip_scan_text(struct ip_ctx *c, const char *text, size_t len)
{
	struct text_ctx t = {.c = c};
	size_t pos = 0;

	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		pos = 3;
	while (pos < len && !c->rc) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		bool binary = false;

		pos += n + (nl ? 1 : 0);
		c->lineno++;
		if (n && s[n - 1] == '\r')
			n--;
		for (size_t i = 0; i < n && !binary; i++)
			binary = is_binary_byte((unsigned char)s[i]);
		if (binary) {
			ip_warn(c, "binary data (control or NUL bytes); line skipped");
			t.pend.dir = 0;
			continue;
		}
		physical_line(&t, s, n);
	}
	return c->rc;
}
