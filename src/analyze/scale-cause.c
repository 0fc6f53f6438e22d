// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a diagnostic `run --capture` shows about a scaling comparison
 * (bondcheck/scale-doc.h bc_scale_cause()): loss on a link, reordering on a
 * link, an idle link.  Reads the run's findings (the capture attribution's
 * and the live ledger's, docs/run.md) and capture.analysis; pure.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/json-get.h"
#include "bondcheck/scale-doc.h"

#define TX_CLIENT "tx:client/"

/*
 * The client slave behind a capture link name: "tx:client/eth1" is eth1; a
 * receive link is named by the client slave whose learned path ends there
 * (analysis links[].peer).  "" when neither (a host or bond subject).
 */
static const char *slave_of(struct json_object *analysis, const char *link)
{
	struct json_object *links = json_object_object_get(analysis, "links");

	if (!strncmp(link, TX_CLIENT, strlen(TX_CLIENT)))
		return link + strlen(TX_CLIENT);
	if (strncmp(link, "rx:", 3))
		return "";
	for (size_t i = 0; i < bc_json_len(links); i++) {
		struct json_object *l = json_object_array_get_idx(links, i);
		const char *name = bc_json_str(l, "name");

		if (!strncmp(name, TX_CLIENT, strlen(TX_CLIENT)) &&
		    !strcmp(bc_json_str(l, "peer"), link))
			return name + strlen(TX_CLIENT);
	}
	return "";
}

static bool in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

static struct json_object *cause(const char *kind, const char *slave, const char *link, bool added,
				 const char *text, struct json_object *ev)
{
	struct json_object *c = json_object_new_object();

	json_object_object_add(c, "kind", json_object_new_string(kind));
	json_object_object_add(c, "slave", json_object_new_string(slave));
	json_object_object_add(c, "capture_link", json_object_new_string(link));
	json_object_object_add(c, "added", json_object_new_boolean(added));
	json_object_object_add(c, "text", json_object_new_string(text));
	json_object_object_add(c, "evidence", ev);
	return c;
}

static void loss_causes(struct json_object *res, struct json_object *an, const char *const *added,
			size_t n_added, struct json_object *out)
{
	struct json_object *findings = json_object_object_get(res, "findings");

	for (size_t i = 0; i < bc_json_len(findings); i++) {
		struct json_object *f = json_object_array_get_idx(findings, i), *ev, *e;
		const char *id = bc_json_str(f, "id"), *link = bc_json_str(f, "subject"), *slave;
		double cnt, of;
		char text[256];

		if (strcmp(id, "wire-loss") && strcmp(id, "tx-loss") && strcmp(id, "rx-loss-nic"))
			continue;
		slave = slave_of(an, link);
		if (!slave[0])
			continue; /* a host-wide counter: not a link */
		ev = json_object_object_get(f, "evidence");
		/* the ledger's findings carry count/of; the capture-only one lost/left_bracketed */
		cnt = atof(bc_json_str(ev, bc_json_str(ev, "count")[0] ? "count" : "lost"));
		of = atof(bc_json_str(ev, bc_json_str(ev, "count")[0] ? "of" : "left_bracketed"));
		if (!(of > 0 && cnt / of >= BC_SCALE_CAUSE_LOSS_MIN))
			continue;
		if (bc_json_str(ev, "count")[0])
			snprintf(text, sizeof(text), "loss on %s: %s of %s datagrams (%s, %s)",
				 slave, bc_json_str(ev, "count"), bc_json_str(ev, "of"), id, link);
		else
			snprintf(text, sizeof(text), "loss on %s: %s of %s packets (%s, %s)", slave,
				 bc_json_str(ev, "lost"), bc_json_str(ev, "left_bracketed"), id,
				 link);
		e = json_object_new_object();
		json_object_object_add(e, "finding", json_object_new_string(id));
		json_object_object_add(e, "finding_evidence", json_object_get(ev));
		json_object_array_add(
			out, cause("loss", slave, link, in_list(slave, added, n_added), text, e));
	}
}

static bool has_finding(struct json_object *res, const char *id)
{
	struct json_object *findings = json_object_object_get(res, "findings");

	for (size_t i = 0; i < bc_json_len(findings); i++)
		if (!strcmp(bc_json_str(json_object_array_get_idx(findings, i), "id"), id))
			return true;
	return false;
}

