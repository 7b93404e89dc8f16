#ifndef DEPLOY_HEALTH_H
#define DEPLOY_HEALTH_H

#include <time.h>

#include "buf.h"
#include "diag.h"
#include "spec.h"

/*
 * Health of a site as a visitor sees it: every domain fetched through the
 * proxy over TLS (libcurl, certificate verified against ca), connecting
 * to the host port that reaches the proxy's 443.
 */
struct health_opts {
	const char	*ca;		/* CA file trusted besides the system
					 * store and proxy.ca; NULL: none */
	const char	*expect;	/* release id wanted; NULL: any */
	long		 timeout;	/* seconds per request */
};

struct health_result {
	int		 ok;		/* every check passed */
	char		 release[64];	/* id served by the first domain */
	time_t		 cert_expiry;	/* of the first domain, 0 if unknown */
#define HEALTH_ISSUER_MAX 160
	char		 cert_issuer[HEALTH_ISSUER_MAX]; /* its issuer's name,
					 * "" if unknown */
};

/*
 * Checks one site: for each domain GET / must answer 200 with X-Release
 * set, and /.well-known/release must answer 200 with the same id (equal
 * to o->expect when given); each redirect must answer 301 or 308 to its
 * target. A site with gemini also answers gemini://DOMAIN/ (first domain,
 * through the host port to 1965) with 20 text/gemini, and its capsule's
 * /.well-known/release with the same id. One line per check is appended to report. Returns 0 when all
 * passed, -1 otherwise (reasons also in d).
 */
int	health_check(const struct spec *s, const struct spec_site *site,
	    const struct health_opts *o, struct health_result *r,
	    struct buf *report, struct diag *d);

/* The host address and port that reach the proxy's port to (80 or 443):
 * address into addr[16]. 0, or -1 when no port maps there. */
int	health_entry(const struct spec *s, int to, char addr[16], int *port);

/* The serial number of the certificate the proxy serves for host (only
 * a handshake, not verified), into serial (size bytes). 0, or -1 with
 * the reason in err. */
int	health_serial(const struct spec *s, const char *host, char *serial,
	    size_t size, struct buf *err);

#endif
