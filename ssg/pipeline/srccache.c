#include "srccache.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "content.h"
#include "diag.h"
#include "fsutil.h"
#include "hash.h"
#include "mem.h"

/* the last byte changes whenever what a parse yields changes (here: BSSG's
 * excerpt rule, from the source line) */
#define CACHE_MAGIC	"SSGSRC\0\11"
#ifndef SSG_VERSION
#define SSG_VERSION	"0.1"
#endif
#define NO_STR		UINT64_MAX

struct centry {
	char		*rel;
	uint64_t	 size, ino, hash;
	int64_t		 mtime_s, mtime_ns;
	struct post	 post;
};

struct srccache {
	struct arena	*a;
	const char	*map;	/* the loaded file; entries point into it */
	size_t		 maplen;
	int		 changed; /* an entry differs from the loaded ones */
	/* loaded: open-addressed table by rel */
	struct centry	*old;
	size_t		 nold;
	size_t		*slots;	/* index+1, 0 = empty */
	size_t		 nslots;
	/* put during this build, by source; rel NULL: none */
	struct centry	*cur;
	size_t		 ncur;
	uint64_t	 site_id, cfg_hash;
};

/* --- writing --- */

static void
put_u64(struct buf *b, uint64_t v)
{
	buf_add(b, &v, sizeof(v));
}

static void
put_str(struct buf *b, const char *s)
{
	if (s == NULL) {
		put_u64(b, NO_STR);
		return;
	}
	size_t n = strlen(s);

	put_u64(b, n);
	/* with its NUL, so a loaded cache can point into its own bytes */
	buf_add(b, s, n + 1);
}

static void
put_post(struct buf *b, const struct post *p)
{
	size_t i;

	put_u64(b, (uint64_t)p->kind);
	put_str(b, p->title);
	put_str(b, p->slug);
	/* the description is often the excerpt itself */
	put_u64(b, p->description == p->excerpt);
	if (p->description != p->excerpt)
		put_str(b, p->description);
	put_str(b, p->excerpt);
	put_str(b, p->image);
	put_str(b, p->image_caption);
	put_str(b, p->author_name);
	put_str(b, p->author_email);
	put_str(b, p->fediverse_creator);
	put_u64(b, p->ntags);
	for (i = 0; i < p->ntags; i++) {
		put_str(b, p->tags[i].name);
		put_str(b, p->tags[i].slug);
	}
	put_u64(b, (uint64_t)(int64_t)p->date);
	put_u64(b, (uint64_t)(int64_t)p->lastmod);
	put_u64(b, (uint64_t)p->year << 16 | (uint64_t)p->month << 8 |
	    (uint64_t)p->day);
	put_u64(b, (uint64_t)p->draft | (uint64_t)p->secondary << 1 |
	    (uint64_t)p->is_html << 2 | (uint64_t)p->date_from_mtime << 3 |
	    (uint64_t)p->lastmod_given << 4);
	/* no body: a page that shows it is rendered again from the source
	 * (content_html), which keeps this file small to read and write */
	put_u64(b, p->words);
	put_str(b, p->url);
	put_str(b, p->out_path);
	put_u64(b, p->sum_hash);
	put_u64(b, p->full_hash);
	put_u64(b, p->body_hash);
}

/* --- reading, every step bounds-checked --- */

struct reader {
	const char	*p, *end;
	struct arena	*a;
	int		 bad;
};

static uint64_t
get_u64(struct reader *r)
{
	uint64_t v;

	if (r->bad || (size_t)(r->end - r->p) < sizeof(v)) {
		r->bad = 1;
		return 0;
	}
	memcpy(&v, r->p, sizeof(v));
	r->p += sizeof(v);
	return v;
}

static char *
get_str(struct reader *r)
{
	uint64_t n = get_u64(r);
	char *s;

	if (r->bad || n == NO_STR)
		return NULL;
	if (n >= (uint64_t)(r->end - r->p) || r->p[n] != '\0') {
		r->bad = 1;
		return NULL;
	}
	s = (char *)r->p;
	r->p += n + 1;
	return s;
}

