#!/bin/sh
# Real ACME on linux-netns, as root: Pebble (the ACME test server) runs in a
# network namespace of its own with its own HTTPS listener certificate and
# a DNS answer (pebble-challtestsrv) that resolves every test name to the
# proxy jail. The proxy obtains certificates through a real HTTP-01 or
# TLS-ALPN-01 exchange; HTTPS requests are verified against Pebble's root.
# Every bridge, namespace, nftables table and process it makes carries a
# unique name and is removed on exit, also after a failure.
#
# usage: tests/deploy/acme.sh [path/to/deploy]
# TEST_PARTS="caddy nginx" runs only those parts (both by default): make
# mutate names the part that catches a fault, so that a fault of the
# nginx proxy's certificates does not wait on Caddy's renewals first.

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
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit $?
}
# part NAME: whether the optional part NAME runs (all of them by default).
part() {
	case " ${TEST_PARTS:-all} " in *" all "* | *" $1 "*) return 0 ;; esac
	return 1
}
give_up() {
	echo "acme: $*" >&2
	echo "0 passed, 1 failed"
	exit 1
}

[ "$(id -u)" -eq 0 ] || give_up "needs root (namespaces, nftables)"
[ -x "$DEPLOY" ] || give_up "no $DEPLOY; build it first (make bin/deploy)"
DEB="nginx caddy nftables iproute2 curl openssl pebble lego wrk" \
    sh "$top/tests/deps.sh" >&2 || give_up "packages missing"

. "$top/tests/deploy/lib.sh"
own_net "$0" "$@"
netns_names acme 236 30000
# Pebble's own namespace, on a /24 of its own reached through the host.
pnet=10.237.$(free_octet 1 10.237)
# Not named $name-*: apply would take it for a jail left over.
pns=pebble-$id
pveth=pb$id
pip=$pnet.2
cleanup() {
	for pid in $(ip netns pids "$pns" 2>/dev/null); do
		kill -9 "$pid" 2>/dev/null
	done
	ip netns delete "$pns" 2>/dev/null
	ip link delete "$pveth" 2>/dev/null
	[ -n "${WRK_PID:-}" ] && kill -9 "$WRK_PID" 2>/dev/null
	netns_teardown "$work/deploy.yaml" proxy blog
	rm -f "/etc/cron.d/deploy-$name"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
cd "$work" || exit 1

# --- Pebble -----------------------------------------------------------
# Its listener certificate: a CA of the test's own and a leaf for its IP.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=acme test listener CA" \
    -keyout lca.key -out listener-ca.pem >/dev/null 2>&1 &&
openssl req -newkey rsa:2048 -nodes -subj "/CN=$pip" -keyout pebble.key \
    -out pebble.csr >/dev/null 2>&1 &&
printf 'subjectAltName=IP:%s\n' "$pip" > san.ext &&
openssl x509 -req -in pebble.csr -CA listener-ca.pem -CAkey lca.key \
    -CAcreateserial -days 2 -extfile san.ext -out pebble.pem >/dev/null 2>&1 ||
    give_up "openssl could not make Pebble's listener certificate"
cat > pebble.json <<EOF
{ "pebble": {
  "listenAddress": "$pip:14000",
  "managementListenAddress": "$pip:15000",
  "certificate": "$work/pebble.pem",
  "privateKey": "$work/pebble.key",
  "httpPort": 80,
  "tlsPort": 443,
  "ocspResponderURL": "",
  "externalAccountBindingRequired": false
} }
EOF
ip netns add "$pns" &&
ip link add "$pveth" type veth peer name eth0 netns "$pns" &&
ip addr add "$pnet.1/24" dev "$pveth" && ip link set "$pveth" up &&
ip -n "$pns" addr add "$pip/24" dev eth0 &&
ip -n "$pns" link set eth0 up && ip -n "$pns" link set lo up &&
ip -n "$pns" route add default via "$pnet.1" ||
    give_up "could not make Pebble's namespace"
# The test names resolve to the proxy jail, whose 80 and 443 Pebble checks.
ip netns exec "$pns" pebble-challtestsrv -defaultIPv4 "$net.2" \
    -defaultIPv6 "" -dns01 "$pip:8053" -http01 "" -https01 "" \
    -tlsalpn01 "" -management "127.0.0.1:8055" > dns.log 2>&1 &
PEBBLE_VA_NOSLEEP=1 PEBBLE_WFE_NONCEREJECT=0 ip netns exec "$pns" \
    pebble -config pebble.json -dnsserver "$pip:8053" > pebble.log 2>&1 &
i=0
until curl -sf --cacert listener-ca.pem "https://$pip:15000/roots/0" \
    > pebble-root.pem 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || { cat pebble.log; give_up "Pebble does not answer"; }
	sleep 0.1
done
grep -q "BEGIN CERTIFICATE" pebble-root.pem && ok "Pebble up, its root from /roots/0" ||
    bad "Pebble's root: $(head -c 200 pebble-root.pem)"

# --- one site behind each proxy kind -----------------------------------
mkdir -p src-blog
echo "<h1>blog one</h1>" > src-blog/index.html
# yaml KIND [one]: a deploy.yaml for this run with the proxy of KIND; with
# "one", the site's domain alone, without its redirect name.
yaml() {
	cat <<EOF
name: $name
$(netns_network_yaml)
proxy:
  kind: $1
  tls: acme
  email: admin@blog.test
  acme_ca: https://$pip:14000/dir
  acme_ca_root: $work/listener-ca.pem
  ca: $work/pebble-root.pem
releases:
  root: $work/www
  keep: 3
sites:
  - name: blog
    domains: [www.blog.test]
$([ "${2:-}" = one ] || echo '    redirects: ["blog.test -> www.blog.test"]')
    source: $work/src-blog
EOF
}
# served NAME: the certificate chain the proxy shows for NAME, as text.
served() {
	echo | timeout 10 openssl s_client -connect "127.0.0.1:$https_port" \
	    -servername "$1" -showcerts 2>/dev/null
}
# wait_cert NAME: until NAME's certificate verifies against Pebble's root.
wait_cert() {
	i=0
	until curl -s -o /dev/null -m 5 --cacert pebble-root.pem \
	    --resolve "$1:$https_port:127.0.0.1" "https://$1:$https_port/" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 120 ] || return 1
		sleep 0.5
	done
}
fetch() {	# fetch HOST PATH [curl options]
	h=$1 p=$2; shift 2
	curl -sS -m 10 --cacert pebble-root.pem \
	    --resolve "$h:$https_port:127.0.0.1" "$@" "https://$h:$https_port$p"
}

