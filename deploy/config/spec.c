#include "spec.h"

#include <sys/types.h>
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <ifaddrs.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <yaml.h>

#include "buf.h"
#include "mem.h"
#include "spec_int.h"

struct specx {
	struct spec	 pub;
	struct arena	*arena;
};

void
spec_ntoa(uint32_t a, char out[16])
{
	xsnprintf(out, 16, "%u.%u.%u.%u", a >> 24, (a >> 16) & 255,
	    (a >> 8) & 255, a & 255);
}

static void
parse_host(struct ctx *c, yaml_node_t *n)
{
	struct spec *s = c->s;
	const char *v = sp_scalar(c, n, "host");
	const char *rest, *at, *colon;
	long port = 22;

	if (v == NULL)
		return;
	s->host_str = sp_sdup(c, v);
	if (strcmp(v, "local") == 0) {
		s->host = HOST_LOCAL;
		return;
	}
	if (strncmp(v, "ssh://", 6) != 0) {
		sp_err(c, sp_line_of(n), "host: '%s' is neither 'local' nor "
		    "ssh://user@host[:port]", v);
		return;
	}
	s->host = HOST_SSH;
	rest = v + 6;
	at = strchr(rest, '@');
	if (at == NULL || at == rest) {
		sp_err(c, sp_line_of(n), "host: '%s' has no user (ssh://user@host)", v);
		return;
	}
	s->ssh_user = arena_strndup(c->arena, rest, at - rest);
	rest = at + 1;
	if (*rest == '[') {
		/* an IPv6 address: ssh://user@[2001:db8::1]:22 */
		const char *close = strchr(rest, ']');

		if (close == NULL || close == rest + 1 ||
		    (close[1] != '\0' && close[1] != ':')) {
			sp_err(c, sp_line_of(n), "host: bad IPv6 address in "
			    "'%s' (ssh://user@[ADDRESS]:PORT)", v);
			return;
		}
		if (close[1] == ':' &&
		    sp_parse_int(close + 2, 1, 65535, &port) == -1) {
			sp_err(c, sp_line_of(n), "host: bad port in '%s'", v);
			return;
		}
		s->ssh_host = arena_strndup(c->arena, rest + 1,
		    close - rest - 1);
		s->ssh_port = (int)port;
		return;
	}
	colon = strrchr(rest, ':');
	if (colon != NULL) {
		if (sp_parse_int(colon + 1, 1, 65535, &port) == -1) {
			sp_err(c, sp_line_of(n), "host: bad port in '%s'", v);
			return;
		}
		s->ssh_host = arena_strndup(c->arena, rest, colon - rest);
	} else
		s->ssh_host = sp_sdup(c, rest);
	if (*s->ssh_host == '\0' || strpbrk(s->ssh_host, "/ ") != NULL)
		sp_err(c, sp_line_of(n), "host: bad host name in '%s'", v);
	else if (strlen(s->ssh_host) > 253)
		sp_err(c, sp_line_of(n), "host: a host name is at most 253 "
		    "characters; '%.40s...' has %zu", s->ssh_host,
		    strlen(s->ssh_host));
	s->ssh_port = (int)port;
}

/* "[ADDR:]PORT -> 80|443|1965" */
static void
parse_port(struct ctx *c, yaml_node_t *n, struct spec_port *p)
{
	const char *v = sp_scalar(c, n, "network.ports");
	const char *arrow, *colon;
	char *left, *l;
	long port, to;
	uint32_t a;

	if (v == NULL)
		return;
	p->line = sp_line_of(n);
	arrow = strstr(v, "->");
	if (arrow == NULL || sp_parse_int(arrow[2] == ' ' ? arrow + 3 : arrow + 2,
	    1, 65535, &to) == -1 || (to != 80 && to != 443 && to != 1965)) {
		sp_err(c, p->line, "network.ports: '%s' is not "
		    "'[ADDRESS:]PORT -> 80|443|1965'", v);
		return;
	}
	left = arena_strndup(c->arena, v, arrow - v);
	for (l = left + strlen(left); l > left && l[-1] == ' '; l--)
		l[-1] = '\0';
	colon = strrchr(left, ':');
	if (colon != NULL) {
		p->addr = arena_strndup(c->arena, left, colon - left);
		if (sp_parse_addr(p->addr, &a) == -1) {
			sp_err(c, p->line, "network.ports: bad address '%s'",
			    p->addr);
			return;
		}
		colon++;
	} else
		colon = left;
	if (sp_parse_int(colon, 1, 65535, &port) == -1) {
		sp_err(c, p->line, "network.ports: bad port '%s'", colon);
		return;
	}
	p->port = (int)port;
	p->to = (int)to;
}

