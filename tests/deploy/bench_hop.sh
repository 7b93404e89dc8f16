#!/bin/sh
# Benchmark (not part of make check), as root: what the hop from the proxy
# to a site costs. The demo site (content/) is pushed on linux-netns
# behind each proxy kind, and for each variant, one after the other in
# the same run, `deploy bench` measures HTTPS through the proxy and plain
# HTTP straight at the site's nginx (10, 50 and 100 connections kept
# alive), then wrk asks through the proxy with a new connection for every
# request (one TLS handshake each). A variant is LABEL=DEPLOY:UPSTREAM: a
# deploy binary (an older build, to compare with) and proxy.upstream
# (unix or tcp; an older build is given none). The table printed at the
# end puts, per kind and variant: req/s through the proxy and direct,
# their ratio, the proxy's and the site's CPU per request (µs), and TLS
# handshakes per second.
#
# usage: tests/deploy/bench_hop.sh [--kinds "caddy nginx"] [--seconds N]
#            [--variant LABEL=DEPLOY:UPSTREAM]... [--out DIR]
# Without --variant: tcp=bin/deploy:tcp and unix=bin/deploy:unix.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
DEPLOY=$top/bin/deploy
[ "$(id -u)" -eq 0 ] || { echo "bench_hop: needs root (namespaces, nftables)" >&2; exit 1; }
. "$top/tests/deploy/lib.sh"
own_net "$0" "$@"
kinds="caddy nginx"
seconds=5
variants=
out=
while [ $# -gt 0 ]; do
	case $1 in
	--kinds) kinds=$2; shift ;;
	--seconds) seconds=$2; shift ;;
	--variant) variants="$variants $2"; shift ;;
	--out) out=$2; shift ;;
	*) echo "usage: bench_hop.sh [--kinds K] [--seconds N] [--variant L=DEPLOY:UPSTREAM]... [--out DIR]" >&2
	   exit 2 ;;
	esac
	shift
done
[ -n "$variants" ] || variants="tcp=$DEPLOY:tcp unix=$DEPLOY:unix"

die() { echo "bench_hop: $*" >&2; exit 1; }
[ -x "$DEPLOY" ] || die "build first (make all)"
for p in nginx caddy nft ip curl wrk openssl python3 unshare; do
	command -v "$p" >/dev/null 2>&1 || die "needs $p (make deps-test)"