/* The late link that holds most reordering pairs, when the `reordering` finding is raised. */
static void reorder_cause(struct json_object *res, struct json_object *an, const char *const *added,
			  size_t n_added, struct json_object *out)
{
	struct json_object *ro = json_object_object_get(an, "reordering");
	struct json_object *pairs = json_object_object_get(ro, "pairs"), *ev, *top;
	long long total = 0, best = 0;
	const char *late = NULL, *slave;
	char text[320];

	if (!has_finding(res, "reordering") || !bc_json_len(pairs) ||
	    bc_json_dbl(ro, "reordered_ratio", 0) < BC_SCALE_CAUSE_REORDER_MIN)
		return;
	for (size_t i = 0; i < bc_json_len(pairs); i++)
		total += bc_json_i64(json_object_array_get_idx(pairs, i), "count", 0);
	/* sum per late link: a link late behind several others is one cause */
	for (size_t i = 0; i < bc_json_len(pairs); i++) {
		const char *l = bc_json_str(json_object_array_get_idx(pairs, i), "late_link");
		long long sum = 0;

		for (size_t j = 0; j < bc_json_len(pairs); j++) {
			struct json_object *p = json_object_array_get_idx(pairs, j);

			if (!strcmp(bc_json_str(p, "late_link"), l))
				sum += bc_json_i64(p, "count", 0);
		}
		if (sum > best) {
			best = sum;
			late = l;
		}
	}
	if (!late || total <= 0)
		return;
	slave = slave_of(an, late);
	ev = json_object_new_object();
	json_object_object_add(ev, "reordered",
			       json_object_new_int64(bc_json_i64(ro, "reordered", 0)));
	json_object_object_add(ev, "received",
			       json_object_new_int64(bc_json_i64(ro, "received", 0)));
	json_object_object_add(ev, "reordered_ratio",
			       json_object_new_double(bc_json_dbl(ro, "reordered_ratio", 0)));
	json_object_object_add(ev, "late_link", json_object_new_string(late));
	json_object_object_add(ev, "late_share",
			       json_object_new_double((double)best / (double)total));
	top = json_object_new_array();
	for (size_t i = 0; i < bc_json_len(pairs) && i < 4; i++)
		json_object_array_add(top, json_object_get(json_object_array_get_idx(pairs, i)));
	json_object_object_add(ev, "pairs", top);
	snprintf(text, sizeof(text),
		 "reordering: %lld of %lld datagrams arrived out of order, %.0f %% of the "
		 "reordering pairs late on %s (%s)",
		 bc_json_i64(ro, "reordered", 0), bc_json_i64(ro, "received", 0),
		 100.0 * (double)best / (double)total, slave[0] ? slave : late, late);
	json_object_array_add(out, cause("reordering", slave[0] ? slave : late, late,
					 in_list(slave, added, n_added), text, ev));
}

static void idle_causes(struct json_object *res, struct json_object *an, const char *const *added,
			size_t n_added, struct json_object *out)
{
	struct json_object *findings = json_object_object_get(res, "findings");

	for (size_t i = 0; i < bc_json_len(findings); i++) {
		struct json_object *f = json_object_array_get_idx(findings, i), *ev, *e;
		const char *link = bc_json_str(f, "subject"), *slave;
		char text[256];

		if (strcmp(bc_json_str(f, "id"), "link-idle"))
			continue;
		slave = slave_of(an, link);
		if (!slave[0])
			continue;
		ev = json_object_object_get(f, "evidence");
		snprintf(text, sizeof(text), "idle link: %s carried %s test frames (%s)", slave,
			 bc_json_str(ev, "frames")[0] ? bc_json_str(ev, "frames") : "almost no",
			 link);
		e = json_object_new_object();
		json_object_object_add(e, "finding", json_object_new_string("link-idle"));
		json_object_object_add(e, "finding_evidence", json_object_get(ev));
		json_object_array_add(out, cause("idle-link", slave, link,
						 in_list(slave, added, n_added), text, e));
	}
}

struct json_object *bc_scale_cause(struct json_object *res, const char *const *added,
				   size_t n_added)
{
	struct json_object *cap, *an, *all, *out;

	if (!res)
		return NULL;
	cap = json_object_object_get(res, "capture");
	an = json_object_object_get(cap, "analysis");
	all = json_object_new_array();
	loss_causes(res, an, added, n_added, all);
	reorder_cause(res, an, added, n_added, all);
	idle_causes(res, an, added, n_added, all);
	/* stable: causes on an added slave first, each group in the order above */
	out = json_object_new_array();
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < bc_json_len(all); i++) {
			struct json_object *c = json_object_array_get_idx(all, i);
			bool a = json_object_get_boolean(json_object_object_get(c, "added"));

			if (a == (pass == 0))
				json_object_array_add(out, json_object_get(c));
		}
	json_object_put(all);
	return out;
}
