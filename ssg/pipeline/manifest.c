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
#include "hash.h"
#include "mem.h"

#define MANIFEST_MAGIC "ssg-manifest 2"

struct entry {
	char		*path;
	uint64_t	 fp, base;
	unsigned char	 found;		/* MANIFEST_UNCHECKED ... */
};

/*
 * Entries in the order they were added (the order they are saved in)
 * and an open-addressed index by path, built when first needed: no
 * sorting, which matters at tens of thousands of pages.
 */
struct manifest {
	pthread_mutex_t	 lock;
	struct arena	*paths;		/* every entry's path */
	struct entry	*e;
	size_t		 n, cap;
	size_t		*slots;		/* entry index + 1; 0 is empty */
	size_t		 nslots;
	size_t		 indexed;	/* entries in the index so far */
	uint64_t	 memo;		/* the inputs of the build that wrote it */
};

struct manifest *
manifest_new(void)
{
	struct manifest *m = xcalloc(1, sizeof(*m));

	pthread_mutex_init(&m->lock, NULL);
	m->paths = arena_new();
	return m;
}

void
manifest_free(struct manifest *m)
{
	if (m == NULL)
		return;
	arena_free(m->paths);
	free(m->e);
	free(m->slots);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

void
manifest_add(struct manifest *m, const char *rel, uint64_t fp, uint64_t base)
{
	char *path = arena_strdup(m->paths, rel);	/* (locks its own) */

	pthread_mutex_lock(&m->lock);
	xgrow((void **)&m->e, &m->cap, m->n + 1, sizeof(*m->e));
	m->e[m->n].path = path;
	m->e[m->n].fp = fp;
	m->e[m->n].base = base;
	m->n++;
	pthread_mutex_unlock(&m->lock);
}

static size_t
slot_of(const struct manifest *m, const char *rel)
{
	return (size_t)hash64(rel, strlen(rel)) & (m->nslots - 1);
}

/* Brings the index up to date with the entries; a later duplicate
 * replaces the earlier one. */
static void
reindex(struct manifest *m)
{
	size_t i, h, k;

	/* up to date: nothing written, so threads may look up at once */
	if (m->indexed == m->n && m->nslots >= (m->n + 1) * 2)
		return;
	if (m->nslots < (m->n + 1) * 2) {
		free(m->slots);
		m->nslots = 64;
		while (m->nslots < (m->n + 1) * 2)
			m->nslots *= 2;
		m->slots = xcalloc(m->nslots, sizeof(*m->slots));
		m->indexed = 0;
	}
	for (i = m->indexed; i < m->n; i++) {
		h = slot_of(m, m->e[i].path);
		while ((k = m->slots[h]) != 0 &&
		    strcmp(m->e[k - 1].path, m->e[i].path) != 0)
			h = (h + 1) & (m->nslots - 1);
		m->slots[h] = i + 1;
	}
	m->indexed = m->n;
}

void
manifest_foreach(struct manifest *m, void (*fn)(const char *, void *),
    void *arg)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		fn(m->e[i].path, arg);
}

void
manifest_index(struct manifest *m)
{
	reindex(m);
}

static struct entry *
find(struct manifest *m, const char *rel)
{
	size_t h, k;

	reindex(m);
	h = slot_of(m, rel);
	while ((k = m->slots[h]) != 0) {
		if (strcmp(m->e[k - 1].path, rel) == 0)
			return &m->e[k - 1];
		h = (h + 1) & (m->nslots - 1);
	}
	return NULL;
}

