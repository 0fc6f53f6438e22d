// SPDX-License-Identifier: GPL-2.0-or-later
/* Test plan: defaults, validation, JSON; see bondcheck/plan.h. */
#include <errno.h>
#include <string.h>

#include "bondcheck/plan.h"
#include "bondcheck/udp-header.h"

void bc_plan_defaults(struct bc_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->proto = BC_L4_TCP;
	p->streams = 1;
	p->dir = BC_DIR_FORWARD;
	p->duration_ms = 10000;
	p->interval_ms = 1000;
	p->tmax_ms = 1000;
	p->rate_bps = 1000000;
	p->length = 128 * 1024;
	p->family = 4;
	p->dport = BC_DATA_PORT;
	p->sock_buf = 4 * 1024 * 1024;
}

uint32_t bc_plan_total_streams(const struct bc_plan *p)
{
	return p->dir == BC_DIR_BIDIR ? 2 * p->streams : p->streams;
}

uint32_t bc_plan_all_streams(const struct bc_plan *p)
{
	return bc_plan_total_streams(p) + p->tcp_streams;
}

bool bc_plan_stream_tcp(const struct bc_plan *p, uint32_t i)
{
	return p->proto == BC_L4_TCP || i >= bc_plan_total_streams(p);
}

bool bc_plan_stream_reverse(const struct bc_plan *p, uint32_t i)
{
	if (i >= bc_plan_total_streams(p))
		return false; /* TCP alongside: forward */
	if (p->dir == BC_DIR_REVERSE)
		return true;
	return p->dir == BC_DIR_BIDIR && i >= p->streams;
}

uint32_t bc_plan_max_length(int family)
{
	return family == 6 ? 65527 : 65507;
}

uint32_t bc_plan_length_for_mtu(uint32_t mtu, int family)
{
	uint32_t hdr = family == 6 ? 48 : 28;
	uint32_t len = mtu > hdr ? mtu - hdr : 0;

	if (len > bc_plan_max_length(family))
		len = bc_plan_max_length(family);
	return len < 32 ? 32 : len;
}

int bc_plan_check(const struct bc_plan *p, const struct bc_plan_limits *lim, struct bc_error *err)
{
	uint32_t total = bc_plan_all_streams(p);

	if (p->family != 4 && p->family != 6)
		return bc_error_set(err, -EINVAL, "family: IPv%d; expected 4 or 6", p->family);
	if (p->proto != BC_L4_TCP && p->proto != BC_L4_UDP)
		return bc_error_set(err, -EINVAL, "protocol: expected tcp or udp");
	if (p->dir > BC_DIR_BIDIR)
		return bc_error_set(err, -EINVAL, "direction: expected forward, reverse or bidir");
	if (p->tcp_streams > BC_PLAN_MAX_TCP_ALONGSIDE)
		return bc_error_set(err, -EINVAL, "tcp_streams: %u; expected 0..%d", p->tcp_streams,
				    BC_PLAN_MAX_TCP_ALONGSIDE);
	if (p->tcp_streams && p->proto != BC_L4_UDP)
		return bc_error_set(err, -EINVAL,
				    "tcp_streams: TCP streams alongside need a UDP plan");
	if (p->streams < 1 || total > BC_PLAN_MAX_STREAMS)
		return bc_error_set(err, -EINVAL, "streams: %u in all; expected 1..%d", total,
				    BC_PLAN_MAX_STREAMS);
	if (lim && lim->max_streams && total > lim->max_streams)
		return bc_error_set(err, -EINVAL, "streams: %u; this agent allows at most %u",
				    total, lim->max_streams);
	if (p->duration_ms < 100)
		return bc_error_set(err, -EINVAL, "duration: %u ms; expected at least 100 ms",
				    p->duration_ms);
	if (lim && lim->max_duration_ms && p->duration_ms > lim->max_duration_ms)
		return bc_error_set(err, -EINVAL,
				    "duration: %u ms; this agent allows at most %u ms",
				    p->duration_ms, lim->max_duration_ms);
	if (p->omit_ms >= p->duration_ms)
		return bc_error_set(err, -EINVAL,
				    "omit: %u ms is not shorter than the duration (%u ms)",
				    p->omit_ms, p->duration_ms);
	if (p->interval_ms < 100)
		return bc_error_set(err, -EINVAL, "interval: %u ms; expected at least 100 ms",
				    p->interval_ms);
	if (p->tmax_ms > 60000)
		return bc_error_set(err, -EINVAL, "tmax: %u ms; expected 0..60000", p->tmax_ms);
	if (p->proto == BC_L4_UDP) {
		if (p->length < BC_UDPHDR_LEN || p->length > bc_plan_max_length(p->family))
			return bc_error_set(
				err, -EINVAL, "length: %u bytes; UDP over IPv%d allows %d..%u",
				p->length, p->family, BC_UDPHDR_LEN, bc_plan_max_length(p->family));
		/* the TCP streams alongside count in the cap and must be paced too */
		if (lim && lim->max_rate_bps &&
		    (p->rate_bps == 0 || (p->tcp_streams && p->tcp_rate_bps == 0) ||
		     p->rate_bps * bc_plan_total_streams(p) + p->tcp_rate_bps * p->tcp_streams >
			     lim->max_rate_bps))
			return bc_error_set(err, -EINVAL,
					    "rate: %s; this agent allows at most %llu bit/s in all",
					    p->rate_bps && (!p->tcp_streams || p->tcp_rate_bps)
						    ? "above the cap"
						    : "unpaced",
					    (unsigned long long)lim->max_rate_bps);
		if ((uint32_t)p->dport + bc_plan_total_streams(p) - 1 > 65535)
			return bc_error_set(err, -EINVAL,
					    "dport: %u + %u streams runs past port 65535", p->dport,
					    bc_plan_total_streams(p));
	} else if (p->udp_gso) {
		return bc_error_set(err, -EINVAL, "gso: UDP GSO applies to UDP streams only");
	} else if (p->length < 1 || p->length > 16 * 1024 * 1024) {
		return bc_error_set(err, -EINVAL, "length: %u bytes; TCP writes allow 1..16777216",
				    p->length);
	}
	if (p->dport == 0)
		return bc_error_set(err, -EINVAL, "dport: 0; expected 1..65535");
	return 0;
}

