// SPDX-License-Identifier: GPL-2.0-or-later
/* A run's link state changes and slave-down findings (workflow/link-events.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/findings.h"
#include "bondcheck/json-get.h"
#include "bondcheck/names.h"
#include "workflow/link-events.h"

void bc_link_events_add(struct json_object *counters, struct bc_link_watch *w, int64_t start_ns)
{
	struct json_object *a;

	if (!counters || !w || !w->sk)
		return;
	bc_link_watch_stop(w);
	a = json_object_new_array();
	for (size_t i = 0; i < w->n; i++) {
		const struct bc_link_event *e = &w->ev[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "interface", json_object_new_string(e->name));
		json_object_object_add(
			o, "time_ms",
			json_object_new_double(round((double)(e->mono_ns - start_ns) / 1e3) / 1e3));
		json_object_object_add(o, "admin_up", json_object_new_boolean(e->admin_up));
		json_object_object_add(o, "carrier", json_object_new_boolean(e->carrier));
		json_object_object_add(o, "removed", json_object_new_boolean(e->removed));
		json_object_array_add(a, o);
	}
	json_object_object_add(counters, "link_events", a);
	if (w->overrun)
		json_object_object_add(counters, "link_events_overrun",
				       json_object_new_boolean(true));
}

static bool jbool(struct json_object *o, const char *k, bool dflt)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_boolean))
		return dflt;
	return json_object_get_boolean(v);
}

static bool ev_down(struct json_object *e)
{
	return jbool(e, "removed", false) || !jbool(e, "admin_up", true) ||
	       !jbool(e, "carrier", true);
}

bool bc_link_ended_down(struct json_object *end, const char *ifname, double *time_ms)
{
	struct json_object *ev = json_object_object_get(json_object_object_get(end, "counters"),
							"link_events");
	bool down = false;

	for (size_t i = 0; i < bc_json_len(ev); i++) {
		struct json_object *e = json_object_array_get_idx(ev, i);

		if (strcmp(bc_json_str(e, "interface"), ifname))
			continue;
		if (ev_down(e) && !down) {
			down = true;
			*time_ms = bc_json_dbl(e, "time_ms", 0);
		} else if (!ev_down(e)) {
			down = false;
		}
	}
	return down;
}

int bc_slave_down_findings(struct json_object *ends, struct json_object *findings)
{
	static const char *const hosts[] = {"client", "agent"};
	const struct bc_finding_def *def = bc_findings_lookup("slave-down");
	int n = 0;

	for (int h = 0; h < 2; h++) {
		struct json_object *end = json_object_object_get(ends, hosts[h]);
		struct json_object *bond = json_object_object_get(
			json_object_object_get(end, "metadata"), "bond");
		struct json_object *sl = json_object_object_get(bond, "slaves");
		bool have_ev = json_object_object_get(json_object_object_get(end, "counters"),
						      "link_events") != NULL;

		for (size_t i = 0; i < bc_json_len(sl); i++) {
			struct json_object *s = json_object_array_get_idx(sl, i), *f, *ev;
			const char *name = bc_json_str(s, "name");
			const char *mii = bc_json_str(s, "mii_status");
			double t = 0;
			char buf[480];
			bool down;

			if (have_ev)
				down = bc_link_ended_down(end, name, &t);
			else
				down = !strcmp(bc_json_str(s, "mii_status_before"), "up") && mii[0] &&
				       strcmp(mii, "up");
			if (!down)
				continue;
			f = json_object_new_object();
			ev = json_object_new_object();
			json_object_object_add(f, "id", json_object_new_string("slave-down"));
			json_object_object_add(f, "severity",
					       json_object_new_string(bc_severity_name(
						       def ? def->severity : BC_SEV_ERROR)));
			snprintf(buf, sizeof(buf), "%s/%s", hosts[h], name);
			json_object_object_add(f, "subject", json_object_new_string(buf));
			json_object_object_add(ev, "host", json_object_new_string(hosts[h]));
			json_object_object_add(ev, "bond",
					       json_object_new_string(bc_json_str(bond, "bond")));
			json_object_object_add(ev, "time_ms",
					       have_ev ? json_object_new_double(t) : NULL);
			json_object_object_add(ev, "mii_status",
					       mii[0] ? json_object_new_string(mii) : NULL);
			json_object_object_add(ev, "source",
					       json_object_new_string(
						       have_ev ? "rtnetlink link notifications"
							       : "bond MII status before and after"));
			json_object_object_add(f, "evidence", ev);
			if (have_ev)
				snprintf(buf, sizeof(buf),
					 "%s of the %s's %s went down %.0f ms into the test and "
					 "stayed down: the run went on over the remaining slaves, "
					 "so its goodput, loss and reordering include the failover "
					 "and the smaller bond; check the cable, the switch port, "
					 "`ip -s link` and dmesg",
					 name, hosts[h], bc_json_str(bond, "bond"), t);
			else
				snprintf(buf, sizeof(buf),
					 "%s of the %s's %s was up before the test and is %s "
					 "after it (the time is unknown: that end reported no link "
					 "events): the run's figures include the failover",
					 name, hosts[h], bc_json_str(bond, "bond"), mii);
			json_object_object_add(f, "advice", json_object_new_string(buf));
			json_object_array_add(findings, f);
			n++;
		}
	}
	return n;
}
