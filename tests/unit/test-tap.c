// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The slave taps' API without attaching anything (that is tests/netns/tap.sh):
 * argument checks, the verifier-message extraction, and the stub when the
 * taps were not built.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/tap.h"
#ifdef BC_HAVE_TAPS
#include "tap/tap-int.h"
#endif

static void test_layout(void **state)
{
	(void)state;
	/* the BPF side writes these offsets; attribution reads them */
	assert_int_equal(sizeof(struct bc_tap_rec), 48);
	assert_int_equal(offsetof(struct bc_tap_rec, udp.seq), 24);
	assert_int_equal(offsetof(struct bc_tap_rec, ip_id), 40);
	assert_int_equal(sizeof(struct bc_tap_flow_key), 48);
}

static void test_bad_args(void **state)
{
	struct bc_tap_opts o;
	struct bc_error err = {0};
	struct bc_tap *t = (struct bc_tap *)&o;
	int ifx[2] = {1, 999999};

	(void)state;
	bc_tap_opts_default(&o);
	assert_true(o.ingress && o.egress);
#ifdef BC_HAVE_TAPS
	assert_true(bc_tap_built());
	assert_int_equal(bc_tap_open(&t, ifx, 0, &o, &err), -EINVAL);
	assert_null(t);
	assert_non_null(strstr(err.msg, "expected 1 to 16 interfaces, found 0"));
	bc_error_clear(&err);
	o.ring_bytes = 5000;
	assert_int_equal(bc_tap_open(&t, ifx, 1, &o, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "power of 2"));
	o.ring_bytes = 0;
	bc_error_clear(&err);
	o.cfg.flags |= BC_TAP_CFG_TCP;
	assert_int_equal(bc_tap_open(&t, ifx, 1, &o, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "TCP records need the test's address pair"));
	o.cfg.flags &= ~(uint32_t)BC_TAP_CFG_TCP;
	bc_error_clear(&err);
	assert_int_equal(bc_tap_open(&t, ifx, 2, &o, &err), -ENODEV);
	assert_non_null(strstr(err.msg, "no interface with index 999999"));
#else
	assert_false(bc_tap_built());
	assert_int_equal(bc_tap_open(&t, ifx, 1, &o, &err), -EOPNOTSUPP);
	assert_null(t);
	assert_non_null(strstr(err.msg, "using pcap"));
#endif
}

#ifdef BC_HAVE_TAPS
/* The end of a real level-1 log (kernel 6.18, tests/netns/tap-refused.bpf.c). */
static const char refused_log[] =
	"func#0 @0\n"
	"0: R1=ctx() R10=fp0\n"
	"0: (61) r1 = *(u32 *)(r1 +76)         ; R1_w=pkt(r=0)\n"
	"1: (71) r1 = *(u8 *)(r1 +20)\n"
	"invalid access to packet, off=20 size=1, R1(id=0,off=20,r=0)\n"
	"R1 offset is outside of the packet\n"
	"processed 2 insns (limit 1000000) max_states_per_insn 0 total_states 0 "
	"peak_states 0 mark_read 0\n"
	"\n";

static void test_verifier_msg(void **state)
{
	char out[256];

	(void)state;
	tap_verifier_msg(refused_log, out, sizeof(out));
	assert_string_equal(out, "invalid access to packet, off=20 size=1, R1(id=0,off=20,r=0); "
				 "R1 offset is outside of the packet");
	tap_verifier_msg("processed 0 insns\n", out, sizeof(out));
	assert_string_equal(out, "");
	tap_verifier_msg("only reason", out, sizeof(out));
	assert_string_equal(out, "only reason");
	tap_verifier_msg(NULL, out, sizeof(out));
	assert_string_equal(out, "");
	tap_verifier_msg(refused_log, out, 12); /* truncated, still terminated */
	assert_int_equal(strlen(out), 11);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_bad_args),
#ifdef BC_HAVE_TAPS
		cmocka_unit_test(test_verifier_msg),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
