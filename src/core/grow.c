// SPDX-License-Identifier: GPL-2.0-or-later
/* bc_grow(): see bondcheck/grow.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "bondcheck/grow.h"

int bc_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t n = *cap ? *cap : (first ? first : 1);
	void *q;

	if (need <= *cap)
		return 0;
	if (!elem)
		return -ENOMEM;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (n > SIZE_MAX / elem)
		return -ENOMEM;
	q = realloc(*p, n * elem);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}