static void
get_post(struct reader *r, struct post *p)
{
	uint64_t same, flags, i;

	memset(p, 0, sizeof(*p));
	p->kind = get_u64(r) == CONTENT_PAGE ? CONTENT_PAGE : CONTENT_POST;
	p->title = get_str(r);
	p->slug = get_str(r);
	same = get_u64(r);
	if (!same)
		p->description = get_str(r);
	p->excerpt = get_str(r);
	if (same)
		p->description = p->excerpt;
	p->image = get_str(r);
	p->image_caption = get_str(r);
	p->author_name = get_str(r);
	p->author_email = get_str(r);
	p->fediverse_creator = get_str(r);
	p->ntags = get_u64(r);
	if (r->bad || p->ntags > 10000) {
		r->bad = 1;
		p->ntags = 0;
		return;
	}
	p->tags = arena_alloc(r->a, (p->ntags + 1) * sizeof(*p->tags));
	for (i = 0; i < p->ntags; i++) {
		p->tags[i].name = get_str(r);
		p->tags[i].slug = get_str(r);
	}
	p->date = (time_t)(int64_t)get_u64(r);
	p->lastmod = (time_t)(int64_t)get_u64(r);
	flags = get_u64(r);
	p->year = (int)(flags >> 16);
	p->month = (int)((flags >> 8) & 0xff);
	p->day = (int)(flags & 0xff);
	flags = get_u64(r);
	p->draft = flags & 1;
	p->secondary = (flags >> 1) & 1;
	p->is_html = (flags >> 2) & 1;
	p->date_from_mtime = (flags >> 3) & 1;
	p->lastmod_given = (flags >> 4) & 1;
	p->html = NULL;
	p->words = get_u64(r);
	p->url = get_str(r);
	p->out_path = get_str(r);
	p->sum_hash = get_u64(r);
	p->full_hash = get_u64(r);
	p->body_hash = get_u64(r);
	if (!r->bad && (p->title == NULL || p->slug == NULL ||
	    p->url == NULL || p->out_path == NULL ||
	    p->excerpt == NULL))
		r->bad = 1;
}

static uint64_t
str_hash(const char *s)
{
	return hash64(s, strlen(s));
}

static void
index_old(struct srccache *c)
{
	size_t i, h;

	c->nslots = 16;
	while (c->nslots < c->nold * 2)
		c->nslots *= 2;
	c->slots = xcalloc(c->nslots, sizeof(*c->slots));
	for (i = 0; i < c->nold; i++) {
		h = str_hash(c->old[i].rel) & (c->nslots - 1);
		while (c->slots[h] != 0)
			h = (h + 1) & (c->nslots - 1);
		c->slots[h] = i + 1;
	}
}

static int
load(struct srccache *c, const char *path, struct diag *d)
{
	struct { const char *ptr; size_t len; } b;
	struct reader r;
	uint64_t sum, n, i;
	char *ver;
	int rc = -1;

	if (fs_map(path, &b.ptr, &b.len) == -1) {
		if (errno != ENOENT)
			diag_warn(d, path, 0, "cannot read the build cache: %s "
			    "(full rebuild)", strerror(errno));
		goto out;
	}
	if (b.len >= 8 && memcmp(b.ptr, CACHE_MAGIC, 7) == 0 &&
	    b.ptr[7] != CACHE_MAGIC[7]) {
		diag_warn(d, path, 0, "the build cache is from another version "
		    "of ssg: full rebuild");
		goto out;
	}
	if (b.len < 16 || memcmp(b.ptr, CACHE_MAGIC, 8) != 0)
		goto damaged;
	memcpy(&sum, b.ptr + b.len - 8, 8);
	if (sum != hash64(b.ptr, b.len - 8))
		goto damaged;
	r.p = b.ptr + 8;
	r.end = b.ptr + b.len - 8;
	r.a = c->a;
	r.bad = 0;
	ver = get_str(&r);
	/* another release, site or parse settings: silently start over */
	if (r.bad || ver == NULL || strcmp(ver, SSG_VERSION) != 0 ||
	    get_u64(&r) != c->site_id || get_u64(&r) != c->cfg_hash)
		goto out;
	n = get_u64(&r);
	if (r.bad || n > (uint64_t)(r.end - r.p))
		goto damaged;
	c->old = xcalloc((size_t)n + 1, sizeof(*c->old));
	for (i = 0; i < n && !r.bad; i++) {
		struct centry *e = &c->old[i];

		e->rel = get_str(&r);
		e->size = get_u64(&r);
		e->mtime_s = (int64_t)get_u64(&r);
		e->mtime_ns = (int64_t)get_u64(&r);
		e->ino = get_u64(&r);
		e->hash = get_u64(&r);
		get_post(&r, &e->post);
		e->post.text_hash = e->hash;
		if (e->rel == NULL)
			r.bad = 1;
	}
	if (r.bad || r.p != r.end) {
		free(c->old);
		c->old = NULL;
		goto damaged;
	}
	c->nold = (size_t)n;
	index_old(c);
	/* keep the bytes: every string of the entries lives in them */
	c->map = b.ptr;
	c->maplen = b.len;
	return 0;
damaged:
	diag_warn(d, path, 0, "the build cache is damaged: ignored (full "
	    "rebuild)");
out:
	fs_unmap(b.ptr, b.len);
	return rc;
}

