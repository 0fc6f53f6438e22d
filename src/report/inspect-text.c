// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text renderer of `inspect`: per bond a summary, an aligned slaves table
 * and the findings.  Value spelling: "-" not reported, "?" Unknown, "hidden"
 * withheld from an unprivileged reader, "N/A" as the kernel printed it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/answer.h"
#include "bondcheck/findings.h"
#include "bondcheck/inspect-report.h"
#include "bondcheck/names.h"
#include "bondcheck/wrap.h"

#define CELL  48  /* table cell capacity */
#define NCOLS 12

/* Spelling of a status other than BC_KNOWN. */
static const char *status_text(uint8_t st)
{
	switch (st) {
	case BC_UNKNOWN:
		return "?";
	case BC_NA:
		return "N/A";
	case BC_HIDDEN:
		return "hidden";
	default:
		return "-";
	}
}

/* Text of a numeric field; @sfx appended to known values ("M", " ms"). */
static const char *tu32(const struct bc_u32 *f, const char *sfx, char *buf, size_t len)
{
	if (f->st != BC_KNOWN)
		return status_text(f->st);
	snprintf(buf, len, "%u%s", f->v, sfx);
	return buf;
}

static const char *tstr(const struct bc_str *f)
{
	switch (f->st) {
	case BC_KNOWN:
		return f->v;
	case BC_UNKNOWN:
		return "?";
	case BC_NA:
		return "None";
	case BC_HIDDEN:
		return "hidden";
	default:
		return "-";
	}
}

/* Text of a field decoded through a names.h table. */
static const char *tname(const struct bc_u32 *f, const char *(*name)(int))
{
	const char *n;

	if (f->st != BC_KNOWN)
		return status_text(f->st);
	n = name((int)f->v);
	return n ? n : "?";
}

static const char *onoff_name(int v)
{
	return v ? "on" : "off";
}

static const char *duplex_name(int v)
{
	return v ? "full" : "half";
}

/* Compact port state: "63 ATGSCD"; letters in bit order (legend under the table). */
static const char *tstate(const struct bc_u32 *f, char *buf, size_t len)
{
	static const char letters[] = "ATGSCDFE";
	char flags[9];
	size_t k = 0;

	if (f->st != BC_KNOWN)
		return status_text(f->st);
	for (unsigned int i = 0; i < 8; i++)
		if (f->v & (1u << i))
			flags[k++] = letters[i];
	flags[k] = '\0';
	snprintf(buf, len, "%u %s", f->v, flags);
	return buf;
}

/* Offloads that are on ("tso,gso,gro"), "none", or "-" when none is reported. */
static const char *toffloads(const struct bc_offloads *x, char *buf, size_t len)
{
	const struct {
		const char *name;
		const struct bc_u32 *f;
	} feats[] = {
		{"tso", &x->tso}, {"gso", &x->gso},	{"gro", &x->gro},
		{"lro", &x->lro}, {"rxc", &x->rx_csum}, {"txc", &x->tx_csum},
	};
	bool any = false;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		if (feats[i].f->st != BC_KNOWN)
			continue;
		any = true;
		if (feats[i].f->v)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "," : "",
				 feats[i].name);
	}
	if (!any)
		return "-";
	return buf[0] ? buf : "none";
}

/* Print @text after @prefix, wrapped to the report's width with a hanging indent. */
static void wrap(FILE *out, const char *prefix, const char *text)
{
	bc_wrap(out, bc_answer_width(out), prefix, strlen(prefix), text);
}

/*
 * Netlink reports xmit_hash_policy for every mode, but only these modes hash
 * (bond_mode_uses_xmit_hash() in include/net/bonding.h): show it there only.
 */
static bool uses_hash(const struct bc_bond *b)
{
	if (!bc_u32_known(&b->mode))
		return true;
	switch (b->mode.v) {
	case BC_MODE_XOR:
	case BC_MODE_8023AD:
		return true;
	case BC_MODE_TLB:
	case BC_MODE_ALB:
		return bc_u32_known(&b->tlb_dynamic_lb) && b->tlb_dynamic_lb.v == 0;
	default:
		return false;
	}
}

