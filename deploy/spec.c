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

/* Interface names are at most 15 bytes; veth names are bridge + "-XXXX". */
#define BRIDGE_MAX	10
#define NAME_MAX_LEN	16
#define SITE_MAX_LEN	32

struct ctx {
	struct spec	*s;
	struct arena	*arena;
	yaml_document_t	*doc;
	struct diag	*d;
	const char	*file;
	char		*dir;		/* folder of the file, for relative paths */
	int		 errors;
};

struct specx {
	struct spec	 pub;
	struct arena	*arena;
};

static void
err(struct ctx *c, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
err(struct ctx *c, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(c->d, DIAG_ERROR, c->file, line, fmt, ap);
	va_end(ap);
	c->errors++;
}

static int
line_of(yaml_node_t *n)
{
	return (int)n->start_mark.line + 1;
}

static const char *
scalar(struct ctx *c, yaml_node_t *n, const char *what)
{
	if (n == NULL || n->type != YAML_SCALAR_NODE) {
		err(c, n ? line_of(n) : 0, "%s: expected a single value", what);
		return NULL;
	}
	return (const char *)n->data.scalar.value;
}

static char *
sdup(struct ctx *c, const char *v)
{
	return v ? arena_strdup(c->arena, v) : NULL;
}

static int
parse_int(const char *v, long lo, long hi, long *out)
{
	char *end;
	long n;

	if (v == NULL || *v == '\0')
		return -1;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno != 0 || *end != '\0' || n < lo || n > hi)
		return -1;
	*out = n;
	return 0;
}

static int
parse_addr(const char *v, uint32_t *out)
{
	struct in_addr ia;

	if (v == NULL || inet_pton(AF_INET, v, &ia) != 1)
		return -1;
	*out = ntohl(ia.s_addr);
	return 0;
}

void
spec_ntoa(uint32_t a, char out[16])
{
	snprintf(out, 16, "%u.%u.%u.%u", a >> 24, (a >> 16) & 255,
	    (a >> 8) & 255, a & 255);
}

static uint32_t
mask_of(int prefix)
{
	return prefix == 0 ? 0 : 0xffffffffu << (32 - prefix);
}

/* Lower-case letters, digits and '-', starting with a letter or digit. */
static int
valid_name(const char *v, size_t max)
{
	size_t i, n = strlen(v);

	if (n == 0 || n > max || v[0] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!(islower((unsigned char)v[i]) ||
		    isdigit((unsigned char)v[i]) || v[i] == '-'))
			return 0;
	return 1;
}

/* Interface names: letters, digits, '-', '_'; no '/' or blanks. */
static int
valid_ifname(const char *v, size_t max)
{
	size_t i, n = strlen(v);

	if (n == 0 || n > max)
		return 0;
	for (i = 0; i < n; i++)
		if (!(isalnum((unsigned char)v[i]) || v[i] == '-' ||
		    v[i] == '_'))
			return 0;
	return 1;
}

static int
valid_domain(const char *v)
{
	size_t i, n = strlen(v), label = 0;

	if (n == 0 || n > 253 || v[0] == '.' || v[n - 1] == '.')
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)v[i];

		if (ch == '.') {
			if (label == 0)
				return 0;
			label = 0;
			continue;
		}
		if (!(islower(ch) || isdigit(ch) || ch == '-'))
			return 0;
		if (++label > 63)
			return 0;
	}
	return 1;
}

/* An HTTP header field name (RFC 9110 token). */
static int
valid_header_name(const char *v)
{
	size_t i, n = strlen(v);

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (!(isalnum((unsigned char)v[i]) || strchr("!#$%&'*+-.^_`|~",
		    v[i]) != NULL))
			return 0;
	return 1;
}

/* Printable ASCII only: header values end up quoted inside configs. */
static int
valid_header_value(const char *v)
{
	for (; *v != '\0'; v++)
		if ((unsigned char)*v < 0x20 || (unsigned char)*v > 0x7e)
			return 0;
	return 1;
}

