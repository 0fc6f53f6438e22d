// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The client's view of a finished test: per-interval pairing of both ends'
 * cumulative snapshots, the merged per-stream result (sender fields from the
 * sending end, receiver fields from the receiving end), the ceiling and
 * efficiency per direction, and the notes that qualify the figures.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/findings.h"
#include "bondcheck/json-get.h"
#include "bondcheck/names.h"
#include "bondcheck/host-stats.h"
#include "traffic/egress.h"
#include "workflow/client-result.h"
#include "workflow/link-events.h"

static struct json_object *find_id(struct json_object *arr, int64_t id)
{
	size_t n = arr ? json_object_array_length(arr) : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(arr, i), *v;

		if (json_object_object_get_ex(o, "id", &v) && json_object_get_int64(v) == id)
			return o;
	}
	return NULL;
}

static int64_t retrans(struct json_object *snap)
{
	struct json_object *ti;

	return snap && json_object_object_get_ex(snap, "tcp_info", &ti)
		       ? bc_json_i64(ti, "total_retrans", 0)
		       : 0;
}

/*
 * Messages of stream @i newly lost in this interval: the cumulative count is
 * the larger of the receiver's sequence gaps and what was sent by the end of
 * the previous interval (@ptx) but has not arrived by now (@rx); never less
 * than before.  The duplicates the receiver counted are not arrivals.
 */
static int64_t ivl_lost(struct bc_ivl_state *st, uint32_t i, struct json_object *ptx,
			struct json_object *rx, struct json_object *prx)
{
	int64_t gap = bc_json_i64(rx, "lost_packets", 0);
	int64_t missing =
		bc_json_i64(ptx, "sent_packets", 0) - bc_json_i64(rx, "received_packets", 0);
	uint64_t cum = (uint64_t)(gap > missing ? (gap > 0 ? gap : 0) : missing), prev;

	if (!st->lost_cum) /* no memory for the state: the sequence gaps alone */
		return gap - bc_json_i64(prx, "lost_packets", 0);
	prev = st->lost_cum[i];
	if (cum < prev)
		cum = prev;
	st->lost_cum[i] = cum;
	return (int64_t)(cum - prev);
}

/* One interval from the agent's cumulative snapshot and ours taken now. */
void bc_client_interval(const struct bc_client_cfg *c, struct bc_test *t, struct bc_ivl_state *st,
			struct json_object *msg)
{
	struct json_object *agent = NULL, *local = bc_test_snap_json(t), *o, *arr;
	double now = bc_json_dbl(msg, "seconds", 0), dt = now - st->prev_t, sum = 0;

	json_object_object_get_ex(msg, "streams", &agent);
	if (!st->lost_cum)
		st->lost_cum = calloc(t->n ? t->n : 1, sizeof(*st->lost_cum));
	o = json_object_new_object();
	json_object_object_add(o, "index", json_object_new_int((int)bc_json_i64(msg, "index", 0)));
	json_object_object_add(o, "start_s", json_object_new_double(st->prev_t));
	json_object_object_add(o, "end_s", json_object_new_double(now));
	arr = json_object_new_array();
	for (uint32_t i = 0; i < t->n; i++) {
		bool rev = bc_plan_stream_reverse(&t->plan, i);
		struct json_object *tx = find_id(rev ? agent : local, i);
		struct json_object *rx = find_id(rev ? local : agent, i);
		struct json_object *ptx = find_id(rev ? st->prev_agent : st->prev_local, i);
		struct json_object *prx = find_id(rev ? st->prev_local : st->prev_agent, i);
		struct json_object *s = json_object_new_object(), *ti;
		double bytes = (double)(bc_json_i64(rx, "received_bytes", 0) -
					bc_json_i64(prx, "received_bytes", 0));
		double gp = dt > 0 ? 8.0 * bytes / dt : 0;

		json_object_object_add(s, "id", json_object_new_int64(i));
		json_object_object_add(
			s, "direction",
			json_object_new_string(rev ? "agent-to-client" : "client-to-agent"));
		json_object_object_add(s, "goodput_bps", json_object_new_double(gp));
		json_object_object_add(s, "received_bytes", json_object_new_int64((int64_t)bytes));
		if (t->streams[i].proto == BC_L4_UDP) {
			json_object_object_add(
				s, "sent_packets",
				json_object_new_int64(bc_json_i64(tx, "sent_packets", 0) -
						      bc_json_i64(ptx, "sent_packets", 0)));
			json_object_object_add(
				s, "received_packets",
				json_object_new_int64(bc_json_i64(rx, "received_packets", 0) -
						      bc_json_i64(prx, "received_packets", 0)));
			json_object_object_add(
				s, "lost_packets",
				json_object_new_int64(ivl_lost(st, i, ptx, rx, prx)));
			json_object_object_add(
				s, "out_of_order_packets",
				json_object_new_int64(bc_json_i64(rx, "out_of_order_packets", 0) -
						      bc_json_i64(prx, "out_of_order_packets", 0)));
		} else {
			json_object_object_add(s, "retransmits",
					       json_object_new_int64(retrans(tx) - retrans(ptx)));
			if (tx && json_object_object_get_ex(tx, "tcp_info", &ti)) {
				json_object_object_add(
					s, "rtt_us",
					json_object_new_int64(bc_json_i64(ti, "rtt_us", 0)));
				json_object_object_add(
					s, "snd_cwnd",
					json_object_new_int64(bc_json_i64(ti, "snd_cwnd", 0)));
				json_object_object_add(
					s, "reord_seen",
					json_object_new_int64(bc_json_i64(ti, "reord_seen", 0)));
			}
		}
		sum += gp;
		json_object_array_add(arr, s);
	}
	json_object_object_add(o, "streams", arr);
	json_object_object_add(o, "sum_goodput_bps", json_object_new_double(sum));
	json_object_array_add(st->all, json_object_get(o));
	if (c->on_interval)
		c->on_interval(c->ctx, o);
	else
		json_object_put(o);
	json_object_put(st->prev_local);
	json_object_put(st->prev_agent);
	st->prev_local = local;
	st->prev_agent = json_object_get(agent);
	st->prev_t = now;
}

