// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Damaged /proc/net/bonding input: empty, binary, truncated, 10 MB, 4 KB
 * lines, non-UTF-8 and NUL bytes, oversized files.  Each must give either a
 * clear -EINVAL/-EFBIG that says what was expected and found, or a partial
 * parse with warnings, and must never crash (the ASan build runs this too).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "bondcheck/proc.h"
#include "bondcheck/text.h"

#define CASE01 BC_TEST_DATA "/proc-net-bonding/01-8023ad-slave-down-churned-split-agg.txt"

static const char head[] = "Ethernet Channel Bonding Driver: v6.1.0-25-amd64\n\n"
			   "Bonding Mode: load balancing (round-robin)\n"
			   "MII Status: up\n"
			   "MII Polling Interval (ms): 100\n"
			   "Up Delay (ms): 0\n"
			   "Down Delay (ms): 0\n";

static struct bc_snapshot snap;
static struct bc_error err;

static int setup(void **state)
{
	(void)state;
	memset(&snap, 0, sizeof(snap));
	bc_error_clear(&err);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	bc_snapshot_free(&snap);
	return 0;
}

static int parse(const char *text, size_t len)
{
	return bc_proc_parse(text, len, "bond0", &snap, &err);
}

static bool any_warning(const char *needle)
{
	for (size_t i = 0; i < snap.n_warnings; i++)
		if (strstr(snap.warnings[i], needle))
			return true;
	return false;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 16);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	return buf;
}

static void test_empty_and_blank(void **state)
{
	(void)state;
	assert_int_equal(parse("", 0), -EINVAL);
	assert_non_null(strstr(err.msg, "expected a line 'Ethernet Channel Bonding Driver: ...'"));
	assert_non_null(strstr(err.msg, "found an empty file"));
	assert_int_equal(snap.n_bonds, 0);

	bc_error_clear(&err);
	assert_int_equal(parse("\n\n  \n", 4), -EINVAL);
	assert_non_null(strstr(err.msg, "only blank lines"));
	assert_int_equal(snap.n_bonds, 0);
}

static void test_binary(void **state)
{
	static const char bin[] = "\x7f"
				  "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0";

	(void)state;
	assert_int_equal(parse(bin, sizeof(bin) - 1), -EINVAL);
	assert_non_null(strstr(err.msg, "at line 1, found binary data"));
	assert_int_equal(snap.n_bonds, 0);
}

static void test_not_bonding_text(void **state)
{
	(void)state;
	assert_int_equal(parse("$ cat /proc/net/bonding/bond0\nfoo\n", 34), -EINVAL);
	assert_non_null(strstr(err.msg, "found '$ cat /proc/net/bonding/bond0'"));

	/* the header alone: no mode */
	bc_error_clear(&err);
	assert_int_equal(parse(head, 49), -EINVAL);
	assert_non_null(strstr(err.msg, "expected a 'Bonding Mode:' line"));
	assert_int_equal(snap.n_bonds, 0);
}

static void test_truncated(void **state)
{
	size_t len;
	char *buf = read_all(CASE01, &len);
	const char *cut = strstr(buf, "Slave Interface: enp1s0f1");

	(void)state;
	assert_non_null(cut);
	/* cut inside the second slave's name: partial parse, slave 1 complete */
	assert_int_equal(parse(buf, (size_t)(cut - buf) + strlen("Slave Interface: enp1")), 0);
	assert_int_equal(snap.bonds[0].n_slaves, 2);
	assert_string_equal(snap.bonds[0].slaves[1].name, "enp1");
	assert_int_equal(snap.bonds[0].slaves[0].actor_oper_port_state.v, 71);
	assert_true(any_warning("has no 'MII Status' line (truncated file?)"));
	bc_snapshot_free(&snap);

	/* cut inside the header line */
	assert_int_equal(parse(buf, 20), -EINVAL);
	assert_non_null(strstr(err.msg, "found 'Ethernet Channel Bon'"));
	bc_snapshot_free(&snap);

	/* cut before Down Delay: mode known, the block is incomplete */
	cut = strstr(buf, "Up Delay");
	assert_int_equal(parse(buf, (size_t)(cut - buf)), 0);
	assert_true(any_warning("no 'Down Delay (ms)' line"));
	assert_int_equal(snap.bonds[0].arp_interval_ms.st, BC_NOT_REPORTED);
	free(buf);
}