/* The value of 16 hex digits at s, or -1 if one is not. */
static int
get_hex(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	int i, c;

	for (i = 0; i < 16; i++) {
		c = (unsigned char)s[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return -1;
		x = x << 4 | (uint64_t)c;
	}
	*v = x;
	return 0;
}

int
manifest_load(struct manifest *m, const char *path, struct diag *d)
{
	struct buf b = BUF_INIT;
	char *line, *next, *end;
	uint64_t fp, base;

	if (fs_read(path, &b) == -1) {
		buf_release(&b);
		return errno == ENOENT ? 0 : -1;
	}
	line = b.ptr;
	next = strchr(line, '\n');
	if (next == NULL)
		goto bad;
	*next = '\0';
	if (strcmp(line, MANIFEST_MAGIC) != 0)
		goto bad;
	/* "memo HASH", when the build that wrote it ended without error */
	if (strncmp(next + 1, "memo ", 5) == 0) {
		line = next + 1;
		if ((next = strchr(line, '\n')) == NULL || next - line != 21)
			goto bad;
		errno = 0;
		m->memo = strtoull(line + 5, &end, 16);
		if (errno || end != next)
			goto bad;
	}
	for (line = next + 1; *line != '\0'; line = next + 1) {
		if ((next = strchr(line, '\n')) == NULL)
			goto bad;
		*next = '\0';
		/* "FP BASE PATH", 16 hex digits each */
		if (next - line < 35 || line[16] != ' ' || line[33] != ' ')
			goto bad;
		if (get_hex(line, &fp) == -1 || get_hex(line + 17, &base) == -1)
			goto bad;
		/* never trust a path that could leave the output folder */
		if (line[34] == '/' || strstr(line + 34, "..") != NULL)
			goto bad;
		manifest_add(m, line + 34, fp, base);
	}
	buf_release(&b);
	return 0;
bad:
	diag_warn(d, path, 0, "damaged list of outputs: ignored (pages are "
	    "rendered again; files it named are no longer removed)");
	buf_release(&b);
	m->memo = 0;
	m->n = 0;
	m->indexed = 0;
	if (m->slots)
		memset(m->slots, 0, m->nslots * sizeof(*m->slots));
	return 0;
}

int
manifest_save(struct manifest *m, const char *path)
{
	struct buf b = BUF_INIT;
	size_t i;
	int rc;

	buf_grow(&b, m->n * 64 + 32);
	buf_adds(&b, MANIFEST_MAGIC "\n");
	if (m->memo != 0)
		buf_printf(&b, "memo %016" PRIx64 "\n", m->memo);
	for (i = 0; i < m->n; i++) {
		char num[34];

		hash_hex(m->e[i].fp, num);
		num[16] = ' ';
		hash_hex(m->e[i].base, num + 17);
		num[33] = ' ';
		buf_add(&b, num, sizeof(num));
		buf_adds(&b, m->e[i].path);
		buf_addc(&b, '\n');
	}
	rc = fs_write_cache(path, b.ptr, b.len);
	buf_release(&b);
	return rc;
}

int
manifest_same(struct manifest *a, struct manifest *b)
{
	struct entry *e;
	size_t i;

	if (a->n != b->n || a->memo != b->memo)
		return 0;
	for (i = 0; i < a->n; i++) {
		e = find(b, a->e[i].path);
		if (e == NULL || e->fp != a->e[i].fp || e->base != a->e[i].base)
			return 0;
	}
	return 1;
}

int
manifest_get(struct manifest *m, const char *rel, uint64_t *fp,
    uint64_t *base, int *found)
{
	struct entry *e = find(m, rel);

	if (e == NULL)
		return 0;
	*fp = e->fp;
	*base = e->base;
	if (found != NULL)
		*found = e->found;
	return 1;
}

void
manifest_set_found(struct manifest *m, size_t i, int found)
{
	m->e[i].found = (unsigned char)found;
}

int
manifest_all_found(const struct manifest *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->e[i].found != MANIFEST_FOUND)
			return 0;
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

void
manifest_set_memo(struct manifest *m, uint64_t memo)
{
	m->memo = memo;
}

uint64_t
manifest_memo(const struct manifest *m)
{
	return m->memo;
}

size_t
manifest_count(const struct manifest *m)
{
	return m->n;
}

const char *
manifest_path_at(const struct manifest *m, size_t i)
{
	return m->e[i].path;
}

int
manifest_same_copies(struct manifest *old, struct manifest *cur)
{
	const char **copies;
	size_t i, k, n = 0;
	int same = 1;

	if (old->memo != cur->memo)
		return 0;
	for (i = 0; i < cur->n; i++)
		if (cur->e[i].fp != 0)
			return 0;
	/* a handful of copies among thousands of pages: no index needed */
	copies = xcalloc(cur->n + 1, sizeof(*copies));
	for (i = 0; i < old->n && same; i++)
		if (old->e[i].fp == 0) {
			if (n == cur->n)
				same = 0;
			else
				copies[n++] = old->e[i].path;
		}
	same = same && n == cur->n;
	for (i = 0; i < cur->n && same && n > 64; i++) {
		struct entry *e = find(old, cur->e[i].path);

		same = e != NULL && e->fp == 0;
	}
	for (i = 0; i < cur->n && same && n <= 64; i++) {
		for (k = 0; k < n; k++)
			if (copies[k] != NULL &&
			    strcmp(copies[k], cur->e[i].path) == 0)
				break;
		if (k == n)
			same = 0;
		else
			copies[k] = NULL;
	}
	free(copies);
	return same;
}

void
manifest_carry(struct manifest *old, struct manifest *cur)
{
	size_t i;

	manifest_index(cur);
	for (i = 0; i < old->n; i++)
		if (old->e[i].fp != 0 && find(cur, old->e[i].path) == NULL)
			manifest_add(cur, old->e[i].path, old->e[i].fp,
			    old->e[i].base);
}
