// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck watch` as text (bondcheck/watch-report.h).  The words of the
 * verdicts are written here from their mechanisms and evidence values.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/answer.h"
#include "bondcheck/names.h"
#include "bondcheck/units.h"
#include "bondcheck/watch-report.h"

static const char *rate(double bps, char *b, unsigned len)
{
	return bc_format_rate(bps, b, len);
}

static const char *ev(const struct bc_verdict *v, const char *k)
{
	const char *s = bc_verdict_get(v, k);

	return s ? s : "?";
}

static void endpoint(const struct bc_flow *f, bool local, char *out, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";

	inet_ntop(f->family, local ? f->src : f->dst, a, sizeof(a));
	snprintf(out, len, f->family == AF_INET6 ? "[%s]:%u" : "%s:%u", a,
		 local ? f->sport : f->dport);
}

static const char *src_word(enum bc_watch_src s)
{
	return s == BC_WATCH_SRC_OBSERVED ? "observed" : s == BC_WATCH_SRC_PREDICTED ? "predicted"
										      : "unknown";
}

int bc_watch_text_interval(FILE *out, const struct bc_watch_interval *iv, double t_s, bool redraw,
			   int lines_prev, size_t top)
{
	char a[32], b[32];
	int lines = 0;

	if (!redraw) {
		fprintf(out, "%7.1f s  tx %s rx %s", t_s, rate(iv->tx_bps, a, sizeof(a)),
			rate(iv->rx_bps, b, sizeof(b)));
		for (size_t i = 0; i < iv->n_slaves; i++) {
			const struct bc_watch_slave_rate *s = &iv->slaves[i];

			fprintf(out, " | %s%s %s", s->name, s->up ? "" : " (down)",
				rate(s->tx_bps, a, sizeof(a)));
			if (s->tx_share >= 0)
				fprintf(out, " %.0f%%", s->tx_share * 100);
			if (s->drops)
				fprintf(out, " drops %llu", (unsigned long long)s->drops);
		}
		if (iv->tcp_counters)
			fprintf(out, " | tcp retrans %llu reorder %llu",
				(unsigned long long)iv->tcp_retrans_segs,
				(unsigned long long)iv->tcp_reorder);
		if (iv->taps && iv->tap_flow_evicted)
			fprintf(out, " | taps evicted %llu flows",
				(unsigned long long)iv->tap_flow_evicted);
		fputc('\n', out);
		for (size_t i = 0; i < iv->n_added; i++)
			fprintf(out, "          %s was enslaved\n", iv->added[i]);
		for (size_t i = 0; i < iv->n_removed; i++)
			fprintf(out, "          %s left the bond\n", iv->removed[i]);
		fflush(out);
		return 0;
	}
	if (lines_prev > 0)
		fprintf(out, "\033[%dA\033[J", lines_prev);
	fprintf(out, "%.1f s  bond tx %s  rx %s", t_s, rate(iv->tx_bps, a, sizeof(a)),
		rate(iv->rx_bps, b, sizeof(b)));
	if (iv->tcp_counters)
		fprintf(out, "  tcp retrans %llu reorder %llu",
			(unsigned long long)iv->tcp_retrans_segs,
			(unsigned long long)iv->tcp_reorder);
	fprintf(out, "\n  %-12s %-6s %16s %6s %16s %6s %7s\n", "slave", "state", "TX", "share",
		"RX", "share", "drops");
	lines += 2;
	for (size_t i = 0; i < iv->n_slaves; i++) {
		const struct bc_watch_slave_rate *s = &iv->slaves[i];

		fprintf(out, "  %-12s %-6s %16s %5.0f%% %16s %5.0f%% %7llu\n", s->name,
			!s->up ? "down" : s->usable ? "up" : "idle", rate(s->tx_bps, a, sizeof(a)),
			s->tx_share >= 0 ? s->tx_share * 100 : 0, rate(s->rx_bps, b, sizeof(b)),
			s->rx_share >= 0 ? s->rx_share * 100 : 0, (unsigned long long)s->drops);
		lines++;
	}
	fprintf(out, "  %-24s %-24s %14s %14s  %s\n", "local", "peer", "TX", "RX", "TX slave");
	lines++;
	for (size_t i = 0; i < iv->n_flows && i < top; i++) {
		const struct bc_watch_flow_rate *f = &iv->flows[i];
		char l[64], p[64];

		endpoint(&f->flow, true, l, sizeof(l));
		endpoint(&f->flow, false, p, sizeof(p));
		fprintf(out, "  %-24s %-24s %14s %14s  %s (%s)\n", l, p,
			rate(f->tx_bps, a, sizeof(a)), rate(f->rx_bps, b, sizeof(b)),
			f->tx_slave >= 0 ? iv->slaves[f->tx_slave].name : "-", src_word(f->tx_src));
		lines++;
	}
	if (iv->taps && iv->tap_flow_evicted) {
		fprintf(out, "  flow table %llu of %llu entries, %llu evicted: a flow that comes back "
			     "restarts its counters\n",
			(unsigned long long)iv->tap_flow_entries,
			(unsigned long long)iv->tap_flow_capacity,
			(unsigned long long)iv->tap_flow_evicted);
		lines++;
	}
	fflush(out);
	return lines + 1;
}

