// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text of a run's capture section (result member "capture", docs/run.md):
 * pcap_stats per interface on both ends, per-link attribution, paths,
 * reordering pairs and the loss ledger.  Pure: JSON in, text out.
 */
#include <string.h>

#include "bondcheck/json-get.h"
#include "bondcheck/run-report.h"
#include "bondcheck/units.h"
#include "bondcheck/wrap.h"

/* The source line, the taps' rows and, with both sources, their difference per link. */
static void taps(FILE *out, struct json_object *cap)
{
	static const char *const hosts[] = {"client", "agent"};
	struct json_object *d = json_object_object_get(cap, "tap_vs_pcap");

	if (!json_object_object_get(cap, "source"))
		return;
	fprintf(out, "  source: %s (%s)\n", bc_json_str(cap, "source"),
		bc_json_str(cap, "source_reason"));
	for (int h = 0; h < 2; h++) {
		struct json_object *t = json_object_object_get(json_object_object_get(cap, hosts[h]),
							       "taps");
		struct json_object *ifs = json_object_object_get(t, "interfaces");
		struct json_object *c = json_object_object_get(t, "counters");

		for (size_t i = 0; i < bc_json_len(ifs); i++) {
			struct json_object *x = json_object_array_get_idx(ifs, i);

			fprintf(out, "  %-7s %-16s taps (%s): %lld records (%lld egress, %lld ingress), %lld bytes; ring_drop %lld\n",
				hosts[h], bc_json_str(x, "name"), bc_json_str(t, "attach"),
				bc_json_i64(x, "records", 0), bc_json_i64(x, "egress", 0),
				bc_json_i64(x, "ingress", 0), bc_json_i64(x, "bytes", 0),
				bc_json_i64(c, "ring_drop", 0) + bc_json_i64(c, "kept_over", 0));
		}
	}
	for (size_t i = 0; i < bc_json_len(d); i++) {
		struct json_object *x = json_object_array_get_idx(d, i);

		fprintf(out, "  %-26s taps %lld, pcap %lld frames: %lld differ", bc_json_str(x, "link"),
			bc_json_i64(x, "tap_frames", 0), bc_json_i64(x, "pcap_frames", 0),
			bc_json_i64(x, "differ_frames", 0));
		if (json_object_object_get(x, "qdisc_drops"))
			fprintf(out, " (qdisc drops %lld)", bc_json_i64(x, "qdisc_drops", 0));
		fprintf(out, "\n");
	}
}

static void ends(FILE *out, struct json_object *cap)
{
	static const char *const hosts[] = {"client", "agent"};

	taps(out, cap);

	fprintf(out, "  %-7s %-16s %10s %14s %10s %8s %9s\n", "host", "interface", "frames",
		"bytes", "ps_recv", "ps_drop", "ps_ifdrop");
	for (int h = 0; h < 2; h++) {
		struct json_object *c = json_object_object_get(cap, hosts[h]);
		struct json_object *ifs = json_object_object_get(c, "interfaces");

		if (!c) {
			fprintf(out, "  %-7s (no capture)\n", hosts[h]);
			continue;
		}
		for (size_t i = 0; i < bc_json_len(ifs); i++) {
			struct json_object *x = json_object_array_get_idx(ifs, i);
			struct json_object *ps = json_object_object_get(x, "pcap_stats");

			fprintf(out, "  %-7s %-16s %10lld %14lld %10lld %8lld %9lld%s%s\n",
				hosts[h], bc_json_str(x, "name"), bc_json_i64(x, "frames", 0), bc_json_i64(x, "bytes", 0),
				bc_json_i64(ps, "ps_recv", 0), bc_json_i64(ps, "ps_drop", 0), bc_json_i64(ps, "ps_ifdrop", 0),
				bc_json_str(x, "error")[0] ? "  " : "", bc_json_str(x, "error"));
		}
	}
}

