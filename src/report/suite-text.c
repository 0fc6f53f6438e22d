// SPDX-License-Identifier: GPL-2.0-or-later
/* Text report of the run suite; see bondcheck/suite-report.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/answer.h"
#include "bondcheck/json-get.h"
#include "bondcheck/suite-analyze.h"
#include "bondcheck/suite-report.h"
#include "bondcheck/units.h"
#include "bondcheck/wrap.h"
#include "bondcheck/verdict.h"

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v;

	return o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, k, &v)
		       ? v
		       : NULL;
}

/* "12.35 Mbit/s", or "-" for a missing or null member; rotating buffers. */
static const char *rate_of(struct json_object *o, const char *k)
{
	static char buf[8][32];
	static unsigned i;
	char *b = buf[i++ % 8];

	if (!get(o, k))
		return "-";
	return bc_format_rate(json_object_get_double(get(o, k)), b, 32);
}

static const char *rate(double bps)
{
	static char buf[8][32];
	static unsigned i;

	return bc_format_rate(bps, buf[i++ % 8], 32);
}

/* Integer member or "-". */
static const char *int_of(struct json_object *o, const char *k)
{
	static char buf[8][24];
	static unsigned i;
	char *b = buf[i++ % 8];

	if (!get(o, k))
		return "-";
	snprintf(b, 24, "%lld", (long long)json_object_get_int64(get(o, k)));
	return b;
}

/* Fraction member as "42 %" or "-". */
static const char *pct_of(struct json_object *o, const char *k)
{
	static char buf[8][16];
	static unsigned i;
	char *b = buf[i++ % 8];

	if (!get(o, k))
		return "-";
	snprintf(b, 16, "%.0f %%", 100 * json_object_get_double(get(o, k)));
	return b;
}

/* @text wrapped to the report's width: @first, then @cont (spaces) on the other lines. */
static void wrap(FILE *out, const char *first, const char *cont, const char *text)
{
	bc_wrap(out, bc_answer_width(out), first, strlen(cont), text);
}

static void bond_end(FILE *out, struct json_object *doc, const char *end)
{
	struct json_object *e = get(get(doc, "ends"), end), *b = NULL;
	struct json_object *c = get(get(doc, "ceilings"), end), *sl = get(c, "slaves");
	struct json_object *fc = get(e, "finding_counts");

	if (bc_json_len(get(e, "bonds")))
		b = json_object_array_get_idx(get(e, "bonds"), 0);
	fprintf(out, "  %-6s ", end);
	if (!b) {
		fprintf(out, "%s: %s\n",
			bc_json_str(e, "interface")[0] ? bc_json_str(e, "interface") : "?",
			bc_json_str(e, "reason")[0] ? bc_json_str(e, "reason")
						    : bc_json_str(e, "error"));
	} else {
		fprintf(out, "%s %s", bc_json_str(b, "name"), bc_json_str(b, "mode"));
		if (bc_json_str(b, "xmit_hash_policy")[0] &&
		    strcmp(bc_json_str(b, "mode"), "balance-rr") &&
		    strcmp(bc_json_str(b, "mode"), "active-backup") &&
		    strcmp(bc_json_str(b, "mode"), "broadcast"))
			fprintf(out, " %s", bc_json_str(b, "xmit_hash_policy"));
		fprintf(out, ", %zu slaves, miimon %s ms", bc_json_len(get(b, "slaves")),
			int_of(b, "miimon_ms"));
		if (bc_json_str(b, "active_slave")[0])
			fprintf(out, ", active %s", bc_json_str(b, "active_slave"));
		if (bc_json_str(e, "kernel_release")[0])
			fprintf(out, ", kernel %s", bc_json_str(e, "kernel_release"));
		fprintf(out, "; inspect findings: %lld error, %lld warning, %lld info\n",
			bc_json_i64(fc, "error", 0), bc_json_i64(fc, "warning", 0),
			bc_json_i64(fc, "info", 0));
	}
	if (!bc_json_len(sl))
		return;
	fprintf(out, "         %-10s %-11s %9s  %-22s %13s %13s %s\n", "slave", "driver", "speed",
		"rate (source)", "TCP ceiling", "UDP ceiling", "usable");
	for (size_t i = 0; i < bc_json_len(sl); i++) {
		struct json_object *s = json_object_array_get_idx(sl, i);
		char r[48], sp[16];

		snprintf(sp, sizeof(sp), "%s%s", int_of(s, "speed_mbps"),
			 get(s, "speed_mbps") ? " Mb/s" : "");
		if (get(s, "rate_bps"))
			snprintf(r, sizeof(r), "%s (%s)", rate_of(s, "rate_bps"),
				 bc_json_str(s, "rate_source"));
		else
			snprintf(r, sizeof(r), "unknown");
		fprintf(out, "         %-10s %-11s %9s  %-22s %13s %13s %s\n",
			bc_json_str(s, "name"),
			bc_json_str(s, "driver")[0] ? bc_json_str(s, "driver") : "-", sp, r,
			rate_of(s, "tcp_ceiling_bps"), rate_of(s, "udp_ceiling_bps"),
			json_object_get_boolean(get(s, "usable")) ? "yes" : "no");
	}
}

