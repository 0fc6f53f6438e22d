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
