// SPDX-License-Identifier: GPL-2.0-or-later
/* The pure part of `bondcheck sweep`: --param parsing, point statistics, CSV. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "bondcheck/json-get.h"
#include "bondcheck/sweep.h"

#define assert_near(got, want, tol) assert_true(fabs((got) - (want)) < (tol))

static void test_spec(void **state)
{
	struct bc_sweep_spec s;
	struct bc_error err = {0};

	(void)state;
	assert_int_equal(bc_sweep_spec_parse("size=64,256,512,1472", &s, NULL), 0);
	assert_int_equal(s.param, BC_SWEEP_SIZE);
	assert_int_equal(s.n, 4);
	assert_true(s.values[0] == 64 && s.values[3] == 1472);
	assert_int_equal(bc_sweep_spec_parse("length=9K", &s, NULL), 0);
	assert_true(s.param == BC_SWEEP_SIZE && s.values[0] == 9216);
	assert_int_equal(bc_sweep_spec_parse("msg-size=1", &s, NULL), 0);
	assert_int_equal(bc_sweep_spec_parse("rate=10M,1.5G", &s, NULL), 0);
	assert_true(s.param == BC_SWEEP_RATE && s.values[0] == 10e6 && s.values[1] == 1.5e9);
	assert_int_equal(bc_sweep_spec_parse("parallel=1,2,128", &s, NULL), 0);
	assert_true(s.param == BC_SWEEP_STREAMS && s.values[2] == 128);
	assert_int_equal(bc_sweep_spec_parse("mtu=9000,1500", &s, NULL), 0);
	assert_true(s.param == BC_SWEEP_MTU && s.values[0] == 9000); /* order kept */
	assert_string_equal(bc_sweep_param_name(s.param), "mtu");

	assert_int_equal(bc_sweep_spec_parse("speed=1", &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "unknown parameter 'speed'"));
	bc_error_clear(&err);
	assert_int_equal(bc_sweep_spec_parse("streams=0", &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "1..128"));
	bc_error_clear(&err);
	assert_int_equal(bc_sweep_spec_parse("streams=129", &s, NULL), -EINVAL);
	assert_int_equal(bc_sweep_spec_parse("mtu=67", &s, NULL), -EINVAL);
	assert_int_equal(bc_sweep_spec_parse("mtu=1500x", &s, NULL), -EINVAL);
	assert_int_equal(bc_sweep_spec_parse("size=64,64", &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "twice"));
	assert_int_equal(bc_sweep_spec_parse("size=", &s, NULL), -EINVAL);
	assert_int_equal(bc_sweep_spec_parse("size", &s, NULL), -EINVAL);
	assert_int_equal(bc_sweep_spec_parse("=1,2", &s, NULL), -EINVAL);
	assert_int_equal(bc_sweep_spec_parse("rate=fast", &s, NULL), -EINVAL);
	{
		char many[1000] = "streams=";

		for (int i = 1; i <= 65; i++)
			snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s%d",
				 i > 1 ? "," : "", i);
		assert_int_equal(bc_sweep_spec_parse(many, &s, &err), -EINVAL);
	}
}

static void test_stats(void **state)
{
	const double a[] = {1, 2, 3}, b[] = {10, 12, 11, 13, 9}, c[] = {7};
	struct bc_sweep_stats st;

	(void)state;
	/* t(0.975, 2) = 4.302653 (tables); CI = 2 +- 4.302653 / sqrt(3) */
	bc_sweep_stats(a, 3, 0.95, &st);
	assert_near(st.mean, 2, 1e-12);
	assert_near(st.sd, 1, 1e-12);
	assert_near(st.t, 4.302653, 1e-6);
	assert_near(st.ci_low, 2 - 4.302653 / sqrt(3), 1e-6);
	assert_near(st.ci_high, 2 + 4.302653 / sqrt(3), 1e-6);
	/* t(0.975, 4) = 2.776445; sd of {9..13} = sqrt(2.5) */
	bc_sweep_stats(b, 5, 0.95, &st);
	assert_near(st.t, 2.776445, 1e-6);
	assert_near(st.ci_high - st.mean, 2.776445 * sqrt(2.5) / sqrt(5), 1e-6);
	/* t(0.995, 4) = 4.604095 for a 99 % CI */
	bc_sweep_stats(b, 5, 0.99, &st);
	assert_near(st.t, 4.604095, 1e-6);
	bc_sweep_stats(c, 1, 0.95, &st);
	assert_near(st.mean, 7, 1e-12);
	assert_true(isnan(st.ci_low) && isnan(st.t));
	bc_sweep_stats(c, 0, 0.95, &st);
	assert_true(isnan(st.mean));
}

