// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pure part of `bondcheck matrix` (analyze/matrix.c, report/matrix-report.c):
 * probe sizes, pair figures from a relayed result, findings, CSV.
 */
#include <errno.h>
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
#include "bondcheck/matrix.h"

#define assert_near(got, want, tol) assert_true((got) > (want) - (tol) && (got) < (want) + (tol))

static void test_probe_sizes(void **state)
{
	uint32_t s[2];

	(void)state;
	assert_int_equal(bc_matrix_probe_sizes(1500, 1500, s), 1);
	assert_int_equal(s[0], 1500);
	/* the sender's larger MTU and the smaller one both ends take */
	assert_int_equal(bc_matrix_probe_sizes(9000, 1500, s), 2);
	assert_int_equal(s[0], 1500);
	assert_int_equal(s[1], 9000);
	/* a size above the sender's own MTU cannot leave it */
	assert_int_equal(bc_matrix_probe_sizes(1500, 9000, s), 1);
	assert_int_equal(s[0], 1500);
	assert_int_equal(bc_matrix_probe_sizes(0, 1500, s), 0);
}

/* The retransmits and the client's qdisc drops of the next result() (TCP, one stream). */
static long long next_retransmits = 3, next_qdisc_drops;

/* A relayed run result with the given ends (egress JSON text) and goodput. */
static struct json_object *result(double goodput, const char *proto, int length,
				  const char *client_egress, const char *agent_egress,
				  long long agent_rx_dropped)
{
	char buf[4096];
	long long retr = next_retransmits, qd = next_qdisc_drops;

	next_retransmits = 3;
	next_qdisc_drops = 0;
	snprintf(buf, sizeof(buf),
		 "{\"test\": {\"protocol\": \"%s\", \"length\": %d, \"ip_version\": 4},"
		 " \"goodput_bps\": %.1f, \"ceiling_bps\": 1,"
		 " \"streams\": [{\"retransmits\": %lld, \"sent_packets\": 10, "
		 "\"received_packets\": 9, \"lost_packets\": 1}],"
		 " \"notes\": [],"
		 " \"ends\": {\"client\": {\"metadata\": {\"hostname\": \"a\", \"egress\": %s,"
		 "                       \"sysctls\": {\"net.ipv4.tcp_timestamps\": \"1\"}},"
		 "                      \"counters\": {\"cpu_bound\": false, \"interfaces\":"
		 "                         {\"e0\": {\"qdisc_drops\": %lld}}}},"
		 "           \"agent\": {\"metadata\": {\"hostname\": \"b\", \"egress\": %s},"
		 "                     \"counters\": {\"cpu_bound\": false, \"interfaces\":"
		 "                        {\"e0\": {\"rx_dropped\": %lld},"
		 "                         \"bond0\": {\"rx_dropped\": %lld}}}}}}",
		 proto, length, goodput, retr, client_egress, qd, agent_egress, agent_rx_dropped,
		 agent_rx_dropped);
	return json_tokener_parse(buf);
}

#define TBF40_1500 "{\"name\": \"e0\", \"mtu\": 1500, \"speed_mbps\": 10000, \"tbf_bps\": 40e6}"
#define TBF40_9000 "{\"name\": \"e0\", \"mtu\": 9000, \"speed_mbps\": 10000, \"tbf_bps\": 40e6}"
#define NO_RATE	   "{\"name\": \"e0\", \"mtu\": 1500, \"speed_mbps\": 0, \"tbf_bps\": 0}"
#define RR_2x10                                                                                    \
	"{\"name\": \"bond0\", \"mtu\": 1500, \"speed_mbps\": 0, \"tbf_bps\": 0, \"bond\": "       \
	"{\"options\": {\"mode\": \"balance-rr 0\"}, \"slaves\": ["                                \
	"{\"name\": \"eth0\", \"mtu\": 1500, \"speed_mbps\": 1000, \"tbf_bps\": 10e6},"            \
	"{\"name\": \"eth1\", \"mtu\": 1500, \"speed_mbps\": 1000, \"tbf_bps\": 10e6}]}}"
#define GIGABIT "{\"name\": \"e0\", \"mtu\": 1500, \"speed_mbps\": 1000, \"tbf_bps\": 0}"

/*
 * A probe that failed (no result) or whose result has no streams array is
 * recorded as not carried, with its error: it used to abort in json-c
 * (json_object_array_get_idx on NULL) and take the controller down.
 */
static void test_probe_failed(void **state)
{
	struct json_object *pair = json_object_new_object(), *bad = json_object_new_object();
	struct json_object *pr;

	(void)state;
	bc_matrix_probe_add(pair, 9000, NULL, "agent 10.0.0.1: busy");
	json_object_object_add(bad, "streams", json_object_new_string("not an array"));
	bc_matrix_probe_add(pair, 1500, bad, NULL);
	pr = json_object_object_get(json_object_object_get(pair, "pmtu"), "probes");
	assert_int_equal(json_object_array_length(pr), 2);
	assert_false(json_object_get_boolean(
		json_object_object_get(json_object_array_get_idx(pr, 0), "carried")));
	assert_string_equal(json_object_get_string(json_object_object_get(
				    json_object_array_get_idx(pr, 0), "error")),
			    "agent 10.0.0.1: busy");
	assert_false(json_object_get_boolean(
		json_object_object_get(json_object_array_get_idx(pr, 1), "carried")));
	json_object_put(bad);
	json_object_put(pair);
}

