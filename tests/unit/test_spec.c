/*
 * deploy.yaml parsing: every fixture NAME.yaml in the fixture folder is
 * loaded and its messages compared with NAME.err; good.yaml is also
 * checked field by field.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "dns.h"
#include "spec.h"

static int passed, failed;

#define CHECK(cond, ...) do {						\
	if (cond)							\
		passed++;						\
	else {								\
		failed++;						\
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);	\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
	}								\
} while (0)

static void
read_file(const char *path, struct buf *b)
{
	char chunk[4096];
	size_t n;
	FILE *fp = fopen(path, "r");

	if (fp == NULL)
		return;
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		buf_add(b, chunk, n);
	fclose(fp);
}

static void
fixture(const char *yaml)
{
	struct buf want = BUF_INIT, got = BUF_INIT, errname = BUF_INIT;
	struct diag *d = diag_new();
	struct spec *s;
	size_t i;

	buf_add(&errname, yaml, strlen(yaml) - 5);
	buf_adds(&errname, ".err");
	read_file(errname.ptr, &want);
	s = spec_load(yaml, d);
	for (i = 0; i < diag_total(d); i++)
		buf_printf(&got, "%s\n", diag_message(d, i));
	CHECK(strcmp(want.ptr, got.ptr) == 0, "%s: messages differ\n"
	    "--- want\n%s--- got\n%s", yaml, want.ptr, got.ptr);
	CHECK((s == NULL) == (diag_count(d, DIAG_ERROR) > 0),
	    "%s: spec returned despite errors or refused without one", yaml);
	spec_free(s);
	diag_free(d);
	buf_release(&want);
	buf_release(&got);
	buf_release(&errname);
}

static void
good(void)
{
	struct diag *d = diag_new();
	struct spec *s = spec_load("good.yaml", d);
	const struct spec_site *b, *o;
	char *root;

	CHECK(s != NULL, "good.yaml refused");
	if (s == NULL) {
		diag_print(d, 0, stderr, 0);
		diag_free(d);
		return;
	}
	CHECK(s->nhosts == 1 && s->hosts[0] == s &&
	    strcmp(s->label, "local") == 0, "good.yaml: a fleet of one");
	CHECK(strcmp(s->name, "t1") == 0 && strcmp(s->prefix, "t1") == 0,
	    "name %s, prefix %s (a fleet of one keeps the name)", s->name,
	    s->prefix);
	CHECK(s->host == HOST_LOCAL, "host");
	CHECK(s->platform == PLATFORM_LINUX_NETNS, "platform");
	CHECK(strcmp(s->net.bridge, "t1br0") == 0, "bridge");
	CHECK(strcmp(s->net.subnet_str, "10.231.0.0/24") == 0, "subnet %s",
	    s->net.subnet_str);
	CHECK(strcmp(s->net.gateway_str, "10.231.0.1") == 0, "gateway %s",
	    s->net.gateway_str);
	CHECK(strcmp(s->net.proxy_str, "10.231.0.2") == 0, "proxy");
	CHECK(s->net.nports == 2 && s->net.ports[1].port == 18443 &&
	    s->net.ports[1].to == 443 &&
	    strcmp(s->net.ports[1].addr, "127.0.0.1") == 0, "ports");
	CHECK(s->proxy.kind == PROXY_CADDY && s->proxy.tls == TLS_INTERNAL,
	    "proxy");
	CHECK(s->proxy.hsts == 31536000, "hsts default %d", s->proxy.hsts);
	CHECK(s->releases.keep == 3, "keep");
	CHECK(s->nsites == 2, "nsites %zu", s->nsites);
	b = spec_site(s, "blog");
	o = spec_site(s, "docs");
	CHECK(b != NULL && o != NULL && spec_site(s, "nope") == NULL, "lookup");
	if (b == NULL || o == NULL)
		goto out;
	CHECK(b->ndomains == 2 && strcmp(b->domains[1], "blog2.test") == 0 &&
	    b->domain_lines[1] == 21, "domains");
	CHECK(b->nredirects == 1 && strcmp(b->redirects[0].from,
	    "blog.test") == 0 && strcmp(b->redirects[0].to,
	    "www.blog.test") == 0, "redirects");
	CHECK(b->nheaders == 2 && strcmp(b->headers[1].name,
	    "Content-Security-Policy") == 0 && strcmp(b->headers[1].value,
	    "default-src 'self'") == 0, "headers");
	CHECK(strcmp(b->addr_str, "10.231.0.10") == 0, "auto address %s",
	    b->addr_str);
	CHECK(strcmp(o->addr_str, "10.231.0.50") == 0, "address %s",
	    o->addr_str);
	CHECK(o->ndomains == 1 && strcmp(o->domains[0], "docs.test") == 0,
	    "single domain");
	CHECK(b->source_built == 1, "a folder without site.yaml is built");
	root = spec_site_root(s, b);
	CHECK(strcmp(root, "/srv/deploy/t1/blog") == 0, "root %s", root);
	free(root);
out:
	spec_free(s);
	diag_free(d);
}

static void
overlap(void)
{
	static const char text[] =
	    "platform: linux-netns\n"
	    "network:\n"
	    "  bridge: br9\n"
	    "  subnet: 10.231.0.0/24\n"
	    "  proxy: 10.231.0.2\n"
	    "proxy: {kind: caddy, tls: internal}\n"
	    "releases: {root: /srv/x}\n"
	    "sites: [{name: a, domains: a.test, source: /}]\n";
	struct spec_ifaddr ok[] = {
		{ "lo", 0x7f000001, 8 },
		{ "eth0", 0xc0a80105, 24 },	/* 192.168.1.5/24 */
		{ "br9", 0x0ae70001, 24 },	/* our own bridge */
	};
	struct spec_ifaddr inside[] = { { "eth1", 0x0ae70063, 24 } };
	struct spec_ifaddr wider[] = { { "wg0", 0x0a000001, 8 } };
	struct diag *d = diag_new();
	struct spec *s = spec_parse("deploy.yaml", text, sizeof(text) - 1, d);

	CHECK(s != NULL, "overlap spec refused");
	if (s == NULL) {
		diag_print(d, 0, stderr, 0);
		diag_free(d);
		return;
	}
	CHECK(spec_check_ifaddrs(s, d, ok, 3) == 0 && diag_total(d) == 0,
	    "no overlap reported one");
	CHECK(spec_check_ifaddrs(s, d, inside, 1) == -1 && diag_total(d) == 1 &&
	    strcmp(diag_message(d, 0), "deploy.yaml:4: error: network.subnet: "
	    "10.231.0.0/24 overlaps 10.231.0.99/24 on the host's interface "
	    "eth1") == 0, "address inside: %s", diag_message(d, 0));
	CHECK(spec_check_ifaddrs(s, d, wider, 1) == -1 && diag_total(d) == 2,
	    "wider host network not reported");
	spec_free(s);
	diag_free(d);
}

