#include "health.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "fsutil.h"
#include "gemini.h"
#include "mem.h"

struct reply {
	struct buf	 body;
	char		 release[64];
};

static size_t
on_body(char *p, size_t size, size_t n, void *u)
{
	struct reply *r = u;

	/* A health answer is small; more is not read into memory. */
	if (r->body.len < 65536)
		buf_add(&r->body, p, size * n);
	return size * n;
}

static size_t
on_header(char *p, size_t size, size_t n, void *u)
{
	struct reply *r = u;
	size_t len = size * n, i = 0;

	if (len > 10 && strncasecmp(p, "X-Release:", 10) == 0) {
		p += 10;
		len -= 10;
		while (len > 0 && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		while (len > 0 && (p[len - 1] == '\r' || p[len - 1] == '\n' ||
		    p[len - 1] == ' '))
			len--;
		for (i = 0; i < len && i < sizeof(r->release) - 1; i++)
			r->release[i] = p[i];
		r->release[i] = '\0';
	}
	return size * n;
}

int
health_entry(const struct spec *s, int to, char *addr, size_t size,
    int *port)
{
	size_t i;

	for (i = 0; i < s->net.nports; i++)
		if (s->net.ports[i].to == to) {
			/* a port without an address answers on every one of
			 * the host's: a reader elsewhere uses the host's own
			 * name, one here (or the host itself) its loopback */
			/* (addresses and host names deploy.yaml bounds) */
			xsnprintf(addr, size, "%s", s->net.ports[i].addr ?
			    s->net.ports[i].addr : s->host == HOST_SSH ?
			    s->ssh_host : "127.0.0.1");
			*port = s->net.ports[i].port;
			return 0;
		}
	return -1;
}

/* A curl handle for url, connecting to addr:port (the host port that
 * reaches the proxy), whatever DNS says of host; NULL on failure, in err. */
static CURL *
resolved(const char *url, const char *host, int port, const char *addr,
    struct curl_slist **res, struct buf *err)
{
	char to[HEALTH_ADDR_MAX + 300];
	CURL *c;
	int v6 = strchr(addr, ':') != NULL;

	xsnprintf(to, sizeof(to), "%s:%d:%s%s%s:%d", host, port, v6 ? "[" : "",
	    addr, v6 ? "]" : "", port);
	*res = curl_slist_append(NULL, to);
	if ((c = curl_easy_init()) == NULL) {
		curl_slist_free_all(*res);
		*res = NULL;
		buf_adds(err, "curl_easy_init failed");
		return NULL;
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_CONNECT_TO, *res);
	return c;
}

/* "URL (ADDRESS port N): why", the address as connected to when known. */
static void
failed(struct buf *err, CURL *c, const char *url, const char *addr, int port,
    CURLcode cc)
{
	char *ip = NULL;

	if (curl_easy_getinfo(c, CURLINFO_PRIMARY_IP, &ip) != CURLE_OK ||
	    ip == NULL || ip[0] == '\0' || strcmp(ip, addr) == 0)
		buf_printf(err, "%s (%s port %d): %s", url, addr, port,
		    curl_easy_strerror(cc));
	else
		buf_printf(err, "%s (%s, %s port %d): %s", url, addr, ip, port,
		    curl_easy_strerror(cc));
}

int
health_serial(const struct spec *s, const char *host, char *serial,
    size_t size, struct buf *err)
{
	char url[512], addr[HEALTH_ADDR_MAX];
	struct curl_slist *res = NULL, *l;
	struct curl_certinfo *ci = NULL;
	CURL *c;
	CURLcode cc;
	char *p;
	int port, rc = -1;

	serial[0] = '\0';
	if (health_entry(s, 443, addr, sizeof(addr), &port) == -1) {
		buf_adds(err, "network.ports: no host port reaches the proxy's "
		    "443");
		return -1;
	}
	xsnprintf(url, sizeof(url), "https://%s:%d/", host, port);
	if ((c = resolved(url, host, port, addr, &res, err)) == NULL)
		return -1;
	/* The handshake only: whatever is served, verified or not. */
	curl_easy_setopt(c, CURLOPT_CONNECT_ONLY, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
	curl_easy_setopt(c, CURLOPT_CERTINFO, 1L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	if ((cc = curl_easy_perform(c)) != CURLE_OK)
		failed(err, c, url, addr, port, cc);
	else if (curl_easy_getinfo(c, CURLINFO_CERTINFO, &ci) == CURLE_OK &&
	    ci != NULL && ci->num_of_certs > 0)
		for (l = ci->certinfo[0]; l != NULL; l = l->next)
			if (strncmp(l->data, "Serial Number:", 14) == 0) {
				/* (the server's text: said cut when it is) */
				if (strfit(serial, size, "%s", l->data + 14 +
				    strspn(l->data + 14, " ")) == -1)
					memcpy(serial + size - 4, "...", 4);
				/* as openssl shows it, and status with it */
				for (p = serial; *p != '\0'; p++)
					*p = (char)toupper((unsigned char)*p);
				rc = 0;
			}
	if (cc == CURLE_OK && rc == -1)
		buf_printf(err, "%s: no certificate served", url);
	curl_easy_cleanup(c);
	curl_slist_free_all(res);
	return rc;
}

/* One GET; fills code, location and the reply. 0 or -1 (transport). */
static int
fetch(const struct health_opts *o, const struct buf *pem, const char *host,
    const char *addr, int port, const char *path, long *code,
    struct buf *location, struct reply *r, time_t *expiry, char *issuer,
    struct buf *err)
{
	char url[512];
	struct curl_slist *res = NULL;
	CURL *c;
	CURLcode cc;
	char *loc = NULL;

	if (port == 443)
		xsnprintf(url, sizeof(url), "https://%s%s", host, path);
	else
		xsnprintf(url, sizeof(url), "https://%s:%d%s", host, port, path);
	if ((c = resolved(url, host, port, addr, &res, err)) == NULL)
		return -1;
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https");
	if (pem->len > 0) {
		/* beside the system store, which CAINFO would replace */
		struct curl_blob blob = { pem->ptr, pem->len,
		    CURL_BLOB_NOCOPY };

		curl_easy_setopt(c, CURLOPT_CAINFO_BLOB, &blob);
	}
	curl_easy_setopt(c, CURLOPT_TIMEOUT, o->timeout > 0 ? o->timeout : 10L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, r);
	curl_easy_setopt(c, CURLOPT_CERTINFO, 1L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	cc = curl_easy_perform(c);
	if (cc != CURLE_OK) {
		failed(err, c, url, addr, port, cc);
		curl_easy_cleanup(c);
		curl_slist_free_all(res);
		return -1;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, code);
	if (curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &loc) == CURLE_OK &&
	    loc != NULL)
		buf_adds(location, loc);
	if (expiry != NULL) {
		struct curl_certinfo *ci = NULL;
		struct curl_slist *l;

		if (curl_easy_getinfo(c, CURLINFO_CERTINFO, &ci) == CURLE_OK &&
		    ci != NULL && ci->num_of_certs > 0)
			for (l = ci->certinfo[0]; l != NULL; l = l->next) {
				if (strncmp(l->data, "Expire date:", 12) == 0)
					*expiry = curl_getdate(l->data + 12,
					    NULL);
				else if (issuer != NULL &&
				    strncmp(l->data, "Issuer:", 7) == 0)
					if (strfit(issuer, HEALTH_ISSUER_MAX,
					    "%s", l->data + 7 +
					    strspn(l->data + 7, " ")) == -1)
						memcpy(issuer +
						    HEALTH_ISSUER_MAX - 4,
						    "...", 4);
			}
	}
	curl_easy_cleanup(c);
	curl_slist_free_all(res);
	return 0;
}

static void
trim(struct buf *b)
{
	while (b->len > 0 && (b->ptr[b->len - 1] == '\n' ||
	    b->ptr[b->len - 1] == '\r' || b->ptr[b->len - 1] == ' '))
		buf_truncate(b, b->len - 1);
}

/*
 * The capsule through the host's port to the Gemini jail: gemini://DOMAIN/
 * answers 20 text/gemini and /.well-known/release (a file push puts in the
 * capsule) the release wanted, or the one the HTML serves. 0 or -1.
 */
static int
check_gemini(const struct spec *s, const struct spec_site *site,
    const struct health_opts *o, const char *html_release,
    struct buf *report, struct diag *d)
{
	const char *host = site->domains[0];
	const char *want = o->expect != NULL ? o->expect : html_release;
	struct gemini_reply root, rel;
	struct buf url = BUF_INIT, err = BUF_INIT;
	char addr[HEALTH_ADDR_MAX];
	int port, rc = -1;

	gemini_reply_init(&root);
	gemini_reply_init(&rel);
	if (health_entry(s, 1965, addr, sizeof(addr), &port) == -1) {
		diag_error(d, s->file, 0, "network.ports: no host port reaches "
		    "the Gemini jail's 1965");
		goto out;
	}
	/* The URL names the capsule, not the host port it came through. */
	buf_printf(&url, "gemini://%s/", host);
	if (gemini_fetch(addr, port, host, url.ptr, o->timeout, &root,
	    &err) == -1)
		goto fail;
	buf_adds(&url, ".well-known/release");
	if (gemini_fetch(addr, port, host, url.ptr, o->timeout, &rel,
	    &err) == -1)
		goto fail;
	trim(&rel.body);
	if (root.status != 20 || strncmp(root.meta.ptr, "text/gemini", 11) != 0)
		buf_printf(&err, "gemini://%s/ answered %d %s", host,
		    root.status, root.meta.ptr);
	else if (rel.status != 20)
		buf_printf(&err, "gemini://%s/.well-known/release answered "
		    "%d %s", host, rel.status, rel.meta.ptr);
	else if (want != NULL && want[0] != '\0' &&
	    strcmp(rel.body.ptr, want) != 0)
		buf_printf(&err, "gemini://%s/ serves release %s, not %s", host,
		    rel.body.ptr, want);
	else {
		buf_printf(report, "ok   gemini://%s/ %d %s release %s\n", host,
		    root.status, root.meta.ptr, rel.body.ptr);
		rc = 0;
		goto out;
	}
fail:
	buf_printf(report, "FAIL %s\n", err.ptr);
	diag_error(d, NULL, 0, "site %s: %s", site->name, err.ptr);
out:
	gemini_reply_release(&root);
	gemini_reply_release(&rel);
	buf_release(&url);
	buf_release(&err);
	return rc;
}

int
health_check(const struct spec *s, const struct spec_site *site,
    const struct health_opts *o, struct health_result *res,
    struct buf *report, struct diag *d)
{
	char addr[HEALTH_ADDR_MAX];
	int port, bad = 0;
	size_t i, k;
	struct buf pem = BUF_INIT;
	/* a private ACME server's root may sign what it issues too */
	const char *cas[3] = { o->ca, s->proxy.ca, s->proxy.acme_ca_root };

	memset(res, 0, sizeof(*res));
	if (health_entry(s, 443, addr, sizeof(addr), &port) == -1) {
		diag_error(d, s->file, 0, "network.ports: no host port reaches "
		    "the proxy's 443");
		return -1;
	}
	/* the CAs trusted besides the system's, as one PEM text */
	for (k = 0; k < 3; k++)
		if (cas[k] != NULL && fs_read(cas[k], &pem) == -1) {
			diag_error(d, cas[k], 0, "cannot read this CA file: %s",
			    strerror(errno));
			buf_release(&pem);
			return -1;
		} else if (cas[k] != NULL)
			buf_addc(&pem, '\n');
	if (o->ca_pem != NULL && o->ca_pem_len > 0) {
		buf_add(&pem, o->ca_pem, o->ca_pem_len);
		buf_addc(&pem, '\n');
	}
	for (i = 0; i < site->ndomains; i++) {
		const char *host = site->domains[i];
		struct reply root = { BUF_INIT, "" }, rel = { BUF_INIT, "" };
		struct buf loc = BUF_INIT, err = BUF_INIT;
		long c1 = 0, c2 = 0;
		time_t exp = 0;

		if (fetch(o, &pem, host, addr, port, "/", &c1, &loc, &root,
		    &exp, i == 0 ? res->cert_issuer : NULL, &err) == -1 ||
		    fetch(o, &pem, host, addr, port, "/.well-known/release",
		    &c2, &loc, &rel, NULL, NULL, &err) == -1) {
			buf_printf(report, "FAIL %s: %s\n", host, err.ptr);
			diag_error(d, NULL, 0, "site %s: %s", site->name,
			    err.ptr);
			bad = 1;
			goto next;
		}
		trim(&rel.body);
		if (c1 != 200 || c2 != 200) {
			buf_printf(report, "FAIL https://%s/ answered %ld, "
			    "/.well-known/release %ld\n", host, c1, c2);
			diag_error(d, NULL, 0, "site %s: https://%s/ answered "
			    "%ld, /.well-known/release %ld", site->name, host,
			    c1, c2);
			bad = 1;
		} else if (rel.body.len == 0 ||
		    strcmp(rel.body.ptr, root.release) != 0) {
			buf_printf(report, "FAIL %s: release '%s' at "
			    "/.well-known/release, X-Release '%s'\n", host,
			    rel.body.ptr, root.release);
			diag_error(d, NULL, 0, "site %s: %s serves no "
			    "consistent release id", site->name, host);
			bad = 1;
		} else if (o->expect != NULL &&
		    strcmp(rel.body.ptr, o->expect) != 0) {
			buf_printf(report, "FAIL %s: release %s, expected %s\n",
			    host, rel.body.ptr, o->expect);
			diag_error(d, NULL, 0, "site %s: %s serves release %s, "
			    "not %s", site->name, host, rel.body.ptr,
			    o->expect);
			bad = 1;
		} else
			buf_printf(report, "ok   https://%s/ 200 release %s\n",
			    host, rel.body.ptr);
		if (i == 0) {
			/* (the server's answer: a release id is 29 bytes) */
			if (strfit(res->release, sizeof(res->release), "%s",
			    rel.body.ptr) == -1)
				memcpy(res->release + sizeof(res->release) - 4,
				    "...", 4);
			res->cert_expiry = exp;
		}
next:
		buf_release(&root.body);
		buf_release(&rel.body);
		buf_release(&loc);
		buf_release(&err);
	}
	for (i = 0; i < site->nredirects; i++) {
		const struct spec_redirect *r = &site->redirects[i];
		struct reply rep = { BUF_INIT, "" };
		struct buf loc = BUF_INIT, err = BUF_INIT, want = BUF_INIT;
		long code = 0;

		buf_printf(&want, "https://%s/", r->to);
		if (fetch(o, &pem, r->from, addr, port, "/", &code, &loc,
		    &rep, NULL, NULL, &err) == -1) {
			buf_printf(report, "FAIL %s: %s\n", r->from, err.ptr);
			diag_error(d, NULL, 0, "site %s: %s", site->name,
			    err.ptr);
			bad = 1;
		} else if ((code != 301 && code != 308) ||
		    strcmp(loc.ptr, want.ptr) != 0) {
			buf_printf(report, "FAIL https://%s/ answered %ld to "
			    "'%s', expected a redirect to %s\n", r->from, code,
			    loc.ptr, want.ptr);
			diag_error(d, NULL, 0, "site %s: %s does not redirect "
			    "to %s", site->name, r->from, want.ptr);
			bad = 1;
		} else
			buf_printf(report, "ok   https://%s/ %ld -> %s\n",
			    r->from, code, loc.ptr);
		buf_release(&rep.body);
		buf_release(&loc);
		buf_release(&err);
		buf_release(&want);
	}
	if (site->gemini && site->ndomains > 0 &&
	    check_gemini(s, site, o, res->release, report, d) == -1)
		bad = 1;
	buf_release(&pem);
	res->ok = !bad;
	return bad ? -1 : 0;
}
