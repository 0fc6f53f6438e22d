// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text of `bondcheck analyze`: per-link table (data direction), paths
 * learned from the captures, reordering pairs, fragments, the offline loss
 * ledger and the findings.  Pure: reads a finished struct bc_attrib.
 */
#include <arpa/inet.h>
#include <inttypes.h>

#include "bondcheck/analyze-report.h"
#include "bondcheck/names.h"
#include "bondcheck/units.h"
#include "bondcheck/wrap.h"
#include "report/analyze-ledger.h"

/* One reordering pair: count, extent, TCP share, RFC 5236 D of its late packets. */
static void pair_text(FILE *out, const struct bc_attrib *a, size_t e, size_t l)
{
	uint64_t disc = bc_attrib_pair_rd_discarded(a, e, l);
	const char *sep = "";

	/* a link with itself: no pair of links (attrib-findings.c reordering()) */
	if (e == l)
		fprintf(out, "  out of order within %-35s %8" PRIu64 " (extent max %" PRIu64,
			a->links[l].name, a->pairs[e][l], a->pair_extent_max[e][l]);
	else
		fprintf(out, "  late on %-20s behind %-20s %8" PRIu64 " (extent max %" PRIu64,
			a->links[l].name, a->links[e].name, a->pairs[e][l],
			a->pair_extent_max[e][l]);
	if (a->tcp_pairs[e][l])
		fprintf(out, ", TCP %" PRIu64, a->tcp_pairs[e][l]);
	fprintf(out, "; RFC 5236 D ");
	for (int d = -(int)a->cfg.rd_threshold; d <= (int)a->cfg.rd_threshold; d++) {
		uint64_t c = bc_attrib_pair_rd(a, e, l, d);

		if (c) {
			fprintf(out, "%s%d: %" PRIu64, sep, d, c);
			sep = ", ";
		}
	}
	if (disc)
		fprintf(out, "%s>%u: %" PRIu64, sep, a->cfg.rd_threshold, disc);
	fprintf(out, ")\n");
}

/*
 * UDP datagrams of another generator (neither bondcheck's header nor an
 * iperf3 stream: an application) are counted per link, never silently
 * dropped: said once, from the tx: links when there are some (each datagram
 * left once), else from the rx: links.
 */
static void other_udp_note(FILE *out, const struct bc_attrib *a)
{
	uint64_t n[2] = { 0, 0 };

	for (size_t i = 0; i < a->n_links; i++)
		n[a->links[i].side == BC_SIDE_TX] += a->links[i].udp_other;
	if (!n[0] && !n[1])
		return;
	fprintf(out,
		"  %" PRIu64 " UDP datagrams of another generator (neither bondcheck's header\n"
		"  nor an iperf3 stream) %s: counted, not attributed;\n"
		"  loss, reordering and the ledger cover bondcheck's and iperf3's UDP streams\n"
		"  and TCP (its own table)\n",
		n[1] ? n[1] : n[0], n[1] ? "left on the tx: links" : "arrived on the rx: links");
}

/* "10.0.0.1:40000 -> 10.0.0.2:5201" of flow @f into @buf. */
static const char *flow_name(const struct bc_attrib_flow *f, char *buf, size_t len)
{
	char src[64], dst[64];
	int af = f->version == 6 ? AF_INET6 : AF_INET;

	inet_ntop(af, f->src, src, sizeof(src));
	inet_ntop(af, f->dst, dst, sizeof(dst));
	snprintf(buf, len, f->version == 6 ? "[%s]:%u -> [%s]:%u" : "%s:%u -> %s:%u", src, f->sport,
		 dst, f->dport);
	return buf;
}

/*
 * The UDP streams and the generator each was recognised as: bondcheck's
 * header (test and stream ids) or iperf3's payload (counter width, and
 * whether the control connection's JSON gave it).
 */
static void streams_text(FILE *out, const struct bc_attrib *a)
{
	uint64_t conn = 0;
	char fl[128];

	for (size_t i = 0; i < a->n_links; i++)
		conn += a->links[i].iperf3_connect;
	if (!a->n_streams)
		return;
	fprintf(out, "\nUDP streams (datagrams, by first fragment; generator recognised from the "
		     "payload)\n");
	for (size_t i = 0; i < a->n_streams; i++) {
		const struct bc_attrib_stream *s = &a->streams[i];
		char gen[64];

		if (s->gen == BC_GEN_IPERF3)
			snprintf(gen, sizeof(gen), "iperf3 (%u-bit counter, %s)", s->counter_bits,
				 s->counter_from_control ? "from its control JSON" : "inferred");
		else
			snprintf(gen, sizeof(gen), "bondcheck test %u stream %u", s->test_id,
				 s->stream_id);
		fprintf(out, "  %s  %s %s\n", gen,
			s->flow >= 0 ? flow_name(&a->flows[s->flow], fl, sizeof(fl)) : "?",
			s->dir == BC_DIR_FWD ? "forward" : "reverse");
		fprintf(out,
			"    left %" PRIu64 ", arrived %" PRIu64 ", lost %" PRIu64
			", unbracketed %" PRIu64 ", duplicates %" PRIu64,
			s->left, s->arrived, s->lost, s->unbracketed, s->duplicates);
		if (s->win_ready)
			fprintf(out, "; reordered %" PRIu64 " of %" PRIu64 ", extent max %" PRIu64,
				s->win.reordered, s->win.received, s->win.extent_max);
		fprintf(out, "\n");
	}
	if (conn)
		fprintf(out,
			"  iperf3 connect datagrams and replies (not data): %" PRIu64
			" in the captures\n",
			conn);
}

