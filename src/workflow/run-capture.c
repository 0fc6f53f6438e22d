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

int bc_run_capture_open(struct bc_run_capture *rc, const char *host,
			const struct sockaddr_storage *local, const struct sockaddr_storage *peer,
			uint16_t ctl_port, const char *keep_dir, uint32_t buffer,
			unsigned filter_flags,
			struct bc_error *err)
{
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
	r = bc_capture_open(&rc->cap, host, filter, rc->dir, err);
	if (r < 0) {
		if (rc->temp_dir)
			rmdir(rc->dir);
		rc->temp_dir = false;
		return r;
	}
	randombytes_buf(tok, sizeof(tok));
	sodium_bin2hex(rc->token, sizeof(rc->token), tok, sizeof(tok));
	rc->opened = true;
	return 0;
}

int bc_run_capture_start(struct bc_run_capture *rc, struct bc_error *err)
{
	int r = bc_capture_start(&rc->cap, err);

	rc->started = r == 0;
	return r;
}

void bc_run_capture_stop(struct bc_run_capture *rc)
{
	if (!rc->opened)
		return;
	bc_capture_stop(&rc->cap);
	rc->opened = false;
}

struct json_object *bc_run_capture_json(const struct bc_run_capture *rc)
{
	struct json_object *o = bc_capture_json(&rc->cap);

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
	bc_capture_free(&rc->cap);
	if (!rc->temp_dir)
		return;
	for (size_t i = 0; i < rc->cap.n; i++)
		if (rc->cap.ifs[i].path[0])
			unlink(rc->cap.ifs[i].path);
	rmdir(rc->dir);
	rc->temp_dir = false;
}
