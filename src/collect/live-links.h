/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the change layer: the generic state of every link (libnl-route
 * link cache) and a light bond read (one RTM_GETLINK dump decoded by
 * bc_rtnl_decode_links, no ethtool, no /proc) for polling loops.
 */
#ifndef BC_COLLECT_LIVE_LINKS_H
#define BC_COLLECT_LIVE_LINKS_H

#include <stddef.h>
#include <stdint.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

struct bc_live_link {
	char name[BC_IFNAMSIZ];
	int ifindex;
	int master;	    /* IFLA_MASTER ifindex, 0 none */
	unsigned int flags; /* IFF_* (IFF_UP admin, IFF_LOWER_UP carrier) */
	uint32_t mtu;
	char mac[BC_MAC_STR]; /* colon-hex, lower case; "" when none */
	char kind[BC_TEXT];   /* IFLA_INFO_KIND ("bond", "bridge", "veth"), "" none */
};

struct bc_live_links {
	struct bc_live_link *v; /* owned, ifindex order */
	size_t n;
};

/* bc_live_links_read() - every link of the caller's netns.  0 or -errno. */
int bc_live_links_read(struct bc_live_links *out, struct bc_error *err);
void bc_live_links_free(struct bc_live_links *l);
/* by name / by ifindex; NULL when absent */
const struct bc_live_link *bc_live_link_by_name(const struct bc_live_links *l, const char *name);
const struct bc_live_link *bc_live_link_by_index(const struct bc_live_links *l, int ifindex);

/*
 * bc_bond_read_rtnl() - bond @bond only, from one link dump: options, slave
 * MII and LACP port states (slaves in ifindex order, not enslave order).
 * @snap zeroed by the caller, freed with bc_snapshot_free().  -ENODEV when
 * @bond is not a bond.
 */
int bc_bond_read_rtnl(const char *bond, struct bc_snapshot *snap, struct bc_error *err);

/* What bc_bond_wait_stable_for() waits for; names are slaves of the bond. */
struct bc_stable_req {
	const char *const *mii; /* these must be MII up */
	size_t n_mii;
	const char *const *lacp; /* in 802.3ad these must be in sync (actor and partner) */
	size_t n_lacp;
	/*
	 * > 0: instead of @mii, at least this many slaves MII up, whichever
	 * they are: a bond that had a slave down or going down before (an
	 * active-backup bond whose ARP validation keeps only the active slave
	 * up) is as before with as many slaves up, not with the same ones
	 */
	size_t min_up;
};

/*
 * bc_bond_wait_stable_for() - like bc_bond_wait_stable() but for named
 * slaves (@req NULL: every admin-up slave with carrier, as
 * bc_bond_wait_stable()).  *@waited_ms (may be NULL) gets the time spent.
 */
int bc_bond_wait_stable_for(const char *bond, const struct bc_stable_req *req, int timeout_ms,
			    int *waited_ms, struct bc_error *err);

#endif
