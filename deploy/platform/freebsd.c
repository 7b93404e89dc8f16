/* The FreeBSD driver core the Bastille and jail.conf drivers share: names
 * and paths, the jail network, pf, observing the host, running actions. */

#include "freebsd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acme.h"
#include "confgen.h"
#include "mem.h"

/* ---- names and paths ---- */

void
fb_jail_name(const struct spec *s, const char *jail, struct buf *out)
{
	buf_printf(out, "%s-%s", s->name, jail);
}

static int
is_proxy(const char *jail)
{
	return strcmp(jail, "proxy") == 0;
}

static int
is_gemini(const char *jail)
{
	return strcmp(jail, "gemini") == 0;
}

/*
 * The Gemini jail runs gmid (net/gmid): a maintained port with a check
 * mode (gmid -n, used before a config replaces the live one), privilege
 * separation and a chroot of its own. net/vger is an inetd service that
 * needs a separate TLS terminator in front.
 */
const char *
fb_server(const struct spec *s, const char *jail)
{
	if (is_gemini(jail))
		return "gmid";
	return is_proxy(jail) && s->proxy.kind == PROXY_CADDY ? "caddy" :
	    "nginx";
}

const char *
fb_conf_file(const struct spec *s, const char *jail)
{
	if (is_gemini(jail))
		return FB_GMID_CONF;
	return is_proxy(jail) && s->proxy.kind == PROXY_CADDY ?
	    FB_CADDY_DIR "/Caddyfile" : FB_NGINX_DIR "/nginx.conf";
}

const char *
fb_jail_addr(const struct spec *s, const char *jail)
{
	const struct spec_site *site = spec_site(s, jail);

	if (is_gemini(jail))
		return s->net.gemini_str;
	return site ? site->addr_str : s->net.proxy_str;
}

const char *
fb_site_of(const struct spec *s, const char *jail)
{
	if (is_proxy(jail))
		return NULL;
	if (is_gemini(jail))
		return spec_gemini_site(s) ? spec_gemini_site(s)->name : NULL;
	return jail;
}

void
fb_gemini_tls_dir(const struct spec *s, struct buf *out)
{
	buf_printf(out, "%s/jails/gemini/tls", s->state);
}

void
fb_socks_dir(const struct spec *s, const char *site, struct buf *out)
{
	buf_printf(out, "%s/socks", s->state);
	if (site != NULL)
		buf_printf(out, "/%s/" CONFGEN_SOCK_DIR, site);
}

void
fb_gemini_cert(const struct spec *s, struct fb_script *sc)
{
	const struct spec_site *site = spec_gemini_site(s);
	struct buf dir = BUF_INIT, crt = BUF_INIT, key = BUF_INIT;
	struct buf subj = BUF_INIT, san = BUF_INIT;

	if (site == NULL || site->ndomains == 0)
		return;
	fb_gemini_tls_dir(s, &dir);
	buf_printf(&crt, "%s/cert.pem", dir.ptr);
	buf_printf(&key, "%s/key.pem", dir.ptr);
	buf_printf(&subj, "/CN=%s", site->domains[0]);
	buf_printf(&san, "subjectAltName=DNS:%s", site->domains[0]);
	fb_cmd(sc, "mkdir", "-p", dir.ptr, NULL);
	fb_cmd(sc, "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
	    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "36500",
	    "-subj", subj.ptr, "-addext", san.ptr, "-keyout", key.ptr,
	    "-out", crt.ptr, NULL);
	fb_guard(sc, "test", "-s", crt.ptr, NULL);
	/* gmid reads both as root, before it drops privileges. */
	fb_cmd(sc, "chmod", "600", key.ptr, NULL);
	buf_release(&dir);
	buf_release(&crt);
	buf_release(&key);
	buf_release(&subj);
	buf_release(&san);
}

/* FreeBSD has no www-data: the ports' servers run as www. */
const char *
fb_user(const struct spec *s)
{
	return strcmp(s->user, "www-data") == 0 ? "www" : s->user;
}

