#!/bin/sh
# What BSSG's users got in 0.33-0.41, on a small site, as a reader gets it:
# the three hide switches (hide_menu, hide_reading_time,
# hide_index_descriptions) on and off, the excerpt control
# (generate_excerpt), RSS enclosures of featured images (url, length in
# bytes, type), a BSSG 0.41 config.sh imported with every setting known,
# and a deleted post, incrementally.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

S="$T/site"
mkdir -p "$S/posts" "$S/pages" "$S/static/images"
cp "$ROOT/tests/fixtures/basic/static/images/pixel.png" "$S/static/images/"
printf '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n' >"$S/static/images/dot.svg"
cat >"$S/site.yaml" <<'EOF'
site_title: "Switches"
site_description: "The site's own words"
site_url: "https://example.org"
author_name: "Ada"
posts_per_page: 10
EOF
post() {
	# post FILE TITLE DATE TAGS [EXTRA-FRONT-MATTER]
	printf -- '---\ntitle: %s\ndate: %s\ntags: %s\n%b---\n%s is the first sentence of this post, long enough to read.\n\nMore words follow here.\n' \
	    "$2" "$3" "$4" "${5:-}" "$2" >"$S/posts/$1"
}
post one.md "Alpha" "2025-01-01 10:00:00" "a" "description: Alpha's own words\nimage: /images/pixel.png\n"
post two.md "Bravo" "2025-02-01 10:00:00" "b"
post three.md "Charlie" "2025-03-01 10:00:00" "b, gone"
post four.md "Delta" "2025-04-01 10:00:00" "a"
post five.md "Echo" "2025-05-01 10:00:00" "e" "image: /images/dot.svg\n"
printf -- '---\ntitle: About\n---\nAbout this site.\n' >"$S/pages/about.md"

"$SSG" build -C "$S" -q 2>"$T/err"
O="$S/output"
A="$O/2025/01/01/alpha/index.html"
B="$O/2025/02/01/bravo/index.html"
check "the site builds" test -f "$O/index.html"
check "build: no warnings" test ! -s "$T/err"

# The switches off (BSSG's defaults): all shown.
check "default: the header has its menu" contains "$O/index.html" '<nav class="site-nav"'
check "default: a post shows its reading time" contains "$A" 'class="meta reading-time">1 min read'
check "default: the home page shows descriptions" contains "$O/index.html" \
    '<div class="summary">Alpha&#39;s own words</div>'
check "default: a tag page shows descriptions" contains "$O/tags/a/index.html" \
    '<div class="summary">Alpha&#39;s own words</div>'
# generate_excerpt on: a post without a description is described by its
# first words, in the head and in lists
check "excerpt: meta description of a post without one" contains "$B" \
    '<meta name="description" content="Bravo is the first sentence of this post'
check "excerpt: og:description" contains "$B" \
    '<meta property="og:description" content="Bravo is the first sentence'
check "excerpt: in the home page's list" contains "$O/index.html" \
    '<div class="summary">Bravo is the first sentence'

# RSS 2.0 enclosure: url, length (the published file's bytes), type.
check "rss: the post with a PNG has one enclosure" \
    test "$(grep -c '<enclosure ' "$O/rss.xml")" -eq 1
url=$(grep '<enclosure url="[^"]*pixel' "$O/rss.xml" | sed -n 's/.*<enclosure url="\([^"]*\)".*/\1/p')
len=$(grep '<enclosure url="[^"]*pixel' "$O/rss.xml" | sed -n 's/.*<enclosure [^>]*length="\([0-9]*\)".*/\1/p')
file="$O/${url#https://example.org/}"
check "rss: the enclosure's URL is a published file" test -f "$file"
check "rss: its length is the file's size" test "$len" = "$(wc -c <"$file" | tr -d ' ')"
check "rss: its type" grep -q '<enclosure [^>]*type="image/png"/>' "$O/rss.xml"
check "rss: the tag feed has it too" grep -q '<enclosure ' "$O/tags/a/rss.xml"
if command -v xmllint >/dev/null 2>&1; then
	check "rss: well-formed" xmllint --noout "$O/rss.xml"
fi
# images off: the file as published, its size
printf 'images: false\n' >>"$S/site.yaml"
"$SSG" build -C "$S" -q
check "images off: the enclosure names the image as written" \
    grep -q '<enclosure url="https://example.org/images/pixel.png" length="90" type="image/png"/>' "$O/rss.xml"