static void test_point(void **state)
{
	struct json_object *p =
		json_tokener_parse("{\"value\": 512, \"runs\": ["
				   " {\"rep\": 1, \"goodput_bps\": 9.0e6, \"ceiling_bps\": 9.24e6, "
				   "\"sent_packets\": 100,"
				   "  \"lost_packets\": 10},"
				   " {\"rep\": 2, \"error\": \"agent unreachable\"},"
				   " {\"rep\": 3, \"goodput_bps\": 9.2e6, \"ceiling_bps\": 9.24e6, "
				   "\"sent_packets\": 100,"
				   "  \"lost_packets\": 30}]}");
	char *buf = NULL;
	size_t len;
	FILE *f;
	struct json_object *doc;

	(void)state;
	bc_sweep_point_finish(p, 0.95);
	assert_int_equal(bc_json_i64(p, "n", 0), 2);
	assert_near(bc_json_dbl(p, "mean_bps", 0), 9.1e6, 1e-3);
	/* t(0.975, 1) = 12.706205; sd = 0.1e6 x sqrt(2) */
	assert_near(bc_json_dbl(p, "ci_high_bps", 0), 9.1e6 + 12.706205 * 0.1e6, 1);
	assert_near(bc_json_dbl(p, "ci_low_bps", 0), 9.1e6 - 12.706205 * 0.1e6, 1);
	assert_near(bc_json_dbl(p, "efficiency", 0), 9.1 / 9.24, 1e-9);
	assert_near(bc_json_dbl(p, "loss_ratio", 0), 40.0 / 200, 1e-12);
	doc = json_object_new_object();
	json_object_object_add(doc, "param", json_object_new_string("size"));
	json_object_object_add(doc, "protocol", json_object_new_string("udp"));
	json_object_object_add(doc, "points", json_object_new_array());
	json_object_array_add(json_object_object_get(doc, "points"), p);
	f = open_memstream(&buf, &len);
	bc_sweep_report_csv(f, doc);
	fclose(f);
	assert_non_null(strstr(buf, "param,value,n,mean_bps,sd_bps,ci_low_bps,ci_high_bps,"
				    "ceiling_bps,efficiency,loss_ratio,mtu\r\n"));
	assert_non_null(strstr(buf, "\r\nsize,512,2,9100000,141421,7829380,10370620,9240000,0.9848,"
				    "0.200000,\r\n"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	bc_sweep_report_text(f, doc);
	fclose(f);
	assert_non_null(strstr(buf, "run 2 failed: agent unreachable"));
	assert_non_null(strstr(buf, "7.829 .. 10.371"));
	free(buf);
	json_object_put(doc);
}

/*
 * Issue 14 item 1: a run without goodput_bps is left out and named, not a
 * zero in the mean; a UDP run without lost_packets makes the loss ratio
 * unknown and is named; a run without ceiling_bps leaves the ceiling unknown
 * (it was a zero in the mean ceiling).
 */
static void test_point_missing(void **state)
{
	struct json_object *p =
		json_tokener_parse("{\"value\": 512, \"runs\": ["
				   " {\"rep\": 1, \"ceiling_bps\": 9.24e6, \"sent_packets\": 100,"
				   "  \"lost_packets\": 10},"
				   " {\"rep\": 2, \"goodput_bps\": 9.0e6, \"ceiling_bps\": 9.24e6,"
				   "  \"sent_packets\": 100},"
				   " {\"rep\": 3, \"goodput_bps\": 9.2e6, \"sent_packets\": 100,"
				   "  \"lost_packets\": \"30\"}]}");
	struct json_object *m;

	(void)state;
	bc_sweep_point_finish(p, 0.95);
	assert_int_equal(bc_json_i64(p, "n", 0), 2);
	assert_near(bc_json_dbl(p, "mean_bps", 0), 9.1e6, 1e-3);
	m = json_object_object_get(p, "missing");
	assert_int_equal(bc_json_len(m), 3);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(m, 0)),
			    "runs[0].goodput_bps (absent)");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(m, 1)),
			    "runs[1].lost_packets (absent)");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(m, 2)),
			    "runs[2].lost_packets (string, expected a number)");
	assert_null(json_object_object_get(p, "loss_ratio"));
	assert_null(json_object_object_get(p, "ceiling_bps"));
	assert_null(json_object_object_get(p, "efficiency"));
	json_object_put(p);
}

static void test_plot(void **state)
{
	char dir[] = "/tmp/bc-test-sweep-XXXXXX", path[64];
	struct json_object *doc = json_tokener_parse(
		"{\"param\": \"size\", \"unit\": \"bytes\", \"protocol\": \"udp\", \"points\": ["
		" {\"value\": 64, \"mean_bps\": 6.0e6, \"ci_low_bps\": 5.9e6, \"ci_high_bps\": "
		"6.1e6,"
		"  \"ceiling_bps\": 6.04e6},"
		" {\"value\": 512, \"mean_bps\": null, \"ceiling_bps\": null},"
		" {\"value\": 1472, \"mean_bps\": 9.7e6, \"ci_low_bps\": null, \"ci_high_bps\": "
		"null,"
		"  \"ceiling_bps\": 9.72e6}]}");
	struct bc_error err = {0};
	FILE *f;
	char buf[256];
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sweep.svg", dir);
	/* the point without a mean is left out, the one without a CI drawn without */
	assert_int_equal(bc_sweep_report_plot(path, doc, &err), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "<svg"));
	unlink(path);
	json_object_put(doc);
	doc = json_tokener_parse("{\"param\": \"mtu\", \"points\": [{\"value\": 1500, "
				 "\"mean_bps\": null}]}");
	assert_int_equal(bc_sweep_report_plot(path, doc, &err), -ENODATA);
	assert_int_equal(access(path, F_OK), -1);
	json_object_put(doc);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_point),
		cmocka_unit_test(test_point_missing),
		cmocka_unit_test(test_plot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
