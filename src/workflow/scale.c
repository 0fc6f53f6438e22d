// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck scale` (bondcheck/scale.h): find the bond the route to the
 * agent leaves by, build the configurations 1..n, run them interleaved,
 * analyse (bondcheck/scale-doc.h) and diagnose the comparisons that are not
 * a gain with a capture run.  The links method's slave changes are in
 * scale-links.c.
 */
#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bondcheck/findings.h"
#include "bondcheck/json-get.h"
#include "bondcheck/names.h"
#include "bondcheck/scale-doc.h"
#include "bondcheck/scale.h"
#include "bondcheck/tcp-metrics.h"
#include "bondcheck/xmit-hash.h"
#include "traffic/test-end.h"
#include "workflow/scale-int.h"

void bc_scale_cfg_defaults(struct bc_scale_cfg *c)
{
	memset(c, 0, sizeof(*c));
	bc_client_cfg_defaults(&c->client);
	c->client.plan.duration_ms = 5000;
	c->client.plan.omit_ms = 1000;
	c->client.plan.tmax_ms = 500;
	c->client.plan.length = 0;
	c->method = BC_SCALE_METHOD_PLACEMENT;
	c->tcp = true;
	c->repetitions = 5;
	c->margin = 0.05;
	c->min_n = 1;
	c->diagnose = true;
}

/* The local address the kernel would use toward the agent: a connected UDP
 * socket sends nothing, its name is the route's source. */
static int local_toward(const struct bc_client_cfg *c, struct sockaddr_storage *local,
			struct sockaddr_storage *peer, struct bc_error *err)
{
	struct addrinfo hints = {.ai_socktype = SOCK_DGRAM}, *res, *ai;
	char port[8];
	int r, fd;

	hints.ai_family = c->family == 6 ? AF_INET6 : c->family == 4 ? AF_INET : AF_UNSPEC;
	snprintf(port, sizeof(port), "%u", c->port);
	r = getaddrinfo(c->peer, port, &hints, &res);
	if (r)
		return bc_error_set(err, -ENOENT, "cannot resolve the agent '%s': %s", c->peer,
				    gai_strerror(r));
	r = -EHOSTUNREACH;
	for (ai = res; ai && r < 0; ai = ai->ai_next) {
		socklen_t l = sizeof(*local);

		fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    getsockname(fd, (struct sockaddr *)local, &l) == 0) {
			memcpy(peer, ai->ai_addr, ai->ai_addrlen);
			r = 0;
		}
		close(fd);
	}
	freeaddrinfo(res);
	if (r < 0)
		return bc_error_set(err, r, "no route to the agent %s", c->peer);
	return 0;
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

/* Rate and TCP/UDP ceilings of each usable slave (bondcheck/ceiling.h). */
static void slave_ceilings(struct bc_scale *s)
{
	const struct bc_client_cfg *cc = &s->c->client;

	for (size_t i = 0; i < s->n_sl; i++) {
		struct bc_scale_slave *sl = &s->sl[i];
		struct bc_ceiling_in in = {.mtu = s->e.dev.mtu ? s->e.dev.mtu : 1500,
					   .ip_version = s->local.ss_family == AF_INET6 ? 6 : 4,
					   .tcp_timestamps = tcp_timestamps()};
		struct bc_ceiling out;

		sl->rate = (struct bc_link_rate){0, BC_CONV_ETHERNET, BC_RATE_NONE};
		for (unsigned k = 0; k < s->e.n_slaves; k++)
			if (!strcmp(s->e.slaves[k].name, sl->name))
				sl->rate = s->e.slaves[k].rate;
		if (cc->link_rate_bps > 0)
			sl->rate = (struct bc_link_rate){cc->link_rate_bps, cc->link_conv,
							 BC_RATE_OPTION};
		in.rate_bps = sl->rate.rate_bps;
		in.conv = sl->rate.conv;
		for (int p = 0; p < 2; p++) {
			in.proto = p ? BC_L4_UDP : BC_L4_TCP;
			in.udp_payload = p ? s->udp_length : 0;
			sl->ceil[p] = in.rate_bps > 0 && bc_ceiling_link(&in, &out, NULL) == 0
					      ? out.goodput_bps
					      : 0;
		}
	}
}

/* Inspect findings against a slave: error 100, warning 10, info 1. */
static int finding_score(const struct bc_snapshot *snap, const char *bond, const char *slave)
{
	char subj[2 * BC_IFNAMSIZ + 2];
	int score = 0;

	snprintf(subj, sizeof(subj), "%s/%s", bond, slave);
	for (size_t i = 0; i < snap->n_findings; i++)
		if (!strcmp(snap->findings[i].subject, subj))
			score += snap->findings[i].severity == BC_SEV_ERROR	? 100
				 : snap->findings[i].severity == BC_SEV_WARNING ? 10
										: 1;
	return score;
}

