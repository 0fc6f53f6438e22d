// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reader of a pair's relayed `run` result (bondcheck/matrix-doc.h,
 * bc_matrix_run_read): one walk of the json-c tree with doc-read.h's strict
 * readers, for bc_matrix_pair_fill() and bc_matrix_probe_add().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/matrix-doc.h"

const char *const bc_matrix_end_counters[5] = {"rx_dropped", "rx_missed_errors", "rx_over_errors",
					       "tx_dropped", "qdisc_drops"};

static void read_link(struct bc_doc_read *r, struct json_object *o, const char *path,
		      struct bc_matrix_link_doc *l)
{
	*l = (struct bc_matrix_link_doc){0};
	bc_doc_dbl(r, o, path, "speed_mbps", BC_DOC_REQUIRED, &l->speed_mbps);
	bc_doc_dbl(r, o, path, "tbf_bps", BC_DOC_REQUIRED, &l->tbf_bps);
}

/* Bond mode number from the sysfs text "balance-rr 0"; -1 when it has none. */
static int mode_number(const char *text)
{
	const char *sp = strchr(text, ' ');

	return sp ? atoi(sp + 1) : -1;
}

static void read_egress(struct bc_doc_read *r, struct json_object *eg, const char *path,
			struct bc_matrix_run_end *e)
{
	struct json_object *bond, *opts, *slaves;
	char bpath[96], opath[112], spath[112], lpath[128], mode[64] = "";
	size_t n = 0;

	e->have_egress = true;
	bc_doc_str(r, eg, path, "name", BC_DOC_REQUIRED, e->ifname, sizeof(e->ifname));
	bc_doc_i64(r, eg, path, "mtu", BC_DOC_REQUIRED, &e->mtu);
	read_link(r, eg, path, &e->link);
	bond = bc_doc_member(r, eg, path, "bond", BC_DOC_OPTIONAL);
	if (!bond)
		return;
	bc_doc_path(bpath, sizeof(bpath), path, "bond", 0);
	slaves = bc_doc_array(r, bond, bpath, "slaves", BC_DOC_OPTIONAL, &n);
	/* a bond without slaves (or more than a bond can have) is taken as one link */
	if (!slaves || n == 0 || n > BC_MATRIX_MAX_SLAVES)
		return;
	e->is_bond = true;
	e->n_slaves = n;
	opts = bc_doc_member(r, bond, bpath, "options", BC_DOC_REQUIRED);
	bc_doc_path(opath, sizeof(opath), bpath, "options", 0);
	if (opts && bc_doc_str(r, opts, opath, "mode", BC_DOC_REQUIRED, mode, sizeof(mode)))
		e->mode = mode_number(mode);
	bc_doc_path(spath, sizeof(spath), bpath, "slaves", 0);
	for (size_t i = 0; i < n; i++) {
		bc_doc_path(lpath, sizeof(lpath), spath, NULL, i);
		read_link(r, json_object_array_get_idx(slaves, i), lpath, &e->slaves[i]);
	}
}

static void read_end(struct bc_doc_read *r, struct json_object *ends, const char *which,
		     struct bc_matrix_run_end *e)
{
	struct json_object *end, *meta, *eg, *ctr, *ifs, *ifc;
	char path[32], mpath[48], epath[64], cpath[64], ipath[96], fpath[192];

	memset(e, 0, sizeof(*e));
	e->mode = -1;
	bc_doc_path(path, sizeof(path), "ends", which, 0);
	end = bc_doc_member(r, ends, "ends", which, BC_DOC_OPTIONAL);
	meta = bc_doc_member(r, end, path, "metadata", BC_DOC_OPTIONAL);
	bc_doc_path(mpath, sizeof(mpath), path, "metadata", 0);
	bc_doc_str(r, meta, mpath, "hostname", BC_DOC_OPTIONAL, e->hostname, sizeof(e->hostname));
	eg = bc_doc_member(r, meta, mpath, "egress", BC_DOC_OPTIONAL);
	bc_doc_path(epath, sizeof(epath), mpath, "egress", 0);
	if (eg) {
		size_t n0 = r->n_problems;

		read_egress(r, eg, epath, e);
		e->egress_problems = r->n_problems - n0;
	}
	ctr = bc_doc_member(r, end, path, "counters", BC_DOC_OPTIONAL);
	bc_doc_path(cpath, sizeof(cpath), path, "counters", 0);
	bc_doc_bool(r, ctr, cpath, "cpu_bound", BC_DOC_OPTIONAL, &e->cpu_bound);
	ifs = bc_doc_member(r, ctr, cpath, "interfaces", BC_DOC_OPTIONAL);
	bc_doc_path(ipath, sizeof(ipath), cpath, "interfaces", 0);
	ifc = e->ifname[0] ? bc_doc_member(r, ifs, ipath, e->ifname, BC_DOC_OPTIONAL) : NULL;
	bc_doc_path(fpath, sizeof(fpath), ipath, e->ifname, 0);
	for (size_t i = 0; i < 5; i++)
		bc_doc_i64(r, ifc, fpath, bc_matrix_end_counters[i], BC_DOC_OPTIONAL,
			   &e->counters[i]);
}

