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

struct manifest {
	pthread_mutex_t	  lock;
	char		**paths;
	size_t		  n, cap;
	int		  sorted;
};

struct manifest *
manifest_new(void)
{
	struct manifest *m = xcalloc(1, sizeof(*m));

	pthread_mutex_init(&m->lock, NULL);
	return m;
}

void
manifest_free(struct manifest *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->n; i++)
		free(m->paths[i]);
	free(m->paths);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

void
manifest_add(struct manifest *m, const char *rel)
{
	pthread_mutex_lock(&m->lock);
	xgrow((void **)&m->paths, &m->cap, m->n + 1, sizeof(*m->paths));
	m->paths[m->n++] = xstrdup(rel);
	m->sorted = 0;
	pthread_mutex_unlock(&m->lock);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
manifest_sort(struct manifest *m)
{
	size_t i, k = 0;

	if (m->sorted)
		return;
	qsort(m->paths, m->n, sizeof(*m->paths), cmp_str);
	for (i = 0; i < m->n; i++) {
		if (k > 0 && strcmp(m->paths[k - 1], m->paths[i]) == 0) {
			free(m->paths[i]);
			continue;
		}
		m->paths[k++] = m->paths[i];
	}
	m->n = k;
	m->sorted = 1;
}

int
manifest_load(struct manifest *m, const char *path)
{
	struct buf b = BUF_INIT;
	char *line, *save = NULL;

	if (fs_read(path, &b) == -1) {
		buf_release(&b);
		return errno == ENOENT ? 0 : -1;
	}
	for (line = strtok_r(b.ptr, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		/* never trust a path that could leave the output folder */
		if (line[0] != '/' && strstr(line, "..") == NULL)
			manifest_add(m, line);
	buf_release(&b);
	return 0;
}

int
manifest_save(const struct manifest *cm, const char *path)
{
	struct manifest *m = (struct manifest *)cm;
	struct buf b = BUF_INIT;
	size_t i;
	int rc;

	manifest_sort(m);
	for (i = 0; i < m->n; i++)
		buf_printf(&b, "%s\n", m->paths[i]);
	rc = fs_write_atomic(path, b.ptr, b.len);
	buf_release(&b);
	return rc;
}

static int
manifest_has(const struct manifest *m, const char *rel)
{
	return bsearch(&rel, m->paths, m->n, sizeof(*m->paths), cmp_str) != NULL;
}

/* Removes now-empty folders from rel's parent up to out_dir. */
static void
prune_dirs(const char *out_dir, const char *rel)
{
	char *r = xstrdup(rel), *slash, *full;

	while ((slash = strrchr(r, '/')) != NULL) {
		*slash = '\0';
		full = path_join(out_dir, r);
		if (rmdir(full) == -1) {
			free(full);
			break;
		}
		free(full);
	}
	free(r);
}

size_t
manifest_remove_stale(const struct manifest *cold,
    const struct manifest *ccur, const char *out_dir, struct diag *d)
{
	struct manifest *old = (struct manifest *)cold;
	struct manifest *cur = (struct manifest *)ccur;
	static const char *const sib[] = { "", ".gz", ".br" };
	struct buf p = BUF_INIT;
	size_t i, k, removed = 0;

	manifest_sort(old);
	manifest_sort(cur);
	for (i = 0; i < old->n; i++) {
		if (manifest_has(cur, old->paths[i]))
			continue;
		for (k = 0; k < 3; k++) {
			buf_clear(&p);
			buf_printf(&p, "%s/%s%s", out_dir, old->paths[i], sib[k]);
			if (unlink(p.ptr) == 0) {
				if (k == 0)
					removed++;
			} else if (errno != ENOENT)
				diag_warn(d, p.ptr, 0, "cannot remove stale "
				    "output: %s", strerror(errno));
		}
		prune_dirs(out_dir, old->paths[i]);
	}
	buf_release(&p);
	return removed;
}

static int
same_bytes(const char *path, const void *data, size_t n)
{
	struct stat st;
	struct buf b = BUF_INIT;
	int same;

	if (stat(path, &st) == -1 || (size_t)st.st_size != n)
		return 0;
	if (fs_read(path, &b) == -1)
		return 0;
	same = b.len == n && memcmp(b.ptr, data, n) == 0;
	buf_release(&b);
	return same;
}

int
output_write(const char *out_dir, const char *rel, const void *data,
    size_t n, int *changed, struct diag *d)
{
	char *path = path_join(out_dir, rel);
	int rc = 0;

	if (changed)
		*changed = 0;
	if (!same_bytes(path, data, n)) {
		if (fs_write_atomic(path, data, n) == -1) {
			diag_error(d, path, 0, "cannot write: %s",
			    strerror(errno));
			rc = -1;
		} else if (changed)
			*changed = 1;
	}
	free(path);
	return rc;
}

int
output_copy(const char *src, const char *out_dir, const char *rel,
    int *changed, struct diag *d)
{
	struct stat s, t;
	char *dst = path_join(out_dir, rel);
	int rc = 0;

	if (changed)
		*changed = 0;
	if (stat(src, &s) == 0 && stat(dst, &t) == 0 &&
	    s.st_size == t.st_size && s.st_mtime == t.st_mtime)
		goto out;
	if (fs_copy_atomic(src, dst) == -1) {
		diag_error(d, src, 0, "cannot copy to %s: %s", dst,
		    strerror(errno));
		rc = -1;
	} else if (changed)
		*changed = 1;
out:
	free(dst);
	return rc;
}
