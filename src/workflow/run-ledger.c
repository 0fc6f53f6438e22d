// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run's live loss ledger: read the capture analysis and both ends'
 * counter deltas from the result JSON, compute bondcheck/ledger.h, and put
 * the stages into analysis.ledger and the ledger findings into
 * analysis.findings (replacing the capture-only wire-loss and
 * rx-loss-reassembly, which the live counters refine).  Forward runs: the
 * client sends; -R: the agent sends, its captures are the "rx:" links.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/json-get.h"
#include "bondcheck/ledger.h"
#include "bondcheck/names.h"
#include "bondcheck/findings.h"
#include "workflow/run-capture.h"

static uint64_t u64(struct json_object *o, const char *k)
{
	int64_t v = bc_json_i64(o, k, -1);

	return v > 0 ? (uint64_t)v : 0;
}

static struct json_object *path(struct json_object *o, const char *a, const char *b, const char *c)
{
	o = o ? json_object_object_get(o, a) : NULL;
	o = o && b ? json_object_object_get(o, b) : o;
	return o && c ? json_object_object_get(o, c) : o;
}

/* "tx:client/eth1" -> "eth1" */
static const char *ifname_of(const char *link)
{
	const char *s = strchr(link, '/');

	return s ? s + 1 : link;
}

/* Receive drop counters of the driver (ethtool -S deltas): rx drops, misses, no-buffer. */
static void driver_drops(struct json_object *meta_bond, const char *ifname, struct bc_ledger_rx *rx)
{
	struct json_object *sl = json_object_object_get(meta_bond, "slaves");
	int64_t best = 0;

	for (size_t i = 0; i < bc_json_len(sl); i++) {
		struct json_object *s = json_object_array_get_idx(sl, i);
		struct json_object *dc = json_object_object_get(s, "driver_counters");

		if (strcmp(bc_json_str(s, "name"), ifname) || !dc)
			continue;
		rx->driver_drops = 0;
		json_object_object_foreach(dc, k, v)
		{
			int64_t d = json_object_get_int64(v);

			if (!strstr(k, "rx") || strstr(k, "xdp") || d <= 0 ||
			    !(strstr(k, "drop") || strstr(k, "miss") || strstr(k, "no_buf") ||
			      strstr(k, "discard")))
				continue;
			rx->driver_drops += d;
			if (d > best) {
				best = d;
				snprintf(rx->driver_counter, sizeof(rx->driver_counter), "%s", k);
			}
		}
	}
}

static void fill_links(struct bc_ledger_in *in, struct json_object *an, struct json_object *snd,
		       struct json_object *rcv, const char *tx_prefix)
{
	struct json_object *links = json_object_object_get(an, "links");
	struct json_object *sif = path(snd, "counters", "interfaces", NULL);
	struct json_object *rif = path(rcv, "counters", "interfaces", NULL);
	struct json_object *rbond = path(rcv, "metadata", "bond", NULL);

	for (size_t i = 0; i < bc_json_len(links); i++) {
		struct json_object *l = json_object_array_get_idx(links, i);
		const char *name = bc_json_str(l, "name");
		struct json_object *c;

		if (!strncmp(name, tx_prefix, 3) && in->n_tx < BC_LEDGER_MAX_LINKS) {
			struct bc_ledger_tx *t = &in->tx[in->n_tx++];

			snprintf(t->name, sizeof(t->name), "%s", name);
			snprintf(t->peer, sizeof(t->peer), "%s", bc_json_str(l, "peer"));
			t->left = u64(l, "units_left") - u64(l, "unbracketed");
			t->lost = u64(l, "lost");
			t->messages_lost = u64(l, "messages_lost");
			{
				const char *b = bc_json_str(path(l, "bounds", NULL, NULL), "lost");

				t->lost_upper = !strcmp(b, "upper") || !strcmp(b, "unknown");
			}
			c = json_object_object_get(sif, ifname_of(name));
			t->qdisc_drops = bc_json_i64(c, "qdisc_drops", -1);
			t->tx_dropped = bc_json_i64(c, "tx_dropped", -1);
		} else if (strncmp(name, tx_prefix, 3) && in->n_rx < BC_LEDGER_MAX_LINKS) {
			struct bc_ledger_rx *r = &in->rx[in->n_rx++];

			snprintf(r->name, sizeof(r->name), "%s", name);
			c = json_object_object_get(rif, ifname_of(name));
			r->rx_dropped = bc_json_i64(c, "rx_dropped", -1);
			r->rx_missed = bc_json_i64(c, "rx_missed_errors", -1);
			r->rx_over = bc_json_i64(c, "rx_over_errors", -1);
			r->driver_drops = -1;
			driver_drops(rbond, ifname_of(name), r);
			/* a veth slave: its peer's tx_dropped is this slave's backlog refusing */
			r->peer_tx_dropped = bc_json_i64(c, "peer_tx_dropped", -1);
			r->peer_is_sender =
				json_object_get_boolean(json_object_object_get(c, "peer_enslaved"));
			r->rx_nohandler = bc_json_i64(c, "rx_nohandler", -1);
		}
	}
}

