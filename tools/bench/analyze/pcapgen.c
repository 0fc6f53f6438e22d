// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bc-pcapgen: synthetic per-slave captures with known striping, loss and
 * reordering, for the analyze golden tests (tests/data/pcap/) and the
 * benchmark (tools/bench/analyze/run.sh).
 *
 *   bc-pcapgen OUTDIR PACKETS LINKS [DROP_LINK DROP_EVERY LATE_LINK LATE_EVERY TCP_EVERY]
 *
 * Datagram s of one UDP stream (our header, 100-byte payload, 10.0.0.1 ->
 * 10.0.0.2) leaves on link s % LINKS at s x 10 us and arrives 50 us later
 * on the same link, except: on DROP_LINK every DROP_EVERY-th datagram of that
 * link is lost; on LATE_LINK every LATE_EVERY-th datagram arrives 15 us late
 * (behind s+1, before the link's next one).  Every TCP_EVERY-th packet is
 * instead a 1448-byte TCP segment of a second flow (0: none).  Files:
 * OUTDIR/tx-ethN.pcap and OUTDIR/rx-ethN.pcap (nanosecond pcap), plus
 * OUTDIR/all.pcap holding every sent packet (one file for tshark).
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>

#include "bondcheck/packet.h"

#define MAXL 8

static void put(pcap_dumper_t *d, uint64_t ns, const uint8_t *b, int len)
{
	struct pcap_pkthdr h = {.caplen = len > 128 ? 128 : (uint32_t)len, .len = (uint32_t)len};

	h.ts.tv_sec = (time_t)(ns / 1000000000ull);
	h.ts.tv_usec = (suseconds_t)(ns % 1000000000ull);
	pcap_dump((u_char *)d, &h, b);
}

int main(int argc, char **argv)
{
	pcap_dumper_t *tx[MAXL], *rx[MAXL], *all;
	uint64_t n, per_link[MAXL] = {0}, tcp_seq = 1, udp_seq = 0;
	unsigned links, drop_link = 99, drop_every = 0, late_link = 99, late_every = 0,
			tcp_every = 0;
	uint8_t buf[2048];
	char path[512];
	pcap_t *p;

	if (argc != 4 && argc != 9) {
		fprintf(stderr, "usage: bc-pcapgen OUTDIR PACKETS LINKS [DROP_LINK DROP_EVERY "
				"LATE_LINK LATE_EVERY TCP_EVERY]\n");
		return 2;
	}
	n = strtoull(argv[2], NULL, 10);
	links = (unsigned)atoi(argv[3]);
	if (links < 1 || links > MAXL)
		return 2;
	if (argc == 9) {
		drop_link = (unsigned)atoi(argv[4]);
		drop_every = (unsigned)atoi(argv[5]);
		late_link = (unsigned)atoi(argv[6]);
		late_every = (unsigned)atoi(argv[7]);
		tcp_every = (unsigned)atoi(argv[8]);
	}
	p = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 128, PCAP_TSTAMP_PRECISION_NANO);
	for (unsigned l = 0; l < links; l++) {
		snprintf(path, sizeof(path), "%s/tx-eth%u.pcap", argv[1], l);
		tx[l] = pcap_dump_open(p, path);
		snprintf(path, sizeof(path), "%s/rx-eth%u.pcap", argv[1], l);
		rx[l] = pcap_dump_open(p, path);
		if (!tx[l] || !rx[l]) {
			fprintf(stderr, "bc-pcapgen: %s\n", pcap_geterr(p));
			return 1;
		}
	}
	snprintf(path, sizeof(path), "%s/all.pcap", argv[1]);
	all = pcap_dump_open(p, path);
	if (!all)
		return 1;
	for (uint64_t i = 0; i < n; i++) {
		unsigned l = (unsigned)(i % links);
		uint64_t t = i * 10000, arr = t + 50000, k = per_link[l]++;
		struct bc_udphdr h = {.test_id = 7, .seq = udp_seq, .send_ns = t};
		struct bc_pkt_spec s = {.ip_version = 4,
					.proto = 17,
					.sport = 40000,
					.dport = 5201,
					.ip_id = (uint32_t)i,
					.payload_len = 100,
					.ours = &h};
		int len;

		s.src[0] = s.dst[0] = 10;
		s.src[3] = 1;
		s.dst[3] = 2;
		if (tcp_every && i % tcp_every == tcp_every - 1) {
			s.proto = 6;
			s.sport = 40001;
			s.payload_len = 1448;
			s.ours = NULL;
			s.tcp_seq = (uint32_t)tcp_seq;
			tcp_seq += 1448;
		} else {
			udp_seq++;
		}
		len = bc_pkt_build(&s, buf, sizeof(buf));
		put(tx[l], t, buf, len);
		put(all, t, buf, len);
		if (l == drop_link && drop_every && k % drop_every == drop_every - 1)
			continue;
		if (l == late_link && late_every && k % late_every == late_every - 1)
			arr += 15000;
		put(rx[l], arr, buf, len);
	}
	for (unsigned l = 0; l < links; l++) {
		pcap_dump_close(tx[l]);
		pcap_dump_close(rx[l]);
	}
	pcap_dump_close(all);
	pcap_close(p);
	return 0;
}
