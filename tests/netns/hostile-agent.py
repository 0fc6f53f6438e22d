#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile agent for tests/netns/hostile.sh (case `agent`): what a client of
a malicious or broken `bondcheck serve` must survive.

hostile-agent.py ACTION PORT [ARGS...] serves one client on PORT, then exits:
  null-error            answers the hello with an error whose code and message are JSON null
  interval-flood N      a normal session, but N interval messages right after `started`
  no-result             a normal session, but after `stop` only intervals, one a second,
                        never a result
  late-interval         a normal session whose last interval (of duration / interval)
                        comes after `stop`, just before the result
Prints one JSON line {"action": ..., ...} when the client has gone.
Framing: docs/protocol.md.
"""
import json
import socket
import struct
import sys
import time


def frame(obj):
    body = json.dumps(obj).encode()
    return b"BCK\x01" + struct.pack("!I", len(body)) + body


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        b = s.recv(n - len(buf))
        if not b:
            return None
        buf += b
    return buf


def read_msg(s):
    hdr = recv_exact(s, 8)
    if hdr is None:
        return None
    (n,) = struct.unpack("!I", hdr[4:])
    body = recv_exact(s, n)
    return None if body is None else json.loads(body)


def accept_one(port):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", int(port)))
    ls.listen(1)
    print(json.dumps({"listening": int(port)}), flush=True)
    c, _ = ls.accept()
    ls.close()
    return c


def session_to_start(c):
    """hello .. started; returns the plan and the UDP sinks (kept open)."""
    read_msg(c)
    c.sendall(frame({"type": "challenge", "protocol": 1, "nonce": "00" * 32,
                     "auth_required": False}))
    read_msg(c)
    c.sendall(frame({"type": "welcome", "software": "hostile"}))
    plan = read_msg(c)["plan"]
    sinks = []
    for i in range(plan["streams"]):
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.bind(("0.0.0.0", plan["dport"] + i))
        sinks.append(u)
    c.sendall(frame({"type": "ready", "streams": [{"id": i, "port": plan["dport"] + i}
                                                 for i in range(plan["streams"])]}))
    read_msg(c)  # start
    c.sendall(frame({"type": "started"}))
    return plan, sinks


def interval(k):
    return frame({"type": "interval", "index": k, "seconds": 0.001 * k,
                  "streams": [{"id": 0, "received_packets": k, "received_bytes": 1000 * k}]})


def result(plan):
    return frame({"type": "result", "tmax_ms": plan["tmax_ms"],
                  "streams": [{"id": i} for i in range(plan["streams"])],
                  "counters": {}, "metadata": {}})


def a_null_error(port):
    c = accept_one(port)
    read_msg(c)
    c.sendall(frame({"type": "error", "code": None, "message": None}))
    time.sleep(0.5)
    c.close()
    print(json.dumps({"action": "null-error"}), flush=True)


def a_interval_flood(port, n):
    c = accept_one(port)
    plan, _ = session_to_start(c)
    t0 = time.monotonic()
    burst = b"".join(interval(k) for k in range(1000))
    for _ in range(int(n) // 1000):
        c.sendall(burst)
    sent_s = round(time.monotonic() - t0, 2)
    while True:
        m = read_msg(c)
        if m is None or m.get("type") == "stop":
            break
    if m is not None:
        c.sendall(result(plan))
        time.sleep(0.5)
    c.close()
    print(json.dumps({"action": "interval-flood", "intervals_sent": int(n) // 1000 * 1000,
                      "seconds": sent_s}), flush=True)


def a_no_result(port):
    c = accept_one(port)
    session_to_start(c)
    while True:
        m = read_msg(c)
        if m is None or m.get("type") == "stop":
            break
    t0 = time.monotonic()
    k = 0
    try:
        while True:
            c.sendall(interval(k))
            k += 1
            c.settimeout(1.0)
            try:
                if c.recv(1) == b"":
                    break
            except socket.timeout:
                pass
    except (BrokenPipeError, ConnectionResetError):
        pass
    c.close()
    print(json.dumps({"action": "no-result", "intervals_after_stop": k,
                      "client_gone_after": round(time.monotonic() - t0, 2)}), flush=True)


def a_late_interval(port):
    c = accept_one(port)
    plan, _ = session_to_start(c)
    n = plan["duration_ms"] // plan["interval_ms"]
    for k in range(n - 1):
        c.sendall(interval(k + 1))
    while True:
        m = read_msg(c)
        if m is None or m.get("type") == "stop":
            break
    if m is not None:
        c.sendall(interval(n))
        c.sendall(result(plan))
        time.sleep(0.5)
    c.close()
    print(json.dumps({"action": "late-interval", "intervals_sent": n}), flush=True)


if __name__ == "__main__":
    fn = globals().get("a_" + sys.argv[1].replace("-", "_"))
    if not fn:
        sys.exit("unknown action " + sys.argv[1])
    fn(*sys.argv[2:])