/*
 * balance-rr carries n x its slowest slave (bondcheck/capacity.h, the
 * mode's rule): while one slave not yet ordered is clearly the slowest of
 * them (its TCP ceiling under 90 % of the next slowest), taking it out
 * raises the others' potential whatever the evidence says, so it leaves
 * first.  Returns its index, or SIZE_MAX (not balance-rr, a ceiling
 * unknown, no clear slowest).
 */
static size_t rr_slowest(const struct bc_scale *s, const bool *used)
{
	size_t lo = SIZE_MAX;
	double next = 0;

	if (s->mode != BC_MODE_ROUNDROBIN)
		return SIZE_MAX;
	for (size_t j = 0; j < s->n_sl; j++) {
		if (used[j])
			continue;
		if (s->sl[j].ceil[0] <= 0)
			return SIZE_MAX;
		if (lo == SIZE_MAX || s->sl[j].ceil[0] < s->sl[lo].ceil[0]) {
			if (lo != SIZE_MAX)
				next = s->sl[lo].ceil[0];
			lo = j;
		} else if (next <= 0 || s->sl[j].ceil[0] < next) {
			next = s->sl[j].ceil[0];
		}
	}
	if (lo == SIZE_MAX || next <= 0 || s->sl[lo].ceil[0] >= 0.9 * next)
		return SIZE_MAX;
	return lo;
}

/*
 * The order in which slaves leave: --order first; then on balance-rr a
 * clearly slowest slave (rr_slowest()); then (links) the worst by inspect
 * findings and probe evidence, ties and placement by reverse enslave order
 * (the last enslaved leaves first).
 */
static int build_order(struct bc_scale *s, struct bc_error *err)
{
	const struct bc_scale_cfg *c = s->c;
	bool used[BC_SCALE_MAX_SLAVES] = {false};
	size_t m = 0;

	for (size_t i = 0; i < c->n_order; i++) {
		size_t j;

		for (j = 0; j < s->n_sl && strcmp(s->sl[j].name, c->order[i]); j++)
			;
		if (j == s->n_sl) {
			char names[256] = "";

			for (size_t k = 0; k < s->n_sl; k++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names),
					 " %s", s->sl[k].name);
			return bc_error_set(err, -EINVAL,
					    "--order %s: not a usable slave of %s; usable:%s",
					    c->order[i], s->bond, names);
		}
		if (used[j])
			return bc_error_set(err, -EINVAL, "--order names %s twice", c->order[i]);
		used[j] = true;
		s->order[m++] = j;
	}
	while (m < s->n_sl) {
		size_t best = rr_slowest(s, used);

		if (best == SIZE_MAX) {
			for (size_t j = s->n_sl; j-- > 0;)
				if (!used[j] &&
				    (best == SIZE_MAX || s->sl[j].score > s->sl[best].score))
					best = j;
		} else {
			s->sl[best].leaves_slowest = true;
		}
		used[best] = true;
		s->order[m++] = best;
	}
	return 0;
}

size_t bc_scale_config_slaves(const struct bc_scale *s, uint32_t n, const char **names)
{
	size_t out = 0, gone = s->n_sl - n;

	for (size_t i = 0; i < s->n_sl; i++) {
		bool leaves = false;

		for (size_t k = 0; k < gone; k++)
			leaves |= s->order[k] == i;
		if (!leaves)
			names[out++] = s->sl[i].name;
	}
	return out;
}

double bc_scale_config_ceiling(const struct bc_scale *s, int proto, uint32_t n)
{
	const char *names[BC_SCALE_MAX_SLAVES];
	double g[BC_SCALE_MAX_SLAVES], total = 0;
	size_t m = bc_scale_config_slaves(s, n, names);

	for (size_t i = 0; i < m; i++) {
		g[i] = 0;
		for (size_t j = 0; j < s->n_sl; j++)
			if (!strcmp(s->sl[j].name, names[i]))
				g[i] = s->sl[j].ceil[proto];
	}
	for (size_t i = 0; i < m; i++)
		if (g[i] <= 0)
			return 0;
	if (bc_ceiling_bond(s->mode, g, m, s->mode == BC_MODE_ACTIVEBACKUP ? 1 : (1ull << m) - 1,
			    &total, NULL) < 0)
		return 0;
	return total;
}

static const char *mode_name(int mode)
{
	return bc_mode_name(mode) ? bc_mode_name(mode) : "unknown";
}

