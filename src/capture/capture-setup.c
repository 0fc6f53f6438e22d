// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What to capture: the interfaces (a bond's slaves, never the bond) and the
 * kernel BPF filter on the test's host pair (bondcheck/capture.h).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/capture.h"

static int host_str(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	const void *a;

	if (ss->ss_family == AF_INET)
		a = &((const struct sockaddr_in *)ss)->sin_addr;
	else if (ss->ss_family == AF_INET6)
		a = &((const struct sockaddr_in6 *)ss)->sin6_addr;
	else
		return -EAFNOSUPPORT;
	return inet_ntop(ss->ss_family, a, buf, (socklen_t)len) ? 0 : -EAFNOSUPPORT;
}

int bc_capture_filter(char *buf, size_t len, const struct sockaddr_storage *a,
		      const struct sockaddr_storage *b, uint16_t ctl_port, struct bc_error *err)
{
	return bc_capture_filter_ext(buf, len, a, b, ctl_port, 0, err);
}

/* IPv4 address of @ss as a number for a BPF byte comparison. */
static uint32_t v4_num(const struct sockaddr_storage *ss)
{
	return ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr);
}

int bc_capture_filter_ext(char *buf, size_t len, const struct sockaddr_storage *a,
			  const struct sockaddr_storage *b, uint16_t ctl_port, unsigned flags,
			  struct bc_error *err)
{
	char ha[INET6_ADDRSTRLEN], hb[INET6_ADDRSTRLEN], pair[BC_CAPTURE_FILTER_MAX];
	char ctl[40] = "", neigh[160] = "";
	int n;

	if (host_str(a, ha, sizeof(ha)) < 0 || host_str(b, hb, sizeof(hb)) < 0)
		return bc_error_set(err, -EAFNOSUPPORT,
				    "capture filter: the test's addresses are not IPv4 or IPv6");
	/* `tcp port` tests the first fragment only, so fragments are never excluded */
	if (ctl_port)
		snprintf(ctl, sizeof(ctl), " and not tcp port %u", ctl_port);
	if ((flags & BC_CAPTURE_NEIGH) && a->ss_family == AF_INET)
		snprintf(neigh, sizeof(neigh),
			 " or (arp and (arp[14:4] = %u or arp[14:4] = %u)) or (icmp6 and "
			 "ip6[40] = 136 and ip6 multicast)",
			 v4_num(a), v4_num(b));
	else if (flags & BC_CAPTURE_NEIGH)
		snprintf(neigh, sizeof(neigh), " or (icmp6 and ip6[40] = 136 and ip6 multicast)");
	snprintf(pair, sizeof(pair),
		 "((ip or ip6) and host %s and host %s%s) or ether proto 0x8809%s", ha, hb, ctl,
		 neigh);
	/* the untagged part first: after `vlan` libpcap shifts the offsets */
	n = snprintf(buf, len, "%s or (vlan and (%s))", pair, pair);
	if (n < 0 || (size_t)n >= len)
		return bc_error_set(err, -ENAMETOOLONG, "capture filter longer than %zu bytes",
				    len);
	return 0;
}

/* Read a one-line sysfs file into @buf without the newline; 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int bc_capture_ifaces(struct bc_capture *c, const char *dev, struct bc_error *err)
{
	char path[256], line[1024], *save = NULL, *tok;

	c->n = 0;
	c->bond[0] = 0;
	if (!dev || !*dev || !if_nametoindex(dev))
		return bc_error_set(err, -ENODEV, "no interface '%s' to capture on",
				    dev ? dev : "");
	snprintf(path, sizeof(path), "/sys/class/net/%s/bonding/slaves", dev);
	if (read_line(path, line, sizeof(line)) < 0) {
		/* not a bond: the interface itself is the only link */
		snprintf(c->ifs[0].name, sizeof(c->ifs[0].name), "%s", dev);
		c->n = 1;
		return 0;
	}
	snprintf(c->bond, sizeof(c->bond), "%s", dev);
	for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (c->n == BC_CAPTURE_MAX_IFS)
			return bc_error_set(err, -E2BIG,
					    "bond %s has more than %d slaves; bondcheck "
					    "captures at most %d",
					    dev, BC_CAPTURE_MAX_IFS, BC_CAPTURE_MAX_IFS);
		snprintf(c->ifs[c->n].name, sizeof(c->ifs[c->n].name), "%s", tok);
		c->n++;
	}
	if (!c->n)
		return bc_error_set(err, -ENODEV,
				    "bond %s has no slave to capture on (bonding/slaves is empty)",
				    dev);
	return 0;
}
