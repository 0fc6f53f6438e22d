// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pure part of `bondcheck sweep` (bondcheck/sweep.h): the --param
 * specification, the statistics of a point (GSL: mean, sd, Student's t
 * quantile) and a point's summary from its runs.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "bondcheck/stream-limits.h"
#include "bondcheck/sweep.h"
#include "bondcheck/units.h"

static const struct {
	const char *name;
	enum bc_sweep_param p;
} names[] = {
	{"size", BC_SWEEP_SIZE},       {"length", BC_SWEEP_SIZE},
	{"msg-size", BC_SWEEP_SIZE},   {"message-size", BC_SWEEP_SIZE},
	{"streams", BC_SWEEP_STREAMS}, {"parallel", BC_SWEEP_STREAMS},
	{"rate", BC_SWEEP_RATE},       {"mtu", BC_SWEEP_MTU},
};

const char *bc_sweep_param_name(enum bc_sweep_param p)
{
	switch (p) {
	case BC_SWEEP_SIZE:
		return "size";
	case BC_SWEEP_STREAMS:
		return "streams";
	case BC_SWEEP_RATE:
		return "rate";
	default:
		return "mtu";
	}
}

static int parse_value(enum bc_sweep_param p, const char *s, double *v, struct bc_error *err)
{
	uint64_t u;
	char *end;
	long l;

	switch (p) {
	case BC_SWEEP_SIZE:
		if (bc_parse_size(s, &u) < 0 || u < 1 || u > 16 * 1024 * 1024)
			return bc_error_set(err, -EINVAL,
					    "--param size: '%s' is not a size; expected bytes "
					    "1..16M (UDP 32..65507), e.g. 64,512,1472",
					    s);
		*v = (double)u;
		return 0;
	case BC_SWEEP_STREAMS:
		l = strtol(s, &end, 10);
		if (*end || end == s || l < 1 || l > BC_PLAN_MAX_STREAMS)
			return bc_error_set(err, -EINVAL,
					    "--param streams: '%s' is not a stream count; expected "
					    "1..%d",
					    s, BC_PLAN_MAX_STREAMS);
		*v = (double)l;
		return 0;
	case BC_SWEEP_RATE:
		if (bc_parse_rate(s, v) < 0 || *v < 1)
			return bc_error_set(err, -EINVAL,
					    "--param rate: '%s' is not a rate; expected bit/s with "
					    "an SI suffix, e.g. 10M,20M,40M",
					    s);
		return 0;
	default:
		l = strtol(s, &end, 10);
		if (*end || end == s || l < 68 || l > 65535)
			return bc_error_set(err, -EINVAL,
					    "--param mtu: '%s' is not an MTU; expected bytes "
					    "68..65535, e.g. 1500,4000,9000",
					    s);
		*v = (double)l;
		return 0;
	}
}

int bc_sweep_spec_parse(const char *arg, struct bc_sweep_spec *out, struct bc_error *err)
{
	const char *eq = strchr(arg, '=');
	char name[32], buf[1024];
	bool found = false;
	int r;

	memset(out, 0, sizeof(*out));
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(name))
		return bc_error_set(err, -EINVAL,
				    "--param '%s': expected NAME=v1,v2,... with NAME size, "
				    "streams, rate or mtu",
				    arg);
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i].name)) {
			out->param = names[i].p;
			found = true;
		}
	if (!found)
		return bc_error_set(err, -EINVAL,
				    "--param: unknown parameter '%s'; expected size (message "
				    "size), streams, rate (UDP) or mtu",
				    name);
	if (strlen(eq + 1) >= sizeof(buf))
		return bc_error_set(err, -EINVAL, "--param %s: the value list is too long", name);
	snprintf(buf, sizeof(buf), "%s", eq + 1);
	for (char *save = NULL, *s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (out->n == BC_SWEEP_MAX_VALUES)
			return bc_error_set(err, -EINVAL, "--param %s: more than %d values", name,
					    BC_SWEEP_MAX_VALUES);
		r = parse_value(out->param, s, &out->values[out->n], err);
		if (r < 0)
			return r;
		for (size_t i = 0; i < out->n; i++)
			if (out->values[i] == out->values[out->n])
				return bc_error_set(err, -EINVAL, "--param %s: '%s' is given twice",
						    name, s);
		out->n++;
	}
	if (!out->n)
		return bc_error_set(err, -EINVAL, "--param %s: no values; expected v1,v2,...",
				    name);
	return 0;
}

