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
check "gemini off: no Markdown source published" test ! -e "$S/output/2025/01/02/first/index.md"
check "gemini off: no link to a twin" sh -c "! grep -q 'rel=\"alternate\">Gemini' '$S/output/2025/01/02/first/index.html'"
printf 'gemini: true\ngemini_url: gemini://small.example\nsite_url: https://small.example\n' >>"$S/site.yaml"
"$SSG" build -C "$S" -q 2>"$T/err"
check "gemini on: the build exits 0" test $? -eq 0
check "index.gmi: the title" grep -qx '# Small web' "$C/index.gmi"
check "index.gmi: gemlog lines, newest first" sh -c "grep '^=> /2025' '$C/index.gmi' | head -1 | grep -qx '=> /2025/02/03/second/index.gmi 2025-02-03 Second'"
check "index.gmi: the older post" grep -qx '=> /2025/01/02/first/index.gmi 2025-01-02 First' "$C/index.gmi"
check "index.gmi: pages" grep -qx '=> /about/index.gmi About' "$C/index.gmi"
check "index.gmi: the capsule's address" grep -q '=> gemini://small.example/' "$C/index.gmi"
check "index.gmi: tags, archives, the feed and the web site" sh -c "grep -qx '=> /tags/index.gmi Tags' '$C/index.gmi' && grep -qx '=> /archives/index.gmi Archives' '$C/index.gmi' && grep -qx '=> /atom.xml Atom feed' '$C/index.gmi' && grep -qx '=> https://small.example/ On the web' '$C/index.gmi'"
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
check "post: the same page on the web" grep -qx '=> https://small.example/2025/01/02/first/ This page on the web' "$P"
check "code keeps its language" grep -qx '```sh' "$C/2025/02/03/second/index.gmi"
check "an HTML post is left out" test ! -e "$C/2025/03/01/html/index.gmi"
check "... with a warning naming it" grep -q '2025-03-01-html.html: warning: written in HTML: not in the Gemini capsule' "$T/err"
check "the HTML site is still built" test -f "$S/output/2025/01/02/first/index.html"
check "an HTML post links its Gemini twin" grep -q '<a href="gemini://small.example/2025/01/02/first/index.gmi" rel="alternate">Gemini</a>' "$S/output/2025/01/02/first/index.html"
check "a page links its Gemini twin" grep -q 'href="gemini://small.example/about/index.gmi"' "$S/output/about/index.html"
check "a post left out of the capsule links no twin" sh -c "! grep -q 'rel=\"alternate\">Gemini' '$S/output/2025/03/01/in-html/index.html'"

check "post: a link to each tag's page" grep -qx '=> /tags/b/index.gmi Posts tagged b' "$P"
check "post: the newer post" grep -qx '=> /2025/02/03/second/index.gmi Newer: 2025-02-03 Second' "$P"
check "post: the older post" grep -qx '=> /2025/01/02/first/index.gmi Older: 2025-01-02 First' "$C/2025/02/03/second/index.gmi"
check "tags/index.gmi: every tag with its count" grep -qx '=> /tags/a/index.gmi a (1)' "$C/tags/index.gmi"
check "a tag's page: its posts as gemlog lines" grep -qx '=> /2025/01/02/first/index.gmi 2025-01-02 First' "$C/tags/a/index.gmi"
check "archives: by month" sh -c "grep -qx '## 2025-02' '$C/archives/index.gmi' && grep -qx '=> /2025/02/03/second/index.gmi 2025-02-03 Second' '$C/archives/index.gmi'"
check "archives: not the post left out" sh -c "! grep -q 'In HTML' '$C/archives/index.gmi'"
check "robots.txt for Gemini crawlers" grep -qx 'User-agent: \*' "$C/robots.txt"
check "atom.xml parses, with gemini:// links" python3 -c "
import sys, xml.dom.minidom as m
d = m.parse('$C/atom.xml')
links = [l.getAttribute('href') for l in d.getElementsByTagName('link')]
ids = [i.firstChild.data for i in d.getElementsByTagName('id')]
sys.exit(0 if 'gemini://small.example/2025/01/02/first/index.gmi' in links
    and all(i.startswith('gemini://small.example/') for i in ids)
    and len(d.getElementsByTagName('entry')) == 2 else 1)"
