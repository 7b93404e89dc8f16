/*
 * linux-netns: a jail is a network namespace joined to a bridge by a veth
 * pair, with an nftables table of its own; a site's nginx also gets a
 * private mount namespace that shows its web root read-only and hides the
 * other sites. The host's ports reach the proxy by nftables DNAT.
 * Programs are started with argument arrays, never through a shell.
 */
#define _GNU_SOURCE

#include <sys/wait.h>

#include <arpa/inet.h>

#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acme.h"
#include "confgen.h"
#include "mem.h"
#include "linux_int.h"
#include "process.h"

static const struct driver_ops linux_ops;

/* ---- observe ---- */

static enum obj_state
observe_network(const struct spec *s)
{
	struct ifaddrs *ifa, *p;
	struct buf path = BUF_INIT, v = BUF_INIT;
	int found = 0, addr = 0, up = 0;
	enum obj_state st;

	if (if_nametoindex(s->net.bridge) == 0)
		return OBJ_ABSENT;
	if (getifaddrs(&ifa) == 0) {
		for (p = ifa; p != NULL; p = p->ifa_next) {
			if (strcmp(p->ifa_name, s->net.bridge) != 0)
				continue;
			found = 1;
			up = (p->ifa_flags & IFF_UP) != 0;
			if (p->ifa_addr != NULL &&
			    p->ifa_addr->sa_family == AF_INET &&
			    ntohl(((struct sockaddr_in *)(void *)
			    p->ifa_addr)->sin_addr.s_addr) == s->net.gateway)
				addr = 1;
		}
		freeifaddrs(ifa);
	}
	buf_printf(&path, "/proc/sys/net/ipv4/conf/%s/route_localnet",
	    s->net.bridge);
	lx_read_text(path.ptr, &v);
	st = found && addr && up && v.ptr[0] == '1' ? OBJ_OK : OBJ_DIFFERENT;
	buf_release(&path);
	buf_release(&v);
	return st;
}

static void
observe_jail(struct ldrv *ld, struct observed_jail *j)
{
	const struct spec *s = ld->pub.spec;
	struct buf ns = BUF_INIT, path = BUF_INIT, want = BUF_INIT;
	struct buf have = BUF_INIT, veth = BUF_INIT, master = BUF_INIT;
	char link[PATH_MAX];
	ssize_t n;

	buf_printf(&ns, NETNS_DIR "/");
	lx_ns_name(&ns, s, j->name);
	lx_jail_dir(&path, s, j->name);
	j->has_data = lx_exists(path.ptr);
	if (lx_is_site(j->name)) {
		buf_clear(&path);
		buf_printf(&path, "%s/%s", s->releases.root, j->name);
		j->has_data |= lx_exists(path.ptr);
	}
	buf_clear(&path);
	lx_conf_path(&path, s, j->name);
	buf_init(&j->config);
	j->has_config = lx_read_text(path.ptr, &j->config) == 0;
	if (!lx_exists(ns.ptr)) {
		j->jail = OBJ_ABSENT;
		goto out;
	}
	j->jail = OBJ_DIFFERENT;
	j->running = lx_server_pid(s, j->name) > 0;
	if (!j->wanted)
		goto out;
	/* The proxy changed kind: the old server still holds the ports. */
	if (lx_is_proxy(j->name) && lx_pid_in_jail(s, j->name,
	    s->proxy.kind == PROXY_CADDY ? "run/nginx.pid" : "run/caddy.pid") > 0)
		goto out;
	lx_veth_name(&veth, s, lx_jail_addr(s, j->name));
	buf_printf(&master, "/sys/class/net/%s/master", veth.ptr);
	n = readlink(master.ptr, link, sizeof(link) - 1);
	if (n <= 0)
		goto out;
	link[n] = '\0';
	if (strcmp(strrchr(link, '/') ? strrchr(link, '/') + 1 : link,
	    s->net.bridge) != 0)
		goto out;
	buf_clear(&path);
	lx_jail_dir(&path, s, j->name);
	buf_adds(&path, "/jail.applied");
	lx_jail_descriptor(&want, s, j->name);
	if (lx_read_text(path.ptr, &have) == -1 || strcmp(have.ptr, want.ptr) != 0)
		goto out;
	buf_clear(&ns);
	lx_ns_name(&ns, s, j->name);
	if (QUIET("ip", "netns", "exec", ns.ptr, "nft", "list", "table", "inet",
	    JAIL_TABLE) != 0)
		goto out;
	j->jail = OBJ_OK;
out:
	buf_release(&ns);
	buf_release(&path);
	buf_release(&want);
	buf_release(&have);
	buf_release(&veth);
	buf_release(&master);
}

