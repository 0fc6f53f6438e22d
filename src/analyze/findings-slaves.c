// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-slave findings (link state, failures, speed) and slave-vs-slave
 * mismatches (speed, duplex, driver, MTU, offloads).  Only BC_KNOWN values
 * are compared: a field that one slave does not report is not a mismatch.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "analyze/findings-int.h"
#include "bondcheck/names.h"

/* A link failure count at or above this means the link flaps (case 13: 36). */
#define FLAPPING_FAILURES 10

#define LIST 128 /* evidence value capacity */

static size_t count_up(const struct bc_bond *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->n_slaves; i++)
		n += fnd_slave_up(&b->slaves[i]);
	return n;
}

/*
 * link-failures-common (warning), ARP monitoring (arp_interval > 0), a
 * complete list of two or more slaves, each with FLAPPING_FAILURES or more
 * link failures and the lowest count at least half the highest.  Under ARP
 * monitoring a failure is an interval without a validated frame
 * (bond_ab_arp_inspect(), bond_loadbalance_arp_mon() in bond_main.c), so
 * every slave failing alike points at what they share: the interval, the
 * target, the gateway, the switch.  Case 27: 595 and 605 at 100 ms.
 * Returns whether the condition holds; adds the finding when @report.
 */
static bool common_failures(struct fnd_ctx *c, bool report)
{
	const struct bc_bond *b = c->bond;
	uint32_t lo = UINT32_MAX, hi = 0;
	char list[LIST] = "";
	struct bc_finding *f;

	if (!bc_u32_known(&b->arp_interval_ms) || !b->arp_interval_ms.v || b->n_slaves < 2 ||
	    b->slaves_incomplete)
		return false;
	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_u32 *n = &b->slaves[i].link_failure_count;

		if (!bc_u32_known(n))
			return false;
		lo = n->v < lo ? n->v : lo;
		hi = n->v > hi ? n->v : hi;
		fnd_list_add(list, sizeof(list), "%s=%u", b->slaves[i].name, n->v);
	}
	if (lo < FLAPPING_FAILURES || (uint64_t)lo * 2 < hi)
		return false;
	if (!report)
		return true;
	f = fnd_add(c, "link-failures-common", NULL,
		    "Every slave failed alike under ARP monitoring, so the cause is common to "
		    "them: arp_interval %u ms (1000 is usual), the target%s, the gateway or the "
		    "switch, not each cable. Raise arp_interval, add arp_ip_targets, or use "
		    "miimon; check the target answers ARP promptly.",
		    b->arp_interval_ms.v,
		    b->n_arp_targets + b->n_ns_targets == 1 ? " (only one)" : "s");
	fnd_ev(f, "link_failure_count", "%s", list);
	fnd_ev(f, "arp_interval_ms", "%u", b->arp_interval_ms.v);
	fnd_ev(f, "arp_targets", "%zu", b->n_arp_targets + b->n_ns_targets);
	return true;
}

/*
 * slave-down (error), per slave: MII status known and not up (down, going
 * down or going back: none of them carries traffic now).  Evidence says how
 * many slaves are still up.
 *
 * link-failures (info), per slave: link failure count known and > 0.  At
 * FLAPPING_FAILURES or more the evidence says the link flaps.
 *
 * speed-unknown (warning), per slave: MII up and speed BC_UNKNOWN (the
 * kernel printed "Unknown"); a speed that the source does not report at all
 * is speed-not-reported instead.
 */
