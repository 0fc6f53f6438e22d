/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bond model: one struct bc_snapshot flows from the decoders (netlink,
 * ethtool, /proc, sysfs) through the findings engine to the renderers.
 * Renderers read the model, never the kernel.
 *
 * Every scalar that a source may or may not report is a bc_u32/bc_u64 with a
 * status, so "not reported by this kernel" (older /proc has no Speed line),
 * "Unknown" (the kernel printed Unknown / SPEED_UNKNOWN), "N/A" (a slave's
 * "Aggregator ID: N/A": it never joined one) and "hidden" (the reader lacks
 * CAP_NET_ADMIN) stay distinct facts.
 *
 * Units: times in ms (as the kernel reports them), speeds in Mbit/s (as
 * ethtool and /proc report them), counters in packets or bytes.
 */
#ifndef BONDCHECK_MODEL_H
#define BONDCHECK_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BC_IFNAMSIZ 16
#define BC_MAC_STR 64          /* colon-hex text, up to 20-byte IPoIB addresses */
#define BC_MAX_TARGETS 16      /* kernel BOND_MAX_ARP_TARGETS / BOND_MAX_NS_TARGETS */
#define BC_TEXT 64

enum bc_field_status {
	BC_NOT_REPORTED = 0, /* the source does not carry this field at all */
	BC_KNOWN,            /* value valid */
	BC_UNKNOWN,          /* the source said "Unknown" / SPEED_UNKNOWN */
	BC_NA,               /* the source said "N/A" (e.g. slave has no aggregator) */
	BC_HIDDEN,           /* withheld from an unprivileged reader */
};

struct bc_u32 {
	uint32_t v;
	uint8_t st; /* enum bc_field_status */
};

struct bc_u64 {
	uint64_t v;
	uint8_t st;
};

/* Text field with the same status semantics (MAC addresses, names). */
struct bc_str {
	char v[BC_MAC_STR];
	uint8_t st;
};

/* Kernel BOND_MODE_* numbering (uapi if_bonding.h). */
enum bc_bond_mode {
	BC_MODE_UNKNOWN = -1,
	BC_MODE_ROUNDROBIN = 0,
	BC_MODE_ACTIVEBACKUP = 1,
	BC_MODE_XOR = 2,
	BC_MODE_BROADCAST = 3,
	BC_MODE_8023AD = 4,
	BC_MODE_TLB = 5,
	BC_MODE_ALB = 6,
};

/* Kernel BOND_LINK_* numbering. */
enum bc_link_status {
	BC_LINK_UP = 0,
	BC_LINK_FAIL = 1, /* "going down" */
	BC_LINK_DOWN = 2,
	BC_LINK_BACK = 3, /* "going back" */
};

/* LACP_STATE_* bits (IEEE 802.1AX, kernel include/uapi/linux/if_bonding.h). */
enum {
	BC_LACP_ACTIVITY = 0x01,
	BC_LACP_TIMEOUT = 0x02, /* short timeout (fast rate) */
	BC_LACP_AGGREGATION = 0x04,
	BC_LACP_SYNCHRONIZATION = 0x08,
	BC_LACP_COLLECTING = 0x10,
	BC_LACP_DISTRIBUTING = 0x20,
	BC_LACP_DEFAULTED = 0x40,
	BC_LACP_EXPIRED = 0x80,
};

/* Kernel AD_CHURN_* numbering; BC_CHURN_OTHER for "unknown" in /proc. */
enum bc_churn {
	BC_CHURN_MONITOR = 0,
	BC_CHURN_CHURN = 1,
	BC_CHURN_NONE = 2,
	BC_CHURN_OTHER = 3,
};

/* One side's LACPDU view as /proc prints it in "details ... lacp pdu". */
struct bc_lacp_port {
	struct bc_u32 system_priority;
	struct bc_str system_mac;
	struct bc_u32 key;           /* actor "port key" / partner "oper key" */
	struct bc_u32 port_priority;
	struct bc_u32 port_number;
	struct bc_u32 port_state;    /* LACP_STATE_* bits */
};

/* rtnl_link_stats64 subset that loss accounting needs (uapi if_link.h). */
struct bc_link_stats {
	bool present;
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	uint64_t rx_errors, tx_errors, rx_dropped, tx_dropped;
	uint64_t rx_over_errors, rx_crc_errors, rx_fifo_errors, rx_missed_errors;
	uint64_t tx_fifo_errors, tx_carrier_errors, rx_nohandler;
};

