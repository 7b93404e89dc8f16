#!/bin/sh
# usage: bare_login.sh CMD [ARG...]: runs CMD (an sshd, or what holds a
# test host's mount namespace) with the shell startup files of root and of
# the user running the tests hidden, in the mount namespace the caller
# made for it (unshare -m). A fresh host has none; this machine's may
# start a version manager that costs more, for each command sshd's shells
# run, than the command itself.
for u in root "$(id -un)"; do
	home=$(getent passwd "$u" | cut -d: -f6)
	for f in .bashrc .bash_profile .bash_login .profile; do
		[ ! -f "$home/$f" ] || mount --bind /dev/null "$home/$f" || exit 1
	done
done
exec "$@"
