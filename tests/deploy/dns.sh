#!/bin/sh
# DNS kept in step with the fleet's healthy hosts: Knot DNS as the zone's
# authoritative server in this test's own network namespace, taking RFC
# 2136 updates signed with a TSIG key made by keymgr; two hosts as in
# fleet.sh (fleet_lib.sh). Asked of Knot with kdig: a site domain holding
# an address that is not the fleet's is not taken over without
# dns.adopt; a wrong secret is refused with a clear error and changes
# nothing; with adopt the records become the hosts' addresses; a host
# failing its check is withdrawn and comes back when it recovers; status
# compares; watch withdraws and returns a host, keeps the last one and
# outlives the DNS server; destroy withdraws first; the zone's other
# records stay as they were. knotd is stopped on exit.
#
# usage: tests/deploy/dns.sh [path/to/deploy]

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
DEPLOY=${1:-$top/bin/deploy}
case $DEPLOY in /*) ;; *) DEPLOY=$(pwd)/$DEPLOY ;; esac
. "$top/tests/deploy/checks.sh"

needs_root dns "nginx nftables iproute2 curl util-linux openssh-server openssh-client openssl knot knot-dnsutils"

. "$top/tests/deploy/lib.sh"
own_net "$0" "$@"
. "$top/tests/deploy/fleet_lib.sh"
fleet_names "1 2"
dns_cleanup() {
	[ -s "$work/knot/knotd.pid" ] && kill "$(cat "$work/knot/knotd.pid")" 2>/dev/null
	[ -n "${watch:-}" ] && kill "$watch" 2>/dev/null
	fleet_cleanup
}
trap dns_cleanup EXIT
trap 'exit 1' INT TERM HUP
fleet_keys

# --- Knot: zone test., a key that may update it ---------------------------
mkdir -p knot/db
keymgr -t deploy-key hmac-sha256 > knot/key.yaml
secret=$(sed -n 's/^ *secret: //p' knot/key.yaml)
# deploy reads keymgr's output as it is; a wrong secret in BIND's form
install -m 600 knot/key.yaml tsig.key
umask 077
printf 'key "deploy-key" {\n\talgorithm hmac-sha256;\n\tsecret "%s";\n};\n' \
    "$(printf 'not the secret at all' | base64)" > wrong.key
umask 022
cat > knot/test.zone <<'ZONE'
$ORIGIN test.
$TTL 300
@	SOA	ns.test. hostmaster.test. 1 3600 600 86400 60
@	NS	ns.test.
@	TXT	"kept as it is"
ns	A	127.0.0.1
mail	A	192.0.2.25
mail	AAAA	2001:db8::25
blog	A	198.51.100.7
blog	MX	10 mail.test.
ZONE
cat > knot/knot.conf <<CONF
server:
    rundir: "$work/knot"
    pidfile: "$work/knot/knotd.pid"
    listen: 127.0.0.1@5353
database:
    storage: "$work/knot/db"
$(sed 's/^# .*//' knot/key.yaml)
acl:
  - id: update
    key: deploy-key
    action: update
  - id: local
    address: 127.0.0.1
    action: transfer
template:
  - id: default
    storage: "$work/knot"
    file: "%s.zone"
    zonefile-sync: -1
    journal-content: changes
zone:
  - domain: test.
    acl: [update, local]
CONF
knotd -c knot/knot.conf > knot/knotd.log 2>&1 &
i=0
while ! kdig -p 5353 @127.0.0.1 +short test SOA 2>/dev/null | grep -q "^ns.test." &&
    [ $i -lt 50 ]; do
	sleep 0.2; i=$((i + 1))
done
[ $i -lt 50 ] && ok "knotd serves zone test. on 127.0.0.1:5353" ||
    { bad "knotd did not start"; cat knot/knotd.log; finish; }

