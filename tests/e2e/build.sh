#!/bin/sh
# ssg build end to end: output paths, HTML, links, bad input, rebuilds.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

cp -R "$ROOT/tests/fixtures/basic" "$T/site"
S="$T/site"

# 1. The exact set of output paths.
"$SSG" build -C "$S" -q >"$T/out.txt" 2>"$T/err.txt"
check "fixture builds with status 0" test $? -eq 0
check "quiet build prints nothing" test ! -s "$T/out.txt"
(cd "$S/output" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) >"$T/paths"
if diff -u "$ROOT/tests/fixtures/basic.paths" "$T/paths" >"$T/diff"; then pass
else fail "output paths differ:"; cat "$T/diff" >&2; fi

# 2. One post's HTML: title escaped, date formatted in the site time zone.
P="$S/output/2025/04/07/escaping-script-alert-x-script-quotes/index.html"
check "post title escaped in <title>" contains "$P" \
	"<title>Escaping &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quotes&quot; | Fixture &amp; &lt;Friends&gt;</title>"
check "post title escaped in <h1>" contains "$P" \
	'<h1 class="post-title p-name">Escaping &lt;script&gt;'
check "no raw script from the title" sh -c "! grep -q '<script>alert' '$P'"
check "description escaped in attribute" contains "$P" \
	'<meta name="description" content="Text with &lt;b&gt;markup&lt;/b&gt; &amp; entities">'
check "date in date_format and time zone" contains "$P" \
	'<time class="dt-published" datetime="2025-04-07T10:30:00+02:00">07 April 2025</time>'
check "inline HTML in Markdown passes through" contains "$P" '<em>inline HTML</em>'
check "text is escaped" contains "$P" '5 &gt; 3 &amp; 2 &lt; 4'
check "heading has an id" contains "$P" '<h2 id="a-heading">'
check "html lang" contains "$P" '<html lang="en">'
check "skip link" contains "$P" '<a class="skip-link" href="#main">'
check "main landmark" contains "$P" '<main id="main"'
check "stylesheet under the base path, linked by its hash" grep -q 'href="/blog/css/style.css?v=[0-9a-f]\{8\}"' "$P"
check "canonical URL" contains "$P" \
	'<link rel="canonical" href="https://example.org/blog/2025/04/07/escaping-script-alert-x-script-quotes/">'
check "author from the site" contains "$P" 'Ada Lovelace'
U="$S/output/2025/02/14/creme-brulee-uber-alles/index.html"
check "post author from front matter" contains "$U" 'Émile'
check "unicode text kept" contains "$U" '日本語, ελληνικά, русский'
H="$S/output/2025/01/10/raw-html/index.html"
check ".html post passes through" contains "$H" \
	'<p>This post is <strong>HTML</strong> and passes through unchanged.</p>'
M="$S/output/2025/03/01/tables-lists-and-code/index.html"
check "GFM table" contains "$M" '<th align="center">Works</th>'
check "task list" contains "$M" 'type="checkbox" checked=""'
check "strikethrough" contains "$M" '<del>strike</del>'
check "autolink" contains "$M" '<a href="https://example.com">'
check "footnote" contains "$M" 'class="footnotes"'
check "featured image under base path, as a picture" grep -q '<div class="featured-image"><picture><source type="image/avif" srcset="/blog/images/pixel-1\.[0-9a-f]*\.avif 1w"' "$M"
check "image caption" contains "$M" '<div class="image-caption">A single pixel</div>'
check "drafts are left out" sh -c "! grep -rq 'Not yet' '$S/output'"
check "home page 1 lists the newest post" contains "$S/output/index.html" 'Escaping &lt;script&gt;'
check "pagination link" contains "$S/output/index.html" 'href="/blog/page/2/" class="next" rel="next"'
check "page 2 links back" contains "$S/output/page/2/index.html" 'href="/blog/" class="prev" rel="prev"'
check "theme stylesheet copied" sheet_is "$S/output/css/style.css" "$ROOT/themes/default/style.css"
check "static file copied" cmp "$S/output/images/pixel.png" "$S/static/images/pixel.png"
if command -v xmllint >/dev/null 2>&1; then
	check "rss.xml is well-formed" xmllint --noout "$S/output/rss.xml"
	check "sitemap.xml is well-formed" xmllint --noout "$S/output/sitemap.xml"
