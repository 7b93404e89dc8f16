# shellcheck shell=sh
# A fleet of hosts on this machine, as root, for fleet.sh and the fleet
# push benchmark fleet_push.sh: each host is a network namespace and a
# mount namespace of its own (its own /run/netns, so its jails are named
# as on any other host, and a /sys that shows its own devices) running a
# real sshd with a key made here, reached over a veth at 10.233.X.2.
# Needs DEPLOY and top set; every name is unique to the run.

# fleet_names [HOSTS]: sets id, oct, work (a new folder, the current
# folder from now on), hosts ("1 2 3" unless given) and SSHD.
fleet_names() {
	id=$(( $$ % 100000 ))
	. "$top/tests/deploy/lib.sh"
	oct=$(free_octet 3 10.233 10.234)
	work=$(mktemp -d "${TMPDIR:-/tmp}/deploy-fleet.XXXXXX")
	chmod 755 "$work"
	hosts=${1:-1 2 3}
	SSHD=$(command -v sshd || echo /usr/sbin/sshd)
	cd "$work" || exit 1
}
# fleet_start: names (fleet_names), the cleanup on exit, also after a
# failure or a signal, and the keys (fleet_keys).
fleet_start() {
	fleet_names
	trap fleet_cleanup EXIT
	trap 'exit 1' INT TERM HUP
	fleet_keys
}
hostns() { echo "flh$id-$1"; }
hostip() { echo "10.233.$((oct + $1 - 1)).2"; }
# on_host H CMD...: CMD inside host H (its network and mount namespaces)
on_host() {
	oh=$1; shift
	nsenter --mount="/proc/$(cat "$work/h$oh/holder.pid")/ns/mnt" \
	    --net="/run/netns/$(hostns "$oh")" "$@"
}

# fleet_cleanup: every host's jails (destroyed on the host, then any
# process left in them killed), the host itself, and work.
fleet_cleanup() {
	cd /
	for h in $hosts; do
		ns=$(hostns "$h")
		[ -e "/run/netns/$ns" ] || continue
		if [ -s "$work/h$h/holder.pid" ] &&
		    kill -0 "$(cat "$work/h$h/holder.pid")" 2>/dev/null; then
			[ -f "$work/fleet.yaml" ] &&
			    on_host "$h" "$DEPLOY" agent --spec "$work/fleet.yaml" \
			    --host "h$h" destroy -f < "$work/fleet.yaml" >/dev/null 2>&1
			for pid in $(on_host "$h" sh -c \
			    'for n in /run/netns/*; do [ -e "$n" ] && ip netns pids "${n##*/}"; done' \
			    2>/dev/null); do
				kill -9 "$pid" 2>/dev/null
			done
		fi
		for pid in $(ip netns pids "$ns" 2>/dev/null); do
			kill -9 "$pid" 2>/dev/null
		done
		ip netns delete "$ns" 2>/dev/null
	done
	rm -rf "$work"
}

# fleet_keys: the site's certificate (cert.pem, key.pem: blog.test), the
# client's key (client_key) and an empty known_hosts, in work.
fleet_keys() {
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	    -days 2 -subj /CN=blog.test -keyout key.pem -out cert.pem \
	    -addext "subjectAltName=DNS:blog.test" >/dev/null 2>&1
	ssh-keygen -q -t ed25519 -N '' -f client_key -C client
	: > known_hosts
	mkdir -p /run/sshd
}

start_sshd() {	# start_sshd H
	sd=$work/h$1
	: > "$sd/sshd.log"
	on_host "$1" "$SSHD" -D -e -f "$sd/sshd_config" 2> "$sd/sshd.log" &
	i=0
	while ! grep -q "Server listening" "$sd/sshd.log" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
}

# fleet_host H: host H up, its key in known_hosts. 0 when its sshd
# listens and it has no jail yet.
fleet_host() {
	h=$1
	ns=$(hostns "$h") ip=$(hostip "$h") d=$work/h$h
	mkdir -p "$d"
	ip netns add "$ns"
	ip link add "flv$id$h" type veth peer name eth0 netns "$ns"
	ip addr add "10.233.$((oct + h - 1)).1/24" dev "flv$id$h"
	ip link set "flv$id$h" up
	ip netns exec "$ns" ip link set lo up
	ip netns exec "$ns" ip addr add "$ip/24" dev eth0
	ip netns exec "$ns" ip link set eth0 up
	# The host's mount namespace, held by one process; like a fresh host,
	# without this machine's shell startup files (bare_login.sh).
	nsenter --net="/run/netns/$ns" unshare -m --propagation private sh -c \
	    'mount -t tmpfs -o mode=755 tmpfs /run/netns &&
	    umount -l /sys && mount -t sysfs sysfs /sys &&
	    export BARE_LOGIN_NS=1 && exec sh "$0" sleep 100000' \
	    "$top/tests/deploy/bare_login.sh" &
	echo $! > "$d/holder.pid"
	i=0
	while [ "$(cat "/proc/$(cat "$d/holder.pid")/comm" 2>/dev/null)" != sleep ] &&
	    [ $i -lt 50 ]; do
		sleep 0.1; i=$((i + 1))
	done
	ssh-keygen -q -t ed25519 -N '' -f "$d/host_key" -C "host$h"
	echo "$ip $(cut -d' ' -f1,2 "$d/host_key.pub")" >> known_hosts
	cp client_key.pub "$d/authorized_keys"
	cat > "$d/sshd_config" <<CONF
ListenAddress $ip
HostKey $d/host_key
AuthorizedKeysFile $d/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
PidFile $d/sshd.pid
CONF
	start_sshd "$h"
	grep -q "Server listening" "$d/sshd.log" &&
	    [ -z "$(on_host "$h" ip netns list)" ]
}

# fleet_yaml SOURCE: the fleet as deploy sees it from here, on stdout:
# one name; each host its own network, state and releases; one site,
# blog (blog.test), from SOURCE.
fleet_yaml() {
	cat <<CONF
name: fl$id
platform: linux-netns
network:
  bridge: flb0
  subnet: 10.235.$oct.0/24
  proxy: 10.235.$oct.2
proxy:
  kind: nginx
  certificate: $work/cert.pem
  key: $work/key.pem
  ca: $work/cert.pem
releases:
  root: /nonexistent
hosts:
CONF
	for h in $hosts; do cat <<CONF
  - name: h$h
    host: ssh://root@$(hostip "$h")
    agent: $DEPLOY
    state: $work/h$h/state
    releases:
      root: $work/h$h/www
    network:
      bridge: flb$h
      subnet: 10.234.$((oct + h - 1)).0/24
      proxy: 10.234.$((oct + h - 1)).2
      ports:
        - $(hostip "$h"):443 -> 443
CONF
	done
	cat <<CONF
sites:
  - name: blog
    domains: [blog.test]
    source: $1
CONF
}
