// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Failover analysis, ingest side: links, per-frame decode (decode/packet.c)
 * into compact records of our datagrams and the neighbour announcements and
 * LACPDUs around them.  finish lives in failover-finish.c; the model in
 * bondcheck/failover.h.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/failover-int.h"
#include "bondcheck/grow.h"
#include "bondcheck/packet.h"

#define ETH_P_ARP    0x0806
#define ICMPV6	     58
#define ND_NEIGH_ADV 136

void bc_fo_cfg_default(struct bc_fo_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->version = 4;
	cfg->bin_ns = BC_FO_DEFAULT_BIN;
	cfg->cut = BC_FO_CUT_CARRIER;
	cfg->tcp_sender_retrans = -1;
}

const char *bc_fo_dir_name(enum bc_fo_dir d)
{
	return d == BC_FO_C2A ? "client-to-agent" : "agent-to-client";
}

int bc_failover_init(struct bc_failover *f, const struct bc_fo_cfg *cfg, struct bc_error *err)
{
	struct fo_priv *pv;

	memset(f, 0, sizeof(*f));
	f->cfg = *cfg;
	if (!f->cfg.bin_ns)
		f->cfg.bin_ns = BC_FO_DEFAULT_BIN;
	pv = calloc(1, sizeof(*pv));
	if (!pv)
		return bc_error_set(err, -ENOMEM, "out of memory for the failover analysis");
	pv->last_stream = -1;
	f->priv = pv;
	f->cut_link = -1;
	f->first_ns = BC_FO_NONE;
	return 0;
}

void bc_failover_free(struct bc_failover *f)
{
	struct fo_priv *pv;

	if (!f)
		return;
	pv = f->priv;
	if (pv) {
		free(pv->recs);
		free(pv->deps[0]);
		free(pv->deps[1]);
		free(pv->evs);
		free(pv->tcp);
		free(pv);
	}
	for (size_t i = 0; i < f->n_links; i++) {
		free(f->links[i].tl_left);
		free(f->links[i].tl_arrived);
		free(f->links[i].tl_tcp);
	}
	for (size_t i = 0; i < f->n_streams; i++) {
		struct bc_fo_stream *s = &f->streams[i];

		free(s->dep_ts);
		free(s->arr_ts);
		free(s->dep_link);
		free(s->arr_link);
		free(s->arr_n);
	}
	free(f->streams);
	free(f->findings);
	memset(f, 0, sizeof(*f));
}

int bc_failover_add_link(struct bc_failover *f, enum bc_fo_host host, const char *ifname,
			 struct bc_error *err)
{
	struct bc_fo_link *l;

	if (f->n_links >= BC_FO_MAX_LINKS)
		return bc_error_set(err, -E2BIG, "more than %d captured links", BC_FO_MAX_LINKS);
	if (!*ifname || strlen(ifname) >= BC_IFNAMSIZ)
		return bc_error_set(err, -ENAMETOOLONG,
				    "capture name '%s' is not an interface name (1..15 characters)",
				    ifname);
	for (size_t i = 0; i < f->n_links; i++)
		if (f->links[i].host == host && !strcmp(f->links[i].ifname, ifname))
			return bc_error_set(err, -EEXIST, "link %s/%s given twice",
					    host == BC_FO_CLIENT ? "client" : "agent", ifname);
	l = &f->links[f->n_links];
	memset(l, 0, sizeof(*l));
	l->host = host;
	snprintf(l->ifname, sizeof(l->ifname), "%s", ifname);
	snprintf(l->name, sizeof(l->name), "%s/%s", host == BC_FO_CLIENT ? "client" : "agent",
		 ifname);
	l->first_garp_after_cut_ns = l->lacp_timeout_ns = l->lacp_resync_ns = BC_FO_NONE;
	l->lacp_silence_ns = l->lacp_defaulted_ns = BC_FO_NONE;
	l->returned_ns[0] = l->returned_ns[1] = BC_FO_NONE;
	if (host == BC_FO_CLIENT && !strcmp(ifname, f->cfg.cut_slave))
		f->cut_link = (int)f->n_links;
	return (int)f->n_links++;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	return bc_grow(p, cap, need, elem, 1024);
}

