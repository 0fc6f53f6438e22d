// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a bond's configuration implies for a failover (bc_failover_expect(),
 * formulas and kernel sources in bondcheck/failover.h) and the failover
 * findings: failover-slow, failover-black-hole, failover-not-recovered.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/failover-int.h"
#include "bondcheck/findings.h"
#include "bondcheck/names.h"

#define LACP_TICK_MS 100 /* bond_3ad.c AD_TIMER_INTERVAL */

const char *bc_fo_detector_name(enum bc_fo_detector d)
{
	switch (d) {
	case BC_FO_BY_NONE_NEEDED:
		return "none-needed";
	case BC_FO_BY_CARRIER:
		return "carrier";
	case BC_FO_BY_MIIMON:
		return "miimon";
	case BC_FO_BY_ARP:
		return "arp";
	case BC_FO_BY_LACP:
		return "lacp";
	default:
		return "nothing";
	}
}

void bc_fo_end_from_bond(const struct bc_bond *b, struct bc_fo_end *e)
{
#define V(x) ((x).st == BC_KNOWN ? (x).v : 0)
	memset(e, 0, sizeof(*e));
	e->known = true;
	e->is_bond = true;
	e->mode = b->mode.st == BC_KNOWN ? (int)b->mode.v : BC_MODE_UNKNOWN;
	e->miimon_ms = V(b->miimon_ms);
	e->updelay_ms = V(b->updelay_ms);
	e->downdelay_ms = V(b->downdelay_ms);
	e->arp_interval_ms = V(b->arp_interval_ms);
	e->arp_missed_max = V(b->arp_missed_max);
	e->n_arp_targets = (uint32_t)b->n_arp_targets;
	e->n_ns_targets = (uint32_t)b->n_ns_targets;
	e->lacp_rate = b->lacp_rate.st == BC_KNOWN ? (int)b->lacp_rate.v : -1;
#undef V
}

struct det {
	enum bc_fo_detector by;
	uint64_t nominal, min, worst, recovery;
	char basis[120], missing[160];
};

static void detect(const struct bc_fo_end *e, enum bc_fo_cut cut, struct det *d)
{
	bool arp = e->arp_interval_ms && (e->n_arp_targets || e->n_ns_targets);

	memset(d, 0, sizeof(*d));
	if (!e->is_bond) {
		d->by = BC_FO_BY_NONE_NEEDED;
		snprintf(d->basis, sizeof(d->basis), "not a bond");
		return;
	}
	if (cut == BC_FO_CUT_CARRIER &&
	    (e->mode == BC_MODE_XOR || e->mode == BC_MODE_8023AD || e->mode == BC_MODE_ROUNDROBIN ||
	     e->mode == BC_MODE_BROADCAST)) {
		d->by = BC_FO_BY_CARRIER;
		d->recovery = (uint64_t)e->miimon_ms + e->updelay_ms;
		snprintf(d->basis, sizeof(d->basis),
			 "carrier loss, seen at once in %s (the slave's netdev event)",
			 bc_mode_name(e->mode));
		return;
	}
	if (e->mode == BC_MODE_8023AD) {
		uint64_t period = e->lacp_rate == 1 ? 1000 : 30000;

		d->by = BC_FO_BY_LACP;
		d->nominal = 3 * period;
		d->min = 2 * period - LACP_TICK_MS;
		d->worst = 3 * period + LACP_TICK_MS;
		snprintf(d->basis, sizeof(d->basis), "LACP %s timeout %llu ms (3 x %llu ms)%s",
			 e->lacp_rate == 1 ? "short (lacp_rate fast)" : "long (lacp_rate slow)",
			 (unsigned long long)d->nominal, (unsigned long long)period,
			 e->lacp_rate < 0 ? ", rate not reported: slow assumed" : "");
		return;
	}
	if (arp) {
		uint64_t n = e->arp_missed_max ? e->arp_missed_max : 2, i = e->arp_interval_ms;

		d->by = BC_FO_BY_ARP;
		d->nominal = i * n;
		d->min = i * (n - 1);
		d->worst = i * n + i * 3 / 2;
		snprintf(d->basis, sizeof(d->basis), "arp_interval %llu ms x arp_missed_max %llu%s",
			 (unsigned long long)i, (unsigned long long)n,
			 e->arp_missed_max ? "" : " (not reported: kernel default 2)");
		return;
	}
	if (e->miimon_ms && cut == BC_FO_CUT_CARRIER) {
		d->by = BC_FO_BY_MIIMON;
		d->nominal = d->worst = (uint64_t)e->miimon_ms + e->downdelay_ms;
		d->min = e->downdelay_ms;
		d->recovery = (uint64_t)e->miimon_ms + e->updelay_ms;
		snprintf(d->basis, sizeof(d->basis), "miimon %u ms + downdelay %u ms", e->miimon_ms,
			 e->downdelay_ms);
		return;
	}
	d->by = BC_FO_BY_NOTHING;
	/* short: it is a finding's evidence (struct bc_kv holds 127 characters) */
	if (e->miimon_ms)
		snprintf(d->missing, sizeof(d->missing),
			 "miimon %u sees only carrier, no ARP monitoring", e->miimon_ms);
	else
		snprintf(d->missing, sizeof(d->missing),
			 "miimon 0 and no ARP monitoring: none at all");
	snprintf(d->basis, sizeof(d->basis), "nothing detects this cut");
}

