#!/bin/sh
# The testbed's own failure modes each give a clear error naming the step:
# qemu missing, kernel not fetched, module missing, bad scenario, guest timeout.
# usage: testbed-errors.sh TOP BUILD
set -u
top=$1
build=$2
tb="$top/tools/testbed/testbed --build $build --out $build/testbed-errors"
fail=0

# expect STEP-SUBSTRING MESSAGE-SUBSTRING CMD...: exit 3 and both substrings in stderr
expect() {
	step=$1 msg=$2
	shift 2
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 3 ] && echo "$err" | grep -qF "step '$step'" && echo "$err" | grep -qF "$msg"; then
		echo "ok   $step: $(echo "$err" | grep -F "step '$step'" | head -n1)"
	else
		echo "FAIL $step: rc=$rc, expected exit 3 with step '$step' and '$msg'; got:"
		echo "$err" | tail -n 15 | sed 's/^/    /'
		fail=1
	fi
}

expect prerequisites "'qemu-missing-for-test' not found" env BC_QEMU=qemu-missing-for-test $tb check
expect kernel "not fetched" $tb --kernel 0.0.0-not-fetched check
expect modules "module 'no_such_module_for_test' not found" env BC_TESTBED_EXTRA_MODULES=no_such_module_for_test $tb check
expect scenario "invalid scenario file" $tb run "$top/tests/data/bad-scenarios/unknown-key.scn"
# a guest that runs past the hard limit is stopped; the console tail is shown
err=$($tb --timeout 4 shell 'sleep 100' 2>&1)
rc=$?
if [ $rc -eq 3 ] && echo "$err" | grep -qF "step 'guest-timeout'" && echo "$err" | grep -qF "last 30 lines of the guest console"; then
	echo "ok   guest-timeout"
else
	echo "FAIL guest-timeout: rc=$rc"; echo "$err" | tail -n 15 | sed 's/^/    /'; fail=1
fi
exit $fail
