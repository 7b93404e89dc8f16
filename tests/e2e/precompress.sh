#!/bin/sh
# precompress_assets: .gz and .br beside every text output, equal to it
# once decompressed, written only for changed outputs, removed with their
# page or when the setting is turned off; and the same output whatever -j.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -R "$ROOT/tests/fixtures/basic" "$T/site"
S="$T/site"
O="$S/output"
echo "precompress_assets: true" >>"$S/site.yaml"
"$SSG" build -C "$S" -q
check "builds with precompression" test $? -eq 0
missing=""
for f in $(cd "$O" && find . -type f \( -name '*.html' -o -name '*.css' -o -name '*.xml' -o -name '*.txt' \)); do
	[ -f "$O/$f.gz" ] && [ -f "$O/$f.br" ] || missing="$missing $f"
done
check "every html, css, xml and txt file has .gz and .br:$missing" test -z "$missing"
check "no sibling for a png" test ! -e "$O/images/pixel.png.gz"
check ".gz decompresses to the page" sh -c "gzip -dc '$O/index.html.gz' | cmp - '$O/index.html'"
if command -v brotli >/dev/null 2>&1; then
	check ".br decompresses to the page" sh -c "brotli -dc '$O/index.html.br' | cmp - '$O/index.html'"
elif command -v python3 >/dev/null 2>&1 && python3 -c 'import brotli' 2>/dev/null; then
	check ".br decompresses to the page" python3 -c 'import brotli,sys; assert brotli.decompress(open(sys.argv[1],"rb").read()) == open(sys.argv[2],"rb").read()' "$O/index.html.br" "$O/index.html"
else
	fail "no brotli decoder to check .br (make deps-test installs brotli)"
fi
P="$O/2025/02/14/creme-brulee-uber-alles/index.html"
before=$(stat -c %Y.%y "$O/about/index.html.gz")
sleep 1
printf '\nMore text.\n' >>"$S/posts/2025-02-14-unicode.md"
"$SSG" build -C "$S" -q
check "changed page: its .gz is new" sh -c "gzip -dc '$P.gz' | grep -q 'More text.'"
check "unchanged page: its .gz untouched" test "$(stat -c %Y.%y "$O/about/index.html.gz")" = "$before"
rm "$S/posts/2025-02-14-unicode.md"
"$SSG" build -C "$S" -q
check "deleted page: its .gz and .br go too" sh -c "test ! -e '$P.gz' && test ! -e '$P.br'"
"$SSG" build -C "$S" -q
rm "$O/about/index.html.br"
"$SSG" build -C "$S" -q
check "a deleted .br is written again though nothing changed" test -f "$O/about/index.html.br"
sed -i 's/^precompress_assets: true/precompress_assets: false/' "$S/site.yaml"
"$SSG" build -C "$S" -q
check "setting turned off: no .gz left" test -z "$(find "$O" -name '*.gz' -o -name '*.br')"

for j in 1 2 8; do
	rm -rf "$T/j$j"
	cp -Rp "$ROOT/tests/fixtures/basic" "$T/j$j"
	"$SSG" build -C "$T/j$j" -q -j "$j"
done
check "-j 1 and -j 2 give the same output" diff -r "$T/j1/output" "$T/j2/output"
check "-j 1 and -j 8 give the same output" diff -r "$T/j1/output" "$T/j8/output"
summary
