// SPDX-License-Identifier: GPL-2.0-or-later
/* --format of inspect (text, json, prometheus, nagios; issue 16 item 5). */
#include <string.h>

#include "cli/cli.h"

static const char *const names[] = {
	[BC_FORMAT_TEXT] = "text",
	[BC_FORMAT_JSON] = "json",
	[BC_FORMAT_PROMETHEUS] = "prometheus",
	[BC_FORMAT_NAGIOS] = "nagios",
};

int bc_cli_format_from_name(const char *name)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (name && !strcmp(name, names[i]))
			return (int)i;
	return -1;
}

const char *bc_cli_format_name(int format)
{
	return format >= 0 && format <= BC_FORMAT_NAGIOS ? names[format] : "?";
}

int bc_cli_format_requested(int argc, char **argv)
{
	int format = BC_FORMAT_TEXT;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];
		int f = -1;

		if (!strcmp(a, "--nagios"))
			f = BC_FORMAT_NAGIOS;
		else if (!strncmp(a, "--format=", 9))
			f = bc_cli_format_from_name(a + 9);
		else if (!strcmp(a, "--format") && i + 1 < argc)
			f = bc_cli_format_from_name(argv[++i]);
		/* the first monitoring format named wins, as the check's contract */
		if (f > BC_FORMAT_JSON)
			return f;
		if (f == BC_FORMAT_JSON)
			format = f;
	}
	return format;
}
