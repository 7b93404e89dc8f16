#!/bin/sh
# Incremental builds equal full builds: a seeded series of random edits,
# and after each one the incrementally built output tree must be byte for
# byte the tree a fresh --force build of the same sources gives.
# SEED=n STEPS=n reproduce or lengthen a run.
. "$(dirname "$0")/../lib.sh"
SEED=${SEED:-20261202}
STEPS=${STEPS:-60}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S="$T/site"
cp -R "$ROOT/tests/fixtures/basic" "$S"
rm -rf "$S/output" "$S/.ssg-cache"

N=0
rnd() {
	# rnd MAX: a number in [0, MAX), from SEED and a counter
	N=$((N + 1))
	awk -v s="$SEED" -v n="$N" -v m="$1" 'BEGIN { srand(s * 7919 + n); print int(rand() * m) }'
}
pick() {
	# pick DIR: one source file of DIR at random, or nothing
	set -- $(ls "$1" 2>/dev/null | LC_ALL=C sort)
	[ $# -eq 0 ] && return
	i=$(rnd $#)
	shift "$i"
	printf '%s\n' "$1"
}
TAGS="alpha beta Gamma gamma Délta html markdown cooking"
tag() { set -- $TAGS; shift "$(rnd $#)"; printf '%s' "$1"; }
date_of() { printf '202%d-%02d-%02d %02d:%02d:00' "$(rnd 6)" "$(($(rnd 12) + 1))" "$(($(rnd 28) + 1))" "$(rnd 24)" "$(rnd 60)"; }
new_post() {
	# new_post FILE TITLE
	cat >"$1" <<POST
---
title: $2
date: $(date_of)
tags: $(tag), $(tag)
---
Body of $2, with *emphasis* and a [link](https://example.org/$(rnd 100)).

## Part $(rnd 5)

$(rnd 100000) words, give or take.
POST
}

step() {
	op=$(rnd 19)
	f=$(pick "$S/posts")
	case $op in
	0|1) new_post "$S/posts/post-$1.md" "Post number $1" ;;
	2) [ -n "$f" ] && printf '\nAn added paragraph %s.\n' "$1" >>"$S/posts/$f" ;;
	3) [ -n "$f" ] && rm "$S/posts/$f" ;;
	4) [ -n "$f" ] && mv "$S/posts/$f" "$S/posts/renamed-$1.${f##*.}" ;;
	5) [ -n "$f" ] && sed -i "s/^tags:.*/tags: $(tag), $(tag)/" "$S/posts/$f" ;;
	6) [ -n "$f" ] && sed -i "s/^date:.*/date: $(date_of)/" "$S/posts/$f" ;;
	7) [ -n "$f" ] && if grep -q '^draft: true' "$S/posts/$f"; then
		sed -i '/^draft: true/d' "$S/posts/$f"
	   else sed -i '0,/^title:/s//draft: true\ntitle:/' "$S/posts/$f"; fi ;;
	8) mkdir -p "$S/templates"
	   if [ -f "$S/templates/footer.mustache" ]; then rm "$S/templates/footer.mustache"
	   else sed "s/<footer/<footer data-step=\"$1\"/" "$ROOT/themes/templates/footer.mustache" >"$S/templates/footer.mustache"; fi ;;
	9) sed -i '/^posts_per_page:/d' "$S/site.yaml"; echo "posts_per_page: $(($(rnd 4) + 1))" >>"$S/site.yaml" ;;
	10) sed -i '/^date_format:/d' "$S/site.yaml"
	    if [ "$(rnd 2)" -eq 0 ]; then echo 'date_format: "%Y/%m/%d"' >>"$S/site.yaml"; else echo 'date_format: "%d %B %Y"' >>"$S/site.yaml"; fi ;;
	11) g=$(pick "$S/pages"); [ -n "$g" ] && sed -i "s/^title:.*/title: Page title $1/" "$S/pages/$g" ;;
	12) if [ -f "$S/static/extra.txt" ]; then rm "$S/static/extra.txt"; else echo "static $1" >"$S/static/extra.txt"; fi ;;
	13) if grep -q '^enable_author_pages: true' "$S/site.yaml"; then sed -i '/^enable_author_pages:/d; /^enable_author_rss:/d; /^show_authors_menu_threshold:/d' "$S/site.yaml"
	    else printf 'enable_author_pages: true\nenable_author_rss: true\nshow_authors_menu_threshold: 1\n' >>"$S/site.yaml"; fi ;;
	14) [ -n "$f" ] && sed -i '/^author_name:/d' "$S/posts/$f" && sed -i "0,/^title:/s//author_name: Writer $(rnd 3)\ntitle:/" "$S/posts/$f" ;;
	15) sed -i '/^related_posts_count:/d' "$S/site.yaml"; echo "related_posts_count: $(rnd 4)" >>"$S/site.yaml" ;;
	17) if grep -q '^index_show_full_content: true' "$S/site.yaml"; then sed -i '/^index_show_full_content:/d' "$S/site.yaml"
	    else echo "index_show_full_content: true" >>"$S/site.yaml"; fi ;;
	18) if grep -q '^rss_include_full_content: true' "$S/site.yaml"; then sed -i '/^rss_include_full_content:/d' "$S/site.yaml"
	    else echo "rss_include_full_content: true" >>"$S/site.yaml"; fi ;;
	16) if grep -q '^precompress_assets: true' "$S/site.yaml"; then sed -i '/^precompress_assets:/d' "$S/site.yaml"
	    else echo "precompress_assets: true" >>"$S/site.yaml"; fi ;;
	esac
	echo "$op"
}