void
fb_check_argv(const struct spec *s, const char *jail, const char *tmp,
    const char *argv[8])
{
	size_t n = 0;

	if (strcmp(fb_server(s, jail), "gmid") == 0) {
		argv[n++] = "gmid";
		argv[n++] = "-n";
		argv[n++] = "-c";
		argv[n++] = tmp;
	} else if (strcmp(fb_server(s, jail), "caddy") == 0) {
		argv[n++] = "caddy";
		argv[n++] = "validate";
		argv[n++] = "--config";
		argv[n++] = tmp;
		argv[n++] = "--adapter";
		argv[n++] = "caddyfile";
	} else {
		argv[n++] = "nginx";
		argv[n++] = "-t";
		argv[n++] = "-q";
		argv[n++] = "-c";
		argv[n++] = tmp;
	}
	argv[n] = NULL;
}

void
fb_write_file(struct fb_script *sc, const char *path, const char *text)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');

	if (slash != NULL && slash != dir && strcmp(dir, "/etc/") != 0 &&
	    (slash - dir != 4 || strncmp(dir, "/etc", 4) != 0)) {
		*slash = '\0';
		fb_cmd(sc, "mkdir", "-p", dir, NULL);
	}
	fb_cmd_input(sc, text, "cat", NULL);
	sc->v[sc->n - 1].out_file = xstrdup(path);
	free(dir);
}

size_t
fb_cert_dirs(const struct spec *s, char *dirs[], size_t max)
{
	const char *files[64];
	size_t nf = 0, n = 0, i, k;

	/* Caddy reads only a private ACME server's root from the host. */
	if (s->proxy.acme_ca_root != NULL)
		files[nf++] = s->proxy.acme_ca_root;
	if (s->proxy.kind == PROXY_NGINX) {
		if (s->proxy.cert != NULL)
			files[nf++] = s->proxy.cert;
		if (s->proxy.key != NULL)
			files[nf++] = s->proxy.key;
		for (i = 0; i < s->nsites && nf + 2 <= 64; i++) {
			if (s->sites[i].cert != NULL)
				files[nf++] = s->sites[i].cert;
			if (s->sites[i].key != NULL)
				files[nf++] = s->sites[i].key;
		}
	}
	for (i = 0; i < nf && n < max; i++) {
		const char *slash = strrchr(files[i], '/');
		char *dir;
		int dup = 0;

		if (slash == NULL || slash == files[i])
			continue;
		dir = xstrndup(files[i], (size_t)(slash - files[i]));
		for (k = 0; k < n; k++)
			dup |= strcmp(dirs[k], dir) == 0;
		if (dup)
			free(dir);
		else
			dirs[n++] = dir;
	}
	return n;
}

/* ---- network ---- */

void
fb_network_create(const struct spec *s, struct fb_script *sc)
{
	struct buf var = BUF_INIT, val = BUF_INIT;

	fb_cmd(sc, "sysrc", "cloned_interfaces+=lo1", NULL);
	buf_printf(&var, "ifconfig_lo1_name=%s", s->net.bridge);
	fb_cmd(sc, "sysrc", var.ptr, NULL);
	buf_clear(&var);
	buf_printf(&var, "ifconfig_%s=inet %s/%d", s->net.bridge,
	    s->net.gateway_str, s->net.prefix);
	fb_cmd(sc, "sysrc", var.ptr, NULL);
	fb_cmd(sc, "service", "netif", "cloneup", NULL);
	buf_printf(&val, "%s/%d", s->net.gateway_str, s->net.prefix);
	fb_cmd(sc, "ifconfig", s->net.bridge, "inet", val.ptr, NULL);
	/* The jails share the host's stack: its somaxconn caps every
	 * server's listen backlog (128 by default). */
	buf_clear(&var);
	buf_printf(&var, "kern.ipc.somaxconn=%d", CONFGEN_BACKLOG);
	fb_cmd(sc, "sysctl", var.ptr, NULL);
	fb_cmd(sc, "sysrc", "-f", "/etc/sysctl.conf", var.ptr, NULL);
	buf_release(&var);
	buf_release(&val);
}

