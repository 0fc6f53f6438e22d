/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Renderers of `bondcheck fleet` (fleet.h): text for people (the answers
 * first, then the fleet findings, then one line per host and bond), JSON
 * for machines (docs/fleet.md) and CSV (one row per host and bond).  Pure
 * functions of the analysed fleet.
 */
#ifndef BONDCHECK_FLEET_REPORT_H
#define BONDCHECK_FLEET_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "bondcheck/fleet.h"

/* Version of the fleet JSON document; bumped on incompatible change. */
#define BC_FLEET_JSON_SCHEMA 1

/* The counts the answers give. */
struct bc_fleet_counts {
	size_t read, failed, missing; /* hosts */
	size_t with_errors;	      /* hosts whose inspect reported error-level findings */
	size_t drift, differs, alone, dup_actor; /* fleet findings of each kind */
	size_t errors;			     /* error-level fleet findings */
};

/* bc_fleet_count() - the counts of analysed fleet @f. */
void bc_fleet_count(const struct bc_fleet *f, struct bc_fleet_counts *c);

/*
 * bc_fleet_json() - the fleet document: counts, fleet findings (id,
 * severity, bond, mode, attribute, values, hosts), hosts with their bonds'
 * compared values (null unknown) and inspect finding counts.
 * @generated_at: RFC 3339 time or NULL.  Returns a new object, or NULL on
 * allocation failure.
 */
struct json_object *bc_fleet_json(const struct bc_fleet *f, const char *generated_at);

/*
 * bc_fleet_text() - the text report to @out: the answers (answer.h), then,
 * unless @brief, the fleet findings and a line per host and bond.  Returns 0
 * or -EIO.
 */
int bc_fleet_text(FILE *out, const struct bc_fleet *f, bool brief);

/*
 * bc_fleet_csv() - one row per host and bond (a failed host: one row with
 * its reason), RFC 4180 quoting.  Returns 0 or -EIO.
 */
int bc_fleet_csv(FILE *out, const struct bc_fleet *f);

/*
 * bc_fleet_plot_doc() - the input of bc_plot_fleet_findings() (plot.h) for
 * analysed fleet @f: rows are the hosts (read, failed and missing), columns
 * the fleet findings ("fleet-drift driver", "fleet-host-missing", ...) and
 * then every id of the hosts' own inspect findings, worst severity first;
 * a cell counts the times the host has the finding (over its bonds).  When
 * there are more hosts than the plot holds, those without any finding are
 * left out first, then those with the least severe ones, and the note says
 * how many were drawn; likewise for findings.  Returns a new object, or
 * NULL on allocation failure.
 */
struct json_object *bc_fleet_plot_doc(const struct bc_fleet *f);

#endif