# fresh_copy: the site's sources in $T/fresh, without its output and build
# state, for a full build to compare with. The code colours are kept: they
# depend on the code alone, and Pygments would take half a second a build.
fresh_copy() {
	rm -rf "$T/fresh"
	cp -Rp "$S" "$T/fresh"
	rm -rf "$T/fresh/output"
	find "$T/fresh/.ssg-cache" -type f ! -name highlight.bin -exec rm -f {} +
}

i=1
ok=1
while [ "$i" -le "$STEPS" ]; do
	op=$(step "$i")
	"$SSG" build -C "$S" -q >"$T/inc.log" 2>&1
	fresh_copy
	"$SSG" build -C "$T/fresh" --force -q >"$T/full.log" 2>&1
	if diff -r "$S/output" "$T/fresh/output" >"$T/diff" 2>&1; then
		pass
	else
		fail "step $i (operation $op) differs from a full build; SEED=$SEED"
		head -n 30 "$T/diff" >&2
		ok=0
		break
	fi
	i=$((i + 1))
done

# The home page shows whole posts: one edit makes it again, and it still
# shows the bodies of the posts whose cached pages were not made again.
sed -i '/^index_show_full_content:/d; /^posts_per_page:/d' "$S/site.yaml"
printf 'index_show_full_content: true\nposts_per_page: 50\n' >>"$S/site.yaml"
"$SSG" build -C "$S" -q >/dev/null 2>&1
printf '\nOne more paragraph for the home page.\n' >>"$S/posts/$(pick "$S/posts")"
"$SSG" build -C "$S" -q >"$T/inc.log" 2>&1
fresh_copy
"$SSG" build -C "$T/fresh" --force -q >"$T/full.log" 2>&1
check "a home page of whole posts, made again after one edit, shows every post's body" \
    diff "$S/output/index.html" "$T/fresh/output/index.html"

# A build with nothing changed renders and writes nothing.
"$SSG" build -C "$S" >"$T/out" 2>&1
check "no-change rebuild renders nothing" grep -q '(0 rendered, 0 changed)' "$T/out"
"$SSG" build -C "$S" >"$T/out" 2>&1
check "no-change rebuild, twice: still nothing" grep -q '(0 rendered, 0 changed)' "$T/out"

# Nothing changed but a page was deleted by hand: it comes back.
page=$(cd "$S/output" && find . -path './20*' -name index.html | sed -n 1p)
rm "$S/output/$page" "$S/output/index.html"
"$SSG" build -C "$S" -q
check "pages deleted from the output are written again" \
    diff -r "$S/output" "$T/fresh/output"

# Nothing changed but a static file was deleted: its copy goes too.
mkdir -p "$S/static"
echo "gone soon" >"$S/static/gone-soon.txt"
"$SSG" build -C "$S" -q
"$SSG" build -C "$S" -q
rm "$S/static/gone-soon.txt"
"$SSG" build -C "$S" -q
check "a deleted static file's copy is removed" test ! -e "$S/output/gone-soon.txt"
check "and the output equals a full build again" diff -r "$S/output" "$T/fresh/output"