static void links(FILE *out, struct json_object *an)
{
	struct json_object *ls = json_object_object_get(an, "links");
	struct json_object *ps = json_object_object_get(an, "paths");

	fprintf(out, "  %-26s %10s %14s %10s %10s %8s  %s\n", "link", "frames", "bytes", "left",
		"arrived", "lost", "peer");
	for (size_t i = 0; i < bc_json_len(ls); i++) {
		struct json_object *l = json_object_array_get_idx(ls, i);

		fprintf(out, "  %-26s %10lld %14lld %10lld %10lld %8lld  %s\n", bc_json_str(l, "name"),
			bc_json_i64(l, "frames", 0), bc_json_i64(l, "bytes", 0), bc_json_i64(l, "units_left", 0),
			bc_json_i64(l, "units_arrived", 0), bc_json_i64(l, "lost", 0),
			bc_json_str(l, "peer")[0] ? bc_json_str(l, "peer") : "-");
	}
	for (size_t i = 0; i < bc_json_len(ls); i++) {
		struct json_object *l = json_object_array_get_idx(ls, i);
		struct json_object *b = json_object_object_get(l, "bounds");

		if (!json_object_get_boolean(json_object_object_get(l, "complete")) && b)
			bc_wrapf(out, 4, "  %s: capture incomplete: counts a %s bound%s%s%s",
				 bc_json_str(l, "name"), bc_json_str(b, "counts"),
				 bc_json_str(b, "lost")[0] ? "; its loss " : "",
				 bc_json_str(b, "lost")[0] ? bc_json_str(b, "lost") : "",
				 !bc_json_str(b, "lost")[0]		      ? ""
				 : !strcmp(bc_json_str(b, "lost"), "unknown") ? ""
									      : " bound");
	}
	for (size_t i = 0; i < bc_json_len(ps); i++) {
		struct json_object *p = json_object_array_get_idx(ps, i);

		fprintf(out, "  path %s -> %s: %lld packets", bc_json_str(p, "left_on"),
			bc_json_str(p, "arrived_on"), bc_json_i64(p, "packets", 0));
		if (bc_json_i64(p, "tcp_chunks", 0))
			fprintf(out, " (TCP chunks %lld)", bc_json_i64(p, "tcp_chunks", 0));
		fprintf(out, "\n");
	}
}

/* TCP flows and per-link TCP chunks (analyze's tcp_flows[], links[].tcp). */
static void tcp(FILE *out, struct json_object *an)
{
	struct json_object *fs = json_object_object_get(an, "tcp_flows");
	struct json_object *ls = json_object_object_get(an, "links");

	if (!bc_json_len(fs))
		return;
	fprintf(out, "  TCP flows (chunks: per-MSS pieces of segments, mapped by byte range)\n");
	for (size_t i = 0; i < bc_json_len(fs); i++) {
		struct json_object *f = json_object_array_get_idx(fs, i), *v;

		fprintf(out,
			"    %s:%lld -> %s:%lld %s, MSS %lld: left %lld chunks (%lld retransmitted, "
			"%lld spurious), arrived %lld, lost %lld, reordered %lld of %lld (ratio "
			"%.4f, 3-reordered %lld)\n",
			bc_json_str(f, "src"), bc_json_i64(f, "sport", 0), bc_json_str(f, "dst"),
			bc_json_i64(f, "dport", 0), bc_json_str(f, "direction"),
			bc_json_i64(f, "mss", 0), bc_json_i64(f, "chunks_left", 0),
			bc_json_i64(f, "retransmits", 0), bc_json_i64(f, "spurious_retransmits", 0),
			bc_json_i64(f, "chunks_arrived", 0), bc_json_i64(f, "lost", 0),
			bc_json_i64(f, "reordered", 0), bc_json_i64(f, "received", 0),
			json_object_object_get_ex(f, "reordered_ratio", &v) ? json_object_get_double(v)
									    : 0,
			bc_json_i64(f, "n3_reordered", 0));
	}
	for (size_t i = 0; i < bc_json_len(ls); i++) {
		struct json_object *l = json_object_array_get_idx(ls, i);
		struct json_object *t = json_object_object_get(l, "tcp");

		if (!bc_json_i64(t, "chunks_left", 0) && !bc_json_i64(t, "chunks_arrived", 0))
			continue;
		fprintf(out,
			"    %-26s TCP chunks left %lld, arrived %lld, lost %lld, retransmits %lld "
			"(spurious %lld)\n",
			bc_json_str(l, "name"), bc_json_i64(t, "chunks_left", 0),
			bc_json_i64(t, "chunks_arrived", 0), bc_json_i64(t, "lost", 0),
			bc_json_i64(t, "retransmits", 0), bc_json_i64(t, "spurious_retransmits", 0));
	}
}