# renew_under_load KIND [MAX]: deploy renew blog while wrk loads
# https://www.blog.test/ over 8 keep-alive connections, from a second
# before the renewal until a second after it: the proxy's reload, at its
# end, is under load too (lego takes some 10 s to be issued a certificate
# by Pebble). Each connection waits 2 ms between requests, enough to meet
# a reload at any instant without spending two cores on wrk. Every request
# must be answered 2xx, without timeouts; socket errors (a connection
# closed or a handshake refused) at most MAX, 0 unless given.
printf '127.0.0.1 localhost\n127.0.0.1 www.blog.test\n' > hosts
printf 'delay = function() return 2 end\n' > paced.lua
renew_under_load() {
	unshare -m sh -c "mount --bind $work/hosts /etc/hosts && exec wrk -t1 -c8 \
	    -d60s --timeout 5s -s $work/paced.lua https://www.blog.test:$https_port/" \
	    > wrk.out 2>&1 &
	WRK_PID=$!
	sleep 1
	"$DEPLOY" renew blog > renew.out 2>&1 && ok "$1: renew blog under load" ||
	    { bad "$1: renew"; cat renew.out; }
	sleep 1
	# wrk stops on SIGINT and prints its figures
	kill -INT "$WRK_PID" 2>/dev/null
	wait "$WRK_PID"
	WRK_PID=
	requests=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' wrk.out)
	errors=$(sed -n 's/^ *Socket errors: connect \([0-9]*\), read \([0-9]*\), write \([0-9]*\), timeout \([0-9]*\)/\1 \2 \3 \4/p' wrk.out)
	set -- "$1" "${2:-0}" ${errors:-0 0 0 0}
	echo "$1: wrk during renewal: $(grep -E 'requests in|Requests/sec|Socket|Non-2xx' wrk.out | tr -s ' ' | tr '\n' ' ')"
	if [ "${requests:-0}" -gt 100 ] && ! grep -q "Non-2xx" wrk.out &&
	    [ "$6" -eq 0 ] && [ $(($3 + $4 + $5)) -le "$2" ]; then
		ok "$1: $requests requests during the renewal, $(($3 + $4 + $5)) socket errors (connect $3, read $4), at most $2"
	else
		bad "$1: load during renewal: $(cat wrk.out)"
	fi
}
# policies: Caddy's running automation policies, from its admin socket.
policies() {
	curl -s --unix-socket state/proxy/admin.sock \
	    http://localhost/config/apps/tls/automation/policies
}