static void test_pair_fill(void **state)
{
	struct json_object *p = json_object_new_object(), *r;
	struct bc_error err = {0};

	(void)state;
	/* tbf 40 Mbit/s both ends, TCP at 1500: 40e6 x 1448 / 1514 (qdisc convention) */
	r = result(30e6, "tcp", 131072, TBF40_1500, TBF40_1500, 0);
	assert_int_equal(bc_matrix_pair_fill(p, r, &err), 0);
	assert_near(bc_json_dbl(p, "ceiling_bps", 0), 40e6 * 1448 / 1514, 1);
	assert_near(bc_json_dbl(p, "efficiency", 0), 30e6 / (40e6 * 1448 / 1514), 1e-9);
	assert_string_equal(bc_json_str(p, "status"), "ok");
	assert_int_equal(bc_json_i64(p, "retransmits", 0), 3);
	assert_string_equal(bc_json_str(json_object_object_get(p, "client"), "rate_source"), "tbf");
	json_object_put(r);
	json_object_put(p);

	/* a 9000-byte sender towards a 1500-byte receiver: the ceiling at 1500 */
	p = json_object_new_object();
	r = result(30e6, "tcp", 131072, TBF40_9000, TBF40_1500, 0);
	assert_int_equal(bc_matrix_pair_fill(p, r, NULL), 0);
	assert_near(bc_json_dbl(p, "ceiling_bps", 0), 40e6 * 1448 / 1514, 1);
	assert_int_equal(bc_json_i64(json_object_object_get(p, "client"), "mtu", 0), 9000);
	json_object_put(r);
	json_object_put(p);

	/*
	 * The receiver is a balance-rr bond of two tbf 10 Mbit/s slaves on
	 * gigabit NICs: its tbfs shape what it sends (2 x 9.564), not what it
	 * takes in (2 x 1e9 x 1448 / 1538), so the pair is held by the sender's
	 * 38.26 Mbit/s.  It was the receiver's 19.13 Mbit/s before.
	 */
	p = json_object_new_object();
	r = result(15e6, "tcp", 131072, TBF40_1500, RR_2x10, 7);
	assert_int_equal(bc_matrix_pair_fill(p, r, NULL), 0);
	assert_near(bc_json_dbl(p, "ceiling_bps", 0), 40e6 * 1448 / 1514, 1);
	assert_string_equal(bc_json_str(p, "limited_by"), "sender");
	assert_near(bc_json_dbl(p, "receiver_ceiling_bps", 0), 2 * 1e9 * 1448 / 1538, 1);
	assert_near(bc_json_dbl(json_object_object_get(p, "agent"), "link_rate_bps", 0), 20e6, 1);
	assert_near(bc_json_dbl(json_object_object_get(p, "agent"), "ceiling_bps", 0),
		    2 * 10e6 * 1448 / 1514, 1);
	assert_near(bc_json_dbl(json_object_object_get(p, "agent"), "ingress_ceiling_bps", 0),
		    2 * 1e9 * 1448 / 1538, 1);
	assert_int_equal(bc_json_i64(json_object_object_get(p, "agent"), "rx_dropped", 0), 7);
	json_object_put(r);
	json_object_put(p);

	/*
	 * Issue 16 item 4: a receiver shaped only when sending (tbf 12 Mbit/s)
	 * takes 38 Mbit/s from a 40 Mbit/s sender.  Its egress tbf held the
	 * pair to 11.48 Mbit/s before: efficiency 331 %.  Now the pair's
	 * ceiling is the sender's egress (its NIC speed leaves the receiver's
	 * ingress at 10 Gbit/s): 99 %.
	 */
	p = json_object_new_object();
	r = result(38e6, "tcp", 131072, TBF40_1500,
		   "{\"name\": \"e0\", \"mtu\": 1500, \"speed_mbps\": 10000, \"tbf_bps\": 12e6}",
		   0);
	assert_int_equal(bc_matrix_pair_fill(p, r, NULL), 0);
	assert_near(bc_json_dbl(p, "ceiling_bps", 0), 40e6 * 1448 / 1514, 1);
	assert_true(bc_json_dbl(p, "efficiency", 9) <= 1.0);
	assert_near(bc_json_dbl(p, "sender_ceiling_bps", 0), 40e6 * 1448 / 1514, 1);
	assert_string_equal(bc_json_str(p, "limited_by"), "sender");
	json_object_put(r);
	json_object_put(p);
	/* ... and the pairs it sends are held by its own egress, limited_by sender */
	p = json_object_new_object();
	r = result(11e6, "tcp", 131072,
		   "{\"name\": \"e0\", \"mtu\": 1500, \"speed_mbps\": 10000, \"tbf_bps\": 12e6}",
		   TBF40_1500, 0);
	assert_int_equal(bc_matrix_pair_fill(p, r, NULL), 0);
	assert_near(bc_json_dbl(p, "ceiling_bps", 0), 12e6 * 1448 / 1514, 1);
	assert_string_equal(bc_json_str(p, "limited_by"), "sender");
	json_object_put(r);
	json_object_put(p);
	/* a receiver on a slower NIC than the sender's shaper: its ingress holds the pair */
	p = json_object_new_object();
	r = result(9e6, "tcp", 131072, TBF40_1500,
		   "{\"name\": \"e0\", \"mtu\": 1500, \"speed_mbps\": 10, \"tbf_bps\": 0}", 0);
	assert_int_equal(bc_matrix_pair_fill(p, r, NULL), 0);
	assert_near(bc_json_dbl(p, "ceiling_bps", 0), 10e6 * 1448 / 1538, 1);
	assert_string_equal(bc_json_str(p, "limited_by"), "receiver");
	json_object_put(r);
	json_object_put(p);

	/* UDP 1472 on gigabit NICs (Ethernet convention): 1e9 x 1472 / 1538 */
	p = json_object_new_object();
	r = result(900e6, "udp", 1472, GIGABIT, GIGABIT, 0);
	assert_int_equal(bc_matrix_pair_fill(p, r, NULL), 0);
	assert_near(bc_json_dbl(p, "ceiling_bps", 0), 1e9 * 1472 / 1538, 1);
	assert_int_equal(bc_json_i64(p, "lost_packets", 0), 1);
	assert_null(json_object_object_get(p, "retransmits"));
	json_object_put(r);
	json_object_put(p);

	/* a receiver without a NIC speed: the sender's egress is the ceiling known */
	p = json_object_new_object();
	r = result(30e6, "tcp", 131072, TBF40_1500, NO_RATE, 0);
	assert_int_equal(bc_matrix_pair_fill(p, r, NULL), 0);
	assert_near(bc_json_dbl(p, "ceiling_bps", 0), 40e6 * 1448 / 1514, 1);
	assert_true(bc_json_dbl(p, "receiver_ceiling_bps", -1) == 0);
	json_object_put(r);
	json_object_put(p);

	/* neither a sender's rate nor a receiver's NIC speed: no ceiling, efficiency null */
	p = json_object_new_object();
	r = result(30e6, "tcp", 131072, NO_RATE, NO_RATE, 0);
	assert_int_equal(bc_matrix_pair_fill(p, r, NULL), 0);
	assert_true(bc_json_dbl(p, "ceiling_bps", -1) == 0);
	assert_true(json_object_object_get_ex(p, "efficiency", NULL));
	assert_null(json_object_object_get(p, "efficiency"));
	json_object_put(r);

	r = json_tokener_parse("{\"goodput_bps\": 1}");
	assert_int_equal(bc_matrix_pair_fill(p, r, &err), -EINVAL);
	json_object_put(r);
	json_object_put(p);
}

/* A probe result: @sent datagrams, @received of them arrived. */
static struct json_object *probe(long long sent, long long received)
{
	char buf[256];

