#!/bin/sh
# The Gemini jail on linux-netns, as root: a site with gemini: true gets
# a jail running molly-brown on the capsule of its releases, read-only,
# with a self-signed certificate kept across applies, reached through a
# host port forwarded to 1965. push sends the capsule in the same release
# as the HTML; rollback covers both. Names are unique to the run and
# everything is removed on exit.
#
# usage: tests/deploy/gemini.sh [path/to/deploy]

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
DEPLOY=${1:-$top/bin/deploy}
case $DEPLOY in /*) ;; *) DEPLOY=$(pwd)/$DEPLOY ;; esac
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() {
	fail=$((fail + 1))
	echo "FAIL $*"
	[ -z "${MUTATE_FAIL_FAST:-}" ] || finish
}
check() {	# check DESCRIPTION COMMAND...
	d=$1; shift
	if "$@" >/dev/null 2>&1; then ok "$d"; else bad "$d"; fi
}
refuse() {	# refuse DESCRIPTION COMMAND...: the command must fail
	d=$1; shift
	if "$@" >/dev/null 2>&1; then bad "$d"; else ok "$d"; fi
}
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit $?
}

if [ "$(id -u)" -ne 0 ]; then
	echo "gemini: needs root (namespaces, nftables)" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
if [ ! -x "$DEPLOY" ]; then
	echo "gemini: no $DEPLOY; build it first (make bin/deploy)" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
DEB="molly-brown caddy nftables iproute2 openssl util-linux" \
    sh "$top/tests/deps.sh" || { echo "0 passed, 1 failed"; exit 1; }

. "$top/tests/deploy/lib.sh"
own_net "$0" "$@"
netns_names gem 232 24000
gem_port=$((https_port + 2))
cleanup() {
	netns_teardown "$work/deploy.yaml" proxy cap gemini
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

cd "$work" || exit 1
cat > deploy.yaml <<EOF
name: $name
$(netns_network_yaml)
    - 127.0.0.1:$gem_port -> 1965
proxy:
  kind: caddy
  tls: internal
releases:
  root: $work/www
  keep: 3
sites:
  - name: cap
    domains: [cap.test]
    source: $work/site
    gemini: true
EOF
mkdir -p site/posts
cat > site/site.yaml <<'EOF'
site_title: Small capsule
site_description: Posts over Gemini too
timezone: UTC
gemini: true
gemini_url: gemini://cap.test
site_url: https://cap.test
EOF
printf -- '---\ntitle: First post\ndate: 2025-01-02 10:00\n---\nHello.\n' \
    > site/posts/2025-01-02-first.md

# gemget URL: the answer of a real Gemini request, with OpenSSL's own
# client (not deploy's) through the host port.
gemget() {
	printf '%s\r\n' "$1" | timeout 10 openssl s_client -quiet \
	    -connect "127.0.0.1:$gem_port" -servername cap.test 2>/dev/null
}
fingerprint() {
	timeout 10 openssl s_client -connect "127.0.0.1:$gem_port" \
	    -servername cap.test </dev/null 2>/dev/null |
	    openssl x509 -noout -fingerprint -sha256
}

# --- deploy.yaml: what gemini allows ------------------------------------
sed 's|^    gemini: true|    gemini: maybe|' deploy.yaml > bad1.yaml
out=$("$DEPLOY" plan -c bad1.yaml 2>&1)
echo "$out" | grep -q "bad1.yaml:[0-9]*: error: gemini: 'maybe' is neither true nor false" &&
    ok "gemini: a non-boolean is refused at its line" || bad "gemini: maybe: $out"
cp deploy.yaml bad2.yaml
cat >> bad2.yaml <<EOF
  - name: more
    domains: [more.test]
    source: $work/site
    gemini: true
EOF
out=$("$DEPLOY" plan -c bad2.yaml 2>&1)
echo "$out" | grep -q "bad2.yaml:[0-9]*: error: site more: gemini: only one site of a host serves Gemini (port 1965 already goes to site cap, line [0-9]*)" &&
    ok "two Gemini sites on one host refused" || bad "two Gemini sites: $out"
grep -v -- "-> 1965" deploy.yaml > bad3.yaml
out=$("$DEPLOY" plan -c bad3.yaml 2>&1)
echo "$out" | grep -q "bad3.yaml:[0-9]*: error: site cap: gemini: no host port goes to the Gemini jail" &&
    ok "a ports: list without 1965 refused" || bad "no 1965 port: $out"
sed 's|name: cap|name: gemini|' deploy.yaml > bad4.yaml
out=$("$DEPLOY" plan -c bad4.yaml 2>&1)
echo "$out" | grep -q "bad4.yaml:[0-9]*: error: site.name: 'gemini' must be" &&
    ok "a site cannot be named gemini" || bad "site named gemini: $out"

# --- apply ------------------------------------------------------------
"$DEPLOY" plan > plan.out 2>&1
check "plan: a Gemini jail with molly-brown" sh -c \
    "grep -q 'create-jail *gemini' plan.out && grep -q 'start-server *gemini *molly-brown' plan.out"
if "$DEPLOY" apply > apply.out 2>&1; then ok "apply"; else bad "apply"; cat apply.out; finish; fi
out=$("$DEPLOY" apply 2>&1)
[ "$out" = "nothing to do" ] && ok "second apply: nothing to do" || bad "second apply: $out"
mpid=$(cat state/gemini/run/molly-brown.pid 2>/dev/null)
check "molly-brown runs in the Gemini jail's network" sh -c \
    "[ \"\$(readlink /proc/$mpid/ns/net)\" = \"\$(ip netns exec $name-gemini readlink /proc/self/ns/net)\" ]"
check "molly-brown runs as www-data, not root" sh -c "[ \"\$(ps -o user= -p $mpid)\" = www-data ]"
check "the certificate names the domain" sh -c \
    "openssl x509 -in state/gemini/tls/cert.pem -noout -subject | grep -q 'CN *= *cap.test'"
fp1=$(fingerprint)
check "the server presents that certificate" sh -c \
    "[ -n '$fp1' ] && [ '$fp1' = \"\$(openssl x509 -in state/gemini/tls/cert.pem -noout -fingerprint -sha256)\" ]"

# --- push: the capsule in the release -----------------------------------
"$DEPLOY" push cap > push.out 2>&1 && ok "push" || { bad "push"; cat push.out; }
r1=$(sed -n 's/^release //p' push.out)
sed -n 1,6p push.out
grep -q "ok   gemini://cap.test/ 20 text/gemini release $r1" push.out &&
    ok "push's health check fetched gemini://cap.test/ and release $r1" ||
    { bad "push health check over Gemini"; cat push.out; }
gemget gemini://cap.test/ > g1.out
sed -n 1,3p g1.out
check "Gemini: 20 text/gemini" sh -c "head -1 g1.out | tr -d '\r' | grep -q '^20 text/gemini'"
check "Gemini: the capsule's index" grep -qx '# Small capsule' g1.out
check "Gemini: the post in the gemlog" grep -q '^=> /2025/01/02/[a-z-]*/index.gmi 2025-01-02 First post' g1.out
check "Gemini: the capsule's release file says $r1" sh -c \
    "gemget() { printf '%s\r\n' \"\$1\" | timeout 10 openssl s_client -quiet -connect 127.0.0.1:$gem_port -servername cap.test 2>/dev/null; };
     gemget gemini://cap.test/.well-known/release | tail -1 | grep -qx '$r1'"
