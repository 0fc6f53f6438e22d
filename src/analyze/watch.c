// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck watch`, the pure part (bondcheck/watch.h): intervals from two
 * samples, and the verdicts of a whole watch.  No I/O, no words: the
 * verdicts carry mechanisms and evidence values, src/report renders them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/watch.h"

/* @b - @a, 0 when the counter went backwards (a device re-created). */
static uint64_t grew(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

static const struct bc_watch_slave *slave_named(const struct bc_watch_sample *s, const char *name)
{
	for (size_t i = 0; i < s->n_slaves; i++)
		if (!strcmp(s->slaves[i].name, name))
			return &s->slaves[i];
	return NULL;
}

static const struct bc_watch_flow *flow_cookie(const struct bc_watch_sample *s, uint64_t cookie)
{
	for (size_t i = 0; i < s->n_flows; i++)
		if (s->flows[i].cookie == cookie)
			return &s->flows[i];
	return NULL;
}

/*
 * @bytes on the slaves: in proportion to the taps' growth on each (@cur
 * against @prev, @map[i] the index in @prev of @cur's slave i, -1 none);
 * all on @slave when the taps saw nothing grow; on none when @slave < 0.
 */
static void split(uint64_t bytes, const uint64_t *cur, const uint64_t *prev, const int *map,
		  size_t n, bool observed, int slave, uint64_t *on)
{
	uint64_t g[BC_WATCH_MAX_SLAVES], sum = 0, given = 0;
	size_t most = 0;

	if (observed) {
		for (size_t i = 0; i < n; i++) {
			g[i] = prev && map[i] >= 0 ? grew(prev[map[i]], cur[i]) : cur[i];
			sum += g[i];
			if (g[i] > g[most])
				most = i;
		}
	}
	if (sum) {
		for (size_t i = 0; i < n; i++) {
			on[i] = (uint64_t)((double)bytes * (double)g[i] / (double)sum);
			given += on[i];
		}
		/* what rounding left over goes to the slave that carried the most */
		on[most] += bytes > given ? bytes - given : 0;
	} else if (slave >= 0 && (size_t)slave < n) {
		on[slave] = bytes;
	}
}

static int busier(const void *pa, const void *pb)
{
	const struct bc_watch_flow_rate *a = pa, *b = pb;
	double x = a->tx_bps + a->rx_bps, y = b->tx_bps + b->rx_bps;

	return x < y ? 1 : x > y ? -1 : 0;
}

int bc_watch_delta(const struct bc_watch_sample *prev, const struct bc_watch_sample *cur,
		   struct bc_watch_interval *out)
{
	int map[BC_WATCH_MAX_SLAVES];
	double dt;

	memset(out, 0, sizeof(*out));
	if (cur->mono_ns <= prev->mono_ns)
		return -EINVAL;
	dt = (double)(cur->mono_ns - prev->mono_ns) / 1e9;
	out->dt_s = dt;

	for (size_t i = 0; i < prev->n_slaves && out->n_removed < BC_WATCH_MAX_SLAVES; i++)
		if (!slave_named(cur, prev->slaves[i].name))
			snprintf(out->removed[out->n_removed++], BC_IFNAMSIZ, "%s",
				 prev->slaves[i].name);

	for (size_t i = 0; i < cur->n_slaves && i < BC_WATCH_MAX_SLAVES; i++) {
		const struct bc_watch_slave *c = &cur->slaves[i];
		const struct bc_watch_slave *p = slave_named(prev, c->name);
		struct bc_watch_slave_rate *r = &out->slaves[out->n_slaves++];

		map[i] = p ? (int)(p - prev->slaves) : -1;
		snprintf(r->name, sizeof(r->name), "%s", c->name);
		r->up = c->up;
		r->usable = c->usable;
		r->speed_bps = c->speed_bps;
		if (!p) {
			snprintf(out->added[out->n_added++], BC_IFNAMSIZ, "%s", c->name);
			continue;
		}
		r->tx_bytes = grew(p->tx_bytes, c->tx_bytes);
		r->rx_bytes = grew(p->rx_bytes, c->rx_bytes);
		r->drops = grew(p->drops, c->drops);
		r->errors = grew(p->errors, c->errors);
		r->tx_bps = 8.0 * (double)r->tx_bytes / dt;
		r->rx_bps = 8.0 * (double)r->rx_bytes / dt;
		out->tx_bps += r->tx_bps;
		out->rx_bps += r->rx_bps;
	}
	for (size_t i = 0; i < out->n_slaves; i++) {
		struct bc_watch_slave_rate *r = &out->slaves[i];

		r->tx_share = out->tx_bps > 0 ? r->tx_bps / out->tx_bps : -1;
		r->rx_share = out->rx_bps > 0 ? r->rx_bps / out->rx_bps : -1;
	}

	out->flows_read = !prev->flows_error[0] && !cur->flows_error[0];
	out->taps = cur->taps;
	if (cur->taps) {
		out->tap_flow_entries = cur->tap_flow_entries;
		out->tap_flow_capacity = cur->tap_flow_capacity;
		/* reattached taps (another tap_since_ns) count from 0 again */
		out->tap_flow_evicted =
			prev->taps && prev->tap_since_ns == cur->tap_since_ns
				? grew(prev->tap_flow_evicted, cur->tap_flow_evicted)
				: cur->tap_flow_evicted;
	}
	out->tcp_counters = prev->tcp_counters && cur->tcp_counters;
	if (out->tcp_counters) {
		out->tcp_retrans_segs = grew(prev->tcp_retrans_segs, cur->tcp_retrans_segs);
		out->tcp_out_segs = grew(prev->tcp_out_segs, cur->tcp_out_segs);
		out->tcp_reorder = grew(prev->tcp_reorder, cur->tcp_reorder);
	}

	for (size_t i = 0; i < cur->n_flows; i++) {
		const struct bc_watch_flow *c = &cur->flows[i];
		const struct bc_watch_flow *p = flow_cookie(prev, c->cookie);
		struct bc_watch_flow_rate *f = &out->flows[out->n_flows++];

		f->cookie = c->cookie;
		f->flow = c->flow;
		/* a connection absent from @prev opened since: all its bytes are new */
		f->tx_bytes = p ? grew(p->tx_bytes, c->tx_bytes) : c->tx_bytes;
		f->rx_bytes = p ? grew(p->rx_bytes, c->rx_bytes) : c->rx_bytes;
		f->tx_bps = 8.0 * (double)f->tx_bytes / dt;
		f->rx_bps = 8.0 * (double)f->rx_bytes / dt;
		f->tx_slave = -1;
		f->rx_slave = -1;
		f->tx_predicted = -1;
		f->tx_src = c->tx_src;
		f->rx_src = c->rx_src;
		f->socket = c->socket;
		if (c->tx_predicted >= 0 && (size_t)c->tx_predicted < out->n_slaves)
			f->tx_predicted = c->tx_predicted;
		snprintf(f->why, sizeof(f->why), "%s", c->why);
		/* the sample's slave index, translated to this interval's (the same order) */
		if (c->tx_slave >= 0 && (size_t)c->tx_slave < out->n_slaves) {
			f->tx_slave = c->tx_slave;
			out->slaves[c->tx_slave].predicted_tx_bps += f->tx_bps;
		}
		if (c->rx_slave >= 0 && (size_t)c->rx_slave < out->n_slaves)
			f->rx_slave = c->rx_slave;
		split(f->tx_bytes, c->tap_tx_on, p ? p->tap_tx_on : NULL, map, out->n_slaves,
		      c->tx_src == BC_WATCH_SRC_OBSERVED, f->tx_slave, f->tx_on);
		split(f->rx_bytes, c->tap_rx_on, p ? p->tap_rx_on : NULL, map, out->n_slaves,
		      c->rx_src == BC_WATCH_SRC_OBSERVED, f->rx_slave, f->rx_on);
	}
	qsort(out->flows, out->n_flows, sizeof(out->flows[0]), busier);
	return 0;
}

/* The index of slave @name in @t's table, added when new; -1 when the table is full. */
static int slave_slot(struct bc_watch_flow_sums *t, const char *name)
{
	for (size_t k = 0; k < t->n_slaves; k++)
		if (!strcmp(t->slave[k], name))
			return (int)k;
	if (t->n_slaves == BC_WATCH_MAX_SLAVES)
		return -1;
	snprintf(t->slave[t->n_slaves], BC_IFNAMSIZ, "%s", name);
	return (int)t->n_slaves++;
}

void bc_watch_flows_add(struct bc_watch_flow_sums *t, const struct bc_watch_interval *iv)
{
	for (size_t i = 0; i < iv->n_slaves; i++)
		slave_slot(t, iv->slaves[i].name);
	for (size_t i = 0; i < iv->n_flows; i++) {
		const struct bc_watch_flow_rate *f = &iv->flows[i];
		struct bc_watch_flow_sum *x = NULL;

		for (size_t k = 0; k < t->n && !x; k++)
			if (t->v[k].cookie == f->cookie)
				x = &t->v[k];
		if (!x) {
			if (t->n == sizeof(t->v) / sizeof(t->v[0])) {
				t->dropped++;
				continue;
			}
			x = &t->v[t->n++];
			memset(x, 0, sizeof(*x));
			x->cookie = f->cookie;
			x->flow = f->flow;
		}
		x->tx_bytes += f->tx_bytes;
		x->rx_bytes += f->rx_bytes;
		x->tx_src = f->tx_src;
		x->rx_src = f->rx_src;
		x->socket = f->socket;
		snprintf(x->tx_slave, sizeof(x->tx_slave), "%s",
			 f->tx_slave >= 0 ? iv->slaves[f->tx_slave].name : "");
		snprintf(x->rx_slave, sizeof(x->rx_slave), "%s",
			 f->rx_slave >= 0 ? iv->slaves[f->rx_slave].name : "");
		snprintf(x->tx_predicted, sizeof(x->tx_predicted), "%s",
			 f->tx_predicted >= 0 ? iv->slaves[f->tx_predicted].name : "");
		snprintf(x->why, sizeof(x->why), "%s", f->why);
		for (size_t j = 0; j < iv->n_slaves; j++) {
			int k = slave_slot(t, iv->slaves[j].name);

			if (k < 0)
				continue;
			x->tx_on[k] += f->tx_on[j];
			x->rx_on[k] += f->rx_on[j];
		}
	}
}

void bc_watch_flows_apply(const struct bc_watch_flow_sums *t, struct bc_watch_interval *total)
{
	double dt = total->dt_s > 0 ? total->dt_s : 1;

	total->n_flows = 0;
	for (size_t i = 0; i < total->n_slaves; i++)
		total->slaves[i].predicted_tx_bps = 0;
	for (size_t k = 0; k < t->n; k++) {
		const struct bc_watch_flow_sum *x = &t->v[k];
		struct bc_watch_flow_rate *f;

		if (total->n_flows == BC_WATCH_MAX_FLOWS) {
			/* keep the busiest: replace the least busy listed so far */
			size_t lo = 0;

			for (size_t i = 1; i < total->n_flows; i++)
				if (total->flows[i].tx_bytes + total->flows[i].rx_bytes <
				    total->flows[lo].tx_bytes + total->flows[lo].rx_bytes)
					lo = i;
			if (total->flows[lo].tx_bytes + total->flows[lo].rx_bytes >=
			    x->tx_bytes + x->rx_bytes)
				continue;
			f = &total->flows[lo];
		} else {
			f = &total->flows[total->n_flows++];
		}
		memset(f, 0, sizeof(*f));
		f->cookie = x->cookie;
		f->flow = x->flow;
		f->tx_bytes = x->tx_bytes;
		f->rx_bytes = x->rx_bytes;
		f->tx_bps = 8.0 * (double)x->tx_bytes / dt;
		f->rx_bps = 8.0 * (double)x->rx_bytes / dt;
		f->tx_src = x->tx_src;
		f->rx_src = x->rx_src;
		f->socket = x->socket;
		f->tx_slave = f->rx_slave = f->tx_predicted = -1;
		snprintf(f->why, sizeof(f->why), "%s", x->why);
		for (size_t i = 0; i < total->n_slaves; i++) {
			if (x->tx_slave[0] && !strcmp(total->slaves[i].name, x->tx_slave))
				f->tx_slave = (int)i;
			if (x->rx_slave[0] && !strcmp(total->slaves[i].name, x->rx_slave))
				f->rx_slave = (int)i;
			if (x->tx_predicted[0] && !strcmp(total->slaves[i].name, x->tx_predicted))
				f->tx_predicted = (int)i;
		}
	}
	for (size_t i = 0; i < total->n_flows; i++)
		if (total->flows[i].tx_slave >= 0)
			total->slaves[total->flows[i].tx_slave].predicted_tx_bps +=
				total->flows[i].tx_bps;
	qsort(total->flows, total->n_flows, sizeof(total->flows[0]), busier);
}

static const char *fmt_share(double x, char *buf, size_t len)
{
	snprintf(buf, len, "%.0f %%", x * 100);
	return buf;
}

static bool hash_mode(int mode)
{
	return mode == BC_MODE_XOR || mode == BC_MODE_8023AD || mode == BC_MODE_TLB ||
	       mode == BC_MODE_ALB;
}

static bool single_path_policy(const char *p)
{
	return !strcmp(p, "layer2") || !strcmp(p, "layer2+3") || !strcmp(p, "encap2+3") ||
	       !strcmp(p, "vlan+srcmac");
}

static size_t usable_count(const struct bc_watch_interval *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n_slaves; i++)
		n += t->slaves[i].usable;
	return n;
}

