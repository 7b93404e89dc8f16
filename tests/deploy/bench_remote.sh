#!/bin/sh
# deploy bench --from: the load made on other machines over ssh, old
# beside new, the cause named. Everything runs on this machine:
#   - the site is applied and pushed here (linux-netns, nginx proxy),
#     reached from the clients at 127.0.0.1 through the relays below;
#   - three clients (c1, c2, c3) are network and mount namespaces of
#     their own, each with a real sshd (fleet_lib.sh) and wrk;
#   - the "old server" is a fourth such namespace running stock nginx
#     as on a one-CPU server (worker_processes auto gives one worker;
#     listen 80, so a backlog of 511 that its namespace's
#     net.core.somaxconn of 128 caps at 128; worker_connections 768),
#     serving the same files, its nginx.conf and its log where Debian's
#     are (/etc/nginx/nginx.conf and /var/log/nginx, the test's own
#     mounted there in its namespace), its sshd there for --against-ssh;
#   - the distance to each client's region: no netem in this kernel, so
#     a relay of the test's own (delay_relay.py) listens on this side of
#     each client's link and holds every new connection 20, 80 or 150 ms
#     (and its first bytes each way half that again) before it reaches
#     the site or the old server; each client's /etc/hosts points
#     blog.test and old.test at its relay.
# Checks, at 1,000 connections (10 and 1,000, 5 s a run, 2 rounds):
# the old server's failures in its success rate and their cause named
# (its nginx has room for 768 connections and closes kept-alive ones to
# take more, which wrk counts as read errors; and its listen queue of
# 128 whenever it overflowed: the burst does not overflow it every run);
# the site at >= 99%; each client's phases showing its delay; a client
# without wrk told what to install; a client killed mid-run reported
# and the others' runs kept; the JSON and the HTML report written.
#
# usage: tests/deploy/bench_remote.sh [path/to/deploy]
# For a longer run (make bench: tests/bench/remote.sh), BENCH_REMOTE_OUT=DIR
# makes only the run of old beside new and keeps its table, JSON and
# report in DIR; BENCH_REMOTE_CLIENTS (3, or 4 with a client at 250 ms),
# BENCH_REMOTE_LADDER (10,1000; must hold 10 and 1000),
# BENCH_REMOTE_DURATION (5) and BENCH_REMOTE_ROUNDS (2) shape it.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
DEPLOY=${1:-$top/bin/deploy}
case $DEPLOY in /*) ;; *) DEPLOY=$(pwd)/$DEPLOY ;; esac
. "$top/tests/deploy/checks.sh"

needs_root bench_remote "nginx nftables iproute2 curl wrk util-linux openssh-server openssh-client openssl python3 procps"

. "$top/tests/deploy/lib.sh"
own_net "$0" "$@"
. "$top/tests/deploy/fleet_lib.sh"
nc=${BENCH_REMOTE_CLIENTS:-3}
ladder=${BENCH_REMOTE_LADDER:-10,1000}
clients=$(seq 1 "$nc" | tr '\n' ' ')
ohost=$((nc + 1))
fleet_names "$clients $ohost"
# 10,000 connections: as many open files as this machine allows
ulimit -n "$(ulimit -Hn)" 2>/dev/null
relay_pid=
cleanup() {
	# shellcheck disable=SC2086
	[ -n "$relay_pid" ] && kill $relay_pid 2>/dev/null
	[ -s "$work/old/nginx.pid" ] && kill "$(cat "$work/old/nginx.pid")" 2>/dev/null
	[ -f "$work/site.yaml" ] && "$DEPLOY" destroy -f -c "$work/site.yaml" >/dev/null 2>&1
	fleet_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
fleet_keys
for h in $hosts; do
	fleet_host "$h" || { bad "host $h: set up"; cat "$work/h$h/sshd.log"; finish; }
done
hub() { echo "10.233.$((oct + $1 - 1)).1"; }	# this side of client H's link
oldip=$(hostip "$ohost")
delay_of() { case $1 in 1) echo 20 ;; 2) echo 80 ;; 3) echo 150 ;; *) echo 250 ;; esac; }
D() { "$DEPLOY" "$@" --known-hosts "$work/known_hosts" --identity "$work/client_key"; }

# --- the site, applied and pushed here -----------------------------------
mkdir -p src/posts
for i in 1 2 3 4 5; do
	echo "<!DOCTYPE html><title>post $i</title><p>post $i</p>" > "src/posts/p$i.html"
done
echo "<!DOCTYPE html><title>home</title><p>home</p>" > src/index.html
cat > site.yaml <<CONF
name: br$id
platform: linux-netns
state: $work/state
network:
  bridge: brb$id
  subnet: 10.236.$oct.0/24
  proxy: 10.236.$oct.2
  ports:
    - 127.0.0.1:80 -> 80
    - 127.0.0.1:443 -> 443
proxy:
  kind: nginx
  certificate: $work/cert.pem
  key: $work/key.pem
  ca: $work/cert.pem
releases:
  root: $work/www
sites:
  - name: blog
    domains: [blog.test]
    source: $work/src
CONF
"$DEPLOY" apply -c site.yaml > apply.out 2>&1 &&
    "$DEPLOY" push --no-build -c site.yaml blog > push.out 2>&1 &&
    ok "the site applied and pushed" || { bad "apply and push"; cat apply.out push.out; finish; }
[ "$(ip netns exec "br$id-proxy" cat /proc/sys/net/core/somaxconn)" = 4096 ] &&
    grep -rq "listen 443 ssl http2 default_server backlog=4096" "$work/state" &&
    ok "apply set somaxconn 4096 in the proxy's namespace and the proxy's listen backlog" ||
    bad "apply: somaxconn $(ip netns exec "br$id-proxy" cat /proc/sys/net/core/somaxconn), backlog not set"

# --- the old server: stock nginx, somaxconn 128 --------------------------
mkdir -p old/tmp old/log
on_host "$ohost" mkdir -p /var/log/nginx
on_host "$ohost" mount --bind "$work/old/log" /var/log/nginx
cat > old/nginx.conf <<CONF
user root;
worker_processes 1;
pid $work/old/nginx.pid;
error_log /var/log/nginx/error.log;
events {
	worker_connections 768;
}
http {
	sendfile on;
	tcp_nopush on;
	include /etc/nginx/mime.types;
	access_log off;
	client_body_temp_path $work/old/tmp;
	proxy_temp_path $work/old/tmp;
	fastcgi_temp_path $work/old/tmp;
	uwsgi_temp_path $work/old/tmp;
	scgi_temp_path $work/old/tmp;
	server {
		listen 80 default_server;
		root $work/www/blog/current;
		index index.html;
		location / {
			try_files \$uri \$uri/ =404;
		}
	}
}
CONF
on_host "$ohost" sysctl -qw net.core.somaxconn=128
on_host "$ohost" mount --bind "$work/old/nginx.conf" /etc/nginx/nginx.conf
on_host "$ohost" nginx -e /var/log/nginx/error.log
i=0
while [ ! -s old/nginx.pid ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(on_host "$ohost" ss -ltnH 'sport = :80' | awk '{print $3}')" = 128 ] &&
    ok "old server: stock nginx listening with a backlog of 128" ||
    { bad "old server: $(on_host "$ohost" ss -ltn)"; cat old/log/error.log; }

# --- the clients: their relays here, their names there -------------------
# one relay per client: each holds two sockets per connection, and a
# process has 20,000 at most here
relay_pid=
for h in $clients; do
	printf '127.0.0.1 localhost\n%s blog.test old.test\n' "$(hub "$h")" > "h$h/hosts"
	on_host "$h" mount --bind "$work/h$h/hosts" /etc/hosts
	: > "relay$h.log"
	python3 "$top/tests/deploy/delay_relay.py" "$(hub "$h"):443=127.0.0.1:443@$(delay_of "$h")" \
	    "$(hub "$h"):80=$oldip:80@$(delay_of "$h")" > "relay$h.log" 2>&1 &
	relay_pid="$relay_pid $!"
done
for h in $clients; do
	i=0
	while ! grep -q "relay listening" "relay$h.log" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
done
c=$(on_host 1 curl -sk -o /dev/null -w '%{http_code}' -m 5 https://blog.test/posts/p1.html)
c2=$(on_host 3 curl -s -o /dev/null -w '%{http_code}' -m 5 http://old.test/posts/p1.html)
[ "$c" = 200 ] && [ "$c2" = 200 ] && ok "clients reach the site and the old server through their relays" ||
    { bad "relays: site $c, old $c2"; cat relay*.log; }
from=
for h in $clients; do from="$from --from c$h=ssh://root@$(hostip "$h")"; done

# --- a client without wrk --------------------------------------------------
if [ -z "${BENCH_REMOTE_OUT:-}" ]; then
on_host 2 mount --bind /dev/null "$(command -v wrk)"
# shellcheck disable=SC2086
D bench -c site.yaml blog $from --connections 10 --duration 1 --rounds 1 > nowrk.out 2>&1; rc=$?
on_host 2 umount "$(command -v wrk)"
if [ $rc -ne 0 ] && grep -q "client c2 (ssh://root@$(hostip 2)) has no wrk: install it there (Debian: apt install wrk; FreeBSD: pkg install wrk)" nowrk.out &&
    ! grep -q "client c[13].*has no" nowrk.out && ! grep -q "^ *10 new" nowrk.out; then
	ok "a client without wrk: named, what to install said, no load made"
else
	bad "client without wrk (rc $rc)"; cat nowrk.out
fi
fi

# --- old beside new, 10 and 1,000 connections ----------------------------
# shellcheck disable=SC2086
D bench -c site.yaml blog $from --against http://old.test/ \
    --against-ssh "ssh://root@$oldip" --connections "$ladder" \
    --duration "${BENCH_REMOTE_DURATION:-5}" --rounds "${BENCH_REMOTE_ROUNDS:-2}" \
    --out "$work/run" > run.out 2> run.err; rc=$?
cat run.out
if [ -n "${BENCH_REMOTE_OUT:-}" ]; then
	mkdir -p "$BENCH_REMOTE_OUT" && cp run.out run.json run.html "$BENCH_REMOTE_OUT/" &&
	    echo "kept: $BENCH_REMOTE_OUT/run.html"
fi
# success of "all" at a step for a server: the 5th column without %
succ() { awk -v c="$1" -v s="$2" '$1 == c && $2 == s && $3 == "all" { sub("%", "", $5); print $5 }' run.out; }
okps() { awk -v c="$1" -v s="$2" '$1 == c && $2 == s && $3 == "all" { print $4 }' run.out; }
new1k=$(succ 1000 new) old1k=$(succ 1000 old) newok=$(okps 1000 new)
[ $rc -eq 0 ] && [ -n "$new1k" ] && awk -v v="$new1k" -v n="$newok" 'BEGIN { exit !(v >= 99 && n >= 50) }' &&
    ok "the freshly applied site at 1,000 connections: $new1k% successful, $newok answers/s" ||
    { bad "the site at 1,000 connections: '$new1k'% (rc $rc)"; cat run.err; }
[ -n "$old1k" ] && awk -v v="$old1k" 'BEGIN { exit !(v < 99) }' &&
    ok "the old server's failures appear in its success rate: $old1k%" ||
    bad "the old server at 1,000 connections: '$old1k'%"
# the cause as the old server shows it: what its log and its listen queue say
cause=$(sed -n 's/^  1000 old: //p' run.out)
ov=$(python3 -c "import json; print([s for s in json.load(open('run.json'))['steps'] if s['connections'] == 1000][0]['old']['listen_overflows'])")
wc=$(python3 -c "import json; print([s for s in json.load(open('run.json'))['steps'] if s['connections'] == 1000][0]['old']['worker_connections_short'])")
echo "$cause" | grep -q "nginx of the old server has room for 768 connections (worker_processes 1 x worker_connections 768) and was sent 1,000: it closes kept-alive ones to make room; set worker_connections 16384" &&
    { [ "${ov:-0}" -eq 0 ] || echo "$cause" | grep -Eq "listen queue of the old server overflowed [0-9,]+ times: its backlog is 128 \(net.core.somaxconn is 128\); set net.core.somaxconn=4096"; } &&
    ok "the old server's cause named: $cause" ||
    { bad "cause for the old server: '$cause' (overflows $ov, out of connections $wc)"
      grep -v "\[notice\]" old/log/error.log | tail -5
      on_host "$ohost" awk '/^TcpExt/ { if (!n) { for (i = 1; i <= NF; i++) k[i] = $i; n = 1 }
          else for (i = 1; i <= NF; i++) if (k[i] ~ /^Listen/) print k[i], $i }' /proc/net/netstat; }
! grep -q "^  1000 new: listen queue" run.out &&
    ok "no listen queue overflow named for the site" || bad "an overflow named for the site"
# each client's TLS phase against the site (column 16) at 10 connections
# shows its region's delay: more than the delay, c1 < c2 < c3
tls() { awk -v h="$1" '$1 == 10 && $2 == "new" && $3 == h { print $16 }' run.out; }
t1=$(tls c1) t2=$(tls c2) t3=$(tls c3)
awk -v a="$t1" -v b="$t2" -v c="$t3" 'BEGIN { exit !(a >= 20 && b >= 80 && c >= 150 && a < b && b < c) }' &&
    ok "per-phase times show each client's delay (TLS: c1 $t1, c2 $t2, c3 $t3 ms)" ||
    bad "phases: TLS c1 '$t1' c2 '$t2' c3 '$t3' ms"
grep -Eq "^ +1000 new/old: [0-9.]+x the successful answers per second \(rounds: [0-9.]+ to [0-9.]+\)" run.out &&
    ok "new beside old: the ratio and its spread" || bad "no new/old ratio"
[ -s run.json ] && python3 -c "
import json, sys
j = json.load(open('run.json'))
s = [x for x in j['steps'] if x['connections'] == 1000][0]
assert s['old']['cause']
assert s['new']['success'] >= 0.99 and s['old']['success'] < 0.99
assert 'room for 768' in s['old']['cause']
assert len(s['new']['clients']) == $nc
assert s['new']['clients']['c3']['phases_ms']['tls'] >= 150
" && ok "the JSON: success, overflows, cause, per client phases" || bad "the JSON"
[ -s run.html ] && grep -q "<svg" run.html && grep -q "stroke-dasharray" run.html &&
    grep -q "the old server" run.html && ok "the HTML report: charts and the cause" || bad "the HTML report"

# --- a client that goes away mid-run ---------------------------------------
[ -n "${BENCH_REMOTE_OUT:-}" ] && finish
# shellcheck disable=SC2086
D bench -c site.yaml blog $from --connections 30 --duration 4 --rounds 1 \
    --out "$work/gone" > gone.out 2>&1 &
bg=$!
sleep 3
for pid in $(ip netns pids "$(hostns 3)"); do
	[ "$pid" = "$(cat "$work/h3/holder.pid")" ] || kill -9 "$pid" 2>/dev/null
done
wait "$bg"; rc=$?
if [ $rc -eq 1 ] && grep -q "client c3 (ssh://root@$(hostip 3)) went away during new, 30 connections, round 1 of 1" gone.out &&
    grep -Eq "^ +30 new +c1 +[0-9]+ +100.0%" gone.out && grep -Eq "^ +30 new +c2 +[0-9]+ +100.0%" gone.out &&
    grep -Eq "^ +30 new +c3 .*client went away" gone.out; then
	ok "a client killed mid-run: reported, the others' runs kept"
else
	bad "client killed mid-run (rc $rc)"; cat gone.out
fi
finish
