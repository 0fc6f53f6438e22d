// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/model.h"

static void *grow(void *arr, size_t n, size_t size)
{
	return realloc(arr, (n + 1) * size);
}

struct bc_bond *bc_snapshot_add_bond(struct bc_snapshot *s, const char *name)
{
	struct bc_bond *arr = grow(s->bonds, s->n_bonds, sizeof(*arr));
	struct bc_bond *b;

	if (!arr)
		return NULL;
	s->bonds = arr;
	b = &arr[s->n_bonds++];
	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", name);
	return b;
}

struct bc_slave *bc_bond_add_slave(struct bc_bond *b, const char *name)
{
	struct bc_slave *arr = grow(b->slaves, b->n_slaves, sizeof(*arr));
	struct bc_slave *sl;

	if (!arr)
		return NULL;
	b->slaves = arr;
	sl = &arr[b->n_slaves++];
	memset(sl, 0, sizeof(*sl));
	snprintf(sl->name, sizeof(sl->name), "%s", name);
	return sl;
}

struct bc_slave *bc_bond_find_slave(const struct bc_bond *b, const char *name)
{
	for (size_t i = 0; i < b->n_slaves; i++)
		if (!strcmp(b->slaves[i].name, name))
			return &b->slaves[i];
	return NULL;
}

struct bc_bond *bc_snapshot_find_bond(const struct bc_snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->n_bonds; i++)
		if (!strcmp(s->bonds[i].name, name))
			return &s->bonds[i];
	return NULL;
}

int bc_bond_add_unknown(struct bc_bond *b, const char *key, const char *value)
{
	struct bc_kv *arr = grow(b->unknown, b->n_unknown, sizeof(*arr));

	if (!arr)
		return -ENOMEM;
	b->unknown = arr;
	snprintf(arr[b->n_unknown].key, sizeof(arr->key), "%s", key);
	snprintf(arr[b->n_unknown].value, sizeof(arr->value), "%s", value);
	b->n_unknown++;
	return 0;
}

int bc_snapshot_warn(struct bc_snapshot *s, const char *fmt, ...)
{
	char(*arr)[256] = grow(s->warnings, s->n_warnings, sizeof(*arr));
	va_list ap;

	if (!arr)
		return -ENOMEM;
	s->warnings = arr;
	va_start(ap, fmt);
	vsnprintf(arr[s->n_warnings], sizeof(*arr), fmt, ap);
	va_end(ap);
	s->n_warnings++;
	return 0;
}

struct bc_finding *bc_snapshot_add_finding(struct bc_snapshot *s, const char *id,
					   enum bc_severity sev, const char *subject)
{
	struct bc_finding *arr = grow(s->findings, s->n_findings, sizeof(*arr));
	struct bc_finding *f;

	if (!arr)
		return NULL;
	s->findings = arr;
	f = &arr[s->n_findings++];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->severity = sev;
	snprintf(f->subject, sizeof(f->subject), "%s", subject);
	return f;
}

void bc_finding_evidence(struct bc_finding *f, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (f->n_evidence >= BC_EVIDENCE_MAX)
		return;
	snprintf(f->evidence[f->n_evidence].key, sizeof(f->evidence[0].key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(f->evidence[f->n_evidence].value, sizeof(f->evidence[0].value), fmt, ap);
	va_end(ap);
	f->n_evidence++;
}

static void slave_free(struct bc_slave *sl)
{
	free(sl->driver_stats);
	free(sl->std_stats);
}

void bc_snapshot_free(struct bc_snapshot *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_bonds; i++) {
		struct bc_bond *b = &s->bonds[i];

		for (size_t j = 0; j < b->n_slaves; j++)
			slave_free(&b->slaves[j]);
		free(b->slaves);
		free(b->unknown);
	}
	free(s->bonds);
	free(s->findings);
	free(s->disagreements);
	free(s->warnings);
	memset(s, 0, sizeof(*s));
}