static void
parse_network(struct ctx *c, yaml_node_t *n)
{
	static const char *const keys[] = { "bridge", "subnet", "proxy",
	    "ports", NULL };
	struct spec *s = c->s;
	yaml_node_t *v[4];
	const char *x;
	char tmp[32], *slash;
	long prefix;
	uint32_t a;
	size_t i;

	if (sp_mapping(c, n, "network", keys, v, NULL) == -1)
		return;
	if (v[0] == NULL)
		sp_err(c, sp_line_of(n), "network: missing field 'bridge'");
	else if ((x = sp_scalar(c, v[0], "network.bridge")) != NULL) {
		s->net.bridge = sp_sdup(c, x);
		s->net.bridge_line = sp_line_of(v[0]);
		if (!sp_valid_ifname(x, BRIDGE_MAX))
			sp_err(c, sp_line_of(v[0]), "network.bridge: '%s' is not an "
			    "interface name of at most %d letters, digits, "
			    "'-' or '_'", x, BRIDGE_MAX);
	}
	if (v[1] == NULL)
		sp_err(c, sp_line_of(n), "network: missing field 'subnet'");
	else if ((x = sp_scalar(c, v[1], "network.subnet")) != NULL) {
		s->net.subnet_line = sp_line_of(v[1]);
		if (snprintf(tmp, sizeof(tmp), "%s", x) >= (int)sizeof(tmp) ||
		    (slash = strchr(tmp, '/')) == NULL) {
			sp_err(c, sp_line_of(v[1]), "network.subnet: '%s' is not "
			    "ADDRESS/PREFIX", x);
		} else {
			*slash = '\0';
			if (sp_parse_addr(tmp, &a) == -1 ||
			    sp_parse_int(slash + 1, 16, 28, &prefix) == -1)
				sp_err(c, sp_line_of(v[1]), "network.subnet: '%s' is "
				    "not an IPv4 ADDRESS/PREFIX with a prefix "
				    "from 16 to 28", x);
			else if ((a & ~sp_mask_of((int)prefix)) != 0)
				sp_err(c, sp_line_of(v[1]), "network.subnet: '%s' has "
				    "host bits set", x);
			else {
				s->net.net = a;
				s->net.prefix = (int)prefix;
				s->net.gateway = a + 1;
				spec_ntoa(s->net.gateway, s->net.gateway_str);
				char q[16];

				spec_ntoa(a, q);
				xsnprintf(s->net.subnet_str,
				    sizeof(s->net.subnet_str), "%s/%d", q,
				    (int)prefix & 63);
			}
		}
	}
	if (v[2] == NULL)
		sp_err(c, sp_line_of(n), "network: missing field 'proxy'");
	else if ((x = sp_scalar(c, v[2], "network.proxy")) != NULL) {
		if (sp_parse_addr(x, &a) == -1)
			sp_err(c, sp_line_of(v[2]), "network.proxy: '%s' is not an "
			    "IPv4 address", x);
		else if (s->net.prefix != 0 &&
		    ((a & sp_mask_of(s->net.prefix)) != s->net.net ||
		    a == s->net.net || a == s->net.gateway ||
		    a == (s->net.net | ~sp_mask_of(s->net.prefix))))
			sp_err(c, sp_line_of(v[2]), "network.proxy: %s is not a free "
			    "address of %s (the first one is the host's)", x,
			    s->net.subnet_str);
		else {
			s->net.proxy = a;
			spec_ntoa(a, s->net.proxy_str);
		}
	}
	if (v[3] != NULL) {
		yaml_node_item_t *it;

		if (v[3]->type != YAML_SEQUENCE_NODE) {
			sp_err(c, sp_line_of(v[3]), "network.ports: expected a list");
			return;
		}
		s->net.nports = v[3]->data.sequence.items.top -
		    v[3]->data.sequence.items.start;
		s->net.ports = arena_alloc(c->arena,
		    (s->net.nports + 1) * sizeof(*s->net.ports));
		i = 0;
		for (it = v[3]->data.sequence.items.start;
		    it < v[3]->data.sequence.items.top; it++, i++)
			parse_port(c, yaml_document_get_node(c->doc, *it),
			    &s->net.ports[i]);
	} else {
		s->net.nports = 2;
		s->net.ports = arena_alloc(c->arena, 2 * sizeof(*s->net.ports));
		s->net.ports[0].port = s->net.ports[0].to = 80;
		s->net.ports[1].port = s->net.ports[1].to = 443;
		s->net.ports[0].line = s->net.ports[1].line = sp_line_of(n);
		s->net.ports_default = 1;
	}
	for (i = 0; i < s->net.nports; i++) {
		size_t j;

		for (j = 0; j < i; j++)
			if (s->net.ports[i].port != 0 &&
			    s->net.ports[i].port == s->net.ports[j].port &&
			    (s->net.ports[i].addr == NULL ||
			    s->net.ports[j].addr == NULL ||
			    strcmp(s->net.ports[i].addr,
			    s->net.ports[j].addr) == 0))
				sp_err(c, s->net.ports[i].line, "network.ports: "
				    "host port %d is already used on line %d",
				    s->net.ports[i].port, s->net.ports[j].line);
	}
}