	snprintf(buf, sizeof(buf),
		 "{\"test\": {\"ip_version\": 4}, \"streams\": [{\"sent_packets\": %lld, "
		 "\"received_packets\": %lld, \"sender\": {\"send_errors\": 0}}]}",
		 sent, received);
	return json_tokener_parse(buf);
}

struct doc_spec {
	unsigned n;
	const char *status[6];	/* host status, NULL = ok */
	unsigned mtu[6];	/* per host */
	double eff[6][6];	/* pair efficiency, 0 = pair failed */
	bool carried_own[6][6]; /* the sender's own-size probe arrived */
	long long rx_dropped[6];
	double link_mbit[6];	   /* tbf per host, Mbit/s; 0 = 40 */
	long long retrans[6][6];   /* per pair; 0 = 3 */
	long long qdisc_drops[6][6]; /* the sender's own, per pair */
};

static const char *name(unsigned i)
{
	static const char *const n[] = {"h0", "h1", "h2", "h3", "h4", "h5"};

	return n[i];
}

/* A matrix document as bc_matrix_run() builds it, from @d. */
static struct json_object *make_doc(const struct doc_spec *d)
{
	struct json_object *doc = json_object_new_object(), *hosts = json_object_new_array();
	struct json_object *pairs = json_object_new_array();

	for (unsigned h = 0; h < d->n; h++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(name(h)));
		json_object_object_add(o, "index", json_object_new_int((int)h));
		json_object_object_add(o, "status",
				       json_object_new_string(d->status[h] ? d->status[h] : "ok"));
		if (d->status[h])
			json_object_object_add(o, "error", json_object_new_string("refused"));
		json_object_array_add(hosts, o);
	}
	for (unsigned a = 0; a < d->n; a++)
		for (unsigned b = 0; b < d->n; b++) {
			struct json_object *p, *r;
			char ea[200], eb[200];
			double la = d->link_mbit[a] ? d->link_mbit[a] : 40;
			double lb = d->link_mbit[b] ? d->link_mbit[b] : 40;
			double ceil;
			uint32_t sizes[2];
			size_t ns;

			if (a == b)
				continue;
			p = json_object_new_object();
			json_object_object_add(p, "from", json_object_new_string(name(a)));
			json_object_object_add(p, "to", json_object_new_string(name(b)));
			json_object_object_add(p, "from_index", json_object_new_int((int)a));
			json_object_object_add(p, "to_index", json_object_new_int((int)b));
			json_object_array_add(pairs, p);
			if (d->status[a] || d->status[b]) {
				json_object_object_add(p, "status",
						       json_object_new_string("skipped"));
				continue;
			}
			if (d->eff[a][b] == 0) {
				struct json_object *e = json_object_new_object();

				json_object_object_add(p, "status",
						       json_object_new_string("failed"));
				json_object_object_add(e, "code",
						       json_object_new_string("peer-unreachable"));
				json_object_object_add(e, "message", json_object_new_string("x"));
				json_object_object_add(p, "error", e);
				continue;
			}
			snprintf(ea, sizeof(ea),
				 "{\"name\": \"e0\", \"mtu\": %u, \"speed_mbps\": 0, \"tbf_bps\": "
				 "%g}",
				 d->mtu[a] ? d->mtu[a] : 1500, la * 1e6);
			snprintf(eb, sizeof(eb),
				 "{\"name\": \"e0\", \"mtu\": %u, \"speed_mbps\": 0, \"tbf_bps\": "
				 "%g}",
				 d->mtu[b] ? d->mtu[b] : 1500, lb * 1e6);
			/* the receivers have no NIC speed: the sender's egress is the ceiling */
			(void)lb;
			ceil = la * 1e6 * 1448 / 1514;
			if (d->retrans[a][b])
				next_retransmits = d->retrans[a][b];
			next_qdisc_drops = d->qdisc_drops[a][b];
			r = result(d->eff[a][b] * ceil, "tcp", 131072, ea, eb, d->rx_dropped[b]);
			assert_int_equal(bc_matrix_pair_fill(p, r, NULL), 0);
			json_object_put(r);
			ns = bc_matrix_probe_sizes(d->mtu[a] ? d->mtu[a] : 1500,
						   d->mtu[b] ? d->mtu[b] : 1500, sizes);
			for (size_t i = 0; i < ns; i++) {
				bool own = sizes[i] == (d->mtu[a] ? d->mtu[a] : 1500);

				r = probe(10, own && !d->carried_own[a][b] ? 0 : 10);
				bc_matrix_probe_add(p, sizes[i], r, NULL);
				json_object_put(r);
			}
		}
	json_object_object_add(doc, "protocol", json_object_new_string("tcp"));
	json_object_object_add(doc, "duration_ms", json_object_new_int(1000));
	json_object_object_add(doc, "hosts", hosts);
	json_object_object_add(doc, "pairs", pairs);
	return doc;
}

static void fill_spec(struct doc_spec *d, unsigned n, double eff)
{
	memset(d, 0, sizeof(*d));
	d->n = n;
	for (unsigned a = 0; a < n; a++)
		for (unsigned b = 0; b < n; b++) {
			d->eff[a][b] = eff;
			d->carried_own[a][b] = true;
		}
}

static const char *subjects(struct json_object *doc, const char *id, char *buf, size_t len)
{
	struct json_object *fs = json_object_object_get(doc, "findings");

	buf[0] = '\0';
	for (size_t k = 0; k < bc_json_len(fs); k++) {
		struct json_object *f = json_object_array_get_idx(fs, k);

		if (!strcmp(bc_json_str(f, "id"), id))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? " " : "",
				 bc_json_str(f, "subject"));
	}
	return buf;
}

static struct json_object *first(struct json_object *doc, const char *id)
{
	struct json_object *fs = json_object_object_get(doc, "findings");

	for (size_t k = 0; k < bc_json_len(fs); k++)
		if (!strcmp(bc_json_str(json_object_array_get_idx(fs, k), "id"), id))
			return json_object_array_get_idx(fs, k);
	return NULL;
}

