// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Findings engine: the catalog, evaluation order, evidence helpers and the
 * source-disagreement finding.  The checks themselves live in
 * findings-bond.c (bond configuration and monitoring), findings-slaves.c
 * (per-slave link facts and slave-vs-slave mismatches), findings-lacp.c
 * (802.3ad) and findings-device.c (carrier, drops).  Everything here reads the model only.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/findings-int.h"
#include "bondcheck/names.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct bc_finding_def catalog[] = {
	{"no-slaves", BC_SEV_ERROR, "bond has no slaves (and the source is not cut)"},
	{"input-truncated", BC_SEV_WARNING,
	 "the text is cut (a cut marker, or master fields that prove slaves the list lacks): "
	 "slave checks not done"},
	{"single-slave", BC_SEV_WARNING,
	 "bond has exactly one slave: no redundancy, no aggregation"},
	{"slave-down", BC_SEV_ERROR,
	 "a slave's MII status is not up, or it went down during a run and stayed down"},
	{"no-link-monitoring", BC_SEV_WARNING, "miimon 0 and no ARP (or NS) monitoring"},
	{"slow-failover", BC_SEV_INFO,
	 "miimon or arp_interval >= 1000 ms, or up/down delay >= 1000 ms"},
	{"single-arp-target", BC_SEV_INFO, "ARP monitoring with exactly one target"},
	{"arp-interval-short", BC_SEV_WARNING,
	 "ARP monitoring with arp_interval < 500 ms: a late reply counts as a link failure"},
	{"link-failures-common", BC_SEV_WARNING,
	 "ARP monitoring and every slave failed about equally often: a common cause"},
	{"link-failures", BC_SEV_INFO, "a slave's link failure count > 0 (>= 10: flapping)"},
	{"speed-mismatch", BC_SEV_WARNING, "slaves report different speeds"},
	{"duplex-mismatch", BC_SEV_ERROR, "a slave is half duplex, or duplex differs"},
	{"speed-unknown", BC_SEV_WARNING, "a slave is up but reports speed Unknown"},
	{"speed-not-reported", BC_SEV_INFO,
	 "no source reports a slave's speed/duplex (old driver): those checks were skipped"},
	{"driver-mismatch", BC_SEV_WARNING,
	 "slaves use different drivers (or same driver, different firmware)"},
	{"mtu-mismatch", BC_SEV_ERROR, "slave MTUs differ from the bond's or each other"},
	{"offload-mismatch", BC_SEV_WARNING,
	 "TSO/GSO/GRO/LRO/checksum/SG features differ between slaves"},
	{"lacp-no-partner", BC_SEV_ERROR, "802.3ad partner system MAC is 00:00:00:00:00:00"},
	{"lacp-no-active-aggregator", BC_SEV_ERROR,
	 "802.3ad and a visible source says the bond has no active aggregator"},
	{"lacp-split-aggregator", BC_SEV_ERROR,
	 "a slave sits in an aggregator other than the active one: it carries no traffic"},
	{"lacp-partner-mismatch", BC_SEV_ERROR, "slaves see different partner system MACs"},
	{"lacp-rate-mismatch", BC_SEV_WARNING,
	 "actor and partner disagree on the LACP timeout bit"},
	{"lacp-not-in-sync", BC_SEV_ERROR,
	 "an up port lacks synchronization/collecting/distributing bits"},
	{"lacp-churned", BC_SEV_WARNING,
	 "actor or partner churn state is churned and the port is not (visibly) in sync"},
	{"lacp-churn-stale", BC_SEV_INFO,
	 "churned flag on a port whose actor and partner are in sync, collecting and "
	 "distributing: stale"},
	{"lacp-port-individual", BC_SEV_WARNING,
	 "an 802.3ad port that cannot aggregate (duplex not full, or a key without the "
	 "duplex bit): it forms an aggregator alone"},
	{"no-physical-redundancy", BC_SEV_WARNING,
	 "slaves share one permanent MAC and their names do not prove separate devices: one "
	 "port (VLAN/macvlan sub-interfaces), or MACs made equal"},
	{"slaves-same-mac", BC_SEV_INFO,
	 "slaves share one permanent MAC but their names prove separate devices: MACs made "
	 "equal before enslaving"},
	{"primary-down", BC_SEV_WARNING, "the primary slave is down (or not enslaved)"},
	{"no-active-slave", BC_SEV_ERROR, "active-backup/tlb/alb bond with no usable active slave"},
	{"lacp-details-hidden", BC_SEV_INFO,
	 "a source hid LACP details (reader lacks CAP_NET_ADMIN)"},
	{"min-links-unmet", BC_SEV_ERROR, "fewer usable slaves than min_links"},
	{"lacp-slow-rate", BC_SEV_INFO, "lacp_rate slow: a dead partner takes ~90 s to detect"},
	{"rr-tcp-reordering", BC_SEV_INFO,
	 "balance-rr with tcp_reordering at its default 3: expect retransmits"},
	{"source-disagreement", BC_SEV_WARNING,
	 "two sources (netlink, /proc, sysfs) disagree on a field"},
	{"slave-no-carrier", BC_SEV_ERROR,
	 "a slave has NO-CARRIER or operstate DOWN/LOWERLAYERDOWN while bonding counts it up"},
	{"slave-rx-drops", BC_SEV_INFO,
	 "an active slave's rx_dropped or rx_missed counter is > 0 (no rate: one reading)"},
	/* per-slave capture attribution (run, analyze): bondcheck/attrib.h */
	{"link-idle", BC_SEV_WARNING,
	 "a slave that should carry test traffic carried < 1 % of it (captures)"},
	{"reordering", BC_SEV_WARNING,
	 "late datagrams beyond 3 positions, attributed to link pairs (captures)"},
	{"wire-loss", BC_SEV_ERROR,
	 "datagrams left on a slave and never arrived, bracketed by both captures"},
	{"rx-loss-reassembly", BC_SEV_ERROR,
	 "a fragmented message is not reassembled: a fragment lost on a link, or its "
	 "fragments too far apart (ipfrag_max_dist, ipfrag_time)"},
	{"tx-loss", BC_SEV_ERROR,
	 "the sender dropped datagrams on a slave: qdisc drops, tx_dropped, SndbufErrors"},
	{"rx-loss-nic", BC_SEV_ERROR,
	 "the receiver's slave or backlog dropped arrivals (rx_dropped, rx_missed, driver)"},
	{"rx-loss-socket", BC_SEV_ERROR,
	 "datagrams reached the receiving socket but were dropped (RcvbufErrors/InErrors)"},
	{"placement-mismatch", BC_SEV_WARNING,
	 "a placed flow left on a slave other than the predicted one (captures)"},
	{"capture-incomplete", BC_SEV_WARNING,
	 "a capture dropped or cut packets: counts are lower bounds"},
	/* cluster matrix (bondcheck/matrix.h, docs/matrix.md) */
	{"host-unreachable", BC_SEV_ERROR,
	 "a matrix host did not answer, refused the key or was busy: its pairs were skipped"},
	{"pair-failed", BC_SEV_ERROR, "the test of one ordered matrix pair failed"},
	{"host-slow", BC_SEV_ERROR,
	 "a host's pairs in one direction (sending or receiving) reach < 60 % of what the pairs "
	 "without it reach (median efficiencies; matrix)"},
	{"host-borderline", BC_SEV_WARNING,
	 "a host's pairs in one direction are near the slow or loss line (60-80 % of the "
	 "others; loss from half the threshold): reported with the numbers, not judged"},
	{"host-link-slower", BC_SEV_WARNING,
	 "a host's link ceiling when sending (egress) or receiving (NIC speed) is below half "
	 "the other hosts' (matrix)"},
	{"host-loss", BC_SEV_ERROR,
	 "the pairs into (or out of) one host lose >= 5 % of their segments and 5x the others' "
	 "(retransmits; UDP loss), with the mechanism its drop counters support (matrix)"},
	{"pair-over-ceiling", BC_SEV_WARNING,
	 "a matrix pair's goodput exceeds its ceiling by > 3 %: the ceiling is wrong for it"},
	{"host-mtu-mismatch", BC_SEV_ERROR,
	 "a host's MTU differs from the others' (with its lost own-size DF probes)"},
	{"path-mtu-blackhole", BC_SEV_ERROR,
	 "DF probes no larger than both ends' MTU were all lost between two hosts"},
	{"host-rx-drops", BC_SEV_WARNING,
	 "a host's interface dropped received frames during matrix tests"},
	{"matrix-inconclusive", BC_SEV_WARNING,
	 "a matrix host or pair lacks a member the analysis needs (named): the answers that "
	 "need it are not judged"},
	/* scale: bondcheck/scale-stats.h */
	{"scaling-flat", BC_SEV_WARNING,
	 "scale: adding a link gave no significant gain (speed-up CI reaches below 1 + margin)"},
	{"scaling-negative", BC_SEV_ERROR,
	 "scale: adding a link lowered goodput (speed-up CI entirely below 1.0)"},
	/* failover (bondcheck/failover.h) */
	{"failover-slow", BC_SEV_WARNING,
	 "failover: traffic gap longer than the configured monitoring implies (+ tolerance)"},
	{"failover-black-hole", BC_SEV_ERROR,
	 "failover: nothing was delivered for the whole hold (no monitoring sees the cut)"},
	{"failover-ends-differ", BC_SEV_WARNING,
	 "failover: the two ends detect a failure with different monitoring or timers"},
	{"failover-no-takeover", BC_SEV_ERROR,
	 "failover: before the cut no other slave could take over (down, going down, not "
	 "distributing)"},
	{"failover-not-recovered", BC_SEV_ERROR,
	 "failover: traffic did not resume after the slave came back"},
	/* host counters of a run (run) */
	{"link-flap", BC_SEV_WARNING,
	 "an interface lost and regained carrier during the run (carrier_changes)"},
};

