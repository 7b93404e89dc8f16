#!/bin/sh
# Benchmark (not part of make check), as root: the fleet of fleet.sh
# (three hosts, each its own network and mount namespace and sshd) serves
# the bench corpus (tests/bench/gen.c, POSTS posts, built with bin/ssg).
# One post is edited, the site rebuilt and pushed, EDITS times to all
# three hosts and EDITS times to one; prints each push's wall time. During
# every push to three, one poller per host asks its proxy for the release
# (HTTPS, keep-alive, as fast as it answers) and the switch window is the
# time between the first and the last host answering with the new
# release. Everything it makes carries a unique name and is removed on
# exit.
#
# usage: tests/deploy/fleet_push.sh [path/to/deploy] [POSTS]   (EDITS=3)

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
DEPLOY=${1:-$top/bin/deploy}
case $DEPLOY in /*) ;; *) DEPLOY=$(pwd)/$DEPLOY ;; esac
POSTS=${2:-10000}
EDITS=${EDITS:-3}
SSG=${SSG:-$top/bin/ssg}

die() { echo "fleet_push: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (namespaces, nftables, sshd)"
[ -x "$DEPLOY" ] && [ -x "$SSG" ] || die "build first (make all)"

. "$top/tests/deploy/lib.sh"
own_net "$0" "$@"
. "$top/tests/deploy/fleet_lib.sh"
fleet_start
for h in $hosts; do fleet_host "$h" || die "host $h did not come up"; done
D() {	# D COMMAND ARGS: deploy with the fleet's keys
	c=$1; shift
	"$DEPLOY" "$c" "$@" --known-hosts "$work/known_hosts" \
	    --identity "$work/client_key"
}
now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }

# --- the corpus, built once ------------------------------------------------
cc -std=c11 -O2 -o gen "$top/tests/bench/gen.c" || die "gen.c"
mkdir -p corpus/ssg/posts corpus/hugo/content/posts
./gen corpus "$POSTS" 42 0 "$POSTS" >/dev/null || die "gen"
cat > corpus/ssg/site.yaml <<EOF
site_title: Bench
site_description: A generated corpus
site_url: "https://blog.test"
author_name: Bench Author
posts_per_page: 10
rss_item_limit: 15
timezone: UTC
enable_tag_rss: true
EOF
t0=$(now)
SSG_DATADIR=$top "$SSG" build -C corpus/ssg -o "$work/out" -q || die "ssg build"
echo "built $POSTS posts in $(ms "$t0" "$(now)") ms:" \
    "$(find out -type f | wc -l) files, $(du -sh out | cut -f1)"

fleet_yaml "$work/out" > fleet.yaml
sed -e '/^  - name: h2$/,/^        - .*443$/d' -e '/^  - name: h3$/,/^        - .*443$/d' \
    fleet.yaml > one.yaml
D apply -c fleet.yaml > apply.out 2>&1 || { cat apply.out; die "apply"; }
t0=$(now)
D push -c fleet.yaml --cacert cert.pem blog > push0.out 2>&1 ||
    { cat push0.out; die "first push"; }
echo "first push of the whole site to 3 hosts: $(ms "$t0" "$(now)") ms"

# --- pollers: every answer that differs from the one before, timed --------
cat > poller.py <<'EOF'
import http.client, os, socket, ssl, sys, threading, time
work, ips = sys.argv[1], sys.argv[2:]
ctx = ssl.create_default_context(cafile=work + "/cert.pem")
def poll(n, ip):
    last, out = None, open("%s/poll.%d" % (work, n), "w")
    c = None
    while not os.path.exists(work + "/stop"):
        try:
            if c is None:
                c = http.client.HTTPSConnection("blog.test", 443,
                    context=ctx, timeout=5)
                c._create_connection = lambda a, *r, **k: \
                    socket.create_connection((ip, 443), *r, **k)
            c.request("GET", "/.well-known/release")
            v = c.getresponse().read().decode().strip()
        except Exception as e:
            v, c = "FAIL", None
        if v != last:
            out.write("%.6f %s\n" % (time.time(), v))
            out.flush()
            last = v
threads = [threading.Thread(target=poll, args=(i + 1, ip))
           for i, ip in enumerate(ips)]
for t in threads: t.start()
for t in threads: t.join()
EOF

edit() {	# edit K: one post changed, the site rebuilt; prints build ms
	post=$(ls corpus/ssg/posts | sed -n "$(( (POSTS / 7) * $1 + 1 ))p")
	echo "An added sentence, edited for push $1." >> "corpus/ssg/posts/$post"
	b0=$(now)
	SSG_DATADIR=$top "$SSG" build -C corpus/ssg -o "$work/out" -q || die "rebuild"
	ms "$b0" "$(now)"
}

echo
echo "one post edited, rebuilt, pushed to 3 hosts (h1 h2 h3):"
k=0
while [ $k -lt "$EDITS" ]; do
	k=$((k + 1))
	sleep 1
	bms=$(edit "$k")
	rm -f stop poll.*
	python3 poller.py "$work" $(for h in $hosts; do hostip "$h"; done) &
	poller=$!
	sleep 1
	t0=$(now)
	D push -c fleet.yaml --no-build --cacert cert.pem blog > push.out 2>&1 ||
	    { cat push.out; die "push $k"; }
	t1=$(now)
	sleep 0.5
	: > stop
	wait "$poller"
	rel=$(sed -n 's/^release //p' push.out)
	win=$(for f in poll.1 poll.2 poll.3; do grep " $rel\$" "$f" | head -1 | cut -d' ' -f1; done |
	    sort -n | awk 'NR == 1 { a = $1 } { b = $1; n++ } END {
	        if (n == 3) printf "%.1f", (b - a) * 1000; else print "?" }')
	fails=$(cat poll.1 poll.2 poll.3 | grep -c FAIL)
	echo "  push $k: $(ms "$t0" "$t1") ms (build $bms ms);" \
	    "$(grep -o 'switched 3 hosts within [0-9]* ms' push.out);" \
	    "readers' switch window $win ms; $fails failed answers;" \
	    "sent $(sed -n 's/^host h1: sent \([0-9]*\) bytes.*/\1/p' push.out) bytes to h1"
done

echo
echo "one post edited, rebuilt, pushed to 1 host (h1):"
while [ $k -lt $((EDITS * 2)) ]; do
	k=$((k + 1))
	sleep 1
	bms=$(edit "$k")
	t0=$(now)
	D push -c one.yaml --no-build --cacert cert.pem blog > push.out 2>&1 ||
	    { cat push.out; die "push $k"; }
	t1=$(now)
	echo "  push $k: $(ms "$t0" "$t1") ms (build $bms ms);" \
	    "sent $(sed -n 's/^sent \([0-9]*\) bytes.*/\1/p' push.out) bytes"
done
