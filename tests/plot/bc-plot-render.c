// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test driver of the plot renderers (bondcheck/plot.h):
 *   bc-plot-render KIND IN.json OUT.svg [KIND IN.json OUT.svg]...
 * renders each triple in order in this one process (so repeated calls share
 * PLplot's global state, as in bondcheck), failures included, and prints
 * one line per triple on stdout: "ok" or "ERRNAME rc: message" (the
 * bc_error).  Exit 0 when every triple was written, 1 when one failed, 2 on
 * usage or unreadable JSON.  KIND: timeline, density, ledger, scaling,
 * heatmap, sweep, failover, watch-flows.  IN.json may hold any JSON value, null included.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "bondcheck/plot.h"

static const struct {
	const char *kind;
	int (*fn)(const char *, struct json_object *, struct bc_error *);
} kinds[] = {
	{"timeline", bc_plot_link_timeline}, {"density", bc_plot_reorder_density},
	{"ledger", bc_plot_ledger},	     {"scaling", bc_plot_scaling},
	{"heatmap", bc_plot_heatmap},	     {"sweep", bc_plot_sweep},
	{"failover", bc_plot_failover_timeline}, {"watch-flows", bc_plot_watch_flows},
};

static const char *errname(int e)
{
	switch (e) {
	case EINVAL:
		return "EINVAL";
	case ENODATA:
		return "ENODATA";
	case ENOENT:
		return "ENOENT";
	case EACCES:
		return "EACCES";
	case ENODEV:
		return "ENODEV";
	case EIO:
		return "EIO";
	default:
		return "other";
	}
}

int main(int argc, char **argv)
{
	if (argc < 4 || (argc - 1) % 3) {
		fprintf(stderr, "usage: bc-plot-render KIND IN.json OUT.svg [...]\n");
		return 2;
	}
	int status = 0;

	for (int i = 1; i + 2 < argc; i += 3) {
		struct bc_error err = {0};
		struct json_object *doc;
		size_t k;
		int rc;

		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (!strcmp(kinds[k].kind, argv[i]))
				break;
		if (k == sizeof(kinds) / sizeof(kinds[0])) {
			fprintf(stderr, "unknown kind '%s'\n", argv[i]);
			return 2;
		}
		doc = json_object_from_file(argv[i + 1]);
		if (!doc) {
			/* a file holding the JSON literal null is a valid test input */
			FILE *f = fopen(argv[i + 1], "r");
			char buf[8] = "";

			if (!f || !fgets(buf, sizeof(buf), f) || strncmp(buf, "null", 4)) {
				fprintf(stderr, "cannot read JSON '%s'\n", argv[i + 1]);
				if (f)
					fclose(f);
				return 2;
			}
			fclose(f);
		}
		rc = kinds[k].fn(argv[i + 2], doc, &err);
		json_object_put(doc);
		if (rc) {
			printf("%s %d: %s\n", errname(-rc), rc, err.msg);
			status = 1;
		} else {
			printf("ok\n");
		}
	}
	return status;
}
