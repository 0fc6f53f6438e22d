// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pdsh / clush output demultiplexing (host-prefix.h), as dshbak does it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/host-prefix.h"

void bc_host_demux_free(struct bc_host_demux *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->host[i].text);
	free(d->host);
	memset(d, 0, sizeof(*d));
}

/* The prefix's length up to and including ": ", or 0 when the line has none. */
static size_t prefix_len(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && i < BC_HOST_LEN - 1 &&
	       (isalnum((unsigned char)s[i]) || s[i] == '.' || s[i] == '-' || s[i] == '_'))
		i++;
	if (!i || i >= n || s[i] != ':')
		return 0;
	if (i + 1 < n && s[i + 1] == ' ')
		return i + 2;
	return i + 1 == n ? i + 1 : 0; /* "host:" alone is an empty line of that host */
}

static struct bc_host_text *host_of(struct bc_host_demux *d, size_t *cap, const char *name,
				    size_t n)
{
	/* the last host first: pdsh prints runs of one host's lines */
	for (size_t i = d->n; i-- > 0;)
		if (strlen(d->host[i].host) == n && !memcmp(d->host[i].host, name, n))
			return &d->host[i];
	if (d->n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		void *p = realloc(d->host, c * sizeof(*d->host));

		if (!p)
			return NULL;
		d->host = p;
		*cap = c;
	}
	memset(&d->host[d->n], 0, sizeof(d->host[d->n]));
	memcpy(d->host[d->n].host, name, n);
	return &d->host[d->n++];
}

static int append(struct bc_host_text *h, const char *s, size_t n)
{
	char *p = realloc(h->text, h->len + n + 2);

	if (!p)
		return -ENOMEM;
	h->text = p;
	memcpy(h->text + h->len, s, n);
	h->len += n;
	h->text[h->len++] = '\n';
	h->text[h->len] = '\0';
	return 0;
}

int bc_host_demux(const char *buf, size_t len, struct bc_host_demux *d)
{
	size_t cap = 0, line = 0;

	memset(d, 0, sizeof(*d));
	for (size_t pos = 0; pos < len;) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos, p;
		struct bc_host_text *h;

		pos += n + (nl != NULL);
		line++;
		if (n && s[n - 1] == '\r')
			n--;
		if (!n)
			continue;
		p = prefix_len(s, n);
		if (!p) {
			if (!d->unprefixed++)
				d->first_unprefixed = line;
			continue;
		}
		h = host_of(d, &cap, s, s[p - 1] == ' ' ? p - 2 : p - 1);
		if (!h || append(h, s + p, n - p)) {
			bc_host_demux_free(d);
			return -ENOMEM;
		}
	}
	return 0;
}
