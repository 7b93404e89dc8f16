#!/bin/sh
# Benchmark (not part of make check), as root: the demo site (content/),
# or a generated site of PAGES pages, is pushed as a folder (push builds
# it with the site's own settings, precompressed by default, and this
# checks what it published) on linux-netns behind each proxy kind in turn (Caddy with its
# internal CA, nginx with an ECDSA P-256 certificate made here), and
# measured with `deploy bench`; then the runs of both kinds are printed
# side by side. Everything it makes carries a unique name and is removed
# on exit.
#
# usage: tests/deploy/bench_serve.sh [--quick] [--pages N] [--kinds "caddy nginx"]
#            [--out DIR]
# KEEP=1 leaves the jails running, to measure again by hand.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
DEPLOY=$top/bin/deploy
SSG=$top/bin/ssg
quick=
pages=0
kinds="caddy nginx"
out=
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=--quick ;;
	--pages) pages=$2; shift ;;
	--kinds) kinds=$2; shift ;;
	--out) out=$2; shift ;;
	*) echo "usage: bench_serve.sh [--quick] [--pages N] [--kinds K] [--out DIR]" >&2
	   exit 2 ;;
	esac
	shift
done

die() { echo "bench_serve: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (namespaces, nftables)"
[ -x "$DEPLOY" ] && [ -x "$SSG" ] || die "build first (make all)"
for p in nginx caddy nft ip curl wrk openssl; do
	command -v "$p" >/dev/null 2>&1 || die "needs $p (make deps-test)"
done

. "$top/tests/deploy/lib.sh"
own_net "$0" "$@"
netns_names bs 235 47000
cleanup() {
	if [ -n "${KEEP:-}" ]; then
		echo "kept: $work (remove with: deploy destroy -f -c $work/KIND.yaml)"
		return
	fi
	for k in $kinds; do
		[ -f "$work/$k.yaml" ] && "$DEPLOY" destroy -f -c "$work/$k.yaml" >/dev/null 2>&1
	done
	netns_teardown "$work/caddy.yaml" proxy blog
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
[ -n "$out" ] || out=$work/out
mkdir -p "$out"
cd "$work" || exit 1

# --- the site --------------------------------------------------------
if [ "$pages" -gt 0 ]; then
	mkdir -p site/posts
	printf 'site_title: Bench\nsite_url: "https://www.bench.test"\nauthor_name: B\ntimezone: UTC\n' > site/site.yaml
	i=1
	while [ "$i" -le "$pages" ]; do
		printf -- '---\ntitle: Page %d\ndate: 2025-01-01 10:00\n---\n%s\n' "$i" \
		    "Text of page $i, long enough to be a paragraph of a post." \
		    > "site/posts/2025-01-01-page-$i.md"
		i=$((i + 1))
	done
else
	cp -a "$top/content" site
	rm -rf site/output site/.ssg-cache
fi
# The site folder itself, with its own settings: push builds it as a new
# user's site is built, precompressed by default.

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -days 2 -subj /CN=www.bench.test -keyout key.pem -out cert.pem \
    -addext "subjectAltName=DNS:www.bench.test" >/dev/null 2>&1 ||
    die "openssl failed"

spec() {	# spec KIND
	echo "name: $name"
	netns_network_yaml
	if [ "$1" = caddy ]; then
		printf 'proxy:\n  kind: caddy\n  tls: internal\n'
	else
		printf 'proxy:\n  kind: nginx\n  certificate: %s\n  key: %s\n  ca: %s\n' \
		    "$work/cert.pem" "$work/key.pem" "$work/cert.pem"
	fi
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

# What the push published: a .gz and a .br beside every compressible
# file, none beside an image; dies otherwise.
published() {
	n=0 miss=
	for f in $(cd "$1" && find . -type f \( -name '*.html' -o -name '*.css' \
	    -o -name '*.xml' -o -name '*.js' -o -name '*.svg' -o -name '*.json' \
	    -o -name '*.txt' \) ! -path './.capsule/*'); do
		n=$((n + 1))
		[ -f "$1/$f.gz" ] && [ -f "$1/$f.br" ] || miss="$miss $f"
	done
	[ -z "$miss" ] || die "published without .gz or .br:$miss"
	imgs=$(cd "$1" && find . -type f \( -name '*.jpg.*' -o -name '*.jpeg.*' \
	    -o -name '*.png.*' -o -name '*.webp.*' -o -name '*.avif.*' -o -name '*.gif.*' \))
	[ -z "$imgs" ] || die "an image compressed again: $imgs"
	echo "published: $n compressible files, each with .gz and .br; no image has either"
}

for k in $kinds; do
	spec "$k" > "$k.yaml"
	"$DEPLOY" apply -c "$k.yaml" > "apply-$k.out" 2>&1 ||
	    { cat "apply-$k.out"; die "apply ($k) failed"; }
	ca=
	if [ "$k" = caddy ]; then
		ca=$work/state/proxy/data/pki/authorities/local/root.crt
		i=0
		while [ ! -s "$ca" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		ca="--cacert $ca"
	fi
	# shellcheck disable=SC2086
	"$DEPLOY" push -c "$k.yaml" $ca blog > "push-$k.out" 2>&1 ||
	    { cat "push-$k.out"; die "push ($k) failed"; }
	published "$work/www/blog/current"
	# shellcheck disable=SC2086
	"$DEPLOY" bench -c "$k.yaml" $quick --out "$out/$k" blog \
	    > "$out/$k.table" 2> "bench-$k.err" ||
	    { cat "bench-$k.err"; die "bench ($k) failed"; }
	echo "== proxy: $k"
	cat "$out/$k.table"
done
echo "results in $out"
