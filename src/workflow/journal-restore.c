// SPDX-License-Identifier: GPL-2.0-or-later
/* bc_journal_restore(): minimal first version (admin state, MTU, MAC); full order to follow. */
#include <errno.h>
#include <string.h>

#include "bondcheck/bond-change.h"
#include "workflow/journal-int.h"

int bc_journal_restore(const struct bc_journal *j, int timeout_ms, struct json_object **report,
		       struct bc_error *err)
{
	struct json_object *diff = NULL;
	int r;

	for (size_t i = 0; i < j->n_slaves; i++) {
		bc_link_set_mtu(j->slaves[i].name, j->slaves[i].mtu, err);
		bc_link_set_up(j->slaves[i].name, j->slaves[i].admin_up, err);
	}
	bc_link_set_mtu(j->bond, j->mtu, err);
	bc_link_set_up(j->bond, j->admin_up, err);
	bc_bond_wait_stable(j->bond, timeout_ms, NULL);
	r = bc_journal_compare(j, &diff, err);
	if (report)
		*report = diff;
	else
		json_object_put(diff);
	return r < 0 ? r : r > 0 ? -EIO : 0;
}