/* A named counter (ethtool -S driver stats, ethtool netlink STATS groups). */
struct bc_counter {
	char name[BC_TEXT];
	uint64_t value;
};

/* Offload features as netlink FEATURES "active" bits; st NOT_REPORTED when unread. */
struct bc_offloads {
	struct bc_u32 tso;      /* tx-tcp-segmentation */
	struct bc_u32 tso6;     /* tx-tcp6-segmentation */
	struct bc_u32 gso;      /* tx-generic-segmentation */
	struct bc_u32 gro;      /* rx-gro */
	struct bc_u32 lro;      /* rx-lro */
	struct bc_u32 rx_csum;  /* rx-checksum */
	struct bc_u32 tx_csum;  /* any tx-checksum-* */
	struct bc_u32 sg;       /* tx-scatter-gather */
};

struct bc_slave {
	char name[BC_IFNAMSIZ];
	int ifindex;                      /* 0 when unknown (offline sources) */

	/* bonding's own view (IFLA_BOND_SLAVE_*, /proc slave block, sysfs bonding_slave/) */
	struct bc_u32 state;              /* 0 active, 1 backup */
	struct bc_u32 mii_status;         /* enum bc_link_status */
	struct bc_u32 speed_mbps;         /* /proc Speed or ethtool LINKMODES */
	struct bc_u32 duplex;             /* 0 half, 1 full */
	struct bc_u32 link_failure_count;
	struct bc_str perm_hwaddr;
	struct bc_u32 queue_id;
	struct bc_u32 prio;               /* IFLA_BOND_SLAVE_PRIO (6.0+) */
	struct bc_u32 aggregator_id;      /* BC_NA: the port never joined one */
	struct bc_u32 actor_oper_port_state;
	struct bc_u32 partner_oper_port_state;
	struct bc_u32 actor_churn_state;  /* enum bc_churn */
	struct bc_u32 partner_churn_state;
	struct bc_u32 actor_churned_count;
	struct bc_u32 partner_churned_count;
	struct bc_lacp_port actor;        /* /proc "details actor lacp pdu" */
	struct bc_lacp_port partner;      /* /proc "details partner lacp pdu" */

	/* the device itself (rtnetlink, ethtool, ioctl) */
	char kind[BC_TEXT];               /* IFLA_INFO_KIND: "veth", "" for hardware */
	struct bc_u32 mtu;
	struct bc_u32 operstate;          /* IF_OPER_* */
	struct bc_u32 carrier;            /* 1 carrier (LOWER_UP), 0 NO-CARRIER */
	struct bc_str mac;
	struct bc_link_stats stats;
	char driver[32], driver_version[32], fw_version[32], bus_info[32];
	bool drvinfo_present;
	struct bc_u32 autoneg;
	struct bc_u32 port;               /* ethtool LINKINFO PORT_* (0 TP, 3 FIBRE, 0xef other) */
	struct bc_offloads offloads;
	struct bc_u32 rx_ring, rx_ring_max, tx_ring, tx_ring_max;
	struct bc_u32 rx_channels, tx_channels, combined_channels;
	struct bc_u32 pause_rx, pause_tx, pause_autoneg;
	struct bc_u32 rx_usecs, tx_usecs;
	struct bc_counter *driver_stats;  /* ETHTOOL_GSTATS, owned */
	size_t n_driver_stats;
	struct bc_counter *std_stats;     /* ethtool netlink STATS "group.name", owned */
	size_t n_std_stats;
};

/* A key that a parser did not know, kept for the report (never fatal). */
struct bc_kv {
	char key[BC_TEXT];
	char value[128];
};

struct bc_bond {
	char name[BC_IFNAMSIZ];
	int ifindex;