/* Find the bond, its usable slaves and what the method allows. */
static int load_bond(struct bc_scale *s, struct bc_error *err)
{
	const struct bc_scale_cfg *c = s->c;
	size_t usable[BC_SCALE_MAX_SLAVES];
	struct bc_bond *b;
	int r;

	r = local_toward(&c->client, &s->local, &s->peer, err);
	if (r < 0)
		return r;
	bc_sockaddr_unmap(&s->local);
	bc_sockaddr_unmap(&s->peer);
	if (bc_egress_find(&s->local, &s->e) < 0 || !s->e.is_bond)
		return bc_error_set(err, -ENOTSUP,
				    "the route to the agent %s leaves by %s, not by a bond; run "
				    "scale on a host whose bond carries the traffic to the agent",
				    c->client.peer,
				    s->e.dev.name[0] ? s->e.dev.name : "no known interface");
	snprintf(s->bond, sizeof(s->bond), "%s", s->e.dev.name);
	r = bc_bond_collect(s->bond, &s->snap, err);
	if (r < 0)
		return r;
	b = &s->snap.bonds[0];
	bc_findings_evaluate(&s->snap);
	s->mode = bc_u32_known(&b->mode) ? (int)b->mode.v : -1;
	s->policy = bc_u32_known(&b->xmit_hash_policy) ? (int)b->xmit_hash_policy.v : -1;
	snprintf(s->policy_name, sizeof(s->policy_name), "%s", b->xmit_hash_policy_name);
	s->placeable = (s->mode == BC_MODE_XOR || s->mode == BC_MODE_8023AD) &&
		       s->policy == BC_XMIT_LAYER34;
	if (c->method == BC_SCALE_METHOD_PLACEMENT && !s->placeable)
		return bc_error_set(
			err, -EINVAL,
			"--method placement needs balance-xor or 802.3ad with xmit_hash_policy "
			"layer3+4 (ports steer flows only there); %s is %s%s%s. Use --method links "
			"--allow-changes: it takes slaves out on both ends and puts them back",
			s->bond, mode_name(s->mode),
			s->mode == BC_MODE_XOR || s->mode == BC_MODE_8023AD ? " with " : "",
			s->mode == BC_MODE_XOR || s->mode == BC_MODE_8023AD ? s->policy_name : "");
	if (b->n_slaves > BC_SCALE_MAX_SLAVES)
		return bc_error_set(err, -EINVAL,
				    "%s has %zu slaves; scale handles bonds of at most %d", s->bond,
				    b->n_slaves, BC_SCALE_MAX_SLAVES);
	s->n_sl = bc_xmit_usable(b, usable, BC_SCALE_MAX_SLAVES);
	if (s->mode == BC_MODE_ACTIVEBACKUP || s->mode == BC_MODE_TLB || s->mode == BC_MODE_ALB ||
	    s->mode == BC_MODE_ROUNDROBIN || s->mode == BC_MODE_BROADCAST) {
		/* every up slave can carry (or take over) traffic in these modes */
		s->n_sl = 0;
		for (size_t i = 0; i < b->n_slaves && s->n_sl < BC_SCALE_MAX_SLAVES; i++)
			if (!bc_u32_known(&b->slaves[i].mii_status) ||
			    b->slaves[i].mii_status.v == BC_LINK_UP)
				usable[s->n_sl++] = i;
	}
	if (s->n_sl < 2)
		return bc_error_set(err, -EINVAL,
				    "%s has %zu usable slave%s: scale compares N with N+1 links "
				    "and needs at least 2",
				    s->bond, s->n_sl, s->n_sl == 1 ? "" : "s");
	for (size_t i = 0; i < s->n_sl; i++) {
		snprintf(s->sl[i].name, sizeof(s->sl[i].name), "%s", b->slaves[usable[i]].name);
		s->sl[i].score = finding_score(&s->snap, s->bond, s->sl[i].name);
	}
	return 0;
}

static struct json_object *names_json(const char **names, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(names[i]));
	return a;
}

static struct json_object *num(double v)
{
	return isfinite(v) && v > 0 ? json_object_new_double(v) : NULL;
}

static void note(struct bc_scale *s, const char *text)
{
	json_object_array_add(json_object_object_get(s->doc, "notes"),
			      json_object_new_string(text));
}

