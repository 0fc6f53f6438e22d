// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text of a run's capture section (result member "capture", docs/run.md):
 * pcap_stats per interface on both ends, per-link attribution, paths,
 * reordering pairs and the loss ledger.  Pure: JSON in, text out.
 */
#include <string.h>

#include "bondcheck/run-report.h"
#include "bondcheck/units.h"

static long long i64(struct json_object *o, const char *k)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? (long long)json_object_get_int64(v) : 0;
}

static const char *str(struct json_object *o, const char *k)
{
	struct json_object *v;
	const char *s;

	s = o && json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : NULL;
	return s ? s : "";
}

static size_t len(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

static void ends(FILE *out, struct json_object *cap)
{
	static const char *const hosts[] = {"client", "agent"};

	fprintf(out, "  %-7s %-16s %10s %14s %10s %8s %9s\n", "host", "interface", "frames",
		"bytes", "ps_recv", "ps_drop", "ps_ifdrop");
	for (int h = 0; h < 2; h++) {
		struct json_object *c = json_object_object_get(cap, hosts[h]);
		struct json_object *ifs = json_object_object_get(c, "interfaces");

		if (!c) {
			fprintf(out, "  %-7s (no capture)\n", hosts[h]);
			continue;
		}
		for (size_t i = 0; i < len(ifs); i++) {
			struct json_object *x = json_object_array_get_idx(ifs, i);
			struct json_object *ps = json_object_object_get(x, "pcap_stats");

			fprintf(out, "  %-7s %-16s %10lld %14lld %10lld %8lld %9lld%s%s\n",
				hosts[h], str(x, "name"), i64(x, "frames"), i64(x, "bytes"),
				i64(ps, "ps_recv"), i64(ps, "ps_drop"), i64(ps, "ps_ifdrop"),
				str(x, "error")[0] ? "  " : "", str(x, "error"));
		}
	}
}

static void links(FILE *out, struct json_object *an)
{
	struct json_object *ls = json_object_object_get(an, "links");
	struct json_object *ps = json_object_object_get(an, "paths");

	fprintf(out, "  %-26s %10s %14s %10s %10s %8s  %s\n", "link", "frames", "bytes", "left",
		"arrived", "lost", "peer");
	for (size_t i = 0; i < len(ls); i++) {
		struct json_object *l = json_object_array_get_idx(ls, i);

		fprintf(out, "  %-26s %10lld %14lld %10lld %10lld %8lld  %s\n", str(l, "name"),
			i64(l, "frames"), i64(l, "bytes"), i64(l, "units_left"),
			i64(l, "units_arrived"), i64(l, "lost"),
			str(l, "peer")[0] ? str(l, "peer") : "-");
	}
	for (size_t i = 0; i < len(ps); i++) {
		struct json_object *p = json_object_array_get_idx(ps, i);

		fprintf(out, "  path %s -> %s: %lld packets\n", str(p, "left_on"),
			str(p, "arrived_on"), i64(p, "packets"));
	}
}

static void reordering(FILE *out, struct json_object *an)
{
	struct json_object *r = json_object_object_get(an, "reordering");
	struct json_object *pairs = json_object_object_get(r, "pairs");
	struct json_object *v;
	double ratio =
		json_object_object_get_ex(r, "reordered_ratio", &v) ? json_object_get_double(v) : 0;

	fprintf(out, "  reordering (%s): %lld of %lld datagrams late, ratio %.4f\n",
		str(r, "observation_point"), i64(r, "reordered"), i64(r, "received"), ratio);
	for (size_t i = 0; i < len(pairs); i++) {
		struct json_object *p = json_object_array_get_idx(pairs, i);

		fprintf(out, "    late on %s behind %s: %lld (extent max %lld)\n",
			str(p, "late_link"), str(p, "early_link"), i64(p, "count"),
			i64(p, "extent_max"));
	}
}

static void ledger(FILE *out, struct json_object *an)
{
	struct json_object *lg = json_object_object_get(an, "ledger");

	fprintf(out, "  loss ledger (UDP%s%s):\n", str(an, "ledger_direction")[0] ? ", " : "",
		str(an, "ledger_direction"));
	fprintf(out, "    %-16s %10s %8s %9s  %s\n", "stage", "count", "drop", "explained",
		"counter that moved / source");
	for (size_t i = 0; i < len(lg); i++) {
		struct json_object *s = json_object_array_get_idx(lg, i), *c;
		char count[24];

		if (json_object_object_get_ex(s, "count", &c) && c)
			snprintf(count, sizeof(count), "%lld", (long long)json_object_get_int64(c));
		else
			snprintf(count, sizeof(count), "-");
		fprintf(out, "    %-16s %10s %8lld %9lld  %s\n", str(s, "stage"), count,
			i64(s, "drop"), i64(s, "explained"),
			str(s, "counter")[0] ? str(s, "counter") : str(s, "source"));
	}
	if (json_object_object_get(an, "softnet_shared_kernel") &&
	    json_object_get_boolean(json_object_object_get(an, "softnet_shared_kernel")))
		fprintf(out, "    softnet_stat is global per CPU and both ends share one kernel: "
			     "its drops cannot be split between them\n");
}

void bc_run_report_capture(FILE *out, struct json_object *cap)
{
	struct json_object *an = json_object_object_get(cap, "analysis");

	fprintf(out, "\nCapture (every slave, both ends)\n");
	ends(out, cap);
	if (str(cap, "folder")[0])
		fprintf(out, "  pcap files kept in %s\n", str(cap, "folder"));
	if (!an)
		return;
	links(out, an);
	reordering(out, an);
	ledger(out, an);
}
