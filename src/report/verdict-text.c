// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A verdict's structure (bondcheck/verdict.h) into JSON and into words.  The
 * sentences live here, one per mechanism, filled from the evidence values
 * that src/analyze recorded.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/units.h"
#include "bondcheck/verdict.h"
#include "report/line.h"



static const char *ev(const struct bc_verdict *v, const char *key)
{
	const char *s = bc_verdict_get(v, key);

	return s ? s : "?";
}

/* Drivers' measured judgement: a link that holds the bond back or falls short. */
static void per_link(struct bc_line *l, const struct bc_verdict *v)
{
	const char *test = !strcmp(ev(v, "test"), "udp-over") ? "the over-rate UDP probe"
							      : "the aggregate TCP test";
	bool agent = !strcmp(ev(v, "end"), "agent");
	const char *drv = ev(v, "driver");

	bc_line_put(l, "%s%s%s%s%s", agent ? "the agent's " : "", v->where, drv[0] ? " (" : "", drv,
	    drv[0] ? ")" : "");
	if (!strcmp(v->mechanism, "falls-short")) {
		bc_line_put(l,
		    " falls short: %s of its ceiling with its placed flow, while its peers ran "
		    "at >= 85 %% of theirs",
		    ev(v, "utilization"));
	} else if (agent && !bc_verdict_get(v, "utilization")) {
		bc_line_put(l,
		    " holds the bond back: in %s its NIC dropped %s of the %s frames that arrived "
		    "on it while its peers dropped none",
		    test, ev(v, "drops"), ev(v, "frames"));
	} else {
		bc_line_put(l, " holds the bond back: in %s it ran at %s of its %s ceiling", test,
		    ev(v, "utilization"), agent ? "path's" : "own");
		if (strcmp(ev(v, "drops"), "0"))
			bc_line_put(l, " and %s dropped %s", agent ? "its NIC" : "its queue",
			    ev(v, "drops"));
		bc_line_put(l, " while its peers ran at <= 70 %% of theirs");
	}
	if (bc_verdict_get(v, "cpu_bound"))
		bc_line_put(l, "; CPU-bound: a CPU was >= 90 %% busy, so the figures may measure the host");
}

/* A loss-ledger finding id: the UDP gap's cause at a ledger stage. */
static bool loss_id(const char *m)
{
	return !strcmp(m, "tx-loss") || !strcmp(m, "wire-loss") || !strncmp(m, "rx-loss-", 8);
}

/* UDP gap: the over-rate probe's figures, then a CPU-bound note. */
static void probe(struct bc_line *l, const struct bc_verdict *v)
{
	unsigned long long sent = strtoull(ev(v, "sent"), NULL, 10),
			   recv = strtoull(ev(v, "received"), NULL, 10);

	if (bc_verdict_get(v, "ceiling"))
		bc_line_put(l, "%sthe no-drop rate against the UDP ceiling %s", l->n ? "; " : "",
		    ev(v, "ceiling"));
	if (bc_verdict_get(v, "sent")) {
		bc_line_put(l, "%sprobe at %s offered: sent %s datagrams, received %s, ", l->n ? "; " : "",
		    ev(v, "offered"), ev(v, "sent"), ev(v, "received"));
		if (sent > recv)
			bc_line_put(l, "%llu missing", sent - recv);
		else
			bc_line_put(l, "none missing");
	}
	if (bc_verdict_get(v, "send_refused"))
		bc_line_put(l,
		    "; the sender's kernel refused %s sends (ENOBUFS: a full qdisc or socket "
		    "buffer%s%s)",
		    ev(v, "send_refused"), bc_verdict_get(v, "refused_counter") ? "; " : "",
		    bc_verdict_get(v, "refused_counter") ? ev(v, "refused_counter") : "");
	if (bc_verdict_get(v, "cpu_bound"))
		bc_line_put(l, "; CPU-bound: a CPU was >= 90 %% busy, so the figures may measure the host");
}

