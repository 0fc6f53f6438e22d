// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer driver for the bulk-connection decoders (docs/protocol.md,
 * "Capture and the bulk connection"):
 *  - the client's receiver, bc_bulk_receive(): the input is what the agent
 *    sends (bulk-file headers, raw file bytes, bulk-end, error frames),
 *    written into a socketpair and closed; the files land in a private
 *    temporary directory;
 *  - the agent's check of the bulk-hello, bc_bulk_hello_check(), on the
 *    input's first frame.
 * Any byte string must give 0 or a negative errno, never a crash, a leak or
 * undefined behaviour, and never a file outside the directory: after each
 * input every entry there must be a regular file named "agent-*.pcap".
 *
 * ctest replays tests/fuzz/corpus/bulk/ (fuzz-replay.c); `tools/fuzz bulk`
 * fuzzes it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bondcheck/ctl.h"
#include "workflow/bulk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static void rm_dir(void)
{
	rmdir(dir);
}

/* Every entry a regular "agent-*.pcap" file, removed; anything else aborts. */
static void sweep(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		abort();
	while ((e = readdir(d))) {
		struct stat st;
		size_t n = strlen(e->d_name);

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || strncmp(e->d_name, "agent-", 6) || n < 11 ||
		    strcmp(e->d_name + n - 5, ".pcap"))
			abort();
		unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bc_bulk_file files[BC_CAPTURE_MAX_IFS];
	struct bc_error err = {0};
	struct json_object *m = NULL;
	unsigned version;
	uint32_t len;
	size_t n = 0, off = 0;
	int sv[2];

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s/bc-fuzz-bulk.XXXXXX",
			 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
		if (!mkdtemp(dir))
			abort();
		atexit(rm_dir);
	}
	/* the agent's side: the first frame as a bulk-hello */
	if (size >= BC_CTL_HDR_LEN &&
	    bc_ctl_header_parse(data, BC_CTL_MAX_REQUEST, &len, &version, NULL) == 0 &&
	    len <= size - BC_CTL_HDR_LEN &&
	    bc_ctl_body_parse((const char *)data + BC_CTL_HDR_LEN, len, &m, NULL) == 0) {
		bc_bulk_hello_check(
			m, 4242,
			"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");
		json_object_put(m);
	}
	/* the client's side: the whole input as the agent's stream */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		abort();
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &(int){1 << 20}, sizeof(int));
	while (off < size) {
		ssize_t w = send(sv[0], data + off, size - off, MSG_DONTWAIT | MSG_NOSIGNAL);

		if (w <= 0)
			break; /* the rest does not fit: the input is cut there */
		off += (size_t)w;
	}
	close(sv[0]);
	bc_bulk_receive(sv[1], dir, files, &n, &err);
	close(sv[1]);
	if (n > BC_CAPTURE_MAX_IFS)
		abort();
	sweep();
	return 0;
}
