/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Capture during a run, on either end (run --capture; docs/run.md): the
 * slaves of the interface the test leaves by, a folder for the pcap files,
 * and on the client the attribution over both ends' files.
 *
 * Agent: open before `ready`, start at `start`, stop after Tmax, result
 * member "capture" (bc_run_capture_json(), with the bulk token), then the
 * files over the bulk connection (workflow/bulk.h).
 * Client: open before `start`, stop after the result, fetch the agent's
 * files, attribute (bc_run_capture_attribute()).
 *
 * This header must not include bondcheck/plan.h: it is used next to
 * bondcheck/attrib.h, whose enum bc_dir differs.
 */
#ifndef BC_WORKFLOW_RUN_CAPTURE_H
#define BC_WORKFLOW_RUN_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "bondcheck/capture.h"
#include "bondcheck/error.h"

/* Which capture source a run asks for (run --capture [auto|pcap|taps|both]). */
enum bc_capsrc {
	BC_CAPSRC_PCAP, /* libpcap on every slave (also: a plan without "capture_source") */
	BC_CAPSRC_AUTO, /* the taps when this end can load them, else pcap */
	BC_CAPSRC_TAPS, /* the taps, or fail */
	BC_CAPSRC_BOTH, /* taps and pcap on the same run (the identity test) */
};

/* "pcap", "auto", "taps", "both"; bc_capsrc_parse(): -EINVAL for another word. */
const char *bc_capsrc_name(enum bc_capsrc s);
int bc_capsrc_parse(const char *s, enum bc_capsrc *out);

struct bc_run_tap;

struct bc_run_capture {
	struct bc_capture cap; /* pcap (names set even when pcap is off) */
	bool pcap_on;	       /* the pcap capture runs */
	struct bc_run_tap *tap; /* the taps, when they run */
	char source[8];		/* what ran: "pcap", "taps", "both" */
	char source_reason[320]; /* why (auto: why not the taps) */
	char tap_error[256];	 /* the taps' files could not be written */
	struct bc_capture offer; /* the agent's files for the bulk connection */
	char dir[2048];
	bool temp_dir; /* remove the files and the folder at the end */
	bool opened, started;
	char token[65]; /* agent: the bulk token (hex) */
};

/*
 * bc_run_capture_open() - find the egress interface of @local (its slaves
 * when it is a bond), build the host-pair filter for @local/@peer
 * (bc_capture_filter_ext() with @filter_flags), make the
 * folder (@keep_dir, or a new temporary one when NULL) and open a handle on
 * each interface as @host ("client"/"agent") with a ring of @buffer bytes
 * (0: BC_CAPTURE_BUFFER).  @want chooses the source: the taps
 * (workflow/run-tap.h) for BC_CAPSRC_TAPS and _BOTH (their errors returned),
 * and for _AUTO when they load (else pcap, rc->source_reason says why);
 * pcap for _PCAP, _BOTH, a failed _AUTO, and with @keep_dir (the pcap
 * files are the evidence kept).  Errors of bc_capture_open() and
 * bc_run_tap_open(), and -ENODEV when @local is on no interface.
 */
int bc_run_capture_open(struct bc_run_capture *rc, const char *host,
			const struct sockaddr_storage *local, const struct sockaddr_storage *peer,
			uint16_t ctl_port, const char *keep_dir, uint32_t buffer,
			unsigned filter_flags, enum bc_capsrc want,
			struct bc_error *err);

/*
 * bc_run_capture_offer() - after stop: fill rc->offer with the files the
 * agent sends (its pcap files under the slave names, the taps' as "tap.I").
 */
void bc_run_capture_offer(struct bc_run_capture *rc);

/* bc_run_capture_start() - 0 or -errno. */
int bc_run_capture_start(struct bc_run_capture *rc, struct bc_error *err);

/* bc_run_capture_stop() - stop, read pcap_stats, close the files (idempotent). */
void bc_run_capture_stop(struct bc_run_capture *rc);

/* bc_run_capture_json() - bc_capture_json() plus "version" and, on the agent, "bulk_token". */
struct json_object *bc_run_capture_json(const struct bc_run_capture *rc);

/* bc_run_capture_free() - stop, and delete a temporary folder with its files. */
void bc_run_capture_free(struct bc_run_capture *rc);

/*
 * bc_run_capture_attribute() - the client's analysis: fetch the agent's
 * files over the bulk connection (@agent_ctl: the agent's address and
 * control port; @agent_cap: the "capture" member of its result), attribute
 * tx:client/SLAVE against rx:agent/SLAVE with @client_addr as the sending
 * host (forward), and add to @res "capture": {"client", "agent",
 * "analysis"}, to @findings the capture findings (capture-incomplete when
 * any ps_drop > 0), to @notes what could not be done.  With @fetch_only
 * the files are fetched and listed but not attributed (no "analysis").
 * Returns 0, or -ENOMEM; failures of the transfer are notes, not errors.
 */
int bc_run_capture_attribute(struct bc_run_capture *rc, uint32_t test_id,
			     const struct sockaddr_storage *agent_ctl,
			     const struct sockaddr_storage *client_addr,
			     struct json_object *agent_cap, struct json_object *res,
			     struct json_object *findings, struct json_object *notes,
			     bool fetch_only, struct bc_error *err);

/*
 * bc_run_ledger() - the live loss ledger (bondcheck/ledger.h) of a one-way
 * UDP run (forward, or -R: the agent sends) from @analysis (the capture
 * analysis JSON) and @res (streams, ends.*.counters, ends.*.metadata):
 * replaces @analysis "ledger" with stages {stage, count, drop, explained,
 * counter, source}, and its wire-loss/rx-loss-reassembly findings with the
 * ledger's (tx-loss, rx-loss-nic, wire-loss, rx-loss-reassembly,
 * rx-loss-socket).  Other runs leave a note.  Returns 0.
 */
int bc_run_ledger(struct json_object *analysis, struct json_object *res,
		  struct json_object *notes);

/*
 * bc_run_observed() - with res.placement: placement.observed = {source,
 * streams[{id, client_port, predicted_slave, observed_slaves[], match}],
 * mismatches} from @analysis's forward flows on tx:client/ links, and a
 * placement-mismatch finding per unmatched flow; drops link-idle findings
 * on client slaves the mode (active-backup) or placement leave idle.
 */
void bc_run_observed(struct json_object *analysis, struct json_object *res);

#endif
