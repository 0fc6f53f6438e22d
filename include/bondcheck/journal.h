/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The journal: what a bond looked like before `scale`, `failover` or `sweep`
 * changed it, so that it can be put back (DESIGN.md, the `restore` row;
 * docs/restore.md).
 *
 * Fields journaled and restored ("the promise"):
 *   - bond mode and options (every IFLA_BOND_* the kernel lets rtnetlink
 *     set: miimon, updelay, downdelay, peer_notif_delay, use_carrier,
 *     arp_interval, arp_ip_target, ns_ip6_target, arp_validate,
 *     arp_all_targets, arp_missed_max, primary_reselect, fail_over_mac,
 *     xmit_hash_policy, resend_igmp, num_peer_notif, all_slaves_active,
 *     min_links, lp_interval, packets_per_slave, lacp_rate, ad_select,
 *     ad_actor_sys_prio, ad_user_port_key, ad_actor_system, tlb_dynamic_lb,
 *     lacp_active, coupled_control), primary;
 *   - slave membership and enslave order;
 *   - admin state (IFF_UP) of the bond and of each slave;
 *   - MTU and MAC address of the bond and of each slave;
 *   - each slave's queue_id (and prio where the kernel has it).
 * Not part of the promise: counters, the negotiated LACP state (partner,
 * aggregator ids, port states) and the active slave (journaled, reported,
 * set back when possible, never a failure).
 *
 * A master that is not a bond (a bridge, for tests on kernels without the
 * bonding driver) is journaled with its ports: membership (as a set: bridges
 * have no enslave order), admin state, MTU and MAC; no options.
 *
 * Live reads use the collector's rtnetlink decoder and /proc parser (enslave order)
 * and a libnl link cache (flags, MTU, MAC, master); writes use rtnetlink
 * through libnl (bondcheck/bond-change.h).  All functions work in the
 * caller's network namespace.
 */
#ifndef BONDCHECK_JOURNAL_H
#define BONDCHECK_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/error.h"

#define BC_JOURNAL_SCHEMA 1
/* Largest journal file bc_journal_load() reads, bytes. */
#define BC_JOURNAL_MAX_FILE (256 * 1024)
/* Most slaves a journal holds (the kernel has no limit; real bonds have a few). */
#define BC_JOURNAL_MAX_SLAVES 64
/* Default directory; $BC_JOURNAL_DIR overrides it. */
#define BC_JOURNAL_DIR "/var/lib/bondcheck/journal"

struct bc_journal;

/*
 * bc_journal_capture() - read the state of master device @bond (a bond, or
 * any master such as a bridge) and its slaves in the caller's netns.
 * Returns 0 and a new journal in *@out; -ENODEV when @bond does not exist
 * or is not a master device (message names what was found); -EPERM when the
 * bond's LACP actor fields are hidden (needs CAP_NET_ADMIN); -EPROTO,
 * -ENOMEM, other -errno from netlink.
 */
int bc_journal_capture(const char *bond, struct bc_journal **out, struct bc_error *err);

/*
 * bc_journal_default_path() - where the journal of @bond lives:
 * $BC_JOURNAL_DIR (else BC_JOURNAL_DIR) / "<bond>.json" in the initial
 * network namespace, "<bond>@<netns>.json" in a namespace named under
 * /run/netns, "<bond>@netns-<inode>.json" in an unnamed one, so two
 * namespaces' bond0 never share a file.  Writes the path to @buf (@len
 * bytes).  Returns 0; -ENAMETOOLONG; -EINVAL for a bond name that is not an
 * interface name (empty, longer than 15, '/' or whitespace).
 */
int bc_journal_default_path(const char *bond, char *buf, size_t len, struct bc_error *err);

/*
 * bc_journal_save() - write @j as JSON to @path atomically (tmp file in the
 * same directory, fsync, rename, fsync of the directory), creating the
 * directory (0700) when missing.  Refuses to replace an existing journal of
 * another session: -EEXIST, with the message naming the file, when it was
 * taken and who (pid, time) and saying to run `bondcheck restore` first,
 * because overwriting it would lose the state before the earlier changes.
 * Other -errno from the file system (-ENOSPC, -EACCES, -EROFS).
 */
int bc_journal_save(const struct bc_journal *j, const char *path, struct bc_error *err);

/*
 * bc_journal_remove() - delete the journal file at @path after a complete
 * restore.  Returns 0 (also when it is already gone) or -errno.
 */
int bc_journal_remove(const char *path, struct bc_error *err);

