/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `bondcheck run` without single-test options: the suite (cmd-run-suite.c). */
#ifndef BC_CLI_RUN_SUITE_H
#define BC_CLI_RUN_SUITE_H

#include <stdbool.h>

#include "bondcheck/client.h"

/* the PLplot renderers (issue 6 part 3) come with bondcheck/plot.h */
#if defined(__has_include)
#if __has_include("bondcheck/plot.h")
#define BC_SUITE_PLOTS 1
#endif
#endif

struct suite_opts {
	bool quick, json;
	bool brief; /* --brief: the answer block alone on stdout */
	const char *json_file, *csv, *plot, *from_json;
};

/* Run (or with --from-json re-render) the suite; returns the exit status. */
int bc_cmd_run_suite(const struct bc_client_cfg *cfg, const struct suite_opts *o);

#endif