const struct bc_finding_def *bc_findings_catalog(size_t *n)
{
	*n = ARRAY_SIZE(catalog);
	return catalog;
}

const struct bc_finding_def *bc_findings_lookup(const char *id)
{
	for (size_t i = 0; i < ARRAY_SIZE(catalog); i++)
		if (!strcmp(catalog[i].id, id))
			return &catalog[i];
	return NULL;
}

struct bc_finding *fnd_add(struct fnd_ctx *c, const char *id, const struct bc_slave *slave,
			   const char *advice_fmt, ...)
{
	va_list ap;
	const struct bc_finding_def *d = bc_findings_lookup(id);
	char subject[2 * BC_IFNAMSIZ + 2];
	struct bc_finding *f;

	if (!d || c->rc)
		return NULL; /* an id missing from the catalog is a bug caught by tests */
	if (slave)
		snprintf(subject, sizeof(subject), "%s/%s", c->bond->name, slave->name);
	else
		snprintf(subject, sizeof(subject), "%s", c->bond->name);
	/* the catalog's id string is static, as struct bc_finding.id requires */
	f = bc_snapshot_add_finding(c->snap, d->id, d->severity, subject);
	if (!f) {
		c->rc = -ENOMEM;
		return NULL;
	}
	va_start(ap, advice_fmt);
	vsnprintf(f->advice, sizeof(f->advice), advice_fmt, ap);
	va_end(ap);
	return f;
}

