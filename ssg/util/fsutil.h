#ifndef SSG_FSUTIL_H
#define SSG_FSUTIL_H

#include <sys/types.h>
#include <sys/stat.h>

#include <stddef.h>

#include "buf.h"

struct diag;

/*
 * File system helpers. All return 0 on success and -1 with errno set on
 * failure; the caller names the file in its diagnostic.
 */

/* Appends the whole file to out. */
int	fs_read(const char *path, struct buf *out);
/* Reads the whole regular file, again if it changed meanwhile (by its
 * size and mtime before and after). *st is its stat as last seen, by a
 * folder scan say; it becomes the stat of what was read. Fails with
 * EAGAIN after three changes. */
int	fs_read_stable(const char *path, struct buf *out, struct stat *st);
/* Maps the whole file read-only: cheaper than reading for a large file
 * that is only looked at. An empty file maps as ptr NULL, len 0. Only for
 * files that are replaced or appended to, never rewritten in place (our
 * caches): a file cut short under the mapping would fault, while bytes
 * appended past its end are merely not seen. */
int	fs_map(const char *path, const char **ptr, size_t *len);
void	fs_unmap(const char *ptr, size_t len);
/* mkdir -p with mode 0755 (less what the umask takes). */
int	fs_mkdirs(const char *path);
/* The same for a folder of published output: 0755 whatever the umask. */
int	fs_mkdirs_published(const char *path);
/* Creates the parent folders of path. */
int	fs_mkparents(const char *path);
/* Writes data to a temporary file beside path, then renames it over path,
 * so readers see the old file or the new one, never a part. Creates the
 * parent folders. */
int	fs_write_atomic(const char *path, const void *data, size_t n);
/*
 * The one atomic write for files that must survive a crash whole (a
 * server's config, a key): a temporary file beside path, written with
 * mode (whatever the umask) and owner uid:gid (uid (uid_t)-1: the
 * writer's), flushed to disk, then renamed over path. The parent folder
 * must exist. 0, or -1 with errno set and path as it was.
 */
int	fs_write_file(const char *path, const void *data, size_t n,
	    mode_t mode, uid_t uid, gid_t gid);
/* Creates path (and its parent folders) with data, as published output
 * (0644, folders 0755, whatever the umask); fails with EEXIST if it
 * exists. Readers may see the file before it is whole: for files nothing
 * has read yet. path is borrowed to name the parent, and restored.
 * dir_there: the folder is likely there already (a second file in it),
 * so the file is opened first and the folder made only when missing; else
 * the folder is made first (a page in a folder of its own). */
int	fs_write_excl(char *path, const void *data, size_t n, int dir_there);
/* The same for a cache file, which may instead be briefly absent: the old
 * file is removed just before the new one takes its name (no flush). */
int	fs_write_cache(const char *path, const void *data, size_t n);
/* The same, written from n pieces (a large cache without a copy of it
 * whole in memory). */
struct iovec;
int	fs_write_cache_v(const char *path, const struct iovec *iov, size_t n);
/* Appends data[0..n) to the file at path, which must be there; for a
 * cache whose entries carry their own check (one cut short is seen). */
int	fs_append(const char *path, const void *data, size_t n);
/* The same with the temporary file in tmpdir (on the same file system;
 * made if missing), so a killed writer leaves its debris there, not
 * beside the file. For published output: the file is 0644 and the folders
 * made for it 0755, whatever the umask (as with fs_write_excl). */
int	fs_write_atomic_via(const char *path, const char *tmpdir,
	    const void *data, size_t n);
/* Copies src to dst the same way, keeping src's mtime. */
int	fs_copy_atomic(const char *src, const char *dst);
int	fs_copy_atomic_via(const char *src, const char *dst, const char *tmpdir);
int	fs_is_dir(const char *path);
int	fs_is_file(const char *path);
/* rm -rf; a missing path is not an error. Never follows symlinks. */
int	fs_remove_tree(const char *path);

/*
 * Calls fn for every regular file (and dangling symlink, so that readers
 * report it) under root (recursively, names sorted), with the full path,
 * the path relative to root and its stat. Never published, so never
 * walked: hidden names (starting with '.': .git, .ssg-cache, editor swap
 * files), editor backups ("name~") and autosaves ("#name#"). A folder
 * that holds itself (a link to a folder above it) is not entered twice.
 * fn returning -1 stops the walk. A missing root walks nothing.
 */
typedef int (*fs_walk_fn)(const char *path, const char *rel,
    const struct stat *st, void *arg);
int	fs_walk(const char *root, fs_walk_fn fn, void *arg);
/* 1 if a file of that name is never walked (see above), else 0. */
int	fs_name_hidden(const char *name);

/*
 * The site boundary. Whether path, every symbolic link in it followed,
 * lies inside the folder whose real path is root (root itself counts).
 * Returns 1 inside, 0 outside, -1 if path cannot be resolved (errno:
 * ELOOP for a loop of links, ENOENT for a dangling one). The resolved
 * path is left in real (PATH_MAX bytes) when real is not NULL. The one
 * test of containment: builds, themes and the server all ask it.
 */
int	fs_within(const char *root, const char *path, char *real);

/* What a bounded walk may read: the site folder, and whether links that
 * leave it are followed all the same; diagnostics go to d. */
struct fs_bound {
	char		*root;		/* real path of the site folder */
	int		 follow;	/* follow_external_symlinks */
	struct diag	*d;
};
/* Fills bd for the folder site; -1 (bd zeroed) if it cannot be resolved.
 * Release with fs_bound_release. */
int	fs_bound_init(struct fs_bound *bd, const char *site, int follow,
	    struct diag *d);
void	fs_bound_release(struct fs_bound *bd);
/*
 * 1 if path may be read under bd: it resolves inside the site (and not
 * into a hidden folder of it, like .git), or outside with bd->follow set,
 * or not at all (a dangling link, for its reader to report). 0 if not,
 * after a diagnostic naming path: a warning for a link that leaves the
 * site or leads into a hidden folder, an error for a loop of links.
 */
int	fs_bound_check(const struct fs_bound *bd, const char *path);
/* fs_walk under bd (NULL: no bound): links are checked with
 * fs_bound_check, root included, and a folder that holds itself is an
 * error in bd->d. */
int	fs_walk_in(const char *root, const struct fs_bound *bd, fs_walk_fn fn,
	    void *arg);

/* "a/b": a malloc'd join with exactly one slash; b absolute wins. */
char	*path_join(const char *a, const char *b);
/* The final component of path (pointer into it). */
const char *path_base(const char *path);
/* The extension of path's final component without the dot, or "". */
const char *path_ext(const char *path);

#endif
