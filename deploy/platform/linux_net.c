/*
 * linux-netns networking: the bridge, a jail's namespace and veth pair,
 * nftables rule sets for the host and each jail, and removing jails.
 */
#define _GNU_SOURCE

#include <sys/mount.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "confgen.h"
#include "linux_int.h"
#include "mem.h"

/* ---- rule sets ---- */

static void
jail_rules(struct buf *b, const struct spec *s, const char *jail)
{
	buf_printf(b,
	    "table inet " JAIL_TABLE " {\n"
	    "\tchain input {\n"
	    "\t\ttype filter hook input priority 0; policy drop;\n"
	    "\t\tiif \"lo\" accept\n"
	    "\t\tct state established,related accept\n");
	if (lx_is_proxy(jail)) {
		buf_adds(b, "\t\ttcp dport { 80, 443 } accept\n");
		if (s->proxy.http3)
			buf_adds(b, "\t\tudp dport 443 accept\n");
	}
	else if (lx_is_gemini(jail))
		buf_adds(b, "\t\ttcp dport 1965 accept\n");
	else
		buf_printf(b, "\t\tip saddr %s tcp dport 80 accept\n",
		    s->net.proxy_str);
	buf_adds(b,
	    "\t}\n"
	    "\tchain output {\n"
	    "\t\ttype filter hook output priority 0; policy drop;\n"
	    "\t\toif \"lo\" accept\n"
	    "\t\tct state established,related accept\n");
	if (lx_is_proxy(jail)) {
		/* The subnet, not the site list: adding a site then needs
		 * no new rules; each site admits only the proxy anyway. */
		buf_printf(b, "\t\tip daddr %s tcp dport 80 accept\n",
		    s->net.subnet_str);
		/* ACME needs the certificate authority; nothing else goes
		 * out of the subnet. */
		if (s->proxy.tls == TLS_ACME)
			buf_printf(b, "\t\tip daddr != %s accept\n",
			    s->net.subnet_str);
	}
	buf_adds(b, "\t}\n}\n");
}

static int
port_is_loopback(const struct spec_port *p)
{
	return p->addr != NULL && strncmp(p->addr, "127.", 4) == 0;
}

static int
needs_forwarding(const struct spec *s)
{
	size_t i;

	if (s->proxy.tls == TLS_ACME)
		return 1;
	for (i = 0; i < s->net.nports; i++)
		if (!port_is_loopback(&s->net.ports[i]))
			return 1;
	return 0;
}

static void
host_rules(struct buf *b, const struct spec *s)
{
	struct buf t = BUF_INIT;
	size_t i;
	int pass;

	lx_table_name(&t, s);
	buf_printf(b, "table ip %s {\n", t.ptr);
	for (pass = 0; pass < 2; pass++) {
		if (pass == 0)
			buf_adds(b, "\tchain output {\n\t\ttype nat hook output "
			    "priority -100; policy accept;\n");
		else
			buf_adds(b, "\tchain prerouting {\n\t\ttype nat hook "
			    "prerouting priority -100; policy accept;\n");
		for (i = 0; i < s->net.nports; i++) {
			const struct spec_port *p = &s->net.ports[i];

			/* Loopback addresses never arrive from outside. */
			if (pass == 1 && port_is_loopback(p))
				continue;
			/* 1965 is the Gemini jail's, when the host has one */
			if (p->to == 1965 && s->net.gemini == 0)
				continue;
			if (p->addr != NULL)
				buf_printf(b, "\t\tip daddr %s", p->addr);
			else
				buf_adds(b, "\t\tfib daddr type local");
			buf_printf(b, " tcp dport %d dnat to %s:%d\n", p->port,
			    p->to == 1965 ? s->net.gemini_str :
			    s->net.proxy_str, p->to);
			/* QUIC: only when HTTP/3 is on */
			if (p->to == 443 && s->proxy.http3) {
				if (p->addr != NULL)
					buf_printf(b, "\t\tip daddr %s", p->addr);
				else
					buf_adds(b, "\t\tfib daddr type local");
				buf_printf(b, " udp dport %d dnat to %s:443\n",
				    p->port, s->net.proxy_str);
			}
		}
		buf_adds(b, "\t}\n");
	}
	buf_printf(b,
	    "\tchain postrouting {\n"
	    "\t\ttype nat hook postrouting priority 100; policy accept;\n"
	    "\t\toifname \"%s\" ip saddr 127.0.0.0/8 masquerade\n",
	    s->net.bridge);
	if (s->proxy.tls == TLS_ACME)
		buf_printf(b, "\t\tip saddr %s oifname != \"%s\" masquerade\n",
		    s->net.proxy_str, s->net.bridge);
	buf_printf(b,
	    "\t}\n"
	    "\tchain forward {\n"
	    "\t\ttype filter hook forward priority 0; policy accept;\n"
	    "\t\tiifname \"%s\" ip saddr != %s%s%s%s%s oifname != \"%s\" "
	    "drop\n"
	    "\t}\n"
	    "}\n", s->net.bridge,
	    /* the Gemini jail answers clients from outside too */
	    s->net.gemini ? "{ " : "", s->net.proxy_str,
	    s->net.gemini ? ", " : "", s->net.gemini ? s->net.gemini_str : "",
	    s->net.gemini ? " }" : "", s->net.bridge);
	buf_release(&t);
}