static void summary(FILE *out, struct json_object *doc)
{
	struct json_object *bc = get(get(doc, "ceilings"), "bond"), *pl = get(doc, "placement");
	char line[600];

	fprintf(out, "\nBond summary (the client sends; ceilings from tbf, --link-rate or the "
		     "negotiated speed)\n");
	bond_end(out, doc, "client");
	bond_end(out, doc, "agent");
	snprintf(line, sizeof(line),
		 "bond ceiling (mode-aware): TCP %s, UDP %s; one link %s%s%s. Aggregate flows: "
		 "%lld, "
		 "%s%s.",
		 rate_of(bc, "tcp_bps"), rate_of(bc, "udp_bps"), rate_of(bc, "link_tcp_bps"),
		 get(bc, "rr_cap_tcp_bps") ? "; balance-rr cap (n x the slowest) " : "",
		 get(bc, "rr_cap_tcp_bps") ? rate_of(bc, "rr_cap_tcp_bps") : "",
		 bc_json_i64(pl, "flows", 0),
		 json_object_get_boolean(get(pl, "placed")) ? "placed one per usable slave"
							    : "not placed: ",
		 json_object_get_boolean(get(pl, "placed")) ? "" : bc_json_str(pl, "reason"));
	wrap(out, "  ", "    ", line);
}

/*
 * The receivers' measuring window of a test's streams @st, seconds: from the
 * end of --omit to the last arrival (stream.c), the longest of the streams'
 * receiver.measured_seconds, else received_bytes over the goodput; 0 if
 * unknown.  The goodput column is over this window, the sent rate over the
 * sending time (bc_suite_sent_bps()).
 */
static double rx_window_s(struct json_object *st)
{
	double w = 0;

	for (size_t k = 0; k < bc_json_len(st); k++) {
		struct json_object *s = json_object_array_get_idx(st, k);
		double x = bc_json_dbl(get(s, "receiver"), "measured_seconds", 0);

		if (x <= 0 && bc_json_dbl(s, "goodput_bps", 0) > 0)
			x = 8 * bc_json_dbl(s, "received_bytes", 0) / bc_json_dbl(s, "goodput_bps", 0);
		if (x > w)
			w = x;
	}
	return w;
}

/* the last sentence of a search note up to 0.1.0: a definition, no value */
#define LEGACY_RESOLUTION " Resolution: the last drop-free and the lowest dropping rate."

