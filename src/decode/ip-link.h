/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal interface of the `ip` listing decoder: the text scanner
 * (ip-link-text.c) and the JSON walker (ip-link-json.c) fill one struct
 * ip_link per interface through the shared key decoders (ip-link-keys.c);
 * ip-link.c then turns the links into bonds and slaves of the snapshot.
 */
#ifndef BC_DECODE_IP_LINK_H
#define BC_DECODE_IP_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

/* Interface flags from "<BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP>". */
enum {
	IPF_UP = 0x01,
	IPF_LOWER_UP = 0x02,
	IPF_NO_CARRIER = 0x04,
	IPF_MASTER = 0x08,
	IPF_SLAVE = 0x10,
	IPF_LOOPBACK = 0x20,
	IPF_SEEN = 0x80, /* a flags list was printed */
};

/* One interface of the listing. */
struct ip_link {
	char name[BC_IFNAMSIZ];
	char link[BC_IFNAMSIZ];	  /* NAME@LINK: the lower device ("" when none) */
	char master[BC_IFNAMSIZ]; /* "master NAME" */
	int ifindex;
	unsigned int flags; /* IPF_* */
	size_t line;	    /* 1-based line of the interface line (JSON: array index) */
	struct bc_u32 mtu, operstate;
	struct bc_str mac;
	struct bc_link_stats stats;
	struct bc_bond *bond;	/* staged `bond` line, owned; NULL when none */
	struct bc_slave *slave; /* staged `bond_slave` line, owned; NULL when none */
	/* active_slave / primary printed as an ifindex (the name was unknown to ip) */
	int active_index, primary_index;
	bool has_ad_info, has_ad_select, has_tlb, has_sys_prio;
};

struct ip_ctx {
	struct bc_snapshot *snap;
	const char *origin; /* for warnings: never NULL */
	struct ip_link *links;
	size_t n_links;
	size_t lineno; /* line (text) or 1-based array element (JSON) being read */
	bool json;
	unsigned int n_warn, n_warn_dropped;
	int rc; /* first -ENOMEM */
};

/* ip_warn() - add "<origin>: line N: <msg>" to the snapshot, capped. */
void ip_warn(struct ip_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ip_new_link() - append a zeroed link named @name; NULL (c->rc set) on ENOMEM/cap. */
struct ip_link *ip_new_link(struct ip_ctx *c, const char *name);

/*
 * ip_bond_kv() - decode one `bond` option (text key as ip prints it, e.g.
 * "miimon", "ad_partner_mac", "arp_ip_target" with comma-separated value)
 * into @l's staged bond (allocated on first use).  Returns true when @key is
 * a bond option (the caller then consumes @val), false otherwise.
 */
bool ip_bond_kv(struct ip_ctx *c, struct ip_link *l, const char *key, const char *val);

/* ip_slave_kv() - the same for a `bond_slave` option ("state", "mii_status", ...). */
bool ip_slave_kv(struct ip_ctx *c, struct ip_link *l, const char *key, const char *val);

/* ip_flag_word() - apply one interface flag word ("LOWER_UP") to @l. */
void ip_flag_word(struct ip_link *l, const char *w);

/* ip_operstate() - IF_OPER_* of "UP", "DOWN", "LOWERLAYERDOWN", ...; -1 when unknown. */
int ip_operstate(const char *s);

/* ip_set_name() - copy an interface name, warning when it is longer than 15 bytes. */
void ip_set_name(struct ip_ctx *c, char *dst, const char *src);

/* ip_mac() - set @f to the lower-cased address @v. */
void ip_mac(struct bc_str *f, const char *v);

/* Scanners: fill c->links.  0, -EINVAL (with @err) or -ENOMEM. */
int ip_scan_text(struct ip_ctx *c, const char *text, size_t len);
int ip_scan_json(struct ip_ctx *c, const char *text, size_t len, struct bc_error *err);

#endif
