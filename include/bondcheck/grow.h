/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Growing a heap array by doubling, for the pure analysis layers. */
#ifndef BONDCHECK_GROW_H
#define BONDCHECK_GROW_H

#include <stddef.h>

/*
 * bc_grow() - make the array *@p, which has room for *@cap elements of
 * @elem bytes, hold at least @need elements.
 * @first: the capacity of a first allocation (when *@cap is 0), in elements.
 *
 * The capacity doubles from max(*@cap, @first) until it reaches @need; the
 * contents are kept (realloc).  Nothing changes when @need <= *@cap.
 * Returns 0, or -ENOMEM (allocation failed, or the size in bytes would not
 * fit a size_t); *@p and *@cap are then unchanged and still valid.
 */
int bc_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first);

#endif
