/*
 * Committing a built site as a release into the local release repository:
 * the commit message, a stat cache so unchanged files are not hashed again,
 * the tree with .well-known/release, and the commit and its refs.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <git2.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"
#include "release.h"
#include "release_int.h"

#define RELEASE_FILE	"release"
#define WELL_KNOWN	".well-known"

void
release_message(struct buf *out, const char *site_dir, const char *version)
{
	git_repository *repo = NULL;
	git_status_list *st = NULL;
	git_status_options so;
	git_oid head;
	char when[32], hex[GIT_OID_HEXSZ + 1];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	buf_printf(out, "Release of %s\n\n", when);
	if (version != NULL)
		buf_printf(out, "Tool: deploy %s\n", version);
	if (site_dir == NULL)
		return;
	git_libgit2_init();
	if (git_repository_open_ext(&repo, site_dir, 0, NULL) == 0 &&
	    !git_repository_is_bare(repo) &&
	    git_reference_name_to_id(&head, repo, "HEAD") == 0) {
		git_oid_tostr(hex, sizeof(hex), &head);
		git_status_options_init(&so, GIT_STATUS_OPTIONS_VERSION);
		so.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
		so.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
		buf_printf(out, "Source: %s%s\n", hex,
		    git_status_list_new(&st, repo, &so) == 0 &&
		    git_status_list_entrycount(st) > 0 ? "+dirty" : "");
	}
	git_status_list_free(st);
	git_repository_free(repo);
	git_libgit2_shutdown();
}

/*
 * A stat cache for commits: for each file of the last tree committed, its
 * size, mtime and inode and the blob id they gave; for each folder, its
 * tree id and number of entries. A file whose stat is unchanged is not
 * read and hashed again, and a folder none of whose entries changed is not
 * written again (most of a site is unchanged between pushes). Kept as
 * text in the release repository.
 */
struct sc_entry {
	char		*path;
	long long	 size;		/* -1: a folder, nent entries */
	long long	 mtime_s, mtime_ns, ino, nent;
	git_oid		 oid;
};

struct statcache {
	struct sc_entry	*e;
	size_t		 n, cap;
	size_t		*slots;		/* index + 1, 0 empty */
	size_t		 nslots;
	struct buf	 out;		/* the new cache, as written */
};

static size_t
sc_slot(const struct statcache *c, const char *path)
{
	size_t h = 5381;

	for (; *path; path++)
		h = h * 33 + (unsigned char)*path;
	return h & (c->nslots - 1);
}

static void
sc_load(struct statcache *c, const char *repo_dir)
{
	struct buf text = BUF_INIT;
	char *path, *line, *next, hex[GIT_OID_HEXSZ + 1];
	struct sc_entry *e;
	size_t i, h;
	int off;

	memset(c, 0, sizeof(*c));
	buf_init(&c->out);
	path = path_join(repo_dir, "deploy-statcache");
	if (fs_read(path, &text) == 0) {
		for (line = text.ptr; line && *line; line = next) {
			if ((next = strchr(line, '\n')) != NULL)
				*next++ = '\0';
			xgrow((void **)&c->e, &c->cap, c->n + 1, sizeof(*c->e));
			e = &c->e[c->n];
			if (sscanf(line, "%40s %lld %lld %lld %lld %n", hex, &e->size,
			    &e->mtime_s, &e->mtime_ns, &e->ino, &off) != 5 ||
			    git_oid_fromstr(&e->oid, hex) != 0)
				continue;	/* a bad line: that file is hashed */
			e->nent = e->size == -1 ? e->mtime_s : 0;
			e->path = xstrdup(line + off);
			c->n++;
		}
	}
	c->nslots = 64;
	while (c->nslots < c->n * 2)
		c->nslots *= 2;
	c->slots = xcalloc(c->nslots, sizeof(*c->slots));
	for (i = 0; i < c->n; i++) {
		h = sc_slot(c, c->e[i].path);
		while (c->slots[h] != 0)
			h = (h + 1) & (c->nslots - 1);
		c->slots[h] = i + 1;
	}
	buf_release(&text);
	free(path);
}

static const struct sc_entry *
sc_find(const struct statcache *c, const char *path)
{
	size_t h, k;

	if (c->nslots == 0)
		return NULL;
	h = sc_slot(c, path);
	while ((k = c->slots[h]) != 0) {
		if (strcmp(c->e[k - 1].path, path) == 0)
			return &c->e[k - 1];
		h = (h + 1) & (c->nslots - 1);
	}
	return NULL;
}

/* The blob id of path if its stat matches the cache and the blob is in
 * the repository; else 0. */