/* gemini: true: the Gemini jail at subnet + 9 and, without a ports:
 * list, the host's 1965 forwarded to it. */
static void
gemini(void)
{
	static const char text[] =
	    "platform: linux-netns\n"
	    "network: {bridge: br9, subnet: 10.231.0.0/24, proxy: 10.231.0.2}\n"
	    "proxy: {kind: caddy, tls: internal}\n"
	    "releases: {root: /srv/x}\n"
	    "sites:\n"
	    "  - {name: a, domains: a.test, source: /}\n"
	    "  - {name: b, domains: b.test, source: /, gemini: true}\n";
	struct diag *d = diag_new();
	struct spec *s = spec_parse("deploy.yaml", text, sizeof(text) - 1, d);

	CHECK(s != NULL, "gemini spec refused");
	if (s == NULL) {
		diag_print(d, 0, stderr, 0);
		diag_free(d);
		return;
	}
	CHECK(spec_gemini_site(s) == &s->sites[1], "the Gemini site is b");
	CHECK(strcmp(s->net.gemini_str, "10.231.0.9") == 0,
	    "Gemini jail address %s", s->net.gemini_str);
	CHECK(s->net.nports == 3 && s->net.ports[2].port == 1965 &&
	    s->net.ports[2].to == 1965 && s->net.ports[2].addr == NULL,
	    "default ports: 80, 443 and 1965");
	CHECK(s->sites[0].gemini == 0 && s->sites[1].gemini == 1,
	    "gemini read per site");
	spec_free(s);
	diag_free(d);
}

