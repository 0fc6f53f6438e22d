// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The monitoring renderers of inspect (issue 16 item 5): the Prometheus
 * text format escapes label values and writes one sample per finding label
 * set; the monitoring-plugins check takes its state from the worst finding
 * and keeps '|' (the perfdata separator) out of its text.  promtool and a
 * real node_exporter check the whole output in tests/monitor (label fleet).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/findings.h"
#include "bondcheck/inspect-report.h"

static struct bc_snapshot snap;
static char *buf;

static int teardown(void **state)
{
	(void)state;
	bc_snapshot_free(&snap);
	memset(&snap, 0, sizeof(snap));
	free(buf);
	buf = NULL;
	return 0;
}

static const char *render(int (*w)(FILE *, const struct bc_snapshot *))
{
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(w(f, &snap), 0);
	fclose(f);
	return buf;
}

/* A balance-rr bond named @name with slaves eth0 (up) and eth1 (down). */
static struct bc_bond *bond(const char *name)
{
	struct bc_bond *b = bc_snapshot_add_bond(&snap, name);
	struct bc_slave *s;

	assert_non_null(b);
	bc_u32_set(&b->mode, 0);
	s = bc_bond_add_slave(b, "eth0");
	assert_non_null(s);
	bc_u32_set(&s->mii_status, 0);
	bc_u32_set(&s->link_failure_count, 2);
	snprintf(s->driver, sizeof(s->driver), "%s", "dr\"v\\x");
	s = bc_bond_add_slave(&snap.bonds[snap.n_bonds - 1], "eth1");
	assert_non_null(s);
	bc_u32_set(&s->mii_status, 2);
	bc_u32_set(&s->link_failure_count, 3);
	return &snap.bonds[snap.n_bonds - 1];
}

static void test_prom_escapes_labels(void **state)
{
	const char *out;

	(void)state;
	bond("b\"0\\");
	out = render(bc_inspect_prom_write);
	assert_non_null(strstr(out, "bondcheck_up 1\n"));
	/* \" and \\ in label values, as the exposition format requires */
	assert_non_null(strstr(out, "bondcheck_slave_info{bond=\"b\\\"0\\\\\",slave=\"eth0\","
				    "driver=\"dr\\\"v\\\\x\","));
	assert_non_null(strstr(out, "bondcheck_slave_up{bond=\"b\\\"0\\\\\",slave=\"eth1\"} 0\n"));
	assert_non_null(strstr(out, "bondcheck_bond_slaves_up{bond=\"b\\\"0\\\\\"} 1\n"));
	assert_non_null(strstr(out, "# TYPE bondcheck_slave_link_failures_total counter\n"));
	/* no speed was reported: no sample, not a 0 */
	assert_null(strstr(out, "bondcheck_slave_speed_bytes{"));
}

static void test_prom_one_sample_per_finding_labels(void **state)
{
	const char *out, *first;

	(void)state;
	bond("bond0");
	/* two source-disagreements on one subject: one series, value 2 */
	assert_non_null(bc_snapshot_add_finding(&snap, "source-disagreement", BC_SEV_WARNING,
						"bond0/eth1"));
	assert_non_null(bc_snapshot_add_finding(&snap, "source-disagreement", BC_SEV_WARNING,
						"bond0/eth1"));
	assert_non_null(bc_snapshot_add_finding(&snap, "slave-down", BC_SEV_ERROR, "bond0/eth1"));
	out = render(bc_inspect_prom_write);
	first = strstr(out, "bondcheck_finding{id=\"source-disagreement\",severity=\"warning\","
			    "bond=\"bond0\",subject=\"bond0/eth1\"} 2\n");
	assert_non_null(first);
	assert_null(strstr(strchr(first, '\n'), "id=\"source-disagreement\""));
	assert_non_null(strstr(out, "bondcheck_findings{severity=\"warning\"} 2\n"));
	assert_non_null(strstr(out, "bondcheck_findings{severity=\"error\"} 1\n"));
}

static void test_prom_failed(void **state)
{
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(bc_inspect_prom_write_failed(f), 0);
	fclose(f);
	assert_string_equal(buf, "# HELP bondcheck_up 1 when bondcheck inspect read the bonds, 0 "
				 "when it failed (its stderr and exit status say why).\n"
				 "# TYPE bondcheck_up gauge\nbondcheck_up 0\n");
}

static void test_nagios_state_from_worst_finding(void **state)
{
	struct bc_finding *f;
	const char *out;

	(void)state;
	bond("bond0");
	assert_int_equal(bc_inspect_nagios_state(&snap), BC_NAGIOS_OK);
	assert_non_null(bc_snapshot_add_finding(&snap, "link-failures", BC_SEV_INFO, "bond0/eth1"));
	assert_int_equal(bc_inspect_nagios_state(&snap), BC_NAGIOS_OK);
	f = bc_snapshot_add_finding(&snap, "speed-mismatch", BC_SEV_WARNING, "bond0");
	assert_non_null(f);
	snprintf(f->advice, sizeof(f->advice), "%s", "a | b");
	assert_int_equal(bc_inspect_nagios_state(&snap), BC_NAGIOS_WARNING);
	out = render(bc_inspect_nagios_write);
	assert_non_null(strstr(out, "BONDCHECK WARNING - bond0 (balance-rr, 1 of 2 slaves up): "
				    "speed-mismatch on bond0 (0 error, 1 warning) | "
				    "'bond0_slaves_up'=1;;;0;2 'bond0_slaves'=2;;;0; "
				    "'bond0_link_failures'=5c;;;0; "));
	/* exactly one '|': the advice's became '/' */
	assert_null(strchr(strchr(out, '|') + 1, '|'));
	assert_non_null(strstr(out, "\nwarning speed-mismatch bond0: a / b\n"));
	free(buf);
	buf = NULL;
	assert_non_null(bc_snapshot_add_finding(&snap, "slave-down", BC_SEV_ERROR, "bond0/eth1"));
	assert_int_equal(bc_inspect_nagios_state(&snap), BC_NAGIOS_CRITICAL);
	out = render(bc_inspect_nagios_write);
	assert_true(!strncmp(out, "BONDCHECK CRITICAL - ", 21));
}

static void test_nagios_perf_label_quotes(void **state)
{
	const char *out;

	(void)state;
	bond("b'0");
	out = render(bc_inspect_nagios_write);
	/* a quote inside a quoted label is doubled (monitoring-plugins guidelines) */
	assert_non_null(strstr(out, "'b''0_slaves_up'=1;;;0;2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_prom_escapes_labels, teardown),
		cmocka_unit_test_teardown(test_prom_one_sample_per_finding_labels, teardown),
		cmocka_unit_test_teardown(test_prom_failed, teardown),
		cmocka_unit_test_teardown(test_nagios_state_from_worst_finding, teardown),
		cmocka_unit_test_teardown(test_nagios_perf_label_quotes, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