/* The busiest flow that carried anything, or NULL. */
static const struct bc_watch_flow_rate *top_flow(const struct bc_watch_interval *t)
{
	return t->n_flows && t->flows[0].tx_bps + t->flows[0].rx_bps > 0 ? &t->flows[0] : NULL;
}

/* The flows' TX whose slave is known (predicted or observed), bits/s. */
static double placed_tx(const struct bc_watch_interval *t)
{
	double x = 0;

	for (size_t i = 0; i < t->n_slaves; i++)
		x += t->slaves[i].predicted_tx_bps;
	return x;
}

static size_t active_flows(const struct bc_watch_interval *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n_flows; i++)
		n += t->flows[i].tx_bps + t->flows[i].rx_bps > 0;
	return n;
}

/* The share of one direction carried by the busiest usable slave, and that slave and the idlest. */
static void spread(const struct bc_watch_interval *t, bool tx, size_t *busy, size_t *idle,
		   double *busy_share, double *idle_share)
{
	*busy_share = -1;
	*idle_share = 2;
	*busy = *idle = 0;
	for (size_t i = 0; i < t->n_slaves; i++) {
		double s = tx ? t->slaves[i].tx_share : t->slaves[i].rx_share;

		if (!t->slaves[i].usable || s < 0)
			continue;
		if (s > *busy_share) {
			*busy_share = s;
			*busy = i;
		}
		if (s < *idle_share) {
			*idle_share = s;
			*idle = i;
		}
	}
}