static const char *dir_name(enum bc_dir d)
{
	return d == BC_DIR_REVERSE ? "reverse" : d == BC_DIR_BIDIR ? "bidir" : "forward";
}

struct json_object *bc_plan_to_json(const struct bc_plan *p)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "test_id", json_object_new_uint64(p->test_id));
	json_object_object_add(o, "protocol",
			       json_object_new_string(p->proto == BC_L4_UDP ? "udp" : "tcp"));
	json_object_object_add(o, "streams", json_object_new_int64(p->streams));
	json_object_object_add(o, "direction", json_object_new_string(dir_name(p->dir)));
	json_object_object_add(o, "duration_ms", json_object_new_int64(p->duration_ms));
	json_object_object_add(o, "omit_ms", json_object_new_int64(p->omit_ms));
	json_object_object_add(o, "interval_ms", json_object_new_int64(p->interval_ms));
	json_object_object_add(o, "tmax_ms", json_object_new_int64(p->tmax_ms));
	json_object_object_add(o, "rate_bps_per_stream", json_object_new_uint64(p->rate_bps));
	json_object_object_add(o, "length", json_object_new_int64(p->length));
	json_object_object_add(o, "ip_version", json_object_new_int(p->family));
	json_object_object_add(o, "dport", json_object_new_int(p->dport));
	json_object_object_add(o, "socket_buffer", json_object_new_int64(p->sock_buf));
	json_object_object_add(o, "udp_gso", json_object_new_boolean(p->udp_gso));
	if (p->capture) /* absent when off: agents older than the member keep working */
		json_object_object_add(o, "capture", json_object_new_int64(p->capture));
	if (p->capture && p->capture_neigh) /* absent when off, as capture */
		json_object_object_add(o, "capture_neigh", json_object_new_boolean(1));
	if (p->capture && p->capture_source && p->capture_source < 4) {
		static const char *const src[] = {"pcap", "auto", "taps", "both"};

		/* absent = pcap: agents older than the member capture with pcap */
		json_object_object_add(o, "capture_source",
				       json_object_new_string(src[p->capture_source]));
	}
	if (p->place_k) /* absent when off, as capture */
		json_object_object_add(o, "place_per_slave", json_object_new_int64(p->place_k));
	if (p->df) /* absent when off, as capture */
		json_object_object_add(o, "df", json_object_new_boolean(true));
	if (p->capture && p->capture_buffer) /* absent: the default ring */
		json_object_object_add(o, "capture_buffer",
				       json_object_new_int64(p->capture_buffer));
	if (p->no_bond_meta) /* absent: both ends snapshot the bond */
		json_object_object_add(o, "bond_meta", json_object_new_boolean(0));
	if (p->tcp_streams) { /* absent when none, as capture */
		json_object_object_add(o, "tcp_streams", json_object_new_int64(p->tcp_streams));
		json_object_object_add(o, "tcp_rate_bps", json_object_new_uint64(p->tcp_rate_bps));
	}
	return o;
}