q() {	# q NAME TYPE: what Knot answers, sorted, one a line
	kdig -p 5353 @127.0.0.1 +short "$1" "$2" | sort
}
answers() { [ "$(q blog.test A)" = "$1" ]; }
# the zone without blog.test's A/AAAA records and the SOA's serial
others() {
	kdig -p 5353 @127.0.0.1 test AXFR +nocomments +nostats 2>/dev/null |
	    awk '$4 == "SOA" { next } $1 == "blog.test." && ($4 == "A" || $4 == "AAAA") { next } { print }' | sort
}
others > others.before
[ -s others.before ] && grep -q "mail.test." others.before &&
    ok "the zone's other records read (AXFR)" || { bad "AXFR"; cat others.before; }

# --- two hosts, each with its address; dns: in deploy.yaml ---------------
mkdir -p src
for h in $hosts; do
	fleet_host "$h" || { bad "host $h: set up"; cat "$work/h$h/sshd.log"; finish; }
done
a1=$(hostip 1) a2=$(hostip 2)
fleet_yaml "$work/src" | awk -v a1="$a1" -v a2="$a2" '
	/^hosts:$/ { print "dns:\n  server: 127.0.0.1:5353\n  zone: test\n  key: KEY\n  ttl: 30" }
	{ print }
	/^  - name: h1$/ { print "    address: [" a1 "]" }
	/^  - name: h2$/ { print "    address: [" a2 "]" }' > base.yaml
sed 's|KEY|tsig.key|' base.yaml > fleet.yaml
sed 's|KEY|tsig.key\n  adopt: true|' base.yaml > adopt.yaml
sed 's|KEY|wrong.key\n  adopt: true|' base.yaml > wrong.yaml
D() {	# D COMMAND ARGS: deploy with the fleet's keys and CA
	c=$1; shift
	"$DEPLOY" "$c" "$@" --cacert "$work/cert.pem" \
	    --known-hosts "$work/known_hosts" --identity "$work/client_key"
}
"$DEPLOY" check -c fleet.yaml > check.out 2>&1 &&
    ok "check: dns: and address: accepted" || { bad "check"; cat check.out; }
grep -q "$secret" check.out && bad "check printed the secret"

# Nothing served yet: no host passes its check, the records stay.
D apply -c fleet.yaml > apply.out 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q "^dns blog.test: no host of site blog passes its check" apply.out &&
    [ "$(q blog.test A)" = 198.51.100.7 ]; then
	ok "apply before any push: nothing published, the record left as it is"
else
	bad "apply before push (rc $rc)"; cat apply.out
fi

echo "<h1>one</h1>" > src/index.html
D push -c fleet.yaml blog > push.out 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "dns blog.test: the server holds 198.51.100.7, not an address of the fleet: set dns.adopt: true" push.out &&
    [ "$(q blog.test A)" = 198.51.100.7 ]; then
	ok "push: blog.test's foreign A record not taken over without adopt, exit 1"
else
	bad "foreign RRset (rc $rc)"; cat push.out
fi
D status -c fleet.yaml > st.out 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "^dns blog.test: server answers 198.51.100.7; deploy expects $(printf '%s\n' "$a1" "$a2" | sort | paste -sd, | sed 's/,/, /') (differs)" st.out; then
	ok "status: what the server answers and what deploy expects, differs, exit 1"
else
	bad "status with a difference (rc $rc)"; cat st.out
fi

D apply -c wrong.yaml > wrong.out 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "dns server 127.0.0.1:5353: .*TSIG.*deploy-key" wrong.out &&
    [ "$(q blog.test A)" = 198.51.100.7 ] && ! grep -q "$secret" wrong.out; then
	ok "a wrong secret: refused, naming the server and TSIG; nothing changed"
else
	bad "wrong key (rc $rc)"; cat wrong.out
fi

both=$(printf '%s\n' "$a1" "$a2" | sort)
D apply -c adopt.yaml > adopt.out 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q "^dns blog.test: published" adopt.out &&
    [ "$(q blog.test A)" = "$both" ] && [ -z "$(q blog.test AAAA)" ]; then
	ok "apply with adopt: blog.test's A records are the two hosts' addresses"
else
	bad "publish with adopt (rc $rc): $(q blog.test A)"; cat adopt.out
fi
# Another deploy that read the records before this one published them:
# its update is conditional on what it read, and refused.
if "$top/tests/deploy/dns_race" adopt.yaml blog.test 198.51.100.7 203.0.113.9 \
    2> race.err; then
	bad "an update on stale records was taken"