enum sat { SAT_NO, SAT_YES, SAT_UNKNOWN };

/*
 * Is the bond the limit: a usable slave whose rate in direction @tx is at
 * least BC_WATCH_SATURATED of its speed while another usable slave carries
 * at most BC_WATCH_IDLE_SHARE?  The evidence into @v: "saturated" (yes, no,
 * unknown), and "utilisation", "speed_bps", "utilised" of the saturated
 * slave (else of the most utilised one), or "speed_unknown": the busiest
 * slave (@busy), whose speed is unknown, so that saturation was not judged.
 */
static enum sat saturation(const struct bc_watch_interval *t, bool tx, size_t busy,
			   struct bc_verdict *v, size_t *hot)
{
	double best = -1, u;
	enum sat r = SAT_NO;
	char b[32];

	*hot = busy;
	for (size_t i = 0; i < t->n_slaves; i++) {
		const struct bc_watch_slave_rate *s = &t->slaves[i];
		bool idle_other = false;

		if (!s->usable || s->speed_bps <= 0)
			continue;
		u = (tx ? s->tx_bps : s->rx_bps) / s->speed_bps;
		for (size_t k = 0; k < t->n_slaves; k++) {
			double sh = tx ? t->slaves[k].tx_share : t->slaves[k].rx_share;

			idle_other |= k != i && t->slaves[k].usable && sh >= 0 &&
				      sh <= BC_WATCH_IDLE_SHARE;
		}
		if (u >= BC_WATCH_SATURATED && idle_other && (r != SAT_YES || u > best)) {
			r = SAT_YES;
			best = u;
			*hot = i;
		} else if (r != SAT_YES && u > best) {
			best = u;
			*hot = i;
		}
	}
	if (r != SAT_YES && t->slaves[busy].speed_bps <= 0) {
		bc_verdict_add(v, "saturated", "unknown");
		bc_verdict_add(v, "speed_unknown", "%s", t->slaves[busy].name);
		*hot = busy;
		return SAT_UNKNOWN;
	}
	bc_verdict_add(v, "saturated", "%s", r == SAT_YES ? "yes" : "no");
	if (best >= 0) {
		bc_verdict_add(v, "utilisation", "%s", fmt_share(best, b, sizeof(b)));
		bc_verdict_add(v, "speed_bps", "%.0f", t->slaves[*hot].speed_bps);
		bc_verdict_add(v, "utilised", "%s", t->slaves[*hot].name);
	}
	return r;
}