# Every link inside the capsule resolves to one of its files; no HTML
# outside preformatted blocks.
check "every capsule link resolves" python3 -c "
import os, sys
bad = []
for root, _, files in os.walk('$C'):
    for f in files:
        if not f.endswith('.gmi'):
            continue
        pre = False
        for line in open(os.path.join(root, f)):
            if line.startswith('\`\`\`'):
                pre = not pre
            elif not pre and line.startswith('<'):
                bad.append(f + ': HTML ' + line)
            elif not pre and line.startswith('=> /'):
                target = '$C' + line[3:].split()[0]
                if not os.path.isfile(target):
                    bad.append(f + ': ' + line)
print(''.join(bad), end='')
sys.exit(1 if bad else 0)"

# An edit rewrites that post's page, not the others.
touch -d '2000-01-01' "$C/2025/02/03/second/index.gmi"
printf '\nMore.\n' >>"$S/posts/2025-01-02-first.md"
"$SSG" build -C "$S" -q 2>"$T/err"
check "edit: the post's page has it" grep -qx 'More.' "$P"
check "edit: other pages untouched" test \
    "$(stat -c %Y "$C/2025/02/03/second/index.gmi")" -lt 1000000000

# A deleted post's page goes; what the build still writes stays.
rm "$S/posts/2025-02-03-second.md"
"$SSG" build -C "$S" -q 2>"$T/err"
check "delete: the post's capsule page is gone" test ! -e "$C/2025/02/03/second/index.gmi"
check "delete: the other post's page stays" test -f "$P"
check "delete: the gemlog no longer lists it" sh -c "! grep -q Second '$C/index.gmi'"
check "delete: the feed stays" test -f "$C/atom.xml"
# The Markdown source: with gemini on, each Markdown post and page is
# published beside its HTML page as index.md (its title as a heading,
# then its text without the front matter), and linked from the page and
# its .gmi; gemini_markdown_link: false turns that off.
M="$S/output/2025/01/02/first/index.md"
check "source: a post's index.md beside its page" test -f "$M"
check "source: its title as a heading" test "$(head -n 1 "$M")" = "# First"
check "source: the text as written" grep -qxF 'Hello [about](/about/) and [far](https://far.example/x).' "$M"
check "source: no front matter" sh -c "! grep -q '^tags:' '$M'"
check "source: a page's too" grep -qx 'Who.' "$S/output/about/index.md"
check "source: none for a post written in HTML" test ! -e "$S/output/2025/03/01/in-html/index.md"
check "source: the post links it" grep -qF '<a href="/2025/01/02/first/index.md" rel="alternate" type="text/markdown">Markdown</a>' "$S/output/2025/01/02/first/index.html"
check "source: the page links it" grep -qF '<a href="/about/index.md" rel="alternate" type="text/markdown">Markdown</a>' "$S/output/about/index.html"
check "source: the .gmi links it" grep -qx '=> https://small.example/2025/01/02/first/index.md Its Markdown source' "$P"
check "source: not in the sitemap" sh -c "! grep -q 'index.md' '$S/output/sitemap.xml'"
mkdir -p "$S/drafts"
printf -- '---\ntitle: Unsure\ndate: 2025-01-05 10:00\n---\nNot yet.\n' >"$S/drafts/2025-01-05-unsure.md"
"$SSG" build -C "$S" -q --drafts -o "$T/with-drafts" 2>"$T/err"
check "source: a draft built with --drafts has a page" test -f "$T/with-drafts/2025/01/05/unsure/index.html"
check "source: ... but its source is not published" test ! -e "$T/with-drafts/2025/01/05/unsure/index.md"
check "source: ... nor linked" sh -c "! grep -q 'index.md' '$T/with-drafts/2025/01/05/unsure/index.html'"
rm -r "$S/drafts"
printf '\nMore text.\n' >>"$S/posts/2025-01-02-first.md"
"$SSG" build -C "$S" -q 2>"$T/err"
check "source: an edit reaches index.md" grep -qx 'More text.' "$M"
# made again from the source file when the build took the post from its
# cache (the text it read is not kept between builds)
cp "$M" "$T/first.md"
rm "$M"
"$SSG" build -C "$S" -q 2>"$T/err"
check "source: an index.md deleted by hand is made again, the same" cmp -s "$M" "$T/first.md"
printf 'gemini_markdown_link: false\n' >>"$S/site.yaml"
"$SSG" build -C "$S" -q 2>"$T/err"
check "gemini_markdown_link: false: index.md removed" test ! -e "$M"
check "gemini_markdown_link: false: no link on the page" sh -c "! grep -q 'text/markdown' '$S/output/2025/01/02/first/index.html'"
check "gemini_markdown_link: false: the Gemini link stays" grep -q 'rel="alternate">Gemini</a>' "$S/output/2025/01/02/first/index.html"
check "gemini_markdown_link: false: no link in the .gmi" sh -c "! grep -q 'Markdown source' '$P'"

