#ifndef DEPLOY_CADDY_RENEW_H
#define DEPLOY_CADDY_RENEW_H

#include <stddef.h>

#include "buf.h"

/*
 * A forced renewal with the Caddy proxy (tls: acme). Caddy 2.6 has no
 * command for it, but each config load makes a new certificate cache,
 * filled from storage, and renews at once (in the background, while the
 * stored certificate serves) every managed certificate that is due under
 * its automation policy's renewal_window_ratio. A running config whose
 * policies give the wanted names a ratio of 1 (due from the first second
 * of their lifetime) therefore renews exactly those; loading the normal
 * config afterwards ends it. The Caddyfile has no word for the ratio:
 * the policies are edited as the JSON the admin API shows them.
 */

/*
 * Rewrites policies, the JSON array of Caddy's apps.tls.automation
 * policies, so that the certificates of names (n of them) are due: a
 * policy listing some of them in its subjects is split in two, the same
 * settings for its other subjects, if any, and for those names with
 * "renewal_window_ratio": 1. Other policies are copied as they are.
 * Result into out. 0, or -1 with the reason in err (not JSON, a name
 * no policy lists).
 */
int	caddy_policies_due(const char *policies, const char *const *names,
	    size_t n, struct buf *out, struct buf *err);

/*
 * The first "error" of a Caddy log line (JSON) at level error that names
 * one of names as its "identifier": the reason, unescaped, into out.
 * 1 when found, else 0.
 */
int	caddy_log_error(const char *line, const char *const *names, size_t n,
	    struct buf *out);

#endif
