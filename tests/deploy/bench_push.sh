#!/bin/sh
# Benchmark (not part of make check), as root: a generated ssg site of
# 10,000 posts is pushed with `deploy push` to a host reached over SSH
# (an sshd on 127.0.0.1 with its own keys and port, started here, whose
# jails are linux-netns namespaces on this machine), then one post is
# edited and the site pushed again, four times. Prints the most bytes such
# a push sent as a percentage of the site's bytes (target: under 1%) and
# the longest wall time (target: under 3 s). Everything it makes carries a unique name and is
# removed on exit.
#
# usage: tests/deploy/bench_push.sh [path/to/deploy] [POSTS]

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
DEPLOY=${1:-$top/bin/deploy}
case $DEPLOY in /*) ;; *) DEPLOY=$(pwd)/$DEPLOY ;; esac
POSTS=${2:-10000}

die() { echo "bench_push: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (namespaces, nftables, sshd)"
[ -x "$DEPLOY" ] || die "no $DEPLOY; build it first (make bin/deploy)"
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
for p in "$SSHD" ssh ssh-keygen nginx caddy nft ip curl python3 stdbuf; do
	command -v "$p" >/dev/null 2>&1 || die "needs $p (make deps-test)"
done

. "$top/tests/deploy/lib.sh"
own_net "$0" "$@"
netns_names bp 234 45000
SSHD_PID=

cleanup() {
	if [ -n "$SSHD_PID" ]; then
		kill "$SSHD_PID" 2>/dev/null
		wait "$SSHD_PID" 2>/dev/null
	fi
	netns_teardown "$work/local.yaml" proxy blog
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

ip -4 -o addr | grep -q " $net\." && die "$net.0/24 is in use here; run again"
cd "$work" || exit 1

# --- the site: POSTS posts, 20 tags, about 1.5 KiB of Markdown each -----
now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{ printf "%.2f", $2 - $1 }'; }
t0=$(now)
mkdir -p site/posts site/pages
cat > site/site.yaml <<EOF
site_title: Bench
site_description: "$POSTS generated posts"
site_url: "https://www.bench.test"
author_name: Bench
timezone: UTC
posts_per_page: 10
EOF
cat > site/pages/about.md <<EOF
---
title: About
---
A generated site for measuring pushes.
EOF
awk -v n="$POSTS" -v dir=site/posts 'BEGIN {
	split("alpha beta gamma delta epsilon zeta eta theta iota kappa " \
	    "lambda mu nu xi omicron pi rho sigma tau upsilon", tag, " ")
	for (i = 1; i <= n; i++) {
		day = (i - 1) % 28 + 1
		mon = int((i - 1) / 28) % 12 + 1
		year = 1990 + int((i - 1) / 336)
		f = sprintf("%s/%04d-%02d-%02d-post-%05d.md", dir, year, mon,
		    day, i)
		printf "---\ntitle: Post number %d\n", i > f
		printf "date: %04d-%02d-%02d %02d:%02d\n", year, mon, day,
		    i % 24, i % 60 > f
		printf "tags: %s, %s\n", tag[i % 20 + 1], tag[(i * 7) % 20 + 1] > f
		printf "description: The %d-th generated post.\n---\n", i > f
		for (p = 0; p < 6; p++) {
			printf "Paragraph %d of post %d. Lorem ipsum dolor sit " \
			    "amet, consectetur adipiscing elit, sed do eiusmod " \
			    "tempor incididunt ut labore et dolore magna aliqua " \
			    "(%d).\n\n", p, i, i * 31 + p > f
		}
		printf "## A heading\n\n- one item\n- another, `code %d`\n", i > f
		close(f)
	}
}'
echo "generated $POSTS posts in $(secs "$t0" "$(now)") s"

# --- sshd on 127.0.0.1, its own keys and port -----------------------------
S=$work/ssh
mkdir -p "$S" /run/sshd
chmod 700 "$S"
ssh-keygen -q -t ed25519 -N '' -f "$S/host_key" -C host
ssh-keygen -q -t ed25519 -N '' -f "$S/client_key" -C client
cp "$S/client_key.pub" "$S/authorized_keys"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# The agent on the host is `deploy` in PATH: this tree's.
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
SetEnv PATH=$(dirname "$DEPLOY"):/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
CONF
# Without this machine's shell startup files (bare_login.sh): a version
# manager started for each command would be timed as the push's own cost.
sh "$top/tests/deploy/bare_login.sh" "$SSHD" -D -e -f "$S/sshd_config" 2> "$S/sshd.log" &
SSHD_PID=$!
i=0
while ! grep -q "Server listening" "$S/sshd.log" && [ $i -lt 100 ]; do
	sleep 0.1; i=$((i + 1))
done
grep -q "Server listening" "$S/sshd.log" || die "sshd did not start: $(cat "$S/sshd.log")"
echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$S/host_key.pub")" > "$S/known_hosts"

# --- the host: jails applied locally, releases pushed over SSH ----------
spec() {	# spec HOST
	printf 'name: %s\nhost: %s\n' "$name" "$1"
	netns_network_yaml
	cat <<EOF
proxy:
  kind: caddy
  tls: internal
releases:
  root: $work/www
  keep: 3
sites:
  - name: blog
    domains: [www.bench.test]
    source: $work/site
EOF
}
spec local > local.yaml
spec "ssh://$(id -un)@127.0.0.1:$PORT" > deploy.yaml
"$DEPLOY" apply -c local.yaml > apply.out 2>&1 || { cat apply.out; die "apply failed"; }
ca=$work/state/proxy/data/pki/authorities/local/root.crt
i=0
while [ ! -s "$ca" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
# Each line of the push's output is stamped with the time it came, to
# tell the stages apart: build, commit, send, stage + switch + health
# check, prune.
push() {	# push LOG: 0 when the push succeeded
	start=$(now)
	{ stdbuf -oL "$DEPLOY" push --known-hosts "$S/known_hosts" \
	    --identity "$S/client_key" --cacert "$ca" blog 2>&1; echo "exit $?"; } |
	    while IFS= read -r line; do
		echo "$(secs "$start" "$(now)") $line"
	    done > "$1.stamped"
	sed 's/^[0-9.]* //' "$1.stamped" > "$1"
	grep -qx 'exit 0' "$1"
}
stages() {	# stages LOG: seconds from the start of the push to each step
	awk '$2 == "built" { printf "  %6.2f s  built\n", $1 }
	    $2 == "release" { printf "  %6.2f s  committed %s\n", $1, $3 }
	    $2 == "sent" { printf "  %6.2f s  sent %s bytes\n", $1, $3 }
	    $2 == "ok" { printf "  %6.2f s  staged, switched, healthy\n", $1 }
	    $2 == "live:" { printf "  %6.2f s  pruned: done\n", $1 }' "$1.stamped"
}

t0=$(now)
push push1.out || { cat push1.out; die "first push failed"; }
t1=$(now)
sent1=$(sed -n 's/^sent \([0-9]*\) bytes.*/\1/p' push1.out)
files=$(find site/output -type f | wc -l)
site_bytes=$(find site/output -type f -exec cat {} + | wc -c)
echo "first push: $(secs "$t0" "$t1") s, sent $sent1 bytes; the site: $files files, $site_bytes bytes"
stages push1.out