static int get_u64(struct json_object *o, const char *key, uint64_t max, uint64_t *out,
		   struct bc_error *err)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return bc_error_set(err, -EINVAL, "plan: \"%s\" is missing or not an integer", key);
	if (json_object_get_int64(v) < 0)
		return bc_error_set(err, -EINVAL, "plan: \"%s\" is negative", key);
	*out = json_object_get_uint64(v);
	if (*out > max)
		return bc_error_set(err, -EINVAL, "plan: \"%s\" = %llu exceeds %llu", key,
				    (unsigned long long)*out, (unsigned long long)max);
	return 0;
}

int bc_plan_from_json(struct json_object *o, const struct bc_plan_limits *lim, struct bc_plan *p,
		      struct bc_error *err)
{
	struct {
		const char *key;
		uint64_t max;
		uint64_t v;
	} f[] = {
		{"test_id", UINT32_MAX, 0},
		{"streams", BC_PLAN_MAX_STREAMS, 0},
		{"duration_ms", 86400000, 0},
		{"omit_ms", 86400000, 0},
		{"interval_ms", 86400000, 0},
		{"tmax_ms", 60000, 0},
		{"rate_bps_per_stream", UINT64_MAX / 2, 0},
		{"length", 16 * 1024 * 1024, 0},
		{"ip_version", 6, 0},
		{"dport", 65535, 0},
		{"socket_buffer", 1u << 30, 0},
	};
	struct json_object *v;
	const char *s;
	int r;

