# Shared helpers for the end-to-end tests: counting checks and a summary
# line "N passed, N failed" at the end.
PASSED=0
FAILED=0
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SSG=${SSG:-"$ROOT/bin/ssg"}

pass() { PASSED=$((PASSED + 1)); }
fail() {
	FAILED=$((FAILED + 1))
	printf 'FAIL %s: %s\n' "${0##*/}" "$*" >&2
	# Under make mutate the first failure is enough (the tests' EXIT
	# traps clean up).
	if [ -n "${MUTATE_FAIL_FAST:-}" ]; then
		summary
		exit 1
	fi
}
check() {
	# check "description" command...
	desc=$1; shift
	if "$@" >/dev/null 2>&1; then pass; else fail "$desc"; fi
}
contains() {
	# contains FILE TEXT: the file holds the text literally
	grep -qF -- "$2" "$1"
}
summary() {
	printf '%d passed, %d failed\n' "$PASSED" "$FAILED"
	[ "$FAILED" -eq 0 ]
}
sheet_is() {
	# sheet_is OUTPUT_CSS THEME_CSS: the published stylesheet is the
	# theme's, then the rules every page needs (themes/templates/base.css)
	cat "$2" "$ROOT/themes/templates/base.css" | cmp -s - "$1"
}
