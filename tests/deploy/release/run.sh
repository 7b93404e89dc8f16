#!/bin/sh
# End-to-end tests of releases: commit, transfer of new objects only, the
# host agent's checkout/verify/switch, rollback, pruning, crash safety, and
# the ssh transport against a real sshd on 127.0.0.1.
# Usage: run.sh [DRIVER]   (default: drv beside this script, built by make)
here=$(cd "$(dirname "$0")" && pwd)
DRV=${1:-$here/drv}
[ -x "$DRV" ] || { echo "no test driver $DRV (make tests/deploy/release/drv)"; echo "0 passed, 1 failed"; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/release-e2e.XXXXXX")
SSHD_PID=
cleanup() {
	if [ -n "$SSHD_PID" ]; then
		kill "$SSHD_PID" 2>/dev/null
		wait "$SSHD_PID" 2>/dev/null
	fi
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
notok() {
	fail=$((fail + 1))
	echo "FAIL - $1"
	[ -f "$W/log" ] && sed 's/^/#   /' "$W/log"
	# Under make mutate the first failure is enough.
	if [ -n "${MUTATE_FAIL_FAST:-}" ]; then
		echo "$pass passed, $fail failed"
		exit 1
	fi
}
check() { desc=$1; shift; if "$@"; then ok "$desc"; else notok "$desc"; fi; }
# fails_with STATUS TEXT: the command failed and its log says TEXT.
fails_with() { [ "$1" -ne 0 ] && grep -q "$2" "$W/log"; }
current_is() { [ "$(current_id)" = "$1" ] && same_tree "$TREE"; }
list_two_current() { [ "$(wc -l < "$W/log")" -eq 2 ] && grep -q " current$" "$W/log"; }

ROOT=$W/host
SITE=blog
REPO=$W/blog.git
TREE=$W/site
common="--root $ROOT --site $SITE"
push() { "$DRV" push $common --repo "$REPO" --tree "$TREE" "$@"; }
current_id() { readlink "$ROOT/$SITE/current" | sed 's|^releases/||'; }
field() { sed -n "s/^$1 //p" "$W/log" | head -n 1; }
# The release equals the tree plus .well-known/release holding its id.
same_tree() {
	id=$(current_id)
	[ "$(cat "$ROOT/$SITE/current/.well-known/release")" = "$id" ] || return 1
	diff -r -x .well-known "$1" "$ROOT/$SITE/current" >/dev/null || return 1
	[ -z "$(ls -A "$ROOT/$SITE/current/.well-known" | grep -v '^release$')" ]
}
# Waits (up to 20 s) for a pause hook to write its pid file.
wait_pid() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$1" ]
}

# --- a 2,000-file tree: 20 folders x 100 files of 4 KiB ---------------
# (one process: 2,000 of head(1) cost more than the pushes that follow)
python3 -c '
import os, sys
for d in range(1, 21):
    os.makedirs("%s/d%02d" % (sys.argv[1], d))
    for f in range(1, 101):
        with open("%s/d%02d/f%03d.html" % (sys.argv[1], d, f), "wb") as fp:
            fp.write(os.urandom(4096))
' "$TREE"
echo '<h1>home</h1>' > "$TREE/index.html"
tree_bytes=$(find "$TREE" -type f -exec cat {} + | wc -c)

# --- first push ---------------------------------------------------------
push > "$W/log" 2>&1
check "first push succeeds" [ $? -eq 0 ]
ID1=$(field id)
check "current points at the pushed release" [ "$(current_id)" = "$ID1" ]
check "checked-out files are byte-identical to the tree" same_tree "$TREE"
check "current is a relative symlink into releases/" \
    [ "$(readlink "$ROOT/$SITE/current")" = "releases/$ID1" ]
check "first push reports no previous release" [ "$(field previous)" = "-" ]

# --- second push after one edit: only new objects travel -----------------
sleep 1
head -c 4096 /dev/urandom > "$TREE/d07/f042.html"
push > "$W/log" 2>&1
check "second push succeeds" [ $? -eq 0 ]
ID2=$(field id)
sent=$(field sent)
check "second push reports the first as previous" [ "$(field previous)" = "$ID1" ]
check "second release is byte-identical to the edited tree" same_tree "$TREE"
check "second push sent $sent bytes, under 1% of $tree_bytes" \
    [ "$sent" -gt 0 -a $((sent * 100)) -lt "$tree_bytes" ]
check "first release is kept untouched" \
    [ "$(cat "$ROOT/$SITE/releases/$ID1/.well-known/release")" = "$ID1" ]
# Unchanged files are the first release's inodes, the edited one is new.
same_inode() { [ "$(stat -c %i "$ROOT/$SITE/releases/$ID1/$1")" = \
    "$(stat -c %i "$ROOT/$SITE/releases/$ID2/$1")" ]; }
shared() { same_inode d07/f041.html && same_inode d20/f100.html &&
    same_inode index.html; }
check "unchanged files are shared with the previous release" shared
anew() { ! same_inode d07/f042.html && ! same_inode .well-known/release; }
check "the edited file and the release id are written anew" anew
check "the first release keeps the old content of the edited file" \
    sh -c "! cmp -s '$TREE/d07/f042.html' '$ROOT/$SITE/releases/$ID1/d07/f042.html'"

# --- list ----------------------------------------------------------------
"$DRV" list $common > "$W/log" 2>&1
check "list shows both releases, oldest first, with markers" \
    [ "$(awk '{print $1, $3}' "$W/log" | tr '\n' ';')" = "$ID1 previous;$ID2 current;" ]

# --- rollback -------------------------------------------------------------
"$DRV" rollback $common > "$W/log" 2>&1
check "rollback without id goes to the previous release" \
    [ $? -eq 0 -a "$(current_id)" = "$ID1" -a "$(field current)" = "$ID1" ]
check "after rollback the edited file is the old one again" \
    sh -c "! cmp -s '$TREE/d07/f042.html' '$ROOT/$SITE/current/d07/f042.html'"
"$DRV" rollback $common > "$W/log" 2>&1
check "rollback with nothing older fails" fails_with $? "no release older"
check "a failed rollback leaves current alone" [ "$(current_id)" = "$ID1" ]
"$DRV" rollback $common "$ID2" > "$W/log" 2>&1
check "rollback to a named release" [ $? -eq 0 -a "$(current_id)" = "$ID2" ]

# --- a damaged release is refused --------------------------------------------
echo tampered >> "$ROOT/$SITE/releases/$ID1/d01/f001.html"
"$DRV" rollback $common "$ID1" > "$W/log" 2>&1
check "rollback to a damaged release fails verification" \
    fails_with $? "does not match"
check "current stays on the good release" [ "$(current_id)" = "$ID2" ]
touch "$ROOT/$SITE/releases/$ID1/extra.html"
"$DRV" rollback $common "$ID1" > "$W/log" 2>&1
check "an extra file is reported" fails_with $? "not part of the release"
rm "$ROOT/$SITE/releases/$ID1/extra.html"
head -c 4096 "$ROOT/$SITE/releases/$ID1/d01/f001.html" > "$W/f" &&
    cat "$W/f" > "$ROOT/$SITE/releases/$ID1/d01/f001.html"
"$DRV" rollback $common "$ID1" > "$W/log" 2>&1 &&
    "$DRV" rollback $common "$ID2" >> "$W/log" 2>&1
check "a repaired release verifies again" [ $? -eq 0 -a "$(current_id)" = "$ID2" ]

# --- kill -9 of the agent during checkout ------------------------------------
sleep 1
echo '<h1>v3</h1>' > "$TREE/index.html"
rm -f "$W/pid"
DEPLOY_TEST_PAUSE=checkout:$W/pid push > "$W/log" 2>&1 &
pusher=$!
if wait_pid "$W/pid"; then
	kill -9 "$(cat "$W/pid")"
	wait $pusher
	rc=$?
	check "push fails when the agent dies during checkout" [ $rc -ne 0 ]
	check "the previous release is still current" [ "$(current_id)" = "$ID2" ]
	check "and still byte-identical" \
	    [ "$(cat "$ROOT/$SITE/current/index.html")" = '<h1>home</h1>' ]
	check "the half checkout is not a release" \
	    [ "$(ls "$ROOT/$SITE/releases" | wc -l)" -eq 2 ]
	check "the half checkout was left in staging" \
	    [ -n "$(ls -A "$ROOT/.deploy/$SITE/staging")" ]
else
	kill $pusher 2>/dev/null
	notok "checkout pause hook was reached"
fi
push > "$W/log" 2>&1
check "the next push succeeds" [ $? -eq 0 ]
ID3=$(field id)
check "and is current and byte-identical" current_is "$ID3"
check "stale staging was cleaned" [ -z "$(ls -A "$ROOT/.deploy/$SITE/staging")" ]

# --- kill -9 of the pusher during transfer ------------------------------------
sleep 1
for ff in $(seq -w 1 100); do head -c 4096 /dev/urandom > "$TREE/d03/f$ff.html"; done
rm -f "$W/pid"
DEPLOY_TEST_PAUSE=transfer:$W/pid push > "$W/log" 2>&1 &
pusher=$!
if wait_pid "$W/pid"; then
	paused=$(cat "$W/pid")
	is_pusher() { tr '\0' ' ' < "/proc/$1/cmdline" | grep -q "drv push"; }
	check "the pause is in the pusher" is_pusher "$paused"
	kill -9 "$paused"
	wait $pusher 2>/dev/null
	IDX=$(field id)
	sleep 0.5
	check "the previous release is still current after a killed transfer" \
	    [ "$(current_id)" = "$ID3" ]
	check "the interrupted release was not recorded on the host" \
	    [ -n "$IDX" -a ! -e "$ROOT/.deploy/$SITE/repo.git/refs/releases/$IDX" \
	    -a ! -e "$ROOT/$SITE/releases/$IDX" ]
else
	kill $pusher 2>/dev/null
	notok "transfer pause hook was reached"
fi
sleep 1
push > "$W/log" 2>&1
check "the push after a killed transfer succeeds" [ $? -eq 0 ]
ID4=$(field id)
check "and is current and byte-identical" current_is "$ID4"

# --- keep=N pruning -------------------------------------------------------------
sleep 1
echo '<h1>v5</h1>' > "$TREE/index.html"
push --keep 2 > "$W/log" 2>&1
rc=$?
ID5=$(field id)
check "push with keep 2 prunes the older releases" \
    [ $rc -eq 0 -a "$(ls "$ROOT/$SITE/releases" | tr '\n' ' ')" = "$ID4 $ID5 " ]
refs_gone() {
	[ ! -e "$ROOT/.deploy/$SITE/repo.git/refs/releases/$ID1" ] &&
	    ! (cd "$ROOT/.deploy/$SITE/repo.git" && git for-each-ref refs/releases) |
	    grep -q "$ID1"
}
check "pruned releases' refs are gone from the host repository" refs_gone
# Their files are removed after the push has returned, in the background.
trash_empties() {
	i=0
	while [ -n "$(ls -A "$ROOT/.deploy/$SITE/trash")" ] && [ $i -lt 200 ]; do
		sleep 0.1; i=$((i + 1))
	done
	[ -z "$(ls -A "$ROOT/.deploy/$SITE/trash")" ]
}
check "pruned releases' files are removed from the disk" trash_empties
# A release between the two that never served (as one a push staged and
# never switched): a rollback goes to the one that served before, not to
# the newest older one.
between="${ID4%-*}-ffffffffffff"
cp -a "$ROOT/$SITE/releases/$ID4" "$ROOT/$SITE/releases/$between"
"$DRV" rollback $common > "$W/log" 2>&1
check "rollback without an id goes back to the release before the current" \
    [ $? -eq 0 -a "$(readlink "$ROOT/$SITE/current")" = "releases/$ID4" ]
rm -rf "$ROOT/$SITE/releases/$between"
"$DRV" rollback $common > "$W/log" 2>&1
check "a second rollback without an id has nothing older: refused, unchanged" \
    [ $? -ne 0 -a "$(readlink "$ROOT/$SITE/current")" = "releases/$ID4" ]
sleep 1
echo '<h1>v6</h1>' > "$TREE/index.html"
push > "$W/log" 2>&1
ID6=$(field id)
"$DRV" rollback $common "$ID4" > "$W/log" 2>&1
# Now: current = ID4 (oldest), previous = ID6, newest = ID6.
"$DRV" prune $common 1 > "$W/log" 2>&1
check "prune keep 1 never removes current nor previous" \
    [ $? -eq 0 -a "$(ls "$ROOT/$SITE/releases" | tr '\n' ' ')" = "$ID4 $ID6 " ]
check "prune answered the count removed" [ "$(field pruned)" = 1 ]
"$DRV" prune $common 0 > "$W/log" 2>&1
check "keep 0 is refused" [ $? -ne 0 ]
"$DRV" rollback $common "$ID6" > /dev/null 2>&1
# The previous release is kept even when it is the oldest: current = ID7
# (newest), previous = ID4 (oldest), ID6 between them goes.
"$DRV" rollback $common "$ID4" > /dev/null 2>&1
sleep 1
echo '<h1>v7</h1>' > "$TREE/index.html"
push > "$W/log" 2>&1
ID7=$(field id)
"$DRV" prune $common 1 > "$W/log" 2>&1
check "prune keep 1 keeps the previous release when it is the oldest" \
    [ $? -eq 0 -a "$(ls "$ROOT/$SITE/releases" | tr '\n' ' ')" = "$ID4 $ID7 " ]

# --- refusals ----------------------------------------------------------------------
mkdir -p "$W/bad" && echo x > "$W/bad/a.html" && ln -s /etc/passwd "$W/bad/leak"
"$DRV" commit "$W/bad.git" "$W/bad" > "$W/log" 2>&1
check "a symbolic link in the output tree is refused" \
    fails_with $? "symbolic links are not published"
"$DRV" agent --root "$ROOT" --site ../etc list > "$W/log" 2>&1
check "the agent refuses a site name that climbs out" \
    fails_with $? "not a valid site name"
"$DRV" rollback $common "../../etc" > "$W/log" 2>&1
check "a malformed release id is refused" fails_with $? "not a release id"
# The agent checks what it is asked itself: a pusher is not trusted.
"$DRV" agent --root "$ROOT" --site "$SITE" prune 0 > "$W/log" 2>&1
check "the agent refuses prune 0" fails_with $? "bad count '0'"
"$DRV" agent --root "$ROOT" --site "$SITE" switch 20200101T000000Z-0123456789ab > "$W/log" 2>&1
check "the agent refuses to switch to a release not checked out" \
    fails_with $? "is not checked out"
"$DRV" rollback $common "20250101T000000Z_0123456789ab" > "$W/log" 2>&1
check "a release id with the wrong separator is refused" fails_with $? "not a release id"
"$DRV" push --root "$ROOT" --site "$SITE" --repo "$REPO" --tree "$TREE" \
    --host "ftp://example" > "$W/log" 2>&1
check "an unknown host URL is refused" fails_with $? "unknown host"

# --- ssh transport against a real sshd ---------------------------------------------
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
if [ ! -x "$SSHD" ] || ! command -v ssh >/dev/null; then
	notok "ssh tests need openssh-server and openssh-client (apt-get install openssh-server openssh-client)"
else
	S=$W/ssh
	mkdir -p "$S" /run/sshd
	chmod 700 "$S"
	ssh-keygen -q -t ed25519 -N '' -f "$S/host_key" -C host
	ssh-keygen -q -t ed25519 -N '' -f "$S/other_host_key" -C other
	ssh-keygen -q -t ed25519 -N '' -f "$S/client_key" -C client
	cp "$S/client_key.pub" "$S/authorized_keys"
	PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 22222)
	cat > "$S/sshd_config" <<CONF