static void init_doc(struct bc_scale *s)
{
	const struct bc_scale_cfg *c = s->c;
	struct json_object *d = json_object_new_object(), *bond = json_object_new_object(), *a;
	char stamp[32];

	bc_json_generated_at(stamp, sizeof(stamp));
	json_object_object_add(d, "schema_version", json_object_new_int(1));
	json_object_object_add(d, "bondcheck_version", json_object_new_string(BC_VERSION));
	json_object_object_add(d, "generated_at", json_object_new_string(stamp));
	json_object_object_add(d, "kind", json_object_new_string("scale"));
	json_object_object_add(
		d, "method",
		json_object_new_string(c->method == BC_SCALE_METHOD_LINKS ? "links" : "placement"));
	json_object_object_add(d, "protocol",
			       json_object_new_string(c->tcp && c->udp ? "both"
						      : c->udp	       ? "udp"
								       : "tcp"));
	json_object_object_add(d, "peer", json_object_new_string(c->client.peer));
	json_object_object_add(bond, "name", json_object_new_string(s->bond));
	json_object_object_add(bond, "mode", json_object_new_string(mode_name(s->mode)));
	json_object_object_add(bond, "xmit_hash_policy", json_object_new_string(s->policy_name));
	json_object_object_add(bond, "kernel_release",
			       json_object_new_string(s->snap.kernel_release));
	json_object_object_add(d, "bond", bond);
	json_object_object_add(d, "flows", json_object_new_int64(s->k));
	json_object_object_add(d, "repetitions", json_object_new_int64(c->repetitions));
	json_object_object_add(d, "margin", json_object_new_double(c->margin));
	json_object_object_add(d, "confidence", json_object_new_double(0.95));
	json_object_object_add(d, "duration_ms", json_object_new_int64(c->client.plan.duration_ms));
	json_object_object_add(d, "omit_ms", json_object_new_int64(c->client.plan.omit_ms));
	json_object_object_add(d, "udp_length",
			       c->udp ? json_object_new_int64(s->udp_length) : NULL);
	json_object_object_add(d, "udp_offered_bps", c->udp ? num(s->udp_total) : NULL);
	/* the per-link ceiling of the first protocol; each config has its own */
	json_object_object_add(d, "link_ceiling_bps", num(s->sl[0].ceil[c->tcp ? 0 : 1]));
	a = json_object_new_array();
	for (size_t i = 0; i < s->n_sl; i++) {
		struct json_object *o = json_object_new_object();
		const struct bc_scale_slave *sl = &s->sl[i];

		json_object_object_add(o, "name", json_object_new_string(sl->name));
		json_object_object_add(o, "rate_bps", num(sl->rate.rate_bps));
		json_object_object_add(
			o, "rate_source",
			json_object_new_string(bc_rate_source_name(sl->rate.source)));
		json_object_object_add(o, "accounting",
				       json_object_new_string(sl->rate.conv == BC_CONV_QDISC
								      ? "qdisc"
								      : "ethernet"));
		json_object_object_add(o, "tcp_ceiling_bps", num(sl->ceil[0]));
		json_object_object_add(o, "udp_ceiling_bps", num(sl->ceil[1]));
		json_object_object_add(o, "score", json_object_new_int(sl->score));
		json_object_object_add(o, "leaves_because",
				       json_object_new_string(sl->leaves_slowest ? "slowest"
									  : "score"));
		if (sl->peer[0])
			json_object_object_add(o, "agent_peer", json_object_new_string(sl->peer));
		json_object_array_add(a, o);
	}
	json_object_object_add(d, "slaves", a);
	a = json_object_new_array();
	for (size_t i = 0; i < s->n_sl; i++)
		json_object_array_add(a, json_object_new_string(s->sl[s->order[i]].name));
	json_object_object_add(d, "order", a);
	json_object_object_add(d, "incomplete", json_object_new_boolean(0));
	json_object_object_add(d, "errors", json_object_new_array());
	json_object_object_add(d, "notes", json_object_new_array());
	json_object_object_add(d, "configs", json_object_new_array());
	json_object_object_add(d, "findings", json_object_new_array());
	s->doc = d;
	for (int p = 0; p < 2; p++) {
		if (!(p ? c->udp : c->tcp))
			continue;
		for (uint32_t n = s->nmin; n <= s->n_sl; n++) {
			struct json_object *o = json_object_new_object();
			const char *names[BC_SCALE_MAX_SLAVES];
			size_t m = bc_scale_config_slaves(s, n, names);

			json_object_object_add(o, "protocol",
					       json_object_new_string(p ? "udp" : "tcp"));
			json_object_object_add(o, "n", json_object_new_int64(n));
			json_object_object_add(o, "slaves", names_json(names, m));
			json_object_object_add(o, "ceiling_bps",
					       num(bc_scale_config_ceiling(s, p, n)));
			if (p)
				json_object_object_add(o, "offered_bps", num(s->udp_total));
			json_object_object_add(o, "runs", json_object_new_array());
			json_object_array_add(json_object_object_get(d, "configs"), o);
			s->cfg[p][n] = o;
		}
	}
}