static void
add_jail(struct observed *o, const char *name, int wanted)
{
	struct observed_jail *j;

	o->jails = xrealloc(o->jails, (o->njails + 1) * sizeof(*o->jails));
	j = &o->jails[o->njails++];
	memset(j, 0, sizeof(*j));
	j->name = xstrdup(name);
	j->wanted = wanted;
	buf_init(&j->config);
}

static int
known(const struct observed *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->njails; i++)
		if (strcmp(o->jails[i].name, name) == 0)
			return 1;
	return 0;
}

static int
linux_observe(struct driver *drv, struct observed *o, struct diag *d)
{
	struct ldrv *ld = (struct ldrv *)drv;
	const struct spec *s = drv->spec;
	struct buf t = BUF_INIT, want = BUF_INIT, have = BUF_INIT;
	struct dirent *de;
	DIR *dp;
	size_t i, plen = strlen(lx_prefix(s)), nlen = strlen(s->name);

	(void)d;
	o->network = observe_network(s);
	for (i = 0; i < s->nsites; i++)
		add_jail(o, s->sites[i].name, 1);
	add_jail(o, "proxy", 1);
	if (spec_gemini_site(s) != NULL)
		add_jail(o, "gemini", 1);
	buf_printf(&t, "%s/gemini", s->state);
	if (!known(o, "gemini") && lx_exists(t.ptr))
		add_jail(o, "gemini", 0);
	buf_clear(&t);
	/* Jails and site folders left from sites no longer in the spec. */
	if ((dp = opendir(NETNS_DIR)) != NULL) {
		while ((de = readdir(dp)) != NULL) {
			const char *rest = de->d_name + nlen + 1;

			if (strncmp(de->d_name, lx_prefix(s), plen) == 0 &&
			    de->d_name[plen] == '-' &&
			    !known(o, de->d_name + plen + 1))
				add_jail(o, de->d_name + plen + 1, 0);
			/* a jail of this host made before it had a prefix
			 * of its own: removed, then made again */
			else if (plen != nlen &&
			    strncmp(de->d_name, s->name, nlen) == 0 &&
			    de->d_name[nlen] == '-' && known(o, rest)) {
				buf_clear(&t);
				buf_printf(&t, LX_OLD "%s", rest);
				add_jail(o, t.ptr, 0);
			}
		}
		closedir(dp);
	}
	buf_printf(&t, "%s/sites", s->state);
	if ((dp = opendir(t.ptr)) != NULL) {
		while ((de = readdir(dp)) != NULL)
			if (de->d_name[0] != '.' && !known(o, de->d_name))
				add_jail(o, de->d_name, 0);
		closedir(dp);
	}
	for (i = 0; i < o->njails; i++)
		observe_jail(ld, &o->jails[i]);

	buf_clear(&t);
	lx_table_name(&t, s);
	o->firewall = OBJ_ABSENT;
	if (QUIET("nft", "list", "table", "ip", t.ptr) == 0) {
		o->firewall = OBJ_DIFFERENT;
		buf_clear(&t);
		buf_printf(&t, "%s/firewall.applied", s->state);
		lx_firewall_descriptor(&want, s);
		if (lx_read_text(t.ptr, &have) == 0 &&
		    strcmp(have.ptr, want.ptr) == 0)
			o->firewall = OBJ_OK;
	}
	buf_release(&t);
	buf_release(&want);
	buf_release(&have);
	return 0;
}

/* ---- configs ---- */

static void
paths_for(const struct spec *s, const char *jail, struct buf *state,
    struct buf *root, struct buf *admin, struct buf *data, struct buf *acme,
    struct buf *sock, struct confgen_paths *p)
{
	lx_jail_dir(state, s, jail);
	/* The proxy sees the host's files: each site's socket at the path
	 * the site's own mount namespace shows it (lx_site_root). */
	p->sock = p->socks = NULL;
	if (lx_is_site(jail)) {
		buf_printf(sock, "%s/" CONFGEN_SOCK, state->ptr);
		p->sock = sock->ptr;
	} else if (lx_is_proxy(jail)) {
		buf_printf(sock, "%s/sites", s->state);
		p->socks = sock->ptr;
	}
	buf_printf(admin, "%s/admin.sock", state->ptr);
	buf_printf(data, "%s/data", state->ptr);
	if (lx_is_gemini(jail) && spec_gemini_site(s) != NULL)
		buf_printf(root, "%s/%s", s->releases.root,
		    spec_gemini_site(s)->name);
	else if (lx_is_site(jail))
		buf_printf(root, "%s/%s", s->releases.root, jail);
	p->state = state->ptr;
	p->root = root->ptr;
	p->mime_types = "/etc/nginx/mime.types";
	/* Debian's libnginx-mod-http-brotli-static, where installed */
	p->brotli_static = access(CONFGEN_BROTLI_LINUX, R_OK) == 0 ?
	    CONFGEN_BROTLI_LINUX : NULL;
	p->admin = admin->ptr;
	p->data = data->ptr;
	buf_printf(acme, "%s" ACME_SUBDIR, s->state);
	p->acme = acme->ptr;
}

