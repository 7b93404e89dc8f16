#!/bin/sh
# The head as BSSG writes it: the look fixture (tests/fixtures/bssg-look),
# imported and built, against BSSG's own build of it (bssg-look.out), value
# by value (tests/e2e/bssg_head.py): title, meta description, og:*,
# twitter:*, canonical, JSON-LD headline, description, dates, author with
# e-mail and image. Four of its five posts have no description: BSSG's is
# made from the post's first words (content.sh, generate_excerpt).
# Twice, every page: with the site's own header.html and footer.html
# (BSSG's, as an imported site keeps them), and with ssg's templates.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

OUT="$ROOT/tests/fixtures/bssg-look.out"
L="$T/look"
cp -R "$ROOT/tests/fixtures/bssg-look" "$L"
# BSSG's output beside it, as a user has it: import keeps its tag URLs
cp -R "$OUT" "$L/output"
"$SSG" import bssg "$L" >/dev/null 2>"$T/err"
rm -r "$L/output"
check "the look fixture imports" test -f "$L/site.yaml"
"$SSG" build -C "$L" -q -o "$T/tpl" 2>"$T/err"
check "it builds with ssg's templates" test -f "$T/tpl/index.html"
mkdir "$L/templates"
cp "$ROOT/tests/fixtures/bssg/templates/header.html" \
    "$ROOT/tests/fixtures/bssg/templates/footer.html" "$L/templates/"
"$SSG" build -C "$L" -q -o "$T/frame" 2>"$T/err"
check "it builds with BSSG's header and footer" test -f "$T/frame/index.html"

# head_compare NAME ARGS...: bssg_head.py's checks counted as ours.
head_compare() {
	name=$1; shift
	python3 "$ROOT/tests/e2e/bssg_head.py" "$@" >"$T/head" 2>&1
	sed "s|^FAIL |FAIL $name: |" "$T/head" | grep '^FAIL' >&2
	p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$T/head")
	f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$T/head")
	PASSED=$((PASSED + ${p:-0}))
	FAILED=$((FAILED + ${f:-1}))
	[ -n "${MUTATE_FAIL_FAST:-}" ] && [ "${f:-1}" -ne 0 ] && { summary; exit 1; }
	check "$name: values compared" test "${p:-0}" -ge "$MIN"
}

pages=$(cd "$OUT" && find . -name index.html |
    sed 's|^\./||; s|/\{0,1\}index\.html$||; s|^$|.|' | sort)
MIN=250
# shellcheck disable=SC2086
head_compare "BSSG's header.html" "$OUT" "$T/frame" $pages
# shellcheck disable=SC2086
head_compare "ssg's templates" "$OUT" "$T/tpl" $pages

# The excerpt's words and the author's e-mail, said plainly.
C=2025/03/05/coffee/index.html
for d in frame tpl; do
	check "$d: coffee's description is its first words" grep -q \
	    'name="description" content="The café at the market opens at seven' \
	    "$T/$d/$C"
	check "$d: JSON-LD author's e-mail" grep -q '"email": *"ada@example.org"' \
	    "$T/$d/$C"
done
summary
