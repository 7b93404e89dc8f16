#!/bin/sh
# BSSG's feature set: tags and tag feeds, archives, authors, related posts,
# feeds (RSS, Atom) and sitemap, head metadata, languages, drafts and
# scheduling, git dates, custom and secondary pages; escaping of what
# users write in every context; every option on and off.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S="$T/site"
mkdir -p "$S/posts" "$S/pages" "$S/static/img"
# what users may write, as it must appear: <script>&"' (in site.yaml, \"
# for "; front matter is literal text inside the outer quotes)
XSS='<script>&\"'"'"
FXSS='<script>&"'"'"
cat >"$S/site.yaml" <<YAML
site_title: "Features $XSS"
site_url: "https://example.org"
author_name: "Site Owner"
posts_per_page: 3
timezone: UTC
enable_author_pages: true
enable_author_rss: true
show_authors_menu_threshold: 2
related_posts_count: 2
YAML
post() {
	# post FILE TITLE DATE TAGS [EXTRA FRONT MATTER LINES]
	f=$1 title=$2 date=$3 tags=$4
	shift 4
	{
		echo "---"
		echo "title: \"$title\""
		echo "date: $date"
		echo "tags: $tags"
		for l in "$@"; do echo "$l"; done
		echo "---"
		echo "Body of $title."
	} >"$S/posts/$f"
}
post a.md "Alpha" "2025-01-05 10:00:00 +0000" "Café, cooking, travel"
post b.md "Beta" "2025-01-20 10:00:00 +0000" "cafe, cooking" "author_name: \"Bea $FXSS\""
post c.md "Gamma" "2025-02-03 10:00:00 +0000" "CAFÉ, travel" "lastmod: 2025-03-01 12:00:00 +0000"
post d.md "Delta" "2024-12-31 23:30:00 -0200" "misc" 'image: /img/pic.png' "image_caption: \"Cap $FXSS\""
post e.md "日本語のタイトル" "2024-11-11 11:11:00 +0000" "日本" "description: \"Desc $FXSS\""
post f.md "Escape" "2024-10-10 10:00:00 +0000" "misc" 'slug: "../../../etc/evil"'
post future.md "Tomorrow" "2099-01-01 00:00:00 +0000" "misc"
post draft.md "Hidden" "2024-09-09 00:00:00 +0000" "misc" "draft: true"
cp "$ROOT/tests/fixtures/basic/static/images/pixel.png" "$S/static/img/pic.png"
printf -- '---\ntitle: Home page\nslug: index\n---\nWelcome home.\n' >"$S/pages/home.md"
printf -- '---\ntitle: About\n---\nAbout.\n' >"$S/pages/about.md"
printf -- '---\ntitle: Imprint\nsecondary: true\n---\nLegal.\n' >"$S/pages/imprint.md"

"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "builds" test $? -eq 0
O="$S/output"

# Tags: one page for a tag however it is cased or accented.
check "tag index" test -f "$O/tags/index.html"
check "café, cafe and CAFÉ share one tag page" test -f "$O/tags/cafe/index.html"
check "no second tag page for a variant" test "$(ls "$O/tags" | grep -ci caf)" -eq 1
check "the tag page lists all three posts" test "$(grep -c 'class="post-entry"' "$O/tags/cafe/index.html")" -eq 3
check "the tag name is the newest post's spelling" contains "$O/tags/cafe/index.html" 'Posts tagged with: CAFÉ</h1>'
check "tag feed" xmllint --noout "$O/tags/cafe/rss.xml"
check "non-Latin tag gets a page" sh -c "ls '$O/tags' | grep -q '^tag-'"

# Archives, by the date as written.
check "archive index" test -f "$O/archives/index.html"
check "year archive" test -f "$O/archives/2025/index.html"
check "month archive" test -f "$O/archives/2025/01/index.html"
check "a -0200 date late on 31 December stays in December" test -f "$O/archives/2024/12/index.html"
check "month names in the archive" contains "$O/archives/index.html" 'January'

# Authors.
check "authors index" test -f "$O/authors/index.html"
check "author page for the site author" test -f "$O/authors/site-owner/index.html"
check "author feed" xmllint --noout "$O/authors/site-owner/rss.xml"
check "Authors menu at the threshold" contains "$O/index.html" '>Authors</a>'
B=$(ls -d "$O"/authors/bea-* | head -n 1)
check "author name escaped on their page" contains "$B/index.html" 'Bea &lt;script&gt;&amp;&quot;&#39;'