/* The cause in words, from the mechanism's evidence values. */
static void cause(struct bc_line *l, const struct bc_verdict *v)
{
	const char *m = v->mechanism;

	if (!strcmp(m, "aggregator-selection"))
		bc_line_put(l,
		    "the kernel selected aggregator %s (%s, key %s) and left %s idle in aggregator "
		    "%s (key %s): ports of different speed or duplex get different keys and never "
		    "share an aggregator, and ad_select %s keeps the aggregator it chose",
		    ev(v, "active_aggregator"), ev(v, "active_ports"), ev(v, "active_key"),
		    v->where, ev(v, "best_aggregator"), ev(v, "best_key"), ev(v, "ad_select"));
	else if (!strcmp(m, "active-slave") && !strncmp(v->where, "agent: ", 7))
		bc_line_put(l, "the receiving agent's active slave %s is not its best one", v->where + 7);
	else if (!strcmp(m, "active-slave"))
		bc_line_put(l,
		    "the active slave %s is not the best one (%s); primary %s, primary_reselect %s",
		    v->where, ev(v, "best_slave"), ev(v, "primary"), ev(v, "primary_reselect"));
	else if (!strcmp(m, "slave-down"))
		bc_line_put(l, "%s is down", v->where);
	else if (!strcmp(m, "alb-rx-peers"))
		bc_line_put(l, "balance-alb receives each peer's traffic on one slave, leaving %s idle",
		    v->where[0] ? v->where : "the other slaves");
	else if (!strcmp(m, "hash-placement"))
		bc_line_put(l, "the flows' hashes left %s idle (%s flows)", v->where, ev(v, "flows"));
	else if (!strcmp(m, "lacp-key")) {
		bc_line_put(l,
		    "the speed keys keep %s out of the best aggregator (keys %s): %s of the "
		    "installed capacity cannot aggregate",
		    v->where, ev(v, "keys"), ev(v, "cost"));
		if (bc_verdict_get(v, "selection_cost"))
			bc_line_put(l,
			    ", and the kernel's selection of the slower aggregator this caused "
			    "idles %s more",
			    ev(v, "selection_cost"));
	} else if (!strcmp(m, "shaper"))
		bc_line_put(l,
		    "a shaper sets %s's ceiling: qdisc %s at %s, so balance-rr's equal shares cap "
		    "the bond at %s; the cost, %s, is the shaper's, not the %s driver's",
		    v->where, ev(v, "qdisc"), ev(v, "rate"), ev(v, "cap"), ev(v, "cost"),
		    ev(v, "driver"));
	else if (!strcmp(m, "equal-shares"))
		bc_line_put(l,
		    "balance-rr gives every slave an equal share, so the slowest slave %s (%s) "
		    "caps "
		    "the bond at %s; the mismatch costs %s",
		    v->where, ev(v, "ceiling"), ev(v, "cap"), ev(v, "cost"));
	else if (!strcmp(m, "reordering"))
		bc_line_put(l,
		    "the receiver saw reordering (tcpi_reord_seen %s, DSACKs %s): TCP takes "
		    "reordered segments for loss and slows down",
		    ev(v, "reord_seen"), ev(v, "dsack_dups"));
	else if (!strcmp(m, "cpu-bound"))
		bc_line_put(l,
		    "a CPU was >= 90 %% busy, so the figures may measure the host, not the bond");
	else if (!strcmp(m, "single-flow"))
		bc_line_put(l, "%s flow%s on a hash mode is not an aggregation test", ev(v, "flows"),
		    strcmp(ev(v, "flows"), "1") ? "s" : "");
	else if (!strcmp(m, "holds-back") || !strcmp(m, "falls-short"))
		per_link(l, v);
	else if (!strcmp(m, "no-mismatch"))
		bc_line_put(l, "no mismatch: the slaves on both ends share driver, speed, offloads and "
		       "ceiling");
	else if (!strcmp(m, "cost-nothing"))
		bc_line_put(l,
		    "mismatch (%s): it cost nothing measurable, no link of either end stood out "
		    "against its own ceiling and no receiving slave alone dropped",
		    ev(v, "mismatch"));
	else if (!strcmp(m, "ceilings-unknown"))
		bc_line_put(l,
		    "mismatch (%s); per-link ceilings unknown (give --link-rate): balance-rr's "
		    "equal shares say nothing without them",
		    ev(v, "mismatch"));
	else if (!strcmp(m, "no-evidence"))
		bc_line_put(l, "mismatch (%s); no per-link evidence: the captured tests did not run",
		    ev(v, "mismatch"));
	else if (!strcmp(m, "unplaced"))
		bc_line_put(l,
		    "mismatch (%s); the flows were not placed, so the links carried unequal "
		    "numbers of flows and their shares do not compare",
		    ev(v, "mismatch"));
	else if (!strcmp(m, "active-ok"))
		bc_line_put(l,
		    "mismatch (%s): it cost nothing measurable on the active slave %s (%s of its "
		    "ceiling); the backups carry traffic only after a failover, which this suite "
		    "does not measure",
		    ev(v, "mismatch"), ev(v, "active_slave"), ev(v, "utilization"));
	else if (!strcmp(m, "active-low"))
		bc_line_put(l,
		    "mismatch (%s); the active slave %s ran at %s of its ceiling, with no peer "
		    "carrying traffic to compare it with",
		    ev(v, "mismatch"), ev(v, "active_slave"), ev(v, "utilization"));
	else if (!strcmp(m, "active-missing"))
		bc_line_put(l, "mismatch (%s); active-backup: the active slave's evidence is missing",
		    ev(v, "mismatch"));
	else if (!strcmp(m, "missing-input"))
		bc_line_put(l,
		    "the document lacks %s, which this verdict reads (saved by a version that did "
		    "not record it): not judged",
		    ev(v, "missing"));
	else if (!strcmp(m, "not-a-bond"))
		bc_line_put(l, "one interface, not a bond: no slaves to compare");
	else if (loss_id(m)) {
		if (bc_verdict_get(v, "stage"))
			bc_line_put(l, "%s datagrams lost at the ledger's %s stage: ", ev(v, "count"),
			    ev(v, "stage"));
		else
			bc_line_put(l, "%s datagrams lost: ", ev(v, "count"));
		bc_line_put(l, "%s on %s (host %s; %s)", m, v->where[0] ? v->where : "no single link",
		    ev(v, "host"),
		    bc_verdict_get(v, "counter") ? ev(v, "counter") : "no counter moved");
		/* the capacity model's share of the gap below selected (capacity.h) */
		if (bc_verdict_get(v, "lost"))
			bc_line_put(l,
			    "; at the probe's message size and duration %s, %s of the selected "
			    "level",
			    ev(v, "lost"), ev(v, "share"));
	} else if (!strcmp(m, "send-refused"))
		bc_line_put(l, "nothing was lost after the send, but the sender's kernel refused sends%s%s",
		    v->where[0] ? " on " : "", v->where);
	else if (!strcmp(m, "ledger-stage"))
		bc_line_put(l, "the ledger's largest drop (%s) is at %s, on no single link", ev(v, "count"),
		    v->where);
	else if (!strcmp(m, "rate-search"))
		bc_line_put(l, "no capture ledger located the loss; the rate search's no-drop rate: %s%s%s",
		    ev(v, "no_drop"), bc_verdict_get(v, "resolution") ? ", resolution " : "",
		    bc_verdict_get(v, "resolution") ? ev(v, "resolution") : "");
	else if (!strcmp(m, "not-measured"))
		bc_line_put(l, "not measured: the over-rate UDP probe did not run");
	else if (!strcmp(m, "ceiling-unknown"))
		bc_line_put(l, "the UDP ceiling is unknown, so the no-drop rate cannot be judged");
	else if (!strcmp(m, "unattributed"))
		bc_line_put(l,
		    "no mechanism of the model accounts for the shortfall (see the per-link table "
		    "and the ledger)");
	else if (m[0])
		bc_line_put(l, "%s%s%s", m, v->where[0] ? " on " : "", v->where);
}

