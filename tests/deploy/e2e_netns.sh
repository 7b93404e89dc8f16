#!/bin/sh
# End to end on linux-netns, as root: two sites behind Caddy (tls internal)
# reached over HTTPS on a loopback host port; isolation of the site jails;
# destroy. Every bridge, namespace, nftables table and process it makes
# carries a unique name and is removed on exit, also after a failure.
#
# usage: tests/deploy/e2e_netns.sh [path/to/deploy]
# TEST_PARTS="main bench" runs only those parts (both by default): make
# mutate names the part that catches a fault, so that a fault in the
# bench does not wait for the serving, rollback and isolation checks.

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
	# Under make mutate the first failure is enough.
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
# part NAME: whether the optional part NAME runs (all of them by default).
part() {
	case " ${TEST_PARTS:-all} " in *" all "* | *" $1 "*) return 0 ;; esac
	return 1
}
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit $?
}

if [ "$(id -u)" -ne 0 ]; then
	echo "e2e_netns: needs root (namespaces, nftables)" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
if [ ! -x "$DEPLOY" ]; then
	echo "e2e_netns: no $DEPLOY; build it first (make bin/deploy)" >&2
	echo "0 passed, 1 failed"
	exit 1
fi

# --- packages (installed without starting their servers) -------------
DEB="nginx libnginx-mod-http-brotli-static caddy nftables iproute2 curl util-linux" sh "$top/tests/deps.sh" ||
    { echo "0 passed, 1 failed"; exit 1; }