static int
linux_config(struct driver *drv, const char *jail, struct buf *out,
    char **path, struct diag *d)
{
	const struct spec *s = drv->spec;
	struct buf state = BUF_INIT, root = BUF_INIT, admin = BUF_INIT;
	struct buf data = BUF_INIT, cp = BUF_INIT, acme = BUF_INIT;
	struct buf sock = BUF_INIT;
	struct confgen_paths p;
	const struct spec_site *site = NULL;
	int rc = 0;

	if (lx_is_gemini(jail))
		site = spec_gemini_site(s);
	else if (!lx_is_proxy(jail))
		site = spec_site(s, jail);
	if (!lx_is_proxy(jail) && site == NULL)
		return diag_error(d, s->file, 0, "unknown site '%s'", jail);
	paths_for(s, jail, &state, &root, &admin, &data, &acme, &sock, &p);
	if (lx_is_gemini(jail))
		rc = confgen_molly(out, s, site, &p);
	else if (site != NULL)
		rc = confgen_site_nginx(out, s, site, &p);
	else if (s->proxy.kind == PROXY_CADDY)
		rc = confgen_caddy(out, s, &p);
	else
		rc = confgen_proxy_nginx(out, s, &p);
	lx_conf_path(&cp, s, jail);
	*path = buf_detach(&cp, NULL);
	buf_release(&state);
	buf_release(&root);
	buf_release(&admin);
	buf_release(&data);
	buf_release(&acme);
	buf_release(&sock);
	return rc;
}

