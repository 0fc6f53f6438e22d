// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Findings of the capture attribution (DESIGN.md "The findings catalog"):
 * link-idle, reordering, wire-loss, rx-loss-reassembly, capture-incomplete.
 * Each names a qualified link ("tx:eth1") and the host's address.  Reads
 * struct bc_attrib only; ids and severities come from the shared catalog.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/attrib-int.h"
#include "bondcheck/findings.h"

/* The snap length our header needs: Ethernet + tag + IPv4 + UDP + ours. */
#define NEED_SNAPLEN (14 + 4 + 20 + 8 + BC_UDPHDR_LEN)

static struct bc_finding *add(struct bc_attrib *a, const char *id, const char *subject,
			      const char *fmt, ...)
{
	const struct bc_finding_def *d = bc_findings_lookup(id);
	struct bc_finding *f;
	va_list ap;

	if (!d)
		return NULL;
	f = realloc(a->findings, (a->n_findings + 1) * sizeof(*f));
	if (!f)
		return NULL;
	a->findings = f;
	f = &f[a->n_findings++];
	memset(f, 0, sizeof(*f));
	f->id = d->id;
	f->severity = d->severity;
	snprintf(f->subject, sizeof(f->subject), "%s", subject);
	va_start(ap, fmt);
	vsnprintf(f->advice, sizeof(f->advice), fmt, ap);
	va_end(ap);
	return f;
}

/* The address of the host a link belongs to (sender for tx:, receiver for rx:). */
static const char *host_of(const struct bc_attrib *a, const struct bc_attrib_link *l, char *buf,
			   size_t len)
{
	const struct priv *pv = a->priv;
	int want = l->side == BC_SIDE_TX ? BC_DIR_FWD : BC_DIR_REV;

	for (size_t i = 0; i < pv->n_pairs; i++)
		if (pv->pairs[i].dir == want) {
			/* forward pairs start at the sender, reverse ones at the receiver */
			inet_ntop(pv->pairs[i].version == 6 ? AF_INET6 : AF_INET, pv->pairs[i].src,
				  buf, (socklen_t)len);
			return buf;
		}
	if (l->side == BC_SIDE_TX || !pv->n_pairs) {
		inet_ntop(a->cfg.local_version == 6 ? AF_INET6 : AF_INET, a->cfg.local, buf,
			  (socklen_t)len);
		return buf;
	}
	for (size_t i = 0; i < pv->n_pairs; i++)
		if (pv->pairs[i].dir == BC_DIR_FWD) {
			inet_ntop(pv->pairs[i].version == 6 ? AF_INET6 : AF_INET, pv->pairs[i].dst,
				  buf, (socklen_t)len);
			return buf;
		}
	return "unknown";
}

const char *bc_bound_name(enum bc_bound b)
{
	switch (b) {
	case BC_BOUND_EXACT:
		return "exact";
	case BC_BOUND_LOWER:
		return "lower";
	case BC_BOUND_UPPER:
		return "upper";
	default:
		return "unknown";
	}
}

bool bc_attrib_link_incomplete(const struct bc_attrib *a, size_t l)
{
	const struct bc_attrib_link *k = &a->links[l];

	return k->truncated || k->snapped || k->ps_drop ||
	       (k->snaplen && k->snaplen < NEED_SNAPLEN);
}

bool bc_attrib_side_incomplete(const struct bc_attrib *a, enum bc_side side)
{
	/* unjoined[0]: left fragments whose first fragment the sender never saw leave */
	if (side == BC_SIDE_TX && (a->rx_without_tx || a->frag.unjoined[0]))
		return true;
	if (side == BC_SIDE_RX && a->frag.unjoined[1])
		return true;
	for (size_t i = 0; i < a->n_links; i++)
		if (a->links[i].side == side && bc_attrib_link_incomplete(a, i))
			return true;
	return false;
}

enum bc_bound bc_attrib_count_bound(const struct bc_attrib *a, size_t l)
{
	return bc_attrib_link_incomplete(a, l) ? BC_BOUND_LOWER : BC_BOUND_EXACT;
}

static enum bc_bound bound_of(bool arrival_incomplete, bool own_incomplete)
{
	if (arrival_incomplete && own_incomplete)
		return BC_BOUND_UNKNOWN;
	return arrival_incomplete ? BC_BOUND_UPPER
	       : own_incomplete	  ? BC_BOUND_LOWER
				  : BC_BOUND_EXACT;
}

/* Two bounds of parts of one sum: the sum's. */
static enum bc_bound bound_sum(enum bc_bound x, enum bc_bound y)
{
	if (x == BC_BOUND_EXACT || x == y)
		return y;
	if (y == BC_BOUND_EXACT)
		return x;
	return BC_BOUND_UNKNOWN;
}