static void test_healthy(void **state)
{
	struct doc_spec d;
	struct json_object *doc, *m;

	(void)state;
	fill_spec(&d, 4, 0.96);
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_int_equal(bc_json_len(json_object_object_get(doc, "findings")), 0);
	m = json_object_object_get(doc, "matrix");
	assert_null(json_object_array_get_idx(
		json_object_array_get_idx(json_object_object_get(m, "efficiency"), 2), 2));
	assert_near(
		json_object_get_double(json_object_array_get_idx(
			json_object_array_get_idx(json_object_object_get(m, "efficiency"), 0), 3)),
		0.96, 1e-9);
	assert_int_equal(
		json_object_get_int(json_object_array_get_idx(
			json_object_array_get_idx(json_object_object_get(m, "pmtu_largest"), 1),
			0)),
		1500);
	/* host summaries */
	assert_int_equal(
		bc_json_i64(json_object_array_get_idx(json_object_object_get(doc, "hosts"), 2),
			    "mtu", 0),
		1500);
	json_object_put(doc);
	/* analyze twice: findings replaced, not added */
	fill_spec(&d, 3, 0.9);
	d.eff[0][1] = d.eff[0][2] = 0.2;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_int_equal(bc_json_len(json_object_object_get(doc, "findings")), 1);
	json_object_put(doc);
	doc = json_tokener_parse("{\"hosts\": []}");
	assert_int_equal(bc_matrix_analyze(doc, NULL), -EINVAL);
	json_object_put(doc);
}

static void test_slow_host(void **state)
{
	struct doc_spec d;
	struct json_object *doc, *f;
	char buf[200];

	(void)state;
	/* h1 at 25 % both ways, the rest at 95 % */
	fill_spec(&d, 4, 0.95);
	for (unsigned x = 0; x < 4; x++)
		d.eff[1][x] = d.eff[x][1] = 0.25;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-slow", buf, sizeof(buf)), "h1");
	f = first(doc, "host-slow");
	assert_string_equal(bc_json_str(f, "severity"), "error");
	assert_string_equal(bc_json_str(json_object_object_get(f, "evidence"), "as_sender"),
			    "0.25");
	assert_string_equal(bc_json_str(json_object_object_get(f, "evidence"), "others"), "0.95");
	json_object_put(doc);

	/* only its receiving side is slow: still h1, named in that direction */
	fill_spec(&d, 4, 0.95);
	for (unsigned x = 0; x < 4; x++)
		d.eff[x][1] = 0.3;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-slow", buf, sizeof(buf)), "h1");
	f = json_object_object_get(first(doc, "host-slow"), "evidence");
	assert_string_equal(bc_json_str(f, "direction"), "receiving");
	assert_string_equal(bc_json_str(f, "sending"), "ok");
	assert_string_equal(bc_json_str(f, "receiving"), "yes");
	assert_non_null(strstr(bc_json_str(first(doc, "host-slow"), "advice"), "when receiving"));
	json_object_put(doc);

	/* just above the slow line (0.6 x 0.95 = 0.57): borderline with its numbers */
	fill_spec(&d, 4, 0.95);
	for (unsigned x = 0; x < 4; x++)
		d.eff[1][x] = d.eff[x][1] = 0.67;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-slow", buf, sizeof(buf)), "");
	assert_string_equal(subjects(doc, "host-borderline", buf, sizeof(buf)), "h1");
	f = first(doc, "host-borderline");
	assert_string_equal(bc_json_str(f, "severity"), "warning");
	assert_string_equal(bc_json_str(json_object_object_get(f, "evidence"), "receiver_ratio"),
			    "0.705");
	json_object_put(doc);

	/* two hosts: no pairs without the host, no verdict */
	fill_spec(&d, 2, 0.95);
	d.eff[0][1] = 0.1;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-slow", buf, sizeof(buf)), "");
	json_object_put(doc);

	/* a host whose link is a quarter of the others': host-link-slower, not host-slow */
	fill_spec(&d, 4, 0.95);
	d.link_mbit[3] = 10;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-link-slower", buf, sizeof(buf)), "h3");
	assert_string_equal(subjects(doc, "host-slow", buf, sizeof(buf)), "");
	json_object_put(doc);
}

/*
 * Issue 16 item 4: a host whose pairs into it sit near the 0.7 line was
 * named in 3 runs of 5 and dropped in the other 2.  Its medians on either
 * side of the line (0.674 and 0.716 of the others) now both name it, as
 * host-slow (below 0.6) or host-borderline (0.6-0.8), in the receiving
 * direction: before, 0.68 gave no finding at all.
 */
static void test_slow_stable(void **state)
{
	static const double into[] = {0.62, 0.64, 0.68, 0.70, 0.74, 0.55};
	struct doc_spec d;
	struct json_object *doc;
	char slow[64], near[64];

	(void)state;
	for (size_t i = 0; i < sizeof(into) / sizeof(into[0]); i++) {
		fill_spec(&d, 5, 0.95);
		for (unsigned x = 0; x < 5; x++)
			d.eff[x][4] = into[i];
		doc = make_doc(&d);
		assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
		subjects(doc, "host-slow", slow, sizeof(slow));
		subjects(doc, "host-borderline", near, sizeof(near));
		assert_string_equal(into[i] < 0.57 ? slow : near, "h4");
		assert_string_equal(into[i] < 0.57 ? near : slow, "");
		assert_string_equal(
			bc_json_str(json_object_object_get(
					    first(doc, into[i] < 0.57 ? "host-slow" : "host-borderline"),
					    "evidence"),
				    "direction"),
			"receiving");
		json_object_put(doc);
	}
}

/*
 * Loss into one host (a port that drops bursts): its pairs' retransmits
 * against the others', with the mechanism its own counters support.
 */
