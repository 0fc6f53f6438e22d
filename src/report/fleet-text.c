// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck fleet` text and CSV (fleet-report.h).  The answers come first:
 * hosts read, hosts with error-level findings, drift.
 */
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/csv.h"
#include "bondcheck/answer.h"
#include "bondcheck/fleet-report.h"
#include "bondcheck/wrap.h"

/* "a, b, c" of the first @max hosts of @x, "... (N more)" after. */
static void host_names(const struct bc_fleet_finding *x, size_t max, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < x->n_hosts && k < max && used < len; k++) {
		int w = snprintf(buf + used, len - used, "%s%s", k ? ", " : "", x->hosts[k]);

		used += w > 0 ? (size_t)w : 0;
	}
	if (x->n_hosts > max && used < len)
		snprintf(buf + used, len - used, " and %zu more", x->n_hosts - max);
}

static const char *dash(const char *s)
{
	return s && *s ? s : "-";
}

/* The answers (answer.h): hosts read, their health, drift; at most a line each. */
static void answers(FILE *out, const struct bc_fleet *f, const struct bc_fleet_counts *c)
{
	size_t expected = c->read + c->failed + c->missing, used = 0, listed = 0;
	int width = bc_answer_width(out);
	struct bc_answer a[3];
	char list[200] = "";

	bc_answer_set(&a[0], "Hosts", c->failed || c->missing ? BC_ANSWER_FAIL : BC_ANSWER_PASS,
		      "%zu of %zu host%s read", c->read, expected, expected == 1 ? "" : "s");
	if (c->failed || c->missing)
		bc_answer_next(&a[0], "%zu failed, %zu missing (see the findings)", c->failed,
			       c->missing);
	/* hosts named while they fit the line; the rest counted */
	for (size_t i = 0; i < f->n_hosts && used < sizeof(list); i++) {
		const struct bc_fleet_host *h = &f->host[i];
		bool err = false;

		for (size_t b = 0; !h->failed && b < h->n_bonds; b++)
			err = err || h->bonds[b].n_error;
		if (err && used + strlen(h->host) + 2 + 16 < (size_t)width - BC_ANSWER_TEXT_COL - 40) {
			int w = snprintf(list + used, sizeof(list) - used, "%s%s", used ? ", " : "",
					 h->host);

			used += w > 0 ? (size_t)w : 0;
			listed++;
		}
	}
	if (c->with_errors > listed)
		snprintf(list + used, sizeof(list) - used, " and %zu more", c->with_errors - listed);
	if (c->with_errors)
		bc_answer_set(&a[1], "Health", BC_ANSWER_FAIL,
			      "%zu host%s with error-level findings: %s", c->with_errors,
			      c->with_errors == 1 ? "" : "s", list);
	else
		bc_answer_set(&a[1], "Health", BC_ANSWER_PASS, "no host has error-level findings");
	/* "driver on node04; lacp_rate on node05, node07" while it fits one line
	 * (the findings below give every host); what does not fit is counted */
	list[0] = '\0';
	used = 0;
	{
		size_t shown = 0, total = 0, room = (size_t)width - BC_ANSWER_TEXT_COL - 14;

		for (size_t i = 0; i < f->n_findings; i++) {
			const struct bc_fleet_finding *x = &f->finding[i];
			char item[160], h[120];
			size_t n;

			if (x->kind != BC_FLEET_DRIFT && x->kind != BC_FLEET_DIFFERS &&
			    x->kind != BC_FLEET_BOND_ALONE && x->kind != BC_FLEET_DUP_ACTOR)
				continue;
			total++;
			host_names(x, 2, h, sizeof(h));
			snprintf(item, sizeof(item), "%s%s %s %s", used ? "; " : "",
				 x->kind == BC_FLEET_BOND_ALONE	 ? "mode"
				 : x->kind == BC_FLEET_DUP_ACTOR ? "LACP actor system"
								 : bc_fleet_attr_name(x->attr),
				 x->kind == BC_FLEET_DIFFERS ? "differs on" : "on", h);
			n = strlen(item);
			if (used + n > room || used + n >= sizeof(list))
				continue;
			memcpy(list + used, item, n + 1);
			used += n;
			shown++;
		}
		if (total > shown)
			snprintf(list + used, sizeof(list) - used, "%s%zu more below",
				 shown ? "; " : "", total - shown);
	}
	if (c->drift + c->differs + c->alone + c->dup_actor)
		bc_answer_set(&a[2], "Drift", c->dup_actor ? BC_ANSWER_FAIL : BC_ANSWER_WARN, "%s",
			      list);
	else
		bc_answer_set(&a[2], "Drift", BC_ANSWER_PASS,
			      "comparable bonds agree on every compared setting");
	bc_answer_print(out, a, 3, width);
}

