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
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	DEB="nodejs npm" sh "$ROOT/tests/deps.sh" >&2 ||
		setup_failed "cannot install nodejs and npm"
fi
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
	DEB="chromium" sh "$ROOT/tests/deps.sh" >&2 ||
		setup_failed "cannot install chromium"
fi
export CHROMIUM
# npm ci again whenever the lock file is newer than the installed tree.
if [ ! -f "$DIR/node_modules/.package-lock.json" ] ||
    [ "$DIR/package-lock.json" -nt "$DIR/node_modules/.package-lock.json" ]; then
	(cd "$DIR" && npm ci --no-audit --no-fund --loglevel=error >&2) ||
		setup_failed "npm ci in tests/themes failed"
fi
exec node "$DIR/run.js" "$ROOT"
