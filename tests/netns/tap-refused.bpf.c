// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A tc program the verifier must refuse: it reads the packet without
 * checking data_end (tap.sh load-refused: the refusal is quoted).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>

#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tc")
int bc_tap_refused(struct __sk_buff *skb)
{
	const unsigned char *p = (const unsigned char *)(long)skb->data;

	return p[20] ? TC_ACT_OK : TC_ACT_UNSPEC;
}
