// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON of a finished capture: interfaces, counts, pcap_stats (bondcheck/capture.h). */
#include "bondcheck/capture.h"

#define U64(x) json_object_new_int64((int64_t)(x))

struct json_object *bc_capture_json(const struct bc_capture *c)
{
	struct json_object *o = json_object_new_object(), *ifs = json_object_new_array();

	json_object_object_add(o, "host", json_object_new_string(c->host));
	if (c->bond[0])
		json_object_object_add(o, "bond", json_object_new_string(c->bond));
	json_object_object_add(o, "filter", json_object_new_string(c->filter));
	json_object_object_add(o, "snaplen", U64(BC_CAPTURE_SNAPLEN));
	json_object_object_add(o, "buffer_bytes",
			       U64(c->buffer_bytes ? c->buffer_bytes : BC_CAPTURE_BUFFER));
	for (size_t i = 0; i < c->n; i++) {
		const struct bc_capture_if *ci = &c->ifs[i];
		struct json_object *x = json_object_new_object();

		json_object_object_add(x, "name", json_object_new_string(ci->name));
		json_object_object_add(x, "frames", U64(ci->frames));
		json_object_object_add(x, "bytes", U64(ci->bytes));
		json_object_object_add(x, "file_bytes", U64(ci->file_bytes));
		if (ci->have_stats) {
			struct json_object *s = json_object_new_object();

			json_object_object_add(s, "ps_recv", U64(ci->ps_recv));
			json_object_object_add(s, "ps_drop", U64(ci->ps_drop));
			json_object_object_add(s, "ps_ifdrop", U64(ci->ps_ifdrop));
			json_object_object_add(x, "pcap_stats", s);
		}
		if (ci->error)
			json_object_object_add(x, "error", json_object_new_string(ci->error_msg));
		json_object_array_add(ifs, x);
	}
	json_object_object_add(o, "interfaces", ifs);
	return o;
}
