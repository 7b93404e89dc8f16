#!/bin/sh
# Fediverse settings and message overrides, from a BSSG config.sh through
# `ssg import bssg` to the built pages: <link rel="me"> on every page,
# <meta name="fediverse:creator"> resolved as BSSG 0.32 does (the post's
# front matter, else its author's entry, else the site's; pages other than
# posts use the site author's), and MSG_ overrides as messages.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S="$T/bssg"
mkdir -p "$S/src" "$S/pages"
cat >"$S/config.sh" <<'SH'
SITE_TITLE="Fedi"
SITE_URL="https://example.org"
AUTHOR_NAME="Ada"
TIMEZONE="UTC"
REL_ME_URL="https://mastodon.example/@ada"
# BSSG emits every URL once
REL_ME_URLS=(
  "https://mastodon.example/@ada"  # again
  "https://other.example/@ada"
)
FEDIVERSE_CREATOR="@site@example.social"
declare -A AUTHOR_FEDIVERSE_CREATORS=(
  ["Ada"]="@ada@example.social"
  ["Jane Smith"]="@jane@example.social"
)
MSG_READ_MORE="Keep reading"
MSG_TAGS="Labels"
MSG_NO_SUCH_WORDS="Nowhere"
SH
post() {
	# post FILE TITLE DATE [EXTRA LINES]
	f=$1 title=$2 date=$3
	shift 3
	{
		echo "---"
		echo "title: $title"
		echo "date: $date"
		echo "tags: news"
		for l in "$@"; do echo "$l"; done
		echo "---"
		echo "Body of $title."
	} >"$S/src/$f"
}
post a.md "By Ada" "2025-01-01 10:00:00 +0000"
post b.md "By Jane" "2025-01-02 10:00:00 +0000" "author_name: Jane Smith"
post c.md "Jane, own" "2025-01-03 10:00:00 +0000" "author_name: Jane Smith" \
	"fediverse_creator: @me@example.social"
post d.md "By Bob" "2025-01-04 10:00:00 +0000" "author_name: Bob"
printf -- '---\ntitle: About\nauthor_name: Jane Smith\n---\nAbout.\n' >"$S/pages/about.md"

"$SSG" import bssg "$S" >"$T/out" 2>"$T/err"
check "import exits 0" test $? -eq 0
Y="$S/site.yaml"
check "import: rel_me, each URL once" sh -c "grep -A3 '^rel_me:' '$Y' | grep -c 'https://' | grep -qx 2"
check "import: rel_me names its variables" grep -q '^rel_me:.*REL_ME_URL (config.sh:5), REL_ME_URLS (config.sh:7)' "$Y"
# An author's own list, with a URL twice: linked once all the same.
sed -i '/^rel_me:/a\  - "https://other.example/@ada"' "$Y"
check "import: fediverse_creator" grep -q '^fediverse_creator: "@site@example.social"' "$Y"
check "import: per-author creators" grep -q '^  "Jane Smith": "@jane@example.social"' "$Y"
check "import: MSG_ overrides" grep -q '^  MSG_READ_MORE: "Keep reading"' "$Y"
check "import: no 'not used' comment for them" sh -c "! grep -q '^#   \(REL_ME\|FEDIVERSE\|AUTHOR_FEDI\|MSG_\)' '$Y'"

"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "build exits 0" test $? -eq 0
check "an unknown message is a warning" grep -q "warning: messages: ssg has no message 'MSG_NO_SUCH_WORDS'" "$T/err"
O="$S/public"
[ -d "$O" ] || O="$S/output"
n=0 bad=0
for f in $(find "$O" -name '*.html'); do
	n=$((n + 1))
	[ "$(grep -c '<link rel="me" href="https://mastodon.example/@ada">' "$f")" -eq 1 ] &&
	    [ "$(grep -c '<link rel="me" href="https://other.example/@ada">' "$f")" -eq 1 ] &&
	    [ "$(grep -c '<link rel="me"' "$f")" -eq 2 ] || { bad=$((bad + 1)); echo "rel=me: $f" >&2; }
	[ "$(grep -c '<meta name="fediverse:creator"' "$f")" -eq 1 ] || { bad=$((bad + 1)); echo "creator: $f" >&2; }
done
check "pages were built ($n)" test "$n" -gt 8
check "every page: both rel=me links once, one fediverse:creator" test "$bad" -eq 0
fc() { contains "$O/$1" "<meta name=\"fediverse:creator\" content=\"$2\">"; }
check "post by the site author: the author's creator" fc 2025/01/01/by-ada/index.html @ada@example.social
check "post by Jane: Jane's creator" fc 2025/01/02/by-jane/index.html @jane@example.social
check "post's own creator wins" fc 2025/01/03/jane-own/index.html @me@example.social
check "author with no entry: the site's creator" fc 2025/01/04/by-bob/index.html @site@example.social
check "home page: the site author's" fc index.html @ada@example.social
check "tag page: the site author's" fc tags/news/index.html @ada@example.social
check "page (even with author_name): the site author's" fc about/index.html @ada@example.social
check "MSG_READ_MORE taken, and no read-more link (BSSG's lists have none)" \
    sh -c "! grep -q 'Keep reading' '$O/index.html'"
check "MSG_TAGS shown in the menu" contains "$O/index.html" '/tags/">Labels</a>'

# Changes rebuild what shows them, without --force.
sed -i 's/^fediverse_creator: .*/fediverse_creator: "@new@example.social"/' "$Y"
sed -i 's/^fediverse_creator: @me@example.social/fediverse_creator: @me2@example.social/' "$S/src/c.md"
"$SSG" build -C "$S" -q 2>/dev/null
check "site creator changed: page updated" fc 2025/01/04/by-bob/index.html @new@example.social
check "post's creator changed: page updated" fc 2025/01/03/jane-own/index.html @me2@example.social
"$SSG" build -C "$S" -q --force -o "$T/full" 2>/dev/null
check "incremental output equals a full build" diff -r "$O" "$T/full"

# Without the settings: no rel=me, no fediverse:creator.
P="$T/plain"
mkdir -p "$P/posts"
printf 'site_title: Plain\nsite_url: https://example.org\n' >"$P/site.yaml"
printf -- '---\ntitle: Plain\ndate: 2025-01-01\n---\nx\n' >"$P/posts/a.md"
"$SSG" build -C "$P" -q 2>/dev/null
check "no settings: no rel=me" sh -c "! grep -rq 'rel=\"me\"' '$P/output'"
check "no settings: no fediverse:creator" sh -c "! grep -rq 'fediverse:creator' '$P/output'"

# rel_me may be one URL.
printf 'rel_me: https://solo.example/@me\n' >>"$P/site.yaml"
"$SSG" build -C "$P" -q 2>/dev/null
check "rel_me: one URL" contains "$P/output/index.html" '<link rel="me" href="https://solo.example/@me">'
summary
