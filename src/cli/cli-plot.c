// SPDX-License-Identifier: GPL-2.0-or-later
/* --plot DIR of the commands that draw SVGs (analyze, matrix, sweep). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

int bc_cli_plot_dir(const char *cmd, const char *dir)
{
	struct stat st;

	if (!stat(dir, &st)) {
		if (S_ISDIR(st.st_mode))
			return BC_EXIT_OK;
		fprintf(stderr,
			"bondcheck %s: --plot '%s' is not a directory; give a folder "
			"for the SVG files\n",
			cmd, dir);
		return BC_EXIT_USAGE;
	}
	if (mkdir(dir, 0755)) {
		fprintf(stderr,
			"bondcheck %s: --plot '%s': cannot create it: %s; give a folder "
			"that exists or whose parent does\n",
			cmd, dir, strerror(errno));
		return BC_EXIT_ENV;
	}
	return BC_EXIT_OK;
}
