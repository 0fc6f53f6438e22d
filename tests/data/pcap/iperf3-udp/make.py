#!/usr/bin/env python3
# Writes tx-eth0.pcap and rx-eth0.pcap: 40 UDP datagrams of an iperf3-like
# generator (10.0.0.1:40000 -> 10.0.0.2:5201, 100-byte payload: 32-bit
# seconds, 32-bit microseconds, 32-bit packet counter from 1, network byte
# order, as iperf3's iperf_udp.c writes them) leaving on eth0; the 7th and
# 23rd are missing from the receiver's capture.  bondcheck analyze has no
# bondcheck header to attribute here: it must count them and say so
# (issue 15 item 4), not report "lost 0".  Run it in this folder.
import struct

def ip_csum(h):
    s = sum(struct.unpack('!10H', h))
    s = (s & 0xffff) + (s >> 16)
    s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff

def frame(i, t):
    payload = struct.pack('!III', 1733100000 + int(t), int((t % 1) * 1e6), i + 1) + bytes(88)
    udp = struct.pack('!HHHH', 40000, 5201, 8 + len(payload), 0) + payload
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 1000 + i, 0x4000, 64, 17, 0,
                     bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    ip = ip[:10] + struct.pack('!H', ip_csum(ip)) + ip[12:]
    eth = bytes.fromhex('020000000002' '020000000001' '0800')
    return eth + ip + udp

def write(name, skip, delay):
    with open(name, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i in range(40):
            if i in skip:
                continue
            t = 0.001 * i + delay
            data = frame(i, t)
            f.write(struct.pack('<IIII', 1733100000 + int(t), int(round((t % 1) * 1e6)),
                                len(data), len(data)))
            f.write(data)

write('tx-eth0.pcap', (), 0.0)
write('rx-eth0.pcap', (6, 22), 0.0002)
