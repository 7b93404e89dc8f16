#!/bin/sh
# Writing commands end to end: init, new, edit, delete, publish, list, tags,
# drafts, with an editor that is a script.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S="$T/site"
TODAY=$(date +%Y-%m-%d)

# init
"$SSG" init "$S" >"$T/out" 2>&1
check "init makes a site" test $? -eq 0
for d in posts pages drafts static; do
	check "init makes $d/" test -d "$S/$d"
done
check "init writes a commented site.yaml" grep -q '^# ' "$S/site.yaml"
check "init writes one post" test "$(ls "$S/posts" | wc -l)" -eq 1
check "init writes one page" test -f "$S/pages/about.md"
"$SSG" build -C "$S" -q >/dev/null 2>&1
check "the new site builds" test $? -eq 0
check "the new site has its post" test -f "$S/output/index.html"
"$SSG" init "$S" >/dev/null 2>"$T/err"
check "init refuses a non-empty folder (exit 1)" test $? -eq 1
check "init says why" grep -q 'not empty' "$T/err"
mkdir "$T/empty"
check "init accepts an empty folder" "$SSG" init "$T/empty"

# new post: front matter, quoting, body from stdin and a file
TITLE='Say: "hi" \ & #1'
printf 'Body from stdin.\n' | "$SSG" new post "$TITLE" -C "$S" -t 'c, a' --stdin >"$T/out" 2>&1
check "new post exits 0" test $? -eq 0
F="$S/posts/$TODAY-say-hi-1.md"
check "new post named YYYY-MM-DD-slug.md" test -f "$F"
check "new post prints its path" grep -q "$TODAY-say-hi-1.md" "$T/out"
check "title written between quotes, as written" grep -qF 'title: "Say: "hi" \ & #1"' "$F"
check "date now with offset" grep -Eq "^date: $TODAY [0-9]{2}:[0-9]{2}:[0-9]{2} [+-][0-9]{4}$" "$F"
check "lastmod" grep -Eq "^lastmod: $TODAY " "$F"
check "tags" grep -qF 'tags: "c, a"' "$F"
check "slug" grep -q '^slug: say-hi-1$' "$F"
check "description" grep -q '^description: ' "$F"
check "no draft field" sh -c "! grep -q '^draft:' '$F'"
check "body from stdin" grep -q 'Body from stdin' "$F"
"$SSG" build -C "$S" -q >/dev/null 2>&1
check "the quoted title builds" test $? -eq 0
check "the title round-trips into HTML" grep -rqF 'Say: &quot;hi&quot; \ &amp; #1' "$S/output/index.html"
"$SSG" new post "$TITLE" -C "$S" </dev/null >/dev/null 2>&1
check "same title: -2 added, not overwritten" test -f "$S/posts/$TODAY-say-hi-1-2.md"
check "same title: slug -2" grep -q '^slug: say-hi-1-2$' "$S/posts/$TODAY-say-hi-1-2.md"
check "the first file kept its body" grep -q 'Body from stdin' "$F"
"$SSG" new post "$TITLE" -C "$S" </dev/null >/dev/null 2>&1
check "third: -3" test -f "$S/posts/$TODAY-say-hi-1-3.md"
printf 'From a file.\n' >"$T/body.md"
"$SSG" new post "Filed" -C "$S" -s my-slug -f "$T/body.md" >/dev/null 2>&1
check "-s sets the file name" test -f "$S/posts/$TODAY-my-slug.md"
check "-f gives the body" grep -q 'From a file' "$S/posts/$TODAY-my-slug.md"
"$SSG" new post "Drafty" -C "$S" --draft </dev/null >/dev/null 2>&1
check "--draft writes into drafts/" test -f "$S/drafts/$TODAY-drafty.md"
check "--draft sets draft: true" grep -q '^draft: true$' "$S/drafts/$TODAY-drafty.md"
"$SSG" new post "Raw" -C "$S" --html </dev/null >/dev/null 2>&1
check "--html writes .html" test -f "$S/posts/$TODAY-raw.html"
"$SSG" new page "Contact me" -C "$S" --secondary </dev/null >/dev/null 2>&1
check "new page into pages/" test -f "$S/pages/contact-me.md"
check "new page --secondary" grep -q '^secondary: true$' "$S/pages/contact-me.md"
"$SSG" new post "Built" -C "$S" --build </dev/null >"$T/out" 2>&1
check "--build builds" test -f "$S/output/$(date +%Y/%m/%d)/built/index.html"
"$SSG" new thing "X" -C "$S" </dev/null >/dev/null 2>"$T/err"
check "new thing: exit 2" test $? -eq 2
check "new thing: usage" grep -q 'usage: ssg new' "$T/err"
"$SSG" new post "X" --bogus -C "$S" </dev/null >/dev/null 2>&1
check "unknown flag: exit 2" test $? -eq 2
"$SSG" new page "X" -t a -C "$S" </dev/null >/dev/null 2>&1
check "tags on a page: exit 2" test $? -eq 2

