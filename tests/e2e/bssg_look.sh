#!/bin/sh
# A BSSG site looks as BSSG built it: the look fixture, imported and built
# by ssg with each stylesheet of tests/fixtures/bssg-look.themes as the
# site's theme, against BSSG's own build of it, screenshot page kind by
# page kind at 1280 and 390 px (tests/themes/look.js).
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
DIR="$ROOT/tests/themes"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM
if ! msg=$(sh "$DIR/setup.sh"); then
	fail "$msg"
	summary
	exit 1
fi
# TEST_PARTS=photos: the post with photos under the two sheets that scale
# them (make mutate runs this part for a fault)
case " ${TEST_PARTS:-all} " in
*" all "*) ;;
*" photos "*)
	LOOK_ONLY="cards terminal" LOOK_PAGES=2025/03/02/river-walk/
	export LOOK_ONLY LOOK_PAGES ;;
esac
cp -R "$ROOT/tests/fixtures/bssg-look" "$T/site"
"$SSG" import bssg "$T/site" >/dev/null 2>"$T/err" || fail "import: $(cat "$T/err")"
for css in "$ROOT"/tests/fixtures/bssg-look.themes/*.css; do
	t=$(basename "$css" .css)
	case " ${LOOK_ONLY:-$t} " in *" $t "*) ;; *) continue ;; esac
	mkdir -p "$T/site/themes/$t"
	cp "$css" "$T/site/themes/$t/style.css"
	"$SSG" build -C "$T/site" -q -t "$t" -o "$T/out/$t" 2>"$T/err" ||
	    fail "build with $t: $(cat "$T/err")"
done
node "$DIR/look.js" "$ROOT" "$T/out" >"$T/log" 2>&1
cat "$T/log" >&2
P=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$T/log")
F=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$T/log")
PASSED=$((PASSED + ${P:-0}))
FAILED=$((FAILED + ${F:-1}))
summary