static void tests(FILE *out, struct json_object *doc)
{
	struct json_object *ts = get(doc, "tests"), *us = get(doc, "udp_search");
	const char *note;
	char line[700];
	size_t nl;

	fprintf(out, "\nTests\n  %-12s %-10s %-8s %-9s %14s %14s  %s\n", "test", "role", "proto",
		"flows", "offered", "goodput", "detail");
	for (size_t i = 0; i < bc_json_len(ts); i++) {
		struct json_object *t = json_object_array_get_idx(ts, i), *r = get(t, "result");
		struct json_object *st = get(r, "streams"), *tp = get(r, "test");
		long long sent = 0, rcv = 0, retr = 0, errs = 0;
		double offered = 0, sent_bps = 0;
		bool udp = !strcmp(bc_json_str(tp, "protocol"), "udp");
		char fl[16];

		sent_bps = bc_suite_sent_bps(r);
		for (size_t k = 0; k < bc_json_len(st); k++) {
			struct json_object *s = json_object_array_get_idx(st, k);

			sent += bc_json_i64(s, "sent_packets", 0);
			rcv += bc_json_i64(s, "received_packets", 0);
			retr += bc_json_i64(s, "retransmits", 0);
			offered += bc_json_dbl(s, "offered_bps", 0);
			errs += bc_json_i64(s, "send_errors", 0);
		}
		snprintf(fl, sizeof(fl), "%zu%s", bc_json_len(st),
			 get(r, "placement") ? " placed" : "");
		fprintf(out, "  %-12s %-10s %-8s %-9s %14s %14s  ", bc_json_str(t, "name"),
			bc_json_str(t, "role"), bc_json_str(tp, "protocol"), fl,
			udp ? rate(offered) : "-", rate_of(r, "goodput_bps"));
		if (udp) {
			long long sb = bc_json_i64(
				get(get(get(get(r, "ends"), "client"), "counters"), "snmp"),
				"Udp.SndbufErrors", 0);

			double rx_s = rx_window_s(st),
			       tx_s = (bc_json_dbl(tp, "duration_ms", 0) -
				       bc_json_dbl(tp, "omit_ms", 0)) /
				      1000;

			/* the sent rate is over the sending time, the goodput column
			 * over the time to the last arrival: both windows are named */
			if (rx_s > 0)
				fprintf(out,
					"sent %lld in %.2f s (%s), received %lld in %.2f s to the "
					"last arrival, lost %lld (%.2f %%)",
					sent, tx_s, rate(sent_bps), rcv, rx_s, sent - rcv,
					sent ? 100.0 * (double)(sent - rcv) / (double)sent : 0.0);
			else
				fprintf(out, "sent %lld (%s), received %lld, lost %lld (%.2f %%)",
					sent, rate(sent_bps), rcv, sent - rcv,
					sent ? 100.0 * (double)(sent - rcv) / (double)sent : 0.0);
			if (errs > sb)
				sb = errs;
			if (sb)
				fprintf(out, ", %lld sends refused", sb);
		} else
			fprintf(out, "%.1f s after %.1f s omitted, retransmits %lld",
				(bc_json_dbl(tp, "duration_ms", 0) -
				 bc_json_dbl(tp, "omit_ms", 0)) /
					1000,
				bc_json_dbl(tp, "omit_ms", 0) / 1000, retr);
		if (get(r, "capture"))
			fprintf(out, ", capture");
		fputc('\n', out);
	}
	if (!us)
		return;
	/* documents of 0.1.0 and before end the note with the resolution's definition
	 * but no value: the value, when there is one, is printed with it */
	note = bc_json_str(us, "note");
	nl = strlen(note);
	if (nl >= strlen(LEGACY_RESOLUTION) &&
	    !strcmp(note + nl - strlen(LEGACY_RESOLUTION), LEGACY_RESOLUTION))
		nl -= strlen(LEGACY_RESOLUTION);
	snprintf(line, sizeof(line),
		 "UDP search (%zu trial%s of %g s, %lld-byte datagrams, first at %s%s): no-drop "
		 "rate "
		 "%s%s%s%s; <= 0.5 %% loss up to %s. %.*s",
		 bc_json_len(get(us, "trials")), bc_json_len(get(us, "trials")) == 1 ? "" : "s",
		 bc_json_dbl(us, "trial_s", 0), bc_json_i64(us, "length", 0),
		 rate_of(us, "start_bps"),
		 json_object_get_boolean(get(us, "start_is_ceiling")) ? ", what the flows can carry"
								      : ", from the TCP goodput",
		 bc_json_dbl(us, "no_drop_rate_bps", 0) > 0 ? rate_of(us, "no_drop_rate_bps")
							    : "not found",
		 get(us, "resolution_bps") ? ", resolution " : "",
		 get(us, "resolution_bps") ? rate_of(us, "resolution_bps") : "",
		 get(us, "resolution_bps")
			 ? " (the step from the last drop-free to the lowest dropping rate)"
			 : "",
		 bc_json_dbl(us, "pdr_rate_bps", 0) > 0 ? rate_of(us, "pdr_rate_bps") : "-",
		 (int)nl, note);
	wrap(out, "  ", "    ", line);
}

/* Same test and end: rows whose shares split one total. */
static bool same_group(struct json_object *a, struct json_object *b)
{
	return !strcmp(bc_json_str(a, "test"), bc_json_str(b, "test")) &&
	       !strcmp(bc_json_str(a, "end"), bc_json_str(b, "end"));
}

