// SPDX-License-Identifier: GPL-2.0-or-later
/* `bondcheck matrix --plan`: the plan as text and as JSON (bondcheck/matrix-plan.h).  Pure. */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "bondcheck/json-get.h"
#include "bondcheck/matrix-plan.h"
#include "bondcheck/matrix.h"

/* Rounds, and pairs of a round, listed in the text; -j lists them all. */
#define TEXT_ROUNDS 64
#define TEXT_PAIRS  12

/* What the estimate assumes (bc_matrix_plan_estimate()): the @i-th of N_ASSUMES into @buf. */
#define N_ASSUMES 4
static const char *assume(size_t i, char *buf, size_t len)
{
	static const char *const fixed[] = {
		"every host answers the controller",
		"equal MTUs at both ends of a pair: one DF probe size (different MTUs send two)",
		"the pairs of a step end together; the next step starts when they have",
	};

	if (i < 3)
		return fixed[i];
	snprintf(buf, len,
		 "control work of %.2f s per relayed test (measured on network namespaces; a "
		 "network with longer round trips adds them)",
		 (double)BC_MATRIX_SETUP_MS / 1000);
	return buf;
}

void bc_matrix_duration_text(uint64_t ms, char *buf, size_t len)
{
	uint64_t s = ms / 1000;

	if (ms < 60000)
		snprintf(buf, len, "%.1f s", (double)ms / 1000);
	else if (s < 3600)
		snprintf(buf, len, "%llu min %02llu s", (unsigned long long)(s / 60),
			 (unsigned long long)(s % 60));
	else if (s < 86400)
		snprintf(buf, len, "%llu h %02llu min", (unsigned long long)(s / 3600),
			 (unsigned long long)(s % 3600 / 60));
	else
		snprintf(buf, len, "%llu d %llu h", (unsigned long long)(s / 86400),
			 (unsigned long long)(s % 86400 / 3600));
}

void bc_matrix_plan_report_text(FILE *out, const struct bc_matrix_plan *p,
				const char *const *hosts, const struct bc_matrix_estimate *e)
{
	char rule[32], total[32], serial[32], buf[200];

	bc_matrix_rule_text(&p->rule, rule, sizeof(rule));
	fprintf(out, "Plan: %u hosts, --pairs %s", p->n_hosts, rule);
	if (p->rule.kind == BC_MATRIX_PAIRS_RANDOM)
		fprintf(out, " (seed %llu)", (unsigned long long)p->rule.seed);
	fprintf(out, ": %zu ordered pairs in %u rounds of disjoint pairs (", p->n_slots,
		p->n_rounds);
	if (p->round_min == p->round_max)
		fprintf(out, "%u pair%s per round)\n", p->round_max, p->round_max == 1 ? "" : "s");
	else
		fprintf(out, "%u to %u pairs per round)\n", p->round_min, p->round_max);
	if (p->left_out)
		fprintf(out, "  %s is in no pair: bisection of an odd number of hosts\n",
			hosts[p->n_hosts - 1]);
	if (p->step_max > 1)
		fprintf(out,
			"Concurrency %u: %u steps, at most %u pairs at once (pairs at once share "
			"the fabric: what is measured changes)\n",
			p->concurrency, p->n_steps, p->step_max);
	else
		fprintf(out, "Concurrency %u: %u steps, one pair at a time\n", p->concurrency,
			p->n_steps);
	bc_matrix_duration_text(e->total_ms, total, sizeof(total));
	bc_matrix_duration_text(e->serial_ms, serial, sizeof(serial));
	fprintf(out, "Estimated time: %s = %u steps x %.2f s + %u host checks x %.2f s", total,
		p->n_steps, (double)e->step_ms / 1000, p->n_hosts,
		(double)BC_MATRIX_SETUP_MS / 1000);
	if (e->serial_ms != e->total_ms)
		fprintf(out, " (one pair at a time: %s)", serial);
	fprintf(out, "\n  a step: test %.1f s + Tmax %.1f s + DF probe %.1f s + control %.2f s\n",
		(double)e->duration_ms / 1000, (double)e->tmax_ms / 1000,
		(double)e->probe_ms / 1000, (double)e->setup_ms / 1000);
	for (size_t i = 0, k = 0; i < N_ASSUMES; i++)
		if (i != 1 || e->probe_ms) /* the MTUs matter to the probes only */
			fprintf(out, "  %s %s\n", k++ ? "        " : "assumes:",
				assume(i, buf, sizeof(buf)));
	if (p->n_slots > BC_MATRIX_MAX_PAIRS)
		fprintf(out,
			"  a run takes at most %d pairs: this plan cannot run (use --pairs ring, "
			"random:K or bisection)\n",
			BC_MATRIX_MAX_PAIRS);
	fprintf(out, "\nRounds (from -> to):\n");
	for (size_t k = 0; k < p->n_slots;) {
		unsigned r = p->slots[k].round, steps;
		size_t e2 = k;

		while (e2 < p->n_slots && p->slots[e2].round == r)
			e2++;
		if (r >= TEXT_ROUNDS) {
			fprintf(out, "  ... %u more rounds (-j lists every pair)\n", p->n_rounds - r);
			break;
		}
		steps = bc_matrix_round_steps((unsigned)(e2 - k), p->concurrency);
		fprintf(out, "  round %u (%zu pair%s, %u step%s):", r + 1, e2 - k,
			e2 - k == 1 ? "" : "s", steps, steps == 1 ? "" : "s");
		for (size_t i = k; i < e2 && i < k + TEXT_PAIRS; i++)
			fprintf(out, "%s %s -> %s", i > k ? "," : "", hosts[p->slots[i].from],
				hosts[p->slots[i].to]);
		if (e2 - k > TEXT_PAIRS)
			fprintf(out, ", ... %zu more", e2 - k - TEXT_PAIRS);
		fputc('\n', out);
		k = e2;
	}
}

