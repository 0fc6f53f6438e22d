#!/bin/sh
# watch-then.sh OUT 'WATCH OPTIONS' TRAFFIC...: `bondcheck watch -j OPTIONS
# bond0 >OUT` in the background, then TRAFFIC once watch's first interval is
# out (attaching the slave taps takes seconds under TCG), then waits for
# watch.  Exit 0 when watch exited 0 or 1 (a verdict failed), else watch's.
out=$1
opts=$2
shift 2
# shellcheck disable=SC2086
bondcheck watch -j $opts bond0 >"$out" &
w=$!
until [ -s "$out" ] || ! kill -0 "$w" 2>/dev/null; do sleep 0.2; done
"$@" >"$out.traffic" 2>&1 || echo "traffic exited $?: $(tail -n 3 "$out.traffic")"
wait "$w"
rc=$?
[ "$rc" -le 1 ] || { echo "bondcheck watch exited $rc"; exit "$rc"; }