# the editor flow: EDITOR is a script that writes the body
cat >"$T/ed.sh" <<'EOS'
#!/bin/sh
printf 'Written in the editor.\n' >>"$1"
EOS
chmod +x "$T/ed.sh"
EDITOR="$T/ed.sh" "$SSG" new post "Edited" -C "$S" -e </dev/null >"$T/out" 2>&1
check "new -e exits 0" test $? -eq 0
check "the editor wrote the body" grep -q 'Written in the editor' "$S/posts/$TODAY-edited.md"
check "rebuild_after_post built the site" grep -q 'Written in the editor' \
	"$S/output/$(date +%Y/%m/%d)/edited/index.html"
EDITOR= VISUAL="$T/ed.sh" "$SSG" new post "Visual" -C "$S" -e </dev/null >/dev/null 2>&1
check "VISUAL when EDITOR is empty" grep -q 'Written in the editor' "$S/posts/$TODAY-visual.md"
EDITOR=false "$SSG" new post "Failing editor" -C "$S" -e </dev/null >/dev/null 2>&1
check "a failing editor: exit 1" test $? -eq 1

# edit: lastmod updated, -n renames when the title changed
E="$S/posts/$TODAY-my-slug.md"
sed -i 's/^lastmod: .*/lastmod: 2000-01-01 00:00:00 +0000/' "$E"
EDITOR="$T/ed.sh" "$SSG" edit -C "$S" "$E" >/dev/null 2>&1
check "edit exits 0" test $? -eq 0
check "edit updates lastmod" grep -Eq "^lastmod: $TODAY " "$E"
check "edit keeps the rest" grep -q 'From a file' "$E"
check "edit ran the editor" grep -q 'Written in the editor' "$E"
cat >"$T/retitle.sh" <<'EOS'
#!/bin/sh
sed -i 's/^title: .*/title: "A new name"/' "$1"
EOS
chmod +x "$T/retitle.sh"
EDITOR="$T/retitle.sh" "$SSG" edit -C "$S" -n --no-build "$TODAY-my-slug.md" >/dev/null 2>&1
check "edit -n renames on a new title" test -f "$S/posts/$TODAY-a-new-name.md"
check "edit -n: the old name is gone" test ! -e "$E"
printf -- '---\ntitle: Short\n---\nx\n' >"$S/pages/a.md"
EDITOR="$T/retitle.sh" "$SSG" edit -C "$S" -n --no-build a.md >/dev/null 2>&1
check "edit -n renames a page without a date prefix" test -f "$S/pages/a-new-name.md"
EDITOR="$T/ed.sh" "$SSG" edit -C "$S" -n --no-build a-new-name.md >/dev/null 2>&1
check "edit -n with the same title keeps the name" test -f "$S/pages/a-new-name.md"
rm "$S/pages/a-new-name.md"
EDITOR="$T/retitle.sh" "$SSG" edit -C "$S" "nothing-here.md" >/dev/null 2>&1
check "edit of a missing file: exit 1" test $? -eq 1

# publish
"$SSG" publish -C "$S" "$TODAY-drafty.md" >"$T/out" 2>&1
check "publish exits 0" test $? -eq 0
P="$S/posts/$TODAY-drafty.md"
check "publish moves into posts/" test -f "$P"
check "publish removes the draft file" test ! -e "$S/drafts/$TODAY-drafty.md"
check "publish removes draft:" sh -c "! grep -q '^draft:' '$P'"
check "publish dates now" grep -Eq "^date: $TODAY " "$P"
cp "$S/drafts/"*.md "$T/" 2>/dev/null
printf -- '---\ntitle: Old draft\ndate: 2001-02-03\ndraft: true\n---\nx\n' >"$S/drafts/2001-02-03-old-draft.md"
"$SSG" publish -C "$S" 2001-02-03-old-draft.md >/dev/null 2>&1
check "publish renames the date prefix" test -f "$S/posts/$TODAY-old-draft.md"
check "publish updates an old date" grep -Eq "^date: $TODAY " "$S/posts/$TODAY-old-draft.md"