enum bc_bound bc_attrib_loss_bound(const struct bc_attrib *a, long l)
{
	enum bc_bound b = BC_BOUND_EXACT;
	bool any = false;

	if (l >= 0) {
		enum bc_side side = a->links[l].side;

		return bound_of(
			bc_attrib_side_incomplete(a, side == BC_SIDE_TX ? BC_SIDE_RX : BC_SIDE_TX),
			bc_attrib_link_incomplete(a, (size_t)l));
	}
	for (size_t i = 0; i < a->n_links; i++)
		if (a->links[i].units_left) {
			b = bound_sum(b, bc_attrib_loss_bound(a, (long)i));
			any = true;
		}
	if (any)
		return b;
	/* nothing seen leaving: the sender side is "tx:" */
	return bound_of(bc_attrib_side_incomplete(a, BC_SIDE_RX),
			bc_attrib_side_incomplete(a, BC_SIDE_TX));
}

enum bc_bound bc_attrib_reorder_bound(const struct bc_attrib *a)
{
	if (bc_attrib_side_incomplete(a, BC_SIDE_RX))
		return BC_BOUND_UNKNOWN;
	for (size_t i = 0; i < a->n_links; i++)
		if (a->links[i].units_arrived && bc_attrib_link_incomplete(a, i))
			return BC_BOUND_UNKNOWN;
	return BC_BOUND_EXACT;
}

static int capture_incomplete(struct bc_attrib *a)
{
	char host[64], fix[160];

	for (size_t i = 0; i < a->n_links; i++) {
		struct bc_attrib_link *l = &a->links[i];
		bool small = l->snaplen && l->snaplen < NEED_SNAPLEN;
		struct bc_finding *f;

		if (!bc_attrib_link_incomplete(a, i))
			continue;
		if (l->ps_drop)
			snprintf(fix, sizeof(fix),
				 "with a larger ring (bondcheck run --capture-buffer, tcpdump -B) "
				 "or at a lower rate: the kernel dropped frames the reader had no "
				 "room for");
		else if (small || l->snapped)
			snprintf(fix, sizeof(fix), "with a snap length of at least %d bytes",
				 NEED_SNAPLEN);
		else
			snprintf(fix, sizeof(fix), "and let the capture finish");
		f = add(a, "capture-incomplete", l->name,
			"Counts on %s are lower bounds, loss derived from it an upper bound and "
			"its reordering unknown; capture again %s",
			l->name, fix);
		if (!f)
			return -ENOMEM;
		bc_finding_evidence(f, "host", "%s", host_of(a, l, host, sizeof(host)));
		if (l->truncated)
			bc_finding_evidence(f, "truncated", "%s", l->trunc_msg);
		if (l->ps_drop)
			bc_finding_evidence(f, "ps_drop", "%llu (the capture ring was full)",
					    (unsigned long long)l->ps_drop);
		if (l->snapped)
			bc_finding_evidence(f, "snapped_packets", "%llu",
					    (unsigned long long)l->snapped);
		if (small)
			bc_finding_evidence(f, "snaplen", "%u (our header needs %d)", l->snaplen,
					    NEED_SNAPLEN);
	}
	if (a->rx_without_tx || a->frag.unjoined[0] || a->frag.unjoined[1]) {
		struct bc_finding *f = add(a, "capture-incomplete", "tx",
					   "Packets arrived that no sender capture saw leave, or "
					   "fragments never met their first fragment: a sender "
					   "capture is missing, started late or dropped packets");

		if (!f)
			return -ENOMEM;
		bc_finding_evidence(f, "arrived_not_left", "%llu",
				    (unsigned long long)a->rx_without_tx);
		bc_finding_evidence(f, "unjoined_fragments", "left %llu, arrived %llu",
				    (unsigned long long)a->frag.unjoined[0],
				    (unsigned long long)a->frag.unjoined[1]);
	}
	return 0;
}

/* A link of a side that has at least as many forward flows as links. */
static int link_idle(struct bc_attrib *a)
{
	char host[64];

	for (int side = BC_SIDE_TX; side <= BC_SIDE_RX; side++) {
		uint64_t total = 0;
		size_t n = 0;
		uint32_t flows = 0;

		for (size_t i = 0; i < a->n_links; i++)
			if (a->links[i].side == (enum bc_side)side) {
				total += a->links[i].dir[BC_DIR_FWD].frames;
				n++;
			}
		for (size_t f = 0; f < a->n_flows; f++)
			flows += a->flows[f].dir == BC_DIR_FWD && a->flows[f].proto != 0;
		/* fewer flows than slaves (hash modes) are expected idle, not a finding */
		if (n < 2 || !total || flows < n)
			continue;
		for (size_t i = 0; i < a->n_links; i++) {
			struct bc_attrib_link *l = &a->links[i];
			double share;
			struct bc_finding *f;

			if (l->side != (enum bc_side)side)
				continue;
			share = (double)l->dir[BC_DIR_FWD].frames / (double)total;
			if (share >= a->cfg.idle_share)
				continue;
			f = add(a, "link-idle", l->name,
				"%s carried %.2f %% of the test frames on its side although there "
				"are %u flows for %zu links: check the mode, xmit_hash_policy and "
				"whether the slave is in the active aggregator",
				l->name, share * 100, flows, n);
			if (!f)
				return -ENOMEM;
			bc_finding_evidence(f, "host", "%s", host_of(a, l, host, sizeof(host)));
			bc_finding_evidence(f, "frames", "%llu of %llu",
					    (unsigned long long)l->dir[BC_DIR_FWD].frames,
					    (unsigned long long)total);
		}
	}
	return 0;
}

