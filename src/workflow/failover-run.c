// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck failover`: the sequence of bondcheck/failover-run.h.  The
 * traffic is the engine's --bidir UDP test with capture (workflow/client.c);
 * the cut and the restore happen in its on_tick hook, so they are timed
 * against running streams.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bondcheck/bond-change.h"
#include "bondcheck/client.h"
#include "bondcheck/journal.h"
#include "bondcheck/json-get.h"
#include "bondcheck/names.h"
#include "bondcheck/plot.h"
#include "traffic/bond-meta.h"
#include "traffic/egress.h"
#include "traffic/stream.h"
#include "traffic/test-end.h"
#include "workflow/failover-int.h"

#define MS	1000000ll
#define TICK_MS 5 /* the engine calls on_tick at least this often */

void bc_failover_run_defaults(struct bc_failover_run_cfg *c)
{
	memset(c, 0, sizeof(*c));
	bc_client_cfg_defaults(&c->client);
	c->rate_pps = 2000;
	c->length = 256;
	c->tcp_rate_bps = 8000000;
	c->pre_ms = 1000;
	c->cut = BC_FO_CUT_CARRIER;
}

static void progress(const struct fo_setup *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void progress(const struct fo_setup *s, const char *fmt, ...)
{
	char buf[200];
	va_list ap;

	if (!s->c->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s->c->progress(s->c->ctx, buf);
}

/*
 * The bonds of this namespace and their slaves, from sysfs
 * (/sys/class/net/bonding_masters, /sys/class/net/<bond>/bonding/slaves),
 * into @buf: "bonds here: bond0 (eth0, eth1), bond1 (eth2)", or "no bonds
 * here" (also when the bonding driver is not loaded).
 */
static void bonds_here(char *buf, size_t len)
{
	char masters[512] = "", path[128], slaves[256];
	size_t used = 0;
	FILE *f = fopen("/sys/class/net/bonding_masters", "re");
	char *save = NULL;

	snprintf(buf, len, "no bonds here");
	if (!f)
		return;
	if (!fgets(masters, sizeof(masters), f))
		masters[0] = '\0';
	fclose(f);
	for (char *b = strtok_r(masters, " \n", &save); b && used < len;
	     b = strtok_r(NULL, " \n", &save)) {
		char *nl;

		if (!bc_ifname_valid(b))
			continue;
		slaves[0] = '\0';
		snprintf(path, sizeof(path), "/sys/class/net/%s/bonding/slaves", b);
		f = fopen(path, "re");
		if (f) {
			if (!fgets(slaves, sizeof(slaves), f))
				slaves[0] = '\0';
			fclose(f);
		}
		nl = strchr(slaves, '\n');
		if (nl)
			*nl = '\0';
		for (char *p = slaves; *p; p++)
			if (*p == ' ')
				*p = ',';
		used += (size_t)snprintf(buf + used, len - used, "%s%s (%s)",
					 used ? ", " : "bonds here: ", b,
					 slaves[0] ? slaves : "no slaves");
	}
}

/* The bond @slave belongs to (its sysfs master link), and the bond's configuration. */
static int find_bond(struct fo_setup *s, struct bc_error *err)
{
	char path[128], target[PATH_MAX], here[256];
	struct bc_snapshot snap = {0};
	const struct bc_bond *b;
	const struct bc_slave *sl = NULL;
	ssize_t n;
	int r;

	snprintf(path, sizeof(path), "/sys/class/net/%s", s->slave);
	if (access(path, F_OK)) {
		bonds_here(here, sizeof(here));
		return bc_error_set(err, -ENODEV, "--slave %s: no such interface; %s", s->slave,
				    here);
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/master", s->slave);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0) {
		bonds_here(here, sizeof(here));
		return bc_error_set(err, -ENODEV, "--slave %s is not enslaved to a bond; %s",
				    s->slave, here);
	}
	target[n] = 0;
	snprintf(s->bond, sizeof(s->bond), "%s",
		 strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
	r = bc_bond_collect(s->bond, &snap, err);
	if (r < 0) {
		bc_snapshot_free(&snap);
		return bc_error_set(err, -ENODEV, "--slave %s: its master %s is not a bond",
				    s->slave, s->bond);
	}
	b = &snap.bonds[0];
	for (size_t i = 0; i < b->n_slaves; i++)
		if (!strcmp(b->slaves[i].name, s->slave))
			sl = &b->slaves[i];
	if (!sl || sl->mii_status.st != BC_KNOWN || sl->mii_status.v != BC_LINK_UP) {
		r = bc_error_set(err, -ENODEV,
				 "--slave %s of %s is %s; failover needs it up to take it down",
				 s->slave, s->bond, sl ? "not MII up" : "not listed by the bond");
		bc_snapshot_free(&snap);
		return r;
	}
	bc_fo_end_from_bond(b, &s->client_end);
	/* redundancy before the cut: can another slave take over? */
	s->takeover_known[BC_FO_CLIENT] = true;
	s->no_takeover[BC_FO_CLIENT] = bc_fo_takeover(b, s->slave, s->takeover_why[BC_FO_CLIENT],
						      sizeof(s->takeover_why[BC_FO_CLIENT])) == 0;
	s->bond_mode = s->client_end.mode;
	s->xmit_hash_policy = b->xmit_hash_policy.st == BC_KNOWN ? (int)b->xmit_hash_policy.v : -1;
	bc_snapshot_free(&snap);
	return 0;
}

/* The local address of the route to the agent must be on @s->bond. */
static int route_check(struct fo_setup *s, struct bc_error *err)
{
	const struct bc_client_cfg *c = &s->c->client;
	struct addrinfo hints = {.ai_socktype = SOCK_DGRAM}, *res;
	struct bc_egress e;
	char port[8];
	socklen_t l = sizeof(s->local);
	int fd, r;

	hints.ai_family = c->family == 6 ? AF_INET6 : c->family == 4 ? AF_INET : AF_UNSPEC;
	snprintf(port, sizeof(port), "%u", c->port);
	r = getaddrinfo(c->peer, port, &hints, &res);
	if (r)
		return bc_error_set(err, -ENOENT, "cannot resolve the agent '%s': %s", c->peer,
				    gai_strerror(r));
	memcpy(&s->peer, res->ai_addr, res->ai_addrlen);
	fd = socket(res->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	r = fd < 0 || connect(fd, res->ai_addr, res->ai_addrlen) < 0 ||
	    getsockname(fd, (struct sockaddr *)&s->local, &l) < 0;
	if (fd >= 0)
		close(fd);
	freeaddrinfo(res);
	if (r)
		return bc_error_set(err, -EHOSTUNREACH, "no route to the agent %s", c->peer);
	bc_sockaddr_unmap(&s->local);
	bc_sockaddr_unmap(&s->peer);
	if (bc_egress_find(&s->local, &e) < 0 || strcmp(e.dev.name, s->bond))
		return bc_error_set(err, -EINVAL,
				    "the route to %s leaves by %s, not by %s (the bond of --slave "
				    "%s); give a slave of the bond that carries the test",
				    c->peer,
				    bc_egress_find(&s->local, &e) < 0 ? "no interface" : e.dev.name,
				    s->bond, s->slave);
	return 0;
}

/*
 * The cut and the restore.  Carrier: admin down/up over rtnetlink (a few
 * ms).  Silent: the user's command, started without waiting (a command can
 * take seconds on a loaded host, and the control loop must go on); each
 * tick checks whether it finished.  The hold counts from the moment the
 * cut is in place, the settle from the moment the slave is back, and the
 * streams are kept running until then (on_tick's positive return).
 */
static const char *cut_what(bool restore)
{
	return restore ? "--restore-cmd" : "--cut-cmd";
}

static int start_action(struct fo_setup *s, bool restore, struct bc_error *err)
{
	int r;

	if (restore) {
		progress(s, "bringing %s back", s->slave);
		s->restore_ns = bc_real_ns();
		s->restoring = true;
	} else {
		progress(s, "cutting %s (%s)", s->slave,
			 s->cut == BC_FO_CUT_SILENT ? "silent" : "admin down");
		s->cut_ns = bc_real_ns();
		s->cut_done = true; /* even a failed cut may have half happened: undo it */
	}
	if (s->cut == BC_FO_CUT_SILENT)
		return fo_spawn_cmd(cut_what(restore), restore ? s->c->restore_cmd : s->c->cut_cmd,
				    &s->pid, err);
	r = bc_link_set_up(s->slave, restore, err);
	if (r == 0)
		s->pid = -1; /* done at once */
	return r;
}

/* 1 when the action in progress has finished, 0 while it runs. */
static int action_done(struct fo_setup *s, bool restore, bool wait, struct bc_error *err)
{
	int r = 1;

	if (s->pid > 0)
		r = fo_cmd_poll(cut_what(restore), restore ? s->c->restore_cmd : s->c->cut_cmd,
				s->pid, wait, err);
	if (r == 0)
		return 0;
	s->pid = 0;
	if (restore) {
		s->restore_took_ns = bc_real_ns() - s->restore_ns;
		s->restored_mono = bc_mono_ns();
		s->restored = r > 0;
	} else {
		s->cut_took_ns = bc_real_ns() - s->cut_ns;
		s->cut_in_place_mono = bc_mono_ns();
		s->cut_in_place = r > 0;
	}
	return r;
}

static int tick(struct fo_setup *s, int64_t elapsed, struct bc_error *err);

/* on_tick: the cut and restore steps, and how long the loop went without a tick */
static int on_tick(void *ctx, int64_t elapsed, struct bc_error *err)
{
	struct fo_setup *s = ctx;
	int64_t now = bc_mono_ns();
	int r;

	if (s->last_tick_mono && now - s->last_tick_mono - TICK_MS * MS > s->max_stall_ns)
		s->max_stall_ns = now - s->last_tick_mono - TICK_MS * MS;
	r = tick(s, elapsed, err);
	s->last_tick_mono = bc_mono_ns(); /* an action's own time is not a stall */
	return r;
}

static int tick(struct fo_setup *s, int64_t elapsed, struct bc_error *err)
{
	int64_t now = bc_mono_ns();
	int r;

	if (s->c->interrupted && *s->c->interrupted)
		return bc_error_set(err, -EINTR, "interrupted");
	if (!s->cut_done) {
		if (elapsed < s->cut_at_ns)
			return 0;
		r = start_action(s, false, err);
		if (r < 0)
			return r;
	}
	if (!s->cut_in_place) {
		r = action_done(s, false, false, err);
		if (r <= 0)
			return r;
	}
	if (!s->restoring) {
		if (now < s->cut_in_place_mono + s->hold_ns)
			return 0;
		r = start_action(s, true, err);
		if (r < 0)
			return r;
	}
	if (!s->restored) {
		r = action_done(s, true, false, err);
		if (r <= 0)
			return r;
	}
	/* the settle counts from the slave back: end the streams then (1: at once) */
	return now < s->restored_mono + s->settle_ns
		       ? (int)((s->restored_mono + s->settle_ns - now) / MS) + 1
		       : 1;
}

/* The journal before the first change (bondcheck/journal.h): `bondcheck restore` after a crash. */
static int journal(struct fo_setup *s, struct bc_error *err)
{
	int r = bc_journal_capture(s->bond, &s->journal, err);

	if (r == 0)
		r = bc_journal_default_path(s->bond, s->journal_path, sizeof(s->journal_path), err);
	if (r == 0)
		r = bc_journal_save(s->journal, s->journal_path, err);
	if (r < 0) {
		bc_journal_free(s->journal);
		s->journal = NULL;
	}
	return r;
}

/*
 * Put the bond back whatever happened: finish or undo the cut (a command
 * still running finishes first, so it cannot undo the restore; a silent
 * cut's --restore-cmd is not in the journal), then bc_journal_restore()
 * (the slave's admin state and everything else the journal promises, then
 * wait until the bond is stable) and remove the journal.  *@report: {ok,
 * text, journal, commands[], report (the journal restore's)}.
 */
static int final_restore(struct fo_setup *s, struct json_object **report, struct bc_error *err)
{
	struct json_object *o = json_object_new_object(), *acts = json_object_new_array(),
			   *rep = NULL;
	struct bc_error e = {0};
	char text[700];
	int r = 0;

	if (s->cut_done && !s->cut_in_place && s->pid > 0)
		action_done(s, false, true, &e);
	if (s->restoring && !s->restored && s->pid > 0 && action_done(s, true, true, &e) <= 0)
		s->restoring = false; /* it failed: try once more below */
	bc_error_clear(&e);
	if (s->cut_done && !s->restored && s->cut == BC_FO_CUT_SILENT) {
		r = start_action(s, true, &e);
		if (r == 0)
			r = action_done(s, true, true, &e) > 0 ? 0 : -EIO;
		json_object_array_add(acts, json_object_new_string("ran --restore-cmd"));
	}
	if (r == 0 && s->journal) {
		r = bc_journal_restore(s->journal, 30000, &rep, &e);
		if (r == 0)
			bc_journal_remove(s->journal_path, NULL);
	}
	if (r < 0)
		snprintf(text, sizeof(text), "NOT restored: %s; %s", e.msg,
			 s->cut == BC_FO_CUT_SILENT && !s->restored
				 ? "run the --restore-cmd by hand"
				 : "the journal is kept: run `bondcheck restore` (in this "
				   "namespace)");
	else
		snprintf(text, sizeof(text), "%s is as the journal recorded it before the cut",
			 s->bond);
	json_object_object_add(o, "ok", json_object_new_boolean(r == 0));
	json_object_object_add(o, "text", json_object_new_string(text));
	json_object_object_add(o, "journal", json_object_new_string(s->journal_path));
	json_object_object_add(o, "commands", acts);
	json_object_object_add(o, "report", rep);
	*report = o;
	bc_journal_free(s->journal);
	s->journal = NULL;
	if (r < 0)
		return bc_error_set(err, -EIO, "%s", text);
	return 0;
}

/*
 * The agent's bond before the test (the `inspect` message): its
 * configuration, for a hold that covers its detection too, and whether it
 * can lose a slave.  An agent that does not answer is assumed configured
 * like the client, and the note says so.
 */
static void agent_before(struct fo_setup *s)
{
	struct json_object *reply = NULL;
	struct sockaddr_storage l, p;
	struct bc_error e = {0};
	int r;

	memset(&s->agent_end, 0, sizeof(s->agent_end));
	r = bc_client_peer_inspect(&s->c->client, &reply, &l, &p, NULL, NULL, &e);
	if (r < 0) {
		snprintf(s->agent_note, sizeof(s->agent_note),
			 "the agent's bond was not read before the test (%s): the hold assumes "
			 "it is configured like the client",
			 e.msg);
		return;
	}
	fo_agent_end_egress(json_object_object_get(reply, "egress"), &s->agent_end);
	r = fo_agent_takeover(json_object_object_get(reply, "end"), s->takeover_why[BC_FO_AGENT],
			      sizeof(s->takeover_why[BC_FO_AGENT]));
	s->takeover_known[BC_FO_AGENT] = r >= 0;
	s->no_takeover[BC_FO_AGENT] = r == 0;
	json_object_put(reply);
}

/* Hold and settle from the configuration of both ends when not given. */
static void timing(struct fo_setup *s, uint32_t *hold, uint32_t *settle)
{
	struct bc_fo_expect x;
	uint64_t h = 2000, st = 2000;

	if (bc_failover_expect(&s->client_end, &s->agent_end, s->cut, &x) == 0 && !x.black_hole) {
		if (x.worst_ms + 1000 > h)
			h = x.worst_ms + 1000;
		if (x.by == BC_FO_BY_LACP || s->bond_mode == BC_MODE_8023AD)
			st = 5000; /* the returned port renegotiates: a few LACPDU periods */
		if (x.recovery_ms + 1500 > st)
			st = x.recovery_ms + 1500;
		if (x.by == BC_FO_BY_ARP)
			st += 2 * s->client_end.arp_interval_ms;
	}
	*hold = s->c->hold_ms ? s->c->hold_ms : (uint32_t)(h > 120000 ? 120000 : h);
	*settle = s->c->settle_ms ? s->c->settle_ms : (uint32_t)(st > 60000 ? 60000 : st);
}

static int make_dir(const struct bc_failover_run_cfg *c, char *dir, size_t len, bool *temp,
		    struct bc_error *err)
{
	const char *tmp = getenv("TMPDIR");

	*temp = !c->keep_pcaps;
	if (c->keep_pcaps) {
		snprintf(dir, len, "%s", c->keep_pcaps);
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return bc_error_set(err, -errno, "--keep-pcaps %s: %s", dir,
					    strerror(errno));
		return 0;
	}
	snprintf(dir, len, "%s/bondcheck-failover.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return bc_error_set(err, -errno, "cannot make a folder for the captures: %s",
				    strerror(errno));
	return 0;
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4400];

	if (!d)
		return;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "client-", 7) || !strncmp(de->d_name, "agent-", 6)) {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(dir);
}

static void add_note(struct json_object *doc, const char *text)
{
	struct json_object *n = json_object_object_get(doc, "notes");

	if (n)
		json_object_array_add(n, json_object_new_string(text));
}

int bc_failover_plot(const char *dir, struct json_object *doc, struct bc_error *err)
{
	struct json_object *in = json_object_new_object(),
			   *cut = json_object_object_get(doc, "cut");
	long long cut_ns = bc_json_i64(cut, "cut_ns", -1),
		  rest_ns = bc_json_i64(cut, "restore_ns", -1);
	long long done_ns = bc_json_i64(cut, "restore_done_ns", -1);
	long long after = bc_json_i64(doc, "settle_ms", 1500);
	char path[4200];
	int r;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		r = bc_error_set(err, -errno, "--plot %s: cannot create it: %s", dir,
				 strerror(errno));
	else if (!json_object_object_get(doc, "timeline") || cut_ns < 0 || rest_ns < cut_ns)
		r = bc_error_set(err, -EINVAL,
				 "the failover document has no timeline or cut times to plot");
	else
		r = 0;
	if (r < 0) {
		json_object_put(in);
		return r;
	}
	snprintf(path, sizeof(path), "%s/failover-timeline.svg", dir);
	json_object_object_add(in, "timeline",
			       json_object_get(json_object_object_get(doc, "timeline")));
	json_object_object_add(in, "events",
			       json_object_get(json_object_object_get(doc, "events")));
	json_object_object_add(in, "from_ns", json_object_new_int64(cut_ns - 500 * MS));
	/* past the restore command's end, so its label fits too */
	json_object_object_add(in, "to_ns",
			       json_object_new_int64((done_ns > rest_ns ? done_ns : rest_ns) +
						     (after < 1500 ? after : 1500) * MS));
	r = bc_plot_failover_timeline(path, in, err);
	json_object_put(in);
	if (r == 0) {
		struct json_object *p = json_object_new_object();

		json_object_object_add(p, "failover-timeline", json_object_new_string(path));
		json_object_object_add(doc, "plots", p);
	}
	return r;
}

/* ns as ms with µs resolution */
static struct json_object *ms_double(uint64_t ns)
{
	uint64_t us = ns / 1000;

	return json_object_new_double((double)us / 1000.0);
}

static void describe(const struct fo_setup *s, struct json_object *doc, uint32_t hold,
		     uint32_t settle, struct json_object *res)
{
	const struct bc_failover_run_cfg *c = s->c;
	struct json_object *plan = json_object_object_get(res, "test");
	char t[32];

	bc_json_generated_at(t, sizeof(t));
	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(doc, "bondcheck_version", json_object_new_string(BC_VERSION));
	json_object_object_add(doc, "generated_at", json_object_new_string(t));
	json_object_object_add(doc, "kind", json_object_new_string("failover"));
	json_object_object_add(doc, "peer", json_object_new_string(c->client.peer));
	json_object_object_add(doc, "bond", json_object_new_string(s->bond));
	json_object_object_add(doc, "slave", json_object_new_string(s->slave));
	json_object_object_add(doc, "rate_pps", json_object_new_int64(c->rate_pps));
	json_object_object_add(doc, "length", json_object_new_int64(c->length));
	json_object_object_add(doc, "streams_per_direction",
			       json_object_new_int64(bc_json_i64(plan, "streams", 1)));
	json_object_object_add(doc, "pre_ms", json_object_new_int64(c->pre_ms));
	json_object_object_add(doc, "hold_ms", json_object_new_int64(hold));
	json_object_object_add(doc, "settle_ms", json_object_new_int64(settle));
	json_object_object_add(doc, "cut_cmd",
			       c->cut_cmd ? json_object_new_string(c->cut_cmd) : NULL);
	json_object_object_add(doc, "restore_cmd",
			       c->restore_cmd ? json_object_new_string(c->restore_cmd) : NULL);
	json_object_object_add(doc, "cut_took_ms", ms_double(s->cut_took_ns));
	json_object_object_add(doc, "restore_took_ms", ms_double(s->restore_took_ns));
}

int bc_failover_run(const struct bc_failover_run_cfg *c, struct json_object **out,
		    struct bc_error *err)
{
	struct fo_setup s = {.c = c, .cut = c->cut};
	struct bc_client_cfg cc = c->client;
	struct json_object *res = NULL, *doc = NULL, *restore = NULL;
	struct bc_error e = {0};
	uint32_t hold, settle;
	int64_t t0 = bc_mono_ns(), t_run, t_traffic;
	char dir[4096];
	bool temp = false;
	int r, rr;

	*out = NULL;
	s.pid = 0;
	snprintf(s.slave, sizeof(s.slave), "%s", c->slave ? c->slave : "");
	if (c->cut == BC_FO_CUT_SILENT && (!c->cut_cmd || !c->restore_cmd))
		return bc_error_set(err, -EINVAL,
				    "--cut-mode silent needs --cut-cmd and --restore-cmd: the "
				    "commands that start and stop dropping %s's frames on the wire "
				    "without a carrier change",
				    s.slave);
	r = find_bond(&s, err);
	if (r < 0)
		return r;
	r = route_check(&s, err);
	if (r < 0)
		return r;
	r = journal(&s, err);
	if (r < 0)
		return r;
	agent_before(&s);
	timing(&s, &hold, &settle);
	s.cut_at_ns = c->pre_ms * MS;
	s.hold_ns = hold * MS;
	s.settle_ns = settle * MS;
	r = make_dir(c, dir, sizeof(dir), &temp, err);
	if (r < 0) {
		bc_journal_remove(s.journal_path, NULL);
		bc_journal_free(s.journal);
		return r;
	}

	/* the engine's --bidir UDP, one flow per slave on hash bonds that ports steer */
	cc.plan.proto = BC_L4_UDP;
	cc.plan.dir = BC_DIR_BIDIR;
	cc.plan.length = c->length;
	if (c->tcp) { /* one TCP flow client -> agent beside the UDP ones */
		cc.plan.tcp_streams = 1;
		cc.plan.tcp_rate_bps = c->tcp_rate_bps;
	}
	/*
	 * Room for slow cut and restore commands (seconds each on a loaded host):
	 * the senders stop at the duration by themselves, so it must be long
	 * enough; on_tick ends the test as soon as the settle has passed.
	 */
	cc.plan.duration_ms =
		c->pre_ms + hold + settle + (c->cut == BC_FO_CUT_SILENT ? 20000 : 5000);
	cc.plan.capture_neigh = true;
	/* the bond was read before (find_bond); the agent's egress metadata still
	 * carries its bond options: no per-run collector snapshots */
	cc.plan.no_bond_meta = true;
	/* a second of both directions at 256 ring bytes per frame, 4..256 MiB
	 * (the 64 MiB default costs seconds to allocate on a slow host) */
	{
		uint64_t b = (uint64_t)c->rate_pps * 2 * 256;

		cc.plan.capture_buffer = (uint32_t)(b < (4u << 20)     ? (4u << 20)
						    : b > (256u << 20) ? (256u << 20)
								       : b);
	}
	cc.capture = true;
	cc.capture_fetch_only = true;
	cc.keep_pcaps = dir;
	cc.total_rate_bps = (double)c->rate_pps * c->length * 8;
	cc.plan.rate_bps = (uint64_t)cc.total_rate_bps;
	if ((s.bond_mode == BC_MODE_XOR || s.bond_mode == BC_MODE_8023AD) &&
	    s.xmit_hash_policy == 1)
		cc.place_k = 1;
	cc.on_tick = on_tick;
	cc.tick_ms = TICK_MS;
	cc.on_interval = NULL;
	cc.ctx = &s;
	progress(&s, "streams to %s: %u datagrams/s each way%s, cut %s after %.1f s, hold %.1f s",
		 c->client.peer, c->rate_pps, c->tcp ? " and one TCP flow" : "", s.slave,
		 c->pre_ms / 1000.0, hold / 1000.0);
	t_run = bc_mono_ns();
	r = bc_client_run(&cc, &res, err);
	t_traffic = bc_mono_ns();
	if (r == 0 && !s.restored)
		r = bc_error_set(err, -EIO, "the test ended before the slave was brought back");
	/* the bond first, whatever happened */
	rr = final_restore(&s, &restore, &e);
	if (r == 0 && c->interrupted && *c->interrupted)
		r = bc_error_set(err, -EINTR, "interrupted");
	if (r < 0) {
		json_object_put(res);
		json_object_put(restore);
		if (temp)
			remove_dir(dir);
		if (rr < 0) {
			char m[BC_ERROR_MSG_MAX];

			snprintf(m, sizeof(m), "%s; and %s", err->msg, e.msg);
			bc_error_clear(err);
			return bc_error_set(err, -EIO, "%s", m);
		}
		return r;
	}
	progress(&s, "analysing the captures");
	r = fo_analyze(&s, res, dir, &doc, err);
	if (temp)
		remove_dir(dir);
	if (r < 0) {
		json_object_put(res);
		json_object_put(restore);
		return r;
	}
	describe(&s, doc, hold, settle, res);
	{
		/* where the time went (a slow host shows here) */
		struct json_object *el = json_object_new_object();

		json_object_object_add(el, "prepare_ms", json_object_new_int64((t_run - t0) / MS));
		json_object_object_add(el, "test_ms",
				       json_object_new_int64((t_traffic - t_run) / MS));
		json_object_object_add(el, "analysis_ms",
				       json_object_new_int64((bc_mono_ns() - t_traffic) / MS));
		json_object_object_add(doc, "elapsed", el);
	}
	json_object_object_add(doc, "restore", restore);
	if (c->plot_dir) {
		struct bc_error pe = {0};

		if (bc_failover_plot(c->plot_dir, doc, &pe) < 0) {
			char note[600];

			snprintf(note, sizeof(note), "no failover-timeline.svg: %s", pe.msg);
			add_note(doc, note);
		}
	}
	if (bc_json_i64(json_object_object_get(res, "test"), "streams", 1) > 1)
		add_note(doc,
			 "one flow per slave in each direction (placed with the bond's "
			 "transmit hash): the flows on the cut slave move, the others should not "
			 "notice");
	if (c->keep_pcaps)
		add_note(doc, "the pcaps are kept in --keep-pcaps");
	/* what went wrong with the captures (the agent's files, a capture that broke off) */
	{
		struct json_object *rn = json_object_object_get(res, "notes");

		for (size_t i = 0; i < bc_json_len(rn); i++) {
			const char *t = json_object_get_string(json_object_array_get_idx(rn, i));

			if (t && !strncmp(t, "capture:", 8) && !strstr(t, "ledger"))
				add_note(doc, t);
		}
	}
	json_object_object_add(doc, "run", res);
	*out = doc;
	if (rr < 0)
		return bc_error_set(err, -EIO, "%s", e.msg);
	return 0;
}
