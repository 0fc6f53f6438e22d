// SPDX-License-Identifier: GPL-2.0-or-later
/* Text report of `bondcheck scale`; see bondcheck/scale-report.h. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "bondcheck/json-get.h"
#include "bondcheck/scale-report.h"
#include "bondcheck/units.h"
#include "bondcheck/wrap.h"

/* Mbit/s with two decimals, or "-" when absent. */
static const char *mbit(struct json_object *o, const char *k, char *buf, size_t len)
{
	struct json_object *v = json_object_object_get(o, k);

	if (!v || json_object_is_type(v, json_type_null))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", json_object_get_double(v) / 1e6);
	return buf;
}

static bool present(struct json_object *o, const char *k)
{
	struct json_object *v = json_object_object_get(o, k);

	return v && !json_object_is_type(v, json_type_null);
}

/* @fmt of member @k times @scale, or "-" when absent. */
static const char *numtxt(struct json_object *o, const char *k, double scale, const char *fmt,
			  char *buf, size_t len)
{
	if (present(o, k))
		snprintf(buf, len, fmt, bc_json_dbl(o, k, 0) * scale);
	else
		snprintf(buf, len, "-");
	return buf;
}

static void slaves_text(struct json_object *arr, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < bc_json_len(arr) && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "",
				       json_object_get_string(json_object_array_get_idx(arr, i)));
	if (!bc_json_len(arr))
		snprintf(buf, len, "-");
}

static void header(FILE *out, struct json_object *doc)
{
	struct json_object *bond = json_object_object_get(doc, "bond");
	struct json_object *slaves = json_object_object_get(doc, "slaves");
	char r[32];

	fprintf(out, "bondcheck scale: %s (%s", bc_json_str(bond, "name"),
		bc_json_str(bond, "mode"));
	/* the policy matters only where the bond hashes flows */
	if (bc_json_str(bond, "xmit_hash_policy")[0] &&
	    (!strcmp(bc_json_str(bond, "mode"), "balance-xor") ||
	     !strcmp(bc_json_str(bond, "mode"), "802.3ad")))
		fprintf(out, ", %s", bc_json_str(bond, "xmit_hash_policy"));
	fprintf(out, ") to %s, method %s\n", bc_json_str(doc, "peer"), bc_json_str(doc, "method"));
	fprintf(out,
		"  %s, %lld flow%s, %lld runs per configuration (interleaved), %.1f s per run "
		"(%.1f s omitted), margin %.0f %%\n",
		!strcmp(bc_json_str(doc, "protocol"), "both")  ? "TCP and UDP"
		: !strcmp(bc_json_str(doc, "protocol"), "udp") ? "UDP"
							       : "TCP",
		bc_json_i64(doc, "flows", 0), bc_json_i64(doc, "flows", 0) == 1 ? "" : "s",
		bc_json_i64(doc, "repetitions", 0),
		(double)bc_json_i64(doc, "duration_ms", 0) / 1000,
		(double)bc_json_i64(doc, "omit_ms", 0) / 1000, bc_json_dbl(doc, "margin", 0) * 100);
	for (size_t i = 0; i < bc_json_len(slaves); i++) {
		struct json_object *s = json_object_array_get_idx(slaves, i);
		char t[16], u[16];

		fprintf(out, "  %-10s rate %s (%s, %s accounting)", bc_json_str(s, "name"),
			bc_json_dbl(s, "rate_bps", 0) > 0
				? bc_format_rate(bc_json_dbl(s, "rate_bps", 0), r, sizeof(r))
				: "unknown",
			bc_json_str(s, "rate_source"), bc_json_str(s, "accounting"));
		fprintf(out, "  ceiling TCP %s UDP %s Mbit/s",
			mbit(s, "tcp_ceiling_bps", t, sizeof(t)),
			mbit(s, "udp_ceiling_bps", u, sizeof(u)));
		if (bc_json_str(s, "agent_peer")[0])
			fprintf(out, "  peer agent/%s", bc_json_str(s, "agent_peer"));
		fputc('\n', out);
	}
}