static void judge_balance(const struct bc_watch_sample *first, const struct bc_watch_interval *t,
			  struct bc_verdict *v)
{
	size_t n_use = usable_count(t), busy = 0, idle = 0, hot = 0;
	const struct bc_watch_flow_rate *f = top_flow(t);
	double bs, is, bond;
	enum sat sat;
	bool tx;
	char b[32];

	bc_verdict_init(v, "balance");
	v->basis = "slave counters";
	if (first->mode == BC_MODE_ACTIVEBACKUP || first->mode == BC_MODE_BROADCAST) {
		v->status = BC_VERDICT_NOT_APPLICABLE;
		bc_verdict_add(v, "reason", "%s", first->mode == BC_MODE_ACTIVEBACKUP
							 ? "active-backup sends on one slave by design"
							 : "broadcast sends on every slave by design");
		return;
	}
	if (n_use < 2) {
		v->status = BC_VERDICT_NOT_APPLICABLE;
		bc_verdict_add(v, "reason", "%zu usable slave", n_use);
		return;
	}
	/* the direction that carried more: what the host sends is what the bond decides */
	tx = t->tx_bps >= t->rx_bps;
	bond = tx ? t->tx_bps : t->rx_bps;
	spread(t, tx, &busy, &idle, &bs, &is);
	bc_verdict_add(v, "direction", "%s", tx ? "tx" : "rx");
	bc_verdict_add(v, "bond_bps", "%.0f", bond);
	bc_verdict_add(v, "busiest", "%s", t->slaves[busy].name);
	bc_verdict_add(v, "busiest_share", "%s", fmt_share(bs, b, sizeof(b)));
	bc_verdict_add(v, "idlest", "%s", t->slaves[idle].name);
	bc_verdict_add(v, "idlest_share", "%s", fmt_share(is, b, sizeof(b)));
	v->headline = bs;
	snprintf(v->where, sizeof(v->where), "%s", t->slaves[busy].name);
	sat = saturation(t, tx, busy, v, &hot);
	/* a saturated slave beside an idle one fails also below the busy share (3+ slaves) */
	if ((bs < BC_WATCH_BUSY_SHARE && sat != SAT_YES) || is > BC_WATCH_IDLE_SHARE) {
		v->status = BC_VERDICT_PASS;
		return;
	}
	v->status = BC_VERDICT_FAIL;
	if (sat == SAT_YES)
		snprintf(v->where, sizeof(v->where), "%s", t->slaves[hot].name);
	if (!tx) {
		/*
		 * What arrives is placed by the peer (switch, or the other bond's
		 * hash): this host cannot see why without the peer.
		 */
		snprintf(v->mechanism, sizeof(v->mechanism), "peer-placement");
		snprintf(v->next_step, sizeof(v->next_step),
			 "check the switch's (or the peer bond's) hash policy for this port-channel");
		return;
	}
	if (!t->flows_read) {
		snprintf(v->mechanism, sizeof(v->mechanism), "unexplained");
		bc_verdict_add(v, "reason", "the host's connections could not be read");
		snprintf(v->next_step, sizeof(v->next_step),
			 "`ss -ti` lists the connections: see why watch could not read them");
		return;
	}
	if (first->mode == BC_MODE_ROUNDROBIN) {
		snprintf(v->mechanism, sizeof(v->mechanism), "unexplained");
		snprintf(v->next_step, sizeof(v->next_step),
			 "balance-rr sends every packet on the next slave: check `ip -s link show %s`",
			 t->slaves[idle].name);
		return;
	}
	if (f && f->tx_bps >= BC_WATCH_ONE_FLOW_SHARE * bond && hash_mode(first->mode)) {
		snprintf(v->mechanism, sizeof(v->mechanism), "single-flow");
		bc_verdict_add(v, "flow_share", "%s", fmt_share(f->tx_bps / bond, b, sizeof(b)));
		snprintf(v->next_step, sizeof(v->next_step),
			 "one connection never uses more than one slave in a hash mode: use "
			 "several connections (e.g. NFS nconnect=)%s",
			 single_path_policy(first->policy) ? " with xmit_hash_policy layer3+4" : "");
		return;
	}
	if (hash_mode(first->mode) && single_path_policy(first->policy)) {
		snprintf(v->mechanism, sizeof(v->mechanism), "hash-single-path");
		bc_verdict_add(v, "policy", "%s", first->policy);
		snprintf(v->next_step, sizeof(v->next_step),
			 "%s hashes every connection to one peer alike: xmit_hash_policy layer3+4",
			 first->policy);
		return;
	}
	if (active_flows(t) < n_use) {
		snprintf(v->mechanism, sizeof(v->mechanism), "few-flows");
		bc_verdict_add(v, "flows", "%zu", active_flows(t));
		bc_verdict_add(v, "usable", "%zu", n_use);
		snprintf(v->next_step, sizeof(v->next_step),
			 "a hash mode needs more connections than slaves to spread them");
		return;
	}
	if (placed_tx(t) > 0 &&
	    t->slaves[busy].predicted_tx_bps >= BC_WATCH_BUSY_SHARE * placed_tx(t)) {
		snprintf(v->mechanism, sizeof(v->mechanism), "hash-placement");
		bc_verdict_add(v, "flows", "%zu", active_flows(t));
		snprintf(v->next_step, sizeof(v->next_step),
			 "the connections' hashes crowd onto %s: more connections, or other ports",
			 t->slaves[busy].name);
		return;
	}
	snprintf(v->mechanism, sizeof(v->mechanism), "unexplained");
	snprintf(v->next_step, sizeof(v->next_step),
		 "traffic that is not this host's TCP (UDP, forwarded, bridged) may be the load: "
		 "the slave taps see it");
}