static void finding_line(FILE *out, const struct bc_fleet_finding *x)
{
	const char *sev = "";
	const char *id = bc_fleet_kind_id(x->kind, &sev);
	char hosts[400];

	host_names(x, 20, hosts, sizeof(hosts));
	fprintf(out, "  %-7s %s", sev, id);
	switch (x->kind) {
	case BC_FLEET_DRIFT:
		fprintf(out, "  %s (%s) %s", x->bond, dash(x->mode), bc_fleet_attr_name(x->attr));
		if (x->kernel_release[0])
			fprintf(out, " (kernel %s)", x->kernel_release);
		fprintf(out, ": %s on %s; %u of %u hosts have %s\n", x->value, hosts,
			x->majority_hosts, x->group_hosts, x->majority);
		break;
	case BC_FLEET_DIFFERS:
		fprintf(out, "  %s (%s) %s", x->bond, dash(x->mode), bc_fleet_attr_name(x->attr));
		if (x->kernel_release[0])
			fprintf(out, " (kernel %s)", x->kernel_release);
		fprintf(out, ": no majority: %s (hosts: %s)\n", x->detail, hosts);
		break;
	case BC_FLEET_BOND_ALONE:
		fprintf(out, "  %s is %s on %s; %s\n", x->bond, x->value, hosts, x->detail);
		break;
	case BC_FLEET_DUP_ACTOR:
		fprintf(out, "  LACP actor system %s on ports of %s: a switch takes them for one "
			     "system (cloned VMs, or ad_actor_system set alike)\n",
			x->value, hosts);
		break;
	case BC_FLEET_HOST_FAILED:
	case BC_FLEET_HOST_MISSING:
		fprintf(out, "  %s: %s\n", hosts, x->detail);
		break;
	}
}

/* @x's line, wrapped to the report's width with a hanging indent of 4. */
static void finding(FILE *out, const struct bc_fleet_finding *x)
{
	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);

	if (!m) {
		finding_line(out, x);
		return;
	}
	finding_line(m, x);
	if (fclose(m) || !line) {
		free(line);
		finding_line(out, x);
		return;
	}
	line[strcspn(line, "\n")] = '\0';
	bc_wrapf(out, 4, "%s", line);
	free(line);
}

