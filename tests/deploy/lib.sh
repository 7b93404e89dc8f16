# shellcheck shell=sh
# Shared by the namespace tests (e2e_netns.sh, zero_downtime.sh and the
# benchmark bench_push.sh): a network of their own, unique names for one
# run, and the removal of whatever a run made, by those names only. Needs
# DEPLOY set.

# own_net SCRIPT ARGS: runs the calling test again, from the start, in a
# network namespace of its own (its loopback up) and a mount namespace
# whose /sys shows that network and whose /run/netns holds only the
# test's own namespaces; returns at once when already there. The
# bridges, links, addresses and nftables tables the test makes then never
# touch this machine's own network, which a test in another lane (a
# browser, say) would see change; and whatever a failed run leaves goes
# away with the namespace. Call it after installing packages: the
# namespace has no way out.
own_net() {
	[ -n "${DEPLOY_TEST_OWN_NET:-}" ] && return 0
	DEPLOY_TEST_OWN_NET=1
	export DEPLOY_TEST_OWN_NET
	exec unshare --net --mount --propagation private sh -c '
	    ip link set lo up || exit 1
	    umount -l /sys 2>/dev/null
	    mount -t sysfs sysfs /sys || exit 1
	    mkdir -p /run/netns && mount -t tmpfs -o mode=755 tmpfs /run/netns ||
		exit 1
	    exec sh "$@"' sh "$@"
}

# free_octet COUNT NET16...: an x in 20..217, starting from one chosen by
# this run's pid, such that no address or route on this host lies in
# NET16.x .. NET16.(x+COUNT-1) for any NET16 given (e.g. 10.233): two test
# runs at once (make check beside make mutate) then take different subnets.
# Under make mutate, MUTATE_TREE (0, 1 or 2) starts each scratch tree's
# runs in a third of the range of its own, so that two runs started in
# the same second do not both find the same subnet still free.
free_octet() {
	n=$1
	shift
	used=" $( { ip -4 -o addr; ip -4 route; } 2>/dev/null | tr '\n' ' ')"
	start=$$
	case ${MUTATE_TREE-} in
	[012]) start=$(( 66 * MUTATE_TREE + $$ % 8 )) ;;
	esac
	try=0
	while [ "$try" -lt 200 ]; do
		x=$(( 20 + (start + try) % 198 ))
		clash=
		for p in "$@"; do
			i=0
			while [ "$i" -lt "$n" ]; do
				case $used in *" $p.$((x + i))."*) clash=1 ;; esac
				i=$((i + 1))
			done
		done
		[ -z "$clash" ] && { echo "$x"; return 0; }
		try=$((try + 1))
	done
	echo $(( 20 + $$ % 198 ))
}

# netns_names PREFIX OCTET PORT_BASE: sets id, name, bridge, net, subnet
# (10.OCTET.x.0/24), https_port and http_port (from PORT_BASE), work (a new
# folder) and table, all unique to this run.
netns_names() {
	id=$(( $$ % 100000 ))
	name=$1-$id
	bridge=$(echo "$1" | tr -d -)b$id
	net=10.$2.$(free_octet 1 "10.$2")
	subnet=$net.0/24
	https_port=$(( $3 + $$ % 15000 ))
	http_port=$(( https_port + 1 ))
	work=$(mktemp -d "${TMPDIR:-/tmp}/deploy-$1.XXXXXX")
	chmod 755 "$work"
	table=deploy_$(echo "$name" | tr - _)
}

# netns_teardown CONFIG JAIL...: deploy destroy with CONFIG, then every
# namespace NAME-JAIL, the bridge and the nftables table it left, and work.
netns_teardown() {
	cfg=$1
	shift
	cd /
	"$DEPLOY" destroy -f -c "$cfg" >/dev/null 2>&1
	for j in "$@"; do
		[ -e "/run/netns/$name-$j" ] || continue
		for pid in $(ip netns pids "$name-$j" 2>/dev/null); do
			kill -9 "$pid" 2>/dev/null
		done
		ip netns delete "$name-$j" 2>/dev/null
	done
	ip link delete "$bridge" 2>/dev/null
	nft delete table ip "$table" 2>/dev/null
	rm -rf "$work"
}

# netns_network_yaml: the lines of a deploy.yaml that place a run's host
# (platform, state, the bridge and subnet, the host ports), from the
# names netns_names set.
netns_network_yaml() {
	cat <<EOF
platform: linux-netns
state: $work/state
network:
  bridge: $bridge
  subnet: $net.0/24
  proxy: $net.2
  ports:
    - 127.0.0.1:$http_port -> 80
    - 127.0.0.1:$https_port -> 443
EOF
}
