#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bondcheck fleet --plot DIR (issue 16 item 1): the host x finding heatmap,
# drawn by PLplot from recordings of real bonds (the hosts of
# tests/golden/fleet.sh), parsed back with python3's xml.etree: every host
# names one row (node08, missing, too), every finding one column, and there
# is one coloured cell per (host, finding) pair that the inspect documents
# and fleet -j hold, red for the error-level ones.  A fleet without findings
# draws nothing (exit 0, no file, said); more hosts than fit keep those with
# findings and say how many were drawn; a --plot that is a file is a usage error.
# usage: fleet-plot.sh BONDCHECK SOURCE_DIR
set -u
bc=$1 src=$2
rec=$src/tests/data/recordings
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v python3 >/dev/null || fail "python3 not found (parses the SVG; tools/install-deps)"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/docs"
for hr in node01:mode-802.3ad node02:802.3ad-nonroot node03:lacp-no-partner node04:lacp-split \
	node05:mode-802.3ad node06:mixed-drivers node07:no-bonds; do
	h=${hr%%:*} r=${hr#*:}
	"$bc" inspect --replay "$rec/$r" --host "$h" -j --json-line >"$tmp/docs/$h.json" 2>/dev/null
done
"$bc" fleet --expect 'node[01-08]' --plot "$tmp/plots" "$tmp/docs" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || fail "fleet exit $?, expected 1: $(cat "$tmp/err")"
grep -q "wrote $tmp/plots/fleet-findings.svg" "$tmp/err" || fail "the SVG path is not said: $(cat "$tmp/err")"
"$bc" fleet --expect 'node[01-08]' -j "$tmp/docs" >"$tmp/fleet.json" 2>/dev/null

python3 - "$tmp/plots/fleet-findings.svg" "$tmp/docs" "$tmp/fleet.json" <<'PY' || exit 1
import glob, json, sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
RED, ORANGE, BLUE = "#D62728", "#FF7F0E", "#1F77B4"
svg, docs, fleet = sys.argv[1:4]
root = ET.parse(svg).getroot()
texts = ["".join(t.itertext()) for t in root.iter(NS + "text")]
fills = [p.get("fill") for p in root.iter(NS + "polyline") if p.get("fill") not in (None, "none")]
bad = []
for h in ["node%02d" % i for i in range(1, 9)]:
    if texts.count(h) != 1:
        bad.append("host %s labels %d rows, expected 1" % (h, texts.count(h)))
# the (host, finding) pairs the documents hold, and their severity
pairs = {}
for f in sorted(glob.glob(docs + "/*.json")):
    d = json.load(open(f))
    for b in d.get("bonds", []):
        for x in b.get("findings", []):
            pairs[(d["host"], x["id"])] = x["severity"]
for x in json.load(open(fleet))["findings"]:
    label = x["id"] + (" " + x["attribute"] if x.get("attribute") else "")
    for h in x["hosts"]:
        pairs[(h, label)] = x["severity"]
for label in sorted({l for _, l in pairs}):
    if texts.count(label) != 1:
        bad.append("finding %r labels %d columns, expected 1" % (label, texts.count(label)))
want = {s: sum(v == s for v in pairs.values()) for s in ("error", "warning", "info")}
# three more boxes of each colour: the legend
got = {"error": fills.count(RED) - 1, "warning": fills.count(ORANGE) - 1, "info": fills.count(BLUE) - 1}
if want != got or not want["error"]:
    bad.append("coloured cells %s, expected %s" % (got, want))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

# nothing to draw: one healthy host
"$bc" inspect --replay "$rec/mode-active-backup" --host solo -j --json-line >"$tmp/solo.json"
"$bc" fleet --plot "$tmp/empty" "$tmp/solo.json" >/dev/null 2>"$tmp/err"
[ $? -eq 0 ] || fail "a fleet without findings: exit $?, expected 0"
grep -q "no host has a finding; nothing to plot" "$tmp/err" || fail "nothing to plot is not said: $(cat "$tmp/err")"
[ ! -e "$tmp/empty/fleet-findings.svg" ] || fail "an SVG was written with nothing to draw"

# 45 hosts: 40 rows, those with findings kept, the note says so
mkdir "$tmp/many"
for i in $(seq 1 45); do
	r=mode-active-backup
	[ "$i" -le 3 ] && r=inspect-faults
	"$bc" inspect --replay "$rec/$r" --host "h$i" -j --json-line >"$tmp/many/h$i.json" 2>/dev/null
done
"$bc" fleet --plot "$tmp/many" "$tmp/many" >/dev/null 2>&1
python3 - "$tmp/many/fleet-findings.svg" <<'PY' || exit 1
import sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
texts = ["".join(t.itertext()) for t in ET.parse(sys.argv[1]).getroot().iter(NS + "text")]
rows = [t for t in texts if t.startswith("h") and t[1:].isdigit()]
bad = []
if len(rows) != 40 or not {"h1", "h2", "h3"} <= set(rows):
    bad.append("expected 40 host rows with h1-h3 (the hosts with errors), got %d: %s" % (len(rows), rows[:5]))
if not any("40 of 45 hosts drawn" in t for t in texts):
    bad.append("the note '40 of 45 hosts drawn' is missing")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

: >"$tmp/afile"
"$bc" fleet --plot "$tmp/afile" "$tmp/solo.json" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--plot FILE: expected exit 2"
echo "ok: fleet --plot draws every host and finding"
