// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bc-scenario: validate testbed scenario files and compile them into guest
 * scripts (used by tools/testbed/testbed).
 *
 *   bc-scenario check FILE...    validate; errors as FILE:LINE: reason
 *   bc-scenario compile FILE     the guest script, on stdout
 *   bc-scenario info FILE        "NAME TIMEOUT_SECONDS"
 *   bc-scenario nics FILE...     emulated NIC pairs the files need: "MODEL COUNT" lines
 *                                (the maximum per model, since scenarios run one at a time)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

static int usage(void)
{
	fprintf(stderr, "usage: bc-scenario check|compile|info|nics FILE...\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct scenario sc; /* large: keep it off the stack */
	size_t pairs[SC_N_MODELS] = { 0 };
	int rc = 0;

	if (argc < 3)
		return usage();
	if (strcmp(argv[1], "check") && strcmp(argv[1], "compile") && strcmp(argv[1], "info") &&
	    strcmp(argv[1], "nics"))
		return usage();
	if ((!strcmp(argv[1], "compile") || !strcmp(argv[1], "info")) && argc != 3)
		return usage();
	for (int i = 2; i < argc; i++) {
		if (sc_parse_file(argv[i], &sc)) {
			fprintf(stderr, "%s\n", sc.err);
			rc = 1;
			continue;
		}
		if (!strcmp(argv[1], "compile"))
			sc_emit_script(&sc, stdout);
		else if (!strcmp(argv[1], "info"))
			printf("%s %d\n", sc.name, sc.timeout_s);
		else if (!strcmp(argv[1], "check"))
			printf("%s: ok (%s)\n", argv[i], sc.name);
		for (int m = 0; m < SC_N_MODELS; m++)
			if (sc.nic_pairs[m] > pairs[m])
				pairs[m] = sc.nic_pairs[m];
	}
	if (!strcmp(argv[1], "nics"))
		for (int m = 1; m < SC_N_MODELS; m++)
			if (pairs[m])
				printf("%s %zu\n", sc_model_name((enum sc_model)m), pairs[m]);
	return rc;
}
