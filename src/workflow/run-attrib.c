// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The client's capture analysis after a run: the agent's files over the
 * bulk connection, attribution of both ends' per-slave captures
 * (bondcheck/attrib.h), and the run's live ledger (run-ledger.c).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bondcheck/analyze-report.h"
#include "bondcheck/attrib.h"
#include "bondcheck/json-get.h"
#include "workflow/bulk.h"
#include "workflow/run-capture.h"

static void note(struct json_object *notes, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct json_object *notes, const char *fmt, ...)
{
	char buf[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_object_array_add(notes, json_object_new_string(buf));
}

static int64_t i64(struct json_object *o, const char *k)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? json_object_get_int64(v) : -1;
}

/* Interface @name of a capture JSON object, or NULL. */
static struct json_object *json_iface(struct json_object *cap, const char *name)
{
	struct json_object *ifs = cap ? json_object_object_get(cap, "interfaces") : NULL;

	for (size_t i = 0; ifs && i < json_object_array_length(ifs); i++) {
		struct json_object *x = json_object_array_get_idx(ifs, i), *v;

		if (json_object_object_get_ex(x, "name", &v) &&
		    json_object_is_type(v, json_type_string) &&
		    !strcmp(json_object_get_string(v), name))
			return x;
	}
	return NULL;
}

static uint64_t json_drops(struct json_object *x)
{
	int64_t d = i64(json_object_object_get(x, "pcap_stats"), "ps_drop");

	return d > 0 ? (uint64_t)d : 0;
}

static const char *json_error(struct json_object *x)
{
	struct json_object *v;

	return x && json_object_object_get_ex(x, "error", &v) ? json_object_get_string(v) : NULL;
}

/*
 * One capture file as a link.  A capture that broke off (@broke: why) is
 * marked truncated, so the analysis flags it capture-incomplete.
 */
static int add_file(struct bc_attrib *a, enum bc_side side, const char *host, const char *ifname,
		    const char *path, uint64_t drops, const char *broke, struct json_object *notes)
{
	char name[BC_ATTRIB_NAME];
	struct bc_error e = {0};
	int link;

	snprintf(name, sizeof(name), "%s/%s", host, ifname);
	link = bc_attrib_add_link(a, side, name, &e);
	if (link < 0) {
		note(notes, "capture: %s", e.msg);
		return 0;
	}
	a->links[link].ps_drop = drops;
	if (bc_attrib_read_pcap(a, link, path, &e) < 0) {
		if (e.code == -ENOMEM)
			return -ENOMEM;
		note(notes, "capture: %s", e.msg);
	}
	if (broke && *broke) {
		a->links[link].truncated = true;
		snprintf(a->links[link].trunc_msg, sizeof(a->links[link].trunc_msg), "%s", broke);
	}
	return 0;
}

/*
 * The receiver's reassembly settings (forward: the agent, -R: the client) from its
 * metadata sysctls: net.ipv4.ipfrag_time (s) is the fragment join window,
 * net.ipv4.ipfrag_max_dist the FRAG_TOO_FAR distance; the defaults when absent.
 */
static void receiver_frag_cfg(struct bc_attrib_cfg *cfg, struct json_object *res)
{
	const char *dir = bc_json_str(json_object_object_get(res, "test"), "direction");
	struct json_object *ends = json_object_object_get(res, "ends");
	struct json_object *rcv = json_object_object_get(ends, strcmp(dir, "reverse") ? "agent"
										       : "client");
	struct json_object *sc = json_object_object_get(json_object_object_get(rcv, "metadata"),
							"sysctls");
	const char *t = bc_json_str(sc, "net.ipv4.ipfrag_time");
	const char *d = bc_json_str(sc, "net.ipv4.ipfrag_max_dist");
	char *end;
	unsigned long v;

	v = strtoul(t, &end, 10);
	if (*t && !*end && v > 0 && v < 86400)
		cfg->ipfrag_window_ns = (uint64_t)v * 1000000000ull;
	v = strtoul(d, &end, 10);
	if (*d && !*end && v < 1000000)
		cfg->ipfrag_max_dist = (uint32_t)v;
}

