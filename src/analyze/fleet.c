// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fleet comparison (fleet.h): groups of comparable bonds, drift from a
 * strict majority, bonds alone in their mode, duplicate LACP actor systems,
 * missing and failed hosts.  Pure: no I/O, no json-c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/fleet.h"

static const char *const attr_names[BC_FLEET_N_ATTRS] = {
	[BC_FLEET_SLAVE_COUNT] = "slave_count",
	[BC_FLEET_DRIVER] = "driver",
	[BC_FLEET_DRIVER_VERSION] = "driver_version",
	[BC_FLEET_FIRMWARE] = "firmware_version",
	[BC_FLEET_SPEED] = "speed_mbps",
	[BC_FLEET_SLAVE_MTU] = "slave_mtu",
	[BC_FLEET_MTU] = "mtu",
	[BC_FLEET_MIIMON] = "miimon_ms",
	[BC_FLEET_ARP_INTERVAL] = "arp_interval_ms",
	[BC_FLEET_LACP_RATE] = "lacp_rate",
	[BC_FLEET_XMIT_HASH_POLICY] = "xmit_hash_policy",
	[BC_FLEET_AD_SELECT] = "ad_select",
};

const char *bc_fleet_attr_name(int attr)
{
	return attr >= 0 && attr < BC_FLEET_N_ATTRS ? attr_names[attr] : NULL;
}

const char *bc_fleet_kind_id(enum bc_fleet_kind k, const char **sev)
{
	static const struct {
		const char *id, *sev;
	} t[] = {
		[BC_FLEET_DRIFT] = { "fleet-drift", "warning" },
		[BC_FLEET_DIFFERS] = { "fleet-differs", "info" },
		[BC_FLEET_BOND_ALONE] = { "fleet-bond-alone", "warning" },
		[BC_FLEET_DUP_ACTOR] = { "fleet-duplicate-actor-system", "error" },
		[BC_FLEET_HOST_MISSING] = { "fleet-host-missing", "error" },
		[BC_FLEET_HOST_FAILED] = { "fleet-host-failed", "error" },
	};

	if ((size_t)k >= sizeof(t) / sizeof(t[0]))
		return NULL;
	if (sev)
		*sev = t[k].sev;
	return t[k].id;
}

static void free_findings(struct bc_fleet *f)
{
	for (size_t i = 0; i < f->n_findings; i++) {
		for (size_t k = 0; k < f->finding[i].n_hosts; k++)
			free(f->finding[i].hosts[k]);
		free(f->finding[i].hosts);
	}
	free(f->finding);
	f->finding = NULL;
	f->n_findings = f->cap_findings = 0;
}

void bc_fleet_free(struct bc_fleet *f)
{
	free_findings(f);
	for (size_t i = 0; i < f->n_hosts; i++) {
		for (size_t b = 0; b < f->host[i].n_bonds; b++) {
			free(f->host[i].bonds[b].slaves);
			free(f->host[i].bonds[b].findings);
		}
		free(f->host[i].bonds);
	}
	free(f->host);
	free(f->slot);
	memset(f, 0, sizeof(*f));
}

static struct bc_fleet_finding *new_finding(struct bc_fleet *f, enum bc_fleet_kind kind)
{
	struct bc_fleet_finding *x;

	if (f->n_findings == f->cap_findings) {
		size_t c = f->cap_findings ? f->cap_findings * 2 : 16;
		void *p = realloc(f->finding, c * sizeof(*f->finding));

		if (!p)
			return NULL;
		f->finding = p;
		f->cap_findings = c;
	}
	x = &f->finding[f->n_findings++];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	x->attr = -1;
	return x;
}

static int add_host(struct bc_fleet_finding *x, const char *host)
{
	void *p = realloc(x->hosts, (x->n_hosts + 1) * sizeof(*x->hosts));

	if (!p)
		return -ENOMEM;
	x->hosts = p;
	x->hosts[x->n_hosts] = strdup(host);
	if (!x->hosts[x->n_hosts])
		return -ENOMEM;
	x->n_hosts++;
	return 0;
}

/* One bond of one host, as a member of a group. */
struct ref {
	const struct bc_fleet_host *h;
	const struct bc_fleet_bond *b;
};

static int by_group(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	int c = strcmp(x->b->name, y->b->name);

	if (!c)
		c = strcmp(x->b->mode, y->b->mode);
	return c ? c : strcmp(x->h->host, y->h->host);
}

