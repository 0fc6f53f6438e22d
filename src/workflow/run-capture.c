// SPDX-License-Identifier: GPL-2.0-or-later
/* Capture during a run on either end: setup and teardown (workflow/run-capture.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "bondcheck/plan.h"
#include "traffic/egress.h"
#include "traffic/test-end.h"
#include "workflow/run-capture.h"
#include "workflow/run-tap.h"

static const char *const capsrc_names[] = {"pcap", "auto", "taps", "both"};

const char *bc_capsrc_name(enum bc_capsrc s)
{
	return (unsigned)s < 4 ? capsrc_names[s] : "pcap";
}

int bc_capsrc_parse(const char *s, enum bc_capsrc *out)
{
	for (unsigned i = 0; i < 4; i++)
		if (!strcmp(s, capsrc_names[i])) {
			*out = (enum bc_capsrc)i;
			return 0;
		}
	return -EINVAL;
}

int bc_run_capture_open(struct bc_run_capture *rc, const char *host,
			const struct sockaddr_storage *local, const struct sockaddr_storage *peer,
			uint16_t ctl_port, const char *keep_dir, uint32_t buffer,
			unsigned filter_flags, enum bc_capsrc want,
			struct bc_error *err)
{
	char names[BC_CAPTURE_MAX_IFS][16];
	char filter[BC_CAPTURE_FILTER_MAX];
	struct sockaddr_storage l = *local, p = *peer;
	unsigned char tok[32];
	struct bc_egress e;
	int r;

	memset(rc, 0, sizeof(*rc));
	/* a dual-stack agent sees ::ffff:a.b.c.d; the filter needs the IPv4 address */
	bc_sockaddr_unmap(&l);
	bc_sockaddr_unmap(&p);
	if (bc_egress_find(&l, &e) < 0)
		return bc_error_set(err, -ENODEV,
				    "capture: no interface carries this host's test address");
	rc->cap.buffer_bytes = buffer;
	r = bc_capture_ifaces(&rc->cap, e.dev.name, err);
	if (r < 0)
		return r;
	r = bc_capture_filter_ext(filter, sizeof(filter), &l, &p, ctl_port, filter_flags, err);
	if (r < 0)
		return r;
	if (keep_dir) {
		if (mkdir(keep_dir, 0755) < 0 && errno != EEXIST)
			return bc_error_set(err, -errno, "--keep-pcaps %s: %s", keep_dir,
					    strerror(errno));
		snprintf(rc->dir, sizeof(rc->dir), "%s", keep_dir);
	} else {
		const char *tmp = getenv("TMPDIR");

		snprintf(rc->dir, sizeof(rc->dir), "%s/bondcheck-cap.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(rc->dir))
			return bc_error_set(err, -errno,
					    "cannot make a folder for the capture files: %s",
					    strerror(errno));
		rc->temp_dir = true;
	}
	rc->pcap_on = want != BC_CAPSRC_TAPS && want != BC_CAPSRC_AUTO;
	if (want != BC_CAPSRC_PCAP) {
		struct bc_error te = {0};

		for (size_t i = 0; i < rc->cap.n; i++)
			memcpy(names[i], rc->cap.ifs[i].name, 16);
		r = bc_run_tap_open(&rc->tap, host, (const char (*)[16])names, rc->cap.n, &l, &p,
				    ctl_port, rc->dir, &te);
		if (r < 0 && want != BC_CAPSRC_AUTO) {
			bc_error_set(err, r, "--capture %s: %s", bc_capsrc_name(want), te.msg);
			goto fail;
		}
		if (r < 0) {
			snprintf(rc->source_reason, sizeof(rc->source_reason),
				 "pcap: the taps cannot run here: %s", te.msg);
			rc->pcap_on = true;
		}
	} else {
		snprintf(rc->source_reason, sizeof(rc->source_reason), "pcap: asked (--capture pcap)");
	}
	if (keep_dir)
		rc->pcap_on = true;
	if (rc->tap && !rc->pcap_on)
		snprintf(rc->source_reason, sizeof(rc->source_reason),
			 "taps: the taps loaded (%s)", want == BC_CAPSRC_AUTO ? "auto" : "asked");
	else if (rc->tap)
		snprintf(rc->source_reason, sizeof(rc->source_reason), "both: %s",
			 want == BC_CAPSRC_BOTH ? "asked (--capture both)"
						: "the taps, and pcap for the kept evidence");
	snprintf(rc->source, sizeof(rc->source), "%s",
		 rc->tap ? (rc->pcap_on ? "both" : "taps") : "pcap");
	snprintf(rc->cap.host, sizeof(rc->cap.host), "%s", host);
	if (rc->pcap_on) {
		r = bc_capture_open(&rc->cap, host, filter, rc->dir, err);
		if (r < 0)
			goto fail;
	}
	randombytes_buf(tok, sizeof(tok));
	sodium_bin2hex(rc->token, sizeof(rc->token), tok, sizeof(tok));
	rc->opened = true;
	return 0;
fail:
	bc_run_tap_free(rc->tap);
	rc->tap = NULL;
	if (rc->temp_dir)
		rmdir(rc->dir);
	rc->temp_dir = false;
	return r;
}

