/*
 * The agent's requests: have and pack (receiving releases), stage,
 * switch, rollback, restore, prune and list; and the release folders and links
 * under the site folder that they read and change.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "agent_int.h"
#include "buf.h"
#include "checkout.h"
#include "diag.h"
#include "mem.h"
#include "release.h"

#define REF_PREFIX	"refs/releases/"
#define MAX_CHUNK	(64UL * 1024 * 1024)

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
		xqsort(*ids, *n, sizeof(**ids), cmp_str);
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
	if (strfit(ref, sizeof(ref), REF_PREFIX "%s", id) == -1)
		return diag_error(d, NULL, 0, "release id '%.40s...' is too "
		    "long", id);
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
	if (agent_take_lock(a, d) == -1)
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
	xsnprintf(refname, sizeof(refname), REF_PREFIX "%s", av[1]);
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
	if (!release_id_valid(id))
		return diag_error(d, NULL, 0, "'%s' is not a release id", id);
	if (lookup_release(a, id, &c, &t, d) == -1)
		return -1;
	buf_printf(&dst, "%s/releases/%s", a->site, id);
	if (lstat(dst.ptr, &st) == 0) {
		struct diag *scratch = diag_new();

		rc = verify_release(a, id, scratch);
		diag_free(scratch);
		if (rc == 0) {
			xsnprintf(a->staged, sizeof(a->staged), "%s", id);
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
		if (rename(dst.ptr, stage.ptr) == -1 || agent_rmtree(stage.ptr, d) == -1) {
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
	xsnprintf(a->staged, sizeof(a->staged), "%s", id);
	rc = 0;
	goto out;
fail:
	agent_rmtree(stage.ptr, d);
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

/* Whether id failed its check after a switch and was undone (restore
 * notes it in the state folder's "failed"): it never served readers, so
 * a rollback never goes back to it by itself. */
static int
failed_release(struct agent *a, const char *id)
{
	struct buf p = BUF_INIT;
	char line[RELEASE_ID_MAX + 2];
	FILE *fp;
	int found = 0;

	buf_printf(&p, "%s/failed", a->state);
	fp = fopen(p.ptr, "r");
	buf_release(&p);
	while (fp != NULL && !found && fgets(line, sizeof(line), fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		found = strcmp(line, id) == 0;
	}
	if (fp != NULL)
		fclose(fp);
	return found;
}

static void
note_failed(struct agent *a, const char *id)
{
	struct buf p = BUF_INIT;
	FILE *fp;

	if (id[0] == '\0' || failed_release(a, id))
		return;
	buf_printf(&p, "%s/failed", a->state);
	if ((fp = fopen(p.ptr, "a")) != NULL) {
		fprintf(fp, "%s\n", id);
		fclose(fp);
	}
	buf_release(&p);
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
		xsnprintf(target, sizeof(target), "%s", av[1]);
	} else {
		if (current[0] == '\0') {
			diag_error(d, NULL, 0, "no current release to roll back from");
			return -1;
		}
		/* the release that served before this one, when it is
		 * older (a newer one left by a failed push may never have
		 * served); after a rollback it is newer: then the newest
		 * older release, so rollbacks go on back */
		read_link(a, "previous", target);
		if (target[0] == '\0' || strcmp(target, current) >= 0) {
			if (list_ids(a, &ids, &n, d) == -1)
				return -1;
			target[0] = '\0';
			for (i = 0; i < n && strcmp(ids[i], current) < 0; i++)
				if (!failed_release(a, ids[i]))
					xsnprintf(target, sizeof(target), "%s",
					    ids[i]);
			free_ids(ids, n);
		}
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

/* Removes link name (current, previous); gone already is fine. */
static int
drop_link(struct agent *a, const char *name, struct diag *d)
{
	struct buf p = BUF_INIT;
	int rc = 0;

	buf_printf(&p, "%s/%s", a->site, name);
	if (unlink(p.ptr) == -1 && errno != ENOENT) {
		diag_error(d, p.ptr, 0, "unlink: %s", strerror(errno));
		rc = -1;
	}
	buf_release(&p);
	return rc;
}

/*
 * "restore CURRENT PREVIOUS": both links as they were before a switch
 * that is being undone ("-": no such link, as before a first push), so
 * that previous stays what readers were served before, not the release
 * that failed its check. Answers "ok CURRENT".
 */
static int
v_restore(struct agent *a, char **av, int ac, struct buf *ok, struct diag *d)
{
	char current[RELEASE_ID_MAX];
	int i;

	(void)ac;
	for (i = 1; i <= 2; i++)
		if (strcmp(av[i], "-") != 0 && !release_id_valid(av[i])) {
			diag_error(d, NULL, 0, "'%s' is not a release id",
			    av[i]);
			return -1;
		}
	read_link(a, "current", current);
	if (strcmp(current, av[1]) != 0)
		note_failed(a, current);
	if (strcmp(av[1], "-") == 0) {
		if (drop_link(a, "current", d) == -1)
			return -1;
	} else if (strcmp(current, av[1]) != 0) {
		struct buf prev = BUF_INIT;
		int rc;

		a->staged[0] = '\0';	/* checked again before it serves */
		rc = switch_to(a, av[1], &prev, d);
		buf_release(&prev);
		if (rc == -1)
			return -1;
	}
	if (strcmp(av[2], "-") == 0 ? drop_link(a, "previous", d) == -1 :
	    set_link(a, "previous", av[2], d) == -1)
		return -1;
	buf_adds(ok, av[1]);
	return 0;
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
	if (*end != '\0' || errno != 0 || keep < 1 || keep > 100000)
		return diag_error(d, NULL, 0, "prune: bad count '%s'", av[1]);
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
		xsnprintf(ref, sizeof(ref), REF_PREFIX "%s", ids[i]);
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
		fprintf(a->out, "release %s %lld %s%s%s%s\n", ids[i], when,
		    strcmp(ids[i], current) == 0 ? "current" : "",
		    strcmp(ids[i], current) == 0 &&
		    strcmp(ids[i], previous) == 0 ? "," : "",
		    strcmp(ids[i], previous) == 0 ? "previous" :
		    strcmp(ids[i], current) != 0 ? "-" : "",
		    failed_release(a, ids[i]) ? ",failed" : "");
	}
	free_ids(ids, n);
	diag_free(scratch);
	return 0;
}

static const struct agent_verb verbs[] = {
	{ "have",	0, 0, 0, 0, v_have },
	{ "pack",	2, 2, 0, 1, v_pack },	/* locks once it has read */
	{ "stage",	1, 1, 1, 0, v_stage },
	{ "switch",	1, 1, 1, 0, v_switch },
	{ "rollback",	0, 1, 1, 0, v_rollback },
	{ "restore",	2, 2, 1, 0, v_restore },
	{ "prune",	1, 1, 1, 0, v_prune },
	{ "list",	0, 0, 0, 0, v_list },
};

const struct agent_verb *
agent_verb_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (strcmp(verbs[i].name, name) == 0)
			return &verbs[i];
	return NULL;
}