void fnd_ev(struct bc_finding *f, const char *key, const char *fmt, ...)
{
	char buf[sizeof(f->evidence[0].value)];
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	bc_finding_evidence(f, key, "%s", buf);
}

void fnd_list_add(char *buf, size_t cap, const char *fmt, ...)
{
	size_t len = strlen(buf);
	char item[128];
	va_list ap;

	if (len >= 3 && !strcmp(buf + len - 3, "..."))
		return;
	va_start(ap, fmt);
	vsnprintf(item, sizeof(item), fmt, ap);
	va_end(ap);
	/* keep room for a final ", ..." */
	if (len + (len ? 2 : 0) + strlen(item) + 6 > cap) {
		if (len + 6 <= cap)
			snprintf(buf + len, cap - len, "%s", len ? ", ..." : "...");
		return;
	}
	snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", item);
}

/* Evidence text of a field that is not BC_KNOWN. */
static const char *status_text(const struct bc_u32 *f)
{
	switch (f->st) {
	case BC_UNKNOWN:
		return "Unknown";
	case BC_NA:
		return "N/A";
	case BC_HIDDEN:
		return "hidden";
	default:
		return "not reported";
	}
}

const char *fnd_u32_text(const struct bc_u32 *f, char *buf, size_t len)
{
	if (f->st != BC_KNOWN)
		return status_text(f);
	snprintf(buf, len, "%u", f->v);
	return buf;
}

const char *fnd_link_text(const struct bc_u32 *f)
{
	const char *n;

	if (f->st != BC_KNOWN)
		return status_text(f);
	n = bc_link_status_name((int)f->v);
	return n ? n : "?";
}

const char *fnd_state_text(uint32_t state, char *buf, size_t len)
{
	char words[112];

	snprintf(buf, len, "%u (%s)", state, bc_lacp_state_words(state, words, sizeof(words)));
	return buf;
}