static bool cpu_bound(struct json_object *res)
{
	static const char *const ends[] = {"client", "agent"};
	struct json_object *e = json_object_object_get(res, "ends");

	for (int i = 0; i < 2; i++) {
		struct json_object *c = json_object_object_get(
			json_object_object_get(json_object_object_get(e, ends[i]), "counters"),
			"cpu_bound");

		if (c && json_object_get_boolean(c))
			return true;
	}
	return false;
}

/* One value per run: the run's goodput over its measured time, never an interval's. */
static struct json_object *run_json(struct json_object *res, unsigned rep, int proto)
{
	struct json_object *o = json_object_new_object(),
			   *st = json_object_object_get(res, "streams");
	double g = bc_json_dbl(res, "goodput_bps", 0);
	long long retr = 0, sent = 0, recv = 0;

	for (size_t i = 0; i < bc_json_len(st); i++) {
		struct json_object *x = json_object_array_get_idx(st, i);

		retr += bc_json_i64(x, "retransmits", 0);
		sent += bc_json_i64(x, "sent_packets", 0);
		recv += bc_json_i64(x, "received_packets", 0);
	}
	json_object_object_add(o, "rep", json_object_new_int64(rep));
	json_object_object_add(o, "goodput_bps", json_object_new_double(g));
	json_object_object_add(o, "retransmits", proto ? NULL : json_object_new_int64(retr));
	if (proto) {
		json_object_object_add(o, "sent_packets", json_object_new_int64(sent));
		json_object_object_add(o, "received_packets", json_object_new_int64(recv));
	}
	json_object_object_add(o, "zero", json_object_new_boolean(!(g > 0)));
	json_object_object_add(o, "cpu_bound", json_object_new_boolean(cpu_bound(res)));
	json_object_object_add(o, "test_id",
			       json_object_get(json_object_object_get(
				       json_object_object_get(res, "test"), "test_id")));
	return o;
}

int bc_scale_one_run(struct bc_scale *s, int proto, uint32_t n, double rate_bps, bool capture,
		     struct json_object **res, struct bc_error *err)
{
	struct bc_client_cfg cc = s->c->client;
	const char *names[BC_SCALE_MAX_SLAVES];
	size_t m = bc_scale_config_slaves(s, n, names);
	int r;

	cc.plan.proto = proto ? BC_L4_UDP : BC_L4_TCP;
	cc.plan.streams = s->k;
	cc.plan.dir = BC_DIR_FORWARD;
	cc.streams_given = true;
	cc.place_k = 0;
	cc.on_interval = NULL;
	cc.capture = capture;
	cc.keep_pcaps = NULL;
	/* the measured runs keep one figure each: no per-run collector
	 * snapshots on either end (they cost seconds in a small VM); the probe
	 * and diagnosis runs keep them (agent bond name, ledger counters) */
	cc.plan.no_bond_meta = !capture;
	if (capture) {
		double top = 0, b;

		for (size_t i = 0; i < s->n_sl; i++)
			top = s->sl[i].rate.rate_bps > top ? s->sl[i].rate.rate_bps : top;
		/* a ring of half a second of the fastest slave, 2..64 MiB */
		b = top / 16;
		cc.plan.capture_buffer = (uint32_t)(b < 2.0 * (1 << 20)	   ? 2.0 * (1 << 20)
						    : b > 64.0 * (1 << 20) ? 64.0 * (1 << 20)
									   : b);
	}
	if (proto) {
		cc.plan.length = s->udp_length;
		cc.total_rate_bps = rate_bps;
		cc.plan.rate_bps = (uint64_t)(rate_bps / s->k);
	} else {
		cc.plan.length = 128 * 1024;
		cc.total_rate_bps = 0;
	}
	/* links: flows are placed whenever the mode lets ports steer them */
	if (s->placeable) {
		cc.place_onto = names;
		cc.n_place_onto = m;
	}
	/* every TCP run starts from the same state: the kernel would otherwise
	 * hand the next connection the reordering, cwnd and RTT this one learned */
	if (!proto) {
		struct bc_error e = {0};

		if (bc_tcp_metrics_forget(&s->peer, &e) < 0 && !s->metrics_note[0])
			snprintf(
				s->metrics_note, sizeof(s->metrics_note),
				"the kernel's TCP metrics of the agent could not be cleared before "
				"each run (%s): a run may inherit the reordering, cwnd and RTT an "
				"earlier run taught the kernel",
				e.msg);
	}
	r = bc_client_run(&cc, res, err);
	if (r == -EBUSY) { /* the agent may still be closing the previous test */
		bc_error_clear(err);
		sleep(1);
		r = bc_client_run(&cc, res, err);
	}
	return r;
}

