// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Live capture (src/capture/): the kernel filter accepts exactly the test's
 * frames (compiled with libpcap and run on built frames), interface
 * discovery and open errors, a live capture on loopback with exact counts
 * (root only: CAP_NET_RAW), and ps_drop turning into capture-incomplete.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "bondcheck/attrib.h"
#include "bondcheck/capture.h"
#include "bondcheck/packet.h"

static void sa4(struct sockaddr_storage *ss, const char *a)
{
	struct sockaddr_in *s = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	s->sin_family = AF_INET;
	assert_int_equal(inet_pton(AF_INET, a, &s->sin_addr), 1);
}

static void sa6(struct sockaddr_storage *ss, const char *a)
{
	struct sockaddr_in6 *s = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	s->sin6_family = AF_INET6;
	assert_int_equal(inet_pton(AF_INET6, a, &s->sin6_addr), 1);
}

static void test_filter_text(void **state)
{
	struct sockaddr_storage a, b;
	struct bc_error err = {0};
	char f[BC_CAPTURE_FILTER_MAX], small[40];

	(void)state;
	sa4(&a, "10.77.1.1");
	sa4(&b, "10.77.2.1");
	assert_int_equal(bc_capture_filter(f, sizeof(f), &a, &b, 5301, &err), 0);
	assert_string_equal(f, "((ip or ip6) and host 10.77.1.1 and host 10.77.2.1 and not tcp "
			       "port 5301) or ether proto 0x8809 or (vlan and (((ip or ip6) and "
			       "host 10.77.1.1 and host 10.77.2.1 and not tcp port 5301) or ether "
			       "proto 0x8809))");
	assert_int_equal(bc_capture_filter(small, sizeof(small), &a, &b, 0, &err), -ENAMETOOLONG);
	a.ss_family = AF_UNIX;
	assert_int_equal(bc_capture_filter(f, sizeof(f), &a, &b, 0, NULL), -EAFNOSUPPORT);
}

/* Build a frame from @s with addresses @src/@dst (IPv4 or IPv6 text). */
static int frame(struct bc_pkt_spec *s, const char *src, const char *dst, uint8_t *buf)
{
	int af = s->ip_version == 6 ? AF_INET6 : AF_INET;

	assert_int_equal(inet_pton(af, src, s->src), 1);
	assert_int_equal(inet_pton(af, dst, s->dst), 1);
	return bc_pkt_build(s, buf, 2048);
}

static int matches(const struct bpf_program *prog, const uint8_t *buf, int len)
{
	struct pcap_pkthdr h = {.caplen = (uint32_t)len, .len = (uint32_t)len};

	assert_true(len > 0);
	return pcap_offline_filter(prog, &h, buf) != 0;
}

