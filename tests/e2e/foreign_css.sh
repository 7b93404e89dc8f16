#!/bin/sh
# A stylesheet written for BSSG's HTML, and ssg's themes of BSSG's names, in
# headless Chromium at 360 and 1280 px: no visible skip link until focused,
# a menu without bullets on one row (tests/themes/foreign.js).
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
DIR="$ROOT/tests/themes"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM
if ! msg=$(sh "$DIR/setup.sh"); then
	fail "$msg"
	summary
	exit 1
fi
cp -R "$ROOT/tests/fixtures/basic" "$T/site"
mkdir -p "$T/site/themes"
cp -R "$ROOT/tests/fixtures/foreign-theme/bssg-like" "$T/site/themes/"
THEMES="bssg-like text-only minimal default"
for t in $THEMES; do
	"$SSG" build -C "$T/site" -q -t "$t" -o "$T/out/$t" -u "http://127.0.0.1/$t" 2>"$T/err" ||
	    fail "build with $t: $(cat "$T/err")"
done
# shellcheck disable=SC2086
node "$DIR/foreign.js" "$ROOT" "$T/out" $THEMES >"$T/log" 2>&1
cat "$T/log" >&2
P=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$T/log")
F=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$T/log")
PASSED=$((PASSED + ${P:-0}))
FAILED=$((FAILED + ${F:-1}))
summary
