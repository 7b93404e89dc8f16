/*
 * The nginx proxy's ACME certificates on a linux-netns host: what apply
 * and destroy add to their plan's work, `deploy renew`, and the lines of
 * `deploy status`. Caddy is its own ACME client and needs none of it but
 * `deploy renew`, which makes it renew now (caddy_renew.h).
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acme.h"
#include "buf.h"
#include "caddy_renew.h"
#include "diag.h"
#include "driver.h"
#include "fsutil.h"
#include "health.h"
#include "mem.h"
#include "spec.h"
#include "cmd_int.h"

int
dc_acme_here(const struct spec *h)
{
	return acme_hosted(h) && acme_on_host(h);
}

void
dc_acme_dir(const struct spec *h, struct buf *dir)
{
	buf_printf(dir, "%s" ACME_SUBDIR, h->state);
}

/*
 * Obtains the certificate of every site (or of only) that is due, or of
 * every one when force. nginx serves a new one from its next handshake
 * on: nothing is reloaded, no connection closed. Prints a line per site.
 * 0, or -1 when a site got none (said in d).
 */
static int
renew_sites(const struct spec *h, const char *only, int force, int quiet,
    struct diag *d)
{
	struct buf dir = BUF_INIT;
	struct acme_cert c;
	size_t i;
	int rc = 0;
	char *crt;

	dc_acme_dir(h, &dir);
	for (i = 0; i < h->nsites; i++) {
		const struct spec_site *site = &h->sites[i];

		if (only != NULL && strcmp(only, site->name) != 0)
			continue;
		crt = acme_live_path(dir.ptr, site->name, "pem");
		if (acme_cert_read(crt, &c) == -1)
			c.placeholder = 1;
		if (!force && !acme_due(site, &c, time(NULL))) {
			if (!quiet)
				printf("certificate %s: not due\n", site->name);
		} else if (acme_obtain(h, site, dir.ptr, d) == -1)
			rc = -1;
		else {
			if (acme_cert_read(crt, &c) == 0)
				printf("certificate %s: %s, serial %s, "
				    "issuer %s\n", site->name, c.names,
				    c.serial, c.issuer);
		}
		free(crt);
	}
	buf_release(&dir);
	return rc;
}

int
dc_acme_prepare(const struct spec *h, struct diag *d)
{
	struct buf dir = BUF_INIT;
	int rc;

	dc_acme_dir(h, &dir);
	rc = acme_prepare(h, dir.ptr, d);
	buf_release(&dir);
	return rc;
}

int
dc_acme_converge(const struct spec *h, struct driver *drv, int *did,
    struct diag *d)
{
	struct buf path = BUF_INIT;
	int rc = 0, w;

	*did = 0;
	(void)drv;
	if (renew_sites(h, NULL, 0, 1, d) == -1)
		rc = -1;
	if ((w = acme_schedule_write(h, self_path[0] ? self_path : "deploy",
	    d)) == -1)
		rc = -1;
	else if (w == 1) {
		acme_schedule_path(h, &path);
		printf("renewal schedule: %s\n", path.ptr);
		*did = 1;
	}
	buf_release(&path);
	return rc;
}

static void
preview_heading(int *n)
{
	if ((*n)++ == 0)
		printf("certificates (ACME, after the actions):\n");
}

int
dc_acme_preview(const struct spec *h)
{
	struct buf dir = BUF_INIT, path = BUF_INIT, want = BUF_INIT;
	struct buf have = BUF_INIT;
	struct acme_cert c;
	size_t i, j;
	int n = 0;
	char *pem;

	dc_acme_dir(h, &dir);
	for (i = 0; i < h->nsites; i++) {
		const struct spec_site *site = &h->sites[i];

		pem = acme_live_path(dir.ptr, site->name, "pem");
		if (acme_cert_read(pem, &c) == -1)
			c.placeholder = 1;
		if (acme_due(site, &c, time(NULL))) {
			preview_heading(&n);
			printf("  obtain-certificate %s", site->name);
			for (j = 0; j < site->ndomains; j++)
				printf(" %s", site->domains[j]);
			for (j = 0; j < site->nredirects; j++)
				printf(" %s", site->redirects[j].from);
			printf("\n");
		}
		free(pem);
	}
	acme_schedule_path(h, &path);
	acme_schedule_text(h, self_path[0] ? self_path : "deploy", &want);
	if (fs_read(path.ptr, &have) == -1 || strcmp(have.ptr, want.ptr) != 0) {
		preview_heading(&n);
		printf("  write-renewal-schedule %s\n", path.ptr);
	}
	buf_release(&dir);
	buf_release(&path);
	buf_release(&want);
	buf_release(&have);
	return n;
}