# Only the clock moved: a post dated a few seconds ahead is left out, then
# published by the first build after its time.
soon=$(TZ=UTC date -d "@$(($(date +%s) + 3))" '+%Y-%m-%d %H:%M:%S')
printf -- '---\ntitle: Due soon\ndate: %s +0000\n---\nNot yet.\n' "$soon" \
    >"$S/posts/due-soon.md"
"$SSG" build -C "$S" -q
check "a post dated ahead is not published" sh -c "! grep -rq 'Due soon' '$S/output/index.html'"
"$SSG" build -C "$S" -q
sleep 4
"$SSG" build -C "$S" -q
check "the first build after its time publishes it" grep -q 'Due soon' "$S/output/index.html"
rm "$S/posts/due-soon.md"
"$SSG" build -C "$S" -q

# A damaged cache is noticed and ignored, and the result is still right.
printf 'garbage' >"$S/.ssg-cache/sources.bin"
"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "damaged cache: warning" grep -q "build cache is damaged" "$T/err"
check "damaged cache: output still equals a full build" diff -r "$S/output" "$T/fresh/output"
m=$(ls "$S"/.ssg-cache/outputs-*.txt | head -n 1)
printf 'not a manifest\n' >"$m"
"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "damaged list of outputs: warning" grep -q "damaged list of outputs" "$T/err"
check "damaged list of outputs: output still equals a full build" diff -r "$S/output" "$T/fresh/output"

# A cache from another site is not used.
cp -R "$S" "$T/other"
sed -i 's/^site_title:.*/site_title: "Another"/' "$T/other/site.yaml"
"$SSG" build -C "$T/other" -q
check "a copied site's cache is not reused for the wrong site" grep -q "| Another</title>" "$T/other/output/index.html"

# --force renders every page again, and changes no byte.
"$SSG" build -C "$S" --force >"$T/out" 2>&1
check "--force renders all and changes nothing" grep -q 'rendered, 0 changed' "$T/out"
check "--force renders every page" sh -c "! grep -q '(0 rendered' '$T/out'"
# and the build after it knows nothing changed without reading a source
# (SSG_TRACE names the stages a build went through)
SSG_TRACE=1 "$SSG" build -C "$S" >"$T/out" 2>&1
check "after --force, a no-change build reads no source" sh -c "grep -q '(0 rendered, 0 changed)' '$T/out' && ! grep -q 'trace: load' '$T/out'"

# A build killed while rendering leaves a state the next build repairs.
new_post "$S/posts/killed.md" "Killed build"
for k in 1 2 3 4 5; do
	"$SSG" build -C "$S" -q -j 1 >/dev/null 2>&1 &
	pid=$!
	sleep "0.00$k"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
done
"$SSG" build -C "$S" -q
fresh_copy
"$SSG" build -C "$T/fresh" --force -q
if diff -r "$S/output" "$T/fresh/output" >"$T/kdiff" 2>&1; then pass; else fail "after kill -9, the next build equals a full build"; head -20 "$T/kdiff" >&2; fi
# A tag's name is the newest post's spelling of it, on every page that
# shows the tag: retagging the newest post renames it on an old post's page
# (both keep the tag x, so the old post's related list stays the same).
TN="$T/tagname"
mkdir -p "$TN/posts"
printf 'site_title: T\nsite_url: https://example.org\n' > "$TN/site.yaml"
printf -- '---\ntitle: New\ndate: 2025-02-01\ntags: C#, x\n---\nNew.\n' > "$TN/posts/new.md"
printf -- '---\ntitle: Old\ndate: 2025-01-01\nslug: old\ntags: c, x\n---\nOld.\n' > "$TN/posts/old.md"
"$SSG" build -C "$TN" -q
check "the old post shows the tag as the newest post spells it" \
    grep -q '>C#<' "$TN/output/2025/01/01/old/index.html"
printf -- '---\ntitle: New\ndate: 2025-02-01\ntags: shell, x\n---\nNew.\n' > "$TN/posts/new.md"
"$SSG" build -C "$TN" -q
check "retagging the newest post renames the tag on the old post's page" \
    sh -c "grep -q '>c<' '$TN/output/2025/01/01/old/index.html' && ! grep -q '>C#<' '$TN/output/2025/01/01/old/index.html'"
summary
