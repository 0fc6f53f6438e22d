// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `run --place`: predict each forward stream's transmit slave with the
 * bond's hash (bondcheck/xmit-hash.h) and pick client source ports that put
 * K streams on every usable slave.  The bond (mode, policy, enslave order,
 * slave and 802.3ad state) comes from the live collector.  For -R/--bidir
 * the agent does the same on its own bond for the reverse streams: its
 * source port is fixed (TCP listening port, UDP dport + i), so it chooses
 * the client ports it asks the client to bind (bc_agent_place).
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "bondcheck/names.h"
#include "bondcheck/xmit-hash.h"
#include "traffic/bond-meta.h"
#include "traffic/egress.h"
#include "workflow/place.h"

static void addr_bytes(const struct sockaddr_storage *ss, uint8_t out[16])
{
	memset(out, 0, 16);
	if (ss->ss_family == AF_INET)
		memcpy(out, &((const struct sockaddr_in *)ss)->sin_addr, 4);
	else
		memcpy(out, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
}

void bc_place_single_path_finding(struct json_object *findings, const struct bc_bond *b,
				  uint32_t streams)
{
	struct json_object *f = json_object_new_object(), *ev = json_object_new_object();

	json_object_object_add(f, "id", json_object_new_string("hash-single-path"));
	json_object_object_add(f, "severity", json_object_new_string("warning"));
	json_object_object_add(f, "subject", json_object_new_string(b->name));
	json_object_object_add(ev, "mode",
			       json_object_new_string(bc_mode_name((int)b->mode.v)
							      ? bc_mode_name((int)b->mode.v)
							      : "?"));
	json_object_object_add(ev, "xmit_hash_policy",
			       json_object_new_string(b->xmit_hash_policy_name));
	json_object_object_add(ev, "streams", json_object_new_int64(streams));
	json_object_object_add(f, "evidence", ev);
	json_object_object_add(
		f, "advice",
		json_object_new_string(
			"between two hosts every flow shares one MAC/IP pair, so one "
			"link carries all of them; use xmit_hash_policy layer3+4 to "
			"spread flows by port"));
	json_object_array_add(findings, f);
}

/* Indices into b->slaves of the slaves named in @onto; -EINVAL naming an unknown one. */
static int onto_indices(const struct bc_bond *b, const char *const *onto, size_t n_onto,
			size_t *idx, struct bc_error *err)
{
	for (size_t i = 0; i < n_onto; i++) {
		size_t j;

		for (j = 0; j < b->n_slaves && strcmp(b->slaves[j].name, onto[i]); j++)
			;
		if (j == b->n_slaves)
			return bc_error_set(err, -EINVAL,
					    "cannot place flows onto %s: it is not a slave of %s",
					    onto[i], b->name);
		idx[i] = j;
	}
	return 0;
}

int bc_run_place(struct bc_test *t, uint32_t k, bool streams_given, const char *const *onto,
		 size_t n_onto, uint16_t port_base, uint16_t port_stride, uint16_t **ports,
		 struct json_object *findings, struct json_object **placement, struct bc_error *err)
{
	struct bc_snapshot snap = {0};
	struct bc_egress e;
	struct bc_bond *b;
	struct bc_flow *flows = NULL;
	size_t usable[64], n, *slave_of = NULL, onto_idx[64] = {0};
	enum bc_hash_kernel kc;
	struct utsname u;
	uint32_t hdr, want;
	int r;

	*placement = NULL;
	bc_sockaddr_unmap(&t->local);
	if (n_onto > 64)
		return bc_error_set(err, -EINVAL, "cannot place onto %zu slaves; at most 64",
				    n_onto);
	if (bc_egress_find(&t->local, &e) < 0 || !e.is_bond) {
		if (!k && !n_onto)
			return 0;
		return bc_error_set(err, -ENOTSUP,
				    "--place needs the route to the agent to leave by a bond; it "
				    "leaves by %s",
				    e.dev.name[0] ? e.dev.name : "an unknown interface");
	}
	r = bc_bond_collect(e.dev.name, &snap, err);
	if (r < 0)
		goto out;
	b = &snap.bonds[0];
	if (bc_xmit_single_path(b))
		bc_place_single_path_finding(findings, b, t->plan.streams);
	if (!k && !n_onto)
		goto out;
	n = bc_xmit_usable(b, usable, 64);
	if (!n) {
		r = bc_error_set(err, -ENOTSUP, "--place: bond %s has no usable slave", b->name);
		goto out;
	}
	if (n_onto) {
		r = onto_indices(b, onto, n_onto, onto_idx, err);
		if (r < 0)
			goto out;
		if (bc_xmit_single_path(b)) {
			r = bc_error_set(err, -ENOTSUP,
					 "%s hashes with %s: every flow between two hosts uses one "
					 "link, so flows cannot be placed onto chosen slaves",
					 b->name, b->xmit_hash_policy_name);
			goto out;
		}
		want = t->plan.streams;
	} else {
		want = (uint32_t)(k * n);
	}
	if (!n_onto && streams_given && t->plan.streams != want) {
		r = bc_error_set(
			err, -EINVAL,
			"-P %u conflicts with --place per-slave=%u on %zu usable slaves of %s "
			"(%u streams); drop -P",
			t->plan.streams, k, n, b->name, want);
		goto out;
	}
	t->plan.streams = want;
	if (t->plan.dir != BC_DIR_FORWARD)
		t->plan.place_k = k; /* the agent places the reverse streams on its bond */
	if (bc_xmit_single_path(b))
		goto out; /* the finding says why ports cannot place flows */
	hdr = (t->plan.family == 6 ? 40 : 20) + (t->plan.proto == BC_L4_UDP ? 8 : 0);
	if (t->plan.proto == BC_L4_UDP && t->plan.length + hdr > e.dev.mtu) {
		r = bc_error_set(
			err, -EINVAL,
			"--place refuses --length %u: it fragments at MTU %u, and fragments "
			"hash with ports 0; use --length %u or less",
			t->plan.length, e.dev.mtu, e.dev.mtu - hdr);
		goto out;
	}
	uname(&u);
	r = bc_hash_kernel_from_release(u.release, &kc, err);
	if (r < 0)
		goto out;
	flows = calloc(bc_plan_total_streams(&t->plan), sizeof(*flows));
	slave_of = calloc(bc_plan_total_streams(&t->plan), sizeof(*slave_of));
	*ports = calloc(bc_plan_total_streams(&t->plan), sizeof(**ports));
	if (!flows || !slave_of || !*ports) {
		r = bc_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < want; i++) {
		flows[i].family = t->plan.family == 6 ? AF_INET6 : AF_INET;
		addr_bytes(&t->local, flows[i].src);
		addr_bytes(&t->peer, flows[i].dst);
		flows[i].dport = (uint16_t)(t->plan.dport + (t->plan.proto == BC_L4_UDP ? i : 0));
		flows[i].proto = t->plan.proto == BC_L4_UDP ? IPPROTO_UDP : IPPROTO_TCP;
		flows[i].connected = true;
	}
	if (n_onto)
		r = bc_place_ports_onto(b, kc, flows, want, onto_idx, n_onto,
					port_base ? port_base : 40000,
					port_stride ? port_stride : 1, slave_of, err);
	else
		r = bc_place_ports(b, kc, flows, want, port_base ? port_base : 40000,
				   port_stride ? port_stride : 1, slave_of, err);
	if (r < 0)
		goto out;
	*placement = json_object_new_object();
	json_object_object_add(*placement, "bond", json_object_new_string(b->name));
	json_object_object_add(*placement, "xmit_hash_policy",
			       json_object_new_string(b->xmit_hash_policy_name));
	json_object_object_add(*placement, "kernel_release", json_object_new_string(u.release));
	if (n_onto) {
		struct json_object *a = json_object_new_array();

		for (size_t i = 0; i < n_onto; i++)
			json_object_array_add(a,
					      json_object_new_string(b->slaves[onto_idx[i]].name));
		json_object_object_add(*placement, "onto", a);
	}
	json_object_object_add(
		*placement, "observed",
		json_object_new_string("not measured: capture comes with the capture issue"));
	{
		struct json_object *a = json_object_new_array();

		for (uint32_t i = 0; i < want; i++) {
			struct json_object *o = json_object_new_object();

			(*ports)[i] = flows[i].sport;
			json_object_object_add(o, "id", json_object_new_int64(i));
			json_object_object_add(o, "client_port",
					       json_object_new_int(flows[i].sport));
			json_object_object_add(o, "predicted_slave",
					       json_object_new_string(b->slaves[slave_of[i]].name));
			json_object_array_add(a, o);
		}
		json_object_object_add(*placement, "streams", a);
	}
	t->cports = *ports;
out:
	free(flows);
	free(slave_of);
	bc_snapshot_free(&snap);
	return r;
}

/* The reverse direction was not placed: say why in the placement object. */
static struct json_object *unplaced(struct json_object *o, const char *why)
{
	json_object_object_add(o, "placed", json_object_new_boolean(0));
	json_object_object_add(o, "reason", json_object_new_string(why));
	return o;
}

int bc_place_reverse_flows(const struct bc_test *t, struct bc_flow *flows, uint32_t *ids)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < bc_plan_total_streams(&t->plan); i++) {
		struct bc_flow *f = &flows[n];

		if (!bc_plan_stream_reverse(&t->plan, i))
			continue;
		memset(f, 0, sizeof(*f));
		f->family = t->plan.family == 6 ? AF_INET6 : AF_INET;
		addr_bytes(&t->local, f->src);
		addr_bytes(&t->peer, f->dst);
		f->sport = (uint16_t)(t->plan.dport + (t->plan.proto == BC_L4_UDP ? i : 0));
		f->proto = t->plan.proto == BC_L4_UDP ? IPPROTO_UDP : IPPROTO_TCP;
		f->connected = true; /* accepted TCP; UDP connects to the hello's source */
		ids[n++] = i;
	}
	return (int)n;
}

