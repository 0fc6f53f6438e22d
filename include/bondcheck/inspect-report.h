/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Renderers of `bondcheck inspect`: text for people, JSON for machines
 * (schema in docs/inspect-json.md).  Pure functions of the snapshot: they
 * never read the kernel, the clock or the environment; the caller passes
 * everything volatile (generation time, version) in the options.
 */
#ifndef BONDCHECK_INSPECT_REPORT_H
#define BONDCHECK_INSPECT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "bondcheck/model.h"

struct json_object;

/* Version of the JSON document layout; bumped on incompatible change. */
#define BC_INSPECT_JSON_SCHEMA 3

struct bc_inspect_render_opts {
	bool quiet;		  /* text: one line per finding, nothing else */
	bool verbose;		  /* text: per-slave LACP/churn details and unknown keys */
	bool brief;		  /* text: each bond's answer block alone */
	const char *generated_at; /* JSON: RFC 3339 UTC time; NULL -> null */
	const char *version;	  /* JSON: bondcheck_version; NULL -> BC_VERSION */
	const char *host;	  /* JSON: the host inspected (--host, or the node name of a
				   * live inspection); NULL -> null (a paste's host is not known) */
	bool json_line;		  /* JSON: the document on one line (for pdsh/clush) */
};

/*
 * bc_inspect_text_write() - write the text report of @snap to @out: per bond
 * a summary, an aligned slaves table and its findings (severity, id,
 * subject, evidence, advice).  Not-reported values print as "-", Unknown as
 * "?", hidden as "hidden", N/A as "N/A".
 *
 * Return: 0, or -EIO when writing to @out failed.
 */
int bc_inspect_text_write(FILE *out, const struct bc_snapshot *snap,
			  const struct bc_inspect_render_opts *opts);

/*
 * bc_inspect_text_answers() - the answer block of bond @b (bondcheck/answer.h):
 * Health (the worst of its findings, and the error and warning counts),
 * Redundancy (slaves up and carrying: the active aggregator's on 802.3ad,
 * the active slave on active-backup; FAIL under 2 up, WARN when a slave is
 * down or idle), Monitoring (miimon or
 * ARP and the worst finding about it), wrapped to @out's width.
 * bc_inspect_text_write() opens each bond with it.
 */
void bc_inspect_text_answers(FILE *out, const struct bc_snapshot *snap, const struct bc_bond *b);

/*
 * bc_inspect_json_offloads() - a slave's offloads as the JSON object of the
 * inspect schema (docs/inspect-json.md): {"tso": true|false|null, "tso6",
 * "gso", "gro", "lro", "rx_csum", "tx_csum", "sg"}; null = not read.  Shared
 * with run's metadata.bond so both documents spell offloads the same way.
 */
struct json_object *bc_inspect_json_offloads(const struct bc_offloads *x);

/*
 * bc_inspect_json_build() - the JSON document of @snap (json-c object, owned
 * by the caller: json_object_put()).  Values that are not BC_KNOWN are JSON
 * null; *_status members say why (known, unknown, n/a, hidden, not_reported).
 *
 * Return: the object, or NULL on allocation failure.
 */
struct json_object *bc_inspect_json_build(const struct bc_snapshot *snap,
					  const struct bc_inspect_render_opts *opts);

/*
 * bc_inspect_json_write() - build and write the document, pretty-printed
 * with two-space indents and a final newline.
 *
 * Return: 0, -ENOMEM, or -EIO when writing to @out failed.
 */
int bc_inspect_json_write(FILE *out, const struct bc_snapshot *snap,
			  const struct bc_inspect_render_opts *opts);

/*
 * bc_inspect_prom_write() - @snap and its findings in the Prometheus text
 * exposition format (0.0.4), for node_exporter's textfile collector:
 * bondcheck_up 1, then bondcheck_bond_* (info with mode and options as
 * labels, up, slaves, slaves_up, miimon/arp interval in seconds),
 * bondcheck_slave_* (info with driver and firmware, up, active, speed in
 * bytes/s, link_failures_total, in_active_aggregator, lacp_port_state and
 * lacp_port_flag per end), bondcheck_findings{severity} and one
 * bondcheck_finding{id,severity,bond,subject} per finding.  HELP and TYPE
 * per family, label values escaped, no timestamps; values not reported
 * give no sample.  Layout in docs/inspect.md "Prometheus".
 * bc_inspect_prom_write_failed() - the document of an inspect that failed:
 * bondcheck_up 0 alone.
 *
 * Return: 0, or -EIO when writing to @out failed.
 */
int bc_inspect_prom_write(FILE *out, const struct bc_snapshot *snap);
int bc_inspect_prom_write_failed(FILE *out);

/* Monitoring-plugins states (exit statuses of a check). */
enum {
	BC_NAGIOS_OK = 0,
	BC_NAGIOS_WARNING = 1,
	BC_NAGIOS_CRITICAL = 2,
	BC_NAGIOS_UNKNOWN = 3,
};

/*
 * bc_inspect_nagios_state() - the check's state from the worst finding of
 * @snap: error CRITICAL, warning WARNING, else OK.
 * bc_inspect_nagios_write() - the plugin output: "BONDCHECK STATE -
 * summary | perfdata" (per bond: 'BOND_slaves_up'=N;;;0;TOTAL,
 * 'BOND_slaves', 'BOND_link_failures' (c), 'BOND_errors', 'BOND_warnings'),
 * then one line per finding, worst first.  No '|' in any text.
 * bc_inspect_nagios_unknown() - "BONDCHECK UNKNOWN - @message", for a check
 * that could not run.
 *
 * Return: 0, or -EIO when writing to @out failed.
 */
int bc_inspect_nagios_state(const struct bc_snapshot *snap);
int bc_inspect_nagios_write(FILE *out, const struct bc_snapshot *snap);
int bc_inspect_nagios_unknown(FILE *out, const char *message);

#endif
