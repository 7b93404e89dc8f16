#ifndef DEPLOY_ACME_H
#define DEPLOY_ACME_H

#include <time.h>

#include "buf.h"
#include "diag.h"
#include "spec.h"

/*
 * Certificates of the nginx proxy with tls: acme, obtained on the host by
 * lego (HTTP-01: lego writes the answer into a folder the proxy serves at
 * /.well-known/acme-challenge/) and copied where the proxy reads them:
 *
 *   DIR/webroot/.well-known/acme-challenge/	the challenge folder
 *   DIR/lego/					lego's account and orders
 *   DIR/live/SITE.pem				what nginx serves: the chain
 *						and its key, read at each
 *						handshake
 *   DIR/attempt/SITE				the last attempt, one line
 *
 * DIR is the "acme" folder of the host's state folder. Caddy's
 * tls: acme needs none of this: Caddy is its own ACME client.
 */

#define ACME_SUBDIR	"/acme"

struct acme_cert {
	time_t		 not_before;
	time_t		 not_after;
	char		 serial[80];
	char		 issuer[160];
	char		 names[512];	/* "a.test b.test", as in the SAN */
	int		 placeholder;	/* made by acme_prepare, not issued */
};

/* 1 when the proxy is nginx with tls: acme (this module's case). */
int	acme_hosted(const struct spec *s);
/* 1 when deploy runs on the host s itself, whose driver works here and
 * does no certificates of its own (a linux-netns host; FreeBSD's driver
 * runs its own script, fb_acme): the commands then do this module's part
 * here. */
int	acme_on_host(const struct spec *s);
/* The live file of a site, below dir, with extension ext ("pem"):
 * malloc'd. */
char	*acme_live_path(const char *dir, const char *site, const char *ext);
/*
 * Makes the folders and, for each site without a certificate yet, a
 * self-signed placeholder valid for a day, so that nginx starts and can
 * answer the first challenge. 0 or -1.
 */
int	acme_prepare(const struct spec *s, const char *dir, struct diag *d);
/* Reads a PEM certificate's dates, serial, issuer and names. 0 or -1. */
int	acme_cert_read(const char *path, struct acme_cert *c);
/* 1 when the certificate is a placeholder, lacks a name of the site, or
 * has lived 2/3 of its lifetime at now. */
int	acme_due(const struct spec_site *site, const struct acme_cert *c,
	    time_t now);
/*
 * Asks the ACME server for a certificate for every domain and redirect
 * name of site, and on success replaces the live file, which the proxy
 * reads from its next handshake on (no reload). The attempt and its error are recorded for status.
 * 0, or -1 with the server's reason in d; the live file is untouched.
 */
int	acme_obtain(const struct spec *s, const struct spec_site *site,
	    const char *dir, struct diag *d);
/* Appends status lines of a site's certificate to out (indent first). */
void	acme_describe(const char *dir, const struct spec_site *site,
	    const char *indent, struct buf *out);
/*
 * The renewal schedule: a cron entry running `SELF renew --due -c FILE`
 * twice a day. acme_schedule_path sets path (the file it lives in).
 * acme_schedule_write writes it when different; 1 when written, 0 when
 * it was already so, -1 on error. acme_schedule_remove removes it.
 */
void	acme_schedule_path(const struct spec *s, struct buf *path);
void	acme_schedule_text(const struct spec *s, const char *self,
	    struct buf *out);
/* The cron file running command twice a day (no %, no newline in it). */
void	acme_cron_text(const struct spec *s, const char *command,
	    struct buf *out);
int	acme_schedule_write(const struct spec *s, const char *self,
	    struct diag *d);
int	acme_schedule_remove(const struct spec *s, struct diag *d);

#endif