fi
check "feed pubDate is RFC 822" contains "$S/output/rss.xml" '<pubDate>Mon, 07 Apr 2025 10:30:00 +0200</pubDate>'

# 3. Every internal link and stylesheet resolves.
"$SSG" check -C "$S" >"$T/check.txt" 2>&1
check "ssg check passes on the fixture" test $? -eq 0
cp "$S/output/about/index.html" "$T/about.bak"
printf '<a href="/blog/nowhere/">x</a><a href="#missing">y</a>' >>"$S/output/about/index.html"
"$SSG" check -C "$S" >"$T/check.txt" 2>&1
check "ssg check finds broken links (exit 1)" test $? -eq 1
check "broken path reported as page: link: problem" contains "$T/check.txt" \
	'about/index.html: /blog/nowhere/: no such file in the output'
check "broken anchor reported" contains "$T/check.txt" \
	'about/index.html: #missing: no element with this id'
cp "$T/about.bak" "$S/output/about/index.html"

# 4. A second build changes nothing.
find "$S/output" -type f -exec ls -l --time-style=+%s.%N {} + | sort >"$T/before"
"$SSG" build -C "$S" >"$T/out2.txt" 2>&1
check "rebuild renders and writes nothing" contains "$T/out2.txt" '(0 rendered, 0 changed)'
find "$S/output" -type f -exec ls -l --time-style=+%s.%N {} + | sort >"$T/after"
check "rebuild leaves every file untouched" cmp "$T/before" "$T/after"

# 4b. The stylesheet's link changes with it, and with nothing else, so a
# reader's browser may keep it a year.
v1=$(grep -o 'style.css?v=[0-9a-f]*' "$P")
echo 'p { margin: 0 }' >>"$S/static/css-extra.txt"
"$SSG" build -C "$S" -q
check "an unrelated change keeps the stylesheet link" test "$(grep -o 'style.css?v=[0-9a-f]*' "$P")" = "$v1"
mkdir -p "$S/themes/edited"
{ cat "$ROOT/themes/default/style.css"; echo 'p { margin: 0 }'; } >"$S/themes/edited/style.css"
"$SSG" build -C "$S" -q -t edited -o "$T/edited"
v2=$(grep -o 'style.css?v=[0-9a-f]*' "$T/edited/2025/04/07/escaping-script-alert-x-script-quotes/index.html")
check "an edited stylesheet gets a new link ($v1, $v2)" test -n "$v2" -a "$v1" != "$v2"
rm -r "$S/themes/edited" "$S/static/css-extra.txt"

# 4c. So do the site's own custom_css and the search page's script.
mkdir -p "$S/static/css"
echo 'h1 { color: teal }' >"$S/static/css/extra.css"
printf 'custom_css: /css/extra.css\n' >>"$S/site.yaml"
"$SSG" build -C "$S" -q
c1=$(grep -o 'css/extra.css?v=[0-9a-f]\{8\}' "$P")
check "custom_css is linked by its hash" test -n "$c1"
echo 'h2 { color: teal }' >>"$S/static/css/extra.css"
"$SSG" build -C "$S" -q
c2=$(grep -o 'css/extra.css?v=[0-9a-f]\{8\}' "$P")
check "an edited custom_css gets a new link ($c1, $c2)" test -n "$c2" -a "$c1" != "$c2"
check "the search page links its script by its hash" grep -q 'src="/blog/search/search.js?v=[0-9a-f]\{8\}"' "$S/output/search/index.html"
sed -i '/^custom_css:/d' "$S/site.yaml"
rm -r "$S/static/css"
"$SSG" build -C "$S" -q