static struct json_object *ms(uint64_t v)
{
	return json_object_new_uint64(v);
}

int bc_matrix_plan_report_json(FILE *out, const struct bc_matrix_plan *p,
			       const char *const *hosts, const struct bc_matrix_estimate *e)
{
	struct json_object *d = json_object_new_object(), *o, *a;
	char rule[32], stamp[32], buf[200];
	const char *text;
	size_t len;

	bc_json_generated_at(stamp, sizeof(stamp));
	json_object_object_add(d, "schema_version", json_object_new_int(1));
	json_object_object_add(d, "bondcheck_version", json_object_new_string(BC_VERSION));
	json_object_object_add(d, "generated_at", json_object_new_string(stamp));
	json_object_object_add(d, "kind", json_object_new_string("matrix-plan"));
	a = json_object_new_array();
	for (unsigned h = 0; h < p->n_hosts; h++)
		json_object_array_add(a, json_object_new_string(hosts[h]));
	json_object_object_add(d, "hosts", a);
	json_object_object_add(d, "pairs_rule", json_object_new_string(bc_matrix_rule_text(
							&p->rule, rule, sizeof(rule))));
	json_object_object_add(d, "seed", p->rule.kind == BC_MATRIX_PAIRS_RANDOM
						  ? json_object_new_uint64(p->rule.seed)
						  : NULL);
	json_object_object_add(d, "left_out",
			       p->left_out ? json_object_new_string(hosts[p->n_hosts - 1]) : NULL);
	json_object_object_add(d, "concurrency", json_object_new_int64(p->concurrency));
	json_object_object_add(d, "ordered_pairs", json_object_new_uint64(p->n_slots));
	json_object_object_add(d, "rounds", json_object_new_int64(p->n_rounds));
	json_object_object_add(d, "steps", json_object_new_int64(p->n_steps));
	o = json_object_new_object();
	json_object_object_add(o, "min", json_object_new_int64(p->round_min));
	json_object_object_add(o, "max", json_object_new_int64(p->round_max));
	json_object_object_add(d, "pairs_per_round", o);
	json_object_object_add(d, "concurrent_pairs_max", json_object_new_int64(p->step_max));
	json_object_object_add(d, "runnable",
			       json_object_new_boolean(p->n_slots <= BC_MATRIX_MAX_PAIRS));
	o = json_object_new_object();
	json_object_object_add(o, "total_ms", ms(e->total_ms));
	json_object_object_add(o, "serial_ms", ms(e->serial_ms));
	json_object_object_add(o, "step_ms", ms(e->step_ms));
	json_object_object_add(o, "duration_ms", ms(e->duration_ms));
	json_object_object_add(o, "tmax_ms", ms(e->tmax_ms));
	json_object_object_add(o, "probe_ms", ms(e->probe_ms));
	json_object_object_add(o, "setup_ms", ms(e->setup_ms));
	json_object_object_add(o, "host_checks_ms", ms(e->host_checks_ms));
	a = json_object_new_array();
	for (size_t i = 0; i < N_ASSUMES; i++)
		if (i != 1 || e->probe_ms)
			json_object_array_add(a,
					      json_object_new_string(assume(i, buf, sizeof(buf))));
	json_object_object_add(o, "assumes", a);
	json_object_object_add(d, "estimate", o);
	/* the header by json-c, then "schedule" one round a line: a plan of
	 * millions of pairs is never held as one json-c tree */
	text = json_object_to_json_string_ext(d, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED);
	len = strlen(text);
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	if (len && text[len - 1] == '}') /* the document's own closing brace, once */
		len--;
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	fwrite(text, 1, len, out);
	json_object_put(d);
	fputs(",\n  \"schedule\": [", out);
	for (size_t k = 0; k < p->n_slots;) {
		unsigned r = p->slots[k].round;
		struct json_object *ro = json_object_new_object(), *pa = json_object_new_array();

		json_object_object_add(ro, "round", json_object_new_int64(r));
		for (; k < p->n_slots && p->slots[k].round == r; k++) {
			struct json_object *po = json_object_new_object();

			json_object_object_add(po, "from",
					       json_object_new_string(hosts[p->slots[k].from]));
			json_object_object_add(po, "to",
					       json_object_new_string(hosts[p->slots[k].to]));
			json_object_object_add(po, "step", json_object_new_int64(p->slots[k].step));
			json_object_array_add(pa, po);
		}
		json_object_object_add(ro, "pairs", pa);
		fprintf(out, "%s\n    %s", r ? "," : "",
			json_object_to_json_string_ext(ro, JSON_C_TO_STRING_SPACED));
		json_object_put(ro);
	}
	fputs("\n  ]\n}\n", out);
	return ferror(out) ? -1 : 0;
}