/* TCP flows and links (attrib-tcp.c), when any TCP flow carried data. */
static void tcp_text(FILE *out, const struct bc_attrib *a)
{
	char src[64], dst[64];
	bool any = false;

	for (size_t i = 0; i < a->n_tcp_flows; i++)
		any |= a->tcp_flows[i].tx_seen || a->tcp_flows[i].rx_seen;
	if (!any)
		return;
	fprintf(out, "\nTCP flows (chunks: per-MSS pieces of segments, mapped by byte range)\n");
	for (size_t i = 0; i < a->n_tcp_flows; i++) {
		const struct bc_attrib_tcp_flow *t = &a->tcp_flows[i];
		const struct bc_attrib_flow *f = &a->flows[t->flow];

		if (!t->tx_seen && !t->rx_seen)
			continue;
		inet_ntop(f->version == 6 ? AF_INET6 : AF_INET, f->src, src, sizeof(src));
		inet_ntop(f->version == 6 ? AF_INET6 : AF_INET, f->dst, dst, sizeof(dst));
		fprintf(out, "  %s:%u -> %s:%u %s, MSS %u (%s)%s%s\n", src, f->sport, dst, f->dport,
			t->dir == BC_DIR_FWD ? "forward" : "reverse", t->mss, t->mss_source,
			t->tx_seen ? "" : ", no sender capture",
			t->rx_seen ? "" : ", no receiver capture");
		fprintf(out,
			"    left %" PRIu64 " chunks (%" PRIu64 " retransmitted, %" PRIu64
			" spurious), arrived %" PRIu64 " (%" PRIu64 " retransmissions, %" PRIu64
			" duplicates), lost %" PRIu64 ", unbracketed %" PRIu64 "\n",
			t->chunks_left, t->retransmits, t->spurious, t->chunks_arrived,
			t->retransmits_arrived, t->duplicates, t->lost, t->unbracketed);
		if (t->win_ready)
			fprintf(out,
				"    reordered %" PRIu64 " of %" PRIu64
				" (ratio %.4f), extent max %" PRIu64 ", 3-reordered %" PRIu64 "\n",
				t->win.reordered, t->win.received,
				t->win.received ? (double)t->win.reordered / (double)t->win.received
						: 0,
				t->win.extent_max, t->win.nreord[2]);
	}
	fprintf(out, "  %-20s %10s %10s %8s %12s %9s\n", "link", "left", "arrived", "lost",
		"retransmits", "spurious");
	for (size_t i = 0; i < a->n_links; i++) {
		const struct bc_attrib_tcp_link *t = &a->links[i].tcp;

		if (!t->chunks_left && !t->chunks_arrived)
			continue;
		fprintf(out,
			"  %-20s %10" PRIu64 " %10" PRIu64 " %8" PRIu64 " %12" PRIu64 " %9" PRIu64
			"\n",
			a->links[i].name, t->chunks_left, t->chunks_arrived, t->lost,
			t->retransmits, t->spurious);
	}
}

