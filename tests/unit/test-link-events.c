// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * slave-down and link-flap from a run's ends (workflow/link-events.h,
 * workflow/client-result.h bc_client_flaps) on constructed documents.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/json-get.h"
#include "workflow/client-result.h"
#include "workflow/link-events.h"

static struct json_object *event(const char *ifname, double t, bool admin, bool carrier)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "interface", json_object_new_string(ifname));
	json_object_object_add(o, "time_ms", json_object_new_double(t));
	json_object_object_add(o, "admin_up", json_object_new_boolean(admin));
	json_object_object_add(o, "carrier", json_object_new_boolean(carrier));
	json_object_object_add(o, "removed", json_object_new_boolean(false));
	return o;
}

/* An end with bond0 = eth0 + eth1, carrier_changes per slave, and @ev as link_events
 * (NULL: an end that reports none). */
static struct json_object *end(struct json_object *ev, int cc0, int cc1, const char *mii1)
{
	struct json_object *e = json_object_new_object(), *c = json_object_new_object();
	struct json_object *ifs = json_object_new_object(), *m = json_object_new_object();
	struct json_object *b = json_object_new_object(), *sl = json_object_new_array();
	static const char *const names[] = {"eth0", "eth1"};
	int cc[] = {cc0, cc1};

	for (int i = 0; i < 2; i++) {
		struct json_object *s = json_object_new_object(), *x = json_object_new_object();

		json_object_object_add(x, "carrier_changes", json_object_new_int64(cc[i]));
		json_object_object_add(ifs, names[i], x);
		json_object_object_add(s, "name", json_object_new_string(names[i]));
		json_object_object_add(s, "mii_status_before", json_object_new_string("up"));
		json_object_object_add(s, "mii_status", json_object_new_string(i ? mii1 : "up"));
		json_object_array_add(sl, s);
	}
	json_object_object_add(c, "interfaces", ifs);
	if (ev)
		json_object_object_add(c, "link_events", ev);
	json_object_object_add(b, "bond", json_object_new_string("bond0"));
	json_object_object_add(b, "slaves", sl);
	json_object_object_add(m, "bond", b);
	json_object_object_add(e, "counters", c);
	json_object_object_add(e, "metadata", m);
	return e;
}

static struct json_object *find(struct json_object *fs, const char *id, const char *subject)
{
	for (size_t i = 0; i < bc_json_len(fs); i++) {
		struct json_object *f = json_object_array_get_idx(fs, i);

		if (!strcmp(bc_json_str(f, "id"), id) && !strcmp(bc_json_str(f, "subject"), subject))
			return f;
	}
	return NULL;
}

/* eth1 down at 1500 ms on the client (carrier) and at 1498 ms on the agent (admin), for good */
static void test_down_stays_down(void **state)
{
	struct json_object *ends = json_object_new_object(), *fs = json_object_new_array();
	struct json_object *ec = json_object_new_array(), *ea = json_object_new_array(), *f, *ev;
	double t = 0;

	(void)state;
	json_object_array_add(ec, event("eth1", 1500.25, true, false));
	json_object_array_add(ea, event("eth1", 1498.0, false, false));
	json_object_object_add(ends, "client", end(ec, 0, 1, "down"));
	json_object_object_add(ends, "agent", end(ea, 0, 1, "down"));
	assert_true(bc_link_ended_down(json_object_object_get(ends, "client"), "eth1", &t));
	assert_true(t == 1500.25);
	assert_false(bc_link_ended_down(json_object_object_get(ends, "client"), "eth0", &t));
	assert_int_equal(bc_slave_down_findings(ends, fs), 2);
	assert_int_equal(bc_client_flaps(ends, fs), 0); /* one loss of carrier: no flap */
	assert_int_equal(bc_json_len(fs), 2);
	f = find(fs, "slave-down", "client/eth1");
	assert_non_null(f);
	assert_string_equal(bc_json_str(f, "severity"), "error");
	ev = json_object_object_get(f, "evidence");
	assert_true(bc_json_dbl(ev, "time_ms", -1) == 1500.25);
	assert_string_equal(bc_json_str(ev, "mii_status"), "down");
	assert_string_equal(bc_json_str(ev, "bond"), "bond0");
	assert_non_null(strstr(bc_json_str(f, "advice"), "went down 1500 ms into the test"));
	f = find(fs, "slave-down", "agent/eth1");
	assert_non_null(f);
	assert_true(bc_json_dbl(json_object_object_get(f, "evidence"), "time_ms", -1) == 1498.0);
	json_object_put(ends);
	json_object_put(fs);
}

/* Down, up, down again: slave-down at the last down (3000 ms) and one flap before it. */
static void test_flap_then_down(void **state)
{
	struct json_object *ends = json_object_new_object(), *fs = json_object_new_array();
	struct json_object *ec = json_object_new_array(), *f;

	(void)state;
	json_object_array_add(ec, event("eth1", 1000, true, false));
	json_object_array_add(ec, event("eth1", 1500, true, true));
	json_object_array_add(ec, event("eth1", 3000, true, false));
	json_object_array_add(ec, event("eth1", 3001, false, false)); /* then admin down too */
	json_object_object_add(ends, "client", end(ec, 0, 3, "down"));
	json_object_object_add(ends, "agent", end(json_object_new_array(), 0, 0, "up"));
	assert_int_equal(bc_slave_down_findings(ends, fs), 1);
	f = find(fs, "slave-down", "client/eth1");
	assert_non_null(f);
	assert_true(bc_json_dbl(json_object_object_get(f, "evidence"), "time_ms", -1) == 3000);
	assert_int_equal(bc_client_flaps(ends, fs), 1);
	f = find(fs, "link-flap", "client/eth1");
	assert_non_null(f);
	assert_int_equal(bc_json_i64(json_object_object_get(f, "evidence"), "flaps", 0), 1);
	assert_int_equal(bc_json_i64(json_object_object_get(f, "evidence"), "carrier_changes", 0),
			 3);
	json_object_put(ends);
	json_object_put(fs);
}

/* Flapped and came back: link-flap only.  An end without events: MII before/after, no time. */
static void test_back_up_and_no_events(void **state)
{
	struct json_object *ends = json_object_new_object(), *fs = json_object_new_array();
	struct json_object *ec = json_object_new_array(), *f;

	(void)state;
	json_object_array_add(ec, event("eth1", 1000, true, false));
	json_object_array_add(ec, event("eth1", 1500, true, true));
	json_object_object_add(ends, "client", end(ec, 0, 2, "up"));
	json_object_object_add(ends, "agent", end(NULL, 0, 1, "down"));
	assert_int_equal(bc_slave_down_findings(ends, fs), 1);
	assert_null(find(fs, "slave-down", "client/eth1"));
	f = find(fs, "slave-down", "agent/eth1");
	assert_non_null(f);
	assert_null(json_object_object_get(json_object_object_get(f, "evidence"), "time_ms"));
	assert_int_equal(bc_client_flaps(ends, fs), 2);
	assert_non_null(find(fs, "link-flap", "client/eth1"));
	assert_non_null(find(fs, "link-flap", "agent/eth1")); /* no events: not known to end down */
	json_object_put(ends);
	json_object_put(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_down_stays_down),
		cmocka_unit_test(test_flap_then_down),
		cmocka_unit_test(test_back_up_and_no_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
