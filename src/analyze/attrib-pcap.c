// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a saved capture (pcap or pcapng, libpcap detects which) into the
 * attribution.  This is file input, not live capture: the analyze layer
 * stays pure.  libpcap's errbuf is translated here, at the call site.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/attrib.h"

int bc_attrib_read_pcap(struct bc_attrib *a, int link, const char *path, struct bc_error *err)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct bc_attrib_link *l = &a->links[link];
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *p;
	int rc;

	p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!p)
		return bc_error_set(
			err, strstr(errbuf, "No such file") ? -ENOENT : -EIO,
			"cannot read capture '%s' for %s: %s; give a pcap or pcapng file "
			"written by bondcheck or tcpdump",
			path, l->name, errbuf);
	l->linktype = (uint32_t)pcap_datalink(p);
	l->snaplen = (uint32_t)pcap_snapshot(p);
	if (l->linktype != DLT_EN10MB) {
		const char *n = pcap_datalink_val_to_name((int)l->linktype);

		pcap_close(p);
		return bc_error_set(err, -EPROTONOSUPPORT,
				    "capture '%s' for %s has link type %s (%u), expected EN10MB "
				    "(Ethernet); capture on the slave itself (tcpdump -i eth0), "
				    "not on 'any'",
				    path, l->name, n ? n : "unknown", l->linktype);
	}
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000ull + (uint64_t)h->ts.tv_usec;

		rc = bc_attrib_add_packet(a, link, ts, data, h->caplen, h->len);
		if (rc) {
			pcap_close(p);
			return bc_error_set(err, rc, "out of memory reading '%s'", path);
		}
	}
	if (rc == PCAP_ERROR) {
		/* "truncated dump file; tried to read N captured bytes, only got M" */
		l->truncated = true;
		snprintf(l->trunc_msg, sizeof(l->trunc_msg), "%s", pcap_geterr(p));
	}
	pcap_close(p);
	return 0;
}