static void progress(struct bc_scale *s, const char *phase, int proto, uint32_t n, unsigned rep)
{
	struct bc_scale_progress p = {.phase = phase,
				      .run = s->run_i,
				      .runs = s->runs,
				      .protocol = proto ? "udp" : "tcp",
				      .n = n,
				      .rep = rep,
				      .last_bps = s->last_bps};

	if (s->c->on_progress)
		s->c->on_progress(s->c->ctx, &p);
}

static bool stopped(const struct bc_scale *s)
{
	return s->c->stop && *s->c->stop;
}

static int fail(struct bc_scale *s, int r, const char *what, struct bc_error *err)
{
	char msg[BC_ERROR_MSG_MAX + 64];

	snprintf(msg, sizeof(msg), "%s: %s", what, err->msg[0] ? err->msg : strerror(-r));
	json_object_object_add(s->doc, "incomplete", json_object_new_boolean(1));
	json_object_array_add(json_object_object_get(s->doc, "errors"),
			      json_object_new_string(msg));
	return r;
}

/*
 * Rounds of every configuration: within a round each protocol goes through
 * N ascending, the next one descending (N, N+1, ..., N+1, N), so adjacent
 * configurations alternate and a slow drift hits both sides alike.
 */
static int measure(struct bc_scale *s, struct bc_error *err)
{
	const struct bc_scale_cfg *c = s->c;
	unsigned leg = 0;
	int r;

	for (unsigned rep = 1; rep <= c->repetitions; rep++)
		for (int p = 0; p < 2; p++) {
			if (!(p ? c->udp : c->tcp))
				continue;
			for (uint32_t i = 0; i <= s->n_sl - s->nmin; i++) {
				uint32_t n = leg % 2 ? (uint32_t)s->n_sl - i : s->nmin + i;
				struct json_object *res = NULL;
				char what[64];

				if (stopped(s)) {
					bc_error_set(err, -EINTR,
						     "stopped by a signal before %s N=%u run %u",
						     p ? "udp" : "tcp", n, rep);
					return fail(s, -EINTR, "interrupted", err);
				}
				s->run_i++;
				r = bc_scale_apply(s, n, err);
				if (r < 0)
					return fail(s, r, "changing the slaves", err);
				progress(s, "run", p, n, rep);
				r = bc_scale_one_run(s, p, n, s->udp_total, false, &res, err);
				if (r < 0 && stopped(s)) {
					bc_error_clear(err);
					bc_error_set(err, -EINTR,
						     "stopped by a signal during %s N=%u run %u",
						     p ? "udp" : "tcp", n, rep);
					return fail(s, -EINTR, "interrupted", err);
				}
				if (r < 0) {
					snprintf(what, sizeof(what), "%s run N=%u rep %u",
						 p ? "udp" : "tcp", n, rep);
					return fail(s, r, what, err);
				}
				json_object_array_add(json_object_object_get(s->cfg[p][n], "runs"),
						      run_json(res, rep, p));
				s->last_bps = bc_json_dbl(res, "goodput_bps", 0);
				json_object_put(res);
			}
			leg++;
		}
	return 0;
}

static bool needs_diagnosis(struct json_object *cmp)
{
	const char *v = bc_json_str(cmp, "verdict");

	return !strcmp(v, "scaling-flat") || !strcmp(v, "scaling-negative") ||
	       bc_json_len(json_object_object_get(cmp, "zero_runs"));
}

/*
 * A UDP capture run over the larger configuration of each comparison that
 * is not a gain, offered at a quarter of its ceiling so that no shaper
 * queue overflows from the sender's pacing jitter (such drops would be the
 * test's, not the link's): loss, reordering pairs and idle links become
 * the comparison's cause.
 */