static void check_each(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	bool arp_on = bc_u32_known(&b->arp_interval_ms) && b->arp_interval_ms.v > 0;
	bool common = common_failures(c, false);

	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];
		struct bc_finding *f;

		if (bc_u32_known(&s->mii_status) && !fnd_slave_up(s)) {
			if (common)
				f = fnd_add(c, "slave-down", s,
					    "%s is down by the ARP monitor, like its peers (see "
					    "link-failures-common): a common cause (arp_interval, "
					    "the target, the gateway, the switch) rather than its "
					    "cable. `ip link show %s` shows whether carrier is up.",
					    s->name, s->name);
			else if (arp_on)
				f = fnd_add(c, "slave-down", s,
					    "The ARP monitor saw no validated frame on %s for "
					    "arp_interval x arp_missed_max: a dead link or an "
					    "unanswered ARP look alike. Tell them apart: `ip link "
					    "show %s` (NO-CARRIER: cable/port), `ethtool %s` link, "
					    "then `arping -I %s TARGET` for the target's replies.",
					    s->name, s->name, s->name, s->name);
			else
				f = fnd_add(c, "slave-down", s,
					    "%s carries no traffic. Check the cable, the switch "
					    "port and `ip link show %s` (NO-CARRIER?); `ethtool "
					    "%s` shows whether the NIC sees a link.",
					    s->name, s->name, s->name);
			fnd_ev(f, "mii_status", "%s", fnd_link_text(&s->mii_status));
			if (bc_u32_known(&s->link_failure_count))
				fnd_ev(f, "link_failure_count", "%u", s->link_failure_count.v);
			fnd_ev(f, "slaves_up", "%zu of %zu", count_up(b), b->n_slaves);
			fnd_ev(f, "monitor", "%s", arp_on ? "arp" : "mii");
			/* a down 802.3ad port sits alone: not a split, but say where */
			if (bc_u32_known(&s->aggregator_id) && b->ad_info_status == BC_KNOWN &&
			    bc_u32_known(&b->ad_aggregator_id))
				fnd_ev(f, "aggregator_id", "%u (active: %u)", s->aggregator_id.v,
				       b->ad_aggregator_id.v);
		}
		if (bc_u32_known(&s->link_failure_count) && s->link_failure_count.v > 0) {
			uint32_t n = s->link_failure_count.v;
			bool flapping = n >= FLAPPING_FAILURES;

			if (flapping && arp_on)
				f = fnd_add(
					c, "link-failures", s,
					"%u failures under ARP monitoring: each is an interval "
					"without a validated frame, a missed ARP reply as well as "
					"a "
					"lost carrier. %s",
					n,
					common ? "All slaves fail alike: see link-failures-common."
					       : "Compare `ip -s link show` carrier changes with "
						 "this count.");
			else if (flapping)
				f = fnd_add(
					c, "link-failures", s,
					"The link went down %u times since enslaving: it flaps. "
					"Check the cable/optics, the switch port's error "
					"counters and `ethtool -S %s`; wireless links flap by "
					"nature.",
					n, s->name);
			else if (fnd_slave_up(s))
				f = fnd_add(c, "link-failures", s,
					    "The link went down %u time%s since enslaving and came "
					    "back. If nobody unplugged it, watch `ip monitor link` "
					    "and the switch log.",
					    n, n == 1 ? "" : "s");
			else
				f = fnd_add(c, "link-failures", s,
					    "The link went down %u time%s since enslaving and is "
					    "not up now (see slave-down).",
					    n, n == 1 ? "" : "s");
			fnd_ev(f, "link_failure_count", "%u", n);
			fnd_ev(f, "assessment", "%s",
			       flapping && common ? "high: all slaves alike (common cause)"
			       : flapping	  ? "high: the link flaps"
			       : fnd_slave_up(s)  ? "recovered"
						  : "not up now");
		}
		if (fnd_slave_up(s) && s->speed_mbps.st == BC_UNKNOWN) {
			f = fnd_add(
				c, "speed-unknown", s,
				"The driver reports no speed (wireless, some virtual NICs): "
				"802.3ad port keys, tlb/alb balancing and the bond's speed rely "
				"on it. Check `ethtool %s`; prefer NICs that report a speed.",
				s->name);
			fnd_ev(f, "speed", "Unknown");
			fnd_ev(f, "mii_status", "up");
		}
	}
}

/*
 * speed-not-reported (info): some slaves' speed is BC_NOT_REPORTED by every
 * source (bonding drivers before ~2.6.3x print no Speed/Duplex lines), so
 * speed-mismatch, duplex-mismatch and speed-unknown could not be evaluated
 * for them.  Not a fault of the bond; a limit of the evidence.
 */