int bc_verdict_render(const struct bc_verdict *v, char *buf, size_t len)
{
	struct bc_line l = {buf, len, 0};
	char a[32], b[32];

	if (len)
		buf[0] = '\0';
	if (v->has_levels && v->lhs_bps >= 0 && v->rhs_bps > 0)
		bc_line_put(&l, "%s %s of %s %s %s (%.0f %%)", bc_cap_level_name(v->lhs),
		    bc_format_rate(v->lhs_bps, a, sizeof(a)),
		    v->rhs == BC_CAP_INSTALLED ? "an" : "a", bc_cap_level_name(v->rhs),
		    bc_format_rate(v->rhs_bps, b, sizeof(b)), 100 * v->headline);
	else if (v->has_levels)
		bc_line_put(&l, "%s against %s: not known (a ceiling is missing)",
		    bc_cap_level_name(v->lhs), bc_cap_level_name(v->rhs));
	if (!strcmp(v->question, "aggregation") && bc_verdict_get(v, "flows"))
		bc_line_put(&l, " with %s flow%s%s%s", ev(v, "flows"),
		    strcmp(ev(v, "flows"), "1") && strcmp(ev(v, "flows"), "1 placed") ? "s" : "",
		    bc_verdict_get(v, "single_flow") ? ", single flow " : "",
		    bc_verdict_get(v, "single_flow") ? ev(v, "single_flow") : "");
	if (v->mechanism[0]) {
		bc_line_put(&l, "%s", l.n ? "; " : "");
		cause(&l, v);
	}
	if (!strcmp(v->question, "udp_gap"))
		probe(&l, v);
	if (bc_verdict_borderline(v))
		bc_line_put(&l, "%sBorderline: %.0f %% is within %.0f points of the %.0f %% line, where one "
		    "short run's spread can fall either side; repeat with a longer run (-t 10)",
		    l.n ? ". " : "", 100 * v->headline, 100 * BC_VERDICT_BORDERLINE,
		    100 * BC_VERDICT_CARRIED_PASS);
	if (v->next_step[0])
		bc_line_put(&l, "%sNext: %s", l.n ? ". " : "", v->next_step);
	if (l.n)
		bc_line_put(&l, ".");
	return (int)l.n;
}

void bc_verdict_json_put(const struct bc_verdict *v, struct json_object *o)
{
	char text[1200];

	bc_verdict_json_data(v, o);
	bc_verdict_render(v, text, sizeof(text));
	json_object_object_add(o, "answer", json_object_new_string(text));
}

void bc_suite_verdicts_answer(struct json_object *doc, const struct bc_suite_verdicts *vs)
{
	struct json_object *vd = json_object_object_get(doc, "verdicts");
	const struct bc_verdict *v[3] = {&vs->aggregation, &vs->udp_gap, &vs->drivers};
	char text[1200];

	for (size_t i = 0; i < 3; i++) {
		struct json_object *o = json_object_object_get(vd, v[i]->question);

		if (!json_object_is_type(o, json_type_object))
			continue;
		bc_verdict_render(v[i], text, sizeof(text));
		json_object_object_add(o, "answer", json_object_new_string(text));
	}
}
