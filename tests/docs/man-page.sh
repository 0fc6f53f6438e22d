#!/bin/sh
# The man page bondcheck(8) renders without groff warnings, and its COMMANDS
# section documents every command of `bondcheck --help` (a `.SS NAME`
# subsection each) with every long option that command's --help names.
# A command or option added without documentation fails this test.
#
#   tests/docs/man-page.sh BONDCHECK_BINARY docs/bondcheck.8
set -u
bin=$1
page=$2
fail=0

command -v groff >/dev/null 2>&1 || {
	echo "man-page: groff not found; install Debian's groff-base (tools/install-deps)" >&2
	exit 1
}
[ -r "$page" ] || { echo "man-page: cannot read $page" >&2; exit 1; }
[ -x "$bin" ] || { echo "man-page: $bin is not an executable" >&2; exit 1; }

# 1. groff: no warnings (-ww), no output (-z)
warn=$(groff -man -ww -z "$page" 2>&1)
if [ -n "$warn" ]; then
	echo "man-page: groff -man -ww reports:" >&2
	echo "$warn" >&2
	fail=1
fi

# 2. the command table of `bondcheck --help`: indented lines after "Commands:"
cmds=$("$bin" --help | awk '/^Commands:/ {on = 1; next} on && /^$/ {exit} on {print $1}')
[ -n "$cmds" ] || { echo "man-page: no command table in '$bin --help'" >&2; exit 1; }

# the COMMANDS section as text: \- -> -, font escapes removed
section=$(awk '/^\.SH COMMANDS/ {on = 1; next} on && /^\.SH / {exit} on {print}' "$page" |
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(CR//g')
[ -n "$section" ] || { echo "man-page: $page has no .SH COMMANDS section" >&2; exit 1; }

n=0
for c in $cmds; do
	n=$((n + 1))
	sub=$(printf '%s\n' "$section" |
		awk -v c="$c" '/^\.SS / {on = ($2 == c); next} on {print}')
	if [ -z "$sub" ]; then
		echo "man-page: command '$c' of 'bondcheck --help' has no '.SS $c' in COMMANDS" >&2
		fail=1
		continue
	fi
	opts=$("$bin" "$c" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u |
		grep -v -x -e '--help' -e '--version')
	[ -n "$opts" ] || { echo "man-page: '$bin $c --help' names no option" >&2; fail=1; }
	for o in $opts; do
		printf '%s\n' "$sub" | grep -q -e "$o\([^a-z0-9-]\|\$\)" || {
			echo "man-page: '$c' option $o (from '$c --help') is not in its COMMANDS subsection" >&2
			fail=1
		}
	done
done
[ "$fail" -eq 0 ] && echo "man-page: $page renders without warnings; $n commands documented with their options"
exit $fail
