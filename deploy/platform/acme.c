/*
 * The nginx proxy's certificates with tls: acme: lego on the host, the
 * HTTP-01 answer served by the proxy from the challenge folder, the live
 * files nginx reads, the last attempt, and the renewal schedule.
 *
 * lego is the client because it is one program with no runtime of its
 * own (no shell hooks as uacme and dehydrated need), writes the answer
 * into a folder (--http.webroot), trusts a private ACME server's root from
 * LEGO_CA_CERTIFICATES, and is packaged by Debian (lego) and FreeBSD
 * (security/lego). Certificates are read with the openssl command, part
 * of both systems' base, as the deployer does not link libcrypto.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "acme.h"
#include "fsutil.h"
#include "proc.h"

#define PLACEHOLDER_CN	"deploy placeholder"

int
acme_on_host(const struct spec *s)
{
	return s->platform == PLATFORM_LINUX_NETNS && s->host == HOST_LOCAL;
}

int
acme_hosted(const struct spec *s)
{
	return s->proxy.kind == PROXY_NGINX && s->proxy.tls == TLS_ACME;
}

char *
acme_live_path(const char *dir, const char *site, const char *ext)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s/live/%s.%s", dir, site, ext);
	return buf_detach(&b, NULL);
}

static int
mkdir_in(const char *dir, const char *sub, mode_t mode, struct diag *d)
{
	struct buf b = BUF_INIT;
	int rc = 0;

	buf_printf(&b, "%s%s", dir, sub);
	if (fs_mkdirs(b.ptr) == -1 || chmod(b.ptr, mode) == -1) {
		diag_error(d, b.ptr, 0, "cannot make this folder: %s",
		    strerror(errno));
		rc = -1;
	}
	buf_release(&b);
	return rc;
}

/*
 * The certificate chain and its key, as one file, written atomically
 * (fs_write_file): nginx reads it at each handshake (its path holds a
 * variable), so a handshake sees the old pair or the new one, and no
 * reload closes a connection. Its workers read it: it belongs to the
 * proxy's user.
 */