/*
 * Row @i's share as "34 %", rounded with the other rows of its test and end
 * by largest remainder (bc_percent_round()), so that the shares shown for
 * one test and end add up to 100 %, as the shares do; "-" without one.
 */
static void share_of(struct json_object *ls, size_t i, char *buf, size_t len)
{
	struct json_object *l = json_object_array_get_idx(ls, i);
	double sh[64];
	int pct[64];
	unsigned n = 0, me = 0;

	if (!get(l, "share")) {
		snprintf(buf, len, "-");
		return;
	}
	for (size_t k = 0; k < bc_json_len(ls) && n < 64; k++) {
		struct json_object *o = json_object_array_get_idx(ls, k);

		if (!same_group(l, o) || !get(o, "share"))
			continue;
		if (k == i)
			me = n;
		sh[n++] = bc_json_dbl(o, "share", 0);
	}
	bc_percent_round(sh, n, pct);
	snprintf(buf, len, "%d %%", pct[me]);
}

static void links(FILE *out, struct json_object *doc)
{
	struct json_object *ls = get(doc, "links");

	if (!bc_json_len(ls))
		return;
	fputc('\n', out);
	bc_wrapf(out, 2,
		 "Per link (client slaves: what left on each, judged against its own "
		 "ceiling; agent slaves: what arrived, against the smaller of their own and "
		 "their sending peer's ceiling)");
	fprintf(out, "  %-9s %-6s %-8s %-11s %13s %13s %6s %8s %6s %6s %6s\n", "test", "end",
		"link", "driver", "ceiling", "goodput", "share", "of ceil", "retr", "drops",
		"lost");
	for (size_t i = 0; i < bc_json_len(ls); i++) {
		struct json_object *l = json_object_array_get_idx(ls, i);
		char share[16];

		share_of(ls, i, share, sizeof(share));
		fprintf(out, "  %-9s %-6s %-8s %-11s %13s %13s %6s %8s %6s %6s %6s\n",
			bc_json_str(l, "test"), bc_json_str(l, "end"), bc_json_str(l, "name"),
			bc_json_str(l, "driver")[0] ? bc_json_str(l, "driver") : "-",
			rate_of(l, "ceiling_bps"), rate_of(l, "goodput_bps"), share,
			pct_of(l, "efficiency"), int_of(l, "retransmits"), int_of(l, "drops"),
			int_of(l, "lost"));
	}
}

static void flows(FILE *out, struct json_object *doc)
{
	struct json_object *fs = get(doc, "flows");

	if (!bc_json_len(fs))
		return;
	fprintf(out, "\nPer flow (tcp-k)\n  %-4s %-12s %-10s %-16s %14s %6s %10s %6s %9s\n", "id",
		"client port", "predicted", "observed", "goodput", "retr", "reord_seen", "dsack",
		"rtt");
	for (size_t i = 0; i < bc_json_len(fs); i++) {
		struct json_object *f = json_object_array_get_idx(fs, i),
				   *ob = get(f, "observed_slaves");
		char obs[64] = "", rtt[24];

		for (size_t k = 0; k < bc_json_len(ob); k++)
			snprintf(obs + strlen(obs), sizeof(obs) - strlen(obs), "%s%s", k ? "," : "",
				 json_object_get_string(json_object_array_get_idx(ob, k)));
		snprintf(rtt, sizeof(rtt), "%s%s", int_of(f, "rtt_us"),
			 get(f, "rtt_us") ? " us" : "");
		fprintf(out, "  %-4s %-12s %-10s %-16s %14s %6s %10s %6s %9s\n", int_of(f, "id"),
			int_of(f, "client_port"),
			bc_json_str(f, "predicted_slave")[0] ? bc_json_str(f, "predicted_slave")
							     : "-",
			ob ? obs : "-", rate_of(f, "goodput_bps"), int_of(f, "retransmits"),
			int_of(f, "reord_seen"), int_of(f, "dsack_dups"), rtt);
	}
}

