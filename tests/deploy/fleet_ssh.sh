#!/bin/sh
# A fleet of three ssh hosts configured only as deploy.yaml(5) and the
# post "One site on several hosts" show it: the ports as the manual writes
# them (none given: 80 and 443 on every address of the host), one network
# for all, no --cacert. Each host is a network and mount namespace of its
# own with a real sshd (fleet_lib.sh), reached over ssh with its host key
# checked. Run once with each proxy kind: nginx (proxy.ca names the CA of
# its certificate files) and Caddy (tls internal: its own root, which
# deploy reads on each host through its agent). For each kind:
#   - a first push whose check fails on one host: every host back to
#     serving nothing, the release kept and listed as failed;
#   - pushes checked at each host's own address, as a reader would;
#   - a push that one host cannot stage (its sshd down, its disk full,
#     the key refused) switches nothing;
#   - a push put back, then `rollback` without an id: every host goes
#     back to what it served before the last good push, never to a
#     release that did not serve;
#   - a canary whose check fails (nginx): only it switched, and back;
#   - two pushes at once (nginx): the second waits for the first.
# Everything it makes is removed on exit, also after a failure.
#
# usage: tests/deploy/fleet_ssh.sh [path/to/deploy]
# TEST_PARTS="nginx caddy single shared" picks the proxy kinds, one
# remote host without a hosts: list, and two hosts sharing one machine
# (all by default).

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
DEPLOY=${1:-$top/bin/deploy}
case $DEPLOY in /*) ;; *) DEPLOY=$(pwd)/$DEPLOY ;; esac
. "$top/tests/deploy/checks.sh"

needs_root fleet_ssh "nginx caddy nftables iproute2 curl util-linux openssh-server openssh-client openssl"

. "$top/tests/deploy/lib.sh"
own_net "$0" "$@"
. "$top/tests/deploy/fleet_lib.sh"
fleet_start
for h in $hosts; do
	fleet_host "$h" || { bad "host $h: set up"; cat "$work/h$h/sshd.log"; finish; }
done
mkdir -p src

# manual_yaml KIND: deploy.yaml as the manual shows a fleet (ports left
# to their default); each host its own state and releases folders only
# because the three share this machine's disk.
manual_yaml() {
	cat <<CONF
name: fs$id
platform: linux-netns
network:
  bridge: fsb0
  subnet: 10.235.$oct.0/24
  proxy: 10.235.$oct.2
CONF
	if [ "$1" = nginx ]; then cat <<CONF
proxy:
  kind: nginx
  certificate: $work/cert.pem
  key: $work/key.pem
  ca: $work/cert.pem
CONF
	else cat <<CONF
proxy:
  kind: caddy
  tls: internal
CONF
	fi
	echo "hosts:"
	for h in $hosts; do cat <<CONF
  - name: h$h
    host: ssh://root@$(hostip "$h")
    agent: $DEPLOY
    state: $work/h$h/state-$1
    releases:
      root: $work/h$h/www-$1
CONF
	done
	cat <<CONF
sites:
  - name: blog
    domains: [blog.test]
    source: $work/src
CONF
}

D() {	# D COMMAND ARGS: deploy as a user runs it, with the fleet's keys
	"$DEPLOY" "$@" --known-hosts "$work/known_hosts" --identity "$work/client_key"
}
ca_of() {	# ca_of KIND H: the CA a reader trusts for host H
	if [ "$1" = nginx ]; then echo "$work/cert.pem"
	else echo "$work/h$2/state-caddy/proxy/data/pki/authorities/local/root.crt"; fi
}
serving() {	# serving KIND H: the release id host H serves, or its HTTP code
	curl -sS -m 5 --cacert "$(ca_of "$1" "$2")" -w '%{http_code}' -o "$work/body" \
	    --resolve "blog.test:443:$(hostip "$2")" https://blog.test/.well-known/release \
	    > "$work/code" 2>/dev/null
	if [ "$(cat "$work/code")" = 200 ]; then cat "$work/body"; else echo "HTTP$(cat "$work/code")"; fi
}
none_serve() {	# none_serve KIND: every host answers / with 404, and no release
	for h in $hosts; do
		c=$(curl -sS -m 5 --cacert "$(ca_of "$1" "$h")" -w '%{http_code}' -o /dev/null \
		    --resolve "blog.test:443:$(hostip "$h")" https://blog.test/ 2>/dev/null)
		[ "$c" = 404 ] && [ -z "$(serving "$1" "$h")" ] || return 1
	done
}
all_serve() {	# all_serve KIND ID: every host serves release ID
	[ -n "$2" ] || return 1
	for h in $hosts; do [ "$(serving "$1" "$h")" = "$2" ] || return 1; done
}
# h_down H / h_up H: host H's ports stop / start reaching its proxy
h_down() {
	ip netns exec "$(hostns "$1")" nft list ruleset > "$work/h$1.nft"
	ip netns exec "$(hostns "$1")" nft flush ruleset
}
h_up() { ip netns exec "$(hostns "$1")" nft -f "$work/h$1.nft"; }

scenario() {	# scenario KIND
	k=$1
	manual_yaml "$k" > "fleet-$k.yaml"
	F=fleet-$k.yaml
	# h2's releases on a file system of their own, small enough to fill
	mkdir -p "$work/h2/www-$k"
	[ "$k" = nginx ] && on_host 2 mount -t tmpfs -o size=48m tmpfs "$work/h2/www-$k"
	D apply -c "$F" > apply.out 2>&1 && grep -q "^apply on 3 hosts: 3 ok" apply.out &&
	    ok "$k: apply on three ssh hosts, ports as the manual writes them" ||
	    { bad "$k: apply"; cat apply.out; return; }

	# --- a first push whose check fails: back to serving nothing -------
	echo "<h1>first $k</h1>" > src/index.html
	h_down 2
	D push -c "$F" blog > push.out 2> push.err; rc=$?
	r0=$(sed -n 's/^release //p' push.out)
	if [ $rc -eq 1 ] &&
	    [ "$(grep -c "^host h[123]: health check failed: back to serving nothing, as before this first push" push.out)" -eq 3 ] &&
	    grep -q "^host h2: FAIL blog.test: https://blog.test/ ($(hostip 2) port 443): Couldn't connect" push.out &&
	    grep -q "host h2: site blog: https://blog.test/ ($(hostip 2) port 443): " push.err; then
		ok "$k: first push failing on h2: every host back to serving nothing; the message names host, URL and address"
	else
		bad "$k: failed first push (rc $rc)"; cat push.out push.err
	fi
	h_up 2
	none_serve "$k" && ok "$k: no host serves the failed first release: / answers 404" ||
	    bad "$k: a host serves something after the failed first push: $(serving "$k" 1) $(serving "$k" 2) $(serving "$k" 3)"
	D releases -c "$F" blog > rel.out 2>&1
	[ "$(grep -c "^host h[123]: $r0 .*failed (never served)" rel.out)" -eq 3 ] &&
	    ! grep -q current rel.out &&
	    ok "$k: releases lists it on every host, failed, none current" ||
	    { bad "$k: releases after the failed first push"; cat rel.out; }

	# --- pushes checked where the reader is ------------------------------
	sleep 1
	echo "<h1>one $k</h1>" > src/index.html
	D push -c "$F" blog > push.out 2>&1; rc=$?
	r1=$(sed -n 's/^release //p' push.out)
	if [ $rc -eq 0 ] && [ "$(grep -c "^host h[123]: ok   https://blog.test/ 200 release $r1" push.out)" -eq 3 ] &&
	    all_serve "$k" "$r1"; then
		ok "$k: push checked at each host's own address, no --cacert: every host serves $r1"
	else
		bad "$k: push (rc $rc)"; cat push.out
	fi
	sleep 1
	echo "<h1>two $k</h1>" > src/index.html
	D push -c "$F" blog > push.out 2>&1; rc=$?
	r2=$(sed -n 's/^release //p' push.out)
	[ $rc -eq 0 ] && all_serve "$k" "$r2" && ok "$k: second push: every host serves $r2" ||
	    { bad "$k: second push (rc $rc)"; cat push.out; }
	# a push that h3 cannot stage: nothing switched anywhere, but h1 and
	# h2 now hold a release that never served (a rollback must not pick it)
	kill "$(cat "$work/h3/sshd.pid")" 2>/dev/null
	sleep 1
	echo "<h1>unstaged $k</h1>" > src/index.html
	D push -c "$F" blog > push.out 2>&1; rc=$?
	start_sshd 3
	if [ $rc -eq 1 ] && grep -q "^nothing switched: 1 of 3 hosts could not stage" push.out &&
	    all_serve "$k" "$r2"; then
		ok "$k: h3 unreachable: nothing switched, every host still on $r2"
	else
		bad "$k: push with h3 down (rc $rc)"; cat push.out
	fi
	if [ "$k" = nginx ]; then
		# h2's releases on a small file system, filled: its stage fails
		on_host 2 dd if=/dev/zero of="$work/h2/www-$k/fill" bs=64k \
		    count=1000 2>/dev/null
		echo "<h1>full $k</h1>" > src/index.html
		D push -c "$F" blog > push.out 2>&1; rc=$?
		on_host 2 rm -f "$work/h2/www-$k/fill"
		if [ $rc -eq 1 ] && grep -q "^host h2: not staged" push.out &&
		    grep -q "host h2: .*No space left on device" push.out &&
		    grep -q "^nothing switched: 1 of 3 hosts could not stage" push.out &&
		    all_serve "$k" "$r2"; then
			ok "$k: h2's disk full during stage: nothing switched, the cause named, every host on $r2"
		else
			bad "$k: push with h2's disk full (rc $rc)"; cat push.out
		fi
		# h1 no longer takes the key
		mv "$work/h1/authorized_keys" "$work/h1/authorized_keys.off"
		echo "<h1>refused $k</h1>" > src/index.html
		D push -c "$F" blog > push.out 2>&1; rc=$?
		mv "$work/h1/authorized_keys.off" "$work/h1/authorized_keys"
		if [ $rc -eq 1 ] && grep -q "^host h1: not staged" push.out &&
		    grep -qi "host h1: .*refused\|host h1: .*denied" push.out &&
		    all_serve "$k" "$r2"; then
			ok "$k: h1 refuses the key: nothing switched, said so, every host on $r2"
		else
			bad "$k: push with h1's key refused (rc $rc)"; cat push.out
		fi
	fi
	D health -c "$F" blog > he.out 2>&1; rc=$?
	[ $rc -eq 0 ] && grep -q "^health on 3 hosts: 3 ok, 0 failed" he.out &&
	    ok "$k: health from here on every host, trusting what each proxy needs" ||
	    { bad "$k: health (rc $rc)"; cat he.out; }

	# --- a push put back, then rollback without an id ---------------------
	sleep 1
	echo "<h1>broken $k</h1>" > src/index.html
	h_down 3
	D push -c "$F" blog > push.out 2>&1; rc=$?
	h_up 3
	if [ $rc -eq 1 ] && [ "$(grep -c "^host h[123]: health check failed: back to $r2" push.out)" -eq 3 ] &&
	    all_serve "$k" "$r2"; then
		ok "$k: a push failing its check on h3: every host back on $r2"
	else
		bad "$k: put back (rc $rc)"; cat push.out
	fi
	if [ "$k" = nginx ]; then
		# --canary: that host alone first; when its check fails, no
		# other host switches and the canary is put back
		sleep 1
		echo "<h1>canary $k</h1>" > src/index.html
		h_down 2
		D push -c "$F" --canary h2 blog > push.out 2>&1; rc=$?
		h_up 2
		if [ $rc -eq 1 ] && grep -q "^host h2: canary failed: back to $r2" push.out &&
		    [ "$(grep -c "^host h[13]: canary failed: not switched, still on $r2" push.out)" -eq 2 ] &&
		    all_serve "$k" "$r2"; then
			ok "$k: --canary h2 failing its check: h2 put back, h1 and h3 never switched"
		else
			bad "$k: failed canary (rc $rc)"; cat push.out
		fi
	fi
	D rollback -c "$F" blog > rb.out 2>&1; rc=$?
	if [ $rc -eq 0 ] && all_serve "$k" "$r1"; then
		ok "$k: rollback without an id after the put-back: every host back to $r1"
	else
		bad "$k: rollback after a put-back (rc $rc)"; cat rb.out
	fi
	# before $r1 only the failed first push: nothing to go back to
	D rollback -c "$F" blog > rb.out 2>&1; rc=$?
	if [ $rc -eq 1 ] && grep -q "no release before the current one" rb.out &&
	    all_serve "$k" "$r1"; then
		ok "$k: rollback again refuses: the only older release never served"
	else
		bad "$k: second rollback (rc $rc)"; cat rb.out
	fi
}

if part nginx; then
	scenario nginx
	# --- two pushes at once: the second waits for the first -----------------
	sleep 1
	echo "<h1>three</h1>" > src/index.html
	DEPLOY_TEST_PAUSE="between-phases:$work/pause.pid" D push -c fleet-nginx.yaml blog \
	    > pa.out 2>&1 &
	bg=$!
	i=0
	while [ ! -s pause.pid ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
	echo "<h1>four</h1>" > src/index.html
	D push -c fleet-nginx.yaml blog > pb.out 2>&1 &
	bgb=$!
	i=0
	while ! grep -q "^waiting for" pb.out && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	if grep -q "^waiting for the push or rollback that holds .*blog.lock (process $(cat pause.pid))" pb.out &&
	    ! grep -q "^release " pb.out; then
		ok "a second push waits for the first, naming it"
	else
		bad "second push during the first"; cat pb.out
	fi
	kill -9 "$(cat pause.pid)" 2>/dev/null
	wait "$bg" 2>/dev/null
	wait "$bgb"; rc=$?
	r4=$(sed -n 's/^release //p' pb.out)
	[ $rc -eq 0 ] && all_serve nginx "$r4" &&
	    ok "the first killed between its phases, the second completes: every host on $r4" ||
	    { bad "second push after the first was killed (rc $rc)"; cat pb.out; }
	D destroy -f -c fleet-nginx.yaml > de.out 2>&1 || { bad "destroy (nginx)"; cat de.out; }
fi
if part caddy; then
	scenario caddy
	D destroy -f -c fleet-caddy.yaml > de.out 2>&1 || { bad "destroy (caddy)"; cat de.out; }
fi
# --- one remote host, as deploy.yaml(5) shows it: no hosts: list, ports
# left to their default, no --cacert ---------------------------------------
if part single; then
	cat > single.yaml <<CONF
name: si$id
host: ssh://root@$(hostip 1)
agent: $DEPLOY
platform: linux-netns
state: $work/h1/state-single
network:
  bridge: sib0
  subnet: 10.235.$oct.0/24
  proxy: 10.235.$oct.2
proxy:
  kind: nginx
  certificate: $work/cert.pem
  key: $work/key.pem
  ca: $work/cert.pem
releases:
  root: $work/h1/www-single
sites:
  - name: blog
    domains: [blog.test]
    source: $work/src
CONF
	sleep 1
	echo "<h1>single</h1>" > src/index.html
	D apply -c single.yaml > sa.out 2>&1 && D push -c single.yaml blog > sp.out 2>&1; rc=$?
	rs=$(sed -n 's/^release //p' sp.out)
	if [ $rc -eq 0 ] && grep -q "^ok   https://blog.test/ 200 release $rs" sp.out &&
	    [ "$(serving nginx 1)" = "$rs" ]; then
		ok "one remote host: push checked at its own address, it serves $rs"
	else
		bad "one remote host (rc $rc)"; cat sa.out sp.out
	fi
	D destroy -f -c single.yaml > sd.out 2>&1 || { bad "destroy of one remote host"; cat sd.out; }
fi

# --- two hosts of a fleet on one machine -----------------------------------
# Both are this machine (host: local), each with its own network, ports,
# state and releases: what apply makes is named after the host too. An
# old namespace and table, as a fleet host had them before (NAME-JAIL,
# deploy_NAME), are removed by apply.
if part shared; then
	p1=$((20000 + $$ % 20000)); p2=$((p1 + 1))
	{
		cat <<CONF
name: sh$id
platform: linux-netns
proxy:
  kind: nginx
  certificate: $work/cert.pem
  key: $work/key.pem
  ca: $work/cert.pem
hosts:
CONF
		# host a: 10.236.OCT.0/26, port p1; host b: .64/26, port p2
		for x in a:0:$p1 b:64:$p2; do
			h=${x%%:*} rest=${x#*:}; base=${rest%%:*} port=${rest#*:}
			cat <<CONF
  - name: $h
    host: local
    state: $work/s$h/state
    releases:
      root: $work/s$h/www
    network:
      bridge: sh$h$id
      subnet: 10.236.$oct.$base/26
      proxy: 10.236.$oct.$((base + 2))
      ports:
        - 127.0.0.1:$port -> 443
CONF
		done
		cat <<CONF
sites:
  - name: blog
    domains: [blog.test]
    source: $work/src
CONF
	} > shared.yaml
	ip netns add "sh$id-blog"
	nft add table ip "deploy_sh$id"
	"$DEPLOY" apply -c shared.yaml > sa.out 2>&1; rc=$?
	if [ $rc -eq 0 ] && ip netns list | grep -q "^sh$id-a-proxy" &&
	    ip netns list | grep -q "^sh$id-b-proxy" && ip netns list | grep -q "^sh$id-a-blog" &&
	    ip netns list | grep -q "^sh$id-b-blog" && ! ip netns list | grep -q "^sh$id-blog" &&
	    nft list table ip "deploy_sh${id}_a" >/dev/null 2>&1 &&
	    nft list table ip "deploy_sh${id}_b" >/dev/null 2>&1 &&
	    ! nft list table ip "deploy_sh$id" >/dev/null 2>&1; then
		ok "two hosts on one machine: namespaces and tables named after each host; the old ones removed"
	else
		bad "apply of two hosts on one machine (rc $rc)"; cat sa.out; ip netns list | grep "sh$id"
	fi
	echo "<h1>shared</h1>" > src/index.html
	"$DEPLOY" push -c shared.yaml blog > sp.out 2>&1; rc=$?
	rs=$(sed -n 's/^release //p' sp.out)
	n=0
	for p in $p1 $p2; do
		[ "$(curl -sS -m 5 --cacert "$work/cert.pem" --resolve "blog.test:$p:127.0.0.1" \
		    "https://blog.test:$p/.well-known/release" 2>/dev/null)" = "$rs" ] && n=$((n + 1))
	done
	[ $rc -eq 0 ] && [ -n "$rs" ] && [ $n -eq 2 ] && ok "both serve the push, each through its own proxy" ||
	    { bad "push to two hosts on one machine (rc $rc, $n serve)"; cat sp.out; }
	"$DEPLOY" destroy -f -c shared.yaml > sd.out 2>&1; rc=$?
	[ $rc -eq 0 ] && ! ip netns list | grep -q "^sh$id-" && ! nft list tables | grep -q "deploy_sh$id" &&
	    ok "destroy leaves neither host's namespaces nor tables" ||
	    { bad "destroy of two hosts on one machine (rc $rc)"; cat sd.out; ip netns list; }
fi
n=0
for h in $hosts; do [ -z "$(on_host "$h" ip netns list)" ] && n=$((n + 1)); done
[ $n -eq 3 ] && ok "destroy -f: no jail left on any host" || bad "jails left after destroy"
finish
