#!/bin/sh
# Runs every fuzz target (built first by make fuzz-build into tests/fuzz/build/):
# first its corpus (tests/fuzz/corpus/NAME/) is replayed, then it runs for
# SECONDS more. A crash, leak or sanitizer report fails the target and
# leaves the input that caused it in tests/fuzz/crashes/.
# usage: tests/fuzz/run.sh [SECONDS] [TARGET...]
cd "$(dirname "$0")/../.." || exit 1
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-"post template siteyaml bssgconf deployyaml agent bssgframe gemtext caddyrenew picture search tsigkey"}
pass=0
fail=0
work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p tests/fuzz/crashes
# The targets, built or brought up to date (nothing to do when they are).
if ! ${MAKE:-make} -s -j2 fuzz-build >"$work/build.log" 2>&1; then
	echo "FAIL make fuzz-build"
	tail -n 30 "$work/build.log"
	echo "0 passed, 1 failed"
	exit 1
fi
for t in $targets; do
	bin=tests/fuzz/build/fuzz_$t
	corpus=tests/fuzz/corpus/$t
	if [ ! -x "$bin" ]; then
		echo "FAIL $t: no $bin (make fuzz-build)"
		fail=$((fail + 1))
		continue
	fi
	# New inputs go to a scratch folder, not into the committed corpus.
	mkdir -p "$work/$t"
	if ! "$bin" -runs=0 -artifact_prefix="tests/fuzz/crashes/$t-" "$corpus" \
	    > "$work/$t.replay" 2>&1; then
		echo "FAIL $t: replaying $corpus"
		tail -n 30 "$work/$t.replay"
		fail=$((fail + 1))
		continue
	fi
	if [ "$secs" -gt 0 ] && ! "$bin" -max_total_time="$secs" -timeout=10 \
	    -rss_limit_mb=2048 -max_len=65536 -close_fd_mask=3 \
	    -artifact_prefix="tests/fuzz/crashes/$t-" "$work/$t" "$corpus" \
	    > "$work/$t.log" 2>&1; then
		echo "FAIL $t: see tests/fuzz/crashes/$t-*"
		grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$work/$t.log" | head -n 10
		fail=$((fail + 1))
		continue
	fi
	stats=$(grep -sE '^#[0-9]+.*(DONE|pulse|NEW)' "$work/$t.log" | tail -n 1 |
	    sed 's/^\(#[0-9]*\).*cov: \([0-9]*\).*/\1 runs, cov \2/')
	echo "ok   $t: corpus replayed; ${secs}s: ${stats:-no runs}"
	pass=$((pass + 1))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