# --- one post edited, pushed; four times, so that the last pushes also
# prune (keep: 3) as every push does once a site has releases to spare ---
worst=0
for k in 2 3 4 5; do
	sleep 1
	post=$(ls site/posts | sed -n "$((POSTS / k))p")
	echo "An added sentence, edited for push $k." >> "site/posts/$post"
	t0=$(now)
	push push$k.out || { cat push$k.out; die "push $k failed"; }
	t1=$(now)
	wall=$(secs "$t0" "$t1")
	sent=$(sed -n 's/^sent \([0-9]*\) bytes.*/\1/p' push$k.out)
	echo "push $k (one post edited): $wall s, sent $sent bytes"
	stages push$k.out
	body=$(curl -sS -m 10 --cacert "$ca" \
	    --resolve "www.bench.test:$https_port:127.0.0.1" \
	    "https://www.bench.test:$https_port/.well-known/release")
	rel=$(sed -n 's/^release //p' push$k.out)
	[ "$body" = "$rel" ] || die "the host serves '$body', not release $rel"
	worst=$(echo "$worst $wall" | awk '{ print ($2 > $1) ? $2 : $1 }')
	maxsent=$(echo "${maxsent:-0} $sent" | awk '{ print ($2 > $1) ? $2 : $1 }')
done
pct=$(echo "$maxsent $site_bytes" | awk '{ printf "%.3f", 100 * $1 / $2 }')

echo
echo "pushes 2-5 (1 of $POSTS posts edited each), over ssh to 127.0.0.1:$PORT:"
echo "  sent:      at most $maxsent bytes = $pct% of the site's $site_bytes bytes (target < 1%)"
echo "  wall time: at most $worst s (target < 3 s)"
verdict=ok
awk -v p="$pct" 'BEGIN { exit !(p < 1) }' || verdict="over target"
awk -v w="$worst" 'BEGIN { exit !(w < 3) }' || verdict="over target"
echo "  result:    $verdict"
