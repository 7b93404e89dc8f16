#include "output.h"

#include <sys/stat.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"

char *
output_tmpdir(const char *out_dir)
{
	return path_join(out_dir, ".ssg-tmp");
}

int
output_begin(const char *out_dir)
{
	char *tmp = output_tmpdir(out_dir);
	int rc;

	/* made by the first write that needs it: most builds write nothing */
	rc = fs_remove_tree(tmp);
	free(tmp);
	return rc;
}

void
output_end(const char *out_dir)
{
	char *tmp = output_tmpdir(out_dir);

	fs_remove_tree(tmp);
	free(tmp);
}

/* 1 if path holds exactly data, 0 if it differs, -1 if there is none. */
static int
same_bytes(const char *path, const void *data, size_t n)
{
	struct stat st;
	struct buf b = BUF_INIT;
	int same;

	if (stat(path, &st) == -1)
		return errno == ENOENT ? -1 : 0;
	if ((size_t)st.st_size != n)
		return 0;
	if (fs_read(path, &b) == -1)
		return 0;
	same = b.len == n && memcmp(b.ptr, data, n) == 0;
	buf_release(&b);
	return same;
}

/* Replaces out_dir/rel (path) whole with data. */
static int
replace(const char *out_dir, const char *path, const void *data, size_t n,
    struct diag *d)
{
	char *tmp = output_tmpdir(out_dir);
	int rc = 0;

	if (fs_write_atomic_via(path, tmp, data, n) == -1) {
		diag_error(d, path, 0, "cannot write: %s", strerror(errno));
		rc = -1;
	}
	free(tmp);
	return rc;
}

/*
 * A new page is written in place: no page was there to keep whole, and a
 * killed build's partial file is not in the manifest, so the next build
 * writes it again. (Temporary files all made in one folder also crowd one
 * ext4 inode group, the slowest part of a build from scratch.)
 */
static int
create(const char *out_dir, char *path, const void *data, size_t n,
    int dir_there, struct diag *d)
{
	if (fs_write_excl(path, data, n, dir_there) == 0)
		return 0;
	if (errno == EEXIST)	/* made meanwhile: replace it whole */
		return replace(out_dir, path, data, n, d);
	return diag_error(d, path, 0, "cannot write: %s", strerror(errno));
}

int
output_write(const char *out_dir, const char *rel, const void *data,
    size_t n, int *changed, struct diag *d)
{
	char *path = path_join(out_dir, rel);
	int rc, same;

	same = same_bytes(path, data, n);
	if (same == 1)
		rc = 0;
	else if (same == -1)
		rc = create(out_dir, path, data, n, 0, d);
	else
		rc = replace(out_dir, path, data, n, d);
	if (changed)
		*changed = same != 1 && rc == 0;
	free(path);
	return rc;
}

int
output_create(const char *out_dir, const char *rel, const void *data,
    size_t n, int dir_there, struct diag *d)
{
	char *path = path_join(out_dir, rel);
	int rc;

	rc = create(out_dir, path, data, n, dir_there, d);
	free(path);
	return rc;
}

int
output_copy(const char *src, const char *out_dir, const char *rel,
    int *changed, struct diag *d)
{
	struct stat s, t;
	char *dst = path_join(out_dir, rel), *tmp = output_tmpdir(out_dir);
	int rc = 0;

	if (changed)
		*changed = 0;
	/* the same, unless an older copy was not readable by all */
	if (stat(src, &s) == 0 && stat(dst, &t) == 0 &&
	    s.st_size == t.st_size && s.st_mtime == t.st_mtime &&
	    (t.st_mode & 0777) == 0644)
		goto out;
	if (fs_copy_atomic_via(src, dst, tmp) == -1) {
		diag_error(d, src, 0, "cannot copy to %s: %s", dst,
		    strerror(errno));
		rc = -1;
	} else if (changed)
		*changed = 1;
out:
	free(dst);
	free(tmp);
	return rc;
}
