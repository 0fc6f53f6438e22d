// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reverse-direction placement (-R/--bidir with --place): the agent's flow
 * templates, its choice of client ports with bc_place_peer_ports(), and the
 * client taking those ports from the agent's "ready" message.
 */
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "bondcheck/xmit-hash.h"
#include "workflow/place.h"

static void bond3(struct bc_bond *b, struct bc_slave *s)
{
	memset(b, 0, sizeof(*b));
	memset(s, 0, 3 * sizeof(*s));
	strcpy(b->name, "bond0");
	bc_u32_set(&b->mode, BC_MODE_8023AD);
	bc_u32_set(&b->xmit_hash_policy, BC_XMIT_LAYER34);
	for (int i = 0; i < 3; i++) {
		strcpy(s[i].name, "eth0");
		s[i].name[3] = (char)('0' + i);
		bc_u32_set(&s[i].mii_status, BC_LINK_UP);
	}
	b->slaves = s;
	b->n_slaves = 3;
}

/* agent 10.0.0.2 -> client 10.0.0.1: a client ready to run @dir with 2 streams */
static void test_init(struct bc_test *t, enum bc_l4 proto, enum bc_dir dir)
{
	struct sockaddr_in *l = (struct sockaddr_in *)&t->local,
			   *p = (struct sockaddr_in *)&t->peer;

	bc_test_init(t, false);
	bc_plan_defaults(&t->plan);
	t->plan.proto = proto;
	t->plan.dir = dir;
	t->plan.streams = 2;
	t->plan.dport = 5302;
	t->plan.place_k = 1;
	l->sin_family = AF_INET;
	l->sin_addr.s_addr = htonl(0x0a000002);
	p->sin_family = AF_INET;
	p->sin_addr.s_addr = htonl(0x0a000001);
}

static void test_reverse_flows(void **state)
{
	struct bc_flow f[4];
	uint32_t ids[4];
	struct bc_test t;

	(void)state;
	/* UDP --bidir -P 2: streams 2 and 3 are reverse, sent from dport + id */
	test_init(&t, BC_L4_UDP, BC_DIR_BIDIR);
	assert_int_equal(bc_place_reverse_flows(&t, f, ids), 2);
	assert_int_equal(ids[0], 2);
	assert_int_equal(ids[1], 3);
	assert_int_equal(f[0].sport, 5304);
	assert_int_equal(f[1].sport, 5305);
	assert_int_equal(f[0].proto, IPPROTO_UDP);
	assert_memory_equal(f[0].src, ((uint8_t[]){10, 0, 0, 2}), 4);
	assert_memory_equal(f[0].dst, ((uint8_t[]){10, 0, 0, 1}), 4);
	/* TCP -R: every stream is reverse and leaves from the listening port */
	test_init(&t, BC_L4_TCP, BC_DIR_REVERSE);
	assert_int_equal(bc_place_reverse_flows(&t, f, ids), 2);
	assert_int_equal(ids[0], 0);
	assert_int_equal(f[0].sport, 5302);
	assert_int_equal(f[1].sport, 5302);
	assert_int_equal(f[1].proto, IPPROTO_TCP);
	/* forward only: nothing for the agent to place */
	test_init(&t, BC_L4_TCP, BC_DIR_FORWARD);
	assert_int_equal(bc_place_reverse_flows(&t, f, ids), 0);
}

