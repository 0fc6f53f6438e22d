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
			bc_wrapf(out, 4, "  * %s %lld -> %lld: marginal %s",
				 bc_json_str(c, "protocol"), bc_json_i64(c, "from_n", 0),
				 bc_json_i64(c, "to_n", 0), bc_json_str(c, "marginal_over_100"));
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

/* "eth2 down and up 3 times" for one end's slave @name in @changes (key @k). */
static size_t changed_text(struct json_object *changes, const char *k, char *buf, size_t len)
{
	size_t at = 0, n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < bc_json_len(changes) && at < len; i++) {
		const char *name = bc_json_str(json_object_array_get_idx(changes, i), k);
		size_t down = 0, up = 0, seen = 0;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(bc_json_str(json_object_array_get_idx(changes, j), k), name);
		if (seen || !name[0])
			continue;
		for (size_t j = i; j < bc_json_len(changes); j++) {
			struct json_object *c = json_object_array_get_idx(changes, j);

			if (!strcmp(bc_json_str(c, k), name))
				!strcmp(bc_json_str(c, "admin"), "down") ? down++ : up++;
		}
		if (down == up)
			at += (size_t)snprintf(buf + at, len - at, "%s%s down and up %zu time%s",
					       n ? ", " : "", name, down, down == 1 ? "" : "s");
		else
			at += (size_t)snprintf(buf + at, len - at, "%s%s down %zu, up %zu",
					       n ? ", " : "", name, down, up);
		n++;
	}
	if (!n)
		snprintf(buf, len, "nothing");
	return n;
}

/*
 * One end's restore report (bc_journal_restore()'s): "as its journal
 * recorded it" with what was set back, or every field not restored, the
 * errors and an unstable bond.  Returns true when that end is restored.
 */
static bool restore_end(FILE *out, const char *who, struct json_object *rep)
{
	struct json_object *fs = json_object_object_get(rep, "fields");
	struct json_object *errs = json_object_object_get(rep, "errors");
	char set[512] = "";
	size_t at = 0, nset = 0, nbad = 0;
	bool ok;

	if (!rep) {
		bc_wrapf(out, 6,
			 "  %s: no restore report (the restore did not run or its answer "
			 "was lost): the bond may still be changed",
			 who);
		return false;
	}
	ok = json_object_get_boolean(json_object_object_get(rep, "ok"));
	for (size_t i = 0; i < bc_json_len(fs); i++) {
		struct json_object *f = json_object_array_get_idx(fs, i);

		if (!json_object_get_boolean(json_object_object_get(f, "ok")))
			nbad++;
		else if (strcmp(bc_json_str(f, "action"), "none") && at < sizeof(set))
			at += (size_t)snprintf(set + at, sizeof(set) - at, "%s%s %s",
					       nset++ ? ", " : "", bc_json_str(f, "field"),
					       bc_json_str(f, "action"));
	}
	if (ok && !nbad) {
		bc_wrapf(out, 6, "  %s: %s as its journal recorded it%s%s", who,
			 bc_json_str(rep, "bond"), nset ? "; set back: " : " (nothing to set back)",
			 set);
		return true;
	}
	bc_wrapf(out, 6, "  %s: %s NOT restored%s%s", who, bc_json_str(rep, "bond"),
		 nset ? "; set back: " : "", set);
	for (size_t i = 0; i < bc_json_len(fs); i++) {
		struct json_object *f = json_object_array_get_idx(fs, i);

		if (!json_object_get_boolean(json_object_object_get(f, "ok")))
			bc_wrapf(out, 8, "    %s: journal %s, now %s%s%s%s",
				 bc_json_str(f, "field"), bc_json_str(f, "journal"),
				 bc_json_str(f, "after"),
				 strcmp(bc_json_str(f, "action"), "none") ? " (" : "",
				 strcmp(bc_json_str(f, "action"), "none") ? bc_json_str(f, "action")
									  : "",
				 strcmp(bc_json_str(f, "action"), "none") ? ")" : "");
	}
	for (size_t i = 0; i < bc_json_len(errs); i++)
		bc_wrapf(out, 8, "    error: %s",
			 json_object_get_string(json_object_array_get_idx(errs, i)));
	if (json_object_object_get(rep, "stable") &&
	    !json_object_get_boolean(json_object_object_get(rep, "stable")))
		bc_wrapf(out, 8, "    not stable: %s", bc_json_str(rep, "not_stable"));
	return false;
}

/*
 * --method links: the probe's evidence that ordered the links (its
 * reordering pairs, loss, idle links), what was changed on each end and
 * whether both ends were restored (the document's "links" member,
 * docs/scale.md).
 */