static void test_loss(void **state)
{
	struct doc_spec d;
	struct json_object *doc, *f, *e;
	char buf[200];

	(void)state;
	/* 200 retransmits per pair into h2 (6.0 % of ~3,300 segments), 3 elsewhere */
	fill_spec(&d, 5, 0.95);
	for (unsigned x = 0; x < 5; x++)
		d.retrans[x][2] = 200;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-loss", buf, sizeof(buf)), "h2");
	f = first(doc, "host-loss");
	assert_string_equal(bc_json_str(f, "severity"), "error");
	e = json_object_object_get(f, "evidence");
	assert_string_equal(bc_json_str(e, "direction"), "receiving");
	assert_string_equal(bc_json_str(e, "mechanism"), "queue-overflow-before-host");
	assert_string_equal(bc_json_str(e, "retransmits"), "800");
	assert_string_equal(bc_json_str(e, "host_rx_drops"), "0");
	assert_string_equal(bc_json_str(e, "lossy_peers"), "h0, h1, h3, h4");
	assert_non_null(strstr(bc_json_str(f, "advice"), "a queue before it overflowed"));
	json_object_put(doc);

	/*
	 * Every sender's own queue dropped a few (20 of 300 lost): the loss is
	 * still the path's into h2 (260 of 300), not theirs.  With every pair
	 * left out when the sender's qdisc counted any drop, h2 went unnamed.
	 */
	d.qdisc_drops[0][2] = d.qdisc_drops[1][2] = d.qdisc_drops[3][2] = d.qdisc_drops[4][2] = 20;
	for (unsigned x = 0; x < 5; x++)
		d.retrans[x][2] = 300;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-loss", buf, sizeof(buf)), "h2");
	json_object_put(doc);
	memset(d.qdisc_drops, 0, sizeof(d.qdisc_drops));
	for (unsigned x = 0; x < 5; x++)
		d.retrans[x][2] = 200;

	/*
	 * One lossy pair into h1 (a sender whose retransmits are 4 times its
	 * own drops, as a 12 Mbit/s tbf gives): one pair does not make a host
	 * lossy; the other senders' pairs into h1 ran clean.  It was named
	 * when the clean pairs, with a few own drops each, were left out.
	 */
	{
		struct doc_spec d1;

		fill_spec(&d1, 5, 0.99);
		d1.retrans[2][1] = 5000;
		d1.qdisc_drops[2][1] = 1200;
		for (unsigned x = 0; x < 5; x++)
			if (x != 2) {
				d1.retrans[x][1] = 40;
				d1.qdisc_drops[x][1] = 60;
			}
		doc = make_doc(&d1);
		assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
		assert_string_equal(subjects(doc, "host-loss", buf, sizeof(buf)), "");
		json_object_put(doc);
	}

	/*
	 * Every pair without h2 lost a little at its sender's own queue (30
	 * retransmits, 20 qdisc drops): they still make the reference, and
	 * h2 is judged.  Left out, no reference was left and h2 went unnamed.
	 */
	fill_spec(&d, 4, 0.95);
	for (unsigned a = 0; a < 4; a++)
		for (unsigned b = 0; b < 4; b++) {
			d.retrans[a][b] = b == 2 ? 600 : 30;
			d.qdisc_drops[a][b] = b == 2 ? 0 : 20;
		}
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-loss", buf, sizeof(buf)), "h2");
	json_object_put(doc);
	fill_spec(&d, 5, 0.95);
	for (unsigned x = 0; x < 5; x++)
		d.retrans[x][2] = 200;

	/* the same with h2's own interface dropping: the host, not the port */
	d.rx_dropped[2] = 40;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(
		bc_json_str(json_object_object_get(first(doc, "host-loss"), "evidence"), "mechanism"),
		"host-rx-drops");
	json_object_put(doc);

	/* out of h1: sending direction, a queue after it (its send-side counters stay 0) */
	fill_spec(&d, 5, 0.95);
	for (unsigned x = 0; x < 5; x++)
		d.retrans[1][x] = 300;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-loss", buf, sizeof(buf)), "h1");
	e = json_object_object_get(first(doc, "host-loss"), "evidence");
	assert_string_equal(bc_json_str(e, "direction"), "sending");
	assert_string_equal(bc_json_str(e, "mechanism"), "queue-overflow-after-host");
	json_object_put(doc);

	/*
	 * A sender whose own shaper drops what TCP pushes past it (its qdisc
	 * counted the drops), at full efficiency: TCP finding its bottleneck,
	 * not a loss finding.  Nor does it make its receivers lossy.
	 */
	fill_spec(&d, 5, 0.99);
	for (unsigned x = 0; x < 5; x++) {
		d.retrans[1][x] = 900;
		d.qdisc_drops[1][x] = 700;
	}
	d.retrans[0][3] = d.retrans[4][3] = 500;
	d.qdisc_drops[0][3] = d.qdisc_drops[4][3] = 300;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-loss", buf, sizeof(buf)), "");
	assert_string_equal(subjects(doc, "host-borderline", buf, sizeof(buf)), "");
	json_object_put(doc);
	/* ... when it costs goodput (its pairs at 50 %), it is its own egress queue */
	for (unsigned x = 0; x < 5; x++)
		d.eff[1][x] = 0.5;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-loss", buf, sizeof(buf)), "h1");
	e = json_object_object_get(first(doc, "host-loss"), "evidence");
	assert_string_equal(bc_json_str(e, "direction"), "sending");
	assert_string_equal(bc_json_str(e, "mechanism"), "own-egress-queue");
	json_object_put(doc);

	/* near the line (3.1 % of the segments, 30x the others): borderline, not dropped */
	fill_spec(&d, 5, 0.95);
	for (unsigned x = 0; x < 5; x++)
		d.retrans[x][3] = 100;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-loss", buf, sizeof(buf)), "");
	assert_string_equal(subjects(doc, "host-borderline", buf, sizeof(buf)), "h3");
	assert_string_equal(
		bc_json_str(json_object_object_get(first(doc, "host-borderline"), "evidence"),
			    "question"),
		"loss");
	json_object_put(doc);

	/* every pair retransmitting alike: nobody stands out */
	fill_spec(&d, 5, 0.95);
	for (unsigned a = 0; a < 5; a++)
		for (unsigned b = 0; b < 5; b++)
			d.retrans[a][b] = 200;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-loss", buf, sizeof(buf)), "");
	json_object_put(doc);
}

/* A pair over its ceiling is a defect of the ceiling, reported; within 3 % it is not. */
static void test_over_ceiling(void **state)
{
	struct doc_spec d;
	struct json_object *doc;
	char buf[200];

	(void)state;
	fill_spec(&d, 3, 0.95);
	d.eff[0][2] = 1.25;
	d.eff[1][2] = 1.02;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "pair-over-ceiling", buf, sizeof(buf)), "h0->h2");
	json_object_put(doc);
}

/*
 * A host shaped only when sending (tbf 10 of 40 Mbit/s): host-link-slower
 * says "sending" and lists the pairs it holds, sorted; no host-slow.
 */
static void test_link_direction(void **state)
{
	struct doc_spec d;
	struct json_object *doc, *e;
	char buf[200];

	(void)state;
	fill_spec(&d, 4, 0.95);
	d.link_mbit[2] = 10;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-link-slower", buf, sizeof(buf)), "h2");
	assert_string_equal(subjects(doc, "host-slow", buf, sizeof(buf)), "");
	e = json_object_object_get(first(doc, "host-link-slower"), "evidence");
	assert_string_equal(bc_json_str(e, "direction"), "sending");
	assert_string_equal(bc_json_str(e, "held_pairs_to"), "h0, h1, h3");
	assert_null(json_object_object_get(e, "held_pairs_from"));
	json_object_put(doc);
}

/* A verdict of doc.verdicts: @key's member @k ("status", "cause.mechanism", ...). */
static const char *verdict(struct json_object *doc, const char *key, const char *k)
{
	struct json_object *v = json_object_object_get(json_object_object_get(doc, "verdicts"), key);

	if (!strncmp(k, "cause.", 6))
		return bc_json_str(json_object_object_get(v, "cause"), k + 6);
	if (!strncmp(k, "evidence.", 9))
		return bc_json_str(
			json_object_object_get(json_object_object_get(v, "cause"), "evidence"),
			k + 9);
	return bc_json_str(v, k);
}