/* A sysctl of @end's metadata as a number, -1 when absent. */
static int64_t sysctl_i64(struct json_object *end, const char *name)
{
	const char *v = bc_json_str(path(end, "metadata", "sysctls", NULL), name);
	char *e;
	long long x;

	if (!v[0])
		return -1;
	x = strtoll(v, &e, 10);
	return e == v || x < 0 ? -1 : (int64_t)x;
}

/* The largest UDP payload one IP packet carries over both ends' egress MTUs; 0 unknown. */
static uint32_t datagram_max(struct json_object *snd, struct json_object *rcv, bool v6)
{
	int64_t a = bc_json_i64(path(snd, "metadata", "egress", NULL), "mtu", 0);
	int64_t b = bc_json_i64(path(rcv, "metadata", "egress", NULL), "mtu", 0);
	int64_t m = a > 0 && (b <= 0 || a < b) ? a : b, hdr = (v6 ? 40 : 20) + 8;

	return m > hdr ? (uint32_t)(m - hdr) : 0;
}

/* Fill @in from the result; false when the run is not a one-way UDP run. */
static bool gather(struct bc_ledger_in *in, struct json_object *an, struct json_object *res)
{
	const char *dir = bc_json_str(json_object_object_get(res, "test"), "direction");
	bool rev = !strcmp(dir, "reverse");
	const char *want = rev ? "agent-to-client" : "client-to-agent";
	const char *adir = rev ? "reverse" : "forward";
	struct json_object *snd = path(res, "ends", rev ? "agent" : "client", NULL);
	struct json_object *rcv = path(res, "ends", rev ? "client" : "agent", NULL);
	struct json_object *streams = json_object_object_get(res, "streams");
	struct json_object *ast = json_object_object_get(an, "streams");
	struct json_object *flows = json_object_object_get(an, "flows");
	struct json_object *fr = json_object_object_get(an, "fragments");
	struct json_object *ssnmp = path(snd, "counters", "snmp", NULL);
	struct json_object *rsnmp = path(rcv, "counters", "snmp", NULL);

	if (strcmp(dir, "forward") && !rev)
		return false;
	bc_ledger_in_init(in);
	snprintf(in->sender, sizeof(in->sender), "%s", rev ? "agent" : "client");
	snprintf(in->receiver, sizeof(in->receiver), "%s", rev ? "client" : "agent");
	snprintf(in->sender_bond, sizeof(in->sender_bond), "%s",
		 bc_json_str(path(snd, "metadata", "egress", NULL), "name"));
	snprintf(in->receiver_bond, sizeof(in->receiver_bond), "%s",
		 bc_json_str(path(rcv, "metadata", "egress", NULL), "name"));
	for (size_t i = 0; i < bc_json_len(streams); i++) {
		struct json_object *s = json_object_array_get_idx(streams, i);

		if (strcmp(bc_json_str(s, "direction"), want) ||
		    strcmp(bc_json_str(s, "protocol"), "udp"))
			return false;
		in->sent_by_app += u64(s, "sent_packets");
		in->read_by_app += u64(s, "received_packets");
		/* the receiving sockets' own drops (/proc/net/udp); unknown if one is */
		if (i == 0 || in->rcv_sock_drops >= 0) {
			struct json_object *v = json_object_object_get(s, "proc_udp_drops");
			int64_t d = v ? json_object_get_int64(v) : -1;

			in->rcv_sock_drops = d < 0 ? -1 : (i == 0 ? 0 : in->rcv_sock_drops) + d;
		}
	}
	for (size_t i = 0; i < bc_json_len(ast); i++) {
		struct json_object *s = json_object_array_get_idx(ast, i);

		if (strcmp(bc_json_str(s, "direction"), adir))
			continue;
		in->left += u64(s, "left");
		in->arrived += u64(s, "arrived") + u64(s, "arrived_partial");
		in->unbracketed += u64(s, "unbracketed");
	}
	for (size_t i = 0; i < bc_json_len(flows); i++) {
		struct json_object *f = json_object_array_get_idx(flows, i);

		if (strcmp(bc_json_str(f, "direction"), adir) ||
		    strcmp(bc_json_str(f, "proto"), "udp"))
			continue;
		snprintf(in->sender_addr, sizeof(in->sender_addr), "%s", bc_json_str(f, "src"));
		snprintf(in->receiver_addr, sizeof(in->receiver_addr), "%s", bc_json_str(f, "dst"));
		break;
	}
	in->too_far = u64(fr, "too_far");
	in->reassembled = in->arrived - (u64(fr, "incomplete") + in->too_far <= in->arrived
						 ? u64(fr, "incomplete") + in->too_far
						 : in->arrived);
	in->snd_buf_errors = bc_json_i64(ssnmp, "Udp.SndbufErrors", -1);
	in->rcv_in_datagrams = bc_json_i64(rsnmp, "Udp.InDatagrams", -1);
	in->rcv_in_errors = bc_json_i64(rsnmp, "Udp.InErrors", -1);
	in->rcv_buf_errors = bc_json_i64(rsnmp, "Udp.RcvbufErrors", -1);
	in->rcv_reasm_fails = bc_json_i64(rsnmp, "Ip.ReasmFails", -1);
	in->rcv_reasm_reqds = bc_json_i64(rsnmp, "Ip.ReasmReqds", -1);
	in->rcv_reasm_oks = bc_json_i64(rsnmp, "Ip.ReasmOKs", -1);
	in->rcv_reasm_timeout = bc_json_i64(rsnmp, "Ip.ReasmTimeout", -1);
	in->frag_messages = u64(fr, "messages_arrived");
	in->frag_complete = u64(fr, "complete");
	in->frag_arrived = u64(fr, "fragments_arrived");
	in->ipfrag_high_thresh = sysctl_i64(rcv, "net.ipv4.ipfrag_high_thresh");
	in->ipfrag_time = sysctl_i64(rcv, "net.ipv4.ipfrag_time");
	in->ipfrag_max_dist = sysctl_i64(rcv, "net.ipv4.ipfrag_max_dist");
	in->datagram_max = datagram_max(snd, rcv, strchr(in->receiver_addr, ':') != NULL);
	in->rcv_ip_in_receives = bc_json_i64(rsnmp, "Ip.InReceives", -1);
	in->softnet_dropped = bc_json_i64(path(rcv, "counters", "softnet", NULL), "dropped", -1);
	in->shared_kernel = bc_json_str(path(snd, "metadata", NULL, NULL), "boot_id")[0] &&
			    !strcmp(bc_json_str(path(snd, "metadata", NULL, NULL), "boot_id"),
				    bc_json_str(path(rcv, "metadata", NULL, NULL), "boot_id"));
	fill_links(in, an, snd, rcv, rev ? "rx:" : "tx:");
	return true;
}

