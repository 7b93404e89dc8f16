/*
 * The pages of a build: which of the planned files must be made again
 * (each job's fingerprint against the last build's list), in what order,
 * the bodies they show read back, then each rendered on the pool, its
 * images turned into <picture>s and its bytes handed to the sink of its
 * format's folder. The build's stages call these (build.c).
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "content.h"
#include "diag.h"
#include "fsutil.h"
#include "image_hook.h"
#include "manifest.h"
#include "media.h"
#include "mem.h"
#include "picture.h"
#include "pool.h"
#include "render.h"
#include "siteindex.h"
#include "sink.h"

#include "build_int.h"

/* The line of path that holds text (or its last part), or 0. */
static int
line_of(const char *path, const char *text)
{
	struct buf t = BUF_INIT;
	const char *at = NULL, *q, *base = strrchr(text, '/');
	int line = 0;

	if (fs_read(path, &t) == 0 && t.ptr != NULL) {
		at = strstr(t.ptr, text);
		if (at == NULL && base != NULL && base[1] != '\0')
			at = strstr(t.ptr, base + 1);
		if (at != NULL)
			for (line = 1, q = t.ptr; q < at; q++)
				line += *q == '\n';
	}
	buf_release(&t);
	return line;
}

struct pic_report {
	struct build		*b;
	const struct post	*p;	/* the post or page shown, or NULL */
	const struct media_img	*said[16];	/* GPS told of, on this page */
	size_t			 nsaid;
	int			 bad;	/* an image is missing or broken */
};

/* What a post's images need said, at the post: said once, as a post's
 * own page is the one page that reports (lists show it again). */
static void
pic_report(void *arg, const char *src, const struct media_img *im)
{
	struct pic_report *r = arg;
	const char *file;

	if (r->p == NULL)
		return;
	file = r->p->src;
	if (im == NULL || im->err != NULL)
		r->bad = 1;
	if (im == NULL)
		diag_error(r->b->d, file, line_of(file, src), "image %s: "
		    "static/ has no such file", src);
	else if (im->err != NULL)
		diag_error(r->b->d, file, line_of(file, src), "image %s: %s",
		    src, im->err);
	else if ((im->flags & MEDIA_GPS) && !r->b->c.image_keep_originals) {
		size_t i;

		for (i = 0; i < r->nsaid; i++)
			if (r->said[i] == im)
				return;
		if (r->nsaid < sizeof(r->said) / sizeof(r->said[0]))
			r->said[r->nsaid++] = im;
		diag_add(r->b->d, DIAG_NOTE, file, line_of(file, src),
		    "image %s holds a GPS position: published without it, "
		    "and without its other metadata", src);
	}
}

/* A rendered HTML page's images as <picture>s (picture.h). Returns 1
 * when the page shows an image that is missing or cannot be published. */
static int
pictures(struct build *b, const struct page_job *j, struct buf *page)
{
	struct picture_ctx c;
	struct pic_report r;
	struct buf out = BUF_INIT;
	const char *x = strrchr(j->out_path, '.');

	if (!media_on(b->media) || x == NULL || strcmp(x, ".html") != 0 ||
	    strstr(page->ptr, "<img") == NULL)
		return 0;
	memset(&r, 0, sizeof(r));
	r.b = b;
	r.p = render_subject(b->render, j);
	memset(&c, 0, sizeof(c));
	c.m = b->media;
	c.site_url = b->c.site_url;
	c.base = config_base_path(&b->c);
	c.page_url = j->url;
	c.report = pic_report;
	c.arg = &r;
	if (picture_rewrite(&out, page->ptr, page->len, &c) > 0) {
		buf_release(page);
		*page = out;
	} else
		buf_release(&out);
	return r.bad;
}

static void
hook_ctx(struct build *b, struct picture_ctx *c, const char *page_url)
{
	memset(c, 0, sizeof(*c));
	c->m = b->media;
	c->site_url = b->c.site_url;
	c->base = config_base_path(&b->c);
	c->page_url = page_url;
}

static int
image_copy(void *arg, const char *src, const char *page_url,
    enum image_use use, struct buf *url, int *w, int *h)
{
	struct picture_ctx c;

	hook_ctx(arg, &c, page_url);
	return picture_copy(&c, src, use, url, w, h);
}

