// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `scale --method links`: take slaves out on both ends, journal first,
 * restore at the end (bondcheck/journal.h).  The placement method changes
 * nothing and passes through.
 */
#include <errno.h>

#include "workflow/scale-int.h"

static bool links(const struct bc_scale *s)
{
	return s->c->method == BC_SCALE_METHOD_LINKS;
}

int bc_scale_links_prepare(struct bc_scale *s, struct bc_error *err)
{
	if (!links(s))
		return 0;
	if (!s->c->allow_changes)
		return bc_error_set(err, -EINVAL,
				    "--method links takes slaves of %s down on both ends (and puts "
				    "them back); say so with --allow-changes",
				    s->bond);
	return bc_error_set(err, -ENOTSUP,
			    "--method links is not built yet: it waits for the journal "
			    "(restore) library; use --method placement on layer3+4 hash bonds");
}

int bc_scale_links_begin(struct bc_scale *s, struct bc_error *err)
{
	(void)err;
	return links(s) ? -ENOTSUP : 0;
}

int bc_scale_links_check(struct bc_scale *s, struct bc_error *err)
{
	(void)err;
	return links(s) ? -ENOTSUP : 0;
}

int bc_scale_apply(struct bc_scale *s, uint32_t n, struct bc_error *err)
{
	(void)n;
	(void)err;
	return links(s) ? -ENOTSUP : 0;
}

int bc_scale_links_end(struct bc_scale *s, struct bc_error *err)
{
	(void)err;
	(void)s;
	return 0;
}
