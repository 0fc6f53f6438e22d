// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bondcheck/model.h"
#include "bondcheck/names.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const mode_names[] = {
	"balance-rr", "active-backup", "balance-xor", "broadcast",
	"802.3ad",    "balance-tlb",   "balance-alb",
};

/* bond_procfs.c prints bond_mode_name(), from bond_main.c */
static const char *const mode_proc_texts[] = {
	"load balancing (round-robin)",
	"fault-tolerance (active-backup)",
	"load balancing (xor)",
	"fault-tolerance (broadcast)",
	"IEEE 802.3ad Dynamic link aggregation",
	"transmit load balancing",
	"adaptive load balancing",
};

static const char *const hash_names[] = {
	"layer2", "layer3+4", "layer2+3", "encap2+3", "encap3+4", "vlan+srcmac",
};

static const char *const link_names[] = { "up", "going down", "down", "going back" };
static const char *const churn_names[] = { "monitoring", "churned", "none" };
static const char *const fom_names[] = { "none", "active", "follow" };
static const char *const reselect_names[] = { "always", "better", "failure" };
static const char *const validate_names[] = {
	"none", "active", "backup", "all", "filter", "filter_active", "filter_backup",
};
static const char *const rate_names[] = { "slow", "fast" };
static const char *const select_names[] = { "stable", "bandwidth", "count", "actor_port_prio" };
static const char *const sev_names[] = { "info", "warning", "error" };
static const char *const status_names[] = { "not_reported", "known", "unknown", "n/a", "hidden" };

static const char *lookup(const char *const *tab, size_t n, int v)
{
	return v >= 0 && (size_t)v < n ? tab[v] : NULL;
}

static int rlookup(const char *const *tab, size_t n, const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(tab[i], name))
			return (int)i;
	return -1;
}

const char *bc_mode_name(int mode)
{
	return lookup(mode_names, ARRAY_SIZE(mode_names), mode);
}

int bc_mode_from_name(const char *name)
{
	char *end;
	long v;

	if (!name)
		return -1;
	v = strtol(name, &end, 10);
	if (end != name && *end == '\0')
		return v >= 0 && v < (long)ARRAY_SIZE(mode_names) ? (int)v : -1;
	return rlookup(mode_names, ARRAY_SIZE(mode_names), name);
}

int bc_mode_from_proc_text(const char *text)
{
	return rlookup(mode_proc_texts, ARRAY_SIZE(mode_proc_texts), text);
}

const char *bc_xmit_hash_policy_name(int policy)
{
	return lookup(hash_names, ARRAY_SIZE(hash_names), policy);
}

int bc_xmit_hash_policy_from_name(const char *name)
{
	if (name && !strcmp(name, "vlansrc"))
		return 5; /* pre-merge RHEL 8 name of vlan+srcmac */
	return rlookup(hash_names, ARRAY_SIZE(hash_names), name);
}

const char *bc_link_status_name(int st)
{
	return lookup(link_names, ARRAY_SIZE(link_names), st);
}

int bc_link_status_from_name(const char *name)
{
	return rlookup(link_names, ARRAY_SIZE(link_names), name);
}

const char *bc_churn_name(int st)
{
	const char *n = lookup(churn_names, ARRAY_SIZE(churn_names), st);

	return n ? n : "unknown";
}

int bc_churn_from_name(const char *name)
{
	int v = rlookup(churn_names, ARRAY_SIZE(churn_names), name);

	return v < 0 ? BC_CHURN_OTHER : v;
}

const char *bc_fail_over_mac_name(int v)
{
	return lookup(fom_names, ARRAY_SIZE(fom_names), v);
}

int bc_fail_over_mac_from_name(const char *name)
{
	return rlookup(fom_names, ARRAY_SIZE(fom_names), name);
}

const char *bc_primary_reselect_name(int v)
{
	return lookup(reselect_names, ARRAY_SIZE(reselect_names), v);
}

int bc_primary_reselect_from_name(const char *name)
{
	return rlookup(reselect_names, ARRAY_SIZE(reselect_names), name);
}

const char *bc_arp_validate_name(int v)
{
	return lookup(validate_names, ARRAY_SIZE(validate_names), v);
}

const char *bc_lacp_rate_name(int v)
{
	return lookup(rate_names, ARRAY_SIZE(rate_names), v);
}

int bc_lacp_rate_from_name(const char *name)
{
	return rlookup(rate_names, ARRAY_SIZE(rate_names), name);
}

const char *bc_ad_select_name(int v)
{
	return lookup(select_names, ARRAY_SIZE(select_names), v);
}

int bc_ad_select_from_name(const char *name)
{
	return rlookup(select_names, ARRAY_SIZE(select_names), name);
}

char *bc_lacp_state_words(unsigned int state, char *buf, size_t len)
{
	static const char *const words[] = {
		"activity",   "timeout",      "aggregation", "synchronization",
		"collecting", "distributing", "defaulted",   "expired",
	};
	size_t off = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (unsigned int i = 0; i < 8; i++) {
		int n;

		if (!(state & (1u << i)))
			continue;
		n = (int)strlen(words[i]) + (off ? 1 : 0);
		if ((size_t)n >= len - off)
			break; /* keep a whole-word prefix */
		snprintf(buf + off, len - off, "%s%s", off ? " " : "", words[i]);
		off += (size_t)n;
	}
	return buf;
}

const char *bc_severity_name(int sev)
{
	const char *n = lookup(sev_names, ARRAY_SIZE(sev_names), sev);

	return n ? n : "?";
}

const char *bc_field_status_name(int st)
{
	const char *n = lookup(status_names, ARRAY_SIZE(status_names), st);

	return n ? n : "?";
}

bool bc_ifname_valid(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n && n < BC_IFNAMSIZ && !strpbrk(s, " \t\n\r/:") && strcmp(s, ".") &&
	       strcmp(s, "..");
}

bool bc_ifname_from_file(const char *path, char out[BC_IFNAMSIZ])
{
	static const char *const ext[] = {".txt", ".log", ".out", ".proc", ".text"};
	const char *base = strrchr(path, '/');
	char buf[256];
	size_t n;

	out[0] = '\0';
	snprintf(buf, sizeof(buf), "%s", base ? base + 1 : path);
	n = strlen(buf);
	for (size_t i = 0; i < ARRAY_SIZE(ext); i++) {
		size_t k = strlen(ext[i]);

		if (n >= k && !strcasecmp(buf + n - k, ext[i])) {
			buf[n - k] = '\0';
			break;
		}
	}
	if (!bc_ifname_valid(buf))
		return false;
	snprintf(out, BC_IFNAMSIZ, "%s", buf);
	return true;
}
