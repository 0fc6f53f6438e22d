/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `bondcheck run`'s traffic part: connect to an agent, run one test plan,
 * and return one JSON result with both ends' figures (docs/protocol.md):
 *
 *   {"schema_version", "bondcheck_version", "generated_at", "test": plan,
 *    "streams": [ per stream: protocol, direction, sent_packets,
 *       received_packets, lost_packets, duplicate_packets,
 *       out_of_order_packets, goodput_bps (bits/s), retransmits (TCP),
 *       jitter_ms, reordering, sender {...}, receiver {...} ],
 *    "sum": {per direction goodput_bps, ceiling_bps, efficiency},
 *    "ceiling_bps", "efficiency", "link": {rate_bps, source, mtu, ...},
 *    "ends": {"client": {counters, metadata}, "agent": {counters, metadata}},
 *    "intervals": [...], "notes": [...], "findings": [...],
 *    "placement": {bond, xmit_hash_policy, streams: [{id, client_port, predicted_slave}]}}
 */
#ifndef BONDCHECK_CLIENT_H
#define BONDCHECK_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "bondcheck/ceiling.h"
#include "bondcheck/ctl-auth.h"
#include "bondcheck/error.h"
#include "bondcheck/plan.h"

struct bc_client_cfg {
	const char *peer; /* host name or address */
	uint16_t port;	  /* control port */
	int family;	  /* 0 any, 4 or 6 */
	struct bc_auth_key key;
	struct bc_plan plan;
	uint16_t cport_base, cport_stride;
	double link_rate_bps;	     /* --link-rate; 0: from the egress interface */
	enum bc_rate_conv link_conv; /* with --link-rate */
	int connect_timeout_ms;
	uint32_t place_k;   /* --place per-slave=K; 0: no placement */
	bool streams_given; /* -P was given (conflicts with --place unless equal) */
	/* `scale --method placement`: place the plan's streams onto these slaves
	 * of the egress bond, stream i on place_onto[i % n_place_onto] (usable
	 * slaves; layer3+4 hash modes only); n_place_onto 0: not used */
	const char *const *place_onto;
	size_t n_place_onto;
	/* --rate: total UDP bits/s over all streams of a direction, split again
	 * once --place has set the stream count; 0: plan.rate_bps is per stream */
	double total_rate_bps;
	/* --capture: per-slave capture on both ends, attributed at the end
	 * (result member "capture"); --keep-pcaps DIR keeps the files there */
	bool capture;
	const char *keep_pcaps;
	/* --capture SOURCE: enum bc_capsrc (workflow/run-capture.h): 0 pcap
	 * (the suite, failover), 1 auto (run --capture), 2 taps, 3 both */
	int capture_source;
	/* test only (--test-capture-stall): the client's capture threads read
	 * nothing for their first this many ms, so a small ring overflows and
	 * the pcap_stats drop path runs live; 0: off */
	uint32_t test_capture_stall_ms;
	/* with capture: fetch the agent's files but leave the attribution to
	 * the caller (no "capture.analysis"; `failover` reads the files itself) */
	bool capture_fetch_only;
	/* called at least every tick_ms (default 10) while the streams run, with
	 * the ns since they started; a negative return (with @err filled) ends
	 * the test at once with that error; a positive one ends the streams
	 * that many ms from now, earlier than plan.duration_ms (never later:
	 * the senders stop at the duration by themselves); 0 leaves the end as
	 * it is.  `failover` cuts and restores here, with a duration long enough
	 * for slow commands, and ends the test once the settle has passed */
	int (*on_tick)(void *ctx, int64_t elapsed_ns, struct bc_error *err);
	uint32_t tick_ms;
	/* called for each interval with a new JSON object (owned by the callee) */
	void (*on_interval)(void *ctx, struct json_object *interval);
	void *ctx;
};

void bc_client_cfg_defaults(struct bc_client_cfg *c);

/*
 * bc_client_run() - run the test.  Returns 0 and the result in *@out; or
 *   -EHOSTUNREACH/-ECONNREFUSED/-ETIMEDOUT/-ENOENT: agent unreachable;
 *   -EPROTONOSUPPORT: protocol version mismatch; -EACCES: authentication;
 *   -EADDRINUSE: a data port is taken; -EINVAL: the agent refused the plan;
 *   -EPROTO: the agent broke the protocol.  @err says which and what to do.
 */
int bc_client_run(const struct bc_client_cfg *c, struct json_object **out, struct bc_error *err);

/*
 * bc_client_peer_inspect() - ask the agent for its end's view (the
 * `inspect` message, docs/protocol.md): *@reply = {"type": "inspect",
 * "end": <inspect document of its egress bond, or {"interface", "bonds":
 * [], "reason"}>, "egress": <its egress interface>}; @local = this host's
 * address on the control connection (the test's source address), @peer the
 * agent's.  @meanwhile (may be NULL) is called with @local once the request
 * is on its way, so the caller can inspect its own end while the agent works.
 * Returns 0; -EOPNOTSUPP when the agent is older and does not know the
 * message; the errors of bc_client_run() for the connection.
 */
int bc_client_peer_inspect(const struct bc_client_cfg *c, struct json_object **reply,
			   struct sockaddr_storage *local, struct sockaddr_storage *peer,
			   void (*meanwhile)(void *ctx, const struct sockaddr_storage *local),
			   void *ctx, struct bc_error *err);

#endif
