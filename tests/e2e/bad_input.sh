#!/bin/sh
# Bad sources: each is reported as path:line: problem, the good posts are
# still built, the summary counts what was skipped, and the status is 1.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S="$T/site"
mkdir -p "$S/posts" "$S/pages"
printf 'site_title: Bad input\nsite_url: http://example.org\n' >"$S/site.yaml"
printf -- '---\ntitle: Good one\ndate: 2025-01-01\n---\nFine.\n' >"$S/posts/good.md"
printf -- '---\ntitle: Broken\ndate: 2025-01-02\ntags:\n  - [a, b\n---\nx\n' >"$S/posts/yaml.md"
printf -- '---\ntitle: Dated\ndate: 32nd of May\n---\nx\n' >"$S/posts/date.md"
printf -- '---\ndate: 2025-01-03\n---\nNo title here.\n' >"$S/posts/notitle.md"
printf -- '---\ntitle: Latin-1\ndate: 2025-01-04\n---\nCaf\351\n' >"$S/posts/latin1.md"
ln -s "$T/does-not-exist.md" "$S/posts/unreadable.md"

"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
rc=$?
check "exit status 1" test "$rc" -eq 1
check "broken YAML: path and line" grep -q "posts/yaml.md:[4-6]: error: " "$T/err"
check "unknown date: path, line, value" contains "$T/err" "posts/date.md:3: error: unknown date '32nd of May'"
check "no title: a warning naming the file" grep -q "posts/notitle.md:1: warning: no title: the file name 'notitle' is used" "$T/err"
check "no title: built with the file name as title, as BSSG does" grep -q "<h1[^>]*>notitle</h1>" "$S/output/2025/01/03/notitle/index.html"
check "not UTF-8: path and line" contains "$T/err" "posts/latin1.md:5: error: not valid UTF-8 text"
check "unreadable: path and reason" grep -q "posts/unreadable.md: error: cannot read: " "$T/err"
check "the good post is still built" test -f "$S/output/2025/01/01/good-one/index.html"
check "summary counts the skipped posts" contains "$T/out" "4 skipped because of errors"
check "summary counts the published post" contains "$T/out" "from 2 posts"
check "no page for a broken post" sh -c "! ls '$S/output/2025/01/02' 2>/dev/null | grep -q ."

# --strict stops at the first problem and writes nothing.
rm -rf "$S/output" "$S/.ssg-cache"
"$SSG" build -C "$S" --strict >"$T/out" 2>"$T/err"
check "--strict exits 1" test $? -eq 1
check "--strict reports exactly one error" test "$(grep -c ': error: ' "$T/err")" -eq 1
check "--strict writes nothing" test ! -e "$S/output"

# A failed build keeps the previous output whole.
rm "$S/posts/yaml.md" "$S/posts/date.md" "$S/posts/notitle.md" "$S/posts/latin1.md" "$S/posts/unreadable.md"
"$SSG" build -C "$S" -q
check "clean site builds" test $? -eq 0
cp -R "$S/output" "$T/before"
mkdir -p "$S/templates"
printf '{{#post}}unclosed\n' >"$S/templates/post.mustache"
"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "broken template fails the build" test $? -eq 1
check "broken template named with its line" grep -q "post:[0-9]*: error: " "$T/err"
check "previous output left intact" diff -r "$T/before" "$S/output"
rm -rf "$S/templates"

# Two posts with one URL: an error naming both files.
printf -- '---\ntitle: Good one\ndate: 2025-01-01\n---\nTwin.\n' >"$S/posts/twin.md"
"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "duplicate URL exits 1" test $? -eq 1
check "duplicate URL names both files" grep -q "posts/twin.md: error: URL /2025/01/01/good-one/ is also the URL of .*posts/good.md" "$T/err"
check "the first source keeps the URL" contains "$S/output/2025/01/01/good-one/index.html" "Fine."
rm "$S/posts/twin.md"

# The cache folder cannot be written (a file took its name): the build
# warns about each thing it could not save, and its pages are right.
"$SSG" build -C "$S" -q
rm -rf "$S/.ssg-cache"
echo "not a folder" >"$S/.ssg-cache"
printf -- '---\ntitle: Cached nowhere\ndate: 2025-02-01\n---\nStill here.\n' >"$S/posts/nowhere.md"
"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "unwritable cache: the build succeeds" test $? -eq 0
check "unwritable cache: the source cache is named" grep -q "sources.bin: warning: cannot save the build cache" "$T/err"
check "unwritable cache: the list of outputs is named, once" test "$(grep -c "warning: cannot save the list of outputs" "$T/err")" -eq 1
check "unwritable cache: the new post is built" grep -q "Still here" "$S/output/2025/02/01/cached-nowhere/index.html"
rm -f "$S/.ssg-cache" "$S/posts/nowhere.md"

# Bad settings and usage.
printf 'posts_per_page: many\n' >>"$S/site.yaml"
"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "bad setting exits 1" test $? -eq 1
check "bad setting names site.yaml and line" grep -q "site.yaml:3: error: posts_per_page: 'many'" "$T/err"
"$SSG" build --no-such-flag >"$T/out" 2>"$T/err"
check "unknown flag exits 2" test $? -eq 2
check "unknown flag prints usage" grep -q "usage: ssg build" "$T/err"
"$SSG" frobnicate >"$T/out" 2>"$T/err"
check "unknown command exits 2" test $? -eq 2
"$SSG" build -C "$T/nowhere" >"$T/out" 2>"$T/err"
check "missing site.yaml exits 1" test $? -eq 1
check "missing site.yaml says so" grep -q "site.yaml: error: cannot read" "$T/err"
# Names that do not fit where they are kept: said, not cut.
long=$(printf 'a%.0s' $(seq 1 70))
mkdir -p "$T/long/themes/$long"
printf 'site_title: Long names\n' >"$T/long/site.yaml"
printf 'body { color: black; }\n' >"$T/long/themes/$long/style.css"
"$SSG" build -C "$T/long" -q --set "theme=$long" >"$T/out" 2>"$T/err"
check "a theme name too long to keep fails the build" test $? -eq 1
check "... naming the setting and the limit" grep -q "site.yaml: error: theme: the name '$long' is too long (at most 63 bytes)" "$T/err"
"$SSG" serve -C "$T/long" --host "$(printf 'h%.0s' $(seq 1 300))" >"$T/out" 2>"$T/err"
check "serve --host too long exits 2" test $? -eq 2
check "... and says which option" grep -q -- "--host: 'hhh.*' is too long" "$T/err"
for cmd in build serve check config themes; do
	check "$cmd --help exits 0" "$SSG" "$cmd" --help
done

summary