static void check_not_reported(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	char list[LIST] = "";
	size_t n = 0;
	struct bc_finding *f;

	if (b->slaves_incomplete)
		return; /* the Speed lines may be in the cut, not absent from the driver */
	for (size_t i = 0; i < b->n_slaves; i++) {
		if (b->slaves[i].speed_mbps.st != BC_NOT_REPORTED)
			continue;
		fnd_list_add(list, sizeof(list), "%s", b->slaves[i].name);
		n++;
	}
	if (!n)
		return;
	f = fnd_add(c, "speed-not-reported", NULL,
		    "Speed and duplex were not checked: this source does not report them. "
		    "Run `bondcheck inspect %s` on the host, or compare `ethtool DEV` of each "
		    "slave.",
		    b->name);
	fnd_ev(f, "slaves", "%s", list);
	if (b->driver_version[0])
		fnd_ev(f, "driver_version", "%s", b->driver_version);
}

/* Advice for speed-mismatch by mode: what different speeds do there. */
static const char *speed_effect(const struct bc_bond *b)
{
	if (fnd_mode(b, BC_MODE_8023AD))
		return "802.3ad gives ports of different speed different keys, so they land "
		       "in different aggregators and only one carries traffic.";
	if (fnd_mode(b, BC_MODE_ROUNDROBIN))
		return "balance-rr gives every link the same share: the slow link caps the "
		       "bond and reorders TCP.";
	if (fnd_mode(b, BC_MODE_ACTIVEBACKUP))
		return "A failover to the slower slave cuts the bandwidth.";
	return "Flows hashed to the slow link saturate it first.";
}

/*
 * speed-mismatch (warning): two slaves with BC_KNOWN speeds differ.
 * duplex-mismatch (error): a slave with BC_KNOWN duplex is half, or two
 * known duplexes differ.  Slaves whose value is Unknown, hidden or not
 * reported take no part.
 */
static void check_speed_duplex(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	char speeds[LIST] = "", duplex[LIST] = "";
	uint32_t lo = UINT32_MAX, hi = 0;
	bool half = false, dfull = false, dhalf = false;
	struct bc_finding *f;

	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];

		if (bc_u32_known(&s->speed_mbps)) {
			lo = s->speed_mbps.v < lo ? s->speed_mbps.v : lo;
			hi = s->speed_mbps.v > hi ? s->speed_mbps.v : hi;
			fnd_list_add(speeds, sizeof(speeds), "%s=%u", s->name, s->speed_mbps.v);
		}
		if (bc_u32_known(&s->duplex)) {
			half |= s->duplex.v == 0;
			dhalf |= s->duplex.v == 0;
			dfull |= s->duplex.v == 1;
			fnd_list_add(duplex, sizeof(duplex), "%s=%s", s->name,
				     s->duplex.v ? "full" : "half");
		}
	}
	if (hi > lo) {
		f = fnd_add(c, "speed-mismatch", NULL,
			    "%s Use slaves of one speed, or check why a port negotiated lower "
			    "(`ethtool DEV`: cable, autonegotiation, switch port).",
			    speed_effect(b));
		fnd_ev(f, "speeds_mbps", "%s", speeds);
		fnd_ev(f, "slowest_mbps", "%u", lo);
		fnd_ev(f, "fastest_mbps", "%u", hi);
	}
	if (half) {
		f = fnd_add(c, "duplex-mismatch", NULL,
			    "Half duplex means collisions and a fraction of the link's "
			    "throughput, and 802.3ad requires full duplex. Fix autonegotiation "
			    "on both ends (`ethtool -s DEV autoneg on`) or set both to full.");
		fnd_ev(f, "duplex", "%s", duplex);
		fnd_ev(f, "mixed", "%s", dfull && dhalf ? "yes" : "no");
	}
}

/*
 * driver-mismatch (warning): slaves with a known driver (ETHTOOL_GDRVINFO)
 * use different drivers; or all use one driver but report different
 * non-empty firmware versions.  Evidence lists each slave's driver.
 */
