// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Drivers verdict: does a mismatch between the slaves (driver, speed,
 * offloads, ceilings) cost throughput, and which link is the cause.  Rules
 * and thresholds in bondcheck/suite-verdict.h.
 */
#include <stdio.h>
#include <string.h>

#include "bondcheck/model.h"
#include "bondcheck/suite-verdict.h"

double bc_suite_link_util(const struct bc_suite_link *l)
{
	return l->ceiling_bps > 0 && l->goodput_bps >= 0 ? l->goodput_bps / l->ceiling_bps : -1;
}

static double util(const struct bc_suite_link *l)
{
	return bc_suite_link_util(l);
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

static struct json_object *num(double v, bool known)
{
	return known ? json_object_new_double(v) : NULL;
}

void bc_suite_drivers_judge(const struct bc_suite_facts *f, struct bc_suite_judgement *j)
{
	const char *status = "inconclusive", *cause = NULL, *judgement = NULL, *test = NULL;
	const struct bc_suite_link *cl = NULL, *al = NULL;
	bool agent = false; /* the cause is one of the agent's (receiving) slaves */
	bool cpu = false, by_ceiling = true;
	int c;

	if (!f->n_mismatch) {
		status = "pass";
		judgement = f->mode < 0 ? "not-a-bond" : "no-mismatch";
		goto out;
	}
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
			cl = &e->l[c];
			cpu = e->cpu_bound;
			cause = "holds-back";
			test = e == &f->udp || e == &f->udp_rx ? "udp-over" : "tcp-k";
		}
	} else if (f->mode == BC_MODE_ACTIVEBACKUP) {
		const struct bc_suite_evidence *e = &f->tcp;

		judgement = "active-missing";
		for (size_t i = 0; e->measured && i < e->n; i++) {
			if (!f->active_slave || strcmp(e->l[i].name, f->active_slave))
				continue;
			al = &e->l[i];
			judgement = util(al) >= BC_VERDICT_LINK_FAR ? "active-ok" : "active-low";
			if (util(al) >= BC_VERDICT_LINK_FAR)
				status = "pass";
		}
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
			test = "tcp-k";
		}
	} else {
		judgement = "unplaced";
		goto cpu;
	}
	if (cl) {
		status = "fail";
		judgement = cause;
	} else if (!f->tcp.measured && !f->udp.measured) {
		judgement = "no-evidence";
	} else {
		bool known = true;

		for (size_t i = 0; i < f->tcp.n; i++)
			known = known && util(&f->tcp.l[i]) >= 0;
		if (!known && f->mode == BC_MODE_ROUNDROBIN) {
			judgement = "ceilings-unknown";
		} else {
			status = "pass";
			judgement = "cost-nothing";
		}
	}
cpu:
	cpu = cpu || f->tcp.cpu_bound || f->udp.cpu_bound;
	if (cpu && !strcmp(status, "fail"))
		status = "inconclusive";
out:
	*j = (struct bc_suite_judgement){
		.status = status,
		.judgement = judgement,
		.cause = cause,
		.test = test,
		.cause_link = cl,
		.active_link = al,
		.agent = agent,
		.by_ceiling = by_ceiling,
		.cpu_bound = cpu,
	};
}

struct json_object *bc_verdict_drivers(const struct bc_suite_facts *f)
{
	struct bc_suite_judgement j;
	const struct bc_suite_link *cl, *al;
	struct json_object *o, *mm, *th;

	bc_suite_drivers_judge(f, &j);
	cl = j.cause_link;
	al = j.active_link;
	o = json_object_new_object();
	json_object_object_add(o, "status", json_object_new_string(j.status));
	json_object_object_add(o, "judgement", json_object_new_string(j.judgement));
	mm = json_object_new_array();
	for (size_t i = 0; i < f->n_mismatch; i++)
		json_object_array_add(mm, json_object_new_string(f->mismatch[i]));
	json_object_object_add(o, "mismatch", mm);
	json_object_object_add(o, "links", links_json(f));
	json_object_object_add(o, "cause_link", cl ? json_object_new_string(cl->name) : NULL);
	json_object_object_add(o, "cause_end",
			       cl ? json_object_new_string(j.agent ? "agent" : "client") : NULL);
	json_object_object_add(o, "cause", j.cause ? json_object_new_string(j.cause) : NULL);
	json_object_object_add(o, "cause_test", j.test ? json_object_new_string(j.test) : NULL);
	json_object_object_add(o, "cause_driver",
			       cl && cl->driver[0] ? json_object_new_string(cl->driver) : NULL);
	json_object_object_add(o, "cause_utilization",
			       num(cl ? util(cl) : -1, cl && util(cl) >= 0));
	json_object_object_add(o, "cause_ceiling_bps",
			       num(cl ? cl->ceiling_bps : 0, cl && cl->ceiling_bps > 0));
	json_object_object_add(o, "cause_goodput_bps",
			       num(cl ? cl->goodput_bps : -1, cl && cl->goodput_bps >= 0));
	json_object_object_add(o, "cause_drops", cl ? json_object_new_int64(cl->drops) : NULL);
	json_object_object_add(o, "cause_frames", cl ? json_object_new_int64(cl->frames) : NULL);
	json_object_object_add(o, "by_ceiling", json_object_new_boolean(j.by_ceiling));
	json_object_object_add(o, "active_utilization",
			       num(al ? util(al) : -1, al && util(al) >= 0));
	json_object_object_add(o, "cpu_bound", json_object_new_boolean(j.cpu_bound));
	th = json_object_new_object();
	json_object_object_add(th, "near", json_object_new_double(BC_VERDICT_LINK_NEAR));
	json_object_object_add(th, "far", json_object_new_double(BC_VERDICT_LINK_FAR));
	json_object_object_add(o, "thresholds", th);
	return o;
}