int
dc_acme_remove(const struct spec *h, struct diag *d)
{
	struct buf dir = BUF_INIT;
	int rc = 0;

	if (acme_schedule_remove(h, d) == -1)
		rc = -1;
	dc_acme_dir(h, &dir);
	if (fs_is_dir(dir.ptr) && fs_remove_tree(dir.ptr) == -1) {
		diag_error(d, dir.ptr, 0, "cannot remove this folder");
		rc = -1;
	}
	rmdir(h->state);
	buf_release(&dir);
	return rc;
}

void
dc_acme_describe(const struct spec *h, const struct spec_site *site,
    const char *indent)
{
	struct buf dir = BUF_INIT, out = BUF_INIT;

	dc_acme_dir(h, &dir);
	acme_describe(dir.ptr, site, indent, &out);
	fputs(out.ptr, stdout);
	buf_release(&dir);
	buf_release(&out);
}

/* How long a forced Caddy renewal may take, in seconds. */
#define CADDY_RENEW_WAIT	120

struct served {
	const char	*name;		/* a domain or redirect name */
	const char	*site;
	char		 was[128];	/* serial before */
	char		 now[128];	/* serial served, once it differs */
};

/* Reads what Caddy logged past *off, whole lines only: the first error
 * of a renewal of one of names into why. 1 when found. */
static int
caddy_failed(const char *log, long *off, const char *const *names,
    size_t n, struct buf *why)
{
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int found = 0;

	if (log == NULL || (fp = fopen(log, "r")) == NULL)
		return 0;
	if (fseek(fp, *off, SEEK_SET) == 0)
		while (!found && (len = getline(&line, &cap, fp)) > 0 &&
		    line[len - 1] == '\n') {
			*off += (long)len;
			found = caddy_log_error(line, names, n, why);
		}
	free(line);
	fclose(fp);
	return found;
}

/*
 * Caddy: the certificate of every name of every site (or of only) renewed
 * now. The serial each name is served with is noted, the running config
 * replaced by one where those names are due, which Caddy renews in the
 * background while serving the certificates it has, and the proxy's
 * config loaded back once every name is served a new serial, or on the
 * first failure Caddy logs, or after CADDY_RENEW_WAIT seconds. 0 or -1.
 */