# Incremental: capsule pages have fingerprints as HTML pages do. A
# one-post edit rewrites that post's .gmi and, when lists show what
# changed, those lists and its neighbours; every other file keeps its
# mtime, and a forced build gives the same capsule.
I="$T/inc"
IC="$I/capsule"
mkdir -p "$I/posts"
printf 'site_title: Inc\nsite_url: https://inc.example\ngemini: true\ngemini_url: gemini://inc.example\ntimezone: UTC\n' >"$I/site.yaml"
n=1
for tags in x 'x, y' y z z; do
	printf -- '---\ntitle: Post %s\nslug: p%s\ndate: 2025-03-0%s 10:00\ntags: %s\n---\nText %s.\n' \
	    "$n" "$n" "$n" "$tags" "$n" >"$I/posts/2025-03-0$n-p$n.md"
	n=$((n + 1))
done
"$SSG" build -C "$I" -q
old() { find "$IC" -type f -exec touch -d '2000-01-01' {} +; }
# the capsule's files written since old(), one per line, sorted
newer() { (cd "$IC" && find . -type f -newermt '2001-01-01' | sed 's,^\./,,' | sort | tr '\n' ' '); }
old
printf '\nOne more line.\n' >>"$I/posts/2025-03-03-p3.md"
"$SSG" build -C "$I" --explain >"$T/explain"
check "one-post edit: only its .gmi is rewritten" test "$(newer)" = "2025/03/03/p3/index.gmi "
check "one-post edit: it has the new text" grep -qx 'One more line.' "$IC/2025/03/03/p3/index.gmi"
check "one-post edit: --explain names its .gmi, no other capsule file" \
    test "$(grep '^capsule/' "$T/explain")" = "capsule/2025/03/03/p3/index.gmi: content it shows changed"
old
sed -i 's/^title: Post 3$/title: Third post/' "$I/posts/2025-03-03-p3.md"
"$SSG" build -C "$I" --explain >"$T/explain"
check "retitle: the post, its neighbours and the lists that show it, nothing else" \
    test "$(newer)" = "2025/03/02/p2/index.gmi 2025/03/03/p3/index.gmi 2025/03/04/p4/index.gmi archives/index.gmi atom.xml index.gmi tags/y/index.gmi "
check "retitle: no temporary folder left in the capsule" test ! -e "$IC/.ssg-tmp"
check "retitle: the newer neighbour links the new title" grep -qx '=> /2025/03/03/p3/index.gmi Older: 2025-03-03 Third post' "$IC/2025/03/04/p4/index.gmi"
check "retitle: the older neighbour too" grep -qx '=> /2025/03/03/p3/index.gmi Newer: 2025-03-03 Third post' "$IC/2025/03/02/p2/index.gmi"
old
"$SSG" build -C "$I" -q
check "no change: nothing in the capsule is rewritten" test -z "$(newer)"
rm "$IC/2025/03/01/p1/index.gmi"
"$SSG" build -C "$I" -q
check "no change: a capsule page deleted by hand is made again" test -f "$IC/2025/03/01/p1/index.gmi"
rm -rf "$T/inc-capsule"
cp -R "$IC" "$T/inc-capsule"
"$SSG" build -C "$I" -q --force
check "--force and incremental builds give the same capsule" diff -r "$T/inc-capsule" "$IC"
cp -R "$I" "$T/fresh"
rm -rf "$T/fresh/capsule" "$T/fresh/output" "$T/fresh/.ssg-cache"
"$SSG" build -C "$T/fresh" -q
check "a first build in a fresh copy gives the same capsule" diff -r "$T/fresh/capsule" "$IC"
# a capsule kept without its list (a deleted .ssg-cache): the pages no
# build makes any more are found by looking, and removed
mkdir -p "$T/fresh/capsule/2020/01/01/gone"
echo '# Gone' >"$T/fresh/capsule/2020/01/01/gone/index.gmi"
rm -rf "$T/fresh/.ssg-cache"
"$SSG" build -C "$T/fresh" -q
check "a capsule without its list loses the pages no post makes" \
    test ! -e "$T/fresh/capsule/2020/01/01/gone/index.gmi"
check "... and keeps the others" test "$(cd "$T/fresh/capsule" && find . -type f | sort)" = "$(cd "$IC" && find . -type f | sort)"
summary
