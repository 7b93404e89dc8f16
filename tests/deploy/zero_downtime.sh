#!/bin/sh
# Zero downtime on linux-netns, as root: one site behind Caddy (tls
# internal); wrk keeps HTTPS requests going through the proxy while five
# releases are pushed and one is rolled back. Every request must answer
# 200 with a body that is, byte for byte, a file of one of the pushed
# releases, and the X-Release header must name that same release. Every
# bridge, namespace, nftables table and process it makes carries a unique
# name and is removed on exit, also after a failure.
#
# usage: tests/deploy/zero_downtime.sh [path/to/deploy]

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/deploy
DEPLOY=${1:-$top/bin/deploy}
case $DEPLOY in /*) ;; *) DEPLOY=$(pwd)/$DEPLOY ;; esac
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() {
	fail=$((fail + 1))
	echo "FAIL $*"
	# Under make mutate the first failure is enough.
	[ -z "${MUTATE_FAIL_FAST:-}" ] || finish
}
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit $?
}
give_up() {
	echo "zero_downtime: $*" >&2
	echo "0 passed, 1 failed"
	exit 1
}

[ "$(id -u)" -eq 0 ] || give_up "needs root (namespaces, nftables)"
[ -x "$DEPLOY" ] || give_up "no $DEPLOY; build it first (make bin/deploy)"
for p in nginx caddy nft ip wrk unshare; do
	command -v $p >/dev/null 2>&1 || give_up "needs $p (make deps-test)"
done

# --- unique names -----------------------------------------------------
. "$here/lib.sh"
own_net "$0" "$@"
netns_names zd 232 40000
WRK_PID=

cleanup() {
	if [ -n "$WRK_PID" ]; then
		kill "$WRK_PID" 2>/dev/null
		wait "$WRK_PID" 2>/dev/null
	fi
	netns_teardown "$work/deploy.yaml" proxy www
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

if ip -4 -o addr | grep -q " $net\."; then
	give_up "$subnet is in use here; run again"
fi

cd "$work" || exit 1
cat > deploy.yaml <<EOF
name: $name
platform: linux-netns
state: $work/state
network:
  bridge: $bridge
  subnet: $subnet
  proxy: $net.2
  ports:
    - 127.0.0.1:$http_port -> 80
    - 127.0.0.1:$https_port -> 443
proxy:
  kind: caddy
  tls: internal
releases:
  root: $work/www
  keep: 3
sites:
  - name: www
    domains: [www.zd.test]
    source: $work/src
EOF

# Version N of the site: a page and a 60 KiB stylesheet, both naming N
# on every line, kept aside to compare the answers with.
make_version() {
	v=$1
	mkdir -p "v$v/css"
	{
		echo "<!doctype html><title>release $v</title>"
		i=0
		while [ $i -lt 60 ]; do
			echo "<p>release $v, paragraph $i of the page</p>"
			i=$((i + 1))
		done
	} > "v$v/index.html"
	awk -v v="$v" 'BEGIN { for (i = 0; i < 2000; i++)
	    printf "/* release %s, rule %d */ .r%d{}\n", v, i, i }' \
	    > "v$v/css/site.css"
	echo "$v $work/v$v/index.html" >> bodies.lst
	echo "$v $work/v$v/css/site.css" >> bodies.lst
}
push_version() {	# push_version N: the site becomes version N
	rm -rf src && cp -R "v$1" src
	if "$DEPLOY" push www > "push$1.out" 2>&1; then
		rel=$(sed -n 's/^release //p' "push$1.out")
		echo "$1 $rel" >> ids
		return 0
	fi
	cat "push$1.out"
	return 1
}

: > bodies.lst
: > ids
for v in 0 1 2 3 4 5; do
	make_version $v
done

if "$DEPLOY" apply > apply.out 2>&1; then ok "apply"; else bad "apply"; cat apply.out; finish; fi
if push_version 0; then ok "first release pushed"; else bad "first push"; finish; fi

ca=state/proxy/data/pki/authorities/local/root.crt
body=$(curl -sS -m 10 --cacert "$ca" --resolve "www.zd.test:$https_port:127.0.0.1" \
    "https://www.zd.test:$https_port/")