static void ledger(FILE *out, struct json_object *doc)
{
	struct json_object *st = get(doc, "ledger");

	if (!st)
		return;
	fprintf(out, "\nLoss ledger (%s, %s)\n  %-16s %10s %8s %9s  %s\n",
		bc_json_str(doc, "ledger_test"), bc_json_str(doc, "ledger_direction"), "stage",
		"count", "drop", "explained", "counter that moved / source");
	for (size_t i = 0; i < bc_json_len(st); i++) {
		struct json_object *s = json_object_array_get_idx(st, i);

		fprintf(out, "  %-16s %10s %8lld %9lld  %s\n", bc_json_str(s, "stage"),
			int_of(s, "count"), bc_json_i64(s, "drop", 0),
			bc_json_i64(s, "explained", 0),
			bc_json_str(s, "counter")[0] ? bc_json_str(s, "counter")
						     : bc_json_str(s, "source"));
	}
}

static void reordering(FILE *out, struct json_object *doc)
{
	struct json_object *r = get(doc, "reordering"), *t = get(r, "tcp"), *u = get(r, "udp");
	struct json_object *pairs = get(get(u, "capture"), "pairs"), *d = get(u, "reorder_density");
	char line[800];
	size_t n = 0;

	if (!t && !u)
		return;
	fprintf(out, "\nReordering\n");
	if (t)
		fprintf(out,
			"  TCP (tcp-k, the senders' tcp_info): reordering seen %lld times, %lld "
			"DSACKs (spurious retransmits)\n",
			bc_json_i64(t, "reord_seen", 0), bc_json_i64(t, "dsack_dups", 0));
	if (!u)
		return;
	n = (size_t)snprintf(line, sizeof(line),
			     "UDP (udp-over): %lld of %lld datagrams out of order at the receiving "
			     "app; reorder density (RFC 5236, displacement:count)",
			     bc_json_i64(u, "out_of_order", 0), bc_json_i64(u, "received", 0));
	/* a document without the density (or not an object) must not crash */
	if (!json_object_is_type(d, json_type_object))
		d = NULL;
	for (struct lh_entry *e = d ? json_object_get_object(d)->head : NULL; e; e = e->next) {
		const char *k = (const char *)lh_entry_k(e);
		struct json_object *v = (struct json_object *)lh_entry_v(e);

		if (n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %s:%lld", k,
					      (long long)json_object_get_int64(v));
	}
	if (n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n,
				      "; merged slave captures: %lld late",
				      bc_json_i64(get(u, "capture"), "reordered", 0));
	for (size_t i = 0; i < bc_json_len(pairs) && i < 6 && n < sizeof(line); i++) {
		struct json_object *p = json_object_array_get_idx(pairs, i);

		/* a link with itself is no pair of links: the order changed on that link */
		if (!strcmp(bc_json_str(p, "late_link"), bc_json_str(p, "early_link")))
			n += (size_t)snprintf(line + n, sizeof(line) - n,
					      "%s out of order within %s (the sender's order, a "
					      "retransmission or the link's own queues) %lld",
					      i ? "," : ":", bc_json_str(p, "late_link"),
					      bc_json_i64(p, "count", 0));
		else
			n += (size_t)snprintf(line + n, sizeof(line) - n,
					      "%s late on %s behind %s %lld", i ? "," : ":",
					      bc_json_str(p, "late_link"), bc_json_str(p, "early_link"),
					      bc_json_i64(p, "count", 0));
	}
	wrap(out, "  ", "    ", line);
}

/* Findings @a and @b say the same thing about the same subject (on the two ends). */
static bool same_finding(struct json_object *a, struct json_object *b)
{
	return !strcmp(bc_json_str(a, "id"), bc_json_str(b, "id")) &&
	       !strcmp(bc_json_str(a, "subject"), bc_json_str(b, "subject")) &&
	       !strcmp(json_object_to_json_string(get(a, "evidence")),
		       json_object_to_json_string(get(b, "evidence")));
}

/*
 * The Findings heading: how many lines follow (a finding both ends made
 * alike is one line), and how many each end made, so that the heading, the
 * lines below it and the per-end counts agree: "Findings (6 listed: 5 alike
 * on both ends, 1 on the agent alone; client 5, agent 6)".
 */