static void configs(FILE *out, struct json_object *doc)
{
	struct json_object *cfgs = json_object_object_get(doc, "configs");

	fprintf(out, "\nConfigurations (goodput per run in Mbit/s; * CPU-bound, ! zero goodput)\n");
	fprintf(out, "  %-5s %3s  %-20s %9s %9s %9s  %-17s %5s  %s\n", "proto", "N", "slaves",
		"ceiling", "mean", "geo mean", "95 % CI", "eff", "runs");
	for (size_t i = 0; i < bc_json_len(cfgs); i++) {
		struct json_object *c = json_object_array_get_idx(cfgs, i);
		struct json_object *runs = json_object_object_get(c, "runs");
		char sl[128], a[16], b[16], g[16], lo[16], hi[16], ci[40], eff[16], nb[24];

		slaves_text(json_object_object_get(c, "slaves"), sl, sizeof(sl));
		if (present(c, "ci_low_bps"))
			snprintf(ci, sizeof(ci), "%s-%s", mbit(c, "ci_low_bps", lo, sizeof(lo)),
				 mbit(c, "ci_high_bps", hi, sizeof(hi)));
		else
			snprintf(ci, sizeof(ci), "-");
		numtxt(c, "efficiency", 100, "%.0f %%", eff, sizeof(eff));
		/* an absent N or goodput is "?", never 0 (the verdict names it) */
		if (present(c, "n"))
			snprintf(nb, sizeof(nb), "%lld", bc_json_i64(c, "n", 0));
		else
			snprintf(nb, sizeof(nb), "?");
		fprintf(out, "  %-5s %3s  %-20s %9s %9s %9s  %-17s %5s ",
			bc_json_str(c, "protocol"), nb, sl,
			mbit(c, "ceiling_bps", a, sizeof(a)), mbit(c, "mean_bps", b, sizeof(b)),
			mbit(c, "geo_mean_bps", g, sizeof(g)), ci, eff);
		for (size_t k = 0; k < bc_json_len(runs); k++) {
			struct json_object *r = json_object_array_get_idx(runs, k);
			bool cpu = json_object_get_boolean(json_object_object_get(r, "cpu_bound"));
			bool zero = json_object_get_boolean(json_object_object_get(r, "zero"));

			if (present(r, "goodput_bps"))
				fprintf(out, " %.2f%s%s", bc_json_dbl(r, "goodput_bps", 0) / 1e6,
					cpu ? "*" : "", zero ? "!" : "");
			else
				fprintf(out, " ?%s%s", cpu ? "*" : "", zero ? "!" : "");
		}
		fputc('\n', out);
		if (!strcmp(bc_json_str(c, "protocol"), "udp") && present(c, "offered_bps"))
			fprintf(out,
				"  %5s %3s  offered %.2f Mbit/s (above the ceiling: goodput is "
				"what "
				"arrived)\n",
				"", "", bc_json_dbl(c, "offered_bps", 0) / 1e6);
	}
}

static void cmp_row(FILE *out, struct json_object *c)
{
	char sl[96], ci[40], t[16], df[16], p[16], me[16], s[16];

	slaves_text(json_object_object_get(c, "added"), sl, sizeof(sl));
	numtxt(c, "speedup", 1, "%.3fx", s, sizeof(s));
	if (present(c, "ci_low"))
		snprintf(ci, sizeof(ci), "%.3f-%.3f", bc_json_dbl(c, "ci_low", 0),
			 bc_json_dbl(c, "ci_high", 0));
	else
		snprintf(ci, sizeof(ci), "-");
	numtxt(c, "welch_t", 1, "%.2f", t, sizeof(t));
	numtxt(c, "df", 1, "%.1f", df, sizeof(df));
	numtxt(c, "p", 1, "%.2g", p, sizeof(p));
	numtxt(c, "marginal_efficiency", 100, "%.0f %%", me, sizeof(me));
	if (json_object_object_get(c, "marginal_over_100"))
		snprintf(me + strlen(me), sizeof(me) - strlen(me), "*");
	fprintf(out, "  %-5s %3lld -> %-3lld %-12s %9s  %-13s %8s %6s %8s %8s  %s\n",
		bc_json_str(c, "protocol"), bc_json_i64(c, "from_n", 0), bc_json_i64(c, "to_n", 0),
		sl, s, ci, t, df, p, me, bc_json_str(c, "verdict"));
}

/* @b (smallest against a larger one) is also in @cmps: the step to the next size. */
static bool adjacent(struct json_object *cmps, struct json_object *b)
{
	for (size_t i = 0; i < bc_json_len(cmps); i++) {
		struct json_object *c = json_object_array_get_idx(cmps, i);

		if (!strcmp(bc_json_str(c, "protocol"), bc_json_str(b, "protocol")) &&
		    bc_json_i64(c, "from_n", 0) == bc_json_i64(b, "from_n", 1) &&
		    bc_json_i64(c, "to_n", 0) == bc_json_i64(b, "to_n", 1))
			return true;
	}
	return false;
}