elif grep -q "the records of blog.test changed since deploy read them" race.err &&
    [ "$(q blog.test A)" = "$both" ]; then
	ok "an update made on stale records is refused (prerequisites), nothing changed"
else
	bad "stale update: $(q blog.test A)"; cat race.err
fi
others > others.after
cmp -s others.before others.after &&
    ok "every other record of the zone as it was (MX of blog.test too)" ||
    { bad "other records changed"; diff others.before others.after; }
[ "$(kdig -p 5353 @127.0.0.1 blog.test A +noall +answer | awk '{print $2}' | sort -u)" = 30 ] &&
    ok "published with dns.ttl (30)" || bad "ttl of the records"
D status -c adopt.yaml > st.out 2>&1
grep -q "^dns blog.test: server answers $(echo "$both" | paste -sd, | sed 's/,/, /'); deploy expects .* *$" st.out &&
    ! grep -q "(differs)" st.out && ok "status: in step" || { bad "status in step"; cat st.out; }

# --- h2 fails its check: withdrawn; recovered: back ----------------------
ip netns exec "$(hostns 2)" nft list ruleset > h2.nft
ip netns exec "$(hostns 2)" nft flush ruleset
sleep 1
echo "<h1>two</h1>" > src/index.html
D push -c adopt.yaml blog > push2.out 2>&1; rc=$?
if grep -q "^dns: host h2 left out" push2.out && [ "$(q blog.test A)" = "$a1" ]; then
	ok "h2 fails its check: withdrawn, blog.test answers h1 only (push rc $rc)"
else
	bad "withdraw h2 (rc $rc): $(q blog.test A)"; cat push2.out
fi
D status -c adopt.yaml > st.out 2>&1
grep -q "^dns blog.test: server answers $a1; deploy expects $a1\$" st.out &&
    ok "status: h2 no longer expected" || { bad "status after withdrawal"; cat st.out; }
ip netns exec "$(hostns 2)" nft -f h2.nft
sleep 1
D apply -c adopt.yaml > back.out 2>&1; rc=$?
if [ $rc -eq 0 ] && [ "$(q blog.test A)" = "$both" ]; then
	ok "h2 recovered: apply publishes it again"
else
	bad "h2 back (rc $rc): $(q blog.test A)"; cat back.out
fi

# h2 moves to another address: its old one was deploy's, so it goes
# without adopt; and back
sed "s/address: \[$a2\]/address: [192.0.2.77]/" fleet.yaml > moved.yaml
D apply -c moved.yaml > moved.out 2>&1; rc=$?
if [ $rc -eq 0 ] && [ "$(q blog.test A)" = "$(printf '%s\n' "$a1" 192.0.2.77 | sort)" ]; then
	ok "a host's address changes: its old record, deploy's own, replaced without adopt"
else
	bad "moved host (rc $rc): $(q blog.test A)"; cat moved.out
fi
D apply -c fleet.yaml > back2.out 2>&1; rc=$?
[ $rc -eq 0 ] && answers "$both" && ok "and back" ||
    { bad "moved back (rc $rc): $(q blog.test A)"; cat back2.out; }

# --- deploy watch: fall 3, rise 2, each second -----------------------------
# until SECONDS CMD...: 0 as soon as CMD succeeds, 1 after SECONDS
until_ok() {
	n=$(($1 * 5)); shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.2; n=$((n - 1))
	done
	return 1
}
# deploy itself in the background (not a subshell), so that kill reaches it
: > watch.out
"$DEPLOY" watch -c adopt.yaml --interval 1 --fall 3 --rise 2 --cacert "$work/cert.pem" \
    --known-hosts "$work/known_hosts" --identity "$work/client_key" > watch.out 2>&1 &
watch=$!
until_ok 10 grep -q "^watching 1 site every 1 s (fall 3, rise 2)" watch.out &&
    ok "watch started" || { bad "watch did not start"; cat watch.out; }