static void
image_feed_html(void *arg, struct buf *out, const char *html, size_t n,
    const char *page_url)
{
	struct picture_ctx c;

	hook_ctx(arg, &c, page_url);
	c.feed = 1;
	picture_rewrite(out, html, n, &c);
}

static long long
image_bytes(void *arg, const char *src, const char *page_url,
    enum image_use use)
{
	struct build *b = arg;
	struct picture_ctx c;
	char *dir = build_path(b, b->c.static_dir);
	long long n;

	hook_ctx(b, &c, page_url);
	n = picture_bytes(&c, src, use, dir);
	free(dir);
	return n;
}

/* What feeds, link previews and the capsule show of the images; with
 * images off, only the size of each as published (RSS enclosures). */
const struct image_hook *
build_image_hook(struct build *b)
{
	b->images.bytes = image_bytes;
	b->images.arg = b;
	if (!media_on(b->media)) {
		b->images.copy = NULL;
		b->images.feed_html = NULL;
		b->images.hash = 0;
		return &b->images;
	}
	b->images.copy = image_copy;
	b->images.feed_html = image_feed_html;
	b->images.arg = b;
	b->images.hash = media_hash(b->media);
	return &b->images;
}

/* The capsule's files fail apart: the HTML pages' errors (a missing
 * image) do not keep a deleted post's .gmi in the capsule. */
static void
render_failed(struct build *b, const struct page_job *j)
{
	if (render_format(j->kind) == FORMAT_GEMINI)
		__atomic_store_n(&b->cap_failed, 1, __ATOMIC_RELAXED);
	else
		__atomic_store_n(&b->failed, 1, __ATOMIC_RELAXED);
}

static void
render_one(size_t i, void *arg)
{
	struct build *b = arg;
	struct page_job *j = &b->jobs[b->dirty[i].job];
	struct buf out = BUF_INIT, err = BUF_INIT;
	int changed = 1, rc = render_page(b->render, j, &out, &err), bad = 0;
	int gem = render_format(j->kind) == FORMAT_GEMINI;

	if (rc == 0)
		bad = pictures(b, j, &out);
	if (rc == -1) {
		diag_error(b->d, j->out_path, 0, "%s", err.ptr);
		render_failed(b, j);
	} else if (sink_bytes(gem ? &b->cap : &b->out, j->out_path, out.ptr,
	    out.len,
	    /* a page with a bad image is made again, and its errors said
	     * again, until the image is fixed: its fingerprint is one no
	     * page has (but 1 in 2^64) */
	    bad ? 1 : b->fps[b->dirty[i].job], render_base(b->render, j->kind),
	    /* a Markdown source goes into the folder its page made */
	    (gem ? b->cap_fresh : b->fresh) ? SINK_CREATE |
	    (render_order(j->kind) == ORDER_AFTER ? SINK_DIR_THERE : 0) : 0,
	    &changed) == -1)
		render_failed(b, j);
	else if (changed && !gem)
		__atomic_add_fetch(&b->st->written, 1, __ATOMIC_RELAXED);
	buf_release(&out);
	buf_release(&err);
	if (__atomic_add_fetch(&b->done, 1, __ATOMIC_RELAXED) % 64 == 0)
		build_progress(b, "render", b->done, b->ndirty);
}

/* Why job i must be rendered, or NULL when its file is current. */
static void
judge_one(size_t i, void *arg)
{
	struct build *b = arg;
	struct page_job *j = &b->jobs[i];
	uint64_t base = render_base(b->render, j->kind), ofp, obase;
	struct manifest *old = render_format(j->kind) == FORMAT_GEMINI ?
	    b->cap_old : b->old;
	const char *why;
	int found;

	b->fps[i] = render_fingerprint(b->render, j);
	if (b->force)
		why = "forced (--force or clean_output)";
	else if (!manifest_get(old, j->out_path, &ofp, &obase, &found))
		why = "new page";
	else if (found != MANIFEST_FOUND && found != MANIFEST_NO_COPIES)
		why = "its file is missing";
	else if (obase != base && ofp != b->fps[i])
		why = "templates, theme or settings changed";
	else if (ofp != b->fps[i])
		why = "content it shows changed";
	else if (found == MANIFEST_NO_COPIES)
		why = "compressed copies missing";
	else
		why = NULL;
	b->whys[i] = why;
}

