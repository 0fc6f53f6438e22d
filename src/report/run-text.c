// SPDX-License-Identifier: GPL-2.0-or-later
/* Text report of a run; see bondcheck/run-report.h. */
#include <string.h>

#include "bondcheck/ceiling.h"
#include "bondcheck/json-get.h"
#include "bondcheck/run-report.h"
#include "bondcheck/units.h"
#include "bondcheck/wrap.h"

static const char *arrow(struct json_object *s)
{
	return !strcmp(bc_json_str(s, "direction"), "agent-to-client") ? "<-" : "->";
}

void bc_run_report_interval(FILE *out, struct json_object *ivl)
{
	struct json_object *streams = json_object_object_get(ivl, "streams");
	size_t n = streams ? json_object_array_length(streams) : 0;
	char r[32];

	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(streams, i);

		fprintf(out, "[%5.1f-%5.1f s] #%-3lld %s %14s", bc_json_dbl(ivl, "start_s", 0),
			bc_json_dbl(ivl, "end_s", 0), bc_json_i64(s, "id", 0), arrow(s),
			bc_format_rate(bc_json_dbl(s, "goodput_bps", 0), r, sizeof(r)));
		if (json_object_object_get(s, "sent_packets"))
			fprintf(out, "  sent %lld  recv %lld  lost %lld  ooo %lld\n",
				bc_json_i64(s, "sent_packets", 0),
				bc_json_i64(s, "received_packets", 0),
				bc_json_i64(s, "lost_packets", 0),
				bc_json_i64(s, "out_of_order_packets", 0));
		else
			fprintf(out, "  retr %lld  rtt %lld us  cwnd %lld\n",
				bc_json_i64(s, "retransmits", 0), bc_json_i64(s, "rtt_us", 0),
				bc_json_i64(s, "snd_cwnd", 0));
	}
	if (n > 1)
		fprintf(out, "[%5.1f-%5.1f s] sum     %14s\n", bc_json_dbl(ivl, "start_s", 0),
			bc_json_dbl(ivl, "end_s", 0),
			bc_format_rate(bc_json_dbl(ivl, "sum_goodput_bps", 0), r, sizeof(r)));
}

static void stream_line(FILE *out, struct json_object *s)
{
	char r[32];
	struct json_object *reo = json_object_object_get(s, "reordering");
	struct json_object *owd = json_object_object_get(s, "one_way_delay");

	fprintf(out, "#%-3lld %s %s %5lld->%-5lld %14s", bc_json_i64(s, "id", 0),
		bc_json_str(s, "protocol"), arrow(s), bc_json_i64(s, "client_port", 0),
		bc_json_i64(s, "agent_port", 0),
		bc_format_rate(bc_json_dbl(s, "goodput_bps", 0), r, sizeof(r)));
	if (!strcmp(bc_json_str(s, "protocol"), "udp")) {
		fprintf(out,
			"  sent %lld  received %lld  lost %lld  dup %lld  ooo %lld  jitter %.3f ms",
			bc_json_i64(s, "sent_packets", 0), bc_json_i64(s, "received_packets", 0),
			bc_json_i64(s, "lost_packets", 0), bc_json_i64(s, "duplicate_packets", 0),
			bc_json_i64(s, "out_of_order_packets", 0), bc_json_dbl(s, "jitter_ms", 0));
		if (owd && json_object_object_get(owd, "min_ms"))
			fprintf(out, "  one-way %.3f..%.3f ms", bc_json_dbl(owd, "min_ms", 0),
				bc_json_dbl(owd, "max_ms", 0));
		else if (owd)
			fprintf(out, "  one-way variation %.3f ms (separate clocks)",
				bc_json_dbl(owd, "variation_ms", 0));
		if (reo && bc_json_i64(s, "out_of_order_packets", 0))
			fprintf(out, "  extent max %lld p99 %lld",
				bc_json_i64(reo, "extent_max", 0),
				bc_json_i64(reo, "extent_p99", 0));
		if (bc_json_i64(s, "send_errors", 0))
			fprintf(out, "  send errors %lld (ENOBUFS %lld)",
				bc_json_i64(s, "send_errors", 0), bc_json_i64(s, "enobufs", 0));
		if (strcmp(bc_json_str(s, "limited_by"), "none") && bc_json_str(s, "limited_by")[0])
			fprintf(out, "\n     offered rate not reached: %s (sent at %s)",
				bc_json_str(s, "limited_by"),
				bc_format_rate(bc_json_dbl(s, "send_rate_bps", 0), r, sizeof(r)));
	} else {
		fprintf(out, "  retransmits %lld", bc_json_i64(s, "retransmits", 0));
	}
	fputc('\n', out);
}

