#!/bin/sh
# search: true: the search page, its script and the sharded index under
# search/, and a Search link in the menu; ssg search finds posts by
# title, body, tag and prefix; an edit rewrites the shards of the words
# it adds or drops, the lengths, the page of the document table it is in
# and no others; a no-change build writes nothing; --force writes the
# same bytes; site_lang sv keeps accented letters apart; and search.js
# folds words and ranks as ssg does (with node, where there).
# tests/e2e/search_browser.sh uses the page in Chromium.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S="$T/site"
O="$S/output"
# three posts and a page (tests/fixtures/search, also the browser's)
mkdir -p "$S"
cp -R "$ROOT/tests/fixtures/search/posts" "$ROOT/tests/fixtures/search/pages" "$S/"
cat >"$S/site.yaml" <<'YAML'
site_title: "Search test"
site_url: "http://localhost:8000"
search: true
YAML

# twenty more, older: the document table takes three pages (8 a page)
i=10
while [ $i -lt 30 ]; do
	cat >"$S/posts/filler$i.md" <<MD
---
title: Filler number $i
date: 2020-01-$i 10:00:00
---
Padding post $i, about nothing in particular.
MD
	i=$((i + 1))
done

"$SSG" build -C "$S" -q
check "builds with search: true" test $? -eq 0
for f in index.html search.js manifest.json len.json d/0.json d/2.json; do
	check "search/$f written" test -s "$O/search/$f"
done
check "shards under search/s/" test -s "$O/search/s/ti.json"
check "the shard of keepers" test -s "$O/search/s/ke.json"
check "a Greek word's shard is named by its code points" \
    test -s "$O/search/s/_03b5_03bb.json"
check "the manifest counts the 24 documents" \
    contains "$O/search/manifest.json" '"docs":24'
check "the manifest says the words are folded (site_lang en)" \
    contains "$O/search/manifest.json" '"fold":1'
check "the manifest lists the shard ti" contains "$O/search/manifest.json" '"ti"'
# the pages first, then the posts from the oldest: the newest is last
check "the document table has the title" contains "$O/search/d/2.json" \
    '["Tide tables for sailors","/2024/03/01/tide-tables-for-sailors/"'
check "the page is first, in the first page of the table" \
    sh -c "sed -n 2p '$O/search/d/0.json' | grep -q '^\\[\"About\",\"/about/\"'"
check "no fourth page" test ! -e "$O/search/d/3.json"
check "a length for each document" test "$(tr ',' '\n' <"$O/search/len.json" | wc -l)" -eq 24
check "the page has a GET form" contains "$O/search/index.html" \
    '<form class="search-form" method="get" action=""'
check "the page has a q field" contains "$O/search/index.html" \
    '<input type="search" id="search-q" name="q"'
check "the page explains itself without JavaScript" \
    grep -q '<noscript><p>Search needs JavaScript.*href="/archives/".*href="/tags/"' \
    "$O/search/index.html"
check "the results are a live region" contains "$O/search/index.html" \
    '<ol id="search-results" class="search-results" aria-live="polite">'
check "the status line is a status region" grep -q \
    '<p id="search-status" class="search-status meta" role="status"' "$O/search/index.html"
check "a message for a query with no words to search for" \
    contains "$O/search/index.html" 'data-nowords="No words to search for'
check "the menu links the search page" contains "$O/index.html" \
    '<a href="/search/">Search</a>'
check "the menu marks the search page as current" contains \
    "$O/search/index.html" '<a href="/search/" aria-current="page">Search</a>'
check "the page loads the script by its hash" grep -q \
    '<script src="/search/search.js?v=[0-9a-f]\{8\}" defer>' "$O/search/index.html"
check "the script is the one of the themes" \
    cmp "$O/search/search.js" "$ROOT/themes/templates/search.js"
gz=$(gzip -9c "$O/search/search.js" | wc -c)
check "the script is under 10 KB compressed ($gz)" test "$gz" -lt 10240

# precompressed in a new output folder too, as deploy push builds
"$SSG" build -C "$S" -o "$T/pc" -q --set precompress_assets=true
check "a fresh precompressed build" test $? -eq 0
for f in manifest.json s/ti.json d/2.json len.json; do
	check "search/$f has its .gz beside it, the same bytes" \
	    sh -c "gzip -dc '$T/pc/search/$f.gz' | cmp -s - '$T/pc/search/$f'"
	check "search/$f has its .br" test -s "$T/pc/search/$f.br"
