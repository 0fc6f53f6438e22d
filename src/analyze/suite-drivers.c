// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Drivers verdict: does a mismatch between the slaves (driver, speed,
 * offloads, ceilings) cost throughput, and which link is the cause.  Rules
 * and thresholds in bondcheck/suite-verdict.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/model.h"
#include "bondcheck/names.h"
#include "bondcheck/suite-verdict.h"
#include "bondcheck/units.h"

struct text {
	char s[2000];
	size_t n;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (t->n >= sizeof(t->s) - 1)
		return;
	va_start(ap, fmt);
	w = vsnprintf(t->s + t->n, sizeof(t->s) - t->n, fmt, ap);
	va_end(ap);
	if (w > 0)
		t->n += (size_t)w < sizeof(t->s) - t->n ? (size_t)w : sizeof(t->s) - 1 - t->n;
}

static const char *rate(double bps)
{
	static char buf[4][32];
	static unsigned i;

	return bc_format_rate(bps, buf[i++ % 4], 32);
}

/* goodput / own ceiling, or -1 when either is unknown. */
static double util(const struct bc_suite_link *l)
{
	return l->ceiling_bps > 0 && l->goodput_bps >= 0 ? l->goodput_bps / l->ceiling_bps : -1;
}

/*
 * Equal shares: the link that is saturated -- at >= NEAR of its ceiling, or
 * the only link whose queue overflowed (drops: arrivals above its service
 * rate) -- while every peer is at <= FAR of its ceiling and dropped nothing.
 * Its index, else -1.
 */
static int holding_back(const struct bc_suite_evidence *e)
{
	int cand = -1;
	size_t dropping = 0;

	if (!e->measured || e->n < 2)
		return -1;
	for (size_t i = 0; i < e->n; i++) {
		if (util(&e->l[i]) < 0)
			return -1;
		dropping += e->l[i].drops > 0;
	}
	for (size_t i = 0; i < e->n; i++) {
		double u = util(&e->l[i]);

		if (u >= BC_VERDICT_LINK_NEAR || (dropping == 1 && e->l[i].drops > 0)) {
			if (cand >= 0)
				return -1;
			cand = (int)i;
		}
	}
	for (size_t i = 0; cand >= 0 && i < e->n; i++)
		if ((int)i != cand && (util(&e->l[i]) > BC_VERDICT_LINK_FAR || e->l[i].drops > 0))
			return -1;
	return cand;
}

/*
 * The agent's receiving slaves: holding_back() by their ceilings, or the only
 * slave whose NIC dropped on receive (>= BC_VERDICT_RX_DROP_SHARE of the frames
 * that arrived on it) while every peer dropped nothing.  Its index, else -1.
 */
static int rx_holding_back(const struct bc_suite_evidence *e)
{
	int cand = holding_back(e);

	if (cand >= 0 || !e->measured || e->n < 2)
		return cand;
	for (size_t i = 0; i < e->n; i++) {
		if (!e->l[i].drops)
			continue;
		if (cand >= 0 ||
		    (double)e->l[i].drops < BC_VERDICT_RX_DROP_SHARE * (double)e->l[i].frames)
			return -1;
		cand = (int)i;
	}
	return cand;
}

/*
 * Placed flows, one per link: a link at <= FAR of its ceiling while every
 * peer is at >= NEAR; without ceilings, a goodput <= FAR x every peer's.
 */
static int falls_short(const struct bc_suite_evidence *e, bool *by_ceiling)
{
	bool ceilings = true;
	int cand = -1;

	if (!e->measured || e->n < 2)
		return -1;
	for (size_t i = 0; i < e->n; i++) {
		if (e->l[i].goodput_bps < 0)
			return -1;
		if (util(&e->l[i]) < 0)
			ceilings = false;
	}
	*by_ceiling = ceilings;
	for (size_t i = 0; i < e->n; i++) {
		bool short_of_all = true;

		for (size_t j = 0; j < e->n && short_of_all; j++) {
			if (i == j)
				continue;
			if (ceilings)
				short_of_all = util(&e->l[i]) <= BC_VERDICT_LINK_FAR &&
					       util(&e->l[j]) >= BC_VERDICT_LINK_NEAR;
			else
				short_of_all = e->l[i].goodput_bps <=
					       BC_VERDICT_LINK_FAR * e->l[j].goodput_bps;
		}
		if (short_of_all) {
			if (cand >= 0)
				return -1;
			cand = (int)i;
		}
	}
	return cand;
}

