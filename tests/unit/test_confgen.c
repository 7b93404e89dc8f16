/*
 * Generated configurations: the servers themselves must accept them
 * (nginx -t, caddy validate), and they must say what deploy.yaml asks.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acme.h"
#include "buf.h"
#include "confgen.h"

#define BROTLI_STATIC "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so"
#include "diag.h"
#include "spec.h"

static int passed, failed;
static char tmp[] = "/tmp/test_confgen.XXXXXX";

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

/* Runs argv quietly (output to log); returns the exit status. */
static int
run(char *const argv[], const char *log)
{
	pid_t pid;
	int st, fd;

	if ((pid = fork()) == 0) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int
run_netns(char *const argv[], const char *log, const char *addr)
{
	char *up[] = { "ip", "link", "set", "lo", "up", NULL };
	char *add[] = { "ip", "addr", "add", (char *)addr, "dev", "lo", NULL };
	pid_t pid;
	int st;

	if ((pid = fork()) == 0) {
		if (unshare(CLONE_NEWNET) == -1) {
			perror("unshare");
			_exit(126);
		}
		if (run(up, log) != 0 || (addr != NULL && run(add, log) != 0))
			_exit(125);
		_exit(run(argv, log));
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void
show(const char *log)
{
	char line[512];
	FILE *fp = fopen(log, "r");

	if (fp == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL)
		fprintf(stderr, "  | %s", line);
	fclose(fp);
}

static void
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp != NULL) {
		fputs(text, fp);
		fclose(fp);
	}
}

static struct spec *
load(const char *text)
{
	struct diag *d = diag_new();
	struct spec *s = spec_parse("deploy.yaml", text, strlen(text), d);

	if (s == NULL)
		diag_print(d, 0, stderr, 0);
	diag_free(d);
	return s;
}

/*
 * nginx -t binds the listening sockets, so it runs in a network namespace
 * of its own holding the address the config listens on.
 */
static int
nginx_t(const char *conf, const char *state, const char *addr)
{
	struct buf elog = BUF_INIT, log = BUF_INIT;
	char *argv[] = { "nginx", "-t", "-q", "-p", (char *)state, "-c",
	    (char *)conf, "-e", NULL, NULL };
	int rc;

	buf_printf(&elog, "%s/logs/error.log", state);
	argv[8] = elog.ptr;
	buf_printf(&log, "%s/nginx-t.log", tmp);
	rc = run_netns(argv, log.ptr, addr);
	if (rc != 0)
		show(log.ptr);
	buf_release(&elog);
	buf_release(&log);
	return rc;
}

static void
state_dirs(const char *state)
{
	struct buf b = BUF_INIT;

	mkdir(state, 0755);
	buf_printf(&b, "%s/logs", state);
	mkdir(b.ptr, 0755);
	buf_clear(&b);
	buf_printf(&b, "%s/tmp", state);
	mkdir(b.ptr, 0755);
	buf_clear(&b);
	buf_printf(&b, "%s/run", state);
	mkdir(b.ptr, 0755);
	buf_release(&b);
}

static void
test_quote(void)
{
	struct buf b = BUF_INIT;

	confgen_nginx_quote(&b, "a \"b\" \\c $d");
	CHECK(strcmp(b.ptr, "\"a \\\"b\\\" \\\\c ${dollar}d\"") == 0,
	    "quote: %s", b.ptr);
	buf_release(&b);
}

static void
test_caddy_sites(void)
{
	static const char text[] =
	    "name: cg\n"
	    "platform: linux-netns\n"
	    "network: {bridge: cg0, subnet: 10.231.7.0/24, proxy: 10.231.7.2}\n"
	    "proxy: {kind: caddy, tls: internal, hsts: 600}\n"
	    "releases: {root: /srv/cg}\n"
	    "sites:\n"
	    "  - name: blog\n"
	    "    domains: [www.blog.test, blog2.test]\n"
	    "    redirects: [\"blog.test -> www.blog.test\"]\n"
	    "    source: /\n"
	    "    headers:\n"
	    "      X-Frame-Options: DENY\n"
	    "      X-Price: \"costs $5 \\\"now\\\"\"\n"
	    "  - name: docs\n"
	    "    domains: docs.test\n"
	    "    source: /\n";
	struct spec *s = load(text);
	struct buf b = BUF_INIT, path = BUF_INIT, st = BUF_INIT, log = BUF_INIT;
	struct buf adm = BUF_INIT, data = BUF_INIT;
	struct confgen_paths p;
	FILE *fp;

	CHECK(s != NULL, "spec refused");
	if (s == NULL)
		return;
	memset(&p, 0, sizeof(p));
	buf_printf(&st, "%s/blog", tmp);
	state_dirs(st.ptr);
	p.state = st.ptr;
	p.root = "/srv/cg/blog";
	p.mime_types = "/etc/nginx/mime.types";
	/* nginx -t loads the module where it is (tests/deps.sh installs it) */
	p.brotli_static = access(BROTLI_STATIC, R_OK) == 0 ? BROTLI_STATIC :
	    NULL;
	buf_printf(&adm, "%s/admin.sock", tmp);
	buf_printf(&data, "%s/caddy", tmp);
	p.admin = adm.ptr;
	p.data = data.ptr;

	CHECK(confgen_site_nginx(&b, s, &s->sites[0], &p) == 0, "site nginx");
	buf_printf(&path, "%s/blog/nginx.conf", tmp);
	write_file(path.ptr, b.ptr);
	CHECK(nginx_t(path.ptr, st.ptr, "10.231.7.10/32") == 0, "nginx -t refuses the site "
	    "config:\n%s", b.ptr);
	CHECK(strstr(b.ptr, "listen 10.231.7.10:80 default_server backlog=4096;") != NULL,
	    "site listen address");
	CHECK(strstr(b.ptr, "root /srv/cg/blog/current;") != NULL, "root");
	CHECK(strstr(b.ptr, "gzip_static on;") != NULL &&
	    strstr(b.ptr, "sendfile on;") != NULL &&
	    strstr(b.ptr, "open_file_cache ") != NULL, "static serving");
	CHECK(strstr(b.ptr, "user www-data;") != NULL, "unprivileged workers");
	buf_clear(&path);
	buf_printf(&path, "pid %s/run/nginx.pid;", st.ptr);
	CHECK(strstr(b.ptr, path.ptr) != NULL, "pid in state");
	CHECK(strstr(b.ptr, "add_header X-Price \"costs ${dollar}5 "
	    "\\\"now\\\"\" always;") != NULL, "extra header quoted");
	CHECK(strstr(b.ptr, "location = /.well-known/release") != NULL &&
	    strstr(b.ptr, "add_header X-Release $release_id always;") != NULL,
	    "release id");
	CHECK(p.brotli_static == NULL ||
	    (strstr(b.ptr, "load_module " BROTLI_STATIC ";") != NULL &&
	    strstr(b.ptr, "brotli_static on;") != NULL), "brotli module");
	CHECK(strstr(b.ptr, "\t\tlocation / {\n\t\t\troot $release_dir;\n"
	    "\t\t\tadd_header Cache-Control \"no-cache\" always;\n"
	    "\t\t\tadd_header X-Release") != NULL, "pages: no-cache, and the "
	    "site's headers beside it");
	CHECK(strstr(b.ptr, "add_header Cache-Control $asset_cache always;") !=
	    NULL && strstr(b.ptr, "immutable") != NULL, "asset cache");

	buf_clear(&b);
	CHECK(confgen_caddy(&b, s, &p) == 0, "caddy");
	buf_clear(&path);
	buf_printf(&path, "%s/Caddyfile", tmp);
	write_file(path.ptr, b.ptr);
	{
		char *argv[] = { "caddy", "validate", "--adapter", "caddyfile",
		    "--config", path.ptr, NULL };

		buf_printf(&log, "%s/caddy.log", tmp);
		/* caddy looks for its own config folder under HOME. */
		setenv("HOME", tmp, 1);
		setenv("XDG_CONFIG_HOME", tmp, 1);
		setenv("XDG_DATA_HOME", tmp, 1);
		CHECK(run(argv, log.ptr) == 0, "caddy validate refuses:\n%s",
		    b.ptr);
	}
	CHECK(strstr(b.ptr, "www.blog.test, blog2.test {\n\ttls internal\n"
	    "\theader Strict-Transport-Security \"max-age=600\"\n"
	    "\treverse_proxy 10.231.7.10:80 {") != NULL, "caddy site block");
	CHECK(strstr(b.ptr, "blog.test {\n\ttls internal\n") != NULL &&
	    strstr(b.ptr, "redir https://www.blog.test{uri} permanent") != NULL,
	    "caddy redirect");
	CHECK(strstr(b.ptr, "docs.test {") != NULL &&
	    strstr(b.ptr, "reverse_proxy 10.231.7.11:80") != NULL,
	    "second site");
	CHECK(strstr(b.ptr, "keepalive_idle_conns_per_host 512") != NULL,
	    "upstream keepalive");
	CHECK(strstr(b.ptr, "https:// {") != NULL &&
	    strstr(b.ptr, "http:// {") != NULL, "catch-all");
	buf_clear(&path);
	buf_printf(&path, "admin unix/%s {", adm.ptr);
	CHECK(strstr(b.ptr, path.ptr) != NULL, "admin socket");
	(void)fp;
	spec_free(s);
	buf_release(&b);
	buf_release(&path);
	buf_release(&st);
	buf_release(&log);
	buf_release(&adm);
	buf_release(&data);
}

static void
test_acme(void)
{
	static const char text[] =
	    "platform: linux-netns\n"
	    "network: {bridge: cg0, subnet: 10.231.7.0/24, proxy: 10.231.7.2}\n"
	    "proxy: {kind: caddy, tls: acme, email: ops@example.org,\n"
	    "        acme_ca: \"https://acme-staging-v02.api.letsencrypt.org/directory\"}\n"
	    "releases: {root: /srv/cg}\n"
	    "sites: [{name: a, domains: a.test, source: /}]\n";
	struct spec *s = load(text);
	struct buf b = BUF_INIT, path = BUF_INIT, log = BUF_INIT;
	struct confgen_paths p = { tmp, "/srv/cg/a", "/etc/nginx/mime.types",
	    "/tmp/x.sock", tmp, NULL, NULL, NULL, NULL };
	char *argv[] = { "caddy", "validate", "--adapter", "caddyfile",
	    "--config", NULL, NULL };

	CHECK(s != NULL, "acme spec refused");
	if (s == NULL)
		return;
	confgen_caddy(&b, s, &p);
	CHECK(strstr(b.ptr, "tls internal") == NULL, "acme uses no internal CA");
	CHECK(strstr(b.ptr, "email ops@example.org") != NULL &&
	    strstr(b.ptr, "acme_ca https://acme-staging") != NULL, "acme options");
	CHECK(strstr(b.ptr, "https:// {") == NULL, "no on-demand catch-all "
	    "with acme");
	buf_printf(&path, "%s/Caddyfile.acme", tmp);
	write_file(path.ptr, b.ptr);
	buf_printf(&log, "%s/caddy-acme.log", tmp);
	argv[5] = path.ptr;
	CHECK(run(argv, log.ptr) == 0, "caddy validate refuses:\n%s", b.ptr);
	spec_free(s);
	buf_release(&b);
	buf_release(&path);
	buf_release(&log);
}

static void
test_proxy_nginx(void)
{
	struct buf text = BUF_INIT, b = BUF_INIT, path = BUF_INIT;
	struct buf cert = BUF_INIT, key = BUF_INIT, st = BUF_INIT;
	struct buf log = BUF_INIT, subj = BUF_INIT;
	struct spec *s;
	struct confgen_paths p;

	buf_printf(&cert, "%s/cert.pem", tmp);
	buf_printf(&key, "%s/key.pem", tmp);
	buf_printf(&log, "%s/openssl.log", tmp);
	{
		char *argv[] = { "openssl", "req", "-x509", "-newkey",
		    "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
		    "-days", "2", "-subj", "/CN=a.test", "-keyout", key.ptr,
		    "-out", cert.ptr, NULL };

		CHECK(run(argv, log.ptr) == 0, "openssl cannot make a "
		    "certificate");
	}
	(void)subj;
	buf_printf(&text,
	    "platform: linux-netns\n"
	    "network: {bridge: cg0, subnet: 10.231.7.0/24, proxy: 10.231.7.2}\n"
	    "proxy: {kind: nginx, certificate: %s, key: %s}\n"
	    "releases: {root: /srv/cg}\n"
	    "sites:\n"
	    "  - {name: a, domains: [a.test], source: /,\n"
	    "     redirects: [\"www.a.test -> a.test\"]}\n"
	    "  - {name: b, domains: [b.test], source: /,\n"
	    "     certificate: %s, key: %s}\n",
	    cert.ptr, key.ptr, cert.ptr, key.ptr);
	s = load(text.ptr);
	CHECK(s != NULL, "nginx proxy spec refused");
	if (s == NULL)
		goto out;
	memset(&p, 0, sizeof(p));
	buf_printf(&st, "%s/proxy", tmp);
	state_dirs(st.ptr);
	p.state = st.ptr;
	p.root = NULL;
	p.mime_types = "/etc/nginx/mime.types";
	p.admin = NULL;
	p.data = NULL;
	confgen_proxy_nginx(&b, s, &p);
	buf_printf(&path, "%s/proxy/nginx.conf", tmp);
	write_file(path.ptr, b.ptr);
	CHECK(nginx_t(path.ptr, st.ptr, NULL) == 0, "nginx -t refuses the proxy "
	    "config:\n%s", b.ptr);
	CHECK(strstr(b.ptr, "server 10.231.7.10:80;\n\t\tkeepalive 512;") !=
	    NULL, "upstream with keepalive");
	CHECK(strstr(b.ptr, "server_name a.test www.a.test;\n"
	    "\t\treturn 308 https://$host$request_uri;") != NULL,
	    "http to https");
	CHECK(strstr(b.ptr, "server_name www.a.test;") != NULL &&
	    strstr(b.ptr, "return 301 https://a.test$request_uri;") != NULL,
	    "redirect");
	CHECK(strstr(b.ptr, "Strict-Transport-Security \"max-age=31536000\" "
	    "always") != NULL, "hsts");
	CHECK(strstr(b.ptr, "ssl_reject_handshake on;") != NULL, "catch-all");
	CHECK(strstr(b.ptr, "listen 443 ssl http2;") != NULL, "http2 (1.22 "
	    "syntax)");
	spec_free(s);
out:
	buf_release(&text);
	buf_release(&b);
	buf_release(&path);
	buf_release(&cert);
	buf_release(&key);
	buf_release(&st);
	buf_release(&log);
}

/*
 * The proxy reaches each site through the site's Unix socket when the
 * paths name one, over TCP with proxy.upstream tcp; the site's nginx
 * listens on its socket besides its address.
 */
static void
test_unix_upstream(void)
{
	static const char *const kinds[] = {
	    "proxy: {kind: caddy, tls: internal}\n",
	    "proxy: {kind: nginx, certificate: /etc/hostname, key: /etc/hostname}\n",
	    "proxy: {kind: caddy, tls: internal, upstream: tcp}\n",
	    "proxy: {kind: nginx, certificate: /etc/hostname, key: /etc/hostname,"
	    " upstream: tcp}\n" };
	struct buf text = BUF_INIT, b = BUF_INIT, st = BUF_INIT, sock = BUF_INIT;
	struct buf path = BUF_INIT, want = BUF_INIT;
	struct confgen_paths p;
	size_t k;

	for (k = 0; k < 4; k++) {
		struct spec *s;
		int tcp = k >= 2, nginx = k % 2;

		buf_clear(&text);
		buf_printf(&text, "platform: linux-netns\n"
		    "network: {bridge: cg0, subnet: 10.231.7.0/24, "
		    "proxy: 10.231.7.2}\n%s"
		    "releases: {root: /srv/cg}\n"
		    "sites: [{name: a, domains: a.test, source: /}]\n",
		    kinds[k]);
		s = load(text.ptr);
		CHECK(s != NULL, "spec %zu refused", k);
		if (s == NULL)
			continue;
		CHECK(s->proxy.upstream_tcp == tcp, "upstream of spec %zu", k);
		memset(&p, 0, sizeof(p));
		buf_clear(&st);
		buf_printf(&st, "%s/sites/a", tmp);
		buf_clear(&path);
		buf_printf(&path, "%s/sites", tmp);
		mkdir(path.ptr, 0755);
		state_dirs(st.ptr);
		buf_clear(&sock);
		buf_printf(&sock, "%s/" CONFGEN_SOCK_DIR, st.ptr);
		mkdir(sock.ptr, 0755);
		buf_adds(&sock, "/nginx.sock");
		p.state = st.ptr;
		p.root = "/srv/cg/a";
		p.mime_types = "/etc/nginx/mime.types";
		p.sock = sock.ptr;
		buf_clear(&b);
		confgen_site_nginx(&b, s, &s->sites[0], &p);
		buf_clear(&want);
		buf_printf(&want, "listen unix:%s default_server backlog=%d;",
		    sock.ptr, CONFGEN_BACKLOG);
		CHECK((strstr(b.ptr, want.ptr) != NULL) == !tcp &&
		    strstr(b.ptr, "listen 10.231.7.10:80 default_server "
		    "backlog=4096;") != NULL,
		    "site %zu: socket (%s) and address:\n%s", k,
		    tcp ? "none" : "one", b.ptr);
		buf_clear(&path);
		buf_printf(&path, "%s/nginx.conf", st.ptr);
		write_file(path.ptr, b.ptr);
		CHECK(nginx_t(path.ptr, st.ptr, "10.231.7.10/32") == 0,
		    "nginx -t refuses the site config %zu:\n%s", k, b.ptr);

		memset(&p, 0, sizeof(p));
		buf_clear(&st);
		buf_printf(&st, "%s/proxy", tmp);
		state_dirs(st.ptr);
		buf_clear(&path);
		buf_printf(&path, "%s/sites", tmp);
		p.state = st.ptr;
		p.mime_types = "/etc/nginx/mime.types";
		p.admin = "/tmp/cg-admin.sock";
		p.data = st.ptr;
		p.socks = path.ptr;
		buf_clear(&b);
		if (nginx)
			confgen_proxy_nginx(&b, s, &p);
		else
			confgen_caddy(&b, s, &p);
		buf_clear(&want);
		if (tcp)
			buf_adds(&want, nginx ? "server 10.231.7.10:80;" :
			    "reverse_proxy 10.231.7.10:80 {");
		else
			buf_printf(&want, nginx ? "server unix:%s/a/%s;" :
			    "reverse_proxy unix/%s/a/%s {", path.ptr,
			    CONFGEN_SOCK);
		CHECK(strstr(b.ptr, want.ptr) != NULL, "proxy %zu: no '%s' "
		    "in:\n%s", k, want.ptr, b.ptr);
		CHECK(nginx || strstr(b.ptr, "\t\t\tcompression off\n") != NULL,
		    "caddy %zu asks the site for gzip", k);
		spec_free(s);
	}
	buf_release(&text);
	buf_release(&b);
	buf_release(&st);
	buf_release(&sock);
	buf_release(&path);
	buf_release(&want);
}

/* HTTP/3 with Caddy: off by default, h3 among the protocols when on. */
static void
test_http3(void)
{
	static const char *const texts[] = {
	    "platform: linux-netns\n"
	    "network: {bridge: cg0, subnet: 10.231.7.0/24, proxy: 10.231.7.2}\n"
	    "proxy: {kind: caddy, tls: internal}\n"
	    "releases: {root: /srv/cg}\n"
	    "sites: [{name: a, domains: a.test, source: /}]\n",
	    "platform: linux-netns\n"
	    "network: {bridge: cg0, subnet: 10.231.7.0/24, proxy: 10.231.7.2}\n"
	    "proxy: {kind: caddy, tls: internal, http3: true}\n"
	    "releases: {root: /srv/cg}\n"
	    "sites: [{name: a, domains: a.test, source: /}]\n" };
	struct buf b = BUF_INIT, path = BUF_INIT, log = BUF_INIT;
	struct confgen_paths p;
	int k;

	for (k = 0; k < 2; k++) {
		struct spec *s = load(texts[k]);
		char *argv[] = { "caddy", "validate", "--adapter", "caddyfile",
		    "--config", NULL, NULL };

		CHECK(s != NULL && s->proxy.http3 == k, "http3 spec %d", k);
		if (s == NULL)
			continue;
		memset(&p, 0, sizeof(p));
		p.admin = "/tmp/cg-admin.sock";
		p.data = tmp;
		buf_clear(&b);
		confgen_caddy(&b, s, &p);
		CHECK(strstr(b.ptr, k ? "\t\tprotocols h1 h2 h3\n" :
		    "\t\tprotocols h1 h2\n") != NULL, "protocols with http3 %s:"
		    "\n%s", k ? "on" : "off", b.ptr);
		buf_clear(&path);
		buf_printf(&path, "%s/Caddyfile.h3", tmp);
		write_file(path.ptr, b.ptr);
		buf_clear(&log);
		buf_printf(&log, "%s/caddy-h3.log", tmp);
		argv[5] = path.ptr;
		CHECK(run(argv, log.ptr) == 0, "caddy validate refuses:\n%s",
		    b.ptr);
		spec_free(s);
	}
	buf_release(&b);
	buf_release(&path);
	buf_release(&log);
}

/* nginx with tls acme: the placeholder apply makes lets nginx -t pass,
 * the challenge folder is served on port 80, the live files on 443. */
static void
test_proxy_nginx_acme(void)
{
	static const char text[] =
	    "platform: linux-netns\n"
	    "network: {bridge: cg0, subnet: 10.231.7.0/24, proxy: 10.231.7.2}\n"
	    "proxy: {kind: nginx, tls: acme, email: ops@example.org}\n"
	    "releases: {root: /srv/cg}\n"
	    "sites:\n"
	    "  - {name: a, domains: [a.test], source: /,\n"
	    "     redirects: [\"www.a.test -> a.test\"]}\n";
	struct spec *s = load(text);
	struct buf b = BUF_INIT, path = BUF_INIT, st = BUF_INIT, ad = BUF_INIT;
	struct confgen_paths p;
	struct diag *d = diag_new();

	CHECK(s != NULL, "nginx acme spec refused");
	if (s == NULL)
		goto out;
	buf_printf(&st, "%s/proxy", tmp);
	buf_printf(&ad, "%s/acme", tmp);
	state_dirs(st.ptr);
	CHECK(acme_prepare(s, ad.ptr, d) == 0, "acme_prepare failed");
	memset(&p, 0, sizeof(p));
	p.state = st.ptr;
	p.mime_types = "/etc/nginx/mime.types";
	p.acme = ad.ptr;
	confgen_proxy_nginx(&b, s, &p);
	buf_printf(&path, "%s/proxy/nginx-acme.conf", tmp);
	write_file(path.ptr, b.ptr);
	CHECK(nginx_t(path.ptr, st.ptr, NULL) == 0, "nginx -t refuses the acme "
	    "proxy config:\n%s", b.ptr);
	buf_clear(&path);
	buf_printf(&path, "server_name a.test www.a.test;\n"
	    "\t\tlocation /.well-known/acme-challenge/ {\n"
	    "\t\t\troot \"%s/webroot\";\n", ad.ptr);
	CHECK(strstr(b.ptr, path.ptr) != NULL, "challenge folder on port 80");
	CHECK(strstr(b.ptr, "\t\tlocation / {\n"
	    "\t\t\treturn 308 https://$host$request_uri;") != NULL,
	    "the rest of port 80 goes to https");
	buf_clear(&path);
	buf_printf(&path, "geo $acme_live {\n\t\tdefault \"%s/live\";",
	    ad.ptr);
	CHECK(strstr(b.ptr, path.ptr) != NULL, "the live folder");
	CHECK(strstr(b.ptr, "ssl_certificate $acme_live/a.pem;\n"
	    "\t\tssl_certificate_key $acme_live/a.pem;") != NULL,
	    "the live file, read at each handshake");
	spec_free(s);
out:
	diag_free(d);
	buf_release(&b);
	buf_release(&path);
	buf_release(&st);
	buf_release(&ad);
}

static void
cleanup(void)
{
	char *argv[] = { "rm", "-rf", tmp, NULL };
	pid_t pid = fork();

	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

int
main(void)
{
	if (geteuid() != 0) {
		fprintf(stderr, "test_confgen: nginx -t needs root (network "
		    "namespaces)\n");
		printf("0 passed, 1 failed\n");
		return 1;
	}
	if (mkdtemp(tmp) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	test_quote();
	test_caddy_sites();
	test_acme();
	test_proxy_nginx();
	test_proxy_nginx_acme();
	test_unix_upstream();
	test_http3();
	if (failed == 0)
		cleanup();
	else
		fprintf(stderr, "kept %s\n", tmp);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
