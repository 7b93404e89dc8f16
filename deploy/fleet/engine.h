#ifndef DEPLOY_ENGINE_H
#define DEPLOY_ENGINE_H

#include <stdio.h>

#include "fleet.h"

struct diag;

/*
 * The fleet engine: push, rollback, releases, the current release and
 * health over every host of a fleet (fleet.h), through the host interface
 * (host.h), the same for one host or many, local or over ssh. What it has
 * to say goes to out, a host's lines prefixed with "host LABEL: " when the
 * fleet has more than one; problems go to d, each naming its host. The
 * fleet's options (known_hosts, identity, self, spec) are set by the
 * caller; every function leaves the sessions it opened open for
 * fleet_close.
 */

struct engine_opts {
	const char	*cacert;	/* trusted by the checks; NULL: the
					 * system's, proxy.ca and the proxy's
					 * own CA read on each host */
	const char	*canary;	/* push: switched and checked first */
	const char	*expect;	/* health: the release wanted */
	int		 quiet;		/* dns: no line for what is in step */
	FILE		*out;
};

/*
 * Takes the lock of the site's release repository repo, so that two
 * pushes or rollbacks of one fleet never mix: waits for another one
 * (saying so on out, with its process id). The lock's descriptor, closed
 * by engine_unlock, or -1 with the reason in d.
 */
int	engine_lock(const char *repo, FILE *out, struct diag *d);
void	engine_unlock(int fd);

/*
 * Publishes release id of repo (committed, release.h) on every host:
 * phase 1 sends and stages it everywhere, and nothing switches unless
 * every host staged; phase 2 switches (a canary alone first), then checks
 * each host as a reader would. Any failure puts every switched host back
 * as it was before: the release it served then (or nothing, before a
 * first push) and its previous one, so that `previous` always means what
 * readers were served before. Old releases are then pruned. 0, or -1.
 */
int	engine_push(struct fleet *f, const char *repo, const char *id,
	    const struct engine_opts *o, struct diag *d);

/*
 * Switches every host to release id, or (id NULL) to the one it served
 * before its current one, which must be the same on every host, then
 * checks them. 0, or -1.
 */
int	engine_rollback(struct fleet *f, const char *id,
	    const struct engine_opts *o, struct diag *d);

/*
 * Lists each host's releases on out. 0, 1 when the hosts serve different
 * releases (said in d), -1 when a host could not be asked.
 */
int	engine_releases(struct fleet *f, const struct engine_opts *o,
	    struct diag *d);

/*
 * The release each host serves, one line each on out ("SITE host LABEL:
 * current ID"). 0 when they agree, 1 on drift (said in d), -1 when a host
 * cannot be asked.
 */
int	engine_current(struct fleet *f, const struct engine_opts *o,
	    struct diag *d);

/*
 * Checks every site of each host (m->site NULL) or its one site, from
 * here as a reader would; each host's report in its m->out. Returns the
 * number of hosts that failed.
 */
size_t	engine_health(struct fleet *f, const struct engine_opts *o);

/*
 * DNS in step with the hosts of one site (f as fleet_init_hosts makes it
 * for a site; nothing to do without dns: in deploy.yaml): checks each
 * host once, as a reader would, and compares, for each of the site's
 * domains, the A and AAAA records the server answers with the addresses
 * of the hosts that passed (a host that failed is left out, and said so
 * on o->out). With publish set, replaces the records that differ (an
 * update conditional on what was read) and keeps what it published in
 * .deploy/dns/NAME beside deploy.yaml; refuses to take over records
 * holding addresses that are neither the fleet's nor published by it
 * before, unless dns.adopt; and never publishes an empty set: with no
 * healthy host the records stay.
 * Returns 0 when in step, 2 after publishing a change, 1 on a
 * difference without publish, -1 after saying why in d.
 */
int	engine_dns(struct fleet *f, const struct engine_opts *o, int publish,
	    struct diag *d);

/*
 * The two halves of engine_dns, for a caller that decides itself which
 * hosts are up (deploy watch). engine_dns_check checks each host of f
 * once: ok[i] (f->n of them) set when it passed, why[i] (caller frees)
 * why not; returns how many passed. engine_dns_sync compares (publish
 * 0) or publishes (1) as engine_dns does, with the hosts whose up[i] is
 * set; publish 2 withdraws (destroy): with no host up, it removes the
 * records. 2 when it changed records, else as engine_dns.
 */
int	engine_dns_check(struct fleet *f, const struct engine_opts *o, int *ok,
	    char **why);
int	engine_dns_sync(struct fleet *f, const struct engine_opts *o,
	    const int *up, int publish, struct diag *d);

/*
 * Runs `deploy CMD ARGS` for every host of f, each on its own host where
 * its platform's driver must run there (plan, apply, destroy, status,
 * logs, bench: host_command), at most f->max_parallel at once. Each
 * host's output goes to its m->out, its exit status to m->status.
 * Returns the number of hosts where it failed.
 */
size_t	engine_command(struct fleet *f, const char *cmd,
	    const char *const *args);

#endif