static void
empty(void)
{
	struct diag *d = diag_new();
	struct spec *s = spec_parse("deploy.yaml", "", 0, d);

	CHECK(s == NULL && diag_total(d) == 1 &&
	    strcmp(diag_message(d, 0), "deploy.yaml:1: error: the file is "
	    "empty") == 0, "empty file: %s", diag_message(d, 0));
	diag_free(d);
	d = diag_new();
	s = spec_parse("deploy.yaml", "- a\n- b\n", 8, d);
	CHECK(s == NULL && diag_total(d) == 1 &&
	    strcmp(diag_message(d, 0), "deploy.yaml:1: error: deploy.yaml: "
	    "expected a mapping") == 0, "list at top: %s", diag_message(d, 0));
	diag_free(d);
}

/* fleet.yaml: each host a whole spec, the rest from the top level. */
static void
fleet(void)
{
	struct diag *d = diag_new();
	struct spec *s = spec_load("fleet.yaml", d);
	const struct spec *eu, *us, *lab;

	CHECK(s != NULL, "fleet.yaml refused");
	if (s == NULL) {
		diag_free(d);
		return;
	}
	CHECK(s->nhosts == 3 && s->hosts[0] == s, "fleet: %zu hosts",
	    s->nhosts);
	eu = s->hosts[0];
	us = s->hosts[1];
	lab = s->hosts[2];
	CHECK(strcmp(eu->label, "eu") == 0 && strcmp(us->label, "us") == 0 &&
	    strcmp(lab->label, "lab") == 0, "fleet: labels");
	CHECK(eu->host == HOST_SSH && strcmp(eu->ssh_host, "eu.example.org")
	    == 0 && eu->ssh_port == 22, "fleet: eu host");
	CHECK(us->host == HOST_SSH && us->ssh_port == 2222, "fleet: us port");
	CHECK(lab->host == HOST_LOCAL, "fleet: lab is local");
	CHECK(eu->agent != NULL && strcmp(eu->agent, "/usr/local/bin/deploy")
	    == 0 && us->agent == NULL, "fleet: agent only where given");
	CHECK(strcmp(eu->releases.root, "/srv/deploy/t1") == 0 &&
	    eu->releases.keep == 5, "fleet: eu releases from the top level");
	CHECK(strcmp(us->releases.root, "/srv/www") == 0 &&
	    us->releases.keep == 2, "fleet: us releases of its own");
	CHECK(strcmp(eu->net.bridge, "t1br0") == 0 &&
	    strcmp(lab->net.bridge, "labbr0") == 0, "fleet: networks");
	CHECK(strcmp(us->name, "t1") == 0 && us->proxy.kind == PROXY_CADDY &&
	    strcmp(us->state, "/var/lib/deploy/t1") == 0,
	    "fleet: shared settings on every host");
	CHECK(eu->nsites == 2 && us->nsites == 1 && lab->nsites == 2,
	    "fleet: sites per host %zu %zu %zu", eu->nsites, us->nsites,
	    lab->nsites);
	CHECK(spec_site(us, "docs") == NULL && spec_site(lab, "docs") != NULL,
	    "fleet: docs only where its hosts: says");
	CHECK(spec_fleet_has_site(s, "docs") && !spec_fleet_has_site(s, "x"),
	    "fleet: site lookup across hosts");
	CHECK(spec_site(lab, "blog") != NULL &&
	    strcmp(spec_site(lab, "blog")->addr_str, "10.232.0.10") == 0 &&
	    strcmp(spec_site(eu, "blog")->addr_str, "10.231.0.10") == 0,
	    "fleet: site addresses from each host's own subnet");
	CHECK(strcmp(eu->prefix, "t1-eu") == 0 &&
	    strcmp(us->prefix, "t1-us") == 0 &&
	    strcmp(lab->prefix, "t1-lab") == 0,
	    "fleet: what apply makes carries each host's name (%s %s %s)",
	    eu->prefix, us->prefix, lab->prefix);
	spec_free(s);
	diag_free(d);
}

