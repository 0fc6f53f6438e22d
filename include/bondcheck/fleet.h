/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fleet report (issue 16 item 1): many hosts' `inspect -j` documents
 * read into typed structs (bc_fleet_read_doc(), the one reader of that
 * document kind in the fleet code), then compared (bc_fleet_analyze(),
 * pure: structs in, findings out).
 *
 * Comparable bonds: a group is every host's bond of one name and one mode
 * (bond0 in 802.3ad).  Per attribute of the group, the values the hosts
 * report (null/unknown values take no part) are counted:
 *   - a value held by a strict majority of the hosts that report one makes
 *     every other value drift (finding fleet-drift, naming those hosts and
 *     the majority value);
 *   - otherwise, with two or more values (a tie, or a group of two), the
 *     group differs (fleet-differs), and no side is blamed.
 * Slave attributes (driver, firmware, speed, MTU) compare the distinct
 * values of the bond's slaves, sorted ("e1000e", "8139cp, e1000e"); the
 * slave count is an attribute of its own.  Driver versions and firmware
 * are compared only between hosts of one kernel release and one set of
 * slave drivers: in-tree drivers report the kernel's version, and a version
 * means something only beside the same driver's (a host with another driver
 * is the driver attribute's drift, not also a version drift).
 * Further findings: a bond that no other host has in that mode
 * (fleet-bond-alone), one LACP actor system MAC on ports of two hosts
 * (fleet-duplicate-actor-system; the ports' actor system of the LACPDU
 * details, not the bond's ad_actor_system override), a host of --expect that
 * sent nothing (fleet-host-missing), a host whose inspect failed
 * (fleet-host-failed).
 */
#ifndef BONDCHECK_FLEET_H
#define BONDCHECK_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/doc-read.h"
#include "bondcheck/hostlist.h"

/* The attributes compared across a group; names in bc_fleet_attr_name(). */
enum bc_fleet_attr {
	BC_FLEET_SLAVE_COUNT = 0,
	BC_FLEET_DRIVER,
	BC_FLEET_DRIVER_VERSION, /* within one kernel release */
	BC_FLEET_FIRMWARE,
	BC_FLEET_SPEED,
	BC_FLEET_SLAVE_MTU,
	BC_FLEET_MTU,
	BC_FLEET_MIIMON,
	BC_FLEET_ARP_INTERVAL,
	BC_FLEET_LACP_RATE,
	BC_FLEET_XMIT_HASH_POLICY,
	BC_FLEET_AD_SELECT,
	BC_FLEET_N_ATTRS,
};

/* Slaves per bond whose attributes are compared (more: not compared). */
#define BC_FLEET_MAX_SLAVES 64
/* Longest attribute value kept ("8139cp, e1000e x2, ..."), bytes with NUL. */
#define BC_FLEET_VALUE_LEN 96

struct bc_fleet_slave {
	char name[16];
	char actor_system[18]; /* LACPDU details' actor system MAC, "" unknown */
};

/* One finding of a host's own inspect (its id and severity), for the --plot heatmap. */
struct bc_fleet_inspect_finding {
	char id[64];
	uint8_t severity; /* 0 info, 1 warning, 2 error (enum bc_severity) */
};

struct bc_fleet_bond {
	char name[16];
	char mode[16];		/* "" unknown */
	size_t n_slaves;
	bool slaves_incomplete; /* a cut source: slave attributes are not compared */
	struct bc_fleet_slave *slaves;
	/* each attribute's value as compared, "" unknown */
	char value[BC_FLEET_N_ATTRS][BC_FLEET_VALUE_LEN];
	unsigned n_error, n_warning, n_info; /* inspect's findings on this bond */
	struct bc_fleet_inspect_finding *findings; /* their ids, in document order */
	size_t n_findings;
};

struct bc_fleet_host {
	char host[BC_HOST_LEN];
	char origin[160];	  /* the file or stream it came from */
	char kernel_release[64]; /* "" unknown */
	bool failed;		  /* an {"error": ...} document or one that could not be read */
	char why[256];		  /* why it failed: the error's kind and message, or the problems */
	size_t n_bonds;
	struct bc_fleet_bond *bonds;
};

enum bc_fleet_kind {
	BC_FLEET_DRIFT = 0,   /* fleet-drift, warning */
	BC_FLEET_DIFFERS,     /* fleet-differs, info */
	BC_FLEET_BOND_ALONE,  /* fleet-bond-alone, warning */
	BC_FLEET_DUP_ACTOR,   /* fleet-duplicate-actor-system, error */
	BC_FLEET_HOST_MISSING, /* fleet-host-missing, error */
	BC_FLEET_HOST_FAILED, /* fleet-host-failed, error */
};

struct bc_fleet_finding {
	enum bc_fleet_kind kind;
	char bond[16];	      /* the group's bond name, "" for host findings */
	char mode[16];	      /* the group's mode */
	int attr;	      /* enum bc_fleet_attr, -1 none */
	char kernel_release[64]; /* driver-version groups: their release */
	char majority[BC_FLEET_VALUE_LEN]; /* drift: the majority value */
	unsigned majority_hosts, group_hosts; /* hosts with it, hosts that report one */
	char value[BC_FLEET_VALUE_LEN];	 /* the value found (drift: the deviating one) */
	size_t n_hosts;
	char **hosts; /* the hosts concerned, sorted */
	char detail[256]; /* differs: every value with its host count; dup: the MAC */
};

struct bc_fleet {
	size_t n_hosts, cap_hosts;
	struct bc_fleet_host *host;
	/* open-addressing index of host names while reading: slot = host index + 1 */
	size_t *slot, n_slots;
	size_t n_findings, cap_findings;
	struct bc_fleet_finding *finding;
	size_t n_missing; /* hosts of --expect not read */
};

/* bc_fleet_attr_name() - "driver", "lacp_rate", ...; NULL out of range. */
const char *bc_fleet_attr_name(int attr);
/* bc_fleet_kind_id() - the finding id, "fleet-drift", ...; its severity word in *@sev. */
const char *bc_fleet_kind_id(enum bc_fleet_kind k, const char **sev);

/*
 * bc_fleet_read_doc() - one `inspect -j` document @doc (schema 1 or 2, or
 * an `{"error": {"exit", "kind", "message"}}` object) into a new host of
 * @f.  @host_hint names the host when the document has no `host` member
 * (pdsh's prefix, the file name); @origin says where it came from.  A
 * document that is not an object, or lacks `bonds`, is a failed host whose
 * `why` names the members (doc-read.h paths).  Returns 0, -ENOMEM, or
 * -EEXIST when the host was already read (the caller says so; the first one
 * is kept).
 */
int bc_fleet_read_doc(struct bc_fleet *f, struct json_object *doc, const char *host_hint,
		      const char *origin);

/*
 * bc_fleet_add_failed() - a host whose document could not be parsed at all
 * (not JSON, cut): @why says what was found.  Returns 0, -ENOMEM or -EEXIST.
 */
int bc_fleet_add_failed(struct bc_fleet *f, const char *host, const char *origin,
			const char *why);

/*
 * bc_fleet_analyze() - the fleet findings of @f (replacing earlier ones),
 * with @expect (may be NULL) the hosts that should have answered.  Hosts are
 * sorted by name first.  Returns 0 or -ENOMEM.
 */
int bc_fleet_analyze(struct bc_fleet *f, const struct bc_hostlist *expect);

/* bc_fleet_free() - releases everything @f holds; @f is empty afterwards. */
void bc_fleet_free(struct bc_fleet *f);

#endif
