// SPDX-License-Identifier: GPL-2.0-or-later
/* Text report of `bondcheck failover` (bondcheck/failover-report.h): JSON in, text out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/failover-report.h"
#include "bondcheck/json-get.h"
#include "bondcheck/wrap.h"

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* "%.1f ms" of a member, or "-" when null/absent. */
static const char *msf(struct json_object *o, const char *k, char *buf, size_t len)
{
	struct json_object *v = get(o, k);

	if (!v)
		return "-";
	snprintf(buf, len, "%.1f", json_object_get_double(v));
	return buf;
}

static void names(FILE *out, struct json_object *a)
{
	size_t n = bc_json_len(a);

	if (!n)
		fputs("-", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? "," : "",
			json_object_get_string(json_object_array_get_idx(a, i)));
}

static void header(FILE *out, struct json_object *doc)
{
	struct json_object *cut = get(doc, "cut"), *e = get(doc, "expected");

	fprintf(out, "Failover of %s/%s (%s cut, hold %.1f s) with %s", bc_json_str(cut, "bond"),
		bc_json_str(cut, "slave"), bc_json_str(cut, "mode"),
		bc_json_dbl(cut, "hold_ms", 0) / 1000.0, bc_json_str(doc, "peer"));
	if (bc_json_i64(doc, "rate_pps", 0))
		fprintf(out, ", %lld datagrams/s each way", bc_json_i64(doc, "rate_pps", 0));
	fputc('\n', out);
	if (!e) {
		fprintf(out, "expected: unknown (the bond's configuration was not read)\n");
		return;
	}
	if (get(e, "ends_differ"))
		bc_wrapf(out, 4, "ends configured differently: %s", bc_json_str(e, "ends_differ"));
	if (get(e, "per_end")) {
		static const char *const hosts[2] = {"client", "agent"};

		for (int h = 0; h < 2; h++) {
			struct json_object *x = get(get(e, "per_end"), hosts[h]);

			if (h == 1 && json_object_get_boolean(get(e, "agent_assumed")))
				fprintf(out, "agent:  not known, assumed like the client\n");
			else
				bc_wrapf(out, 8, "%-7s %s; sees the cut by: %s", hosts[h],
					 bc_json_str(x, "basis"), bc_json_str(x, "sight"));
		}
	}
	if (get(e, "directions")) {
		for (size_t i = 0; i < bc_json_len(get(e, "directions")); i++) {
			struct json_object *x = json_object_array_get_idx(get(e, "directions"), i);

			if (json_object_get_boolean(get(x, "black_hole")))
				bc_wrapf(out, 4, "expected %s: nothing sees this cut: %s",
					 bc_json_str(x, "direction"), bc_json_str(x, "missing"));
			else if (!bc_json_len(get(x, "detected_by")))
				bc_wrapf(out, 4, "expected %s: nothing to detect (%s)",
					 bc_json_str(x, "direction"), bc_json_str(x, "basis"));
			else
				bc_wrapf(out, 4,
					 "expected %s: %s -> gap %lld ms (%lld..%lld ms); "
					 "failover-slow above %lld ms",
					 bc_json_str(x, "direction"), bc_json_str(x, "basis"),
					 bc_json_i64(x, "nominal_ms", 0),
					 bc_json_i64(x, "min_ms", 0), bc_json_i64(x, "worst_ms", 0),
					 bc_json_i64(x, "limit_ms", 0));
		}
		return;
	}
	if (get(e, "black_hole") && json_object_get_boolean(get(e, "black_hole")))
		bc_wrapf(out, 4, "expected: nothing in the configuration sees this cut: %s",
			 bc_json_str(e, "missing"));
	else
		bc_wrapf(out, 4,
			 "expected: %s -> gap %lld ms (%lld..%lld ms); failover-slow above %lld "
			 "ms",
			 bc_json_str(e, "basis"), bc_json_i64(e, "nominal_ms", 0),
			 bc_json_i64(e, "min_ms", 0), bc_json_i64(e, "worst_ms", 0),
			 bc_json_i64(e, "limit_ms", 0));
}

