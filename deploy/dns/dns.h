#ifndef DEPLOY_DNS_H
#define DEPLOY_DNS_H

#include <stddef.h>
#include <stdio.h>

#include "spec.h"

struct diag;

/*
 * DNS kept in step with the fleet: the A and AAAA records of a site's
 * domains on the authoritative server of deploy.yaml's `dns:`, read by
 * query and changed by RFC 2136 updates signed with TSIG (libldns). The
 * key's secret goes from the key file to the signature and nowhere else:
 * no message, log line or command line holds it.
 */

/* A TSIG key as BIND's tsig-keygen prints it:
 *	key "NAME" { algorithm hmac-sha256; secret "BASE64"; };
 * or Knot's keymgr -t:
 *	key:
 *	  - id: NAME
 *	    algorithm: hmac-sha256
 *	    secret: BASE64						*/
struct dns_key {
	char	name[256];
	char	alg[32];
	char	secret[256];
};

/*
 * Reads a key file's text. 0, or -1 with why in err (errlen bytes) and
 * the line it is about in *line; never quotes the secret.
 */
int	dns_key_parse(const char *text, size_t len, struct dns_key *k,
	    int *line, char *err, size_t errlen);

/* Overwrites the key's bytes. */
void	dns_key_clear(struct dns_key *k);

/* A set of addresses, each as inet_ntop writes it, sorted, no repeats. */
#define DNS_ADDRS_MAX	64
struct dns_addrs {
	char	a[DNS_ADDRS_MAX][48];
	size_t	n;
};

/* Adds an IPv4 or IPv6 address in its canonical form. 0, or -1 when it
 * is not one or the set is full. */
int	dns_addrs_add(struct dns_addrs *set, const char *addr);
/* 1 when a and b hold the same addresses. */
int	dns_addrs_equal(const struct dns_addrs *a, const struct dns_addrs *b);
/* 1 when addr is in set. */
int	dns_addrs_has(const struct dns_addrs *set, const char *addr);
/* The set on one line, ", " between them, "none" when empty, into out
 * (a buffer of outlen bytes). */
void	dns_addrs_format(const struct dns_addrs *set, char *out, size_t outlen);

/*
 * What the server of dns answers for name: its A and AAAA records, into
 * *out. 0, or -1 with the reason, naming the server, in d.
 */
int	dns_query(const struct spec_dns *dns, const char *name,
	    struct dns_addrs *out, struct diag *d);

/*
 * Replaces the A and AAAA RRsets of name with want, on the condition
 * (RFC 2136 prerequisites) that they still hold exactly had, as read by
 * dns_query: another process that changed them in between makes the
 * update fail and nothing change. Signed with the key. 0, or -1 with the
 * reason (a key refused, a changed RRset, the server unreachable) in d.
 */
int	dns_replace(const struct spec_dns *dns, const char *name,
	    const struct dns_addrs *had, const struct dns_addrs *want,
	    struct diag *d);

#endif