void
fb_network_destroy(const struct spec *s, struct fb_script *sc)
{
	struct buf var = BUF_INIT;

	fb_cmd(sc, "ifconfig", s->net.bridge, "destroy", NULL);
	fb_may_fail(sc);
	fb_cmd(sc, "sysrc", "cloned_interfaces-=lo1", NULL);
	buf_printf(&var, "ifconfig_%s", s->net.bridge);
	fb_cmd(sc, "sysrc", "-x", "ifconfig_lo1_name", var.ptr, NULL);
	fb_may_fail(sc);
	buf_release(&var);
}

/* ---- pf ---- */

void
fb_pf_conf(const struct spec *s, const char *ext_if, int ssh_port,
    int anchors, struct buf *out)
{
	size_t i;

	buf_printf(out,
	    "# pf.conf for %s, generated by deploy: do not edit.\n"
	    "ext_if=\"%s\"\n"
	    "jail_net=\"%s\"\n"
	    "proxy=\"%s\"\n"
	    "%s%s%s"
	    "\n"
	    "set block-policy return\n"
	    "# One state per proxied connection: room for many clients.\n"
	    "set limit states 200000\n"
	    "set skip on lo\n"
	    "scrub in on $ext_if all fragment reassemble\n"
	    "\n"
	    "# Bastille leaves <jails> empty for on-link addresses: NAT the\n"
	    "# whole subnet instead.\n"
	    "table <jails> persist\n"
	    "nat on $ext_if from $jail_net to any -> ($ext_if:0)\n",
	    s->name, ext_if, s->net.subnet_str, s->net.proxy_str,
	    s->net.gemini ? "gemini=\"" : "", s->net.gemini ? s->net.gemini_str :
	    "", s->net.gemini ? "\"\n" : "");
	for (i = 0; i < s->net.nports; i++) {
		const struct spec_port *p = &s->net.ports[i];

		/* 1965 goes to the Gemini jail, when the host has one */
		if (p->to == 1965 && s->net.gemini == 0)
			continue;
		buf_adds(out, "rdr pass on $ext_if inet proto tcp from any to ");
		if (p->addr != NULL)
			buf_adds(out, p->addr);
		else
			buf_adds(out, "($ext_if)");
		buf_printf(out, " port %d -> $%s port %d\n", p->port,
		    p->to == 1965 ? "gemini" : "proxy", p->to);
		/* QUIC: only when HTTP/3 is on */
		if (p->to == 443 && s->proxy.http3) {
			buf_adds(out, "rdr pass on $ext_if inet proto udp from "
			    "any to ");
			buf_adds(out, p->addr != NULL ? p->addr : "($ext_if)");
			buf_printf(out, " port %d -> $proxy port 443\n",
			    p->port);
		}
	}
	if (anchors)
		buf_adds(out, "rdr-anchor \"rdr/*\"\n");
	buf_adds(out,
	    "\n"
	    "block in all\n");
	if (anchors)
		buf_adds(out, "anchor \"bastille/*\"\n");
	buf_printf(out,
	    "pass out quick keep state\n"
	    "antispoof for $ext_if inet\n"
	    "# SSH to the host itself; flags any keeps a session that was\n"
	    "# open before pf started.\n"
	    "pass in quick on $ext_if inet proto tcp from any to ($ext_if) "
	    "port %d flags any keep state\n"
	    "pass in quick on $ext_if inet proto icmp all icmp-type "
	    "{ echoreq, unreach }\n", ssh_port);
}

void
fb_pf_load(struct fb_script *sc, const char *text)
{
	/* The first load keeps whatever pf.conf the host had. */
	fb_cmd(sc, "cp", "-p", FB_PF_CONF, FB_PF_CONF ".before-deploy", NULL);
	fb_guard(sc, "test", "-e", FB_PF_CONF ".before-deploy", NULL);
	fb_may_fail(sc);
	fb_write_file(sc, FB_PF_CONF ".new", text);
	fb_cmd(sc, "pfctl", "-nf", FB_PF_CONF ".new", NULL);
	fb_cmd(sc, "mv", FB_PF_CONF ".new", FB_PF_CONF, NULL);
	fb_cmd(sc, "sysrc", "pf_enable=YES", NULL);
	fb_cmd(sc, "kldload", "-n", "pf", NULL);
	fb_cmd(sc, "pfctl", "-f", FB_PF_CONF, NULL);
	fb_cmd(sc, "pfctl", "-e", NULL);
	fb_may_fail(sc);
}

