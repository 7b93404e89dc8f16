#!/bin/sh
# The search page in headless Chromium, as a reader uses it
# (tests/themes/search_page.js): results as words are typed, the address
# /search/?q=words and the form, Tab to the results, an edited post found
# by its new word after an incremental build, a clear message and no
# exception for bad queries, and the noscript text without JavaScript.
# Installs what it needs as tests/e2e/themes.sh does.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
DIR="$ROOT/tests/themes"

setup_failed() {
	fail "$1"
	summary
	exit 1
}

[ -x "$SSG" ] || setup_failed "bin/ssg is missing (build it first)"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM SSG
msg=$(sh "$DIR/setup.sh") || setup_failed "$msg"

S="$T/site"
# the posts and page of tests/e2e/search.sh
mkdir -p "$S"
cp -R "$ROOT/tests/fixtures/search/posts" "$ROOT/tests/fixtures/search/pages" "$S/"
cat >"$S/site.yaml" <<'YAML'
site_title: "Search in a browser"
site_url: "http://example.org"
search: true
YAML
"$SSG" build -C "$S" -q 2>"$T/err" || setup_failed "ssg build: $(cat "$T/err")"
node "$DIR/search_page.js" "$S" >"$T/log" 2>&1
cat "$T/log" >&2
P=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$T/log")
F=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$T/log")
PASSED=$((PASSED + ${P:-0}))
FAILED=$((FAILED + ${F:-1}))
summary
