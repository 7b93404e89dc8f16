/* deploy.yaml: the dns: section, each host's address: list, and the
 * checks between them and the sites' domains. */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "dns.h"
#include "mem.h"
#include "spec_int.h"

/* The key file: read, checked, its secret kept only in the spec. */
static void
read_key(struct ctx *c, struct spec_dns *dns, const char *written, int line)
{
	struct dns_key k;
	struct buf text = BUF_INIT;
	struct stat st;
	char chunk[4096], err[256];
	ssize_t n;
	int fd, kline = 0;

	if ((fd = open(dns->key_file, O_RDONLY)) == -1) {
		sp_err(c, line, "dns.key: key file %s: %s", written,
		    strerror(errno));
		return;
	}
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		sp_err(c, line, "dns.key: key file %s is not a file", written);
		close(fd);
		return;
	}
	if ((st.st_mode & (S_IROTH | S_IWOTH)) != 0 && !c->quiet_dups)
		diag_warn(c->d, c->file, line, "dns.key: key file %s can be "
		    "read or written by any user (chmod o-rwx)", written);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0 && text.len < 65536)
		buf_add(&text, chunk, (size_t)n);
	close(fd);
	memset(chunk, 0, sizeof(chunk));
	if (n == -1)
		sp_err(c, line, "dns.key: key file %s: %s", written,
		    strerror(errno));
	else if (text.len >= 65536)
		sp_err(c, line, "dns.key: key file %s is too long for a key",
		    written);
	else if (dns_key_parse(text.ptr, text.len, &k, &kline, err,
	    sizeof(err)) == -1)
		sp_err(c, line, "dns.key: key file %s:%d: %s", written, kline,
		    err);
	else {
		dns->key_name = sp_sdup(c, k.name);
		dns->key_alg = sp_sdup(c, k.alg);
		dns->key_secret = sp_sdup(c, k.secret);
	}
	dns_key_clear(&k);
	memset(text.ptr, 0, text.len);
	buf_release(&text);
}

/* "HOST", "ADDRESS", "HOST:PORT", "[IPV6]:PORT" or a bare IPv6 address */
static void
parse_server(struct ctx *c, struct spec_dns *dns, yaml_node_t *n)
{
	const char *v = sp_scalar(c, n, "dns.server");
	const char *colon;
	long port = 53;

	if (v == NULL)
		return;
	if (v[0] == '[') {
		const char *close = strchr(v, ']');

		if (close == NULL || close == v + 1 || (close[1] != '\0' &&
		    (close[1] != ':' ||
		    sp_parse_int(close + 2, 1, 65535, &port) == -1))) {
			sp_err(c, sp_line_of(n), "dns.server: '%s' is not "
			    "[ADDRESS]:PORT", v);
			return;
		}
		dns->server = arena_strndup(c->arena, v + 1, close - v - 1);
	} else if ((colon = strchr(v, ':')) != NULL &&
	    strchr(colon + 1, ':') == NULL) {
		if (sp_parse_int(colon + 1, 1, 65535, &port) == -1) {
			sp_err(c, sp_line_of(n), "dns.server: bad port in "
			    "'%s'", v);
			return;
		}
		dns->server = arena_strndup(c->arena, v, colon - v);
	} else
		dns->server = sp_sdup(c, v);
	if (dns->server[0] == '\0' ||
	    strpbrk(dns->server, " /\"'\\{}") != NULL)
		sp_err(c, sp_line_of(n), "dns.server: '%s' is not a host name "
		    "or address", v);
	dns->port = (int)port;
}