static void findings_head(FILE *out, struct json_object *fs)
{
	size_t listed = 0, both = 0, client = 0, agent = 0, other = 0;

	for (size_t i = 0; i < bc_json_len(fs); i++) {
		struct json_object *f = json_object_array_get_idx(fs, i);
		bool dup = false, twin = false;

		if (!strcmp(bc_json_str(f, "end"), "client"))
			client++;
		else if (!strcmp(bc_json_str(f, "end"), "agent"))
			agent++;
		else
			other++;
		for (size_t k = 0; k < bc_json_len(fs) && !dup; k++)
			if (k != i && same_finding(f, json_object_array_get_idx(fs, k))) {
				dup = k < i;
				twin = true;
			}
		if (dup)
			continue;
		listed++;
		both += twin;
	}
	if (!listed) {
		fprintf(out, "\nFindings (none)\n");
		return;
	}
	fprintf(out, "\nFindings (%zu listed", listed);
	if (both)
		fprintf(out, ": %zu alike on both ends, %zu on one end alone", both,
			listed - both);
	fprintf(out, "; client %zu, agent %zu", client, agent);
	if (other)
		fprintf(out, ", elsewhere %zu", other);
	fprintf(out, ")\n");
}

/*
 * A reordering finding of 0.1.0 gives its top pair without the total it is
 * part of (every late packet), beside n_reordered (the 3-reordered only):
 * true when evidence @k = @v of @f is such a top_pair of the UDP test whose
 * capture total the suite's Reordering section shows, so that the total can
 * be named after it.
 */
static bool legacy_top_pair(struct json_object *doc, struct json_object *f, const char *k,
			    struct json_object *v)
{
	struct json_object *u = get(get(doc, "reordering"), "udp");

	return !strcmp(k, "top_pair") && !strcmp(bc_json_str(f, "id"), "reordering") &&
	       !strstr(json_object_get_string(v) ? json_object_get_string(v) : "", " of the ") &&
	       bc_json_str(u, "test")[0] && !strcmp(bc_json_str(f, "source"), bc_json_str(u, "test")) &&
	       bc_json_i64(get(u, "capture"), "reordered", 0) > 0;
}

static void findings(FILE *out, struct json_object *doc)
{
	struct json_object *fs = get(doc, "findings");
	static const char *const sev[] = {"error", "warning", "info"};

	findings_head(out, fs);
	for (int s = 0; s < 3; s++) {
		for (size_t i = 0; i < bc_json_len(fs); i++) {
			struct json_object *f = json_object_array_get_idx(fs, i),
					   *src = get(f, "sources");
			char line[1200];
			size_t n;

			const char *end = bc_json_str(f, "end");
			struct json_object *twin = NULL;
			char first[16];
			bool dup = false;

			if (strcmp(bc_json_str(f, "severity"), sev[s]))
				continue;
			/* one line for a finding both ends' inspections made alike */
			for (size_t k = 0; k < bc_json_len(fs) && !dup; k++)
				if (k != i && same_finding(f, json_object_array_get_idx(fs, k))) {
					dup = k < i;
					end = "both ends";
					twin = json_object_array_get_idx(fs, k);
				}
			if (dup)
				continue;
			n = (size_t)snprintf(line, sizeof(line), "%s %s on %s%s [",
					     bc_json_str(f, "id"), bc_json_str(f, "subject"),
					     strcmp(end, "both ends") ? "the " : "", end);
			for (size_t k = 0; k < bc_json_len(src) && n < sizeof(line); k++)
				n += (size_t)snprintf(
					line + n, sizeof(line) - n, "%s%s", k ? ", " : "",
					json_object_get_string(json_object_array_get_idx(src, k)));
			src = get(twin, "sources");
			for (size_t k = 0; k < bc_json_len(src) && n < sizeof(line); k++)
				n += (size_t)snprintf(
					line + n, sizeof(line) - n, ", %s",
					json_object_get_string(json_object_array_get_idx(src, k)));
			if (n < sizeof(line))
				n += (size_t)snprintf(
					line + n, sizeof(line) - n, "]%s: ",
					json_object_get_boolean(get(f, "expected"))
						? " (expected: the probe offers more than "
						  "the no-drop rate)"
						: "");
			json_object_object_foreach(get(f, "evidence"), k, v)
			{
				if (n < sizeof(line) && legacy_top_pair(doc, f, k, v))
					n += (size_t)snprintf(
						line + n, sizeof(line) - n, "%s=%s of the %lld late; ",
						k, json_object_get_string(v),
						bc_json_i64(get(get(get(doc, "reordering"), "udp"),
								"capture"),
							    "reordered", 0));
				else if (n < sizeof(line))
					n += (size_t)snprintf(line + n, sizeof(line) - n, "%s=%s; ",
							      k, json_object_get_string(v));
			}
			if (n < sizeof(line) && !json_object_get_boolean(get(f, "expected")))
				snprintf(line + n, sizeof(line) - n, "%s",
					 bc_json_str(f, "advice"));
			snprintf(first, sizeof(first), "  %-8s ", sev[s]);
			wrap(out, first, "           ", line);
		}
	}
}

