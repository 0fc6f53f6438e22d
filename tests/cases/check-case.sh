#!/bin/sh
# Check one real case against the expectations written for it before
# bondcheck ever ran on it (tests/cases/README.md describes the format).
#
#   tests/cases/check-case.sh BONDCHECK CASE.expect      exit 0 when every line holds
#
# The input is the file beside CASE.expect with the same stem and any other
# extension (or the directory of that stem, for a sosreport tree), unless an
# `input-file:` line names it.  Each `expect:` / `reject:` line is checked
# against the findings of `bondcheck inspect --from-KIND INPUT -j`; every
# failed line is printed, so a case's first-run score is honest per fact.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 BONDCHECK CASE.expect" >&2; exit 2; }
bc=$1
exp=$2
command -v jq >/dev/null || { echo "check-case: jq is required (tools/install-deps installs it)" >&2; exit 2; }
[ -f "$exp" ] || { echo "check-case: no such expectations file: $exp" >&2; exit 2; }

field() { sed -n "s/^$1:[[:space:]]*//p" "$exp" | head -n1; }
dir=$(dirname "$exp")
stem=$(basename "$exp" .expect)
kind=$(field input)
name=$(field name)
input=$(field input-file)
if [ -n "$input" ]; then
	input=$dir/$input
else
	for f in "$dir/$stem".* "$dir/$stem"; do
		[ "$f" = "$exp" ] && continue
		[ -e "$f" ] && { input=$f; break; }
	done
fi
[ -n "$input" ] && [ -e "$input" ] || { echo "check-case: $exp: no input file beside it" >&2; exit 2; }
case $kind in
proc | ip | sos) ;;
*) echo "check-case: $exp: 'input:' must be proc, ip or sos; found '$kind'" >&2; exit 2 ;;
esac

set -- inspect "--from-$kind" "$input"
[ -n "$name" ] && set -- "$@" --name "$name"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
st=0
"$bc" "$@" -j >"$out" 2>/dev/null || st=$?
if [ "$st" -ge 2 ] || ! jq -e . "$out" >/dev/null 2>&1; then
	echo "FAIL $stem: bondcheck $* -j exited $st without a JSON document"
	exit 1
fi

# every finding anywhere in the document, one JSON object per line
findings=$(jq -c '[.. | objects | select(has("id") and has("severity") and has("subject"))] | unique | .[]' "$out")

bad=0
# shellcheck disable=SC2162
grep -E '^(expect|reject):' "$exp" | while read line; do
	verb=${line%%:*}
	rest=$(echo "${line#*:}" | sed 's/[[:space:]]#.*$//')
	set -f
	# shellcheck disable=SC2086
	set -- $rest
	set +f
	id=$1
	shift
	subject='*'
	if [ $# -gt 0 ] && [ "${1#*=}" = "$1" ]; then subject=$1; shift; fi
	# the remaining words are key=value: the finding's evidence[key] contains value
	filter="select(.id == \"$id\")"
	[ "$subject" = '*' ] || filter="$filter | select(.subject == \"$subject\")"
	for kv in "$@"; do
		k=${kv%%=*}
		v=${kv#*=}
		filter="$filter | select((.evidence[\"$k\"] // \"\" | tostring | ascii_downcase) | contains(\"$v\" | ascii_downcase))"
	done
	n=$(printf '%s\n' "$findings" | jq -c "$filter" 2>/dev/null | grep -c . || true)
	if [ "$verb" = expect ] && [ "$n" -eq 0 ]; then
		echo "FAIL $stem: expected $id $subject $*"
		echo x >>"$out.bad"
	elif [ "$verb" = reject ] && [ "$n" -gt 0 ]; then
		echo "FAIL $stem: reported $id $subject $* (must not be)"
		echo x >>"$out.bad"
	fi
done
if [ -s "$out.bad" ]; then
	rm -f "$out.bad"
	exit 1
fi
rm -f "$out.bad"
echo "ok   $stem"