/* Copy @keys from @src into @dst when present. */
static void copy_keys(struct json_object *dst, struct json_object *src, const char *const *keys)
{
	for (; *keys; keys++) {
		struct json_object *v;

		if (src && json_object_object_get_ex(src, *keys, &v))
			json_object_object_add(dst, *keys, json_object_get(v));
	}
}

struct json_object *bc_client_merge_streams(struct bc_test *t, struct json_object *agent_streams)
{
	static const char *const tx_keys[] = {"sent_packets", "sent_bytes",  "send_errors",
					      "enobufs",      "offered_bps", "send_rate_bps",
					      "limited_by",   NULL};
	static const char *const rx_keys[] = {"received_packets",
					      "received_bytes",
					      "lost_packets",
					      "duplicate_packets",
					      "out_of_order_packets",
					      "late_packets",
					      "goodput_bps",
					      "jitter_ms",
					      "reordering",
					      "proc_udp_drops",
					      NULL};
	struct json_object *local = bc_test_results_json(t), *arr = json_object_new_array();

	for (uint32_t i = 0; i < t->n; i++) {
		bool rev = bc_plan_stream_reverse(&t->plan, i);
		struct json_object *tx = find_id(rev ? agent_streams : local, i);
		struct json_object *rx = find_id(rev ? local : agent_streams, i);
		struct json_object *s = json_object_new_object(), *ti;

		json_object_object_add(s, "id", json_object_new_int64(i));
		json_object_object_add(
			s, "protocol",
			json_object_new_string(t->streams[i].proto == BC_L4_UDP ? "udp" : "tcp"));
		json_object_object_add(
			s, "direction",
			json_object_new_string(rev ? "agent-to-client" : "client-to-agent"));
		json_object_object_add(s, "client_port",
				       json_object_new_int64(t->streams[i].local_port));
		json_object_object_add(s, "agent_port",
				       json_object_new_int64(t->streams[i].remote_port));
		copy_keys(s, tx, tx_keys);
		copy_keys(s, rx, rx_keys);
		if (t->streams[i].proto == BC_L4_TCP) {
			json_object_object_add(
				s, "retransmits",
				json_object_new_int64(
					tx && json_object_object_get_ex(tx, "tcp_info", &ti)
						? bc_json_i64(ti, "total_retrans", 0)
						: 0));
		}
		json_object_object_add(s, "sender", json_object_get(tx));
		json_object_object_add(s, "receiver", json_object_get(rx));
		json_object_array_add(arr, s);
	}
	json_object_put(local);
	return arr;
}

static bool tcp_timestamps(void)
{
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_timestamps", "re");
	int v = 1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 1;
		fclose(f);
	}
	return v != 0;
}