int bc_run_capture_start(struct bc_run_capture *rc, struct bc_error *err)
{
	int r = rc->tap ? bc_run_tap_start(rc->tap, err) : 0;

	if (r == 0 && rc->pcap_on)
		r = bc_capture_start(&rc->cap, err);

	rc->started = r == 0;
	return r;
}

void bc_run_capture_stop(struct bc_run_capture *rc)
{
	struct bc_error e = {0};

	if (!rc->opened)
		return;
	if (rc->pcap_on)
		bc_capture_stop(&rc->cap);
	if (rc->tap && bc_run_tap_stop(rc->tap, &e) < 0)
		snprintf(rc->tap_error, sizeof(rc->tap_error), "%s", e.msg);
	rc->opened = false;
}

void bc_run_capture_offer(struct bc_run_capture *rc)
{
	rc->offer.n = 0;
	for (size_t i = 0; rc->pcap_on && i < rc->cap.n; i++)
		rc->offer.ifs[rc->offer.n++] = rc->cap.ifs[i];
	if (rc->tap && !rc->tap_error[0])
		bc_run_tap_files(rc->tap, &rc->offer, true);
}

struct json_object *bc_run_capture_json(const struct bc_run_capture *rc)
{
	struct json_object *o;

	if (rc->pcap_on) {
		o = bc_capture_json(&rc->cap);
	} else {
		o = json_object_new_object();
		json_object_object_add(o, "host", json_object_new_string(rc->cap.host));
		json_object_object_add(o, "bond", rc->cap.bond[0]
							  ? json_object_new_string(rc->cap.bond)
							  : NULL);
	}
	json_object_object_add(o, "source", json_object_new_string(rc->source));
	json_object_object_add(o, "source_reason", json_object_new_string(rc->source_reason));
	if (rc->tap) {
		struct json_object *t = bc_run_tap_json(rc->tap);

		if (rc->tap_error[0])
			json_object_object_add(t, "error", json_object_new_string(rc->tap_error));
		json_object_object_add(o, "taps", t);
	}

	json_object_object_add(o, "version", json_object_new_int(BC_PLAN_CAPTURE_VERSION));
	if (!strcmp(rc->cap.host, "agent"))
		json_object_object_add(o, "bulk_token", json_object_new_string(rc->token));
	return o;
}

void bc_run_capture_free(struct bc_run_capture *rc)
{
	if (!rc)
		return;
	bc_run_capture_stop(rc);
	bc_run_tap_free(rc->tap);
	rc->tap = NULL;
	if (rc->pcap_on)
		bc_capture_free(&rc->cap);
	if (!rc->temp_dir)
		return;
	for (size_t i = 0; rc->pcap_on && i < rc->cap.n; i++)
		if (rc->cap.ifs[i].path[0])
			unlink(rc->cap.ifs[i].path);
	rmdir(rc->dir);
	rc->temp_dir = false;
}