done
check "code blocks are not indexed" sh -c "! grep -rq kerneloops '$O/search/s'"

# first: search WORDS prints the titles, best first
first() { "$SSG" search -C "$S" "$@" 2>/dev/null | head -n 1 | cut -f 1; }
check "a title word" test "$(first sourdough)" = "Sourdough bread"
check "the title is weighted up" test "$(first tables)" = "Tide tables for sailors"
check "a body word" test "$(first lighthouse)" = "Tide tables for sailors"
check "a tag" test "$(first navigation)" = "Tide tables for sailors"
check "a page" test "$(first written)" = "About"
check "accents and case folded" test "$(first CREME FRAICHE)" = "Sourdough bread"
check "ß as ss" test "$(first strasse)" = "About"
check "Greek, accents off" test "$(first ΕΛΛΗΝΙΚΑ)" = "About"
check "the last word is a prefix" test "$(first sourd)" = "Sourdough bread"
check "AND between words" test "$(first moon lighthouse)" = "Tide tables for sailors"
check "a word the title holds ranks first" test "$(first moon)" = "Watching the moon"
check "the URL is printed" sh -c "'$SSG' search -C '$S' sourdough | grep -q '	/2024/02/01/sourdough-bread/\$'"
check "equal scores: the newest post first" test "$(first padding)" = "Filler number 29"
check "-n 2 shows two" test "$("$SSG" search -C "$S" -n 2 padding 2>/dev/null | wc -l)" -eq 2
check "and says how many there are" sh -c "'$SSG' search -C '$S' -n 2 padding 2>&1 | grep -q 'best 2 of 20'"
check "no match exits 1" sh -c "! '$SSG' search -C '$S' zebra"
check "no match is said" sh -c "'$SSG' search -C '$S' zebra 2>&1 | grep -q 'no post or page'"
check "a query of no words is said" sh -c "'$SSG' search -C '$S' '?!' 2>&1 | grep -q 'no words'"
long=$(awk 'BEGIN { for (i = 0; i < 2000; i++) printf "x" }')
check "a very long query is said" sh -c "'$SSG' search -C '$S' '$long' 2>&1 | grep -q 'too long'"
check "search --help" "$SSG" search --help
check "bad usage exits 2" sh -c "'$SSG' search -C '$S'; test \$? -eq 2"
check "--words folds as the index" test "$("$SSG" search -w 'Crème ÜBER' | tr '\n' ' ')" = "creme uber "

# an edit: the new word found, the old one gone, only its shards written
sleep 1
touch -d '2000-01-01' "$O/search/s/mo.json" "$O/search/s/so.json" \
    "$O/search/d/0.json" "$O/search/d/1.json" "$O/search/d/2.json" \
    "$O/search/len.json"
sed -i 's/Lighthouse keepers/Harbourmasters/' "$S/posts/tide.md"
bin="$S/.ssg-cache/search.bin"
ino=$(stat -c %i "$bin") size=$(stat -c %s "$bin")
"$SSG" build -C "$S" -q
check "the cache of words: the edit's words appended, not the file written again" \
    test "$(stat -c %i "$bin")" = "$ino" -a "$(stat -c %s "$bin")" -gt "$size"
old() { test "$(stat -c %Y "$1")" -lt 1000000000; }
declare_old() { echo 'old() { test "$(stat -c %Y "$1")" -lt 1000000000; };'; }
check "a new word is found" test "$(first harbourmasters)" = "Tide tables for sailors"
check "an old word is gone" sh -c "! '$SSG' search -C '$S' lighthouse"
check "the cache of words has the edited body's words" \
    grep -aq "^harbourmasters	1\$" "$S/.ssg-cache/search.bin"
check "the shard of a dropped word is gone" test ! -e "$O/search/s/ke.json"
check "the manifest no longer lists it" sh -c "! grep -q '\"ke\"' '$O/search/manifest.json'"
check "a shard the edit leaves alone is not rewritten" \
    test "$(stat -c %Y "$O/search/s/so.json")" -lt 1000000000
check "the shard of moon, whose postings stay, is not rewritten" \
    test "$(stat -c %Y "$O/search/s/mo.json")" -lt 1000000000
