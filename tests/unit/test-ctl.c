// SPDX-License-Identifier: GPL-2.0-or-later
/* Control-protocol codec: framing, caps, malformed bodies, HMAC challenge. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "bondcheck/ctl-auth.h"
#include "bondcheck/ctl.h"

static void test_encode_layout(void **state)
{
	struct json_object *m = json_object_new_object();
	uint8_t *buf;
	size_t len;

	(void)state;
	json_object_object_add(m, "type", json_object_new_string("start"));
	assert_int_equal(bc_ctl_encode(m, 1024, &buf, &len, NULL), 0);
	/* {"type":"start"} is 16 bytes */
	assert_int_equal(len, 8 + 16);
	assert_memory_equal(buf, "BCK\x01\x00\x00\x00\x10", 8);
	assert_memory_equal(buf + 8, "{\"type\":\"start\"}", 16);
	free(buf);
	assert_int_equal(bc_ctl_encode(m, 15, &buf, &len, NULL), -EMSGSIZE);
	json_object_put(m);
}

static void test_header_errors(void **state)
{
	struct bc_error err = {0};
	unsigned version;
	uint32_t len;

	(void)state;
	assert_int_equal(bc_ctl_header_parse((const uint8_t *)"BCK\x01\x00\x01\x00\x00", 65536,
					     &len, &version, NULL),
			 0);
	assert_int_equal(len, 65536);
	assert_int_equal(bc_ctl_header_parse((const uint8_t *)"BCK\x01\x00\x01\x00\x01", 65536,
					     &len, &version, &err),
			 -EMSGSIZE);
	assert_int_equal(len, 65537);
	bc_error_clear(&err);
	assert_int_equal(bc_ctl_header_parse((const uint8_t *)"BCK\x02\x00\x00\x00\x02", 65536,
					     &len, &version, &err),
			 -EPROTONOSUPPORT);
	assert_int_equal(version, 2);
	assert_non_null(strstr(err.msg, "version 2"));
	bc_error_clear(&err);
	/* an iperf3 client's cookie is not our magic */
	assert_int_equal(
		bc_ctl_header_parse((const uint8_t *)"abcdefgh", 65536, &len, &version, &err),
		-EBADMSG);
}

static void test_body_errors(void **state)
{
	static const char *bad[] = {
		"{\"type\":", "[1,2]", "{\"x\":1}", "{\"type\":3}", "{\"type\":\"a\"} trailing",
		"\x01\x02"};
	const char *ok = "{\"type\":\"hello\",\"protocol\":1}\n";
	struct json_object *o;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(bc_ctl_body_parse(bad[i], strlen(bad[i]), &o, NULL), -EBADMSG);
		assert_null(o);
	}
	assert_int_equal(bc_ctl_body_parse(ok, strlen(ok), &o, NULL), 0);
	assert_string_equal(bc_ctl_type(o), "hello");
	json_object_put(o);
}

static void test_socket_roundtrip(void **state)
{
	struct json_object *m = bc_ctl_error_msg(BC_CTL_E_BUSY, "agent runs test %d", 7), *o;
	struct bc_error err = {0};
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(bc_ctl_send(sv[0], m, 1000, NULL), 0);
	assert_int_equal(bc_ctl_recv(sv[1], BC_CTL_MAX_REQUEST, 1000, &o, NULL), 0);
	assert_string_equal(bc_ctl_type(o), "error");
	assert_string_equal(json_object_get_string(json_object_object_get(o, "code")), "busy");
	assert_string_equal(json_object_get_string(json_object_object_get(o, "message")),
			    "agent runs test 7");
	json_object_put(o);
	/* a header promising more than arrives: timeout, not a hang */
	assert_int_equal(write(sv[0], "BCK\x01\x00\x00\x00\x20{", 9), 9);
	assert_int_equal(bc_ctl_recv(sv[1], BC_CTL_MAX_REQUEST, 100, &o, &err), -ETIMEDOUT);
	close(sv[0]);
	bc_error_clear(&err);
	assert_int_equal(bc_ctl_recv(sv[1], BC_CTL_MAX_REQUEST, 100, &o, &err), -ECONNRESET);
	close(sv[1]);
	json_object_put(m);
}

static void test_auth(void **state)
{
	struct bc_auth_key k = {.len = 16}, k2 = {.len = 16};
	char na[BC_AUTH_HEX], nb[BC_AUTH_HEX], p[BC_AUTH_HEX], q[BC_AUTH_HEX];
	char path[] = "/tmp/bc-test-key-XXXXXX";
	int fd;

	(void)state;
	memcpy(k.key, "0123456789abcdef", 16);
	memcpy(k2.key, "0123456789abcdeF", 16);
	assert_int_equal(bc_auth_nonce(na), 0);
	assert_int_equal(bc_auth_nonce(nb), 0);
	assert_int_equal(strlen(na), 64);
	assert_string_not_equal(na, nb);
	assert_int_equal(bc_auth_proof(&k, "client", na, nb, p), 0);
	assert_int_equal(bc_auth_check(&k, "client", na, nb, p), 0);
	/* wrong key, swapped role, swapped nonces, garbage: all refused */
	assert_int_equal(bc_auth_check(&k2, "client", na, nb, p), -EACCES);
	assert_int_equal(bc_auth_check(&k, "agent", na, nb, p), -EACCES);
	assert_int_equal(bc_auth_check(&k, "client", nb, na, p), -EACCES);
	assert_int_equal(bc_auth_check(&k, "client", na, nb, "zz"), -EACCES);
	assert_int_equal(bc_auth_proof(&k, "agent", nb, na, q), 0);
	assert_string_not_equal(p, q);
	/* known answer, computed independently with Python's hmac module:
	 * HMAC-SHA256("0123456789abcdef", "bondcheck-ctl-v1 client" || 32 x 00 || 32 x 11) */
	assert_int_equal(bc_auth_proof(&k, "client",
				       "00000000000000000000000000000000"
				       "00000000000000000000000000000000",
				       "11111111111111111111111111111111"
				       "11111111111111111111111111111111",
				       p),
			 0);
	assert_string_equal(p, "e11f9a9650c4c827710a8592494ce66dc659917bfc89c06e2142ede067d7e1a9");

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "short\n", 6), 6);
	close(fd);
	assert_int_equal(bc_auth_key_load(path, &k, NULL), -EINVAL);
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_int_equal(write(fd, "0123456789abcdef\n", 17), 17);
	close(fd);
	assert_int_equal(bc_auth_key_load(path, &k2, NULL), 0);
	assert_int_equal(k2.len, 16);
	unlink(path);
	assert_int_equal(bc_auth_key_load("/nonexistent/key", &k, NULL), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode_layout), cmocka_unit_test(test_header_errors),
		cmocka_unit_test(test_body_errors),   cmocka_unit_test(test_socket_roundtrip),
		cmocka_unit_test(test_auth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
