/* Finding the sources, reading them or taking them from the cache, and
 * reading the caches. */

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "build_int.h"
#include "compress.h"
#include "diag.h"
#include "fsutil.h"
#include "gitinfo.h"
#include "hash.h"
#include "manifest.h"
#include "mem.h"
#include "pool.h"
#include "srccache.h"

static int
add_source(const char *path, const char *rel, const struct stat *st,
    void *arg)
{
	struct build *b = arg;
	struct source *s;

	if (!content_is_source(path))
		return 0;
	build_warn_private(b, path, st);
	xgrow((void **)&b->src, &b->capsrc, b->nsrc + 1, sizeof(*b->src));
	s = &b->src[b->nsrc++];
	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	s->rel = xstrdup(rel);
	s->st = *st;
	return 0;
}

/* Lists sources of one folder, marking their kind. */
static void
scan(struct build *b, const char *dir, enum content_kind kind, int drafts)
{
	char *p = build_path(b, dir);
	size_t first = b->nsrc, i;

	fs_walk_in(p, &b->bound, add_source, b);
	for (i = first; i < b->nsrc; i++) {
		b->src[i].kind = kind;
		b->src[i].from_drafts = drafts;
		b->src[i].key = path_join(dir, b->src[i].rel);
	}
	free(p);
}

/* Reads a source whole, again if it changed while being read; st becomes
 * the stat of what was read. */
static int
read_stable(struct build *b, struct source *s, struct stat *st,
    struct buf *text)
{
	if (fs_read_stable(s->path, text, st) == 0)
		return 0;
	if (errno == EAGAIN)
		diag_error(b->d, s->path, 0, "changed while being read, three "
		    "times: left out (build again)");
	else
		diag_error(b->d, s->path, 0, "cannot read: %s",
		    strerror(errno));
	return -1;
}

/* A cached parse, made this build's own. */
static void
reuse(struct build *b, struct source *s, struct post *p,
    const struct post *hit)
{
	*p = *hit;
	p->src = s->path;
	if (p->date_from_mtime && p->kind == CONTENT_POST)
		diag_warn(b->d, s->path, 0, "no date: using the file's "
		    "modification time");
}

static void
load_one(size_t i, void *arg)
{
	struct build *b = arg;
	struct source *s = &b->src[i];
	struct post *p = &b->items[i];
	const struct post *hit;
	struct buf text = BUF_INIT;
	struct stat st;
	uint64_t h;

	/* the scan's stat: a dangling link shows up here as not a file */
	st = s->st;
	if (!S_ISREG(st.st_mode) && stat(s->path, &st) == -1) {
		diag_error(b->d, s->path, 0, "cannot read: %s", strerror(errno));
		return;
	}
	if (!b->force && (hit = srccache_by_stat(b->cache, s->key, &st, &h))) {
		reuse(b, s, p, hit);
		p->text_hash = h;
		s->ok = 1;
		srccache_put(b->cache, i, s->key, &st, h, p);
		goto out;
	}
	/* never read whole what is bound to be refused */
	if ((uint64_t)st.st_size > CONTENT_MAX_BYTES) {
		content_check_bounds(s->path, NULL, (size_t)st.st_size, b->d);
		goto out;
	}
	if (read_stable(b, s, &st, &text) == -1)
		goto out;
	h = hash64(text.ptr, text.len);
	hit = b->force ? NULL : srccache_by_hash(b->cache, s->key, h);
	if (hit != NULL && !hit->date_from_mtime) {
		reuse(b, s, p, hit);
		s->ok = 1;
	} else
		s->ok = content_parse(p, s->kind, s->path, s->rel, text.ptr,
		    text.len, st.st_mtime, &b->c, &b->hooks, b->arena,
		    b->d) == 0;
	if (!s->ok)
		goto out;
	p->text_hash = h;
	if (p->html != NULL)
		content_hashes(p);
	if (!p->code_unlit)
		srccache_put(b->cache, i, s->key, &st, h, p);
out:
	buf_release(&text);
}

/* lastmod from the newest commit that changed the file, where the front
 * matter gives none. */
static void
git_dates(struct build *b)
{
	struct gitinfo *g = gitinfo_load(b->site_dir, b->d);
	size_t i;
	time_t t;

	if (g == NULL)
		return;
	for (i = 0; i < b->nsrc; i++) {
		struct post *p = &b->items[i];

		if (!b->src[i].ok || p->lastmod_given)
			continue;
		if ((t = gitinfo_lastmod(g, b->src[i].path)) != 0 &&
		    t != p->lastmod) {
			p->lastmod = t;
			content_hashes(p);
		}
	}
	gitinfo_free(g);
}

/* Whether the file of entry i of the old list, and its compressed
 * copies where the site has them, are in the output folder. */
static int
check_output(struct build *b, size_t i)
{
	const char *rel = manifest_path_at(b->old, i);
	struct stat st;
	char *path;
	int ok;

	if (fstatat(b->out_fd, rel, &st, 0) == -1)
		return MANIFEST_GONE;
	if (!b->c.precompress_assets || !compress_wanted(rel))
		return MANIFEST_FOUND;
	path = path_join(b->out_dir, rel);
	ok = compress_present(path);
	free(path);
	return ok ? MANIFEST_FOUND : MANIFEST_NO_COPIES;
}

static void *
check_outputs(void *arg)
{
	struct build *b = arg;
	struct stat st;
	size_t i, n = manifest_count(b->old);

	for (i = 0; i < n; i++)
		manifest_set_found(b->old, i, check_output(b, i));
	/* and the capsule's files, which the capsule then need not look
	 * for one at a time */
	n = b->cap_fd != -1 ? manifest_count(b->cap_old) : 0;
	for (i = 0; i < n; i++)
		manifest_set_found(b->cap_old, i, fstatat(b->cap_fd,
		    manifest_path_at(b->cap_old, i), &st, 0) == 0 &&
		    S_ISREG(st.st_mode) ? MANIFEST_FOUND : MANIFEST_GONE);
	return NULL;
}