static const char *mech_words(const char *m)
{
	if (!strcmp(m, "single-flow"))
		return "one connection carries it";
	if (!strcmp(m, "few-flows"))
		return "fewer connections than slaves";
	if (!strcmp(m, "hash-placement"))
		return "the hash put the connections on one slave";
	if (!strcmp(m, "hash-single-path"))
		return "the policy hashes one peer's connections alike";
	if (!strcmp(m, "peer-placement"))
		return "the peer (switch or bond) sends it so";
	return "cause not seen by this host";
}

/* A link speed as the link says it: "1 Gbit/s", "2.5 Gbit/s", "100 Mbit/s". */
static const char *speed_text(double bps, char *buf, size_t len)
{
	if (bps >= 1e9)
		snprintf(buf, len, "%g Gbit/s", bps / 1e9);
	else
		snprintf(buf, len, "%g Mbit/s", bps / 1e6);
	return buf;
}

/*
 * The saturation fact of a failed Balance (src/analyze/watch.c): "; eth0 at
 * 94 % of 1 Gbit/s while eth1 carries 3 %: ...", or that it was not judged.
 */
static const char *saturation(const struct bc_verdict *x, char *buf, size_t len)
{
	const char *s = bc_verdict_get(x, "saturated");
	char r[32];

	buf[0] = '\0';
	if (s && !strcmp(s, "yes"))
		snprintf(buf, len,
			 "; %s at %s of %s while %s carries %s: the bond, not the application, is "
			 "the limit",
			 ev(x, "utilised"), ev(x, "utilisation"),
			 speed_text(strtod(ev(x, "speed_bps"), NULL), r, sizeof(r)), ev(x, "idlest"),
			 ev(x, "idlest_share"));
	else if (s && !strcmp(s, "unknown"))
		snprintf(buf, len, "; saturation not judged: %s reports no speed",
			 ev(x, "speed_unknown"));
	return buf;
}