static void check_driver(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	char per_slave[LIST] = "", drivers[LIST] = "", fw[LIST] = "";
	const char *first = NULL, *first_fw = NULL;
	bool ddiff = false, fdiff = false;
	struct bc_finding *f;

	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];
		bool seen = false;

		if (!s->driver[0])
			continue;
		for (size_t j = 0; j < i; j++)
			seen |= b->slaves[j].driver[0] && !strcmp(b->slaves[j].driver, s->driver);
		if (!seen)
			fnd_list_add(drivers, sizeof(drivers), "%s", s->driver);
		fnd_list_add(per_slave, sizeof(per_slave), "%s=%s", s->name, s->driver);
		if (!first)
			first = s->driver;
		ddiff |= strcmp(first, s->driver) != 0;
		if (s->fw_version[0]) {
			fnd_list_add(fw, sizeof(fw), "%s=%s", s->name, s->fw_version);
			if (!first_fw)
				first_fw = s->fw_version;
			fdiff |= strcmp(first_fw, s->fw_version) != 0;
		}
	}
	if (!ddiff && !fdiff)
		return;
	f = fnd_add(c, "driver-mismatch", NULL,
		    "Different NICs differ in offloads, ring sizes, interrupt moderation and "
		    "bugs, so links behave differently under load. Prefer identical NICs and "
		    "firmware; otherwise compare `ethtool -k/-g/-c` per slave.");
	fnd_ev(f, "drivers", "%s", drivers);
	fnd_ev(f, "slaves", "%s", per_slave);
	if (fdiff || fw[0])
		fnd_ev(f, "firmware", "%s", fw);
}

/*
 * mtu-mismatch (error): a slave's known MTU differs from the bond's known
 * MTU, or (bond MTU not known) two slaves' known MTUs differ.  Bonding sets
 * every slave's MTU to the bond's, so a difference means something changed
 * a slave behind the bond's back.
 */
static void check_mtu(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	char list[LIST] = "";
	uint32_t ref = 0;
	bool have_ref = bc_u32_known(&b->mtu), diff = false;
	struct bc_finding *f;

	if (have_ref)
		ref = b->mtu.v;
	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];

		if (!bc_u32_known(&s->mtu))
			continue;
		fnd_list_add(list, sizeof(list), "%s=%u", s->name, s->mtu.v);
		if (!have_ref) {
			ref = s->mtu.v;
			have_ref = true;
		}
		diff |= s->mtu.v != ref;
	}
	if (!diff)
		return;
	f = fnd_add(c, "mtu-mismatch", NULL,
		    "Frames larger than a slave's MTU are dropped on that link only. Set the "
		    "MTU on the bond, not on slaves (`ip link set %s mtu N`), and match the "
		    "switch ports.",
		    b->name);
	if (bc_u32_known(&b->mtu))
		fnd_ev(f, "bond_mtu", "%u", b->mtu.v);
	fnd_ev(f, "slave_mtu", "%s", list);
}

/*
 * offload-mismatch (warning): for any feature (tso, tso6, gso, gro, lro,
 * rx-checksum, tx-checksum, scatter-gather), two slaves with a known state
 * differ.  One finding per bond; evidence lists each differing feature.
 */
static void check_offloads(struct fnd_ctx *c)
{
	static const struct {
		const char *name;
		size_t off;
	} feats[] = {
		{"tso", offsetof(struct bc_offloads, tso)},
		{"tso6", offsetof(struct bc_offloads, tso6)},
		{"gso", offsetof(struct bc_offloads, gso)},
		{"gro", offsetof(struct bc_offloads, gro)},
		{"lro", offsetof(struct bc_offloads, lro)},
		{"rx_csum", offsetof(struct bc_offloads, rx_csum)},
		{"tx_csum", offsetof(struct bc_offloads, tx_csum)},
		{"sg", offsetof(struct bc_offloads, sg)},
	};
	const struct bc_bond *b = c->bond;
	struct bc_finding *f = NULL;

	for (size_t k = 0; k < sizeof(feats) / sizeof(feats[0]); k++) {
		char list[LIST] = "";
		bool on = false, off = false;

		for (size_t i = 0; i < b->n_slaves; i++) {
			const struct bc_u32 *v =
				(const struct bc_u32 *)((const char *)&b->slaves[i].offloads +
							feats[k].off);

			if (!bc_u32_known(v))
				continue;
			on |= v->v != 0;
			off |= v->v == 0;
			fnd_list_add(list, sizeof(list), "%s=%s", b->slaves[i].name,
				     v->v ? "on" : "off");
		}
		if (!(on && off))
			continue;
		if (!f)
			f = fnd_add(c, "offload-mismatch", NULL,
				    "The bond advertises only offloads every slave has, and "
				    "traffic moved between links changes CPU cost and packet "
				    "sizes. Align them with `ethtool -K DEV FEATURE on|off`.");
		fnd_ev(f, feats[k].name, "%s", list);
		if (!f)
			return;
	}
}

