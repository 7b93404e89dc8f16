#ifndef DEPLOY_RELEASE_INT_H
#define DEPLOY_RELEASE_INT_H

/* Shared by release.c (ids, and driving the host's agent) and
 * release_commit.c (committing a built site). Not for other modules. */

/* Where a release repository keeps its releases: REF_PREFIX "<id>". */
#define REF_PREFIX	"refs/releases/"

#endif