# --- unique names -----------------------------------------------------
# (the bench's chart is rendered by Chromium: installed before the
# network is left behind)
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || DEB=chromium sh "$top/tests/deps.sh" >/dev/null 2>&1
. "$top/tests/deploy/lib.sh"
own_net "$0" "$@"
netns_names e2e 231 20000
cleanup() {
	netns_teardown "$work/deploy.yaml" proxy blog docs
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# The subnet must be free on this host.
if ip -4 -o addr | grep -q " $net\."; then
	echo "e2e_netns: $subnet is in use here; run again" >&2
	echo "0 passed, 1 failed"
	exit 1
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
  - name: blog
    domains: [www.blog.test]
    redirects: ["blog.test -> www.blog.test"]
    source: $work/src-blog
    headers:
      X-Frame-Options: DENY
  - name: docs
    domains: [docs.test]
    source: $work/src-docs
EOF
for s in blog docs; do
	mkdir -p "src-$s/css"
	echo "<h1>$s one</h1>" > "src-$s/index.html"
	echo "body{}" > "src-$s/css/site.css"
done

# --- bad input changes nothing ---------------------------------------
sed "s|docs.test]|www.blog.test]|" deploy.yaml > dup.yaml
out=$("$DEPLOY" apply -c dup.yaml 2>&1); rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q "dup.yaml:[0-9]*: error: duplicate domain 'www.blog.test'"; then
	ok "duplicate domain: deploy.yaml:LINE message, exit 1"
else
	bad "duplicate domain: rc=$rc $out"
fi
sed -e "s|subnet: $subnet|subnet: 127.0.0.0/16|" -e "s|proxy: $net.2|proxy: 127.0.0.2|" \
    deploy.yaml > overlap.yaml
out=$("$DEPLOY" apply -c overlap.yaml 2>&1); rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q "overlaps 127.0.0.1/8 on the host's interface lo"; then
	ok "subnet overlapping a host address refused"
else
	bad "overlapping subnet: rc=$rc $out"
fi
check "nothing created by refused specs" sh -c "! ip link show $bridge && ! [ -e /run/netns/$name-proxy ]"
"$DEPLOY" frobnicate >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown command exits 2" || bad "unknown command exit"
wrong=
for v in 0 601 3s; do
	out=$("$DEPLOY" bench --seconds "$v" 2>&1); rc=$?
	[ $rc -eq 2 ] && echo "$out" | grep -q "^deploy bench: --seconds takes 1 to 600" ||
	    wrong="$wrong $v (rc $rc: $out)"
done
[ -z "$wrong" ] && ok "bench --seconds outside 1 to 600: usage error, exit 2" ||
    bad "bench --seconds:$wrong"

# --- apply -----------------------------------------------------------
"$DEPLOY" plan > plan.out 2>&1
check "plan lists jails before the firewall" sh -c \
    "grep -q 'create-jail *blog' plan.out && tail -1 plan.out | grep -q load-firewall"
check "plan changed nothing" sh -c "! ip link show $bridge"
if "$DEPLOY" apply > apply.out 2>&1; then ok "apply"; else bad "apply"; cat apply.out; finish; fi
out=$("$DEPLOY" apply 2>&1)
[ "$out" = "nothing to do" ] && ok "second apply: nothing to do" || bad "second apply: $out"

# First releases, pushed through the local agent.
"$DEPLOY" push blog > push.out 2>&1 && ok "push blog" || { bad "push blog"; cat push.out; }
r1blog=$(sed -n 's/^release //p' push.out)
"$DEPLOY" push docs > push.out 2>&1 && ok "push docs" || { bad "push docs"; cat push.out; }
r1docs=$(sed -n 's/^release //p' push.out)
check "push notes pages without a precompressed .gz" grep -q "docs has no precompressed pages (index.html.gz)" push.out

ca=state/proxy/data/pki/authorities/local/root.crt
fetch() {	# fetch HOST PATH [curl options]
	h=$1 p=$2; shift 2
	curl -sS -m 10 --cacert "$ca" --resolve "$h:$https_port:127.0.0.1" \
	    --resolve "$h:$http_port:127.0.0.1" "$@" "https://$h:$https_port$p"
}
i=0
while [ ! -s "$ca" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
# logged SITE PATTERN: the site's access log (flushed within 5 s) has a
# line matching the pattern.
logged() {
	j=0
	while [ $j -lt 80 ]; do
		grep -q "$2" "$work/state/sites/$1/logs/access.log" 2>/dev/null && return 0
		sleep 0.1; j=$((j + 1))
	done
	return 1
}

blog_now="blog one"	# what blog serves when the parts that run are done
if part main; then
	check "check says the sites serve brotli" sh -c "'$DEPLOY' check | grep -q '^sites serve brotli and gzip'"
	# The ssg site (docs.test) as a browser gets it through the proxy, whose
	# CA is $2: brotli or gzip as asked, pages revalidated (304), the
	# stylesheet, linked by its hash, kept a year. $1 names the proxy.
	served() {
		sv() {	# sv PATH [curl options]: the response headers
			p=$1; shift
			curl -sS -m 10 --cacert "$ca_" --resolve "docs.test:$https_port:127.0.0.1" \
			    -D - -o /dev/null "$@" "https://docs.test:$https_port$p" | tr -d '\r'
		}
		ca_=$2
		h=$(sv / -H 'Accept-Encoding: gzip, br')
		echo "$h" | grep -qi '^content-encoding: br$' && ok "$1: a page in brotli when asked" ||
		    bad "$1: no brotli: $h"
		echo "$h" | grep -qi '^cache-control: no-cache$' && ok "$1: pages are no-cache" ||
		    bad "$1: page cache: $h"
		etag=$(echo "$h" | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
		code=$(curl -sS -m 10 --cacert "$ca_" --resolve "docs.test:$https_port:127.0.0.1" \
		    -H 'Accept-Encoding: gzip, br' -H "If-None-Match: $etag" -o /dev/null \
		    -w '%{http_code}' "https://docs.test:$https_port/")
		check "$1: revalidated by its ETag ($etag): 304" test -n "$etag" -a "$code" = 304
		# a post at its dated URL, as readers and feeds link it: asked
		# again at every visit, so that a push is seen at once
		post=/2025/01/15/getting-started/
		h=$(sv "$post" -H 'Accept-Encoding: gzip, br')
		echo "$h" | grep -qi '^cache-control: no-cache$' && echo "$h" | grep -q '^HTTP/[0-9.]* 200' &&
		    ok "$1: a post page ($post) is no-cache" || bad "$1: post page cache: $h"
		etag=$(echo "$h" | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
		code=$(curl -sS -m 10 --cacert "$ca_" --resolve "docs.test:$https_port:127.0.0.1" \
		    -H 'Accept-Encoding: gzip, br' -H "If-None-Match: $etag" -o /dev/null \
		    -w '%{http_code}' "https://docs.test:$https_port$post")
		check "$1: the post revalidated by its ETag: 304" test -n "$etag" -a "$code" = 304
		h=$(sv / -H 'Accept-Encoding: gzip')
		echo "$h" | grep -qi '^content-encoding: gzip$' && ok "$1: gzip when only gzip is asked" ||
		    bad "$1: no gzip: $h"
		css=$(curl -sS -m 10 --cacert "$ca_" --resolve "docs.test:$https_port:127.0.0.1" \
		    "https://docs.test:$https_port/" | grep -o '/css/style.css?v=[0-9a-f]*' | head -n 1)
		h=$(sv "${css:-/css/style.css?v=none}")
		echo "$h" | grep -qi '^cache-control: public, max-age=31536000, immutable$' &&
		    ok "$1: the stylesheet ($css) is kept a year" || bad "$1: stylesheet cache: $h"
	}
	body=$(fetch www.blog.test /)
	[ "$body" = "<h1>blog one</h1>" ] && ok "blog over HTTPS through the proxy" || bad "blog body: $body"
	body=$(fetch docs.test /)
	[ "$body" = "<h1>docs one</h1>" ] && ok "docs over HTTPS through the proxy" || bad "docs body: $body"
	hdr=$(fetch www.blog.test / -D - -o /dev/null | tr -d '\r')
	echo "$hdr" | grep -qi "^x-release: $r1blog\$" && ok "X-Release header" || bad "X-Release: $hdr"
	echo "$hdr" | grep -qi '^strict-transport-security: max-age=' && ok "HSTS" || bad "no HSTS"
	echo "$hdr" | grep -qi '^x-frame-options: DENY$' && ok "extra header" || bad "no extra header"
	rel=$(fetch docs.test /.well-known/release)
	[ -n "$rel" ] && [ "$rel" = "$r1docs" ] && ok "/.well-known/release" || bad "release id: $rel"
	loc=$(fetch blog.test /a?b -o /dev/null -w '%{http_code} %{redirect_url}')
	[ "$loc" = "301 https://www.blog.test/a?b" ] && ok "redirect blog.test -> www" || bad "redirect: $loc"
	loc=$(curl -sS -m 10 --resolve "docs.test:$http_port:127.0.0.1" -o /dev/null \
	    -w '%{http_code} %{redirect_url}' "http://docs.test:$http_port/x")
	case $loc in 30[18]\ https://docs.test/x) ok "HTTP -> HTTPS" ;; *) bad "http redirect: $loc" ;; esac
	code=$(fetch other.test / -o /dev/null -w '%{http_code}' 2>&1)
	# 421 from the catch-all, or (under load, before the catch-all's
	# certificate is ready) the TLS handshake refused: no site either way
	case $code in
	421|*000) ok "unknown name: not served (421 or no handshake)" ;;
	*) bad "catch-all: $code" ;;
	esac
	exp=$(fetch www.blog.test /css/site.css -D - -o /dev/null | tr -d '\r' | grep -i '^cache-control:')
	echo "$exp" | grep -q 'no-cache' && ok "a stylesheet without ?v= is asked for again" || bad "asset cache: $exp"
	check "deploy health" "$DEPLOY" health
	refuse "deploy health --expect another id fails" "$DEPLOY" health --expect r9 docs

	# A new release is served at once; a broken one is rolled back.
	sleep 1
	echo "<h1>blog two</h1>" > src-blog/index.html
	"$DEPLOY" push blog > push.out 2>&1 && ok "push blog two" || { bad "push blog two"; cat push.out; }
	r2blog=$(sed -n 's/^release //p' push.out)
	body=$(fetch www.blog.test /)
	[ "$body" = "<h1>blog two</h1>" ] && ok "new release served right after push" || bad "after push: $body"
	check "health expects the new release" "$DEPLOY" health --expect "$r2blog" blog
	mkdir -p broken && echo x > broken/other.html
	sed "s|source: $work/src-blog|source: $work/broken|" deploy.yaml > broken.yaml
	sleep 1
	"$DEPLOY" push -c broken.yaml blog > push.out 2>&1
	if [ $? -eq 1 ] && grep -q "back to $r2blog" push.out; then
		ok "failed health check: previous release back, exit 1"
	else
		bad "broken push"; cat push.out
	fi
	body=$(fetch www.blog.test /)
	[ "$body" = "<h1>blog two</h1>" ] && ok "still serving the good release" || bad "after broken push: $body"
	"$DEPLOY" rollback blog "$r1blog" > /dev/null 2>&1 && ok "rollback to the first release" || bad "rollback"
	body=$(fetch www.blog.test /)
	[ "$body" = "<h1>blog one</h1>" ] && ok "first release served after rollback" || bad "after rollback: $body"
	"$DEPLOY" releases blog > rel.out 2>&1
	if grep -q "^$r1blog .* current" rel.out && grep -q "^$r2blog " rel.out; then
		ok "releases lists them"
	else
		bad "releases"; cat rel.out
	fi
	"$DEPLOY" rollback blog "$r2blog" > /dev/null 2>&1

	# An ssg site folder is built by push (the demo site of this tree).
	if [ -f "$top/content/site.yaml" ]; then
		cp -R "$top/content" src-ssg && rm -rf src-ssg/output
		sed "s|source: $work/src-docs|source: $work/src-ssg|" deploy.yaml > ssg.yaml
		"$DEPLOY" push -c ssg.yaml docs > push.out 2>&1
		if [ $? -eq 0 ] && grep -q '^built ' push.out && fetch docs.test / 2>/dev/null | grep -qi '<!doctype html>'; then
			ok "push builds an ssg site and serves it"
			# precompressed by default: .gz and .br beside each
			# compressible file, none beside an image
			cur="$work/www/docs/current"
			miss=
			for f in index.html css/style.css rss.xml sitemap.xml; do
				[ -f "$cur/$f.gz" ] && [ -f "$cur/$f.br" ] || miss="$miss $f"
			done
			check "push precompresses an ssg site by default:$miss" test -z "$miss"
			check "... but no photo (an SVG is text, and has them)" test -z "$(find "$cur/images" \
			    \( -name '*.jpg.*' -o -name '*.webp.*' -o -name '*.avif.*' -o -name '*.png.*' \) 2>/dev/null)"
			check "... an SVG has them" test -f "$cur/images/layers.svg.gz"
			check "... its images are there" test -n "$(find "$cur/images" -name '*.jpg' 2>/dev/null)"
			check "... built beside the site's own output, not over it" sh -c \
			    "test -f src-ssg/.ssg-cache/push/output/index.html.gz && ! test -e src-ssg/output"
			served Caddy "$ca"
			ssg_pushed=1
			echo "precompress_assets: false" >> src-ssg/site.yaml
			"$DEPLOY" push -c ssg.yaml docs > push.out 2>&1
			check "precompress_assets: false in site.yaml is kept" sh -c \
			    "test -f '$cur/index.html' && ! test -e '$cur/index.html.gz'"
		elif grep -q 'built without libssg' push.out; then
			echo "skip push of an ssg site: this deploy was built without libssg"
		else
			bad "push of an ssg site"; cat push.out
		fi
	else
		echo "skip push of an ssg site: no $top/content/site.yaml"
	fi

	# --- the proxy's way to the sites: their Unix sockets -----------------
	fetch www.blog.test /via-caddy -o /dev/null
	check "Caddy reaches the site through its Unix socket" \
	    logged blog '^unix: .*"GET /via-caddy '
	check "the socket folder holds the socket and nothing else" \
	    test "$(ls -A state/sites/blog/sock)" = nginx.sock

	# --- isolation -------------------------------------------------------
	blogpid=$(cat state/sites/blog/run/nginx.pid)
	check "site jail: its own socket is there" \
	    nsenter -t "$blogpid" -m -n test -S "$work/state/sites/blog/sock/nginx.sock"
	refuse "site jail cannot open the other site's socket" \
	    nsenter -t "$blogpid" -m -n curl -sS -m 2 -o /dev/null \
	    --unix-socket "$work/state/sites/docs/sock/nginx.sock" http://docs.test/
	refuse "site jail cannot reach Caddy's admin socket" \
	    nsenter -t "$blogpid" -m -n curl -sS -m 2 -o /dev/null \
	    --unix-socket "$work/state/proxy/admin.sock" http://localhost/config/
	refuse "site jail cannot write its web root" \
	    nsenter -t "$blogpid" -m -n touch "$work/www/blog/current/x"
	check "the web root is there, read-only" \
	    nsenter -t "$blogpid" -m -n test -r "$work/www/blog/current/index.html"
	refuse "site jail does not see the other site's files" \
	    nsenter -t "$blogpid" -m -n test -e "$work/www/docs/current/index.html"
	refuse "site jail does not see the proxy's state" \
	    nsenter -t "$blogpid" -m -n test -e "$work/state/proxy"
	refuse "site jail does not see the host's files" \
	    nsenter -t "$blogpid" -m -n test -e /etc/shadow
	refuse "site jail cannot change its nginx config" \
	    nsenter -t "$blogpid" -m -n touch "$work/state/sites/blog/nginx.conf"
	check "the proxy reaches the site jail" \
	    ip netns exec "$name-proxy" curl -sS -m 3 -o /dev/null "http://$net.11/"
	refuse "site jail cannot connect to the other site jail" \
	    ip netns exec "$name-blog" curl -sS -m 2 -o /dev/null "http://$net.11/"
	refuse "host cannot reach a site jail directly" \
	    curl -sS -m 2 -o /dev/null "http://$net.10/"
	refuse "site jail has no way out" \
	    ip netns exec "$name-blog" ping -c 1 -W 1 "$net.1"
	ps -o user= -p $(cat /proc/"$blogpid"/task/"$blogpid"/children) 2>/dev/null | grep -qvx root \
	    && ok "nginx workers unprivileged" || bad "nginx workers run as root"

	# --- the nginx proxy, TLS from files ----------------------------------
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	    -days 2 -subj /CN=www.blog.test -keyout key.pem -out cert.pem \
	    -addext "subjectAltName=DNS:www.blog.test,DNS:blog.test,DNS:docs.test" \
	    >/dev/null 2>&1
	sed -e 's/kind: caddy/kind: nginx/' \
	    -e 's/  tls: internal/  certificate: cert.pem\n  key: key.pem/' \
	    deploy.yaml > nginx.yaml
	if "$DEPLOY" apply -c nginx.yaml > apply.out 2>&1; then
		ok "apply: the proxy becomes nginx"
	else
		bad "apply nginx proxy"; cat apply.out
	fi
	ngx() {
		curl -sS -m 10 --cacert cert.pem --resolve "$1:$https_port:127.0.0.1" \
		    "https://$1:$https_port/" -D ngx.hdr 2>&1
	}
	body=$(ngx www.blog.test)
	[ "$body" = "<h1>blog two</h1>" ] && ok "blog through the nginx proxy" || bad "nginx proxy: $body"
	curl -sS -m 10 --cacert cert.pem --resolve "www.blog.test:$https_port:127.0.0.1" \
	    -o /dev/null "https://www.blog.test:$https_port/via-nginx"
	check "the nginx proxy reaches the site through its Unix socket" \
	    logged blog '^unix: .*"GET /via-nginx '
	tr -d '\r' < ngx.hdr | grep -qi '^strict-transport-security: max-age=' && ok "nginx proxy: HSTS" || bad "nginx proxy HSTS"
	loc=$(curl -sS -m 10 --cacert cert.pem --resolve "blog.test:$https_port:127.0.0.1" \
	    -o /dev/null -w '%{http_code} %{redirect_url}' "https://blog.test:$https_port/x")
	[ "$loc" = "301 https://www.blog.test/x" ] && ok "nginx proxy: redirect" || bad "nginx redirect: $loc"
	check "health through the nginx proxy" "$DEPLOY" health -c nginx.yaml --cacert cert.pem
	refuse "health through nginx: a self-signed certificate is not trusted by itself" \
	    "$DEPLOY" health -c nginx.yaml
	# proxy.ca: the user's own CA (here the self-signed certificate) trusted
	# by health checks and push, beside the system store
	sed 's/^  key: key.pem$/  key: key.pem\n  ca: cert.pem/' nginx.yaml > nginx-ca.yaml
	if [ -n "${ssg_pushed:-}" ]; then
		# the ssg site precompressed again, as it is by default
		sed -i '/^precompress_assets: false$/d' src-ssg/site.yaml
		sed "s|source: $work/src-docs|source: $work/src-ssg|" nginx-ca.yaml > ssg-nginx.yaml
		"$DEPLOY" push -c ssg-nginx.yaml docs > push.out 2>&1 || { bad "push through nginx"; cat push.out; }
		served nginx cert.pem
	fi
	check "health through nginx with proxy.ca" "$DEPLOY" health -c nginx-ca.yaml
	echo '<h1>blog three</h1>' > src-blog/index.html
	"$DEPLOY" push -c nginx-ca.yaml blog > push.out 2>&1 && ok "push through the nginx proxy with proxy.ca" ||
	    { bad "push through nginx with proxy.ca"; cat push.out; }
	body=$(ngx www.blog.test)
	[ "$body" = "<h1>blog three</h1>" ] && ok "nginx proxy serves the pushed release" || bad "nginx proxy after push: $body"
	# without an id: the release that served before (blog two), not the
	# newer broken one that failed its checks and never served
	"$DEPLOY" rollback -c nginx-ca.yaml blog > rb.out 2>&1 &&
	    ok "rollback through the nginx proxy with proxy.ca" ||
	    { bad "rollback through nginx with proxy.ca"; cat rb.out; }
	check "rollback without an id goes back to the release that served" \
	    grep -qx "current: $r2blog" rb.out
	body=$(ngx www.blog.test)
	[ "$body" = "<h1>blog two</h1>" ] && ok "nginx proxy serves blog two again" || bad "nginx proxy after rollback: $body"
	out=$("$DEPLOY" apply -c nginx.yaml 2>&1)
	[ "$out" = "nothing to do" ] && ok "nginx proxy: second apply does nothing" || bad "nginx second apply: $out"
	check "apply: back to Caddy" "$DEPLOY" apply
	check "health through Caddy again" "$DEPLOY" health
	# UDP 443 stays closed without HTTP/3
	refuse "no HTTP/3 by default: UDP 443 closed in the proxy jail" sh -c \
	    "ip netns exec '$name-proxy' nft list ruleset | grep -q 'udp dport 443'"
	refuse "... and not sent there by the host" sh -c "nft list table ip '$table' | grep -q 'udp dport'"
	refuse "... and Caddy does not listen on it" sh -c \
	    "ip netns exec '$name-proxy' ss -Hlun | grep -q ':443 '"
	# TCP stays, for a site the proxy reaches elsewhere; HTTP/3 on
	sed 's/^  tls: internal$/  tls: internal\n  upstream: tcp\n  http3: true/' deploy.yaml > tcp.yaml
	check "apply: proxy.upstream tcp, http3 true" "$DEPLOY" apply -c tcp.yaml
	check "http3: UDP 443 open in the proxy jail" sh -c \
	    "ip netns exec '$name-proxy' nft list ruleset | grep -q 'udp dport 443 accept'"
	check "... the host sends UDP $https_port there" sh -c \
	    "nft list table ip '$table' | grep -q 'udp dport $https_port dnat to $net.2:443'"
	i=0
	while ! ip netns exec "$name-proxy" ss -Hlun | grep -q ':443 ' && [ $i -lt 50 ]; do
		sleep 0.1; i=$((i + 1))
	done
	check "... and Caddy listens on it" sh -c "ip netns exec '$name-proxy' ss -Hlun | grep -q ':443 '"
	h=$(fetch www.blog.test / -D - -o /dev/null | tr -d '\r')
	echo "$h" | grep -qi '^alt-svc: h3=' && ok "... and says so (Alt-Svc)" || bad "no Alt-Svc with http3: $h"
	body=$(fetch www.blog.test /via-tcp -o /dev/null -w '%{http_code}')
	check "served over TCP with upstream: tcp ($body)" test "$body" = 404
	check "... the site's nginx sees the proxy's address" \
	    logged blog "^$net.2 .*\"GET /via-tcp "
	check "... and listens on no socket" sh -c "! grep -q 'listen unix:' state/sites/blog/nginx.conf"
	check "apply: back to the sockets" "$DEPLOY" apply
	check "health through Caddy over the sockets" "$DEPLOY" health
	refuse "http3 off again: UDP 443 closed" sh -c \
	    "ip netns exec '$name-proxy' nft list ruleset | grep -q 'udp dport 443'"

	# --- status, destroy -------------------------------------------------
	"$DEPLOY" logs blog > logs.out 2>&1
	check "logs shows the site's access log" grep -q '"GET / HTTP/1.1" 200' logs.out
	refuse "logs of an unknown site fails" "$DEPLOY" logs nosuch
	"$DEPLOY" status > status.out 2>&1
	check "status shows the current release" grep -q "current $r2blog" status.out
	check "status shows the last push" grep -q "last push: .* rollback ok $r2blog" status.out
	check "status shows certificate expiry" grep -q "certificate expires" status.out
	blog_now="blog two"
fi

# --- bench (quick), over a release of 1,000 pages ----------------------
if part bench; then
	# (last before destroy: it takes most of the test's time, which faults
	# caught by the checks above then do not wait for under make mutate)
	mkdir -p src-1k
	echo '<h1>index</h1>' > src-1k/index.html
	i=1
	while [ $i -le 1000 ]; do
		mkdir -p "src-1k/p/$i"
		echo "<h1>page $i</h1>" > "src-1k/p/$i/index.html"
		i=$((i + 1))
	done
	sed "s|source: $work/src-docs|source: $work/src-1k|" deploy.yaml > k1.yaml
	"$DEPLOY" push -c k1.yaml docs > push.out 2>&1 || { bad "push 1,000 pages"; cat push.out; }
	if "$DEPLOY" bench --quick --seconds 1 --out "$work/bench" docs > bench.out 2>&1; then
		ok "bench --quick"
	else
		bad "bench"; cat bench.out
	fi
	runs=$(grep -c '"site": "docs"' bench.json 2>/dev/null)
	[ "$runs" = 6 ] && ok "bench JSON: 6 runs" || bad "bench JSON runs: $runs"
	check "bench JSON: wrk went round the 1,001 pages" grep -q '"pages": 1001,' bench.json
	check "bench says it asks as browsers do (gzip, br)" grep -q 'asking as browsers do (Accept-Encoding: gzip, br)' bench.out
	check "bench JSON: runs of the --seconds asked for" grep -q '"seconds": 1,' bench.json
	if grep '"path": "proxy-https"\|"path": "direct-http"' bench.json | grep -q '"errors": [1-9]'; then
		bad "bench errors"; cat bench.json
	else
		ok "bench: no errors through the proxy or straight at the jail"
	fi
	# Every page was asked for: the site's access log (flushed within 5 s).
	alog=$work/state/sites/docs/logs/access.log
	i=0
	while [ $i -lt 80 ]; do
		n=$(grep -o 'GET /p/[0-9]*/ ' "$alog" 2>/dev/null | sort -u | wc -l)
		[ "$n" -ge 1000 ] && break
		sleep 0.1; i=$((i + 1))
	done
	[ "$n" -ge 1000 ] && ok "bench asked for every page ($n of 1000)" || bad "bench asked for $n of 1000 pages"
	check "bench JSON: the site's CPU per request" grep -q '"path": "direct-http".*"site_cpu_us_per_request": [0-9]' bench.json
	check "bench JSON: the proxy's CPU per request" grep -q '"path": "proxy-https".*"proxy_cpu_us_per_request": [0-9]' bench.json
	check "bench JSON: the stock nginx beside each direct run" grep -q '"path": "direct-http".*"stock_requests_per_s": [0-9].*"stock_site_cpu_us_per_request": [0-9].*"tuned_over_stock"' bench.json
	check "bench table: CPU per request and the stock ratio" grep -q 'µs/req' bench.out
	check "bench SVG: legend and groups" sh -c "grep -q 'HTTPS through the proxy' bench.svg && grep -q 'docs, 50 connections' bench.svg && grep -q 'stock nginx' bench.svg"
	# The chart as a reader sees it: rendered by a browser.
	if [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || DEB=chromium sh "$top/tests/deps.sh" >/dev/null 2>&1; then
		"${CHROMIUM:-/usr/bin/chromium}" --headless --no-sandbox --disable-gpu \
		    --screenshot="$work/bench.png" --window-size=800,700 \
		    "file://$work/bench.svg" > chromium.out 2>&1
		check "bench SVG renders in chromium" python3 -c "
import struct, sys
b = open('$work/bench.png', 'rb').read()
w, h = struct.unpack('>II', b[16:24])
sys.exit(0 if b[:8] == b'\\x89PNG\\r\\n\\x1a\\n' and w == 800 and len(b) > 8000 else 1)"
	else
		bad "bench SVG: no chromium to render it"
	fi
	"$DEPLOY" bench --proxy-only --seconds 1 --out "$work/bench2" --compare bench.json docs > bench2.out 2>&1
	check "bench --compare shows the change" grep -q '"before_requests_per_s"' bench2.json
fi

"$DEPLOY" destroy docs < /dev/null > /dev/null 2>&1
check "destroy without -f and no answer keeps the site" test -e "/run/netns/$name-docs"
check "destroy docs -f" "$DEPLOY" destroy -f docs
check "docs jail and releases gone" sh -c "! test -e /run/netns/$name-docs && ! test -e www/docs"
check "blog still served" sh -c "$(printf '%s' "curl -sS -m 5 --cacert $ca --resolve www.blog.test:$https_port:127.0.0.1 https://www.blog.test:$https_port/ | grep -q '$blog_now'")"
"$DEPLOY" destroy -f > destroy.out 2>&1 && ok "destroy -f" || { bad "destroy -f"; cat destroy.out; }
check "no namespace left" sh -c "! ip netns list | grep -q '^$name-'"
check "no bridge left" sh -c "! ip link show $bridge"
check "no nftables table left" sh -c "! nft list table ip $table"
check "no state or releases left" sh -c "! test -e state && ! test -e www"
out=$("$DEPLOY" destroy -f 2>&1)
[ "$out" = "nothing to do" ] && ok "second destroy: nothing to do" || bad "second destroy: $out"
finish