static void judge_top_flow(const struct bc_watch_sample *first, const struct bc_watch_interval *t,
			   struct bc_verdict *v)
{
	const struct bc_watch_flow_rate *f = top_flow(t);
	double bond = t->tx_bps + t->rx_bps;
	char b[32];

	bc_verdict_init(v, "top_flow");
	v->basis = "inet_diag";
	if (!t->flows_read) {
		bc_verdict_add(v, "reason", "the host's connections could not be read");
		return;
	}
	if (!f) {
		v->status = BC_VERDICT_NOT_APPLICABLE;
		bc_verdict_add(v, "reason", "no TCP connection of this host carried traffic");
		return;
	}
	v->headline = bond > 0 ? (f->tx_bps + f->rx_bps) / bond : -1;
	bc_verdict_add(v, "share", "%s", fmt_share(v->headline, b, sizeof(b)));
	bc_verdict_add(v, "tx_bps", "%.0f", f->tx_bps);
	bc_verdict_add(v, "rx_bps", "%.0f", f->rx_bps);
	bc_verdict_add(v, "sport", "%u", f->flow.sport);
	bc_verdict_add(v, "dport", "%u", f->flow.dport);
	bc_verdict_add(v, "tx_slave", "%s", f->tx_slave >= 0 ? t->slaves[f->tx_slave].name : "");
	bc_verdict_add(v, "tx_source", "%s", f->tx_src == BC_WATCH_SRC_OBSERVED    ? "observed"
					     : f->tx_src == BC_WATCH_SRC_PREDICTED ? "predicted"
										   : "unknown");
	v->status = BC_VERDICT_PASS;
	if (v->headline < BC_WATCH_ONE_FLOW_SHARE || !hash_mode(first->mode))
		return;
	/* one connection carries the bond in a hash mode: at most one slave's worth */
	v->status = BC_VERDICT_FAIL;
	snprintf(v->mechanism, sizeof(v->mechanism), "single-flow");
	if (f->tx_slave >= 0)
		snprintf(v->where, sizeof(v->where), "%s", t->slaves[f->tx_slave].name);
	if (f->flow.dport == 2049 || f->flow.sport == 2049)
		snprintf(v->next_step, sizeof(v->next_step), "%s",
			 single_path_policy(first->policy)
				 ? "NFS: mount with nconnect= AND set xmit_hash_policy layer3+4 (with "
				   "L4 hashing on the switch): layer2/layer2+3 keep every connection "
				   "to one filer on one slave"
				 : "NFS: mount with nconnect= (xmit_hash_policy layer3+4 spreads its "
				   "connections)");
	else
		snprintf(v->next_step, sizeof(v->next_step),
			 "a single TCP connection never uses more than one slave here: use several "
			 "connections%s",
			 single_path_policy(first->policy) ? " and xmit_hash_policy layer3+4" : "");
}