check "an edit past the excerpt leaves its page of the table" old "$O/search/d/2.json"
check "and the other pages" sh -c "$(declare_old) old '$O/search/d/0.json' && old '$O/search/d/1.json'"
check "the lengths are rewritten" sh -c "! test \$(stat -c %Y '$O/search/len.json') -lt 1000000000"

# a title changed: its page of the table is rewritten, not the other
sleep 1
cp -R "$O/search" "$T/before"
sed -i 's/^title: Filler number 29$/title: Filler retitled/' "$S/posts/filler29.md"
"$SSG" build -C "$S" -q
check "a new title is found" test "$(first retitled)" = "Filler retitled"
check "a new title: its page of the table rewritten" \
    sh -c "! cmp -s '$T/before/d/2.json' '$O/search/d/2.json'"
check "a new title: the other pages left" sh -c "$(declare_old) old '$O/search/d/0.json' && old '$O/search/d/1.json'"
check "a new title: the shard of a word it has not yet is left" old "$O/search/s/so.json"
rm -rf "$T/before"
# the same with the URL kept (a slug): only the title tells the page
sed -i 's/^title: Filler number 28$/title: Filler number 28\nslug: filler-number-28/' \
    "$S/posts/filler28.md"
"$SSG" build -C "$S" -q
cp "$O/search/d/2.json" "$T/page2"
sed -i 's/^title: Filler number 28$/title: Filler twenty-eight/' "$S/posts/filler28.md"
"$SSG" build -C "$S" -q
check "a new title, the same URL: its page of the table made again" \
    sh -c "! cmp -s '$T/page2' '$O/search/d/2.json'"
check "a new title, the same URL: found" test "$(first twenty)" = "Filler twenty-eight"
rm -f "$T/page2"

# a word said once more: its count changes, not the words of its shard,
# and the shard is made again; the others are left
sleep 1
cp -R "$O/search" "$T/before"
touch -d '2000-01-01' "$O/search/s/so.json"
sed -i 's/with tides mentioned once\./with tides mentioned once, tides./' "$S/posts/moon.md"
"$SSG" build -C "$S" -q
check "a word said twice: its shard is made again" \
    sh -c "! cmp -s '$T/before/s/ti.json' '$O/search/s/ti.json'"
check "a word said twice: a shard of other words is left" old "$O/search/s/so.json"
rm -rf "$T/before"