/*
 * The reordering finding.  Two counts with two bases, both named: n_reordered
 * (RFC 4737 section 5 n-reordering, packets n or more positions late, n =
 * cfg.late_threshold) decides whether there is a finding; the link pairs
 * charge every late packet (RFC 4737 section 3, s < NextExp) once, so the
 * top pair is given out of n_late, the pairs' own total.  A pair of a link
 * with itself is no reordering between links: the late packet arrived behind
 * a later one on its own link, so the order changed before or on that one
 * link (the sender's order, a retransmission, or the link's own tx/rx queues
 * and their per-CPU timestamps); it is counted as out_of_order_on_one_link
 * and never named the top pair.
 */
static int reordering(struct bc_attrib *a)
{
	uint64_t late = 0, best = 0, n_late = 0, same = 0;
	size_t be = 0, bl = 0;
	unsigned n = a->cfg.late_threshold;
	struct bc_finding *f;
	char host[64];

	if (n < 1 || n > BC_SEQWIN_NREORD)
		n = BC_SEQWIN_NREORD;
	for (size_t s = 0; s < a->n_streams; s++)
		late += a->streams[s].win_ready ? a->streams[s].win.nreord[n - 1] : 0;
	for (size_t t = 0; t < a->n_tcp_flows; t++)
		late += a->tcp_flows[t].win_ready ? a->tcp_flows[t].win.nreord[n - 1] : 0;
	if (!late)
		return 0;
	for (size_t e = 0; e < a->n_links; e++)
		for (size_t l = 0; l < a->n_links; l++) {
			n_late += a->pairs[e][l];
			if (e == l) {
				same += a->pairs[e][l];
				continue;
			}
			if (a->pairs[e][l] > best) {
				best = a->pairs[e][l];
				be = e;
				bl = l;
			}
		}
	if (best)
		f = add(a, "reordering", a->links[bl].name,
			"Datagrams or TCP segments arrived %u or more positions late (observation "
			"point: merged receiver slave captures); most were late on %s behind %s: "
			"compare that link's delay, queueing and driver with the others",
			n, a->links[bl].name, a->links[be].name);
	else
		f = add(a, "reordering", "rx",
			"Datagrams or TCP segments arrived %u or more positions late (observation "
			"point: merged receiver slave captures), each behind a later one on its "
			"own link: out of order within one link (the sender's order, a "
			"retransmission or the link's own queues), not reordered between links",
			n);
	if (!f)
		return -ENOMEM;
	if (best)
		bc_finding_evidence(f, "host", "%s", host_of(a, &a->links[bl], host, sizeof(host)));
	bc_finding_evidence(f, "n_reordered", "%llu packets %u-reordered", (unsigned long long)late,
			    n);
	bc_finding_evidence(f, "reordered_ratio", "%.4f", bc_attrib_reordered_ratio(a));
	if (n_late)
		bc_finding_evidence(f, "n_late", "%llu packets late (any extent), charged to "
				    "link pairs", (unsigned long long)n_late);
	if (best)
		bc_finding_evidence(f, "top_pair", "%s late behind %s: %llu of the %llu late",
				    a->links[bl].name, a->links[be].name, (unsigned long long)best,
				    (unsigned long long)n_late);
	if (same)
		bc_finding_evidence(f, "out_of_order_on_one_link",
				    "%llu late behind a later packet on their own link (the "
				    "sender's order, a retransmission or the link's own queues)",
				    (unsigned long long)same);
	bc_finding_evidence(f, "observation_point", "merged-rx-slave-captures");
	return 0;
}

