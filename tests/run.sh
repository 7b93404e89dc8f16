#!/bin/sh
# Runs every test program and script; prints each one's result and, last,
# the totals as "N passed, N failed". Exit status 1 if anything failed.
cd "$(dirname "$0")/.." || exit 1
# Scratch files (every mktemp, the mutation trees, the test sites) go to a
# tmpfs of the run's own (TMPDIR), mounted in a mount namespace of its own:
# on a disk with online discard, making and deleting the suite's many
# small trees took more system time than the tests' own work. The tmpfs,
# and any mount a failed test leaves, go away with the run.
if [ -z "${TESTS_OWN_TMP:-}" ] && [ "$(id -u)" -eq 0 ] &&
    unshare --mount true 2>/dev/null; then
	TESTS_OWN_TMP=$(mktemp -d "${TMPDIR:-/tmp}/ssg-tests.XXXXXX") || exit 1
	export TESTS_OWN_TMP
	unshare --mount --propagation private sh -c '
	    if mount -t tmpfs -o mode=1777 ssg-tests "$TESTS_OWN_TMP"; then
		TMPDIR=$TESTS_OWN_TMP
		export TMPDIR
	    else
		echo "tests: scratch files stay on disk" >&2
	    fi
	    exec sh tests/run.sh "$@"' sh "$@"
	rc=$?
	rmdir "$TESTS_OWN_TMP"
	exit $rc
fi
SPEC=${MUSTACHE_SPEC:-$(pwd)/../shared/spec/mustache}
unset TEST_PARTS	# every part of every test (make mutate picks parts)
PASSED=0
FAILED=0
LOG=$(mktemp)
# The tests, and ssg's highlighter, run the system's python3, for which
# the packages install python3-pygments, and not a version manager's shim
# earlier in PATH: a shim is a shell script that cost half a CPU-second
# a start, and its Python may bring another Pygments.
PYBIN=$(mktemp -d)
trap 'rm -rf "$LOG" "$PYBIN"' EXIT
if [ -x /usr/bin/python3 ]; then
	ln -s /usr/bin/python3 "$PYBIN/python3"
	PATH=$PYBIN:$PATH
	export PATH
fi

run() {
	name=$1
	shift
	start=$(date +%s)
	"$@" >"$LOG" 2>&1
	report "$name" "$LOG" $? "$start"
}

# report NAME LOG STATUS START: adds LOG's "N passed, N failed" to the
# totals and prints it, with the log's tail when something failed.
report() {
	name=$1
	rc=$3
	line=$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$2" | tail -n 1)
	p=$(printf '%s\n' "$line" | sed -n 's/^\([A-Za-z]*: \)\{0,1\}\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2/p')
	f=$(printf '%s\n' "$line" | sed -n 's/^\([A-Za-z]*: \)\{0,1\}\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\3/p')
	if [ -z "$p" ]; then
		p=0
		f=1
		line="no result line (exit $rc)"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		line="$line, but exit $rc"
	fi
	PASSED=$((PASSED + p))
	FAILED=$((FAILED + f))
	printf '%-32s %s (%ss)\n' "$name" "$line" "$(($(date +%s) - $4))"
	if [ "$f" -ne 0 ]; then
		sed 's/^/    /' "$2" | tail -n 60
	fi
}

# Every fault of tests/mutate/faults.txt still applies; then make mutate
# (each fault caught) runs beside all the rest once it has copied the
# tree into its scratch trees.
run mutate/lint python3 tests/mutate/run.py --lint
MLOG=$(mktemp)
DLOG=$(mktemp)
READY=$(mktemp -u)
trap 'kill "$mpid" "$dpid" 2>/dev/null; rm -rf "$LOG" "$MLOG" "$DLOG" "$READY" "$PYBIN"' EXIT
mstart=$(date +%s)
python3 tests/mutate/run.py --ready "$READY" >"$MLOG" 2>&1 &
mpid=$!
while [ ! -e "$READY" ] && kill -0 "$mpid" 2>/dev/null; do
	sleep 1
done

# The deployer's tests and the fuzzers, in a lane of their own: they spend
# much of their time waiting (on jails starting, on timed load and fuzz
# runs), which the CPU-bound tests of the main lane fill; the differential
# test of incremental builds ends it, so that both lanes take about as
# long. The lane prints its results when it is done, totals last.
(
	PASSED=0
	FAILED=0
	LOG=$(mktemp)
	trap 'rm -f "$LOG"' EXIT
	run deploy/test_plan tests/deploy/test_plan
	run deploy/e2e_netns.sh sh tests/deploy/e2e_netns.sh bin/deploy
	run deploy/zero_downtime.sh sh tests/deploy/zero_downtime.sh bin/deploy
	run deploy/fleet.sh sh tests/deploy/fleet.sh bin/deploy
	run deploy/fleet_ssh.sh sh tests/deploy/fleet_ssh.sh bin/deploy
	run deploy/bench_remote.sh sh tests/deploy/bench_remote.sh bin/deploy
	run deploy/gemini.sh sh tests/deploy/gemini.sh bin/deploy
	run deploy/acme.sh sh tests/deploy/acme.sh bin/deploy
	run deploy/dns.sh sh tests/deploy/dns.sh bin/deploy
	run deploy/release/run.sh sh tests/deploy/release/run.sh
	run deploy/freebsd/run.sh sh tests/deploy/freebsd/run.sh
	# Every parser of text from users or the network: corpus, then 15 s each.
	run fuzz sh tests/fuzz/run.sh "${FUZZ_CI_SECONDS:-15}"
	# Incremental builds against full ones: 3 random seeds, 100 edits each.
	run diffinc python3 tests/diffinc/diffinc.py --runs 3 --steps 100
	echo "lane: $PASSED passed, $FAILED failed"
) >"$DLOG" 2>&1 &
dpid=$!

for t in tests/unit/test_*; do
	case $t in *.c|*.o|*.d) continue ;; esac
	[ -x "$t" ] || continue
	case $t in
	*/test_template) run "${t#tests/}" "$t" "$SPEC" ;;
	*/test_spec) run "${t#tests/}" "$t" tests/deploy/spec ;;
	*) run "${t#tests/}" "$t" ;;
	esac
done
for t in tests/e2e/*.sh; do
	run "${t#tests/}" sh "$t"
done
# The unit and ssg end-to-end tests again, built with ASan and UBSan.
run sanitize sh tests/sanitize/run.sh

wait "$dpid"
sed '$d' "$DLOG"
line=$(tail -n 1 "$DLOG")
case $line in
"lane: "*) ;;
*) line="lane: 0 passed, 1 failed (the deploy lane stopped early)" ;;
esac
PASSED=$((PASSED + $(echo "$line" | sed 's/^lane: \([0-9]*\) passed.*/\1/')))
FAILED=$((FAILED + $(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')))
wait "$mpid"
report mutate "$MLOG" $? "$mstart"
sed -n '/^module /,/^mutate: /p' "$MLOG"
echo
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
