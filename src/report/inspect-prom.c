// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck inspect --format prometheus` (issue 16 item 5): the snapshot
 * and its findings in the Prometheus text exposition format 0.0.4, for
 * node_exporter's textfile collector (a *.prom file written atomically by
 * a timer; docs/fleet.md "Monitoring").
 *
 * Names are bondcheck's own (bondcheck_*), so they never collide with
 * node_exporter's bonding collector (node_bonding_*).  Every family is
 * written whole (HELP, TYPE, then all its samples), as the format requires;
 * no sample carries a timestamp (the collector and the scrape own time).
 * A value a source did not report, or reported Unknown or hidden, gives no
 * sample: absent, never a made-up 0.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/findings.h"
#include "bondcheck/inspect-report.h"
#include "bondcheck/names.h"

/* Label value escaping (exposition format): backslash, double quote, newline. */
static void label(FILE *out, const char *name, const char *value, bool first)
{
	fprintf(out, "%s%s=\"", first ? "" : ",", name);
	for (const char *p = value ? value : ""; *p; p++) {
		if (*p == '\\' || *p == '"')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void family(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static bool slave_up(const struct bc_slave *s)
{
	return bc_u32_known(&s->mii_status) && s->mii_status.v == BC_LINK_UP;
}

static const char *known_name(const struct bc_u32 *f, const char *(*name)(int))
{
	const char *n = bc_u32_known(f) ? name((int)f->v) : NULL;

	return n ? n : "";
}

/* The bond a finding's subject names: "bond0" of "bond0/eth1". */
static void subject_bond(const char *subject, char *bond, size_t len)
{
	const char *slash = strchr(subject, '/');
	size_t n = slash ? (size_t)(slash - subject) : strlen(subject);

	snprintf(bond, len, "%.*s", (int)n, subject);
}

static void bond_families(FILE *out, const struct bc_snapshot *snap)
{
	family(out, "bondcheck_bond_info", "gauge",
	       "A bond's mode and transmit options as labels (always 1); empty when not "
	       "reported.");
	for (size_t i = 0; i < snap->n_bonds; i++) {
		const struct bc_bond *b = &snap->bonds[i];
		const char *xhp =
			b->xmit_hash_policy_name[0]
				? b->xmit_hash_policy_name
				: known_name(&b->xmit_hash_policy, bc_xmit_hash_policy_name);

		fputs("bondcheck_bond_info{", out);
		label(out, "bond", b->name, true);
		label(out, "mode", known_name(&b->mode, bc_mode_name), false);
		label(out, "xmit_hash_policy", xhp, false);
		label(out, "lacp_rate", known_name(&b->lacp_rate, bc_lacp_rate_name), false);
		label(out, "ad_select", known_name(&b->ad_select, bc_ad_select_name), false);
		label(out, "primary", b->primary.st == BC_KNOWN ? b->primary.v : "", false);
		fputs("} 1\n", out);
	}
	family(out, "bondcheck_bond_up", "gauge", "The bond's MII status: 1 up, 0 down.");
	for (size_t i = 0; i < snap->n_bonds; i++) {
		const struct bc_bond *b = &snap->bonds[i];

		if (!bc_u32_known(&b->mii_status))
			continue;
		fputs("bondcheck_bond_up{", out);
		label(out, "bond", b->name, true);
		fprintf(out, "} %d\n", b->mii_status.v == BC_LINK_UP);
	}
	family(out, "bondcheck_bond_slaves", "gauge",
	       "Slaves enslaved to the bond (absent when the source lists only part of them).");
	for (size_t i = 0; i < snap->n_bonds; i++) {
		if (snap->bonds[i].slaves_incomplete)
			continue;
		fputs("bondcheck_bond_slaves{", out);
		label(out, "bond", snap->bonds[i].name, true);
		fprintf(out, "} %zu\n", snap->bonds[i].n_slaves);
	}
	family(out, "bondcheck_bond_slaves_up", "gauge", "Slaves whose MII status is up.");
	for (size_t i = 0; i < snap->n_bonds; i++) {
		const struct bc_bond *b = &snap->bonds[i];
		size_t n = 0;

		if (b->slaves_incomplete)
			continue;
		for (size_t k = 0; k < b->n_slaves; k++)
			n += slave_up(&b->slaves[k]);
		fputs("bondcheck_bond_slaves_up{", out);
		label(out, "bond", b->name, true);
		fprintf(out, "} %zu\n", n);
	}
	family(out, "bondcheck_bond_miimon_seconds", "gauge",
	       "MII link monitoring interval (0: off).");
	for (size_t i = 0; i < snap->n_bonds; i++) {
		const struct bc_bond *b = &snap->bonds[i];

		if (!bc_u32_known(&b->miimon_ms))
			continue;
		fputs("bondcheck_bond_miimon_seconds{", out);
		label(out, "bond", b->name, true);
		fprintf(out, "} %g\n", b->miimon_ms.v / 1000.0);
	}
	family(out, "bondcheck_bond_arp_interval_seconds", "gauge",
	       "ARP link monitoring interval (0: off).");
	for (size_t i = 0; i < snap->n_bonds; i++) {
		const struct bc_bond *b = &snap->bonds[i];

		if (!bc_u32_known(&b->arp_interval_ms))
			continue;
		fputs("bondcheck_bond_arp_interval_seconds{", out);
		label(out, "bond", b->name, true);
		fprintf(out, "} %g\n", b->arp_interval_ms.v / 1000.0);
	}
}

/* Per-slave gauge @name of every bond, from @get (false: no sample). */
static void slave_family(FILE *out, const struct bc_snapshot *snap, const char *name,
			 const char *type, const char *help,
			 bool (*get)(const struct bc_bond *b, const struct bc_slave *s, double *v))
{
	family(out, name, type, help);
	for (size_t i = 0; i < snap->n_bonds; i++)
		for (size_t k = 0; k < snap->bonds[i].n_slaves; k++) {
			const struct bc_slave *s = &snap->bonds[i].slaves[k];
			double v;

			if (!get(&snap->bonds[i], s, &v))
				continue;
			fprintf(out, "%s{", name);
			label(out, "bond", snap->bonds[i].name, true);
			label(out, "slave", s->name, false);
			fprintf(out, "} %.17g\n", v);
		}
}

static bool get_up(const struct bc_bond *b, const struct bc_slave *s, double *v)
{
	(void)b;
	*v = slave_up(s);
	return bc_u32_known(&s->mii_status);
}

static bool get_active(const struct bc_bond *b, const struct bc_slave *s, double *v)
{
	(void)b;
	*v = s->state.v == 0;
	return bc_u32_known(&s->state);
}

/* ethtool's Mb/s in bytes per second, as node_network_speed_bytes. */
static bool get_speed(const struct bc_bond *b, const struct bc_slave *s, double *v)
{
	(void)b;
	*v = s->speed_mbps.v * 125000.0;
	return bc_u32_known(&s->speed_mbps);
}

static bool get_failures(const struct bc_bond *b, const struct bc_slave *s, double *v)
{
	(void)b;
	*v = s->link_failure_count.v;
	return bc_u32_known(&s->link_failure_count);
}

static bool get_in_aggregator(const struct bc_bond *b, const struct bc_slave *s, double *v)
{
	if (!bc_u32_known(&b->mode) || b->mode.v != BC_MODE_8023AD ||
	    !bc_u32_known(&b->ad_aggregator_id))
		return false;
	*v = bc_u32_known(&s->aggregator_id) && s->aggregator_id.v == b->ad_aggregator_id.v;
	return true;
}

static const char *const lacp_flags[8] = {
	"activity",   "timeout",      "aggregation", "synchronization",
	"collecting", "distributing", "defaulted",   "expired",
};

static void lacp_families(FILE *out, const struct bc_snapshot *snap)
{
	static const char *const ends[2] = {"actor", "partner"};

	family(out, "bondcheck_slave_lacp_port_state", "gauge",
	       "802.3ad port state bits (IEEE 802.1AX) as the kernel reports them, per end.");
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			family(out, "bondcheck_slave_lacp_port_flag", "gauge",
			       "One 802.3ad port state bit (1 set, 0 clear), per end and flag.");
		for (size_t i = 0; i < snap->n_bonds; i++)
			for (size_t k = 0; k < snap->bonds[i].n_slaves; k++) {
				const struct bc_slave *s = &snap->bonds[i].slaves[k];

				for (int e = 0; e < 2; e++) {
					const struct bc_u32 *st = e ? &s->partner_oper_port_state
								    : &s->actor_oper_port_state;

					if (!bc_u32_known(st))
						continue;
					for (int bit = 0; bit < (pass ? 8 : 1); bit++) {
						fprintf(out, "%s{",
							pass ? "bondcheck_slave_lacp_port_flag"
							     : "bondcheck_slave_lacp_port_state");
						label(out, "bond", snap->bonds[i].name, true);
						label(out, "slave", s->name, false);
						label(out, "end", ends[e], false);
						if (pass)
							label(out, "flag", lacp_flags[bit], false);
						fprintf(out, "} %u\n",
							pass ? (st->v >> bit) & 1u : st->v);
					}
				}
			}
	}
}

static void slave_info(FILE *out, const struct bc_snapshot *snap)
{
	family(out, "bondcheck_slave_info", "gauge",
	       "A slave's driver, its version and the firmware as labels (always 1); empty when "
	       "not reported.");
	for (size_t i = 0; i < snap->n_bonds; i++)
		for (size_t k = 0; k < snap->bonds[i].n_slaves; k++) {
			const struct bc_slave *s = &snap->bonds[i].slaves[k];

			fputs("bondcheck_slave_info{", out);
			label(out, "bond", snap->bonds[i].name, true);
			label(out, "slave", s->name, false);
			label(out, "driver", s->driver, false);
			label(out, "driver_version", s->driver_version, false);
			label(out, "firmware_version", s->fw_version, false);
			fputs("} 1\n", out);
		}
}

static void findings(FILE *out, const struct bc_snapshot *snap)
{
	family(out, "bondcheck_findings", "gauge",
	       "Findings of inspect by severity (docs/inspect.md, the findings catalog).");
	for (int sev = BC_SEV_ERROR; sev >= BC_SEV_INFO; sev--)
		fprintf(out, "bondcheck_findings{severity=\"%s\"} %zu\n", bc_severity_name(sev),
			bc_findings_count(snap, (enum bc_severity)sev));
	family(out, "bondcheck_finding", "gauge",
	       "One series per finding: its id, severity and subject (bond or bond/slave); "
	       "the value counts findings with those labels.");
	for (size_t i = 0; i < snap->n_findings; i++) {
		const struct bc_finding *f = &snap->findings[i];
		size_t n = 1;
		bool seen = false;
		char bond[BC_IFNAMSIZ * 2 + 2];

		/* one sample per label set: count the repeats at the first */
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(snap->findings[j].id, f->id) &&
			       !strcmp(snap->findings[j].subject, f->subject) &&
			       snap->findings[j].severity == f->severity;
		if (seen)
			continue;
		for (size_t j = i + 1; j < snap->n_findings; j++)
			n += !strcmp(snap->findings[j].id, f->id) &&
			     !strcmp(snap->findings[j].subject, f->subject) &&
			     snap->findings[j].severity == f->severity;
		subject_bond(f->subject, bond, sizeof(bond));
		fputs("bondcheck_finding{", out);
		label(out, "id", f->id, true);
		label(out, "severity", bc_severity_name(f->severity), false);
		label(out, "bond", bond, false);
		label(out, "subject", f->subject, false);
		fprintf(out, "} %zu\n", n);
	}
}

static void up_family(FILE *out, int up)
{
	family(out, "bondcheck_up", "gauge",
	       "1 when bondcheck inspect read the bonds, 0 when it failed (its stderr and exit "
	       "status say why).");
	fprintf(out, "bondcheck_up %d\n", up);
}

int bc_inspect_prom_write(FILE *out, const struct bc_snapshot *snap)
{
	up_family(out, 1);
	bond_families(out, snap);
	slave_info(out, snap);
	slave_family(out, snap, "bondcheck_slave_up", "gauge",
		     "The slave's MII status: 1 up, 0 down or going down/back.", get_up);
	slave_family(out, snap, "bondcheck_slave_active", "gauge",
		     "The slave's bonding state: 1 active, 0 backup.", get_active);
	slave_family(out, snap, "bondcheck_slave_speed_bytes", "gauge",
		     "Negotiated speed in bytes per second (absent when Unknown).", get_speed);
	slave_family(out, snap, "bondcheck_slave_link_failures_total", "counter",
		     "Link failures the bonding driver counted on the slave since it was "
		     "enslaved.",
		     get_failures);
	slave_family(out, snap, "bondcheck_slave_in_active_aggregator", "gauge",
		     "802.3ad: 1 when the slave is in the bond's active aggregator, 0 when it "
		     "carries no traffic.",
		     get_in_aggregator);
	lacp_families(out, snap);
	findings(out, snap);
	return ferror(out) ? -EIO : 0;
}

int bc_inspect_prom_write_failed(FILE *out)
{
	up_family(out, 0);
	return ferror(out) ? -EIO : 0;
}
