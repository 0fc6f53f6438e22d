// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck failover`, the parts around the traffic: the agent's bond
 * configuration from its run metadata, the analysis of both ends' pcap
 * files (bondcheck/failover.h), the cut and restore actions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bondcheck/failover-report.h"
#include "bondcheck/json-get.h"
#include "bondcheck/names.h"
#include "workflow/failover-int.h"

extern char **environ;

/* "active-backup 1" -> 1; "100" -> 100; -1 when not a number. */
static long long sysfs_num(struct json_object *o, const char *k)
{
	const char *s = bc_json_str(o, k), *p = strrchr(s, ' ');
	char *end;
	long long v;

	if (!*s)
		return -1;
	v = strtoll(p ? p + 1 : s, &end, 10);
	return *end ? -1 : v;
}

static uint32_t words(const char *s)
{
	uint32_t n = 0;

	for (bool in = false; *s; s++) {
		if (*s != ' ' && !in)
			n++;
		in = *s != ' ';
	}
	return n;
}

void fo_agent_end(struct json_object *res, struct bc_fo_end *e)
{
	struct json_object *agent = json_object_object_get(res, "ends"), *meta;

	agent = agent ? json_object_object_get(agent, "agent") : NULL;
	meta = agent ? json_object_object_get(agent, "metadata") : NULL;
	fo_agent_end_egress(meta ? json_object_object_get(meta, "egress") : NULL, e);
}

int fo_agent_takeover(struct json_object *end, char *why, size_t len)
{
	struct json_object *bs = end ? json_object_object_get(end, "bonds") : NULL;
	struct json_object *b = bc_json_len(bs) ? json_object_array_get_idx(bs, 0) : NULL;
	struct json_object *sl = b ? json_object_object_get(b, "slaves") : NULL;
	bool lacp = b && !strcmp(bc_json_str(b, "mode"), "802.3ad");
	size_t n = bc_json_len(sl), up = 0, o = 0;

	why[0] = 0;
	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(sl, i);
		const char *mii = bc_json_str(x, "mii_status");
		long long st = bc_json_i64(x, "actor_port_state", -1);

		if (strcmp(mii, "up")) {
			if (o < len)
				o += (size_t)snprintf(why + o, len - o, "%s%s is %s", o ? "; " : "",
						      bc_json_str(x, "name"),
						      *mii ? mii : "unknown");
			continue;
		}
		if (lacp && st >= 0 && (st & 0x30) != 0x30) {
			if (o < len)
				o += (size_t)snprintf(why + o, len - o,
						      "%s%s is not collecting and distributing",
						      o ? "; " : "", bc_json_str(x, "name"));
			continue;
		}
		up++;
	}
	if (up >= 2)
		return 1;
	if (o < len)
		snprintf(why + o, len - o, "%s%zu of %zu slaves could carry traffic", o ? "; " : "",
			 up, n);
	return 0;
}

void fo_agent_end_egress(struct json_object *eg, struct bc_fo_end *e)
{
	struct json_object *b, *o;
	long long v;

	memset(e, 0, sizeof(*e));
	if (!eg)
		return; /* an agent that does not report its egress: unknown */
	e->known = true;
	b = json_object_object_get(eg, "bond");
	o = b ? json_object_object_get(b, "options") : NULL;
	if (!o)
		return; /* not a bond: a bridge or a plain interface */
	e->is_bond = true;
	e->mode = (int)sysfs_num(o, "mode");
	e->miimon_ms = (uint32_t)((v = sysfs_num(o, "miimon")) > 0 ? v : 0);
	e->updelay_ms = (uint32_t)((v = sysfs_num(o, "updelay")) > 0 ? v : 0);
	e->downdelay_ms = (uint32_t)((v = sysfs_num(o, "downdelay")) > 0 ? v : 0);
	e->arp_interval_ms = (uint32_t)((v = sysfs_num(o, "arp_interval")) > 0 ? v : 0);
	e->arp_missed_max = (uint32_t)((v = sysfs_num(o, "arp_missed_max")) > 0 ? v : 0);
	e->n_arp_targets = words(bc_json_str(o, "arp_ip_target"));
	/* sysfs has no ns_ip6_target file (kernel-interfaces.md 3.1): not counted */
	e->lacp_rate = (int)sysfs_num(o, "lacp_rate");
}

struct json_object *fo_end_json(const struct bc_fo_end *e)
{
	struct json_object *o;