int bc_fleet_text(FILE *out, const struct bc_fleet *f, bool brief)
{
	struct bc_fleet_counts c;
	int wh = 4, wd = 7, wf = 8, ws = 5;

	bc_fleet_count(f, &c);
	answers(out, f, &c);
	if (brief)
		return ferror(out) ? -EIO : 0;
	fprintf(out, "\nFleet findings (%zu)\n", f->n_findings);
	if (!f->n_findings)
		fprintf(out, "  none\n");
	for (size_t i = 0; i < f->n_findings; i++)
		finding(out, &f->finding[i]);
	for (size_t i = 0; i < f->n_hosts; i++) {
		const struct bc_fleet_host *h = &f->host[i];

		wh = (int)strlen(h->host) > wh ? (int)strlen(h->host) : wh;
		for (size_t b = 0; !h->failed && b < h->n_bonds; b++) {
			const char(*v)[BC_FLEET_VALUE_LEN] = h->bonds[b].value;

			wd = (int)strlen(v[BC_FLEET_DRIVER]) > wd ? (int)strlen(v[BC_FLEET_DRIVER]) : wd;
			wf = (int)strlen(v[BC_FLEET_FIRMWARE]) > wf ? (int)strlen(v[BC_FLEET_FIRMWARE])
								    : wf;
			ws = (int)strlen(v[BC_FLEET_SPEED]) > ws ? (int)strlen(v[BC_FLEET_SPEED]) : ws;
		}
	}
	fprintf(out, "\nHosts (%zu)\n  %-*s %-8s %-13s %-6s %-*s %-*s %-*s %s\n", f->n_hosts, wh,
		"HOST", "BOND", "MODE", "SLAVES", wd, "DRIVERS", wf, "FIRMWARE", ws, "SPEED",
		"FINDINGS (error/warning/info)");
	for (size_t i = 0; i < f->n_hosts; i++) {
		const struct bc_fleet_host *h = &f->host[i];

		if (h->failed) {
			fprintf(out, "  %-*s failed: %s\n", wh, h->host, h->why);
			continue;
		}
		if (!h->n_bonds)
			fprintf(out, "  %-*s no bonds\n", wh, h->host);
		for (size_t b = 0; b < h->n_bonds; b++) {
			const struct bc_fleet_bond *x = &h->bonds[b];

			fprintf(out, "  %-*s %-8s %-13s %-6s %-*s %-*s %-*s %u/%u/%u\n", wh, h->host,
				x->name, dash(x->mode),
				x->slaves_incomplete ? "cut" : dash(x->value[BC_FLEET_SLAVE_COUNT]),
				wd, dash(x->value[BC_FLEET_DRIVER]), wf,
				dash(x->value[BC_FLEET_FIRMWARE]), ws, dash(x->value[BC_FLEET_SPEED]),
				x->n_error, x->n_warning, x->n_info);
		}
	}
	return ferror(out) ? -EIO : 0;
}

/* One CSV field (RFC 4180, bc_csv_text()) and its separator. */
static void field(FILE *out, const char *s, bool last)
{
	bc_csv_text(out, s);
	fputs(last ? "\r\n" : ",", out);
}

int bc_fleet_csv(FILE *out, const struct bc_fleet *f)
{
	fputs("host,kernel_release,failed,why,bond,mode", out);
	for (int a = 0; a < BC_FLEET_N_ATTRS; a++)
		fprintf(out, ",%s", bc_fleet_attr_name(a));
	fputs(",errors,warnings,infos\r\n", out);
	for (size_t i = 0; i < f->n_hosts; i++) {
		const struct bc_fleet_host *h = &f->host[i];
		size_t nb = h->failed || !h->n_bonds ? 1 : h->n_bonds;

		for (size_t b = 0; b < nb; b++) {
			const struct bc_fleet_bond *x = h->failed || !h->n_bonds ? NULL : &h->bonds[b];
			char num[64];

			field(out, h->host, false);
			field(out, h->kernel_release, false);
			field(out, h->failed ? "yes" : "no", false);
			field(out, h->why, false);
			field(out, x ? x->name : "", false);
			field(out, x ? x->mode : "", false);
			for (int a = 0; a < BC_FLEET_N_ATTRS; a++)
				field(out, x ? x->value[a] : "", false);
			snprintf(num, sizeof(num), "%u", x ? x->n_error : 0);
			field(out, x ? num : "", false);
			snprintf(num, sizeof(num), "%u", x ? x->n_warning : 0);
			field(out, x ? num : "", false);
			snprintf(num, sizeof(num), "%u", x ? x->n_info : 0);
			field(out, x ? num : "", true);
		}
	}
	return ferror(out) ? -EIO : 0;
}
