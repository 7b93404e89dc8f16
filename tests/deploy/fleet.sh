#!/bin/sh
# A fleet of three hosts on this machine, as root: each host is a network
# namespace and a mount namespace of its own (its own /run/netns, so its
# jails are named as on any other host) with a real sshd, its own jails,
# state and releases. deploy reaches them over SSH with the hosts' keys
# checked: it applies deploy.yaml on all three through their agents, and
# pushes one site to all three: staged everywhere before any switch,
# switched together, put back together. Every namespace, process and file
# it makes carries a unique name and is removed on exit, also after a
# failure. The hosts are made by fleet_lib.sh.
#
# usage: tests/deploy/fleet.sh [path/to/deploy]
# TEST_PARTS="apply drift ..." runs only those parts (each "if part NAME")
# besides the hosts, one apply, the first push and destroy, which always
# run. make mutate names the part that catches a fault, so that a fault
# does not pay for the whole scenario.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
DEPLOY=${1:-$top/bin/deploy}
case $DEPLOY in /*) ;; *) DEPLOY=$(pwd)/$DEPLOY ;; esac
. "$top/tests/deploy/checks.sh"

needs_root fleet "nginx nftables iproute2 curl util-linux openssh-server openssh-client openssl"

. "$top/tests/deploy/lib.sh"
own_net "$0" "$@"
. "$top/tests/deploy/fleet_lib.sh"
fleet_start

# --- three hosts: namespaces, address, sshd ----------------------------
mkdir -p src
for h in $hosts; do
	if fleet_host "$h"; then
		ok "host $h: own namespaces, sshd listening"
	else
		bad "host $h: set up"; cat "$work/h$h/sshd.log"
		finish
	fi
done
fleet_yaml "$work/src" > fleet.yaml
sed -e '/^  - name: h1$/,/^        - .*443$/d' -e '/^  - name: h3$/,/^        - .*443$/d' \
    fleet.yaml > only2.yaml
D() {	# D COMMAND ARGS: deploy with the fleet's keys (and CA where taken)
	c=$1; shift
	case $c in push|rollback|health) set -- "$@" --cacert "$work/cert.pem" ;; esac
	case $c in
	health) "$DEPLOY" "$c" "$@" ;;	# from here, as a visitor: no ssh
	*) "$DEPLOY" "$c" "$@" --known-hosts "$work/known_hosts" \
	    --identity "$work/client_key" ;;
	esac
}

serving() {	# serving H: the release id host H serves for blog.test
	curl -sS -m 5 --cacert "$work/cert.pem" \
	    --resolve "blog.test:443:$(hostip "$1")" https://blog.test/.well-known/release 2>/dev/null
}
all_serve() {	# all_serve ID: every host serves ID
	[ -n "$1" ] || return 1
	for h in $hosts; do [ "$(serving "$h")" = "$1" ] || return 1; done
}

# section H FILE: the lines under host H's heading in FILE
section() {
	awk -v h="=== host $1 " 'index($0, "=== host ") == 1 { on = index($0, h) == 1; next }
	    /^[a-z]+ on [0-9]+ hosts:/ { on = 0 } on' "$2"
}

# --- apply on all three, through each host's agent ---------------------
if part apply; then
	# h2's state folder is taken by a file: its apply fails, the others' not.
	: > "$work/h2/state"
	D apply -c fleet.yaml > apply.out 2> apply.err; rc=$?
	if [ $rc -eq 1 ] && section h1 apply.out | grep -q "^done:" &&
	    section h3 apply.out | grep -q "^done:" &&
	    ! section h2 apply.out | grep -q "^done:" &&
	    section h2 apply.out | grep -q "h2/state" &&
	    grep -q "^apply on 3 hosts: 2 ok, 1 failed (h2)" apply.out &&
	    grep -q "host h2: apply failed" apply.err; then
		ok "apply on three hosts over ssh: h1 and h3 done, h2's failure reported for h2, exit 1"
	else
		bad "apply with h2 failing (rc $rc)"; cat apply.out apply.err
	fi
	rm -f "$work/h2/state"
	D apply -c fleet.yaml > apply.out 2>&1; rc=$?
	if [ $rc -eq 0 ] && section h2 apply.out | grep -q "^done:" &&
	    section h1 apply.out | grep -q "^nothing to do" &&
	    section h3 apply.out | grep -q "^nothing to do" &&
	    grep -q "^apply on 3 hosts: 3 ok" apply.out; then
		ok "apply again: h2 completed, h1 and h3 nothing to do"
	else
		bad "second apply (rc $rc)"; cat apply.out
	fi
else
	D apply -c fleet.yaml > apply.out 2>&1 && grep -q "^apply on 3 hosts: 3 ok" apply.out &&
	    ok "apply on three hosts over ssh" || { bad "apply"; cat apply.out; }
fi
n=0
for h in $hosts; do
	[ "$(on_host "$h" ip netns list | grep -c "^fl$id-")" -eq 2 ] && n=$((n + 1))
done
[ $n -eq 3 ] && ok "each host runs its own proxy and site jail, named alike" ||
    { bad "jails on the hosts"; for h in $hosts; do on_host "$h" ip netns list; done; }
if part apply; then
	D plan -c fleet.yaml > plan.out 2>&1; rc=$?
	if [ $rc -eq 0 ] && [ "$(grep -c "^=== host h[123] (ssh://root@" plan.out)" -eq 3 ] &&
	    [ "$(grep -c "^nothing to do" plan.out)" -eq 3 ]; then
		ok "plan: a heading per host, nothing to do on each"
	else
		bad "plan after apply (rc $rc)"; cat plan.out
	fi

	# destroy asks first, and a no changes nothing
	echo n | D destroy -c fleet.yaml > de.out 2>&1; rc=$?
	n=0
	for h in $hosts; do
		[ "$(on_host "$h" ip netns list | grep -c "^fl$id-")" -eq 2 ] && n=$((n + 1))
	done
	if [ $rc -eq 1 ] && [ "$(grep -c "^=== host h[123] (" de.out)" -eq 3 ] &&
	    [ "$(grep -c "destroy-jail" de.out)" -ge 6 ] && grep -q "nothing changed$" de.out &&
	    [ $n -eq 3 ]; then
		ok "destroy shows every host's plan, asks once; no: nothing changed"
	else
		bad "destroy answered no (rc $rc, jails on $n hosts)"; cat de.out
	fi
fi

# --- push to all three -------------------------------------------------
echo "<h1>one</h1>" > src/index.html
D push -c fleet.yaml blog > push.out 2>&1; rc=$?
r1=$(sed -n 's/^release //p' push.out)
if [ $rc -eq 0 ] && grep -q "^staged on 3 hosts" push.out &&
    grep -q "^switched 3 hosts within [0-9]* ms" push.out; then
	ok "push to three hosts: staged on all, then $(grep -o 'switched 3 hosts within [0-9]* ms' push.out)"
else
	bad "push to three hosts (rc $rc)"; cat push.out
fi
all_serve "$r1" && ok "every host serves $r1 over HTTPS" || bad "not every host serves $r1"
cur=$r1		# what every host serves, as each part leaves it
D releases -c fleet.yaml blog > rel.out 2>&1 && ok "releases: no drift" ||
    { bad "releases on a fresh fleet"; cat rel.out; }
[ "$(grep -c "^host h[123]: $r1 .* current" rel.out)" -eq 3 ] &&
    ok "releases lists each host's current release" || { bad "releases output"; cat rel.out; }

# --- each host's own status, health and logs, under its name ------------
if part views; then
	D status -c fleet.yaml > st.out 2>&1; rc=$?
	n=0
	for h in $hosts; do
		section "h$h" st.out | grep -q "^network flb$h: up; firewall: up" &&
		    section "h$h" st.out | grep -q "current $r1 (switched" &&
		    section "h$h" st.out | grep -q "ok   https://blog.test/ 200 release $r1" &&
		    n=$((n + 1))
	done
	if [ $rc -eq 0 ] && [ $n -eq 3 ] &&
	    [ "$(grep -c "^blog .*host h[123]: current $r1" st.out)" -eq 3 ]; then
		ok "status: each host's jails and release observed on the host, under its name"
	else
		bad "status per host (rc $rc, $n hosts)"; cat st.out
	fi
	D health -c fleet.yaml > he.out 2>&1; rc=$?
	n=0
	for h in $hosts; do
		section "h$h" he.out | grep -q "^ok   https://blog.test/ 200 release $r1" && n=$((n + 1))
	done
	[ $rc -eq 0 ] && [ $n -eq 3 ] && grep -q "^health on 3 hosts: 3 ok, 0 failed" he.out &&
	    ok "health: every host checked through its own proxy, under its name" ||
	    { bad "health per host (rc $rc)"; cat he.out; }
	# nginx writes its access log at least every 5 s (flush=5s).
	tries=0
	while :; do
		D logs -c fleet.yaml blog > logs.out 2>&1; rc=$?
		n=0
		for h in $hosts; do
			section "h$h" logs.out | grep -q "^==> $work/h$h/" &&
			    section "h$h" logs.out | grep -q "GET /.well-known/release" && n=$((n + 1))
		done
		tries=$((tries + 1))
		[ $n -lt 3 ] && [ $tries -lt 8 ] || break
		sleep 1
	done
	[ $rc -eq 0 ] && [ $n -eq 3 ] && ok "logs: each host's own access log, under its name" ||
	    { bad "logs per host (rc $rc)"; cat logs.out; }
fi

# --- a failed health check on one host puts all three back ---------------
# (h1's port forwarding to its proxy goes away, and comes back after). It
# runs early: the faults it catches then cost make mutate seconds, not the
# whole scenario.
if part failed-health; then
	ip netns exec "$(hostns 1)" nft list ruleset > h1.nft
	ip netns exec "$(hostns 1)" nft flush ruleset
	sleep 1
	echo "<h1>broken</h1>" > src/index.html
	D push -c fleet.yaml blog > push.out 2>&1; rc=$?
	if [ $rc -eq 1 ] && [ "$(grep -c "^host h[123]: health check failed: back to $r1" push.out)" -eq 3 ]; then
		ok "health check failed on h1: every host put back, exit 1"
	else
		bad "failed health check on one host (rc $rc)"; cat push.out
	fi
	[ -n "$r1" ] && [ "$(serving 2)" = "$r1" ] && [ "$(serving 3)" = "$r1" ] &&
	    ok "h2 and h3 serve $r1 again" || bad "h2/h3 not back on $r1"
	D health -c fleet.yaml blog > he.out 2> he.err; rc=$?
	if [ $rc -eq 1 ] && section h1 he.out | grep -q "^FAIL" &&
	    section h2 he.out | grep -q "^ok   https://blog.test/ 200 release $r1" &&
	    section h3 he.out | grep -q "^ok   https://blog.test/ 200 release $r1" &&
	    grep -q "^health on 3 hosts: 2 ok, 1 failed" he.out && grep -q "host h1: " he.err; then
		ok "health: h1's failure reported for h1, h2 and h3 ok, exit 1"
	else
		bad "health with h1 unreachable (rc $rc)"; cat he.out he.err
	fi
	ip netns exec "$(hostns 1)" nft -f h1.nft
	all_serve "$r1" && ok "h1's forwarding back: every host serves $r1" ||
	    bad "h1 does not serve $r1 once its forwarding is back"

fi

# --- drift: one host rolled back alone ---------------------------------
if part drift; then
	sleep 1
	echo "<h1>two</h1>" > src/index.html
	D push -c fleet.yaml blog > push.out 2>&1
	r2=$(sed -n 's/^release //p' push.out)
	all_serve "$r2" && ok "second push: every host serves $r2" || { bad "second push"; cat push.out; }
	D rollback -c only2.yaml blog > rb.out 2>&1 && [ "$(serving 2)" = "$r1" ] &&
	    ok "one host rolled back alone" || { bad "rollback of host 2"; cat rb.out; }
	D releases -c fleet.yaml blog > rel.out 2>&1; rc=$?
	if [ $rc -eq 1 ] && grep -q "drift: site blog is at $r2 on h1 but at $r1 on h2" rel.out; then
		ok "drift reported, exit 1"
	else
		bad "drift (rc $rc)"; cat rel.out
	fi
	D status -c fleet.yaml blog > st.out 2>&1; rc=$?
	if [ $rc -eq 1 ] && grep -q "host h2: current $r1" st.out &&
	    grep -q "host h1: current $r2" st.out && grep -q "drift" st.out; then
		ok "status shows each host's release and flags the drift, exit 1"
	else
		bad "status on a drifted fleet (rc $rc)"; cat st.out
	fi
	D rollback -c fleet.yaml blog > rb.out 2>&1; rc=$?
	if [ $rc -ne 0 ] && grep -q "host h2: no release before the current one" rb.out &&
	    [ "$(serving 1)" = "$r2" ] && [ "$(serving 2)" = "$r1" ]; then
		ok "rollback without an id refuses when the hosts disagree, nothing changed"
	else
		bad "rollback of a drifted fleet (rc $rc)"; cat rb.out
	fi
	D rollback -c fleet.yaml blog "$r2" > rb.out 2>&1 && all_serve "$r2" &&
	    ok "rollback to a named release brings every host to it" || { bad "rollback to $r2"; cat rb.out; }
	D status -c fleet.yaml > st.out 2>&1 && [ "$(grep -c "^blog .*host h[123]: current $r2" st.out)" -eq 3 ] &&
	    ok "status: all three on $r2, exit 0" || { bad "status after rollback"; cat st.out; }
	cur=$r2
fi

# --- a host down: nothing switches anywhere -----------------------------
if part down; then
	kill "$(cat "$work/h3/sshd.pid")" 2>/dev/null
	sleep 1
	echo "<h1>three</h1>" > src/index.html
	D push -c fleet.yaml blog > push.out 2>&1; rc=$?
	r3=$(sed -n 's/^release //p' push.out)
	if [ $rc -eq 1 ] && grep -q "^host h3: not staged" push.out &&
	    grep -q "^nothing switched: 1 of 3 hosts could not stage" push.out; then
		ok "push with one host unreachable: nothing switched, exit 1, host named"
	else
		bad "push with h3 down (rc $rc)"; cat push.out
	fi
	all_serve "$cur" && ok "every host still serves $cur" || bad "a host switched while h3 was down"
	start_sshd 3
	D push -c fleet.yaml blog > push.out 2>&1
	r3=$(sed -n 's/^release //p' push.out)
	all_serve "$r3" &&
	    ok "host back: the next push brings all three to $r3" || { bad "catch-up push"; cat push.out; }
	curl -sS -m 5 --cacert "$work/cert.pem" --resolve "blog.test:443:$(hostip 3)" \
	    https://blog.test/ 2>/dev/null | grep -q "<h1>three</h1>" &&
	    ok "h3, down for a push, caught up: it serves the new page" || bad "h3 does not serve the new page"
	cur=$r3
fi

# --- deploy killed between the phases -----------------------------------
if part kill; then
	sleep 1
	echo "<h1>four</h1>" > src/index.html
	DEPLOY_TEST_PAUSE="between-phases:$work/pause.pid" D push -c fleet.yaml blog \
	    > push.out 2>&1 &
	bg=$!
	i=0
	while [ ! -s pause.pid ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
	if [ -s pause.pid ]; then
		kill -9 "$(cat pause.pid)" 2>/dev/null
		wait "$bg" 2>/dev/null
		all_serve "$cur" && ok "kill -9 between the phases: every host still on $cur" ||
		    bad "a host switched before the kill"
		D push -c fleet.yaml blog > push.out 2>&1; r4=$(sed -n 's/^release //p' push.out)
		all_serve "$r4" && ok "the next push completes on all three" || { bad "push after kill"; cat push.out; }
	else
		wait "$bg"; bad "push never reached the pause between phases"; cat push.out
	fi
fi

# --- load through all three proxies during a push ------------------------
if part load; then
	load() {	# load H: requests until stop exists; one line per answer
		while [ ! -e "$work/stop" ]; do
			serving "$1" > "$work/one.$1" 2>/dev/null || echo FAIL > "$work/one.$1"
			v=$(cat "$work/one.$1"); [ -n "$v" ] || v=FAIL
			echo "$v" >> "$work/load.$1"
			[ -e "$work/switched" ] && echo "after $v" >> "$work/load.$1"
		done
	}
	loaders=
	for h in $hosts; do load "$h" & loaders="$loaders $!"; done
	sleep 1
	echo "<h1>five</h1>" > src/index.html
	D push -c fleet.yaml blog > push.out 2>&1; rc=$?
	: > switched
	r5=$(sed -n 's/^release //p' push.out)
	sleep 1
	: > stop
	for pid in $loaders; do wait "$pid"; done
	n=$(cat load.1 load.2 load.3 | grep -vc '^after')
	fails=$(cat load.1 load.2 load.3 | grep -c 'FAIL')
	old=$(cat load.1 load.2 load.3 | grep '^after ' | grep -vc "^after $r5\$")
	if [ $rc -eq 0 ] && [ "$n" -gt 20 ] && [ "$fails" -eq 0 ] && [ "$old" -eq 0 ]; then
		ok "$n requests through three proxies during a push: 0 failed, none old after the switch"
	else
		bad "load during push: rc $rc, $n requests, $fails failed, $old old after the switch"
	fi
fi

# --- bench: each host in turn, then all at once and the total ------------
if part bench; then
	D bench -c fleet.yaml --seconds 1 --proxy-only --out "$work/b" blog > bench.out 2>&1; rc=$?
	n=0
	for h in $hosts; do
		section "h$h" bench.out | grep -Eq "^blog +proxy-https +50 +[1-9][0-9]* " &&
		    grep -q '"seconds": 1,' "$work/b-h$h.json" && n=$((n + 1))
	done
	# the total is the sum of the hosts' rows of the run where all were loaded
	sum=$(awk '/^every host at once/ { on = 1; next }
	    on && $1 == "blog" && $2 ~ /^h[123]$/ && $3 > 0 && $5 == 0 { s += $3; k++ }
	    on && $1 == "total" { t = $4 } END { if (k == 3 && s - t < 2 && t - s < 2) print t }' bench.out)
	if [ $rc -eq 0 ] && [ $n -eq 3 ] && [ -n "$sum" ]; then
		ok "bench: each host in turn under its name (NAME-HOST.json, runs of --seconds 1), then all three at once: $sum req/s in total, 0 errors"
		sed -n '/^every host at once/,/^total/p' bench.out
	else
		bad "bench on the fleet (rc $rc, $n hosts)"; cat bench.out
	fi
fi

# --- destroy on every host ------------------------------------------------
D destroy -f -c fleet.yaml > de.out 2>&1; rc=$?
n=0
for h in $hosts; do
	[ -z "$(on_host "$h" ip netns list)" ] && n=$((n + 1))
done
[ $rc -eq 0 ] && [ $n -eq 3 ] && grep -q "^destroy on 3 hosts: 3 ok" de.out &&
    ok "destroy -f: no jail left on any host" || { bad "destroy -f (rc $rc, $n hosts clear)"; cat de.out; }
finish