static int by_host(const void *a, const void *b)
{
	return strcmp(((const struct bc_fleet_host *)a)->host,
		      ((const struct bc_fleet_host *)b)->host);
}

/* for sorting a group's members by one attribute's value */
static int sort_attr;

static int by_value(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	int c = strcmp(x->b->value[sort_attr], y->b->value[sort_attr]);

	return c ? c : strcmp(x->h->host, y->h->host);
}

static bool slave_attr(int a)
{
	return a == BC_FLEET_SLAVE_COUNT || a == BC_FLEET_DRIVER || a == BC_FLEET_DRIVER_VERSION ||
	       a == BC_FLEET_FIRMWARE || a == BC_FLEET_SPEED || a == BC_FLEET_SLAVE_MTU;
}

/*
 * One attribute @a over members @m[0..@n) of a group (all of one kernel
 * release for driver_version): drift from a strict majority, or differs.
 * Members without a value are left out.
 */
static int compare(struct bc_fleet *f, struct ref *m, size_t n, int a)
{
	size_t first = 0, best = 0, best_n = 0, distinct = 0, known;
	struct bc_fleet_finding *x;
	int rc;

	sort_attr = a;
	qsort(m, n, sizeof(*m), by_value);
	while (first < n && !m[first].b->value[a][0])
		first++;
	known = n - first;
	for (size_t i = first; i < n;) {
		size_t k = i;

		while (k < n && !strcmp(m[k].b->value[a], m[i].b->value[a]))
			k++;
		distinct++;
		if (k - i > best_n) {
			best_n = k - i;
			best = i;
		}
		i = k;
	}
	if (distinct < 2)
		return 0;
	if (2 * best_n > known) {
		/* drift: one finding per deviating value, naming its hosts */
		for (size_t i = first; i < n;) {
			size_t k = i;

			while (k < n && !strcmp(m[k].b->value[a], m[i].b->value[a]))
				k++;
			if (i != best) {
				x = new_finding(f, BC_FLEET_DRIFT);
				if (!x)
					return -ENOMEM;
				snprintf(x->bond, sizeof(x->bond), "%s", m[i].b->name);
				snprintf(x->mode, sizeof(x->mode), "%s", m[i].b->mode);
				x->attr = a;
				if (a == BC_FLEET_DRIVER_VERSION || a == BC_FLEET_FIRMWARE)
					snprintf(x->kernel_release, sizeof(x->kernel_release), "%s",
						 m[i].h->kernel_release);
				snprintf(x->majority, sizeof(x->majority), "%s", m[best].b->value[a]);
				snprintf(x->value, sizeof(x->value), "%s", m[i].b->value[a]);
				x->majority_hosts = (unsigned)best_n;
				x->group_hosts = (unsigned)known;
				for (size_t j = i; j < k; j++)
					if ((rc = add_host(x, m[j].h->host)))
						return rc;
			}
			i = k;
		}
		return 0;
	}
	/* a tie or no majority: the group differs, no side blamed */
	x = new_finding(f, BC_FLEET_DIFFERS);
	if (!x)
		return -ENOMEM;
	snprintf(x->bond, sizeof(x->bond), "%s", m[first].b->name);
	snprintf(x->mode, sizeof(x->mode), "%s", m[first].b->mode);
	x->attr = a;
	if (a == BC_FLEET_DRIVER_VERSION || a == BC_FLEET_FIRMWARE)
		snprintf(x->kernel_release, sizeof(x->kernel_release), "%s", m[first].h->kernel_release);
	x->group_hosts = (unsigned)known;
	for (size_t i = first, used = 0; i < n;) {
		size_t k = i;
		int w;

		while (k < n && !strcmp(m[k].b->value[a], m[i].b->value[a]))
			k++;
		w = snprintf(x->detail + used, used < sizeof(x->detail) ? sizeof(x->detail) - used : 0,
			     "%s%s on %zu host%s", used ? "; " : "", m[i].b->value[a], k - i,
			     k - i == 1 ? "" : "s");
		used += w > 0 ? (size_t)w : 0;
		i = k;
	}
	for (size_t i = first; i < n; i++)
		if ((rc = add_host(x, m[i].h->host)))
			return rc;
	return 0;
}

/* driver versions and firmware: by kernel release, then by the slaves' drivers */
static int by_release(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	int c = strcmp(x->h->kernel_release, y->h->kernel_release);

	if (!c)
		c = strcmp(x->b->value[BC_FLEET_DRIVER], y->b->value[BC_FLEET_DRIVER]);
	return c ? c : strcmp(x->h->host, y->h->host);
}