/* Ceiling of one direction, bits/s, with the link description; 0 when unknown. */
static double ceiling(const struct bc_client_cfg *c, const struct bc_test *t,
		      struct json_object *result, struct json_object *notes)
{
	struct bc_egress e;
	struct bc_ceiling_in in = {.ip_version = t->plan.family,
				   .proto = t->plan.proto,
				   .tcp_timestamps = tcp_timestamps(),
				   .udp_payload = t->plan.proto == BC_L4_UDP ? t->plan.length : 0};
	struct bc_ceiling out;
	struct bc_link_rate rate;
	struct json_object *l = json_object_new_object();
	double g[BC_EGRESS_MAX_SLAVES], total = 0;
	bool have = bc_egress_find(&t->local, &e) == 0;

	in.mtu = have ? e.dev.mtu : 1500;
	if (have && e.is_bond && e.n_slaves) {
		uint64_t used = 0;
		unsigned unknown = 0;

		/* a per-link rate (--link-rate, a slave's tbf or speed) is each
		 * slave's, never the bond's as one link */
		for (unsigned i = 0; i < e.n_slaves; i++) {
			rate = c->link_rate_bps > 0
				       ? (struct bc_link_rate){c->link_rate_bps, c->link_conv,
							       BC_RATE_OPTION}
				       : e.slaves[i].rate;
			in.rate_bps = rate.rate_bps;
			in.conv = rate.conv;
			g[i] = in.rate_bps > 0 && bc_ceiling_link(&in, &out, NULL) == 0
				       ? out.goodput_bps
				       : 0;
			unknown += g[i] <= 0;
			used |= 1ull << i;
		}
		if (unknown || bc_ceiling_bond(e.bond_mode, g, e.n_slaves,
					       e.bond_mode == 1 ? 1 : used, &total, NULL) < 0)
			total = 0;
		if (unknown)
			json_object_array_add(
				notes, json_object_new_string(
					       "bond ceiling unknown: a slave has no rate (no tbf, "
					       "no enforced speed; give --link-rate, which applies "
					       "to each slave)"));
		if (c->link_rate_bps > 0)
			json_object_object_add(l, "slave_rate_bps",
					       json_object_new_double(c->link_rate_bps));
		json_object_object_add(l, "interface", json_object_new_string(e.dev.name));
		json_object_object_add(l, "bond_mode", json_object_new_int(e.bond_mode));
		json_object_object_add(l, "slaves", json_object_new_int((int)e.n_slaves));
		if (total > 0)
			json_object_array_add(
				notes,
				json_object_new_string(
					"bond ceiling assumes every slave carries test traffic "
					"(hash modes: an upper bound until placement or capture "
					"says which links were used)"));
		json_object_object_add(l, "mtu", json_object_new_int((int)in.mtu));
		json_object_object_add(result, "link", l);
		return total;
	} else if (c->link_rate_bps > 0) {
		rate = (struct bc_link_rate){c->link_rate_bps, c->link_conv, BC_RATE_OPTION};
	} else if (have) {
		rate = e.dev.rate;
	} else {
		rate = (struct bc_link_rate){0, BC_CONV_ETHERNET, BC_RATE_NONE};
	}
	in.rate_bps = rate.rate_bps;
	in.conv = rate.conv;
	json_object_object_add(l, "interface", json_object_new_string(have ? e.dev.name : ""));
	json_object_object_add(l, "rate_bps", json_object_new_double(rate.rate_bps));
	json_object_object_add(l, "rate_source",
			       json_object_new_string(bc_rate_source_name(rate.source)));
	json_object_object_add(
		l, "accounting",
		json_object_new_string(rate.conv == BC_CONV_QDISC
					       ? "qdisc (IP length + 14 per segment)"
					       : "ethernet (IP length + 38 per frame)"));
	json_object_object_add(l, "mtu", json_object_new_int((int)in.mtu));
	json_object_object_add(result, "link", l);
	if (rate.source == BC_RATE_ETHTOOL)
		json_object_array_add(
			notes, json_object_new_string("link rate is the negotiated speed; veth and "
						      "emulated NICs do not enforce it: "
						      "give --link-rate for shaped links"));
	if (rate.rate_bps <= 0 || bc_ceiling_link(&in, &out, NULL) < 0)
		return 0;
	return out.goodput_bps;
}

void bc_client_summarize(const struct bc_client_cfg *c, struct bc_test *t, struct json_object *res,
			 struct json_object *streams, struct json_object *notes)
{
	double sum[2] = {0, 0}, ceil = ceiling(c, t, res, notes), eff;
	bool any[2] = {false, false};
	struct json_object *s = json_object_new_object();

