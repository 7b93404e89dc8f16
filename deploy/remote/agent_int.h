#ifndef DEPLOY_AGENT_INT_H
#define DEPLOY_AGENT_INT_H

/* Shared by agent.c (the session: setup, the lock, the line protocol,
 * removing pruned releases) and agent_verbs.c (the requests and the
 * release folders and links they read and change). Not for other
 * modules. */

#include <stddef.h>
#include <stdio.h>

#include <git2.h>

#include "buf.h"
#include "diag.h"
#include "release.h"

struct agent {
	char		*site;		/* DIR/NAME */
	char		*state;		/* DIR/.deploy/NAME */
	git_repository	*repo;
	int		 lockfd;
	char		 staged[RELEASE_ID_MAX];	/* verified this session */
	char		**trash;	/* pruned releases, to remove at exit */
	size_t		 ntrash, trashcap;
	FILE		*in, *out;
	int		 desync;	/* input no longer follows the protocol */
};

struct agent_verb {
	const char	*name;
	int		 minargs, maxargs;
	int		 changes;	/* takes the lock */
	int		 streams;	/* data follows the request line: a bad
					 * request leaves the input out of step */
	int		(*fn)(struct agent *, char **, int, struct buf *,
			    struct diag *);
};

/* agent.c */
/* Removes path and everything under it, without following links. */
int	agent_rmtree(const char *path, struct diag *d);
/* Takes the site's lock (once per session) and clears what killed
 * sessions left; waits up to 30 s for a session that is still finishing. */
int	agent_take_lock(struct agent *a, struct diag *d);

/* agent_verbs.c */
/* The request called name, or NULL. */
const struct agent_verb *agent_verb_find(const char *name);

#endif