static void directions(FILE *out, struct json_object *doc)
{
	struct json_object *ds = get(doc, "directions");
	char a[32], b[32];

	fprintf(out, "\n%-16s %-15s %7s %9s %6s %5s %6s  %s\n", "direction", "verdict", "streams",
		"gap ms", "lost", "dup", "reord", "sender's slaves: before -> after -> end");
	for (size_t i = 0; i < bc_json_len(ds); i++) {
		struct json_object *d = json_object_array_get_idx(ds, i);

		fprintf(out, "%-16s %-15s %3lld/%-3lld %9s %6lld %5lld %6lld  ",
			bc_json_str(d, "direction"), bc_json_str(d, "verdict"),
			bc_json_i64(d, "interrupted", 0), bc_json_i64(d, "streams", 0),
			msf(d, "gap_ms", a, sizeof(a)), bc_json_i64(d, "lost", 0),
			bc_json_i64(d, "duplicates", 0), bc_json_i64(d, "reordered", 0));
		names(out, get(d, "tx_before"));
		fputs(" -> ", out);
		names(out, get(d, "tx_after_failover"));
		fputs(" -> ", out);
		names(out, get(d, "tx_end"));
		fputc('\n', out);
		if (get(d, "why") && strcmp(bc_json_str(d, "verdict"), "within") &&
		    strcmp(bc_json_str(d, "verdict"), "not-interrupted"))
			bc_wrapf(out, 17, "%16s %s", "", bc_json_str(d, "why"));
		if (bc_json_i64(d, "moved", 0))
			fprintf(out,
				"%16s %lld stream(s) moved to another slave: longest gap %s ms\n",
				"", bc_json_i64(d, "moved", 0),
				msf(d, "moved_gap_ms", b, sizeof(b)));
		if (get(d, "unaffected_gap_ms"))
			fprintf(out,
				"%16s streams that stayed: longest pause %s ms, nothing lost\n", "",
				msf(d, "unaffected_gap_ms", b, sizeof(b)));
		if (get(d, "up_gap_ms"))
			fprintf(out, "%16s when the slave returned: a gap of %s ms with loss\n", "",
				msf(d, "up_gap_ms", b, sizeof(b)));
	}
}

static const char *link_or(struct json_object *o, const char *k)
{
	return get(o, k) ? bc_json_str(o, k) : "-";
}

/* The TCP flow alongside (--tcp): stall, what is expected, retransmissions, goodput, slaves. */
static void tcp(FILE *out, struct json_object *doc)
{
	struct json_object *t = get(doc, "tcp"), *x;
	char a[32], b[32], c[32], d[32], e[32];

	if (!t)
		return;
	x = get(t, "expected");
	fprintf(out, "\nTCP %s (port %lld -> %lld): ", bc_json_str(t, "direction"),
		bc_json_i64(t, "sport", 0), bc_json_i64(t, "dport", 0));
	if (!bc_json_i64(t, "segments_left", 0) && !bc_json_i64(t, "segments_arrived", 0)) {
		fputs("no data segment captured\n", out);
		return;
	}
	if (!get(t, "stall_ms"))
		fprintf(out, "no stall found around the cut, %s\n", bc_json_str(t, "verdict"));
	else if (json_object_get_boolean(get(t, "stall_open")))
		fprintf(out, "stalled from %+.1f ms to the end of the capture (%s ms), %s\n",
			bc_json_dbl(t, "last_before_ms", 0), msf(t, "stall_ms", b, sizeof(b)),
			bc_json_str(t, "verdict"));
	else
		fprintf(out, "stall %s ms (from %+.1f to %+.1f ms), %s\n",
			msf(t, "stall_ms", a, sizeof(a)), bc_json_dbl(t, "last_before_ms", 0),
			bc_json_dbl(t, "first_after_ms", 0), bc_json_str(t, "verdict"));
	fprintf(out,
		"  expected: at least the UDP gap %s ms - 20; at most 2 x %s + RTO %s + 100 = %s "
		"ms (%s ms..%s ms)\n",
		msf(x, "udp_gap_ms", a, sizeof(a)), msf(x, "udp_gap_ms", b, sizeof(b)),
		msf(x, "rto_ms", c, sizeof(c)), msf(x, "max_ms", d, sizeof(d)),
		msf(x, "min_ms", e, sizeof(e)), msf(x, "max_ms", d, sizeof(d)));
	fprintf(out, "  retransmissions seen: %lld between the cut and the restore",
		bc_json_i64(t, "retransmissions_seen_in_hold", 0));
	if (get(t, "first_retransmission_ms"))
		fprintf(out, " (first at +%s ms)", msf(t, "first_retransmission_ms", a, sizeof(a)));
	fprintf(out, ", %lld in all", bc_json_i64(t, "retransmissions_seen", 0));
	if (get(t, "sender_retransmissions"))
		fprintf(out, "; the sender's count (TCP_INFO): %lld",
			bc_json_i64(t, "sender_retransmissions", 0));
	fputc('\n', out);
	fprintf(out,
		"  goodput: %.2f Mbit/s in the second before the cut, %.2f Mbit/s in the second "
		"after the stall\n",
		bc_json_dbl(t, "goodput_before_bps", 0) / 1e6,
		bc_json_dbl(t, "goodput_after_bps", 0) / 1e6);
	fprintf(out, "  slaves: left %s -> %s, arrived %s -> %s\n", link_or(t, "left_before"),
		link_or(t, "left_after"), link_or(t, "arrived_before"),
		link_or(t, "arrived_after"));
}