static void
parse_proxy(struct ctx *c, yaml_node_t *n)
{
	static const char *const keys[] = { "kind", "tls", "certificate",
	    "key", "email", "acme_ca", "hsts", "ca", "acme_ca_root",
	    "upstream", "http3", NULL };
	struct spec *s = c->s;
	yaml_node_t *v[11];
	const char *x;
	long hsts;

	s->proxy.line = n ? sp_line_of(n) : 1;
	if (sp_mapping(c, n, "proxy", keys, v, NULL) == -1)
		return;
	if (v[0] == NULL)
		sp_err(c, sp_line_of(n), "proxy: missing field 'kind'");
	else if ((x = sp_scalar(c, v[0], "proxy.kind")) != NULL) {
		if (strcmp(x, "caddy") == 0)
			s->proxy.kind = PROXY_CADDY;
		else if (strcmp(x, "nginx") == 0)
			s->proxy.kind = PROXY_NGINX;
		else
			sp_err(c, sp_line_of(v[0]), "proxy.kind: '%s' is neither "
			    "caddy nor nginx", x);
	}
	if (v[2] != NULL && (x = sp_scalar(c, v[2], "proxy.certificate")) != NULL) {
		s->proxy.cert = sp_join_path(c, x);
		sp_check_file(c, s->proxy.cert, sp_line_of(v[2]), "certificate", x);
	}
	if (v[3] != NULL && (x = sp_scalar(c, v[3], "proxy.key")) != NULL) {
		s->proxy.key = sp_join_path(c, x);
		sp_check_file(c, s->proxy.key, sp_line_of(v[3]), "key", x);
	}
	if (v[4] != NULL && (x = sp_scalar(c, v[4], "proxy.email")) != NULL) {
		if (strchr(x, '@') == NULL || strpbrk(x, " \"{}\\") != NULL)
			sp_err(c, sp_line_of(v[4]), "proxy.email: '%s' is not an "
			    "address", x);
		s->proxy.email = sp_sdup(c, x);
	}
	if (v[5] != NULL && (x = sp_scalar(c, v[5], "proxy.acme_ca")) != NULL) {
		if (strncmp(x, "https://", 8) != 0 ||
		    strpbrk(x, " \"{}\\") != NULL)
			sp_err(c, sp_line_of(v[5]), "proxy.acme_ca: '%s' is not an "
			    "https URL", x);
		s->proxy.acme_ca = sp_sdup(c, x);
	}
	/* a CA the checks trust besides the system's: for a certificate
	 * the user made, self-signed or from a private CA */
	if (v[7] != NULL && (x = sp_scalar(c, v[7], "proxy.ca")) != NULL) {
		s->proxy.ca = sp_join_path(c, x);
		sp_check_file(c, s->proxy.ca, sp_line_of(v[7]), "ca", x);
	}
	/* the root of a private ACME server's own HTTPS (Pebble, step-ca) */
	if (v[8] != NULL &&
	    (x = sp_scalar(c, v[8], "proxy.acme_ca_root")) != NULL) {
		s->proxy.acme_ca_root = sp_join_path(c, x);
		if (strpbrk(s->proxy.acme_ca_root, " \"{}\\\n") != NULL)
			sp_err(c, sp_line_of(v[8]), "proxy.acme_ca_root: '%s' "
			    "has a space, quote or brace", x);
		sp_check_file(c, s->proxy.acme_ca_root, sp_line_of(v[8]),
		    "acme_ca_root", x);
	}
	s->proxy.hsts = 31536000;
	if (v[6] != NULL && (x = sp_scalar(c, v[6], "proxy.hsts")) != NULL) {
		if (sp_parse_int(x, 0, 63072000 * 2L, &hsts) == -1)
			sp_err(c, sp_line_of(v[6]), "proxy.hsts: '%s' is not a "
			    "number of seconds", x);
		s->proxy.hsts = (int)hsts;
	}
	if (v[9] != NULL && (x = sp_scalar(c, v[9], "proxy.upstream")) != NULL) {
		if (strcmp(x, "tcp") == 0)
			s->proxy.upstream_tcp = 1;
		else if (strcmp(x, "unix") != 0)
			sp_err(c, sp_line_of(v[9]), "proxy.upstream: '%s' is "
			    "neither unix nor tcp", x);
	}
	if (v[10] != NULL && (x = sp_scalar(c, v[10], "proxy.http3")) != NULL) {
		if (strcmp(x, "true") == 0)
			s->proxy.http3 = 1;
		else if (strcmp(x, "false") != 0)
			sp_err(c, sp_line_of(v[10]), "proxy.http3: '%s' is neither "
			    "true nor false", x);
		/* Debian 12's nginx (1.22) has no HTTP/3 */
		if (s->proxy.http3 && s->proxy.kind == PROXY_NGINX)
			sp_err(c, sp_line_of(v[10]), "proxy.http3: for kind "
			    "caddy only");
	}
	if (s->proxy.kind == PROXY_NGINX) {
		/* certificate files, or ACME through a client on the host */
		s->proxy.tls = TLS_FILES;
		if (v[1] != NULL && (x = sp_scalar(c, v[1], "proxy.tls")) != NULL) {
			if (strcmp(x, "acme") == 0)
				s->proxy.tls = TLS_ACME;
			else
				sp_err(c, sp_line_of(v[1]), "proxy.tls: '%s': "
				    "nginx takes acme, or certificate and key "
				    "without tls", x);
		}
		if (s->proxy.tls == TLS_ACME && (v[2] != NULL || v[3] != NULL))
			sp_err(c, sp_line_of(v[2] ? v[2] : v[3]), "proxy: "
			    "certificate and key are not for tls acme");
		if (s->proxy.tls != TLS_ACME &&
		    (v[4] != NULL || v[5] != NULL || v[8] != NULL))
			sp_err(c, sp_line_of(v[4] ? v[4] : v[5] ? v[5] : v[8]),
			    "proxy: email, acme_ca and acme_ca_root are for "
			    "tls acme");
		return;
	}
	if (v[1] == NULL)
		sp_err(c, sp_line_of(n), "proxy: missing field 'tls' "
		    "(acme or internal)");
	else if ((x = sp_scalar(c, v[1], "proxy.tls")) != NULL) {
		if (strcmp(x, "acme") == 0)
			s->proxy.tls = TLS_ACME;
		else if (strcmp(x, "internal") == 0)
			s->proxy.tls = TLS_INTERNAL;
		else
			sp_err(c, sp_line_of(v[1]), "proxy.tls: '%s' is neither acme "
			    "nor internal", x);
	}
	if (v[2] != NULL || v[3] != NULL)
		sp_err(c, sp_line_of(v[2] ? v[2] : v[3]), "proxy: certificate and "
		    "key are for kind nginx");
	if (s->proxy.tls != TLS_ACME && (v[5] != NULL || v[8] != NULL))
		sp_err(c, sp_line_of(v[5] ? v[5] : v[8]), "proxy: acme_ca and "
		    "acme_ca_root are for tls acme");
}