/* host: with an IPv6 address; the prefix of a host whose label is an ssh
 * URL; a fleet of one keeps the deployment's name. */
static void
hosts_v6(void)
{
	static const char text[] =
	    "name: v6\nplatform: linux-netns\n"
	    "network: {bridge: v6br0, subnet: 10.231.0.0/24, proxy: 10.231.0.2}\n"
	    "proxy: {kind: caddy, tls: internal}\n"
	    "releases: {root: /srv/www}\n"
	    "hosts:\n"
	    "  - {name: a, host: \"ssh://d@[2001:db8::1]:2200\"}\n"
	    "  - {host: \"ssh://d@[2001:db8::2]\"}\n"
	    "sites: [{name: a, domains: a.test, source: /}]\n";
	static const char bad[] =
	    "name: v6\nplatform: linux-netns\nhost: \"ssh://d@[2001:db8::1\"\n"
	    "network: {bridge: v6br0, subnet: 10.231.0.0/24, proxy: 10.231.0.2}\n"
	    "proxy: {kind: caddy, tls: internal}\n"
	    "releases: {root: /srv/www}\n"
	    "sites: [{name: a, domains: a.test, source: /}]\n";
	struct diag *d = diag_new();
	struct spec *s = spec_parse("deploy.yaml", text, sizeof(text) - 1, d);
	const struct spec *b;

	CHECK(s != NULL, "IPv6 hosts refused");
	if (s == NULL) {
		diag_print(d, 0, stderr, 0);
		diag_free(d);
		return;
	}
	b = s->hosts[1];
	CHECK(strcmp(s->ssh_host, "2001:db8::1") == 0 && s->ssh_port == 2200,
	    "an IPv6 host and its port: %s %d", s->ssh_host, s->ssh_port);
	CHECK(strcmp(b->ssh_host, "2001:db8::2") == 0 && b->ssh_port == 22,
	    "an IPv6 host, port 22: %s %d", b->ssh_host, b->ssh_port);
	CHECK(strcmp(s->prefix, "v6-a") == 0, "prefix %s", s->prefix);
	CHECK(strncmp(b->prefix, "v6-h", 4) == 0 && strlen(b->prefix) == 12 &&
	    strspn(b->prefix + 4, "0123456789abcdef") == 8,
	    "a host named by its URL: a hash of it (%s)", b->prefix);
	spec_free(s);
	s = spec_parse("deploy.yaml", bad, sizeof(bad) - 1, d);
	CHECK(s == NULL && strstr(diag_message(d, diag_total(d) - 1),
	    "bad IPv6 address") != NULL, "a missing ] is an error");
	spec_free(s);
	diag_free(d);
}

static void
put(const char *path, const char *text, mode_t mode)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL)
		return;
	fputs(text, fp);
	fclose(fp);
	chmod(path, mode);
}

/* Every message of d, one a line, into out. */
static void
messages(struct diag *d, struct buf *out)
{
	size_t i;

	buf_clear(out);
	for (i = 0; i < diag_total(d); i++)
		buf_printf(out, "%s\n", diag_message(d, i));
}

#define SECRET "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0IQ=="