/* ---- the driver core ---- */

struct driver *
fb_driver_open(const struct spec *s, const struct fb_flavour *fl,
    const struct driver_ops *ops, struct diag *d)
{
	struct fb_driver *fd;

	if (s->host == HOST_SSH && (s->ssh_user == NULL || s->ssh_host == NULL)) {
		diag_error(d, s->file, 0, "host: expected ssh://user@host");
		return NULL;
	}
	fd = xcalloc(1, sizeof(*fd));
	fd->pub.ops = ops;
	fd->pub.spec = s;
	fd->fl = fl;
	fd->host = fb_host_new(s);
	return &fd->pub;
}

void
fb_driver_replay(struct driver *drv, const char *dir)
{
	fb_host_replay(((struct fb_driver *)drv)->host, dir);
}

void
fb_free(struct driver *drv)
{
	struct fb_driver *fd = (struct fb_driver *)drv;

	fb_host_free(fd->host);
	free(fd->release);
	free(fd->ext_if);
	free(fd->arch);
	free(fd);
}

void
fb_observed_add(struct observed *o, const char *name, int wanted)
{
	struct observed_jail *j;

	o->jails = xrealloc(o->jails, (o->njails + 1) * sizeof(*o->jails));
	j = &o->jails[o->njails++];
	memset(j, 0, sizeof(*j));
	j->name = xstrdup(name);
	j->wanted = wanted;
	buf_init(&j->config);
}

static struct observed_jail *
observed_find(struct observed *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->njails; i++)
		if (strcmp(o->jails[i].name, name) == 0)
			return &o->jails[i];
	return NULL;
}

static int
ssh_port(const struct spec *s)
{
	return s->host == HOST_SSH && s->ssh_port != 0 ? s->ssh_port : 22;
}

static void
pf_text(struct fb_driver *fd, struct buf *out)
{
	fb_pf_conf(fd->pub.spec, fd->ext_if, ssh_port(fd->pub.spec),
	    fd->fl->pf_anchors, out);
}

static enum obj_state
observe_firewall(struct fb_driver *fd, struct diag *d)
{
	const struct spec *s = fd->pub.spec;
	struct buf have = BUF_INIT, want = BUF_INIT, head = BUF_INIT;
	struct buf r = BUF_INIT, n = BUF_INIT, on = BUF_INIT;
	struct fb_rules fr = { NULL, 0 }, nr = { NULL, 0 };
	enum obj_state st = OBJ_ABSENT;

	buf_printf(&head, "# pf.conf for %s, generated by deploy", s->name);
	if (fb_host_ask(fd->host, &have, d, "cat", FB_PF_CONF, NULL) != 0 ||
	    strncmp(have.ptr, head.ptr, head.len) != 0)
		goto out;
	st = OBJ_DIFFERENT;
	pf_text(fd, &want);
	if (strcmp(have.ptr, want.ptr) != 0)
		goto out;
	if (fb_host_ask(fd->host, &r, d, "pfctl", "-sr", NULL) != 0 ||
	    fb_host_ask(fd->host, &n, d, "pfctl", "-sn", NULL) != 0)
		goto out;
	fb_parse_pfctl(r.ptr, &fr);
	fb_parse_pfctl(n.ptr, &nr);
	buf_printf(&on, "on %s ", fd->ext_if);
	/* Loaded, in order: NAT and rdr (pfctl -sn), block then SSH. */
	if (fb_rules_find(&nr, "nat ", on.ptr, s->net.subnet_str, NULL) >= 0 &&
	    fb_rules_find(&nr, "rdr pass ", on.ptr, s->net.proxy_str,
	    NULL) >= 0 &&
	    (s->net.gemini == 0 || fb_rules_find(&nr, "rdr pass ", on.ptr,
	    s->net.gemini_str, NULL) >= 0) &&
	    fb_rules_find(&fr, "block return in all", NULL) >= 0 &&
	    fb_rules_find(&fr, "block return in all", NULL) <
	    fb_rules_find(&fr, "pass in quick ", on.ptr, "proto tcp",
	    "flags any", NULL))
		st = OBJ_OK;
out:
	fb_rules_release(&fr);
	fb_rules_release(&nr);
	buf_release(&have);
	buf_release(&want);
	buf_release(&head);
	buf_release(&r);
	buf_release(&n);
	buf_release(&on);
	return st;
}