/*
 * The matrix's verdicts are data (doc.verdicts, bondcheck/verdict.h) and
 * the words are rendered from them (report/matrix-verdict.c): the answer
 * block and each verdict's "answer".
 */
static void test_verdicts(void **state)
{
	struct doc_spec d;
	struct json_object *doc;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	/* h1 slow only when receiving, h3 shaped when sending, loss into h2 */
	fill_spec(&d, 5, 0.95);
	for (unsigned x = 0; x < 5; x++) {
		d.eff[x][1] = 0.3;
		d.retrans[x][2] = 300;
	}
	d.link_mbit[3] = 10;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(verdict(doc, "slow_hosts", "question"), "slow_hosts");
	assert_string_equal(verdict(doc, "slow_hosts", "status"), "fail");
	assert_string_equal(verdict(doc, "slow_hosts", "cause.mechanism"), "host-slow");
	assert_string_equal(verdict(doc, "slow_hosts", "cause.where"), "h1");
	assert_string_equal(verdict(doc, "slow_hosts", "evidence.direction"), "receiving");
	assert_string_equal(verdict(doc, "slow_hosts", "evidence.hosts"),
			    "h1 (receiving), h3 (sending)");
	assert_string_equal(verdict(doc, "loss", "status"), "fail");
	assert_string_equal(verdict(doc, "loss", "cause.mechanism"), "queue-overflow-before-host");
	assert_string_equal(verdict(doc, "loss", "cause.where"), "h2");
	assert_string_equal(verdict(doc, "mtu", "status"), "pass");
	/* the analysis writes no words: "answer" comes from the renderer */
	assert_null(json_object_object_get(
		json_object_object_get(json_object_object_get(doc, "verdicts"), "loss"), "answer"));
	bc_matrix_verdicts_answer(doc);
	assert_non_null(strstr(verdict(doc, "loss", "answer"), "loss into h2: "));
	assert_non_null(strstr(verdict(doc, "loss", "answer"), "a queue before it overflowed"));
	assert_non_null(strstr(verdict(doc, "slow_hosts", "answer"),
			       "h1 is slow when receiving: the median of its pairs is 30.0 %"));
	f = open_memstream(&buf, &len);
	bc_matrix_report_answers(f, doc);
	fclose(f);
	assert_non_null(strstr(buf, "Slow hosts   FAIL   h1 (receiving) at 0.32 of the others' "
				    "median; named: h1 (receiving), h3"));
	assert_non_null(strstr(buf, "Loss         FAIL   h2 (receiving): "));
	assert_non_null(strstr(buf, "MTU          PASS   no mismatch"));
	free(buf);
	json_object_put(doc);

	/* a slower link alone: the slow-hosts verdict passes, the answer warns */
	fill_spec(&d, 4, 0.95);
	d.link_mbit[3] = 10;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(verdict(doc, "slow_hosts", "status"), "pass");
	assert_string_equal(verdict(doc, "slow_hosts", "cause.mechanism"), "host-link-slower");
	buf = NULL;
	f = open_memstream(&buf, &len);
	bc_matrix_report_answers(f, doc);
	fclose(f);
	assert_non_null(strstr(buf, "Slow hosts   WARN   none slow; h3 (sending): a slower link"));
	assert_non_null(strstr(buf, "Loss         PASS   no host stands out"));
	free(buf);
	json_object_put(doc);

	/* borderline: inconclusive, UNSURE */
	fill_spec(&d, 4, 0.95);
	for (unsigned x = 0; x < 4; x++)
		d.eff[x][2] = 0.67;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(verdict(doc, "slow_hosts", "status"), "inconclusive");
	buf = NULL;
	f = open_memstream(&buf, &len);
	bc_matrix_report_answers(f, doc);
	fclose(f);
	assert_non_null(strstr(buf, "Slow hosts   UNSURE h2 (receiving) near the line at 0.71"));
	free(buf);
	json_object_put(doc);
}

static void test_mtu(void **state)
{
	struct doc_spec d;
	struct json_object *doc, *f, *p;
	char buf[200];

	(void)state;
	/* h3 at 9000 behind a 1500 path: its 9000-byte probes lost to everyone */
	fill_spec(&d, 4, 0.95);
	d.mtu[3] = 9000;
	for (unsigned x = 0; x < 3; x++)
		d.carried_own[3][x] = false;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-mtu-mismatch", buf, sizeof(buf)), "h3");
	assert_string_equal(subjects(doc, "path-mtu-blackhole", buf, sizeof(buf)), "");
	f = first(doc, "host-mtu-mismatch");
	assert_string_equal(bc_json_str(json_object_object_get(f, "evidence"), "probe_lost_to"),
			    "h0, h1, h2");
	assert_string_equal(bc_json_str(json_object_object_get(f, "evidence"), "largest_carried"),
			    "1500");
	p = json_object_array_get_idx(json_object_object_get(doc, "pairs"), 9); /* h3 -> h0 */
	assert_string_equal(bc_json_str(p, "from"), "h3");
	assert_string_equal(bc_json_str(json_object_object_get(p, "pmtu"), "status"), "mismatch");
	json_object_put(doc);

	/*
	 * The pairs in another order (the rounds of a schedule): the peer list
	 * stays sorted.  It followed the pairs' order before ("h2, h1, h0").
	 */
	doc = make_doc(&d);
	{
		struct json_object *pairs = json_object_object_get(doc, "pairs");
		struct json_object *rev = json_object_new_array();

		for (size_t k = json_object_array_length(pairs); k-- > 0;)
			json_object_array_add(rev,
					      json_object_get(json_object_array_get_idx(pairs, k)));
		json_object_object_add(doc, "pairs", rev);
	}
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(bc_json_str(json_object_object_get(first(doc, "host-mtu-mismatch"),
								"evidence"),
					"probe_lost_to"),
			    "h0, h1, h2");
	json_object_put(doc);

	/* h2 and h3 both at 9000, the path between them carries 1500: black hole */
	fill_spec(&d, 4, 0.95);
	d.mtu[2] = d.mtu[3] = 9000;
	d.carried_own[2][3] = d.carried_own[3][2] = false;
	for (unsigned x = 0; x < 2; x++)
		d.carried_own[2][x] = d.carried_own[3][x] = false;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "path-mtu-blackhole", buf, sizeof(buf)), "h2->h3 h3->h2");
	/* 2 hosts at 1500, 2 at 9000: the tie goes to the smaller, so h2 and h3 mismatch */
	assert_string_equal(subjects(doc, "host-mtu-mismatch", buf, sizeof(buf)), "h2 h3");
	f = first(doc, "path-mtu-blackhole");
	assert_string_equal(bc_json_str(json_object_object_get(f, "evidence"), "size"), "9000");
	json_object_put(doc);

	/* a smaller MTU on one host: mismatch without probes lost */
	fill_spec(&d, 3, 0.95);
	d.mtu[1] = 1400;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-mtu-mismatch", buf, sizeof(buf)), "h1");
	assert_non_null(strstr(bc_json_str(first(doc, "host-mtu-mismatch"), "advice"),
			       "uses MTU 1400, the other hosts 1500"));
	json_object_put(doc);
}

