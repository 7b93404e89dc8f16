/*
 * Writing a release's tree into a folder on the host, and checking a folder
 * against a tree. Used by the agent (agent.c).
 */
#ifdef __linux__
#define _GNU_SOURCE	/* syncfs */
#endif
#include "checkout.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "mem.h"
#include "release.h"

/* Only plain names may come from a tree: nothing that climbs out. */
static int
entry_name_ok(const char *name)
{
	return *name != '\0' && strcmp(name, ".") != 0 &&
	    strcmp(name, "..") != 0 && strchr(name, '/') == NULL;
}

/*
 * The entry of base (the current release's tree, or NULL) that a file or
 * folder named like e can be taken from: same kind, same id for a file.
 */
static const git_tree_entry *
base_entry(git_tree *base, const git_tree_entry *e)
{
	const git_tree_entry *b;

	if (base == NULL ||
	    (b = git_tree_entry_byname(base, git_tree_entry_name(e))) == NULL ||
	    git_tree_entry_filemode(b) != git_tree_entry_filemode(e))
		return NULL;
	if (git_tree_entry_type(e) == GIT_OBJECT_BLOB &&
	    !git_oid_equal(git_tree_entry_id(b), git_tree_entry_id(e)))
		return NULL;
	return b;
}

static int
write_file(const char *path, const void *data, size_t n, struct diag *d)
{
	const char *p = data;
	ssize_t w;
	int fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644)) == -1)
		return diag_error(d, path, 0, "create: %s", strerror(errno));
	while (n > 0) {
		w = write(fd, p, n);
		if (w == -1 && errno == EINTR)
			continue;
		if (w == -1) {
			diag_error(d, path, 0, "write: %s", strerror(errno));
			close(fd);
			return -1;
		}
		p += w;
		n -= w;
	}
	if (close(fd) == -1)
		return diag_error(d, path, 0, "close: %s", strerror(errno));
	return 0;
}

/* Reads a written file back: it must hash to the blob it was written from. */
static int
check_written(const char *path, const git_oid *want, struct diag *d)
{
	git_oid oid;

	if (git_odb_hashfile(&oid, path, GIT_OBJECT_BLOB) != 0) {
		release_git_error(d, path, "hashing");
		return -1;
	}
	if (!git_oid_equal(&oid, want)) {
		diag_error(d, path, 0, "content differs from the release");
		return -1;
	}
	return 0;
}

#define FSYNC_EACH_MAX	256

/*
 * Makes a checkout durable before its name is published. Linked files are
 * on disk already; a few new files are flushed one by one, many with the
 * whole file system. Folder entries need no flush of their own: the
 * journal (ext4, ZFS, UFS soft updates) commits them before the rename
 * that publishes them.
 */
int
checkout_flush(const struct checkout *co, const char *dir, struct diag *d)
{
	size_t i;
	int fd, rc = 0;

	if (co->nwritten > FSYNC_EACH_MAX) {
#ifdef __linux__
		if ((fd = open(dir, O_RDONLY | O_DIRECTORY)) != -1) {
			rc = syncfs(fd);
			close(fd);
			if (rc == 0)
				return 0;
		}
#else
		(void)dir;
#endif
		sync();
		return 0;
	}
	for (i = 0; i < co->nwritten && rc == 0; i++) {
		if ((fd = open(co->written[i], O_RDONLY)) == -1 ||
		    fsync(fd) == -1) {
			diag_error(d, co->written[i], 0, "fsync: %s",
			    strerror(errno));
			rc = -1;
		}
		if (fd != -1)
			close(fd);
	}
	return rc;
}

/*
 * Writes tree into dir, each new file read back and checked against its
 * blob id. A file whose blob the base release (a verified
 * tree in basedir) has at the same path is hard-linked from it instead:
 * releases are never written after staging, so sharing is safe, and a
 * push that changed a few files costs links, not a copy of the site.
 */
int
checkout_tree(git_repository *repo, git_tree *tree, const char *dir,
    git_tree *base, const char *basedir, struct checkout *co,
    struct diag *d)
{
	const git_tree_entry *e, *b;
	struct buf path = BUF_INIT, from = BUF_INIT;
	git_tree *sub, *bsub;
	git_blob *blob;
	size_t i, n = git_tree_entrycount(tree);
	int rc = -1;

