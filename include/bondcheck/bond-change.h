/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Changes to links and bonds over rtnetlink (libnl-route): the primitives
 * that `scale --method links`, `failover` and `sweep` use, and that
 * bc_journal_restore() is built from.  Each acts on one interface in the
 * caller's network namespace and waits for the kernel's ack, so the change
 * is in force when it returns.  They need CAP_NET_ADMIN.
 *
 * Journal first (bondcheck/journal.h): a caller that changes a bond must
 * hold a saved journal of it and restore it on every exit path.
 *
 * Errors: -ENODEV no such interface; -EPERM/-EACCES not permitted (or, for
 * bond options, not allowed in the current mode: the kernel answers EACCES);
 * -EBUSY the kernel refused because of the current state (an option that
 * needs the bond down or without slaves); -EINVAL a value the kernel
 * rejects; -ETIMEDOUT for the waits; @err names the interface, the value
 * and what to do.
 */
#ifndef BONDCHECK_BOND_CHANGE_H
#define BONDCHECK_BOND_CHANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "bondcheck/error.h"

/* bc_link_set_up() - admin state: IFF_UP set (@up) or cleared. */
int bc_link_set_up(const char *ifname, bool up, struct bc_error *err);

/*
 * bc_link_set_mtu() - MTU in bytes (L3, as `ip link` shows it).  On a bond
 * the kernel sets every slave to the same MTU (bond_change_mtu).
 */
int bc_link_set_mtu(const char *ifname, uint32_t mtu, struct bc_error *err);

/* bc_link_set_mac() - hardware address, colon-hex text ("02:00:00:00:00:01"). */
int bc_link_set_mac(const char *ifname, const char *mac, struct bc_error *err);

/*
 * bc_link_set_master() - enslave @ifname to @master (IFLA_MASTER), or
 * release it from its master when @master is NULL.  For a bond the kernel
 * (bond_enslave) opens the slave and sets its MTU and, with fail_over_mac
 * none, its MAC to the bond's.
 */
int bc_link_set_master(const char *ifname, const char *master, struct bc_error *err);

/*
 * bc_bond_wait_stable() - wait until @bond is stable, polling its state
 * every 100 ms for up to @timeout_ms:
 *   - every slave that is admin up and has carrier is MII up
 *     (IFLA_BOND_SLAVE_MII_STATUS BOND_LINK_UP; "going down/back" is not);
 *   - in 802.3ad, every such slave's actor and partner oper port states
 *     carry synchronization, collecting and distributing (IEEE 802.1AX
 *     6.4.2.3, kernel LACP_STATE_*), i.e. LACP is back in sync;
 *   - in active-backup, an active slave exists when any slave is up.
 * A master that is not a bond is stable when every admin-up port has
 * carrier.  Returns 0; -ETIMEDOUT with the first unstable slave and why in
 * @err; -ENODEV when @bond is gone.
 */
int bc_bond_wait_stable(const char *bond, int timeout_ms, struct bc_error *err);

#endif
