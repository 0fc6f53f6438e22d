/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal interface between the /proc/net/bonding line scanner
 * (proc-bonding.c) and its key tables (proc-bonding-keys.c).
 */
#ifndef BC_DECODE_PROC_BONDING_H
#define BC_DECODE_PROC_BONDING_H

#include <stdbool.h>
#include <stddef.h>

#include "bondcheck/model.h"

/* Which block of the file the scanner is in. */
enum proc_section {
	PROC_SEC_MASTER = 0, /* header up to the first "Slave Interface:" */
	PROC_SEC_SLAVE,	     /* a "Slave Interface:" block */
	PROC_SEC_ACTOR,	     /* "details actor lacp pdu:" sub-block */
	PROC_SEC_PARTNER,    /* "details partner lacp pdu:" sub-block */
	PROC_SEC_ORPHAN,     /* after a cut marker: lines of a block that is not shown */
};

/* Bond-level lines seen (struct proc_ctx.seen). */
enum {
	PROC_SEEN_MODE = 0x001,	     /* "Bonding Mode:" */
	PROC_SEEN_DOWNDELAY = 0x002, /* "Down Delay (ms):", printed by every version */
	PROC_SEEN_ARP = 0x004,	     /* "ARP Polling Interval (ms):" */
	PROC_SEEN_AD = 0x008,	     /* "802.3ad info" */
	PROC_SEEN_SYSPRIO = 0x010,   /* "System priority:" / "System MAC address:" */
	PROC_SEEN_AGG = 0x020,	     /* "Active Aggregator Info:" or one of its lines */
	PROC_SEEN_NO_AGG = 0x040,    /* "bond X has no active aggregator" */
	PROC_SEEN_ADSELECT = 0x080,  /* "Aggregator selection policy", last unprivileged line */
};

/*
 * Slave-level lines seen (struct proc_ctx.slave_seen).  A slave block that
 * lacks a line every earlier block of the same file printed was cut (the
 * format never drops a line for one slave only, bond_info_show_slave()).
 */
enum {
	PROC_SLAVE_SEEN_MII = 0x001,
	PROC_SLAVE_SEEN_SPEED = 0x002,
	PROC_SLAVE_SEEN_DUPLEX = 0x004,
	PROC_SLAVE_SEEN_LFC = 0x008,
	PROC_SLAVE_SEEN_PERM = 0x010,
	PROC_SLAVE_SEEN_QUEUE = 0x020,
	PROC_SLAVE_SEEN_AGG = 0x040,
	PROC_SLAVE_SEEN_CHURN = 0x080,
	PROC_SLAVE_SEEN_ACTOR = 0x100,	 /* "details actor lacp pdu:" */
	PROC_SLAVE_SEEN_PARTNER = 0x200, /* "details partner lacp pdu:" */
};

/*
 * Lines every bonding version prints in every slave block: bonding 2.6.1
 * (2004) printed only these two (no Permanent HW addr yet).
 */
#define PROC_SLAVE_ALWAYS (PROC_SLAVE_SEEN_MII | PROC_SLAVE_SEEN_LFC)

struct proc_ctx {
	struct bc_snapshot *snap;
	struct bc_bond *bond;
	struct bc_slave *slave; /* current slave block, NULL before the first */
	enum proc_section sec;
	size_t lineno;	   /* 1-based line being parsed */
	unsigned int seen; /* PROC_SEEN_* */
	unsigned int slave_seen;
	size_t slave_line;   /* line of the current "Slave Interface:" */
	unsigned int common_seen; /* AND of slave_seen over the closed blocks before the last */
	unsigned int last_seen;	  /* slave_seen of the last closed block */
	size_t n_closed;	  /* slave blocks closed */
	size_t cut_line;	  /* first cut marker ("--- snip ---", "...") or 0 */
	bool cut_before_slaves;	  /* the marker came before any slave block */
	unsigned int n_annotations; /* "# ..." annotations removed from values */
	size_t next_header;	  /* byte offset of a second header (next bond), or 0 */
	char name_hint[BC_IFNAMSIZ]; /* bond named by a prompt line ("cat /proc/net/bonding/X") */
	unsigned int n_warn; /* warnings added by this parse */
	unsigned int n_warn_dropped;
	bool unknown_full; /* BC_PROC_MAX_UNKNOWN reached (warned once) */
	int rc;		   /* first -ENOMEM seen by a handler */
};

/* proc_warn() - add "<bond>: line N: <msg>" to the snapshot, capped. */
void proc_warn(struct proc_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* proc_warn_at() - like proc_warn() for a line other than the current one. */
void proc_warn_at(struct proc_ctx *c, size_t lineno, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * proc_keep_unknown() - keep an unrecognised @key/@value on the bond (keys of
 * a slave block are prefixed "<slave>/"), with a warning; never fatal.
 */
void proc_keep_unknown(struct proc_ctx *c, const char *key, const char *value);

/*
 * proc_key_line() - dispatch one trimmed, non-empty "Key: value" line of the
 * current section to its handler; unknown keys are kept.  Handles the
 * section changes caused by "Slave Interface:" and "details ... lacp pdu:"
 * lines only in the scanner, not here.
 */
void proc_key_line(struct proc_ctx *c, const char *line);

#endif