struct json_object *bc_agent_place(struct bc_test *t)
{
	struct json_object *o, *a;
	struct bc_snapshot snap = {0};
	struct bc_error err = {0};
	struct bc_flow *flows = NULL;
	size_t *slave_of = NULL;
	uint32_t *ids = NULL, hdr;
	enum bc_hash_kernel kc;
	struct bc_egress e;
	struct utsname u;
	struct bc_bond *b;
	int n, r;

	if (!t->plan.place_k || t->plan.dir == BC_DIR_FORWARD)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "direction", json_object_new_string("agent-to-client"));
	if (bc_egress_find(&t->local, &e) < 0 || !e.is_bond)
		return unplaced(o, "the agent's route to the client does not leave by a bond");
	if (bc_bond_collect(e.dev.name, &snap, &err) < 0) {
		unplaced(o, err.msg);
		goto out;
	}
	b = &snap.bonds[0];
	json_object_object_add(o, "bond", json_object_new_string(b->name));
	json_object_object_add(o, "xmit_hash_policy",
			       json_object_new_string(b->xmit_hash_policy_name));
	if (bc_xmit_single_path(b)) {
		unplaced(o, "hash-single-path: the agent's bond puts every flow to the client "
			    "on one link");
		goto out;
	}
	hdr = (t->plan.family == 6 ? 40 : 20) + (t->plan.proto == BC_L4_UDP ? 8 : 0);
	if (t->plan.proto == BC_L4_UDP && t->plan.length + hdr > e.dev.mtu) {
		unplaced(o, "the datagrams fragment at the agent's MTU; fragments hash with "
			    "ports 0");
		goto out;
	}
	uname(&u);
	json_object_object_add(o, "kernel_release", json_object_new_string(u.release));
	if (bc_hash_kernel_from_release(u.release, &kc, &err) < 0) {
		unplaced(o, err.msg);
		goto out;
	}
	flows = calloc(bc_plan_total_streams(&t->plan), sizeof(*flows));
	slave_of = calloc(bc_plan_total_streams(&t->plan), sizeof(*slave_of));
	ids = calloc(bc_plan_total_streams(&t->plan), sizeof(*ids));
	if (!flows || !slave_of || !ids) {
		unplaced(o, "out of memory");
		goto out;
	}
	n = bc_place_reverse_flows(t, flows, ids);
	/* above the client's forward ports (40000 + i): both sets are bound on the client */
	r = bc_place_peer_ports(b, kc, flows, (size_t)n, BC_PLACE_REVERSE_BASE, 1, slave_of, &err);
	if (r < 0) {
		unplaced(o, err.msg);
		goto out;
	}
	json_object_object_add(o, "placed", json_object_new_boolean(1));
	a = json_object_new_array();
	for (int i = 0; i < n; i++) {
		struct json_object *so = json_object_new_object();

		json_object_object_add(so, "id", json_object_new_int64(ids[i]));
		json_object_object_add(so, "client_port", json_object_new_int(flows[i].dport));
		json_object_object_add(so, "agent_port", json_object_new_int(flows[i].sport));
		json_object_object_add(so, "predicted_slave",
				       json_object_new_string(b->slaves[slave_of[i]].name));
		json_object_array_add(a, so);
	}
	json_object_object_add(o, "streams", a);
