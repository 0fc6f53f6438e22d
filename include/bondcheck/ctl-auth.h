/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pre-shared-key authentication of the control connection (docs/protocol.md
 * "Authentication"): HMAC-SHA256 (libsodium crypto_auth_hmacsha256, RFC 2104
 * / FIPS 180-4) over a role label and both sides' 32-byte random nonces, so
 * each side proves it holds the key without sending it, and a reply cannot
 * be reflected back as the other role:
 *
 *   client proof = HMAC(key, "bondcheck-ctl-v1 client" || agent_nonce || client_nonce)
 *   agent proof  = HMAC(key, "bondcheck-ctl-v1 agent"  || client_nonce || agent_nonce)
 *
 * Nonces and proofs travel as lowercase hex.
 */
#ifndef BONDCHECK_CTL_AUTH_H
#define BONDCHECK_CTL_AUTH_H

#include <stddef.h>
#include <stdint.h>

#include "bondcheck/error.h"

#define BC_AUTH_NONCE_LEN 32
#define BC_AUTH_MAC_LEN	  32
#define BC_AUTH_HEX	  (2 * 32 + 1)
#define BC_AUTH_KEY_MIN	  16
#define BC_AUTH_KEY_MAX	  1024

struct bc_auth_key {
	uint8_t key[BC_AUTH_KEY_MAX];
	size_t len; /* 0: no key */
};

/*
 * bc_auth_key_load() - read a key file: its bytes, without a trailing
 * newline.  Returns 0; -errno when unreadable; -EINVAL when shorter than
 * BC_AUTH_KEY_MIN or longer than BC_AUTH_KEY_MAX bytes.
 */
int bc_auth_key_load(const char *path, struct bc_auth_key *k, struct bc_error *err);

/* bc_auth_nonce() - fresh random nonce as hex (@hex holds BC_AUTH_HEX). 0 or -EIO. */
int bc_auth_nonce(char hex[BC_AUTH_HEX]);

/*
 * bc_auth_proof() - hex HMAC for @role ("client" or "agent") over the two
 * hex nonces in the order given.  Returns 0; -EINVAL for malformed nonces.
 */
int bc_auth_proof(const struct bc_auth_key *k, const char *role, const char *nonce_a,
		  const char *nonce_b, char out[BC_AUTH_HEX]);

/*
 * bc_auth_check() - compare @proof with the expected one in constant time.
 * Returns 0; -EACCES on mismatch or malformed proof.
 */
int bc_auth_check(const struct bc_auth_key *k, const char *role, const char *nonce_a,
		  const char *nonce_b, const char *proof);

#endif