	struct bc_u32 mode;               /* enum bc_bond_mode */
	struct bc_u32 xmit_hash_policy;   /* kernel BOND_XMIT_POLICY_* number */
	char xmit_hash_policy_name[BC_TEXT]; /* as printed; kept when unknown ("vlansrc") */
	struct bc_u32 fail_over_mac;      /* 0 none, 1 active, 2 follow */
	struct bc_u32 primary_reselect;   /* 0 always, 1 better, 2 failure */
	struct bc_str primary;            /* slave name; BC_NA for "None" */
	struct bc_str active_slave;       /* slave name; BC_NA for "None" */
	struct bc_u32 mii_status;         /* bond carrier: BC_LINK_UP / BC_LINK_DOWN */
	struct bc_u32 miimon_ms;
	struct bc_u32 updelay_ms;
	struct bc_u32 downdelay_ms;
	struct bc_u32 peer_notif_delay_ms;
	struct bc_u32 use_carrier;
	struct bc_u32 arp_interval_ms;
	struct bc_u32 arp_missed_max;
	struct bc_u32 arp_validate;
	struct bc_u32 arp_all_targets;
	char arp_targets[BC_MAX_TARGETS][16];  /* dotted quads */
	size_t n_arp_targets;
	char ns_targets[BC_MAX_TARGETS][48];   /* IPv6 text */
	size_t n_ns_targets;
	struct bc_u32 min_links;
	struct bc_u32 num_peer_notif;
	struct bc_u32 resend_igmp;
	struct bc_u32 all_slaves_active;
	struct bc_u32 lp_interval;
	struct bc_u32 packets_per_slave;
	struct bc_u32 tlb_dynamic_lb;
	struct bc_u32 coupled_control;

	/* 802.3ad */
	struct bc_u32 lacp_active;        /* 0 off, 1 on */
	struct bc_u32 lacp_rate;          /* 0 slow, 1 fast */
	struct bc_u32 ad_select;
	struct bc_u32 ad_actor_sys_prio;  /* needs CAP_NET_ADMIN */
	struct bc_u32 ad_user_port_key;
	struct bc_str ad_actor_system;
	/*
	 * Active aggregator (IFLA_BOND_AD_INFO, /proc "Active Aggregator Info").
	 * ad_info_status: BC_KNOWN present; BC_NA the bond has no active
	 * aggregator (visible source said so); BC_HIDDEN withheld;
	 * BC_NOT_REPORTED no source covers it.
	 */
	uint8_t ad_info_status;
	struct bc_u32 ad_aggregator_id;
	struct bc_u32 ad_num_ports;
	struct bc_u32 ad_actor_key;
	struct bc_u32 ad_partner_key;
	struct bc_str ad_partner_mac;

	/* the bond device */
	struct bc_u32 mtu;
	struct bc_u32 operstate;
	struct bc_str mac;
	struct bc_link_stats stats;
	char uppers[8][BC_IFNAMSIZ];      /* VLANs, bridges stacked on the bond */
	size_t n_uppers;

	/* /proc header: "v3.7.1 (April 27, 2011)" or a kernel release "v6.1.0-25-amd64" */
	char driver_version[BC_TEXT];
	/* where this bond was read from: the --from-proc path, "" when live */
	char origin[256];
	/*
	 * The source shows only part of the bond: its slave list is cut or
	 * absent (a truncated paste, a master-only `ip link` listing) although
	 * the master's fields prove slaves exist.  Slave checks are "not done",
	 * never passed or failed; @incomplete_reason says what is missing.
	 */
	bool slaves_incomplete;
	char incomplete_reason[160];

	struct bc_slave *slaves;          /* enslave order, owned */
	size_t n_slaves;

	struct bc_kv *unknown;            /* unknown /proc keys, owned */
	size_t n_unknown;
};

/* Severity of a finding, DESIGN.md "The findings catalog". */
enum bc_severity {
	BC_SEV_INFO = 0,
	BC_SEV_WARNING = 1,
	BC_SEV_ERROR = 2,
};

#define BC_EVIDENCE_MAX 8

/*
 * One finding.  @id is a stable catalog id ("slave-down"); @subject the bond
 * or slave it is about; evidence holds the values that triggered it as
 * key/value text pairs (rendered as a JSON object); @advice what to do.
 */
struct bc_finding {
	const char *id;
	enum bc_severity severity;
	char subject[2 * BC_IFNAMSIZ + 2]; /* "bond0" or "bond0/eth1" */
	struct bc_kv evidence[BC_EVIDENCE_MAX];
	size_t n_evidence;
	char advice[384];
};