	for (size_t i = 0; i < json_object_array_length(streams); i++) {
		struct json_object *o = json_object_array_get_idx(streams, i);
		int rev = bc_plan_stream_reverse(&t->plan, (uint32_t)i);

		sum[rev] += bc_json_dbl(o, "goodput_bps", 0);
		any[rev] = true;
	}
	for (int d = 0; d < 2; d++) {
		struct json_object *o;

		if (!any[d])
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "goodput_bps", json_object_new_double(sum[d]));
		json_object_object_add(o, "ceiling_bps", json_object_new_double(ceil));
		json_object_object_add(
			o, "efficiency",
			ceil > 0 ? json_object_new_double(bc_efficiency(sum[d], ceil)) : NULL);
		json_object_object_add(s, d ? "agent-to-client" : "client-to-agent", o);
	}
	json_object_object_add(res, "sum", s);
	eff = bc_efficiency(any[0] ? sum[0] : sum[1], ceil);
	json_object_object_add(res, "goodput_bps",
			       json_object_new_double(any[0] ? sum[0] : sum[1]));
	json_object_object_add(res, "ceiling_bps", json_object_new_double(ceil));
	json_object_object_add(res, "efficiency", ceil > 0 ? json_object_new_double(eff) : NULL);
	/* goodput cannot beat the ceiling: beyond the measurement tolerance the
	 * ceiling is wrong (a rate that is not the bottleneck), a defect */
	json_object_object_add(
		res, "efficiency_over_tolerance",
		json_object_new_boolean(ceil > 0 && eff > 1 + BC_EFFICIENCY_TOLERANCE));
	if (ceil > 0 && eff > 1 + BC_EFFICIENCY_TOLERANCE) {
		char buf[256];

		snprintf(buf, sizeof(buf),
			 "DEFECT: efficiency %.1f %% is over 100 %% beyond the %.0f %% measurement "
			 "tolerance: the ceiling (%.0f bits/s) is not this path's bottleneck; "
			 "the figure is not a measurement of the link",
			 100.0 * eff, 100.0 * BC_EFFICIENCY_TOLERANCE, ceil);
		json_object_array_add(notes, json_object_new_string(buf));
	}
}

struct json_object *bc_client_end_json(struct json_object *counters, struct json_object *meta)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "counters", counters);
	json_object_object_add(o, "metadata", meta);
	return o;
}

/* A stream that failed on either end says so in the notes. */
static void note_stream_errors(struct json_object *streams, struct json_object *notes)
{
	static const char *const ends[] = {"sender", "receiver"};

	for (size_t i = 0; i < json_object_array_length(streams); i++) {
		struct json_object *s = json_object_array_get_idx(streams, i), *e, *m;

		for (int k = 0; k < 2; k++)
			if (json_object_object_get_ex(s, ends[k], &e) &&
			    json_object_object_get_ex(e, "error", &m))
				json_object_array_add(notes, json_object_get(m));
	}
}

/* Say when the kernel granted less socket buffer than asked (net.core.[rw]mem_max). */
static void note_clamped(struct json_object *streams, struct json_object *notes)
{
	static const char *const ends[] = {"sender", "receiver"};

	for (size_t i = 0; i < json_object_array_length(streams); i++) {
		struct json_object *s = json_object_array_get_idx(streams, i);

		for (int k = 0; k < 2; k++) {
			struct json_object *e, *b, *c;
			char msg[200];

			if (!json_object_object_get_ex(s, ends[k], &e) ||
			    !json_object_object_get_ex(e, "socket_buffers", &b) ||
			    !json_object_object_get_ex(b, "clamped", &c) ||
			    !json_object_get_boolean(c))
				continue;
			snprintf(msg, sizeof(msg),
				 "stream %zu %s: socket buffers clamped by the kernel: asked %lld "
				 "bytes, "
				 "got sndbuf %lld / rcvbuf %lld (raise net.core.wmem_max/rmem_max)",
				 i, ends[k], (long long)bc_json_i64(b, "requested", 0),
				 (long long)bc_json_i64(b, "sndbuf_granted", 0),
				 (long long)bc_json_i64(b, "rcvbuf_granted", 0));
			json_object_array_add(notes, json_object_new_string(msg));
			return; /* once is enough: every stream asks the same */
		}
	}
}

