#!/usr/bin/env python3
# Writes {tx,rx}-eth{0,1,2}.pcap and expected.json: iperf3 UDP tests over a
# balance-rr bond of three links, 10.0.0.1 (client, tx:) -> 10.0.0.2 (server,
# rx:), payloads as iperf3's iperf_udp.c writes them (network byte order:
# 32-bit seconds of the sender's CLOCK_MONOTONIC, 32-bit microseconds, then
# the packet counter from 1, 32-bit or 64-bit with --udp-counters-64bit).
#
#  test 1 (control JSON on TCP 50000, no "udp_counters_64bit": 32-bit):
#    stream A  40000 -> 5201, 45 datagrams of 100 bytes
#    stream C  40002 -> 5201, 9 datagrams of 3000 bytes (-l 3000: 3 IPv4
#              fragments each, only the first carries the header)
#  test 2 (control JSON on TCP 50001 with "udp_counters_64bit":1):
#    stream B  40001 -> 5201, 30 datagrams of 100 bytes, 64-bit counter
#  each stream starts with iperf3's 4-byte connect datagram (client -> server,
#  0x36373839 written in x86 host order) and its reply (server -> client);
#  not iperf3: 20 datagrams of random bytes (40100 -> 9999) and 10 of 8 bytes
#  (40101 -> 9998): they stay "udp_other".
#
# Every IP packet the client sends goes round-robin over eth0, eth1, eth2
# (balance-rr); the replies come back on eth0.  Impairments between the taps:
#  - every 7th data packet (a unit: datagram or fragment) that leaves on eth1
#    is lost;
#  - the first data packet of stream A on eth2 from counter 14 on arrives
#    1.5 ms late: behind the next packet (on eth0), before the next on eth2;
#  - one datagram of B (counter 10) arrives twice.
# expected.json holds what `bondcheck analyze -j` must find, computed here
# from the generated packets (RFC 4737 late packets and their early link;
# per link the bracketed losses), not from bondcheck's code.
# Run it in this folder: python3 make.py
import json
import random
import struct

CLIENT, SERVER = bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])
T0 = 1733100000  # capture clock (wall clock), s
MONO0 = 5000  # the sender's CLOCK_MONOTONIC at T0, s
MTU = 1500


def ip_csum(h):
    s = sum(struct.unpack('!10H', h))
    s = (s & 0xffff) + (s >> 16)
    s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


def ipv4(src, dst, proto, ident, flags_off, payload):
    h = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(payload), ident, flags_off, 64, proto, 0,
                    src, dst)
    h = h[:10] + struct.pack('!H', ip_csum(h)) + h[12:]
    mac = {CLIENT: '020000000001', SERVER: '020000000002'}
    return bytes.fromhex(mac[dst] + mac[src] + '0800') + h + payload


def iperf_payload(t, counter, bits, size):
    mono = MONO0 + t
    sec, usec = int(mono), int(round((mono % 1) * 1e6)) % 1000000
    if bits == 64:
        hdr = struct.pack('!IIQ', sec, usec, counter)
    else:
        hdr = struct.pack('!III', sec, usec, counter)
    return hdr + bytes(size - len(hdr))


ip_id = [1000]


