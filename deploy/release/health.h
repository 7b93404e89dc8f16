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
	const char	*ca_pem;	/* and CA certificates as PEM text */
	size_t		 ca_pem_len;	/* (the proxy's own, read on the
					 * host), NULL or 0: none */
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

/*
 * Where a reader reaches the host port that leads to the proxy's port to
 * (80 or 443, or 1965: the Gemini jail): the address the port names;
 * else, for a host reached over ssh, the host's own name or address (as
 * in host:); else this machine's loopback (a local host, or the host
 * itself when deploy runs there). Into addr (size bytes, no brackets
 * around an IPv6 address) and *port. 0, or -1 when no port maps there.
 */
#define HEALTH_ADDR_MAX	256
int	health_entry(const struct spec *s, int to, char *addr, size_t size,
	    int *port);

/* The serial number of the certificate the proxy serves for host (only
 * a handshake, not verified), into serial (size bytes). 0, or -1 with
 * the reason in err. */
int	health_serial(const struct spec *s, const char *host, char *serial,
	    size_t size, struct buf *err);

#endif