/* A CPU at or above BC_CPU_BOUND_PCT on an end; said once when both ends share a kernel. */
static void note_cpu_bound(struct json_object *ends, struct json_object *notes, bool shared)
{
	static const char *const names[] = {"client", "agent"};

	for (int i = 0; i < (shared ? 1 : 2); i++) {
		struct json_object *e, *c, *b;

		if (json_object_object_get_ex(ends, names[i], &e) &&
		    json_object_object_get_ex(e, "counters", &c) &&
		    json_object_object_get_ex(c, "cpu_bound", &b) && json_object_get_boolean(b)) {
			char msg[160];

			snprintf(msg, sizeof(msg),
				 "CPU-bound: a CPU %s%s was at least %.0f %% busy; the figures may "
				 "measure the host, not the link",
				 shared ? "of the kernel both ends share" : "on the ",
				 shared ? "" : names[i], BC_CPU_BOUND_PCT);
			json_object_array_add(notes, json_object_new_string(msg));
		}
	}
}

/* Same boot_id on both ends: one kernel, so global counters cannot be split. */
static bool note_shared_kernel(struct json_object *ends, struct json_object *notes)
{
	struct json_object *a, *b, *ma, *mb, *ia, *ib;

	if (!json_object_object_get_ex(ends, "client", &a) ||
	    !json_object_object_get_ex(ends, "agent", &b) ||
	    !json_object_object_get_ex(a, "metadata", &ma) ||
	    !json_object_object_get_ex(b, "metadata", &mb) ||
	    !json_object_object_get_ex(ma, "boot_id", &ia) ||
	    !json_object_object_get_ex(mb, "boot_id", &ib))
		return false;
	/* boot_id from the agent may be anything: a string or it does not match */
	if (!json_object_is_type(ia, json_type_string) ||
	    !json_object_is_type(ib, json_type_string) ||
	    strcmp(json_object_get_string(ia), json_object_get_string(ib)))
		return false;
	json_object_array_add(notes,
			      json_object_new_string("both ends run on one kernel (same boot_id): "
						     "softnet_stat and CPU figures are shared and "
						     "cannot be split between the ends"));
	return true;
}

void bc_client_notes(struct json_object *streams, struct json_object *ends,
		     struct json_object *notes)
{
	note_clamped(streams, notes);
	note_stream_errors(streams, notes);
	note_cpu_bound(ends, notes, note_shared_kernel(ends, notes));
}

void bc_clock_sample(struct bc_clock_est *ce, struct json_object *reply, uint64_t t1, uint64_t t4)
{
	struct json_object *v;
	int64_t a, bound, offset;

	if (!json_object_object_get_ex(reply, "time_ns", &v) ||
	    !json_object_is_type(v, json_type_int) || t4 < t1 || t4 - t1 > INT64_MAX / 2)
		return; /* no agent time, or our clock stepped back */
	a = json_object_get_int64(v);
	if (json_object_object_get_ex(reply, "recv_time_ns", &v) &&
	    json_object_is_type(v, json_type_int) && json_object_get_int64(v) <= a &&
	    a - json_object_get_int64(v) <= (int64_t)(t4 - t1)) {
		/* RFC 5905 section 8: the agent's request arrival t2 and reply t3
		 * take its own work out of the round trip: offset =
		 * ((t2 - t1) + (t3 - t4)) / 2, within +- ((t4 - t1) - (t3 - t2)) / 2 */
		int64_t t2 = json_object_get_int64(v);

		bound = ((int64_t)(t4 - t1) - (a - t2)) / 2;
		offset = ((int64_t)((uint64_t)t2 - t1) + (int64_t)((uint64_t)a - t4)) / 2;
	} else {
		/* an older agent stamps only its reply: a - (t1 + t4) / 2, and its
		 * work before the reply counts in the bound */
		bound = (int64_t)((t4 - t1) / 2);
		offset = (int64_t)((uint64_t)a - t1) - bound;
	}
	if (!ce->n || bound < ce->bound_ns) {
		ce->offset_ns = offset;
		ce->bound_ns = bound;
	}
	ce->n++;
}

void bc_client_clock(const struct bc_clock_est *ce, bool shared_clock, struct json_object *res,
		     struct json_object *streams, struct json_object *notes)
{
	double off = (double)ce->offset_ns / 1e6, bound = (double)ce->bound_ns / 1e6;
	struct json_object *c;
	bool transit = false;