# Related posts: most shared tags first.
A="$O/2025/01/05/alpha/index.html"
check "related posts section" contains "$A" 'class="related-posts"'
rel=$(sed -n '/class="related-posts"/,/<\/section>/p' "$A" | grep -o '<h4><a href="[^"]*"' | head -n 1)
check "the most related post comes first (Beta or Gamma share two tags)" sh -c "echo '$rel' | grep -q -e beta -e gamma"

# Feeds and sitemap.
for f in rss.xml atom.xml sitemap.xml tags/cooking/rss.xml; do
	check "$f is well-formed XML" xmllint --noout "$O/$f"
done
check "RSS dates are RFC 822" grep -Eq '<pubDate>(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} [+-][0-9]{4}</pubDate>' "$O/rss.xml"
check "Atom dates are RFC 3339" grep -Eq '<updated>[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2})</updated>' "$O/atom.xml"
check "lastmod as atom:updated in RSS" contains "$O/rss.xml" '<atom:updated>2025-03-01T12:00:00Z</atom:updated>'
check "RSS self link" contains "$O/rss.xml" '<atom:link href="https://example.org/rss.xml" rel="self"'
check "RSS creator" contains "$O/rss.xml" '<dc:creator>Site Owner</dc:creator>'
# the image as shared: its published copy (metadata stripped), by absolute URL
check "RSS image" grep -Eq '<media:content url="https://example.org/img/pic-1\.[0-9a-f]{8}\.png" medium="image" type="image/png"/>' "$O/rss.xml"
check "titles escaped in XML" contains "$O/rss.xml" '<title>Features &lt;script&gt;&amp;&quot;&apos;</title>'
check "sitemap lists posts with lastmod" grep -q '<loc>https://example.org/2025/02/03/gamma/</loc><lastmod>2025-03-01T12:00:00Z</lastmod>' "$O/sitemap.xml"
check "robots.txt names the sitemap" contains "$O/robots.txt" 'Sitemap: https://example.org/sitemap.xml'
check "404 page" test -f "$O/404.html"

# Head metadata.
G="$O/2025/02/03/gamma/index.html"
check "OpenGraph type article" contains "$G" '<meta property="og:type" content="article">'
check "OpenGraph URL" contains "$G" '<meta property="og:url" content="https://example.org/2025/02/03/gamma/">'
check "Twitter card" contains "$G" '<meta name="twitter:card" content="summary">'
D="$O/2024/12/31/delta/index.html"
check "OpenGraph image is absolute" grep -Eq '<meta property="og:image" content="https://example.org/img/pic-1\.[0-9a-f]{8}\.png">' "$D"
check "OpenGraph image size" contains "$D" '<meta property="og:image:width" content="1">'
check "caption escaped in HTML" contains "$D" '<div class="image-caption">Cap &lt;script&gt;&amp;&quot;&#39;</div>'
check "caption escaped in alt attribute" contains "$D" 'alt="Cap &lt;script&gt;&amp;&quot;&#39;"'
check "Updated on shown when lastmod differs" contains "$G" 'class="dt-updated"'
check "no Updated on without lastmod" sh -c "! grep -q dt-updated '$A'"
check "feed alternate links" contains "$G" 'type="application/atom+xml"'
if command -v python3 >/dev/null 2>&1; then
	for p in "$G" "$D" "$O/index.html"; do
		check "JSON-LD parses: ${p#$O/}" python3 -c '
import json, re, sys
t = open(sys.argv[1]).read()
m = re.findall(r"<script type=\"application/ld\+json\">(.*?)</script>", t, re.S)
assert m
for x in m: json.loads(x)' "$p"
	done
	check "JSON-LD keeps the text (no HTML escaping inside JSON)" python3 -c '
import json, re, sys
t = open(sys.argv[1]).read()
d = json.loads(re.search(r"<script type=\"application/ld\+json\">(.*?)</script>", t, re.S).group(1))
assert d["@type"] == "BlogPosting" and d["author"]["name"].startswith("Bea <script>&\"")' "$O/2025/01/20/beta/index.html"
fi
check "JSON-LD cannot close its script element" sh -c "! grep -q 'ld+json\">[^<]*</script>[^<]' '$O/2025/01/20/beta/index.html'"

