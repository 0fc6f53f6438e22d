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

static const char *link_state(uint32_t v)
{
	return v == BC_LINK_FAIL ? "going down" : v == BC_LINK_BACK ? "going back" : "down";
}

int bc_fo_takeover(const struct bc_bond *b, const char *cut_slave, char *why, size_t len)
{
	const struct bc_slave *cut = NULL;
	int mode = b->mode.st == BC_KNOWN ? (int)b->mode.v : BC_MODE_UNKNOWN;
	size_t o = 0, others = 0;

	why[0] = 0;
	for (size_t i = 0; i < b->n_slaves; i++)
		if (!strcmp(b->slaves[i].name, cut_slave))
			cut = &b->slaves[i];
	if (!cut)
		return -EINVAL;
	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];
		bool up = s->mii_status.st == BC_KNOWN && s->mii_status.v == BC_LINK_UP;
		uint32_t cd = BC_LACP_COLLECTING | BC_LACP_DISTRIBUTING;

		if (s == cut)
			continue;
		others++;
		if (!up) {
			if (o < len)
				o += (size_t)snprintf(
					why + o, len - o, "%s%s is %s", o ? "; " : "", s->name,
					s->mii_status.st == BC_KNOWN ? link_state(s->mii_status.v)
								     : "of unknown MII status");
			continue;
		}
		if (mode != BC_MODE_8023AD)
			return 1;
		if (cut->aggregator_id.st == BC_KNOWN && s->aggregator_id.st == BC_KNOWN &&
		    s->aggregator_id.v != cut->aggregator_id.v) {
			if (o < len)
				o += (size_t)snprintf(why + o, len - o,
						      "%s%s is in aggregator %u, %s in %u",
						      o ? "; " : "", s->name, s->aggregator_id.v,
						      cut_slave, cut->aggregator_id.v);
			continue;
		}
		if (s->actor_oper_port_state.st == BC_KNOWN &&
		    (s->actor_oper_port_state.v & cd) != cd) {
			if (o < len)
				o += (size_t)snprintf(why + o, len - o,
						      "%s%s is not collecting and distributing",
						      o ? "; " : "", s->name);
			continue;
		}
		return 1;
	}
	if (!others && o < len)
		o += (size_t)snprintf(why + o, len - o, "%s is the only slave", cut_slave);
	if (mode == BC_MODE_ACTIVEBACKUP && b->arp_interval_ms.st == BC_KNOWN &&
	    b->arp_interval_ms.v && b->arp_validate.st == BC_KNOWN &&
	    (b->arp_validate.v == 2 || b->arp_validate.v == 3 || b->arp_validate.v == 6) &&
	    others && o < len)
		snprintf(why + o, len - o,
			 "; arp_validate %s keeps a backup up only with validated ARP it "
			 "receives, which never reaches a backup when the peer is a bond wired "
			 "straight to this one",
			 b->arp_validate.v == 2	  ? "backup"
			 : b->arp_validate.v == 3 ? "all"
						  : "filter_backup");
	return 0;
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

static const char *host_name(int h)
{
	return h == BC_FO_CLIENT ? "client" : "agent";
}

/*
 * One end's own detection.  A carrier cut takes the client's slave down:
 * the client sees its own carrier go; the agent's slave loses carrier only
 * when it is wired straight to the client's, so an agent that watches
 * carrier only (miimon, the hash modes' netdev event) sees it then, and
 * otherwise only by what it would use for a silent cut (ARP, LACPDUs).
 */
static void end_expect(const struct bc_fo_end *e, enum bc_fo_host h, enum bc_fo_cut cut,
		       struct bc_fo_end_expect *x)
{
	struct det d, far;