static void diagnose(struct bc_scale *s, struct bc_error *err)
{
	struct json_object *cmps = json_object_object_get(s->doc, "comparisons");

	for (size_t i = 0; i < bc_json_len(cmps) && !stopped(s); i++) {
		struct json_object *cmp = json_object_array_get_idx(cmps, i), *d, *res = NULL,
				   *causes;
		uint32_t n = (uint32_t)bc_json_i64(cmp, "to_n", 0);
		const char *names[BC_SCALE_MAX_SLAVES], *added[BC_SCALE_MAX_SLAVES];
		size_t m = bc_scale_config_slaves(s, n, names), na = 0;
		struct json_object *add = json_object_object_get(cmp, "added");
		double ceil = bc_scale_config_ceiling(s, 1, n), rate;
		struct bc_error e = {0};
		int r;

		if (!needs_diagnosis(cmp))
			continue;
		rate = ceil > 0 ? ceil * BC_SCALE_DIAG_SHARE : 5e6;
		for (size_t k = 0; k < bc_json_len(add) && na < BC_SCALE_MAX_SLAVES; k++)
			added[na++] = json_object_get_string(json_object_array_get_idx(add, k));
		d = json_object_new_object();
		json_object_object_add(d, "protocol", json_object_new_string("udp"));
		json_object_object_add(d, "n", json_object_new_int64(n));
		json_object_object_add(d, "slaves", names_json(names, m));
		json_object_object_add(d, "offered_bps", json_object_new_double(rate));
		json_object_object_add(cmp, "diagnosis", d);
		progress(s, "diagnose", 1, n, 0);
		r = bc_scale_apply(s, n, &e);
		if (r == 0)
			r = bc_scale_one_run(s, 1, n, rate, true, &res, &e);
		if (r < 0) {
			json_object_object_add(d, "error", json_object_new_string(e.msg));
			continue;
		}
		json_object_object_add(d, "goodput_bps",
				       json_object_new_double(bc_json_dbl(res, "goodput_bps", 0)));
		json_object_object_add(d, "test_id",
				       json_object_get(json_object_object_get(
					       json_object_object_get(res, "test"), "test_id")));
		causes = bc_scale_cause(res, added, na);
		json_object_object_add(d, "causes", causes);
		/* a ceiling cause (the configurations' own ceilings) stays first */
		if (bc_json_len(causes) &&
		    strcmp(bc_json_str(json_object_object_get(cmp, "cause"), "kind"), "ceiling"))
			json_object_object_add(
				cmp, "cause",
				json_object_get(json_object_array_get_idx(causes, 0)));
		json_object_put(res);
	}
	(void)err;
}

static void notes(struct bc_scale *s)
{
	struct json_object *cfgs = json_object_object_get(s->doc, "configs");
	unsigned cpu = 0;
	char msg[256];

	for (size_t i = 0; i < bc_json_len(cfgs); i++) {
		struct json_object *runs =
			json_object_object_get(json_object_array_get_idx(cfgs, i), "runs");

		for (size_t k = 0; k < bc_json_len(runs); k++)
			cpu += json_object_get_boolean(json_object_object_get(
				json_object_array_get_idx(runs, k), "cpu_bound"));
	}
	if (cpu) {
		snprintf(
			msg, sizeof(msg),
			"%u run%s CPU-bound (a CPU at least 90 %% busy): those figures may measure "
			"the hosts, not the links",
			cpu, cpu == 1 ? " was" : "s were");
		note(s, msg);
	}
	if (s->metrics_note[0])
		note(s, s->metrics_note);
	if (s->sl[0].rate.source == BC_RATE_ETHTOOL)
		note(s, "link rates are negotiated speeds, which veth and emulated NICs do not "
			"enforce: give --link-rate for shaped links");
	if (s->c->udp)
		note(s, "UDP is offered above the largest configuration's ceiling, the same total "
			"to every configuration: goodput is what arrived");
}

/*
 * The UDP total offered to every configuration: 1.1 x what the fullest
 * link can carry, on every link of every configuration.  Placed flows: a
 * link of configuration N carries at least floor(K/N) of the K equal
 * flows, fewest in the largest, so each flow gets 1.1 x @top / floor(K/n)
 * (K = 6 over 3 x 9.72 Mbit/s: 32 Mbit/s).  Unplaced (balance-rr spreads
 * packets, other modes hash as they will): 1.1 x the largest
 * configuration's ceiling.  100 Mbit/s when no ceiling is known.
 */
static double udp_offer(const struct bc_scale *s, double top)
{
	double full = bc_scale_config_ceiling(s, 1, (uint32_t)s->n_sl);
	/* floor(K/n), flows on the fullest slave; >= 1 (K < n is refused when
	 * placeable, but say so here too rather than divide by 0) */
	uint32_t per = s->n_sl ? (uint32_t)(s->k / s->n_sl) : 0;

	if (top <= 0)
		return 100e6;
	if (s->placeable)
		return 1.1 * top * s->k / (per ? per : 1);
	return full > 0 ? 1.1 * full : 1.1 * top * (double)s->n_sl;
}

/*
 * K flows for every configuration: the least common multiple of the
 * configuration sizes when it is at most 4 per slave of the largest (every
 * configuration then carries the same number of flows on each slave, and
 * at least 2 per slave, so one TCP flow's sawtooth does not leave a link
 * idle), else 2 per slave of the largest.
 */