	if (!o || !json_object_is_type(o, json_type_object))
		return bc_error_set(err, -EINVAL, "plan: expected a JSON object");
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		r = get_u64(o, f[i].key, f[i].max, &f[i].v, err);
		if (r < 0)
			return r;
	}
	memset(p, 0, sizeof(*p));
	p->test_id = (uint32_t)f[0].v;
	p->streams = (uint32_t)f[1].v;
	p->duration_ms = (uint32_t)f[2].v;
	p->omit_ms = (uint32_t)f[3].v;
	p->interval_ms = (uint32_t)f[4].v;
	p->tmax_ms = (uint32_t)f[5].v;
	p->rate_bps = f[6].v;
	p->length = (uint32_t)f[7].v;
	p->family = (int)f[8].v;
	p->dport = (uint16_t)f[9].v;
	p->sock_buf = (uint32_t)f[10].v;
	/* optional member (absent from early version-1 peers): false */
	p->udp_gso = json_object_object_get_ex(o, "udp_gso", &v) && json_object_get_boolean(v);
	/* optional: capture exchange version, absent = 0 (no capture) */
	p->capture = 0;
	if (json_object_object_get_ex(o, "capture", &v)) {
		int64_t cv = json_object_get_int64(v);

		if (!json_object_is_type(v, json_type_int) || cv < 0 ||
		    cv > BC_PLAN_CAPTURE_VERSION)
			return bc_error_set(err, -EINVAL,
					    "plan: \"capture\" is %s; this agent serves capture "
					    "versions 0..%d",
					    json_object_to_json_string(v), BC_PLAN_CAPTURE_VERSION);
		p->capture = (uint32_t)cv;
	}
	/* optional: neighbour announcements in the capture; absent = false */
	p->capture_neigh = json_object_object_get_ex(o, "capture_neigh", &v) &&
			   json_object_get_boolean(v);
	/* optional: the capture source; absent = pcap */
	p->capture_source = 0;
	if (json_object_object_get_ex(o, "capture_source", &v)) {
		static const char *const src[] = {"pcap", "auto", "taps", "both"};
		const char *sv = json_object_is_type(v, json_type_string)
					 ? json_object_get_string(v)
					 : "";
		unsigned i;

		for (i = 0; i < 4 && strcmp(sv, src[i]); i++)
			;
		if (i == 4)
			return bc_error_set(err, -EINVAL,
					    "plan: \"capture_source\" is %.40s; expected \"pcap\", "
					    "\"auto\", \"taps\" or \"both\"",
					    json_object_to_json_string(v));
		p->capture_source = i;
	}
	/* optional: reverse-stream placement, K per slave; absent = 0 */
	if (json_object_object_get_ex(o, "place_per_slave", &v)) {
		int64_t k = json_object_get_int64(v);

		if (!json_object_is_type(v, json_type_int) || k < 0 || k > BC_PLAN_MAX_STREAMS)
			return bc_error_set(err, -EINVAL,
					    "plan: \"place_per_slave\" is %s; expected 0..%d",
					    json_object_to_json_string(v), BC_PLAN_MAX_STREAMS);
		p->place_k = (uint32_t)k;
	}
	/* optional: DF probe senders (path MTU check); absent = false */
	p->df = json_object_object_get_ex(o, "df", &v) && json_object_get_boolean(v);
	/* optional: capture ring bytes per interface; absent = the default */
	if (json_object_object_get_ex(o, "capture_buffer", &v)) {
		int64_t b = json_object_get_int64(v);

		if (!json_object_is_type(v, json_type_int) || b < BC_PLAN_CAPTURE_BUFFER_MIN ||
		    b > BC_PLAN_CAPTURE_BUFFER_MAX)
			return bc_error_set(err, -EINVAL,
					    "plan: \"capture_buffer\" is %s; expected %u..%u bytes",
					    json_object_get_string(v), BC_PLAN_CAPTURE_BUFFER_MIN,
					    BC_PLAN_CAPTURE_BUFFER_MAX);
		p->capture_buffer = (uint32_t)b;
	}
	/* optional: false = no collector snapshots for metadata.bond */
	p->no_bond_meta = json_object_object_get_ex(o, "bond_meta", &v) &&
			  json_object_is_type(v, json_type_boolean) && !json_object_get_boolean(v);
	/* optional: TCP streams alongside a UDP plan; absent = none */
	if (json_object_object_get_ex(o, "tcp_streams", &v)) {
		int64_t k = json_object_get_int64(v);

		if (!json_object_is_type(v, json_type_int) || k < 0 ||
		    k > BC_PLAN_MAX_TCP_ALONGSIDE)
			return bc_error_set(err, -EINVAL,
					    "plan: \"tcp_streams\" is %s; expected 0..%d",
					    json_object_to_json_string(v), BC_PLAN_MAX_TCP_ALONGSIDE);
		p->tcp_streams = (uint32_t)k;
		if (json_object_object_get_ex(o, "tcp_rate_bps", &v)) {
			if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
				return bc_error_set(err, -EINVAL,
						    "plan: \"tcp_rate_bps\" is %s; expected bits/s, "
						    "0 for unpaced",
						    json_object_to_json_string(v));
			p->tcp_rate_bps = json_object_get_uint64(v);
		}
	}
	if (!json_object_object_get_ex(o, "protocol", &v) || !(s = json_object_get_string(v)) ||
	    (strcmp(s, "tcp") && strcmp(s, "udp")))
		return bc_error_set(err, -EINVAL, "plan: \"protocol\" must be \"tcp\" or \"udp\"");
	p->proto = strcmp(s, "udp") ? BC_L4_TCP : BC_L4_UDP;
	if (!json_object_object_get_ex(o, "direction", &v) || !(s = json_object_get_string(v)))
		return bc_error_set(err, -EINVAL, "plan: \"direction\" is missing");
	if (!strcmp(s, "forward"))
		p->dir = BC_DIR_FORWARD;
	else if (!strcmp(s, "reverse"))
		p->dir = BC_DIR_REVERSE;
	else if (!strcmp(s, "bidir"))
		p->dir = BC_DIR_BIDIR;
	else
		return bc_error_set(
			err, -EINVAL,
			"plan: \"direction\" is \"%s\"; expected forward, reverse or bidir", s);
	return bc_plan_check(p, lim, err);
}