	memset(x, 0, sizeof(*x));
	detect(e, cut, &d);
	x->by = d.by;
	x->nominal_ms = d.nominal;
	x->min_ms = d.min;
	x->worst_ms = d.worst;
	x->recovery_ms = d.recovery;
	x->far_by = d.by;
	x->far_worst_ms = d.worst;
	snprintf(x->basis, sizeof(x->basis), "%s", d.basis);
	snprintf(x->missing, sizeof(x->missing), "%s", d.missing);
	if (e->is_bond && e->mode == BC_MODE_8023AD)
		x->lacp_timeout_ms = e->lacp_rate == 1 ? 3000 : 90000;
	switch (d.by) {
	case BC_FO_BY_NONE_NEEDED:
		x->sees = BC_FO_SEES_NOT_NEEDED;
		snprintf(x->sight, sizeof(x->sight), "not a bond: nothing to detect");
		return;
	case BC_FO_BY_ARP:
		x->sees = BC_FO_SEES_ARP;
		snprintf(x->sight, sizeof(x->sight), "its ARP probes' replies stop");
		return;
	case BC_FO_BY_LACP:
		x->sees = BC_FO_SEES_LACPDUS;
		snprintf(x->sight, sizeof(x->sight),
			 "the partner's LACPDUs stop, when the cut drops them towards it");
		return;
	case BC_FO_BY_NOTHING:
		x->sees = BC_FO_SEES_NOTHING;
		snprintf(x->sight, sizeof(x->sight), "nothing: %s", d.missing);
		return;
	default:
		break;
	}
	if (h == BC_FO_CLIENT) {
		x->sees = BC_FO_SEES_CARRIER;
		snprintf(x->sight, sizeof(x->sight), "its own slave loses carrier");
		return;
	}
	/* the agent, a carrier cut, carrier-only monitoring */
	x->sees = BC_FO_SEES_FAR_CARRIER;
	detect(e, BC_FO_CUT_SILENT, &far);
	x->far_by = far.by;
	x->far_worst_ms = far.by == BC_FO_BY_NOTHING ? 0 : far.worst;
	if (far.by == BC_FO_BY_NOTHING) {
		snprintf(x->sight, sizeof(x->sight),
			 "carrier only: its slave loses carrier only when wired straight to the "
			 "client's; through a switch nothing (%s)",
			 far.missing);
		snprintf(x->missing, sizeof(x->missing), "%s", far.missing);
	} else {
		snprintf(x->sight, sizeof(x->sight),
			 "carrier when wired straight to the client's slave; through a switch "
			 "only by %s",
			 far.basis);
		if (far.worst > x->worst_ms)
			x->worst_ms = far.worst;
	}
}

/* Both ends bonds and configured differently: "lacp_rate client fast, agent slow". */
static void differ(const struct bc_fo_end *c, const struct bc_fo_end *a, struct bc_fo_expect *out)
{
	char *p = out->differ;
	size_t n = sizeof(out->differ), o = 0;

#define DIFF(cond, ...)                                                                            \
	do {                                                                                       \
		if ((cond) && o < n)                                                               \
			o += (size_t)snprintf(p + o, n - o, "%s", o ? "; " : "");                  \
		if ((cond) && o < n)                                                               \
			o += (size_t)snprintf(p + o, n - o, __VA_ARGS__);                          \
	} while (0)
	p[0] = 0;
	if (!c->is_bond || !a->is_bond)
		return;
	DIFF(c->mode != a->mode, "mode client %s, agent %s", bc_mode_name(c->mode),
	     bc_mode_name(a->mode));
	DIFF(c->mode == BC_MODE_8023AD && a->mode == BC_MODE_8023AD && c->lacp_rate >= 0 &&
		     a->lacp_rate >= 0 && c->lacp_rate != a->lacp_rate,
	     "lacp_rate client %s, agent %s", c->lacp_rate ? "fast" : "slow",
	     a->lacp_rate ? "fast" : "slow");
	DIFF(c->miimon_ms != a->miimon_ms, "miimon client %u, agent %u", c->miimon_ms,
	     a->miimon_ms);
	DIFF(c->downdelay_ms != a->downdelay_ms, "downdelay client %u, agent %u", c->downdelay_ms,
	     a->downdelay_ms);
	DIFF(c->updelay_ms != a->updelay_ms, "updelay client %u, agent %u", c->updelay_ms,
	     a->updelay_ms);
	DIFF(c->arp_interval_ms != a->arp_interval_ms || !c->n_arp_targets != !a->n_arp_targets,
	     "arp_interval client %u (%u targets), agent %u (%u targets)", c->arp_interval_ms,
	     c->n_arp_targets, a->arp_interval_ms, a->n_arp_targets);
	DIFF(c->arp_missed_max && a->arp_missed_max && c->arp_missed_max != a->arp_missed_max,
	     "arp_missed_max client %u, agent %u", c->arp_missed_max, a->arp_missed_max);
#undef DIFF
	out->ends_differ = p[0] != 0;
}