static int
install(const struct spec *s, const char *crt, const char *key,
    const char *dst, struct diag *d)
{
	struct buf text = BUF_INIT;
	struct passwd *pw = NULL;
	int rc = -1;

	if (fs_read(crt, &text) == -1) {
		diag_error(d, crt, 0, "%s", strerror(errno));
		goto out;
	}
	buf_addc(&text, '\n');
	if (fs_read(key, &text) == -1) {
		diag_error(d, key, 0, "%s", strerror(errno));
		goto out;
	}
	if (geteuid() == 0)
		pw = getpwnam(s->user);
	if (fs_write_file(dst, text.ptr, text.len, 0400, pw ? pw->pw_uid :
	    (uid_t)-1, pw ? pw->pw_gid : (gid_t)-1) == -1) {
		diag_error(d, dst, 0, "%s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	buf_release(&text);
	return rc;
}

int
acme_prepare(const struct spec *s, const char *dir, struct diag *d)
{
	size_t i;
	int rc = 0;

	/* The proxy's workers read the challenge folder; nothing else. */
	if (mkdir_in(dir, "", 0711, d) == -1 ||
	    mkdir_in(dir, "/webroot/.well-known/acme-challenge", 0755,
	    d) == -1 || mkdir_in(dir, "/webroot", 0755, d) == -1 ||
	    mkdir_in(dir, "/webroot/.well-known", 0755, d) == -1 ||
	    mkdir_in(dir, "/lego", 0700, d) == -1 ||
	    mkdir_in(dir, "/live", 0711, d) == -1 ||
	    mkdir_in(dir, "/attempt", 0700, d) == -1)
		return -1;
	for (i = 0; i < s->nsites; i++) {
		char *pem = acme_live_path(dir, s->sites[i].name, "pem");
		struct buf crt = BUF_INIT, key = BUF_INIT;
		char *argv[] = { "openssl", "req", "-x509", "-newkey", "ec",
		    "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
		    "-days", "1", "-subj", "/CN=" PLACEHOLDER_CN, "-keyout",
		    NULL, "-out", NULL, NULL };

		buf_printf(&crt, "%s.crt", pem);
		buf_printf(&key, "%s.key", pem);
		argv[13] = key.ptr;
		argv[15] = crt.ptr;
		if (!fs_is_file(pem) && (proc_must(d, argv) == -1 ||
		    install(s, crt.ptr, key.ptr, pem, d) == -1))
			rc = -1;
		unlink(crt.ptr);
		unlink(key.ptr);
		buf_release(&crt);
		buf_release(&key);
		free(pem);
	}
	return rc;
}

/* The value after "name=" on a line of openssl's output, or NULL. */
static const char *
field(const char *text, const char *name, char *out, size_t size)
{
	const char *p = text, *e;
	size_t n = strlen(name);

	for (; p != NULL && *p != '\0'; p = strchr(p, '\n') ? strchr(p,
	    '\n') + 1 : NULL)
		if (strncmp(p, name, n) == 0 && p[n] == '=') {
			p += n + 1;
			e = strchr(p, '\n');
			n = e ? (size_t)(e - p) : strlen(p);
			if (n >= size)
				n = size - 1;
			memcpy(out, p, n);
			out[n] = '\0';
			return out;
		}
	return NULL;
}

int
acme_cert_read(const char *path, struct acme_cert *c)
{
	char *argv[] = { "openssl", "x509", "-noout", "-startdate",
	    "-enddate", "-serial", "-issuer", "-ext", "subjectAltName", "-in",
	    (char *)path, NULL };
	struct buf out = BUF_INIT;
	char date[64];
	const char *san, *p;
	size_t n = 0;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	if (!fs_is_file(path) || proc_run(argv, &out) != 0)
		goto done;
	if (field(out.ptr, "notBefore", date, sizeof(date)) != NULL)
		c->not_before = curl_getdate(date, NULL);
	if (field(out.ptr, "notAfter", date, sizeof(date)) != NULL)
		c->not_after = curl_getdate(date, NULL);
	field(out.ptr, "serial", c->serial, sizeof(c->serial));
	field(out.ptr, "issuer", c->issuer, sizeof(c->issuer));
	c->placeholder = strstr(c->issuer, PLACEHOLDER_CN) != NULL;
	/* "DNS:a.test, DNS:b.test" on the line after the heading */
	if ((san = strstr(out.ptr, "Subject Alternative Name:")) != NULL &&
	    (san = strchr(san, '\n')) != NULL) {
		for (p = san + 1; *p != '\0' && *p != '\n'; p++) {
			if (strncmp(p, "DNS:", 4) == 0) {
				p += 4;
				if (n > 0 && n + 1 < sizeof(c->names))
					c->names[n++] = ' ';
				while (*p != ',' && *p != '\n' && *p != '\0' &&
				    n + 1 < sizeof(c->names))
					c->names[n++] = *p++;
				if (*p == '\n' || *p == '\0')
					break;
			}
		}
		c->names[n] = '\0';
	}
	rc = c->not_after > 0 ? 0 : -1;
done:
	buf_release(&out);
	return rc;
}

static int
has_name(const char *names, const char *name)
{
	size_t n = strlen(name);
	const char *p = names;

	while ((p = strstr(p, name)) != NULL) {
		if ((p == names || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\0'))
			return 1;
		p += n;
	}
	return 0;
}

int
acme_due(const struct spec_site *site, const struct acme_cert *c, time_t now)
{
	size_t i;

	if (c->placeholder || c->not_after <= c->not_before)
		return 1;
	for (i = 0; i < site->ndomains; i++)
		if (!has_name(c->names, site->domains[i]))
			return 1;
	for (i = 0; i < site->nredirects; i++)
		if (!has_name(c->names, site->redirects[i].from))
			return 1;
	/* at 2/3 of the lifetime: 60 days into Let's Encrypt's 90 */
	return now >= c->not_before + (c->not_after - c->not_before) / 3 * 2;
}

/* The last line lego printed that says something, without its date. */
static void
last_words(const char *text, struct buf *out)
{
	const char *p = text, *line = NULL, *e;
	size_t n;

	while (*p != '\0') {
		e = strchr(p, '\n');
		n = e ? (size_t)(e - p) : strlen(p);
		if (n > 0)
			line = p;
		p += n + (e != NULL);
	}
	if (line == NULL) {
		buf_adds(out, "no output");
		return;
	}
	e = strchr(line, '\n');
	n = e ? (size_t)(e - line) : strlen(line);
	/* "2026/12/04 11:31:19 " */
	if (n > 20 && line[4] == '/' && line[7] == '/' && line[13] == ':') {
		line += 20;
		n -= 20;
	}
	buf_add(out, line, n);
}

static void
record(const char *dir, const char *site, const char *what)
{
	struct buf path = BUF_INIT, text = BUF_INIT;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	buf_printf(&path, "%s/attempt/%s", dir, site);
	buf_printf(&text, "%s %s\n", when, what);
	fs_write_atomic(path.ptr, text.ptr, text.len);
	buf_release(&path);
	buf_release(&text);
}

int
acme_obtain(const struct spec *s, const struct spec_site *site,
    const char *dir, struct diag *d)
{
	const char *server = s->proxy.acme_ca ? s->proxy.acme_ca :
	    "https://acme-v02.api.letsencrypt.org/directory";
	struct buf lego = BUF_INIT, web = BUF_INIT, env = BUF_INIT;
	struct buf out = BUF_INIT, why = BUF_INIT, src = BUF_INIT;
	char *argv[16 + 2 * 64];
	char *pem = acme_live_path(dir, site->name, "pem");
	struct buf key = BUF_INIT;
	struct acme_cert c;
	size_t n = 0, i;
	int rc = -1;

	buf_printf(&lego, "%s/lego", dir);
	buf_printf(&web, "%s/webroot", dir);
	argv[n++] = "env";
	if (s->proxy.acme_ca_root != NULL) {
		buf_printf(&env, "LEGO_CA_CERTIFICATES=%s",
		    s->proxy.acme_ca_root);
		argv[n++] = env.ptr;
	}
	argv[n++] = "lego";
	argv[n++] = "--accept-tos";
	argv[n++] = "--path";
	argv[n++] = lego.ptr;
	argv[n++] = "--server";
	argv[n++] = (char *)server;
	if (s->proxy.email != NULL) {
		argv[n++] = "--email";
		argv[n++] = s->proxy.email;
	}
	argv[n++] = "--http";
	argv[n++] = "--http.webroot";
	argv[n++] = web.ptr;
	for (i = 0; i < site->ndomains && n < 16 + 2 * 60; i++) {
		argv[n++] = "-d";
		argv[n++] = site->domains[i];
	}
	for (i = 0; i < site->nredirects && n < 16 + 2 * 62; i++) {
		argv[n++] = "-d";
		argv[n++] = site->redirects[i].from;
	}
	argv[n++] = "run";
	argv[n] = NULL;
	if (proc_run(argv, &out) != 0) {
		last_words(out.ptr, &why);
		diag_error(d, NULL, 0, "site %s: no certificate from %s: %s; "
		    "the proxy keeps the one it has", site->name, server,
		    why.ptr);
		buf_printf(&src, "failed: %s", why.ptr);
		record(dir, site->name, src.ptr);
		goto out;
	}
	/* lego names the files after the first name */
	buf_printf(&src, "%s/certificates/%s.crt", lego.ptr, site->domains[0]);
	buf_printf(&key, "%s/certificates/%s.key", lego.ptr, site->domains[0]);
	if (install(s, src.ptr, key.ptr, pem, d) == -1)
		goto out;
	buf_clear(&why);
	if (acme_cert_read(pem, &c) == 0)
		buf_printf(&why, "ok, serial %s", c.serial);
	else
		buf_adds(&why, "ok");
	record(dir, site->name, why.ptr);
	rc = 0;
out:
	free(pem);
	buf_release(&key);
	buf_release(&lego);
	buf_release(&web);
	buf_release(&env);
	buf_release(&out);
	buf_release(&why);
	buf_release(&src);
	return rc;
}

static void
day(time_t t, char *out, size_t size)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, size, "%Y-%m-%d %H:%M UTC", &tm);
}

void
acme_describe(const char *dir, const struct spec_site *site,
    const char *indent, struct buf *out)
{
	char *pem = acme_live_path(dir, site->name, "pem");
	struct buf path = BUF_INIT, text = BUF_INIT;
	struct acme_cert c;
	char a[40], b[40];

	if (acme_cert_read(pem, &c) == -1)
		buf_printf(out, "%scertificate: none yet\n", indent);
	else if (c.placeholder)
		buf_printf(out, "%scertificate: a placeholder, none issued "
		    "yet\n", indent);
	else {
		day(c.not_after, a, sizeof(a));
		day(c.not_before + (c.not_after - c.not_before) / 3 * 2, b,
		    sizeof(b));
		buf_printf(out, "%scertificate (ACME): %s; issuer %s; "
		    "expires %s (%ld days left); renewed from %s\n", indent,
		    c.names, c.issuer, a,
		    (long)((c.not_after - time(NULL)) / 86400), b);
	}
	buf_printf(&path, "%s/attempt/%s", dir, site->name);
	if (fs_read(path.ptr, &text) == 0 && text.len > 0) {
		if (text.ptr[text.len - 1] != '\n')
			buf_addc(&text, '\n');
		buf_printf(out, "%slast renewal attempt: %s", indent, text.ptr);
	} else
		buf_printf(out, "%slast renewal attempt: none\n", indent);
	free(pem);
	buf_release(&path);
	buf_release(&text);
}

void
acme_schedule_path(const struct spec *s, struct buf *path)
{
	const char *dir = getenv("DEPLOY_CRON_DIR");

	if (dir == NULL || *dir == '\0')
		dir = s->platform == PLATFORM_LINUX_NETNS ? "/etc/cron.d" :
		    "/usr/local/etc/cron.d";
	/* cron skips names with a dot */
	buf_printf(path, "%s/deploy-%s", dir, s->name);
}

void
acme_cron_text(const struct spec *s, const char *command, struct buf *out)
{
	unsigned minute = 0;
	const char *p;

	/* hosts of a fleet spread over the hour */
	for (p = s->name; *p != '\0'; p++)
		minute = minute * 31 + (unsigned char)*p;
	buf_printf(out,
	    "# Certificate renewal of %s, written by deploy apply and removed "
	    "by deploy destroy: do not edit.\n"
	    "# Renews each certificate at 2/3 of its lifetime; deploy status "
	    "shows the last attempt.\n"
	    "SHELL=/bin/sh\n"
	    "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
	    "%u 3,15 * * * root %s >/dev/null 2>&1\n",
	    s->name, minute % 60, command);
}

void
acme_schedule_text(const struct spec *s, const char *self, struct buf *out)
{
	char file[PATH_MAX];
	struct buf cmd = BUF_INIT;

	/* (a path realpath cannot resolve is written as given) */
	buf_printf(&cmd, "%s renew --due -c %s", self,
	    realpath(s->file, file) != NULL ? file : s->file);
	acme_cron_text(s, cmd.ptr, out);
	buf_release(&cmd);
}

int
acme_schedule_write(const struct spec *s, const char *self, struct diag *d)
{
	struct buf path = BUF_INIT, want = BUF_INIT, have = BUF_INIT;
	int rc = 0;

	acme_schedule_path(s, &path);
	acme_schedule_text(s, self, &want);
	if (strpbrk(self, " %\n") != NULL || strpbrk(s->file, " %\n") != NULL) {
		diag_error(d, s->file, 0, "the renewal schedule cannot name "
		    "a path with a space or %%");
		rc = -1;
	} else if (fs_read(path.ptr, &have) == 0 &&
	    strcmp(have.ptr, want.ptr) == 0)
		rc = 0;
	else {
		if (fs_write_atomic(path.ptr, want.ptr, want.len) == -1) {
			diag_error(d, path.ptr, 0, "%s", strerror(errno));
			rc = -1;
		} else
			rc = 1;
	}
	buf_release(&path);
	buf_release(&want);
	buf_release(&have);
	return rc;
}

int
acme_schedule_remove(const struct spec *s, struct diag *d)
{
	struct buf path = BUF_INIT;
	int rc = 0;

	acme_schedule_path(s, &path);
	if (unlink(path.ptr) == -1 && errno != ENOENT) {
		diag_error(d, path.ptr, 0, "%s", strerror(errno));
		rc = -1;
	}
	buf_release(&path);
	return rc;
}