static void summary(FILE *out, const struct bc_snapshot *snap, const struct bc_bond *b)
{
	char t1[32], t2[32], t3[32], t4[32];
	size_t up = 0;

	for (size_t i = 0; i < b->n_slaves; i++)
		up += b->slaves[i].mii_status.st == BC_KNOWN && b->slaves[i].mii_status.v == 0;
	fprintf(out, "%s: %s, MII %s, %zu slave%s (%zu up)%s\n", b->name,
		tname(&b->mode, bc_mode_name), tname(&b->mii_status, bc_link_status_name),
		b->n_slaves, b->n_slaves == 1 ? "" : "s", up,
		b->slaves_incomplete ? " shown: the source lists only part" : "");
	if (b->origin[0])
		fprintf(out, "  source:      %s %s\n",
			snap->source == BC_SRC_IP_FILE ? "ip listing"
			: snap->source == BC_SRC_SOS   ? "sosreport file"
						       : "/proc file",
			b->origin);
	if (b->slaves_incomplete)
		fprintf(out, "  slave list:  incomplete: %s\n", b->incomplete_reason);
	if (b->driver_version[0])
		fprintf(out, "  driver:      bonding %s\n", b->driver_version);
	if ((b->xmit_hash_policy_name[0] || bc_u32_known(&b->xmit_hash_policy)) && uses_hash(b))
		fprintf(out, "  hash policy: %s (%s)\n",
			b->xmit_hash_policy_name[0] ? b->xmit_hash_policy_name : "?",
			tu32(&b->xmit_hash_policy, "", t1, sizeof(t1)));
	fprintf(out, "  monitoring:  miimon %s, updelay %s, downdelay %s, arp_interval %s",
		tu32(&b->miimon_ms, " ms", t1, sizeof(t1)),
		tu32(&b->updelay_ms, " ms", t2, sizeof(t2)),
		tu32(&b->downdelay_ms, " ms", t3, sizeof(t3)),
		tu32(&b->arp_interval_ms, " ms", t4, sizeof(t4)));
	for (size_t i = 0; i < b->n_arp_targets; i++)
		fprintf(out, "%s%s", i ? ", " : " -> ", b->arp_targets[i]);
	for (size_t i = 0; i < b->n_ns_targets; i++)
		fprintf(out, "%s%s", i || b->n_arp_targets ? ", " : " -> ", b->ns_targets[i]);
	fputc('\n', out);
	if (b->primary.st != BC_NOT_REPORTED || b->active_slave.st != BC_NOT_REPORTED) {
		fprintf(out, "  primary:     %s", tstr(&b->primary));
		if (bc_u32_known(&b->primary_reselect))
			fprintf(out, " (primary_reselect %s)",
				tname(&b->primary_reselect, bc_primary_reselect_name));
		fprintf(out, ", active slave %s", tstr(&b->active_slave));
		if (bc_u32_known(&b->fail_over_mac))
			fprintf(out, ", fail_over_mac %s",
				tname(&b->fail_over_mac, bc_fail_over_mac_name));
		fputc('\n', out);
	}
	if (!bc_u32_known(&b->mode) || b->mode.v != BC_MODE_8023AD)
		return;
	fprintf(out, "  802.3ad:     lacp_rate %s, lacp_active %s, min_links %s, ad_select %s\n",
		tname(&b->lacp_rate, bc_lacp_rate_name), tname(&b->lacp_active, onoff_name),
		tu32(&b->min_links, "", t1, sizeof(t1)), tname(&b->ad_select, bc_ad_select_name));
	/*
	 * Netlink's ad_actor_system is the configured override; all-zero means
	 * "not set: the bond's own MAC" (bond_3ad.c), not a system MAC of zero.
	 */
	if (b->ad_actor_system.st == BC_KNOWN && !strcmp(b->ad_actor_system.v, "00:00:00:00:00:00"))
		fprintf(out, "  system:      priority %s, MAC %s (ad_actor_system not set)\n",
			tu32(&b->ad_actor_sys_prio, "", t1, sizeof(t1)),
			b->mac.st == BC_KNOWN ? b->mac.v : "the bond's own");
	else
		fprintf(out, "  system:      priority %s, MAC %s\n",
			tu32(&b->ad_actor_sys_prio, "", t1, sizeof(t1)), tstr(&b->ad_actor_system));
	if (b->ad_info_status == BC_KNOWN)
		fprintf(out,
			"  aggregator:  id %s, ports %s, actor key %s, partner key %s, "
			"partner MAC %s\n",
			tu32(&b->ad_aggregator_id, "", t1, sizeof(t1)),
			tu32(&b->ad_num_ports, "", t2, sizeof(t2)),
			tu32(&b->ad_actor_key, "", t3, sizeof(t3)),
			tu32(&b->ad_partner_key, "", t4, sizeof(t4)), tstr(&b->ad_partner_mac));
	else
		fprintf(out, "  aggregator:  %s\n",
			b->ad_info_status == BC_NA	 ? "none active"
			: b->ad_info_status == BC_HIDDEN ? "hidden (needs CAP_NET_ADMIN)"
			: b->slaves_incomplete		 ? "not shown (the text is cut)"
							 : "-");
}