static bool same_release_driver(const struct ref *x, const struct ref *y)
{
	return !strcmp(x->h->kernel_release, y->h->kernel_release) &&
	       !strcmp(x->b->value[BC_FLEET_DRIVER], y->b->value[BC_FLEET_DRIVER]);
}

/* Every attribute of one group @m[0..@n). */
static int group(struct bc_fleet *f, struct ref *m, size_t n)
{
	int rc;

	for (int a = 0; a < BC_FLEET_N_ATTRS; a++) {
		struct ref *c = m;
		size_t cn = n;

		if (slave_attr(a)) {
			/* members whose slave list is cut take no part in slave attributes */
			size_t k = 0;

			c = malloc(n * sizeof(*c));
			if (!c)
				return -ENOMEM;
			for (size_t i = 0; i < n; i++)
				if (!m[i].b->slaves_incomplete)
					c[k++] = m[i];
			cn = k;
		}
		if (a == BC_FLEET_DRIVER_VERSION || a == BC_FLEET_FIRMWARE) {
			/* a version means something only beside the same driver's (in-tree
			 * drivers report the kernel's): compared per kernel release and
			 * driver set; another driver is the driver attribute's drift */
			qsort(c, cn, sizeof(*c), by_release);
			for (size_t i = 0; i < cn;) {
				size_t k = i;

				while (k < cn && same_release_driver(&c[k], &c[i]))
					k++;
				rc = compare(f, c + i, k - i, a);
				if (rc) {
					free(c);
					return rc;
				}
				i = k;
			}
		} else {
			rc = compare(f, c, cn, a);
			if (rc) {
				if (c != m)
					free(c);
				return rc;
			}
		}
		if (c != m)
			free(c);
	}
	return 0;
}

/*
 * A bond that no other host has in this mode while others have a bond of
 * that name in another mode: what the others have.  A bond name that no
 * other host has is not a finding (a login node's extra bond); the host
 * table shows it.
 */
static int alone(struct bc_fleet *f, const struct ref *all, size_t n, const struct ref *r)
{
	struct bc_fleet_finding *x = NULL;
	size_t used = 0;

	for (size_t i = 0; i < n;) {
		size_t k = i;
		int w;

		while (k < n && !strcmp(all[k].b->name, all[i].b->name) &&
		       !strcmp(all[k].b->mode, all[i].b->mode))
			k++;
		if (!strcmp(all[i].b->name, r->b->name) && strcmp(all[i].b->mode, r->b->mode)) {
			if (!x) {
				x = new_finding(f, BC_FLEET_BOND_ALONE);
				if (!x)
					return -ENOMEM;
				snprintf(x->bond, sizeof(x->bond), "%s", r->b->name);
				snprintf(x->mode, sizeof(x->mode), "%s", r->b->mode);
				snprintf(x->value, sizeof(x->value), "%s",
					 r->b->mode[0] ? r->b->mode : "unknown mode");
			}
			w = snprintf(x->detail + used,
				     used < sizeof(x->detail) ? sizeof(x->detail) - used : 0,
				     "%s%zu host%s in %s", used ? "; " : "", k - i, k - i == 1 ? "" : "s",
				     all[i].b->mode[0] ? all[i].b->mode : "unknown mode");
			used += w > 0 ? (size_t)w : 0;
		}
		i = k;
	}
	return x ? add_host(x, r->h->host) : 0;
}

struct mac_ref {
	const char *mac, *host;
};

static int by_mac(const void *a, const void *b)
{
	const struct mac_ref *x = a, *y = b;
	int c = strcmp(x->mac, y->mac);

	return c ? c : strcmp(x->host, y->host);
}

static bool zero_mac(const char *m)
{
	for (; *m; m++)
		if (*m != '0' && *m != ':')
			return false;
	return true;
}