Port $PORT
ListenAddress 127.0.0.1
HostKey $S/host_key
AuthorizedKeysFile $S/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
PidFile $S/sshd.pid
CONF
	# Without this machine's shell startup files (../bare_login.sh).
	sh "$here/../bare_login.sh" "$SSHD" -D -e -f "$S/sshd_config" 2> "$S/sshd.log" &
	SSHD_PID=$!
	i=0
	while ! grep -q "Server listening" "$S/sshd.log" && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
	check "sshd started on 127.0.0.1:$PORT" grep -q "Server listening" "$S/sshd.log"
	user=$(id -un)
	echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$S/host_key.pub")" > "$S/known_hosts"
	echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$S/other_host_key.pub")" > "$S/changed_hosts"
	: > "$S/empty_hosts"
	SROOT=$W/sshhost
	sshpush() {
		"$DRV" push --host "ssh://$user@127.0.0.1:$PORT" --root "$SROOT" \
		    --site "$SITE" --repo "$W/ssh.git" --tree "$TREE" \
		    --identity "$S/client_key" --agent "$DRV" "$@"
	}
	sshpush --known-hosts "$S/known_hosts" > "$W/log" 2>&1
	check "push over ssh succeeds" [ $? -eq 0 ]
	SID=$(field id)
	check "the ssh release is current and byte-identical" \
	    [ "$(readlink "$SROOT/$SITE/current")" = "releases/$SID" ] &&
	    diff -r -x .well-known "$TREE" "$SROOT/$SITE/current" >/dev/null
	sleep 1
	echo '<h1>over ssh</h1>' > "$TREE/index.html"
	sshpush --known-hosts "$S/known_hosts" > "$W/log" 2>&1
	check "second ssh push sends under 1% of the tree" \
	    [ $? -eq 0 -a $(( $(field sent) * 100 )) -lt "$tree_bytes" ]
	"$DRV" list --host "ssh://$user@127.0.0.1:$PORT" --root "$SROOT" --site "$SITE" \
	    --identity "$S/client_key" --agent "$DRV" --known-hosts "$S/known_hosts" > "$W/log" 2>&1
	check "list over ssh" list_two_current
	before=$(readlink "$SROOT/$SITE/current")
	sshpush --known-hosts "$S/changed_hosts" > "$W/log" 2>&1
	check "a changed host key is refused with a clear message" \
	    fails_with $? "host key has CHANGED"
	sed 's/^/#   /' "$W/log"
	sshpush --known-hosts "$S/empty_hosts" > "$W/log" 2>&1
	check "an unknown host key is refused with a clear message" \
	    fails_with $? "host key is not known"
	sed 's/^/#   /' "$W/log"
	check "refused connections changed nothing" \
	    [ "$(readlink "$SROOT/$SITE/current")" = "$before" -a \
	    "$(ls "$SROOT/$SITE/releases" | wc -l)" -eq 2 ]
	check "the changed key file was not rewritten by ssh" \
	    [ "$(wc -l < "$S/changed_hosts")" -eq 1 -a ! -s "$S/empty_hosts" ]
	mv "$S/authorized_keys" "$S/authorized_keys.off"
	sshpush --known-hosts "$S/known_hosts" > "$W/log" 2>&1
	check "a refused login is reported as such" fails_with $? "login refused"
	mv "$S/authorized_keys.off" "$S/authorized_keys"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
