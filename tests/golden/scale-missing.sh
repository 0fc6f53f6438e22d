#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 14 item 1 for `scale`: a saved scale document with a required member
# removed (jq del) or of the wrong type, re-analysed by `bondcheck scale
# --from-json`, is inconclusive for the protocol it belongs to and names the
# member (jq path); it never compares on a default (a missing N was 0 and
# gave "1 link are worse than 0", scaling-negative, exit 1).
# usage: scale-missing.sh BONDCHECK DATA_DIR
set -u
bc=$1
data=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

# check NAME SOURCE JQ EXIT STATUS MISSING TEXT: DATA_DIR/SOURCE.json edited
# by JQ exits EXIT, its verdict has STATUS, its "missing" holds MISSING
# ("-": none) and its text holds TEXT
check() {
	jq "$3" "$data/$2.json" >"$tmp/$1.json" || exit 1
	"$bc" scale --from-json "$tmp/$1.json" -j >"$tmp/out.json" 2>"$tmp/err"
	rc=$?
	st=$(jq -r '.verdict.status' "$tmp/out.json" 2>/dev/null)
	miss=$(jq -r '(.verdict.missing // ["-"]) | join("; ")' "$tmp/out.json" 2>/dev/null)
	text=$(jq -r '.verdict.text' "$tmp/out.json" 2>/dev/null)
	ok=1
	[ "$rc" = "$4" ] || ok=0
	[ "$st" = "$5" ] || ok=0
	case $miss in *"$6"*) ;; *) ok=0 ;; esac
	case $text in *"$7"*) ;; *) ok=0 ;; esac
	if [ $ok = 1 ]; then
		echo "ok   $1: exit $rc, $st, missing '$miss'"
	else
		echo "FAIL $1: exit $rc, status '$st', missing '$miss', text '$text' $(cat "$tmp/err");" \
			"expected exit $4, $5, missing '$6', text '$7'"
		fails=$((fails + 1))
	fi
}

# the saved documents as they are: nothing missing
check as-is placement-8023ad-3 . 0 pass - "TCP: 2 links beat 1"
# N of a configuration: not 0, not compared
check no-n placement-8023ad-3 'del(.configs[1].n)' 0 inconclusive \
	'configs[1].n (absent)' 'TCP: inconclusive, the document lacks configs[1].n (absent)'
# one run's goodput: not 0, and not a "goodput nan" error either
check no-goodput placement-8023ad-3 'del(.configs[1].runs[2].goodput_bps)' 0 inconclusive \
	'configs[1].runs[2].goodput_bps (absent)' 'configs[1].runs[2].goodput_bps (absent)'
# a mistyped member is named with its type
check protocol-number placement-8023ad-3 '.configs[0].protocol = 5' 0 inconclusive \
	'configs[0].protocol (number, expected a string)' 'TCP: inconclusive'
check no-slaves placement-8023ad-3 'del(.configs[2].slaves)' 0 inconclusive \
	'configs[2].slaves (absent)' 'TCP: inconclusive'
# only the protocol the member belongs to: UDP inconclusive, TCP still answered (flat)
check udp-no-n constructed-flat-zero \
	'(.configs | map(.protocol == "udp") | index(true)) as $i | del(.configs[$i].n)' 0 flat \
	'.n (absent)' 'UDP: inconclusive, the document lacks configs['
# text output names it on the verdict line
jq 'del(.configs[1].n)' "$data/placement-8023ad-3.json" >"$tmp/t.json"
if "$bc" scale --from-json "$tmp/t.json" |
	grep -q '^Verdict (inconclusive): TCP: inconclusive, the document lacks configs\[1\]\.n (absent)\.$'; then
	echo "ok   text: the verdict line names configs[1].n"
else
	echo "FAIL text: no inconclusive verdict line naming configs[1].n"
	fails=$((fails + 1))
fi
[ $fails = 0 ] && echo "PASS" || echo "FAIL: $fails"
[ $fails = 0 ]