static void
parse_releases(struct ctx *c, yaml_node_t *n)
{
	static const char *const keys[] = { "root", "keep", NULL };
	struct spec *s = c->s;
	yaml_node_t *v[2];
	const char *x;
	long keep;

	if (sp_mapping(c, n, "releases", keys, v, NULL) == -1)
		return;
	if (v[0] == NULL)
		sp_err(c, sp_line_of(n), "releases: missing field 'root'");
	else if ((x = sp_scalar(c, v[0], "releases.root")) != NULL) {
		if (x[0] != '/')
			sp_err(c, sp_line_of(v[0]), "releases.root: '%s' is not an "
			    "absolute path", x);
		s->releases.root = sp_sdup(c, x);
	}
	s->releases.keep = 5;
	if (v[1] != NULL && (x = sp_scalar(c, v[1], "releases.keep")) != NULL) {
		if (sp_parse_int(x, 1, 1000, &keep) == -1)
			sp_err(c, sp_line_of(v[1]), "releases.keep: '%s' is not a "
			    "number from 1 to 1000", x);
		else
			s->releases.keep = (int)keep;
	}
}

/*
 * One entry of `hosts:`: its keys replace the top level's (v, indexed as
 * parse_top's keys) for this host. The entry's name labels the host.
 */
static void
host_entry(struct ctx *c, yaml_node_t *n, yaml_node_t **v)
{
	static const char *const keys[] = { "name", "host", "platform",
	    "state", "network", "releases", "agent", "address", NULL };
	static const int top[] = { -1, 1, 2, 3, 5, 7, 10, 11 };
	yaml_node_t *h[8];
	const char *x;
	size_t i;

	c->s->label_line = sp_line_of(n);
	if (sp_mapping(c, n, "hosts", keys, h, NULL) == -1)
		return;
	for (i = 1; i < 8; i++)
		if (h[i] != NULL)
			v[top[i]] = h[i];
	if (h[1] == NULL)
		sp_err(c, sp_line_of(n), "hosts: an entry has no 'host'");
	if (h[0] != NULL && (x = sp_scalar(c, h[0], "hosts.name")) != NULL) {
		if (!sp_valid_name(x, SITE_MAX_LEN))
			sp_err(c, sp_line_of(h[0]), "hosts: name '%s' must be "
			    "1 to %d lower-case letters, digits or '-'", x,
			    SITE_MAX_LEN);
		c->s->label = sp_sdup(c, x);
	}
}