void bc_analyze_text(FILE *out, const struct bc_attrib *a)
{
	struct ledger_stage st[LEDGER_STAGES];
	char rate[32];
	bool any = false;

	bc_analyze_answers(out, a);
	fprintf(out, "\nLinks (IP frames away from the sender; left/arrived/lost: UDP datagrams "
		     "of the streams below)\n");
	fprintf(out, "  %-20s %10s %12s %14s %6s %6s %8s %8s %6s %9s %s\n", "link", "frames",
		"bytes", "wire rate", "flows", "super", "left", "arrived", "lost", "other UDP",
		"peer");
	for (size_t i = 0; i < a->n_links; i++) {
		const struct bc_attrib_link *l = &a->links[i];
		const struct bc_link_dir *d = &l->dir[BC_DIR_FWD];

		fprintf(out,
			"  %-20s %10" PRIu64 " %12" PRIu64 " %14s %6u %6" PRIu64 " %8" PRIu64
			" %8" PRIu64 " %6" PRIu64 " %9" PRIu64 " %s\n",
			l->name, d->frames, d->bytes,
			bc_format_rate(bc_attrib_wire_bps(l, BC_DIR_FWD), rate, sizeof(rate)),
			d->flows, d->super_frames, l->units_left, l->units_arrived, l->lost,
			l->udp_other, l->peer >= 0 ? a->links[l->peer].name : "-");
	}
	other_udp_note(out, a);
	for (size_t i = 0; i < a->n_links; i++)
		if (bc_attrib_link_incomplete(a, i))
			fprintf(out,
				"  %s: capture incomplete: its counts are lower bounds%s\n",
				a->links[i].name,
				a->links[i].side == BC_SIDE_RX
					? ", loss derived from it an upper bound, reordering unknown"
					: ", the loss on it a lower bound");
	for (size_t i = 0; i < a->n_links; i++) {
		const struct bc_attrib_link *l = &a->links[i];
		char w1[128], w2[128];

		if (l->lacpdus)
			fprintf(out, "  %s: %" PRIu64 " LACPDUs, last actor [%s] partner [%s]\n",
				l->name, l->lacpdus,
				bc_lacp_state_words(l->last_lacp.actor.state, w1, sizeof(w1)),
				bc_lacp_state_words(l->last_lacp.partner.state, w2, sizeof(w2)));
	}
	fprintf(out, "\nPaths (UDP datagrams and TCP chunks that left on -> arrived on)\n");
	for (size_t t = 0; t < a->n_links; t++)
		for (size_t r = 0; r < a->n_links; r++)
			if (a->path[t][r]) {
				fprintf(out, "  %-20s -> %-20s %10" PRIu64, a->links[t].name,
					a->links[r].name, a->path[t][r]);
				if (a->tcp_path[t][r])
					fprintf(out, " (TCP chunks %" PRIu64 ")",
						a->tcp_path[t][r]);
				fprintf(out, "\n");
				any = true;
			}
	if (!any)
		fprintf(out, "  none (give both tx: and rx: captures)\n");
	streams_text(out, a);
	tcp_text(out, a);
	fprintf(out, "\nReordering (UDP datagrams and TCP chunks; observation point: merged "
		     "receiver slave captures)\n");
	if (a->tcp_received)
		fprintf(out,
			"  %" PRIu64 " of %" PRIu64
			" packets late, ratio %.4f (UDP datagrams %" PRIu64 " of %" PRIu64
			", TCP chunks %" PRIu64 " of %" PRIu64 ")\n",
			a->rx_reordered, a->rx_received, bc_attrib_reordered_ratio(a),
			a->rx_reordered - a->tcp_reordered, a->rx_received - a->tcp_received,
			a->tcp_reordered, a->tcp_received);
	else
		fprintf(out, "  %" PRIu64 " of %" PRIu64 " datagrams late, ratio %.4f\n",
			a->rx_reordered, a->rx_received, bc_attrib_reordered_ratio(a));
	if (bc_attrib_reorder_bound(a) == BC_BOUND_UNKNOWN)
		fprintf(out, "  unknown: a receiver capture is incomplete, the order it saw is not "
			     "the order that arrived\n");
	for (size_t e = 0; e < a->n_links; e++)
		for (size_t l = 0; l < a->n_links; l++)
			if (a->pairs[e][l])
				pair_text(out, a, e, l);
	for (size_t e = 0; e < a->n_links; e++)
		if (a->pairs[e][e]) {
			fprintf(out, "  (out of order within a link: behind a later packet on the "
				     "same link, so not reordering between links: the sender's "
				     "order, a retransmission or the link's own queues)\n");
			break;
		}
	if (a->frag.fragments[0] || a->frag.fragments[1])
		fprintf(out,
			"\nFragments (UDP): %" PRIu64 " left, %" PRIu64
			" arrived; messages %" PRIu64 " complete, %" PRIu64 " incomplete, %" PRIu64
			" too far\n",
			a->frag.fragments[0], a->frag.fragments[1], a->frag.complete,
			a->frag.incomplete, a->frag.too_far);
	fprintf(out, "\nLoss ledger (forward, UDP datagrams of the streams above, from the "
		     "captures)\n");
	analyze_ledger(a, st);
	for (int i = 0; i < LEDGER_STAGES; i++) {
		if (st[i].absent)
			fprintf(out, "  %-16s %10s  (%s)\n", st[i].stage, "absent", st[i].source);
		else
			fprintf(out, "  %-16s %10" PRIu64 "  (%s)\n", st[i].stage, st[i].count,
				st[i].source);
	}
	if (a->skew_units)
		fprintf(out,
			"\nClock skew: %" PRIu64 " packets arrived before they left; one-way "
			"delays are not meaningful\n",
			a->skew_units);
	fprintf(out, "\nFindings\n");
	if (!a->n_findings)
		fprintf(out, "  none\n");
	for (size_t i = 0; i < a->n_findings; i++) {
		const struct bc_finding *f = &a->findings[i];

		bc_wrapf(out, 29, "  %-7s %-18s %s: %s", bc_severity_name(f->severity), f->id,
			 f->subject, f->advice);
		for (size_t k = 0; k < f->n_evidence; k++)
			bc_wrapf(out, 12, "          %s: %s", f->evidence[k].key,
				 f->evidence[k].value);
	}
}
