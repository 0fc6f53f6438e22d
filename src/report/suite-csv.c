// SPDX-License-Identifier: GPL-2.0-or-later
/* CSV table of the run suite; columns in bondcheck/suite-report.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/csv.h"
#include "bondcheck/json-get.h"
#include "bondcheck/suite-report.h"

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v;

	return o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, k, &v)
		       ? v
		       : NULL;
}

/* A text field (RFC 4180, bc_csv_text()). */
static void text(FILE *out, const char *s)
{
	bc_csv_text(out, s);
}

/* ",VALUE" or "," when absent: integers for rates and counts, 4 decimals for fractions. */
static void num(FILE *out, struct json_object *o, const char *k, int decimals)
{
	fputc(',', out);
	if (!get(o, k))
		return;
	if (decimals)
		fprintf(out, "%.*f", decimals, json_object_get_double(get(o, k)));
	else
		fprintf(out, "%.0f", json_object_get_double(get(o, k)));
}

static void dbl(FILE *out, double v, bool have, int decimals)
{
	fputc(',', out);
	if (have)
		fprintf(out, "%.*f", decimals, v);
}

static void bool_field(FILE *out, bool v)
{
	fputs(v ? ",true" : ",false", out);
}

static bool cpu_bound(struct json_object *res)
{
	struct json_object *e = get(res, "ends"), *s = get(res, "streams");

	if (json_object_get_boolean(get(get(get(e, "client"), "counters"), "cpu_bound")) ||
	    json_object_get_boolean(get(get(get(e, "agent"), "counters"), "cpu_bound")))
		return true;
	for (size_t i = 0; i < bc_json_len(s); i++)
		if (!strcmp(bc_json_str(json_object_array_get_idx(s, i), "limited_by"), "cpu"))
			return true;
	return false;
}

/* The whole-bond row of one test. */
static void bond_row(FILE *out, struct json_object *doc, struct json_object *t)
{
	struct json_object *r = get(t, "result"), *st = get(r, "streams");
	struct json_object *bond = get(get(doc, "ceilings"), "bond");
	bool udp = !strcmp(bc_json_str(get(r, "test"), "protocol"), "udp");
	long long sent = 0, rcv = 0, retr = 0;
	double offered = 0;

	for (size_t i = 0; i < bc_json_len(st); i++) {
		struct json_object *s = json_object_array_get_idx(st, i);

		sent += bc_json_i64(s, "sent_packets", 0);
		rcv += bc_json_i64(s, "received_packets", 0);
		retr += bc_json_i64(s, "retransmits", 0);
		offered += bc_json_dbl(s, "offered_bps", 0);
	}
	text(out, bc_json_str(t, "name"));
	fputc(',', out);
	text(out, bc_json_str(t, "role"));
	fputs(",client,", out);
	text(out, bc_json_str(get(get(doc, "egress"), "client"), "name"));
	fputs(",,", out); /* driver, speed: per slave only */
	num(out, bond, udp ? "udp_bps" : "tcp_bps", 0);
	dbl(out, offered, udp, 0);
	num(out, r, "goodput_bps", 0);
	fputs(",,", out); /* wire_bps, share */
	if (get(bond, udp ? "udp_bps" : "tcp_bps"))
		dbl(out,
		    bc_json_dbl(r, "goodput_bps", 0) /
			    bc_json_dbl(bond, udp ? "udp_bps" : "tcp_bps", 1),
		    true, 4);
	else
		fputc(',', out);
	if (udp)
		fprintf(out, ",%lld,%lld,", sent, rcv);
	else
		fprintf(out, ",,,%lld", retr);
	fputs(",,", out); /* drops, lost: per link */
	if (udp)
		fprintf(out, "%lld", sent - rcv);
	bool_field(out, cpu_bound(r));
	fputc('\n', out);
}

static void link_row(FILE *out, struct json_object *doc, struct json_object *l)
{
	struct json_object *t = NULL, *ts = get(doc, "tests");

	for (size_t i = 0; i < bc_json_len(ts); i++)
		if (!strcmp(bc_json_str(json_object_array_get_idx(ts, i), "name"),
			    bc_json_str(l, "test")))
			t = json_object_array_get_idx(ts, i);
	text(out, bc_json_str(l, "test"));
	fputc(',', out);
	text(out, bc_json_str(t, "role"));
	fputc(',', out);
	text(out, bc_json_str(l, "end"));
	fputc(',', out);
	text(out, bc_json_str(l, "name"));
	fputc(',', out);
	text(out, bc_json_str(l, "driver"));
	num(out, l, "speed_mbps", 0);
	num(out, l, "ceiling_bps", 0);
	fputc(',', out); /* offered: per test */
	num(out, l, "goodput_bps", 0);
	num(out, l, "wire_bps", 0);
	num(out, l, "share", 4);
	num(out, l, "efficiency", 4);
	fputs(",,", out); /* sent, received: per test */
	num(out, l, "retransmits", 0);
	num(out, l, "drops", 0);
	num(out, l, "lost", 0);
	bool_field(out, cpu_bound(get(t, "result")));
	fputc('\n', out);
}

int bc_suite_report_csv(FILE *out, struct json_object *doc)
{
	struct json_object *ts = get(doc, "tests"), *ls = get(doc, "links");

	fputs("test,role,end,link,driver,speed_mbps,ceiling_bps,offered_bps,goodput_bps,wire_bps,"
	      "share,efficiency,sent_packets,received_packets,retransmits,drops,lost,cpu_bound\n",
	      out);
	for (size_t i = 0; i < bc_json_len(ts); i++) {
		struct json_object *t = json_object_array_get_idx(ts, i);

		bond_row(out, doc, t);
		for (size_t k = 0; k < bc_json_len(ls); k++) {
			struct json_object *l = json_object_array_get_idx(ls, k);

			if (!strcmp(bc_json_str(l, "test"), bc_json_str(t, "name")))
				link_row(out, doc, l);
		}
	}
	return ferror(out) ? -EIO : 0;
}