/* Keeps the sites that are on host s (those whose `hosts:` name it). */
static void
keep_host_sites(struct spec *s)
{
	size_t i, j, k = 0;

	for (i = 0; i < s->nsites; i++) {
		struct spec_site *site = &s->sites[i];
		int on = site->nonly == 0;

		for (j = 0; j < site->nonly && !on; j++)
			on = strcmp(site->only[j], s->label) == 0;
		if (on)
			s->sites[k++] = *site;
	}
	s->nsites = k;
}

static void
parse_top(struct ctx *c, yaml_node_t *root, yaml_node_t *host)
{
	static const char *const keys[] = { "name", "host", "platform",
	    "state", "user", "network", "proxy", "releases", "sites", "hosts",
	    "agent", "address", "dns", NULL };
	struct spec *s = c->s;
	yaml_node_t *v[13];
	const char *x;
	struct buf b = BUF_INIT;

	if (sp_mapping(c, root, "deploy.yaml", keys, v, NULL) == -1)
		return;
	if (host != NULL)
		host_entry(c, host, v);
	s->name = "deploy";
	if (v[0] != NULL && (x = sp_scalar(c, v[0], "name")) != NULL) {
		if (!sp_valid_name(x, NAME_MAX_LEN))
			sp_err(c, sp_line_of(v[0]), "name: '%s' must be 1 to %d "
			    "lower-case letters, digits or '-'", x,
			    NAME_MAX_LEN);
		s->name = sp_sdup(c, x);
	}
	s->host = HOST_LOCAL;
	s->host_str = "local";
	if (v[1] != NULL)
		parse_host(c, v[1]);
	if (v[2] == NULL)
		sp_err(c, sp_line_of(root), "missing field 'platform'");
	else if ((x = sp_scalar(c, v[2], "platform")) != NULL) {
		if (spec_platform_parse(x, &s->platform) == -1)
			sp_err(c, sp_line_of(v[2]), "platform: '%s' is not one of "
			    "linux-netns, freebsd-bastille, freebsd-jail", x);
	}
	if (v[3] != NULL && (x = sp_scalar(c, v[3], "state")) != NULL) {
		if (x[0] != '/')
			sp_err(c, sp_line_of(v[3]), "state: '%s' is not an absolute "
			    "path", x);
		s->state = sp_sdup(c, x);
	} else {
		buf_printf(&b, "/var/lib/deploy/%s", s->name);
		s->state = arena_strdup(c->arena, b.ptr);
		buf_release(&b);
	}
	s->user = "www-data";
	if (v[4] != NULL && (x = sp_scalar(c, v[4], "user")) != NULL) {
		if (!sp_valid_ifname(x, 32))
			sp_err(c, sp_line_of(v[4]), "user: '%s' is not a user name", x);
		s->user = sp_sdup(c, x);
	}
	if (v[5] == NULL)
		sp_err(c, sp_line_of(root), "missing field 'network'");
	else
		parse_network(c, v[5]);
	if (v[6] == NULL)
		sp_err(c, sp_line_of(root), "missing field 'proxy'");
	else
		parse_proxy(c, v[6]);
	if (v[7] == NULL)
		sp_err(c, sp_line_of(root), "missing field 'releases'");
	else
		parse_releases(c, v[7]);
	if (v[8] == NULL)
		sp_err(c, sp_line_of(root), "missing field 'sites'");
	else
		sp_parse_sites(c, v[8]);
	if (s->label == NULL)
		s->label = s->host_str;
	if (v[10] != NULL && (x = sp_scalar(c, v[10], "agent")) != NULL) {
		if (x[0] != '/')
			sp_err(c, sp_line_of(v[10]), "agent: '%s' is not an "
			    "absolute path", x);
		s->agent = sp_sdup(c, x);
	}
	if (v[11] != NULL)
		sp_parse_addresses(c, v[11]);
	if (v[12] != NULL)
		sp_parse_dns(c, v[12]);

	if (s->state != NULL && s->releases.root != NULL) {
		size_t a = strlen(s->state), b = strlen(s->releases.root);
		size_t m = a < b ? a : b;

		/* A site jail is shown its own part of each, nothing else. */
		if (strcmp(s->releases.root, "/") == 0 ||
		    strcmp(s->state, "/") == 0 ||
		    (strncmp(s->state, s->releases.root, m) == 0 &&
		    (s->state[m] == '/' || s->state[m] == '\0' ||
		    s->releases.root[m] == '/' || s->releases.root[m] == '\0')))
			sp_err(c, v[7] ? sp_line_of(v[7]) : 1, "releases.root %s and "
			    "state %s must be separate folders, neither inside "
			    "the other", s->releases.root, s->state);
	}

	/* On Linux the proxy opens each site's socket under state, and a
	 * socket's path holds 107 bytes at most. */
	if (s->platform == PLATFORM_LINUX_NETNS && !s->proxy.upstream_tcp &&
	    s->state != NULL) {
		size_t i;

		for (i = 0; i < s->nsites; i++)
			if (s->sites[i].name != NULL && strlen(s->state) +
			    strlen(s->sites[i].name) +
			    sizeof("/sites//sock/nginx.sock") - 1 > 107) {
				sp_err(c, v[3] ? sp_line_of(v[3]) : 1, "state: "
				    "%s is too long for site %s's socket under "
				    "it (a socket path holds 107 bytes): choose "
				    "a shorter one, or proxy.upstream: tcp",
				    s->state, s->sites[i].name);
				break;
			}
	}

	/* The nginx proxy needs a certificate for every site. */
	if (s->proxy.kind == PROXY_NGINX && s->proxy.tls != TLS_ACME &&
	    v[6] != NULL) {
		size_t i;

		for (i = 0; i < s->nsites; i++)
			if (s->sites[i].cert == NULL &&
			    (s->proxy.cert == NULL || s->proxy.key == NULL))
				sp_err(c, s->sites[i].line, "site %s: no "
				    "certificate: set proxy.certificate and "
				    "proxy.key, or the site's own",
				    s->sites[i].name ? s->sites[i].name : "?");
	}
}