void bc_sweep_stats(const double *x, size_t n, double conf, struct bc_sweep_stats *out)
{
	out->n = n;
	out->mean = n ? gsl_stats_mean(x, 1, n) : NAN;
	out->sd = n > 1 ? gsl_stats_sd_m(x, 1, n, out->mean) : (n ? 0 : NAN);
	if (n < 2) {
		out->t = out->ci_low = out->ci_high = NAN;
		return;
	}
	out->t = gsl_cdf_tdist_Pinv(1 - (1 - conf) / 2, (double)(n - 1));
	out->ci_low = out->mean - out->t * out->sd / sqrt((double)n);
	out->ci_high = out->mean + out->t * out->sd / sqrt((double)n);
}

static void add_num(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, isfinite(v) ? json_object_new_double(v) : NULL);
}

void bc_sweep_point_finish(struct json_object *point, double conf)
{
	struct bc_sweep_point_in in;
	double *g = NULL, ceil = 0, sent = 0, lost = 0;
	bool udp = false, ceil_known = true, loss_known = true;
	struct bc_sweep_stats st;
	size_t k = 0;

	if (bc_sweep_point_read(point, &in) < 0)
		goto out;
	g = calloc(in.n_runs + 1, sizeof(double));
	if (!g)
		goto out;
	for (size_t i = 0; i < in.n_runs; i++) {
		const struct bc_sweep_run_in *r = &in.runs[i];

		if (r->failed || isnan(r->goodput_bps))
			continue; /* a failed run; or one named in "missing" */
		g[k++] = r->goodput_bps;
		if (isfinite(r->ceiling_bps))
			ceil += r->ceiling_bps;
		else
			ceil_known = false;
		if (r->udp) {
			udp = true;
			if (isfinite(r->sent_packets) && isfinite(r->lost_packets)) {
				sent += r->sent_packets;
				lost += r->lost_packets;
			} else {
				loss_known = false;
			}
		}
	}
	bc_sweep_stats(g, k, conf, &st);
	ceil = k && ceil_known ? ceil / (double)k : 0;
	json_object_object_add(point, "n", json_object_new_int64((int64_t)k));
	add_num(point, "mean_bps", st.mean);
	add_num(point, "sd_bps", st.sd);
	add_num(point, "ci_low_bps", st.ci_low > 0 ? st.ci_low : (isfinite(st.ci_low) ? 0 : NAN));
	add_num(point, "ci_high_bps", st.ci_high);
	add_num(point, "t_quantile", st.t);
	add_num(point, "ceiling_bps", ceil > 0 ? ceil : NAN);
	add_num(point, "efficiency", ceil > 0 && k ? st.mean / ceil : NAN);
	if (udp)
		add_num(point, "loss_ratio", sent > 0 && loss_known ? lost / sent : NAN);
	if (in.rd.n_problems) {
		struct json_object *m = json_object_new_array();
		size_t kept = in.rd.n_problems < BC_DOC_MAX_PROBLEMS ? in.rd.n_problems
								      : BC_DOC_MAX_PROBLEMS;

		for (size_t i = 0; i < kept; i++)
			json_object_array_add(m, json_object_new_string(in.rd.problem[i]));
		json_object_object_add(point, "missing", m);
	} else {
		json_object_object_del(point, "missing");
	}
out:
	free(g);
	bc_sweep_point_in_free(&in);
}