static void links_text(FILE *out, struct json_object *doc)
{
	struct json_object *l = json_object_object_get(doc, "links");
	struct json_object *p = json_object_object_get(l, "probe");
	struct json_object *causes = json_object_object_get(p, "causes");
	struct json_object *order = json_object_object_get(doc, "order");
	struct json_object *slaves = json_object_object_get(doc, "slaves");
	struct json_object *rs = json_object_object_get(l, "restore");
	const char *agent_bond =
		bc_json_str(p, "agent_bond")[0] ? bc_json_str(p, "agent_bond") : "its bond";
	char ord[256], scores[512], ch[512];
	size_t at = 0;
	bool c_ok, a_ok;

	if (!l)
		return;
	slaves_text(order, ord, sizeof(ord));
	scores[0] = '\0';
	for (size_t i = 0; i < bc_json_len(order) && at < sizeof(scores); i++) {
		const char *n = json_object_get_string(json_object_array_get_idx(order, i));

		for (size_t k = 0; k < bc_json_len(slaves); k++) {
			struct json_object *x = json_object_array_get_idx(slaves, k);

			if (!strcmp(bc_json_str(x, "name"), n ? n : ""))
				at += (size_t)snprintf(
					scores + at, sizeof(scores) - at, "%s%s %lld%s",
					at ? ", " : "", n, bc_json_i64(x, "score", 0),
					!strcmp(bc_json_str(x, "leaves_because"), "slowest")
						? " (first whatever its score: balance-rr's "
						  "clearly slowest slave)"
						: "");
		}
	}
	fputc('\n', out);
	if (p)
		bc_wrapf(out, 4,
			 "Link order (the slaves leave in this order): %s; from the UDP probe over "
			 "every slave (%.2f Mbit/s offered, %.2f arrived), scored inspect error "
			 "100, "
			 "loss 50, reordering 30, idle 20: %s",
			 ord, bc_json_dbl(p, "offered_bps", 0) / 1e6,
			 bc_json_dbl(p, "goodput_bps", 0) / 1e6, scores[0] ? scores : "-");
	else
		bc_wrapf(out, 4, "Link order (the slaves leave in this order): %s; no probe ran",
			 ord);
	for (size_t i = 0; i < bc_json_len(causes); i++) {
		struct json_object *c = json_object_array_get_idx(causes, i);
		struct json_object *pairs =
			json_object_object_get(json_object_object_get(c, "evidence"), "pairs");

		bc_wrapf(out, 6, "  %s: %s", bc_json_str(c, "slave"), bc_json_str(c, "text"));
		for (size_t k = 0; k < bc_json_len(pairs); k++) {
			struct json_object *x = json_object_array_get_idx(pairs, k);

			bc_wrapf(out, 8, "    late on %s behind %s: %lld (extent max %lld)",
				 bc_json_str(x, "late_link"), bc_json_str(x, "early_link"),
				 bc_json_i64(x, "count", 0), bc_json_i64(x, "extent_max", 0));
		}
	}
	if (p && !bc_json_len(causes))
		bc_wrapf(out, 4,
			 "  the probe found no loss, reordering or idle link: the order is "
			 "the placement's");
	if (bc_json_len(json_object_object_get(p, "agent_findings")))
		bc_wrapf(out, 4, "  the agent's inspect findings against the slaves' peers: %zu",
			 bc_json_len(json_object_object_get(p, "agent_findings")));
	changed_text(json_object_object_get(l, "changes"), "slave", ch, sizeof(ch));
	bc_wrapf(out, 4, "Changed on the client: %s's %s",
		 bc_json_str(json_object_object_get(doc, "bond"), "name"), ch);
	changed_text(json_object_object_get(l, "changes"), "agent_slave", ch, sizeof(ch));
	bc_wrapf(out, 4, "Changed on the agent: %s's %s", agent_bond, ch);
	if (!rs) {
		bc_wrapf(out, 4,
			 "Restore: no report in the document: neither end is known to be "
			 "restored; check both with `bondcheck restore --check`");
		return;
	}
	bc_wrapf(out, 4, "Restore:");
	c_ok = restore_end(out, "client",
			   json_object_object_get(rs, "client_settled")
				   ? json_object_object_get(rs, "client_settled")
				   : json_object_object_get(rs, "client"));
	a_ok = restore_end(out, "agent", json_object_object_get(rs, "agent"));
	if (c_ok && a_ok)
		bc_wrapf(out, 4, "  both ends were restored");
	else
		bc_wrapf(out, 4, "  %s not restored: run `bondcheck restore` there%s%s%s",
			 !c_ok && !a_ok ? "neither end was"
			 : !c_ok	? "the client was"
					: "the agent was",
			 !c_ok && bc_json_str(l, "journal")[0] ? " (client journal " : "",
			 !c_ok ? bc_json_str(l, "journal") : "",
			 !c_ok && bc_json_str(l, "journal")[0] ? ")" : "");
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
	links_text(out, doc);
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