static void comparisons(FILE *out, struct json_object *doc)
{
	struct json_object *cmps = json_object_object_get(doc, "comparisons");
	struct json_object *base = json_object_object_get(doc, "versus_baseline");

	fprintf(out, "\nComparisons (Welch's t on ln goodput; speed-up = ratio of geometric means, "
		     "95 %% "
		     "CI;\n  marginal = goodput gained / ceiling of the added links)\n");
	fprintf(out, "  %-5s %10s %-12s %9s  %-13s %8s %6s %8s %8s  %s\n", "proto", "N -> N'",
		"added", "speed-up", "95 % CI", "t", "df", "p", "marginal", "verdict");
	for (size_t i = 0; i < bc_json_len(cmps); i++)
		cmp_row(out, json_object_array_get_idx(cmps, i));
	for (size_t i = 0, shown = 0; i < bc_json_len(base); i++) {
		struct json_object *b = json_object_array_get_idx(base, i);

		if (adjacent(cmps, b))
			continue;
		if (!shown++)
			fprintf(out, "  against the smallest configuration:\n");
		cmp_row(out, b);
	}
	for (size_t i = 0; i < bc_json_len(cmps) + bc_json_len(base); i++) {
		struct json_object *c =
			i < bc_json_len(cmps)
				? json_object_array_get_idx(cmps, i)
				: json_object_array_get_idx(base, i - bc_json_len(cmps));

		if (json_object_object_get(c, "marginal_over_100") &&
		    (i < bc_json_len(cmps) || !adjacent(cmps, c)))
			bc_wrapf(out, 4, "  * %s %lld -> %lld: marginal %s", bc_json_str(c, "protocol"),
				 bc_json_i64(c, "from_n", 0), bc_json_i64(c, "to_n", 0),
				 bc_json_str(c, "marginal_over_100"));
	}
	for (size_t i = 0; i < bc_json_len(cmps); i++) {
		struct json_object *c = json_object_array_get_idx(cmps, i);
		struct json_object *d = json_object_object_get(c, "diagnosis");
		struct json_object *causes = json_object_object_get(d, "causes");
		char sl[128];

		if (present(c, "retransmits_to") && strcmp(bc_json_str(c, "verdict"), "gain"))
			bc_wrapf(out, 4, "  %s %lld -> %lld: TCP retransmits per run %.0f -> %.0f",
				 bc_json_str(c, "protocol"), bc_json_i64(c, "from_n", 0),
				 bc_json_i64(c, "to_n", 0), bc_json_dbl(c, "retransmits_from", 0),
				 bc_json_dbl(c, "retransmits_to", 0));
		if (!d)
			continue;
		slaves_text(json_object_object_get(d, "slaves"), sl, sizeof(sl));
		bc_wrapf(out, 4,
			 "  %s %lld -> %lld: diagnosis: UDP capture run over %s, %.2f Mbit/s "
			 "offered, %.2f arrived%s%s",
			 bc_json_str(c, "protocol"), bc_json_i64(c, "from_n", 0),
			 bc_json_i64(c, "to_n", 0), sl, bc_json_dbl(d, "offered_bps", 0) / 1e6,
			 bc_json_dbl(d, "goodput_bps", 0) / 1e6,
			 bc_json_str(d, "error")[0] ? "; failed: " : "", bc_json_str(d, "error"));
		for (size_t k = 0; k < bc_json_len(causes); k++)
			bc_wrapf(out, 6, "    %s %s", k ? "also:" : "cause:",
				 bc_json_str(json_object_array_get_idx(causes, k), "text"));
		if (!bc_json_len(causes) && !bc_json_str(d, "error")[0])
			fprintf(out, "    the capture shows no loss, reordering or idle link\n");
	}
}

void bc_scale_report_text(FILE *out, struct json_object *doc)
{
	struct json_object *notes = json_object_object_get(doc, "notes");
	struct json_object *errors = json_object_object_get(doc, "errors");
	struct json_object *findings = json_object_object_get(doc, "findings");
	struct json_object *v = json_object_object_get(doc, "verdict");

	bc_scale_report_answers(out, doc);
	fputc('\n', out);
	header(out, doc);
	configs(out, doc);
	if (json_object_object_get(doc, "comparisons"))
		comparisons(out, doc);
	if (bc_json_len(notes) || bc_json_len(errors))
		fputc('\n', out);
	for (size_t i = 0; i < bc_json_len(errors); i++)
		bc_wrapf(out, 7, "error: %s",
			 json_object_get_string(json_object_array_get_idx(errors, i)));
	for (size_t i = 0; i < bc_json_len(notes); i++)
		bc_wrapf(out, 6, "note: %s",
			 json_object_get_string(json_object_array_get_idx(notes, i)));
	if (bc_json_len(findings)) {
		fprintf(out, "\nFindings\n");
		for (size_t i = 0; i < bc_json_len(findings); i++) {
			struct json_object *f = json_object_array_get_idx(findings, i);

			bc_wrapf(out, 28, "  %-7s %-17s %s: %s", bc_json_str(f, "severity"),
				 bc_json_str(f, "id"), bc_json_str(f, "subject"),
				 bc_json_str(f, "advice"));
		}
	}
	if (v) {
		fputc('\n', out);
		bc_wrapf(out, 4, "Verdict (%s)%s: %s", bc_json_str(v, "status"),
			 json_object_get_boolean(json_object_object_get(doc, "incomplete"))
				 ? ", incomplete"
				 : "",
			 bc_json_str(v, "text"));
	}
}