static void judge_ports(const struct bc_watch_interval *t, struct bc_verdict *v)
{
	bc_verdict_init(v, "ports");
	v->basis = "slave counters";
	if (t->tx_bps <= 0) {
		v->status = BC_VERDICT_INCONCLUSIVE;
		return;
	}
	v->status = BC_VERDICT_PASS;
	for (size_t i = 0; i < t->n_slaves; i++) {
		const struct bc_watch_slave_rate *s = &t->slaves[i];

		if (s->usable || s->tx_bps <= 0.01 * t->tx_bps)
			continue;
		v->status = BC_VERDICT_FAIL;
		snprintf(v->mechanism, sizeof(v->mechanism), "non-distributing-port");
		snprintf(v->where, sizeof(v->where), "%s", s->name);
		bc_verdict_add(v, "slave", "%s", s->name);
		bc_verdict_add(v, "up", "%s", s->up ? "yes" : "no");
		bc_verdict_add(v, "tx_bps", "%.0f", s->tx_bps);
		snprintf(v->next_step, sizeof(v->next_step),
			 "%s sends although the bond does not count it usable: `bondcheck inspect` "
			 "(LACP state, MII status)", s->name);
		return;
	}
}

static void judge_reordering(const struct bc_watch_sample *first, const struct bc_watch_interval *t,
			     size_t n_reorder, size_t n_tcp, struct bc_verdict *v)
{
	bc_verdict_init(v, "reordering");
	v->basis = "TCP counters (the whole network namespace)";
	if (!t->tcp_counters || !n_tcp) {
		v->status = BC_VERDICT_INCONCLUSIVE;
		bc_verdict_add(v, "reason", "%s", t->tcp_counters ? "no TCP traffic"
								  : "TCP counters unreadable");
		return;
	}
	bc_verdict_add(v, "reorder_events", "%llu", (unsigned long long)t->tcp_reorder);
	bc_verdict_add(v, "reorder_intervals", "%zu", n_reorder);
	bc_verdict_add(v, "tcp_intervals", "%zu", n_tcp);
	bc_verdict_add(v, "retrans_segs", "%llu", (unsigned long long)t->tcp_retrans_segs);
	bc_verdict_add(v, "out_segs", "%llu", (unsigned long long)t->tcp_out_segs);
	v->status = BC_VERDICT_PASS;
	if (first->mode != BC_MODE_ROUNDROBIN || 2 * n_reorder < n_tcp || !t->tcp_reorder)
		return;
	v->status = BC_VERDICT_FAIL;
	snprintf(v->mechanism, sizeof(v->mechanism), "rr-reordering");
	snprintf(v->next_step, sizeof(v->next_step),
		 "balance-rr sends one flow's packets over every slave: raise "
		 "net.ipv4.tcp_reordering, or a hash mode with several flows");
}