static int dup_actors(struct bc_fleet *f)
{
	size_t n = 0, cap = 0;
	struct mac_ref *v = NULL;
	int rc = 0;

	for (size_t i = 0; i < f->n_hosts; i++)
		for (size_t b = 0; b < f->host[i].n_bonds; b++)
			for (size_t s = 0; s < f->host[i].bonds[b].n_slaves; s++) {
				const char *mac = f->host[i].bonds[b].slaves[s].actor_system;

				if (!mac[0] || zero_mac(mac))
					continue;
				if (n == cap) {
					void *p = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*v));

					if (!p) {
						free(v);
						return -ENOMEM;
					}
					v = p;
				}
				v[n].mac = mac;
				v[n++].host = f->host[i].host;
			}
	if (n)
		qsort(v, n, sizeof(*v), by_mac);
	for (size_t i = 0; i < n && !rc;) {
		size_t k = i, hosts = 1;

		while (k + 1 < n && !strcmp(v[k + 1].mac, v[i].mac)) {
			k++;
			hosts += strcmp(v[k].host, v[k - 1].host) != 0;
		}
		if (hosts > 1) {
			struct bc_fleet_finding *x = new_finding(f, BC_FLEET_DUP_ACTOR);

			if (!x) {
				rc = -ENOMEM;
				break;
			}
			snprintf(x->value, sizeof(x->value), "%s", v[i].mac);
			for (size_t j = i; j <= k && !rc; j++)
				if (j == i || strcmp(v[j].host, v[j - 1].host))
					rc = add_host(x, v[j].host);
		}
		i = k + 1;
	}
	free(v);
	return rc;
}

/* The host named @name in f->host (sorted by name), or NULL. */
static const struct bc_fleet_host *host_named(const struct bc_fleet *f, const char *name)
{
	size_t lo = 0, hi = f->n_hosts;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(f->host[mid].host, name);

		if (!c)
			return &f->host[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int by_ptr_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int bc_fleet_analyze(struct bc_fleet *f, const struct bc_hostlist *expect)
{
	struct ref *m = NULL;
	size_t n = 0, ok_hosts = 0;
	int rc = 0;

	free_findings(f);
	f->n_missing = 0;
	if (f->n_hosts)
		qsort(f->host, f->n_hosts, sizeof(*f->host), by_host);
	/* the name index points into the old order: rebuilt by the next read */
	free(f->slot);
	f->slot = NULL;
	f->n_slots = 0;
	for (size_t i = 0; i < f->n_hosts; i++) {
		n += f->host[i].failed ? 0 : f->host[i].n_bonds;
		ok_hosts += !f->host[i].failed;
	}
	m = malloc((n ? n : 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	n = 0;
	for (size_t i = 0; i < f->n_hosts; i++)
		for (size_t b = 0; !f->host[i].failed && b < f->host[i].n_bonds; b++) {
			m[n].h = &f->host[i];
			m[n++].b = &f->host[i].bonds[b];
		}
	if (n)
		qsort(m, n, sizeof(*m), by_group);
	for (size_t i = 0; i < n && !rc;) {
		size_t k = i;
		struct ref *g;

		while (k < n && !strcmp(m[k].b->name, m[i].b->name) &&
		       !strcmp(m[k].b->mode, m[i].b->mode))
			k++;
		if (k - i == 1 && ok_hosts > 1) {
			rc = alone(f, m, n, &m[i]);
		} else if (k - i > 1) {
			/* compare() reorders: work on a copy, m stays in group order */
			g = malloc((k - i) * sizeof(*g));
			if (!g) {
				rc = -ENOMEM;
				break;
			}
			memcpy(g, m + i, (k - i) * sizeof(*g));
			rc = group(f, g, k - i);
			free(g);
		}
		i = k;
	}
	free(m);
	if (!rc)
		rc = dup_actors(f);
	for (size_t i = 0; i < f->n_hosts && !rc; i++)
		if (f->host[i].failed) {
			struct bc_fleet_finding *x = new_finding(f, BC_FLEET_HOST_FAILED);

			if (!x)
				return -ENOMEM;
			snprintf(x->detail, sizeof(x->detail), "%s", f->host[i].why);
			rc = add_host(x, f->host[i].host);
		}
	if (!rc && expect && expect->n) {
		struct bc_fleet_finding *x = NULL;

		for (size_t i = 0; i < expect->n && !rc; i++)
			if (!host_named(f, expect->name[i])) {
				if (!x && !(x = new_finding(f, BC_FLEET_HOST_MISSING)))
					return -ENOMEM;
				rc = add_host(x, expect->name[i]);
				f->n_missing++;
			}
		if (x)
			snprintf(x->detail, sizeof(x->detail), "%zu of %zu expected hosts sent nothing",
				 f->n_missing, expect->n);
	}
	for (size_t i = 0; i < f->n_findings; i++)
		if (f->finding[i].kind != BC_FLEET_HOST_MISSING) /* --expect's order kept */
			qsort(f->finding[i].hosts, f->finding[i].n_hosts, sizeof(char *), by_ptr_str);
	return rc;
}
