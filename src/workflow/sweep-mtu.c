// SPDX-License-Identifier: GPL-2.0-or-later
/* MTU sweep: pending the journal and change session (API-journal.md). */
#include <errno.h>

#include "workflow/sweep-int.h"

int bc_sweep_mtu(const struct bc_sweep_cfg *c, struct json_object *doc, struct bc_error *err)
{
	(void)c;
	(void)doc;
	return bc_error_set(err, -EOPNOTSUPP, "MTU sweeps need the journal, not built yet");
}