static void *
load_caches(void *arg)
{
	struct cache_load *cl = arg;
	struct build *b = cl->b;

	manifest_load(b->old, cl->mpath, b->d);
	if (cl->cap_list != NULL) {
		manifest_load(b->cap_old, cl->cap_list, b->d);
		if (!b->force)
			b->cap_fd = open(cl->cap_dir, O_RDONLY | O_DIRECTORY |
			    O_CLOEXEC);
	}
	if (!b->force && (b->out_fd = open(b->out_dir, O_RDONLY |
	    O_DIRECTORY | O_CLOEXEC)) != -1)
		cl->checking = pthread_create(&cl->checker, NULL,
		    check_outputs, b) == 0;
	b->cache = srccache_load(b->force ? NULL : cl->cpath, build_site_id(b),
	    build_parse_hash(b), b->arena, b->d);
	if (!cl->checking && b->out_fd != -1)
		check_outputs(b);
	return NULL;
}

/*
 * Lists the sources while another thread reads the caches (source cache,
 * list of outputs) and a third checks that the files the last build
 * wrote are still there, which the build needs to know whether or not
 * anything changed. The check goes on while the sources are read (see
 * caches_checked): it is waiting on the kernel, reading is not.
 */
void
build_scan(struct build *b, struct cache_load *cl)
{
	b->out_fd = -1;
	b->cap_fd = -1;
	cl->loading = pthread_create(&cl->loader, NULL, load_caches, cl) == 0;
	if (!cl->loading)
		load_caches(cl);
	scan(b, b->c.posts_dir, CONTENT_POST, 0);
	scan(b, b->c.pages_dir, CONTENT_PAGE, 0);
	if (b->o->drafts)
		scan(b, b->c.drafts_dir, CONTENT_POST, 1);
	if (cl->loading)
		pthread_join(cl->loader, NULL);
	cl->loading = 0;
}

/* Waits for the check of the old outputs. */
void
build_checked(struct cache_load *cl)
{
	if (cl->checking)
		pthread_join(cl->checker, NULL);
	cl->checking = 0;
}

/* 1 if p is among this build's posts or pages; 0 if left out as a
 * draft or, for a post, as dated in the future (*draft set). */
int
build_published(const struct build *b, const struct post *p, int *draft)
{
	*draft = (p->draft && !b->o->drafts) || (p->kind != CONTENT_PAGE &&
	    p->date > b->now && !b->o->future);
	return !*draft;
}

int
build_load(struct build *b, size_t threads)
{
	struct post *posts, *pages;
	size_t i, np = 0, ng = 0;
	int draft;

	b->items = xcalloc(b->nsrc + 1, sizeof(*b->items));
	srccache_expect(b->cache, b->nsrc);
	build_progress(b, "read", 0, b->nsrc);
	if (b->o->strict) {
		/* in order, so the first problem is the one reported */
		for (i = 0; i < b->nsrc; i++) {
			load_one(i, b);
			if (!b->src[i].ok)
				return -1;
		}
	} else
		pool_for(threads, b->nsrc, load_one, b);
	build_progress(b, "read", b->nsrc, b->nsrc);
	build_trace("load");
	if (b->c.git_lastmod)
		git_dates(b);

	posts = b->posts = xcalloc(b->nsrc + 1, sizeof(*posts));
	pages = b->pages = xcalloc(b->nsrc + 1, sizeof(*pages));
	for (i = 0; i < b->nsrc; i++) {
		struct post *p = &b->items[i];

		if (!b->src[i].ok) {
			b->st->skipped++;
			continue;
		}
		if (!(b->src[i].published = build_published(b, p, &draft))) {
			b->st->drafts++;
			continue;
		}
		if (p->kind == CONTENT_PAGE)
			pages[ng++] = *p;
		else {
			posts[np] = *p;
			/* built with --drafts: still a draft (its source is
			 * not published) */
			if (b->src[i].from_drafts)
				posts[np].draft = 1;
			np++;
		}
	}
	b->st->posts = np;
	b->st->pages = ng;
	b->np = np;
	b->ng = ng;
	return 0;
}

/* Which site a cache belongs to: its folder's real path. */
uint64_t
build_site_id(const struct build *b)
{
	char real[PATH_MAX];
	const char *p = realpath(b->site_dir, real) ? real : b->site_dir;

	return hash64(p, strlen(p));
}

/* What parsing depends on besides the text: URL formats, time zone,
 * what becomes of raw HTML and whether code is highlighted. */
uint64_t
build_parse_hash(const struct build *b)
{
	struct buf k = BUF_INIT;
	const char *tz = getenv("TZ");
	uint64_t h;
	size_t i;


	buf_printf(&k, "%s\n%s\n%s\n%s\n%s\n%d\n%d\n%d", b->c.url_slug_format,
	    b->c.page_url_format, b->c.timezone, tz ? tz : "", b->c.raw_html,
	    b->c.smart_punctuation, b->c.highlight, b->c.generate_excerpt);
	for (i = 0; i < b->c.slugs.n; i++)
		buf_printf(&k, "\n%s", b->c.slugs.v[i]);
	buf_adds(&k, "\ntag_slugs");
	for (i = 0; i < b->c.tag_slugs.n; i++)
		buf_printf(&k, "\n%s", b->c.tag_slugs.v[i]);
	h = hash64(k.ptr, k.len);
	buf_release(&k);
	return h;
}