static void read_streams(struct bc_doc_read *r, struct json_object *result, bool probe,
			 struct bc_matrix_run_doc *d)
{
	struct json_object *streams;
	char path[32];
	size_t n;

	streams = bc_doc_array(r, result, "", "streams", BC_DOC_REQUIRED, &n);
	d->have_streams = streams != NULL;
	if (probe) {
		struct json_object *s = n ? json_object_array_get_idx(streams, 0) : NULL;
		struct json_object *snd;

		if (!n) {
			if (streams)
				bc_doc_problem(r, "streams", NULL, "empty");
			return;
		}
		bc_doc_i64(r, s, "streams[0]", "sent_packets", BC_DOC_REQUIRED, &d->probe_sent);
		bc_doc_i64(r, s, "streams[0]", "received_packets", BC_DOC_REQUIRED,
			   &d->probe_received);
		snd = bc_doc_member(r, s, "streams[0]", "sender", BC_DOC_OPTIONAL);
		bc_doc_i64(r, snd, "streams[0].sender", "send_errors", BC_DOC_OPTIONAL,
			   &d->probe_send_errors);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(streams, i);
		int64_t v[4] = {0};

		bc_doc_path(path, sizeof(path), "streams", NULL, i);
		if (d->udp) {
			bc_doc_i64(r, s, path, "sent_packets", BC_DOC_REQUIRED, &v[1]);
			bc_doc_i64(r, s, path, "received_packets", BC_DOC_REQUIRED, &v[2]);
			bc_doc_i64(r, s, path, "lost_packets", BC_DOC_REQUIRED, &v[3]);
		} else {
			bc_doc_i64(r, s, path, "retransmits", BC_DOC_REQUIRED, &v[0]);
		}
		d->retransmits += v[0];
		d->sent += v[1];
		d->received += v[2];
		d->lost += v[3];
	}
}

void bc_matrix_run_read(struct json_object *result, bool probe, struct bc_matrix_run_doc *d)
{
	struct json_object *test, *ends, *sys;
	char proto[16] = "", ts[16] = "";
	int64_t ipv = 4;

	memset(d, 0, sizeof(*d));
	bc_doc_read_init(&d->r);
	d->tcp_timestamps = true;
	d->goodput_bps = NAN;
	test = bc_doc_member(&d->r, result, "", "test", probe ? BC_DOC_OPTIONAL : BC_DOC_REQUIRED);
	bc_doc_i64(&d->r, test, "test", "ip_version", BC_DOC_OPTIONAL, &ipv);
	d->ip_version = (int)ipv;
	if (!probe) {
		bc_doc_str(&d->r, test, "test", "protocol", BC_DOC_REQUIRED, proto, sizeof(proto));
		d->udp = !strcmp(proto, "udp");
		bc_doc_i64(&d->r, test, "test", "length", BC_DOC_OPTIONAL, &d->length);
		bc_doc_dbl(&d->r, result, "", "goodput_bps", BC_DOC_REQUIRED, &d->goodput_bps);
		bc_doc_dbl(&d->r, result, "", "ceiling_bps", BC_DOC_OPTIONAL, &d->ceiling_bps);
		d->notes = bc_doc_member(&d->r, result, "", "notes", BC_DOC_OPTIONAL);
	}
	read_streams(&d->r, result, probe, d);
	if (probe)
		return;
	ends = bc_doc_member(&d->r, result, "", "ends", BC_DOC_OPTIONAL);
	read_end(&d->r, ends, "client", &d->client);
	read_end(&d->r, ends, "agent", &d->agent);
	sys = bc_doc_member(
		&d->r,
		bc_doc_member(&d->r, bc_doc_member(&d->r, ends, "ends", "client", BC_DOC_OPTIONAL),
			      "ends.client", "metadata", BC_DOC_OPTIONAL),
		"ends.client.metadata", "sysctls", BC_DOC_OPTIONAL);
	if (bc_doc_str(&d->r, sys, "ends.client.metadata.sysctls", "net.ipv4.tcp_timestamps",
		       BC_DOC_OPTIONAL, ts, sizeof(ts)))
		d->tcp_timestamps = !ts[0] || atoi(ts) != 0;
}
