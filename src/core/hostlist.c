// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host-list expansion (hostlist.h): the `node[01-16]` ranges of pdsh,
 * ClusterShell and Slurm.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/hostlist.h"

void bc_hostlist_free(struct bc_hostlist *hl)
{
	free(hl->name);
	hl->name = NULL;
	hl->n = 0;
}

/* Appends @name unless it is already there (linear: lists are short, and
 * --expect of 10,000 hosts is checked once). */
static int add(struct bc_hostlist *hl, size_t *cap, const char *name, char *err, size_t len)
{
	if (strlen(name) >= BC_HOST_LEN) {
		snprintf(err, len, "host name '%.40s...' is longer than %d bytes", name,
			 BC_HOST_LEN - 1);
		return -E2BIG;
	}
	if (hl->n >= BC_HOSTLIST_MAX) {
		snprintf(err, len, "more than %d host names", BC_HOSTLIST_MAX);
		return -E2BIG;
	}
	if (hl->n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		void *p = realloc(hl->name, c * sizeof(*hl->name));

		if (!p)
			return -ENOMEM;
		hl->name = p;
		*cap = c;
	}
	snprintf(hl->name[hl->n++], BC_HOST_LEN, "%s", name);
	return 0;
}

static int bad(char *err, size_t len, const char *item, size_t n, const char *what)
{
	snprintf(err, len, "in '%.*s': %s", (int)(n > 80 ? 80 : n), item, what);
	return -EINVAL;
}

/* One number of a range at *@p: its value and digit count. */
static int number(const char **p, unsigned long *v, int *digits)
{
	const char *s = *p;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || end - s > 9)
		return -1;
	*digits = (int)(end - s);
	*p = end;
	return 0;
}

/* Expands one ITEM of @n bytes at @item. */
static int item(struct bc_hostlist *hl, size_t *cap, const char *item, size_t n, char *err,
		size_t len)
{
	const char *open = memchr(item, '[', n), *close, *p;
	char prefix[BC_HOST_LEN], suffix[BC_HOST_LEN], name[2 * BC_HOST_LEN + 16];

	for (size_t i = 0; i < n; i++)
		if (isspace((unsigned char)item[i]) || !isprint((unsigned char)item[i]))
			return bad(err, len, item, n, "a host name has no spaces or control characters");
	if (!open) {
		if (memchr(item, ']', n))
			return bad(err, len, item, n, "']' without '['");
		snprintf(name, sizeof(name), "%.*s", (int)n, item);
		return add(hl, cap, name, err, len);
	}
	close = memchr(open, ']', n - (size_t)(open - item));
	if (!close)
		return bad(err, len, item, n, "'[' without ']'");
	if (memchr(close + 1, '[', n - (size_t)(close + 1 - item)) ||
	    memchr(close + 1, ']', n - (size_t)(close + 1 - item)))
		return bad(err, len, item, n, "one bracket group per name (rack[1-2]n[1-4] is not taken)");
	if ((size_t)(open - item) >= sizeof(prefix) ||
	    n - (size_t)(close + 1 - item) >= sizeof(suffix))
		return bad(err, len, item, n, "host name too long");
	snprintf(prefix, sizeof(prefix), "%.*s", (int)(open - item), item);
	snprintf(suffix, sizeof(suffix), "%.*s", (int)(n - (size_t)(close + 1 - item)), close + 1);
	p = open + 1;
	if (p == close)
		return bad(err, len, item, n, "an empty range '[]'");
	while (p < close) {
		unsigned long lo, hi;
		int dlo, dhi, rc, width;
		const char *start = p;

		if (number(&p, &lo, &dlo))
			return bad(err, len, item, n, "expected a number such as 1 or 01-16 in '[...]'");
		hi = lo;
		dhi = dlo;
		if (*p == '-') {
			p++;
			if (number(&p, &hi, &dhi))
				return bad(err, len, item, n, "expected a number after '-'");
			if (hi < lo)
				return bad(err, len, item, n, "a range runs from low to high (3-1 is not taken)");
		}
		if (*p != ',' && p != close)
			return bad(err, len, item, n, "expected ',' or ']' after a range");
		if (*p == ',')
			p++;
		if (hi - lo >= BC_HOSTLIST_MAX) {
			snprintf(err, len, "in '%.*s': more than %d host names", (int)(n > 80 ? 80 : n),
				 item, BC_HOSTLIST_MAX);
			return -E2BIG;
		}
		/* pdsh and Slurm pad to the width of the low bound when it has a
		 * leading zero ("[01-16]"); "[8-10]" gives 8 9 10 */
		width = dlo > 1 && *start == '0' ? dlo : 0;
		(void)dhi;
		for (unsigned long v = lo; v <= hi; v++) {
			snprintf(name, sizeof(name), "%s%0*lu%s", prefix, width, v, suffix);
			rc = add(hl, cap, name, err, len);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static const struct bc_hostlist *sort_hl;

/* by name, then by place: equal names sit together, the first place first */
static int by_name(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sort_hl->name[i], sort_hl->name[j]);

	return c ? c : (i > j) - (i < j);
}

/* Drops repeated names, keeping each one's first place (node1,node[1-2] is
 * node1,node2): O(n log n) for --expect lists of 10,000 hosts. */
static int dedup(struct bc_hostlist *hl)
{
	size_t *idx = malloc(hl->n * sizeof(*idx) + 1), k = 0;
	unsigned char *drop = calloc(hl->n + 1, 1);

	if (!idx || !drop) {
		free(idx);
		free(drop);
		bc_hostlist_free(hl);
		return -ENOMEM;
	}
	for (size_t i = 0; i < hl->n; i++)
		idx[i] = i;
	sort_hl = hl;
	qsort(idx, hl->n, sizeof(*idx), by_name);
	for (size_t i = 1; i < hl->n; i++)
		if (!strcmp(hl->name[idx[i]], hl->name[idx[i - 1]]))
			drop[idx[i]] = 1;
	for (size_t i = 0; i < hl->n; i++)
		if (!drop[i]) {
			if (k != i)
				memcpy(hl->name[k], hl->name[i], BC_HOST_LEN);
			k++;
		}
	hl->n = k;
	free(idx);
	free(drop);
	return 0;
}

int bc_hostlist_parse(const char *text, struct bc_hostlist *hl, char *err, size_t len)
{
	size_t cap = 0;
	const char *s = text;

	memset(hl, 0, sizeof(*hl));
	if (len)
		err[0] = '\0';
	if (!text || !*text) {
		snprintf(err, len, "an empty host list; expected names such as node[01-16],login1");
		return -EINVAL;
	}
	while (*s) {
		const char *e = s;
		int depth = 0, rc;

		while (*e && (depth || *e != ',')) {
			depth += *e == '[' ? 1 : *e == ']' ? -1 : 0;
			e++;
		}
		if (e == s) {
			bc_hostlist_free(hl);
			snprintf(err, len, "an empty name between commas in '%.80s'", text);
			return -EINVAL;
		}
		rc = item(hl, &cap, s, (size_t)(e - s), err, len);
		if (rc) {
			bc_hostlist_free(hl);
			return rc;
		}
		s = *e ? e + 1 : e;
		if (*e && !*s) {
			bc_hostlist_free(hl);
			snprintf(err, len, "a trailing comma in '%.80s'", text);
			return -EINVAL;
		}
	}
	return dedup(hl);
}
