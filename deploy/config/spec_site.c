/* deploy.yaml: the sites section. */

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "mem.h"
#include "spec_int.h"

static void
parse_redirect(struct ctx *c, yaml_node_t *n, struct spec_redirect *r)
{
	const char *v = sp_scalar(c, n, "redirects");
	const char *arrow;
	char *from, *to, *e;

	if (v == NULL)
		return;
	r->line = sp_line_of(n);
	arrow = strstr(v, "->");
	if (arrow == NULL) {
		sp_err(c, r->line, "redirects: '%s' is not 'FROM -> TO'", v);
		return;
	}
	from = arena_strndup(c->arena, v, arrow - v);
	for (e = from + strlen(from); e > from && e[-1] == ' '; e--)
		e[-1] = '\0';
	to = arena_strdup(c->arena, arrow + 2);
	while (*to == ' ')
		to++;
	if (!sp_valid_domain(from) || !sp_valid_domain(to)) {
		sp_err(c, r->line, "redirects: '%s' must name two domains "
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
	    "source", "headers", "address", "certificate", "key", "hosts",
	    "gemini", NULL };
	struct spec *s = c->s;
	yaml_node_t *v[10];
	const char *x;
	size_t i, j;
	struct stat st;

	site->line = n ? sp_line_of(n) : 0;
	if (sp_mapping(c, n, "site", keys, v, NULL) == -1)
		return;
	if (v[0] == NULL)
		sp_err(c, site->line, "site: missing field 'name'");
	else if ((x = sp_scalar(c, v[0], "site.name")) != NULL) {
		site->name = sp_sdup(c, x);
		site->line = sp_line_of(v[0]);
		/* proxy and gemini name the host's own jails */
		if (!sp_valid_name(x, SITE_MAX_LEN) || strcmp(x, "proxy") == 0 ||
		    strcmp(x, "gemini") == 0)
			sp_err(c, sp_line_of(v[0]), "site.name: '%s' must be 1 to %d "
			    "lower-case letters, digits or '-' (and not "
			    "'proxy' or 'gemini')", x, SITE_MAX_LEN);
	}
	if (v[1] == NULL)
		sp_err(c, site->line, "site %s: missing field 'domains'",
		    site->name ? site->name : "?");
	site->ndomains = sp_string_list(c, v[1], "domains", &site->domains,
	    &site->domain_lines);
	if (v[1] != NULL && site->ndomains == 0)
		sp_err(c, sp_line_of(v[1]), "domains: the list is empty");
	for (i = 0; i < site->ndomains; i++)
		if (!sp_valid_domain(site->domains[i]))
			sp_err(c, site->domain_lines[i], "domains: '%s' is not a "
			    "domain name (lower case letters, digits, '-', "
			    "'.')", site->domains[i]);
	if (v[2] != NULL) {
		if (v[2]->type != YAML_SEQUENCE_NODE)
			sp_err(c, sp_line_of(v[2]), "redirects: expected a list of "
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
			sp_err(c, r->line, "redirects: target '%s' is not one of "
			    "the site's domains", r->to);
		for (j = 0; j < site->ndomains; j++)
			if (strcmp(r->from, site->domains[j]) == 0)
				sp_err(c, r->line, "redirects: '%s' is also listed "
				    "in domains (line %d); a redirected name is "
				    "not served", r->from,
				    site->domain_lines[j]);
	}
	if (v[3] == NULL)
		sp_err(c, site->line, "site %s: missing field 'source'",
		    site->name ? site->name : "?");
	else if ((x = sp_scalar(c, v[3], "site.source")) != NULL) {
		struct buf b = BUF_INIT;

		site->source = sp_join_path(c, x);
		site->source_line = sp_line_of(v[3]);
		buf_printf(&b, "%s/site.yaml", site->source);
		site->source_built = access(b.ptr, F_OK) == -1;
		buf_release(&b);
		/* (the later hosts of a fleet read the same line again) */
		if (!c->quiet_dups && (stat(site->source, &st) == -1 ||
		    !S_ISDIR(st.st_mode)))
			diag_warn(c->d, c->file, site->source_line,
			    "source: %s is not a folder (needed by push)",
			    site->source);
	}
	if (v[4] != NULL) {
		yaml_node_pair_t *p;

		if (v[4]->type != YAML_MAPPING_NODE)
			sp_err(c, sp_line_of(v[4]), "headers: expected a mapping "
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
				const char *ks = sp_scalar(c, k, "headers");
				const char *vs = sp_scalar(c, val, "headers");
				struct spec_header *h;

				if (ks == NULL || vs == NULL)
					continue;
				if (!sp_valid_header_name(ks)) {
					sp_err(c, sp_line_of(k), "headers: '%s' is not "
					    "a header name", ks);
					continue;
				}
				if (!sp_valid_header_value(vs)) {
					sp_err(c, sp_line_of(val), "headers: the value "
					    "of %s must be printable ASCII", ks);
					continue;
				}
				h = &site->headers[site->nheaders++];
				h->name = sp_sdup(c, ks);
				h->value = sp_sdup(c, vs);
				h->line = sp_line_of(k);
			}
		}
	}
	if (v[5] != NULL && (x = sp_scalar(c, v[5], "site.address")) != NULL) {
		site->addr_line = sp_line_of(v[5]);
		if (sp_parse_addr(x, &site->addr) == -1)
			sp_err(c, site->addr_line, "address: '%s' is not an IPv4 "
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
		    ((site->addr & sp_mask_of(s->net.prefix)) != s->net.net ||
		    site->addr == s->net.gateway || site->addr == s->net.net ||
		    site->addr == (s->net.net | ~sp_mask_of(s->net.prefix))))
			sp_err(c, site->addr_line, "site %s: address %s is not a "
			    "free address of %s", site->name ? site->name : "?",
			    site->addr_str, s->net.subnet_str);
		else if (site->addr == s->net.proxy)
			sp_err(c, site->addr_line, "site %s: address %s is the "
			    "proxy's", site->name ? site->name : "?",
			    site->addr_str);
	}
	if (v[6] != NULL && (x = sp_scalar(c, v[6], "site.certificate")) != NULL) {
		site->cert = sp_join_path(c, x);
		sp_check_file(c, site->cert, sp_line_of(v[6]), "certificate", x);
	}
	if (v[7] != NULL && (x = sp_scalar(c, v[7], "site.key")) != NULL) {
		site->key = sp_join_path(c, x);
		sp_check_file(c, site->key, sp_line_of(v[7]), "key", x);
	}
	if ((v[6] != NULL) != (v[7] != NULL))
		sp_err(c, site->line, "site %s: certificate and key go together",
		    site->name ? site->name : "?");
	if (v[8] != NULL) {
		site->nonly = sp_string_list(c, v[8], "site.hosts", &site->only,
		    &site->only_lines);
		if (site->nonly == 0)
			sp_err(c, sp_line_of(v[8]), "site %s: hosts: the list is "
			    "empty", site->name ? site->name : "?");
	}
	if (v[9] != NULL && (x = sp_scalar(c, v[9], "site.gemini")) != NULL) {
		site->gemini_line = sp_line_of(v[9]);
		if (strcmp(x, "true") == 0)
			site->gemini = 1;
		else if (strcmp(x, "false") != 0)
			sp_err(c, site->gemini_line, "gemini: '%s' is neither "
			    "true nor false", x);
	}
}

/*
 * The Gemini jail of a host: port 1965 reaches one server, and the
 * servers packaged for it (molly-brown, gmid as deploy configures it)
 * answer for one capsule, so one site of a host may set gemini. Its
 * address is subnet + 9, below the sites' own (from + 10). Called once
 * the host's sites are known.
 */
void
sp_check_gemini(struct ctx *c, struct spec *s)
{
	const struct spec_site *g = NULL;
	size_t i;
	int port = 0;

	for (i = 0; i < s->nsites; i++) {
		if (!s->sites[i].gemini)
			continue;
		if (g != NULL) {
			sp_err(c, s->sites[i].gemini_line, "site %s: gemini: "
			    "only one site of a host serves Gemini (port "
			    "1965 already goes to site %s, line %d)",
			    s->sites[i].name ? s->sites[i].name : "?",
			    g->name ? g->name : "?", g->gemini_line);
			continue;
		}
		g = &s->sites[i];
	}
	if (g == NULL || s->net.prefix == 0)
		return;
	s->net.gemini = s->net.net + 9;
	spec_ntoa(s->net.gemini, s->net.gemini_str);
	if (s->net.gemini == s->net.proxy)
		sp_err(c, g->gemini_line, "site %s: gemini: the Gemini jail "
		    "takes address %s, which is the proxy's: move the proxy",
		    g->name ? g->name : "?", s->net.gemini_str);
	for (i = 0; i < s->nsites; i++)
		if (s->sites[i].addr == s->net.gemini)
			sp_err(c, s->sites[i].addr_line, "site %s: address %s "
			    "is the Gemini jail's (subnet + 9)",
			    s->sites[i].name ? s->sites[i].name : "?",
			    s->net.gemini_str);
	for (i = 0; i < s->net.nports; i++)
		if (s->net.ports[i].to == 1965)
			port = 1;
	/* Without a ports: list the host's own 1965 goes there too. */
	if (!port && s->net.ports_default) {
		struct spec_port *p = arena_alloc(c->arena,
		    (s->net.nports + 1) * sizeof(*p));

		memcpy(p, s->net.ports, s->net.nports * sizeof(*p));
		memset(&p[s->net.nports], 0, sizeof(*p));
		p[s->net.nports].port = p[s->net.nports].to = 1965;
		p[s->net.nports].line = g->gemini_line;
		s->net.ports = p;
		s->net.nports++;
		port = 1;
	}
	if (!port)
		sp_err(c, g->gemini_line, "site %s: gemini: no host port "
		    "goes to the Gemini jail: add 'PORT -> 1965' to "
		    "network.ports", g->name ? g->name : "?");
}

void
sp_parse_sites(struct ctx *c, yaml_node_t *n)
{
	struct spec *s = c->s;
	yaml_node_item_t *it;
	size_t i, j, k, l;

	if (n->type != YAML_SEQUENCE_NODE) {
		sp_err(c, sp_line_of(n), "sites: expected a list");
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
		sp_err(c, sp_line_of(n), "sites: the list is empty");

	/* Names, addresses and every host name the proxy answers for. */
	for (i = 0; i < s->nsites; i++) {
		struct spec_site *a = &s->sites[i];

		for (j = 0; j < i; j++) {
			struct spec_site *b = &s->sites[j];

			if (a->name && b->name && strcmp(a->name, b->name) == 0)
				sp_err(c, a->line, "duplicate site '%s' (first on "
				    "line %d)", a->name, b->line);
			if (a->addr != 0 && a->addr == b->addr)
				sp_err(c, a->addr_line, "site %s: address %s is "
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
						sp_err(c, la, "duplicate domain "
						    "'%s' (first on line %d)",
						    da, lb);
				}
			}
		}
	}
}
