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

# needs_root NAME PACKAGES: stops (a failed run) unless this is root and
# DEPLOY is built; then installs what is missing of the Debian PACKAGES.
needs_root() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "$1: needs root (namespaces, nftables)" >&2
		echo "0 passed, 1 failed"
		exit 1
	fi
	if [ ! -x "$DEPLOY" ]; then
		echo "$1: no $DEPLOY; build it first (make bin/deploy)" >&2
		echo "0 passed, 1 failed"
		exit 1
	fi
	DEB=$2 sh "$top/tests/deps.sh" || { echo "0 passed, 1 failed"; exit 1; }
}