static int
caddy_renew(const struct spec *h, const char *only, struct diag *d)
{
	const char *server = h->proxy.acme_ca ? h->proxy.acme_ca :
	    "Caddy's default ACME servers";
	struct timespec tick = { 0, 250000000 };
	struct driver *drv;
	struct served *sv = NULL;
	const char **names = NULL, *last = NULL;
	struct buf err = BUF_INIT, why = BUF_INIT;
	struct stat st;
	char *log = NULL;
	size_t i, j, n = 0, left;
	long off = 0;
	time_t until;
	int rc = -1, loaded = 0;

	if ((drv = driver_open(h, d)) == NULL)
		return -1;
	if (drv->ops->force_renewal == NULL) {
		diag_error(d, h->file, 0, "renew: not on platform %s",
		    drv->ops->platform);
		goto out;
	}
	for (i = 0; i < h->nsites; i++) {
		const struct spec_site *site = &h->sites[i];

		if (only != NULL && strcmp(only, site->name) != 0)
			continue;
		sv = xrealloc(sv, (n + site->ndomains + site->nredirects) *
		    sizeof(*sv));
		for (j = 0; j < site->ndomains + site->nredirects; j++) {
			sv[n].name = j < site->ndomains ? site->domains[j] :
			    site->redirects[j - site->ndomains].from;
			sv[n].site = site->name;
			sv[n].now[0] = '\0';
			n++;
		}
	}
	names = xcalloc(n + 1, sizeof(*names));
	for (i = 0; i < n; i++) {
		names[i] = sv[i].name;
		if (health_serial(h, sv[i].name, sv[i].was, sizeof(sv[i].was),
		    &err) == -1) {
			diag_error(d, NULL, 0, "site %s: %s", sv[i].site,
			    err.ptr);
			goto out;
		}
	}
	if ((log = drv->ops->log_path(drv, "proxy")) != NULL &&
	    stat(log, &st) == 0)
		off = (long)st.st_size;
	loaded = 1;
	if (drv->ops->force_renewal(drv, names, n, d) == -1)
		goto out;
	until = time(NULL) + CADDY_RENEW_WAIT;
	for (left = n; left > 0 && time(NULL) < until; ) {
		nanosleep(&tick, NULL);
		if (caddy_failed(log, &off, names, n, &why))
			break;
		for (i = 0; i < n; i++) {
			if (sv[i].now[0] != '\0')
				continue;
			buf_clear(&err);
			if (health_serial(h, sv[i].name, sv[i].now,
			    sizeof(sv[i].now), &err) == 0 &&
			    strcmp(sv[i].now, sv[i].was) != 0)
				left--;
			else
				sv[i].now[0] = '\0';
		}
	}
	if (left == 0) {
		for (i = 0; i < n; i++)
			printf("certificate %s: %s, serial %s (was %s)\n",
			    sv[i].site, sv[i].name, sv[i].now, sv[i].was);
		rc = 0;
		goto out;
	}
	if (why.len == 0)
		buf_printf(&why, "no new certificate served within %d s%s%s",
		    CADDY_RENEW_WAIT, log ? "; see " : "", log ? log : "");
	for (i = 0; i < n; i++) {
		if (sv[i].now[0] != '\0' ||
		    (last != NULL && strcmp(last, sv[i].site) == 0))
			continue;
		last = sv[i].site;
		diag_error(d, NULL, 0, "site %s: no certificate from %s: %s; "
		    "the proxy keeps the one it has", last, server, why.ptr);
	}
out:
	/* Whatever happened, Caddy runs its own config again. */
	if (loaded && drv->ops->force_renewal(drv, NULL, 0, d) == -1)
		rc = -1;
	free(sv);
	free(names);
	free(log);
	buf_release(&err);
	buf_release(&why);
	driver_free(drv);
	return rc;
}

int
cmd_renew(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *full, *h;
	int rc = 1, caddy;

	PARSE("renew", 1, "DH");
	d = diag_new();
	if ((full = dc_load(&o, d, 0)) == NULL)
		return dc_report(d, 1);
	h = dc_host(full, &o);
	caddy = h->proxy.kind == PROXY_CADDY && h->proxy.tls == TLS_ACME;
	if (o.npos && spec_site(h, o.pos[0]) == NULL)
		diag_error(d, o.file, 0, "unknown site '%s'", o.pos[0]);
	else if (caddy && o.due)
		diag_error(d, o.file, 0, "renew --due: Caddy renews its "
		    "certificates itself when they are due");
	else if (caddy && !acme_on_host(h))
		diag_error(d, o.file, 0, "renew: runs on the host itself");
	else if (caddy) {
		if (caddy_renew(h, o.npos ? o.pos[0] : NULL, d) == 0)
			rc = 0;
	} else if (!acme_hosted(h))
		diag_error(d, o.file, 0, "renew: the proxy takes no ACME "
		    "certificates (proxy.tls is not acme)");
	else if (!dc_acme_here(h))
		diag_error(d, o.file, 0, "renew: runs on the host itself, "
		    "where the renewal schedule runs it");
	else if (renew_sites(h, o.npos ? o.pos[0] : NULL, !o.due, 0, d) == 0)
		rc = 0;
	spec_free(full);
	return dc_report(d, rc);
}