/*
 * Puts lists (tag pages, feeds, the sitemap: one can hold thousands of
 * posts) before the single pages: the workers end together instead of one
 * rendering the largest page last. The single pages, in date order, are
 * dealt from the two halves in turn: pages next to each other share their
 * folders, and two workers making entries in one folder wait on its lock.
 * Published Markdown sources come last, into the folders their pages
 * made. Which page is written when does not change any page.
 */
static void
big_first(struct build *b)
{
	struct dirty *v = xcalloc(b->ndirty + 1, sizeof(*v)), *single, *md;
	size_t i, n = 0, ns = 0, nm = 0, half;

	single = xcalloc(b->ndirty + 1, sizeof(*single));
	md = xcalloc(b->ndirty + 1, sizeof(*md));
	for (i = 0; i < b->ndirty; i++) {
		switch (render_order(b->jobs[b->dirty[i].job].kind)) {
		case ORDER_SINGLE:
			single[ns++] = b->dirty[i];
			break;
		case ORDER_AFTER:
			md[nm++] = b->dirty[i];
			break;
		case ORDER_LIST:
			v[n++] = b->dirty[i];
			break;
		}
	}
	half = (ns + 1) / 2;
	for (i = 0; i < half; i++) {
		v[n++] = single[i];
		if (half + i < ns)
			v[n++] = single[half + i];
	}
	for (i = 0; i < nm; i++)
		v[n++] = md[i];
	free(single);
	free(md);
	free(b->dirty);
	b->dirty = v;
}

/*
 * Decides which pages to render: those whose fingerprint differs from the
 * one recorded when their file was written, or whose file is gone. The
 * others are carried over to this build's manifest as they are.
 */
void
build_plan_dirty(struct build *b, size_t threads)
{
	struct buf name = BUF_INIT;
	size_t i;

	b->fps = xcalloc(b->njobs + 1, sizeof(*b->fps));
	b->whys = xcalloc(b->njobs + 1, sizeof(*b->whys));
	b->dirty = xcalloc(b->njobs + 1, sizeof(*b->dirty));
	manifest_index(b->old);
	manifest_index(b->cap_old);
	pool_for(threads, b->njobs, judge_one, b);
	for (i = 0; i < b->njobs; i++) {
		const struct page_job *j = &b->jobs[i];
		int gem = render_format(j->kind) == FORMAT_GEMINI;

		if (b->whys[i] == NULL) {
			manifest_add(gem ? b->cap_list : b->manifest,
			    j->out_path, b->fps[i],
			    render_base(b->render, j->kind));
			continue;
		}
		b->dirty[b->ndirty].job = i;
		b->dirty[b->ndirty].why = b->whys[i];
		b->ndirty++;
		if (!gem)
			b->st->rendered++;
		if (b->o->explain) {
			/* a capsule file by its folder's name */
			buf_clear(&name);
			buf_printf(&name, "%s%s%s", gem ?
			    b->c.gemini_output_dir : "", gem ? "/" : "",
			    j->out_path);
			b->o->explain(name.ptr, b->whys[i], b->o->explain_arg);
		}
	}
	buf_release(&name);
	big_first(b);
}

/* Posts whose body a page about to be rendered shows. */
static void
mark_needed(struct build *b)
{
	size_t i;

	for (i = 0; i < b->ndirty; i++)
		render_mark_needed(b->render, &b->jobs[b->dirty[i].job]);
}

static void
body_one(size_t i, void *arg)
{
	struct build *b = arg;
	struct post *p = i < b->ix.nposts ? b->ix.posts[i] :
	    i < b->ix.nposts + b->ix.npages ? b->ix.pages[i - b->ix.nposts] :
	    b->ix.home;

	if (p != NULL && p->need_html && p->html == NULL &&
	    content_html(p, &b->c, &b->hooks, b->arena, b->d) == -1)
		b->failed = 1;
}

/* Bodies of cached posts that pages to render show, read again from
 * their sources. Returns -1 if one could not be (then nothing renders). */
int
build_load_bodies(struct build *b, size_t threads)
{
	mark_needed(b);
	pool_for(threads, b->ix.nposts + b->ix.npages + 1, body_one, b);
	return b->failed ? -1 : 0;
}

void
build_render_pages(struct build *b, size_t threads)
{
	build_progress(b, "render", 0, b->ndirty);
	pool_for(threads, b->ndirty, render_one, b);
	build_progress(b, "render", b->ndirty, b->ndirty);
}
