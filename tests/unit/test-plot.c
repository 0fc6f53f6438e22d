// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plot renderers (report/plot*.c) as a library caller sees them: the
 * caller's current PLplot stream survives a plot, a failed plot leaves no
 * file (nor a temporary one) and a bc_error naming the member, PLplot's
 * streams are released (more plots than PL_NSTREAMS in one process).  The
 * SVG structure is checked by tests/plot/check-plots.py.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <plplot.h>

#include "bondcheck/plot.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/bc-plot-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return getenv("KEEP") ? 0 : system(cmd) ? -1 : 0;
}

static size_t files_in_dir(void)
{
	struct dirent *e;
	size_t n = 0;
	DIR *d = opendir(dir);

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static struct json_object *ledger(long sent, long read)
{
	char buf[256];

	snprintf(buf, sizeof(buf),
		 "[{\"stage\": \"sent_by_app\", \"count\": %ld},"
		 " {\"stage\": \"read_by_app\", \"count\": %ld}]",
		 sent, read);
	return json_tokener_parse(buf);
}

/* A plot in the middle of the caller's own PLplot work leaves it current. */
static void test_caller_stream_kept(void **state)
{
	struct json_object *doc = ledger(100, 90);
	struct bc_error err = {0};
	char path[128];
	PLINT mine, cur = -1;

	(void)state;
	plmkstrm(&mine);
	assert_true(mine > 0);
	snprintf(path, sizeof(path), "%s/kept.svg", dir);
	assert_int_equal(bc_plot_ledger(path, doc, &err), 0);
	plgstrm(&cur);
	assert_int_equal(cur, mine);
	plend1();
	json_object_put(doc);
	assert_int_equal(access(path, R_OK), 0);
}

/* Bad input: -EINVAL, the member named, no file, no temporary file. */
static void test_bad_input_no_file(void **state)
{
	struct json_object *doc = json_tokener_parse(
		"[{\"stage\": \"sent_by_app\", \"count\": 100}, {\"stage\": \"x\", \"count\": -1}]");
	struct bc_error err = {0};
	size_t before = files_in_dir();
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/bad.svg", dir);
	assert_int_equal(bc_plot_ledger(path, doc, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "ledger[1].count: expected a number in [0,"));
	assert_non_null(strstr(err.msg, "found -1"));
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(files_in_dir(), before);
	json_object_put(doc);

	/* an existing file is not touched by a failed plot */
	doc = ledger(100, 90);
	memset(&err, 0, sizeof(err));
	assert_int_equal(bc_plot_ledger(path, doc, &err), 0);
	json_object_put(doc);
	doc = ledger(0, 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(bc_plot_ledger(path, doc, &err), -ENODATA);
	assert_int_equal(access(path, R_OK), 0);
	json_object_put(doc);
	memset(&err, 0, sizeof(err));
	assert_int_equal(bc_plot_scaling(path, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "the scale document: expected a JSON object"));
}

/* 150 plots in one process: PLplot has 100 streams; each plot returns its own. */
static void test_many_plots(void **state)
{
	struct bc_error err = {0};
	char path[128];
	struct stat st;

	(void)state;
	for (int i = 0; i < 150; i++) {
		struct json_object *doc = ledger(1000, 1000 - i);

		snprintf(path, sizeof(path), "%s/many-%d.svg", dir, i % 3);
		assert_int_equal(bc_plot_ledger(path, doc, &err), 0);
		json_object_put(doc);
	}
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caller_stream_kept),
		cmocka_unit_test(test_bad_input_no_file),
		cmocka_unit_test(test_many_plots),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