	if (mkdir(dir, 0755) == -1)
		return diag_error(d, dir, 0, "mkdir: %s", strerror(errno));
	for (i = 0; i < n; i++) {
		e = git_tree_entry_byindex(tree, i);
		buf_clear(&path);
		buf_printf(&path, "%s/%s", dir, git_tree_entry_name(e));
		if (!entry_name_ok(git_tree_entry_name(e))) {
			diag_error(d, path.ptr, 0, "refusing this file name");
			goto out;
		}
		b = base_entry(base, e);
		buf_clear(&from);
		if (b != NULL)
			buf_printf(&from, "%s/%s", basedir,
			    git_tree_entry_name(e));
		switch (git_tree_entry_filemode(e)) {
		case GIT_FILEMODE_TREE:
			if (git_tree_lookup(&sub, repo, git_tree_entry_id(e)) != 0) {
				release_git_error(d, path.ptr, "tree");
				goto out;
			}
			bsub = NULL;
			if (b != NULL && git_tree_lookup(&bsub, repo,
			    git_tree_entry_id(b)) != 0)
				bsub = NULL;
			rc = checkout_tree(repo, sub, path.ptr, bsub,
			    bsub != NULL ? from.ptr : NULL, co, d);
			git_tree_free(bsub);
			git_tree_free(sub);
			if (rc == -1)
				goto out;
			rc = -1;
			break;
		case GIT_FILEMODE_BLOB:
		case GIT_FILEMODE_BLOB_EXECUTABLE:
			if (b != NULL && link(from.ptr, path.ptr) == 0) {
				co->linked++;
			} else {
				if (git_blob_lookup(&blob, repo,
				    git_tree_entry_id(e)) != 0) {
					release_git_error(d, path.ptr, "blob");
					goto out;
				}
				rc = write_file(path.ptr,
				    git_blob_rawcontent(blob),
				    (size_t)git_blob_rawsize(blob), d);
				git_blob_free(blob);
				if (rc == -1 || check_written(path.ptr,
				    git_tree_entry_id(e), d) == -1) {
					rc = -1;
					goto out;
				}
				rc = -1;
				xgrow((void **)&co->written, &co->cap,
				    co->nwritten + 1, sizeof(*co->written));
				co->written[co->nwritten++] = xstrdup(path.ptr);
			}
			if (++co->done == co->pause_at)
				release_test_pause("checkout");
			break;
		default:
			diag_error(d, path.ptr, 0, "refusing a link or submodule");
			goto out;
		}
	}
	rc = 0;
out:
	buf_release(&path);
	buf_release(&from);
	return rc;
}

static int
count_blob(const char *root, const git_tree_entry *e, void *arg)
{
	(void)root;
	if (git_tree_entry_type(e) == GIT_OBJECT_BLOB)
		(*(size_t *)arg)++;
	return 0;
}

size_t
checkout_count_files(git_tree *tree)
{
	size_t n = 0;

	git_tree_walk(tree, GIT_TREEWALK_PRE, count_blob, &n);
	return n;
}

void
checkout_release(struct checkout *co)
{
	while (co->nwritten > 0)
		free(co->written[--co->nwritten]);
	free(co->written);
	co->written = NULL;
	co->cap = 0;
}

#define MAX_PROBLEMS	20

/*
 * Checks dir against tree: every file present with the size and blob hash
 * of the commit, no other file. Returns the number of problems found (each
 * recorded, up to MAX_PROBLEMS) or -1 on an internal error.
 */
int
verify_tree(git_repository *repo, git_tree *tree, const char *dir, int *problems,
    struct diag *d)
{
	const git_tree_entry *e;
	struct buf path = BUF_INIT;
	struct dirent *de;
	struct stat st;
	git_odb *odb = NULL;
	git_object_t type;
	git_tree *sub;
	git_oid oid;
	size_t i, n = git_tree_entrycount(tree), size;
	DIR *dp = NULL;
	int rc = -1;

#define PROBLEM(...) do { if (++*problems <= MAX_PROBLEMS) \
	diag_error(d, path.ptr, 0, __VA_ARGS__); } while (0)

	if (git_repository_odb(&odb, repo) != 0) {
		release_git_error(d, dir, "odb");
		return -1;
	}
	for (i = 0; i < n; i++) {
		e = git_tree_entry_byindex(tree, i);
		buf_clear(&path);
		buf_printf(&path, "%s/%s", dir, git_tree_entry_name(e));
		if (!entry_name_ok(git_tree_entry_name(e))) {
			PROBLEM("refusing this file name");
			continue;
		}
		if (lstat(path.ptr, &st) == -1) {
			PROBLEM("missing");
			continue;
		}
		if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
			if (!S_ISDIR(st.st_mode)) {
				PROBLEM("not a folder");
				continue;
			}
			if (git_tree_lookup(&sub, repo, git_tree_entry_id(e)) != 0) {
				release_git_error(d, path.ptr, "tree");
				goto out;
			}
			rc = verify_tree(repo, sub, path.ptr, problems, d);
			git_tree_free(sub);
			if (rc == -1)
				goto out;
			rc = -1;
			continue;
		}
		if (git_tree_entry_type(e) != GIT_OBJECT_BLOB) {
			PROBLEM("refusing a link or submodule");
			continue;
		}
		if (!S_ISREG(st.st_mode)) {
			PROBLEM("not a regular file");
			continue;
		}
		if (git_odb_read_header(&size, &type, odb, git_tree_entry_id(e)) != 0) {
			release_git_error(d, path.ptr, "blob");
			goto out;
		}
		if ((size_t)st.st_size != size) {
			PROBLEM("size %lld, expected %zu", (long long)st.st_size,
			    size);
			continue;
		}
		if (git_odb_hashfile(&oid, path.ptr, GIT_OBJECT_BLOB) != 0) {
			release_git_error(d, path.ptr, "hashing");
			goto out;
		}
		if (!git_oid_equal(&oid, git_tree_entry_id(e)))
			PROBLEM("content differs from the release");
	}
	if ((dp = opendir(dir)) == NULL) {
		buf_clear(&path);
		buf_adds(&path, dir);
		PROBLEM("cannot read folder: %s", strerror(errno));
	} else {
		while ((de = readdir(dp)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			if (git_tree_entry_byname(tree, de->d_name) == NULL) {
				buf_clear(&path);
				buf_printf(&path, "%s/%s", dir, de->d_name);
				PROBLEM("not part of the release");
			}
		}
	}
	rc = 0;
out:
#undef PROBLEM
	if (dp != NULL)
		closedir(dp);
	git_odb_free(odb);
	buf_release(&path);
	return rc;
}