static void answers(const struct bc_watch_verdicts *v, struct bc_answer *a)
{
	const struct bc_verdict *x;
	char sat[256];

	x = &v->balance;
	if (x->status == BC_VERDICT_NOT_APPLICABLE || x->status == BC_VERDICT_INCONCLUSIVE)
		bc_answer_set(&a[0], "Balance", x->status == BC_VERDICT_NOT_APPLICABLE
							? BC_ANSWER_NA : BC_ANSWER_UNSURE,
			      "%s", ev(x, "reason"));
	else if (x->status == BC_VERDICT_PASS)
		bc_answer_set(&a[0], "Balance", BC_ANSWER_PASS,
			      "%s: busiest %s %s, idlest %s %s", ev(x, "direction"),
			      ev(x, "busiest"), ev(x, "busiest_share"), ev(x, "idlest"),
			      ev(x, "idlest_share"));
	else
		bc_answer_set(&a[0], "Balance", BC_ANSWER_FAIL,
			      "%s: %s carries %s, %s %s: %s%s", ev(x, "direction"), ev(x, "busiest"),
			      ev(x, "busiest_share"), ev(x, "idlest"), ev(x, "idlest_share"),
			      mech_words(x->mechanism), saturation(x, sat, sizeof(sat)));

	x = &v->top_flow;
	if (x->status == BC_VERDICT_NOT_APPLICABLE || x->status == BC_VERDICT_INCONCLUSIVE)
		bc_answer_set(&a[1], "Top flow", x->status == BC_VERDICT_NOT_APPLICABLE
							 ? BC_ANSWER_NA : BC_ANSWER_UNSURE,
			      "%s", ev(x, "reason"));
	else
		bc_answer_set(&a[1], "Top flow",
			      x->status == BC_VERDICT_FAIL ? BC_ANSWER_FAIL : BC_ANSWER_INFO,
			      "port %s -> %s carries %s of the bond, TX on %s (%s)", ev(x, "sport"),
			      ev(x, "dport"), ev(x, "share"),
			      *ev(x, "tx_slave") ? ev(x, "tx_slave") : "an unknown slave",
			      ev(x, "tx_source"));

	x = &v->ports;
	if (x->status == BC_VERDICT_FAIL) {
		char r[32];

		bc_answer_set(&a[2], "Ports", BC_ANSWER_FAIL,
			      "%s sends %s but is not in the transmit set (up: %s)", ev(x, "slave"),
			      rate(strtod(ev(x, "tx_bps"), NULL), r, sizeof(r)), ev(x, "up"));
	}
	else if (x->status == BC_VERDICT_PASS)
		bc_answer_set(&a[2], "Ports", BC_ANSWER_PASS,
			      "only slaves in the transmit set sent");
	else
		bc_answer_set(&a[2], "Ports", BC_ANSWER_UNSURE, "the bond sent nothing");

	x = &v->reordering;
	if (x->status == BC_VERDICT_INCONCLUSIVE)
		bc_answer_set(&a[3], "Reordering", BC_ANSWER_UNSURE, "%s", ev(x, "reason"));
	else
		bc_answer_set(&a[3], "Reordering",
			      x->status == BC_VERDICT_FAIL ? BC_ANSWER_FAIL : BC_ANSWER_PASS,
			      "%s events, rising in %s of the %s intervals that carried TCP "
			      "(all of the namespace's TCP)",
			      ev(x, "reorder_events"), ev(x, "reorder_intervals"),
			      ev(x, "tcp_intervals"));
	for (int i = 0; i < 4; i++) {
		const struct bc_verdict *vs[4] = {&v->balance, &v->top_flow, &v->ports,
						  &v->reordering};

		if (vs[i]->status == BC_VERDICT_FAIL && vs[i]->next_step[0])
			bc_answer_next(&a[i], "%s", vs[i]->next_step);
	}
}

