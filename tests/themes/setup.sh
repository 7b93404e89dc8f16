#!/bin/sh
# Installs what the browser tests need when missing: Debian's chromium,
# nodejs and npm, then the npm packages pinned in package-lock.json (again
# whenever the lock file is newer than the installed tree). Exit 1 with a
# message when something cannot be installed.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR="$ROOT/tests/themes"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	DEB="nodejs npm" sh "$ROOT/tests/deps.sh" >&2 ||
		{ echo "cannot install nodejs and npm"; exit 1; }
fi
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
	DEB="chromium" sh "$ROOT/tests/deps.sh" >&2 ||
		{ echo "cannot install chromium"; exit 1; }
fi
if [ ! -f "$DIR/node_modules/.package-lock.json" ] ||
    [ "$DIR/package-lock.json" -nt "$DIR/node_modules/.package-lock.json" ]; then
	(cd "$DIR" && npm ci --no-audit --no-fund --loglevel=error >&2) ||
		{ echo "npm ci in tests/themes failed"; exit 1; }
fi
exit 0
