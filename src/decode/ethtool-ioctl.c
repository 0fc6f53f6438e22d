// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SIOCETHTOOL results (kernel net/ethtool/ioctl.c): ETHTOOL_GDRVINFO and
 * the driver's own counters, ETHTOOL_GSTRINGS(ETH_SS_STATS) paired with
 * ETHTOOL_GSTATS by position, as `ethtool -i` and `ethtool -S` print them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>

#include "bondcheck/ethtool.h"

/* Copy a fixed-size, possibly unterminated kernel string field. */
static void field(char *dst, size_t cap, const char *src, size_t n)
{
	size_t len = strnlen(src, n);

	if (len >= cap)
		len = cap - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

int bc_ethtool_decode_drvinfo(const void *buf, size_t len, struct bc_slave *s, struct bc_error *err)
{
	struct ethtool_drvinfo di;

	if (len != sizeof(di))
		return bc_error_set(err, -EPROTO,
				    "ETHTOOL_GDRVINFO result of %s has %zu bytes; expected %zu",
				    s->name, len, sizeof(di));
	memcpy(&di, buf, sizeof(di));
	if (di.cmd != ETHTOOL_GDRVINFO)
		return bc_error_set(err, -EPROTO, "ETHTOOL_GDRVINFO result of %s has cmd %#x",
				    s->name, di.cmd);
	field(s->driver, sizeof(s->driver), di.driver, sizeof(di.driver));
	field(s->driver_version, sizeof(s->driver_version), di.version, sizeof(di.version));
	field(s->fw_version, sizeof(s->fw_version), di.fw_version, sizeof(di.fw_version));
	field(s->bus_info, sizeof(s->bus_info), di.bus_info, sizeof(di.bus_info));
	s->drvinfo_present = true;
	return 0;
}

int bc_ethtool_decode_gstats(const void *strings, size_t slen, const void *stats, size_t vlen,
			     struct bc_slave *s, struct bc_error *err)
{
	struct ethtool_gstrings gs;
	struct ethtool_stats st;
	struct bc_counter *arr = NULL;

	if (slen < sizeof(gs) || vlen < sizeof(st))
		return bc_error_set(err, -EPROTO, "short ETHTOOL_GSTRINGS/GSTATS result of %s",
				    s->name);
	memcpy(&gs, strings, sizeof(gs));
	memcpy(&st, stats, sizeof(st));
	if ((slen - sizeof(gs)) / ETH_GSTRING_LEN != gs.len ||
	    (vlen - sizeof(st)) / sizeof(uint64_t) != st.n_stats || gs.len != st.n_stats)
		return bc_error_set(err, -EPROTO,
				    "ETHTOOL_GSTRINGS (%u names) and GSTATS (%u values) of %s do "
				    "not match their sizes or each other",
				    gs.len, st.n_stats, s->name);
	if (gs.len) {
		arr = calloc(gs.len, sizeof(*arr));
		if (!arr)
			return -ENOMEM;
	}
	for (uint32_t i = 0; i < gs.len; i++) {
		const char *name = (const char *)strings + sizeof(gs) + (size_t)i * ETH_GSTRING_LEN;

		field(arr[i].name, sizeof(arr[i].name), name, ETH_GSTRING_LEN);
		memcpy(&arr[i].value, (const char *)stats + sizeof(st) + i * sizeof(uint64_t),
		       sizeof(uint64_t));
	}
	free(s->driver_stats);
	s->driver_stats = arr;
	s->n_driver_stats = gs.len;
	return 0;
}

const struct bc_counter *bc_slave_find_counter(const struct bc_slave *s, const char *name)
{
	for (size_t i = 0; i < s->n_driver_stats; i++)
		if (!strcmp(s->driver_stats[i].name, name))
			return &s->driver_stats[i];
	for (size_t i = 0; i < s->n_std_stats; i++)
		if (!strcmp(s->std_stats[i].name, name))
			return &s->std_stats[i];
	return NULL;
}