static void streams(FILE *out, struct json_object *doc)
{
	struct json_object *ss = get(doc, "streams");
	char a[32], b[32];

	if (bc_json_len(ss) <= 2)
		return;
	fprintf(out, "\n%-3s %-16s %-5s %9s %6s %6s  %s\n", "id", "direction", "cut?", "gap ms",
		"lost", "after", "left on: before -> after");
	for (size_t i = 0; i < bc_json_len(ss); i++) {
		struct json_object *s = json_object_array_get_idx(ss, i), *dn = get(s, "down");

		fprintf(out, "%-3lld %-16s %-5s %9s %6lld %6s  %s -> %s\n", bc_json_i64(s, "id", 0),
			bc_json_str(s, "direction"),
			json_object_get_boolean(get(s, "used_cut_slave")) ? "yes" : "no",
			msf(dn, "gap_ms", a, sizeof(a)), bc_json_i64(dn, "lost_in_gap", 0),
			msf(dn, "first_after_ms", b, sizeof(b)),
			get(s, "left_before") ? bc_json_str(s, "left_before") : "-",
			get(s, "left_after") ? bc_json_str(s, "left_after") : "-");
	}
}

/* "client: 1 ARP, 1 NA" for the hosts that sent any; "" when none did. */
static void by_host(char *buf, size_t len, struct json_object *g, struct json_object *n)
{
	const char *hosts[3] = {"client", "agent", "other"};
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; i < 3 && o < len; i++) {
		long long a = bc_json_i64(g, hosts[i], 0), v = bc_json_i64(n, hosts[i], 0);

		if (a || v)
			o += (size_t)snprintf(buf + o, len - o, "%s%s %lld ARP, %lld NA",
					      o ? "; " : "", hosts[i], a, v);
	}
}

static void links_raw(FILE *out, struct json_object *doc)
{
	struct json_object *ls = get(doc, "links");
	char a[32], b[32], c[32], who[160], cut_link[64];
	bool any = false;

	snprintf(cut_link, sizeof(cut_link), "client/%s", bc_json_str(get(doc, "cut"), "slave"));
	fputs("\ngratuitous ARP / unsolicited NA after the cut, by sender:\n", out);
	for (size_t i = 0; i < bc_json_len(ls); i++) {
		struct json_object *l = json_object_array_get_idx(ls, i);

		by_host(who, sizeof(who), get(l, "gratuitous_arp_after_cut"),
			get(l, "unsolicited_na_after_cut"));
		if (!who[0])
			continue;
		any = true;
		fprintf(out, "  %-16s %s; first at +%s ms\n", bc_json_str(l, "name"), who,
			msf(l, "first_announcement_after_cut_ms", a, sizeof(a)));
	}
	if (!any)
		fputs("  none on any slave\n", out);
	for (size_t i = 0; i < bc_json_len(ls); i++) {
		struct json_object *l = json_object_array_get_idx(ls, i);

		if (!bc_json_i64(l, "lacpdus", 0))
			continue;
		fprintf(out, "  LACP %-11s %lld LACPDUs", bc_json_str(l, "name"),
			bc_json_i64(l, "lacpdus", 0));
		if (get(l, "lacp_timeout_ms") && get(l, "lacp_partner_last_ms")) {
			fprintf(out,
				"; last LACPDU from the partner at %+.1f ms, port expired at %+.1f "
				"+ %s ms",
				bc_json_dbl(l, "lacp_partner_last_ms", 0),
				bc_json_dbl(l, "lacp_partner_last_ms", 0),
				msf(l, "lacp_silence_ms", c, sizeof(c)));
			if (get(l, "lacp_timeout_expected_ms"))
				fprintf(out, " (timeout %lld ms)",
					bc_json_i64(l, "lacp_timeout_expected_ms", 0));
		} else if (get(l, "lacp_timeout_ms"))
			fprintf(out, "; timeout at +%s ms (%s ms after the partner's last)",
				msf(l, "lacp_timeout_ms", a, sizeof(a)),
				msf(l, "lacp_silence_ms", c, sizeof(c)));
		/* on the cut slave: the cut let the partner's LACPDUs through (one way) */
		if (!strcmp(bc_json_str(l, "name"), cut_link) &&
		    json_object_get_boolean(get(l, "lacp_partner_heard_late")) &&
		    !get(l, "lacp_timeout_ms"))
			fputs("; the partner's LACPDUs still arrived late in the hold", out);
		if (get(l, "lacp_defaulted_ms"))
			fprintf(out, "; defaulted at +%s ms",
				msf(l, "lacp_defaulted_ms", c, sizeof(c)));
		if (get(l, "lacp_resync_ms"))
			fprintf(out, "; in sync %s ms after the restore",
				msf(l, "lacp_resync_ms", b, sizeof(b)));
		fputc('\n', out);
	}
}