int
fb_observe(struct driver *drv, struct observed *o, struct diag *d)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	const struct spec *s = drv->spec;
	struct buf out = BUF_INIT, path = BUF_INIT;
	struct observed_jail *j;
	char *line, *next;
	size_t i;
	int rc = -1;

	if (fb_host_ask(fd->host, &out, d, "freebsd-version", "-u", NULL) != 0 ||
	    fb_parse_version(out.ptr, &path) == -1) {
		diag_error(d, s->file, 0, "%s: cannot tell the host's FreeBSD "
		    "release (freebsd-version -u)", s->host_str);
		goto out;
	}
	free(fd->release);
	fd->release = buf_detach(&path, NULL);
	if (fb_host_ask(fd->host, &out, d, "route", "-n", "get", "default", NULL) != 0 ||
	    fb_parse_route(out.ptr, &path) == -1) {
		diag_error(d, s->file, 0, "%s: no default route: cannot tell "
		    "the external interface (route -n get default)",
		    s->host_str);
		goto out;
	}
	free(fd->ext_if);
	fd->ext_if = buf_detach(&path, NULL);

	o->network = OBJ_ABSENT;
	if (fb_host_ask(fd->host, &out, d, "ifconfig", s->net.bridge, NULL) == 0)
		o->network = fb_ifconfig_has(out.ptr, s->net.gateway_str,
		    s->net.prefix) ? OBJ_OK : OBJ_DIFFERENT;

	for (i = 0; i < s->nsites; i++)
		fb_observed_add(o, s->sites[i].name, 1);
	fb_observed_add(o, "proxy", 1);
	if (spec_gemini_site(s) != NULL)
		fb_observed_add(o, "gemini", 1);
	if (fd->fl->observe_jails(fd, o, d) == -1)
		goto out;
	/* Site folders: data to keep, or left from a removed site. */
	if (fb_host_ask(fd->host, &out, d, "ls", "-1", s->releases.root, NULL) == 0)
		for (line = out.ptr; *line != '\0'; line = next) {
			next = line + strcspn(line, "\n");
			if (*next != '\0')
				*next++ = '\0';
			if (*line == '\0' || *line == '.' ||
			    strcmp(line, "proxy") == 0)
				continue;
			if ((j = observed_find(o, line)) == NULL) {
				fb_observed_add(o, line, 0);
				j = &o->jails[o->njails - 1];
			}
			j->has_data = 1;
		}
	for (i = 0; i < o->njails; i++) {
		j = &o->jails[i];
		if (j->jail == OBJ_ABSENT)
			continue;
		buf_clear(&path);
		fd->fl->jail_root(fd, j->name, &path);
		buf_adds(&path, fb_conf_file(s, j->name));
		if (fb_host_ask(fd->host, &out, d, "cat", path.ptr, NULL) == 0) {
			j->has_config = 1;
			buf_clear(&j->config);
			buf_add(&j->config, out.ptr, out.len);
		}
	}
	/* The proxy changed kind: its jail holds the other server. */
	if ((j = observed_find(o, "proxy")) != NULL && j->jail != OBJ_ABSENT) {
		buf_clear(&path);
		fd->fl->jail_root(fd, "proxy", &path);
		buf_adds(&path, s->proxy.kind == PROXY_CADDY ?
		    FB_NGINX_DIR "/nginx.conf" : FB_CADDY_DIR "/Caddyfile");
		if (fb_host_ask(fd->host, &out, d, "cat", path.ptr, NULL) == 0)
			j->jail = OBJ_DIFFERENT;
	}
	/* A jail made again loses the config kept inside it. */
	for (i = 0; i < o->njails; i++)
		if (o->jails[i].jail == OBJ_DIFFERENT) {
			o->jails[i].has_config = 0;
			buf_clear(&o->jails[i].config);
		}
	o->firewall = observe_firewall(fd, d);
	fd->pf_ready = o->firewall == OBJ_OK;
	rc = 0;
out:
	buf_release(&out);
	buf_release(&path);
	return rc;
}