# --- Caddy ------------------------------------------------------------
if part caddy; then
# One name first: Caddy 2.6 (Debian 12) registers an ACME account for each
# certificate it obtains at once when it has none yet, and may store one's
# key with the other's registration, which the CA then refuses at the
# next renewal ("JWS verification error"); certmagic serialises that
# since 2024. With the account made for one name, the others use it.
yaml caddy one > deploy.yaml
if "$DEPLOY" apply > apply.out 2>&1; then ok "caddy: apply, one name"; else
	bad "caddy: apply, one name"; cat apply.out; finish; fi
if caddy validate --adapter caddyfile --config state/proxy/Caddyfile >validate.out 2>&1; then
	ok "caddy: caddy validate accepts the generated Caddyfile"
else
	bad "caddy validate"; cat validate.out
fi
grep -q "acme_ca https://$pip:14000/dir" state/proxy/Caddyfile &&
    grep -q "acme_ca_root $work/listener-ca.pem" state/proxy/Caddyfile &&
    ok "caddy: Caddyfile names the ACME server and its root" ||
    bad "Caddyfile: $(cat state/proxy/Caddyfile)"
if wait_cert www.blog.test; then
	ok "caddy: the one name's certificate, from Pebble"
else
	bad "caddy: no certificate for the one name"
	tail -20 state/proxy/logs/caddy.log
fi
yaml caddy > deploy.yaml
if "$DEPLOY" apply > apply.out 2>&1; then ok "caddy: apply"; else
	bad "caddy: apply"; cat apply.out; finish; fi
if wait_cert www.blog.test && wait_cert blog.test; then
	ok "caddy: certificates for the domain and the redirect name, from Pebble"
else
	bad "caddy: no certificate verified by Pebble's root"
	tail -20 state/proxy/logs/caddy.log
fi
"$DEPLOY" push blog > push.out 2>&1 && ok "caddy: push (health checks trust proxy.ca)" ||
    { bad "caddy: push"; cat push.out; }
body=$(fetch www.blog.test /)
[ "$body" = "<h1>blog one</h1>" ] && ok "caddy: site over HTTPS verified against Pebble's root" ||
    bad "caddy: body: $body"
loc=$(fetch blog.test /a -o /dev/null -w '%{http_code} %{redirect_url}')
[ "$loc" = "301 https://www.blog.test/a" ] && ok "caddy: redirect name served with its own certificate" ||
    bad "caddy: redirect: $loc"
served www.blog.test > chain.caddy
issuer=$(openssl x509 -noout -issuer < chain.caddy)
case $issuer in
*Pebble*) ok "caddy: issuer is Pebble's ($issuer)" ;;
*) bad "caddy: issuer: $issuer" ;;
esac
"$DEPLOY" status > status.out 2>&1
grep -q "certificate issuer: .*Pebble" status.out &&
    grep -q "certificate expires .* days left" status.out &&
    ok "caddy: status shows the certificate's issuer and days left" ||
    { bad "caddy: status"; cat status.out; }
[ -n "${ACME_KEEP_CHAIN:-}" ] && cp chain.caddy "$ACME_KEEP_CHAIN.caddy"

# A forced renewal under load: Caddy obtains new certificates while it
# serves the old ones, then runs its own config again. Caddy 2.6 closes
# its idle keep-alive connections at every config load, and refuses the
# handshakes of the instant before a new config's certificates are
# cached: two loads, 8 connections, errors of those two moments only.
serial1=$(openssl x509 -noout -serial < chain.caddy)
renew_under_load caddy 24
grep -q "^certificate blog: www.blog.test, serial .* (was " renew.out &&
    grep -q "^certificate blog: blog.test, serial .* (was " renew.out &&
    ok "caddy: renew names the new serial of the domain and the redirect name" ||
    { bad "caddy: renew output"; cat renew.out; }
