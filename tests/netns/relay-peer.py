#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A controller that sends one `run-to` (docs/protocol.md "Relayed tests").

relay-peer.py AGENT KEYFILE PEER [PLAN_JSON_OVERRIDES]

Logs in to AGENT with the key in KEYFILE ('-': no key), asks it to run a
short forward UDP test towards PEER, and prints the reply as one JSON line:
{"reply": "relayed", "sent": N, "received": M} or {"reply": "error",
"code": ..., "message": ...}.  Framing and the proof come from
hostile-peer.py.
"""
import importlib.util
import json
import os
import sys

spec = importlib.util.spec_from_file_location(
    "hostile_peer", os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile-peer.py"))
hp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hp)

PLAN = {"test_id": 1, "protocol": "udp", "streams": 1, "direction": "forward",
        "duration_ms": 500, "omit_ms": 0, "interval_ms": 500, "tmax_ms": 300,
        "rate_bps_per_stream": 1000000, "length": 1000, "ip_version": 4,
        "dport": 5302, "socket_buffer": 0, "udp_gso": False}


def main():
    agent, keyfile, peer = sys.argv[1:4]
    plan = dict(PLAN)
    if len(sys.argv) > 4:
        plan.update(json.loads(sys.argv[4]))
    key = b"" if keyfile == "-" else hp.load_key(keyfile)
    s = hp.conn(agent, timeout=60)
    hp.login(s, key)
    s.sendall(hp.frame({"type": "run-to", "peer": peer, "port": hp.PORT, "plan": plan}))
    m = hp.read_msg(s)
    if m is None:
        hp.out(reply=None)
    elif m.get("type") == "relayed":
        st = m["result"]["streams"][0]
        hp.out(reply="relayed", sent=st.get("sent_packets"), received=st.get("received_packets"))
    else:
        hp.out(reply=m.get("type"), code=m.get("code"), message=m.get("message"))
    s.close()


if __name__ == "__main__":
    main()
