#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile control-protocol peer for tests/netns/hostile.sh.

hostile-peer.py ACTION AGENT_ADDR [ARGS...]; every reply from the agent is
printed as one JSON line {"reply": TYPE, "code": CODE, ...}; the end of a
connection as {"closed": true, "elapsed": SECONDS}.  Framing and the HMAC
proof follow docs/protocol.md (version 1, port 5301).
"""
import hashlib
import hmac
import json
import os
import selectors
import socket
import struct
import subprocess
import sys
import time

PORT = 5301


def out(**kw):
    print(json.dumps(kw), flush=True)


def frame(obj=None, body=None):
    if body is None:
        body = json.dumps(obj).encode()
    return b"BCK\x01" + struct.pack("!I", len(body)) + body


def conn(host, timeout=70, src=None):
    s = socket.create_connection((host, PORT), timeout=timeout,
                                 source_address=(src, 0) if src else None)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        b = s.recv(n - len(buf))
        if not b:
            return None
        buf += b
    return buf


def read_msg(s):
    """One message, or None when the agent closed the connection."""
    try:
        hdr = recv_exact(s, 8)
        if hdr is None:
            return None
        if hdr[:4] != b"BCK\x01":
            out(bad_magic=hdr.hex())
            return None
        (n,) = struct.unpack("!I", hdr[4:])
        body = recv_exact(s, n)
        return None if body is None else json.loads(body)
    except ConnectionResetError:
        return None


def drain(s, t0):
    """Print every reply until the agent closes; then the closing line."""
    while True:
        m = read_msg(s)
        if m is None:
            break
        out(reply=m.get("type"), code=m.get("code"), message=m.get("message"))
    out(closed=True, elapsed=round(time.monotonic() - t0, 2))
    s.close()


def expect(s, typ):
    m = read_msg(s)
    if not m or m.get("type") != typ:
        out(unexpected=m, wanted=typ)
        sys.exit(1)
    return m


def load_key(path):
    with open(path, "rb") as f:
        k = f.read()
    return k[:-1] if k.endswith(b"\n") else k


def mac(key, role, n1, n2):
    msg = ("bondcheck-ctl-v1 " + role).encode() + bytes.fromhex(n1) + bytes.fromhex(n2)
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def hello(s):
    s.sendall(frame({"type": "hello", "protocol": 1, "software": "hostile"}))
    return expect(s, "challenge")


def login(s, key):
    """Full handshake with @key; returns (auth message sent, welcome)."""
    ch = hello(s)
    cn = os.urandom(32).hex()
    auth = {"type": "auth", "nonce": cn, "mac": mac(key, "client", ch["nonce"], cn)}
    s.sendall(frame(auth))
    w = expect(s, "welcome")
    ok = w.get("mac") == mac(key, "agent", cn, ch["nonce"])
    return auth, w, ok, ch["nonce"]


def a_oversized(host):
    s, t0 = conn(host), time.monotonic()
    s.sendall(b"BCK\x01" + struct.pack("!I", 64 * 1024 + 1) + b"{" * 1024)
    drain(s, t0)


def a_truncated(host):
    s, t0 = conn(host), time.monotonic()
    hello(s)
    s.sendall(b"BCK\x01" + struct.pack("!I", 200) + b'{"type": "auth", "no')
    s.shutdown(socket.SHUT_WR)
    drain(s, t0)


def a_truncated_header(host):
    s, t0 = conn(host), time.monotonic()
    s.sendall(b"BCK\x01\x00")
    s.shutdown(socket.SHUT_WR)
    drain(s, t0)


def a_garbage_magic(host):
    s, t0 = conn(host), time.monotonic()
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    drain(s, t0)


def a_garbage_json(host, n="8"):
    s, t0 = conn(host), time.monotonic()
    for i in range(int(n)):
        s.sendall(frame(body=os.urandom(40) if i % 2 else b'{"type": 5, "x": [1,'))
    drain(s, t0)


def a_slow(host, gap="2"):
    """Slowloris: a hello frame dribbled one byte per GAP s (below any per-read timeout)."""
    s, t0 = conn(host), time.monotonic()
    data = frame({"type": "hello", "protocol": 1, "software": "s" * 40})
    try:
        for b in data:
            s.sendall(bytes([b]))
            s.settimeout(float(gap))
            try:
                m = read_msg(s)
                if m is not None:
                    out(reply=m.get("type"), code=m.get("code"), message=m.get("message"))
                break  # the agent replied or closed
            except socket.timeout:
                pass
    except (BrokenPipeError, ConnectionResetError):
        pass
    s.settimeout(70)
    drain(s, t0)


def a_wrong_key(host, keyfile):
    key = load_key(keyfile)
    s, t0 = conn(host), time.monotonic()
    ch = hello(s)
    cn = os.urandom(32).hex()
    bad = bytes([key[0] ^ 1]) + key[1:]
    s.sendall(frame({"type": "auth", "nonce": cn, "mac": mac(bad, "client", ch["nonce"], cn)}))
    drain(s, t0)


def a_replay(host, keyfile):
    key = load_key(keyfile)
    s = conn(host)
    auth, _, ok, n1 = login(s, key)
    out(first_login=True, agent_proof_ok=ok)
    s.close()
    s, t0 = conn(host), time.monotonic()
    ch = hello(s)
    out(fresh_nonce=ch["nonce"] != n1)
    s.sendall(frame(auth))  # the recorded proof, for the old challenge
    drain(s, t0)


def a_flood(host, n="1000"):
    """N rapid connections of three kinds, each to its close; counts replies."""
    counts = {}
    t0 = time.monotonic()
    for i in range(int(n)):
        s = conn(host, timeout=10)
        k = i % 3
        if k == 0:
            s.sendall(b"\x16\x03\x01garbage")
        elif k == 1:
            s.sendall(b"BCK\x01" + struct.pack("!I", 1 << 30))
        else:
            s.sendall(frame({"type": "hello", "protocol": 1}))
        while True:
            m = read_msg(s)
            if m is None or k == 2:
                key = "closed" if m is None else m.get("type")
                counts[key] = counts.get(key, 0) + 1
                break
            counts[m.get("code")] = counts.get(m.get("code"), 0) + 1
        s.close()
    out(flood=int(n), seconds=round(time.monotonic() - t0, 2), counts=counts)


def a_reflect(host, keyfile, third_ns, proto, *extra):
    """An authenticated plan that names a third host; the third host says hello."""
    key = load_key(keyfile)
    s = conn(host)
    _, _, ok, _ = login(s, key)
    plan = {"test_id": 4242, "protocol": proto, "streams": 2, "direction": "reverse",
            "duration_ms": 2000, "omit_ms": 0, "interval_ms": 1000, "tmax_ms": 200,
            "rate_bps_per_stream": 10000000, "length": 1000, "ip_version": 4,
            "dport": 5402, "socket_buffer": 0, "udp_gso": False}
    for k in extra:  # members naming the third address, which the agent must ignore
        plan[k] = os.environ["THIRD_ADDR"]
    s.sendall(frame({"type": "test", "plan": plan}))
    r = read_msg(s)
    out(reply=r.get("type"), code=r.get("code"), message=r.get("message"))
    if r.get("type") != "ready":
        sys.exit(1)
    ports = [str(x["port"]) for x in r["streams"]]
    third = subprocess.Popen(["ip", "netns", "exec", third_ns, sys.executable, __file__,
                              "third-" + proto, host, "4242"] + ports)
    time.sleep(0.3)
    s.sendall(frame({"type": "start"}))
    t_end = time.monotonic() + 3.0
    while time.monotonic() < t_end:
        s.settimeout(max(0.1, t_end - time.monotonic()))
        try:
            m = read_msg(s)
        except socket.timeout:
            continue
        if m is None:
            break
        if m.get("type") != "interval":
            out(reply=m.get("type"), code=m.get("code"), message=m.get("message"))
    third.wait()
    s.settimeout(30)
    s.sendall(frame({"type": "stop", "sent": []}))
    while True:
        m = read_msg(s)
        if m is None:
            break
        if m.get("type") == "result":
            sent = sum(st.get("sender", {}).get("sent_packets", 0) +
                       st.get("sender", {}).get("sent_bytes", 0) for st in m["streams"])
            out(reply="result", agent_sent=sent, streams=m["streams"])
        elif m.get("type") != "interval":
            out(reply=m.get("type"), code=m.get("code"), message=m.get("message"))
    s.close()


def a_third_udp(host, test_id, *ports):
    """Hello datagrams from the third host for 2.5 s; counts what comes back."""
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.setblocking(False)
    got = 0
    t_end = time.monotonic() + 2.5
    while time.monotonic() < t_end:
        for sid, p in enumerate(ports):
            h = b"BCK1" + struct.pack("!HHIIQQ", 1, 2, sid, int(test_id), 0, time.time_ns())
            u.sendto(h, (host, int(p)))
        time.sleep(0.05)
        try:
            while True:
                u.recv(65536)
                got += 1
        except BlockingIOError:
            pass
    out(third="udp", datagrams_received=got)


def a_third_tcp(host, test_id, *ports):
    """TCP data connections from the third host with the right test id."""
    got, accepted = 0, 0
    for sid in range(len(ports)):
        try:
            c = socket.create_connection((host, int(ports[sid])), timeout=2)
            c.sendall(b"BCKT" + struct.pack("!II", int(test_id), sid))
            c.settimeout(2.5)
            while True:
                b = c.recv(65536)
                if not b:
                    break
                got += len(b)
        except (socket.timeout, ConnectionResetError, ConnectionRefusedError):
            pass
        finally:
            accepted += 1
    out(third="tcp", bytes_received=got)


def a_hold(host, gap, *srcs):
    """Hold connections open: SRC:N opens N from address SRC at once.  With
    GAP > 0 each dribbles a hello one byte per GAP s, else sends nothing.
    Waits until the agent has closed every one (at most 60 s); prints one
    line: replies by code, and the close times of those answered `timeout`."""
    gap = float(gap)
    hello_b = frame({"type": "hello", "protocol": 1, "software": "h" * 200})
    sel = selectors.DefaultSelector()
    t0 = time.monotonic()
    conns = []
    for spec in srcs:
        src, n = spec.split(":")
        for _ in range(int(n)):
            s = conn(host, timeout=10, src=src)
            s.setblocking(False)
            c = {"s": s, "src": src, "buf": b"", "sent": 0, "code": None, "msg": None,
                 "closed": None}
            conns.append(c)
            sel.register(s, selectors.EVENT_READ, c)
    next_byte = t0
    while any(c["closed"] is None for c in conns) and time.monotonic() - t0 < 60:
        now = time.monotonic()
        if gap > 0 and now >= next_byte:
            for c in conns:
                if c["closed"] is None and c["sent"] < len(hello_b):
                    try:
                        c["s"].send(hello_b[c["sent"]:c["sent"] + 1])
                        c["sent"] += 1
                    except OSError:
                        pass
            next_byte = now + gap
        for key, _ in sel.select(timeout=0.2):
            c = key.data
            try:
                b = c["s"].recv(65536)
            except BlockingIOError:
                continue
            except ConnectionResetError:
                b = b""
            if not b:
                c["closed"] = round(time.monotonic() - t0, 2)
                sel.unregister(c["s"])
                c["s"].close()
                continue
            c["buf"] += b
            if c["code"] is None and len(c["buf"]) >= 8:
                (n,) = struct.unpack("!I", c["buf"][4:8])
                if len(c["buf"]) >= 8 + n:
                    m = json.loads(c["buf"][8:8 + n])
                    c["code"] = m.get("code") or m.get("type")
                    c["msg"] = m.get("message")
    codes, msgs, t_closed = {}, {}, []
    for c in conns:
        k = c["code"] or ("closed" if c["closed"] is not None else "open")
        codes[k] = codes.get(k, 0) + 1
        msgs.setdefault(k, c["msg"])
        if c["code"] == "timeout":
            t_closed.append(c["closed"])
        if c["closed"] is None:
            c["s"].close()
    out(hold=len(conns), codes=codes, messages=msgs,
        timeout_closed_min=min(t_closed) if t_closed else None,
        timeout_closed_max=max(t_closed) if t_closed else None)


def a_unexpected(host, keyfile, n="9"):
    """Authenticated, then N messages of a wrong type."""
    key = load_key(keyfile)
    s, t0 = conn(host), time.monotonic()
    login(s, key)
    for _ in range(int(n)):
        s.sendall(frame({"type": "stop"}))
    drain(s, t0)


def a_slow_plan(host, keyfile, gap="0.5"):
    """Authenticated, then a test plan dribbled one byte per GAP s: each
    byte keeps the connection alive, only the whole-setup deadline ends it."""
    key = load_key(keyfile)
    s = conn(host)
    login(s, key)
    t0 = time.monotonic()
    data = frame({"type": "test", "plan": {"test_id": 1, "protocol": "udp", "streams": 1}})
    s.settimeout(float(gap))
    try:
        for b in data:
            s.sendall(bytes([b]))
            try:
                m = read_msg(s)
                if m is not None:
                    out(reply=m.get("type"), code=m.get("code"), message=m.get("message"))
                break
            except socket.timeout:
                pass
    except (BrokenPipeError, ConnectionResetError):
        pass
    s.settimeout(10)
    drain(s, t0)


def a_pflood(host, n, wave, *srcs):
    """N connections in waves of WAVE at once, spread over the source
    addresses: TLS garbage, a 1 GiB header, or a hello (then gone)."""
    counts = {}
    t0 = time.monotonic()
    i = 0
    while i < int(n):
        socks = []
        for _ in range(min(int(wave), int(n) - i)):
            k = i % 3
            s = conn(host, timeout=10, src=srcs[i % len(srcs)])
            if k == 0:
                s.sendall(b"\x16\x03\x01garbage")
            elif k == 1:
                s.sendall(b"BCK\x01" + struct.pack("!I", 1 << 30))
            else:
                s.sendall(frame({"type": "hello", "protocol": 1}))
            socks.append(s)
            i += 1
        for s in socks:
            m = read_msg(s)
            key = "closed" if m is None else (m.get("code") or m.get("type"))
            counts[key] = counts.get(key, 0) + 1
            s.close()
    out(pflood=int(n), wave=int(wave), seconds=round(time.monotonic() - t0, 2),
        counts=counts)


if __name__ == "__main__":
    fn = globals().get("a_" + sys.argv[1].replace("-", "_"))
    if not fn:
        sys.exit("unknown action " + sys.argv[1])
    fn(*sys.argv[2:])