check "the release holds the capsule beside the HTML" sh -c \
    "test -f www/cap/current/index.html && test -f www/cap/current/.capsule/index.gmi"
check "nginx does not serve the capsule over HTTPS" sh -c \
    "[ \"\$(curl -s -o /dev/null -w '%{http_code}' --cacert state/proxy/data/pki/authorities/local/root.crt --resolve cap.test:$https_port:127.0.0.1 https://cap.test:$https_port/.capsule/index.gmi)\" = 404 ]"

"$DEPLOY" status > status.out 2>&1
check "status: the Gemini jail and its server" grep -q '^gemini .*molly-brown pid' status.out
check "status: the site's health over Gemini" grep -q "ok   gemini://cap.test/ 20 text/gemini release $r1" status.out

"$DEPLOY" logs gemini > logs.out 2>&1
check "deploy logs gemini: the capsule's requests" grep -q 'gemini://cap.test/' logs.out

# --- a second push: the new release over Gemini --------------------------
printf -- '---\ntitle: Second post\ndate: 2025-02-03 10:00\n---\nAgain.\n' \
    > site/posts/2025-02-03-second.md
"$DEPLOY" push cap > push2.out 2>&1 && ok "second push" || { bad "second push"; cat push2.out; }
r2=$(sed -n 's/^release //p' push2.out)
check "a new release id" sh -c "[ -n '$r2' ] && [ '$r2' != '$r1' ]"
gemget gemini://cap.test/ > g2.out
check "Gemini: the second post after the second push" grep -q '2025-02-03 Second post' g2.out
check "push's health check saw $r2 over Gemini" grep -q "ok   gemini://cap.test/ 20 text/gemini release $r2" push2.out
"$DEPLOY" rollback cap > rb.out 2>&1 && ok "rollback" || { bad "rollback"; cat rb.out; }
gemget gemini://cap.test/ > g3.out
check "rollback takes the capsule back too" sh -c "grep -q 'First post' g3.out && ! grep -q 'Second post' g3.out"
gemget gemini://cap.test/.well-known/release > g4.out
check "... to release $r1" sh -c "tail -1 g4.out | grep -qx '$r1'"

