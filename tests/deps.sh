#!/bin/sh
# Installs the packages named in $DEB (Debian) or $FREEBSD (FreeBSD) that
# are missing; does nothing when all are present.
set -e
as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
if command -v dpkg-query >/dev/null 2>&1; then
	missing=""
	for p in $DEB; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || missing="$missing $p"
	done
	[ -z "$missing" ] && exit 0
	echo "installing:$missing"
	as_root apt-get update -qq
	# Services such as nginx must not start on install and hold ports:
	# a policy-rc.d that says no, for the length of the install.
	if [ "$(id -u)" -eq 0 ] && [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
		chmod 755 /usr/sbin/policy-rc.d
		trap 'rm -f /usr/sbin/policy-rc.d' EXIT
	fi
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing >/dev/null
elif command -v pkg >/dev/null 2>&1; then
	as_root pkg install -y $FREEBSD
else
	echo "deps: unknown system; install by hand: $DEB" >&2
	exit 1
fi