def udp_packets(src, dst, sport, dport, payload):
    """The IP packets of one UDP datagram: [(frag_off, bytes)]."""
    udp = struct.pack('!HHHH', sport, dport, 8 + len(payload), 0) + payload
    ip_id[0] += 1
    if 20 + len(udp) <= MTU:
        return [(0, ipv4(src, dst, 17, ip_id[0], 0x4000, udp))]
    out, step = [], (MTU - 20) // 8 * 8
    for off in range(0, len(udp), step):
        part = udp[off:off + step]
        mf = 0x2000 if off + step < len(udp) else 0
        out.append((off, ipv4(src, dst, 17, ip_id[0], mf | off // 8, part)))
    return out


def tcp_packet(sport, dport, seq, payload):
    tcp = struct.pack('!HHIIBBHHH', sport, dport, seq, 1, 5 << 4, 0x18, 65535, 0, 0) + payload
    ip_id[0] += 1
    return ipv4(CLIENT, SERVER, 6, ip_id[0], 0x4000, tcp)


def params(extra):
    j = '{"udp":true,"omit":0,"time":1,"num":0,"blockcount":0,"parallel":%d,"len":%d,' \
        '"bandwidth":1000000,"pacing_timer":1000,%s"client_version":"3.12"}' % extra
    return struct.pack('!I', len(j)) + j.encode()


# sent: (t, kind, stream, counter, frag_off, frame); kind: data, conn, other, tcp
sent = []
replies = []  # (t, frame): server -> client, on eth0
rng = random.Random(15)
connect = struct.pack('<I', 0x36373839)  # written in host (x86) order by iperf3
reply = struct.pack('<I', 0x39383736)

sent.append((0.000, 'tcp', None, 0, 0, tcp_packet(50000, 5201, 1000, params((2, 100, '')))))
for name, sport, t in (('A', 40000, 0.002), ('C', 40002, 0.003)):
    for off, f in udp_packets(CLIENT, SERVER, sport, 5201, connect):
        sent.append((t, 'conn', name, 0, off, f))
    for off, f in udp_packets(SERVER, CLIENT, 5201, sport, reply):
        replies.append((t + 0.0005, f))
for k in range(45):
    t = 0.010 + 0.001 * k
    for off, f in udp_packets(CLIENT, SERVER, 40000, 5201, iperf_payload(t, k + 1, 32, 100)):
        sent.append((t, 'data', 'A', k + 1, off, f))
for k in range(9):
    t = 0.0105 + 0.005 * k
    for i, (off, f) in enumerate(udp_packets(CLIENT, SERVER, 40002, 5201,
                                             iperf_payload(t, k + 1, 32, 3000))):
        sent.append((t + 0.0001 * i, 'data', 'C', k + 1, off, f))
for k in range(20):
    t = 0.0107 + 0.002 * k
    for off, f in udp_packets(CLIENT, SERVER, 40100, 9999,
                              bytes(rng.randrange(256) for _ in range(40))):
        sent.append((t, 'other', None, 0, off, f))
for k in range(10):
    t = 0.0109 + 0.003 * k
    for off, f in udp_packets(CLIENT, SERVER, 40101, 9998, bytes(8)):
        sent.append((t, 'other', None, 0, off, f))
sent.append((0.100, 'tcp', None, 0, 0,
             tcp_packet(50001, 5201, 5000, params((1, 100, '"udp_counters_64bit":1,')))))
for off, f in udp_packets(CLIENT, SERVER, 40001, 5201, connect):
    sent.append((0.102, 'conn', 'B', 0, off, f))
for off, f in udp_packets(SERVER, CLIENT, 5201, 40001, reply):
    replies.append((0.1025, f))
for k in range(30):
    t = 0.110 + 0.001 * k
    for off, f in udp_packets(CLIENT, SERVER, 40001, 5201, iperf_payload(t, k + 1, 64, 100)):
        sent.append((t, 'data', 'B', k + 1, off, f))
sent.sort(key=lambda x: x[0])

# balance-rr over the client's packets; impairments; arrivals
tx = {l: [] for l in range(3)}
rx = {l: [] for l in range(3)}
arrivals = []  # (t, link, stream, counter, frag_off) of data packets
left = []  # (link, stream, counter, frag_off)
eth1_data = 0
late_done = False
for n, (t, kind, stream, counter, off, f) in enumerate(sent):
    link = n % 3
    tx[link].append((t, f))
    lost = False
    arr = t + 0.0002
    if kind == 'data':
        left.append((link, stream, counter, off))
        if link == 1:
            eth1_data += 1
            lost = eth1_data % 7 == 0
        if link == 2 and stream == 'A' and counter >= 14 and not late_done:
            arr += 0.0015
            late_done = True
    if lost:
        continue
    rx[link].append((arr, f))
    if kind == 'data':
        arrivals.append((arr, link, stream, counter, off))
        if stream == 'B' and counter == 10:
            rx[link].append((arr + 0.0001, f))
            arrivals.append((arr + 0.0001, link, stream, counter, off))
for t, f in replies:
    rx[0].append((t, f))
    tx[0].append((t + 0.0002, f))


def write(name, pkts):
    with open(name, 'wb') as fh:
        fh.write(struct.pack('<IHHiIII', 0xa1b23c4d, 2, 4, 0, 0, 65535, 1))  # ns pcap
        for t, f in sorted(pkts, key=lambda x: x[0]):
            ts = round((T0 + t) * 1e9)
            fh.write(struct.pack('<IIII', ts // 10**9, ts % 10**9, len(f), len(f)))
            fh.write(f)


for l in range(3):
    write('tx-eth%d.pcap' % l, tx[l])
    write('rx-eth%d.pcap' % l, rx[l])

# expected, from the packets above: units (datagrams or fragments) left on a
# link and never arrived are lost when a later counter of their stream arrived
arrivals.sort(key=lambda x: x[0])
arrived = {(s, c, o) for _, _, s, c, o in arrivals}
max_arr = {}
for _, _, s, c, _ in arrivals:
    max_arr[s] = max(max_arr.get(s, 0), c)
links = {}
for l in range(3):
    links['tx:eth%d' % l] = {'units_left': 0, 'lost': 0, 'unbracketed': 0}
    links['rx:eth%d' % l] = {'units_arrived': 0}
for l, s, c, o in left:
    e = links['tx:eth%d' % l]
    e['units_left'] += 1
    if (s, c, o) not in arrived:
        e['lost' if c < max_arr[s] else 'unbracketed'] += 1
seen = set()
for _, l, s, c, o in arrivals:
    if (s, c, o) not in seen:
        links['rx:eth%d' % l]['units_arrived'] += 1
        seen.add((s, c, o))

# RFC 4737 section 4.2: an arrival (first fragments and whole datagrams, once)
# with a counter below the next expected one is late; its pair's early link is
# the link of the earliest arrival of the stream with a larger counter.
pairs, streams = {}, {}
for name, bits in (('A', 32), ('C', 32), ('B', 64)):
    order = []
    got = set()
    for _, l, s, c, o in arrivals:
        if s == name and o == 0 and c not in got:
            got.add(c)
            order.append((c, l))
    nxt, late = 0, 0
    for i, (c, l) in enumerate(order):
        if c >= nxt:
            nxt = c + 1
            continue
        late += 1
        early = next(l2 for c2, l2 in order[:i] if c2 > c)
        key = ('rx:eth%d' % early, 'rx:eth%d' % l)
        pairs[key] = pairs.get(key, 0) + 1
    dgrams = {c for _, st, c, o in left if st == name and o == 0}
    whole = {c for c in dgrams if (name, c, 0) in arrived}
    streams[name] = {'generator': 'iperf3', 'counter_bits': bits, 'counter_source': 'control',
                     'left': len(dgrams), 'arrived': len(whole),
                     'lost': sum(1 for c in dgrams - whole if c < max_arr[name]),
                     'duplicates': 1 if name == 'B' else 0, 'reordered': late}
other = {'tx:eth%d' % l: sum(1 for n, x in enumerate(sent) if x[1] == 'other' and n % 3 == l)
         for l in range(3)}
conn = {}
for l in range(3):
    conn['tx:eth%d' % l] = sum(1 for n, x in enumerate(sent) if x[1] == 'conn' and n % 3 == l) + \
        (len(replies) if l == 0 else 0)
    conn['rx:eth%d' % l] = conn['tx:eth%d' % l]
expected = {
    'links': links,
    'udp_other': other,
    'iperf3_connect': conn,
    'pairs': [{'early_link': e, 'late_link': l, 'count': c} for (e, l), c in sorted(pairs.items())],
    'streams': [streams[n] for n in ('A', 'B', 'C')],
}
with open('expected.json', 'w') as fh:
    json.dump(expected, fh, indent=1, sort_keys=True)
    fh.write('\n')