static void verdicts(FILE *out, struct json_object *doc)
{
	static const char *const keys[] = {"aggregation", "udp_gap", "drivers"};
	static const char *const names[] = {"Aggregation", "UDP gap", "Drivers"};
	struct json_object *v = get(doc, "verdicts");

	fprintf(out, "\nVerdicts\n");
	for (int i = 0; i < 3; i++) {
		struct json_object *x = get(v, keys[i]);
		char first[64], status[16], line[4096];
		size_t k;

		/* "N/A": the status column is 13 wide */
		snprintf(status, sizeof(status), "%s",
			 strcmp(bc_json_str(x, "status"), "not-applicable")
				 ? bc_json_str(x, "status")
				 : "n/a");
		for (k = 0; status[k]; k++)
			status[k] = (char)(status[k] >= 'a' && status[k] <= 'z' ? status[k] - 32
										: status[k]);
		snprintf(first, sizeof(first), "  %-12s %-13s ", names[i], status);
		/* the answer rendered from the verdict's structure; the older
		 * per-link text ("text" in the JSON) restates the per-link table */
		snprintf(line, sizeof(line), "%s",
			 bc_json_str(x, "answer")[0] ? bc_json_str(x, "answer")
						     : bc_json_str(x, "text"));
		wrap(out, first, "                             ", line);
	}
}

int bc_suite_report_answers(FILE *out, struct json_object *doc)
{
	static const char *const keys[] = {"aggregation", "udp_gap", "drivers"};
	static const char *const names[] = {"Aggregation", "UDP gap", "Drivers"};
	struct bc_answer a[3];
	struct bc_verdict v;

	for (int i = 0; i < 3; i++) {
		struct json_object *x = get(get(doc, "verdicts"), keys[i]);

		bc_verdict_from_json(x, keys[i], &v);
		/* the verdict's older figures: the probe's counts, CPU-bound */
		if (i == 1 && !bc_verdict_get(&v, "sent") && get(x, "sent_packets")) {
			bc_verdict_add(&v, "sent", "%s", int_of(x, "sent_packets"));
			bc_verdict_add(&v, "received", "%s", int_of(x, "received_packets"));
		}
		if (json_object_get_boolean(get(x, "cpu_bound")) && !bc_verdict_get(&v, "cpu_bound"))
			bc_verdict_add(&v, "cpu_bound", "yes");
		bc_verdict_answer(&v, names[i], &a[i]);
	}
	return bc_answer_print(out, a, 3, bc_answer_width(out));
}

int bc_suite_report_text(FILE *out, struct json_object *doc)
{
	struct json_object *errs = get(doc, "errors");

	bc_suite_report_answers(out, doc);
	fputc('\n', out);

	bc_wrapf(out, 2,
		 "bondcheck run: test suite against %s%s, %zu tests in %.1f s (bondcheck %s, %s)",
		 bc_json_str(doc, "peer"),
		 json_object_get_boolean(get(doc, "quick")) ? " (--quick)" : "",
		 bc_json_len(get(doc, "tests")), bc_json_dbl(doc, "elapsed_s", 0),
		 bc_json_str(doc, "bondcheck_version"), bc_json_str(doc, "generated_at"));
	if (json_object_get_boolean(get(doc, "incomplete")))
		bc_wrapf(out, 2,
			 "INCOMPLETE: the suite stopped early; the figures below cover the tests "
			 "that ran");
	for (size_t i = 0; i < bc_json_len(errs); i++) {
		struct json_object *e = json_object_array_get_idx(errs, i);
		char line[600];

		snprintf(line, sizeof(line), "%s: %s", bc_json_str(e, "test"),
			 bc_json_str(e, "message"));
		wrap(out, "error: ", "       ", line);
	}
	summary(out, doc);
	tests(out, doc);
	links(out, doc);
	flows(out, doc);
	ledger(out, doc);
	reordering(out, doc);
	findings(out, doc);
	verdicts(out, doc);
	return ferror(out) ? -EIO : 0;
}