static void test_faults(void **state)
{
	struct doc_spec d;
	struct json_object *doc, *f;
	char buf[200];

	(void)state;
	fill_spec(&d, 5, 0.95);
	d.status[4] = "unreachable";
	d.eff[0][2] = 0; /* failed */
	d.rx_dropped[1] = 12;
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-unreachable", buf, sizeof(buf)), "h4");
	f = first(doc, "host-unreachable");
	assert_string_equal(bc_json_str(json_object_object_get(f, "evidence"), "pairs_skipped"),
			    "8");
	assert_string_equal(subjects(doc, "pair-failed", buf, sizeof(buf)), "h0->h2");
	assert_string_equal(subjects(doc, "host-rx-drops", buf, sizeof(buf)), "h1");
	f = first(doc, "host-rx-drops");
	assert_string_equal(bc_json_str(f, "severity"), "warning");
	/* h1 received from h0, h2, h3: 3 tests x 12 */
	assert_string_equal(bc_json_str(json_object_object_get(f, "evidence"), "rx_dropped"), "36");
	/* errors first */
	f = json_object_array_get_idx(json_object_object_get(doc, "findings"),
				      bc_json_len(json_object_object_get(doc, "findings")) - 1);
	assert_string_equal(bc_json_str(f, "id"), "host-rx-drops");
	json_object_put(doc);
}

/* The n-th pair object of @doc (make_doc's order: from h0 to h1, h2, ..., then from h1). */
static struct json_object *pair_at(struct json_object *doc, size_t k)
{
	return json_object_array_get_idx(json_object_object_get(doc, "pairs"), k);
}

/* The "missing" evidence of the matrix-inconclusive findings, joined by " | ". */
static const char *missing(struct json_object *doc, char *buf, size_t len)
{
	struct json_object *fs = json_object_object_get(doc, "findings");

	buf[0] = '\0';
	for (size_t k = 0; k < bc_json_len(fs); k++) {
		struct json_object *f = json_object_array_get_idx(fs, k);

		if (!strcmp(bc_json_str(f, "id"), "matrix-inconclusive"))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? " | " : "",
				 bc_json_str(json_object_object_get(f, "evidence"), "missing"));
	}
	return buf;
}

/*
 * A member the analysis needs, absent or mistyped, makes the answers that
 * need it inconclusive and is named by its jq path; it is never read as 0
 * or "".  Before the typed reader (matrix-read.c) the two missing
 * efficiencies below were read as 0 and made h0 a slow host.
 */
static void test_inconclusive(void **state)
{
	struct doc_spec d;
	struct json_object *doc, *m;
	char buf[600];

	(void)state;
	/* h0 -> h1 and h0 -> h2 without efficiency, in a healthy 4-host matrix */
	fill_spec(&d, 4, 0.95);
	doc = make_doc(&d);
	json_object_object_del(pair_at(doc, 0), "efficiency");
	json_object_object_del(pair_at(doc, 1), "efficiency");
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-slow", buf, sizeof(buf)), "");
	assert_string_equal(subjects(doc, "matrix-inconclusive", buf, sizeof(buf)),
			    "h0->h1 h0->h2");
	assert_string_equal(missing(doc, buf, sizeof(buf)),
			    "pairs[0].efficiency (absent) | pairs[1].efficiency (absent)");
	assert_string_equal(bc_json_str(first(doc, "matrix-inconclusive"), "severity"), "warning");
	m = json_object_object_get(json_object_object_get(doc, "matrix"), "goodput_bps");
	assert_null(json_object_array_get_idx(json_object_array_get_idx(m, 0), 1));
	assert_non_null(json_object_array_get_idx(json_object_array_get_idx(m, 0), 3));
	json_object_put(doc);

	/* a mistyped receive counter: h1's drops are not judged from the other pairs */
	fill_spec(&d, 4, 0.95);
	d.rx_dropped[1] = 12;
	doc = make_doc(&d);
	json_object_object_add(json_object_object_get(pair_at(doc, 0), "agent"), "rx_dropped",
			       json_object_new_string("12"));
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(missing(doc, buf, sizeof(buf)),
			    "pairs[0].agent.rx_dropped (string, expected an integer)");
	assert_string_equal(subjects(doc, "host-rx-drops", buf, sizeof(buf)), "");
	json_object_put(doc);

	/* a host without its status, and a failed pair without its error code */
	fill_spec(&d, 3, 0.95);
	d.status[2] = "unreachable";
	d.eff[0][1] = 0;
	doc = make_doc(&d);
	json_object_object_del(json_object_array_get_idx(json_object_object_get(doc, "hosts"), 2),
			       "status");
	json_object_object_del(json_object_object_get(pair_at(doc, 0), "error"), "code");
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "host-unreachable", buf, sizeof(buf)), "");
	assert_string_equal(subjects(doc, "pair-failed", buf, sizeof(buf)), "");
	assert_string_equal(missing(doc, buf, sizeof(buf)),
			    "hosts[2].status (absent) | pairs[0].error.code (absent)");
	json_object_put(doc);
}

/*
 * A relayed run result that lacks a member, or has it mistyped: the pair
 * lists it in pair.missing, its figure is null or its ceiling unknown, and
 * the analysis names it instead of judging the pair.  Before the typed
 * reader the string "1500" below was read as MTU 1500 and the pair got a
 * ceiling, a missing goodput became 0 bit/s, and a probe result without
 * received_packets was a lost probe.
 */