/* 0 client, 1 agent, -1 neither (IP address @a of family @version). */
static int host_of_addr(const struct bc_failover *f, const uint8_t *a, uint8_t version)
{
	size_t n = version == 6 ? 16 : 4;

	if (version != f->cfg.version)
		return -1;
	if (!memcmp(a, f->cfg.client_addr, n))
		return BC_FO_CLIENT;
	if (!memcmp(a, f->cfg.agent_addr, n))
		return BC_FO_AGENT;
	return -1;
}

static int add_ev(struct fo_priv *pv, const struct fo_ev *e)
{
	if (grow((void **)&pv->evs, &pv->cap_evs, pv->n_evs + 1, sizeof(*pv->evs)))
		return -ENOMEM;
	pv->evs[pv->n_evs++] = *e;
	return 0;
}

static void learn_mac(struct fo_priv *pv, int host, const uint8_t *mac)
{
	for (size_t i = 0; i < pv->n_macs[host]; i++)
		if (!memcmp(pv->macs[host][i], mac, 6))
			return;
	if (pv->n_macs[host] < MAX_MACS)
		memcpy(pv->macs[host][pv->n_macs[host]++], mac, 6);
}

/* ARP (RFC 826) for Ethernet/IPv4: gratuitous when sender and target IP match. */
static int arp(struct bc_failover *f, int link, uint64_t ts, const uint8_t *d, uint32_t caplen,
	       const struct bc_pkt *p)
{
	const uint8_t *a = d + p->l2_len;
	struct fo_ev e = {.ts = ts, .link = (uint8_t)link, .sender = -1};

	if (caplen < (uint32_t)p->l2_len + 28 || a[0] != 0 || a[1] != 1 || a[2] != 8 || a[3] != 0 ||
	    a[4] != 6 || a[5] != 4) {
		f->links[link].malformed++;
		return 0;
	}
	memcpy(e.mac, d + 6, 6);
	if (!memcmp(a + 14, a + 24, 4)) {
		uint8_t ip[16] = {0};

		memcpy(ip, a + 14, 4);
		e.kind = EV_GARP;
		e.sender = (int8_t)host_of_addr(f, ip, 4);
	} else {
		e.kind = EV_ARP;
	}
	return add_ev(f->priv, &e);
}

/* ICMPv6 neighbor advertisement to a multicast address, Solicited flag clear (RFC 4861 4.4). */
static int neigh_adv(struct bc_failover *f, int link, uint64_t ts, const uint8_t *d,
		     uint32_t caplen, const struct bc_pkt *p)
{
	uint32_t off = (uint32_t)p->l2_len + p->l3_hdr_len;
	struct fo_ev e = {.ts = ts, .link = (uint8_t)link, .kind = EV_NA, .sender = -1};

	if (caplen < off + 24)
		return 0; /* cut by the snap length before the target: not countable */
	if (d[off] != ND_NEIGH_ADV || p->dst[0] != 0xff || (d[off + 4] & 0x40))
		return 0;
	memcpy(e.mac, d + 6, 6);
	e.sender = (int8_t)host_of_addr(f, d + off + 8, 6);
	return add_ev(f->priv, &e);
}

static int stream_index(struct bc_failover *f, struct fo_priv *pv, const struct bc_pkt *p,
			enum bc_fo_dir dir)
{
	struct bc_fo_stream *s;

