# shellcheck shell=sh
# The checks' side of a test: ok and bad count and print one check each
# (under make mutate the first failure ends the run), part NAME says
# whether TEST_PARTS picks the optional part NAME (all by default), and
# finish prints the time, the totals, and exits 0 when nothing failed.
pass=0
fail=0
started=$(date +%s)
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() {
	fail=$((fail + 1))
	echo "FAIL $*"
	[ -z "${MUTATE_FAIL_FAST:-}" ] || finish
}
part() {
	case " ${TEST_PARTS:-all} " in *" all "* | *" $1 "*) return 0 ;; esac
	return 1
}
finish() {
	echo "($(( $(date +%s) - started )) s)"
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit $?
}