static void test_peer_ports(void **state)
{
	struct bc_slave s[3];
	struct bc_bond b;
	struct bc_flow f[6];
	uint32_t ids[6];
	size_t slave_of[6], got;
	struct bc_test t;
	int asym = 0;

	(void)state;
	bond3(&b, s);
	test_init(&t, BC_L4_TCP, BC_DIR_REVERSE);
	t.plan.streams = 6; /* per-slave=2 on 3 slaves */
	assert_int_equal(bc_place_reverse_flows(&t, f, ids), 6);
	assert_int_equal(bc_place_peer_ports(&b, BC_HK_CURRENT, f, 6, BC_PLACE_REVERSE_BASE, 1,
					     slave_of, NULL),
			 0);
	for (int i = 0; i < 6; i++) {
		struct bc_flow probe = f[i];

		/* the agent's own port is untouched, the client port carries the choice */
		assert_int_equal(f[i].sport, 5302);
		assert_true(f[i].dport >= BC_PLACE_REVERSE_BASE);
		assert_int_equal(slave_of[i], (size_t)(i % 3));
		assert_int_equal(bc_xmit_slave(&b, BC_HK_CURRENT, &f[i], &got, NULL), 0);
		assert_int_equal(got, (size_t)(i % 3));
		for (int j = 0; j < i; j++)
			assert_int_not_equal(f[i].dport, f[j].dport);
		/* first fit: every lower port not taken by an earlier stream hashes elsewhere */
		for (uint16_t p = BC_PLACE_REVERSE_BASE; p < f[i].dport; p++) {
			int taken = 0;

			for (int j = 0; j < i; j++)
				taken |= f[j].dport == p;
			if (taken)
				continue;
			probe.dport = p;
			assert_int_equal(bc_xmit_slave(&b, BC_HK_CURRENT, &probe, &got, NULL), 0);
			assert_int_not_equal(got, (size_t)(i % 3));
		}
	}
	/* why a search of its own: swapping the ports moves some flows on 3 slaves */
	for (uint16_t p = BC_PLACE_REVERSE_BASE; p < BC_PLACE_REVERSE_BASE + 64; p++) {
		struct bc_flow a = f[0], r = f[0];
		size_t sa, sr;

		a.dport = p;
		r.sport = p;
		r.dport = 5302;
		bc_xmit_slave(&b, BC_HK_CURRENT, &a, &sa, NULL);
		bc_xmit_slave(&b, BC_HK_CURRENT, &r, &sr, NULL);
		asym += sa != sr;
	}
	assert_true(asym > 0);
	/* single-path policies refuse, as for forward placement */
	bc_u32_set(&b.xmit_hash_policy, BC_XMIT_LAYER23);
	assert_int_equal(
		bc_place_peer_ports(&b, BC_HK_CURRENT, f, 6, BC_PLACE_REVERSE_BASE, 1, NULL, NULL),
		-EDOM);
}

static struct json_object *ready_with(int id, int port)
{
	struct json_object *m = json_object_new_object(), *p = json_object_new_object();
	struct json_object *a = json_object_new_array(), *so = json_object_new_object();

	json_object_object_add(so, "id", json_object_new_int(id));
	json_object_object_add(so, "client_port", json_object_new_int(port));
	json_object_array_add(a, so);
	json_object_object_add(p, "placed", json_object_new_boolean(1));
	json_object_object_add(p, "streams", a);
	json_object_object_add(m, "type", json_object_new_string("ready"));
	json_object_object_add(m, "placement", p);
	return m;
}

static void test_client_takes_ports(void **state)
{
	struct json_object *m, *placement = NULL, *rev, *v;
	uint16_t *ports = NULL;
	struct bc_test t;

	(void)state;
	test_init(&t, BC_L4_UDP, BC_DIR_BIDIR);
	t.client = true;
	m = ready_with(3, 50007);
	assert_int_equal(bc_run_place_reverse(&t, m, &ports, &placement, NULL), 0);
	assert_non_null(ports);
	assert_ptr_equal(t.cports, ports);
	assert_int_equal(ports[3], 50007);
	assert_int_equal(ports[0], 0); /* forward streams keep their own choice */
	assert_true(json_object_object_get_ex(placement, "reverse", &rev));
	assert_true(json_object_object_get_ex(rev, "placed", &v));
	assert_true(json_object_get_boolean(v));
	json_object_put(m);
	/* a port for a forward stream is a protocol error */
	m = ready_with(1, 50008);
	assert_int_equal(bc_run_place_reverse(&t, m, &ports, &placement, NULL), -EPROTO);
	json_object_put(m);
	/* no placement in ready (older agent): nothing changes */
	m = json_object_new_object();
	t.cports = NULL;
	assert_int_equal(bc_run_place_reverse(&t, m, &ports, &placement, NULL), 0);
	assert_null(t.cports);
	json_object_put(m);
	json_object_put(placement);
	free(ports);
}

static void test_plan_member(void **state)
{
	struct bc_plan p, q;
	struct json_object *o;

	(void)state;
	bc_plan_defaults(&p);
	p.dir = BC_DIR_BIDIR;
	p.place_k = 2;
	o = bc_plan_to_json(&p);
	assert_int_equal(bc_plan_from_json(o, NULL, &q, NULL), 0);
	assert_int_equal(q.place_k, 2);
	json_object_object_add(o, "place_per_slave", json_object_new_int(-1));
	assert_int_equal(bc_plan_from_json(o, NULL, &q, NULL), -EINVAL);
	json_object_object_del(o, "place_per_slave");
	assert_int_equal(bc_plan_from_json(o, NULL, &q, NULL), 0);
	assert_int_equal(q.place_k, 0); /* absent (older clients): no placement */
	json_object_put(o);
	p.place_k = 0;
	o = bc_plan_to_json(&p);
	assert_false(json_object_object_get_ex(o, "place_per_slave", NULL));
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_member),
		cmocka_unit_test(test_reverse_flows),
		cmocka_unit_test(test_peer_ports),
		cmocka_unit_test(test_client_takes_ports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