	if (!e->known)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "bond", json_object_new_boolean(e->is_bond));
	if (!e->is_bond)
		return o;
	json_object_object_add(o, "mode", json_object_new_string(bc_mode_name(e->mode)));
	json_object_object_add(o, "miimon", json_object_new_int64(e->miimon_ms));
	json_object_object_add(o, "updelay", json_object_new_int64(e->updelay_ms));
	json_object_object_add(o, "downdelay", json_object_new_int64(e->downdelay_ms));
	json_object_object_add(o, "arp_interval", json_object_new_int64(e->arp_interval_ms));
	json_object_object_add(o, "arp_missed_max",
			       e->arp_missed_max ? json_object_new_int64(e->arp_missed_max) : NULL);
	json_object_object_add(o, "arp_ip_targets", json_object_new_int64(e->n_arp_targets));
	json_object_object_add(
		o, "lacp_rate",
		e->lacp_rate < 0 ? NULL : json_object_new_string(e->lacp_rate ? "fast" : "slow"));
	return o;
}

static void addr_bytes(const struct sockaddr_storage *ss, uint8_t *out)
{
	memset(out, 0, 16);
	if (ss->ss_family == AF_INET6)
		memcpy(out, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
	else
		memcpy(out, &((const struct sockaddr_in *)ss)->sin_addr, 4);
}

/* Add every capture file of @host ("client"/"agent") listed in @cap to @f. */
static int add_files(struct bc_failover *f, enum bc_fo_host host, struct json_object *cap,
		     const char *dir, struct json_object *notes, struct bc_error *err)
{
	struct json_object *ifs = cap ? json_object_object_get(cap, "interfaces") : NULL;
	const char *h = host == BC_FO_CLIENT ? "client" : "agent";

	for (size_t i = 0; i < bc_json_len(ifs); i++) {
		const char *name = bc_json_str(json_object_array_get_idx(ifs, i), "name");
		struct bc_error e = {0};
		char path[4200], buf[600];
		int link = bc_failover_add_link(f, host, name, &e);

		if (link < 0) {
			snprintf(buf, sizeof(buf), "capture %s/%s not analysed: %s", h, name,
				 e.msg);
			json_object_array_add(notes, json_object_new_string(buf));
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s-%s.pcap", dir, h, name);
		if (bc_failover_read_pcap(f, link, path, &e) < 0) {
			if (e.code == -ENOMEM)
				return bc_error_set(err, -ENOMEM, "%s", e.msg);
			snprintf(buf, sizeof(buf), "capture %s/%s: %s", h, name, e.msg);
			json_object_array_add(notes, json_object_new_string(buf));
		}
	}
	return 0;
}

int fo_analyze(const struct fo_setup *s, struct json_object *res, const char *dir,
	       struct json_object **out, struct bc_error *err)
{
	struct json_object *cap = json_object_object_get(res, "capture"), *notes, *a;
	struct bc_failover f;
	struct bc_fo_cfg cfg;
	struct bc_fo_end agent;
	int r;

	bc_fo_cfg_default(&cfg);
	cfg.version = s->local.ss_family == AF_INET6 ? 6 : 4;
	addr_bytes(&s->local, cfg.client_addr);
	addr_bytes(&s->peer, cfg.agent_addr);
	cfg.test_id = (uint32_t)bc_json_i64(json_object_object_get(res, "test"), "test_id", 0);
	cfg.cut_ns = s->cut_ns;
	cfg.restore_ns = s->restore_ns;
	cfg.cut_done_ns = s->cut_ns + s->cut_took_ns;
	cfg.host_stall_ns = s->max_stall_ns > 0 ? (uint64_t)s->max_stall_ns : 0;
	cfg.restore_done_ns = s->restore_ns + s->restore_took_ns;
	cfg.cut = s->cut;
	snprintf(cfg.bond, sizeof(cfg.bond), "%s", s->bond);
	snprintf(cfg.cut_slave, sizeof(cfg.cut_slave), "%s", s->slave);
	fo_agent_end(res, &agent);
	if (!agent.known)
		agent = s->agent_end; /* asked before the test */
	for (int h = 0; h < 2; h++) {
		cfg.no_takeover[h] = s->no_takeover[h];
		cfg.takeover_known[h] = s->takeover_known[h];
		snprintf(cfg.takeover_why[h], sizeof(cfg.takeover_why[h]), "%s",
			 s->takeover_why[h]);
	}
	cfg.rx_on_tx_slave_only[BC_FO_CLIENT] = s->client_end.mode == BC_MODE_ACTIVEBACKUP;
	cfg.rx_on_tx_slave_only[BC_FO_AGENT] =
		agent.known ? agent.is_bond && agent.mode == BC_MODE_ACTIVEBACKUP
			    : s->client_end.mode == BC_MODE_ACTIVEBACKUP;
	cfg.have_expect = bc_failover_expect(&s->client_end, &agent, s->cut, &cfg.expect) == 0;
	/* --tcp: the TCP stream's ports and its sender's smoothed RTT (TCP_INFO at the end) */
	for (size_t i = 0; i < bc_json_len(json_object_object_get(res, "streams")); i++) {
		struct json_object *st =
			json_object_array_get_idx(json_object_object_get(res, "streams"), i);
		struct json_object *ti =
			json_object_object_get(json_object_object_get(st, "sender"), "tcp_info");

		if (strcmp(bc_json_str(st, "protocol"), "tcp"))
			continue;
		cfg.tcp_dport = (uint16_t)bc_json_i64(st, "agent_port", 0);
		cfg.tcp_sport = (uint16_t)bc_json_i64(st, "client_port", 0);
		cfg.tcp_srtt_ns = (uint64_t)bc_json_i64(ti, "rtt_us", 0) * 1000;
		cfg.tcp_rto_ns = (uint64_t)bc_json_i64(ti, "rto_us", 0) * 1000;
		if (ti)
			cfg.tcp_sender_retrans = bc_json_i64(ti, "total_retrans", -1);
		break;
	}
	r = bc_failover_init(&f, &cfg, err);
	if (r < 0)
		return r;
	notes = json_object_new_array();
	if (s->agent_note[0])
		json_object_array_add(notes, json_object_new_string(s->agent_note));
	r = add_files(&f, BC_FO_CLIENT, cap ? json_object_object_get(cap, "client") : NULL, dir,
		      notes, err);
	if (r == 0)
		r = add_files(&f, BC_FO_AGENT, cap ? json_object_object_get(cap, "agent") : NULL,
			      dir, notes, err);
	if (r == 0)
		r = bc_failover_finish(&f, err);
	if (r < 0) {
		json_object_put(notes);
		bc_failover_free(&f);
		return r;
	}
	*out = bc_failover_json(&f);
	bc_failover_free(&f);
	if (!*out) {
		json_object_put(notes);
		return bc_error_set(err, -ENOMEM, "out of memory for the failover report");
	}
	a = json_object_object_get(*out, "notes");
	for (size_t i = 0; i < bc_json_len(notes); i++)
		json_object_array_add(a, json_object_get(json_object_array_get_idx(notes, i)));
	json_object_put(notes);
	a = json_object_new_object();
	json_object_object_add(a, "client", fo_end_json(&s->client_end));
	json_object_object_add(a, "agent", fo_end_json(&agent));
	json_object_object_add(*out, "ends", a);
	return 0;
}

int fo_spawn_cmd(const char *what, const char *cmd, pid_t *pid, struct bc_error *err)
{
	char *argv[] = {"sh", "-c", (char *)cmd, NULL};
	posix_spawn_file_actions_t fa;
	int r;

	/* the command's output goes to stderr: stdout may carry the JSON document */
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
	r = posix_spawn(pid, "/bin/sh", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r)
		return bc_error_set(err, -r, "%s: cannot run /bin/sh: %s", what, strerror(r));
	return 0;
}

int fo_cmd_poll(const char *what, const char *cmd, pid_t pid, bool wait, struct bc_error *err)
{
	int st = 0;
	pid_t r;

	while ((r = waitpid(pid, &st, wait ? 0 : WNOHANG)) < 0)
		if (errno != EINTR)
			return bc_error_set(err, -errno, "%s: waitpid: %s", what, strerror(errno));
	if (r == 0)
		return 0;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return bc_error_set(err, -EIO, "%s '%s' failed (exit status %d)", what, cmd,
				    WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return 1;
}

int fo_run_cmd(const char *what, const char *cmd, struct bc_error *err)
{
	pid_t pid;
	int r = fo_spawn_cmd(what, cmd, &pid, err);

	return r < 0 ? r : fo_cmd_poll(what, cmd, pid, true, err) < 0 ? -EIO : 0;
}
