#!/bin/sh
# BSSG's page structure: every class BSSG writes on a kind of page
# (tests/fixtures/bssg.classes, from BSSG's own build of the fixture) is on
# ssg's page of the same path, with ssg's own templates, so that BSSG's
# theme stylesheets style ssg's pages. And BSSG's words on them. Then the
# look fixture (tests/fixtures/bssg-look), page kind by page kind, element
# for element against BSSG's own build of it (tests/e2e/bssg_tree.py).
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

cp -R "$ROOT/tests/fixtures/bssg" "$T/site"
S="$T/site"
P="$S/public"
rm -r "$S/templates"	# ssg's own header, footer and page templates
"$SSG" import bssg "$S" >/dev/null 2>&1
"$SSG" build -C "$S" -q 2>"$T/err"
check "the fixture builds" test -f "$P/index.html"

# classes FILE: the class names used in FILE, one per line.
classes() {
	grep -o 'class="[^"]*"' "$1" | sed 's/^class="//; s/"$//' | tr ' ' '\n' |
	    sort -u
}
while IFS="$(printf '\t')" read -r path want; do
	case $path in '#'*|'') continue ;; esac
	classes "$P/$path" >"$T/have" 2>/dev/null
	for c in $want; do
		check "$path has BSSG's class $c" grep -qx -- "$c" "$T/have"
	done
done <"$ROOT/tests/fixtures/bssg.classes"

# BSSG's words and elements.
check "home: Latest Posts" contains "$P/index.html" '<h1 class="page-title">Latest Posts</h1>'
check "list: Published on DATE by AUTHOR" contains "$P/tags/shell/index.html" \
    'Published on 01 February 2025 by <strong>Grace Hopper</strong></div>'
check "list: no reading time" sh -c "! grep -q 'min read' '$P/tags/shell/index.html'"
check "post: reading time in .reading-time" contains \
    "$P/2025/03/10/spring/index.html" '<p class="meta reading-time">1 min read</p>'
check "page body in .container" contains "$P/index.html" '<div class="container">'
check "list excerpt in .summary" contains "$P/tags/shell/index.html" \
    '<div class="summary">The same program, twice.</div>'

# Element for element: every page of the look fixture.
# BSSG's output beside the site, as a user has it: import keeps the URLs
# of its tags made from text outside ASCII (Café is at /tags/caf/, 日本語
# at /tags/-/), and nothing BSSG published is gone after ssg's build.
L="$T/look"
cp -R "$ROOT/tests/fixtures/bssg-look" "$L"
cp -R "$ROOT/tests/fixtures/bssg-look.out" "$L/output"
"$SSG" import bssg "$L" >/dev/null 2>"$T/err"
check "import pins Café at BSSG's tags/caf/" grep -qx '  "Café": "caf"' "$L/site.yaml"
check "import pins 日本語 at BSSG's tags/-/" grep -qx '  "日本語": "-"' "$L/site.yaml"
check "import says where each tag is kept" contains "$T/err" \
    "note: tag 'Café' kept at /tags/caf/ as BSSG published it"
check "ASCII tags are not pinned" sh -c "! grep -q '\"Notes\":' '$L/site.yaml'"
mv "$L/output" "$L/bssg-out"
"$SSG" build -C "$L" -q -o "$L/out" 2>"$T/err"
check "the look fixture builds" test -f "$L/out/index.html"
check "the pinned tag is at BSSG's URL" test -f "$L/out/tags/-/index.html"
check "the post links it there" contains "$L/out/2025/03/05/coffee/index.html" \
    'href="/tags/-/" class="tag" rel="tag">日本語</a>'
mv "$L/out" "$L/output"
"$SSG" check -C "$L" --against "$L/bssg-out" >"$T/out" 2>&1
check "check --against BSSG's build: exit 0" test $? -eq 0
check "check --against BSSG's build: nothing gone" grep -q "checked: 0 gone" "$T/out"
mv "$L/output" "$L/out"
pages=$(cd "$ROOT/tests/fixtures/bssg-look.out" && find . -name index.html |
    sed 's|^\./||; s|/\{0,1\}index\.html$||' | sort)
# shellcheck disable=SC2086
python3 "$ROOT/tests/e2e/bssg_tree.py" --extra-tag 日本語 \
    "$ROOT/tests/fixtures/bssg-look.out" \
    "$L/out" $pages >"$T/tree" 2>&1
cat "$T/tree" >&2
P2=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$T/tree")
F2=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$T/tree")
PASSED=$((PASSED + ${P2:-0}))
FAILED=$((FAILED + ${F2:-1}))
check "every page of BSSG's build compared" test "${P2:-0}" -ge 26
summary