struct srccache *
srccache_load(const char *path, uint64_t site_id, uint64_t cfg_hash,
    struct arena *a, struct diag *d)
{
	struct srccache *c = xcalloc(1, sizeof(*c));

	c->a = a;
	c->site_id = site_id;
	c->cfg_hash = cfg_hash;
	if (path != NULL)
		load(c, path, d);
	return c;
}

void
srccache_free(struct srccache *c)
{
	if (c == NULL)
		return;
	free(c->old);
	free(c->slots);
	free(c->cur);
	fs_unmap(c->map, c->maplen);
	free(c);
}

static const struct centry *
lookup(const struct srccache *c, const char *rel)
{
	size_t h, k;

	if (c->nslots == 0)
		return NULL;
	h = str_hash(rel) & (c->nslots - 1);
	while ((k = c->slots[h]) != 0) {
		if (strcmp(c->old[k - 1].rel, rel) == 0)
			return &c->old[k - 1];
		h = (h + 1) & (c->nslots - 1);
	}
	return NULL;
}

const struct post *
srccache_by_stat(struct srccache *c, const char *rel, const struct stat *st,
    uint64_t *hash)
{
	const struct centry *e = lookup(c, rel);

	if (e == NULL || e->size != (uint64_t)st->st_size ||
	    e->ino != (uint64_t)st->st_ino ||
	    e->mtime_s != (int64_t)st->st_mtim.tv_sec ||
	    e->mtime_ns != (int64_t)st->st_mtim.tv_nsec)
		return NULL;
	*hash = e->hash;
	return &e->post;
}

const struct post *
srccache_by_hash(struct srccache *c, const char *rel, uint64_t hash)
{
	const struct centry *e = lookup(c, rel);

	return e != NULL && e->hash == hash ? &e->post : NULL;
}

size_t
srccache_count(const struct srccache *c)
{
	return c->nold;
}

void
srccache_expect(struct srccache *c, size_t n)
{
	free(c->cur);
	c->cur = xcalloc(n + 1, sizeof(*c->cur));
	c->ncur = n;
}

void
srccache_put(struct srccache *c, size_t i, const char *rel,
    const struct stat *st, uint64_t hash, const struct post *p)
{
	struct centry *e = &c->cur[i];
	const struct centry *o = lookup(c, rel);

	/* strings of p live in the build arena, as long as c is used */
	e->rel = (char *)rel;
	e->size = (uint64_t)st->st_size;
	e->ino = (uint64_t)st->st_ino;
	e->mtime_s = (int64_t)st->st_mtim.tv_sec;
	e->mtime_ns = (int64_t)st->st_mtim.tv_nsec;
	e->hash = hash;
	e->post = *p;
	if (o == NULL || o->size != e->size || o->ino != e->ino ||
	    o->mtime_s != e->mtime_s || o->mtime_ns != e->mtime_ns ||
	    o->hash != hash)
		__atomic_store_n(&c->changed, 1, __ATOMIC_RELAXED);
}

static int
cmp_rel(const void *a, const void *b)
{
	return strcmp(((const struct centry *)a)->rel,
	    ((const struct centry *)b)->rel);
}

int
srccache_save(struct srccache *c, const char *path)
{
	struct buf b = BUF_INIT;
	uint64_t sum;
	size_t i, n;
	int rc;

	/* the sources that were recorded, in a row */
	for (i = n = 0; i < c->ncur; i++)
		if (c->cur[i].rel != NULL)
			c->cur[n++] = c->cur[i];
	c->ncur = n;
	/* nothing new and nothing gone: the file on disk is current */
	if (!c->changed && c->ncur == c->nold && c->nold > 0)
		return 0;
	/* sorted, so the file does not depend on thread timing */
	xqsort(c->cur, c->ncur, sizeof(*c->cur), cmp_rel);
	/* about the size it had: one allocation, not a series of copies */
	buf_grow(&b, c->nold > 0 ? c->maplen / c->nold * (c->ncur + 16) :
	    c->ncur * 1024);
	buf_add(&b, CACHE_MAGIC, 8);
	put_str(&b, SSG_VERSION);
	put_u64(&b, c->site_id);
	put_u64(&b, c->cfg_hash);
	put_u64(&b, c->ncur);
	for (i = 0; i < c->ncur; i++) {
		const struct centry *e = &c->cur[i];

		put_str(&b, e->rel);
		put_u64(&b, e->size);
		put_u64(&b, (uint64_t)e->mtime_s);
		put_u64(&b, (uint64_t)e->mtime_ns);
		put_u64(&b, e->ino);
		put_u64(&b, e->hash);
		put_post(&b, &e->post);
	}
	sum = hash64(b.ptr, b.len);
	put_u64(&b, sum);
	rc = fs_write_cache(path, b.ptr, b.len);
	buf_release(&b);
	return rc;
}
