#!/bin/sh
# The demo site in content/ builds without a single warning, and every
# internal link in it resolves.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -R "$ROOT/content" "$T/site"
rm -rf "$T/site/output" "$T/site/.ssg-cache"

"$SSG" build -C "$T/site" >"$T/out" 2>"$T/err"
check "demo site builds with status 0" test $? -eq 0
check "no warnings or errors" test ! -s "$T/err"
posts=$(find "$T/site/posts" -name '*.md' -o -name '*.html' | wc -l)
pages=$(find "$T/site/pages" -name '*.md' -o -name '*.html' | wc -l)
check "at least 8 posts ($posts)" test "$posts" -ge 8
check "at least 3 pages ($pages)" test "$pages" -ge 3
check "summary counts every post" contains "$T/out" "from $posts posts"
"$SSG" check -C "$T/site" >"$T/check" 2>&1
check "every internal link resolves" test $? -eq 0
check "links were really checked" grep -q "^[0-9,]* links in [0-9,]* pages checked: 0 broken" "$T/check"
"$SSG" build -C "$T/site" --drafts -o "$T/drafts" -q 2>"$T/err"
check "demo site builds with its drafts" test $? -eq 0
summary
