/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host lists in the range syntax of pdsh, ClusterShell and Slurm
 * (`node[01-16]`, `h[1-3,7],login1`): the `--expect` list of `bondcheck
 * fleet`.  Syntax, as Slurm's hostlist_create() and pdsh's -w take it:
 *   LIST  := ITEM ("," ITEM)*          commas inside brackets belong to them
 *   ITEM  := PREFIX "[" RANGES "]" SUFFIX | NAME
 *   RANGES:= RANGE ("," RANGE)*
 *   RANGE := N | N "-" M               N <= M, decimal; a leading zero in N
 *                                      sets the width (01-16 gives 01 ... 16)
 * One bracket group per item (Slurm's multi-dimensional `rack[1-2]n[1-4]`
 * is not taken).
 */
#ifndef BONDCHECK_HOSTLIST_H
#define BONDCHECK_HOSTLIST_H

#include <stddef.h>

/* Longest host name kept, bytes with the NUL (HOST_NAME_MAX + 1). */
#define BC_HOST_LEN 65
/* At most this many names from one list (a typo such as [1-9999999] is refused). */
#define BC_HOSTLIST_MAX 100000

struct bc_hostlist {
	size_t n;
	char (*name)[BC_HOST_LEN]; /* n names, in the order written, duplicates dropped */
};

/*
 * bc_hostlist_parse() - expands @text into @hl (malloc'd; free with
 * bc_hostlist_free()).  Returns 0, or -EINVAL with a message in @err (@len
 * bytes) that quotes the part that is wrong and says what was expected, or
 * -E2BIG past BC_HOSTLIST_MAX names or a name longer than BC_HOST_LEN - 1,
 * or -ENOMEM.  On error @hl is empty.
 */
int bc_hostlist_parse(const char *text, struct bc_hostlist *hl, char *err, size_t len);

/* bc_hostlist_free() - releases @hl's names; @hl is empty afterwards. */
void bc_hostlist_free(struct bc_hostlist *hl);

#endif
