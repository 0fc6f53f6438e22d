// SPDX-License-Identifier: GPL-2.0-or-later
/* UTF-8 validation and sanitising (RFC 3629 section 4 syntax). */
#include "bondcheck/text.h"

/*
 * Length of the well-formed UTF-8 sequence at @s (at most @len bytes), or 0
 * when the bytes there are not one.  Table 3-7 of the Unicode standard.
 */
static size_t seq_len(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	size_t n;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0; /* continuation byte, overlong lead 0xc0/0xc1, or > 0xf4 */
	if (len < n)
		return 0;
	if (c == 0xe0)
		lo = 0xa0; /* no overlong 3-byte forms */
	else if (c == 0xed)
		hi = 0x9f; /* no UTF-16 surrogates */
	else if (c == 0xf0)
		lo = 0x90; /* no overlong 4-byte forms */
	else if (c == 0xf4)
		hi = 0x8f; /* nothing above U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

bool bc_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		size_t n = seq_len(p + i, len - i);

		if (!n)
			return false;
		i += n;
	}
	return true;
}

size_t bc_utf8_sanitize(char *dst, size_t cap, const char *src, size_t len, char repl)
{
	const unsigned char *p = (const unsigned char *)src;
	size_t i = 0, o = 0, bad = 0;

	if (!cap)
		return 0;
	while (i < len) {
		size_t n = seq_len(p + i, len - i);

		if (!n || (n == 1 && ((p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f))) {
			if (o + 1 >= cap)
				break;
			dst[o++] = repl;
			bad++;
			i++;
			continue;
		}
		if (o + n >= cap)
			break;
		for (size_t k = 0; k < n; k++)
			dst[o++] = (char)p[i + k];
		i += n;
	}
	dst[o] = '\0';
	return bad;
}
