#!/bin/sh
# Golden pages, in mandoc's style: one output of each page kind (a post, a
# page, the home page and its second page, a tag, the tag index, the
# archives of a month, of a year and all of them, the 404 page, the page
# list, RSS, Atom, the sitemap, robots.txt; with more settings, authors,
# an author, author and tag feeds, the search page, a Markdown source)
# built from tests/fixtures/basic, and the Gemini capsule's home, a
# post, a tag and the archives from tests/fixtures/search (its page,
# feed and robots.txt from the basic fixture), compared byte for byte with tests/golden/. The
# sources get a fixed time first, so that what depends on a file's time
# (a page's lastmod) is the same on every checkout, and the build a fixed
# time (SOURCE_DATE_EPOCH), so that the footers' year is the same in
# every year.
#
# usage: tests/e2e/golden.sh [--update]   (make golden: writes the
# expected files again after showing what changes)
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
G="$ROOT/tests/golden"
update=
[ "${1:-}" = --update ] && update=1

PAGES='index.html page/2/index.html 2025/03/01/tables-lists-and-code/index.html
about/index.html tags/cooking/index.html tags/index.html
archives/2025/03/index.html archives/2025/index.html archives/index.html
404.html pages.html rss.xml atom.xml sitemap.xml robots.txt'
CAPSULE='index.gmi 2024/01/01/watching-the-moon/index.gmi tags/sea/index.gmi
archives/index.gmi'
# the kinds the basic settings leave out: author pages and feeds, tag
# feeds, the search page, a published Markdown source, and the capsule's
# page, feed and robots.txt
KINDS='authors/index.html authors/ada-lovelace/index.html
authors/ada-lovelace/rss.xml tags/cooking/rss.xml search/index.html
2025/03/01/tables-lists-and-code/index.md'
KINDS_CAPSULE='about/index.gmi atom.xml robots.txt'

site() {	# site FIXTURE: a copy in $T/FIXTURE with its sources' time fixed
	cp -R "$ROOT/tests/fixtures/$1" "$T/$1"
	find "$T/$1" -exec touch -d "2025-06-01 12:00:00 UTC" {} +
}
site basic
site search
# and the build a fixed time (the footers' year), as reproducible builds do
SOURCE_DATE_EPOCH=1767182400	# 2025-12-31 12:00 UTC
export SOURCE_DATE_EPOCH
cp -R "$T/basic" "$T/kinds"
printf 'gemini: true\n' >>"$T/search/site.yaml"
"$SSG" build -C "$T/basic" -q
check "the basic fixture builds" test $? -eq 0
"$SSG" build -C "$T/search" -q
check "the search fixture builds with its capsule" test $? -eq 0
"$SSG" build -C "$T/kinds" -q --set enable_author_pages=true \
    --set enable_author_rss=true --set show_authors_menu_threshold=1 \
    --set enable_tag_rss=true --set gemini=true \
    --set gemini_url=gemini://example.org --set gemini_markdown_link=true \
    2>/dev/null
check "the basic fixture builds with every kind of page" test $? -eq 0

# compare KIND FILE GOT: FILE of tests/golden/KIND against GOT
compare() {
	want="$G/$1/$2"
	if [ -n "$update" ]; then
		mkdir -p "$(dirname "$want")"
		if [ -f "$want" ] && ! cmp -s "$want" "$3"; then
			diff -u "$want" "$3" | sed 's/^/    /'
		fi
		cp "$3" "$want"
		pass
	elif [ ! -f "$want" ]; then
		fail "$1/$2: no golden file (make golden)"
	elif cmp -s "$want" "$3"; then
		pass
	else
		fail "$1/$2 differs from the golden file (make golden shows how):"
		diff -u "$want" "$3" | head -n 40 >&2
	fi
}
for f in $PAGES; do
	compare basic "$f" "$T/basic/output/$f"
done
for f in $CAPSULE; do
	compare capsule "$f" "$T/search/capsule/$f"
done
for f in $KINDS; do
	compare kinds "$f" "$T/kinds/output/$f"
done
for f in $KINDS_CAPSULE; do
	compare kinds-capsule "$f" "$T/kinds/capsule/$f"
done
summary