/* A cut 802.3ad file must not pass for an unprivileged view. */
static void test_truncated_8023ad_not_hidden(void **state)
{
	size_t len;
	char *buf = read_all(CASE01, &len);
	const char *cut = strstr(buf, "Min links:");
	char *edited;

	(void)state;
	assert_non_null(cut);
	assert_int_equal(parse(buf, (size_t)(cut - buf)), 0);
	assert_int_equal(snap.bonds[0].ad_info_status, BC_NOT_REPORTED);
	assert_false(snap.lacp_hidden);
	assert_true(any_warning("ends before its aggregator lines (truncated file?)"));
	bc_snapshot_free(&snap);

	/* a paste without "802.3ad info" nor the privileged block, slaves kept */
	buf[len] = '\0';
	edited = strdup(buf);
	assert_non_null(edited);
	memcpy(strstr(edited, "802.3ad info"), "Junk Line: 1", 12);
	cut = strstr(buf, "Slave Interface:");
	strcpy(strstr(edited, "System priority"), cut);
	assert_int_equal(parse(edited, strlen(edited)), 0);
	assert_int_equal(snap.bonds[0].n_slaves, 2);
	assert_int_equal(snap.bonds[0].ad_info_status, BC_NOT_REPORTED);
	assert_int_equal(snap.bonds[0].slaves[0].actor_oper_port_state.v, 71);
	assert_false(snap.lacp_hidden);
	assert_true(any_warning("without an '802.3ad info' line"));
	free(edited);
	free(buf);
}

static void test_nul_and_binary_lines_after_header(void **state)
{
	char text[1024];
	size_t n;

	(void)state;
	n = (size_t)snprintf(text, sizeof(text), "%sSlave Interface: eth0\nMII Status: up\n", head);
	memcpy(text + n, "Spe\0d: 1000 Mbps\n", 17);
	n += 17;
	n += (size_t)snprintf(text + n, sizeof(text) - n, "Link Failure Count: 3\n");
	assert_int_equal(parse(text, n), 0);
	assert_true(any_warning("binary data (control or NUL bytes); line skipped"));
	assert_int_equal(snap.bonds[0].slaves[0].speed_mbps.st, BC_NOT_REPORTED);
	/* the line after the NUL is still read */
	assert_int_equal(snap.bonds[0].slaves[0].link_failure_count.v, 3);
}

static void test_non_utf8(void **state)
{
	char text[1024];
	int n;

	(void)state;
	n = snprintf(text, sizeof(text),
		     "%sSlave Interface: eth\xff\xfe"
		     "0\nMII Status: up\nUnknown \xc3\x28: x\n",
		     head);
	assert_int_equal(parse(text, (size_t)n), 0);
	assert_string_equal(snap.bonds[0].slaves[0].name, "eth??0");
	assert_true(any_warning("not UTF-8 replaced by '?'"));
	for (size_t i = 0; i < snap.n_warnings; i++)
		assert_true(bc_utf8_valid(snap.warnings[i], strlen(snap.warnings[i])));
	assert_true(
		bc_utf8_valid(snap.bonds[0].unknown[0].key, strlen(snap.bonds[0].unknown[0].key)));
}

static void test_4k_lines(void **state)
{
	size_t cap = 64 * 1024, n;
	char *text = malloc(cap);

	(void)state;
	assert_non_null(text);
	n = (size_t)snprintf(text, cap, "%sARP IP target/s (n.n.n.n form): ", head);
	for (int i = 0; i < 300; i++) /* 300 targets, ~4 KB */
		n += (size_t)snprintf(text + n, cap - n, "%s192.0.2.%d", i ? ", " : "", i % 250);
	n += (size_t)snprintf(text + n, cap - n, "\nSlave Interface: ");
	memset(text + n, 'x', 4096);
	n += 4096;
	n += (size_t)snprintf(text + n, cap - n, "\nMII Status: up\nSome Key: ");
	memset(text + n, 'v', 4096);
	n += 4096;
	text[n++] = '\n';
	assert_int_equal(parse(text, n), 0);
	assert_int_equal(snap.bonds[0].n_arp_targets, BC_MAX_TARGETS);
	assert_string_equal(snap.bonds[0].arp_targets[15], "192.0.2.15");
	assert_int_equal(strlen(snap.bonds[0].slaves[0].name), BC_IFNAMSIZ - 1);
	assert_int_equal(snap.bonds[0].slaves[0].mii_status.v, BC_LINK_UP);
	assert_true(any_warning("longer than any line bonding prints"));
	assert_true(any_warning("more than 16 targets"));
	assert_int_equal(snap.bonds[0].n_unknown, 1);
	free(text);
}