static void test_filter_matches(void **state)
{
	struct bc_udphdr ours = {.test_id = 7, .seq = 1};
	struct sockaddr_storage a, b;
	struct bpf_program prog;
	struct bc_lacpdu lacp = {.version = 1};
	uint8_t buf[2048], mac[6] = {2, 0, 0, 0, 0, 1};
	char f[BC_CAPTURE_FILTER_MAX];
	pcap_t *p = pcap_open_dead(DLT_EN10MB, BC_CAPTURE_SNAPLEN);
	struct bc_pkt_spec udp = {.ip_version = 4,
				  .proto = 17,
				  .sport = 40000,
				  .dport = 5302,
				  .payload_len = 100,
				  .ours = &ours};
	struct bc_pkt_spec frag = {
		.ip_version = 4, .proto = 17, .ip_id = 9, .frag_off = 1480, .payload_len = 500};
	struct bc_pkt_spec tcp = {
		.ip_version = 4, .proto = 6, .sport = 40000, .dport = 5301, .payload_len = 10};

	(void)state;
	sa4(&a, "10.77.1.1");
	sa4(&b, "10.77.2.1");
	assert_int_equal(bc_capture_filter(f, sizeof(f), &a, &b, 5301, NULL), 0);
	assert_int_equal(pcap_compile(p, &prog, f, 1, PCAP_NETMASK_UNKNOWN), 0);
	assert_true(matches(&prog, buf, frame(&udp, "10.77.1.1", "10.77.2.1", buf)));
	assert_true(matches(&prog, buf, frame(&udp, "10.77.2.1", "10.77.1.1", buf)));
	assert_false(matches(&prog, buf, frame(&udp, "10.77.1.1", "10.77.3.1", buf)));
	/* a non-first fragment has no ports and still belongs to the test */
	assert_true(matches(&prog, buf, frame(&frag, "10.77.1.1", "10.77.2.1", buf)));
	/* the control connection is left out, other TCP between the hosts is not */
	assert_false(matches(&prog, buf, frame(&tcp, "10.77.1.1", "10.77.2.1", buf)));
	tcp.dport = 5302;
	assert_true(matches(&prog, buf, frame(&tcp, "10.77.1.1", "10.77.2.1", buf)));
	udp.vlan_id = 100;
	assert_true(matches(&prog, buf, frame(&udp, "10.77.1.1", "10.77.2.1", buf)));
	assert_false(matches(&prog, buf, frame(&udp, "10.77.9.1", "10.77.2.1", buf)));
	assert_true(matches(&prog, buf, bc_pkt_build_lacpdu(&lacp, mac, buf, sizeof(buf))));
	pcap_freecode(&prog);

	sa6(&a, "fd77:1::1");
	sa6(&b, "fd77:2::1");
	assert_int_equal(bc_capture_filter(f, sizeof(f), &a, &b, 5301, NULL), 0);
	assert_int_equal(pcap_compile(p, &prog, f, 1, PCAP_NETMASK_UNKNOWN), 0);
	udp.ip_version = 6;
	udp.vlan_id = 0;
	frag.ip_version = 6;
	assert_true(matches(&prog, buf, frame(&udp, "fd77:1::1", "fd77:2::1", buf)));
	assert_true(matches(&prog, buf, frame(&frag, "fd77:2::1", "fd77:1::1", buf)));
	assert_false(matches(&prog, buf, frame(&udp, "fd77:1::1", "fd77:3::1", buf)));
	pcap_freecode(&prog);
	pcap_close(p);
}


/* A gratuitous ARP from @ip (dotted quad) with @vlan tag (0: none). */
static int garp_frame(const char *ip, uint16_t vlan, uint8_t *b)
{
	int o = vlan ? 4 : 0;

	memset(b, 0, 64);
	memset(b, 0xff, 6);
	b[6] = 2, b[11] = 1;
	if (vlan) {
		b[12] = 0x81, b[13] = 0, b[14] = (uint8_t)(vlan >> 8), b[15] = (uint8_t)vlan;
	}
	b[12 + o] = 0x08, b[13 + o] = 0x06;
	b[15 + o] = 1, b[16 + o] = 8, b[18 + o] = 6, b[19 + o] = 4, b[21 + o] = 1;
	assert_int_equal(inet_pton(AF_INET, ip, b + 28 + o), 1);
	memcpy(b + 38 + o, b + 28 + o, 4);
	return 60 + o;
}

/* An ICMPv6 NA from fe80::1 to @dst. */
static int na_frame(const char *dst, uint8_t *b)
{
	memset(b, 0, 86);
	b[12] = 0x86, b[13] = 0xdd, b[14] = 0x60, b[19] = 32, b[20] = 58, b[21] = 255;
	b[22] = 0xfe, b[23] = 0x80, b[37] = 1;
	assert_int_equal(inet_pton(AF_INET6, dst, b + 38), 1);
	b[54] = 136;
	return 86;
}

