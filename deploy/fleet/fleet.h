#ifndef DEPLOY_FLEET_H
#define DEPLOY_FLEET_H

#include <stddef.h>

#include "buf.h"
#include "release.h"
#include "spec.h"

struct diag;
struct transport;

/*
 * The hosts of one site, each with its own session to the host's agent,
 * for commands that act on all of them: push stages everywhere before it
 * switches anywhere, rollback and releases visit every host. Work on the
 * members runs in parallel threads, at most max_parallel at once.
 */
struct fleet_member {
	const struct spec	*host;
	const struct spec_site	*site;
	struct transport	*t;
	struct diag		*d;		/* this host's problems */
	char			 prev[RELEASE_ID_MAX]; /* current before switch */
	char			 prev_prev[RELEASE_ID_MAX]; /* and previous */
	char			 now[RELEASE_ID_MAX];
	int			 staged;
	int			 switched;
	int			 back;		/* switched, then put back */
	int			 failed;
	struct buf		 out;		/* what to print for this host */
	long long		 switched_ms;	/* when, for the switch window */
	int			 status;	/* exit status of a command run
						 * on the host, -1: not run */
	struct buf		 ca;		/* host_proxy_ca's PEM */
	int			 ca_read;
};

struct fleet {
	struct fleet_member	*m;
	size_t			 n;
	int			 max_parallel;
	const char		*known_hosts;
	const char		*identity;
	const char		*self;		/* local agent: this program */
	char			*spec_path;	/* deploy.yaml for agents */
	struct buf		 spec_text;	/* (host_spec) */
	void			*job;		/* what the steps of one
						 * command share */
};

/*
 * Fills f with every host of spec s (only the one labelled only, when not
 * NULL) that has site (any host when site is NULL; m->site is then NULL).
 * 0, or -1 when no host is left.
 */
int	fleet_init_hosts(struct fleet *f, const struct spec *s,
	    const char *site, const char *only, struct diag *d);

/*
 * Runs step on every member not yet failed (all when only_ok is 0), in
 * parallel; a step returns 0 or -1 and records its problems in m->d. A
 * member whose step fails is marked failed. Returns the number of steps
 * that failed.
 */
size_t	fleet_each(struct fleet *f, int only_ok,
	    int (*step)(struct fleet *, struct fleet_member *));

/* Opens m's session (a step). */
int	fleet_open_member(struct fleet *f, struct fleet_member *m);

/*
 * Closes every session and moves each member's messages into d, each
 * prefixed with "host LABEL: " when the fleet has more than one host.
 * Returns 0, or -1 when a session ended badly.
 */
int	fleet_close(struct fleet *f, struct diag *d);

/* The member for host label, or NULL. */
struct fleet_member *fleet_member(struct fleet *f, const char *label);

#endif