/*
 * bc_journal_load() - read and validate a journal file.  Strict: unknown
 * schema version, missing or wrongly typed members, out-of-range numbers,
 * malformed MACs or addresses, names that are not interface names, duplicate
 * slaves, more than BC_JOURNAL_MAX_SLAVES slaves, a file larger than
 * BC_JOURNAL_MAX_FILE or not JSON all give -EINVAL (-EFBIG for size) with
 * the file, the member and what was expected in @err.  -ENOENT when absent.
 */
int bc_journal_load(const char *path, struct bc_journal **out, struct bc_error *err);

/*
 * bc_journal_from_json() / bc_journal_to_json() - the same validation and
 * representation without a file (the agent sends the state to its client).
 * to_json returns a new object: {"schema", "bond", "kind", "taken_at",
 * "host", "pid", "boot_id", "netns_inode", "kernel", "bond_state": {...},
 * "options": {...}, "slaves": [{...}, ...], "active_slave", ...}
 * (docs/restore.md shows a file).  @origin names the source in errors.
 */
int bc_journal_from_json(struct json_object *o, const char *origin, struct bc_journal **out,
			 struct bc_error *err);
struct json_object *bc_journal_to_json(const struct bc_journal *j);

/* Accessors: the bond (master) name, its kind ("bond", "bridge"), its slaves in enslave order. */
const char *bc_journal_bond(const struct bc_journal *j);
const char *bc_journal_kind(const struct bc_journal *j);
size_t bc_journal_n_slaves(const struct bc_journal *j);
const char *bc_journal_slave(const struct bc_journal *j, size_t i);
/* true when @name is the bond or one of its journaled slaves. */
bool bc_journal_has_slave(const struct bc_journal *j, const char *name);

/*
 * bc_journal_compare() - compare the live state with @j without changing
 * anything.  *@diff (new, caller puts) is {"bond", "match": bool,
 * "fields": [{"field", "journal", "live", "ok"}...]} with every promised
 * field; "informational" entries (active slave) carry "promise": false.
 * Returns 0 when every promised field matches, 1 when some differ (listed),
 * -errno when the live state cannot be read (-ENODEV: the bond is gone).
 */
int bc_journal_compare(const struct bc_journal *j, struct json_object **diff, struct bc_error *err);

/*
 * bc_journal_compare_states() - the pure part of compare: @a (the journal)
 * against @b (another capture, e.g. live).  Same *@diff and return as above
 * (no -errno other than -ENOMEM).  Unit-tested on loaded journals.
 */
int bc_journal_compare_states(const struct bc_journal *a, const struct bc_journal *b,
			      struct json_object **diff);

/*
 * bc_journal_restore() - put the bond back as @j recorded it, changing only
 * what differs (so it is idempotent), then wait until it is stable
 * (bc_bond_wait_stable semantics restricted to the journal: every slave
 * that was admin up and MII up in the journal is MII up again; in 802.3ad
 * every slave that was in sync in the journal is in sync, collecting and
 * distributing again, actor and partner) for up to @timeout_ms.
 *
 * Order (kernel constraints, drivers/net/bonding/bond_options.c): options
 * flagged BOND_OPTFLAG_NOSLAVES (mode, fail_over_mac) are changed with every
 * slave released and re-enslaved afterwards in journal order;
 * BOND_OPTFLAG_IFDOWN ones (lacp_rate, ad_select, ad_actor_*, tlb_dynamic_lb,
 * lacp_active) with the bond down; arp_interval/miimon zeroes before
 * non-zeroes, miimon before updelay/downdelay; membership and order (release
 * from the first slave out of place, re-enslave in order); MTU (bond then
 * slaves); bond MAC then slave MACs; primary; queue ids; admin state last.
 * A step the kernel refuses is reported "not restored" with its errno and
 * the remaining steps still run; nothing is left half-changed silently.
 *
 * *@report (may be NULL; new, caller puts): {"bond", "journal_taken_at",
 * "ok": bool, "lacp_settled": bool, "waited_ms", "fields": [{"field",
 * "journal", "before", "after", "action" ("none", "set", "re-enslaved",
 * "not restored: <reason>"), "ok"}...], "errors": [text...]}.
 *
 * Return: 0 when every promised field matches after waiting; -EAGAIN when
 * the fields match but the bond did not become stable (LACP not in sync,
 * a slave MII down) within @timeout_ms; -EIO when some field could not be
 * restored (named in the report and @err); -ENODEV when the bond is gone;
 * -EXDEV when @j was taken in another network namespace of this boot; other
 * -errno.
 */
int bc_journal_restore(const struct bc_journal *j, int timeout_ms, struct json_object **report,
		       struct bc_error *err);

/* bc_journal_free() - NULL allowed. */
void bc_journal_free(struct bc_journal *j);

#endif