int
fb_config(struct driver *drv, const char *jail, struct buf *out, char **path,
    struct diag *d)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	struct spec s = *drv->spec;
	const struct spec_site *site = NULL;
	struct confgen_paths p;
	struct buf hp = BUF_INIT;
	int rc;

	if (is_gemini(jail))
		site = spec_gemini_site(&s);
	else if (!is_proxy(jail))
		site = spec_site(&s, jail);
	if (!is_proxy(jail) && site == NULL)
		return diag_error(d, s.file, 0, "unknown site '%s'", jail);
	s.user = (char *)fb_user(drv->spec);
	p.state = FB_JAIL_STATE;
	p.root = FB_JAIL_ROOT;
	p.mime_types = FB_NGINX_DIR "/mime.types";
	p.admin = FB_CADDY_ADMIN;
	p.data = FB_CADDY_DATA;
	p.acme = FB_JAIL_STATE ACME_SUBDIR;
	/* the brotli module of FreeBSD's nginx is a build option, off in the
	 * package: gzip only (deploy check says so) */
	p.brotli_static = NULL;
	/* jail_fstab and the Bastillefile mount the socket folders */
	p.sock = site != NULL && !is_gemini(jail) ?
	    FB_JAIL_STATE "/" CONFGEN_SOCK : NULL;
	p.socks = is_proxy(jail) ? FB_JAIL_SOCKS : NULL;
	if (is_gemini(jail))
		rc = confgen_gmid(out, &s, site, &p);
	else if (site != NULL)
		rc = confgen_site_nginx(out, &s, site, &p);
	else if (s.proxy.kind == PROXY_CADDY)
		rc = confgen_caddy(out, &s, &p);
	else
		rc = confgen_proxy_nginx(out, &s, &p);
	fd->fl->jail_root(fd, jail, &hp);
	buf_adds(&hp, fb_conf_file(&s, jail));
	*path = buf_detach(&hp, NULL);
	return rc;
}

static int
commands(struct fb_driver *fd, const struct action *a, struct fb_script *sc,
    struct diag *d)
{
	struct buf text = BUF_INIT;

	switch (a->kind) {
	case ACT_JAIL_CREATE:
		/*
		 * A new jail installs its server with pkg, through the NAT:
		 * pf.conf goes in before the first jail. It holds nothing
		 * that depends on the jails, so the plan's last action
		 * finds it loaded (an rdr to a proxy not yet up is refused).
		 */
		if (fd->pf_ready)
			break;
		pf_text(fd, &text);
		fb_pf_load(sc, text.ptr);
		buf_release(&text);
		fd->pf_ready = 1;
		break;
	case ACT_FIREWALL_LOAD:
		if (fd->pf_ready) {
			fb_cmd(sc, "pfctl", "-f", FB_PF_CONF, NULL);
			return 0;
		}
		pf_text(fd, &text);
		fb_pf_load(sc, text.ptr);
		buf_release(&text);
		fd->pf_ready = 1;
		return 0;
	case ACT_FIREWALL_REMOVE:
		fb_cmd(sc, "pfctl", "-d", NULL);
		fb_may_fail(sc);
		fb_cmd(sc, "sysrc", "pf_enable=NO", NULL);
		fb_cmd(sc, "mv", FB_PF_CONF, FB_PF_CONF ".removed-by-deploy",
		    NULL);
		return 0;
	default:
		break;
	}
	if (fd->fl->commands(fd, a, sc, d) == -1)
		return -1;
	fb_acme_commands(fd, a, sc);
	return 0;
}

int
fb_execute(struct driver *drv, const struct action *a, struct diag *d)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	struct fb_script sc = { NULL, 0, 0 };
	int rc = -1;

	if (fd->release == NULL) {
		diag_error(d, NULL, 0, "observe the host before acting on it");
		return -1;
	}
	if (commands(fd, a, &sc, d) == 0)
		rc = fb_host_exec(fd->host, &sc, d);
	fb_script_release(&sc);
	return rc;
}