# 5. --drafts includes both kinds of drafts.
"$SSG" build -C "$S" -o "$T/with-drafts" --drafts -q
check "draft: true included with --drafts" test -f "$T/with-drafts/2024/12/24/not-yet/index.html"
check "drafts/ included with --drafts" test -f "$T/with-drafts/2025/05/01/a-draft-in-drafts/index.html"

# 6. Removing a post removes its page and its tag.
rm "$S/posts/2025-02-14-unicode.md"
"$SSG" build -C "$S" -q
check "deleted post's page removed" test ! -e "$S/output/2025/02/14/creme-brulee-uber-alles/index.html"
check "empty folders removed" test ! -d "$S/output/2025/02"
check "tag with no posts removed" test ! -e "$S/output/tags/cooking/index.html"
check "files not written by ssg are kept" sh -c "touch '$S/output/keep.txt' && '$SSG' build -C '$S' -q && test -f '$S/output/keep.txt'"

# git-style -C before the command
rm -rf "$S/output"
(cd / && "$SSG" -C "$S" build -q) >/dev/null 2>&1
check "ssg -C DIR build builds DIR" test -f "$S/output/index.html"
# A site's own static/css/style.css replaces the theme's: the pages link
# it by the hash of its own bytes, so an edit of it reaches readers.
O2="$T/own"
cp -R "$ROOT/tests/fixtures/basic" "$O2"
mkdir -p "$O2/static/css"
echo 'body { color: #123456; }' >"$O2/static/css/style.css"
"$SSG" build -C "$O2" -q
v1=$(grep -o 'css/style.css?v=[0-9a-f]*' "$O2/output/index.html" | head -n 1)
echo 'body { color: #654321; }' >"$O2/static/css/style.css"
"$SSG" build -C "$O2" -q
v2=$(grep -o 'css/style.css?v=[0-9a-f]*' "$O2/output/index.html" | head -n 1)
check "the site's own stylesheet is published" grep -q 654321 "$O2/output/css/style.css"
check "an edit of the site's own stylesheet changes the ?v= pages link it by ($v1, $v2)" \
    test -n "$v1" -a "$v1" != "$v2"
(cd / && "$SSG" -C /nonexistent-site build) >"$T/cerr" 2>&1
check "ssg -C to a missing folder: exit 1" test $? -eq 1
check "... naming the folder" grep -q -- "-C /nonexistent-site" "$T/cerr"

# SOURCE_DATE_EPOCH is the build's time: a post dated after it is not due
mkdir -p "$T/sde/posts"
printf 'site_title: Epoch\n' >"$T/sde/site.yaml"
printf -- '---\ntitle: Early\ndate: 2020-01-01\n---\nOld.\n' >"$T/sde/posts/early.md"
printf -- '---\ntitle: Later\ndate: 2021-06-01\n---\nNew.\n' >"$T/sde/posts/later.md"
SOURCE_DATE_EPOCH=1609459200 "$SSG" build -C "$T/sde" -q 2>"$T/sde.err"	# 2021-01-01
check "SOURCE_DATE_EPOCH: a post dated after it is not yet published" test ! -e "$T/sde/output/2021/06/01/later/index.html"
check "... one before it is" test -e "$T/sde/output/2020/01/01/early/index.html"
check "... and the footer gives its year" grep -q "&copy; 2021" "$T/sde/output/index.html"
SOURCE_DATE_EPOCH=soon "$SSG" build -C "$T/sde" -q 2>"$T/sde.err"
check "a SOURCE_DATE_EPOCH that is no number is said" grep -q "SOURCE_DATE_EPOCH: 'soon' is not a number of seconds" "$T/sde.err"
check "... and the clock's time is used" test -e "$T/sde/output/2021/06/01/later/index.html"

summary