ip netns exec "$(hostns 2)" nft flush ruleset
t0=$(date +%s)
if until_ok 20 answers "$a1" &&
    grep -q " blog host h2: withdrawn after 3 failed checks: " watch.out; then
	ok "watch: h2 withdrawn $(( $(date +%s) - t0 )) s after its failure (fall 3, every 1 s)"
else
	bad "watch did not withdraw h2: $(q blog.test A)"; cat watch.out
fi
ip netns exec "$(hostns 2)" nft -f h2.nft
t0=$(date +%s)
if until_ok 20 answers "$both" &&
    grep -q " blog host h2: up, passed its check again" watch.out; then
	ok "watch: h2 back $(( $(date +%s) - t0 )) s after it recovered (rise 2)"
else
	bad "watch did not put h2 back: $(q blog.test A)"; cat watch.out
fi
ip netns exec "$(hostns 1)" nft list ruleset > h1.nft
ip netns exec "$(hostns 1)" nft flush ruleset
ip netns exec "$(hostns 2)" nft flush ruleset
if until_ok 20 grep -q "but it is the last healthy host: kept" watch.out; then
	sleep 2
	if [ -n "$(q blog.test A)" ] && [ "$(q blog.test A)" != "$both" ]; then
		ok "both hosts fail: one withdrawn, the last one kept ($(q blog.test A))"
	else
		bad "last healthy host: $(q blog.test A)"; cat watch.out
	fi
else
	bad "no last healthy host kept"; cat watch.out
fi
ip netns exec "$(hostns 1)" nft -f h1.nft
ip netns exec "$(hostns 2)" nft -f h2.nft
until_ok 20 answers "$both" && ok "both recovered: both published again" ||
    { bad "not both back: $(q blog.test A)"; cat watch.out; }
# the DNS server down: watch says so and goes on
kill "$(cat knot/knotd.pid)"
sleep 3
if kill -0 "$watch" 2>/dev/null && grep -q "dns server 127.0.0.1:5353: " watch.out; then
	ok "knotd down: watch reports it and keeps running"
else
	bad "watch with knotd down"; cat watch.out
fi
knotd -c knot/knot.conf >> knot/knotd.log 2>&1 &
until_ok 10 answers "$both" && ok "knotd back: the records as they were" ||
    bad "after knotd's restart: $(q blog.test A)"
kill "$watch"
wait "$watch"; rc=$?
watch=
[ $rc -eq 0 ] && ok "watch stops on SIGTERM, exit 0" || { bad "watch exit $rc"; cat watch.out; }
! grep -q "$secret" watch.out || bad "watch printed the secret"

# --- destroy: the host withdrawn first, then the TTL, then its jails ------
sed 's/^  ttl: 30$/  ttl: 2/' fleet.yaml > short.yaml
De() {	# destroy: no check, so no CA
	"$DEPLOY" destroy "$@" --known-hosts "$work/known_hosts" --identity "$work/client_key"
}
De -c short.yaml --host h2 -f > de.out 2>&1; rc=$?
w=$(grep -n "^dns: waiting 2 s (the records' TTL) before destroying" de.out | cut -d: -f1)
j=$(grep -n "destroy-jail\|^done:" de.out | head -1 | cut -d: -f1)
if [ $rc -eq 0 ] && answers "$a1" && [ -n "$w" ] && [ -n "$j" ] && [ "$w" -lt "$j" ] &&
    [ -z "$(on_host 2 ip netns list)" ]; then
	ok "destroy --host h2: withdrawn, the TTL waited out, then its jails removed"
else
	bad "destroy h2 (rc $rc): $(q blog.test A)"; cat de.out
fi
De -c short.yaml -f > de.out 2>&1; rc=$?
if [ $rc -eq 0 ] && [ -z "$(q blog.test A)" ] && [ -z "$(q blog.test AAAA)" ]; then
	ok "destroy: blog.test's A records, deploy's, removed"
else
	bad "destroy all (rc $rc): $(q blog.test A)"; cat de.out
fi
others > others.after
cmp -s others.before others.after && ok "after destroy, only the records deploy did not own, as they were" ||
    { bad "other records changed"; diff others.before others.after; }
finish