done
for v in $variants; do
	b=${v#*=}; b=${b%:*}
	[ -x "$b" ] || die "variant $v: no program $b"
done

netns_names bh 236 48000
last=
cleanup() {
	[ -n "$last" ] && "${last%%|*}" destroy -f -c "${last#*|}" >/dev/null 2>&1
	netns_teardown "$work/caddy-0.yaml" proxy blog
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
[ -n "$out" ] || out=$work/out
mkdir -p "$out"
cd "$work" || exit 1

cp -a "$top/content" site
rm -rf site/output site/.ssg-cache
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -days 2 -subj /CN=www.bench.test -keyout key.pem -out cert.pem \
    -addext "subjectAltName=DNS:www.bench.test" >/dev/null 2>&1 ||
    die "openssl failed"
echo "127.0.0.1 localhost" > hosts
echo "127.0.0.1 www.bench.test" >> hosts

spec() {	# spec KIND UPSTREAM
	echo "name: $name"
	netns_network_yaml
	if [ "$1" = caddy ]; then
		printf 'proxy:\n  kind: caddy\n  tls: internal\n'
	else
		printf 'proxy:\n  kind: nginx\n  certificate: %s\n  key: %s\n  ca: %s\n' \
		    "$work/cert.pem" "$work/key.pem" "$work/cert.pem"
	fi
	[ -z "$2" ] || printf '  upstream: %s\n' "$2"
	cat <<EOF
releases:
  root: $work/www
  keep: 2
sites:
  - name: blog
    domains: [www.bench.test]
    source: $work/site
EOF
}

# handshakes CAFILE: wrk through the proxy, Connection: close (a new TLS
# connection per request), 50 connections; prints req/s.
handshakes() {
	unshare -m sh -c 'mount --bind "$1" /etc/hosts && exec wrk -t 2 -c 50 -d "$2" \
	    -H "Connection: close" -H "Accept-Encoding: gzip, br" "$3"' sh \
	    "$work/hosts" "${seconds}s" "https://www.bench.test:$https_port/" 2>&1 |
	    sed -n 's/^Requests\/sec: *//p'
}

n=0
for k in $kinds; do
	pushed=
	for v in $variants; do
		label=${v%%=*}
		rest=${v#*=}
		bin=${rest%:*}
		up=${rest##*:}
		[ "$label" != "$v" ] || die "variant $v: LABEL=DEPLOY:UPSTREAM"
		y=$work/$k-$n.yaml
		n=$((n + 1))
		case $up in unix|tcp) spec "$k" "$up" ;; *) spec "$k" "" ;; esac > "$y"
		# another program's jails: the last one's go first
		if [ -n "$last" ] && [ "${last%%|*}" != "$bin" ]; then
			"${last%%|*}" destroy -f -c "${last#*|}" >/dev/null 2>&1
			pushed=
		fi
		last="$bin|$y"
		"$bin" apply -c "$y" > "apply-$k-$label.out" 2>&1 ||
		    { cat "apply-$k-$label.out"; die "apply ($k, $label) failed"; }
		ca=
		if [ "$k" = caddy ]; then
			ca=$work/state/proxy/data/pki/authorities/local/root.crt
			i=0
			while [ ! -s "$ca" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		fi
		if [ -z "$pushed" ]; then
			# shellcheck disable=SC2086
			"$bin" push -c "$y" ${ca:+--cacert $ca} blog > "push-$k-$label.out" 2>&1 ||
			    { cat "push-$k-$label.out"; die "push ($k, $label) failed"; }
			pushed=1
		fi
		echo "== $k, $label ($bin, upstream ${up:-as built})" >&2
		"$bin" bench -c "$y" --seconds "$seconds" --out "$out/$k-$label" blog \
		    > "$out/$k-$label.table" 2> "bench-$k-$label.err" ||
		    { cat "bench-$k-$label.err"; die "bench ($k, $label) failed"; }
		hs=$(handshakes)
		echo "{\"kind\": \"$k\", \"variant\": \"$label\", \"handshakes_per_s\": ${hs:-0}}" \
		    > "$out/$k-$label.hs.json"
	done
done

# shellcheck disable=SC2086
python3 - "$out" $kinds -- $variants <<'EOF'
import json, sys
out = sys.argv[1]
args = sys.argv[2:]
sep = args.index("--")
kinds, variants = args[:sep], [v.split("=")[0] for v in args[sep + 1:]]
print("%-6s %-8s %5s %9s %9s %6s %9s %9s %9s %11s" % ("proxy", "variant",
    "conns", "https/s", "direct/s", "ratio", "proxy", "site", "site",
    "handshakes"))
print("%-6s %-8s %5s %9s %9s %6s %9s %9s %9s %11s" % ("", "", "", "", "",
    "", "µs/req", "µs/req", "direct", "/s (c50)"))
for k in kinds:
    for v in variants:
        runs = json.load(open("%s/%s-%s.json" % (out, k, v)))["runs"]
        hs = json.load(open("%s/%s-%s.hs.json" % (out, k, v)))
        by = {}
        for r in runs:
            by[(r["path"], r["connections"])] = r
        for c in sorted({r["connections"] for r in runs}):
            p = by.get(("proxy-https", c))
            d = by.get(("direct-http", c))
            if p is None or d is None:
                continue
            print("%-6s %-8s %5d %9.0f %9.0f %5.2fx %9.1f %9.1f %9.1f %11s" % (
                k, v, c, p["requests_per_s"], d["requests_per_s"],
                p["requests_per_s"] / d["requests_per_s"],
                p.get("proxy_cpu_us_per_request", -1),
                p.get("site_cpu_us_per_request", -1),
                d.get("site_cpu_us_per_request", -1),
                "%.0f" % hs["handshakes_per_s"] if c == 50 else ""))
print("https/s: HTTPS through the proxy, kept alive; direct/s: plain HTTP "
      "from the proxy's jail straight at the site's nginx, in the same "
      "bench; µs/req: CPU time of the proxy's and the site's servers per "
      "request; handshakes: HTTPS through the proxy with a new connection "
      "per request")
EOF
echo "results in $out"