int bc_failover_expect(const struct bc_fo_end *client, const struct bc_fo_end *agent,
		       enum bc_fo_cut cut, struct bc_fo_expect *out)
{
	struct det c, a;
	const struct det *w;

	memset(out, 0, sizeof(*out));
	if (!client || !client->known)
		return -EINVAL;
	if (!agent || !agent->known) {
		agent = client;
		out->assumed_agent = true;
	}
	detect(client, cut, &c);
	detect(agent, cut, &a);
	w = a.worst > c.worst ? &a : &c;
	if (c.by == BC_FO_BY_NONE_NEEDED && a.by != BC_FO_BY_NONE_NEEDED)
		w = &a;
	out->by = w->by;
	out->nominal_ms = w->nominal;
	out->min_ms = c.min > a.min ? c.min : a.min;
	out->worst_ms = w->worst;
	out->recovery_ms = c.recovery > a.recovery ? c.recovery : a.recovery;
	if (c.by == BC_FO_BY_NOTHING || a.by == BC_FO_BY_NOTHING) {
		out->by = BC_FO_BY_NOTHING;
		out->black_hole = true;
		snprintf(out->missing, sizeof(out->missing), "%s%s%s%s%s",
			 c.by == BC_FO_BY_NOTHING ? "client: " : "", c.missing,
			 c.by == BC_FO_BY_NOTHING && a.by == BC_FO_BY_NOTHING && !out->assumed_agent
				 ? "; "
				 : "",
			 a.by == BC_FO_BY_NOTHING && !out->assumed_agent ? "agent: " : "",
			 out->assumed_agent ? "" : a.missing);
	}
	if (!strcmp(c.basis, a.basis))
		snprintf(out->basis, sizeof(out->basis), "%s (client%s)", c.basis,
			 out->assumed_agent ? "; agent assumed alike" : " and agent");
	else
		snprintf(out->basis, sizeof(out->basis), "client: %s; agent: %s", c.basis, a.basis);
	out->limit_ms = out->worst_ms + BC_FO_SLACK_MS(out->worst_ms);
	return 0;
}

/* ---- findings ---------------------------------------------------------------- */

