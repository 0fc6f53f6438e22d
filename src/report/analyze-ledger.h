/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The offline loss ledger stages shared by the JSON and text renderers. */
#ifndef BC_REPORT_ANALYZE_LEDGER_H
#define BC_REPORT_ANALYZE_LEDGER_H

#include <stdint.h>

#include "bondcheck/attrib.h"

/* One stage of reference/measurement.md 3.1; count valid when !absent. */
struct ledger_stage {
	const char *stage;
	bool absent; /* needs live counters: not in the captures */
	uint64_t count;
	const char *source; /* where the count comes from, or what it would need */
};

#define LEDGER_STAGES 6

void analyze_ledger(const struct bc_attrib *a, struct ledger_stage st[LEDGER_STAGES]);

#endif