static int
sc_lookup(const struct statcache *c, git_odb *odb, const char *path,
    const struct stat *st, git_oid *oid)
{
	const struct sc_entry *e = sc_find(c, path);

	if (e == NULL || e->size == -1 ||
	    e->size != (long long)st->st_size ||
	    e->mtime_s != (long long)st->st_mtim.tv_sec ||
	    e->mtime_ns != (long long)st->st_mtim.tv_nsec ||
	    e->ino != (long long)st->st_ino ||
	    !git_odb_exists(odb, &e->oid))
		return 0;
	*oid = e->oid;
	return 1;
}

/* The tree id of folder path if it had nent entries, all unchanged. */
static int
sc_lookup_dir(const struct statcache *c, git_odb *odb, const char *path,
    size_t nent, git_oid *oid)
{
	const struct sc_entry *e = sc_find(c, path);

	if (e == NULL || e->size != -1 || e->nent != (long long)nent ||
	    !git_odb_exists(odb, &e->oid))
		return 0;
	*oid = e->oid;
	return 1;
}

static void
sc_note(struct statcache *c, const char *path, const struct stat *st,
    const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), oid);
	buf_printf(&c->out, "%s %lld %lld %lld %lld %s\n", hex,
	    (long long)st->st_size, (long long)st->st_mtim.tv_sec,
	    (long long)st->st_mtim.tv_nsec, (long long)st->st_ino, path);
}

static void
sc_note_dir(struct statcache *c, const char *path, size_t nent,
    const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), oid);
	buf_printf(&c->out, "%s -1 %zu 0 0 %s\n", hex, nent, path);
}

static void
sc_free(struct statcache *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->e[i].path);
	free(c->e);
	free(c->slots);
	buf_release(&c->out);
}

struct tree_entry {
	char		*name;
	git_oid		 oid;
	git_filemode_t	 mode;
};

/*
 * Writes the files under dir into repo as a tree; *same is set when
 * nothing in it changed since the last commit (its tree id then comes from
 * the cache). Empty folders are left out (git has no use for them and the
 * web root does not need them).
 */