	if (pv->last_stream >= 0) {
		s = &f->streams[pv->last_stream];
		if (s->stream_id == p->ours.stream_id && s->test_id == p->ours.test_id &&
		    s->dir == dir)
			return pv->last_stream;
	}
	for (size_t i = 0; i < f->n_streams; i++) {
		s = &f->streams[i];
		if (s->stream_id == p->ours.stream_id && s->test_id == p->ours.test_id &&
		    s->dir == dir)
			return pv->last_stream = (int)i;
	}
	if (f->n_streams >= BC_FO_MAX_STREAMS)
		return -E2BIG;
	s = realloc(f->streams, (f->n_streams + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	f->streams = s;
	s = &f->streams[f->n_streams];
	memset(s, 0, sizeof(*s));
	s->test_id = p->ours.test_id;
	s->stream_id = p->ours.stream_id;
	s->dir = dir;
	s->sport = p->sport;
	s->dport = p->dport;
	s->min_seq = UINT64_MAX;
	return pv->last_stream = (int)f->n_streams++;
}

int bc_failover_add_packet(struct bc_failover *f, int link, uint64_t ts_ns, const uint8_t *data,
			   uint32_t caplen, uint32_t wire_len)
{
	struct fo_priv *pv = f->priv;
	struct bc_fo_link *l = &f->links[link];
	struct fo_rec r;
	struct bc_pkt p;
	int src, dst, si;

	if (bc_pkt_decode(data, caplen, wire_len, &p)) {
		l->malformed++;
		return 0;
	}
	if (p.layer == BC_PKT_LACP) {
		struct fo_ev e = {.ts = ts_ns,
				  .link = (uint8_t)link,
				  .kind = EV_LACP,
				  .lacp_state = p.lacp.actor.state,
				  .port = p.lacp.actor.port,
				  .sender = -1};

		memcpy(e.mac, p.lacp.actor.system, 6);
		l->lacpdus++;
		return add_ev(pv, &e);
	}
	if (p.layer == BC_PKT_L2 && p.ethertype == ETH_P_ARP && p.stop == BC_PKT_STOP_NONE)
		return arp(f, link, ts_ns, data, caplen, &p);
	if (p.layer == BC_PKT_L3 && p.ip_version == 6 && p.proto == ICMPV6 && !p.frag)
		return neigh_adv(f, link, ts_ns, data, caplen, &p);
	if (p.layer == BC_PKT_L4 && p.proto == 6 && f->cfg.tcp_dport) {
		src = host_of_addr(f, p.src, p.ip_version);
		dst = host_of_addr(f, p.dst, p.ip_version);
		return fo_tcp_packet(f, link, ts_ns, &p, src, dst);
	}
	if (p.layer != BC_PKT_OURS)
		return 0;
	if (p.ours.flags & BC_UDPHDR_F_HELLO)
		return 0; /* a reverse stream's hello, not part of the stream */
	src = host_of_addr(f, p.src, p.ip_version);
	dst = host_of_addr(f, p.dst, p.ip_version);
	if (src < 0 || dst < 0 || src == dst ||
	    (f->cfg.test_id && p.ours.test_id != f->cfg.test_id)) {
		l->foreign++;
		f->foreign++;
		return 0;
	}
	si = stream_index(f, pv, &p, src == BC_FO_CLIENT ? BC_FO_C2A : BC_FO_A2C);
	if (si == -E2BIG) {
		f->foreign++;
		return 0;
	}
	if (si < 0)
		return si;
	memset(&r, 0, sizeof(r));
	r.ts = ts_ns;
	r.seq = p.ours.seq;
	r.stream = (uint32_t)si;
	r.link = (uint8_t)link;
	r.left = (int)l->host == src;
	if (r.left)
		learn_mac(pv, src, data + 6);
	if (grow((void **)&pv->recs, &pv->cap_recs, pv->n_recs + 1, sizeof(*pv->recs)))
		return -ENOMEM;
	pv->recs[pv->n_recs++] = r;
	if (r.left)
		l->left++;
	else
		l->arrived++;
	return 0;
}

int bc_failover_read_pcap(struct bc_failover *f, int link, const char *path, struct bc_error *err)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct bc_fo_link *l = &f->links[link];
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *p;
	int rc;

	p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!p)
		return bc_error_set(err, strstr(errbuf, "No such file") ? -ENOENT : -EIO,
				    "cannot read capture '%s' for %s: %s", path, l->name, errbuf);
	if (pcap_datalink(p) != DLT_EN10MB) {
		pcap_close(p);
		return bc_error_set(err, -EPROTONOSUPPORT,
				    "capture '%s' for %s is not Ethernet (DLT_EN10MB); capture on "
				    "the slave itself",
				    path, l->name);
	}
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000ull + (uint64_t)h->ts.tv_usec;

		rc = bc_failover_add_packet(f, link, ts, data, h->caplen, h->len);
		if (rc) {
			pcap_close(p);
			return bc_error_set(err, rc, "out of memory reading '%s'", path);
		}
	}
	if (rc == PCAP_ERROR)
		l->truncated = true;
	pcap_close(p);
	return 0;
}

int bc_failover_finish(struct bc_failover *f, struct bc_error *err)
{
	int r;

	if (f->finished)
		return 0;
	r = fo_finish(f, err);
	if (r < 0)
		return r;
	if (fo_findings(f) < 0)
		return bc_error_set(err, -ENOMEM, "out of memory for the failover findings");
	f->finished = true;
	return 0;
}