/* The expectation of direction @d from the ends that must detect the cut for it. */
static void dir_expect(const struct bc_fo_end *ends[2], struct bc_fo_expect *out, enum bc_fo_dir d)
{
	struct bc_fo_dir_expect *x = &out->dir[d];
	enum bc_fo_host snd = d == BC_FO_C2A ? BC_FO_CLIENT : BC_FO_AGENT;
	enum bc_fo_host rcv = d == BC_FO_C2A ? BC_FO_AGENT : BC_FO_CLIENT;
	size_t o = 0, m = 0;
	bool first = true;

	memset(x, 0, sizeof(*x));
	x->by = BC_FO_BY_NONE_NEEDED;
	x->slowest = snd;
	if (ends[snd]->is_bond)
		x->detectors |= 1u << snd;
	/* active-backup delivers only what arrives on its active slave */
	if (ends[rcv]->is_bond && ends[rcv]->mode == BC_MODE_ACTIVEBACKUP)
		x->detectors |= 1u << rcv;
	for (int h = 0; h < 2; h++) {
		const struct bc_fo_end_expect *e = &out->end[h];

		if (!(x->detectors & (1u << h)))
			continue;
		if (first || e->worst_ms > x->worst_ms ||
		    (e->by == BC_FO_BY_NOTHING && x->by != BC_FO_BY_NOTHING)) {
			x->by = e->by;
			x->slowest = (enum bc_fo_host)h;
			x->nominal_ms = e->nominal_ms;
			x->worst_ms = e->worst_ms;
		}
		if (e->min_ms > x->min_ms)
			x->min_ms = e->min_ms;
		first = false;
		x->far_carrier |= e->sees == BC_FO_SEES_FAR_CARRIER;
		if (e->sees == BC_FO_SEES_FAR_CARRIER && e->far_by != e->by)
			o += (size_t)snprintf(
				x->basis + o, o < sizeof(x->basis) ? sizeof(x->basis) - o : 0,
				"%s%s: %s when wired straight to the client, else %s",
				o ? "; " : "", host_name(h), e->basis,
				e->far_by == BC_FO_BY_NOTHING ? "nothing (a black hole)"
							      : bc_fo_detector_name(e->far_by));
		else
			o += (size_t)snprintf(x->basis + o,
					      o < sizeof(x->basis) ? sizeof(x->basis) - o : 0,
					      "%s%s: %s", o ? "; " : "", host_name(h), e->basis);
		if (e->by == BC_FO_BY_NOTHING) {
			x->black_hole = true;
			if (h == BC_FO_AGENT && out->assumed_agent && m)
				continue; /* the client's own words, assumed for the agent */
			m += (size_t)snprintf(x->missing + m,
					      m < sizeof(x->missing) ? sizeof(x->missing) - m : 0,
					      "%s%s: %s", m ? "; " : "", host_name(h), e->missing);
		}
	}
	if (x->black_hole)
		x->by = BC_FO_BY_NOTHING;
	if (!x->detectors)
		snprintf(x->basis, sizeof(x->basis), "neither end is a bond");
	x->limit_ms = x->worst_ms + BC_FO_SLACK_MS(x->worst_ms);
}

int bc_failover_expect(const struct bc_fo_end *client, const struct bc_fo_end *agent,
		       enum bc_fo_cut cut, struct bc_fo_expect *out)
{
	const struct bc_fo_end *ends[2];
	const struct bc_fo_end_expect *c, *a, *w;