static void slave_row(const struct bc_slave *s, char row[NCOLS][CELL])
{
	char t[CELL];

	snprintf(row[0], CELL, "%s", s->name);
	snprintf(row[1], CELL, "%s", s->driver[0] ? s->driver : "-");
	snprintf(row[2], CELL, "%s", s->fw_version[0] ? s->fw_version : "-");
	snprintf(row[3], CELL, "%s", tu32(&s->speed_mbps, "M", t, sizeof(t)));
	snprintf(row[4], CELL, "%s", tname(&s->duplex, duplex_name));
	snprintf(row[5], CELL, "%s", tu32(&s->mtu, "", t, sizeof(t)));
	snprintf(row[6], CELL, "%s", toffloads(&s->offloads, t, sizeof(t)));
	snprintf(row[7], CELL, "%s", tname(&s->mii_status, bc_link_status_name));
	snprintf(row[8], CELL, "%s", tu32(&s->link_failure_count, "", t, sizeof(t)));
	snprintf(row[9], CELL, "%s", tu32(&s->aggregator_id, "", t, sizeof(t)));
	snprintf(row[10], CELL, "%s", tstate(&s->actor_oper_port_state, t, sizeof(t)));
	snprintf(row[11], CELL, "%s", tstate(&s->partner_oper_port_state, t, sizeof(t)));
}

/* One table cell, left-aligned; the last one ends the line without padding. */
static void cell(FILE *out, const char *text, size_t width, bool last)
{
	if (last)
		fprintf(out, "  %s\n", text);
	else
		fprintf(out, "  %-*s", (int)width, text);
}

static void slaves_table(FILE *out, const struct bc_bond *b)
{
	static const char *const head[NCOLS] = {
		"SLAVE",    "DRIVER", "FIRMWARE", "SPEED", "DUPLEX", "MTU",
		"OFFLOADS", "MII",    "FAILURES", "AGG",   "ACTOR",  "PARTNER",
	};
	bool lacp = bc_u32_known(&b->mode) && b->mode.v == BC_MODE_8023AD;
	size_t ncols = lacp ? NCOLS : 9;
	size_t width[NCOLS];
	char row[NCOLS][CELL];

	if (!b->n_slaves)
		return;
	for (size_t k = 0; k < ncols; k++)
		width[k] = strlen(head[k]);
	for (size_t i = 0; i < b->n_slaves; i++) {
		slave_row(&b->slaves[i], row);
		for (size_t k = 0; k < ncols; k++)
			width[k] = strlen(row[k]) > width[k] ? strlen(row[k]) : width[k];
	}
	fputc('\n', out);
	for (size_t k = 0; k < ncols; k++)
		cell(out, head[k], width[k], k + 1 == ncols);
	for (size_t i = 0; i < b->n_slaves; i++) {
		slave_row(&b->slaves[i], row);
		for (size_t k = 0; k < ncols; k++)
			cell(out, row[k], width[k], k + 1 == ncols);
	}
	if (lacp)
		fprintf(out, "  port state: A activity, T short timeout, G aggregation, "
			     "S synchronization, C collecting,\n"
			     "              D distributing, F defaulted, E expired\n");
}

static void lacpdu_line(FILE *out, const char *who, const struct bc_lacp_port *p)
{
	char t1[16], t2[16], t3[16], t4[16], t5[16];

	if (p->port_state.st == BC_NOT_REPORTED && p->system_priority.st == BC_NOT_REPORTED)
		return;
	fprintf(out, "      %s LACPDU: system %s/%s, key %s, port %s/%s, state %s\n", who,
		tu32(&p->system_priority, "", t1, sizeof(t1)), tstr(&p->system_mac),
		tu32(&p->key, "", t2, sizeof(t2)), tu32(&p->port_priority, "", t3, sizeof(t3)),
		tu32(&p->port_number, "", t4, sizeof(t4)),
		tu32(&p->port_state, "", t5, sizeof(t5)));
}