out:
	free(flows);
	free(slave_of);
	free(ids);
	bc_snapshot_free(&snap);
	return o;
}

int bc_run_place_reverse(struct bc_test *t, struct json_object *ready, uint16_t **ports,
			 struct json_object **placement, struct bc_error *err)
{
	struct json_object *rp, *a, *so, *v;
	uint32_t total = bc_plan_total_streams(&t->plan);

	if (!json_object_object_get_ex(ready, "placement", &rp) ||
	    !json_object_is_type(rp, json_type_object))
		return 0;
	if (!*placement)
		*placement = json_object_new_object();
	json_object_object_add(*placement, "reverse", json_object_get(rp));
	if (!json_object_object_get_ex(rp, "streams", &a) ||
	    !json_object_is_type(a, json_type_array))
		return 0;
	if (!*ports) {
		*ports = calloc(total, sizeof(**ports));
		if (!*ports)
			return bc_error_set(err, -ENOMEM, "out of memory");
	}
	for (size_t k = 0; k < json_object_array_length(a); k++) {
		int64_t id, port;

		so = json_object_array_get_idx(a, k);
		if (!json_object_object_get_ex(so, "id", &v))
			continue;
		id = json_object_get_int64(v);
		if (!json_object_object_get_ex(so, "client_port", &v))
			continue;
		port = json_object_get_int64(v);
		if (id < 0 || id >= total || !bc_plan_stream_reverse(&t->plan, (uint32_t)id) ||
		    port < 1 || port > 65535)
			return bc_error_set(err, -EPROTO,
					    "agent placement: stream %lld client port %lld is not "
					    "a reverse stream's port",
					    (long long)id, (long long)port);
		(*ports)[id] = (uint16_t)port;
	}
	t->cports = *ports;
	return 0;
}