/* A colon-hex MAC of 6 or more bytes; posters' masks ("xx:xx:...") are not. */
static bool valid_mac(const char *m)
{
	size_t n = strlen(m), bytes = 0;

	for (size_t i = 0; i < n; i += 3, bytes++) {
		if (!isxdigit((unsigned char)m[i]) || !isxdigit((unsigned char)m[i + 1]) ||
		    (m[i + 2] && m[i + 2] != ':'))
			return false;
		if (!m[i + 2])
			break;
	}
	return bytes >= 5 && strcmp(m, "00:00:00:00:00:00") != 0;
}

/*
 * What a name says about the device behind it.  A VLAN sub-interface
 * "eth0.100" names its parent.  A predictable name (systemd
 * udev-builtin-net_id) encodes type and place: "enp2s0f1" is Ethernet at
 * PCI bus 2, slot 0 (function 1), "wlp3s0" Wi-Fi at bus 3 slot 0.  Fills
 * @parent (VLAN) or @type and @place ("p2s0", function dropped: two ports
 * of one card differ only in the function); empty when the name says nothing.
 */
static void name_facts(const char *name, char *parent, char *type, char *place)
{
	const char *dot = strchr(name, '.'), *p;
	size_t n;

	parent[0] = type[0] = place[0] = '\0';
	if (dot && dot > name && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1)) {
		snprintf(parent, BC_IFNAMSIZ, "%.*s", (int)(dot - name), name);
		return;
	}
	n = strspn(name, "abcdefghijklmnopqrstuvwxyz");
	if (!n || n > 4)
		return;
	snprintf(type, 8, "%.*s", (int)n, name);
	if (!strcmp(type, "enp") || !strcmp(type, "wlp") || !strcmp(type, "wwp") ||
	    !strcmp(type, "ibp")) {
		type[2] = '\0';
		p = name + n - 1;
		n = strcspn(p, "fdn");
		snprintf(place, 16, "%.*s", (int)n, p);
	}
}

/* Whether two slaves' names prove separate devices (and say why in @why). */
static bool separate_devices(const char *a, const char *b, char *why, size_t cap)
{
	char pa[BC_IFNAMSIZ], pb[BC_IFNAMSIZ], ta[8], tb[8], la[16], lb[16];

	name_facts(a, pa, ta, la);
	name_facts(b, pb, tb, lb);
	if (pa[0] || pb[0])
		return false;
	if (ta[0] && tb[0] && strcmp(ta, tb) &&
	    (!strcmp(ta, "wl") || !strcmp(tb, "wl") || !strcmp(ta, "wlan") ||
	     !strcmp(tb, "wlan"))) {
		snprintf(why, cap, "%s and %s are different kinds of device", a, b);
		return true;
	}
	if (la[0] && lb[0] && strcmp(la, lb)) {
		snprintf(why, cap, "%s and %s sit at different PCI places (%s, %s)", a, b, la, lb);
		return true;
	}
	return false;
}