static int
build_tree(git_repository *repo, struct statcache *sc, git_odb *odb,
    const char *dir, git_oid *out, int *empty, int *same, struct diag *d)
{
	git_treebuilder *tb = NULL;
	DIR *dp = NULL;
	struct dirent *de;
	struct stat st;
	struct buf path = BUF_INIT;
	struct tree_entry *ents = NULL, *te;
	size_t n = 0, cap = 0, i;
	git_oid oid;
	int rc = -1, sub_empty, sub_same, hit;

	*empty = 1;
	*same = 1;
	if ((dp = opendir(dir)) == NULL) {
		diag_error(d, dir, 0, "cannot read folder: %s", strerror(errno));
		return -1;
	}
	while ((errno = 0, de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		buf_clear(&path);
		buf_printf(&path, "%s/%s", dir, de->d_name);
		if (lstat(path.ptr, &st) == -1) {
			diag_error(d, path.ptr, 0, "%s", strerror(errno));
			goto out;
		}
		if (S_ISDIR(st.st_mode)) {
			if (build_tree(repo, sc, odb, path.ptr, &oid, &sub_empty,
			    &sub_same, d) == -1)
				goto out;
			if (sub_empty)
				continue;
			hit = sub_same;
		} else if (S_ISREG(st.st_mode)) {
			hit = sc_lookup(sc, odb, path.ptr, &st, &oid);
			if (!hit && git_blob_create_from_disk(&oid, repo,
			    path.ptr) != 0) {
				release_git_error(d, path.ptr, "storing file");
				goto out;
			}
			sc_note(sc, path.ptr, &st, &oid);
		} else if (S_ISLNK(st.st_mode)) {
			diag_error(d, path.ptr, 0, "symbolic links are not "
			    "published (a web root must not point outside itself)");
			goto out;
		} else {
			diag_error(d, path.ptr, 0, "not a regular file or folder");
			goto out;
		}
		if (!hit)
			*same = 0;
		xgrow((void **)&ents, &cap, n + 1, sizeof(*ents));
		te = &ents[n++];
		te->name = xstrdup(de->d_name);
		te->oid = oid;
		/* The web root needs no executable bits. */
		te->mode = S_ISDIR(st.st_mode) ? GIT_FILEMODE_TREE :
		    GIT_FILEMODE_BLOB;
	}
	if (errno != 0) {
		diag_error(d, dir, 0, "readdir: %s", strerror(errno));
		goto out;
	}
	*empty = n == 0;
	if (n == 0) {
		*same = 0;
		rc = 0;
		goto out;
	}
	if (!*same || !sc_lookup_dir(sc, odb, dir, n, out)) {
		*same = 0;
		if (git_treebuilder_new(&tb, repo, NULL) != 0) {
			release_git_error(d, dir, "treebuilder");
			goto out;
		}
		for (i = 0; i < n; i++)
			if (git_treebuilder_insert(NULL, tb, ents[i].name,
			    &ents[i].oid, ents[i].mode) != 0) {
				buf_clear(&path);
				buf_printf(&path, "%s/%s", dir, ents[i].name);
				release_git_error(d, path.ptr, "tree entry");
				goto out;
			}
		if (git_treebuilder_write(out, tb) != 0) {
			release_git_error(d, dir, "writing tree");
			goto out;
		}
	}
	sc_note_dir(sc, dir, n, out);
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free(ents[i].name);
	free(ents);
	git_treebuilder_free(tb);
	closedir(dp);
	buf_release(&path);
	return rc;
}

/* Adds .well-known/release (holding id) to the tree content, giving root. */
static int
add_release_file(git_repository *repo, const git_oid *content, const char *id,
    git_oid *root, struct diag *d)
{
	git_tree *tree = NULL, *wk = NULL;
	git_treebuilder *tb = NULL, *wkb = NULL;
	const git_tree_entry *e;
	git_oid blob, wkoid;
	char text[RELEASE_ID_MAX + 1];
	int rc = -1;

	xsnprintf(text, sizeof(text), "%s\n", id);
	if (git_tree_lookup(&tree, repo, content) != 0 ||
	    git_treebuilder_new(&tb, repo, tree) != 0)
		goto gitfail;
	e = git_tree_entry_byname(tree, WELL_KNOWN);
	if (e != NULL && git_tree_entry_type(e) != GIT_OBJECT_TREE) {
		diag_error(d, NULL, 0, "%s is a file; it must be a folder",
		    WELL_KNOWN);
		goto out;
	}
	if (e != NULL && git_tree_lookup(&wk, repo, git_tree_entry_id(e)) != 0)
		goto gitfail;
	if (git_treebuilder_new(&wkb, repo, wk) != 0 ||
	    git_blob_create_from_buffer(&blob, repo, text, strlen(text)) != 0 ||
	    git_treebuilder_insert(NULL, wkb, RELEASE_FILE, &blob,
	    GIT_FILEMODE_BLOB) != 0 ||
	    git_treebuilder_write(&wkoid, wkb) != 0 ||
	    git_treebuilder_insert(NULL, tb, WELL_KNOWN, &wkoid,
	    GIT_FILEMODE_TREE) != 0 ||
	    git_treebuilder_write(root, tb) != 0)
		goto gitfail;
	rc = 0;
	goto out;
gitfail:
	release_git_error(d, NULL, "adding " WELL_KNOWN "/" RELEASE_FILE);
out:
	git_treebuilder_free(wkb);
	git_treebuilder_free(tb);
	git_tree_free(wk);
	git_tree_free(tree);
	return rc;
}

/* Puts name -> oid (a tree) into the tree at *root, giving a new *root. */
static int
put_subtree(git_repository *repo, git_oid *root, const char *name,
    const git_oid *oid, struct diag *d)
{
	git_tree *tree = NULL;
	git_treebuilder *tb = NULL;
	int rc = -1;

	if (git_tree_lookup(&tree, repo, root) != 0 ||
	    git_treebuilder_new(&tb, repo, tree) != 0 ||
	    git_treebuilder_insert(NULL, tb, name, oid,
	    GIT_FILEMODE_TREE) != 0 ||
	    git_treebuilder_write(root, tb) != 0)
		release_git_error(d, NULL, "adding the capsule");
	else
		rc = 0;
	git_treebuilder_free(tb);
	git_tree_free(tree);
	return rc;
}

static int
open_or_init(git_repository **repo, const char *dir, struct diag *d)
{
	struct stat st;

	if (stat(dir, &st) == 0) {
		if (git_repository_open_bare(repo, dir) != 0) {
			release_git_error(d, dir, "opening release repository");
			return -1;
		}
		return 0;
	}
	if (git_repository_init(repo, dir, 1) != 0) {
		release_git_error(d, dir, "creating release repository");
		return -1;
	}
	return 0;
}

int
release_commit(const char *repo_dir, const char *tree_dir, const char *message,
    char *id_out, struct diag *d)
{
	return release_commit_capsule(repo_dir, tree_dir, NULL, message, id_out,
	    d);
}

int
release_commit_capsule(const char *repo_dir, const char *tree_dir,
    const char *capsule_dir, const char *message, char *id_out,
    struct diag *d)
{
	git_oid capsule;
	git_repository *repo = NULL;
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_commit *old = NULL;
	git_reference *head = NULL, *ref = NULL;
	git_odb *odb = NULL;
	struct statcache sc;
	git_oid content, root, commit, oldoid;
	char stamp[32], hex[GIT_OID_HEXSZ + 1], refname[128];
	char id[RELEASE_ID_MAX];
	const char *branch;
	struct stat st;
	time_t now = time(NULL);
	struct tm tm;
	int empty, same, rc = -1;

	memset(&sc, 0, sizeof(sc));
	buf_init(&sc.out);
	git_libgit2_init();
	/* Every id put in a tree was just stored or checked to be stored. */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, 0);
	if (stat(tree_dir, &st) == -1 || !S_ISDIR(st.st_mode)) {
		diag_error(d, tree_dir, 0, "not a folder (was the site built?)");
		goto out;
	}
	if (open_or_init(&repo, repo_dir, d) == -1)
		goto out;
	sc_load(&sc, repo_dir);
	if (git_repository_odb(&odb, repo) != 0) {
		release_git_error(d, repo_dir, "object database");
		goto out;
	}
	if (build_tree(repo, &sc, odb, tree_dir, &content, &empty, &same,
	    d) == -1)
		goto out;
	if (capsule_dir != NULL && !empty) {
		git_tree *t = NULL;
		int cempty, csame, clash;

		if (stat(capsule_dir, &st) == -1 || !S_ISDIR(st.st_mode)) {
			diag_error(d, capsule_dir, 0, "no Gemini capsule here "
			    "(was the site built with gemini: true?)");
			goto out;
		}
		if (build_tree(repo, &sc, odb, capsule_dir, &capsule, &cempty,
		    &csame, d) == -1)
			goto out;
		if (cempty) {
			diag_error(d, capsule_dir, 0, "the Gemini capsule is "
			    "empty");
			goto out;
		}
		if (git_tree_lookup(&t, repo, &content) != 0) {
			release_git_error(d, tree_dir, "reading the tree");
			goto out;
		}
		clash = git_tree_entry_byname(t, RELEASE_CAPSULE) != NULL;
		git_tree_free(t);
		if (clash) {
			diag_error(d, tree_dir, 0, "%s is the capsule's place "
			    "in a release; the site has one of its own",
			    RELEASE_CAPSULE);
			goto out;
		}
		/* The id below then covers the capsule too. */
		if (put_subtree(repo, &content, RELEASE_CAPSULE, &capsule,
		    d) == -1)
			goto out;
	}
	{
		/* only after the tree is stored: its blobs are in the odb */
		char *scpath = path_join(repo_dir, "deploy-statcache");

		fs_write_cache(scpath, sc.out.ptr, sc.out.len);
		free(scpath);
	}
	if (empty) {
		diag_error(d, tree_dir, 0, "nothing to publish: the folder is empty");
		goto out;
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	git_oid_tostr(hex, sizeof(hex), &content);
	xsnprintf(id, sizeof(id), "%s-%.12s", stamp, hex);
	if (add_release_file(repo, &content, id, &root, d) == -1)
		goto out;
	if (capsule_dir != NULL) {
		git_oid with;

		if (add_release_file(repo, &capsule, id, &with, d) == -1 ||
		    put_subtree(repo, &root, RELEASE_CAPSULE, &with, d) == -1)
			goto out;
	}
	xsnprintf(refname, sizeof(refname), REF_PREFIX "%s", id);

	/* Same content within the same second: that release already exists. */
	if (git_reference_name_to_id(&oldoid, repo, refname) == 0 &&
	    git_commit_lookup(&old, repo, &oldoid) == 0 &&
	    git_oid_equal(git_commit_tree_id(old), &root)) {
		memcpy(id_out, id, sizeof(id));
		rc = 0;
		goto out;
	}
	if (git_tree_lookup(&tree, repo, &root) != 0 ||
	    git_signature_new(&sig, "deploy", "deploy@localhost",
	    (git_time_t)now, 0) != 0) {
		release_git_error(d, repo_dir, "preparing commit");
		goto out;
	}
	/*
	 * Releases are root commits: the host is sent what it lacks relative
	 * to the releases it reports, never the local history behind them.
	 */
	if (git_commit_create(&commit, repo, NULL, sig, sig, NULL,
	    message != NULL ? message : "Release\n", tree, 0, NULL) != 0) {
		release_git_error(d, repo_dir, "commit");
		goto out;
	}
	if (git_reference_create(&ref, repo, refname, &commit, 1,
	    "deploy: release") != 0) {
		release_git_error(d, repo_dir, refname);
		goto out;
	}
	if (git_reference_lookup(&head, repo, "HEAD") == 0 &&
	    git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	    (branch = git_reference_symbolic_target(head)) != NULL) {
		git_reference_free(ref);
		ref = NULL;
		if (git_reference_create(&ref, repo, branch, &commit, 1,
		    "deploy: release") != 0) {
			release_git_error(d, repo_dir, branch);
			goto out;
		}
	}
	memcpy(id_out, id, sizeof(id));
	rc = 0;
out:
	git_reference_free(head);
	git_reference_free(ref);
	git_commit_free(old);
	git_tree_free(tree);
	git_signature_free(sig);
	git_odb_free(odb);
	sc_free(&sc);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}
