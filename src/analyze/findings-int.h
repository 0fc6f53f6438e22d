/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal helpers shared by the findings checks (src/analyze/findings*.c).
 * Cross-file names carry the fnd_ prefix so they cannot clash inside the
 * static library.
 */
#ifndef BC_ANALYZE_FINDINGS_INT_H
#define BC_ANALYZE_FINDINGS_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "bondcheck/findings.h"
#include "bondcheck/model.h"

/* Evaluation state for one bond. */
struct fnd_ctx {
	struct bc_snapshot *snap;
	const struct bc_bond *bond;
	int rc; /* -ENOMEM once an allocation failed */
};

/*
 * fnd_add() - append finding @id (severity from the catalog) about the bond,
 * or about @slave when non-NULL, with advice (printf format).  Returns NULL
 * on ENOMEM (and
 * sets c->rc); fnd_ev() accepts that NULL.
 */
struct bc_finding *fnd_add(struct fnd_ctx *c, const char *id, const struct bc_slave *slave,
			   const char *advice_fmt, ...) __attribute__((format(printf, 4, 5)));

/* fnd_ev() - add "key": value evidence to @f (NULL allowed; printf format). */
void fnd_ev(struct bc_finding *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * fnd_list_add() - append ", "-separated text to @buf (capacity @cap); when it
 * does not fit, the list ends in "...".
 */
void fnd_list_add(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Evidence text of a field: the number, "Unknown", "N/A", "hidden", "not reported". */
const char *fnd_u32_text(const struct bc_u32 *f, char *buf, size_t len);
/* MII status text ("up", "down", "going down", ...), or status word. */
const char *fnd_link_text(const struct bc_u32 *f);
/* "63 (activity timeout ...)" for a port state. */
const char *fnd_state_text(uint32_t state, char *buf, size_t len);

static inline bool fnd_mode(const struct bc_bond *b, int mode)
{
	return bc_u32_known(&b->mode) && b->mode.v == (uint32_t)mode;
}

static inline bool fnd_slave_up(const struct bc_slave *s)
{
	return bc_u32_known(&s->mii_status) && s->mii_status.v == BC_LINK_UP;
}

/* Check groups: findings-bond.c, findings-slaves.c, findings-lacp.c. */
void fnd_check_bond(struct fnd_ctx *c);
void fnd_check_slaves(struct fnd_ctx *c);
void fnd_check_lacp(struct fnd_ctx *c);
/* findings-device.c: carrier and drops of the listed slaves (rtnetlink, ip listings) */
void fnd_check_device(struct fnd_ctx *c);

#endif
