// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The answer block of `bondcheck analyze` (bondcheck/answer.h, issue 15
 * item 1): Loss (and the link with the most), Reordering (and the pair of
 * links with the most late arrivals, never a link behind itself), Capture
 * complete.  Pure: reads a finished struct bc_attrib.
 */
#include <inttypes.h>
#include <string.h>

#include "bondcheck/analyze-report.h"
#include "bondcheck/answer.h"

static void loss(const struct bc_attrib *a, struct bc_answer *x)
{
	uint64_t left = 0, lost = 0, other = 0, other_side[2] = { 0, 0 };
	size_t top = SIZE_MAX;

	for (size_t i = 0; i < a->n_links; i++) {
		left += a->links[i].units_left;
		lost += a->links[i].lost;
		if (a->links[i].lost && (top == SIZE_MAX || a->links[i].lost > a->links[top].lost))
			top = i;
	}
	/* each datagram once: from the tx: links when there are some */
	for (size_t i = 0; i < a->n_links; i++)
		other_side[a->links[i].side == BC_SIDE_TX] += a->links[i].udp_other;
	other = other_side[1] ? other_side[1] : other_side[0];
	if (!left && other) {
		bc_answer_set(x, "Loss", BC_ANSWER_UNSURE,
			      "not measured: none of the %" PRIu64
			      " UDP datagrams is bondcheck's or iperf3's",
			      other);
		bc_answer_next(x, "send with bondcheck run --capture or iperf3 -u, or analyze TCP");
		return;
	}
	if (!left) {
		bc_answer_set(x, "Loss", BC_ANSWER_UNSURE,
			      "not measured: nothing left on a tx: capture");
		bc_answer_next(x, "give tx: captures too");
		return;
	}
	if (!lost) {
		bc_answer_set(x, "Loss", BC_ANSWER_PASS, "none of %" PRIu64 " that left", left);
		return;
	}
	bc_answer_set(x, "Loss", BC_ANSWER_WARN,
		      "%" PRIu64 " of %" PRIu64 " datagrams (%.2f %%), most on %s (%" PRIu64 ")",
		      lost, left, 100.0 * (double)lost / (double)left, a->links[top].name,
		      a->links[top].lost);
	for (size_t i = 0; i < a->n_findings; i++)
		if (a->findings[i].severity == BC_SEV_ERROR && strstr(a->findings[i].id, "loss"))
			x->status = BC_ANSWER_FAIL;
}

static void reordering(const struct bc_attrib *a, struct bc_answer *x)
{
	size_t te = 0, tl = 0;
	uint64_t best = 0;

	for (size_t e = 0; e < a->n_links; e++)
		for (size_t l = 0; l < a->n_links; l++)
			if (e != l && a->pairs[e][l] > best) {
				best = a->pairs[e][l];
				te = e;
				tl = l;
			}
	if (bc_attrib_reorder_bound(a) == BC_BOUND_UNKNOWN) {
		bc_answer_set(x, "Reordering", BC_ANSWER_UNSURE,
			      "unknown: a receiver capture is incomplete");
		return;
	}
	if (!a->rx_received) {
		bc_answer_set(x, "Reordering", BC_ANSWER_UNSURE,
			      "not measured: nothing of bondcheck, iperf3 or TCP arrived on an rx: "
			      "capture");
		return;
	}
	if (!a->rx_reordered) {
		bc_answer_set(x, "Reordering", BC_ANSWER_PASS, "none of %" PRIu64 " that arrived",
			      a->rx_received);
		return;
	}
	bc_answer_set(x, "Reordering", BC_ANSWER_WARN, "%" PRIu64 " of %" PRIu64 " late",
		      a->rx_reordered, a->rx_received);
	if (best) {
		size_t n = strlen(x->text);

		snprintf(x->text + n, sizeof(x->text) - n, ", most on %s behind %s (%" PRIu64 ")",
			 a->links[tl].name, a->links[te].name, best);
	}
}

static void complete(const struct bc_attrib *a, struct bc_answer *x)
{
	size_t bad = 0, first = 0;

	for (size_t i = 0; i < a->n_links; i++)
		if (bc_attrib_link_incomplete(a, i) && !bad++)
			first = i;
	if (!a->n_links)
		bc_answer_set(x, "Capture", BC_ANSWER_UNSURE, "no capture read");
	else if (!bad)
		bc_answer_set(x, "Capture", BC_ANSWER_PASS, "complete on all %zu links",
			      a->n_links);
	else
		bc_answer_set(x, "Capture", BC_ANSWER_WARN,
			      "incomplete on %zu of %zu links (%s): counts are bounds", bad,
			      a->n_links, a->links[first].name);
}

void bc_analyze_answers(FILE *out, const struct bc_attrib *a)
{
	struct bc_answer x[3];

	loss(a, &x[0]);
	reordering(a, &x[1]);
	complete(a, &x[2]);
	bc_answer_print(out, x, 3, bc_answer_width(out));
}