# the image grows and nothing else changes: the feeds follow, incrementally
printf '0123456789' >>"$S/static/images/pixel.png"
"$SSG" build -C "$S" -q
check "images off: a new size is in the feed at the next build" \
    grep -q '<enclosure url="https://example.org/images/pixel.png" length="100" type="image/png"/>' "$O/rss.xml"
cp "$ROOT/tests/fixtures/basic/static/images/pixel.png" "$S/static/images/"
# an SVG's bytes are in no fingerprint: no enclosure (its length could
# go stale), only media:content
check "rss: no enclosure for an SVG" sh -c "! grep -q '<enclosure url=\"[^\"]*dot.svg' '$O/rss.xml'"
check "rss: media:content for it" grep -q '<media:content url="https://example.org/images/dot.svg"' "$O/rss.xml"
sed -i '/^images: false$/d' "$S/site.yaml"

# The switches on.
cat >>"$S/site.yaml" <<'EOF'
hide_menu: true
hide_reading_time: true
hide_index_descriptions: true
generate_excerpt: false
EOF
"$SSG" build -C "$S" -q 2>"$T/err"
check "on: builds without warnings" test ! -s "$T/err"
check "hide_menu: no menu in the header" sh -c "! grep -q '<nav class=\"site-nav\"' '$O/index.html' '$A'"
check "hide_menu: the page is still reachable from the footer" contains "$O/index.html" 'href="/about/"'
check "hide_reading_time: no reading time on a post" sh -c "! grep -q 'min read' '$A' '$B'"
check "hide_index_descriptions: none on the home page" sh -c "! grep -q 'class=\"summary\"' '$O/index.html'"
check "hide_index_descriptions: none on a tag page" sh -c "! grep -q 'class=\"summary\"' '$O/tags/a/index.html'"
check "hide_index_descriptions: the post keeps its own" contains "$A" \
    '<meta name="description" content="Alpha&#39;s own words">'
check "generate_excerpt false: the site's description instead" contains "$B" \
    '<meta name="description" content="The site&#39;s own words">'
check "generate_excerpt false: nor in the feed" sh -c "! grep -q 'Bravo is the first' '$O/rss.xml'"
# and off again: as before
sed -i '/^hide_\|^generate_excerpt/d' "$S/site.yaml"
"$SSG" build -C "$S" -q
check "off again: menu, reading time and descriptions back" sh -c \
    "grep -q '<nav class=\"site-nav\"' '$O/index.html' && grep -q 'min read' '$A' && grep -q 'Bravo is the first' '$O/index.html'"

# A BSSG site's own header.html: hide_menu empties its {{menu_items}}.
F="$T/frame"
cp -R "$ROOT/tests/fixtures/bssg" "$F"
printf 'HIDE_MENU="true"\nHIDE_READING_TIME="true"\n' >>"$F/config.sh.local"
"$SSG" import bssg "$F" >/dev/null 2>&1
check "import: HIDE_MENU read" grep -q '^hide_menu: true' "$F/site.yaml"
"$SSG" build -C "$F" -q 2>/dev/null
check "frame: the header's <nav> is empty" sh -c \
    "! sed -n '/<nav>/,/<\/nav>/p' '$F/public/index.html' | grep -q 'href'"
check "frame: the footer's links stay" sh -c \
    "sed -n '/<footer/,\$p' '$F/public/index.html' | grep -q 'href=.*/about/'"
check "frame: no reading time" sh -c "! grep -rq 'min read' '$F/public/2025'"