static char *
join_path(struct ctx *c, const char *v)
{
	struct buf b = BUF_INIT;
	char *r;

	if (v[0] == '/' || c->dir == NULL)
		return sdup(c, v);
	buf_printf(&b, "%s/%s", c->dir, v);
	r = arena_strdup(c->arena, b.ptr);
	buf_release(&b);
	return r;
}

/*
 * Walks a mapping: reports duplicate and unknown keys, and hands every
 * known one to the caller through the keys table (NULL-terminated) by
 * filling vals[i] with the value node.
 */
static int
mapping(struct ctx *c, yaml_node_t *n, const char *what,
    const char *const *keys, yaml_node_t **vals, int *klines)
{
	yaml_node_pair_t *p;
	size_t i;

	for (i = 0; keys[i] != NULL; i++) {
		vals[i] = NULL;
		if (klines != NULL)
			klines[i] = 0;
	}
	if (n == NULL || n->type != YAML_MAPPING_NODE) {
		err(c, n ? line_of(n) : 1, "%s: expected a mapping", what);
		return -1;
	}
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	    p++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const char *ks;

		if (k == NULL || k->type != YAML_SCALAR_NODE) {
			err(c, k ? line_of(k) : 0, "%s: key is not a name", what);
			continue;
		}
		ks = (const char *)k->data.scalar.value;
		for (i = 0; keys[i] != NULL; i++)
			if (strcmp(keys[i], ks) == 0)
				break;
		if (keys[i] == NULL) {
			err(c, line_of(k), "unknown key '%s' in %s", ks, what);
			continue;
		}
		if (vals[i] != NULL) {
			err(c, line_of(k), "duplicate key '%s' in %s", ks, what);
			continue;
		}
		vals[i] = v;
		if (klines != NULL)
			klines[i] = line_of(k);
	}
	return 0;
}

/* A scalar or a sequence of scalars, as an arena array. */
static size_t
string_list(struct ctx *c, yaml_node_t *n, const char *what, char ***out,
    int **lines)
{
	yaml_node_item_t *it;
	size_t count = 0, i = 0;

	*out = NULL;
	if (lines)
		*lines = NULL;
	if (n == NULL)
		return 0;
	if (n->type == YAML_SCALAR_NODE) {
		*out = arena_alloc(c->arena, sizeof(char *));
		(*out)[0] = sdup(c, (const char *)n->data.scalar.value);
		if (lines) {
			*lines = arena_alloc(c->arena, sizeof(int));
			(*lines)[0] = line_of(n);
		}
		return 1;
	}
	if (n->type != YAML_SEQUENCE_NODE) {
		err(c, line_of(n), "%s: expected a list", what);
		return 0;
	}
	count = n->data.sequence.items.top - n->data.sequence.items.start;
	*out = arena_alloc(c->arena, (count + 1) * sizeof(char *));
	if (lines)
		*lines = arena_alloc(c->arena, (count + 1) * sizeof(int));
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	    it++) {
		yaml_node_t *v = yaml_document_get_node(c->doc, *it);
		const char *s = scalar(c, v, what);

		if (s == NULL)
			continue;
		(*out)[i] = sdup(c, s);
		if (lines)
			(*lines)[i] = line_of(v);
		i++;
	}
	return i;
}

static void
parse_host(struct ctx *c, yaml_node_t *n)
{
	struct spec *s = c->s;
	const char *v = scalar(c, n, "host");
	const char *rest, *at, *colon;
	long port = 22;

	if (v == NULL)
		return;
	s->host_str = sdup(c, v);
	if (strcmp(v, "local") == 0) {
		s->host = HOST_LOCAL;
		return;
	}
	if (strncmp(v, "ssh://", 6) != 0) {
		err(c, line_of(n), "host: '%s' is neither 'local' nor "
		    "ssh://user@host[:port]", v);
		return;
	}
	s->host = HOST_SSH;
	rest = v + 6;
	at = strchr(rest, '@');
	if (at == NULL || at == rest) {
		err(c, line_of(n), "host: '%s' has no user (ssh://user@host)", v);
		return;
	}
	s->ssh_user = arena_strndup(c->arena, rest, at - rest);
	rest = at + 1;
	colon = strrchr(rest, ':');
	if (colon != NULL) {
		if (parse_int(colon + 1, 1, 65535, &port) == -1) {
			err(c, line_of(n), "host: bad port in '%s'", v);
			return;
		}
		s->ssh_host = arena_strndup(c->arena, rest, colon - rest);
	} else
		s->ssh_host = sdup(c, rest);
	if (*s->ssh_host == '\0' || strpbrk(s->ssh_host, "/ ") != NULL)
		err(c, line_of(n), "host: bad host name in '%s'", v);
	s->ssh_port = (int)port;
}