static uint32_t default_flows(uint32_t nmin, uint32_t nmax)
{
	uint64_t l = 1;

	for (uint32_t n = nmin; n <= nmax; n++) {
		uint64_t a = l, b = n;

		while (b) {
			uint64_t t = a % b;

			a = b;
			b = t;
		}
		l = l / a * n;
	}
	while (l < 2ull * nmax)
		l *= 2;
	if (l <= 4ull * nmax && l <= BC_PLAN_MAX_STREAMS)
		return (uint32_t)l;
	return 2 * nmax;
}

int bc_scale_run(const struct bc_scale_cfg *c, struct json_object **out, struct bc_error *err)
{
	struct bc_scale *s;
	int r;

	*out = NULL;
	if (!c->tcp && !c->udp)
		return bc_error_set(err, -EINVAL,
				    "no protocol to measure; expected tcp, udp or both");
	if (c->repetitions < 2)
		return bc_error_set(err, -EINVAL,
				    "--repetitions %u: a confidence interval needs at least 2 runs "
				    "per configuration",
				    c->repetitions);
	s = calloc(1, sizeof(*s));
	if (!s)
		return bc_error_set(err, -ENOMEM, "out of memory");
	s->c = c;
	s->extra = json_object_new_object();
	r = load_bond(s, err);
	if (r < 0)
		goto out;
	s->nmin = c->min_n ? c->min_n : 1;
	/* balance-rr spreads every flow over every link, per packet: one flow is
	 * field note 1's netperf stream; elsewhere flows must reach each slave */
	s->k = c->flows			       ? c->flows
	       : s->mode == BC_MODE_ROUNDROBIN ? 1
					       : default_flows(s->nmin, (uint32_t)s->n_sl);
	if (s->nmin >= s->n_sl) {
		r = bc_error_set(
			err, -EINVAL,
			"--from %u: %s has %zu usable slaves, so the smallest configuration "
			"must be below %zu",
			s->nmin, s->bond, s->n_sl, s->n_sl);
		goto out;
	}
	if (s->placeable && s->k < s->n_sl) {
		r = bc_error_set(err, -EINVAL,
				 "--flows %u: every configuration up to %zu slaves needs at least "
				 "one flow per slave; give --flows %zu or more",
				 s->k, s->n_sl, s->n_sl);
		goto out;
	}
	if (s->k > BC_PLAN_MAX_STREAMS) {
		r = bc_error_set(err, -EINVAL, "--flows %u: at most %d", s->k, BC_PLAN_MAX_STREAMS);
		goto out;
	}
	s->udp_length = c->client.plan.length;
	if (!s->udp_length)
		s->udp_length = bc_plan_length_for_mtu(s->e.dev.mtu ? s->e.dev.mtu : 1500,
						       s->local.ss_family == AF_INET6 ? 6 : 4);
	r = bc_scale_links_prepare(s, err);
	if (r < 0)
		goto out;
	slave_ceilings(s);
	s->udp_total = c->udp_rate_bps;
	if (c->udp && s->udp_total <= 0) {
		double top = 0;

		for (size_t i = 0; i < s->n_sl; i++)
			top = s->sl[i].ceil[1] > top ? s->sl[i].ceil[1] : top;
		s->udp_total = udp_offer(s, top);
	}
	s->runs = (unsigned)((c->tcp + c->udp) * c->repetitions * (s->n_sl - s->nmin + 1));
	/* links: the probe's evidence joins the slaves' scores before the order is built */
	r = bc_scale_links_begin(s, err);
	if (r == 0)
		r = build_order(s, err);
	if (r == 0)
		r = bc_scale_links_check(s, err);
	init_doc(s);
	if (r < 0) {
		fail(s, r, "preparing the changes", err);
		goto restore;
	}
	r = measure(s, err);
	if (r == 0 || bc_json_len(json_object_object_get(s->doc, "configs"))) {
		struct bc_error e = {0};

		if (bc_scale_doc_compare(s->doc, &e) == 0) {
			if (r == 0 && s->c->diagnose)
				diagnose(s, err);
			bc_scale_doc_conclude(s->doc, &e);
		}
	}
	notes(s);
restore : {
	struct bc_error e = {0};
	int rr = bc_scale_links_end(s, &e);

	if (rr < 0) {
		fail(s, rr, "restoring the bonds", &e);
		if (r == 0) {
			r = rr;
			bc_error_set(err, rr, "%s", e.msg);
		}
	}
}
out:
	if (s->doc && c->method == BC_SCALE_METHOD_LINKS)
		json_object_object_add(s->doc, "links", json_object_get(s->extra));
	json_object_put(s->extra);
	*out = s->doc;
	bc_snapshot_free(&s->snap);
	free(s);
	return r;
}
