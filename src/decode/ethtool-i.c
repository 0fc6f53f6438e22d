// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Saved `ethtool -i DEV` and `ethtool DEV` text (see ethtool-i.h).  Lines
 * are "key: value"; keys are found by name, so order, blank lines, quoting
 * and unknown keys do not matter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bondcheck/ethtool-i.h"

#define LINE_MAX_LEN 256

struct cursor {
	const char *p, *end;
};

/*
 * Next line into @line (NUL-terminated, cut at LINE_MAX_LEN - 1), without
 * its end, leading blanks and e-mail quoting ("> "), trailing blanks.
 * Returns false at the end of the text.
 */
static bool next_line(struct cursor *c, char *line)
{
	const char *s = c->p, *e;
	size_t n;

	if (s >= c->end)
		return false;
	e = s;
	while (e < c->end && *e != '\n' && *e != '\0')
		e++;
	c->p = e < c->end ? e + 1 : e;
	while (s < e && (*s == ' ' || *s == '\t' || *s == '>'))
		s++;
	while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
		e--;
	n = (size_t)(e - s);
	if (n >= LINE_MAX_LEN)
		n = LINE_MAX_LEN - 1;
	for (size_t i = 0; i < n; i++)
		line[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	line[n] = '\0';
	return true;
}

/* "key: value" with @key matched case-insensitively; the value or NULL. */
static const char *value_of(const char *line, const char *key)
{
	size_t k = strlen(key);

	if (strncasecmp(line, key, k) || line[k] != ':')
		return NULL;
	line += k + 1;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

static void copy(char *dst, size_t cap, const char *v)
{
	snprintf(dst, cap, "%s", v);
}

int bc_ethtool_i_parse(const char *text, size_t len, struct bc_slave *s, struct bc_error *err)
{
	struct cursor c = {text, text + len};
	char line[LINE_MAX_LEN], first[LINE_MAX_LEN] = "";
	char drv[32] = "", ver[32] = "", fw[32] = "", bus[32] = "";
	bool have_drv = false;
	const char *v;

	if (len > BC_ETHTOOL_TEXT_MAX)
		return bc_error_set(err, -EFBIG,
				    "ethtool -i text of %zu bytes; expected at most %u bytes", len,
				    BC_ETHTOOL_TEXT_MAX);
	while (next_line(&c, line)) {
		if (!first[0] && line[0])
			copy(first, 48, line);
		if ((v = value_of(line, "driver"))) {
			have_drv = have_drv || v[0];
			if (!drv[0])
				copy(drv, sizeof(drv), v);
		} else if ((v = value_of(line, "version"))) {
			copy(ver, sizeof(ver), v);
		} else if ((v = value_of(line, "firmware-version"))) {
			copy(fw, sizeof(fw), v);
		} else if ((v = value_of(line, "bus-info"))) {
			copy(bus, sizeof(bus), v);
		}
	}
	if (!have_drv)
		return bc_error_set(
			err, -EINVAL,
			"expected `ethtool -i` output with a line 'driver: NAME'; found %s%s%s",
			first[0] ? "'" : "", first[0] ? first : "no such line",
			first[0] ? "' first and no driver line" : "");
	memcpy(s->driver, drv, sizeof(s->driver));
	memcpy(s->driver_version, ver, sizeof(s->driver_version));
	memcpy(s->fw_version, fw, sizeof(s->fw_version));
	memcpy(s->bus_info, bus, sizeof(s->bus_info));
	s->drvinfo_present = true;
	return 0;
}

/* "1000Mb/s" -> 1000; "Unknown!" -> BC_UNKNOWN; else false. */
static bool speed(const char *v, struct bc_u32 *out)
{
	char *end;
	unsigned long n;

	if (!strncasecmp(v, "Unknown", 7)) {
		out->v = 0;
		out->st = BC_UNKNOWN;
		return true;
	}
	if (*v < '0' || *v > '9')
		return false;
	n = strtoul(v, &end, 10);
	if (strncasecmp(end, "Mb/s", 4) || n > UINT32_MAX)
		return false;
	bc_u32_set(out, (uint32_t)n);
	return true;
}

static bool word(const char *v, const char *yes, const char *no, struct bc_u32 *out)
{
	if (!strcasecmp(v, yes)) {
		bc_u32_set(out, 1);
		return true;
	}
	if (!strcasecmp(v, no)) {
		bc_u32_set(out, 0);
		return true;
	}
	return false;
}

/* ethtool.c dump_port(): the PORT_* names it prints. */
static const struct {
	const char *name;
	uint32_t port;
} ports[] = {
	{"Twisted Pair", 0x00}, {"AUI", 0x01},	 {"BNC", 0x02},
	{"MII", 0x03},		{"FIBRE", 0x04}, {"Direct Attach Copper", 0x05},
	{"Other", 0xef},	{"None", 0xff},
};

static bool port(const char *v, struct bc_u32 *out)
{
	for (size_t i = 0; i < sizeof(ports) / sizeof(ports[0]); i++)
		if (!strcasecmp(v, ports[i].name)) {
			bc_u32_set(out, ports[i].port);
			return true;
		}
	return false;
}

int bc_ethtool_link_parse(const char *text, size_t len, struct bc_slave *s, struct bc_error *err)
{
	struct cursor c = {text, text + len};
	char line[LINE_MAX_LEN];
	unsigned int read = 0;
	const char *v;

	if (len > BC_ETHTOOL_TEXT_MAX)
		return bc_error_set(err, -EFBIG,
				    "ethtool text of %zu bytes; expected at most %u bytes", len,
				    BC_ETHTOOL_TEXT_MAX);
	while (next_line(&c, line)) {
		if ((v = value_of(line, "Speed"))) {
			read += speed(v, &s->speed_mbps);
		} else if ((v = value_of(line, "Duplex"))) {
			if (!strncasecmp(v, "Unknown", 7)) {
				s->duplex.v = 0;
				s->duplex.st = BC_UNKNOWN;
				read++;
			} else {
				read += word(v, "Full", "Half", &s->duplex);
			}
		} else if ((v = value_of(line, "Auto-negotiation"))) {
			read += word(v, "on", "off", &s->autoneg);
		} else if ((v = value_of(line, "Link detected"))) {
			read += word(v, "yes", "no", &s->carrier);
		} else if ((v = value_of(line, "Port"))) {
			read += port(v, &s->port);
		}
	}
	if (!read)
		return bc_error_set(err, -EINVAL,
				    "expected `ethtool DEV` output with 'Speed:', 'Duplex:' or "
				    "'Link detected:' lines; found none");
	return 0;
}