static struct bc_finding *add(struct bc_failover *f, const char *id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static struct bc_finding *add(struct bc_failover *f, const char *id, const char *fmt, ...)
{
	const struct bc_finding_def *d = bc_findings_lookup(id);
	struct bc_finding *x;
	va_list ap;

	if (!d)
		return NULL;
	x = realloc(f->findings, (f->n_findings + 1) * sizeof(*x));
	if (!x)
		return NULL;
	f->findings = x;
	x = &x[f->n_findings++];
	memset(x, 0, sizeof(*x));
	x->id = d->id;
	x->severity = d->severity;
	snprintf(x->subject, sizeof(x->subject), "%s/%s", f->cfg.bond, f->cfg.cut_slave);
	va_start(ap, fmt);
	vsnprintf(x->advice, sizeof(x->advice), fmt, ap);
	va_end(ap);
	return x;
}

static unsigned long long ms(uint64_t ns)
{
	return (unsigned long long)((ns + 500000) / 1000000);
}

static int black_hole(struct bc_failover *f, enum bc_fo_dir d)
{
	const struct bc_fo_dirsum *x = &f->dir[d];
	const struct bc_fo_expect *e = &f->cfg.expect;
	uint64_t hold = f->cfg.restore_ns - f->cfg.cut_ns;
	struct bc_finding *n;

	if (f->cfg.have_expect && !e->black_hole && hold < e->worst_ms * 1000000ull)
		return 0; /* the hold ended before the configuration could notice: no verdict */
	if (f->cfg.have_expect && e->black_hole)
		n = add(f, "failover-black-hole",
			"no monitoring in the bond's configuration sees this failure (evidence: "
			"monitoring); enable one that does: ARP monitoring (arp_interval, "
			"arp_ip_target a host behind the switch) or 802.3ad with lacp_rate fast; "
			"miimon for carrier loss");
	else
		n = add(f, "failover-black-hole",
			"the configuration should have failed over within expected_ms but nothing "
			"was delivered for the whole hold: check that the monitoring works "
			"(arp_ip_target reachable from every slave, /proc/net/bonding, dmesg)");
	if (!n)
		return -ENOMEM;
	bc_finding_evidence(n, "direction", "%s", bc_fo_dir_name(d));
	bc_finding_evidence(n, "gap_ms", "%llu%s", ms(x->gap_ns),
			    f->dir[d].not_recovered ? " (to the end of the capture)" : "");
	bc_finding_evidence(n, "hold_ms", "%llu", ms(hold));
	bc_finding_evidence(n, "lost", "%llu", (unsigned long long)x->lost_in_gap);
	bc_finding_evidence(n, "streams", "%zu of %zu", x->n_black_hole, x->n_streams);
	if (f->cfg.have_expect && e->black_hole)
		bc_finding_evidence(n, "monitoring", "%s", e->missing);
	else if (f->cfg.have_expect)
		bc_finding_evidence(n, "expected_ms", "%llu (%s)", (unsigned long long)e->worst_ms,
				    e->basis);
	return 0;
}

static int slow(struct bc_failover *f, enum bc_fo_dir d)
{
	const struct bc_fo_dirsum *x = &f->dir[d];
	const struct bc_fo_expect *e = &f->cfg.expect;
	struct bc_finding *n;

	if (!f->cfg.have_expect || e->black_hole || x->gap_ns <= e->limit_ms * 1000000ull)
		return 0;
	n = add(f, "failover-slow",
		"traffic stopped longer than the configuration implies (basis; limit = worst + "
		"max(100 ms, 25 %%)): look for a switch slow to relearn the MAC (gratuitous ARPs "
		"per slave are counted), or a host too busy to run the bond's monitor on time");
	if (!n)
		return -ENOMEM;
	bc_finding_evidence(n, "direction", "%s", bc_fo_dir_name(d));
	bc_finding_evidence(n, "gap_ms", "%llu", ms(x->gap_ns));
	bc_finding_evidence(n, "expected_ms", "%llu (worst %llu)",
			    (unsigned long long)e->nominal_ms, (unsigned long long)e->worst_ms);
	bc_finding_evidence(n, "limit_ms", "%llu", (unsigned long long)e->limit_ms);
	bc_finding_evidence(n, "basis", "%s", e->basis);
	bc_finding_evidence(n, "streams", "%zu interrupted of %zu", x->n_interrupted, x->n_streams);
	if (f->cfg.host_stall_ns >= 50000000ull)
		bc_finding_evidence(n, "host_stall_ms", "%llu (a busy host: its timers ran late)",
				    ms(f->cfg.host_stall_ns));
	return 0;
}

static int not_recovered(struct bc_failover *f, enum bc_fo_dir d)
{
	struct bc_finding *n;

	if (!f->dir[d].not_recovered)
		return 0;
	n = add(f, "failover-not-recovered",
		"after the slave came back, traffic in this direction never resumed: look at "
		"/proc/net/bonding (is any slave up and active?), the LACP state of both ends "
		"and the peer's bond");
	if (!n)
		return -ENOMEM;
	bc_finding_evidence(n, "direction", "%s", bc_fo_dir_name(d));
	bc_finding_evidence(
		n, "restore_to_end_ms", "%llu",
		ms(f->last_ns > f->cfg.restore_ns ? f->last_ns - f->cfg.restore_ns : 0));
	return 0;
}

int fo_findings(struct bc_failover *f)
{
	for (int d = 0; d < 2; d++) {
		const struct bc_fo_dirsum *x = &f->dir[d];

		if (x->n_black_hole && black_hole(f, (enum bc_fo_dir)d) < 0)
			return -ENOMEM;
		if (!x->n_black_hole && x->n_interrupted && slow(f, (enum bc_fo_dir)d) < 0)
			return -ENOMEM;
		if (not_recovered(f, (enum bc_fo_dir)d) < 0)
			return -ENOMEM;
	}
	return 0;
}
