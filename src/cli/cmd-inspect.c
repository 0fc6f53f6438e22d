// SPDX-License-Identifier: GPL-2.0-or-later
/* Placeholder until the inspect issue lands: says so honestly. */
#include <stdio.h>

#include "cli/cli.h"

int bc_cmd_inspect(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "bondcheck inspect: not implemented yet\n");
	return BC_EXIT_USAGE;
}
