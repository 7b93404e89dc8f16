#ifndef SSG_FSUTIL_H
#define SSG_FSUTIL_H

#include <sys/stat.h>

#include <stddef.h>

#include "buf.h"

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
 * files that are replaced, never rewritten in place (our caches): a file
 * cut short under the mapping would fault. */
int	fs_map(const char *path, const char **ptr, size_t *len);
void	fs_unmap(const char *ptr, size_t len);
/* mkdir -p with mode 0755. */
int	fs_mkdirs(const char *path);
/* Creates the parent folders of path. */
int	fs_mkparents(const char *path);
/* Writes data to a temporary file beside path, then renames it over path,
 * so readers see the old file or the new one, never a part. Creates the
 * parent folders. */
int	fs_write_atomic(const char *path, const void *data, size_t n);
/* Creates path (and its parent folders) with data; fails with EEXIST if it
 * exists. Readers may see the file before it is whole: for files nothing
 * has read yet. path is borrowed to name the parent, and restored. */
int	fs_write_excl(char *path, const void *data, size_t n);
/* The same for a cache file, which may instead be briefly absent: the old
 * file is removed just before the new one takes its name (no flush). */
int	fs_write_cache(const char *path, const void *data, size_t n);
/* The same with the temporary file in tmpdir (on the same file system;
 * made if missing), so a killed writer leaves its debris there, not
 * beside the file. */
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
 * report it) under root (recursively, names sorted,
 * hidden names starting with '.' skipped), with the full path, the path
 * relative to root and its stat. fn returning -1 stops the walk. A missing
 * root walks nothing.
 */
typedef int (*fs_walk_fn)(const char *path, const char *rel,
    const struct stat *st, void *arg);
int	fs_walk(const char *root, fs_walk_fn fn, void *arg);

/* "a/b": a malloc'd join with exactly one slash; b absolute wins. */
char	*path_join(const char *a, const char *b);
/* The final component of path (pointer into it). */
const char *path_base(const char *path);
/* The extension of path's final component without the dot, or "". */
const char *path_ext(const char *path);

#endif
