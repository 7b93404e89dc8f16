#include "agent.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>

#include "buf.h"
#include "diag.h"
#include "mem.h"
#include "checkout.h"
#include "release.h"

#define REF_PREFIX	"refs/releases/"
#define MAX_CHUNK	(64UL * 1024 * 1024)

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

struct verb {
	const char	*name;
	int		 minargs, maxargs;
	int		 changes;	/* takes the lock */
	int		(*fn)(struct agent *, char **, int, struct buf *,
			    struct diag *);
};

static int
mkdirs(const char *path, struct diag *d)
{
	char *p = xstrdup(path), *s;
	struct stat st;
	int end, rc = -1;

	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		end = *s == '\0';
		*s = '\0';
		if (mkdir(p, 0755) == -1 && errno != EEXIST) {
			diag_error(d, p, 0, "mkdir: %s", strerror(errno));
			goto out;
		}
		if (end)
			break;
		*s = '/';
	}
	if (stat(path, &st) == -1 || !S_ISDIR(st.st_mode)) {
		diag_error(d, path, 0, "not a folder");
		goto out;
	}
	rc = 0;
out:
	free(p);
	return rc;
}

/* Removes path and everything under it, without following links. */
static int
rmtree(const char *path, struct diag *d)
{
	struct stat st;
	struct dirent *de;
	struct buf sub = BUF_INIT;
	DIR *dp;
	int rc = 0;

	if (lstat(path, &st) == -1)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path) == -1) {
			diag_error(d, path, 0, "unlink: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if ((dp = opendir(path)) == NULL) {
		diag_error(d, path, 0, "opendir: %s", strerror(errno));
		return -1;
	}
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		buf_clear(&sub);
		buf_printf(&sub, "%s/%s", path, de->d_name);
		if (rmtree(sub.ptr, d) == -1)
			rc = -1;
	}
	closedir(dp);
	buf_release(&sub);
	if (rc == 0 && rmdir(path) == -1) {
		diag_error(d, path, 0, "rmdir: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}

static int
site_name_valid(const char *s)
{
	if (s == NULL || *s == '\0' || *s == '.' || strlen(s) > 128)
		return 0;
	for (; *s != '\0'; s++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789._-", *s) == NULL)
			return 0;
	return 1;
}

/* The release id a link (current, previous) points at, or "" if none. */
static void
read_link(struct agent *a, const char *name, char *id)
{
	struct buf p = BUF_INIT;
	char target[256];
	ssize_t n;

	id[0] = '\0';
	buf_printf(&p, "%s/%s", a->site, name);
	n = readlink(p.ptr, target, sizeof(target) - 1);
	buf_release(&p);
	if (n <= 0)
		return;
	target[n] = '\0';
	if (strncmp(target, "releases/", 9) == 0 &&
	    release_id_valid(target + 9))
		memcpy(id, target + 9, strlen(target + 9) + 1);
}

/* Points link name at releases/<id>: a new link renamed over the old. */
static int
set_link(struct agent *a, const char *name, const char *id, struct diag *d)
{
	struct buf tmp = BUF_INIT, dst = BUF_INIT, target = BUF_INIT;
	int rc = -1;

	buf_printf(&tmp, "%s/.%s.tmp.%ld", a->site, name, (long)getpid());
	buf_printf(&dst, "%s/%s", a->site, name);
	buf_printf(&target, "releases/%s", id);
	unlink(tmp.ptr);
	if (symlink(target.ptr, tmp.ptr) == -1) {
		diag_error(d, tmp.ptr, 0, "symlink: %s", strerror(errno));
		goto out;
	}
	if (rename(tmp.ptr, dst.ptr) == -1) {
		diag_error(d, dst.ptr, 0, "rename: %s", strerror(errno));
		unlink(tmp.ptr);
		goto out;
	}
	rc = 0;
out:
	buf_release(&tmp);
	buf_release(&dst);
	buf_release(&target);
	return rc;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The ids under releases/, oldest first. The caller frees each and *ids. */
static int
list_ids(struct agent *a, char ***ids, size_t *n, struct diag *d)
{
	struct buf p = BUF_INIT;
	struct dirent *de;
	size_t cap = 0;
	DIR *dp;

	*ids = NULL;
	*n = 0;
	buf_printf(&p, "%s/releases", a->site);
	if ((dp = opendir(p.ptr)) == NULL) {
		diag_error(d, p.ptr, 0, "opendir: %s", strerror(errno));
		buf_release(&p);
		return -1;
	}
	while ((de = readdir(dp)) != NULL) {
		if (!release_id_valid(de->d_name))
			continue;
		xgrow((void **)ids, &cap, *n + 1, sizeof(**ids));
		(*ids)[(*n)++] = xstrdup(de->d_name);
	}
	closedir(dp);
	buf_release(&p);
	if (*n > 0)
		qsort(*ids, *n, sizeof(**ids), cmp_str);
	return 0;
}

static void
free_ids(char **ids, size_t n)
{
	while (n > 0)
		free(ids[--n]);
	free(ids);
}

static int
lookup_release(struct agent *a, const char *id, git_commit **commit,
    git_tree **tree, struct diag *d)
{
	char ref[128];
	git_oid oid;

	*commit = NULL;
	*tree = NULL;
	snprintf(ref, sizeof(ref), REF_PREFIX "%s", id);
	if (git_reference_name_to_id(&oid, a->repo, ref) != 0) {
		diag_error(d, NULL, 0, "release %s was never received", id);
		return -1;
	}
	if (git_commit_lookup(commit, a->repo, &oid) != 0 ||
	    git_commit_tree(tree, *commit) != 0) {
		release_git_error(d, NULL, id);
		git_commit_free(*commit);
		*commit = NULL;
		return -1;
	}
	return 0;
}

static int
verify_release(struct agent *a, const char *id, struct diag *d)
{
	git_commit *c;
	git_tree *t;
	struct buf dir = BUF_INIT;
	int problems = 0, rc = -1;

	if (lookup_release(a, id, &c, &t, d) == -1)
		return -1;
	buf_printf(&dir, "%s/releases/%s", a->site, id);
	if (verify_tree(a->repo, t, dir.ptr, &problems, d) == -1)
		goto out;
	if (problems > 0) {
		diag_error(d, dir.ptr, 0, "release %s does not match its commit "
		    "(%d problem%s)", id, problems, problems == 1 ? "" : "s");
		goto out;
	}
	rc = 0;
out:
	buf_release(&dir);
	git_tree_free(t);
	git_commit_free(c);
	return rc;
}

/* Leftovers of killed sessions: staging folders and temporary links. */
static void
clean_stale(struct agent *a, struct diag *d)
{
	struct buf p = BUF_INIT;
	struct dirent *de;
	DIR *dp;

	buf_printf(&p, "%s/staging", a->state);
	rmtree(p.ptr, d);
	mkdir(p.ptr, 0755);
	/* Temporary files of a pack whose receiver was killed. */
	buf_clear(&p);
	buf_printf(&p, "%s/repo.git/objects/pack", a->state);
	if ((dp = opendir(p.ptr)) != NULL) {
		while ((de = readdir(dp)) != NULL) {
			struct buf f = BUF_INIT;

			if (strncmp(de->d_name, "pack_git2_", 10) != 0)
				continue;
			buf_printf(&f, "%s/%s", p.ptr, de->d_name);
			unlink(f.ptr);
			buf_release(&f);
		}
		closedir(dp);
	}
	buf_clear(&p);
	if ((dp = opendir(a->site)) != NULL) {
		while ((de = readdir(dp)) != NULL) {
			if ((strncmp(de->d_name, ".current.tmp.", 13) != 0 &&
			    strncmp(de->d_name, ".previous.tmp.", 14) != 0))
				continue;
			buf_clear(&p);
			buf_printf(&p, "%s/%s", a->site, de->d_name);
			unlink(p.ptr);
		}
		closedir(dp);
	}
	buf_release(&p);
}

/* Waits up to 30 s for a session that is still finishing. */
static int
take_lock(struct agent *a, struct diag *d)
{
	struct buf p = BUF_INIT;
	struct flock fl;
	int i, rc = -1;

	if (a->lockfd != -1)
		return 0;
	buf_printf(&p, "%s/lock", a->state);
	if ((a->lockfd = open(p.ptr, O_RDWR | O_CREAT, 0644)) == -1) {
		diag_error(d, p.ptr, 0, "open: %s", strerror(errno));
		goto out;
	}
	fcntl(a->lockfd, F_SETFD, FD_CLOEXEC);
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	for (i = 0; fcntl(a->lockfd, F_SETLK, &fl) == -1; i++) {
		if ((errno != EACCES && errno != EAGAIN) || i == 300) {
			diag_error(d, p.ptr, 0, "another push to this site is "
			    "in progress (%s)", strerror(errno));
			close(a->lockfd);
			a->lockfd = -1;
			goto out;
		}
		usleep(100000);
	}
	clean_stale(a, d);
	rc = 0;
out:
	buf_release(&p);
	return rc;
}

static int
v_have(struct agent *a, char **av, int ac, struct buf *ok, struct diag *d)
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	char hex[GIT_OID_HEXSZ + 1];
	const git_oid *oid;

	(void)av;
	(void)ac;
	(void)ok;
	if (git_reference_iterator_glob_new(&it, a->repo, REF_PREFIX "*") != 0) {
		release_git_error(d, NULL, "listing releases");
		return -1;
	}
	while (git_reference_next(&ref, it) == 0) {
		if ((oid = git_reference_target(ref)) != NULL) {
			git_oid_tostr(hex, sizeof(hex), oid);
			fprintf(a->out, "commit %s %s\n", hex,
			    git_reference_name(ref) + strlen(REF_PREFIX));
		}
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	return 0;
}

/* "pack ID OID", then chunks "HEXLEN\n" + bytes, ended by "0\n". */
static int
v_pack(struct agent *a, char **av, int ac, struct buf *ok, struct diag *d)
{
	git_odb *odb = NULL;
	git_odb_writepack *wp = NULL;
	git_indexer_progress stats;
	git_commit *c = NULL;
	git_reference *ref = NULL;
	git_oid oid;
	char *line = NULL, *end, data[65536], refname[128];
	size_t lcap = 0, want, take;
	unsigned long long len;
	int failed = 0, rc = -1;

	(void)ac;
	(void)ok;
	/* The chunks follow whatever happens: refuse only after reading them. */
	if (take_lock(a, d) == -1)
		failed = 1;
	else if (!release_id_valid(av[1]) || git_oid_fromstr(&oid, av[2]) != 0) {
		diag_error(d, NULL, 0, "pack: bad release id or commit");
		failed = 1;
	}
	memset(&stats, 0, sizeof(stats));
	if (!failed && (git_repository_odb(&odb, a->repo) != 0 ||
	    git_odb_write_pack(&wp, odb, NULL, NULL) != 0)) {
		release_git_error(d, NULL, "receiving pack");
		failed = 1;
	}
	/* Read every chunk even after a failure, to stay in step. */
	for (;;) {
		if (getline(&line, &lcap, a->in) == -1) {
			diag_error(d, NULL, 0, "pack: input ended mid-transfer");
			a->desync = 1;
			goto out;
		}
		errno = 0;
		len = strtoull(line, &end, 16);
		if (end == line || (*end != '\n' && *end != '\0') ||
		    errno != 0 || len > MAX_CHUNK) {
			diag_error(d, NULL, 0, "pack: bad chunk header");
			a->desync = 1;
			goto out;
		}
		if (len == 0)
			break;
		for (want = len; want > 0; want -= take) {
			take = want < sizeof(data) ? want : sizeof(data);
			if (fread(data, 1, take, a->in) != take) {
				diag_error(d, NULL, 0, "pack: input ended "
				    "mid-transfer");
				a->desync = 1;
				goto out;
			}
			if (!failed && wp->append(wp, data, take, &stats) != 0) {
				release_git_error(d, NULL, "indexing pack");
				failed = 1;
			}
		}
	}
	if (failed)
		goto out;
	if (wp->commit(wp, &stats) != 0) {
		release_git_error(d, NULL, "storing pack");
		goto out;
	}
	if (git_commit_lookup(&c, a->repo, &oid) != 0) {
		diag_error(d, NULL, 0, "pack: commit %s missing after transfer",
		    av[2]);
		goto out;
	}
	snprintf(refname, sizeof(refname), REF_PREFIX "%s", av[1]);
	if (git_reference_create(&ref, a->repo, refname, &oid, 1,
	    "deploy agent: received") != 0) {
		release_git_error(d, NULL, refname);
		goto out;
	}
	rc = 0;
out:
	free(line);
	git_reference_free(ref);
	git_commit_free(c);
	if (wp != NULL)
		wp->free(wp);
	git_odb_free(odb);
	return rc;
}

static int
v_stage(struct agent *a, char **av, int ac, struct buf *ok, struct diag *d)
{
	const char *id = av[1];
	git_commit *c = NULL, *bc = NULL;
	git_tree *t = NULL, *bt = NULL;
	struct buf stage = BUF_INIT, dst = BUF_INIT, basedir = BUF_INIT;
	struct checkout co = { 0 };
	struct stat st;
	char current[RELEASE_ID_MAX];
	int rc = -1;

	(void)ac;
	(void)ok;
	if (!release_id_valid(id)) {
		diag_error(d, NULL, 0, "'%s' is not a release id", id);
		return -1;
	}
	if (lookup_release(a, id, &c, &t, d) == -1)
		return -1;
	buf_printf(&dst, "%s/releases/%s", a->site, id);
	if (lstat(dst.ptr, &st) == 0) {
		struct diag *scratch = diag_new();

		rc = verify_release(a, id, scratch);
		diag_free(scratch);
		if (rc == 0) {
			snprintf(a->staged, sizeof(a->staged), "%s", id);
			goto out;
		}
		read_link(a, "current", current);
		if (strcmp(current, id) == 0) {
			diag_error(d, dst.ptr, 0, "the current release does not "
			    "match its commit; roll back first");
			goto out;
		}
		/* A damaged copy: move it out of sight, then redo it. */
		buf_printf(&stage, "%s/staging/damaged.%s.%ld", a->state, id,
		    (long)getpid());
		if (rename(dst.ptr, stage.ptr) == -1 || rmtree(stage.ptr, d) == -1) {
			diag_error(d, dst.ptr, 0, "cannot remove damaged "
			    "release: %s", strerror(errno));
			rc = -1;
			goto out;
		}
		buf_clear(&stage);
	}
	rc = -1;
	/* Unchanged files come from the current release (see checkout_tree). */
	read_link(a, "current", current);
	if (current[0] != '\0' && strcmp(current, id) != 0) {
		struct diag *scratch = diag_new();

		if (lookup_release(a, current, &bc, &bt, scratch) == 0)
			buf_printf(&basedir, "%s/releases/%s", a->site,
			    current);
		diag_free(scratch);
	}
	buf_printf(&stage, "%s/staging/%s.%ld", a->state, id, (long)getpid());
	co.pause_at = checkout_count_files(t) / 2 + 1;
	if (checkout_tree(a->repo, t, stage.ptr, bt, basedir.ptr, &co, d) == -1)
		goto fail;
	/* The files reach the disk before the name does. */
	if (checkout_flush(&co, stage.ptr, d) == -1)
		goto fail;
	if (rename(stage.ptr, dst.ptr) == -1) {
		diag_error(d, dst.ptr, 0, "rename: %s", strerror(errno));
		goto fail;
	}
	snprintf(a->staged, sizeof(a->staged), "%s", id);
	rc = 0;
	goto out;
fail:
	rmtree(stage.ptr, d);
out:
	checkout_release(&co);
	buf_release(&stage);
	buf_release(&dst);
	buf_release(&basedir);
	git_tree_free(bt);
	git_commit_free(bc);
	git_tree_free(t);
	git_commit_free(c);
	return rc;
}

/* Makes id current; answers "ok PREVIOUS" ("-" if there was none). */
static int
switch_to(struct agent *a, const char *id, struct buf *ok, struct diag *d)
{
	char prev[RELEASE_ID_MAX];
	struct buf dir = BUF_INIT;
	struct stat st;
	int rc = -1;

	buf_printf(&dir, "%s/releases/%s", a->site, id);
	if (stat(dir.ptr, &st) == -1 || !S_ISDIR(st.st_mode)) {
		diag_error(d, dir.ptr, 0, "release %s is not checked out", id);
		goto out;
	}
	/* Verified in this session already: the files were just written. */
	if (strcmp(a->staged, id) != 0 && verify_release(a, id, d) == -1)
		goto out;
	read_link(a, "current", prev);
	if (strcmp(prev, id) != 0) {
		if (set_link(a, "current", id, d) == -1)
			goto out;
		if (prev[0] != '\0' && set_link(a, "previous", prev, d) == -1)
			goto out;
	}
	buf_adds(ok, prev[0] != '\0' ? prev : "-");
	rc = 0;
out:
	buf_release(&dir);
	return rc;
}

static int
v_switch(struct agent *a, char **av, int ac, struct buf *ok, struct diag *d)
{
	(void)ac;
	if (!release_id_valid(av[1])) {
		diag_error(d, NULL, 0, "'%s' is not a release id", av[1]);
		return -1;
	}
	return switch_to(a, av[1], ok, d);
}

static int
v_rollback(struct agent *a, char **av, int ac, struct buf *ok, struct diag *d)
{
	char current[RELEASE_ID_MAX], target[RELEASE_ID_MAX];
	struct buf prev = BUF_INIT;
	char **ids;
	size_t n, i;
	int rc;

	read_link(a, "current", current);
	if (ac > 1) {
		if (!release_id_valid(av[1])) {
			diag_error(d, NULL, 0, "'%s' is not a release id", av[1]);
			return -1;
		}
		snprintf(target, sizeof(target), "%s", av[1]);
	} else {
		if (current[0] == '\0') {
			diag_error(d, NULL, 0, "no current release to roll back from");
			return -1;
		}
		if (list_ids(a, &ids, &n, d) == -1)
			return -1;
		target[0] = '\0';
		for (i = 0; i < n && strcmp(ids[i], current) < 0; i++)
			snprintf(target, sizeof(target), "%s", ids[i]);
		free_ids(ids, n);
		if (target[0] == '\0') {
			diag_error(d, NULL, 0, "no release older than %s to roll "
			    "back to", current);
			return -1;
		}
	}
	a->staged[0] = '\0';	/* always check what is rolled back to */
	rc = switch_to(a, target, &prev, d);
	buf_release(&prev);
	if (rc == 0)
		buf_adds(ok, target);
	return rc;
}

static int
v_prune(struct agent *a, char **av, int ac, struct buf *ok, struct diag *d)
{
	char current[RELEASE_ID_MAX], previous[RELEASE_ID_MAX], ref[128], *end;
	struct buf dir = BUF_INIT, trash = BUF_INIT;
	git_reference *r;
	char **ids;
	size_t n, i, kept = 0, removed = 0;
	long keep;
	int rc = 0;

	(void)ac;
	errno = 0;
	keep = strtol(av[1], &end, 10);
	if (*end != '\0' || errno != 0 || keep < 1 || keep > 100000) {
		diag_error(d, NULL, 0, "prune: bad count '%s'", av[1]);
		return -1;
	}
	read_link(a, "current", current);
	read_link(a, "previous", previous);
	if (list_ids(a, &ids, &n, d) == -1)
		return -1;
	for (i = n; i-- > 0; ) {
		if (strcmp(ids[i], current) == 0 ||
		    strcmp(ids[i], previous) == 0 || kept < (size_t)keep) {
			kept++;
			continue;
		}
		buf_clear(&dir);
		buf_clear(&trash);
		buf_printf(&dir, "%s/releases/%s", a->site, ids[i]);
		buf_printf(&trash, "%s/trash/%s.%ld", a->state, ids[i],
		    (long)getpid());
		/* Out of releases/ first: never a half-removed release. */
		if (rename(dir.ptr, trash.ptr) == -1) {
			diag_error(d, dir.ptr, 0, "rename: %s", strerror(errno));
			rc = -1;
			continue;
		}
		/* Removed once the pusher has its answer. */
		xgrow((void **)&a->trash, &a->trashcap, a->ntrash + 1,
		    sizeof(*a->trash));
		a->trash[a->ntrash++] = xstrdup(trash.ptr);
		snprintf(ref, sizeof(ref), REF_PREFIX "%s", ids[i]);
		if (git_reference_lookup(&r, a->repo, ref) == 0) {
			git_reference_delete(r);
			git_reference_free(r);
		}
		removed++;
	}
	free_ids(ids, n);
	buf_release(&dir);
	buf_release(&trash);
	buf_printf(ok, "%zu", removed);
	return rc;
}

static int
v_list(struct agent *a, char **av, int ac, struct buf *ok, struct diag *d)
{
	char current[RELEASE_ID_MAX], previous[RELEASE_ID_MAX];
	git_commit *c;
	git_tree *t;
	struct diag *scratch = diag_new();
	char **ids;
	size_t n, i;
	long long when;

	(void)av;
	(void)ac;
	(void)ok;
	read_link(a, "current", current);
	read_link(a, "previous", previous);
	if (list_ids(a, &ids, &n, d) == -1) {
		diag_free(scratch);
		return -1;
	}
	for (i = 0; i < n; i++) {
		when = 0;
		if (lookup_release(a, ids[i], &c, &t, scratch) == 0) {
			when = (long long)git_commit_time(c);
			git_tree_free(t);
			git_commit_free(c);
		}
		fprintf(a->out, "release %s %lld %s%s%s\n", ids[i], when,
		    strcmp(ids[i], current) == 0 ? "current" : "",
		    strcmp(ids[i], current) == 0 &&
		    strcmp(ids[i], previous) == 0 ? "," : "",
		    strcmp(ids[i], previous) == 0 ? "previous" :
		    strcmp(ids[i], current) != 0 ? "-" : "");
	}
	free_ids(ids, n);
	diag_free(scratch);
	return 0;
}

static const struct verb verbs[] = {
	{ "have",	0, 0, 0, v_have },
	{ "pack",	2, 2, 0, v_pack },	/* locks once it has read */
	{ "stage",	1, 1, 1, v_stage },
	{ "switch",	1, 1, 1, v_switch },
	{ "rollback",	0, 1, 1, v_rollback },
	{ "prune",	1, 1, 1, v_prune },
	{ "list",	0, 0, 0, v_list },
};

/*
 * Runs one request and prints its answer. Returns 0 on success, 1 when the
 * request failed, -1 when the session cannot go on.
 */
/*
 * Removes pruned releases after this process has answered and exited: a
 * release is tens of thousands of files, and the push need not wait for
 * them. A detached child removes this session's trash/ entries, then any
 * left by a remover that was killed (named after a process now gone).
 */
static void
remove_pruned_later(struct agent *a)
{
	struct diag *scratch;
	struct dirent *de;
	struct buf p = BUF_INIT;
	const char *dot;
	size_t i;
	long pid;
	DIR *dp;
	int fd;

	fflush(NULL);
	if (fork() != 0)
		return;
	setsid();
	if ((fd = open("/dev/null", O_RDWR)) != -1) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	/* Out of the way of the next push and of the web servers. */
	if (nice(19) == -1)
		(void)0;
	scratch = diag_new();
	for (i = 0; i < a->ntrash; i++)
		rmtree(a->trash[i], scratch);
	buf_printf(&p, "%s/trash", a->state);
	if ((dp = opendir(p.ptr)) != NULL) {
		while ((de = readdir(dp)) != NULL) {
			if ((dot = strrchr(de->d_name, '.')) == NULL ||
			    (pid = strtol(dot + 1, NULL, 10)) <= 0 ||
			    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
				continue;
			buf_clear(&p);
			buf_printf(&p, "%s/trash/%s", a->state, de->d_name);
			rmtree(p.ptr, scratch);
		}
		closedir(dp);
	}
	_exit(0);
}

static int
run_request(struct agent *a, char **av, int ac)
{
	struct diag *d = diag_new();
	struct buf ok = BUF_INIT, msg = BUF_INIT;
	const struct verb *v = NULL;
	size_t i;
	char *p;
	int rc = 0;

	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (strcmp(verbs[i].name, av[0]) == 0)
			v = &verbs[i];
	if (v == NULL) {
		diag_error(d, NULL, 0, "unknown request '%.40s'", av[0]);
		a->desync = 1;
	} else if (ac - 1 < v->minargs || ac - 1 > v->maxargs) {
		diag_error(d, NULL, 0, "%s: wrong number of arguments", v->name);
		if (v->fn == v_pack)
			a->desync = 1;
	} else if (v->changes && take_lock(a, d) == -1)
		;
	else if (v->fn(a, av, ac, &ok, d) == -1 && diag_total(d) == 0)
		diag_error(d, NULL, 0, "%s failed", v->name);
	/* Out of step with the pusher: answer once, then end the session. */
	if (a->desync)
		rc = -1;
	if (diag_count(d, DIAG_ERROR) > 0) {
		/* The pusher adds its own level: drop ours. */
		for (i = 0; i < diag_total(d); i++) {
			const char *m = diag_message(d, i), *lv;

			if (i > 0)
				buf_adds(&msg, "; ");
			if (strncmp(m, "error: ", 7) == 0)
				m += 7;
			else if ((lv = strstr(m, ": error: ")) != NULL) {
				buf_add(&msg, m, lv - m);
				m = lv + 7;
			}
			buf_adds(&msg, m);
		}
		for (p = msg.ptr; *p != '\0'; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
		fprintf(a->out, "err %s\n", msg.ptr);
		diag_print(d, 0, stderr, 0);
	} else
		fprintf(a->out, "ok%s%s\n", ok.len > 0 ? " " : "", ok.ptr);
	if (fflush(a->out) == EOF)
		rc = -1;
	else if (rc == 0 && diag_count(d, DIAG_ERROR) > 0)
		rc = 1;
	buf_release(&ok);
	buf_release(&msg);
	diag_free(d);
	return rc;
}

static int
serve(struct agent *a)
{
	char *line = NULL, *av[8], *s;
	size_t cap = 0;
	ssize_t n;
	int ac, rc = 0;

	fprintf(a->out, "deploy-agent 1\n");
	fflush(a->out);
	while ((n = getline(&line, &cap, a->in)) != -1) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		ac = 0;
		for (s = strtok(line, " "); s != NULL && ac < 7;
		    s = strtok(NULL, " "))
			av[ac++] = s;
		av[ac] = NULL;
		if (ac == 0)
			continue;
		if (strcmp(av[0], "quit") == 0)
			break;
		if (run_request(a, av, ac) == -1) {
			rc = -1;
			break;
		}
	}
	free(line);
	return rc;
}

static void
usage(void)
{
	fprintf(stderr, "usage: deploy agent --root DIR --site NAME "
	    "serve | list | stage ID | switch ID | rollback [ID] | prune KEEP\n");
}

int
cmd_agent(int argc, char **argv)
{
	const char *root = NULL, *site = NULL;
	struct agent a;
	struct diag *d;
	struct buf repo = BUF_INIT;
	int i, status = 1;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--root") == 0 && i + 1 < argc)
			root = argv[++i];
		else if (strcmp(argv[i], "--site") == 0 && i + 1 < argc)
			site = argv[++i];
		else
			break;
	}
	if (root == NULL || site == NULL || i >= argc) {
		usage();
		return 2;
	}
	d = diag_new();
	if (!site_name_valid(site)) {
		diag_error(d, NULL, 0, "'%s' is not a valid site name", site);
		diag_print(d, 0, stderr, 0);
		diag_free(d);
		return 2;
	}
	/* A vanished pusher must end this process by EOF/EPIPE, cleanly. */
	signal(SIGPIPE, SIG_IGN);
	/* Releases are world-readable, whatever the login's umask. */
	umask(022);
	memset(&a, 0, sizeof(a));
	a.lockfd = -1;
	a.in = stdin;
	a.out = stdout;
	git_libgit2_init();
	{
		struct buf b = BUF_INIT;

		buf_printf(&b, "%s/%s", root, site);
		a.site = buf_detach(&b, NULL);
		buf_printf(&b, "%s/.deploy/%s", root, site);
		a.state = buf_detach(&b, NULL);
	}
	buf_printf(&repo, "%s/repo.git", a.state);
	{
		struct buf rel = BUF_INIT, stg = BUF_INIT, tr = BUF_INIT;

		buf_printf(&rel, "%s/releases", a.site);
		buf_printf(&stg, "%s/staging", a.state);
		buf_printf(&tr, "%s/trash", a.state);
		int bad = mkdirs(rel.ptr, d) == -1 || mkdirs(stg.ptr, d) == -1 ||
		    mkdirs(tr.ptr, d) == -1;

		buf_release(&rel);
		buf_release(&stg);
		buf_release(&tr);
		if (bad)
			goto out;
	}
	if (access(repo.ptr, F_OK) == 0 ?
	    git_repository_open_bare(&a.repo, repo.ptr) != 0 :
	    git_repository_init(&a.repo, repo.ptr, 1) != 0) {
		release_git_error(d, repo.ptr, "release repository");
		goto out;
	}
	if (strcmp(argv[i], "serve") == 0)
		status = serve(&a) == 0 ? 0 : 1;
	else {
		/* One request from the command line, answered on stdout. */
		if (strcmp(argv[i], "pack") == 0 || strcmp(argv[i], "have") == 0 ||
		    argc - i > 7) {
			usage();
			status = 2;
			goto out;
		}
		status = run_request(&a, argv + i, argc - i) == 0 ? 0 : 1;
	}
out:
	diag_print(d, 0, stderr, 0);
	if (a.lockfd != -1)
		close(a.lockfd);
	if (a.ntrash > 0)
		remove_pruned_later(&a);
	while (a.ntrash > 0)
		free(a.trash[--a.ntrash]);
	free(a.trash);
	git_repository_free(a.repo);
	git_libgit2_shutdown();
	free(a.site);
	free(a.state);
	buf_release(&repo);
	diag_free(d);
	return status;
}
