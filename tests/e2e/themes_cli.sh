#!/bin/sh
# ssg themes: the list with descriptions, theme: random, a site's own
# theme and template, and the preview gallery (every link resolves).
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -R "$ROOT/tests/fixtures/basic" "$T/site"
S="$T/site"

"$SSG" themes -C "$S" >"$T/list"
n=$(wc -l <"$T/list")
check "at least 50 themes listed ($n)" test "$n" -ge 50
check "list has name, family and description" grep -q "^default	modern	." "$T/list"
bad=$(awk -F'\t' 'NF != 3 || $3 == ""' "$T/list" | head -n 3)
check "every theme has a family and a description: $bad" test -z "$bad"

"$SSG" build -C "$S" -t random >"$T/out"
th=$(sed -n 's/.*theme \([a-z0-9-]*\).*/\1/p' "$T/out")
check "theme: random names its pick in the summary ($th)" grep -q "^$th	" "$T/list"
check "the picked theme's stylesheet is used" sheet_is "$S/output/css/style.css" "$ROOT/themes/$th/style.css"

mkdir -p "$S/themes/mine" "$S/templates"
printf 'body { color: #111; background: #fff; }\n' >"$S/themes/mine/style.css"
printf 'name: mine\ndescription: "My own"\nfamily: special\ndark: false\n' >"$S/themes/mine/theme.yaml"
sed 's|<footer class="site-footer">|<footer class="site-footer"><p>Own footer</p>|' \
	"$ROOT/themes/templates/footer.mustache" >"$S/templates/footer.mustache"
"$SSG" build -C "$S" -t mine -q
check "a site's own theme is used" sheet_is "$S/output/css/style.css" "$S/themes/mine/style.css"
check "a site's own template overrides the built-in one" contains "$S/output/index.html" 'Own footer'
check "the site's theme is listed" sh -c "'$SSG' themes -C '$S' | grep -q '^mine	special	My own'"
"$SSG" build -C "$S" -t no-such-theme >"$T/out" 2>"$T/err"
check "unknown theme: exit 1" test $? -eq 1
check "unknown theme: says so" grep -q "theme 'no-such-theme' not found" "$T/err"

# Links written into posts as /blog/... assume the site's own base path;
# the preview serves each theme under /THEME/, so drop them here.
sed -i 's|](/blog/[a-z/]*)|](https://example.org/)|g' "$S"/posts/*.md "$S"/pages/*.md
"$SSG" themes preview -C "$S" --out "$T/gallery" --site-url http://127.0.0.1:8000 >"$T/out" 2>&1
check "preview builds every theme" grep -q "^$((n + 1)) of $((n + 1)) themes built" "$T/out"
links=$(grep -o 'href="[^"]*"' "$T/gallery/index.html" | sed 's/href="//; s/"$//')
count=0
missing=""
for l in $links; do
	count=$((count + 1))
	[ -f "$T/gallery/$l" ] || missing="$missing $l"
done
check "the gallery links every theme ($count links)" test "$count" -ge "$((n + 1))"
check "every gallery link resolves:$missing" test -z "$missing"
for t in default c64 win95 newspaper mine; do
	[ -d "$T/gallery/$t" ] || { fail "no preview of $t"; continue; }
	mkdir -p "$T/check-$t"
	cp -R "$T/gallery/$t" "$T/check-$t/output"
	printf 'site_url: http://127.0.0.1:8000/%s\n' "$t" >"$T/check-$t/site.yaml"
	check "preview of $t: every internal link resolves" "$SSG" check -C "$T/check-$t" -q
done
# Every theme name BSSG 0.32 has is a theme here, so a BSSG site's THEME
# builds.
"$SSG" themes >"$T/list" 2>&1
missing=""
for name in $(grep -v '^#' "$ROOT/tests/fixtures/bssg.themes"); do
	cut -f1 "$T/list" | grep -qx -- "$name" || missing="$missing $name"
done
check "every BSSG theme name is a theme (missing:$missing)" test -z "$missing"
summary
