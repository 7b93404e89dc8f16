#!/bin/sh
# Every theme in headless Chromium: WCAG 2.1 AA (axe-core), 360 px layout,
# keyboard focus, reduced motion, valid CSS, no external requests.
# Installs what it needs (Debian chromium, nodejs/npm, the npm packages
# pinned in tests/themes/package-lock.json) when missing.
. "$(dirname "$0")/../lib.sh"
DIR="$ROOT/tests/themes"

setup_failed() {
	fail "$1"
	summary
	exit 1
}

[ -x "$SSG" ] || setup_failed "bin/ssg is missing (build it first)"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM
msg=$(sh "$DIR/setup.sh") || setup_failed "$msg"
# TEST_PARTS=default: the default theme alone, on which axe runs every
# rule on every page (make mutate runs this part for a fault)
set --
case " ${TEST_PARTS:-all} " in
*" all "*) ;;
*" default "*) set -- default ;;
esac
exec node "$DIR/run.js" "$ROOT" "$@"