/* failover's filter: the hosts' gratuitous ARPs and multicast NAs, nobody else's ARP. */
static void test_filter_neigh(void **state)
{
	struct sockaddr_storage a, b;
	struct bpf_program prog;
	uint8_t buf[128];
	char f[BC_CAPTURE_FILTER_MAX];
	pcap_t *p = pcap_open_dead(DLT_EN10MB, BC_CAPTURE_SNAPLEN);

	(void)state;
	sa4(&a, "10.77.1.1");
	sa4(&b, "10.77.2.1");
	assert_int_equal(bc_capture_filter_ext(f, sizeof(f), &a, &b, 5301, BC_CAPTURE_NEIGH, NULL),
			 0);
	assert_non_null(strstr(f, "arp[14:4] = 172818689 or arp[14:4] = 172818945"));
	assert_int_equal(pcap_compile(p, &prog, f, 1, PCAP_NETMASK_UNKNOWN), 0);
	assert_true(matches(&prog, buf, garp_frame("10.77.1.1", 0, buf)));
	assert_true(matches(&prog, buf, garp_frame("10.77.2.1", 0, buf)));
	assert_true(matches(&prog, buf, garp_frame("10.77.2.1", 100, buf)));
	assert_false(matches(&prog, buf, garp_frame("10.77.3.1", 0, buf)));
	assert_true(matches(&prog, buf, na_frame("ff02::1", buf)));
	assert_false(matches(&prog, buf, na_frame("fe80::2", buf)));
	pcap_freecode(&prog);
	/* without the flag: none of them */
	assert_int_equal(bc_capture_filter(f, sizeof(f), &a, &b, 5301, NULL), 0);
	assert_int_equal(pcap_compile(p, &prog, f, 1, PCAP_NETMASK_UNKNOWN), 0);
	assert_false(matches(&prog, buf, garp_frame("10.77.1.1", 0, buf)));
	assert_false(matches(&prog, buf, na_frame("ff02::1", buf)));
	pcap_freecode(&prog);
	/* IPv6 tests: the NA part only, and the longest addresses fit */
	sa6(&a, "fd77:1111:2222:3333:4444:5555:6666:7777");
	sa6(&b, "fd77:1111:2222:3333:4444:5555:6666:7778");
	assert_int_equal(bc_capture_filter_ext(f, sizeof(f), &a, &b, 65535, BC_CAPTURE_NEIGH, NULL),
			 0);
	assert_null(strstr(f, "arp"));
	assert_int_equal(pcap_compile(p, &prog, f, 1, PCAP_NETMASK_UNKNOWN), 0);
	assert_true(matches(&prog, buf, na_frame("ff02::1", buf)));
	pcap_freecode(&prog);
	pcap_close(p);
}

static void test_ifaces_and_open_errors(void **state)
{
	struct bc_capture c = {0};
	struct bc_error err = {0};
	char dir[] = "/tmp/bc-capture-XXXXXX";

	(void)state;
	assert_int_equal(bc_capture_ifaces(&c, "lo", &err), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.ifs[0].name, "lo");
	assert_string_equal(c.bond, "");
	assert_int_equal(bc_capture_ifaces(&c, "bcnone0", &err), -ENODEV);
	assert_non_null(strstr(err.msg, "bcnone0"));

	assert_non_null(mkdtemp(dir));
	memset(&c, 0, sizeof(c));
	snprintf(c.ifs[0].name, sizeof(c.ifs[0].name), "bcnone0");
	c.n = 1;
	bc_error_clear(&err);
	if (geteuid() == 0) {
		/* a slave that vanished before the capture started */
		assert_int_equal(bc_capture_open(&c, "client", "udp", dir, &err), -ENODEV);
		assert_non_null(strstr(err.msg, "cannot capture on bcnone0"));
	} else {
		int r = bc_capture_open(&c, "client", "udp", dir, &err);

		assert_true(r == -EPERM || r == -ENODEV);
	}
	bc_capture_free(&c);
	assert_int_equal(rmdir(dir), 0); /* nothing left behind */
}

/*
 * 10 datagrams 127.0.0.77 -> 127.0.0.78:5399 on lo, to a bound socket (no
 * ICMP).  The kernel hands each one to the packet socket twice (outgoing and
 * incoming: ps_recv 20); libpcap skips the outgoing copy on loopback
 * (pcap-linux.c, lo_ifindex), so 10 frames reach the file.
 */
