#ifndef DEPLOY_HOST_H
#define DEPLOY_HOST_H

#include "buf.h"
#include "fleet.h"

struct diag;

/*
 * The host interface of the fleet engine: what the engine does to one
 * host, the same for this machine and for a host reached over ssh, for
 * Linux and FreeBSD. Releases travel over the member's session to the
 * host's agent (fleet_open_member, release.h); the rest is here. Where
 * the platform's driver must run on the host itself (driver_needs_agent),
 * a command runs there through `deploy agent --spec`, with deploy.yaml
 * sent on its standard input; otherwise it runs here, for that host.
 * Nothing here names a platform.
 */

/*
 * Reads deploy.yaml (path, as given) for agents: its absolute path and
 * text go into f. 0, or -1 with the reason in d.
 */
int	host_spec(struct fleet *f, const char *path, struct diag *d);

/*
 * Runs `deploy CMD ARGS` for m->host (see above), its output appended to
 * m->out; "{host}" in an argument becomes the host's label. m->status is
 * the exit status. 0 when it exited 0, else -1 with the reason in m->d
 * (a host that cannot be reached is named as such).
 */
int	host_command(struct fleet *f, struct fleet_member *m, const char *cmd,
	    const char *const *args);

/*
 * The certificates that m's proxy signs with when it is its own CA
 * (Caddy's tls internal root), as PEM text read on the host, into m->ca
 * once; empty when the proxy's certificates chain to another CA. 0, or -1
 * with the reason in m->d.
 */
int	host_proxy_ca(struct fleet *f, struct fleet_member *m);

/*
 * Checks m's site as a reader would, from this machine at the host's own
 * address (health.h), trusting cacert (NULL: none), proxy.ca and the
 * proxy's own CA: again for up to 5 s until it serves release id (NULL:
 * any release). The checks' lines are appended to m->out when report is
 * set. Work the platform wants after a switch (a server that holds the
 * folder it opened) is done first when after_switch is set. 0, or -1
 * with the reasons in m->d.
 */
int	host_check(struct fleet *f, struct fleet_member *m, const char *id,
	    const char *cacert, int after_switch, int report);

/* The same check once, without waiting, its lines appended to m->out. */
int	host_check_once(struct fleet *f, struct fleet_member *m,
	    const char *id, const char *cacert);

#endif