/* dns: and address:, with key files written here. */
static void
dns(void)
{
	static const char head[] =
	    "name: d\nplatform: linux-netns\n"
	    "network: {bridge: dbr0, subnet: 10.231.0.0/24, proxy: 10.231.0.2}\n"
	    "proxy: {kind: caddy, tls: internal}\n"
	    "releases: {root: /srv/www}\n";
	char dir[] = "/tmp/test_spec_dns.XXXXXX";
	struct buf p = BUF_INIT, y = BUF_INIT, m = BUF_INIT;
	struct diag *d;
	struct spec *s;

	if (mkdtemp(dir) == NULL) {
		CHECK(0, "mkdtemp");
		return;
	}
	buf_printf(&p, "%s/k.key", dir);
	put(p.ptr, "# made by tsig-keygen\nkey \"deploy-key\" {\n"
	    "\talgorithm hmac-sha256;\n\tsecret \"" SECRET "\";\n};\n", 0600);
	buf_printf(&p, "%s/open.key", dir);
	buf_clear(&p);
	buf_printf(&p, "%s/open.key", dir);
	put(p.ptr, "key \"k\" { algorithm hmac-sha512; secret \"" SECRET
	    "\"; };\n", 0644);
	buf_clear(&p);
	buf_printf(&p, "%s/bad.key", dir);
	put(p.ptr, "key \"k\" {\n algorithm hmac-sha256;\n secret \"not*base64"
	    "\";\n};\n", 0600);
	buf_clear(&p);
	buf_printf(&p, "%s/deploy.yaml", dir);

	/* a fleet of two, each host's addresses */
	buf_printf(&y, "%sdns:\n  server: 127.0.0.1:5353\n  zone: example.org.\n"
	    "  key: k.key\nhosts:\n"
	    "  - {name: a, host: local, address: [192.0.2.1, \"2001:DB8::1\"]}\n"
	    "  - {name: b, host: local, address: 192.0.2.2}\n"
	    "sites: [{name: w, domains: [example.org, www.example.org], "
	    "source: /}]\n", head);
	d = diag_new();
	s = spec_parse(p.ptr, y.ptr, y.len, d);
	messages(d, &m);
	CHECK(s != NULL && m.len == 0, "dns: refused: %s", m.ptr);
	if (s != NULL) {
		const struct spec_dns *n = s->dns;

		CHECK(n != NULL && strcmp(n->server, "127.0.0.1") == 0 &&
		    n->port == 5353 && strcmp(n->zone, "example.org") == 0 &&
		    n->ttl == 60 && !n->adopt, "dns fields");
		CHECK(n != NULL && strcmp(n->key_name, "deploy-key") == 0 &&
		    strcmp(n->key_alg, "hmac-sha256") == 0 &&
		    strcmp(n->key_secret, SECRET) == 0, "the key");
		CHECK(s->naddresses == 2 && s->hosts[1]->naddresses == 1 &&
		    strcmp(s->hosts[1]->addresses[0], "192.0.2.2") == 0,
		    "addresses per host");
		CHECK(s->hosts[1]->dns != NULL && s->hosts[1]->dns->port == 5353,
		    "every host has dns");
	}
	spec_free(s);
	diag_free(d);

	/* the default port, ttl and adopt; a key others may read: a
	 * warning, and the file is taken */
	buf_clear(&y);
	buf_printf(&y, "%sdns: {server: ns.example.org, zone: example.org, "
	    "key: open.key, ttl: 300, adopt: true}\naddress: 192.0.2.1\n"
	    "sites: [{name: w, domains: example.org, source: /}]\n", head);
	d = diag_new();
	s = spec_parse(p.ptr, y.ptr, y.len, d);
	messages(d, &m);
	CHECK(s != NULL && s->dns->port == 53 && s->dns->ttl == 300 &&
	    s->dns->adopt && strcmp(s->dns->key_alg, "hmac-sha512") == 0,
	    "dns defaults and options");
	CHECK(diag_count(d, DIAG_WARNING) == 1 && strstr(m.ptr,
	    ":6: warning: dns.key: key file open.key can be read") != NULL,
	    "a key readable by others is a warning: %s", m.ptr);
	spec_free(s);
	diag_free(d);

	/* errors, each at its line; the secret never in a message */
	buf_clear(&y);
	buf_printf(&y, "%sdns:\n  server: 127.0.0.1\n  key: bad.key\n"
	    "address: [192.0.2.1, 192.0.2.300]\n"
	    "sites: [{name: w, domains: example.org, source: /}]\n", head);
	d = diag_new();
	s = spec_parse(p.ptr, y.ptr, y.len, d);
	messages(d, &m);
	CHECK(s == NULL && strstr(m.ptr, ":7: error: dns: missing field "
	    "'zone'") != NULL, "no zone: %s", m.ptr);
	CHECK(strstr(m.ptr, ":8: error: dns.key: key file bad.key:3: the "
	    "secret is not base64") != NULL, "a malformed key: %s", m.ptr);
	CHECK(strstr(m.ptr, ":9: error: address: '192.0.2.300' is not an "
	    "IPv4 or IPv6 address") != NULL, "a bad address: %s", m.ptr);
	CHECK(strstr(m.ptr, "not*base64") == NULL, "the secret is quoted");
	diag_free(d);

	buf_clear(&y);
	buf_printf(&y, "%sdns: {server: \"[::1]:53\", zone: example.org, "
	    "key: missing.key}\n"
	    "sites: [{name: w, domains: [www.example.org, example.net, "
	    "badexample.org], source: /}]\n", head);
	d = diag_new();
	s = spec_parse(p.ptr, y.ptr, y.len, d);
	messages(d, &m);
	CHECK(s == NULL && strstr(m.ptr, ":6: error: dns.key: key file "
	    "missing.key: No such file") != NULL, "a missing key: %s", m.ptr);
	CHECK(strstr(m.ptr, ":7: error: site w: domain example.net is "
	    "outside the zone example.org") != NULL &&
	    strstr(m.ptr, "domain badexample.org is outside") != NULL &&
	    strstr(m.ptr, "www.example.org is outside") == NULL,
	    "domains outside the zone: %s", m.ptr);
	CHECK(strstr(m.ptr, "error: host local: no address:") != NULL,
	    "a host without address: %s", m.ptr);
	diag_free(d);

	buf_clear(&p);
	buf_printf(&p, "rm -rf %s", dir);
	if (system(p.ptr) != 0)
		CHECK(0, "%s", p.ptr);
	buf_release(&p);
	buf_release(&y);
	buf_release(&m);
}