/* The announcements and LACP lines, each wrapped to the report's width. */
static void links(FILE *out, struct json_object *doc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m) {
		links_raw(out, doc);
		return;
	}
	links_raw(m, doc);
	if (fclose(m) || !text)
		links_raw(out, doc);
	else
		bc_wrap_lines(out, 4, text);
	free(text);
}

/* What the measurement says of each end's sight of the cut. */
static void saw(FILE *out, struct json_object *doc)
{
	struct json_object *w = get(doc, "saw");

	if (!w)
		return;
	fprintf(out, "\nwho saw the cut (from each end's own departures):\n");
	bc_wrapf(out, 10, "  client: %s", bc_json_str(w, "client"));
	bc_wrapf(out, 10, "  agent:  %s", bc_json_str(w, "agent"));
}

static void recovery(FILE *out, struct json_object *doc)
{
	struct json_object *r = get(doc, "recovery");
	char a[32], b[32], up[64] = "";

	if (!r)
		return;
	if (bc_json_i64(r, "expected_up_ms", 0) > 0 && get(r, "carries_again_ms"))
		snprintf(up, sizeof(up), " (miimon + updelay: up to %lld ms)",
			 bc_json_i64(r, "expected_up_ms", 0));
	fputc('\n', out);
	if (get(r, "carries_again_ms"))
		bc_wrapf(out, 4,
			 "recovery: %s carries test traffic again %s ms after the restore%s%s%s%s",
			 bc_json_str(r, "slave"), msf(r, "carries_again_ms", a, sizeof(a)),
			 get(r, "lacp_resync_ms") ? "; LACP back in sync after " : "",
			 get(r, "lacp_resync_ms") ? msf(r, "lacp_resync_ms", b, sizeof(b)) : "",
			 get(r, "lacp_resync_ms") ? " ms" : "", up);
	else
		bc_wrapf(out, 4,
			 "recovery: %s carried no test traffic after the restore (a backup "
			 "slave, a hash that now picks another slave, or not back yet when the "
			 "capture ended)%s%s%s",
			 bc_json_str(r, "slave"),
			 get(r, "lacp_resync_ms") ? "; LACP back in sync after " : "",
			 get(r, "lacp_resync_ms") ? msf(r, "lacp_resync_ms", b, sizeof(b)) : "",
			 get(r, "lacp_resync_ms") ? " ms" : "");
}

static void findings(FILE *out, struct json_object *doc)
{
	struct json_object *fs = get(doc, "findings");

	if (!bc_json_len(fs)) {
		fputs("\nno findings\n", out);
		return;
	}
	fputc('\n', out);
	for (size_t i = 0; i < bc_json_len(fs); i++) {
		struct json_object *f = json_object_array_get_idx(fs, i), *ev = get(f, "evidence");

		fprintf(out, "%-7s %s %s:", bc_json_str(f, "severity"), bc_json_str(f, "id"),
			bc_json_str(f, "subject"));
		if (ev) {
			json_object_object_foreach(ev, k, v)
				fprintf(out, " %s=%s", k, json_object_get_string(v));
		}
		fputc('\n', out);
		bc_wrapf(out, 8, "        %s", bc_json_str(f, "advice"));
	}
}

void bc_failover_report_text(FILE *out, struct json_object *doc)
{
	struct json_object *notes = get(doc, "notes"), *plots = get(doc, "plots");

	bc_failover_report_answers(out, doc);
	fputc('\n', out);
	header(out, doc);
	directions(out, doc);
	tcp(out, doc);
	streams(out, doc);
	saw(out, doc);
	links(out, doc);
	recovery(out, doc);
	findings(out, doc);
	if (get(doc, "restore")) {
		fputc('\n', out);
		bc_wrapf(out, 4, "restore: %s", bc_json_str(get(doc, "restore"), "text"));
	}
	if (plots && json_object_is_type(plots, json_type_string))
		fprintf(out, "plots: %s\n", json_object_get_string(plots));
	else if (plots) {
		json_object_object_foreach(plots, k, v)
			fprintf(out, "plot %s: %s\n", k, json_object_get_string(v));
	}
	for (size_t i = 0; i < bc_json_len(notes); i++)
		bc_wrapf(out, 6, "note: %s",
			 json_object_get_string(json_object_array_get_idx(notes, i)));
}
