// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reader of a sweep point (bondcheck/sweep.h, issue 14 item 1): its runs
 * decoded once with bondcheck/doc-read.h; bc_sweep_point_finish() reasons
 * on the struct only.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/sweep.h"

int bc_sweep_point_read(struct json_object *point, struct bc_sweep_point_in *out)
{
	struct bc_doc_read *r = &out->rd;
	struct json_object *a;
	char p[BC_DOC_PROBLEM_LEN];
	size_t n;

	memset(out, 0, sizeof(*out));
	bc_doc_read_init(r);
	a = bc_doc_array(r, point, "", "runs", BC_DOC_REQUIRED, &n);
	if (!n)
		return 0;
	out->runs = calloc(n, sizeof(*out->runs));
	if (!out->runs)
		return -ENOMEM;
	out->n_runs = n;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct bc_sweep_run_in *run = &out->runs[i];

		bc_doc_path(p, sizeof(p), "runs", NULL, i);
		run->goodput_bps = run->ceiling_bps = NAN;
		run->sent_packets = run->lost_packets = NAN;
		run->failed = bc_doc_member(r, o, p, "error", BC_DOC_OPTIONAL) != NULL;
		if (run->failed)
			continue;
		bc_doc_dbl(r, o, p, "goodput_bps", BC_DOC_REQUIRED, &run->goodput_bps);
		bc_doc_dbl(r, o, p, "ceiling_bps", BC_DOC_OPTIONAL, &run->ceiling_bps);
		run->udp = bc_doc_member(r, o, p, "sent_packets", BC_DOC_OPTIONAL) != NULL;
		if (run->udp) {
			bc_doc_dbl(r, o, p, "sent_packets", BC_DOC_REQUIRED, &run->sent_packets);
			bc_doc_dbl(r, o, p, "lost_packets", BC_DOC_REQUIRED, &run->lost_packets);
		}
	}
	return 0;
}

void bc_sweep_point_in_free(struct bc_sweep_point_in *p)
{
	free(p->runs);
	memset(p, 0, sizeof(*p));
}