# A BSSG 0.41 config.sh: every setting it has is one ssg knows.
C="$T/bssg041"
mkdir -p "$C/src"
cat >"$C/config.sh" <<'EOF'
SRC_DIR="src"
PAGES_DIR="pages"
OUTPUT_DIR="output"
TEMPLATES_DIR="templates"
THEMES_DIR="themes"
STATIC_DIR="static"
DRAFTS_DIR="drafts"
THEME="default"
CACHE_DIR=".bssg_cache"
CLEAN_OUTPUT=false
REBUILD_AFTER_POST=true
REBUILD_AFTER_EDIT=true
PRECOMPRESS_ASSETS="false"
BUILD_MODE="normal"
CUSTOM_CSS=""
SITE_TITLE="My new BSSG site"
SITE_DESCRIPTION="A site"
SITE_URL="http://localhost:8000"
AUTHOR_NAME="Anonymous"
AUTHOR_EMAIL="anonymous@example.com"
REL_ME_URL=""
FEDIVERSE_CREATOR=""
DATE_FORMAT="%Y-%m-%d %H:%M:%S %z"
TIMEZONE="local"
SHOW_TIMEZONE="false"
POSTS_PER_PAGE=10
RSS_ITEM_LIMIT=15
RSS_INCLUDE_FULL_CONTENT="false"
RSS_FILENAME="rss.xml"
INDEX_SHOW_FULL_CONTENT="false"
HIDE_MENU="false"
HIDE_READING_TIME="true"
HIDE_INDEX_DESCRIPTIONS="true"
GENERATE_EXCERPT="false"
ENABLE_ARCHIVES=true
ENABLE_AUTHOR_PAGES=false
ENABLE_AUTHOR_RSS=false
SHOW_AUTHORS_MENU_THRESHOLD=2
URL_SLUG_FORMAT="Year/Month/Day/slug"
ENABLE_TAG_RSS=true
ARCHIVES_LIST_ALL_POSTS="false"
PAGE_URL_FORMAT="slug"
MARKDOWN_PROCESSOR="commonmark"
SITE_LANG="en"
ENABLE_RELATED_POSTS=true
RELATED_POSTS_COUNT=3
BSSG_SERVER_PORT_DEFAULT=8000
BSSG_SERVER_HOST_DEFAULT="localhost"
DEPLOY_AFTER_BUILD="false"
DEPLOY_SCRIPT=""
EOF
printf -- '---\ntitle: Hello\ndate: 2026-06-01 10:00:00 +0000\n---\nHello there, reader.\n' >"$C/src/hello.md"
"$SSG" import bssg "$C" >"$T/out" 2>"$T/err"
check "0.41 import: exit 0" test $? -eq 0
check "0.41 import: no setting unknown to ssg" sh -c "! grep -q 'not a BSSG setting ssg knows' '$C/site.yaml'"
check "0.41 import: no warnings" test ! -s "$T/err"
for kv in "hide_menu: false" "hide_reading_time: true" \
    "hide_index_descriptions: true" "generate_excerpt: false"; do
	check "0.41 import: $kv" grep -q "^$kv	# " "$C/site.yaml"
done
"$SSG" build -C "$C" -q 2>"$T/err"
check "0.41 site builds without warnings" sh -c "test -f '$C/output/index.html' && test ! -s '$T/err'"
check "0.41 site: no reading time" sh -c "! grep -rq 'min read' '$C/output/2026'"

# A deleted post: its page and its only tag's page go, every list that
# showed it forgets it, pages that never showed it are not written again,
# and the result equals a full build.
"$SSG" build -C "$S" -q
ino() { ls -i "$1" | awk '{print $1}'; }
about=$(ino "$O/about/index.html")
alpha=$(ino "$A")
check "before: Charlie is listed" sh -c "grep -q 'Charlie' '$O/index.html' '$O/rss.xml' '$O/sitemap.xml' '$O/tags/index.html' '$O/archives/2025/03/index.html'"
rm "$S/posts/three.md"
"$SSG" build -C "$S" >"$T/out" 2>&1
check "deleted: its page is gone" test ! -e "$O/2025/03/01/charlie/index.html"
check "deleted: its only tag's page is gone" test ! -e "$O/tags/gone/index.html"
check "deleted: its only tag's feed is gone" test ! -e "$O/tags/gone/rss.xml"
for f in index.html rss.xml atom.xml sitemap.xml tags/index.html tags/b/index.html \
    archives/index.html archives/2025/index.html; do
	check "deleted: $f no longer lists it" sh -c "! grep -q -i 'charlie' '$O/$f'"
done
check "deleted: the tags index counts one post under b" grep -q 'href="/tags/b/" rel="tag">b <span class="tag-count">(1)</span>' "$O/tags/index.html"
check "deleted: its month's archive is gone" test ! -e "$O/archives/2025/03/index.html"
check "deleted: its neighbours link each other" contains "$O/2025/04/01/delta/index.html" \
    '/2025/02/01/bravo/'
check "deleted: a page that never showed it is not written again" test "$(ino "$O/about/index.html")" = "$about"
check "deleted: nor a post far from it" test "$(ino "$A")" = "$alpha"
cp -Rp "$S" "$T/fresh"
rm -rf "$T/fresh/output" "$T/fresh/.ssg-cache"
"$SSG" build -C "$T/fresh" --force -q
diff -r "$O" "$T/fresh/output" >"$T/diff" 2>&1
check "deleted: the result equals a full build" test ! -s "$T/diff"
head -20 "$T/diff" >&2
summary