static const char *const stage_source[BC_LEDGER_STAGES] = {
	"sender app (sendmsg successes)",
	"sender slave captures (datagrams; a fragmented one once)",
	"receiver slave captures (datagrams any fragment of which arrived)",
	"receiver: unfragmented arrivals + Ip ReasmOKs delta (no counter: captures)",
	"receiver Udp InDatagrams + InErrors delta",
	"receiver app",
};

static struct json_object *finding_json(const struct bc_ledger_in *in,
					const struct bc_ledger_finding *lf)
{
	const struct bc_finding_def *d = bc_findings_lookup(lf->id);
	struct json_object *o = json_object_new_object(), *ev = json_object_new_object();
	char buf[800];

	json_object_object_add(o, "id", json_object_new_string(lf->id));
	json_object_object_add(o, "severity",
			       json_object_new_string(d ? bc_severity_name(d->severity) : "error"));
	json_object_object_add(o, "subject", json_object_new_string(lf->subject));
	json_object_object_add(ev, "host", json_object_new_string(lf->host));
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)lf->count);
	json_object_object_add(ev, "count", json_object_new_string(buf));
	if (lf->of) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)lf->of);
		json_object_object_add(ev, "of", json_object_new_string(buf));
	}
	json_object_object_add(ev, "counter", json_object_new_string(lf->counter));
	if (lf->path[0])
		json_object_object_add(ev, "path", json_object_new_string(lf->path));
	json_object_object_add(o, "evidence", ev);
	snprintf(buf, sizeof(buf), "%llu %s on %s (%s, %s -> %s); the counter that moved: %s",
		 (unsigned long long)lf->count,
		 !strcmp(lf->id, "wire-loss") || !strncmp(lf->id, "tx", 2) ? "packets lost"
									   : "datagrams lost",
		 lf->subject, lf->host, in->sender, in->receiver, lf->counter);
	if (lf->advice[0]) {
		size_t n = strlen(buf);

		snprintf(buf + n, sizeof(buf) - n, ". Next: %s", lf->advice);
	}
	json_object_object_add(o, "advice", json_object_new_string(buf));
	return o;
}