static void test_live_loopback(void **state)
{
	struct sockaddr_storage a, b;
	struct bc_capture c = {0};
	struct bc_error err = {0};
	char dir[] = "/tmp/bc-capture-XXXXXX", f[BC_CAPTURE_FILTER_MAX], payload[200] = {0};
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(5399)};
	int fd, rfd;

	(void)state;
	if (geteuid() != 0) {
		print_message("live loopback capture needs CAP_NET_RAW; not run as uid %u\n",
			      geteuid());
		return;
	}
	sa4(&a, "127.0.0.77");
	sa4(&b, "127.0.0.78");
	assert_non_null(mkdtemp(dir));
	assert_int_equal(bc_capture_ifaces(&c, "lo", &err), 0);
	assert_int_equal(bc_capture_filter(f, sizeof(f), &a, &b, 0, &err), 0);
	assert_int_equal(bc_capture_open(&c, "client", f, dir, &err), 0);
	assert_int_equal(bc_capture_start(&c, &err), 0);
	inet_pton(AF_INET, "127.0.0.78", &to.sin_addr);
	rfd = socket(AF_INET, SOCK_DGRAM, 0);
	assert_int_equal(bind(rfd, (struct sockaddr *)&to, sizeof(to)), 0);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(struct sockaddr_in)), 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal(
			sendto(fd, payload, sizeof(payload), 0, (struct sockaddr *)&to, sizeof(to)),
			sizeof(payload));
	close(fd);
	usleep(100000);
	bc_capture_stop(&c);
	close(rfd);
	assert_int_equal(c.ifs[0].frames, 10);
	assert_true(c.ifs[0].have_stats);
	assert_int_equal(c.ifs[0].ps_recv, 20);
	assert_int_equal(c.ifs[0].ps_drop, 0);
	assert_int_equal(bc_capture_dropped(&c), 0);
	/* 14 + 20 + 8 + 200 = 242 bytes per frame on the wire; 128 of each in the file */
	assert_int_equal(c.ifs[0].bytes, 10 * 242);
	assert_int_equal(c.ifs[0].file_bytes, 24 + 10 * (16 + BC_CAPTURE_SNAPLEN));
	bc_capture_free(&c);
	unlink(c.ifs[0].path);
	assert_int_equal(rmdir(dir), 0);
}

/* A link whose live capture dropped frames is flagged capture-incomplete. */
static void test_ps_drop_finding(void **state)
{
	struct bc_attrib_cfg cfg;
	struct bc_attrib a;
	struct bc_error err = {0};
	struct bc_udphdr ours = {.test_id = 1};
	struct bc_pkt_spec s = {.ip_version = 4,
				.proto = 17,
				.sport = 1,
				.dport = 2,
				.payload_len = 100,
				.ours = &ours};
	uint8_t buf[2048];
	const struct bc_finding *f = NULL;
	int tx, rx, len;

	(void)state;
	bc_attrib_cfg_default(&cfg);
	assert_int_equal(bc_attrib_init(&a, &cfg, &err), 0);
	tx = bc_attrib_add_link(&a, BC_SIDE_TX, "client/c0", &err);
	rx = bc_attrib_add_link(&a, BC_SIDE_RX, "agent/a0", &err);
	a.links[rx].ps_drop = 5;
	for (uint64_t i = 0; i < 10; i++) {
		ours.seq = i;
		len = frame(&s, "10.0.0.1", "10.0.0.2", buf);
		assert_int_equal(
			bc_attrib_add_packet(&a, tx, 1000 * i, buf, (uint32_t)len, (uint32_t)len),
			0);
		if (i != 4) /* one datagram missing on the side that dropped */
			assert_int_equal(bc_attrib_add_packet(&a, rx, 1000 * i + 500, buf,
							      (uint32_t)len, (uint32_t)len),
					 0);
	}
	assert_int_equal(bc_attrib_finish(&a, &err), 0);
	for (size_t i = 0; i < a.n_findings; i++)
		if (!strcmp(a.findings[i].id, "capture-incomplete"))
			f = &a.findings[i];
	assert_non_null(f);
	assert_string_equal(f->subject, "rx:agent/a0");
	{
		bool seen = false;

		for (size_t i = 0; i < f->n_evidence; i++)
			if (!strcmp(f->evidence[i].key, "ps_drop")) {
				assert_string_equal(f->evidence[i].value,
						    "5 (the capture ring was full)");
				seen = true;
			}
		assert_true(seen);
	}
	assert_int_equal(a.links[tx].lost, 1);
	bc_attrib_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_text),
		cmocka_unit_test(test_filter_matches),
		cmocka_unit_test(test_filter_neigh),
		cmocka_unit_test(test_ifaces_and_open_errors),
		cmocka_unit_test(test_live_loopback),
		cmocka_unit_test(test_ps_drop_finding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