/* The `hosts:` list of the top level, or NULL. */
static yaml_node_t *
hosts_node(struct ctx *c, yaml_node_t *root)
{
	yaml_node_pair_t *p;

	if (root->type != YAML_MAPPING_NODE)
		return NULL;
	for (p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
	    p++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);

		if (k != NULL && k->type == YAML_SCALAR_NODE &&
		    strcmp((const char *)k->data.scalar.value, "hosts") == 0)
			return yaml_document_get_node(c->doc, p->value);
	}
	return NULL;
}

/*
 * Reads the file once per host (a fleet of one without `hosts:`): each
 * host is a spec of its own, in the first one's arena. Messages about the
 * shared top level are given once.
 */

/*
 * The prefix of what apply makes on host s, one of n: the name, and
 * in a fleet of several the host's label after it (a label that is not a
 * short name, such as an ssh URL, by a hash of it), so that hosts sharing
 * one machine never share a namespace or a table.
 */
static void
host_prefix(struct ctx *c, struct spec *s, size_t n)
{
	const char *l = s->label != NULL ? s->label : "";
	size_t len = strlen(l);
	struct buf b = BUF_INIT;
	uint32_t h = 2166136261u;

	if (n <= 1 || s->name == NULL) {
		s->prefix = s->name;
		return;
	}
	if (len > 0 && len <= 16 && strspn(l, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") == len)
		buf_printf(&b, "%s-%s", s->name, l);
	else {
		for (; *l != '\0'; l++)
			h = (h ^ (unsigned char)*l) * 16777619u;
		buf_printf(&b, "%s-h%08x", s->name, (unsigned)h);
	}
	s->prefix = sp_sdup(c, b.ptr);
	buf_release(&b);
}

static void
parse_fleet(struct ctx *c, struct specx *sx, yaml_node_t *root)
{
	yaml_node_t *hosts = hosts_node(c, root);
	yaml_node_item_t *it;
	struct spec *s;
	size_t n = 1, i, j, k;

	if (hosts != NULL && (hosts->type != YAML_SEQUENCE_NODE ||
	    hosts->data.sequence.items.top == hosts->data.sequence.items.start)) {
		sp_err(c, sp_line_of(hosts), "hosts: expected a list of hosts");
		hosts = NULL;
	}
	if (hosts != NULL)
		n = hosts->data.sequence.items.top -
		    hosts->data.sequence.items.start;
	sx->pub.hosts = arena_alloc(sx->arena, n * sizeof(struct spec *));
	sx->pub.nhosts = n;
	sx->pub.hosts[0] = &sx->pub;
	for (i = 1; i < n; i++) {
		sx->pub.hosts[i] = arena_alloc(sx->arena, sizeof(struct spec));
		memset(sx->pub.hosts[i], 0, sizeof(struct spec));
		sx->pub.hosts[i]->file = sx->pub.file;
	}
	it = hosts ? hosts->data.sequence.items.start : NULL;
	for (i = 0; i < n; i++) {
		struct spec *saved = c->s;

		s = sx->pub.hosts[i];
		s->hosts = sx->pub.hosts;
		s->nhosts = n;
		c->s = s;
		c->quiet_dups = i > 0;
		parse_top(c, root, it ? yaml_document_get_node(c->doc, it[i]) :
		    NULL);
		c->s = saved;
		c->quiet_dups = 0;
	}
	s = &sx->pub;
	for (i = 0; i < n; i++)
		host_prefix(c, sx->pub.hosts[i], n);
	if (hosts == NULL) {
		for (i = 0; i < s->nsites; i++)
			if (s->sites[i].nonly > 0)
				sp_err(c, s->sites[i].only_lines[0], "site %s: "
				    "hosts: names hosts, but the file has no "
				    "hosts list", s->sites[i].name ?
				    s->sites[i].name : "?");
		sp_check_gemini(c, s);
		sp_check_dns(c, s);
		return;
	}

	/* Hosts are told apart by name; sites name the hosts they are on. */
	for (i = 0; i < n; i++) {
		struct spec *a = sx->pub.hosts[i];

		for (j = 0; j < i; j++)
			if (a->label && sx->pub.hosts[j]->label &&
			    strcmp(a->label, sx->pub.hosts[j]->label) == 0)
				sp_err(c, a->label_line, "hosts: '%s' is "
				    "listed twice (give each entry a name)",
				    a->label);
	}
	for (i = 0; i < s->nsites; i++) {
		struct spec_site *site = &s->sites[i];

		for (j = 0; j < site->nonly; j++) {
			for (k = 0; k < n; k++)
				if (strcmp(site->only[j],
				    s->hosts[k]->label) == 0)
					break;
			if (k == n)
				sp_err(c, site->only_lines[j], "site %s: no "
				    "host named '%s' in hosts", site->name ?
				    site->name : "?", site->only[j]);
		}
	}
	for (i = 0; i < n; i++) {
		keep_host_sites(s->hosts[i]);
		c->quiet_dups = i > 0;
		sp_check_gemini(c, s->hosts[i]);
		sp_check_dns(c, s->hosts[i]);
	}
	c->quiet_dups = 0;
}

struct spec *
spec_parse(const char *name, const char *text, size_t len, struct diag *d)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	struct specx *sx;
	struct ctx c;
	yaml_node_t *root;
	const char *slash;

	sx = xcalloc(1, sizeof(*sx));
	sx->arena = arena_new();
	memset(&c, 0, sizeof(c));
	c.s = &sx->pub;
	c.arena = sx->arena;
	c.d = d;
	c.file = name;
	c.doc = &doc;
	sx->pub.file = arena_strdup(sx->arena, name);
	/* Relative paths in the file are relative to its folder; kept
	 * absolute, since servers resolve them against their own prefix. */
	{
		struct buf dir = BUF_INIT;
		char cwd[PATH_MAX];

		slash = strrchr(name, '/');
		if (name[0] != '/' && getcwd(cwd, sizeof(cwd)) != NULL)
			buf_adds(&dir, cwd);
		if (slash != NULL) {
			if (dir.len > 0)
				buf_addc(&dir, '/');
			buf_add(&dir, name, slash - name);
		}
		if (dir.len > 0)
			c.dir = arena_strdup(sx->arena, dir.ptr);
		buf_release(&dir);
	}

	if (!yaml_parser_initialize(&parser)) {
		diag_error(d, name, 0, "cannot start the YAML parser");
		spec_free(&sx->pub);
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		diag_error(d, name, (int)parser.problem_mark.line + 1, "%s%s%s",
		    parser.problem ? parser.problem : "YAML error",
		    parser.context ? " " : "",
		    parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		spec_free(&sx->pub);
		return NULL;
	}
	root = yaml_document_get_root_node(&doc);
	if (root == NULL)
		sp_err(&c, 1, "the file is empty");
	else
		parse_fleet(&c, sx, root);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (c.errors > 0) {
		spec_free(&sx->pub);
		return NULL;
	}
	return &sx->pub;
}

struct spec *
spec_load(const char *path, struct diag *d)
{
	struct buf b = BUF_INIT;
	struct spec *s;
	char chunk[8192];
	size_t n;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL) {
		diag_error(d, path, 0, "%s", strerror(errno));
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		buf_add(&b, chunk, n);
	if (ferror(fp)) {
		diag_error(d, path, 0, "read error");
		fclose(fp);
		buf_release(&b);
		return NULL;
	}
	fclose(fp);
	s = spec_parse(path, b.ptr, b.len, d);
	buf_release(&b);
	return s;
}

void
spec_free(struct spec *s)
{
	struct specx *sx = (struct specx *)s;

	if (s == NULL)
		return;
	arena_free(sx->arena);
	free(sx);
}

int
spec_fleet_has_site(const struct spec *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nhosts; i++)
		if (spec_site(s->hosts[i], name) != NULL)
			return 1;
	return 0;
}

const struct spec_site *
spec_gemini_site(const struct spec *s)
{
	size_t i;

	for (i = 0; i < s->nsites; i++)
		if (s->sites[i].gemini)
			return &s->sites[i];
	return NULL;
}

const struct spec_site *
spec_site(const struct spec *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nsites; i++)
		if (strcmp(s->sites[i].name, name) == 0)
			return &s->sites[i];
	return NULL;
}