void bc_run_report_text(FILE *out, struct json_object *res)
{
	struct json_object *streams = json_object_object_get(res, "streams");
	struct json_object *sum = json_object_object_get(res, "sum");
	struct json_object *notes = json_object_object_get(res, "notes");
	struct json_object *findings = json_object_object_get(res, "findings");
	struct json_object *link = json_object_object_get(res, "link");
	char a[32], b[32];

	fputc('\n', out);
	bc_run_report_answers(out, res);
	fprintf(out,
		"\nResults (Tmax %lld ms; goodput from the end of --omit to the last arrival)\n",
		bc_json_i64(res, "tmax_ms", 0));
	for (size_t i = 0; streams && i < json_object_array_length(streams); i++)
		stream_line(out, json_object_array_get_idx(streams, i));
	if (sum) {
		json_object_object_foreach(sum, dir, d)
		{
			fprintf(out, "sum %-16s %14s", dir,
				bc_format_rate(bc_json_dbl(d, "goodput_bps", 0), a, sizeof(a)));
			if (bc_json_dbl(d, "ceiling_bps", 0) > 0)
				fprintf(out, "  ceiling %s  efficiency %.1f %%",
					bc_format_rate(bc_json_dbl(d, "ceiling_bps", 0), b,
						       sizeof(b)),
					100.0 * bc_json_dbl(d, "efficiency", 0));
			if (bc_json_dbl(d, "ceiling_bps", 0) > 0 &&
			    bc_json_dbl(d, "efficiency", 0) > 1 + BC_EFFICIENCY_TOLERANCE)
				fprintf(out,
					" (DEFECT: over the ceiling beyond the %.0f %% tolerance: "
					"the ceiling is wrong)",
					100.0 * BC_EFFICIENCY_TOLERANCE);
			else if (bc_json_dbl(d, "ceiling_bps", 0) <= 0)
				fprintf(out, "  ceiling unknown (give --link-rate)");
			fputc('\n', out);
		}
	}
	/* a link without a rate (rate_source "none", as lo) says so: no "0 bit/s" */
	if (link && bc_json_str(link, "rate_source")[0] &&
	    (!strcmp(bc_json_str(link, "rate_source"), "none") ||
	     bc_json_dbl(link, "rate_bps", 0) <= 0))
		fprintf(out,
			"link %s: rate unknown (no qdisc, speed or --link-rate gives one), %s "
			"accounting, MTU %lld\n",
			bc_json_str(link, "interface"), bc_json_str(link, "accounting"),
			bc_json_i64(link, "mtu", 0));
	else if (link && bc_json_str(link, "rate_source")[0])
		fprintf(out, "link %s: %s from %s, %s accounting, MTU %lld\n",
			bc_json_str(link, "interface"),
			bc_format_rate(bc_json_dbl(link, "rate_bps", 0), a, sizeof(a)),
			bc_json_str(link, "rate_source"), bc_json_str(link, "accounting"),
			bc_json_i64(link, "mtu", 0));
	if (json_object_object_get(res, "capture"))
		bc_run_report_capture(out, json_object_object_get(res, "capture"));
	if (bc_json_len(findings))
		fprintf(out, "\nFindings\n");
	for (size_t i = 0; i < bc_json_len(findings); i++) {
		struct json_object *f = json_object_array_get_idx(findings, i);
		struct json_object *ev = json_object_object_get(f, "evidence");

		bc_wrapf(out, 29, "  %-7s %-18s %s: %s", bc_json_str(f, "severity"),
			 bc_json_str(f, "id"), bc_json_str(f, "subject"), bc_json_str(f, "advice"));
		if (json_object_is_type(ev, json_type_object)) {
			json_object_object_foreach(ev, k, v)
				bc_wrapf(out, 12, "          %s: %s", k,
					 v ? json_object_get_string(v) : "null");
		}
	}
	for (size_t i = 0; notes && i < json_object_array_length(notes); i++)
		bc_wrapf(out, 6, "note: %s",
			 json_object_get_string(json_object_array_get_idx(notes, i)));
}
