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
#include "workflow/run-tap.h"

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

/* The agent's tap file "tap.I": its interface, from the result's capture.taps. */
static const char *agent_tap_name(struct json_object *agent_cap, const char *file)
{
	struct json_object *ifs = json_object_object_get(
		json_object_object_get(agent_cap, "taps"), "interfaces");
	char *end;
	unsigned long i;

	if (strncmp(file, "tap.", 4))
		return NULL;
	i = strtoul(file + 4, &end, 10);
	if (*end || end == file + 4 || i >= bc_json_len(ifs))
		return NULL;
	return bc_json_str(json_object_array_get_idx(ifs, i), "name");
}

/* The agent's records lost (ring drops and records over the cap). */
static uint64_t agent_tap_lost(struct json_object *agent_cap)
{
	struct json_object *c = json_object_object_get(json_object_object_get(agent_cap, "taps"),
						       "counters");
	int64_t d = i64(c, "ring_drop"), k = i64(c, "kept_over");

	return (uint64_t)(d > 0 ? d : 0) + (uint64_t)(k > 0 ? k : 0);
}

/*
 * One attribution of both ends' files: the client's taps (@taps_c) or pcap
 * files, the agent's tap files ("tap.I") or pcap files (@taps_a).  Returns
 * the analyze JSON in *@out, 0 or -ENOMEM.
 */
static int attribute(struct bc_run_capture *rc, const struct bc_attrib_cfg *cfg, bool taps_c,
		     bool taps_a, const struct bc_bulk_file *files, size_t nf,
		     struct json_object *agent_cap, struct json_object *notes,
		     struct json_object **out, struct bc_error *err)
{
	struct bc_attrib a;
	int r;

	*out = NULL;
	r = bc_attrib_init(&a, cfg, err);
	if (r < 0)
		return r;
	if (taps_c) {
		for (size_t i = 0; i < bc_run_tap_n(rc->tap) && r == 0; i++)
			r = add_file(&a, BC_SIDE_TX, "client", bc_run_tap_name(rc->tap, i),
				     bc_run_tap_path(rc->tap, i), bc_run_tap_lost(rc->tap), NULL,
				     notes);
	} else {
		for (size_t i = 0; i < rc->cap.n && r == 0; i++)
			r = add_file(&a, BC_SIDE_TX, "client", rc->cap.ifs[i].name,
				     rc->cap.ifs[i].path, rc->cap.ifs[i].ps_drop,
				     rc->cap.ifs[i].error_msg, notes);
	}
	for (size_t i = 0; i < nf && r == 0; i++) {
		const char *tn = agent_tap_name(agent_cap, files[i].name);

		if (taps_a && tn)
			r = add_file(&a, BC_SIDE_RX, "agent", tn, files[i].path,
				     agent_tap_lost(agent_cap), NULL, notes);
		else if (!taps_a && !strncmp(files[i].name, "tap.", 4))
			continue;
		else if (!taps_a)
			r = add_file(&a, BC_SIDE_RX, "agent", files[i].name, files[i].path,
				     json_drops(json_iface(agent_cap, files[i].name)),
				     json_error(json_iface(agent_cap, files[i].name)), notes);
	}
	if (r == 0)
		r = bc_attrib_finish(&a, err);
	if (r < 0) {
		bc_attrib_free(&a);
		return bc_error_set(err, r, "capture analysis: out of memory");
	}
	*out = bc_analyze_json(&a);
	bc_attrib_free(&a);
	if (!*out)
		return bc_error_set(err, -ENOMEM, "capture analysis: out of memory");
	return 0;
}

static struct json_object *an_link(struct json_object *an, const char *name)
{
	struct json_object *links = json_object_object_get(an, "links");

	for (size_t i = 0; i < bc_json_len(links); i++) {
		struct json_object *l = json_object_array_get_idx(links, i);

		if (!strcmp(bc_json_str(l, "name"), name))
			return l;
	}
	return NULL;
}

/*
 * capture.tap_vs_pcap: per link of the taps' analysis, its frames and
 * bytes in both; on the client's (sending) links the difference is the
 * stage "offered to the slave" (taps, before the qdisc) minus "left the
 * slave" (pcap, after it): the qdisc's drops seen directly, set beside the
 * root qdisc's drop counter over the test and the slave's stats64 bytes
 * (super-packets: compare bytes, not packets).
 */
static struct json_object *tap_vs_pcap(struct json_object *tan, struct json_object *pan,
				       struct json_object *res)
{
	struct json_object *arr = json_object_new_array();
	struct json_object *links = json_object_object_get(tan, "links");
	struct json_object *cif = json_object_object_get(
		json_object_object_get(
			json_object_object_get(json_object_object_get(res, "ends"), "client"),
			"counters"),
		"interfaces");