/*
 * Two sources that should agree but do not (netlink vs /proc, ...), as
 * recorded by a collector with bc_findings_add_disagreement(); the findings
 * engine turns each into a `source-disagreement` finding.  A hidden field is
 * absent, never a disagreement.
 */
struct bc_disagreement {
	char subject[2 * BC_IFNAMSIZ + 2]; /* "bond0" or "bond0/eth1" */
	char field[BC_TEXT];               /* "mii_status", "aggregator_id" */
	char source_a[16], value_a[96];    /* "netlink", "up" */
	char source_b[16], value_b[96];    /* "proc", "down" */
};

/* Where the snapshot came from. */
enum bc_source_kind {
	BC_SRC_LIVE = 0,
	BC_SRC_PROC_FILE,  /* --from-proc */
	BC_SRC_REPLAY,     /* --replay DIR */
	BC_SRC_IP_FILE,    /* --from-ip: saved `ip -d link` text or `ip -j -d link` JSON */
	BC_SRC_SOS,        /* --from-sos: a sosreport tree or tarball */
};

/* Which sources contributed, and which were hidden from this reader. */
enum {
	BC_HAVE_RTNL = 0x01,
	BC_HAVE_ETHTOOL_NL = 0x02,
	BC_HAVE_IOCTL = 0x04,
	BC_HAVE_PROC = 0x08,
	BC_HAVE_SYSFS = 0x10,
};

struct bc_snapshot {
	enum bc_source_kind source;
	unsigned int have;          /* BC_HAVE_* */
	bool cap_net_admin;         /* reader could see LACP details */
	bool lacp_hidden;           /* some source hid LACP details */
	char netns[64];             /* "" for the caller's namespace */
	char kernel_release[BC_TEXT];

	struct bc_bond *bonds;      /* owned */
	size_t n_bonds;

	struct bc_finding *findings; /* owned, filled by bc_findings_evaluate() */
	size_t n_findings;

	/*
	 * net.ipv4.tcp_reordering of the namespace (default 3); NOT_REPORTED
	 * when not read (offline sources).  Used by rr-tcp-reordering.
	 */
	struct bc_u32 tcp_reordering;

	struct bc_disagreement *disagreements; /* owned */
	size_t n_disagreements;

	/* non-fatal parse/collect warnings ("line 12: unknown key kept") */
	char (*warnings)[256];
	size_t n_warnings;
};

/* Field helpers: set a value as known / mark a status. */
static inline void bc_u32_set(struct bc_u32 *f, uint32_t v)
{
	f->v = v;
	f->st = BC_KNOWN;
}

static inline bool bc_u32_known(const struct bc_u32 *f)
{
	return f->st == BC_KNOWN;
}

/*
 * bc_snapshot_add_bond() - append a zeroed bond named @name.
 * Returns the new bond, or NULL on allocation failure.
 */
struct bc_bond *bc_snapshot_add_bond(struct bc_snapshot *s, const char *name);

/* bc_bond_add_slave() - append a zeroed slave named @name; NULL on ENOMEM. */
struct bc_slave *bc_bond_add_slave(struct bc_bond *b, const char *name);

/* bc_bond_find_slave() - slave by name, or NULL. */
struct bc_slave *bc_bond_find_slave(const struct bc_bond *b, const char *name);

/* bc_snapshot_find_bond() - bond by name, or NULL. */
struct bc_bond *bc_snapshot_find_bond(const struct bc_snapshot *s, const char *name);

/* bc_bond_add_unknown() - keep an unknown key/value; -ENOMEM on failure. */
int bc_bond_add_unknown(struct bc_bond *b, const char *key, const char *value);

/* bc_snapshot_warn() - add a non-fatal warning (printf format); -ENOMEM on failure. */
int bc_snapshot_warn(struct bc_snapshot *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* bc_snapshot_add_finding() - append a zeroed finding; NULL on ENOMEM. */
struct bc_finding *bc_snapshot_add_finding(struct bc_snapshot *s, const char *id,
					   enum bc_severity sev, const char *subject);

/* bc_finding_evidence() - add "key=value" evidence (printf format for value). */
void bc_finding_evidence(struct bc_finding *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* bc_snapshot_free() - release everything the snapshot owns; NULL allowed. */
void bc_snapshot_free(struct bc_snapshot *s);

#endif