served www.blog.test > chain.renewed
serial2=$(openssl x509 -noout -serial < chain.renewed)
issuer=$(openssl x509 -noout -issuer < chain.renewed)
body=$(fetch www.blog.test /)
case $issuer in *Pebble*) pebble=1 ;; *) pebble= ;; esac
[ -n "$serial2" ] && [ "$serial2" != "$serial1" ] && [ -n "$pebble" ] &&
    [ "$body" = "<h1>blog one</h1>" ] &&
    ok "caddy: the renewed certificate is served, from Pebble ($serial1 -> $serial2)" ||
    bad "caddy: after renew: $serial1 -> $serial2, $issuer, $body"
[ -n "${ACME_KEEP_CHAIN:-}" ] && cp chain.renewed "$ACME_KEEP_CHAIN.caddy-renewed"
p=$(policies)
case $p in
*'"subjects":'*renewal_window_ratio*) bad "caddy: renewal config left running: $p" ;;
*'"subjects":'*) ok "caddy: Caddy runs its own config again" ;;
*) bad "caddy: policies: $p" ;;
esac
out=$("$DEPLOY" apply 2>&1)
[ "$out" = "nothing to do" ] && ok "caddy: apply after renew: nothing to do" ||
    bad "caddy: apply after renew: $out"

# An ACME server that refuses connections: a clear error, the old one
# serves, and Caddy runs its own config again.
ip netns exec "$pns" nft -f - <<EOF || give_up "nft in Pebble's namespace"
table inet acmedown {
	chain input {
		type filter hook input priority 0;
		tcp dport 14000 reject with tcp reset
	}
}
EOF
# Caddy logs the refused connection at once: renew reports it well before
# its own time limit (120 s), which alone would also end in an error.
timeout 30 "$DEPLOY" renew blog > renew.out 2>&1; rc=$?
ip netns exec "$pns" nft delete table inet acmedown
if [ $rc -eq 1 ] && grep -q "error: site blog: no certificate from https://$pip:14000/dir: .*connection refused.*; the proxy keeps the one it has" renew.out; then
	ok "caddy: unreachable ACME server: renew says so within 30 s, exit 1"
else
	bad "caddy: renew with the server down: rc=$rc $(cat renew.out)"
fi
serial3=$(served www.blog.test | openssl x509 -noout -serial)
body=$(fetch www.blog.test /)
[ "$serial3" = "$serial2" ] && [ "$body" = "<h1>blog one</h1>" ] &&
    ok "caddy: the previous certificate keeps serving" ||
    bad "caddy: after a failed renewal: $serial3 $body"
case $(policies) in
*renewal_window_ratio*) bad "caddy: renewal config left running after a failure" ;;
*'"subjects":'*) ok "caddy: Caddy runs its own config again after the failure" ;;
*) bad "caddy: policies after failure: $(policies)" ;;
esac
"$DEPLOY" destroy -f > destroy.out 2>&1 && ok "caddy: destroy" ||
    { bad "caddy: destroy"; cat destroy.out; }
fi

# --- nginx, with lego on the host --------------------------------------
if part nginx; then
yaml nginx > deploy.yaml
cron=/etc/cron.d/deploy-$name
"$DEPLOY" plan > plan.out 2>&1
grep -q "^  obtain-certificate blog www.blog.test blog.test$" plan.out &&
    grep -q "^  write-renewal-schedule $cron$" plan.out && [ ! -e "$cron" ] &&
    ok "nginx: plan lists the certificate and the schedule, writes nothing" ||
    { bad "nginx: plan"; cat plan.out; }
if "$DEPLOY" apply > apply.out 2>&1; then ok "nginx: apply"; else
	bad "nginx: apply"; cat apply.out; finish; fi
grep -q "^certificate blog: www.blog.test blog.test, serial .*Pebble" apply.out &&
    ok "nginx: apply obtained one certificate for the domain and the redirect name" ||
    { bad "nginx: apply output"; cat apply.out; }
grep -q "location /.well-known/acme-challenge/" state/proxy/nginx.conf &&
    ok "nginx: the proxy serves the challenge folder on port 80" ||
    bad "nginx.conf has no challenge location"
