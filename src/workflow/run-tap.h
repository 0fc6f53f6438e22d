/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The slave taps as a run's capture source (run --capture; docs/run.md
 * "Capture"; issue 17 item 2).  The taps (bondcheck/tap.h) are attached to
 * the same interfaces the pcap capture would use; their records are kept
 * in memory during the test and, at stop, written per interface, ordered
 * by time, as a pcap file of synthesized frames: Ethernet (+ the 802.1Q tag
 * when the record has one), IPv4/IPv6 (+ the fragment header), UDP with
 * bondcheck's header (stream, test id, sequence), or TCP with the
 * recorded sequence range and flags.  Each frame's original length is the
 * record's skb->len.  These files travel and are attributed exactly as
 * pcap files are (bc_attrib_read_pcap(), bulk.h): one attribution for both
 * sources.  They carry nothing a record does not: no payload, no TCP
 * acknowledgement or options, no send time in our header (send_ns 0).
 */
#ifndef BC_WORKFLOW_RUN_TAP_H
#define BC_WORKFLOW_RUN_TAP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "bondcheck/capture.h"
#include "bondcheck/error.h"

/* At most this many records are kept per run and end (48 bytes each). */
#define BC_RUN_TAP_MAX_RECS (4u << 20)

struct bc_run_tap;

/*
 * bc_run_tap_open() - attach the taps to the @n interfaces @names (the
 * capture's slaves), recording bondcheck datagrams, fragments and TCP
 * between @local and @peer except on @ctl_port.  The files will be
 * "@dir/@host-tap-NAME.pcap".  Returns 0 with *@tp; the errors of
 * bc_tap_open() (-EOPNOTSUPP not built, -EPERM privileges, -EACCES
 * refused by the verifier...), -ENODEV, -ENOMEM.
 */
int bc_run_tap_open(struct bc_run_tap **tp, const char *host, const char names[][16], size_t n,
		    const struct sockaddr_storage *local, const struct sockaddr_storage *peer,
		    uint16_t ctl_port, const char *dir, struct bc_error *err);

/* bc_run_tap_start() - the consumer thread.  0 or -errno. */
int bc_run_tap_start(struct bc_run_tap *t, struct bc_error *err);

/*
 * bc_run_tap_stop() - stop the consumer, drain the ring, read the counters,
 * detach, and write the files (idempotent).  0, or -errno when a file
 * could not be written (@err).
 */
int bc_run_tap_stop(struct bc_run_tap *t, struct bc_error *err);

/*
 * bc_run_tap_files() - the written files as a struct bc_capture's ifs
 * (name and path only) appended to @c under names "tap.I" (bulk) when
 * @bulk_names, else under the interface names.  -E2BIG when @c is full.
 */
int bc_run_tap_files(const struct bc_run_tap *t, struct bc_capture *c, bool bulk_names);

/* bc_run_tap_n() / bc_run_tap_name() / bc_run_tap_path() - the interfaces and their files. */
size_t bc_run_tap_n(const struct bc_run_tap *t);
const char *bc_run_tap_name(const struct bc_run_tap *t, size_t i);
const char *bc_run_tap_path(const struct bc_run_tap *t, size_t i);

/* bc_run_tap_lost() - records lost: the ring's drops plus records over BC_RUN_TAP_MAX_RECS. */
uint64_t bc_run_tap_lost(const struct bc_run_tap *t);

/*
 * bc_run_tap_json() - {"attach": "tcx"|"clsact", "counters": {packets,
 * records, ring_drop, tuple_full, kept_over}, "interfaces": [{name, file,
 * records, egress, ingress, bytes}]}.
 */
struct json_object *bc_run_tap_json(const struct bc_run_tap *t);

/* bc_run_tap_free() - stop, detach, delete the files (NULL-safe). */
void bc_run_tap_free(struct bc_run_tap *t);

/*
 * bc_run_tap_synth() - the synthesized frame of record @r with 5-tuple
 * @tu into @buf (at least 128 bytes); *@wire_len gets the original length
 * (r->len, at least the frame).  Returns the frame's length.  Pure, for
 * the unit test.
 */
struct bc_tap_rec;
struct bc_tap_tuple;
uint32_t bc_run_tap_synth(const struct bc_tap_rec *r, const struct bc_tap_tuple *tu, uint8_t *buf,
			  uint32_t *wire_len);

#endif
