// SPDX-License-Identifier: GPL-2.0-or-later
/* One end's inspect view of its egress bond; see workflow/end-inspect.h. */
#include <string.h>

#include "bondcheck/findings.h"
#include "bondcheck/inspect-report.h"
#include "bondcheck/json-get.h"
#include "traffic/bond-meta.h"
#include "traffic/egress.h"
#include "traffic/test-end.h"
#include "workflow/end-inspect.h"

static struct json_object *no_bond(const char *ifname, const char *key, const char *why)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "interface", ifname ? json_object_new_string(ifname) : NULL);
	json_object_object_add(o, "bonds", json_object_new_array());
	json_object_object_add(o, key, json_object_new_string(why));
	return o;
}

void bc_end_inspect(const struct sockaddr_storage *local, struct bc_snapshot *snap,
		    struct json_object **doc, struct json_object **egress)
{
	struct sockaddr_storage l = *local;
	struct bc_snapshot own = {0}, *s = snap ? snap : &own;
	struct bc_inspect_render_opts ro = {0};
	struct bc_error err = {0};
	struct bc_egress e;
	char when[32];

	*egress = NULL;
	bc_sockaddr_unmap(&l);
	if (bc_egress_find(&l, &e) < 0) {
		*doc = no_bond(NULL, "reason", "no interface carries the test address");
		return;
	}
	*egress = bc_egress_json(&e);
	if (!e.is_bond) {
		*doc = no_bond(e.dev.name, "reason",
			       "the test traffic leaves by an interface that is not a bond");
		return;
	}
	if (bc_bond_collect(e.dev.name, s, &err) < 0) {
		*doc = no_bond(e.dev.name, "error", err.msg);
		goto out;
	}
	bc_findings_evaluate(s);
	bc_json_generated_at(when, sizeof(when));
	ro.generated_at = when;
	*doc = bc_inspect_json_build(s, &ro);
	if (!*doc) {
		*doc = no_bond(e.dev.name, "error", "out of memory");
		goto out;
	}
	json_object_object_add(*doc, "interface", json_object_new_string(e.dev.name));
out:
	if (!snap)
		bc_snapshot_free(&own);
}
