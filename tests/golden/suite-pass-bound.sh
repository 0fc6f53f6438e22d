#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 14 "Done when": no verdict passes while the model shows a gap over
# 20 % between the levels it compares (headline = first level / second).
# Every saved suite document (tests/data/run-suite/*.json) is re-analysed
# with `run --from-json -j` and its verdicts checked.
# usage: suite-pass-bound.sh BONDCHECK DATA_DIR
set -u
bc=$1
data=$2
fails=0
n=0
for f in "$data"/*.json; do
	n=$((n + 1))
	bad=$("$bc" run --from-json "$f" -j 2>/dev/null |
		jq -c '[.verdicts | to_entries[] | select(.value.status == "pass" and .value.headline != null
			and .value.headline < 0.8) | [.key, .value.headline]]')
	if [ "$bad" != "[]" ]; then
		echo "FAIL $f: a verdict passes with a gap over 20 %: ${bad:-no document}"
		fails=$((fails + 1))
	fi
done
[ "$n" -gt 0 ] || { echo "FAIL no saved suite document in $data"; exit 1; }
echo "suite-pass-bound: $n documents, $fails with a verdict passing over a 20 % gap"
[ "$fails" = 0 ]
