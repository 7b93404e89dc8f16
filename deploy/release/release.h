#ifndef DEPLOY_RELEASE_H
#define DEPLOY_RELEASE_H

#include <stddef.h>

#include "buf.h"

struct diag;
struct transport;

/*
 * Releases of one site.
 *
 * Locally, every push is one commit in the site's bare release repository
 * (e.g. .deploy/<site>.git), named by the ref refs/releases/<id>. A release
 * id is "YYYYMMDDTHHMMSSZ-<12 hex>" (UTC time of the commit, then the
 * start of the hash of the site's content tree), so ids sort by time.
 * The committed tree is the output folder plus `.well-known/release`,
 * holding the id and a newline, which health checks read.
 *
 * On the host, the agent (agent.h) keeps its own bare repository and
 * checked-out releases; the functions taking a transport drive it.
 * A push is, in order:
 *	release_commit -> transport_open -> release_send -> release_stage
 *	-> release_switch -> (caller checks health; on failure
 *	release_rollback(t, previous)) -> release_prune -> transport_close
 * release_activate does stage + switch in one call.
 * Every function returns 0 or -1 (NULL where noted) and records each
 * problem in d; none exits.
 */

#define RELEASE_ID_MAX	64

struct release_info {
	char		id[RELEASE_ID_MAX];
	long long	time;		/* commit time, seconds since the epoch */
	int		current;	/* `current` points at it */
	int		previous;	/* it was current before the last switch */
	int		failed;		/* it failed its check and was undone:
					 * it never served readers */
};

/*
 * Appends the default commit message to out: the time (UTC), the tool
 * version, and, when site_dir is inside a git work tree, its HEAD commit
 * (marked "+dirty" when the work tree has changes). site_dir and version
 * may be NULL. Never fails: what cannot be found is left out.
 */
void	release_message(struct buf *out, const char *site_dir, const char *version);

/*
 * Commits the files under tree_dir (plus .well-known/release) into the bare
 * repository repo_dir, creating it if needed, and points refs/releases/<id>
 * and HEAD's branch at the commit. Writes the id into id_out (at least
 * RELEASE_ID_MAX bytes). Symbolic links and special files in tree_dir are
 * refused (a web root must not point outside itself). The same content in
 * the same second gives the same id and reuses the commit. 0 or -1.
 */
int	release_commit(const char *repo_dir, const char *tree_dir,
	    const char *message, char *id_out, struct diag *d);

/*
 * The same with the site's Gemini capsule: the files under capsule_dir go
 * into the release as the folder RELEASE_CAPSULE beside the HTML, with a
 * .well-known/release of their own, so one release id (and one switch,
 * one rollback) covers both. capsule_dir NULL is release_commit.
 */
#define RELEASE_CAPSULE	".capsule"
int	release_commit_capsule(const char *repo_dir, const char *tree_dir,
	    const char *capsule_dir, const char *message, char *id_out,
	    struct diag *d);

/*
 * Sends release id from repo_dir to the host: asks the agent which
 * commits it has and streams a pack of only the objects it lacks, which
 * the agent stores in its repository under refs/releases/<id>. Nothing is
 * checked out yet. An interrupted send leaves the host as it was. 0 or -1.
 */
int	release_send(struct transport *t, const char *repo_dir, const char *id,
	    struct diag *d);

/*
 * Checks release id out on the host into releases/<id> (staged in a
 * temporary folder, renamed when complete) and verifies every file
 * against the commit (presence, size, blob hash, nothing extra). Does not
 * touch `current`. Staging an already complete release only re-verifies
 * it. 0 or -1.
 */
int	release_stage(struct transport *t, const char *id, struct diag *d);

/*
 * Points `current` at releases/<id> atomically (a new symbolic link renamed
 * over the old one) after checking the release. Writes the id that was
 * current before into previous_out (RELEASE_ID_MAX bytes; "" if none) when
 * previous_out is not NULL. On failure `current` is unchanged. 0 or -1.
 */
int	release_switch(struct transport *t, const char *id, char *previous_out,
	    struct diag *d);

/* release_stage then release_switch. 0 or -1. */
int	release_activate(struct transport *t, const char *id, char *previous_out,
	    struct diag *d);

/*
 * Switches `current` back to release id, or, when id is NULL, to the newest
 * release older than the current one; the release is verified first.
 * Writes the id now current into now_out (RELEASE_ID_MAX bytes) when not
 * NULL. 0, or -1 with `current` unchanged.
 */
int	release_rollback(struct transport *t, const char *id, char *now_out,
	    struct diag *d);

/*
 * Puts both links back as they were before a switch that is undone:
 * `current` at release current (verified first) and `previous` at release
 * previous, either "" for no link (before a first push nothing is served,
 * and nothing is again). 0, or -1 with the links as they were.
 */
int	release_restore(struct transport *t, const char *current,
	    const char *previous, struct diag *d);

/*
 * Removes checked-out releases beyond the newest `keep`, never the current
 * nor the previous one. Writes the number removed into removed_out when not
 * NULL. 0 or -1.
 */
int	release_prune(struct transport *t, int keep, size_t *removed_out,
	    struct diag *d);

/*
 * The checked-out releases on the host, oldest first, in a malloc'd array
 * (*out, *n) the caller frees with free(). On failure *out is NULL, *n is
 * 0 and -1 is returned.
 */
int	release_list(struct transport *t, struct release_info **out, size_t *n,
	    struct diag *d);

/* Checks that s is a well-formed release id. 1 or 0. */
int	release_id_valid(const char *s);

/*
 * Crash-test hook: when the environment holds DEPLOY_TEST_PAUSE=POINT:FILE
 * and POINT is point, writes the process id into FILE and sleeps so a test
 * can kill the process there. Does nothing otherwise. Points: "transfer"
 * (pusher, pack half sent) and "checkout" (agent, files half written).
 */
void	release_test_pause(const char *point);

/* Records libgit2's last error about file (may be NULL) while doing what. */
void	release_git_error(struct diag *d, const char *file, const char *what);

#endif
