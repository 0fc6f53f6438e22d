/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text rendering of `bondcheck run` results (the JSON of bondcheck/client.h).
 * Pure: JSON in, text to the stream the caller gives.
 */
#ifndef BONDCHECK_RUN_REPORT_H
#define BONDCHECK_RUN_REPORT_H

#include <stdio.h>

#include <json-c/json.h>

/* One line per stream and a sum line for an interval object. */
void bc_run_report_interval(FILE *out, struct json_object *interval);

/* The final table: per stream, per direction sum with ceiling and efficiency, notes. */
void bc_run_report_text(FILE *out, struct json_object *result);

#endif