static void test_10mb_of_slaves(void **state)
{
	size_t cap = 10u << 20, n;
	char *text = malloc(cap + 128);
	unsigned int i = 0;

	(void)state;
	assert_non_null(text);
	n = (size_t)snprintf(text, cap, "%s", head);
	while (n + 64 < cap)
		n += (size_t)snprintf(text + n, 64, "Slave Interface: e%u\nMII Status: up\n", i++);
	assert_int_equal(parse(text, n), 0);
	assert_int_equal(snap.bonds[0].n_slaves, BC_PROC_MAX_SLAVES);
	assert_true(any_warning("more than 1024 slaves"));
	assert_true(snap.n_warnings <= BC_PROC_MAX_WARNINGS + 1);
	free(text);
}

static void test_10mb_of_garbage(void **state)
{
	size_t cap = 10u << 20, n;
	char *text = malloc(cap);

	(void)state;
	assert_non_null(text);
	srand(7);
	for (size_t i = 0; i < cap; i++)
		text[i] = (char)(rand() & 0xff);
	assert_int_equal(parse(text, cap), -EINVAL);
	assert_non_null(strstr(err.msg, "found binary data"));
	assert_int_equal(snap.n_bonds, 0);

	/* a valid head, then 10 MB of garbage: partial parse, bounded warnings */
	bc_error_clear(&err);
	n = strlen(head);
	memcpy(text, head, n);
	assert_int_equal(parse(text, cap), 0);
	assert_int_equal(snap.bonds[0].mode.v, BC_MODE_ROUNDROBIN);
	assert_true(any_warning("stopped reading"));
	assert_true(snap.n_warnings <= BC_PROC_MAX_WARNINGS + 1);
	free(text);
}

static void test_too_big(void **state)
{
	size_t len = (size_t)BC_PROC_MAX_SIZE + 1;
	char *text = calloc(1, len);

	(void)state;
	assert_non_null(text);
	assert_int_equal(parse(text, len), -EFBIG);
	assert_non_null(strstr(err.msg, "a /proc/net/bonding file is a few KiB"));
	assert_int_equal(snap.n_bonds, 0);
	free(text);
}

static void test_bad_names(void **state)
{
	(void)state;
	assert_int_equal(bc_proc_parse(head, strlen(head), "", &snap, &err), -EINVAL);
	bc_error_clear(&err);
	assert_int_equal(bc_proc_parse(head, strlen(head), "a-name-of-16-chr", &snap, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "1 to 15 bytes"));
	assert_int_equal(snap.n_bonds, 0);
}

static void test_files(void **state)
{
	char tmpl[] = "/tmp/bc-proc-test-XXXXXX";
	int fd;

	(void)state;
	assert_int_equal(bc_proc_parse_file("/nonexistent/bond0", "bond0", &snap, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "cannot open '/nonexistent/bond0'"));

	bc_error_clear(&err);
	assert_int_equal(bc_proc_parse_file(BC_TEST_DATA, "bond0", &snap, &err), -EISDIR);
	assert_non_null(strstr(err.msg, "is a directory"));

	/* a sparse 17 MiB file is refused before it is read */
	bc_error_clear(&err);
	fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 17 << 20), 0);
	close(fd);
	assert_int_equal(bc_proc_parse_file(tmpl, "bond0", &snap, &err), -EFBIG);
	assert_non_null(strstr(err.msg, "larger than 16 MiB"));
	unlink(tmpl);

	/* reading a pipe-like source of unknown size is capped the same way */
	bc_error_clear(&err);
	assert_int_equal(bc_proc_parse_file("/dev/null", "bond0", &snap, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "empty file"));
	assert_int_equal(snap.n_bonds, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_empty_and_blank, setup, teardown),
		cmocka_unit_test_setup_teardown(test_binary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_bonding_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated_8023ad_not_hidden, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nul_and_binary_lines_after_header, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_non_utf8, setup, teardown),
		cmocka_unit_test_setup_teardown(test_4k_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_10mb_of_slaves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_10mb_of_garbage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_too_big, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_files, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