# delete
"$SSG" delete -C "$S" "$TODAY-raw.html" </dev/null >/dev/null 2>"$T/err"
check "delete without a terminal and -f: exit 1" test $? -eq 1
check "delete without -f keeps the file" test -f "$S/posts/$TODAY-raw.html"
check "delete says to use -f" grep -q -- '-f' "$T/err"
"$SSG" delete -C "$S" -f "$TODAY-raw.html" >/dev/null 2>&1
check "delete -f deletes" test ! -e "$S/posts/$TODAY-raw.html"

# list, tags, drafts: tab-separated when piped
sed -i 's/^date: .*/date: 2019-01-01 10:00:00 +0000/' "$S/posts/"*-hello-world.md
"$SSG" list -C "$S" >"$T/list" 2>/dev/null
check "list exits 0" test $? -eq 0
check "list has a row per post" test "$(wc -l <"$T/list")" -eq "$(ls "$S/posts" | wc -l)"
TAB=$(printf '\t')
check "list is tab-separated" grep -qE "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}${TAB}Say: \"hi\" \\\\ & #1${TAB}c, a${TAB}" "$T/list"
check "list is newest first" sh -c "tail -n 1 '$T/list' | grep -q 'Hello, world'"
printf -- '---\ntitle: T2\ndate: 2020-01-01\ntags: a, b\n---\nx\n' >"$S/posts/2020-01-01-t2.md"
printf -- '---\ntitle: T3\ndate: 2020-01-02\ntags: [b]\n---\nx\n' >"$S/posts/2020-01-02-t3.md"
printf -- '---\ntitle: T4\ndate: 2020-01-02\ntags: [b]\n---\nx\n' >"$S/posts/2020-01-02-t4.md"
"$SSG" tags -C "$S" >"$T/tags"
check "tags by name" test "$(cut -f1 "$T/tags" | tr '\n' ' ')" = "a b c ssg "
check "tags counts" grep -qx "b${TAB}3" "$T/tags"
"$SSG" tags -C "$S" -n >"$T/tags"
check "tags -n by count" test "$(cut -f1 "$T/tags" | tr '\n' ' ')" = "b a c ssg "
"$SSG" tags -C "$S" -x >/dev/null 2>"$T/err"
check "tags -x: exit 2" test $? -eq 2
"$SSG" new post "Later" -C "$S" --draft </dev/null >/dev/null 2>&1
"$SSG" drafts -C "$S" >"$T/drafts"
check "drafts lists drafts/" grep -q 'drafts/' "$T/drafts"
printf -- '---\ntitle: Inline draft\ndate: 2020-01-03\ndraft: true\n---\nx\n' >"$S/posts/2020-01-03-i.md"
"$SSG" drafts -C "$S" >"$T/drafts"
check "drafts lists draft: true posts" grep -q 'Inline draft' "$T/drafts"
"$SSG" list -C "$S" >"$T/list"
check "list leaves drafts out" sh -c "! grep -q 'Inline draft' '$T/list'"
if script -qc true /dev/null >/dev/null 2>&1; then
	script -qc "'$SSG' list -C '$S'" /dev/null >"$T/tty" 2>&1
	check "on a terminal: a header" grep -q 'DATE *TITLE' "$T/tty"
	check "on a terminal: no tabs" sh -c "! grep -q '$TAB' '$T/tty'"
fi

# --help everywhere, usage on bad usage
for c in init new edit delete publish list tags drafts; do
	"$SSG" $c --help >"$T/h" 2>&1
	check "$c --help exits 0" test $? -eq 0
	check "$c --help shows usage" grep -q "usage: ssg $c" "$T/h"
	"$SSG" $c --no-such-flag >/dev/null 2>"$T/h"
	check "$c --no-such-flag exits 2" test $? -eq 2
	check "$c bad flag prints usage" grep -q "usage: ssg $c" "$T/h"
done
summary
