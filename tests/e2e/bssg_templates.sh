#!/bin/sh
# A BSSG site's own templates/header.html and footer.html frame every HTML
# page, their placeholders filled as BSSG's templates.sh and generate_*.sh
# fill them; editing one re-renders every page, and nothing else.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

cp -R "$ROOT/tests/fixtures/bssg" "$T/site"
S="$T/site"
P="$S/public"
"$SSG" import bssg "$S" >/dev/null 2>&1
build() {
	"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
	RC=$?
}
# title FILE TEXT: the page's <title> is TEXT.
title() {
	grep -qF -- "<title>$2</title>" "$1"
}
# rendered: the number of pages the last build rendered.
rendered() {
	sed -n 's/.*(\([0-9]*\) rendered.*/\1/p' "$T/out"
}
pages() {
	find "$P" -name '*.html' | sort
}

build
check "build exits 0" test "$RC" -eq 0
N=$(pages | wc -l)
check "the site has HTML pages" test "$N" -ge 20
missing=0
for f in $(pages); do
	contains "$f" "<!-- fixture: custom header -->" || missing=$((missing + 1))
	contains "$f" "<!-- fixture: custom footer -->" || missing=$((missing + 1))
done
check "every HTML page has the site's header and footer" test "$missing" -eq 0
check "ssg's own header is not there" sh -c \
    "! grep -l 'class=\"skip-link\"' \$(find '$P' -name '*.html')"
left=$(pages | xargs sed 's/{{visitor_counter}}//g' | grep -c '{{')
check "no placeholder BSSG fills is left" test "$left" -eq 0
check "feeds are not framed" sh -c "! grep -q 'fixture' '$P/rss.xml' '$P/sitemap.xml'"
check "the tag-feed marker is replaced on the tag index" sh -c \
    "! grep -q 'bssg:tag_rss_link' '$P/tags/index.html' '$P/authors/index.html'"
check "the tag-feed marker is left as written elsewhere, as BSSG leaves it" \
    contains "$P/2025/03/10/spring/index.html" '<!-- bssg:tag_rss_link -->'


# Unknown placeholders: left as written, one warning naming file and line.
check "unknown placeholder kept" contains "$P/index.html" \
    '<p class="counter">{{visitor_counter}}</p>'
check "unknown placeholder warned at its line" contains "$T/err" \
    "templates/header.html:35: warning: {{visitor_counter}} is not a placeholder"
check "warned once" test "$(grep -c visitor_counter "$T/err")" -eq 1

# Titles per page kind, as BSSG writes them: "Page title | Site title".
SITE='Notes from the &quot;Shell&quot; &amp; more'
check "post title" title "$P/2025/03/10/spring/index.html" \
    "Spring is here | $SITE"
check "page title" title "$P/about/index.html" "About | $SITE"
check "home title" title "$P/index.html" "Home | $SITE"
check "home page 2 title" title "$P/page/2/index.html" \
    "$SITE - Page 2 | $SITE"
check "tag index title" title "$P/tags/index.html" "All Tags | $SITE"
check "tag title" title "$P/tags/shell/index.html" \
    "Posts tagged with: Shell | $SITE"
check "archives title" title "$P/archives/index.html" "Archives | $SITE"
check "year title" title "$P/archives/2025/index.html" \
    "Archives for 2025 | $SITE"
check "month title" title "$P/archives/2025/03/index.html" \
    "Archives for March 2025 | $SITE"
check "authors title" title "$P/authors/index.html" "All Authors | $SITE"
check "author title" title "$P/authors/grace-hopper/index.html" \
    "Posts by Grace Hopper | $SITE"

# Per-page values.
POST="$P/2025/03/10/spring/index.html"
check "post og:type" contains "$POST" '<meta property="og:type" content="article">'
check "home og:type" contains "$P/index.html" '<meta property="og:type" content="website">'
check "post URL" contains "$POST" \
    '<meta property="og:url" content="https://example.org/notes/2025/03/10/spring/">'
check "post description" contains "$POST" \
    '<meta name="description" content="The first warm day.">'
check "page description is the site's" contains "$P/about/index.html" \
    '<meta name="description" content="A BSSG site, moved to ssg">'
check "post schema" contains "$POST" '"@type": "Article"'
check "home schema" contains "$P/index.html" '"@type": "WebSite"'
check "home schema names the site" contains "$P/index.html" \
    '"name": "Notes from the \"Shell\" \u0026 more"'
check "month schema" contains "$P/archives/2025/03/index.html" \
    '"description": "Archive of posts from March 2025"'
check "tag schema" contains "$P/tags/shell/index.html" '"@type": "CollectionPage"'
check "tag feed link on tag pages" contains "$P/tags/shell/index.html" \
    'href="https://example.org/notes/tags/shell/rss.xml">'
check "site language" contains "$P/index.html" '<html lang="en">'
check "rss_filename" contains "$P/index.html" \
    'title="RSS Feed" href="https://example.org/notes/rss.xml"'