static void link_name(struct text *t, const struct bc_suite_link *l)
{
	add(t, "%s", l->name);
	if (l->driver[0])
		add(t, " (%s)", l->driver);
}

/* "eth0 (e1000) 49 %, eth2 (virtio_net) 50 %" of the links other than @skip. */
static void peers_text(struct text *t, const struct bc_suite_evidence *e, int skip)
{
	bool first = true;

	for (size_t i = 0; i < e->n; i++) {
		double u = util(&e->l[i]);

		if ((int)i == skip)
			continue;
		add(t, "%s", first ? "" : ", ");
		link_name(t, &e->l[i]);
		if (u >= 0)
			add(t, " %.0f %%", 100 * u);
		else
			add(t, " %s", e->l[i].goodput_bps >= 0 ? rate(e->l[i].goodput_bps) : "?");
		first = false;
	}
}

static void evidence_line(struct text *t, const char *what, const struct bc_suite_evidence *e)
{
	add(t, " %s:", what);
	for (size_t i = 0; i < e->n; i++) {
		const struct bc_suite_link *l = &e->l[i];
		double u = util(l);

		add(t, "%s %s %s", i ? ";" : "", l->name,
		    l->goodput_bps >= 0 ? rate(l->goodput_bps) : "?");
		if (u >= 0)
			add(t, " = %.0f %% of %s", 100 * u, rate(l->ceiling_bps));
		else
			add(t, " (ceiling unknown)");
		if (l->retransmits >= 0)
			add(t, ", %lld retransmits", l->retransmits);
		add(t, ", %lld drops", l->drops);
	}
	add(t, ".");
}

static struct json_object *links_json(const struct bc_suite_facts *f)
{
	struct json_object *a = json_object_new_array();
	const struct bc_suite_evidence *ev[4] = {&f->tcp, &f->udp, &f->tcp_rx, &f->udp_rx};
	static const char *const names[4] = {"tcp-k", "udp-over", "tcp-k", "udp-over"};

	for (int k = 0; k < 4; k++) {
		for (size_t i = 0; ev[k]->measured && i < ev[k]->n; i++) {
			const struct bc_suite_link *l = &ev[k]->l[i];
			struct json_object *o = json_object_new_object();
			double u = util(l);

			json_object_object_add(o, "test", json_object_new_string(names[k]));
			json_object_object_add(o, "name", json_object_new_string(l->name));
			json_object_object_add(o, "end",
					       json_object_new_string(k < 2 ? "client" : "agent"));
			json_object_object_add(o, "driver",
					       l->driver[0] ? json_object_new_string(l->driver)
							    : NULL);
			json_object_object_add(
				o, "speed_mbps",
				l->speed_mbps >= 0 ? json_object_new_int64(l->speed_mbps) : NULL);
			json_object_object_add(
				o, "ceiling_bps",
				l->ceiling_bps > 0 ? json_object_new_double(l->ceiling_bps) : NULL);
			json_object_object_add(o, "goodput_bps",
					       l->goodput_bps >= 0
						       ? json_object_new_double(l->goodput_bps)
						       : NULL);
			json_object_object_add(o, "utilization",
					       u >= 0 ? json_object_new_double(u) : NULL);
			json_object_object_add(
				o, "retransmits",
				l->retransmits >= 0 ? json_object_new_int64(l->retransmits) : NULL);
			json_object_object_add(o, "drops", json_object_new_int64(l->drops));
			json_object_array_add(a, o);
		}
	}
	return a;
}

struct json_object *bc_verdict_drivers(const struct bc_suite_facts *f)
{
	struct text t = {0};
	const char *status = "inconclusive", *cause = NULL;
	const struct bc_suite_link *cl = NULL;
	bool agent = false; /* the cause is one of the agent's (receiving) slaves */
	bool cpu = false, by_ceiling = true;
	struct json_object *o, *mm;
	int c;

