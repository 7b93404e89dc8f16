#!/bin/sh
# HTML written in a post: published as written by default (as BSSG does),
# shown as text with raw_html: filter, left out with raw_html: omit. The
# setting is part of what a page depends on, so switching it rebuilds the
# pages without --force. ssg check lists the scripts and frames the site
# loads from elsewhere.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S="$T/site"
mkdir -p "$S/posts" "$S/static/js"
echo 'console.log(1);' >"$S/static/js/local.js"
cat >"$S/site.yaml" <<'YAML'
site_title: Raw
site_url: https://example.org
YAML
cat >"$S/posts/2025-01-01-embeds.md" <<'MD'
---
title: Embeds
date: 2025-01-01
---
A video, a formula renderer and a style.

<iframe src="https://www.youtube-nocookie.com/embed/abc" title="Video"></iframe>

<script id="MathJax-script" async src="https://cdn.example.net/mathjax/tex-chtml.js"></script>

<script src="/js/local.js"></script>

<style>.note { color: #333; }</style>

An <em>inline</em> tag.
MD
cat >"$S/posts/2025-01-02-again.md" <<'MD'
---
title: Again
date: 2025-01-02
---
<iframe src="//www.youtube-nocookie.com/embed/def"></iframe>
<script src="https://cdn.example.net/mathjax/tex-chtml.js"></script>
<script src="https://cdn.example.net/mathjax/tex-chtml.js"></script>
MD
P="$S/output/2025/01/01/embeds/index.html"
mode() {
	sed -i '/^raw_html:/d' "$S/site.yaml"
	[ -n "$1" ] && echo "raw_html: $1" >>"$S/site.yaml"
	"$SSG" build -C "$S" -q >"$T/out" 2>"$T/err"
}

mode ""
check "default: builds" test $? -eq 0
check "default: iframe as written" contains "$P" '<iframe src="https://www.youtube-nocookie.com/embed/abc" title="Video"></iframe>'
check "default: script as written" contains "$P" '<script id="MathJax-script" async src="https://cdn.example.net/mathjax/tex-chtml.js"></script>'
check "default: style as written" contains "$P" '<style>.note { color: #333; }</style>'
check "default: no escaped tags" sh -c "! grep -q '&lt;script\|&lt;iframe\|&lt;style' '$P'"
check "ssg config shows raw_html: keep" sh -c "'$SSG' config -C '$S' | grep -Eq '^raw_html +keep '"

"$SSG" check -C "$S" >"$T/check" 2>&1
check "check: exit 0 (the list is information)" test $? -eq 0
check "check: lists the outside script" contains "$T/check" "script https://cdn.example.net/mathjax/tex-chtml.js (2 pages, e.g. 2025/01/01/embeds/index.html)"
check "check: lists the outside iframe" contains "$T/check" "iframe https://www.youtube-nocookie.com/embed/abc (1 page: 2025/01/01/embeds/index.html)"
check "check: a //host frame is outside too" contains "$T/check" "iframe //www.youtube-nocookie.com/embed/def (1 page: 2025/01/02/again/index.html)"
check "check: the site's own script is not listed" sh -c "! grep -q 'local.js' '$T/check'"
check "check: three entries" test "$(grep -c '^script \|^iframe ' "$T/check")" -eq 3
"$SSG" check -C "$S" -q >"$T/checkq" 2>&1
check "check -q: no list" test ! -s "$T/checkq"

mode filter
check "filter: builds (no --force)" test $? -eq 0
check "filter: iframe shown as text" contains "$P" '&lt;iframe src="https://www.youtube-nocookie.com/embed/abc" title="Video">&lt;/iframe>'
check "filter: script shown as text" contains "$P" '&lt;script id="MathJax-script"'
check "filter: style shown as text" contains "$P" '&lt;style>.note'
check "filter: other tags kept" contains "$P" 'An <em>inline</em> tag.'
"$SSG" check -C "$S" >"$T/check" 2>&1
check "filter: check lists nothing" grep -qx 'none' "$T/check"

mode omit
check "omit: builds" test $? -eq 0
check "omit: no iframe, script or style" sh -c "! grep -q 'youtube\|MathJax\|\.note' '$P'"
check "omit: no inline tag" sh -c "! grep -q '<em>inline' '$P'"
check "omit: the text stays" contains "$P" 'A video, a formula renderer and a style.'

mode ""
check "back to keep: script as written again" contains "$P" '<script id="MathJax-script" async src="https://cdn.example.net/mathjax/tex-chtml.js"></script>'
"$SSG" build -C "$S" -q --force -o "$T/full" 2>/dev/null
check "incremental output equals a full build" diff -r "$S/output" "$T/full"

mode unsafe
check "unknown value: exit 1" test $? -eq 1
check "unknown value: file, line and choices" grep -q "site.yaml:3: error: raw_html: 'unsafe' is not one of keep|filter|omit" "$T/err"
summary