# a new post, the newest: the last document, no other's number changes,
# so only the files that hold its words are written; removed, the same
sleep 1
touch -d '2000-01-01' "$O"/search/s/*.json "$O"/search/d/*.json
cat >"$S/posts/kelp.md" <<'MD'
---
title: Kelp forests
date: 2024-04-01 10:00:00
---
Kelp grows fast in cold water.
MD
"$SSG" build -C "$S" -q
check "a new post is found" test "$(first kelp)" = "Kelp forests"
check "a new post: the pages of the table before it are left" \
    sh -c "$(declare_old) old '$O/search/d/0.json' && old '$O/search/d/1.json'"
check "a new post: it is on a fourth page" contains "$O/search/d/3.json" '"Kelp forests"'
check "a new post: the shard of its new word is written" test -e "$O/search/s/ke.json"
check "a new post: a shard without its words is left" old "$O/search/s/mo.json"
check "a new post: the shard of a word it shares, written" sh -c "! { $(declare_old) old '$O/search/s/wa.json'; }"
sleep 1
touch -d '2000-01-01' "$O"/search/s/*.json "$O"/search/d/*.json
rm "$S/posts/kelp.md"
"$SSG" build -C "$S" -q
check "the newest post removed: not found" sh -c "! '$SSG' search -C '$S' kelp"
check "the newest post removed: the other pages of the table left" \
    sh -c "$(declare_old) old '$O/search/d/0.json' && old '$O/search/d/1.json' && old '$O/search/d/2.json'"
check "the newest post removed: a shard without its words is left" old "$O/search/s/mo.json"

# a build with nothing changed writes nothing
sleep 1
line=$("$SSG" build -C "$S" 2>&1 | tail -n 1)
check "a no-change build writes nothing ($line)" sh -c "echo '$line' | grep -q ', 0 changed)'"

# a post removed: out of the index
rm "$S/posts/bread.md"
"$SSG" build -C "$S" -q
check "a removed post is not found" sh -c "! '$SSG' search -C '$S' sourdough"
check "its shard is removed" test ! -e "$O/search/s/so.json"

# --force writes the same bytes as the incremental builds, with the
# cache of the bodies' words or without it (words made as the pages are)
cp -R "$O/search" "$T/inc"
"$SSG" build -C "$S" -q --force
check "--force and incremental builds give the same index" diff -r "$T/inc" "$O/search"
rm -f "$S/.ssg-cache/search.bin"
"$SSG" build -C "$S" -q --force
check "and the same without the cache of words" diff -r "$T/inc" "$O/search"
check "the cache of words is saved again" test -s "$S/.ssg-cache/search.bin"
# the words as the build parses a body for its page (above, with
# --force), and as they are read again when the page's source is cached
# but its words are not: the same
rm -f "$S/.ssg-cache/search.bin"
rm -rf "$O/search"
"$SSG" build -C "$S" -q
check "and the same from the sources read again for their words" diff -r "$T/inc" "$O/search"
rm -rf "$T/inc"

# a byte of the cache of words changed: that entry is not taken
cp -R "$O/search" "$T/clean"
size=$(stat -c %s "$bin")
printf 'Z' | dd of="$bin" bs=1 seek=$((size - 10)) conv=notrunc 2>/dev/null
"$SSG" build -C "$S" -q --force
check "a damaged entry of the cache of words is not taken" diff -r "$T/clean" "$O/search"
rm -rf "$T/clean"

# the cache of words cut short (a build stopped while appending to it):
# what is whole is used, and it is written whole again; after many
# edits, more of it unused than used, it is written again, smaller
size=$(stat -c %s "$bin")
truncate -s $((size - 5)) "$bin"
"$SSG" build -C "$S" -q --force
check "a cut cache of words: the build is as before" sh -c \
    "'$SSG' search -C '$S' harbourmasters | grep -q 'Tide tables'"
check "a cut cache of words is written whole again" test "$(stat -c %s "$bin")" -ge "$size"
# the post edited holds most of the site's words (500 of its own), so
# that each edit appends most of what the cache holds
i=0
words=
while [ $i -lt 500 ]; do words="$words zw$i"; i=$((i + 1)); done
echo "$words" >>"$S/posts/moon.md"
"$SSG" build -C "$S" -q
ino=$(stat -c %i "$bin") size=$(stat -c %s "$bin") again=0
i=0
while [ $i -lt 8 ]; do
	echo "Edit $i of many, zq$i." >>"$S/posts/moon.md"
	"$SSG" build -C "$S" -q
	[ "$(stat -c %i "$bin")" = "$ino" ] || again=$((again + 1))
	ino=$(stat -c %i "$bin")
	i=$((i + 1))
done
check "many edits: the cache is written whole again ($again times)" test "$again" -ge 2
check "many edits: the cache stays under three times its size" \
    test "$(stat -c %s "$bin")" -lt $((3 * size))
check "many edits: the last edit's words are found" sh -c "'$SSG' search -C '$S' zq7 | grep -q moon"

# an installation without the search script: said, and the build fails
mkdir -p "$T/data"
cp -R themes "$T/data/themes"
rm "$T/data/themes/templates/search.js"
out=$(SSG_DATADIR="$T/data" "$SSG" build -C "$S" -q --force 2>&1)
check "no search script: the build fails" test $? -ne 0
check "no search script: said ($out)" sh -c "echo '$out' | grep -q 'search.js: .*cannot read the search script'"
rm -rf "$T/data"
"$SSG" build -C "$S" -q

# search off: the files go
sed -i 's/^search: true/search: false/' "$S/site.yaml"
"$SSG" build -C "$S" -q
check "search: false removes search/" test ! -e "$O/search"
check "search: false drops Search from the menu" \
    sh -c "! grep -q 'href=\"/search/\"' '$O/index.html'"
check "no index: said" sh -c "'$SSG' search -C '$S' moon 2>&1 | grep -q 'search: true'"
sed -i 's/^search: false/search: true/' "$S/site.yaml"
"$SSG" build -C "$S" -q

# search.js folds and ranks as ssg does
# ranked: the URLs node finds with search.js over the index in $1 for $2
ranked() {
	node -e '
const fs = require("fs"), s = require(process.argv[1] + "/search.js");
const rd = (f) => JSON.parse(fs.readFileSync(process.argv[1] + "/" + f));
const m = rd("manifest.json"), l = rd("len.json");
const ws = s.words(process.argv[2], m.fold), sh = {};
for (const n of s.shardsFor(ws, m)) sh[n] = rd("s/" + n + ".json");
const r = s.rank(ws, m, l, sh), pages = {};
for (const k of s.pagesFor(r, m)) pages[k] = rd("d/" + k + ".json");
console.log(r.map((h) => pages[Math.floor(h.doc / m.page)][h.doc % m.page][1]).join(" ") +
    (ws.length ? " " : ""));' "$1" "$2"
}
words='Crème brûlée ÜBER Straße naïve Ελληνικά ΣΟΦΟΣ Ёлка Привет Łódź Ærø ȘTIINȚĂ İstanbul résumé e\314\201t\303\251 ǅ 日本 x² ΆΈΉΊΌΎΏ Ϊ Ÿ ŉ ſ Ŋ'
if command -v node >/dev/null 2>&1; then
	c=$("$SSG" search -w "$words" | tr '\n' ' ')
	js=$(node -e 'const s = require(process.argv[1]);
	    console.log(s.words(process.argv[2]).join(" ") + " ")' \
	    "$O/search/search.js" "$words")
	check "search.js folds words as ssg does ($js / $c)" test "$js" = "$c"
	c=$("$SSG" search -w -l sv "$words" | tr '\n' ' ')
	js=$(node -e 'const s = require(process.argv[1]);
	    console.log(s.words(process.argv[2], 0).join(" ") + " ")' \
	    "$O/search/search.js" "$words")
	check "search.js keeps accents as ssg does ($js / $c)" test "$js" = "$c"
	for q in moon "moon tid" tide "the" s padding "filler p"; do
		c=$("$SSG" search -C "$S" -n 0 "$q" 2>/dev/null | cut -f 2 | tr '\n' ' ')
		js=$(ranked "$O/search" "$q")
		check "search.js ranks '$q' as ssg does ($js / $c)" test "$js" = "$c"
	done
fi

# site_lang sv: accented letters are letters of their own
cat >"$S/posts/sheep.md" <<'MD'
---
title: Lambing
date: 2024-04-01 10:00:00
---
Våra får betar på ängen.
MD
cat >"$S/posts/father.md" <<'MD'
---
title: Family
date: 2024-04-02 10:00:00
---
Min far och jag.
MD
"$SSG" build -C "$S" -q
check "English folds: får finds far" test "$("$SSG" search -C "$S" -n 0 får 2>/dev/null | wc -l)" -eq 2
echo 'site_lang: "sv"' >>"$S/site.yaml"
"$SSG" build -C "$S" -q
check "sv: the manifest says the words keep their accents" \
    contains "$O/search/manifest.json" '"fold":0'
check "sv: får finds the sheep only" test "$("$SSG" search -C "$S" -n 0 får 2>/dev/null)" = "Lambing	/2024/04/01/lambing/"
check "sv: far finds the father only" test "$("$SSG" search -C "$S" -n 0 far 2>/dev/null)" = "Family	/2024/04/02/family/"
check "sv: ängen has its own shard" test -s "$O/search/s/_00e4n.json"
cp -R "$O/search" "$T/sv"
"$SSG" build -C "$S" -q --force
check "sv: --force gives the same index" diff -r "$T/sv" "$O/search"
if command -v node >/dev/null 2>&1; then
	for q in får FAR "ängen" "på ä"; do
		c=$("$SSG" search -C "$S" -n 0 "$q" 2>/dev/null | cut -f 2 | tr '\n' ' ')
		js=$(ranked "$O/search" "$q")
		check "sv: search.js finds '$q' as ssg does ($js / $c)" test "$js" = "$c"
	done
fi
# A word both in a post's title and in its body keeps the title's weight:
# that post ranks above one that says the word more often in its body.
W="$T/tw"
mkdir -p "$W/posts"
printf 'site_title: "Title weight"\nsite_url: "http://localhost:8000"\nsearch: true\n' >"$W/site.yaml"
printf -- '---\ntitle: Harbour walls\ndate: 2024-05-01 10:00:00\n---\nThe harbour is old.\n' >"$W/posts/walls.md"
printf -- '---\ntitle: Boats\ndate: 2024-05-02 10:00:00\n---\nA harbour, a harbour, a harbour and one more harbour; boats everywhere.\n' >"$W/posts/boats.md"
"$SSG" build -C "$W" -q
check "a word in the title and in the body ranks the post first" \
    test "$("$SSG" search -C "$W" harbour 2>/dev/null | head -n 1 | cut -f 1)" = "Harbour walls"
summary