/* The key file parser on its own: forms that pass and fail. */
static void
tsig_key(void)
{
	static const struct {
		const char *text;
		const char *err;	/* NULL: accepted */
		int line;
	} cases[] = {
		{ "key \"a.b.\" { algorithm hmac-sha256; secret \"" SECRET
		  "\"; };", NULL, 0 },
		{ "/* c */ key k {\n secret \"" SECRET "\"; // x\n"
		  " algorithm HMAC-SHA1; };\n", NULL, 0 },
		{ "", "expected 'key' before the end", 1 },
		{ "key \"k\" { algorithm hmac-md5; secret \"" SECRET "\"; };",
		  "algorithm 'hmac-md5' is not one of", 1 },
		{ "key \"k\" {\n algorithm hmac-sha256;\n};",
		  "the key has no secret", 3 },
		{ "key \"k\" { secret \"" SECRET "\"; };",
		  "the key has no algorithm", 1 },
		{ "key \"k\" { algorithm hmac-sha256; secret \"" SECRET "\" };",
		  "expected ';'", 1 },
		{ "key \"k\" { algorithm hmac-sha256; secret \"" SECRET "\"; }",
		  "expected ';' before the end", 1 },
		{ "key \"k\" { algorithm hmac-sha256; secret \"abc\"; };",
		  "the secret is not base64", 1 },
		{ "key \"k\" { algorithm hmac-sha256; secret \"" SECRET "\"; };"
		  "\nkey \"l\" {};", "more than one key", 2 },
		{ "key \"a b\" {};", "is not a domain name", 1 },
		{ "key \"k\" { secret \"" SECRET "; };",
		  "is not closed", 1 },
		{ "key \"k\" { owner x; };", "unknown statement 'owner'", 1 },
		/* Knot's form, as keymgr -t prints it */
		{ "# hmac-sha256:k:" SECRET "\nkey:\n  - id: k\n"
		  "    algorithm: hmac-sha256\n    secret: " SECRET "\n",
		  NULL, 0 },
		{ "key:\n  - id: k\n    algorithm: hmac-sha256\n",
		  "the key has no secret", 4 },
		{ "key:\n  - id: k\n    algorithm: md5\n    secret: " SECRET,
		  "algorithm is not one of", 3 },
		{ "key:\n  - id: k\n    secret: " SECRET "\n"
		  "    algorithm: hmac-sha256\n  - id: l\n",
		  "more than one key", 5 },
		{ "key:\n  - id: k\n    storage: /x\n", "unknown field 'storage'",
		  3 },
		{ "key:\n  - id: k\n    algorithm: hmac-sha1\n    secret: a*b=\n",
		  "the secret is not base64", 4 },
	};
	struct dns_key k;
	size_t i;
	char err[256];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int line = 0, r;

		err[0] = '\0';
		r = dns_key_parse(cases[i].text, strlen(cases[i].text), &k,
		    &line, err, sizeof(err));
		if (cases[i].err == NULL)
			CHECK(r == 0 && strcmp(k.secret, SECRET) == 0,
			    "key %zu refused: %s", i, err);
		else
			CHECK(r == -1 && strstr(err, cases[i].err) != NULL &&
			    line == cases[i].line && strstr(err, SECRET) ==
			    NULL, "key %zu: want '%s' at %d, got '%s' at %d",
			    i, cases[i].err, cases[i].line, err, line);
	}
	CHECK(dns_key_parse(cases[0].text, strlen(cases[0].text), &k, NULL,
	    err, sizeof(err)) == 0 && strcmp(k.name, "a.b.") == 0 &&
	    strcmp(k.alg, "hmac-sha256") == 0, "the name and algorithm");
	dns_key_clear(&k);
	CHECK(k.secret[0] == '\0', "cleared");
}

