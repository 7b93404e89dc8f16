#!/bin/sh
# The unit tests and ssg's end-to-end tests built with AddressSanitizer and
# UndefinedBehaviorSanitizer: a copy of the tree (sources only) is built
# with -fsanitize=address,undefined and its tests run there. Any report
# aborts the program, so the test that ran it fails. The browser tests
# (themes.sh, foreign_css.sh, bssg_look.sh, search_browser.sh) run once,
# unsanitized, in make check.
# usage: tests/sanitize/run.sh      Ends with "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
SPEC=${MUSTACHE_SPEC:-$(cd "$top/.." && pwd)/shared/spec/mustache}
work=$(mktemp -d "${TMPDIR:-/tmp}/sanitize.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0

(cd "$top" && git ls-files -co --exclude-standard 2>/dev/null ||
    find . -type f ! -path './.git/*') |
    grep -v -e '^tests/themes/node_modules/' -e '^tests/fuzz/build/' |
    (cd "$top" && tar -cf - -T -) | tar -C "$work" -xf -
SAN="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
if ! make -s -C "$work" -j2 CFLAGS="$SAN" all unit-tests >"$work/build.log" 2>&1; then
	tail -n 30 "$work/build.log"
	echo "FAIL the sanitized build"
	echo "0 passed, 1 failed"
	exit 1
fi
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

# result NAME LOG STATUS: counts one program's result line.
result() {
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$2" | tail -n 1)
	p=${line%% passed*}
	f=$(printf '%s\n' "$line" | sed -n 's/.* passed, \([0-9]*\) failed.*/\1/p')
	if [ -z "$line" ] || { [ "$3" -ne 0 ] && [ "${f:-0}" -eq 0 ]; }; then
		p=${p:-0}
		f=1
	fi
	if grep -q -e 'ERROR: AddressSanitizer' -e 'runtime error:' "$2"; then
		f=$((f + 1))
		grep -m 3 -e 'ERROR: AddressSanitizer' -e 'runtime error:' "$2"
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	printf '%-28s %s passed, %s failed\n' "$1" "$p" "$f"
	[ "$f" -eq 0 ] || tail -n 20 "$2"
}

cd "$work" || exit 1
for t in tests/unit/test_*; do
	case $t in *.c|*.o|*.d) continue ;; esac
	[ -x "$t" ] || continue
	case $t in
	*/test_template) "$t" "$SPEC" >"$work/log" 2>&1 ;;
	*/test_spec) "$t" tests/deploy/spec >"$work/log" 2>&1 ;;
	*) "$t" >"$work/log" 2>&1 ;;
	esac
	result "${t#tests/}" "$work/log" $?
done
for t in tests/e2e/*.sh; do
	# the browser tests measure Chromium's time more than ssg's; the look
	# fixture's builds run sanitized in bssg_structure.sh
	case $t in */themes.sh|*/foreign_css.sh|*/bssg_look.sh|*/search_browser.sh)
		continue ;;
	esac
	sh "$t" >"$work/log" 2>&1
	result "${t#tests/}" "$work/log" $?
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
