#!/bin/sh
# Parallel parsing and rendering: many posts using every Markdown
# extension, built with 1 and with 8 threads, must give the same bytes
# and lose no extension on the way (cmark-gfm's extensions share global
# state between parses).
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/s1/posts"
printf 'site_title: Parallel\nsite_url: http://example.org\nposts_per_page: 50\n' >"$T/s1/site.yaml"
i=0
while [ $i -lt 400 ]; do
	cat >"$T/s1/posts/p$i.md" <<POST
---
title: Post $i
date: 2024-01-01 00:$(printf %02d $((i % 60))):$(printf %02d $((i / 60 % 60)))
tags: t$((i % 7)), u$((i % 5))
---
Text ~~struck $i~~ and www.example$i.org and https://example.org/$i.

| a | b |
|---|---|
| $i | x |

- [x] done $i

Note[^$i].

[^$i]: Footnote $i.
POST
	i=$((i + 1))
done
cp -Rp "$T/s1" "$T/s4"
"$SSG" build -C "$T/s1" -q -j 1
"$SSG" build -C "$T/s4" -q -j 8
check "-j 1 and -j 8 give the same bytes" diff -r "$T/s1/output" "$T/s4/output"
n=$(grep -l '<del>struck' "$T/s4"/output/2024/*/*/*/index.html | wc -l)
check "strikethrough in all 400 posts ($n)" test "$n" -eq 400
n=$(grep -l 'href="http://www.example' "$T/s4"/output/2024/*/*/*/index.html | wc -l)
check "autolinks in all 400 posts ($n)" test "$n" -eq 400
n=$(grep -l '<table>' "$T/s4"/output/2024/*/*/*/index.html | wc -l)
check "tables in all 400 posts ($n)" test "$n" -eq 400
n=$(grep -l 'class="footnotes"' "$T/s4"/output/2024/*/*/*/index.html | wc -l)
check "footnotes in all 400 posts ($n)" test "$n" -eq 400
summary