/* Sets of addresses: canonical, sorted, no repeats. */
static void
addrs(void)
{
	struct dns_addrs a, b;
	char out[256];

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	CHECK(dns_addrs_add(&a, "192.0.2.9") == 0 &&
	    dns_addrs_add(&a, "2001:DB8:0::1") == 0 &&
	    dns_addrs_add(&a, "192.0.2.10") == 0 &&
	    dns_addrs_add(&a, "192.0.2.9") == 0 && a.n == 3, "add");
	CHECK(dns_addrs_add(&a, "example.org") == -1, "a name is no address");
	dns_addrs_format(&a, out, sizeof(out));
	CHECK(strcmp(out, "192.0.2.10, 192.0.2.9, 2001:db8::1") == 0, "%s",
	    out);
	dns_addrs_add(&b, "2001:db8::1");
	dns_addrs_add(&b, "192.0.2.10");
	CHECK(!dns_addrs_equal(&a, &b), "not equal");
	dns_addrs_add(&b, "192.0.2.9");
	CHECK(dns_addrs_equal(&a, &b) && dns_addrs_has(&b, "2001:db8:0:0::1") &&
	    !dns_addrs_has(&b, "192.0.2.1"), "equal, has");
	memset(&b, 0, sizeof(b));
	dns_addrs_format(&b, out, sizeof(out));
	CHECK(strcmp(out, "none") == 0, "empty: %s", out);
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "tests/deploy/spec";
	struct dirent *de;
	DIR *dp;
	int n = 0;

	if (chdir(dir) == -1) {
		perror(dir);
		return 2;
	}
	if ((dp = opendir(".")) == NULL) {
		perror(dir);
		return 2;
	}
	while ((de = readdir(dp)) != NULL) {
		size_t len = strlen(de->d_name);

		if (len > 5 && strcmp(de->d_name + len - 5, ".yaml") == 0) {
			fixture(de->d_name);
			n++;
		}
	}
	closedir(dp);
	CHECK(n >= 7, "only %d fixtures", n);
	good();
	fleet();
	hosts_v6();
	overlap();
	gemini();
	empty();
	dns();
	tsig_key();
	addrs();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
