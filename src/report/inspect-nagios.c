// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck inspect --nagios` (issue 16 item 5): a monitoring-plugins
 * check (Nagios, Icinga, Naemon, Checkmk's classic checks).  Output as the
 * Monitoring Plugins Development Guidelines ("Plugin Output", "Performance
 * data") define it:
 *
 *   BONDCHECK STATE - summary | 'label'=value[UOM];warn;crit;min;max ...
 *   one line per finding (the long output)
 *
 * The state is the worst finding's severity: error CRITICAL, warning
 * WARNING, info or none OK.  That is stricter than Checkmk's lnx_bonding,
 * which gives WARN for a slave that is down, because bondcheck's catalog
 * rates slave-down an error (one more failure and the bond is gone); like
 * check_lacp_bond it goes CRITICAL on an 802.3ad port outside the active
 * aggregator (lacp-split-aggregator).  UNKNOWN (3) is the caller's: the
 * check could not run.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/findings.h"
#include "bondcheck/inspect-report.h"
#include "bondcheck/names.h"

/* Text without '|' (it starts the performance data) and without newlines. */
static void plain(FILE *out, const char *s)
{
	for (; s && *s; s++)
		fputc(*s == '|' ? '/' : *s == '\n' || *s == '\r' ? ' ' : *s, out);
}

/* A perfdata label: single-quoted, a quote inside doubled (the guidelines). */
static void perf_label(FILE *out, const char *bond, const char *what)
{
	fputc('\'', out);
	for (const char *p = bond; *p; p++) {
		if (*p == '\'')
			fputc('\'', out);
		fputc(*p == '=' ? '_' : *p, out);
	}
	fprintf(out, "_%s'=", what);
}

int bc_inspect_nagios_state(const struct bc_snapshot *snap)
{
	if (bc_findings_count(snap, BC_SEV_ERROR))
		return BC_NAGIOS_CRITICAL;
	return bc_findings_count(snap, BC_SEV_WARNING) ? BC_NAGIOS_WARNING : BC_NAGIOS_OK;
}

static const char *state_word(int state)
{
	static const char *const w[] = {"OK", "WARNING", "CRITICAL", "UNKNOWN"};

	return state >= 0 && state <= 3 ? w[state] : "UNKNOWN";
}

static size_t slaves_up(const struct bc_bond *b)
{
	size_t n = 0;

	for (size_t k = 0; k < b->n_slaves; k++)
		n += bc_u32_known(&b->slaves[k].mii_status) &&
		     b->slaves[k].mii_status.v == BC_LINK_UP;
	return n;
}

/* "bond0 (802.3ad, 1 of 2 slaves up): slave-down on bond0/eth1, ..." */
static void bond_summary(FILE *out, const struct bc_snapshot *snap, const struct bc_bond *b)
{
	const char *mode = bc_u32_known(&b->mode) ? bc_mode_name((int)b->mode.v) : NULL;
	size_t n[3] = {0, 0, 0}, shown = 0, listed = 0;
	int worst = -1;

	for (size_t i = 0; i < snap->n_findings; i++) {
		const struct bc_finding *f = &snap->findings[i];

		if (!bc_finding_is_about(f, b->name) || (unsigned)f->severity > BC_SEV_ERROR)
			continue;
		n[f->severity]++;
		worst = (int)f->severity > worst ? (int)f->severity : worst;
	}
	plain(out, b->name);
	fprintf(out, " (%s, ", mode ? mode : "mode unknown");
	if (b->slaves_incomplete)
		fputs("slave list incomplete): ", out);
	else
		fprintf(out, "%zu of %zu slaves up): ", slaves_up(b), b->n_slaves);
	if (worst < BC_SEV_WARNING) {
		fprintf(out, "no error or warning finding (%zu info)", n[BC_SEV_INFO]);
		return;
	}
	/* the worst severity's findings, three at most */
	for (size_t i = 0; i < snap->n_findings; i++) {
		const struct bc_finding *f = &snap->findings[i];

		if (!bc_finding_is_about(f, b->name) || (int)f->severity != worst)
			continue;
		listed++;
		if (shown == 3)
			continue;
		fputs(shown++ ? ", " : "", out);
		plain(out, f->id);
		fputs(" on ", out);
		plain(out, f->subject);
	}
	if (listed > shown)
		fprintf(out, " and %zu more", listed - shown);
	fprintf(out, " (%zu error, %zu warning)", n[BC_SEV_ERROR], n[BC_SEV_WARNING]);
}

static void perfdata(FILE *out, const struct bc_snapshot *snap, const struct bc_bond *b)
{
	size_t n[3] = {0, 0, 0};
	uint64_t failures = 0;
	bool have_failures = false;

	for (size_t i = 0; i < snap->n_findings; i++)
		if (bc_finding_is_about(&snap->findings[i], b->name) &&
		    (unsigned)snap->findings[i].severity <= BC_SEV_ERROR)
			n[snap->findings[i].severity]++;
	for (size_t k = 0; k < b->n_slaves; k++)
		if (bc_u32_known(&b->slaves[k].link_failure_count)) {
			failures += b->slaves[k].link_failure_count.v;
			have_failures = true;
		}
	if (!b->slaves_incomplete) {
		fputc(' ', out);
		perf_label(out, b->name, "slaves_up");
		fprintf(out, "%zu;;;0;%zu ", slaves_up(b), b->n_slaves);
		perf_label(out, b->name, "slaves");
		fprintf(out, "%zu;;;0;", b->n_slaves);
	}
	if (have_failures) {
		fputc(' ', out);
		perf_label(out, b->name, "link_failures");
		fprintf(out, "%lluc;;;0;", (unsigned long long)failures);
	}
	fputc(' ', out);
	perf_label(out, b->name, "errors");
	fprintf(out, "%zu;;;0; ", n[BC_SEV_ERROR]);
	perf_label(out, b->name, "warnings");
	fprintf(out, "%zu;;;0;", n[BC_SEV_WARNING]);
}

int bc_inspect_nagios_write(FILE *out, const struct bc_snapshot *snap)
{
	int state = bc_inspect_nagios_state(snap);

	fprintf(out, "BONDCHECK %s - ", state_word(state));
	for (size_t i = 0; i < snap->n_bonds; i++) {
		fputs(i ? "; " : "", out);
		bond_summary(out, snap, &snap->bonds[i]);
	}
	fputs(" |", out);
	for (size_t i = 0; i < snap->n_bonds; i++)
		perfdata(out, snap, &snap->bonds[i]);
	fputc('\n', out);
	/* long output: every finding, worst first */
	for (int sev = BC_SEV_ERROR; sev >= BC_SEV_INFO; sev--)
		for (size_t i = 0; i < snap->n_findings; i++) {
			const struct bc_finding *f = &snap->findings[i];

			if ((int)f->severity != sev)
				continue;
			fprintf(out, "%s %s %s: ", bc_severity_name(sev), f->id, f->subject);
			plain(out, f->advice[0] ? f->advice : "-");
			fputc('\n', out);
		}
	return ferror(out) ? -EIO : 0;
}

int bc_inspect_nagios_unknown(FILE *out, const char *message)
{
	fputs("BONDCHECK UNKNOWN - ", out);
	plain(out, message && *message ? message : "the check could not run");
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}
