// SPDX-License-Identifier: GPL-2.0-or-later
/* Text report of a run; see bondcheck/run-report.h. */
#include <string.h>

#include "bondcheck/run-report.h"
#include "bondcheck/units.h"

static double dbl(struct json_object *o, const char *k)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? json_object_get_double(v) : 0;
}

static long long i64(struct json_object *o, const char *k)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? (long long)json_object_get_int64(v) : 0;
}

static const char *str(struct json_object *o, const char *k)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : "";
}

static const char *arrow(struct json_object *s)
{
	return !strcmp(str(s, "direction"), "agent-to-client") ? "<-" : "->";
}

void bc_run_report_interval(FILE *out, struct json_object *ivl)
{
	struct json_object *streams = json_object_object_get(ivl, "streams");
	size_t n = streams ? json_object_array_length(streams) : 0;
	char r[32];

	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(streams, i);

		fprintf(out, "[%5.1f-%5.1f s] #%-3lld %s %14s", dbl(ivl, "start_s"),
			dbl(ivl, "end_s"), i64(s, "id"), arrow(s),
			bc_format_rate(dbl(s, "goodput_bps"), r, sizeof(r)));
		if (json_object_object_get(s, "sent_packets"))
			fprintf(out, "  sent %lld  recv %lld  lost %lld  ooo %lld\n",
				i64(s, "sent_packets"), i64(s, "received_packets"),
				i64(s, "lost_packets"), i64(s, "out_of_order_packets"));
		else
			fprintf(out, "  retr %lld  rtt %lld us  cwnd %lld\n", i64(s, "retransmits"),
				i64(s, "rtt_us"), i64(s, "snd_cwnd"));
	}
	if (n > 1)
		fprintf(out, "[%5.1f-%5.1f s] sum     %14s\n", dbl(ivl, "start_s"),
			dbl(ivl, "end_s"),
			bc_format_rate(dbl(ivl, "sum_goodput_bps"), r, sizeof(r)));
}

static void stream_line(FILE *out, struct json_object *s)
{
	char r[32];
	struct json_object *reo = json_object_object_get(s, "reordering");

	fprintf(out, "#%-3lld %s %s %5lld->%-5lld %14s", i64(s, "id"), str(s, "protocol"), arrow(s),
		i64(s, "client_port"), i64(s, "agent_port"),
		bc_format_rate(dbl(s, "goodput_bps"), r, sizeof(r)));
	if (!strcmp(str(s, "protocol"), "udp")) {
		fprintf(out,
			"  sent %lld  received %lld  lost %lld  dup %lld  ooo %lld  jitter %.3f ms",
			i64(s, "sent_packets"), i64(s, "received_packets"), i64(s, "lost_packets"),
			i64(s, "duplicate_packets"), i64(s, "out_of_order_packets"),
			dbl(s, "jitter_ms"));
		if (reo && i64(s, "out_of_order_packets"))
			fprintf(out, "  extent max %lld p99 %lld", i64(reo, "extent_max"),
				i64(reo, "extent_p99"));
		if (i64(s, "send_errors"))
			fprintf(out, "  send errors %lld (ENOBUFS %lld)", i64(s, "send_errors"),
				i64(s, "enobufs"));
		if (strcmp(str(s, "limited_by"), "none") && str(s, "limited_by")[0])
			fprintf(out, "\n     offered rate not reached: %s (sent at %s)",
				str(s, "limited_by"),
				bc_format_rate(dbl(s, "send_rate_bps"), r, sizeof(r)));
	} else {
		fprintf(out, "  retransmits %lld", i64(s, "retransmits"));
	}
	fputc('\n', out);
}

void bc_run_report_text(FILE *out, struct json_object *res)
{
	struct json_object *streams = json_object_object_get(res, "streams");
	struct json_object *sum = json_object_object_get(res, "sum");
	struct json_object *notes = json_object_object_get(res, "notes");
	struct json_object *link = json_object_object_get(res, "link");
	char a[32], b[32];

	fprintf(out,
		"\nResults (Tmax %lld ms; goodput from the end of --omit to the last arrival)\n",
		i64(res, "tmax_ms"));
	for (size_t i = 0; streams && i < json_object_array_length(streams); i++)
		stream_line(out, json_object_array_get_idx(streams, i));
	if (sum) {
		json_object_object_foreach(sum, dir, d)
		{
			fprintf(out, "sum %-16s %14s", dir,
				bc_format_rate(dbl(d, "goodput_bps"), a, sizeof(a)));
			if (dbl(d, "ceiling_bps") > 0)
				fprintf(out, "  ceiling %s  efficiency %.1f %%",
					bc_format_rate(dbl(d, "ceiling_bps"), b, sizeof(b)),
					100.0 * dbl(d, "efficiency"));
			else
				fprintf(out, "  ceiling unknown (give --link-rate)");
			fputc('\n', out);
		}
	}
	if (link && str(link, "rate_source")[0])
		fprintf(out, "link %s: %s from %s, %s accounting, MTU %lld\n",
			str(link, "interface"), bc_format_rate(dbl(link, "rate_bps"), a, sizeof(a)),
			str(link, "rate_source"), str(link, "accounting"), i64(link, "mtu"));
	if (json_object_object_get(res, "capture"))
		bc_run_report_capture(out, json_object_object_get(res, "capture"));
	for (size_t i = 0; notes && i < json_object_array_length(notes); i++)
		fprintf(out, "note: %s\n",
			json_object_get_string(json_object_array_get_idx(notes, i)));
}