# Slugs never leave the output folder.
check "a ../ slug stays inside the output" test -f "$O/2024/10/10/etc-evil/index.html"
check "nothing written outside the output" test ! -e "$T/etc"
check "non-Latin title: a slug from the file name" test -f "$O/2024/11/11/e/index.html"
check "description escaped in its attribute" contains "$O/2024/11/11/e/index.html" 'content="Desc &lt;script&gt;&amp;&quot;&#39;"'

# Drafts and scheduled posts.
check "a future post is left out" test ! -e "$O/2099"
check "a draft is left out" sh -c "! grep -rq Hidden '$O'"
"$SSG" build -C "$S" -o "$T/all" --future --drafts -q
check "--future includes it" test -f "$T/all/2099/01/01/tomorrow/index.html"
check "--drafts includes draft: true" test -f "$T/all/2024/09/09/hidden/index.html"

# Custom home page and secondary pages.
check "pages/ with slug: index is the home page" contains "$O/index.html" 'Welcome home.'
check "website JSON-LD on the home page" contains "$O/index.html" '"@type":"WebSite"'
check "the index page also stays at /index/, as BSSG writes both" contains \
    "$O/index/index.html" 'Welcome home.'
check "secondary pages listed in pages.html" contains "$O/pages.html" 'Imprint'
check "Pages menu item" contains "$O/about/index.html" 'href="/pages.html"'
check "secondary page not in the main menu" sh -c "! grep -q '>Imprint</a></li>' '$O/about/index.html'"

# Languages.
sed -i 's/^timezone: UTC/timezone: UTC\nsite_lang: it/' "$S/site.yaml"
"$SSG" build -C "$S" -q 2>"$T/err"
check "Italian strings" contains "$O/tags/cafe/index.html" "Articoli taggati con: "
check "Italian month names" contains "$O/archives/index.html" 'Gennaio'
check "html lang" contains "$O/index.html" '<html lang="it">'
sed -i 's/^site_lang: it/site_lang: xx/' "$S/site.yaml"
"$SSG" build -C "$S" -q 2>"$T/err"
check "unknown language: warning" grep -q "no translation for site_lang 'xx': using English" "$T/err"
check "unknown language: English" contains "$O/tags/cafe/index.html" 'Posts tagged'
sed -i '/^site_lang:/d' "$S/site.yaml"

# Every option off.
sed -i '/^enable_author_pages:/d' "$S/site.yaml"
cat >>"$S/site.yaml" <<YAML
enable_archives: false
enable_tag_rss: false
enable_author_pages: false
enable_related_posts: false
rss_include_full_content: true
index_show_full_content: true
YAML
"$SSG" build -C "$S" -q
check "archives off: none" test ! -e "$O/archives"
check "tag feeds off: none" test ! -e "$O/tags/cafe/rss.xml"
check "author pages off: none" test ! -e "$O/authors"
check "related off: none" sh -c "! grep -q related-posts '$A'"
check "full content in the feed" grep -q '&lt;p&gt;Body of Alpha.&lt;/p&gt;' "$O/rss.xml"
check "ssg check passes with options off" "$SSG" check -C "$S"

# Two builds give the same bytes.
cp -Rp "$S" "$T/again"
rm -rf "$T/again/output" "$T/again/.ssg-cache"
"$SSG" build -C "$T/again" -q
check "a second build from scratch is byte-identical" diff -r "$O" "$T/again/output"

# lastmod from git.
if command -v git >/dev/null 2>&1; then
	G2="$T/gitsite"
	cp -R "$S" "$G2"
	rm -rf "$G2/output" "$G2/.ssg-cache"
	echo "git_lastmod: true" >>"$G2/site.yaml"
	(cd "$G2" && git init -q && git add -A &&
	    GIT_AUTHOR_DATE="2025-06-01T12:00:00Z" GIT_COMMITTER_DATE="2025-06-01T12:00:00Z" \
	    git -c user.name=t -c user.email=t@t commit -qm one)
	"$SSG" build -C "$G2" -q
	check "git_lastmod: lastmod from the last commit" grep -q '<loc>https://example.org/2025/01/05/alpha/</loc><lastmod>2025-06-01T12:00:00Z</lastmod>' "$G2/output/sitemap.xml"
	check "git_lastmod: front matter lastmod wins" grep -q '<loc>https://example.org/2025/02/03/gamma/</loc><lastmod>2025-03-01T12:00:00Z</lastmod>' "$G2/output/sitemap.xml"
fi
summary
