#!/bin/sh
# Front matter read as BSSG reads it: tests/fixtures/frontmatter has posts
# whose titles YAML would refuse or change. Every post is built and each
# title and description is the text after the first colon, with one pair
# of outer quotes taken off, in <title>, <h1>, og:title and the feed; a
# fediverse_creator line is the post's fediverse:creator. A post written in
# HTML without front matter is read from its <title> and <meta> tags.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -R "$ROOT/tests/fixtures/frontmatter" "$T/site"
S="$T/site"
O="$S/output"

"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "exit status 0" test $? -eq 0
check "no errors" sh -c "! grep -q ': error: ' '$T/err'"
check "all 23 posts built" grep -q "from 23 posts" "$T/out"

hesc() { printf '%s' "$1" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' \
	-e 's/>/\&gt;/g' -e 's/"/\&quot;/g' -e "s/'/\&#39;/g"; }
xesc() { printf '%s' "$1" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' \
	-e 's/>/\&gt;/g' -e 's/"/\&quot;/g' -e "s/'/\&apos;/g"; }

# post number, then the title BSSG's extract_metadata gives
n=0
while IFS= read -r want; do
	n=$((n + 1))
	nn=$(printf %02d "$n")
	P="$O/2025/01/$nn/p$nn/index.html"
	h=$(hesc "$want")
	check "post $nn built" test -f "$P"
	check "post $nn <title>: $want" contains "$P" "<title>$h | Front matter</title>"
	check "post $nn <h1>: $want" grep -qF -e ">$h</h1>" "$P"
	check "post $nn og:title: $want" contains "$P" "<meta property=\"og:title\" content=\"$h\">"
	check "post $nn feed title: $want" contains "$O/rss.xml" "<title>$(xesc "$want")</title>"
done <<'LIST'
Foo: bar
[WIP] draft notes
@x says hi
{braces} here
* star
| pipe
> gt
% percent
`tick`
C# vs F# #1
Foo # not a comment
!important notice
null
yes
2025
single quoted
double quoted
"mismatched'
'mismatched"
Quoted: with a colon
Late
2025-01-22-p22
HTML: Tom & Jerry
LIST

check "description split at the first colon" contains "$O/2025/01/01/p01/index.html" \
	'<meta name="description" content="Note: this one has: two colons">'
check "description: quotes taken off" contains "$O/2025/01/02/p02/index.html" \
	'<meta name="description" content="Quoted: description">'
check "description: # is text" contains "$O/2025/01/03/p03/index.html" \
	'<meta name="description" content="a # not a comment">'
check "description in the feed" contains "$O/rss.xml" \
	'<description>Note: this one has: two colons</description>'
check "fediverse_creator: @me@example.social kept" contains "$O/2025/01/02/p02/index.html" \
	'<meta name="fediverse:creator" content="@me@example.social">'
check "fediverse_creator: only on the two posts with one" test "$(grep -rl 'fediverse:creator' "$O" | wc -l)" -eq 2
# A post written in HTML, as BSSG's post --html writes it: <title> and
# <meta name="..." content="..."> are its fields, <body> its text.
H="$O/2025/01/23/p23/index.html"
check "HTML post: description from its meta tag" contains "$H" \
	'<meta name="description" content="Written in HTML: read from meta tags">'
check "HTML post: fediverse:creator from its meta tag" contains "$H" \
	'<meta name="fediverse:creator" content="@html@example.social">'
check "HTML post: tags from its meta tag" contains "$H" 'href="/tags/mice/"'
check "HTML post: the body's text" contains "$H" '<p>Body of post 23.</p>'
check "HTML post: not its head" sh -c "! grep -q '<meta name=\"tags\"\|<body>' '$H'"
# ssg edit stamps lastmod into a front matter block; the document's own
# tags still give the rest.
EDITOR=true "$SSG" edit -C "$S" posts/2025-01-23-p23.html --no-build >/dev/null 2>&1
check "edit of an HTML post: lastmod in front matter" grep -q '^lastmod: ' "$S/posts/2025-01-23-p23.html"
"$SSG" build -C "$S" -q 2>/dev/null
check "edited HTML post: title still from <title>" contains "$H" '<title>HTML: Tom &amp; Jerry | Front matter</title>'
check "edited HTML post: body still inside <body> only" sh -c "grep -q '<p>Body of post 23.</p>' '$H' && ! grep -q '<meta name=\"tags\"' '$H'"
check "key given twice: warning with file and line" \
	grep -q "posts/2025-01-21-p21.md:5: warning: 'title' is given again" "$T/err"
check "no title: warning with file" \
	grep -q "posts/2025-01-22-p22.md:1: warning: no title" "$T/err"
summary
