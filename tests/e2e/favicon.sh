#!/bin/sh
# The site's icon and theme colour: <link rel="icon"> for the favicon in
# static/ (ico, png, svg or jpg, the first that exists) or the one named by
# favicon:, none without one; <meta name="theme-color"> from theme_color;
# adding or removing an icon changes every page on the next build.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S="$T/site"
mkdir -p "$S/posts" "$S/pages" "$S/static"
printf 'site_title: Icons\nsite_url: https://example.org\n' > "$S/site.yaml"
printf -- '---\ntitle: One\ndate: 2025-01-01\n---\nText.\n' > "$S/posts/one.md"
printf -- '---\ntitle: About\n---\nText.\n' > "$S/pages/about.md"
icon() { grep -o '<link rel="icon"[^>]*>' "$S/output/$1"; }

"$SSG" build -C "$S" -q
check "no icon in static/: no icon link" sh -c "! grep -q 'rel=\"icon\"' '$S/output/index.html'"
check "no theme_color: no theme-color" sh -c "! grep -q 'theme-color' '$S/output/index.html'"
for kind in "ico image/x-icon" "png image/png" "svg image/svg+xml" "jpg image/jpeg"; do
	set -- $kind
	rm -f "$S"/static/favicon.*
	echo x > "$S/static/favicon.$1"
	"$SSG" build -C "$S" -q
	check "favicon.$1 in static/: linked from the home page" test \
	    "$(icon index.html)" = "<link rel=\"icon\" href=\"/favicon.$1\" type=\"$2\">"
	check "favicon.$1: linked from a page too" test \
	    "$(icon about/index.html)" = "<link rel=\"icon\" href=\"/favicon.$1\" type=\"$2\">"
done
echo x > "$S/static/favicon.ico"
"$SSG" build -C "$S" -q
check "with several, favicon.ico comes first" test \
    "$(icon index.html)" = '<link rel="icon" href="/favicon.ico" type="image/x-icon">'
rm -f "$S"/static/favicon.*
"$SSG" build -C "$S" -q
check "icon removed: the next build drops the link" sh -c "! grep -q 'rel=\"icon\"' '$S/output/index.html'"
printf 'favicon: /img/logo.svg\ntheme_color: "#1d4ed8"\n' >> "$S/site.yaml"
"$SSG" build -C "$S" -q
check "favicon: names the icon" test \
    "$(icon index.html)" = '<link rel="icon" href="/img/logo.svg" type="image/svg+xml">'
check "theme_color gives <meta name=\"theme-color\">" grep -q \
    '<meta name="theme-color" content="#1d4ed8">' "$S/output/index.html"
printf 'site_title: Icons\nsite_url: https://example.org/blog\nfavicon: /i.png\n' > "$S/site.yaml"
"$SSG" build -C "$S" -q
check "a site below a path: the icon's href has it" test \
    "$(icon index.html)" = '<link rel="icon" href="/blog/i.png" type="image/png">'
summary
