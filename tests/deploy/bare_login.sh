#!/bin/sh
# usage: bare_login.sh CMD [ARG...]: runs CMD (a test's sshd, or what holds
# a test host's mount namespace) with the shell startup files of root and
# of the user running the tests hidden, in a mount namespace of its own
# where root can make one (else CMD runs as it is). A fresh host has no
# such files; this machine's may start a version manager that costs more,
# for each command sshd's shells run, than the command itself.
# BARE_LOGIN_NS=1: the caller made CMD's mount namespace already.
if [ -z "${BARE_LOGIN_NS:-}" ] && [ "$(id -u)" -eq 0 ] &&
    unshare -m true 2>/dev/null; then
	BARE_LOGIN_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
if [ -n "${BARE_LOGIN_NS:-}" ]; then
	for u in root "$(id -un)"; do
		home=$(getent passwd "$u" | cut -d: -f6)
		for f in .bashrc .bash_profile .bash_login .profile; do
			[ ! -f "$home/$f" ] || mount --bind /dev/null "$home/$f" || exit 1
		done
	done
	unset BARE_LOGIN_NS
fi
exec "$@"