# Menus: the header's ends with RSS, the footer's with Subscribe via RSS.
check "header menu" contains "$P/index.html" \
    '<a href="https://example.org/notes/">Home</a> <a href="https://example.org/notes/about/">About</a> <a href="https://example.org/notes/contact-me/">Contact me</a> <a href="https://example.org/notes/tags/">Tags</a> <a href="https://example.org/notes/authors/">Authors</a> <a href="https://example.org/notes/archives/">Archives</a> <a href="https://example.org/notes/rss.xml">RSS</a>'
check "footer menu" contains "$P/index.html" \
    '<a href="https://example.org/notes/archives/">Archives</a> &middot; <a href="https://example.org/notes/tags/">Tags</a> &middot; <a href="https://example.org/notes/authors/">Authors</a> &middot; <a href="https://example.org/notes/rss.xml">Subscribe via RSS</a>'

# The footer: year, author (the post's own on posts), messages.
Y=$(date +%Y)
check "footer year and site author" contains "$P/index.html" \
    "&copy; $Y Ada Lovelace. All rights reserved."
check "footer author of a post" contains \
    "$P/2025/02/01/c-and-shell/index.html" "&copy; $Y Grace Hopper."
check "messages in the footer" contains "$P/index.html" \
    'This site was generated with <a href="https://bssg.dragas.net">BSSG</a>, a Bash Static Site Generator.'
check "spaced message placeholder" contains "$P/index.html" \
    '<a href="#">Back to Top</a>'

# Incremental: nothing changed, nothing rendered.
build
check "second build renders nothing" test "$(rendered)" -eq 0
# Editing footer.html re-renders every HTML page.
sed -i 's/custom footer/edited footer/' "$S/templates/footer.html"
build
check "footer edit builds" test "$RC" -eq 0
check "footer edit re-renders every page" test "$(rendered)" -ge "$N"
check "every page has the edited footer" test \
    "$(grep -l 'fixture: edited footer' $(pages) | wc -l)" -eq "$N"
# Editing one post re-renders it and its lists, not every page.
touch -d '2000-01-01' "$P/about/index.html"
printf 'One more line.\n' >>"$S/src/2025-03-10-spring.md"
build
check "post edit re-renders some pages" test "$(rendered)" -ge 1
check "post edit does not re-render every page" test "$(rendered)" -lt "$N"
check "post edit leaves the about page" test \
    "$(stat -c %Y "$P/about/index.html")" -lt 1000000000
check "post edit is published" contains "$POST" "One more line."

# Language, message overrides, Fediverse and rel="me", custom CSS.
sed -i -e 's/^site_lang:.*/site_lang: it/' \
    -e 's/^fediverse_creator:.*/fediverse_creator: "@ada@example.social"/' \
    -e 's|^rel_me:.*|rel_me: https://example.social/@ada|' \
    -e 's|^custom_css:.*|custom_css: css/custom.css|' \
    -e 's/^messages:.*/messages:\n  MSG_BACK_TO_TOP: "Su"/' "$S/site.yaml"
build
check "language build exits 0" test "$RC" -eq 0
check "site_lang_code" contains "$P/index.html" '<html lang="it">'
check "Italian BSSG message" contains "$P/index.html" "Tutti i diritti riservati."
check "Italian menu word" contains "$P/index.html" '/notes/authors/">Autori</a>'
check "message override" contains "$P/index.html" '<a href="#">Su</a>'
check "fediverse creator" contains "$P/index.html" \
    '<meta name="fediverse:creator" content="@ada@example.social">'
check "rel me" contains "$P/index.html" \
    '<link rel="me" href="https://example.social/@ada">'
check "custom css" contains "$P/index.html" \
    '<link rel="stylesheet" href="https://example.org/notes/css/custom.css">'

# A header without {{fediverse_creator_meta}}: posts get it before </head>.
sed -i 's/{{fediverse_creator_meta}}//' "$S/templates/header.html"
build
check "creator before </head> on posts" sh -c \
    "grep -A1 'fediverse:creator' '$POST' | grep -q '</head>'"
check "no creator on other pages" sh -c \
    "! grep -q 'fediverse:creator' '$P/index.html'"

# One of the two missing: an error naming it, the old pages kept.
cp "$POST" "$T/before.html"
rm "$S/templates/footer.html"
printf 'Changed again.\n' >>"$S/src/2025-03-10-spring.md"
build
check "missing footer fails" test "$RC" -eq 1
check "missing footer named" contains "$T/err" "templates/footer.html: error: missing"
check "old page kept" cmp -s "$POST" "$T/before.html"

# Neither: ssg's own header and footer.
rm "$S/templates/header.html"
build
check "without BSSG templates the build exits 0" test "$RC" -eq 0
check "ssg's own header" contains "$P/index.html" 'class="skip-link"'
check "no BSSG header" sh -c "! grep -q 'fixture' '$P/index.html'"

summary
