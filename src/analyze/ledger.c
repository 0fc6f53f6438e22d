// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live loss ledger: stage counts and which counter explains each drop
 * (bondcheck/ledger.h; reference/measurement.md 3.1, 3.4, 3.7, 3.10).
 * Pure arithmetic; the run's JSON is read in src/workflow/run-ledger.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/ledger.h"

static uint64_t pos(int64_t v)
{
	return v > 0 ? (uint64_t)v : 0;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t sub_sat(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void bc_ledger_in_init(struct bc_ledger_in *in)
{
	memset(in, 0, sizeof(*in));
	in->snd_buf_errors = -1;
	in->rcv_in_datagrams = -1;
	in->rcv_in_errors = -1;
	in->rcv_buf_errors = -1;
	in->rcv_reasm_fails = -1;
	in->softnet_dropped = -1;
	in->rcv_sock_drops = -1;
	in->rcv_ip_in_receives = -1;
	in->rcv_reasm_reqds = in->rcv_reasm_oks = in->rcv_reasm_timeout = -1;
	in->ipfrag_high_thresh = in->ipfrag_time = in->ipfrag_max_dist = -1;
	for (size_t i = 0; i < BC_LEDGER_MAX_LINKS; i++) {
		in->rx[i].peer_tx_dropped = -1;
		in->rx[i].rx_nohandler = -1;
	}
}

uint64_t bc_ledger_nic_drops(const struct bc_ledger_rx *rx)
{
	uint64_t std = pos(rx->rx_dropped) + pos(rx->rx_missed) + pos(rx->rx_over);

	/* drivers often fold their own drop counters into rx_dropped: never add both */
	return std > pos(rx->driver_drops) ? std : pos(rx->driver_drops);
}

static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	if (n)
		n += (size_t)snprintf(buf + n, len - n, ", ");
	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

static struct bc_ledger_finding *add(struct bc_ledger *l, const char *id, const char *subject,
				     const char *host, uint64_t count, uint64_t of)
{
	struct bc_ledger_finding *f;

	if (l->n_f >= BC_LEDGER_MAX_FINDINGS)
		return NULL;
	f = &l->f[l->n_f++];
	memset(f, 0, sizeof(*f));
	f->id = id;
	snprintf(f->subject, sizeof(f->subject), "%s", subject);
	snprintf(f->host, sizeof(f->host), "%s", host);
	f->count = count;
	f->of = of;
	return f;
}

static int rx_index(const struct bc_ledger_in *in, const char *name)
{
	for (size_t i = 0; i < in->n_rx; i++)
		if (name[0] && !strcmp(in->rx[i].name, name))
			return (int)i;
	return -1;
}

static void stage(struct bc_ledger *l, int i, const char *name, uint64_t count, bool known)
{
	struct bc_ledger_stage *s = &l->st[i];

	s->stage = name;
	s->count = count;
	s->known = known;
	s->drop = i > 0 ? sub_sat(l->st[i - 1].count, count) : 0;
}

/* Stage 1: the gap before the sender's tap, by slave qdisc drops or SndbufErrors. */
static void before_tap(const struct bc_ledger_in *in, struct bc_ledger *l)
{
	struct bc_ledger_stage *s = &l->st[1];
	uint64_t q = 0, left = s->drop;
	char subj[BC_LEDGER_NAME];

	for (size_t i = 0; i < in->n_tx; i++) {
		uint64_t d = pos(in->tx[i].qdisc_drops);
		struct bc_ledger_finding *f;

		q += d;
		if (d)
			append(s->counter, sizeof(s->counter), "qdisc drops %s +%llu",
			       in->tx[i].name, (unsigned long long)d);
		if (!d || !left)
			continue;
		f = add(l, "tx-loss", in->tx[i].name, in->sender_addr, min64(d, left),
			in->sent_by_app);
		if (f)
			snprintf(f->counter, sizeof(f->counter),
				 "qdisc drops on %s +%llu (before the capture tap)", in->tx[i].name,
				 (unsigned long long)d);
		left -= min64(d, left);
	}
	if (pos(in->snd_buf_errors))
		append(s->counter, sizeof(s->counter), "Udp SndbufErrors +%llu",
		       (unsigned long long)pos(in->snd_buf_errors));
	/* a tbf drop moves both the qdisc counter and SndbufErrors: never add them */
	if (!q && pos(in->snd_buf_errors) && left) {
		struct bc_ledger_finding *f;

		snprintf(subj, sizeof(subj), "%s/%s", in->sender, in->sender_bond);
		f = add(l, "tx-loss", subj, in->sender_addr, min64(pos(in->snd_buf_errors), left),
			in->sent_by_app);
		if (f)
			snprintf(f->counter, sizeof(f->counter), "Udp SndbufErrors +%llu (ENOBUFS)",
				 (unsigned long long)pos(in->snd_buf_errors));
	}
	s->explained = min64(s->drop, q > pos(in->snd_buf_errors) ? q : pos(in->snd_buf_errors));
}

/* Stage 2: bracketed loss per path, explained by counters before wire-loss. */
static void on_path(const struct bc_ledger_in *in, struct bc_ledger *l)
{
	struct bc_ledger_stage *s = &l->st[2];
	uint64_t nic_pool[BC_LEDGER_MAX_LINKS] = {0}, nic_used[BC_LEDGER_MAX_LINKS] = {0};
	uint64_t peer_pool[BC_LEDGER_MAX_LINKS] = {0}, peer_used[BC_LEDGER_MAX_LINKS] = {0};
	uint64_t soft = in->shared_kernel ? 0 : pos(in->softnet_dropped), soft_used = 0;
	uint64_t explained = 0;
	char subj[BC_LEDGER_NAME];

	for (size_t r = 0; r < in->n_rx; r++) {
		nic_pool[r] = bc_ledger_nic_drops(&in->rx[r]);
		peer_pool[r] = pos(in->rx[r].peer_tx_dropped);
	}
	for (size_t i = 0; i < in->n_tx; i++) {
		const struct bc_ledger_tx *t = &in->tx[i];
		int r = rx_index(in, t->peer);
		uint64_t rest = t->lost, e, txd = pos(t->tx_dropped);

		if (r >= 0) {
			e = min64(rest, nic_pool[r]);
			nic_pool[r] -= e;
			nic_used[r] += e;
			rest -= e;
			explained += e;
			/* the veth peer could not queue onto this slave's backlog */
			e = min64(rest, peer_pool[r]);
			peer_pool[r] -= e;
			peer_used[r] += e;
			rest -= e;
			explained += e;
			/* the sender's slave is that peer: its tx_dropped is the same count */
			if (in->rx[r].peer_is_sender)
				txd = sub_sat(txd, pos(in->rx[r].peer_tx_dropped));
		}
		e = min64(rest, txd);
		if (e) {
			struct bc_ledger_finding *f =
				add(l, "tx-loss", t->name, in->sender_addr, e, t->left);

			if (f) {
				snprintf(f->counter, sizeof(f->counter),
					 "tx_dropped on %s +%lld (after the capture tap)", t->name,
					 (long long)t->tx_dropped);
				snprintf(f->path, sizeof(f->path), "%s -> %s", t->name,
					 t->peer[0] ? t->peer : "?");
			}
			append(s->counter, sizeof(s->counter), "tx_dropped %s +%lld", t->name,
			       (long long)t->tx_dropped);
			rest -= e;
			explained += e;
		}
		e = min64(rest, soft - soft_used);
		soft_used += e;
		rest -= e;
		explained += e;
		if (rest && t->lost_upper) {
			/* not claimed: the receiving capture may simply have missed them */
			append(s->counter, sizeof(s->counter),
			       "%s: %llu unexplained, at most (a receiving capture dropped frames)",
			       t->name, (unsigned long long)rest);
		} else if (rest) {
			struct bc_ledger_finding *f =
				add(l, "wire-loss", t->name, in->sender_addr, rest, t->left);

			if (f) {
				snprintf(f->path, sizeof(f->path), "%s -> %s", t->name,
					 t->peer[0] ? t->peer : "?");
				snprintf(
					f->counter, sizeof(f->counter),
					"none: peer NIC drops %llu, tx_dropped %lld%s",
					r >= 0 ? (unsigned long long)bc_ledger_nic_drops(&in->rx[r])
					       : 0ull,
					(long long)t->tx_dropped,
					in->shared_kernel && pos(in->softnet_dropped)
						? ", softnet dropped moved but is shared"
						: "");
			}
			l->wire_lost += rest;
		}
	}
	for (size_t r = 0; r < in->n_rx; r++) {
		const struct bc_ledger_rx *x = &in->rx[r];
		struct bc_ledger_finding *f;

		if (!nic_used[r])
			continue;
		f = add(l, "rx-loss-nic", x->name, in->receiver_addr, nic_used[r], 0);
		if (f)
			snprintf(f->counter, sizeof(f->counter),
				 "rx_dropped +%lld, rx_missed_errors +%lld, rx_over_errors +%lld, "
				 "driver %s +%lld",
				 (long long)x->rx_dropped, (long long)x->rx_missed,
				 (long long)x->rx_over,
				 x->driver_counter[0] ? x->driver_counter : "-",
				 (long long)x->driver_drops);
		append(s->counter, sizeof(s->counter), "NIC drops %s +%llu", x->name,
		       (unsigned long long)bc_ledger_nic_drops(x));
	}
	for (size_t r = 0; r < in->n_rx; r++) {
		const struct bc_ledger_rx *x = &in->rx[r];
		struct bc_ledger_finding *f;

		if (pos(x->peer_tx_dropped))
			append(s->counter, sizeof(s->counter), "veth peer tx_dropped %s +%lld",
			       x->name, (long long)x->peer_tx_dropped);
		if (!peer_used[r])
			continue;
		f = add(l, "rx-loss-nic", x->name, in->receiver_addr, peer_used[r], 0);
		if (f)
			snprintf(f->counter, sizeof(f->counter),
				 "tx_dropped +%lld on the peer of the veth %s (its input backlog "
				 "was full)",
				 (long long)x->peer_tx_dropped, x->name);
	}
	if (soft_used) {
		struct bc_ledger_finding *f;

		snprintf(subj, sizeof(subj), "%s/%s", in->receiver, in->receiver_bond);
		f = add(l, "rx-loss-nic", subj, in->receiver_addr, soft_used, 0);
		if (f)
			snprintf(f->counter, sizeof(f->counter),
				 "softnet dropped +%llu (input backlog full)",
				 (unsigned long long)pos(in->softnet_dropped));
	}
	if (pos(in->softnet_dropped)) {
		append(s->counter, sizeof(s->counter), "softnet dropped +%llu%s",
		       (unsigned long long)pos(in->softnet_dropped),
		       in->shared_kernel ? " (global per CPU, both ends share this kernel: "
					   "not split, not subtracted)"
					 : "");
		l->softnet_unsplittable = in->shared_kernel;
	}
	if (in->unbracketed)
		append(s->counter, sizeof(s->counter), "%llu unbracketed (after the last arrival)",
		       (unsigned long long)in->unbracketed);
	s->explained = min64(s->drop, explained);
}

/*
 * Stage 4: whole at the receiver's tap but never counted by UDP: frames the
 * bond refused after the tap (rx_nohandler on the receiving slaves).
 */
static void to_socket(const struct bc_ledger_in *in, struct bc_ledger *l)
{
	struct bc_ledger_stage *s = &l->st[4];
	uint64_t left = s->drop;

	if (!s->known)
		return;
	for (size_t r = 0; r < in->n_rx; r++) {
		const struct bc_ledger_rx *x = &in->rx[r];
		uint64_t d = pos(x->rx_nohandler), e = min64(d, left);
		struct bc_ledger_finding *f;

		if (!d)
			continue;
		append(s->counter, sizeof(s->counter), "rx_nohandler %s +%llu", x->name,
		       (unsigned long long)d);
		if (!e)
			continue;
		f = add(l, "rx-loss-nic", x->name, in->receiver_addr, e, 0);
		if (f)
			snprintf(f->counter, sizeof(f->counter),
				 "rx_nohandler on %s +%llu (after the capture tap, the bond "
				 "delivered them nowhere: an inactive or not collecting slave)",
				 x->name, (unsigned long long)d);
		left -= e;
		s->explained += e;
	}
	if (s->drop && in->rcv_ip_in_receives >= 0)
		append(s->counter, sizeof(s->counter),
		       "Ip InReceives +%lld (every protocol: fewer than arrived means they never "
		       "reached IP)",
		       (long long)in->rcv_ip_in_receives);
}

/* The next step for messages lost at reassembly: the sysctl, or a size under the MTU. */
static void reasm_advice(const struct bc_ledger_in *in, struct bc_ledger_finding *f,
			 const char *fix)
{
	if (in->datagram_max)
		snprintf(f->advice, sizeof(f->advice),
			 "%s, or send datagrams of at most %u bytes (under the path MTU: one "
			 "fragment each, nothing to reassemble)",
			 fix, in->datagram_max);
	else
		snprintf(f->advice, sizeof(f->advice),
			 "%s, or send datagrams under the path MTU (nothing to reassemble)", fix);
}

/*
 * Stage 3's kernel side: messages whole at the receiver's tap that the
 * kernel still did not reassemble (@rest of them), with the reason the Ip
 * counters support.  ReasmFails counts once per failed queue (ip_expire(),
 * ip_frag_too_far(), ip_frag_reasm()) but once per fragment that
 * inet_frag_find() refused over ipfrag_high_thresh (ip_defrag()): more
 * failures than messages died is the memory limit.
 */
static void reasm_kernel(const struct bc_ledger_in *in, struct bc_ledger *l, uint64_t rest)
{
	struct bc_ledger_stage *s3 = &l->st[3];
	uint64_t fails = pos(in->rcv_reasm_fails), tmo = pos(in->rcv_reasm_timeout);
	struct bc_ledger_finding *f;
	char subj[BC_LEDGER_NAME], hi[48] = "unknown", tm[48] = "unknown";

	if (in->ipfrag_high_thresh >= 0)
		snprintf(hi, sizeof(hi), "%lld bytes", (long long)in->ipfrag_high_thresh);
	if (in->ipfrag_time >= 0)
		snprintf(tm, sizeof(tm), "%lld s", (long long)in->ipfrag_time);
	if (!rest || l->reasm_other_traffic)
		return;
	if (fails > s3->drop)
		l->reasm_reason = "memory";
	else if (tmo)
		l->reasm_reason = "timeout";
	else
		return;
	snprintf(subj, sizeof(subj), "%s/%s", in->receiver, in->receiver_bond);
	f = add(l, "rx-loss-reassembly", subj, in->receiver_addr, rest, l->st[2].count);
	s3->explained = min64(s3->drop, s3->explained + rest);
	if (!f)
		return;
	if (!strcmp(l->reasm_reason, "memory")) {
		snprintf(f->counter, sizeof(f->counter),
			 "Ip ReasmFails +%llu, more than the %llu messages that died: fragments "
			 "refused over net.ipv4.ipfrag_high_thresh (%s); ReasmReqds +%lld, "
			 "ReasmOKs +%lld",
			 (unsigned long long)fails, (unsigned long long)s3->drop, hi,
			 (long long)in->rcv_reasm_reqds, (long long)in->rcv_reasm_oks);
		reasm_advice(in, f,
			     "raise net.ipv4.ipfrag_high_thresh on the receiver (the reassembly "
			     "memory of its network namespace; the kernel's default is 4 MiB)");
	} else {
		snprintf(f->counter, sizeof(f->counter),
			 "Ip ReasmTimeout +%llu: queues expired after net.ipv4.ipfrag_time (%s) "
			 "although every fragment reached the receiver's tap; ReasmFails +%llu",
			 (unsigned long long)tmo, tm, (unsigned long long)fails);
		reasm_advice(in, f,
			     "find what dropped fragments after the receiver's capture tap (Ip "
			     "InDiscards, the bond) or raise net.ipv4.ipfrag_time");
	}
}

/* Stages 3 to 5: reassembly and the socket. */
static void receiver(const struct bc_ledger_in *in, struct bc_ledger *l)
{
	struct bc_ledger_stage *s3 = &l->st[3], *s5 = &l->st[5];
	char subj[BC_LEDGER_NAME], sd[24] = "unknown", tm[48] = "";
	struct bc_ledger_finding *f;
	uint64_t e;

	uint64_t left = s3->drop, frag_lost = 0;

	snprintf(subj, sizeof(subj), "%s/%s", in->receiver, in->receiver_bond);
	if (in->ipfrag_time >= 0)
		snprintf(tm, sizeof(tm), " (net.ipv4.ipfrag_time %lld s)",
			 (long long)in->ipfrag_time);
	/* a message that lost a fragment on a link: its other fragments wait in the
	 * receiver's reassembly queue until ipfrag_time, then ReasmFails */
	for (size_t i = 0; i < in->n_tx && left; i++) {
		const struct bc_ledger_tx *t = &in->tx[i];

		e = min64(t->messages_lost, left);
		if (!e)
			continue;
		left -= e;
		frag_lost += e;
		append(s3->counter, sizeof(s3->counter), "fragment lost on %s: %llu messages",
		       t->name, (unsigned long long)t->messages_lost);
		f = add(l, "rx-loss-reassembly", t->name, in->receiver_addr, e, l->st[2].count);
		if (!f)
			continue;
		snprintf(f->path, sizeof(f->path), "%s -> %s", t->name, t->peer[0] ? t->peer : "?");
		snprintf(f->counter, sizeof(f->counter),
			 "captures: %llu messages lost a fragment on %s (%llu fragments lost "
			 "there; the rest wait for ipfrag_time%s); Ip ReasmFails +%lld",
			 (unsigned long long)t->messages_lost, t->name, (unsigned long long)t->lost,
			 tm, (long long)in->rcv_reasm_fails);
		reasm_advice(in, f, "find the loss on that link (wire-loss, NIC drops)");
	}
	s3->explained = min64(s3->drop, frag_lost + in->too_far);
	if (frag_lost)
		l->reasm_reason = "lost-fragment";
	if (in->too_far)
		append(s3->counter, sizeof(s3->counter), "predicted FRAG_TOO_FAR %llu",
		       (unsigned long long)in->too_far);
	if (in->rcv_reasm_reqds >= 0 && (in->frag_messages || pos(in->rcv_reasm_reqds)))
		append(s3->counter, sizeof(s3->counter),
		       "Ip ReasmReqds +%lld (fragments; %llu captured arriving), ReasmOKs +%lld "
		       "(datagrams)",
		       (long long)in->rcv_reasm_reqds, (unsigned long long)in->frag_arrived,
		       (long long)in->rcv_reasm_oks);
	if (pos(in->rcv_reasm_fails))
		append(s3->counter, sizeof(s3->counter), "Ip ReasmFails +%lld",
		       (long long)in->rcv_reasm_fails);
	if (pos(in->rcv_reasm_timeout))
		append(s3->counter, sizeof(s3->counter), "Ip ReasmTimeout +%lld",
		       (long long)in->rcv_reasm_timeout);
	if (l->reasm_other_traffic)
		append(s3->counter, sizeof(s3->counter),
		       "the Ip counters cover the receiver's whole network namespace and moved "
		       "more than the test's fragments: other traffic, not attributed");
	if (in->too_far && left) {
		e = min64(in->too_far, left);
		l->reasm_reason = "too-far";
		f = add(l, "rx-loss-reassembly", subj, in->receiver_addr, e, l->st[2].count);
		left -= e;
		if (f) {
			snprintf(
				f->counter, sizeof(f->counter),
				"captures: %llu messages complete but too far; Ip ReasmFails +%lld",
				(unsigned long long)in->too_far, (long long)in->rcv_reasm_fails);
			reasm_advice(in, f,
				     "fragments of one message arrived more than "
				     "net.ipv4.ipfrag_max_dist apart (reordering across slaves)");
		}
	}
	if (in->rcv_reasm_fails >= 0)
		reasm_kernel(in, l, left);
	if (pos(in->rcv_buf_errors))
		append(s5->counter, sizeof(s5->counter), "Udp RcvbufErrors +%lld",
		       (long long)in->rcv_buf_errors);
	if (pos(in->rcv_in_errors))
		append(s5->counter, sizeof(s5->counter), "Udp InErrors +%lld",
		       (long long)in->rcv_in_errors);
	if (in->rcv_sock_drops >= 0)
		append(s5->counter, sizeof(s5->counter), "socket drops (/proc/net/udp) +%lld",
		       (long long)in->rcv_sock_drops);
	/* InErrors already includes RcvbufErrors, MemErrors and InCsumErrors; the
	 * sockets' own drops are the same datagrams seen per socket: the larger */
	e = pos(in->rcv_in_errors) > pos(in->rcv_buf_errors) ? pos(in->rcv_in_errors)
							     : pos(in->rcv_buf_errors);
	if (pos(in->rcv_sock_drops) > e)
		e = pos(in->rcv_sock_drops);
	s5->explained = min64(s5->drop, e);
	if (!e || !s5->drop)
		return;
	f = add(l, "rx-loss-socket", subj, in->receiver_addr, s5->drop, l->st[4].count);
	if (in->rcv_sock_drops >= 0)
		snprintf(sd, sizeof(sd), "+%lld", (long long)in->rcv_sock_drops);
	if (f)
		snprintf(f->counter, sizeof(f->counter),
			 "Udp RcvbufErrors +%lld, InErrors +%lld, socket drops (/proc/net/udp) %s",
			 (long long)in->rcv_buf_errors, (long long)in->rcv_in_errors, sd);
}

/*
 * Stage 3's count: the unfragmented datagrams that arrived plus the
 * fragmented messages the kernel reassembled (ReasmOKs, at most those whole
 * at the tap).  When ReasmReqds exceeds the fragments the receiver's captures
 * saw, other traffic in the namespace moved the counters: the captures'
 * prediction stands, and the stage says why.
 */
static uint64_t reassembled(const struct bc_ledger_in *in, struct bc_ledger *l)
{
	if (in->rcv_reasm_oks < 0 || in->rcv_reasm_reqds < 0 || !in->frag_messages)
		return in->reassembled;
	if (pos(in->rcv_reasm_reqds) > in->frag_arrived) {
		l->reasm_other_traffic = true;
		return in->reassembled;
	}
	/* the captures may split a message whose first fragment was lost in two
	 * (frag_messages over-counts, frag_complete under-counts): the kernel's
	 * count, capped by what arrived, is the truth here */
	return min64(in->arrived, sub_sat(in->arrived, in->frag_messages) + pos(in->rcv_reasm_oks));
}

void bc_ledger_compute(const struct bc_ledger_in *in, struct bc_ledger *l)
{
	bool sock = in->rcv_in_datagrams >= 0 && in->rcv_in_errors >= 0;

	memset(l, 0, sizeof(*l));
	l->reasm_reason = "";
	stage(l, 0, "sent_by_app", in->sent_by_app, true);
	stage(l, 1, "left_on_link", in->left, true);
	stage(l, 2, "arrived_on_link", in->arrived, true);
	stage(l, 3, "reassembled", reassembled(in, l), true);
	stage(l, 4, "reached_socket",
	      sock ? pos(in->rcv_in_datagrams) + pos(in->rcv_in_errors) : in->reassembled, sock);
	stage(l, 5, "read_by_app", in->read_by_app, true);
	before_tap(in, l);
	on_path(in, l);
	to_socket(in, l);
	receiver(in, l);
}