# A capsule that serves another release than the HTML fails the check.
rel=www/cap/current/.capsule/.well-known/release
cp "$rel" rel.keep
echo 20000101T000000Z-000000000000 > "$rel"
out=$("$DEPLOY" health cap 2>&1); rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "gemini://cap.test/ serves release 20000101T000000Z-000000000000, not $r1"; then
	ok "health: a capsule on another release than the HTML fails"
else
	bad "health with a stale capsule: rc=$rc $out"
fi
cp rel.keep "$rel"
out=$("$DEPLOY" health cap 2>&1) && ok "health: both on $r1 again" || bad "health: $out"

# --- the Gemini jail cannot write ---------------------------------------
mpid=$(cat state/gemini/run/molly-brown.pid 2>/dev/null)
refuse "the Gemini jail cannot write its capsule" \
    nsenter -t "$mpid" -m -n touch "$work/www/cap/current/.capsule/x"
refuse "... nor the release folder" \
    nsenter -t "$mpid" -m -n touch "$work/www/cap/x"
refuse "... nor its own config and key" \
    nsenter -t "$mpid" -m -n touch "$work/state/gemini/tls/key.pem"
check "... and sees the capsule, read-only" \
    nsenter -t "$mpid" -m -n test -r "$work/www/cap/current/.capsule/index.gmi"
refuse "... and nothing of the proxy" \
    nsenter -t "$mpid" -m -n test -e "$work/state/proxy"

# --- the certificate is kept ----------------------------------------------
kill "$mpid"
sleep 0.3
"$DEPLOY" apply > apply2.out 2>&1 && ok "apply starts the Gemini server again" ||
    { bad "apply after a stop"; cat apply2.out; }
fp2=$(fingerprint)
check "same certificate after a second apply" sh -c "[ -n '$fp2' ] && [ '$fp1' = '$fp2' ]"
echo "certificate: $fp2"

# --- gemini turned off: the jail goes, the site stays -----------------------
mpid=$(cat state/gemini/run/molly-brown.pid 2>/dev/null)
sed -e 's|^    gemini: true|    gemini: false|' -e '/-> 1965/d' deploy.yaml > off.yaml
"$DEPLOY" apply -c off.yaml > off.out 2>&1 && ok "apply with gemini off" ||
    { bad "apply with gemini off"; cat off.out; }
check "... removes the Gemini jail and stops its server" sh -c \
    "grep -q 'destroy-jail gemini' off.out && ! [ -e /run/netns/$name-gemini ] && ! kill -0 $mpid"
check "... and the host no longer forwards 1965" sh -c "! nft list table ip $table | grep -q 1965"
check "... while the site is still served over HTTPS" sh -c \
    "curl -sf --cacert state/proxy/data/pki/authorities/local/root.crt --resolve cap.test:$https_port:127.0.0.1 https://cap.test:$https_port/ >/dev/null"
"$DEPLOY" apply > on.out 2>&1 && ok "apply with gemini on again" || { bad "apply on again"; cat on.out; }
fp3=$(fingerprint)
check "... the same certificate, kept while the jail was gone" sh -c "[ -n '$fp3' ] && [ '$fp1' = '$fp3' ]"
mpid=$(cat state/gemini/run/molly-brown.pid 2>/dev/null)

# --- destroy ----------------------------------------------------------------
"$DEPLOY" destroy -f > destroy.out 2>&1 && ok "destroy" || { bad "destroy"; cat destroy.out; }
check "the Gemini jail is gone" sh -c "! [ -e /run/netns/$name-gemini ] && ! kill -0 $mpid"
finish