/* Checks a config with the server itself before it replaces the old one. */
static int
write_config(struct ldrv *ld, const struct action *a, struct diag *d)
{
	const struct spec *s = ld->pub.spec;
	const char *jail = a->target, *path = a->args[0];
	struct buf tmp = BUF_INIT, dir = BUF_INIT, elog = BUF_INIT;
	struct buf ns = BUF_INIT;
	int rc = -1;

	if (lx_jail_dirs(s, jail, d) == -1)
		goto out;
	lx_jail_dir(&dir, s, jail);
	buf_printf(&tmp, "%s.check", path);
	if (lx_write_text(tmp.ptr, a->payload, 0644, d) == -1)
		goto out;
	lx_ns_name(&ns, s, jail);
	if (lx_is_gemini(jail)) {
		/* molly-brown has no check mode: its config is a few
		 * keys of ours; the certificate it names must be there. */
		if (lx_gemini_cert(s, d) == -1)
			goto out;
	} else if (lx_is_proxy(jail) && s->proxy.kind == PROXY_CADDY) {
		char *argv[] = { "caddy", "validate", "--adapter", "caddyfile",
		    "--config", tmp.ptr, NULL };
		struct buf outp = BUF_INIT;
		struct process_opts so;

		/* caddy validate with the proxy's own environment. */
		memset(&so, 0, sizeof(so));
		so.env = lx_caddy_env(s);
		so.out = &outp;
		so.timeout = 60;
		if (process_run(argv, &so, NULL) != 0) {
			const char *e = strstr(outp.ptr, "Error:");

			diag_error(d, tmp.ptr, 0, "caddy validate: %s",
			    e ? e : outp.ptr);
			buf_release(&outp);
			goto out;
		}
		buf_release(&outp);
	} else {
		buf_printf(&elog, "%s/logs/error.log", dir.ptr);
		if (MUST(d, "ip", "netns", "exec", ns.ptr, "nginx", "-t", "-q",
		    "-p", dir.ptr, "-c", tmp.ptr, "-e", elog.ptr) == -1)
			goto out;
	}
	if (rename(tmp.ptr, path) == -1) {
		diag_error(d, path, 0, "rename: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (rc == -1)
		unlink(tmp.ptr);
	buf_release(&tmp);
	buf_release(&dir);
	buf_release(&elog);
	buf_release(&ns);
	return rc;
}

static int
linux_execute(struct driver *drv, const struct action *a, struct diag *d)
{
	struct ldrv *ld = (struct ldrv *)drv;
	const struct spec *s = drv->spec;

	switch (a->kind) {
	case ACT_NETWORK_CREATE:
		return lx_network_create(s, d);
	case ACT_NETWORK_DESTROY:
		if (if_nametoindex(s->net.bridge) == 0)
			return 0;
		return MUST(d, "ip", "link", "delete", s->net.bridge);
	case ACT_JAIL_CREATE:
		return lx_jail_create(s, a->target, d);
	case ACT_JAIL_DESTROY:
		if (lx_stop(ld, a->target, d) == -1)
			return -1;
		return lx_jail_destroy(s, a->target, d);
	case ACT_CONFIG_WRITE:
		return write_config(ld, a, d);
	case ACT_SERVICE_START:
		return lx_start(ld, a->target, d);
	case ACT_SERVICE_RELOAD:
		return lx_reload(ld, a->target, d);
	case ACT_SERVICE_STOP:
		return lx_stop(ld, a->target, d);
	case ACT_FIREWALL_LOAD:
		return lx_firewall_load(s, d);
	case ACT_FIREWALL_REMOVE:
		return lx_firewall_remove(s, d);
	case ACT_DATA_REMOVE:
		return lx_data_remove(s, a->target, d);
	}
	return diag_error(d, NULL, 0, "unknown action");
}

static void
linux_describe(struct driver *drv, const char *jail, struct buf *out)
{
	const struct spec *s = drv->spec;
	struct buf ns = BUF_INIT;
	pid_t pid = lx_server_pid(s, jail);
	char as[16];

	lx_ns_name(&ns, s, jail);
	spec_ntoa(lx_jail_addr(s, jail), as);
	buf_printf(out, "netns %s, address %s, ", ns.ptr, as);
	if (pid > 0)
		buf_printf(out, "%s pid %ld", lx_is_gemini(jail) ?
		    "molly-brown" : lx_is_proxy(jail) &&
		    s->proxy.kind == PROXY_CADDY ? "caddy" : "nginx",
		    (long)pid);
	else
		buf_adds(out, "server down");
	buf_release(&ns);
}

static int
linux_proxy_ca(struct driver *drv, struct buf *pem, struct diag *d)
{
	struct buf b = BUF_INIT;
	int rc = 0;

	if (drv->spec->proxy.kind != PROXY_CADDY ||
	    drv->spec->proxy.tls != TLS_INTERNAL)
		return 0;
	lx_jail_dir(&b, drv->spec, "proxy");
	buf_adds(&b, "/data/pki/authorities/local/root.crt");
	/* Caddy writes it when it first starts */
	if (lx_read_text(b.ptr, pem) == -1 && errno != ENOENT) {
		diag_error(d, b.ptr, 0, "cannot read the proxy's CA: %s",
		    strerror(errno));
		rc = -1;
	}
	buf_release(&b);
	return rc;
}

static char *
linux_log_path(struct driver *drv, const char *jail)
{
	struct buf b = BUF_INIT;

	lx_jail_dir(&b, drv->spec, jail);
	if (lx_is_proxy(jail) && drv->spec->proxy.kind == PROXY_CADDY)
		buf_adds(&b, "/logs/caddy.log");
	else if (lx_is_gemini(jail))
		buf_adds(&b, "/logs/error.log");
	else
		buf_adds(&b, "/logs/error.log");
	return buf_detach(&b, NULL);
}

static int
linux_enter(struct driver *drv, const char *jail)
{
	return lx_enter_netns(drv->spec, jail);
}

static pid_t
linux_server_pid(struct driver *drv, const char *jail)
{
	return lx_server_pid(drv->spec, jail);
}

static void
linux_free(struct driver *drv)
{
	free(drv);
}

static int
linux_force_renewal(struct driver *drv, const char *const *names, size_t n,
    struct diag *d)
{
	return lx_caddy_renewal(drv->spec, names, n, d);
}

static const struct driver_ops linux_ops = {
	.platform = "linux-netns",
	.observe = linux_observe,
	.config = linux_config,
	.execute = linux_execute,
	.describe = linux_describe,
	.proxy_ca = linux_proxy_ca,
	.enter = linux_enter,
	.log_path = linux_log_path,
	.server_pid = linux_server_pid,
	.force_renewal = linux_force_renewal,
	.free = linux_free,
};

struct driver *
driver_linux_open(const struct spec *s, struct diag *d)
{
	struct ldrv *ld;

	if (geteuid() != 0) {
		diag_error(d, NULL, 0, "linux-netns needs root (namespaces, "
		    "nftables)");
		return NULL;
	}
	ld = xcalloc(1, sizeof(*ld));
	ld->pub.ops = &linux_ops;
	ld->pub.spec = s;
	return &ld->pub;
}


