#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Structure tests of the SVG plots (bondcheck/plot.h), label unit.

    check-plots.py RENDER DATA_DIR BONDCHECK PCAP_DIR

RENDER is bc-plot-render (tests/plot/bc-plot-render.c), DATA_DIR holds the
test JSON (tests/plot/data), BONDCHECK the built bondcheck and PCAP_DIR
tests/data/pcap.  Each plot is rendered from known input into a temporary
folder, parsed with xml.etree and checked for what could be wrong: the
titles and axis labels, as many series, points and bars as the input has,
values in proportion to the input, the events where they happened; bad
input gives the documented error and leaves no file; one process renders
more plots than PLplot has streams.  SVG bytes are not compared (PLplot's
output may vary between versions).
"""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
BLUE, ORANGE, GREEN, PURPLE = "#1F77B4", "#FF7F0E", "#2CA02C", "#9467BD"
RED, BAND, MUTED, FAIL, FG = "#D62728", "#C6DBEF", "#E3E3E3", "#F6D0D0", "#222222"

RENDER, DATA, BONDCHECK, PCAPS = sys.argv[1:5]
TMP = tempfile.mkdtemp(prefix="bc-plots-")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def load(name):
    with open(os.path.join(DATA, name)) as f:
        return json.load(f)


def render(*triples):
    """Render (kind, doc, name) triples in one process; per-triple result lines."""
    args = [RENDER]
    for i, (kind, doc, name) in enumerate(triples):
        src = os.path.join(TMP, "in-%d-%s.json" % (i, name))
        with open(src, "w") as f:
            json.dump(doc, f)
        args += [kind, src, os.path.join(TMP, name + ".svg")]
    r = subprocess.run(args, capture_output=True, text=True, timeout=240)
    if r.returncode not in (0, 1):
        raise SystemExit("bc-plot-render failed: %d %s" % (r.returncode, r.stderr))
    check(r.stderr == "", "no output on stderr (PLplot must not print), got %r" % r.stderr[:300])
    return r.stdout.splitlines()


class Svg:
    def __init__(self, path):
        self.root = ET.parse(path).getroot()  # raises on malformed XML
        self.texts = ["".join(t.itertext()) for t in self.root.iter(NS + "text")]
        self.lines, self.fills = [], []
        for p in self.root.iter(NS + "polyline"):
            pts = [tuple(float(v) for v in xy.split(",")) for xy in p.get("points").split()]
            if p.get("fill") in (None, "none"):
                self.lines.append((p.get("stroke"), pts))
            else:
                self.fills.append((p.get("fill"), pts))

    def has_text(self, s):
        return any(s in t for t in self.texts)

    def lines_with(self, n):
        """Polylines of exactly n points: data series (axes and ticks have 2)."""
        return [l for l in self.lines if len(l[1]) == n]

    def fills_of(self, color, min_pts=4):
        return [f for f in self.fills if f[0] == color and len(f[1]) >= min_pts]


def good(name, result, texts=()):
    """A rendered plot: ok, well-formed, with the texts given."""
    path = os.path.join(TMP, name + ".svg")
    if not check(result == "ok", "%s rendered, got %r" % (name, result)):
        return None
    try:
        svg = Svg(path)
    except ET.ParseError as e:
        check(False, "%s is well-formed XML: %s" % (name, e))
        return None
    check(svg.root.tag == NS + "svg", "%s: root element svg" % name)
    for t in texts:
        check(svg.has_text(t), "%s: text %r present" % (name, t))
    return svg


def bad(name, result, errname, msg):
    """A rejected input: the error named, the message, no file, no leftovers."""
    check(result.startswith(errname + " "), "%s: error %s, got %r" % (name, errname, result))
    check(msg in result, "%s: message contains %r, got %r" % (name, msg, result))
    check(not os.path.exists(os.path.join(TMP, name + ".svg")), "%s: no file written" % name)


def proportional(pairs, what, tol=0.02):
    """Each (measured, expected) pair scales the same: measured / expected constant."""
    ratios = [m / e for m, e in pairs if e]
    ok = ratios and max(ratios) - min(ratios) <= tol * max(abs(r) for r in ratios)
    return check(ok, "%s: plotted values proportional to the input (%s)" % (what, ratios[:8]))


# ---- per-link timeline -------------------------------------------------------
tl = load("timeline.json")
nb = len(tl["timeline"]["links"][0]["wire_bytes"])
rev = copy.deepcopy(tl)
for l in rev["timeline"]["links"]:
    l["wire_bytes"], l["reverse_wire_bytes"] = l["reverse_wire_bytes"], l["wire_bytes"]
txonly = copy.deepcopy(tl)
txonly["timeline"]["links"] = [l for l in tl["timeline"]["links"] if l["side"] == "tx"]
res = render(("timeline", tl, "tl"), ("timeline", rev, "tl-rev"),
             ("timeline", tl["timeline"], "tl-bare"), ("timeline", txonly, "tl-tx"))
svg = good("tl", res[0], ["Per-link throughput over time", "Mbit/s", "100 ms bins",
                          "Leaving the sender (tx: captures)",
                          "Arriving at the receiver (rx: captures)",
                          "time (s) from the start of the first bin"] +
           [l["name"] for l in tl["timeline"]["links"]])
if svg:
    series = svg.lines_with(nb)
    check(len(series) == 6, "tl: one line of %d points per link (6), got %d" % (nb, len(series)))
    # per panel: blue eth0, orange eth1 (stalled in bins 20-22), green eth2
    for panel in range(2):
        lines = series[3 * panel:3 * panel + 3]
        check([c for c, _ in lines] == [BLUE, ORANGE, GREEN], "tl: series colours in order")
        zero = min(y for _, y in lines[1][1])  # y grows upwards (the SVG group flips it)
        stalled = [i for i, (_, y) in enumerate(lines[1][1]) if abs(y - zero) < 0.01]
        check(stalled == [20, 21, 22], "tl: eth1 at 0 Mbit/s in bins 20-22, got %s" % stalled)
        src = tl["timeline"]["links"][3 * panel]["wire_bytes"]
        proportional([(y - zero, v) for (_, y), v in zip(lines[0][1], src)], "tl eth0")
        xs = [x for x, _ in lines[0][1]]
        steps = [b - a for a, b in zip(xs, xs[1:])]
        check(max(steps) - min(steps) <= 0.06, "tl: bins evenly spaced (%s)" % steps[:5])
svg = good("tl-rev", res[1], ["Leaving the sender (rx: captures, reverse direction)",
                              "Arriving at the receiver (tx: captures, reverse direction)"])
if svg:
    check(len(svg.lines_with(nb)) == 6, "tl-rev: 6 lines")
svg = good("tl-bare", res[2], ["Per-link throughput over time"])
svg = good("tl-tx", res[3], ["Leaving the sender (tx: captures)"])
if svg:
    check(len(svg.lines_with(nb)) == 3, "tl-tx: 3 lines, one panel")
    check(not svg.has_text("Arriving at the receiver"), "tl-tx: no receiver panel")

# ---- reorder density ---------------------------------------------------------
rd = load("density.json")
res = render(("density", rd, "rd"), ("density", {"reordering": rd}, "rd-nested"))
svg = good("rd", res[0], ["Reorder density (RFC 5236)", "displacement D (packets)",
                          "share of datagrams (log scale)", "RFC 4737 reordered ratio 1.2 %",
                          "observed at receiver app", "9800", "90", "-8", "8"])
if svg:
    # bars (and one legend box per colour): 2 early, 1 in order, 4 late
    counts = {c: len(svg.fills_of(c)) for c in (BLUE, GREEN, ORANGE)}
    check(counts == {BLUE: 3, GREEN: 2, ORANGE: 5}, "rd: 7 bars + 3 legend boxes, got %s" % counts)
    # log scale: bar tops differ as log10 of the counts
    tops = {}
    for c, pts in svg.fills_of(BLUE) + svg.fills_of(GREEN) + svg.fills_of(ORANGE):
        xs = [x for x, _ in pts]
        tops[round(sum(xs) / len(xs), 1)] = max(y for _, y in pts)
    bars = [tops[x] for x in sorted(tops)][:7]  # legend boxes sit right of the plot
    total = sum(rd["reorder_density"].values())
    import math
    want = [math.log10(rd["reorder_density"][k] / total) for k in ("-2", "-1", "0", "1", "2", "3", "5")]
    proportional([(bars[i] - bars[2], want[i] - want[2]) for i in range(7)], "rd log heights")
svg = good("rd-nested", res[1], ["Reorder density (RFC 5236)"])

# ---- loss ledger -------------------------------------------------------------
lg = load("ledger.json")
offline = {"ledger": [{"stage": "sent_by_app", "count": None, "absent_offline": True},
                      {"stage": "left_on_link", "count": 19998},
                      {"stage": "arrived_on_link", "count": 19653},
                      {"stage": "reassembled", "count": 19653},
                      {"stage": "reached_socket", "count": None},
                      {"stage": "read_by_app", "count": None}]}
res = render(("ledger", lg, "lg"), ("ledger", lg["ledger"], "lg-array"), ("ledger", offline, "lg-off"))
svg = good("lg", res[0], ["Loss ledger", "sent by app", "left on link", "arrived on link",
                          "reassembled", "reached socket", "read by app", "datagrams",
                          "sent by app 20000 -> read by app 19000: 1000 lost (5 %)",
                          "-350 (1.75 %)", "read by app: -600 (agent Udp RcvbufErrors +600)",
                          "y axis starts above 0"])
if svg:
    check(len(svg.fills_of(BLUE)) == 6 + 1, "lg: 6 stage bars + legend, got %d" % len(svg.fills_of(BLUE)))
    reds = svg.fills_of(RED)
    check(len(reds) == 3 + 1, "lg: 3 loss bars + legend, got %d" % len(reds))
    h = [max(y for _, y in p) - min(y for _, y in p) for _, p in reds[:3]]
    proportional(list(zip(h, [50, 350, 600])), "lg red heights")
    check(not svg.fills_of(MUTED), "lg: no 'not measured' bar or legend entry")
svg = good("lg-array", res[1], ["Loss ledger"])
svg = good("lg-off", res[2], ["left on link 19998 -> reassembled 19653: 345 lost (1.73 %)",
                              "not measured"])
if svg:
    check(len(svg.fills_of(MUTED)) == 3 + 1, "lg-off: 3 grey bars + legend")
    check(sum(t == "not measured" for t in svg.texts) == 3 + 1, "lg-off: 3 labels + legend")

# ---- scaling -----------------------------------------------------------------
sc = load("scale.json")
res = render(("scaling", sc, "sc"))
svg = good("sc", res[0], ["Scaling: goodput against the number of links", "active links N",
                          "goodput (Mbit/s)", "tcp, 6 flows, method links; 3 configurations, 15 runs",
                          "scaling-negative", "95 % CI of the mean", "1", "2", "3"])
if svg:
    runs = svg.fills_of(ORANGE)
    check(len(runs) == 15, "sc: one dot per run (15), got %d" % len(runs))
    means = svg.fills_of(BLUE)
    check(len(means) == 3, "sc: one mean dot per config (3), got %d" % len(means))
    check(len(svg.fills_of(BAND)) == 2 + 1, "sc: CI band between 3 configs (2) + legend")
    mline = [l for l in svg.lines_with(3) if l[0] == BLUE]
    check(len(mline) == 1, "sc: the mean line through 3 configs")
    if mline:
        # the mean's dots sit where the line is, and heights follow mean_bps
        ys = [y for _, y in mline[0][1]]
        zero_guess = None
        m = [c["mean_bps"] for c in sc["configs"]]
        # y = a + b * mean: solve with the first two, check the third
        b = (ys[1] - ys[0]) / (m[1] - m[0])
        check(abs(ys[0] + b * (m[2] - m[0]) - ys[2]) < 0.5, "sc: mean line linear in mean_bps")

# ---- sweep -------------------------------------------------------------------
sw = load("sweep.json")
rate = {"param": "rate", "points": [{"value": v * 1e6, "mean_bps": v * 0.98e6} for v in (10, 20, 40)]}
res = render(("sweep", sw, "sw"), ("sweep", rate, "sw-rate"))
svg = good("sw", res[0], ["Sweep: goodput against message size (bytes)", "message size (bytes)",
                          "goodput (Mbit/s)", "udp, 4 values", "ceiling", "1500"])
if svg:
    check(len(svg.fills_of(BLUE)) == 4, "sw: 4 points, got %d" % len(svg.fills_of(BLUE)))
    check(len([l for l in svg.lines_with(4) if l[0] == BLUE]) == 1, "sw: the mean line")
    xs = sorted(sum(x for x, _ in p) / len(p) for _, p in svg.fills_of(BLUE))
    vals = [p["value"] for p in sw["points"]]
    proportional([(x - xs[0], v - vals[0]) for x, v in zip(xs, vals)], "sw x positions")
svg = good("sw-rate", res[1], ["offered rate (Mbit/s)", "40"])

# ---- heatmap -----------------------------------------------------------------
mx = load("matrix.json")
res = render(("heatmap", mx, "hm"))
svg = good("hm", res[0], ["Cluster matrix", "sending host", "receiving host", "goodput (Mbit/s)",
                          "936", "(99 %)", "308", "no answer", "not tested"] + mx["hosts"])
if svg:
    known = {FG, MUTED, FAIL, "#FFFFFF", "#DDDDDD"}
    cells = [f for f in svg.fills if f[0] not in known and not f[0].startswith("url(")]
    vals = {(p["from"], p["to"]): p["goodput_bps"] for p in mx["pairs"]}
    order = [vals[(f, t)] for f in mx["hosts"] for t in mx["hosts"]
             if (f, t) in vals and vals[(f, t)] is not None]
    check(len(cells) == len(order) == 10, "hm: 10 measured cells, got %d" % len(cells))
    for (color, _), v in zip(cells, order):
        frac = v / 1e9  # the colour scale runs 0..1000 Mbit/s here
        want = [round(255 * (a + (b - a) * frac)) for a, b in ((0.94, 0.03), (0.96, 0.26), (1.0, 0.58))]
        got = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
        check(all(abs(g - w) <= 5 for g, w in zip(got, want)),
              "hm: cell of %.0f Mbit/s coloured %s, expected about %s" % (v / 1e6, color, want))
    check(sum(t == "node3" for t in svg.texts) == 2, "hm: each host labels a row and a column")

# ---- failover timeline -------------------------------------------------------
fo = load("failover.json")
t0 = fo["timeline"]["start_ns"]
win = dict(fo, from_ns=t0 + 400000000, to_ns=t0 + 800000000)
fwd_only = copy.deepcopy(fo)
for l in fwd_only["timeline"]["links"]:
    del l["reverse_frames"]
res = render(("failover", fo, "fo"), ("failover", win, "fo-win"), ("failover", fwd_only, "fo-fwd"))
nbf = len(fo["timeline"]["links"][0]["frames"])
svg = good("fo", res[0], ["Failover timeline: datagrams per 10 ms on each slave", "eth0 down",
                          "eth0 up", 'time from "eth0 down" (ms)', "datagrams per bin",
                          "Forward: datagrams arriving on the receiver's (rx:) slaves",
                          "Reverse: datagrams arriving on the sender's (tx:) slaves",
                          "rx:agent/eth0", "tx:client/eth1"])
if svg:
    steps = svg.lines_with(2 * nbf)
    check(len(steps) == 4, "fo: 2 panels x 2 slaves, steps of %d points, got %d" % (2 * nbf, len(steps)))
    check(sum(t == "eth0 down" for t in svg.texts) == 2, "fo: the event marked in both panels")
    # the event lines (red) give the ms scale: eth0 down at 0, eth0 up at +605 ms
    ev = sorted({round(pts[0][0], 2) for c, pts in svg.lines if c == RED and len(pts) == 2})
    if check(len(ev) == 2, "fo: two event positions, got %s" % ev) and len(steps) == 4:
        px_ms = (ev[1] - ev[0]) / 605.0
        (c0, a), (c1, b) = steps[0], steps[1]
        base = min(y for _, y in a)
        last0 = max(x for x, y in a if y > base + 0.01)   # eth0's last datagrams
        first1 = min(x for x, y in b if y > base + 0.01)  # eth1 takes over
        gap = (first1 - last0) / px_ms
        check(abs(gap - 150) < 2, "fo: the gap drawn is 150 ms, got %.1f" % gap)
        check(abs((last0 - ev[0]) / px_ms - 5) < 2, "fo: eth0 stops 5 ms after the event")
svg = good("fo-win", res[1], ["eth0 down"])
if svg:
    check(len(svg.lines_with(80)) == 4, "fo-win: 40 bins of the window (80 points) per line")
    check(not svg.has_text("eth0 up"), "fo-win: the event outside the window is not drawn")
svg = good("fo-fwd", res[2], ["Forward: datagrams"])
if svg:
    check(not svg.has_text("Reverse:"), "fo-fwd: no reverse panel without reverse_frames")

# failover --tcp: the flow's segments per bin, dashed in each slave's colour
fo_tcp = copy.deepcopy(fo)
for l in fo_tcp["timeline"]["links"]:
    l["tcp_frames"] = [v // 2 for v in l["frames"]]
res = render(("failover", fo_tcp, "fo-tcp"))
svg = good("fo-tcp", res[0], ["Failover timeline: datagrams and TCP segments per 10 ms on each slave",
                              "Forward: datagrams (solid) and TCP segments (dashed) arriving on "
                              "the receiver's (rx:) slaves", "packets per bin",
                              "rx:agent/eth0 TCP", "rx:agent/eth1 TCP",
                              "Reverse: datagrams arriving on the sender's (tx:) slaves"])
if svg:
    steps = svg.lines_with(2 * nbf)
    check(len(steps) == 4, "fo-tcp: the 4 datagram steps stay, got %d" % len(steps))
    check(not svg.has_text("tx:client/eth0 TCP"),
          "fo-tcp: no TCP line in the reverse panel (the flow goes client -> agent)")
    # PLplot draws a dashed line as many short segments: those of each rx slave's
    # colour inside its datagram line's box (the first panel) are its TCP line, which
    # peaks at half the datagrams' height (tcp_frames = frames // 2, peaks 20 -> 10)
    for c in (BLUE, ORANGE):
        first = next((pts for col, pts in steps if col == c), None)
        if not check(first is not None, "fo-tcp: a datagram step line in %s" % c):
            continue
        x0, x1 = min(x for x, _ in first), max(x for x, _ in first)
        # y grows upwards here (as in the "fo" checks above): 0 is the lowest y
        base, top = min(y for _, y in first), max(y for _, y in first)
        dash = [pts for col, pts in svg.lines if col == c and len(pts) == 2 and
                all(x0 - 0.5 <= x <= x1 + 0.5 and base - 0.5 <= y <= top + 0.5 for x, y in pts)]
        if check(len(dash) > 20, "fo-tcp: %s: a dashed TCP line (%d segments)" % (c, len(dash))):
            peak = max(y for pts in dash for _, y in pts) - base
            check(abs(peak / (top - base) - 0.5) < 0.05,
                  "fo-tcp: %s: the TCP line peaks at half the datagrams' height (%.1f of %.1f px)"
                  % (c, peak, top - base))

# ---- bad input: an error that names the member, and no file ------------------
def with_(doc, path, value):
    d = copy.deepcopy(doc)
    o = d
    for k in path[:-1]:
        o = o[k]
    if value is KeyError:
        del o[path[-1]]
    else:
        o[path[-1]] = value
    return d

# watch --plot's flows (the drawing itself: tests/unit/test-watch.c)
wf = {"slaves": ["eth0", "eth1"], "flows": [
    {"label": "tcp 10.0.0.1:40000 > 10.0.0.2:5201", "tx_source": "predicted", "rx_source": "unknown",
     "tx_bytes": 1000, "rx_bytes": 10, "tx_on": [1000, 0], "rx_on": [0, 0]}]}
zeros = copy.deepcopy(tl)
for l in zeros["timeline"]["links"]:
    l["wire_bytes"] = [0] * nb
    l["reverse_wire_bytes"] = [0] * nb
cases = [
    ("timeline", {"links": []}, "EINVAL", "timeline: expected an object with bin_ns"),
    ("timeline", with_(tl, ["timeline", "links", 1, "side"], "xx"), "EINVAL",
     'timeline.links[1].side: expected "tx" or "rx", found "xx"'),
    ("timeline", with_(tl, ["timeline", "links", 2, "wire_bytes", 3], -5), "EINVAL",
     "timeline.links[2].wire_bytes[3]: expected a number in [0"),
    ("timeline", with_(tl, ["timeline", "links", 0, "wire_bytes", 7], "9"), "EINVAL",
     'timeline.links[0].wire_bytes[7]: expected a number in [0, 1e+300], found the string "9"'),
    ("timeline", with_(tl, ["timeline", "links", 4, "wire_bytes"], [1, 2]), "EINVAL",
     "timeline.links[4].wire_bytes: expected %d values" % nb),
    ("timeline", with_(tl, ["timeline", "bin_ns"], 0), "EINVAL", "timeline.bin_ns: expected an integer in [1,"),
    ("timeline", with_(tl, ["timeline", "start_ns"], KeyError), "EINVAL",
     "timeline.start_ns: expected an integer in [0,"),
    ("timeline", zeros, "ENODATA", "every wire byte count is 0"),
    ("timeline", None, "EINVAL", "expected a JSON object, found nothing"),
    ("timeline", [1, 2], "EINVAL", "expected a JSON object, found an array"),
    ("density", {"reorder_density": {"abc": 3}}, "EINVAL", 'key "abc" is not a displacement'),
    ("density", {"reorder_density": {"1": "x"}}, "EINVAL", "reorder_density.1: expected a number"),
    ("density", {"reorder_density": {"0": 0}}, "ENODATA", "every count is 0"),
    ("density", {"reordering": {}}, "EINVAL", "reordering.reorder_density: expected an object"),
    ("density", {"streams": []}, "EINVAL", "reorder_density: expected an object"),
    ("ledger", {"ledger": [{"stage": "sent_by_app", "count": 1}]}, "EINVAL",
     "ledger: expected an array of 2 to 16 elements, found 1"),
    ("ledger", with_(lg, ["ledger", 2, "count"], "x"), "EINVAL", "ledger[2].count: expected a number"),
    ("ledger", with_(lg, ["ledger", 3, "stage"], KeyError), "EINVAL", "ledger[3].stage: expected a string"),
    ("ledger", offline["ledger"][:1] + offline["ledger"][4:], "ENODATA", "no stage has a count"),
    ("scaling", {"configs": []}, "EINVAL", "configs: expected an array of 1 to 64 elements, found 0"),
    ("scaling", with_(sc, ["configs", 1, "n"], 0), "EINVAL", "configs[1].n: expected an integer in [1, 1024]"),
    ("scaling", with_(sc, ["configs", 0, "ci_high_bps"], KeyError), "EINVAL",
     "configs[0]: ci_low_bps and ci_high_bps come together"),
    ("scaling", with_(sc, ["configs", 2, "n"], 2), "EINVAL", "configs[2].n: 2 links appears twice"),
    ("scaling", with_(sc, ["configs", 1, "runs", 3, "goodput_bps"], None), "EINVAL",
     "configs[1].runs[3].goodput_bps: expected a number"),
    ("heatmap", with_(mx, ["pairs", 0, "to"], "node9"), "EINVAL", 'pairs[0].to: "node9" is not in hosts[]'),
    ("heatmap", with_(mx, ["pairs", 0, "to"], "node1"), "EINVAL", 'pairs[0]: from and to are both "node1"'),
    ("heatmap", with_(mx, ["hosts", 1], "node1"), "EINVAL", 'hosts[1]: "node1" is listed twice'),
    ("heatmap", {"hosts": ["a", "b"], "pairs": [{"from": "a", "to": "b", "goodput_bps": None}]},
     "ENODATA", "no pair has a goodput"),
    ("sweep", with_(sw, ["points", 2, "value"], 64), "EINVAL", "points[2].value: 64 appears twice"),
    ("sweep", with_(sw, ["param"], KeyError), "EINVAL", "param: expected a string, found nothing"),
    ("failover", with_(fo, ["events"], []), "EINVAL", "events: expected an array of 1 to 16 elements, found 0"),
    ("failover", dict(fo, from_ns=5, to_ns=5), "EINVAL", "from_ns (5) must be below to_ns (5)"),
    ("failover", with_(fo, ["events", 0, "label"], KeyError), "EINVAL", "events[0].label: expected a string"),
    ("failover", with_(fo, ["timeline"], KeyError), "EINVAL", "timeline: expected the capture analysis' timeline"),
    ("failover", dict(fo, from_ns=1, to_ns=2), "ENODATA", "no datagram arrived on any slave between"),
    ("watch-flows", with_(wf, ["flows", 0, "tx_on"], [900, 200]), "EINVAL",
     "flows[0]: tx_on sums to 1100 bytes, more than tx_bytes (1000)"),
    ("watch-flows", with_(wf, ["flows", 0, "rx_source"], "guessed"), "EINVAL",
     'flows[0].rx_source: expected observed, predicted or unknown, found "guessed"'),
    ("watch-flows", with_(wf, ["flows", 0, "rx_on"], [1]), "EINVAL", "flows[0].rx_on: expected an array of 2"),
    ("watch-flows", with_(wf, ["slaves", 1], "eth0"), "EINVAL", 'slaves[1]: "eth0" is listed twice'),
    ("watch-flows", with_(wf, ["flows"], []), "ENODATA", "no flow carried a byte"),
]
res = render(*[(k, d, "bad-%d" % i) for i, (k, d, _, _) in enumerate(cases)])
for i, (k, d, e, m) in enumerate(cases):
    bad("bad-%d" % i, res[i], e, m)

# an unwritable place is an error too, and nothing is left behind
r = subprocess.run([RENDER, "ledger", os.path.join(TMP, "in-0-lg.json"), "/nonexistent-dir/x.svg"],
                   capture_output=True, text=True)
check(r.stdout.startswith("ENOENT ") and "cannot write the plot '/nonexistent-dir/x.svg'" in r.stdout,
      "unwritable path: ENOENT naming it, got %r" % r.stdout)
check(not [f for f in os.listdir(TMP) if ".tmp-" in f], "no temporary files left in %s" % TMP)

# ---- repeated calls in one process: more plots than PLplot has streams (100) --
triples = []
kinds = [("timeline", tl), ("density", rd), ("ledger", lg), ("scaling", sc), ("heatmap", mx),
         ("sweep", sw), ("failover", fo), ("ledger", {"ledger": []})]
for i in range(120):
    k, d = kinds[i % len(kinds)]
    triples.append((k, d, "rep-%d" % i))
res = render(*triples)
for i, r in enumerate(res):
    if triples[i][1] == {"ledger": []}:
        check(r.startswith("EINVAL "), "rep-%d: the bad one fails" % i)
    else:
        svg = good("rep-%d" % i, r)
check(len(res) == 120, "120 results")

# ---- bondcheck analyze --plot DIR ----------------------------------------------
d = os.path.join(PCAPS, "rr3")
out = os.path.join(TMP, "analyze-plots")
os.mkdir(out)
caps = ["%s:%s=%s/%s-%s.pcap" % (s, e, d, s, e) for s in ("tx", "rx") for e in ("eth0", "eth1", "eth2")]
r = subprocess.run([BONDCHECK, "analyze", "--plot", out] + caps, capture_output=True, text=True)
check(r.returncode == 1, "analyze --plot: exit 1 (wire-loss), got %d: %s" % (r.returncode, r.stderr))
check(sorted(os.listdir(out)) == ["ledger.svg", "links-timeline.svg", "reorder-density.svg"],
      "analyze --plot writes the three plots, got %s" % sorted(os.listdir(out)))
check("wrote " + os.path.join(out, "ledger.svg") in r.stderr, "analyze --plot names the files it wrote")
for f in ("ledger", "links-timeline", "reorder-density"):
    if os.path.exists(os.path.join(out, f + ".svg")):
        svg = Svg(os.path.join(out, f + ".svg"))
        if f == "links-timeline":
            check(all(svg.has_text(n) for n in ("tx:eth0", "rx:eth2")), "analyze timeline names the links")
        if f == "ledger":
            check(svg.has_text("left on link 258 -> reassembled 249: 9 lost"), "analyze ledger from the captures")
r = subprocess.run([BONDCHECK, "analyze", "--plot", "/nonexistent-dir/plots"] + caps, capture_output=True,
                   text=True)
check(r.returncode == 3 and "--plot '/nonexistent-dir/plots': cannot create it" in r.stderr,
      "analyze --plot into a missing folder: exit 3 naming it, got %d %r" % (r.returncode, r.stderr))

if failures:
    print("%d check(s) failed; plots kept in %s" % (len(failures), TMP))
    sys.exit(1)
subprocess.run(["rm", "-rf", TMP])
print("all plot checks passed")
