/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the journal: the struct behind struct bc_journal, the table of bond
 * options (JSON name, IFLA_BOND_* attribute and width, the kernel's
 * BOND_OPTFLAG_* constraints from drivers/net/bonding/bond_options.c), and
 * the flat field list that compare and restore report on.
 */
#ifndef BC_WORKFLOW_JOURNAL_INT_H
#define BC_WORKFLOW_JOURNAL_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bondcheck/journal.h"
#include "bondcheck/model.h"
#include "collect/link-change.h"

/* kernel BOND_OPTFLAG_*: what the bond must be like for the option to change */
#define JOPT_IFDOWN   0x1 /* bond admin down */
#define JOPT_NOSLAVES 0x2 /* no slaves */

struct jopt_desc {
	const char *name;	       /* JSON and sysfs name */
	int attr;		       /* IFLA_BOND_* */
	enum bc_nla_kind kind;	       /* U8, U16 or U32 */
	size_t off;		       /* struct bc_u32 in struct bc_bond */
	const char *(*name_of)(int v); /* value names, NULL: a number */
	unsigned flags;		       /* JOPT_* */
	int phase;		       /* restore order within the options: lower first */
};

extern const struct jopt_desc bc_jopts[];
extern const size_t bc_n_jopts;

struct bc_jopt {
	bool known;
	uint32_t v;
};

struct bc_jslave {
	char name[BC_IFNAMSIZ];
	bool admin_up;
	uint32_t mtu;
	char mac[BC_MAC_STR];
	char perm_hwaddr[BC_MAC_STR]; /* "" unknown */
	bool queue_id_known;
	uint32_t queue_id;
	bool prio_known;
	int32_t prio;
	int mii_status; /* BC_LINK_*, -1 unknown */
	bool lacp_in_sync;
};

struct bc_journal {
	/* where and when */
	char bond[BC_IFNAMSIZ];
	char kind[BC_TEXT]; /* "bond", "bridge", ... */
	int ifindex;
	char taken_at[40];
	char host[128];
	long long pid;
	char boot_id[40];
	unsigned long long netns_inode;
	char netns[64];
	char kernel[BC_TEXT];
	char version[32];

	/* the master device */
	bool admin_up;
	uint32_t mtu;
	char mac[BC_MAC_STR];

	/* bond only */
	bool is_bond;
	struct bc_jopt opt[40];
	bool primary_known;
	char primary[BC_IFNAMSIZ]; /* "" none */
	bool arp_targets_known;
	char arp_targets[BC_MAX_TARGETS][16];
	size_t n_arp_targets;
	bool ns_targets_known;
	char ns_targets[BC_MAX_TARGETS][48];
	size_t n_ns_targets;
	bool ad_actor_system_known;
	char ad_actor_system[BC_MAC_STR];
	bool active_known;
	char active_slave[BC_IFNAMSIZ]; /* "" none */

	struct bc_jslave *slaves; /* enslave order (bonds), ifindex order (others) */
	size_t n_slaves;
};

/* index of option @name in bc_jopts, -1 when unknown */
int bc_jopt_index(const char *name);
/* value text of option @i ("802.3ad", "100") into @buf */
const char *bc_jopt_text(size_t i, uint32_t v, char *buf, size_t len);

/* One reported field. */
struct jfield {
	char name[64];	 /* "bond0.miimon", "bond0/eth1.mtu" */
	char value[256]; /* canonical text; "absent" when the object is gone */
	bool promise;	 /* part of the restore promise (false: informational) */
};

/*
 * bc_journal_fields() - the flat field list of @j, in restore order.
 * Returns 0 and a malloc'd array; -ENOMEM.
 */
int bc_journal_fields(const struct bc_journal *j, struct jfield **out, size_t *n);
/* Field @name of list @f, or NULL. */
const struct jfield *bc_jfield_find(const struct jfield *f, size_t n, const char *name);

/* bc_journal_capture_live(): capture without the host metadata checks (restore's reads). */
int bc_journal_capture_live(const char *bond, struct bc_journal **out, struct bc_error *err);

/* The slave @name of @j, or NULL. */
const struct bc_jslave *bc_journal_find_slave(const struct bc_journal *j, const char *name);

/* This process's netns inode (stat of /proc/self/ns/net) and boot id; 0 / "" unknown. */
unsigned long long bc_journal_netns_inode(void);
void bc_journal_boot_id(char *buf, size_t len);

#endif