if [ -f "$cron" ] && grep -q "renew --due -c $work/deploy.yaml" "$cron" &&
    grep -q "^[0-9]* 3,15 \* \* \* root " "$cron"; then
	ok "nginx: renewal schedule written: $(grep root "$cron")"
else
	bad "nginx: schedule: $(cat "$cron" 2>&1)"
fi
out=$("$DEPLOY" apply 2>&1)
[ "$out" = "nothing to do" ] && ok "nginx: second apply: nothing to do" ||
    bad "nginx: second apply: $out"
out=$("$DEPLOY" plan 2>&1)
[ "$out" = "nothing to do" ] && ok "nginx: plan after apply: nothing to do" ||
    bad "nginx: plan after apply: $out"
"$DEPLOY" push blog > push.out 2>&1 && ok "nginx: push" ||
    { bad "nginx: push"; cat push.out; }
body=$(fetch www.blog.test /)
[ "$body" = "<h1>blog one</h1>" ] && ok "nginx: site over HTTPS verified against Pebble's root" ||
    bad "nginx: body: $body"
loc=$(fetch blog.test /a -o /dev/null -w '%{http_code} %{redirect_url}')
[ "$loc" = "301 https://www.blog.test/a" ] && ok "nginx: redirect name verified too" ||
    bad "nginx: redirect: $loc"
served www.blog.test > chain.nginx
issuer=$(openssl x509 -noout -issuer < chain.nginx)
serial1=$(openssl x509 -noout -serial < chain.nginx)
case $issuer in
*Pebble*) ok "nginx: issuer is Pebble's ($issuer)" ;;
*) bad "nginx: issuer: $issuer" ;;
esac
"$DEPLOY" status > status.out 2>&1
grep -q "certificate (ACME): www.blog.test blog.test; issuer .*Pebble.*days left" status.out &&
    grep -q "last renewal attempt: .* ok, serial" status.out &&
    ok "nginx: status shows issuer, names, expiry and the last attempt" ||
    { bad "nginx: status"; cat status.out; }
out=$("$DEPLOY" renew --due 2>&1)
[ "$out" = "certificate blog: not due" ] && ok "nginx: renew --due: a new certificate is not due" ||
    bad "nginx: renew --due: $out"

# A forced renewal under load: every request answered, a new serial.
renew_under_load nginx
served www.blog.test > chain.renewed
serial2=$(openssl x509 -noout -serial < chain.renewed)
[ -n "$serial2" ] && [ "$serial2" != "$serial1" ] &&
    ok "nginx: the renewed certificate is served ($serial1 -> $serial2)" ||
    bad "nginx: serial after renew: $serial1 -> $serial2"
[ -n "${ACME_KEEP_CHAIN:-}" ] && cp chain.renewed "$ACME_KEEP_CHAIN.nginx"

# An ACME server that does not answer: a clear error, the old one serves.
sed "s|acme_ca: https://$pip:14000/dir|acme_ca: https://$pip:14009/dir|" deploy.yaml > down.yaml
"$DEPLOY" renew -c down.yaml blog > renew.out 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "error: site blog: no certificate from https://$pip:14009/dir: .*connection refused; the proxy keeps the one it has" renew.out; then
	ok "nginx: unreachable ACME server: renew says so, exit 1"
else
	bad "nginx: renew with the server down: rc=$rc $(cat renew.out)"
fi
serial3=$(served www.blog.test | openssl x509 -noout -serial)
body=$(fetch www.blog.test /)
[ "$serial3" = "$serial2" ] && [ "$body" = "<h1>blog one</h1>" ] &&
    ok "nginx: the previous certificate keeps serving" ||
    bad "nginx: after a failed renewal: $serial3 $body"
"$DEPLOY" status > status.out 2>&1
grep -q "last renewal attempt: .* failed: .*connection refused" status.out &&
    ok "nginx: status shows the failed attempt and its error" ||
    { bad "nginx: status after failure"; cat status.out; }

"$DEPLOY" destroy -f > destroy.out 2>&1 && ok "nginx: destroy" ||
    { bad "nginx: destroy"; cat destroy.out; }
[ ! -e "$cron" ] && [ ! -e state ] && ok "nginx: destroy removed the schedule and the ACME folder" ||
    bad "nginx: left after destroy: $(ls "$cron" state 2>&1)"
fi

finish