int
freebsd_plan_script(struct driver *drv, const struct plan *p, struct buf *out,
    struct diag *d)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	const struct spec *s = drv->spec;
	struct fb_script sc;
	size_t i, j;
	int rc = 0, ready = fd->pf_ready;

	if (strncmp(drv->ops->platform, "freebsd-", 8) != 0)
		return diag_error(d, s->file, 0, "no script for platform %s",
		    drv->ops->platform);
	buf_printf(out,
	    "#!/bin/sh\n"
	    "# deploy: %zu action%s for %s (platform %s, host %s),\n"
	    "# FreeBSD %s, external interface %s. Runs as root on the host.\n"
	    "set -eu\n", p->n, p->n == 1 ? "" : "s", s->name,
	    drv->ops->platform, s->host_str ? s->host_str : "local",
	    fd->release ? fd->release : "?", fd->ext_if ? fd->ext_if : "?");
	for (i = 0; i < p->n && rc == 0; i++) {
		const struct action *a = &p->v[i];

		buf_printf(out, "\n# %zu/%zu %s %s", i + 1, p->n,
		    action_name(a->kind), a->target);
		for (j = 0; j < ACTION_ARGS && a->args[j] != NULL; j++)
			buf_printf(out, " %s", a->args[j]);
		buf_addc(out, '\n');
		memset(&sc, 0, sizeof(sc));
		if (commands(fd, a, &sc, d) == -1 ||
		    fb_script_sh(&sc, out, d) == -1)
			rc = -1;
		fb_script_release(&sc);
	}
	fd->pf_ready = ready;
	return rc;
}

int
freebsd_gemini_restart(struct driver *drv, struct diag *d)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	struct fb_script sc = { NULL, 0, 0 };
	struct action a;
	int rc = -1;

	if (strncmp(drv->ops->platform, "freebsd-", 8) != 0)
		return 0;
	memset(&a, 0, sizeof(a));
	a.kind = ACT_SERVICE_STOP;
	a.target = "gemini";
	if (fd->fl->commands(fd, &a, &sc, d) == 0) {
		a.kind = ACT_SERVICE_START;
		if (fd->fl->commands(fd, &a, &sc, d) == 0)
			rc = fb_host_exec(fd->host, &sc, d);
	}
	fb_script_release(&sc);
	return rc;
}

int
fb_after_switch(struct driver *drv, const struct spec_site *site,
    struct diag *d)
{
	return site->gemini ? freebsd_gemini_restart(drv, d) : 0;
}

void
fb_describe(struct driver *drv, const char *jail, struct buf *out)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	const struct spec *s = drv->spec;

	buf_adds(out, "jail ");
	fb_jail_name(s, jail, out);
	buf_printf(out, " (%s), address %s, %s, config ", fd->fl->platform,
	    fb_jail_addr(s, jail), fb_server(s, jail));
	fd->fl->jail_root(fd, jail, out);
	buf_adds(out, fb_conf_file(s, jail));
}

/* Caddy's local CA, read on the jail host (over ssh when it is another). */
int
fb_proxy_ca(struct driver *drv, struct buf *pem, struct diag *d)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	const struct spec *s = drv->spec;
	struct buf path = BUF_INIT, out = BUF_INIT;
	int rc;

	if (s->proxy.kind != PROXY_CADDY || s->proxy.tls != TLS_INTERNAL)
		return 0;
	fd->fl->jail_root(fd, "proxy", &path);
	buf_adds(&path, FB_CADDY_DATA "/pki/authorities/local/root.crt");
	/* none yet (Caddy has not started): cat says so, and that is no
	 * failure; a host that cannot be reached is (-1) */
	rc = fb_host_ask(fd->host, &out, d, "cat", path.ptr, NULL);
	if (rc == 0)
		buf_add(pem, out.ptr, out.len);
	buf_release(&path);
	buf_release(&out);
	return rc == -1 ? -1 : 0;
}

/* There is no jail network to join from another machine. */
int
fb_enter(struct driver *drv, const char *jail)
{
	(void)drv;
	(void)jail;
	return -1;
}

char *
fb_log_path(struct driver *drv, const char *jail)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	struct buf b = BUF_INIT;

	fd->fl->jail_root(fd, jail, &b);
	buf_adds(&b, FB_JAIL_STATE "/logs/error.log");
	return buf_detach(&b, NULL);
}