static void test_result_missing(void **state)
{
	struct doc_spec d;
	struct json_object *doc, *p, *r, *pr;
	char buf[600];

	(void)state;
	p = json_object_new_object();
	r = result(
		30e6, "tcp", 131072, TBF40_1500,
		"{\"name\": \"e0\", \"mtu\": \"1500\", \"speed_mbps\": 10000, \"tbf_bps\": 40e6}",
		0);
	json_object_object_del(r, "goodput_bps");
	assert_int_equal(bc_matrix_pair_fill(p, r, NULL), 0);
	assert_true(json_object_object_get_ex(p, "goodput_bps", NULL));
	assert_null(json_object_object_get(p, "goodput_bps"));
	assert_true(bc_json_dbl(p, "ceiling_bps", -1) == 0);
	assert_null(json_object_object_get(p, "efficiency"));
	pr = json_object_object_get(p, "missing");
	assert_int_equal(bc_json_len(pr), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(pr, 0)),
			    "goodput_bps (absent)");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(pr, 1)),
			    "ends.agent.metadata.egress.mtu (string, expected an integer)");
	json_object_put(r);
	json_object_put(p);

	/* in a matrix: h0 -> h1's result without goodput, h0 -> h2's probe without its count */
	fill_spec(&d, 3, 0.95);
	doc = make_doc(&d);
	r = result(30e6, "tcp", 131072, TBF40_1500, TBF40_1500, 0);
	json_object_object_del(r, "goodput_bps");
	assert_int_equal(bc_matrix_pair_fill(pair_at(doc, 0), r, NULL), 0);
	json_object_put(r);
	r = json_tokener_parse(
		"{\"test\": {\"ip_version\": 4}, \"streams\": [{\"sent_packets\": 10, "
		"\"received_packets\": \"10\"}]}");
	bc_matrix_probe_add(pair_at(doc, 1), 1500, r, NULL);
	json_object_put(r);
	pr = json_object_array_get_idx(
		json_object_object_get(json_object_object_get(pair_at(doc, 1), "pmtu"), "probes"),
		1);
	assert_string_equal(
		bc_json_str(pr, "error"),
		"the probe's result lacks streams[0].received_packets (string, expected "
		"an integer)");
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_string_equal(subjects(doc, "matrix-inconclusive", buf, sizeof(buf)),
			    "h0->h1 h0->h2");
	assert_string_equal(missing(doc, buf, sizeof(buf)),
			    "pairs[0] (the relayed result's goodput_bps (absent)); "
			    "pairs[0].goodput_bps (absent) | "
			    "pairs[1].pmtu.probes[1].carried (absent)");
	assert_string_equal(subjects(doc, "path-mtu-blackhole", buf, sizeof(buf)), "");
	json_object_put(doc);
}

static void test_csv(void **state)
{
	struct doc_spec d;
	struct json_object *doc, *e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	fill_spec(&d, 2, 0.5);
	doc = make_doc(&d);
	e = json_object_new_object();
	json_object_object_add(e, "code", json_object_new_string("peer-failed"));
	json_object_object_add(e, "message", json_object_new_string("said \"no\", twice"));
	json_object_object_add(json_object_array_get_idx(json_object_object_get(doc, "pairs"), 1),
			       "error", e);
	json_object_object_add(doc, "pmtu_probes", json_object_new_boolean(true));
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	f = open_memstream(&buf, &len);
	bc_matrix_report_csv(f, doc);
	fclose(f);
	assert_non_null(strstr(buf, "from,to,status,goodput_bps,ceiling_bps,efficiency,"));
	assert_non_null(strstr(buf, "\r\nh0,h1,ok,"));
	assert_non_null(strstr(buf, ",pmtu_status,error,loss_share,sender_ceiling_bps,"
				    "receiver_ceiling_bps\r\n"));
	/* 3 retransmits in 19.13 Mbit/s x 1 s of 1448-byte segments: 0.18 % */
	assert_non_null(strstr(buf, ",0.5000,sender,3,,1500,1500,1500,ok,,0.0018,38256275,0\r\n"));
	assert_non_null(strstr(buf, "\"peer-failed: said \"\"no\"\", twice\","));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	bc_matrix_report_text(f, doc);
	fclose(f);
	assert_non_null(strstr(buf, "Matrix: 2 hosts, --pairs all: 2 ordered pairs"));
	assert_non_null(strstr(buf, "Path MTU"));
	/* the retransmits per pair and their share, in the text (issue 16 item 4) */
	assert_non_null(strstr(buf, "Retransmits per pair and their share of the segments sent"));
	assert_non_null(strstr(buf, "3  0.2%"));
	free(buf);
	json_object_put(doc);
}

/* Whole file as a string (caller frees); NULL when unreadable. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Whether @svg holds the text @t: PLplot's svg driver writes every character as &#xNN;. */
static bool svg_has(const char *svg, const char *t)
{
	char enc[256] = "";

	for (; *t; t++)
		snprintf(enc + strlen(enc), sizeof(enc) - strlen(enc), "&#x%x;", (unsigned char)*t);
	return strstr(svg, enc) != NULL;
}

static void test_plot(void **state)
{
	char dir[] = "/tmp/bc-test-matrix-XXXXXX", path[64];
	struct doc_spec d;
	struct json_object *doc;
	struct bc_error err = {0};
	char *svg;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/matrix.svg", dir);
	fill_spec(&d, 4, 0.9);
	d.status[3] = "auth-failed"; /* its pairs are grey */
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_int_equal(bc_matrix_report_plot(path, doc, &err), 0);
	svg = slurp(path);
	assert_non_null(svg);
	assert_non_null(strstr(svg, "<svg"));
	assert_true(svg_has(svg, "h2"));
	assert_true(svg_has(svg, "(90 %)")); /* the efficiency in the cells */
	assert_false(svg_has(svg, "h7"));
	free(svg);
	unlink(path);
	json_object_put(doc);
	/* no pair ran: nothing to draw, no file */
	fill_spec(&d, 2, 0.9);
	d.status[0] = "unreachable";
	doc = make_doc(&d);
	assert_int_equal(bc_matrix_analyze(doc, NULL), 0);
	assert_int_equal(bc_matrix_report_plot(path, doc, &err), -ENODATA);
	assert_int_equal(access(path, F_OK), -1);
	json_object_put(doc);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_sizes),
		cmocka_unit_test(test_pair_fill),    cmocka_unit_test(test_healthy),
		cmocka_unit_test(test_slow_host),    cmocka_unit_test(test_mtu),
		cmocka_unit_test(test_faults),	     cmocka_unit_test(test_csv),
		cmocka_unit_test(test_plot),	     cmocka_unit_test(test_probe_failed),
		cmocka_unit_test(test_inconclusive), cmocka_unit_test(test_result_missing),
		cmocka_unit_test(test_slow_stable),  cmocka_unit_test(test_loss),
		cmocka_unit_test(test_over_ceiling), cmocka_unit_test(test_link_direction),
		cmocka_unit_test(test_verdicts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