/* -v: the per-slave facts that do not fit the table, and unknown keys. */
static void details(FILE *out, const struct bc_bond *b)
{
	char t1[16], t2[16], t3[16];

	if (b->n_slaves)
		fprintf(out, "\n  details:\n");
	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];

		fprintf(out, "    %s: permanent address %s, queue id %s", s->name,
			tstr(&s->perm_hwaddr), tu32(&s->queue_id, "", t1, sizeof(t1)));
		if (s->actor_churn_state.st != BC_NOT_REPORTED)
			fprintf(out, ", churn actor %s (%s) partner %s (%s)",
				tname(&s->actor_churn_state, bc_churn_name),
				tu32(&s->actor_churned_count, "", t2, sizeof(t2)),
				tname(&s->partner_churn_state, bc_churn_name),
				tu32(&s->partner_churned_count, "", t3, sizeof(t3)));
		fputc('\n', out);
		lacpdu_line(out, "actor", &s->actor);
		lacpdu_line(out, "partner", &s->partner);
	}
	if (b->n_unknown)
		fprintf(out, "\n  unknown lines kept:\n");
	for (size_t i = 0; i < b->n_unknown; i++)
		fprintf(out, "    %s%s%s\n", b->unknown[i].key, b->unknown[i].key[0] ? ": " : "",
			b->unknown[i].value);
}

static void evidence_text(const struct bc_finding *f, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < f->n_evidence; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s=%s", i ? "; " : "",
			 f->evidence[i].key, f->evidence[i].value);
}

static void findings(FILE *out, const struct bc_snapshot *snap, const struct bc_bond *b, bool quiet)
{
	size_t n[3] = {0, 0, 0};
	char ev[BC_EVIDENCE_MAX * 200];

	for (size_t i = 0; i < snap->n_findings; i++)
		if (bc_finding_is_about(&snap->findings[i], b->name))
			n[snap->findings[i].severity]++;
	if (!quiet) {
		if (n[0] + n[1] + n[2])
			fprintf(out, "\nFindings for %s: %zu error, %zu warning, %zu info\n",
				b->name, n[BC_SEV_ERROR], n[BC_SEV_WARNING], n[BC_SEV_INFO]);
		else
			fprintf(out, "\nFindings for %s: none\n", b->name);
	}
	for (size_t i = 0; i < snap->n_findings; i++) {
		const struct bc_finding *f = &snap->findings[i];

		if (!bc_finding_is_about(f, b->name))
			continue;
		if (quiet) {
			fprintf(out, "%-7s  %s  %s\n", bc_severity_name(f->severity), f->id,
				f->subject);
			continue;
		}
		fprintf(out, "  %-7s  %s  %s\n", bc_severity_name(f->severity), f->id, f->subject);
		evidence_text(f, ev, sizeof(ev));
		if (ev[0])
			wrap(out, "           evidence: ", ev);
		wrap(out, "           advice:   ", f->advice);
	}
}

int bc_inspect_text_write(FILE *out, const struct bc_snapshot *snap,
			  const struct bc_inspect_render_opts *opts)
{
	bool quiet = opts && opts->quiet, verbose = opts && opts->verbose;

	for (size_t i = 0; i < snap->n_bonds; i++) {
		const struct bc_bond *b = &snap->bonds[i];

		if (opts && opts->brief) { /* the bond's name only where several share the block */
			if (snap->n_bonds > 1)
				fprintf(out, "%s%s:\n", i ? "\n" : "", b->name);
			bc_inspect_text_answers(out, snap, b);
			continue;
		}
		if (!quiet) {
			if (i)
				fputc('\n', out);
			bc_inspect_text_answers(out, snap, b);
			fputc('\n', out);
			summary(out, snap, b);
			slaves_table(out, b);
			if (verbose)
				details(out, b);
		}
		findings(out, snap, b, quiet);
	}
	if (!quiet && !(opts && opts->brief) && snap->lacp_hidden)
		fprintf(out, "\nNote: LACP details were hidden from this reader (CAP_NET_ADMIN); "
			     "checks that need them were skipped.\n");
	return ferror(out) ? -EIO : 0;
}
