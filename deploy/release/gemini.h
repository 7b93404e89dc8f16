#ifndef DEPLOY_GEMINI_H
#define DEPLOY_GEMINI_H

#include "buf.h"

/*
 * A Gemini client of the smallest kind, over OpenSSL, for health checks
 * and `deploy status`: one request, the whole answer. The server's
 * certificate is not verified (Gemini trusts on first use, and the
 * capsule's is self-signed); its SHA-256 fingerprint is returned so a
 * caller can compare it with the one it knows.
 */
struct gemini_reply {
	int		 status;	/* two digits, e.g. 20 */
	struct buf	 meta;		/* the rest of the header line */
	struct buf	 body;		/* at most 1 MB of it */
	char		 fingerprint[65]; /* hex SHA-256 of the certificate */
};

void	gemini_reply_init(struct gemini_reply *r);
void	gemini_reply_release(struct gemini_reply *r);

/*
 * Connects to addr:port (a name, an IPv4 or an IPv6 address), sends url with host as the
 * TLS server name, and reads the answer into r (initialised by the
 * caller). timeout is in seconds for each step. 0, or -1 with the reason
 * appended to err.
 */
int	gemini_fetch(const char *addr, int port, const char *host,
	    const char *url, long timeout, struct gemini_reply *r,
	    struct buf *err);

#endif