void bc_watch_text_summary(FILE *out, const struct bc_watch_run_info *ri,
			   const struct bc_watch_interval *t, const struct bc_watch_verdicts *v,
			   bool brief)
{
	struct bc_answer a[4];
	char x[32], y[32], z[32];

	memset(a, 0, sizeof(a));
	answers(v, a);
	bc_answer_print(out, a, 4, bc_answer_width(out));
	if (brief)
		return;
	fprintf(out, "\nbondcheck watch: %s (%s%s%s), %zu intervals, %.1f s\n", ri->bond,
		bc_mode_name(ri->mode) ? bc_mode_name(ri->mode) : "unknown",
		ri->policy[0] ? ", " : "", ri->policy, ri->n_intervals, ri->elapsed_s);
	fprintf(out, "\nSlaves (the whole watch; device counters, all traffic)\n");
	fprintf(out, "  %-12s %-6s %16s %6s %16s %6s %7s %7s %16s\n", "slave", "state", "TX",
		"share", "RX", "share", "drops", "errors", "TX of the flows");
	for (size_t i = 0; i < t->n_slaves; i++) {
		const struct bc_watch_slave_rate *s = &t->slaves[i];

		fprintf(out, "  %-12s %-6s %16s %5.0f%% %16s %5.0f%% %7llu %7llu %16s\n", s->name,
			!s->up ? "down" : s->usable ? "up" : "idle", rate(s->tx_bps, x, sizeof(x)),
			s->tx_share >= 0 ? s->tx_share * 100 : 0, rate(s->rx_bps, y, sizeof(y)),
			s->rx_share >= 0 ? s->rx_share * 100 : 0, (unsigned long long)s->drops,
			(unsigned long long)s->errors, rate(s->predicted_tx_bps, z, sizeof(z)));
	}
	if (ri->taps)
		fprintf(out, "\nFlows (busiest first: this host's TCP connections, and what else the "
			     "slave taps counted;\n  TX and RX slave seen by the taps)\n");
	else
		fprintf(out, "\nFlows (this host's TCP connections over the bond, busiest first; TX "
			     "slave predicted by\n  the bond's hash, RX slave unknown without the "
			     "slave taps)\n");
	if (ri->flows_error && ri->flows_error[0])
		fprintf(out, "  not read: %s\n", ri->flows_error);
	else if (!t->n_flows)
		fprintf(out, "  none\n");
	else
		fprintf(out, "  %-5s %-24s %-24s %14s %14s  %s\n", "proto", "local", "peer", "TX",
			"RX", ri->taps ? "TX slave / RX slave" : "TX slave");
	for (size_t i = 0; i < t->n_flows && i < ri->top; i++) {
		const struct bc_watch_flow_rate *f = &t->flows[i];
		char l[64], p[64];

		endpoint(&f->flow, true, l, sizeof(l));
		endpoint(&f->flow, false, p, sizeof(p));
		fprintf(out, "  %-5s %-24s %-24s %14s %14s  ",
			f->flow.proto == IPPROTO_TCP	 ? "tcp"
			: f->flow.proto == IPPROTO_UDP ? "udp"
						       : "other",
			l, p, rate(f->tx_bps, x, sizeof(x)), rate(f->rx_bps, y, sizeof(y)));
		if (f->tx_slave >= 0)
			fprintf(out, "%s (%s)", t->slaves[f->tx_slave].name, src_word(f->tx_src));
		else
			fprintf(out, "- (%s)", f->why[0] ? f->why : "unknown");
		if (ri->taps)
			fprintf(out, " / %s", f->rx_slave >= 0 ? t->slaves[f->rx_slave].name : "-");
		if (ri->taps && f->tx_predicted >= 0 && f->tx_predicted != f->tx_slave)
			fprintf(out, "  (the hash predicted %s)", t->slaves[f->tx_predicted].name);
		fputc('\n', out);
	}
	if (t->n_flows > ri->top)
		fprintf(out, "  ... %zu more (--top N)\n", t->n_flows - ri->top);
	if (ri->flows_dropped)
		fprintf(out, "  %zu connections past the first %d were not followed\n",
			ri->flows_dropped, BC_WATCH_MAX_FLOWS);
	if (ri->taps) {
		fprintf(out, "  slave taps' flow table: %llu of %llu entries%s, %llu evicted, %llu "
			     "packets not counted\n",
			(unsigned long long)ri->tap_flow_entries,
			(unsigned long long)ri->tap_flow_capacity,
			ri->tap_flow_entries >= ri->tap_flow_capacity
				? " (full: the least recently used are evicted)"
				: "",
			(unsigned long long)ri->tap_flow_evicted,
			(unsigned long long)ri->tap_flow_fail);
		if (ri->tap_flow_evicted)
			fprintf(out, "  an evicted flow that comes back restarts its counters: a flow "
				     "only the taps see is\n  underestimated in that interval (the "
				     "busiest flows above may miss bytes), and a flow\n  evicted for "
				     "good loses its observed slave\n");
	} else
		fprintf(out, "\nNot seen without the slave taps: traffic that is not this host's TCP "
			     "(UDP, forwarded\nor bridged frames) is in the slave counters but in no "
			     "flow; which slave the peer\nsends each flow on is unknown.\n");
}
