#!/bin/sh
# gemini: true writes the site as a Gemini capsule too: a gemlog
# index.gmi, each Markdown post and page as gemtext at its HTML page's
# path, site links pointing at capsule pages.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S="$T/site"
C="$S/capsule"
mkdir -p "$S/posts" "$S/pages"
cat >"$S/site.yaml" <<'YAML'
site_title: Small web
site_description: Notes, also over Gemini
timezone: UTC
YAML
printf -- '---\ntitle: First\ndate: 2025-01-02 10:00\ntags: a, b\n---\nHello [about](/about/) and [far](https://far.example/x).\n\n## Part\n\n- one\n- two\n' >"$S/posts/2025-01-02-first.md"
printf -- '---\ntitle: Second\ndate: 2025-02-03 10:00\n---\n```sh\necho hi\n```\n' >"$S/posts/2025-02-03-second.md"
printf -- '<html><head><title>In HTML</title><meta name="date" content="2025-03-01"></head><body><p>x</p></body></html>\n' >"$S/posts/2025-03-01-html.html"
printf -- '---\ntitle: About\n---\nWho.\n' >"$S/pages/about.md"

"$SSG" build -C "$S" -q 2>"$T/err"
check "gemini off: no capsule" test ! -e "$C"
printf 'gemini: true\ngemini_url: gemini://small.example\n' >>"$S/site.yaml"
"$SSG" build -C "$S" -q 2>"$T/err"
check "gemini on: the build exits 0" test $? -eq 0
check "index.gmi: the title" grep -qx '# Small web' "$C/index.gmi"
check "index.gmi: gemlog lines, newest first" sh -c "grep '^=> /2025' '$C/index.gmi' | head -1 | grep -qx '=> /2025/02/03/second/index.gmi 2025-02-03 Second'"
check "index.gmi: the older post" grep -qx '=> /2025/01/02/first/index.gmi 2025-01-02 First' "$C/index.gmi"
check "index.gmi: pages" grep -qx '=> /about/index.gmi About' "$C/index.gmi"
check "index.gmi: the capsule's address" grep -q '=> gemini://small.example/' "$C/index.gmi"
P="$C/2025/01/02/first/index.gmi"
check "a post at its HTML page's path" test -f "$P"
check "post: its title" grep -qx '# First' "$P"
check "post: published line" grep -q '^Published 2025-01-02' "$P"
check "post: a paragraph on one line" grep -qx 'Hello about and far.' "$P"
check "post: a site link points at the capsule page" grep -qx '=> /about/index.gmi about' "$P"
check "post: an outside link kept" grep -qx '=> https://far.example/x far' "$P"
check "post: headings" grep -qx '## Part' "$P"
check "post: list items" grep -qx '\* two' "$P"
check "post: tags" grep -qx 'Tags: a, b' "$P"
check "code keeps its language" grep -qx '```sh' "$C/2025/02/03/second/index.gmi"
check "an HTML post is left out" test ! -e "$C/2025/03/01/html/index.gmi"
check "... with a warning naming it" grep -q '2025-03-01-html.html: warning: written in HTML: not in the Gemini capsule' "$T/err"
check "the HTML site is still built" test -f "$S/output/2025/01/02/first/index.html"

# An edit rewrites that post's page, not the others.
touch -d '2000-01-01' "$C/2025/02/03/second/index.gmi"
printf '\nMore.\n' >>"$S/posts/2025-01-02-first.md"
"$SSG" build -C "$S" -q 2>"$T/err"
check "edit: the post's page has it" grep -qx 'More.' "$P"
check "edit: other pages untouched" test \
    "$(stat -c %Y "$C/2025/02/03/second/index.gmi")" -lt 1000000000
summary