/*
 * The proxy jail has a default route when packets from outside the host
 * reach it: ACME, and host ports on an address other than loopback, whose
 * clients keep their own address and get their answers back through the
 * gateway. Its output rules still admit only answers and the site jails.
 */
static int
routes_out(const struct spec *s, const char *jail)
{
	return !lx_is_site(jail) && needs_forwarding(s);
}

/* What a jail was created with; compared on observe. */
void
lx_jail_descriptor(struct buf *b, const struct spec *s, const char *jail)
{
	struct buf ns = BUF_INIT, veth = BUF_INIT;
	uint32_t a = lx_jail_addr(s, jail);
	char as[16];

	lx_ns_name(&ns, s, jail);
	lx_veth_name(&veth, s, a);
	spec_ntoa(a, as);
	buf_printf(b, "netns %s\nveth %s\nbridge %s\naddress %s/%d\n"
	    "route %s\nsomaxconn %d\n", ns.ptr, veth.ptr, s->net.bridge, as,
	    s->net.prefix, routes_out(s, jail) ? s->net.gateway_str :
	    "none", CONFGEN_BACKLOG);
	jail_rules(b, s, jail);
	/* A site's nginx started before it had a socket folder (an older
	 * deploy) cannot make its socket: the jail is made again. */
	if (lx_is_site(jail)) {
		buf_clear(&ns);
		lx_jail_dir(&ns, s, jail);
		buf_printf(b, "socket %s/" CONFGEN_SOCK "\n", ns.ptr);
	}
	buf_release(&ns);
	buf_release(&veth);
}

void
lx_firewall_descriptor(struct buf *b, const struct spec *s)
{
	buf_printf(b, "forwarding %d\n", needs_forwarding(s));
	host_rules(b, s);
}

/* ---- network and jails ---- */

