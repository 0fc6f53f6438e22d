// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Placement intended against observed (run --place --capture): which slave
 * each placed flow actually left on, from the client's slave captures, into
 * placement.observed; a flow seen leaving on another slave, or on several,
 * is a placement-mismatch finding.  Also keeps link-idle to the links the
 * mode and placement say should carry traffic: not the backup slaves of
 * active-backup, not slaves no placed flow was meant for.
 */
#include <stdio.h>
#include <string.h>

#include "bondcheck/json-get.h"
#include "bondcheck/findings.h"
#include "bondcheck/names.h"
#include "workflow/run-capture.h"

/* The client's sending slaves a forward flow with source port @port was seen on. */
static struct json_object *slaves_of(struct json_object *flows, int port)
{
	struct json_object *out = json_object_new_array(), *v;

	for (size_t i = 0; i < bc_json_len(flows); i++) {
		struct json_object *f = json_object_array_get_idx(flows, i);
		struct json_object *links = json_object_object_get(f, "links");

		if (strcmp(bc_json_str(f, "direction"), "forward") ||
		    !json_object_object_get_ex(f, "sport", &v) || json_object_get_int(v) != port)
			continue;
		for (size_t k = 0; k < bc_json_len(links); k++) {
			const char *l = json_object_get_string(json_object_array_get_idx(links, k));

			if (l && !strncmp(l, "tx:client/", 10))
				json_object_array_add(out, json_object_new_string(l + 10));
		}
	}
	return out;
}

static struct json_object *mismatch(const char *port, const char *want, const char *seen)
{
	const struct bc_finding_def *d = bc_findings_lookup("placement-mismatch");
	struct json_object *o = json_object_new_object(), *ev = json_object_new_object();
	char buf[256];

	json_object_object_add(o, "id", json_object_new_string("placement-mismatch"));
	json_object_object_add(o, "severity", json_object_new_string(
						      d ? bc_severity_name(d->severity) : "warning"));
	snprintf(buf, sizeof(buf), "tx:client/%s", want);
	json_object_object_add(o, "subject", json_object_new_string(buf));
	json_object_object_add(ev, "client_port", json_object_new_string(port));
	json_object_object_add(ev, "predicted_slave", json_object_new_string(want));
	json_object_object_add(ev, "observed_slaves", json_object_new_string(seen));
	json_object_object_add(o, "evidence", ev);
	snprintf(buf, sizeof(buf),
		 "the flow from client port %s was placed on %s but the capture saw it leave "
		 "on %s: the kernel's hash or the slave set differs from the prediction",
		 port, want, seen[0] ? seen : "no slave");
	json_object_object_add(o, "advice", json_object_new_string(buf));
	return o;
}

static void observed(struct json_object *an, struct json_object *placement,
		     struct json_object *findings)
{
	struct json_object *ps = json_object_object_get(placement, "streams");
	struct json_object *out = json_object_new_object(), *arr = json_object_new_array(), *v;
	int bad = 0;

	for (size_t i = 0; i < bc_json_len(ps); i++) {
		struct json_object *p = json_object_array_get_idx(ps, i), *o;
		int port = json_object_object_get_ex(p, "client_port", &v) ? json_object_get_int(v)
									   : -1;
		struct json_object *seen = slaves_of(json_object_object_get(an, "flows"), port);
		const char *want = bc_json_str(p, "predicted_slave");
		bool ok = bc_json_len(seen) == 1 &&
			  !strcmp(json_object_get_string(json_object_array_get_idx(seen, 0)), want);
		char joined[160] = "", portbuf[16];

		for (size_t k = 0; k < bc_json_len(seen); k++)
			snprintf(joined + strlen(joined), sizeof(joined) - strlen(joined), "%s%s",
				 k ? "," : "", json_object_get_string(json_object_array_get_idx(seen, k)));
		o = json_object_new_object();
		json_object_object_add(o, "id", json_object_get(json_object_object_get(p, "id")));
		json_object_object_add(o, "client_port", json_object_new_int(port));
		json_object_object_add(o, "predicted_slave", json_object_new_string(want));
		json_object_object_add(o, "observed_slaves", seen);
		json_object_object_add(o, "match", json_object_new_boolean(ok));
		json_object_array_add(arr, o);
		if (!ok) {
			bad++;
			snprintf(portbuf, sizeof(portbuf), "%d", port);
			json_object_array_add(findings, mismatch(portbuf, want, joined));
		}
	}
	json_object_object_add(out, "source", json_object_new_string("client slave captures"));
	json_object_object_add(out, "streams", arr);
	json_object_object_add(out, "mismatches", json_object_new_int(bad));
	json_object_object_add(placement, "observed", out);
}

/* Whether the client's slave @ifname should carry forward traffic. */
static bool should_carry(struct json_object *res, const char *ifname)
{
	struct json_object *pl = json_object_object_get(res, "placement");
	struct json_object *eg = json_object_object_get(
		json_object_object_get(json_object_object_get(res, "ends"), "client"), "metadata");
	const char *mode;

	eg = eg ? json_object_object_get(eg, "egress") : NULL;
	mode = bc_json_str(json_object_object_get(json_object_object_get(eg, "bond"), "options"), "mode");
	if (!strncmp(mode, "active-backup", 13))
		return false; /* one active slave: the others are meant to idle */
	if (pl) {
		struct json_object *ps = json_object_object_get(pl, "streams");

		for (size_t i = 0; i < bc_json_len(ps); i++)
			if (!strcmp(bc_json_str(json_object_array_get_idx(ps, i), "predicted_slave"), ifname))
				return true;
		return false;
	}
	return true;
}

void bc_run_observed(struct json_object *analysis, struct json_object *res)
{
	struct json_object *pl = json_object_object_get(res, "placement");
	struct json_object *old = json_object_object_get(analysis, "findings");
	struct json_object *nf = json_object_new_array();

	for (size_t i = 0; i < bc_json_len(old); i++) {
		struct json_object *f = json_object_array_get_idx(old, i);
		const char *subj = bc_json_str(f, "subject");

		if (!strcmp(bc_json_str(f, "id"), "link-idle") && !strncmp(subj, "tx:client/", 10) &&
		    !should_carry(res, subj + 10))
			continue;
		json_object_array_add(nf, json_object_get(f));
	}
	if (pl && json_object_object_get(pl, "streams"))
		observed(analysis, pl, nf);
	json_object_object_add(analysis, "findings", nf);
}