/* A recorded disagreement about this bond becomes a source-disagreement finding. */
static void check_disagreements(struct fnd_ctx *c)
{
	const struct bc_snapshot *s = c->snap;
	size_t blen = strlen(c->bond->name);

	/*
	 * source-disagreement (warning): a collector recorded that two
	 * sources give different values for one field of this bond or one
	 * of its slaves.  Hidden or not-reported sides are never recorded
	 * (bc_findings_compare_u32 filters them), so this is a real conflict:
	 * one source is stale or one decoder is wrong.
	 */
	for (size_t i = 0; i < s->n_disagreements; i++) {
		const struct bc_disagreement *d = &s->disagreements[i];
		char subj[sizeof(d->subject)];
		struct bc_finding *f;

		if (strncmp(d->subject, c->bond->name, blen) ||
		    (d->subject[blen] && d->subject[blen] != '/'))
			continue;
		snprintf(subj, sizeof(subj), "%s", d->subject);
		/* a sosreport cannot be re-read: its commands ran seconds apart */
		f = fnd_add(
			c, "source-disagreement", NULL,
			s->source == BC_SRC_SOS
				? "The sosreport's commands ran seconds apart and saw different "
				  "values: the state changed while it was taken (a flapping "
				  "link?). Look for link changes then in its kernel log "
				  "(var/log/messages) and take a new report to confirm."
				: "Two kernel interfaces report different values: re-run inspect "
				  "(the state may have changed between reads); if it persists, "
				  "report it with the output of `bondcheck inspect --record DIR`.");
		if (!f)
			return;
		snprintf(f->subject, sizeof(f->subject), "%s", subj);
		fnd_ev(f, "field", "%s", d->field);
		fnd_ev(f, d->source_a, "%s", d->value_a);
		fnd_ev(f, d->source_b, "%s", d->value_b);
	}
}

/* Stable order within one bond's findings: error, warning, info. */
static void sort_range(struct bc_finding *f, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct bc_finding tmp = f[i];
		size_t j = i;

		while (j > 0 && f[j - 1].severity < tmp.severity) {
			f[j] = f[j - 1];
			j--;
		}
		f[j] = tmp;
	}
}

int bc_findings_evaluate(struct bc_snapshot *snap)
{
	free(snap->findings);
	snap->findings = NULL;
	snap->n_findings = 0;
	for (size_t i = 0; i < snap->n_bonds; i++) {
		struct fnd_ctx c = {.snap = snap, .bond = &snap->bonds[i]};
		size_t first = snap->n_findings;

		fnd_check_bond(&c);
		fnd_check_slaves(&c);
		fnd_check_lacp(&c);
		fnd_check_device(&c);
		check_disagreements(&c);
		if (c.rc)
			return c.rc;
		if (snap->n_findings > first) /* findings may still be NULL */
			sort_range(snap->findings + first, snap->n_findings - first);
	}
	return 0;
}

int bc_findings_add_disagreement(struct bc_snapshot *snap, const char *bond, const char *slave,
				 const char *field, const char *source_a, const char *value_a,
				 const char *source_b, const char *value_b)
{
	struct bc_disagreement *arr, *d;

	arr = realloc(snap->disagreements, (snap->n_disagreements + 1) * sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	snap->disagreements = arr;
	d = &arr[snap->n_disagreements++];
	memset(d, 0, sizeof(*d));
	if (slave)
		snprintf(d->subject, sizeof(d->subject), "%s/%s", bond, slave);
	else
		snprintf(d->subject, sizeof(d->subject), "%s", bond);
	snprintf(d->field, sizeof(d->field), "%s", field);
	snprintf(d->source_a, sizeof(d->source_a), "%s", source_a);
	snprintf(d->value_a, sizeof(d->value_a), "%s", value_a);
	snprintf(d->source_b, sizeof(d->source_b), "%s", source_b);
	snprintf(d->value_b, sizeof(d->value_b), "%s", value_b);
	return 0;
}

int bc_findings_compare_u32(struct bc_snapshot *snap, const char *bond, const char *slave,
			    const char *field, const char *source_a, const struct bc_u32 *a,
			    const char *source_b, const struct bc_u32 *b)
{
	char ta[16], tb[16];
	int rc;

	if (a->st == BC_NOT_REPORTED || a->st == BC_HIDDEN || b->st == BC_NOT_REPORTED ||
	    b->st == BC_HIDDEN)
		return 0;
	if (a->st == b->st && (a->st != BC_KNOWN || a->v == b->v))
		return 0;
	rc = bc_findings_add_disagreement(snap, bond, slave, field, source_a,
					  fnd_u32_text(a, ta, sizeof(ta)), source_b,
					  fnd_u32_text(b, tb, sizeof(tb)));
	return rc < 0 ? rc : 1;
}

size_t bc_findings_count(const struct bc_snapshot *snap, enum bc_severity sev)
{
	size_t n = 0;

	for (size_t i = 0; i < snap->n_findings; i++)
		n += snap->findings[i].severity == sev;
	return n;
}

bool bc_finding_is_about(const struct bc_finding *f, const char *bond)
{
	size_t n = strlen(bond);

	return !strncmp(f->subject, bond, n) && (f->subject[n] == '\0' || f->subject[n] == '/');
}
