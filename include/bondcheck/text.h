/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Byte-level text helpers shared by the decoders and renderers: UTF-8
 * validation and sanitising.  Kernel text (interface names, /proc lines) is
 * bytes, not necessarily UTF-8; JSON output must be valid UTF-8.
 */
#ifndef BONDCHECK_TEXT_H
#define BONDCHECK_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * bc_utf8_valid() - whether @len bytes at @s are well-formed UTF-8 (RFC 3629:
 * no overlong forms, no surrogates, nothing above U+10FFFF).  NUL bytes count
 * as valid (U+0000); callers that care check for them separately.
 */
bool bc_utf8_valid(const char *s, size_t len);

/*
 * bc_utf8_sanitize() - copy @len bytes of @src into @dst (capacity @cap,
 * always NUL-terminated when @cap > 0), replacing each byte that does not
 * start a well-formed UTF-8 sequence by @repl, and each control byte
 * (< 0x20 except TAB, or 0x7f) by @repl too.  A multi-byte sequence that
 * does not fit is dropped whole, so the result is valid UTF-8.
 *
 * Returns the number of bytes replaced (0 when @src was clean).
 */
size_t bc_utf8_sanitize(char *dst, size_t cap, const char *src, size_t len, char repl);

#endif