	if (!f->n_mismatch) {
		status = "pass";
		if (f->mode < 0)
			add(&t, "no mismatch: the test leaves by one interface, not a bond.");
		else
			add(&t,
			    "no mismatch: the slaves on both ends share driver, speed, offloads "
			    "and ceiling.");
		goto out;
	}
	add(&t, "mismatch:");
	for (size_t i = 0; i < f->n_mismatch; i++)
		add(&t, "%s %s", i ? ";" : "", f->mismatch[i]);
	add(&t, ".");
	if (f->mode == BC_MODE_ROUNDROBIN || f->mode == BC_MODE_BROADCAST) {
		const struct bc_suite_evidence *e = &f->udp;

		c = holding_back(e);
		if (c < 0) {
			e = &f->tcp;
			c = holding_back(e);
		}
		if (c < 0) { /* the receiving end: its NICs */
			agent = true;
			e = &f->udp_rx;
			c = rx_holding_back(e);
			if (c < 0) {
				e = &f->tcp_rx;
				c = rx_holding_back(e);
			}
		}
		if (c >= 0) {
			const char *test = e == &f->udp || e == &f->udp_rx ? "over-rate UDP probe"
									  : "aggregate TCP test";

			cl = &e->l[c];
			cpu = e->cpu_bound;
			cause = "holds-back";
			add(&t, " %s", agent ? "the agent's " : "");
			link_name(&t, cl);
			if (!agent || util(cl) >= BC_VERDICT_LINK_NEAR)
				add(&t,
				    " holds the bond back: in the %s it ran at %.0f %% of its %s "
				    "%s ceiling%s",
				    test, 100 * util(cl), agent ? "path's" : "own",
				    rate(cl->ceiling_bps), cl->drops > 0 ? " and" : "");
			else
				add(&t, " holds the bond back: in the %s", test);
			if (cl->drops > 0 && agent)
				add(&t, " its NIC dropped %lld of the %lld frames that arrived on it",
				    cl->drops, cl->frames);
			else if (cl->drops > 0)
				add(&t, " its queue overflowed (%lld drops)", cl->drops);
			add(&t, " while ");
			if (agent && util(cl) < BC_VERDICT_LINK_NEAR) {
				bool first = true;

				for (size_t i = 0; i < e->n; i++) {
					if ((int)i == c)
						continue;
					add(&t, "%s", first ? "" : ", ");
					link_name(&t, &e->l[i]);
					first = false;
				}
				add(&t, " dropped none");
			} else {
				peers_text(&t, e, c);
			}
			if (agent && util(cl) < BC_VERDICT_LINK_NEAR)
				add(&t, ". ");
			else
				add(&t, " of theirs. ");
			if (f->mode == BC_MODE_ROUNDROBIN) {
				add(&t,
				    "balance-rr gives every slave an equal share, so "
				    "the "
				    "slowest link caps the bond at %zu x its ceiling",
				    e->n);
				if (f->rr_cap_bps > 0)
					add(&t, " (%s TCP)", rate(f->rr_cap_bps));
			} else {
				add(&t, "broadcast sends every frame on every slave, "
					"so the "
					"slowest link caps the bond at its own ceiling");
			}
			add(&t, ".");
		}
	} else if (f->mode == BC_MODE_ACTIVEBACKUP) {
		const struct bc_suite_evidence *e = &f->tcp;

		for (size_t i = 0; e->measured && i < e->n; i++) {
			double u = util(&e->l[i]);

			if (!f->active_slave || strcmp(e->l[i].name, f->active_slave))
				continue;
			if (u >= BC_VERDICT_LINK_FAR) {
				status = "pass";
				add(&t,
				    " The mismatch cost nothing measurable on the active slave %s "
				    "(%.0f %% of its ceiling); the backups carry traffic only "
				    "after "
				    "a failover, which this suite does not measure.",
				    e->l[i].name, 100 * u);
			} else {
				add(&t,
				    " The active slave %s ran at %s of its ceiling; with no peer "
				    "carrying traffic there is nothing to compare it with.",
				    e->l[i].name, u >= 0 ? "below 70 %" : "an unknown share");
			}
			goto cpu;
		}
		add(&t, " active-backup: the active slave's evidence is missing.");
		goto cpu;
	} else if (f->placed) {
		const struct bc_suite_evidence *e = &f->tcp;

		c = falls_short(e, &by_ceiling);
		if (c < 0) { /* the receiving end: a switch may re-hash the flows */
			e = &f->tcp_rx;
			c = falls_short(e, &by_ceiling);
			agent = c >= 0;
		}
		if (c >= 0) {
			cl = &e->l[c];
			cpu = e->cpu_bound;
			cause = "falls-short";
			add(&t, " %s", agent ? "the agent's " : "");
			link_name(&t, cl);
			if (by_ceiling)
				add(&t,
				    " falls short: %.0f %% of its %s %s ceiling with its placed "
				    "flow, while ",
				    100 * util(cl), agent ? "path's" : "own", rate(cl->ceiling_bps));
			else
				add(&t,
				    " falls short: %s with its placed flow, <= %.0f %% of every "
				    "peer's goodput (ceilings unknown), while ",
				    rate(cl->goodput_bps), 100 * BC_VERDICT_LINK_FAR);
			peers_text(&t, e, c);
			add(&t, "%s.", by_ceiling ? " of theirs" : "");
		}
	} else {
		add(&t,
		    " The flows were not placed (%s), so the links carried unequal numbers of "
		    "flows and their shares do not compare.",
		    f->unplaced_reason && f->unplaced_reason[0] ? f->unplaced_reason : "unknown");
		goto cpu;
	}
	if (cl) {
		status = "fail";
	} else if (!f->tcp.measured && !f->udp.measured) {
		add(&t, " No per-link evidence: the captured tests did not run.");
	} else {
		bool known = true;

		for (size_t i = 0; i < f->tcp.n; i++)
			known = known && util(&f->tcp.l[i]) >= 0;
		if (!known && f->mode == BC_MODE_ROUNDROBIN) {
			add(&t, " Per-link ceilings unknown (give --link-rate): balance-rr's equal "
				"shares say nothing without them.");
		} else {
			status = "pass";
			add(&t,
			    " The mismatch cost nothing measurable: no link of either end stood "
			    "out against its own ceiling (a link >= %.0f %% while its peers <= "
			    "%.0f %%, or <= %.0f %% while its peers >= %.0f %%), and no receiving "
			    "slave alone dropped.",
			    100 * BC_VERDICT_LINK_NEAR, 100 * BC_VERDICT_LINK_FAR,
			    100 * BC_VERDICT_LINK_FAR, 100 * BC_VERDICT_LINK_NEAR);
		}
	}
cpu:
	if (f->tcp.measured)
		evidence_line(&t, "Aggregate TCP per link", &f->tcp);
	if (f->udp.measured)
		evidence_line(&t, "Over-rate UDP per link", &f->udp);
	if (f->tcp_rx.measured)
		evidence_line(&t, "Aggregate TCP per link, agent (received; NIC drops)",
			      &f->tcp_rx);
	if (f->udp_rx.measured)
		evidence_line(&t, "Over-rate UDP per link, agent (received; NIC drops)",
			      &f->udp_rx);
	if (f->mode == BC_MODE_ROUNDROBIN && f->tcp.measured)
		add(&t, " Retransmits are not attributable per link: balance-rr spreads each flow "
			"over every slave.");
	cpu = cpu || f->tcp.cpu_bound || f->udp.cpu_bound;
	if (cpu) {
		add(&t, " CPU-bound: a CPU was >= 90 %% busy during a test, so the figures may "
			"measure the host, not the links.");
		if (!strcmp(status, "fail"))
			status = "inconclusive";
	}
out:
	o = json_object_new_object();
	json_object_object_add(o, "status", json_object_new_string(status));
	json_object_object_add(o, "text", json_object_new_string(t.s));
	mm = json_object_new_array();
	for (size_t i = 0; i < f->n_mismatch; i++)
		json_object_array_add(mm, json_object_new_string(f->mismatch[i]));
	json_object_object_add(o, "mismatch", mm);
	json_object_object_add(o, "links", links_json(f));
	json_object_object_add(o, "cause_link", cl ? json_object_new_string(cl->name) : NULL);
	json_object_object_add(o, "cause_end",
			       cl ? json_object_new_string(agent ? "agent" : "client") : NULL);
	json_object_object_add(o, "cause", cause ? json_object_new_string(cause) : NULL);
	json_object_object_add(o, "cpu_bound", json_object_new_boolean(cpu));
	{
		struct json_object *th = json_object_new_object();

		json_object_object_add(th, "near", json_object_new_double(BC_VERDICT_LINK_NEAR));
		json_object_object_add(th, "far", json_object_new_double(BC_VERDICT_LINK_FAR));
		json_object_object_add(o, "thresholds", th);
	}
	return o;
}