/* Whether every slave with MAC @mac is a VLAN sub-interface of one parent (in @parent). */
static bool one_parent(const struct bc_bond *b, const char *mac, char *parent, size_t cap)
{
	char first[BC_IFNAMSIZ] = "", p[BC_IFNAMSIZ], t[8], l[16];

	for (size_t k = 0; k < b->n_slaves; k++) {
		const struct bc_str *o = &b->slaves[k].perm_hwaddr;

		if (o->st != BC_KNOWN || strcasecmp(o->v, mac))
			continue;
		name_facts(b->slaves[k].name, p, t, l);
		if (!p[0] || (first[0] && strcmp(first, p)))
			return false;
		snprintf(first, sizeof(first), "%s", p);
	}
	snprintf(parent, cap, "%s", first);
	return first[0] != '\0';
}

/*
 * Slaves that report one known permanent MAC (perm_hwaddr: the address the
 * slave had when it was enslaved, bond_enslave() in bond_main.c; masks such
 * as "xx:xx:..." and all-zero are not addresses).
 *
 * no-physical-redundancy (warning): the names do not prove separate
 * devices: one port (VLAN sub-interfaces "eth0.1", "eth0.2", or macvlans)
 * or MACs made equal by tooling; `ethtool -i` bus-info and `ip -d link`
 * tell them apart.  Case 29.
 *
 * slaves-same-mac (info): the names prove separate devices (another kind,
 * as Ethernet and Wi-Fi, or another PCI bus/slot in a predictable name):
 * the MACs were made equal before enslaving (NetworkManager cloned-mac, a
 * previous bond), which breaks nothing by itself.
 */
static void check_same_port(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;

	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_str *m = &b->slaves[i].perm_hwaddr;
		char list[LIST] = "", why[160] = "";
		size_t n = 0;
		struct bc_finding *f;
		bool earlier = false, separate = false;

		if (m->st != BC_KNOWN || !valid_mac(m->v))
			continue;
		for (size_t k = 0; k < i; k++)
			earlier |= b->slaves[k].perm_hwaddr.st == BC_KNOWN &&
				   !strcasecmp(b->slaves[k].perm_hwaddr.v, m->v);
		if (earlier)
			continue;
		for (size_t k = i; k < b->n_slaves; k++) {
			const struct bc_str *o = &b->slaves[k].perm_hwaddr;

			if (o->st != BC_KNOWN || strcasecmp(o->v, m->v))
				continue;
			fnd_list_add(list, sizeof(list), "%s", b->slaves[k].name);
			if (k > i && !separate)
				separate = separate_devices(b->slaves[i].name, b->slaves[k].name,
							    why, sizeof(why));
			n++;
		}
		if (n < 2)
			continue;
		if (separate) {
			f = fnd_add(
				c, "slaves-same-mac", NULL,
				"%s share one permanent MAC, yet %s: the MACs were made equal "
				"before enslaving (NetworkManager cloned-mac, an earlier bond). "
				"Harmless by itself; with fail_over_mac none the bond sets its "
				"own MAC anyway.",
				list, why);
			fnd_ev(f, "perm_hwaddr", "%s", m->v);
			fnd_ev(f, "separate", "%s", why);
			continue;
		}
		if (one_parent(b, m->v, why, sizeof(why)))
			f = fnd_add(c, "no-physical-redundancy", NULL,
				    "%s share one permanent MAC and are VLAN sub-interfaces of %s: "
				    "one port, so one cable or port failure takes them all down, "
				    "and LACP sees one link. Enslave distinct NICs (and put the "
				    "VLANs on the bond).",
				    list, why);
		else
			f = fnd_add(c, "no-physical-redundancy", NULL,
				    "%s share one permanent MAC: one port (VLAN or macvlan "
				    "sub-interfaces), or MACs made equal by tooling. If one port, "
				    "a cable or port failure takes them all down. Tell them apart: "
				    "`ip -d link` (vlan/macvlan and its parent), `ethtool -i` "
				    "bus-info (ports of one card differ only in the function).",
				    list);
		fnd_ev(f, "perm_hwaddr", "%s", m->v);
		fnd_ev(f, "slaves", "%s", list);
	}
}

void fnd_check_slaves(struct fnd_ctx *c)
{
	common_failures(c, true);
	check_same_port(c);
	check_each(c);
	check_not_reported(c);
	check_speed_duplex(c);
	check_driver(c);
	check_mtu(c);
	check_offloads(c);
}