/* A local file-system failure: the capture files could not be written here. */
static bool write_error(int r)
{
	return r == -ENOSPC || r == -EDQUOT || r == -EIO || r == -EROFS;
}

int bc_run_capture_attribute(struct bc_run_capture *rc, uint32_t test_id,
			     const struct sockaddr_storage *agent_ctl,
			     const struct sockaddr_storage *client_addr,
			     struct json_object *agent_cap, struct json_object *res,
			     struct json_object *findings, struct json_object *notes,
			     bool fetch_only, struct bc_error *err)
{
	struct bc_bulk_file files[BC_CAPTURE_MAX_IFS];
	struct json_object *cap = json_object_new_object(), *analysis, *af;
	struct json_object *errors = json_object_new_array();
	struct bc_attrib_cfg cfg;
	struct bc_attrib a;
	struct bc_error e = {0};
	size_t nf = 0;
	int r;

	json_object_object_add(cap, "client", bc_run_capture_json(rc));
	json_object_object_add(cap, "agent", json_object_get(agent_cap));
	json_object_object_add(cap, "folder",
			       rc->temp_dir ? NULL : json_object_new_string(rc->dir));
	json_object_object_add(res, "capture", cap);
	if (!agent_cap) {
		note(notes, "capture: the agent did not capture (it predates the plan's capture "
			    "member); only this end's slaves were captured");
	} else {
		const char *tok = bc_json_str(agent_cap, "bulk_token");

		r = bc_bulk_fetch(agent_ctl, test_id, tok, rc->dir, files, &nf, &e);
		if (r < 0)
			note(notes, "capture: the agent's capture files did not arrive: %s", e.msg);
		if (r < 0 && write_error(r))
			json_object_array_add(errors,
					      json_object_new_string_len(
						      e.msg, (int)strnlen(e.msg, sizeof(e.msg))));
	}
	/* files that could not be written (full disk): the report still comes, flagged */
	for (size_t i = 0; i < rc->cap.n; i++)
		if (rc->cap.ifs[i].write_failed)
			json_object_array_add(errors,
					      json_object_new_string(rc->cap.ifs[i].error_msg));
	if (json_object_array_length(errors))
		json_object_object_add(cap, "errors", errors);
	else
		json_object_put(errors);
	if (fetch_only)
		return 0;
	bc_attrib_cfg_default(&cfg);
	cfg.have_local = true;
	if (client_addr->ss_family == AF_INET6) {
		cfg.local_version = 6;
		memcpy(cfg.local, &((const struct sockaddr_in6 *)client_addr)->sin6_addr, 16);
	} else {
		cfg.local_version = 4;
		memcpy(cfg.local, &((const struct sockaddr_in *)client_addr)->sin_addr, 4);
	}
	receiver_frag_cfg(&cfg, res);
	r = bc_attrib_init(&a, &cfg, err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < rc->cap.n && r == 0; i++)
		r = add_file(&a, BC_SIDE_TX, "client", rc->cap.ifs[i].name, rc->cap.ifs[i].path,
			     rc->cap.ifs[i].ps_drop, rc->cap.ifs[i].error_msg, notes);
	for (size_t i = 0; i < nf && r == 0; i++)
		r = add_file(&a, BC_SIDE_RX, "agent", files[i].name, files[i].path,
			     json_drops(json_iface(agent_cap, files[i].name)),
			     json_error(json_iface(agent_cap, files[i].name)), notes);
	if (rc->temp_dir)
		for (size_t i = 0; i < nf; i++)
			unlink(files[i].path);
	if (r == 0)
		r = bc_attrib_finish(&a, err);
	if (r < 0) {
		bc_attrib_free(&a);
		return bc_error_set(err, r, "capture analysis: out of memory");
	}
	analysis = bc_analyze_json(&a);
	bc_attrib_free(&a);
	if (!analysis)
		return bc_error_set(err, -ENOMEM, "capture analysis: out of memory");
	bc_run_ledger(analysis, res, notes);
	bc_run_observed(analysis, res);
	af = json_object_object_get(analysis, "findings");
	for (size_t i = 0; af && i < json_object_array_length(af); i++)
		json_object_array_add(findings, json_object_get(json_object_array_get_idx(af, i)));
	json_object_object_add(cap, "analysis", analysis);
	return 0;
}