void bc_watch_judge(const struct bc_watch_sample *first, const struct bc_watch_interval *total,
		    size_t n_intervals, size_t n_reorder_intervals, size_t n_tcp_intervals,
		    struct bc_watch_verdicts *v)
{
	uint64_t bytes = 0;

	for (size_t i = 0; i < total->n_slaves; i++)
		bytes += total->slaves[i].tx_bytes + total->slaves[i].rx_bytes;
	if (bytes < BC_WATCH_MIN_BYTES || !n_intervals) {
		bc_verdict_init(&v->balance, "balance");
		bc_verdict_init(&v->top_flow, "top_flow");
		bc_verdict_init(&v->ports, "ports");
		bc_verdict_add(&v->balance, "reason", "the bond carried %llu bytes",
			       (unsigned long long)bytes);
		bc_verdict_add(&v->top_flow, "reason", "the bond carried %llu bytes",
			       (unsigned long long)bytes);
		bc_verdict_add(&v->ports, "reason", "the bond carried %llu bytes",
			       (unsigned long long)bytes);
	} else {
		judge_balance(first, total, &v->balance);
		judge_top_flow(first, total, &v->top_flow);
		judge_ports(total, &v->ports);
	}
	judge_reordering(first, total, n_reorder_intervals, n_tcp_intervals, &v->reordering);
}