/* The reassembly stage's kernel inputs and reason (docs/json.md). */
static struct json_object *reassembly_json(const struct bc_ledger_in *in, const struct bc_ledger *l)
{
	struct json_object *o = json_object_new_object();
#define I64_OR_NULL(v) ((v) >= 0 ? json_object_new_int64(v) : NULL)

	json_object_object_add(o, "reason", json_object_new_string(l->reasm_reason));
	json_object_object_add(o, "other_traffic", json_object_new_boolean(l->reasm_other_traffic));
	json_object_object_add(o, "scope", json_object_new_string("receiver network namespace"));
	json_object_object_add(o, "fragments_captured",
			       json_object_new_int64((int64_t)in->frag_arrived));
	json_object_object_add(o, "messages_fragmented",
			       json_object_new_int64((int64_t)in->frag_messages));
	json_object_object_add(o, "messages_whole_at_tap",
			       json_object_new_int64((int64_t)in->frag_complete));
	json_object_object_add(o, "reasm_reqds", I64_OR_NULL(in->rcv_reasm_reqds));
	json_object_object_add(o, "reasm_oks", I64_OR_NULL(in->rcv_reasm_oks));
	json_object_object_add(o, "reasm_fails", I64_OR_NULL(in->rcv_reasm_fails));
	json_object_object_add(o, "reasm_timeout", I64_OR_NULL(in->rcv_reasm_timeout));
	json_object_object_add(o, "ipfrag_high_thresh", I64_OR_NULL(in->ipfrag_high_thresh));
	json_object_object_add(o, "ipfrag_time", I64_OR_NULL(in->ipfrag_time));
	json_object_object_add(o, "ipfrag_max_dist", I64_OR_NULL(in->ipfrag_max_dist));
#undef I64_OR_NULL
	return o;
}

int bc_run_ledger(struct json_object *analysis, struct json_object *res, struct json_object *notes)
{
	struct json_object *arr, *old = json_object_object_get(analysis, "findings"), *nf;
	struct bc_ledger_in in;
	struct bc_ledger l;

	if (!gather(&in, analysis, res)) {
		json_object_array_add(
			notes,
			json_object_new_string("capture: the live loss ledger needs a one-way "
					       "UDP run (forward or -R); stages left as captured"));
		return 0;
	}
	bc_ledger_compute(&in, &l);
	arr = json_object_new_array();
	for (int i = 0; i < BC_LEDGER_STAGES; i++) {
		struct json_object *s = json_object_new_object();

		json_object_object_add(s, "stage", json_object_new_string(l.st[i].stage));
		json_object_object_add(s, "count",
				       l.st[i].known ? json_object_new_int64((int64_t)l.st[i].count)
						     : NULL);
		json_object_object_add(s, "drop", json_object_new_int64((int64_t)l.st[i].drop));
		json_object_object_add(s, "explained",
				       json_object_new_int64((int64_t)l.st[i].explained));
		json_object_object_add(s, "counter", json_object_new_string(l.st[i].counter));
		json_object_object_add(s, "absent_offline", json_object_new_boolean(false));
		json_object_object_add(s, "source", json_object_new_string(stage_source[i]));
		json_object_array_add(arr, s);
	}
	json_object_object_add(analysis, "ledger", arr);
	json_object_object_add(analysis, "ledger_direction",
			       json_object_new_string(in.sender[0] == 'a' ? "agent-to-client"
									  : "client-to-agent"));
	json_object_object_add(analysis, "softnet_shared_kernel",
			       json_object_new_boolean(in.shared_kernel));
	json_object_object_add(analysis, "reassembly", reassembly_json(&in, &l));
	nf = json_object_new_array();
	for (size_t i = 0; i < bc_json_len(old); i++) {
		struct json_object *f = json_object_array_get_idx(old, i);

		if (!strcmp(bc_json_str(f, "id"), "wire-loss") ||
		    !strcmp(bc_json_str(f, "id"), "rx-loss-reassembly"))
			continue;
		json_object_array_add(nf, json_object_get(f));
	}
	for (size_t i = 0; i < l.n_f; i++)
		json_object_array_add(nf, finding_json(&in, &l.f[i]));
	json_object_object_add(analysis, "findings", nf);
	if (l.softnet_unsplittable)
		json_object_array_add(
			notes,
			json_object_new_string(
				"capture: softnet_stat dropped moved; it is global per CPU and "
				"both ends run on one kernel, so it cannot be split between them"));
	return 0;
}