static int wire_loss(struct bc_attrib *a)
{
	char host[64];

	for (size_t i = 0; i < a->n_links; i++) {
		struct bc_attrib_link *l = &a->links[i];
		/* our datagrams and TCP chunks (a TCP segment per MSS) */
		uint64_t sent =
			l->units_left - l->unbracketed + l->tcp.chunks_left - l->tcp.unbracketed;
		uint64_t lost = l->lost + l->tcp.lost;
		enum bc_bound bound = bc_attrib_loss_bound(a, (long)i);
		struct bc_finding *f;

		/* the receiving capture missed frames: "lost" is only an upper bound, and
		 * capture-incomplete says so; claiming wire loss from it would be wrong */
		if (!lost || bound == BC_BOUND_UPPER || bound == BC_BOUND_UNKNOWN)
			continue;
		f = add(a, "wire-loss", l->name,
			"%llu of %llu packets that left on %s never reached a receiver capture "
			"(%.2f %%); offline this stage also holds receiver NIC drops: compare "
			"the peer slave's rx_missed_errors/rx_dropped, or use `bondcheck run`",
			(unsigned long long)lost, (unsigned long long)sent, l->name,
			sent ? 100.0 * (double)lost / (double)sent : 0);
		if (!f)
			return -ENOMEM;
		bc_finding_evidence(f, "host", "%s", host_of(a, l, host, sizeof(host)));
		bc_finding_evidence(f, "path", "%s -> %s", l->name,
				    l->peer >= 0 ? a->links[l->peer].name : "?");
		bc_finding_evidence(f, "lost", "%llu", (unsigned long long)lost);
		bc_finding_evidence(f, "left_bracketed", "%llu", (unsigned long long)sent);
		if (l->tcp.lost)
			bc_finding_evidence(f, "tcp_lost", "%llu TCP chunks (%llu bytes)",
					    (unsigned long long)l->tcp.lost,
					    (unsigned long long)l->tcp.lost_bytes);
		bc_finding_evidence(f, "stage",
				    "between the sender's and the receiver's slave taps");
	}
	return 0;
}

static int reassembly(struct bc_attrib *a)
{
	const struct bc_attrib_frag *fr = &a->frag;
	const char *subj = fr->too_far_link >= 0 ? a->links[fr->too_far_link].name : "rx";
	struct bc_finding *f;
	char host[64];

	for (size_t i = 0; i < a->n_links; i++) {
		const struct bc_attrib_link *l = &a->links[i];

		if (!l->messages_lost)
			continue;
		f = add(a, "rx-loss-reassembly", l->name,
			"%llu fragmented messages reached the receiver in part: a fragment of "
			"each was lost on %s (%llu packets lost there), so the receiver's "
			"reassembly drops the rest of the message after net.ipv4.ipfrag_time "
			"(ReasmFails); one lost fragment costs the whole message: fix the loss "
			"on %s or send messages that fit the MTU",
			(unsigned long long)l->messages_lost, l->name, (unsigned long long)l->lost,
			l->name);
		if (!f)
			return -ENOMEM;
		bc_finding_evidence(f, "host", "%s",
				    host_of(a, &a->links[l->peer >= 0 ? (size_t)l->peer : i], host,
					    sizeof(host)));
		bc_finding_evidence(f, "path", "%s -> %s", l->name,
				    l->peer >= 0 ? a->links[l->peer].name : "?");
		bc_finding_evidence(f, "messages_lost", "%llu",
				    (unsigned long long)l->messages_lost);
		bc_finding_evidence(f, "fragments_lost", "%llu", (unsigned long long)l->lost);
		bc_finding_evidence(f, "predicted_from", "captures (ReasmFails corroborates live)");
	}
	if (!fr->too_far)
		return 0;
	f = add(a, "rx-loss-reassembly", subj,
		"%llu fragmented messages arrived complete but with more than %u fragments of "
		"the same source between two of theirs: the kernel drops such queues "
		"(FRAG_TOO_FAR, ReasmFails); reduce reordering on %s or raise "
		"net.ipv4.ipfrag_max_dist",
		(unsigned long long)fr->too_far, a->cfg.ipfrag_max_dist, subj);
	if (!f)
		return -ENOMEM;
	if (fr->too_far_link >= 0)
		bc_finding_evidence(f, "host", "%s",
				    host_of(a, &a->links[fr->too_far_link], host, sizeof(host)));
	bc_finding_evidence(f, "messages", "%llu complete, %llu too far, %llu incomplete",
			    (unsigned long long)fr->complete, (unsigned long long)fr->too_far,
			    (unsigned long long)fr->incomplete);
	bc_finding_evidence(f, "predicted_from", "captures (ReasmFails corroborates live)");
	return 0;
}

int bc_attrib_findings(struct bc_attrib *a)
{
	int rc;

	free(a->findings);
	a->findings = NULL;
	a->n_findings = 0;
	rc = wire_loss(a);
	if (!rc)
		rc = reassembly(a);
	if (!rc)
		rc = reordering(a);
	if (!rc)
		rc = link_idle(a);
	if (!rc)
		rc = capture_incomplete(a);
	return rc;
}