static int
write_sysctl(const char *path, const char *v, struct diag *d)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd == -1 || write(fd, v, strlen(v)) != (ssize_t)strlen(v)) {
		diag_error(d, path, 0, "%s", strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int
lx_network_create(const struct spec *s, struct diag *d)
{
	struct buf cidr = BUF_INIT, path = BUF_INIT;
	char mac[18];
	int rc = -1;

	buf_printf(&cidr, "%s/%d", s->net.gateway_str, s->net.prefix);
	lx_mac_of(mac, s->net.gateway);
	if (if_nametoindex(s->net.bridge) == 0 &&
	    MUST(d, "ip", "link", "add", "name", s->net.bridge, "address",
	    mac, "type", "bridge") == -1)
		goto out;
	if (MUST(d, "ip", "addr", "replace", cidr.ptr, "dev",
	    s->net.bridge) == -1 ||
	    MUST(d, "ip", "link", "set", s->net.bridge, "up") == -1)
		goto out;
	/* DNAT of 127.0.0.1 to the proxy needs loopback sources routed. */
	buf_printf(&path, "/proc/sys/net/ipv4/conf/%s/route_localnet",
	    s->net.bridge);
	if (write_sysctl(path.ptr, "1", d) == -1)
		goto out;
	rc = 0;
out:
	buf_release(&cidr);
	buf_release(&path);
	return rc;
}

/* Signals every process whose network namespace is the jail's. */
static int
signal_jail(ino_t ns, int sig)
{
	struct buf path = BUF_INIT;
	struct dirent *de;
	DIR *dp;
	int n = 0;

	if (ns == 0 || (dp = opendir("/proc")) == NULL)
		return 0;
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		buf_clear(&path);
		buf_printf(&path, "/proc/%s/ns/net", de->d_name);
		if (lx_netns_inode(path.ptr) == ns) {
			kill((pid_t)atol(de->d_name), sig);
			n++;
		}
	}
	closedir(dp);
	buf_release(&path);
	return n;
}

/* Nothing may outlive its jail (a namespace with processes stays). */
static void
empty_jail(const char *nspath)
{
	struct timespec ts = { 0, 100000000 };
	ino_t ns = lx_netns_inode(nspath);
	int i;

	if (signal_jail(ns, SIGTERM) == 0)
		return;
	for (i = 0; i < 50 && signal_jail(ns, 0) > 0; i++)
		nanosleep(&ts, NULL);
	signal_jail(ns, SIGKILL);
}

int
lx_jail_destroy(const struct spec *s, const char *jail, struct diag *d)
{
	struct buf ns = BUF_INIT, nsp = BUF_INIT, veth = BUF_INIT;
	struct buf applied = BUF_INIT;
	uint32_t a = lx_jail_addr(s, jail);
	int rc = 0;

	lx_ns_name(&ns, s, jail);
	buf_printf(&nsp, NETNS_DIR "/%s", ns.ptr);
	empty_jail(nsp.ptr);
	/* gone meanwhile is gone (a host sharing this machine may remove
	 * an old namespace both of them saw) */
	if (lx_exists(nsp.ptr) && QUIET("ip", "netns", "delete", ns.ptr) != 0 &&
	    lx_exists(nsp.ptr) &&
	    MUST(d, "ip", "netns", "delete", ns.ptr) == -1)
		rc = -1;
	if (a != 0) {
		struct timespec ts = { 0, 50000000 };
		int i;

		/* The pair goes with the namespace, but not at once. */
		lx_veth_name(&veth, s, a);
		for (i = 0; i < 40 && if_nametoindex(veth.ptr) != 0; i++) {
			QUIET("ip", "link", "delete", veth.ptr);
			nanosleep(&ts, NULL);
		}
		if (if_nametoindex(veth.ptr) != 0) {
			diag_error(d, NULL, 0, "interface %s does not go away",
			    veth.ptr);
			rc = -1;
		}
	}
	lx_jail_dir(&applied, s, jail);
	buf_adds(&applied, "/jail.applied");
	unlink(applied.ptr);
	buf_release(&ns);
	buf_release(&nsp);
	buf_release(&veth);
	buf_release(&applied);
	return rc;
}

int
lx_jail_create(const struct spec *s, const char *jail, struct diag *d)
{
	struct buf ns = BUF_INIT, veth = BUF_INIT, cidr = BUF_INIT;
	struct buf rules = BUF_INIT, path = BUF_INIT, desc = BUF_INIT;
	uint32_t a = lx_jail_addr(s, jail);
	char as[16], mac[18];
	int rc = -1;

	if (a == 0)
		return diag_error(d, s->file, 0, "unknown site '%s'", jail);
	/* Leftovers of an interrupted run go first. */
	if (lx_jail_destroy(s, jail, d) == -1)
		return -1;
	if (lx_jail_dirs(s, jail, d) == -1)
		return -1;
	if (lx_is_site(jail)) {
		buf_printf(&path, "%s/%s", s->releases.root, jail);
		if (lx_mkdirs(path.ptr, 0755, d) == -1)
			goto out;
		buf_clear(&path);
	}
	lx_ns_name(&ns, s, jail);
	lx_veth_name(&veth, s, a);
	spec_ntoa(a, as);
	lx_mac_of(mac, a);
	buf_printf(&cidr, "%s/%d", as, s->net.prefix);
	/* An entry for a jail of an older run would be wrong. */
	QUIET("ip", "neigh", "flush", "to", as, "dev", s->net.bridge);
	if (MUST(d, "ip", "netns", "add", ns.ptr) == -1 ||
	    MUST(d, "ip", "link", "add", veth.ptr, "type", "veth", "peer",
	    "name", "eth0", "address", mac, "netns", ns.ptr) == -1 ||
	    MUST(d, "ip", "link", "set", veth.ptr, "master",
	    s->net.bridge) == -1 ||
	    MUST(d, "ip", "link", "set", veth.ptr, "up") == -1 ||
	    MUST(d, "ip", "-n", ns.ptr, "addr", "add", cidr.ptr, "dev",
	    "eth0") == -1 ||
	    MUST(d, "ip", "-n", ns.ptr, "link", "set", "eth0", "up") == -1 ||
	    MUST(d, "ip", "-n", ns.ptr, "link", "set", "lo", "up") == -1)
		goto out;
	/* A namespace starts with the kernel's somaxconn (128 before Linux
	 * 5.4), which caps every listen backlog in it. */
	{
		char v[32];

		xsnprintf(v, sizeof(v), "net.core.somaxconn=%d",
		    CONFGEN_BACKLOG);
		if (MUST(d, "ip", "netns", "exec", ns.ptr, "sysctl", "-qw",
		    v) == -1)
			goto out;
	}
	if (routes_out(s, jail) &&
	    MUST(d, "ip", "-n", ns.ptr, "route", "add", "default", "via",
	    (char *)s->net.gateway_str) == -1)
		goto out;
	jail_rules(&rules, s, jail);
	lx_jail_dir(&path, s, jail);
	buf_adds(&path, "/jail.nft");
	if (lx_write_text(path.ptr, rules.ptr, 0644, d) == -1 ||
	    MUST(d, "ip", "netns", "exec", ns.ptr, "nft", "-f",
	    path.ptr) == -1)
		goto out;
	buf_truncate(&path, path.len - strlen("/jail.nft"));
	buf_adds(&path, "/jail.applied");
	lx_jail_descriptor(&desc, s, jail);
	if (lx_write_text(path.ptr, desc.ptr, 0644, d) == -1)
		goto out;
	rc = 0;
out:
	buf_release(&ns);
	buf_release(&veth);
	buf_release(&cidr);
	buf_release(&rules);
	buf_release(&path);
	buf_release(&desc);
	return rc;
}

int
lx_firewall_load(const struct spec *s, struct diag *d)
{
	struct buf t = BUF_INIT, text = BUF_INIT, path = BUF_INIT;
	struct buf desc = BUF_INIT;
	int rc = -1;

	lx_table_name(&t, s);
	if (lx_mkdirs(s->state, 0755, d) == -1)
		goto out;
	/* Create-then-delete makes the load replace the table at once. */
	buf_printf(&text, "table ip %s\ndelete table ip %s\n", t.ptr, t.ptr);
	/* The table this host had before it had a prefix of its own. */
	if (strcmp(lx_prefix(s), s->name) != 0) {
		struct buf old = BUF_INIT;
		const char *p;

		buf_adds(&old, "deploy_");
		for (p = s->name; *p != '\0'; p++)
			buf_addc(&old, *p == '-' ? '_' : *p);
		buf_printf(&text, "table ip %s\ndelete table ip %s\n",
		    old.ptr, old.ptr);
		buf_release(&old);
	}
	host_rules(&text, s);
	buf_printf(&path, "%s/firewall.nft", s->state);
	if (lx_write_text(path.ptr, text.ptr, 0644, d) == -1 ||
	    MUST(d, "nft", "-f", path.ptr) == -1)
		goto out;
	if (needs_forwarding(s) &&
	    write_sysctl("/proc/sys/net/ipv4/ip_forward", "1", d) == -1)
		goto out;
	buf_clear(&path);
	buf_printf(&path, "%s/firewall.applied", s->state);
	lx_firewall_descriptor(&desc, s);
	if (lx_write_text(path.ptr, desc.ptr, 0644, d) == -1)
		goto out;
	rc = 0;
out:
	buf_release(&t);
	buf_release(&text);
	buf_release(&path);
	buf_release(&desc);
	return rc;
}

int
lx_firewall_remove(const struct spec *s, struct diag *d)
{
	struct buf t = BUF_INIT, path = BUF_INIT;
	int rc = 0;

	lx_table_name(&t, s);
	if (QUIET("nft", "list", "table", "ip", t.ptr) == 0 &&
	    MUST(d, "nft", "delete", "table", "ip", t.ptr) == -1)
		rc = -1;
	buf_printf(&path, "%s/firewall.applied", s->state);
	unlink(path.ptr);
	buf_clear(&path);
	buf_printf(&path, "%s/firewall.nft", s->state);
	unlink(path.ptr);
	buf_release(&t);
	buf_release(&path);
	return rc;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	if (flag == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

/* Removes a tree this tool created; refuses anything short. */
static int
remove_tree(const char *path, struct diag *d)
{
	if (strlen(path) < 5 || path[0] != '/' || strstr(path, "/../"))
		return diag_error(d, path, 0, "refusing to remove this path");
	if (!lx_exists(path))
		return 0;
	if (nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS) == -1)
		return diag_error(d, path, 0, "remove: %s", strerror(errno));
	return 0;
}

int
lx_data_remove(const struct spec *s, const char *jail, struct diag *d)
{
	struct buf p = BUF_INIT;
	int rc = 0;

	lx_jail_dir(&p, s, jail);
	if (remove_tree(p.ptr, d) == -1)
		rc = -1;
	if (lx_is_site(jail)) {
		buf_clear(&p);
		buf_printf(&p, "%s/%s", s->releases.root, jail);
		if (remove_tree(p.ptr, d) == -1)
			rc = -1;
		buf_clear(&p);
		buf_printf(&p, "%s/.deploy/%s", s->releases.root, jail);
		if (remove_tree(p.ptr, d) == -1)
			rc = -1;
		/* Folders left empty by the last site go too. */
		buf_clear(&p);
		buf_printf(&p, "%s/.deploy", s->releases.root);
		rmdir(p.ptr);
		buf_clear(&p);
		buf_printf(&p, "%s/sites", s->state);
		rmdir(p.ptr);
	}
	rmdir(s->releases.root);
	rmdir(s->state);
	buf_release(&p);
	return rc;
}