	memset(out, 0, sizeof(*out));
	if (!client || !client->known)
		return -EINVAL;
	if (!agent || !agent->known) {
		agent = client;
		out->assumed_agent = true;
	}
	ends[BC_FO_CLIENT] = client;
	ends[BC_FO_AGENT] = agent;
	end_expect(client, BC_FO_CLIENT, cut, &out->end[BC_FO_CLIENT]);
	end_expect(agent, BC_FO_AGENT, cut, &out->end[BC_FO_AGENT]);
	c = &out->end[BC_FO_CLIENT];
	a = &out->end[BC_FO_AGENT];
	if (!out->assumed_agent)
		differ(client, agent, out);
	dir_expect(ends, out, BC_FO_C2A);
	dir_expect(ends, out, BC_FO_A2C);
	/* the slowest end: what the hold must cover */
	w = a->worst_ms > c->worst_ms ? a : c;
	if (c->by == BC_FO_BY_NONE_NEEDED && a->by != BC_FO_BY_NONE_NEEDED)
		w = a;
	out->by = w->by;
	out->nominal_ms = w->nominal_ms;
	out->min_ms = c->min_ms > a->min_ms ? c->min_ms : a->min_ms;
	out->worst_ms = w->worst_ms;
	out->recovery_ms = c->recovery_ms > a->recovery_ms ? c->recovery_ms : a->recovery_ms;
	if (out->dir[0].black_hole || out->dir[1].black_hole) {
		out->by = BC_FO_BY_NOTHING;
		out->black_hole = true;
		snprintf(out->missing, sizeof(out->missing), "%s%s%s", out->dir[0].missing,
			 out->dir[0].black_hole && out->dir[1].black_hole &&
					 strcmp(out->dir[0].missing, out->dir[1].missing)
				 ? "; "
				 : "",
			 out->dir[1].black_hole && strcmp(out->dir[0].missing, out->dir[1].missing)
				 ? out->dir[1].missing
				 : "");
	}
	if (!strcmp(c->basis, a->basis))
		snprintf(out->basis, sizeof(out->basis), "%s (client%s)", c->basis,
			 out->assumed_agent ? "; agent assumed alike" : " and agent");
	else
		snprintf(out->basis, sizeof(out->basis), "client: %s; agent: %s", c->basis,
			 a->basis);
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

static uint64_t hold_ms(const struct bc_failover *f)
{
	return (f->cfg.restore_ns - f->cfg.cut_ns + 500000) / 1000000;
}

/* The link name of the sender's slave the cut streams left on before the cut, or "?". */
static const char *tx_name(const struct bc_failover *f, uint64_t mask)
{
	for (size_t i = 0; i < f->n_links; i++)
		if (mask & (1ull << i))
			return f->links[i].name;
	return "?";
}

/*
 * What the measured departures say of each end that must detect the cut
 * for direction @d, appended to @buf: an end moved off the slave facing the
 * cut (its own sending direction's streams left elsewhere by the end of the
 * hold), or kept transmitting on it to the end of the hold.
 */
static void sender_sight(const struct bc_failover *f, enum bc_fo_dir d, char *buf, size_t len)
{
	unsigned det = f->cfg.have_expect ? f->cfg.expect.dir[d].detectors
					  : 1u << (d == BC_FO_C2A ? BC_FO_CLIENT : BC_FO_AGENT);

	for (int h = 0; h < 2; h++) {
		const struct bc_fo_dirsum *x = &f->dir[h == BC_FO_CLIENT ? BC_FO_C2A : BC_FO_A2C];
		size_t o = strlen(buf);

		if (!(det & (1u << h)) || o >= len)
			continue;
		if (x->sender_moved == 1)
			snprintf(buf + o, len - o, "; the %s moved to %s (its departures)",
				 host_name(h), tx_name(f, x->tx_after));
		else if (x->sender_moved == 0)
			snprintf(buf + o, len - o,
				 "; the %s kept sending on %s to the end of the hold: it had not "
				 "detected the cut",
				 host_name(h), tx_name(f, x->tx_before));
	}
}

/* 1: host @h's own streams left the slave facing the cut by the end of the hold, 0 not, -1 ? */
static int host_moved(const struct bc_failover *f, int h)
{
	return f->dir[h == BC_FO_CLIENT ? BC_FO_C2A : BC_FO_A2C].sender_moved;
}

/* Was any LACPDU of the other end still heard on @host's side of the cut late in the hold? */
static bool partner_heard(const struct bc_failover *f, enum bc_fo_host host)
{
	for (size_t i = 0; i < f->n_links; i++)
		if (f->links[i].host == host && f->links[i].lacp_partner_heard_late)
			return true;
	return false;
}

/* The verdict of direction @d and what it rests on (bc_fo_dirsum.verdict, .why). */
static void verdict(struct bc_failover *f, enum bc_fo_dir d)
{
	struct bc_fo_dirsum *x = &f->dir[d];
	const struct bc_fo_dir_expect *de = &f->cfg.expect.dir[d];
	const char *slow_end = host_name(de->slowest);

	x->why[0] = 0;
	if (!x->n_interrupted && !x->n_black_hole) {
		x->verdict = "not-interrupted";
		snprintf(x->why, sizeof(x->why), "no stream lost anything");
		return;
	}
	if (!f->cfg.have_expect) {
		x->verdict = x->n_black_hole ? "black-hole" : "no-expectation";
		snprintf(x->why, sizeof(x->why), "the bond's configuration is not known");
		return;
	}
	for (int h = 0; h < 2; h++) {
		size_t o = strlen(x->why);

		if (!(de->detectors & (1u << h)) || !f->cfg.no_takeover[h] ||
		    (x->n_black_hole && de->black_hole) || o >= sizeof(x->why))
			continue;
		x->verdict = "inconclusive";
		snprintf(x->why + o, sizeof(x->why) - o,
			 "%sbefore the cut no other slave of the %s could take over (%s)",
			 o ? "; " : "", host_name(h), f->cfg.takeover_why[h]);
	}
	if (x->why[0]) {
		size_t o = strlen(x->why);

		if (o < sizeof(x->why))
			snprintf(x->why + o, sizeof(x->why) - o,
				 ": the expected range assumes one could");
		sender_sight(f, d, x->why, sizeof(x->why));
		return;
	}
	if (x->n_black_hole) {
		if (de->black_hole) {
			x->verdict = "black-hole";
			snprintf(x->why, sizeof(x->why), "nothing sees this cut: %s", de->missing);
		} else if (hold_ms(f) < de->worst_ms) {
			x->verdict = "inconclusive";
			snprintf(x->why, sizeof(x->why),
				 "nothing delivered for the whole hold (%llu ms), shorter than "
				 "the %s's detection (up to %llu ms): whether and when it "
				 "detects is not measured; --hold %.1f would tell",
				 (unsigned long long)hold_ms(f), slow_end,
				 (unsigned long long)de->worst_ms,
				 (double)(de->worst_ms + 1000) / 1000.0);
		} else {
			x->verdict = "black-hole";
			snprintf(x->why, sizeof(x->why),
				 "the configuration should have failed over within %llu ms (%s) "
				 "and nothing was delivered for the whole hold",
				 (unsigned long long)de->worst_ms, de->basis);
		}
		sender_sight(f, d, x->why, sizeof(x->why));
		return;
	}
	if (x->gap_ns > de->limit_ms * 1000000ull) {
		x->verdict = "slow";
		snprintf(x->why, sizeof(x->why), "gap above %llu ms (%s)",
			 (unsigned long long)de->limit_ms, de->basis);
	} else {
		x->verdict = "within";
		snprintf(x->why, sizeof(x->why), "gap within %llu..%llu ms (%s)",
			 (unsigned long long)de->min_ms, (unsigned long long)de->limit_ms,
			 de->basis);
	}
}

/* Advice of a black hole matched to what the detecting end monitors. */
static const char *black_hole_advice(const struct bc_failover *f, enum bc_fo_dir d)
{
	const struct bc_fo_dir_expect *de = &f->cfg.expect.dir[d];
	const struct bc_fo_end_expect *e = &f->cfg.expect.end[de->slowest];

	if (de->black_hole)
		return "no monitoring configured sees this failure (evidence: monitoring): "
		       "enable ARP monitoring (arp_interval, arp_ip_target a host behind the "
		       "switch) or 802.3ad on both ends; miimon sees only its own slave's carrier";
	if (hold_ms(f) < de->worst_ms)
		return "lost for the whole hold; this configuration allows up to expected_ms of "
		       "it at every such failure (basis): shorten that end's detection "
		       "(lacp_rate fast, a shorter arp_interval), or measure it with a longer "
		       "--hold";
	for (int h = 0; h < 2; h++)
		if ((de->detectors & (1u << h)) &&
		    f->cfg.expect.end[h].sees == BC_FO_SEES_FAR_CARRIER && host_moved(f, h) != 1)
			return "an end that watches carrier only kept its carrier (evidence: "
			       "sender): the cut is beyond its own link (a switch, a bridge); "
			       "ARP monitoring or LACP on both ends sees it (miimon on both ends "
			       "only when wired straight)";
	switch (e->by) {
	case BC_FO_BY_LACP:
		if (partner_heard(f, de->slowest))
			return "a one-way cut: the partner's LACPDUs still reached the sender, "
			       "so its LACP timeout cannot run, and it kept distributing after "
			       "the partner stopped collecting (Linux 6.1 does); compare both "
			       "ends' actor and partner state in /proc/net/bonding";
		return "the LACP timeout should have taken the port out and did not: look at "
		       "both ends' /proc/net/bonding (actor/partner state, aggregator) and dmesg";
	case BC_FO_BY_ARP:
		return "should have failed over within expected_ms: check that the ARP "
		       "monitoring works (arp_ip_target reachable from every slave, an "
		       "arp_validate that can validate the backup, /proc/net/bonding, dmesg)";
	default:
		return "should have failed over within expected_ms: look at /proc/net/bonding of "
		       "both ends (MII status of every slave) and dmesg";
	}
}

static int black_hole(struct bc_failover *f, enum bc_fo_dir d)
{
	const struct bc_fo_dirsum *x = &f->dir[d];
	const struct bc_fo_expect *e = &f->cfg.expect;
	const struct bc_fo_dir_expect *de = &e->dir[d];
	struct bc_finding *n;

	if (f->cfg.have_expect)
		n = add(f, "failover-black-hole", "%s", black_hole_advice(f, d));
	else
		n = add(f, "failover-black-hole",
			"nothing was delivered for the whole hold and the bond's configuration "
			"is not known: look at /proc/net/bonding of both ends");
	if (!n)
		return -ENOMEM;
	bc_finding_evidence(n, "direction", "%s", bc_fo_dir_name(d));
	bc_finding_evidence(n, "gap_ms", "%llu%s", ms(x->gap_ns),
			    f->dir[d].not_recovered ? " (to the end of the capture)" : "");
	bc_finding_evidence(n, "hold_ms", "%llu", (unsigned long long)hold_ms(f));
	bc_finding_evidence(n, "lost", "%llu", (unsigned long long)x->lost_in_gap);
	bc_finding_evidence(n, "streams", "%zu of %zu", x->n_black_hole, x->n_streams);
	if (f->cfg.have_expect && de->black_hole)
		bc_finding_evidence(n, "monitoring", "%s", de->missing);
	else if (f->cfg.have_expect) {
		bc_finding_evidence(n, "expected_ms", "%llu", (unsigned long long)de->worst_ms);
		bc_finding_evidence(n, "basis", "%s", de->basis);
	}
	if (x->sender_moved == 0)
		bc_finding_evidence(n, "sender", "kept sending on %s", tx_name(f, x->tx_before));
	else if (x->sender_moved == 1)
		bc_finding_evidence(n, "sender", "moved to %s", tx_name(f, x->tx_after));
	return 0;
}

static int slow(struct bc_failover *f, enum bc_fo_dir d)
{
	const struct bc_fo_dirsum *x = &f->dir[d];
	const struct bc_fo_dir_expect *de = &f->cfg.expect.dir[d];
	const char *advice;
	struct bc_finding *n;

	/* only a "slow" verdict: without a backup that could take over the range does not apply */
	if (!f->cfg.have_expect || !x->verdict || strcmp(x->verdict, "slow"))
		return 0;
	/* the mechanism decides the advice: a switch relearns a MAC only in active-backup */
	if (de->by == BC_FO_BY_LACP)
		advice = partner_heard(f, de->slowest) ? "a one-way cut: the partner's LACPDUs "
							 "still reached the sender's port, so "
							 "its LACP timeout could not run, and it "
							 "kept distributing after the partner "
							 "stopped collecting; compare both ends' "
							 "actor and partner state in "
							 "/proc/net/bonding"
						       : "longer than the LACP timeout implies "
							 "(basis; limit = worst + max(100 ms, 25 "
							 "%)): look at both ends' actor/partner "
							 "state in /proc/net/bonding, or a host "
							 "too busy to run LACP on time";
	else if (f->cfg.rx_on_tx_slave_only[0] || f->cfg.rx_on_tx_slave_only[1])
		advice = "traffic stopped longer than the configuration implies (basis; limit = "
			 "worst + max(100 ms, 25 %)): look for a switch slow to relearn the MAC "
			 "(gratuitous ARPs per slave are counted), or a host too busy to run the "
			 "bond's monitor on time";
	else
		advice = "longer than the configuration implies (basis; limit = worst + max(100 "
			 "ms, 25 %)): a host too busy to run the bond on time, or an end that "
			 "did not see the carrier loss (a switch between the ends)";
	n = add(f, "failover-slow", "%s", advice);
	if (!n)
		return -ENOMEM;
	bc_finding_evidence(n, "direction", "%s", bc_fo_dir_name(d));
	bc_finding_evidence(n, "gap_ms", "%llu", ms(x->gap_ns));
	bc_finding_evidence(n, "expected_ms", "%llu (worst %llu)",
			    (unsigned long long)de->nominal_ms, (unsigned long long)de->worst_ms);
	bc_finding_evidence(n, "limit_ms", "%llu", (unsigned long long)de->limit_ms);
	bc_finding_evidence(n, "basis", "%s", de->basis);
	bc_finding_evidence(n, "streams", "%zu interrupted of %zu", x->n_interrupted, x->n_streams);
	if (f->cfg.host_stall_ns >= 50000000ull)
		bc_finding_evidence(n, "host_stall_ms", "%llu (a busy host: its timers ran late)",
				    ms(f->cfg.host_stall_ns));
	return 0;
}

/* Before the cut, no other slave of an end could take over: a finding on its own. */
static int no_takeover(struct bc_failover *f)
{
	for (int h = 0; h < 2; h++) {
		struct bc_finding *n;

		if (!f->cfg.no_takeover[h])
			continue;
		n = add(f, "failover-no-takeover",
			"no redundancy before the cut: bring the other slaves up (802.3ad: into "
			"the aggregator); between two bonds wired straight, arp_validate none, "
			"active or filter_active lets a backup stay up");
		if (!n)
			return -ENOMEM;
		bc_finding_evidence(n, "end", "%s", host_name(h));
		bc_finding_evidence(n, "why", "%.120s", f->cfg.takeover_why[h]);
	}
	return 0;
}

/* The two ends are configured differently: often the finding itself. */
static int ends_differ(struct bc_failover *f)
{
	const struct bc_fo_expect *e = &f->cfg.expect;
	struct bc_finding *n;

	if (!f->cfg.have_expect || !e->ends_differ)
		return 0;
	n = add(f, "failover-ends-differ",
		"the two ends detect a failure differently, so each direction fails over at its "
		"own pace (one range per direction); configure both ends alike unless the "
		"difference is meant");
	if (!n)
		return -ENOMEM;
	bc_finding_evidence(n, "differ", "%s", e->differ);
	bc_finding_evidence(n, "client", "%s", e->end[BC_FO_CLIENT].basis);
	bc_finding_evidence(n, "agent", "%s", e->end[BC_FO_AGENT].basis);
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

/* The first LACP timeout of host @h's own port on one of its links, or BC_FO_NONE. */
static uint64_t own_lacp_timeout(const struct bc_failover *f, int h)
{
	uint64_t t = BC_FO_NONE;

	for (size_t i = 0; i < f->n_links; i++)
		if ((int)f->links[i].host == h && f->links[i].lacp_timeout_ns < t)
			t = f->links[i].lacp_timeout_ns;
	return t;
}

/* bc_failover.saw[@h]: what the measurement says of host @h's sight of the cut. */
static void saw(struct bc_failover *f, int h)
{
	const struct bc_fo_end_expect *e = &f->cfg.expect.end[h];
	enum bc_fo_dir d = h == BC_FO_CLIENT ? BC_FO_C2A : BC_FO_A2C;
	const struct bc_fo_dirsum *x = &f->dir[d];
	uint64_t lt = own_lacp_timeout(f, h);
	/* its own detection: when its streams first left on another slave after the cut */
	uint64_t gap_ms =
		x->left_at_ns != BC_FO_NONE ? (x->left_at_ns - f->cfg.cut_ns) / 1000000 : 0;
	char *b = f->saw[h];
	size_t n = sizeof(f->saw[h]);

	if (e->sees == BC_FO_SEES_NOT_NEEDED) {
		snprintf(b, n, "not a bond: nothing to detect");
		return;
	}
	if (x->sender_moved < 0) {
		snprintf(b, n,
			 "not measured: none of its own streams used the slave facing the cut, "
			 "or they did not all move alike");
		return;
	}
	if (x->sender_moved == 1) {
		if (lt != BC_FO_NONE)
			snprintf(b, n,
				 "saw it by LACP: left %s for %s at +%llu ms; its LACPDUs show the "
				 "port expired at %+.1f ms",
				 tx_name(f, x->tx_before), tx_name(f, x->tx_after),
				 (unsigned long long)gap_ms,
				 ((double)lt - (double)f->cfg.cut_ns) / 1e6);
		else if (e->sees == BC_FO_SEES_FAR_CARRIER &&
			 gap_ms > e->nominal_ms + BC_FO_SLACK_MS(e->nominal_ms))
			snprintf(b, n,
				 "saw it late (left at +%llu ms), not by carrier: its slave kept "
				 "carrier (not wired straight to the client's), so %s took it",
				 (unsigned long long)gap_ms, bc_fo_detector_name(e->far_by));
		else if (gap_ms > e->worst_ms + BC_FO_SLACK_MS(e->worst_ms))
			snprintf(
				b, n,
				"saw it late: left %s for %s at +%llu ms, later than its %s allows "
				"(up to %llu ms)",
				tx_name(f, x->tx_before), tx_name(f, x->tx_after),
				(unsigned long long)gap_ms, bc_fo_detector_name(e->by),
				(unsigned long long)e->worst_ms);
		else
			snprintf(b, n, "saw it: left %s for %s at +%llu ms, as its %s allows",
				 tx_name(f, x->tx_before), tx_name(f, x->tx_after),
				 (unsigned long long)gap_ms, bc_fo_detector_name(e->by));
		return;
	}
	if (e->sees == BC_FO_SEES_NOTHING)
		snprintf(b, n, "did not see it: %s", e->missing);
	else if (e->sees == BC_FO_SEES_FAR_CARRIER && e->far_by == BC_FO_BY_NOTHING)
		snprintf(b, n,
			 "did not see it: it kept sending on %s; it watches carrier only and its "
			 "slave kept carrier (a switch or a wire between the ends); fix: ARP "
			 "monitoring or LACP on both ends",
			 tx_name(f, x->tx_before));
	else if (e->sees == BC_FO_SEES_LACPDUS && partner_heard(f, (enum bc_fo_host)h))
		snprintf(b, n,
			 "did not see it: the partner's LACPDUs still reached it (a one-way "
			 "cut), so its LACP timeout never ran; it kept sending on %s",
			 tx_name(f, x->tx_before));
	else if (hold_ms(f) < e->worst_ms)
		snprintf(b, n,
			 "had not seen it when the hold ended (%llu ms, its detection up to %llu "
			 "ms); it kept sending on %s",
			 (unsigned long long)hold_ms(f), (unsigned long long)e->worst_ms,
			 tx_name(f, x->tx_before));
	else
		snprintf(b, n, "did not see it although %s should have: it kept sending on %s",
			 bc_fo_detector_name(e->by), tx_name(f, x->tx_before));
}

int fo_findings(struct bc_failover *f)
{
	for (int h = 0; f->cfg.have_expect && h < 2; h++)
		saw(f, h);
	if (ends_differ(f) < 0 || no_takeover(f) < 0)
		return -ENOMEM;
	for (int d = 0; d < 2; d++) {
		verdict(f, (enum bc_fo_dir)d);
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

int bc_failover_judge(struct bc_failover *f)
{
	free(f->findings);
	f->findings = NULL;
	f->n_findings = 0;
	return fo_findings(f);
}