char *
spec_site_root(const struct spec *s, const struct spec_site *site)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s/%s", s->releases.root, site->name);
	return buf_detach(&b, NULL);
}

int
spec_check_ifaddrs(const struct spec *s, struct diag *d,
    const struct spec_ifaddr *list, size_t n)
{
	uint32_t m;
	size_t i;
	int bad = 0;
	char a[16];

	for (i = 0; i < n; i++) {
		if (s->net.bridge != NULL &&
		    strcmp(list[i].ifname, s->net.bridge) == 0)
			continue;
		/* Two networks overlap when the shorter prefix holds both. */
		m = sp_mask_of(list[i].prefix < s->net.prefix ? list[i].prefix :
		    s->net.prefix);
		if ((list[i].addr & m) != (s->net.net & m))
			continue;
		spec_ntoa(list[i].addr, a);
		diag_error(d, s->file, s->net.subnet_line, "network.subnet: %s "
		    "overlaps %s/%d on the host's interface %s",
		    s->net.subnet_str, a, list[i].prefix, list[i].ifname);
		bad = 1;
	}
	return bad ? -1 : 0;
}

int
spec_check_host(const struct spec *s, struct diag *d)
{
	struct ifaddrs *ifa, *p;
	struct spec_ifaddr *list = NULL;
	size_t n = 0, cap = 0;
	int rc;

	if (getifaddrs(&ifa) == -1) {
		diag_error(d, s->file, 0, "getifaddrs: %s", strerror(errno));
		return -1;
	}
	for (p = ifa; p != NULL; p = p->ifa_next) {
		uint32_t mask;
		int prefix = 0;

		if (p->ifa_addr == NULL || p->ifa_addr->sa_family != AF_INET)
			continue;
		mask = p->ifa_netmask ? ntohl(((struct sockaddr_in *)
		    (void *)p->ifa_netmask)->sin_addr.s_addr) : 0xffffffffu;
		while (prefix < 32 && (mask & (0x80000000u >> prefix)))
			prefix++;
		xgrow((void **)&list, &cap, n + 1, sizeof(*list));
		list[n].ifname = p->ifa_name;
		list[n].addr = ntohl(((struct sockaddr_in *)
		    (void *)p->ifa_addr)->sin_addr.s_addr);
		list[n].prefix = prefix;
		n++;
	}
	rc = spec_check_ifaddrs(s, d, list, n);
	free(list);
	freeifaddrs(ifa);
	return rc;
}

static const char *const platform_names[] = {
	[PLATFORM_LINUX_NETNS] = "linux-netns",
	[PLATFORM_FREEBSD_BASTILLE] = "freebsd-bastille",
	[PLATFORM_FREEBSD_JAIL] = "freebsd-jail",
};

const char *
spec_platform_name(enum spec_platform p)
{
	return platform_names[p];
}

int
spec_platform_parse(const char *name, enum spec_platform *out)
{
	size_t i;

	for (i = 0; i < sizeof(platform_names) / sizeof(platform_names[0]);
	    i++)
		if (strcmp(name, platform_names[i]) == 0) {
			*out = (enum spec_platform)i;
			return 0;
		}
	return -1;
}