void
sp_parse_dns(struct ctx *c, yaml_node_t *n)
{
	static const char *const keys[] = { "server", "zone", "key", "ttl",
	    "adopt", NULL };
	struct spec_dns *dns;
	yaml_node_t *v[5];
	const char *x;
	size_t len;
	long ttl;

	if (sp_mapping(c, n, "dns", keys, v, NULL) == -1)
		return;
	dns = arena_alloc(c->arena, sizeof(*dns));
	memset(dns, 0, sizeof(*dns));
	dns->line = sp_line_of(n);
	dns->ttl = 60;
	c->s->dns = dns;
	if (v[0] == NULL)
		sp_err(c, sp_line_of(n), "dns: missing field 'server'");
	else
		parse_server(c, dns, v[0]);
	if (v[1] == NULL)
		sp_err(c, sp_line_of(n), "dns: missing field 'zone'");
	else if ((x = sp_scalar(c, v[1], "dns.zone")) != NULL) {
		len = strlen(x);
		dns->zone = len > 1 && x[len - 1] == '.' ?
		    arena_strndup(c->arena, x, len - 1) : sp_sdup(c, x);
		if (!sp_valid_domain(dns->zone))
			sp_err(c, sp_line_of(v[1]), "dns.zone: '%s' is not a "
			    "domain name", x);
	}
	if (v[2] == NULL)
		sp_err(c, sp_line_of(n), "dns: missing field 'key' (a TSIG "
		    "key file)");
	else if ((x = sp_scalar(c, v[2], "dns.key")) != NULL) {
		dns->key_file = sp_join_path(c, x);
		read_key(c, dns, x, sp_line_of(v[2]));
	}
	if (v[3] != NULL && (x = sp_scalar(c, v[3], "dns.ttl")) != NULL) {
		if (sp_parse_int(x, 1, 86400, &ttl) == -1)
			sp_err(c, sp_line_of(v[3]), "dns.ttl: '%s' is not a "
			    "number of seconds from 1 to 86400", x);
		else
			dns->ttl = (int)ttl;
	}
	if (v[4] != NULL && (x = sp_scalar(c, v[4], "dns.adopt")) != NULL) {
		if (strcmp(x, "true") == 0)
			dns->adopt = 1;
		else if (strcmp(x, "false") != 0)
			sp_err(c, sp_line_of(v[4]), "dns.adopt: '%s' is "
			    "neither true nor false", x);
	}
}

void
sp_parse_addresses(struct ctx *c, yaml_node_t *n)
{
	struct spec *s = c->s;
	struct dns_addrs seen;
	size_t i;

	memset(&seen, 0, sizeof(seen));
	s->naddresses = sp_string_list(c, n, "address", &s->addresses,
	    &s->address_lines);
	for (i = 0; i < s->naddresses; i++) {
		if (dns_addrs_has(&seen, s->addresses[i]))
			sp_err(c, s->address_lines[i], "address: %s is "
			    "listed twice", s->addresses[i]);
		else if (dns_addrs_add(&seen, s->addresses[i]) == -1)
			sp_err(c, s->address_lines[i], "address: '%s' is not "
			    "an IPv4 or IPv6 address", s->addresses[i]);
	}
}

/* Whether domain is zone or a name under it. */
static int
in_zone(const char *domain, const char *zone)
{
	size_t d = strlen(domain), z = strlen(zone);

	if (strcasecmp(domain, zone) == 0)
		return 1;
	return d > z + 1 && domain[d - z - 1] == '.' &&
	    strcasecmp(domain + d - z, zone) == 0;
}

void
sp_check_dns(struct ctx *c, struct spec *s)
{
	size_t i, j;

	if (s->dns == NULL)
		return;
	if (s->dns->zone != NULL)
		for (i = 0; i < s->nsites; i++)
			for (j = 0; j < s->sites[i].ndomains; j++)
				if (!in_zone(s->sites[i].domains[j],
				    s->dns->zone))
					sp_err(c, s->sites[i].domain_lines[j],
					    "site %s: domain %s is outside "
					    "the zone %s of dns:",
					    s->sites[i].name ? s->sites[i].name
					    : "?", s->sites[i].domains[j],
					    s->dns->zone);
	if (s->nsites > 0 && s->naddresses == 0)
		sp_err(c, s->label_line ? s->label_line : s->dns->line,
		    "host %s: no address: (dns: publishes where readers "
		    "reach each host)", s->label ? s->label : "?");
}