static void reordering(FILE *out, struct json_object *an)
{
	struct json_object *r = json_object_object_get(an, "reordering");
	struct json_object *pairs = json_object_object_get(r, "pairs");
	struct json_object *v;
	double ratio =
		json_object_object_get_ex(r, "reordered_ratio", &v) ? json_object_get_double(v) : 0;

	fprintf(out, "  reordering (%s): %lld of %lld packets late, ratio %.4f (TCP chunks %lld of %lld)\n",
		bc_json_str(r, "observation_point"), bc_json_i64(r, "reordered", 0), bc_json_i64(r, "received", 0), ratio,
		bc_json_i64(json_object_object_get(r, "tcp"), "reordered", 0),
		bc_json_i64(json_object_object_get(r, "tcp"), "received", 0));
	if (!strcmp(bc_json_str(r, "bound"), "unknown"))
		bc_wrapf(out, 6,
			 "    unknown: a receiver capture is incomplete, the order it saw is not "
			 "the order that arrived");
	for (size_t i = 0; i < bc_json_len(pairs); i++) {
		struct json_object *p = json_object_array_get_idx(pairs, i);
		struct json_object *rd = json_object_object_get(p, "reorder_density");
		const char *sep = "";
		char line[1024];
		size_t n = 0;

		/* a link with itself is no pair of links: the order changed on that link */
		if (!strcmp(bc_json_str(p, "late_link"), bc_json_str(p, "early_link")))
			n = (size_t)snprintf(
				line, sizeof(line),
				"    out of order within %s (behind a later packet on the same "
				"link: the sender's order, a retransmission or the link's own "
				"queues): %lld (extent max %lld, TCP %lld; RFC 5236 D ",
				bc_json_str(p, "late_link"), bc_json_i64(p, "count", 0),
				bc_json_i64(p, "extent_max", 0), bc_json_i64(p, "tcp_count", 0));
		else
			n = (size_t)snprintf(
				line, sizeof(line),
				"    late on %s behind %s: %lld (extent max %lld, TCP %lld; RFC "
				"5236 D ",
				bc_json_str(p, "late_link"), bc_json_str(p, "early_link"),
				bc_json_i64(p, "count", 0), bc_json_i64(p, "extent_max", 0),
				bc_json_i64(p, "tcp_count", 0));
		if (rd && json_object_is_type(rd, json_type_object)) {
			json_object_object_foreach(rd, k, bin) {
				if (n < sizeof(line))
					n += (size_t)snprintf(
						line + n, sizeof(line) - n, "%s%s: %lld", sep, k,
						(long long)json_object_get_int64(bin));
				sep = ", ";
			}
		}
		if (bc_json_i64(p, "reorder_density_discarded", 0) && n < sizeof(line))
			snprintf(line + n, sizeof(line) - n, "%sbeyond: %lld", sep,
				 bc_json_i64(p, "reorder_density_discarded", 0));
		bc_wrapf(out, 6, "%s)", line);
	}
}

static void ledger(FILE *out, struct json_object *an)
{
	struct json_object *lg = json_object_object_get(an, "ledger");

	fprintf(out, "  loss ledger (UDP%s%s):\n", bc_json_str(an, "ledger_direction")[0] ? ", " : "",
		bc_json_str(an, "ledger_direction"));
	fprintf(out, "    %-16s %10s %8s %9s  %s\n", "stage", "count", "drop", "explained",
		"counter that moved / source");
	for (size_t i = 0; i < bc_json_len(lg); i++) {
		struct json_object *s = json_object_array_get_idx(lg, i), *c;
		char count[24];

		if (json_object_object_get_ex(s, "count", &c) && c)
			snprintf(count, sizeof(count), "%lld", (long long)json_object_get_int64(c));
		else
			snprintf(count, sizeof(count), "-");
		fprintf(out, "    %-16s %10s %8lld %9lld  %s\n", bc_json_str(s, "stage"), count,
			bc_json_i64(s, "drop", 0), bc_json_i64(s, "explained", 0),
			bc_json_str(s, "counter")[0] ? bc_json_str(s, "counter") : bc_json_str(s, "source"));
	}
	if (json_object_object_get(an, "softnet_shared_kernel") &&
	    json_object_get_boolean(json_object_object_get(an, "softnet_shared_kernel")))
		bc_wrapf(out, 6,
			 "    softnet_stat is global per CPU and both ends share one kernel: "
			 "its drops cannot be split between them");
}

void bc_run_report_capture(FILE *out, struct json_object *cap)
{
	struct json_object *an = json_object_object_get(cap, "analysis");

	struct json_object *errs = json_object_object_get(cap, "errors");

	fprintf(out, "\nCapture (every slave, both ends)\n");
	for (size_t i = 0; i < bc_json_len(errs); i++)
		fprintf(out, "  ERROR: %s\n",
			json_object_get_string(json_object_array_get_idx(errs, i)));
	ends(out, cap);
	if (bc_json_str(cap, "folder")[0])
		fprintf(out, "  pcap files kept in %s\n", bc_json_str(cap, "folder"));
	if (!an)
		return;
	links(out, an);
	tcp(out, an);
	reordering(out, an);
	ledger(out, an);
}
