// SPDX-License-Identifier: GPL-2.0-or-later
/* HMAC-SHA256 challenge for the control connection; see bondcheck/ctl-auth.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "bondcheck/ctl-auth.h"

int bc_auth_key_load(const char *path, struct bc_auth_key *k, struct bc_error *err)
{
	ssize_t n;
	int fd;

	memset(k, 0, sizeof(*k));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bc_error_set(err, -errno, "cannot read key file %s: %s", path,
				    strerror(errno));
	n = read(fd, k->key, sizeof(k->key));
	if (n == (ssize_t)sizeof(k->key)) {
		char extra;

		if (read(fd, &extra, 1) == 1) {
			close(fd);
			return bc_error_set(err, -EINVAL, "key file %s is longer than %d bytes",
					    path, BC_AUTH_KEY_MAX);
		}
	}
	close(fd);
	if (n < 0)
		return bc_error_set(err, -errno, "cannot read key file %s: %s", path,
				    strerror(errno));
	while (n > 0 && (k->key[n - 1] == '\n' || k->key[n - 1] == '\r'))
		n--;
	if (n < BC_AUTH_KEY_MIN) {
		sodium_memzero(k, sizeof(*k));
		return bc_error_set(err, -EINVAL,
				    "key file %s holds %zd bytes; expected at least %d "
				    "(e.g. `head -c 32 /dev/urandom | base64 > %s`)",
				    path, n, BC_AUTH_KEY_MIN, path);
	}
	k->len = (size_t)n;
	return 0;
}

int bc_auth_nonce(char hex[BC_AUTH_HEX])
{
	uint8_t n[BC_AUTH_NONCE_LEN];

	if (sodium_init() < 0)
		return -EIO;
	randombytes_buf(n, sizeof(n));
	sodium_bin2hex(hex, BC_AUTH_HEX, n, sizeof(n));
	return 0;
}

static int unhex(const char *hex, uint8_t out[32])
{
	size_t got;

	if (!hex || strlen(hex) != 64)
		return -EINVAL;
	if (sodium_hex2bin(out, 32, hex, 64, NULL, &got, NULL) < 0 || got != 32)
		return -EINVAL;
	return 0;
}

static int mac(const struct bc_auth_key *k, const char *role, const char *nonce_a,
	       const char *nonce_b, uint8_t out[BC_AUTH_MAC_LEN])
{
	crypto_auth_hmacsha256_state st;
	uint8_t a[32], b[32];
	char label[32];

	if (sodium_init() < 0)
		return -EIO;
	if (unhex(nonce_a, a) < 0 || unhex(nonce_b, b) < 0)
		return -EINVAL;
	snprintf(label, sizeof(label), "bondcheck-ctl-v1 %s", role);
	crypto_auth_hmacsha256_init(&st, k->key, k->len);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)label, strlen(label));
	crypto_auth_hmacsha256_update(&st, a, sizeof(a));
	crypto_auth_hmacsha256_update(&st, b, sizeof(b));
	crypto_auth_hmacsha256_final(&st, out);
	sodium_memzero(&st, sizeof(st));
	return 0;
}

int bc_auth_proof(const struct bc_auth_key *k, const char *role, const char *nonce_a,
		  const char *nonce_b, char out[BC_AUTH_HEX])
{
	uint8_t m[BC_AUTH_MAC_LEN];
	int r = mac(k, role, nonce_a, nonce_b, m);

	if (r < 0)
		return r;
	sodium_bin2hex(out, BC_AUTH_HEX, m, sizeof(m));
	return 0;
}

int bc_auth_check(const struct bc_auth_key *k, const char *role, const char *nonce_a,
		  const char *nonce_b, const char *proof)
{
	uint8_t want[BC_AUTH_MAC_LEN], got[BC_AUTH_MAC_LEN];

	if (mac(k, role, nonce_a, nonce_b, want) < 0 || unhex(proof, got) < 0)
		return -EACCES;
	return crypto_verify_32(want, got) == 0 ? 0 : -EACCES;
}
