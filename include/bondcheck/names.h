/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Enum <-> string tables for kernel bonding terms.  Numbers follow the
 * kernel's uapi (include/uapi/linux/if_bonding.h) and the bond option tables
 * in drivers/net/bonding/bond_options.c; /proc texts follow bond_procfs.c.
 */
#ifndef BONDCHECK_NAMES_H
#define BONDCHECK_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* Mode by number -> sysfs/iproute2 name ("balance-rr"); NULL when out of range. */
const char *bc_mode_name(int mode);
/* Name ("802.3ad") or number text ("4") -> mode; -1 when unknown. */
int bc_mode_from_name(const char *name);
/* /proc "Bonding Mode:" text ("IEEE 802.3ad Dynamic link aggregation") -> mode; -1 when unknown. */
int bc_mode_from_proc_text(const char *text);

/* BOND_XMIT_POLICY_* number -> name ("layer3+4"); NULL when out of range. */
const char *bc_xmit_hash_policy_name(int policy);
/* Name -> number, accepting the pre-merge alias "vlansrc"; -1 when unknown. */
int bc_xmit_hash_policy_from_name(const char *name);

/* BOND_LINK_* -> /proc text ("up", "going down", "down", "going back"). */
const char *bc_link_status_name(int st);
/* /proc or sysfs text -> BOND_LINK_*; -1 when unknown. */
int bc_link_status_from_name(const char *name);

/* AD_CHURN_* -> /proc text ("monitoring", "churned", "none"), "unknown" otherwise. */
const char *bc_churn_name(int st);
int bc_churn_from_name(const char *name);

/* 0/1/2 tables: fail_over_mac, primary_reselect, arp_validate, lacp_rate, ad_select. */
const char *bc_fail_over_mac_name(int v);
int bc_fail_over_mac_from_name(const char *name);
const char *bc_primary_reselect_name(int v);
int bc_primary_reselect_from_name(const char *name);
const char *bc_arp_validate_name(int v);
const char *bc_lacp_rate_name(int v);
int bc_lacp_rate_from_name(const char *name);
const char *bc_ad_select_name(int v);
int bc_ad_select_from_name(const char *name);

/*
 * bc_lacp_state_words() - decode LACP_STATE_* bits into space-separated words
 * ("activity timeout aggregation synchronization collecting distributing
 * defaulted expired", in bit order).  Writes at most @len bytes to @buf, returns @buf.
 */
char *bc_lacp_state_words(unsigned int state, char *buf, size_t len);

/* Severity -> "info" / "warning" / "error". */
const char *bc_severity_name(int sev);

/* Field status -> "known", "unknown", "n/a", "hidden", "not_reported". */
const char *bc_field_status_name(int st);

/*
 * bc_ifname_valid() - whether @s can be a Linux interface name: 1..15 bytes,
 * no whitespace, '/' or ':', not "." or ".." (net/core/dev.c dev_valid_name()).
 */
bool bc_ifname_valid(const char *s);

/*
 * bc_ifname_from_file() - the interface name a saved file's name gives: its
 * last path component with a text extension (.txt .log .out .proc .text, any
 * case) dropped, when the rest is an interface name ("bond0", "bond0.txt"
 * and "bond0.100" give bond0, bond0 and bond0.100).  @out holds 16 bytes
 * (IFNAMSIZ); it is "" and false returned otherwise.
 */
bool bc_ifname_from_file(const char *path, char out[16]);

#endif
