#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 15 item 5: text reports wrap their prose to the terminal's width.
# The scale report of tests/data/scale/links-rr-reorder.json is rendered at
# COLUMNS=60: every line of its answer block, comparison notes, findings and
# verdict (the prose; the tables keep their layout) fits in 60 columns,
# continuation lines keep their hanging indent (20 for an answer, 28 for a
# finding, 4 for the verdict), and no word is lost against COLUMNS=100.
# usage: wrap-narrow.sh BONDCHECK SOURCE_DIR
set -u
bc=$1
src=$2
doc=$src/tests/data/scale/links-rr-reorder.json
fails=0
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

narrow=$(COLUMNS=60 "$bc" scale --from-json "$doc")
wide=$(COLUMNS=100 "$bc" scale --from-json "$doc")
[ -n "$narrow" ] || { echo "FAIL no report from $bc scale --from-json $doc"; exit 1; }

# the prose: the answer block (up to the first blank line), the lines after
# the comparison table ("tcp 2 -> 3: ..."), the findings and the verdict
prose() {
	awk '
		NR == 1 { sect = "answer" }
		/^$/ { sect = ""; next }
		/^Findings$/ { sect = "findings"; next }
		/^Verdict / { sect = "verdict" }
		/^  tcp [0-9]+ -> [0-9]+: / { sect = "comparison" }
		sect != "" { print sect "\t" $0 }'
}
printf '%s\n' "$narrow" | prose >"$tmp"
n=$(wc -l <"$tmp")
[ "$n" -ge 10 ] || fail "only $n prose lines found at COLUMNS=60 (expected the wrapped answer, findings and verdict)"
while IFS='	' read -r sect line; do
	len=$(printf '%s' "$line" | wc -m)
	[ "$len" -le 60 ] || fail "$sect line of $len columns at COLUMNS=60: '$line'"
done <"$tmp"
# hanging indents: each continuation line starts with exactly the indent
check_indent() { # SECTION FIRST-LINE-REGEX INDENT
	awk -F'\t' -v s="$1" -v first="$2" -v ind="$3" '
		$1 != s { next }
		$2 ~ first { next }
		{ match($2, /^ */); if (RLENGTH != ind) { print "FAIL " s " continuation indented " RLENGTH ", expected " ind ": \x27" $2 "\x27"; bad = 1 } ; cont++ }
		END { if (!cont) { print "FAIL no continuation line in " s " at COLUMNS=60"; bad = 1 }; exit bad }' "$tmp" ||
		fails=$((fails + 1))
}
check_indent answer '^[A-Z]' 20
check_indent findings '^  (error|warning|info) ' 28
check_indent verdict '^Verdict ' 4
# the same words at both widths
words() { printf '%s\n' "$1" | prose | cut -f2- | tr -s ' \n' '  '; }
[ "$(words "$narrow")" = "$(words "$wide")" ] ||
	fail "the prose at COLUMNS=60 has other words than at COLUMNS=100"
echo "wrap-narrow: $n prose lines at COLUMNS=60, $fails failures"
[ "$fails" = 0 ]
