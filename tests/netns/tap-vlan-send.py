#!/usr/bin/env python3
# Send N bondcheck datagrams (BCK1 header, bondcheck/udp-header.h) tagged
# with 802.1Q VLAN VID on IFACE through an AF_PACKET socket: the tag is in
# the packet on egress (tap.sh vlan; the host kernel has no 8021q module).
# Usage: tap-vlan-send.py IFACE DST_MAC VID N  (IPv4 10.78.2.1 -> .2, then
# IPv6 fd78:2::1 -> ::2; stream 3 for IPv4, 4 for IPv6; seq 0..N-1)
import socket
import struct
import sys

ifname, dst, vid, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
src = s.getsockname()[4]
dmac = bytes.fromhex(dst.replace(":", ""))


def csum(b):
    if len(b) % 2:
        b += b"\0"
    t = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while t >> 16:
        t = (t & 0xFFFF) + (t >> 16)
    return ~t & 0xFFFF


for fam in (4, 6):
    for seq in range(n):
        pay = struct.pack("!IHHIIQQ", 0x42434B31, 1, 0, 3 if fam == 4 else 4, 7, seq, 0) + b"x" * 68
        udp = struct.pack("!HHHH", 40000, 5302, 8 + len(pay), 0) + pay
        if fam == 4:
            ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), seq & 0xFFFF, 0, 64, 17, 0,
                             socket.inet_pton(socket.AF_INET, "10.78.2.1"),
                             socket.inet_pton(socket.AF_INET, "10.78.2.2"))
            ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
            l3, et = ip + udp, 0x0800
        else:
            ip = struct.pack("!IHBB16s16s", 0x60000000, len(udp), 17, 64,
                             socket.inet_pton(socket.AF_INET6, "fd78:2::1"),
                             socket.inet_pton(socket.AF_INET6, "fd78:2::2"))
            l3, et = ip + udp, 0x86DD
        s.send(dmac + src + struct.pack("!HHH", 0x8100, vid, et) + l3)