[ "$body" = "$(cat v0/index.html)" ] && ok "site answers over HTTPS" ||
    { bad "first fetch: $(echo "$body" | head -c 200)"; finish; }

# --- load during five pushes and a rollback ---------------------------
# wrk resolves the site's name through a private /etc/hosts (a mount
# namespace of its own), so SNI and Host are right without touching the
# host's resolver. It runs until stopped with SIGINT, 150 s at most.
printf '127.0.0.1 localhost\n127.0.0.1 www.zd.test\n' > hosts
ZD_RESULT=$work/wrk.result unshare -m sh -c \
    "mount --bind $work/hosts /etc/hosts && exec wrk -t2 -c16 -d150s \
    --timeout 5s -s $here/zero_downtime.lua \
    https://www.zd.test:$https_port/ -- $work/bodies.lst" > wrk.out 2>&1 &
WRK_PID=$!
sleep 2
pushes=0
for v in 1 2 3 4 5; do
	sleep 1		# a new second: a new release id even if fast
	if push_version $v; then pushes=$((pushes + 1)); fi
done
[ $pushes -eq 5 ] && ok "5 pushes under load" || bad "only $pushes of 5 pushes succeeded"
if "$DEPLOY" rollback www > rollback.out 2>&1; then
	ok "rollback under load"
	echo "4 $(sed -n 's/^current: //p' rollback.out)" >> ids
else
	bad "rollback under load"; cat rollback.out
fi
sleep 2
kill -INT "$WRK_PID" 2>/dev/null
i=0
while kill -0 "$WRK_PID" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 "$WRK_PID" 2>/dev/null; then
	bad "wrk did not stop on SIGINT"
	kill -9 "$WRK_PID" 2>/dev/null
fi
wait "$WRK_PID" 2>/dev/null
WRK_PID=

if [ ! -s wrk.result ]; then
	bad "wrk wrote no result"; cat wrk.out
	finish
fi
field() { sed -n "s/^$1 //p" wrk.result; }
requests=$(field requests)
echo "requests made: $requests"
echo "wrk: $(grep -E 'Requests/sec|requests in' wrk.out | tr -s ' ' | tr '\n' ' ')"
[ "${requests:-0}" -gt 1000 ] && ok "$requests requests during the pushes" ||
    bad "too few requests: ${requests:-none}"
errs=$(field errors)
[ "$errs" = "0 0 0 0 0" ] && ok "no connection, read, write, status or timeout errors" ||
    bad "wrk errors (connect read write status timeout): $errs"
[ "$(field non200)" = 0 ] && ok "every answer was 200" ||
    bad "$(field non200) answers were not 200 ($(field first_bad))"
[ "$(field mismatch)" = 0 ] && ok "every body is a whole file of a pushed release" ||
    bad "$(field mismatch) bodies belong to no release ($(field first_bad))"
[ "$(field good)" = "$requests" ] && ok "every request was checked" ||
    bad "checked $(field good) of $requests"

# Every version 1..5 was served, and with its own release id.
mixed=0
served=
while read -r hdr v count; do
	[ -n "$hdr" ] || continue
	want=$(awk -v v="$v" '$1 == v { print $2; exit }' ids)
	if [ "$hdr" != "$want" ]; then
		mixed=$((mixed + count))
		echo "  $count answers with the body of version $v ($want) had X-Release $hdr"
	fi
	served="$served $v"
done <<EOF
$(field pair)
EOF
[ $mixed -eq 0 ] && ok "X-Release always names the release of the body" ||
    bad "$mixed answers named another release than their body's"
missing=
for v in 1 2 3 4 5; do
	case " $served " in *" $v "*) ;; *) missing="$missing $v" ;; esac
done
[ -z "$missing" ] && ok "every pushed release was served under load" ||
    bad "never served:$missing"
body=$(curl -sS -m 10 --cacert "$ca" --resolve "www.zd.test:$https_port:127.0.0.1" \
    "https://www.zd.test:$https_port/")
[ "$body" = "$(cat v4/index.html)" ] && ok "after the rollback release 4 is served" ||
    bad "after rollback: $(echo "$body" | head -c 100)"
finish