	for (size_t i = 0; i < bc_json_len(links); i++) {
		struct json_object *tl = json_object_array_get_idx(links, i), *x;
		const char *name = bc_json_str(tl, "name");
		struct json_object *pl = an_link(pan, name);
		int64_t tf = i64(tl, "frames"), pf = pl ? i64(pl, "frames") : -1;

		x = json_object_new_object();
		json_object_object_add(x, "link", json_object_new_string(name));
		json_object_object_add(x, "tap_frames", json_object_new_int64(tf));
		json_object_object_add(x, "pcap_frames", pl ? json_object_new_int64(pf) : NULL);
		json_object_object_add(x, "tap_bytes", json_object_new_int64(i64(tl, "bytes")));
		json_object_object_add(x, "pcap_bytes",
				       pl ? json_object_new_int64(i64(pl, "bytes")) : NULL);
		json_object_object_add(x, "differ_frames",
				       pl ? json_object_new_int64(tf - pf) : NULL);
		if (!strncmp(name, "tx:client/", 10)) {
			struct json_object *c = json_object_object_get(cif, name + 10);

			json_object_object_add(x, "stage", json_object_new_string("qdisc-drop"));
			json_object_object_add(x, "qdisc_drops",
					       c ? json_object_new_int64(i64(c, "qdisc_drops"))
						 : NULL);
			json_object_object_add(x, "stats64_tx_bytes",
					       c ? json_object_new_int64(i64(c, "tx_bytes"))
						 : NULL);
		}
		json_object_array_add(arr, x);
	}
	return arr;
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
	struct json_object *pan = NULL;
	struct bc_attrib_cfg cfg;
	struct bc_error e = {0};
	bool taps_c, taps_a = false, pcap_c, pcap_a;
	char why[720];
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
	if (rc->tap_error[0])
		json_object_array_add(errors, json_object_new_string(rc->tap_error));
	for (size_t i = 0; rc->pcap_on && i < rc->cap.n; i++)
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
	/* each end's taps when they ran and wrote their files, else its pcap */
	taps_c = rc->tap && !rc->tap_error[0];
	for (size_t i = 0; i < nf; i++)
		taps_a |= agent_tap_name(agent_cap, files[i].name) != NULL;
	pcap_c = rc->pcap_on;
	pcap_a = agent_cap && json_object_object_get(agent_cap, "interfaces");
	r = attribute(rc, &cfg, taps_c, taps_a, files, nf, agent_cap, notes, &analysis, err);
	/* both sources on both ends: the pcap attribution beside it */
	if (r == 0 && taps_c && taps_a && pcap_c && pcap_a) {
		r = attribute(rc, &cfg, false, false, files, nf, agent_cap, notes, &pan, err);
		if (r == 0) {
			json_object_object_add(cap, "tap_vs_pcap", tap_vs_pcap(analysis, pan, res));
			json_object_object_add(cap, "analysis_pcap", pan);
		}
	}
	if (rc->temp_dir || !strcmp(rc->source, "taps") || taps_a)
		for (size_t i = 0; i < nf; i++)
			if (rc->temp_dir || !strncmp(files[i].name, "tap.", 4))
				unlink(files[i].path);
	if (r < 0) {
		json_object_put(analysis);
		return r;
	}
	json_object_object_add(cap, "source",
			       json_object_new_string(taps_c && taps_a
							      ? (pcap_c && pcap_a ? "both" : "taps")
						      : !taps_c && !taps_a ? "pcap"
									   : "mixed"));
	{
		const char *ar = bc_json_str(agent_cap, "source_reason");

		snprintf(why, sizeof(why), "client %s; agent %s", rc->source_reason,
			 *ar ? ar : "pcap: it predates the taps");
		json_object_object_add(cap, "source_reason", json_object_new_string(why));
	}
	/*
	 * UDP GSO: an egress tap after the stack (pcap's) sees each
	 * super-packet as one frame, and a veth or a NIC with GSO does not
	 * segment before it; with snaplen 128 only the first datagram's header
	 * is in it.  The taps record every datagram of a super-packet.
	 */
	if ((!taps_c || !taps_a) &&
	    json_object_get_boolean(json_object_object_get(json_object_object_get(res, "test"),
							  "udp_gso"))) {
		char msg[400];

		snprintf(msg, sizeof(msg),
			 "UDP GSO with pcap on the %s: pcap sees a GSO super-packet as one "
			 "frame and only its first datagram's header, so the links' units "
			 "there are super-packets, not datagrams, and loss inside a super-packet "
			 "is not seen; the taps (--capture taps) record every datagram",
			 !taps_c && !taps_a ? "client and the agent" : !taps_c ? "client" : "agent");
		json_object_array_add(notes, json_object_new_string(msg));
	}
	bc_run_ledger(analysis, res, notes);
	bc_run_observed(analysis, res);
	af = json_object_object_get(analysis, "findings");
	for (size_t i = 0; af && i < json_object_array_length(af); i++)
		json_object_array_add(findings, json_object_get(json_object_array_get_idx(af, i)));
	json_object_object_add(cap, "analysis", analysis);
	return 0;
}