/* "[ADDR:]PORT -> 80|443" */
static void
parse_port(struct ctx *c, yaml_node_t *n, struct spec_port *p)
{
	const char *v = scalar(c, n, "network.ports");
	const char *arrow, *colon;
	char *left, *l;
	long port, to;
	uint32_t a;

	if (v == NULL)
		return;
	p->line = line_of(n);
	arrow = strstr(v, "->");
	if (arrow == NULL || parse_int(arrow[2] == ' ' ? arrow + 3 : arrow + 2,
	    1, 65535, &to) == -1 || (to != 80 && to != 443)) {
		err(c, p->line, "network.ports: '%s' is not "
		    "'[ADDRESS:]PORT -> 80|443'", v);
		return;
	}
	left = arena_strndup(c->arena, v, arrow - v);
	for (l = left + strlen(left); l > left && l[-1] == ' '; l--)
		l[-1] = '\0';
	colon = strrchr(left, ':');
	if (colon != NULL) {
		p->addr = arena_strndup(c->arena, left, colon - left);
		if (parse_addr(p->addr, &a) == -1) {
			err(c, p->line, "network.ports: bad address '%s'",
			    p->addr);
			return;
		}
		colon++;
	} else
		colon = left;
	if (parse_int(colon, 1, 65535, &port) == -1) {
		err(c, p->line, "network.ports: bad port '%s'", colon);
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

	if (mapping(c, n, "network", keys, v, NULL) == -1)
		return;
	if (v[0] == NULL)
		err(c, line_of(n), "network: missing field 'bridge'");
	else if ((x = scalar(c, v[0], "network.bridge")) != NULL) {
		s->net.bridge = sdup(c, x);
		s->net.bridge_line = line_of(v[0]);
		if (!valid_ifname(x, BRIDGE_MAX))
			err(c, line_of(v[0]), "network.bridge: '%s' is not an "
			    "interface name of at most %d letters, digits, "
			    "'-' or '_'", x, BRIDGE_MAX);
	}
	if (v[1] == NULL)
		err(c, line_of(n), "network: missing field 'subnet'");
	else if ((x = scalar(c, v[1], "network.subnet")) != NULL) {
		s->net.subnet_line = line_of(v[1]);
		if (snprintf(tmp, sizeof(tmp), "%s", x) >= (int)sizeof(tmp) ||
		    (slash = strchr(tmp, '/')) == NULL) {
			err(c, line_of(v[1]), "network.subnet: '%s' is not "
			    "ADDRESS/PREFIX", x);
		} else {
			*slash = '\0';
			if (parse_addr(tmp, &a) == -1 ||
			    parse_int(slash + 1, 16, 28, &prefix) == -1)
				err(c, line_of(v[1]), "network.subnet: '%s' is "
				    "not an IPv4 ADDRESS/PREFIX with a prefix "
				    "from 16 to 28", x);
			else if ((a & ~mask_of((int)prefix)) != 0)
				err(c, line_of(v[1]), "network.subnet: '%s' has "
				    "host bits set", x);
			else {
				s->net.net = a;
				s->net.prefix = (int)prefix;
				s->net.gateway = a + 1;
				spec_ntoa(s->net.gateway, s->net.gateway_str);
				char q[16];

				spec_ntoa(a, q);
				snprintf(s->net.subnet_str,
				    sizeof(s->net.subnet_str), "%s/%d", q,
				    (int)prefix & 63);
			}
		}
	}
	if (v[2] == NULL)
		err(c, line_of(n), "network: missing field 'proxy'");
	else if ((x = scalar(c, v[2], "network.proxy")) != NULL) {
		if (parse_addr(x, &a) == -1)
			err(c, line_of(v[2]), "network.proxy: '%s' is not an "
			    "IPv4 address", x);
		else if (s->net.prefix != 0 &&
		    ((a & mask_of(s->net.prefix)) != s->net.net ||
		    a == s->net.net || a == s->net.gateway ||
		    a == (s->net.net | ~mask_of(s->net.prefix))))
			err(c, line_of(v[2]), "network.proxy: %s is not a free "
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
			err(c, line_of(v[3]), "network.ports: expected a list");
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
		s->net.ports[0].line = s->net.ports[1].line = line_of(n);
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
				err(c, s->net.ports[i].line, "network.ports: "
				    "host port %d is already used on line %d",
				    s->net.ports[i].port, s->net.ports[j].line);
	}
}

static void
check_file(struct ctx *c, const char *path, int line, const char *what,
    const char *written)
{
	if (access(path, R_OK) == -1)
		err(c, line, "%s file %s: %s", what, written, strerror(errno));
}

static void
parse_proxy(struct ctx *c, yaml_node_t *n)
{
	static const char *const keys[] = { "kind", "tls", "certificate",
	    "key", "email", "acme_ca", "hsts", NULL };
	struct spec *s = c->s;
	yaml_node_t *v[7];
	const char *x;
	long hsts;

	s->proxy.line = n ? line_of(n) : 1;
	if (mapping(c, n, "proxy", keys, v, NULL) == -1)
		return;
	if (v[0] == NULL)
		err(c, line_of(n), "proxy: missing field 'kind'");
	else if ((x = scalar(c, v[0], "proxy.kind")) != NULL) {
		if (strcmp(x, "caddy") == 0)
			s->proxy.kind = PROXY_CADDY;
		else if (strcmp(x, "nginx") == 0)
			s->proxy.kind = PROXY_NGINX;
		else
			err(c, line_of(v[0]), "proxy.kind: '%s' is neither "
			    "caddy nor nginx", x);
	}
	if (v[2] != NULL && (x = scalar(c, v[2], "proxy.certificate")) != NULL) {
		s->proxy.cert = join_path(c, x);
		check_file(c, s->proxy.cert, line_of(v[2]), "certificate", x);
	}
	if (v[3] != NULL && (x = scalar(c, v[3], "proxy.key")) != NULL) {
		s->proxy.key = join_path(c, x);
		check_file(c, s->proxy.key, line_of(v[3]), "key", x);
	}
	if (v[4] != NULL && (x = scalar(c, v[4], "proxy.email")) != NULL) {
		if (strchr(x, '@') == NULL || strpbrk(x, " \"{}\\") != NULL)
			err(c, line_of(v[4]), "proxy.email: '%s' is not an "
			    "address", x);
		s->proxy.email = sdup(c, x);
	}
	if (v[5] != NULL && (x = scalar(c, v[5], "proxy.acme_ca")) != NULL) {
		if (strncmp(x, "https://", 8) != 0 ||
		    strpbrk(x, " \"{}\\") != NULL)
			err(c, line_of(v[5]), "proxy.acme_ca: '%s' is not an "
			    "https URL", x);
		s->proxy.acme_ca = sdup(c, x);
	}
	s->proxy.hsts = 31536000;
	if (v[6] != NULL && (x = scalar(c, v[6], "proxy.hsts")) != NULL) {
		if (parse_int(x, 0, 63072000 * 2L, &hsts) == -1)
			err(c, line_of(v[6]), "proxy.hsts: '%s' is not a "
			    "number of seconds", x);
		s->proxy.hsts = (int)hsts;
	}
	if (s->proxy.kind == PROXY_NGINX) {
		s->proxy.tls = TLS_FILES;
		if (v[1] != NULL)
			err(c, line_of(v[1]), "proxy.tls: only for kind caddy; "
			    "nginx takes certificate and key");
		if (v[4] != NULL || v[5] != NULL)
			err(c, line_of(v[4] ? v[4] : v[5]), "proxy: email and "
			    "acme_ca are for kind caddy");
		return;
	}
	if (v[1] == NULL)
		err(c, line_of(n), "proxy: missing field 'tls' "
		    "(acme or internal)");
	else if ((x = scalar(c, v[1], "proxy.tls")) != NULL) {
		if (strcmp(x, "acme") == 0)
			s->proxy.tls = TLS_ACME;
		else if (strcmp(x, "internal") == 0)
			s->proxy.tls = TLS_INTERNAL;
		else
			err(c, line_of(v[1]), "proxy.tls: '%s' is neither acme "
			    "nor internal", x);
	}
	if (v[2] != NULL || v[3] != NULL)
		err(c, line_of(v[2] ? v[2] : v[3]), "proxy: certificate and "
		    "key are for kind nginx");
}

static void
parse_releases(struct ctx *c, yaml_node_t *n)
{
	static const char *const keys[] = { "root", "keep", NULL };
	struct spec *s = c->s;
	yaml_node_t *v[2];
	const char *x;
	long keep;

	if (mapping(c, n, "releases", keys, v, NULL) == -1)
		return;
	if (v[0] == NULL)
		err(c, line_of(n), "releases: missing field 'root'");
	else if ((x = scalar(c, v[0], "releases.root")) != NULL) {
		if (x[0] != '/')
			err(c, line_of(v[0]), "releases.root: '%s' is not an "
			    "absolute path", x);
		s->releases.root = sdup(c, x);
	}
	s->releases.keep = 5;
	if (v[1] != NULL && (x = scalar(c, v[1], "releases.keep")) != NULL) {
		if (parse_int(x, 1, 1000, &keep) == -1)
			err(c, line_of(v[1]), "releases.keep: '%s' is not a "
			    "number from 1 to 1000", x);
		else
			s->releases.keep = (int)keep;
	}
}

static void
parse_redirect(struct ctx *c, yaml_node_t *n, struct spec_redirect *r)
{
	const char *v = scalar(c, n, "redirects");
	const char *arrow;
	char *from, *to, *e;

	if (v == NULL)
		return;
	r->line = line_of(n);
	arrow = strstr(v, "->");
	if (arrow == NULL) {
		err(c, r->line, "redirects: '%s' is not 'FROM -> TO'", v);
		return;
	}
	from = arena_strndup(c->arena, v, arrow - v);
	for (e = from + strlen(from); e > from && e[-1] == ' '; e--)
		e[-1] = '\0';
	to = arena_strdup(c->arena, arrow + 2);
	while (*to == ' ')
		to++;
	if (!valid_domain(from) || !valid_domain(to)) {
		err(c, r->line, "redirects: '%s' must name two domains "
		    "(lower case)", v);
		return;
	}
	r->from = from;
	r->to = to;
}

static void
parse_site(struct ctx *c, yaml_node_t *n, struct spec_site *site, size_t idx)
{
	static const char *const keys[] = { "name", "domains", "redirects",
	    "source", "headers", "address", "certificate", "key", NULL };
	struct spec *s = c->s;
	yaml_node_t *v[8];
	const char *x;
	size_t i, j;
	struct stat st;

	site->line = n ? line_of(n) : 0;
	if (mapping(c, n, "site", keys, v, NULL) == -1)
		return;
	if (v[0] == NULL)
		err(c, site->line, "site: missing field 'name'");
	else if ((x = scalar(c, v[0], "site.name")) != NULL) {
		site->name = sdup(c, x);
		site->line = line_of(v[0]);
		if (!valid_name(x, SITE_MAX_LEN) || strcmp(x, "proxy") == 0)
			err(c, line_of(v[0]), "site.name: '%s' must be 1 to %d "
			    "lower-case letters, digits or '-' (and not "
			    "'proxy')", x, SITE_MAX_LEN);
	}
	if (v[1] == NULL)
		err(c, site->line, "site %s: missing field 'domains'",
		    site->name ? site->name : "?");
	site->ndomains = string_list(c, v[1], "domains", &site->domains,
	    &site->domain_lines);
	if (v[1] != NULL && site->ndomains == 0)
		err(c, line_of(v[1]), "domains: the list is empty");
	for (i = 0; i < site->ndomains; i++)
		if (!valid_domain(site->domains[i]))
			err(c, site->domain_lines[i], "domains: '%s' is not a "
			    "domain name (lower case letters, digits, '-', "
			    "'.')", site->domains[i]);
	if (v[2] != NULL) {
		if (v[2]->type != YAML_SEQUENCE_NODE)
			err(c, line_of(v[2]), "redirects: expected a list of "
			    "'FROM -> TO'");
		else {
			yaml_node_item_t *it;

			site->nredirects = v[2]->data.sequence.items.top -
			    v[2]->data.sequence.items.start;
			site->redirects = arena_alloc(c->arena,
			    (site->nredirects + 1) * sizeof(*site->redirects));
			i = 0;
			for (it = v[2]->data.sequence.items.start;
			    it < v[2]->data.sequence.items.top; it++, i++)
				parse_redirect(c, yaml_document_get_node(c->doc,
				    *it), &site->redirects[i]);
		}
	}
	for (i = 0; i < site->nredirects; i++) {
		struct spec_redirect *r = &site->redirects[i];

		if (r->from == NULL)
			continue;
		for (j = 0; j < site->ndomains; j++)
			if (strcmp(r->to, site->domains[j]) == 0)
				break;
		if (j == site->ndomains)
			err(c, r->line, "redirects: target '%s' is not one of "
			    "the site's domains", r->to);
		for (j = 0; j < site->ndomains; j++)
			if (strcmp(r->from, site->domains[j]) == 0)
				err(c, r->line, "redirects: '%s' is also listed "
				    "in domains (line %d); a redirected name is "
				    "not served", r->from,
				    site->domain_lines[j]);
	}
	if (v[3] == NULL)
		err(c, site->line, "site %s: missing field 'source'",
		    site->name ? site->name : "?");
	else if ((x = scalar(c, v[3], "site.source")) != NULL) {
		struct buf b = BUF_INIT;

		site->source = join_path(c, x);
		site->source_line = line_of(v[3]);
		buf_printf(&b, "%s/site.yaml", site->source);
		site->source_built = access(b.ptr, F_OK) == -1;
		buf_release(&b);
		if (stat(site->source, &st) == -1 || !S_ISDIR(st.st_mode))
			diag_warn(c->d, c->file, site->source_line,
			    "source: %s is not a folder (needed by push)",
			    site->source);
	}
	if (v[4] != NULL) {
		yaml_node_pair_t *p;

		if (v[4]->type != YAML_MAPPING_NODE)
			err(c, line_of(v[4]), "headers: expected a mapping "
			    "Name: value");
		else {
			site->headers = arena_alloc(c->arena,
			    (v[4]->data.mapping.pairs.top -
			    v[4]->data.mapping.pairs.start + 1) *
			    sizeof(*site->headers));
			for (p = v[4]->data.mapping.pairs.start;
			    p < v[4]->data.mapping.pairs.top; p++) {
				yaml_node_t *k = yaml_document_get_node(c->doc,
				    p->key);
				yaml_node_t *val = yaml_document_get_node(
				    c->doc, p->value);
				const char *ks = scalar(c, k, "headers");
				const char *vs = scalar(c, val, "headers");
				struct spec_header *h;

				if (ks == NULL || vs == NULL)
					continue;
				if (!valid_header_name(ks)) {
					err(c, line_of(k), "headers: '%s' is not "
					    "a header name", ks);
					continue;
				}
				if (!valid_header_value(vs)) {
					err(c, line_of(val), "headers: the value "
					    "of %s must be printable ASCII", ks);
					continue;
				}
				h = &site->headers[site->nheaders++];
				h->name = sdup(c, ks);
				h->value = sdup(c, vs);
				h->line = line_of(k);
			}
		}
	}
	if (v[5] != NULL && (x = scalar(c, v[5], "site.address")) != NULL) {
		site->addr_line = line_of(v[5]);
		if (parse_addr(x, &site->addr) == -1)
			err(c, site->addr_line, "address: '%s' is not an IPv4 "
			    "address", x);
	} else if (s->net.prefix != 0) {
		/* Stable only while the order of sites stays the same. */
		site->addr = s->net.net + 10 + (uint32_t)idx;
		if (site->addr >= s->net.proxy && s->net.proxy > s->net.net + 9)
			site->addr++;
		site->addr_line = site->line;
	}
	if (site->addr != 0) {
		spec_ntoa(site->addr, site->addr_str);
		if (s->net.prefix != 0 &&
		    ((site->addr & mask_of(s->net.prefix)) != s->net.net ||
		    site->addr == s->net.gateway || site->addr == s->net.net ||
		    site->addr == (s->net.net | ~mask_of(s->net.prefix))))
			err(c, site->addr_line, "site %s: address %s is not a "
			    "free address of %s", site->name ? site->name : "?",
			    site->addr_str, s->net.subnet_str);
		else if (site->addr == s->net.proxy)
			err(c, site->addr_line, "site %s: address %s is the "
			    "proxy's", site->name ? site->name : "?",
			    site->addr_str);
	}
	if (v[6] != NULL && (x = scalar(c, v[6], "site.certificate")) != NULL) {
		site->cert = join_path(c, x);
		check_file(c, site->cert, line_of(v[6]), "certificate", x);
	}
	if (v[7] != NULL && (x = scalar(c, v[7], "site.key")) != NULL) {
		site->key = join_path(c, x);
		check_file(c, site->key, line_of(v[7]), "key", x);
	}
	if ((v[6] != NULL) != (v[7] != NULL))
		err(c, site->line, "site %s: certificate and key go together",
		    site->name ? site->name : "?");
}

static void
parse_sites(struct ctx *c, yaml_node_t *n)
{
	struct spec *s = c->s;
	yaml_node_item_t *it;
	size_t i, j, k, l;

	if (n->type != YAML_SEQUENCE_NODE) {
		err(c, line_of(n), "sites: expected a list");
		return;
	}
	s->nsites = n->data.sequence.items.top - n->data.sequence.items.start;
	s->sites = arena_alloc(c->arena, (s->nsites + 1) * sizeof(*s->sites));
	i = 0;
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	    it++, i++)
		parse_site(c, yaml_document_get_node(c->doc, *it), &s->sites[i],
		    i);
	if (s->nsites == 0)
		err(c, line_of(n), "sites: the list is empty");

	/* Names, addresses and every host name the proxy answers for. */
	for (i = 0; i < s->nsites; i++) {
		struct spec_site *a = &s->sites[i];

		for (j = 0; j < i; j++) {
			struct spec_site *b = &s->sites[j];

			if (a->name && b->name && strcmp(a->name, b->name) == 0)
				err(c, a->line, "duplicate site '%s' (first on "
				    "line %d)", a->name, b->line);
			if (a->addr != 0 && a->addr == b->addr)
				err(c, a->addr_line, "site %s: address %s is "
				    "also site %s's", a->name ? a->name : "?",
				    a->addr_str, b->name ? b->name : "?");
		}
		for (k = 0; k < a->ndomains + a->nredirects; k++) {
			const char *da = k < a->ndomains ? a->domains[k] :
			    a->redirects[k - a->ndomains].from;
			int la = k < a->ndomains ? a->domain_lines[k] :
			    a->redirects[k - a->ndomains].line;

			if (da == NULL)
				continue;
			for (j = 0; j <= i; j++) {
				struct spec_site *b = &s->sites[j];
				size_t lim = j == i ? k : b->ndomains +
				    b->nredirects;

				for (l = 0; l < lim; l++) {
					const char *db = l < b->ndomains ?
					    b->domains[l] :
					    b->redirects[l - b->ndomains].from;
					int lb = l < b->ndomains ?
					    b->domain_lines[l] :
					    b->redirects[l - b->ndomains].line;

					if (db != NULL && strcmp(da, db) == 0)
						err(c, la, "duplicate domain "
						    "'%s' (first on line %d)",
						    da, lb);
				}
			}
		}
	}
}

static void
parse_top(struct ctx *c, yaml_node_t *root)
{
	static const char *const keys[] = { "name", "host", "platform",
	    "state", "user", "network", "proxy", "releases", "sites", NULL };
	struct spec *s = c->s;
	yaml_node_t *v[9];
	const char *x;
	struct buf b = BUF_INIT;

	if (mapping(c, root, "deploy.yaml", keys, v, NULL) == -1)
		return;
	s->name = "deploy";
	if (v[0] != NULL && (x = scalar(c, v[0], "name")) != NULL) {
		if (!valid_name(x, NAME_MAX_LEN))
			err(c, line_of(v[0]), "name: '%s' must be 1 to %d "
			    "lower-case letters, digits or '-'", x,
			    NAME_MAX_LEN);
		s->name = sdup(c, x);
	}
	s->host = HOST_LOCAL;
	s->host_str = "local";
	if (v[1] != NULL)
		parse_host(c, v[1]);
	if (v[2] == NULL)
		err(c, line_of(root), "missing field 'platform'");
	else if ((x = scalar(c, v[2], "platform")) != NULL) {
		if (strcmp(x, "linux-netns") == 0)
			s->platform = PLATFORM_LINUX_NETNS;
		else if (strcmp(x, "freebsd-bastille") == 0)
			s->platform = PLATFORM_FREEBSD_BASTILLE;
		else if (strcmp(x, "freebsd-jail") == 0)
			s->platform = PLATFORM_FREEBSD_JAIL;
		else
			err(c, line_of(v[2]), "platform: '%s' is not one of "
			    "linux-netns, freebsd-bastille, freebsd-jail", x);
	}
	if (v[3] != NULL && (x = scalar(c, v[3], "state")) != NULL) {
		if (x[0] != '/')
			err(c, line_of(v[3]), "state: '%s' is not an absolute "
			    "path", x);
		s->state = sdup(c, x);
	} else {
		buf_printf(&b, "/var/lib/deploy/%s", s->name);
		s->state = arena_strdup(c->arena, b.ptr);
		buf_release(&b);
	}
	s->user = "www-data";
	if (v[4] != NULL && (x = scalar(c, v[4], "user")) != NULL) {
		if (!valid_ifname(x, 32))
			err(c, line_of(v[4]), "user: '%s' is not a user name", x);
		s->user = sdup(c, x);
	}
	if (v[5] == NULL)
		err(c, line_of(root), "missing field 'network'");
	else
		parse_network(c, v[5]);
	if (v[6] == NULL)
		err(c, line_of(root), "missing field 'proxy'");
	else
		parse_proxy(c, v[6]);
	if (v[7] == NULL)
		err(c, line_of(root), "missing field 'releases'");
	else
		parse_releases(c, v[7]);
	if (v[8] == NULL)
		err(c, line_of(root), "missing field 'sites'");
	else
		parse_sites(c, v[8]);

	if (s->state != NULL && s->releases.root != NULL) {
		size_t a = strlen(s->state), b = strlen(s->releases.root);
		size_t m = a < b ? a : b;

		/* A site jail is shown its own part of each, nothing else. */
		if (strcmp(s->releases.root, "/") == 0 ||
		    strcmp(s->state, "/") == 0 ||
		    (strncmp(s->state, s->releases.root, m) == 0 &&
		    (s->state[m] == '/' || s->state[m] == '\0' ||
		    s->releases.root[m] == '/' || s->releases.root[m] == '\0')))
			err(c, v[7] ? line_of(v[7]) : 1, "releases.root %s and "
			    "state %s must be separate folders, neither inside "
			    "the other", s->releases.root, s->state);
	}

	/* The nginx proxy needs a certificate for every site. */
	if (s->proxy.kind == PROXY_NGINX && v[6] != NULL) {
		size_t i;

		for (i = 0; i < s->nsites; i++)
			if (s->sites[i].cert == NULL &&
			    (s->proxy.cert == NULL || s->proxy.key == NULL))
				err(c, s->sites[i].line, "site %s: no "
				    "certificate: set proxy.certificate and "
				    "proxy.key, or the site's own",
				    s->sites[i].name ? s->sites[i].name : "?");
	}
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
		err(&c, 1, "the file is empty");
	else
		parse_top(&c, root);
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
		m = mask_of(list[i].prefix < s->net.prefix ? list[i].prefix :
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