	if (ce->n) {
		c = json_object_new_object();
		json_object_object_add(c, "agent_minus_client_ms", json_object_new_double(off));
		json_object_object_add(c, "bound_ms", json_object_new_double(bound));
		json_object_object_add(c, "exchanges", json_object_new_int(ce->n));
		json_object_object_add(c, "shared", json_object_new_boolean(shared_clock));
		json_object_object_add(c, "synchronized",
				       json_object_new_boolean(fabs(off) <= bound));
		json_object_object_add(res, "clock", c);
		if (fabs(off) > bound) {
			char buf[320];

			snprintf(buf, sizeof(buf),
				 "clocks: the agent's clock is %.3f ms %s this host's (+- %.3f ms)",
				 fabs(off), off > 0 ? "ahead of" : "behind", bound);
			json_object_array_add(notes, json_object_new_string(buf));
		}
	}
	for (size_t i = 0; i < bc_json_len(streams); i++) {
		struct json_object *s = json_object_array_get_idx(streams, i), *rx, *d;

		if (!json_object_object_get_ex(s, "receiver", &rx) ||
		    !json_object_object_get_ex(rx, "transit_min_ms", &d))
			continue;
		transit = true;
		d = json_object_new_object();
		/* the spread of transit times needs no common clock */
		json_object_object_add(
			d, "variation_ms",
			json_object_new_double(bc_json_dbl(rx, "transit_max_ms", 0) -
					       bc_json_dbl(rx, "transit_min_ms", 0)));
		if (shared_clock) {
			/* one kernel, one CLOCK_REALTIME: the transit is the delay */
			json_object_object_add(
				d, "min_ms",
				json_object_new_double(bc_json_dbl(rx, "transit_min_ms", 0)));
			json_object_object_add(
				d, "max_ms",
				json_object_new_double(bc_json_dbl(rx, "transit_max_ms", 0)));
			json_object_object_add(d, "bound_ms", json_object_new_double(0));
		}
		json_object_object_add(
			d, "clock", json_object_new_string(shared_clock ? "shared" : "separate"));
		json_object_object_add(s, "one_way_delay", d);
		json_object_object_del(rx, "transit_min_ms");
		json_object_object_del(rx, "transit_max_ms");
	}
	if (!shared_clock && transit)
		json_object_array_add(
			notes, json_object_new_string(
				       "one-way delay: only its variation is given; the ends run "
				       "on different kernels (boot_id), so their clocks differ by "
				       "an offset no exchange over the network pins below its "
				       "round trip"));
}

int bc_client_flaps(struct json_object *ends, struct json_object *findings)
{
	static const char *const hosts[] = {"client", "agent"};
	const struct bc_finding_def *def = bc_findings_lookup("link-flap");
	int n = 0;

	for (int h = 0; h < 2; h++) {
		struct json_object *ifs = json_object_object_get(
			json_object_object_get(json_object_object_get(ends, hosts[h]), "counters"),
			"interfaces");

		if (!json_object_is_type(ifs, json_type_object))
			continue;
		json_object_object_foreach(ifs, name, c)
		{
			long long ch = bc_json_i64(c, "carrier_changes", 0), raw = ch;
			struct json_object *f, *ev;
			char buf[400];
			double t;

			/* a link that went down and stayed down is slave-down, not a flap */
			if (ch > 0 &&
			    bc_link_ended_down(json_object_object_get(ends, hosts[h]), name, &t))
				ch--;
			if (ch <= 0)
				continue;
			f = json_object_new_object();
			ev = json_object_new_object();
			json_object_object_add(f, "id", json_object_new_string("link-flap"));
			json_object_object_add(f, "severity",
					       json_object_new_string(bc_severity_name(
						       def ? def->severity : BC_SEV_WARNING)));
			snprintf(buf, sizeof(buf), "%s/%s", hosts[h], name);
			json_object_object_add(f, "subject", json_object_new_string(buf));
			json_object_object_add(ev, "carrier_changes", json_object_new_int64(raw));
			json_object_object_add(ev, "flaps", json_object_new_int64((ch + 1) / 2));
			json_object_object_add(f, "evidence", ev);
			snprintf(
				buf, sizeof(buf),
				"%s on the %s lost and regained carrier during the run "
				"(carrier_changes +%lld, about %lld flap%s): this run's loss, "
				"reordering and goodput include the outage and any failover; "
				"check the cable, the switch port, `ip -s link` and dmesg, and run "
				"again",
				name, hosts[h], ch, (ch + 1) / 2, (ch + 1) / 2 == 1 ? "" : "s");
			json_object_object_add(f, "advice", json_object_new_string(buf));
			json_object_array_add(findings, f);
			n++;
		}
	}
	return n;
}
