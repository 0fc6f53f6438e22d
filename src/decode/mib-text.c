// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/net/snmp, netstat, softnet_stat and /proc/stat text; see bondcheck/mib-text.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/mib-text.h"

static int add(struct bc_mib *m, const char *group, const char *name, int64_t v)
{
	struct bc_mib_entry *e = realloc(m->e, (m->n + 1) * sizeof(*e));

	if (!e)
		return -ENOMEM;
	m->e = e;
	snprintf(e[m->n].name, sizeof(e[m->n].name), "%s.%s", group, name);
	e[m->n].value = v;
	m->n++;
	return 0;
}

/* Copy one line of @text starting at *@pos into @buf; 0 at the end. */
static int next_line(const char *text, size_t *pos, char *buf, size_t cap)
{
	size_t i = 0;

	if (!text[*pos])
		return 0;
	while (text[*pos] && text[*pos] != '\n') {
		if (i + 1 < cap)
			buf[i++] = text[*pos];
		(*pos)++;
	}
	if (text[*pos] == '\n')
		(*pos)++;
	buf[i] = '\0';
	return 1;
}

#define MIB_LINE 8192

static int parse(const char *text, struct bc_mib *m, char *hdr, char *val, struct bc_error *err)
{
	size_t pos = 0;
	int lineno = 0;

	while (next_line(text, &pos, hdr, MIB_LINE)) {
		char *hs, *vs, *hg, *vg, *hn, *vn;

		lineno++;
		if (!hdr[0])
			continue;
		if (!next_line(text, &pos, val, MIB_LINE))
			return bc_error_set(err, -EBADMSG, "line %d: header without a value line",
					    lineno);
		lineno++;
		hg = strtok_r(hdr, " ", &hs);
		vg = strtok_r(val, " ", &vs);
		if (!hg || !vg || strcmp(hg, vg) || hg[strlen(hg) - 1] != ':')
			return bc_error_set(
				err, -EBADMSG,
				"line %d: value line group '%s' does not match header '%s'", lineno,
				vg ? vg : "", hg ? hg : "");
		hg[strlen(hg) - 1] = '\0';
		for (;;) {
			char *end;
			long long v;

			hn = strtok_r(NULL, " ", &hs);
			vn = strtok_r(NULL, " ", &vs);
			if (!hn && !vn)
				break;
			if (!hn || !vn)
				return bc_error_set(err, -EBADMSG,
						    "line %d: %s has %s values than names", lineno,
						    hg, hn ? "fewer" : "more");
			v = strtoll(vn, &end, 10);
			if (*end)
				return bc_error_set(err, -EBADMSG,
						    "line %d: %s.%s = '%s' is not a number", lineno,
						    hg, hn, vn);
			if (add(m, hg, hn, v) < 0)
				return bc_error_set(err, -ENOMEM, "out of memory");
		}
	}
	return 0;
}

int bc_mib_parse(const char *text, struct bc_mib *m, struct bc_error *err)
{
	char *hdr = malloc(MIB_LINE), *val = malloc(MIB_LINE);
	int r = -ENOMEM;

	if (hdr && val)
		r = parse(text, m, hdr, val, err);
	else
		bc_error_set(err, r, "out of memory");
	free(hdr);
	free(val);
	return r;
}

void bc_mib_free(struct bc_mib *m)
{
	if (!m)
		return;
	free(m->e);
	m->e = NULL;
	m->n = 0;
}

int bc_mib_get(const struct bc_mib *m, const char *name, int64_t *v)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->e[i].name, name)) {
			*v = m->e[i].value;
			return 0;
		}
	return -ENOENT;
}

int bc_softnet_parse(const char *text, struct bc_softnet *s, struct bc_error *err)
{
	char line[512];
	size_t pos = 0;

	memset(s, 0, sizeof(*s));
	while (next_line(text, &pos, line, sizeof(line))) {
		unsigned long long c[3] = {0, 0, 0};
		char *p = line, *end;

		if (!line[0])
			continue;
		for (int i = 0; i < 3; i++) {
			c[i] = strtoull(p, &end, 16);
			if (end == p)
				return bc_error_set(err, -EBADMSG,
						    "softnet_stat line %u: column %d is not hex",
						    s->cpus + 1, i + 1);
			p = end;
		}
		s->processed += c[0];
		s->dropped += c[1];
		s->time_squeeze += c[2];
		s->cpus++;
	}
	return 0;
}

int bc_cpu_times_parse(const char *text, struct bc_cpu_times *c, struct bc_error *err)
{
	char line[1024] = "";
	size_t pos = 0;

	memset(c, 0, sizeof(*c));
	while (next_line(text, &pos, line, sizeof(line))) {
		unsigned long long v[8] = {0};
		unsigned cpu;
		int n;

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		n = sscanf(line + 3, "%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		if (n < 5 || c->n >= BC_MAX_CPUS)
			continue;
		for (int i = 0; i < 8; i++)
			c->total[c->n] += v[i];
		c->busy[c->n] = c->total[c->n] - v[3] - v[4];
		c->softirq[c->n] = v[6];
		c->n++;
	}
	if (!c->n)
		return bc_error_set(err, -EBADMSG, "/proc/stat has no per-CPU lines");
	return 0;
}

/* Column @i (0-based, whitespace-separated) of the line at @p; its length in *@n. */
static const char *column(const char *p, const char *eol, int i, size_t *n)
{
	for (;;) {
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= eol)
			return NULL;
		*n = strcspn(p, " \t\n");
		if (p + *n > eol)
			*n = (size_t)(eol - p);
		if (i-- == 0)
			return p;
		p += *n;
	}
}

int bc_proc_udp_drops(const char *text, uint64_t inode, uint64_t *drops, struct bc_error *err)
{
	const char *eol = strchr(text, '\n'), *p, *c;
	size_t n, last = 0;

	if (!eol)
		eol = text + strlen(text);
	/* the header's last column must be "drops" */
	for (int i = 0; (c = column(text, eol, i, &n)); i++)
		last = (size_t)(c - text);
	if (strncmp(text + last, "drops", 5) || !strstr(text, "inode"))
		return bc_error_set(err, -EBADMSG,
				    "/proc/net/udp: expected a header ending in 'drops', found '%.*s'",
				    (int)(eol - text), text);
	for (p = *eol ? eol + 1 : eol; *p; p = *eol ? eol + 1 : eol) {
		const char *ci, *cd;
		size_t ni, nd;
		char num[24];

		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		if (!column(p, eol, 0, &ni))
			continue; /* blank line */
		ci = column(p, eol, 9, &ni);
		cd = column(p, eol, 12, &nd);
		if (!ci || !cd || ni >= sizeof(num) || nd >= sizeof(num))
			return bc_error_set(err, -EBADMSG,
					    "/proc/net/udp: expected 13 columns (inode 10th, drops "
					    "13th), found '%.*s'",
					    (int)(eol - p), p);
		memcpy(num, ci, ni);
		num[ni] = 0;
		if (strtoull(num, NULL, 10) != inode)
			continue;
		memcpy(num, cd, nd);
		num[nd] = 0;
		*drops = strtoull(num, NULL, 10);
		return 0;
	}
	return -ENOENT;
}
