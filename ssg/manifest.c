#include "manifest.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"

#define MANIFEST_MAGIC "ssg-manifest 2"

struct entry {
	char		*path;
	uint64_t	 fp, base;
};

struct manifest {
	pthread_mutex_t	 lock;
	struct entry	*e;
	size_t		 n, cap;
	int		 sorted;
};

struct manifest *
manifest_new(void)
{
	struct manifest *m = xcalloc(1, sizeof(*m));

	pthread_mutex_init(&m->lock, NULL);
	m->sorted = 1;
	return m;
}

void
manifest_free(struct manifest *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->n; i++)
		free(m->e[i].path);
	free(m->e);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

void
manifest_add(struct manifest *m, const char *rel, uint64_t fp, uint64_t base)
{
	pthread_mutex_lock(&m->lock);
	xgrow((void **)&m->e, &m->cap, m->n + 1, sizeof(*m->e));
	m->e[m->n].path = xstrdup(rel);
	m->e[m->n].fp = fp;
	m->e[m->n].base = base;
	m->n++;
	m->sorted = 0;
	pthread_mutex_unlock(&m->lock);
}

static int
cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path,
	    ((const struct entry *)b)->path);
}

/* Sorts by path; of duplicates one is kept (paths are added once per build). */
static void
msort(struct manifest *m)
{
	size_t i, k = 0;

	if (m->sorted)
		return;
	qsort(m->e, m->n, sizeof(*m->e), cmp_entry);
	for (i = 0; i < m->n; i++) {
		if (k > 0 && strcmp(m->e[k - 1].path, m->e[i].path) == 0) {
			free(m->e[k - 1].path);
			m->e[k - 1] = m->e[i];
			continue;
		}
		m->e[k++] = m->e[i];
	}
	m->n = k;
	m->sorted = 1;
}

int
manifest_load(struct manifest *m, const char *path, struct diag *d)
{
	struct buf b = BUF_INIT;
	char *line, *save = NULL, *sp, *end;
	uint64_t fp, base;
	int first = 1;

	if (fs_read(path, &b) == -1) {
		buf_release(&b);
		return errno == ENOENT ? 0 : -1;
	}
	for (line = strtok_r(b.ptr, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (first) {
			first = 0;
			if (strcmp(line, MANIFEST_MAGIC) != 0)
				goto bad;
			continue;
		}
		/* "FP BASE PATH", 16 hex digits each */
		if (strlen(line) < 35 || line[16] != ' ' || line[33] != ' ')
			goto bad;
		errno = 0;
		fp = strtoull(line, &end, 16);
		if (errno || end != line + 16)
			goto bad;
		base = strtoull(line + 17, &end, 16);
		if (errno || end != line + 33)
			goto bad;
		sp = line + 33;
		/* never trust a path that could leave the output folder */
		if (sp[1] == '/' || sp[1] == '\0' || strstr(sp + 1, "..") != NULL)
			goto bad;
		manifest_add(m, sp + 1, fp, base);
	}
	buf_release(&b);
	msort(m);
	return 0;
bad:
	diag_warn(d, path, 0, "damaged list of outputs: ignored (pages are "
	    "rendered again; files it named are no longer removed)");
	buf_release(&b);
	while (m->n > 0)
		free(m->e[--m->n].path);
	return 0;
}

int
manifest_save(struct manifest *m, const char *path)
{
	struct buf b = BUF_INIT;
	size_t i;
	int rc;

	msort(m);
	buf_adds(&b, MANIFEST_MAGIC "\n");
	for (i = 0; i < m->n; i++)
		buf_printf(&b, "%016" PRIx64 " %016" PRIx64 " %s\n", m->e[i].fp,
		    m->e[i].base, m->e[i].path);
	rc = fs_write_atomic(path, b.ptr, b.len);
	buf_release(&b);
	return rc;
}

static struct entry *
find(struct manifest *m, const char *rel)
{
	struct entry key;

	msort(m);
	key.path = (char *)rel;
	return bsearch(&key, m->e, m->n, sizeof(*m->e), cmp_entry);
}

int
manifest_get(struct manifest *m, const char *rel, uint64_t *fp,
    uint64_t *base)
{
	struct entry *e = find(m, rel);

	if (e == NULL)
		return 0;
	*fp = e->fp;
	*base = e->base;
	return 1;
}

void
manifest_forget(struct manifest *m, const char *rel)
{
	struct entry *e = find(m, rel);

	if (e)
		e->fp = 0;
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
manifest_remove_stale(struct manifest *old, struct manifest *cur,
    const char *out_dir, struct diag *d)
{
	static const char *const sib[] = { "", ".gz", ".br" };
	struct buf p = BUF_INIT;
	size_t i, k, removed = 0;

	msort(old);
	msort(cur);
	for (i = 0; i < old->n; i++) {
		if (find(cur, old->e[i].path) != NULL)
			continue;
		for (k = 0; k < 3; k++) {
			buf_clear(&p);
			buf_printf(&p, "%s/%s%s", out_dir, old->e[i].path, sib[k]);
			if (unlink(p.ptr) == 0) {
				if (k == 0)
					removed++;
			} else if (errno != ENOENT)
				diag_warn(d, p.ptr, 0, "cannot remove stale "
				    "output: %s", strerror(errno));
		}
		prune_dirs(out_dir, old->e[i].path);
	}
	buf_release(&p);
	return removed;
}
