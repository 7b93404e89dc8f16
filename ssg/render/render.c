#include "render.h"

#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "content.h"
#include "datetime.h"
#include "escape.h"
#include "gemtext.h"
#include "image_hook.h"
#include "locale.h"
#include "markdown.h"
#include "mem.h"
#include "page_kind.h"
#include "render_int.h"
#include "siteindex.h"
#include "template.h"
#include "value.h"

#ifndef SSG_VERSION
#define SSG_VERSION "0.1"
#endif

const char *
tr(const struct render *r, const char *key)
{
	return locale_get(r->l, key);
}

void
set_href(const struct render *r, struct val *m, const char *key,
    const char *path)
{
	struct buf b = BUF_INIT;

	buf_adds(&b, r->base);
	buf_adds(&b, path);
	val_set(m, key, val_str_own(buf_detach(&b, NULL)));
}

void
set_abs(const struct render *r, struct val *m, const char *key,
    const char *path)
{
	struct buf b = BUF_INIT;

	buf_adds(&b, r->c->site_url);
	buf_adds(&b, path);
	val_set(m, key, val_str_own(buf_detach(&b, NULL)));
}

/* A featured image: site-relative paths get the base path. */
static void
set_image(const struct render *r, struct val *m, const struct post *p)
{
	if (p->image == NULL)
		return;
	if (p->image[0] == '/' && p->image[1] != '/')
		set_href(r, m, "image", p->image);
	else
		val_set_str(m, "image", p->image);
	val_set_str(m, "image_caption", p->image_caption);
	val_set_str(m, "image_alt", p->image_caption ? p->image_caption :
	    p->title);
}

/* The absolute URL of a featured image, for feeds and link previews. */
void
render_abs_image(const struct render *r, struct buf *out,
    const char *image, const char *page_url, int *w, int *h)
{
	struct buf u = BUF_INIT;

	*w = *h = 0;
	if (r->images != NULL && r->images->copy != NULL &&
	    r->images->copy(r->images->arg, image, page_url, IMAGE_SHARE, &u,
	    w, h) == 0)
		image = u.ptr;
	else
		*w = *h = 0;
	if (image[0] == '/' && image[1] != '/')
		buf_adds(out, r->c->site_url);
	buf_adds(out, image);
	buf_release(&u);
}

void
render_set_images(struct render *r, const struct image_hook *h)
{
	r->images = h;
}

static struct val *
tag_list(const struct render *r, const struct post *p)
{
	struct val *list = val_list(), *t;
	const struct tag_info *ti;
	size_t i;

	for (i = 0; i < p->ntags; i++) {
		if ((ti = siteindex_tag(r->ix, p->tags[i].slug)) == NULL)
			continue;
		t = val_map();
		/* one spelling per tag across the site */
		val_set_ref(t, "name", ti->name);
		val_set_ref(t, "url", r->tag_href[ti - r->ix->tags]);
		val_push(list, t);
	}
	return list;
}

static void ready(const struct render *, const struct post *);
static void fill_numbers(struct buf *, const char *, const size_t *, size_t);
static struct val *make_post_map(const struct render *, const struct post *,
    int);

struct val *
post_map(const struct render *r, const struct post *p, int full)
{
	ready(r, p);
	/* as lists show it: made once, shown through views */
	if (!full && p->d_item != NULL)
		return val_view(p->d_item);
	return make_post_map(r, p, full);
}

static struct val *
make_post_map(const struct render *r, const struct post *p, int full)
{
	struct val *m = val_map();

	val_set_ref(m, "title", p->title);
	val_set_ref(m, "url", p->d_href);
	val_set_ref(m, "permalink", p->d_permalink);
	val_set_ref(m, "slug", p->slug);
	val_set_ref(m, "date", p->d_date);
	val_set_ref(m, "date_iso", p->d_date_iso);
	val_set_ref(m, "lastmod", p->d_lastmod);
	val_set_ref(m, "lastmod_iso", p->d_lastmod_iso);
	val_set_ref(m, "date_tz", p->d_date_tz);
	val_set_ref(m, "day", p->d_day);
	/* as BSSG: updated when the dates differ as shown */
	val_set_lit(m, "updated", val_bool(strcmp(p->d_date, p->d_lastmod) != 0));
	val_set_ref(m, "author_name", siteindex_author(r->ix, p));
	val_set_ref(m, "author_url", p->d_author_href);
	val_set_ref(m, "description", p->description);
	val_set_ref(m, "excerpt", p->excerpt);
	val_set_lit(m, "reading_time", val_num(reading_minutes(p->words)));
	{
		struct buf rt = BUF_INIT;
		size_t mins = (size_t)reading_minutes(p->words);

		fill_numbers(&rt, locale_bssg(r->l, "reading_time_template"),
		    &mins, 1);
		val_set_str(m, "reading_text", rt.ptr ? rt.ptr : "");
		buf_release(&rt);
	}
	val_set_lit(m, "tags", tag_list(r, p));
	val_set_lit(m, "has_tags", val_bool(p->ntags > 0));
	val_set_lit(m, "full_content", val_bool(full));
	/* Its twin in the Gemini capsule (the capsule leaves HTML out). */
	if (full && r->c->gemini && r->c->gemini_url[0] != '\0' &&
	    !p->is_html) {
		struct buf g = BUF_INIT;

		buf_adds(&g, r->c->gemini_url);
		gemtext_url(&g, p->url);
		val_set_str(m, "gemini_url", g.ptr);
		buf_release(&g);
	}
	/* and its Markdown source, published beside it */
	if (full && content_publishes_source(p, r->c)) {
		struct buf u = BUF_INIT;

		buf_printf(&u, "%s/", r->base);
		content_source_path(&u, p);
		val_set_str(m, "source_url", u.ptr);
		buf_release(&u);
	}
	val_set_lit(m, "has_formats", val_bool(val_get(m, "gemini_url") !=
	    NULL || val_get(m, "source_url") != NULL));
	if (full || p->kind == CONTENT_PAGE)
		val_set_ref(m, "content", p->html);
	set_image(r, m, p);
	return m;
}

/* The strings every list shows of a post, made once. */
static void
prepare_post(const struct render *r, struct post *p)
{
	const struct author_info *a;
	const char *author = siteindex_author(r->ix, p);
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s%s", r->base, p->url);
	p->d_href = arena_strdup(r->a, b.ptr);
	buf_clear(&b);
	buf_printf(&b, "%s%s", r->c->site_url, p->url);
	p->d_permalink = arena_strdup(r->a, b.ptr);
	buf_clear(&b);
	dt_format(&b, p->date, r->c->date_format, r->c->show_timezone);
	p->d_date = arena_strdup(r->a, b.ptr);
	buf_clear(&b);
	dt_rfc3339(&b, p->date);
	p->d_date_iso = arena_strdup(r->a, b.ptr);
	buf_clear(&b);
	dt_format(&b, p->lastmod, r->c->date_format, r->c->show_timezone);
	p->d_lastmod = arena_strdup(r->a, b.ptr);
	buf_clear(&b);
	dt_rfc3339(&b, p->lastmod);
	p->d_lastmod_iso = arena_strdup(r->a, b.ptr);
	buf_clear(&b);
	dt_format(&b, p->date, r->c->date_format, 1);
	p->d_date_tz = arena_strdup(r->a, b.ptr);
	buf_clear(&b);
	dt_format(&b, p->date, "%Y-%m-%d", 0);
	p->d_day = arena_strdup(r->a, b.ptr);
	p->d_author_href = NULL;
	p->d_item = NULL;
	if (r->c->enable_author_pages && p->kind == CONTENT_POST &&
	    (a = siteindex_author_info(r->ix, author)) != NULL) {
		buf_clear(&b);
		buf_printf(&b, "%s/authors/%s/", r->base, a->slug);
		p->d_author_href = arena_strdup(r->a, b.ptr);
	}
	buf_release(&b);
}

/* Makes p's strings on first use: a build with nothing to render makes
 * none. Several workers may ask at once; one makes them, the rest wait. */
static void
ready(const struct render *r, const struct post *cp)
{
	struct post *p = (struct post *)cp;
	int expect = 0;

	if (atomic_load_explicit(&p->d_ready, memory_order_acquire) == 2)
		return;
	if (atomic_compare_exchange_strong(&p->d_ready, &expect, 1)) {
		prepare_post(r, p);
		p->d_item = make_post_map(r, p, 0);
		atomic_store_explicit(&p->d_ready, 2, memory_order_release);
		return;
	}
	while (atomic_load_explicit(&p->d_ready, memory_order_acquire) != 2)
		sched_yield();
}

struct val *
post_list(const struct render *r, struct post *const *posts, size_t n,
    int full)
{
	struct val *list = val_list();
	size_t i;

	for (i = 0; i < n; i++)
		val_push(list, post_map(r, posts[i], full));
	return list;
}

static void
menu_item(const struct render *r, struct val *list, const char *title,
    const char *url, int current)
{
	struct val *it = val_map();

	val_set_str(it, "title", title);
	set_href(r, it, "url", url);
	val_set_bool(it, "current", current);
	val_push(list, it);
}

static int
cmp_src(const void *a, const void *b)
{
	return strcmp((*(struct post *const *)a)->src,
	    (*(struct post *const *)b)->src);
}

/*
 * The header's menu with the current page marked, and the footer's, in
 * BSSG's orders (templates.sh): Home, the pages in file order, Pages,
 * then Tags, Authors, Archives, (ssg's) Search and RSS in the header;
 * Archives, Tags, Authors and "Subscribe via RSS" in the footer.
 */
static void
menus(const struct render *r, const char *current, struct val *top)
{
	const struct site_index *ix = r->ix;
	struct val *head = val_list(), *foot = val_list();
	struct post **pages = xcalloc(ix->npages + 1, sizeof(*pages));
	struct buf rss = BUF_INIT;
	size_t i, n = 0;
	int archives = r->c->enable_archives && ix->nposts > 0;

	for (i = 0; i < ix->npages; i++)
		if (!ix->pages[i]->secondary)
			pages[n++] = ix->pages[i];
	xqsort(pages, n, sizeof(*pages), cmp_src);
	menu_item(r, head, tr(r, "home"), "/", strcmp(current, "/") == 0);
	menu_item(r, foot, tr(r, "home"), "/", 0);
	for (i = 0; i < n; i++) {
		menu_item(r, head, pages[i]->title, pages[i]->url,
		    strcmp(current, pages[i]->url) == 0);
		menu_item(r, foot, pages[i]->title, pages[i]->url, 0);
	}
	free(pages);
	if (ix->nsecondary > 0) {
		menu_item(r, head, tr(r, "pages"), "/pages.html",
		    strcmp(current, "/pages.html") == 0);
		menu_item(r, foot, tr(r, "pages"), "/pages.html", 0);
	}
	if (ix->ntags > 0)
		menu_item(r, head, tr(r, "tags"), "/tags/",
		    strncmp(current, "/tags/", 6) == 0);
	if (r->authors_menu)
		menu_item(r, head, tr(r, "authors"), "/authors/",
		    strncmp(current, "/authors/", 9) == 0);
	if (archives) {
		menu_item(r, head, tr(r, "archives"), "/archives/",
		    strncmp(current, "/archives/", 10) == 0);
		menu_item(r, foot, tr(r, "archives"), "/archives/", 0);
	}
	/* ssg's own: BSSG has no search, and imported sites keep it off */
	if (r->c->search)
		menu_item(r, head, tr(r, "search_title"), "/search/",
		    strncmp(current, "/search/", 8) == 0);
	buf_printf(&rss, "/%s", r->c->rss_filename);
	menu_item(r, head, locale_bssg(r->l, "rss"), rss.ptr, 0);
	if (ix->ntags > 0)
		menu_item(r, foot, tr(r, "tags"), "/tags/", 0);
	if (r->authors_menu)
		menu_item(r, foot, tr(r, "authors"), "/authors/", 0);
	menu_item(r, foot, locale_bssg(r->l, "subscribe_rss"), rss.ptr, 0);
	buf_release(&rss);
	/* the footer's items are joined by " · " */
	for (i = 0; i + 1 < val_len(foot); i++)
		val_set_bool((struct val *)val_at(foot, i), "sep", 1);
	val_set(top, "menu", head);
	val_set(top, "footer_menu", foot);
}

/*
 * The fediverse:creator of a page, as BSSG 0.32 resolves it: the post's
 * own, else its author's in author_fediverse_creators, else the site's.
 * Pages other than posts resolve it for the site's author_name.
 */
const char *
render_fediverse_creator(const struct render *r, const char *own,
    const char *author)
{
	const char *v;

	if (own != NULL && *own != '\0')
		return own;
	if (author != NULL && (v = config_map_get(
	    &r->c->author_fediverse_creators, author)) != NULL && *v != '\0')
		return v;
	return r->c->fediverse_creator[0] != '\0' ? r->c->fediverse_creator :
	    NULL;
}

struct val *
page_ctx(const struct render *r, const char *kind, const char *title,
    const char *description, const char *url)
{
	struct val *top = val_map(), *page = val_map();
	const char *fc = render_fediverse_creator(r, NULL,
	    r->c->author_name);

	val_set_str(page, "kind", kind);
	val_set_str(page, "title", title);
	val_set_str(page, "description", description && *description ?
	    description : r->c->site_description);
	set_abs(r, page, "canonical", url);
	val_set_str(page, "og_type", "website");
	if (fc != NULL)
		val_set_str(page, "fediverse_creator", fc);
	val_set(top, "page", page);
	menus(r, url, top);
	return top;
}

/* The page map inside a top context, to add to it. */
static struct val *
page_of(struct val *top)
{
	return (struct val *)val_get(top, "page");
}

static void
json_field(struct buf *b, const char *key, const char *value)
{
	if (value == NULL)
		return;
	buf_printf(b, ",\"%s\":\"", key);
	esc_json(b, value, strlen(value));
	buf_addc(b, '"');
}

/* Link previews and structured data of a post page. */
static void
post_meta(const struct render *r, struct val *page, const struct post *p)
{
	struct buf j = BUF_INIT, t = BUF_INIT, img = BUF_INIT;
	const char *author = siteindex_author(r->ix, p), *fc;

	val_set_str(page, "og_type", p->kind == CONTENT_POST ? "article" :
	    "website");
	if (p->kind == CONTENT_POST &&
	    (fc = render_fediverse_creator(r, p->fediverse_creator,
	    author)) != NULL)
		val_set_str(page, "fediverse_creator", fc);
	if (p->image != NULL) {
		int w, h;

		render_abs_image(r, &img, p->image, p->url, &w, &h);
		val_set_str(page, "image", img.ptr);
		if (w > 0) {
			val_set_num(page, "image_width", w);
			val_set_num(page, "image_height", h);
		}
	}
	buf_adds(&j, "{\"@context\":\"https://schema.org\",\"@type\":\"");
	buf_adds(&j, p->kind == CONTENT_POST ? "BlogPosting" : "WebPage");
	buf_addc(&j, '"');
	json_field(&j, "headline", p->title);
	json_field(&j, "description", *p->description ? p->description :
	    r->c->site_description);
	buf_printf(&t, "%s%s", r->c->site_url, p->url);
	json_field(&j, "url", t.ptr);
	json_field(&j, "mainEntityOfPage", t.ptr);
	if (p->kind == CONTENT_POST) {
		buf_clear(&t);
		dt_rfc3339(&t, p->date);
		json_field(&j, "datePublished", t.ptr);
		buf_clear(&t);
		dt_rfc3339(&t, p->lastmod);
		json_field(&j, "dateModified", t.ptr);
		buf_adds(&j, ",\"author\":{\"@type\":\"Person\"");
		json_field(&j, "name", author);
		json_field(&j, "email", siteindex_author_email(r->ix, p));
		buf_addc(&j, '}');
	}
	if (img.len > 0)
		json_field(&j, "image", img.ptr);
	if (p->ntags > 0) {
		size_t i;

		buf_adds(&j, ",\"keywords\":\"");
		for (i = 0; i < p->ntags; i++) {
			if (i > 0)
				buf_adds(&j, ", ");
			esc_json(&j, p->tags[i].name, strlen(p->tags[i].name));
		}
		buf_addc(&j, '"');
	}
	buf_addc(&j, '}');
	val_set(page, "jsonld", val_str_own(buf_detach(&j, NULL)));
	buf_release(&t);
	buf_release(&img);
}

static void
website_meta(const struct render *r, struct val *page)
{
	struct buf j = BUF_INIT;

	buf_adds(&j, "{\"@context\":\"https://schema.org\",\"@type\":\"WebSite\"");
	json_field(&j, "name", r->c->site_title);
	json_field(&j, "description", r->c->site_description);
	buf_printf(&j, ",\"url\":\"");
	esc_json(&j, r->c->site_url, strlen(r->c->site_url));
	buf_adds(&j, "/\"}");
	val_set(page, "jsonld", val_str_own(buf_detach(&j, NULL)));
}

int
render_tmpl(const struct render *r, const char *name, struct val *top,
    struct buf *out, struct buf *err)
{
	const struct val *stack[2] = { r->site, top };
	int rc;

	rc = tmpl_render_err(r->t, name, stack, 2, out, err);
	if (rc == -1)
		buf_printf(err, "template '%s' not found", name);
	else if (rc == 1)
		rc = -1;	/* cut short: err says where */
	val_free(top);
	return rc;
}

static struct val *
link_map(const struct render *r, const struct post *p)
{
	struct val *m = val_map();

	ready(r, p);
	val_set_ref(m, "title", p->title);
	val_set_ref(m, "url", p->d_href);
	return m;
}

/* A related post's description as BSSG shows it: over 120 characters,
 * its first 117 and "...". */
static void
related_summary(struct val *m, const char *desc)
{
	size_t i = 0, chars = 0, cut = 0;

	if (desc == NULL || *desc == '\0')
		return;
	for (; desc[i] != '\0'; i++)
		if (((unsigned char)desc[i] & 0xC0) != 0x80 && ++chars == 118)
			cut = i;
	if (chars <= 120) {
		val_set_str(m, "summary", desc);
		return;
	}
	{
		struct buf b = BUF_INIT;

		buf_add(&b, desc, cut);
		buf_adds(&b, "...");
		val_set_str(m, "summary", b.ptr);
		buf_release(&b);
	}
}

int
render_post(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	const struct post *p = r->ix->posts[j->arg];
	struct val *top, *pm, *rel;
	size_t i;

	top = page_ctx(r, "post", p->title, p->description, p->url);
	post_meta(r, page_of(top), p);
	pm = post_map(r, p, 1);
	/* posts are newest first: the previous post is the older one */
	if (j->arg + 1 < r->ix->nposts)
		val_set(pm, "prev", link_map(r, r->ix->posts[j->arg + 1]));
	if (j->arg > 0)
		val_set(pm, "next", link_map(r, r->ix->posts[j->arg - 1]));
	val_set_bool(pm, "has_neighbours", r->ix->nposts > 1);
	if (r->c->enable_related_posts && p->nrelated > 0) {
		rel = val_list();
		for (i = 0; i < p->nrelated; i++) {
			struct val *m = link_map(r, p->related[i]);

			related_summary(m, p->related[i]->description);
			val_push(rel, m);
		}
		val_set(pm, "related", rel);
		val_set_bool(pm, "has_related", 1);
	}
	val_set(top, "post", pm);
	return render_tmpl(r, "post", top, out, err);
}

int
render_one_page(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	int home = j->arg == (size_t)-1;
	const struct post *p = home ? r->ix->home : r->ix->pages[j->arg];
	struct val *top;

	/* a page's own description, else the site's (as BSSG: not the
	 * excerpt) */
	top = page_ctx(r, "page", home ? NULL : p->title,
	    p->description == p->excerpt ? NULL : p->description,
	    home ? "/" : p->url);
	post_meta(r, page_of(top), p);
	if (home)
		website_meta(r, page_of(top));
	val_set(top, "post", post_map(r, p, 1));
	return render_tmpl(r, "page", top, out, err);
}

/* BSSG's message template t with its %d filled from nums in order (read
 * as text, never as a printf format: a site's locale supplies it). */
static void
fill_numbers(struct buf *b, const char *t, const size_t *nums, size_t n)
{
	const char *d;
	size_t k = 0;

	while ((d = strstr(t, "%d")) != NULL) {
		buf_add(b, t, (size_t)(d - t));
		if (k < n)
			buf_printf(b, "%zu", nums[k++]);
		t = d + 2;
	}
	buf_adds(b, t);
}

/* "Page 2 of 5". */
static void
page_info(const struct render *r, struct val *pg, size_t page, size_t total)
{
	struct buf b = BUF_INIT;
	size_t nums[2] = { page, total };

	fill_numbers(&b, locale_bssg(r->l, "page_info_template"), nums, 2);
	val_set_str(pg, "info", b.ptr ? b.ptr : "");
	buf_release(&b);
}

static void
set_pagination(const struct render *r, struct val *top, size_t page,
    size_t total)
{
	struct val *pg;
	struct buf b = BUF_INIT;

	if (total < 2)
		return;
	pg = val_map();
	val_set_num(pg, "current", (double)page);
	val_set_num(pg, "total", (double)total);
	page_info(r, pg, page, total);
	if (page > 1) {
		if (page == 2)
			buf_adds(&b, "/");
		else
			buf_printf(&b, "/page/%zu/", page - 1);
		set_href(r, pg, "prev_url", b.ptr);
	}
	if (page < total) {
		buf_clear(&b);
		buf_printf(&b, "/page/%zu/", page + 1);
		set_href(r, pg, "next_url", b.ptr);
	}
	val_set(top, "pagination", pg);
	buf_release(&b);
}

int
render_home(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	size_t per = (size_t)r->c->posts_per_page, first, n, page = j->arg;
	struct val *top;

	/* the head as BSSG's: "Home", "SITE - Page 2" */
	top = render_list_ctx(r, j, "home");
	if (page == 1)
		website_meta(r, page_of(top));
	first = (page - 1) * per;
	n = first >= r->ix->nposts ? 0 : r->ix->nposts - first;
	if (n > per)
		n = per;
	val_set(top, "posts", post_list(r, r->ix->posts + first, n,
	    r->c->index_show_full_content));
	set_pagination(r, top, page, r->home_pages);
	return render_tmpl(r, "index", top, out, err);
}

int
render_404(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	(void)j;
	return render_tmpl(r, "404", page_ctx(r, "404",
	    tr(r, "not_found_title"), NULL, "/404.html"), out, err);
}

/* The search page: a form that works as /search/?q=words, filled in by
 * search.js; without it, links to the lists that find posts. */
int
render_search(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	static const char *const msgs[] = { "search_empty", "search_none",
	    "search_too_long", "search_results", "search_error",
	    "search_no_words" };
	struct val *top = page_ctx(r, "search", tr(r, "search_title"), NULL,
	    j->url), *s = val_map();
	size_t i;

	set_href(r, s, "script_url", r->script_url[0] != '\0' ?
	    r->script_url : "/search/search.js");
	set_href(r, s, "index_url", "/search/");
	if (r->c->enable_archives && r->ix->nposts > 0)
		set_href(r, s, "archives_url", "/archives/");
	if (r->ix->ntags > 0)
		set_href(r, s, "tags_url", "/tags/");
	for (i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++)
		val_set_str(s, msgs[i], tr(r, msgs[i]));
	val_set(top, "search", s);
	return render_tmpl(r, "search", top, out, err);
}

/* The post or page of a PAGE_SOURCE job. */
const struct post *
render_source_post(const struct render *r, const struct page_job *j)
{
	if (j->arg == (size_t)-1)
		return r->ix->home;
	return j->arg < r->ix->nposts ? r->ix->posts[j->arg] :
	    r->ix->pages[j->arg - r->ix->nposts];
}

int
render_source(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	return content_source_text(render_source_post(r, j), out, err);
}

int
render_page(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	int rc;

	/* a BSSG site's header and footer frame every HTML page */
	if (r->frame == NULL || page_kinds[j->kind].head == NULL)
		return page_kinds[j->kind].render(r, j, out, err);
	render_frame_header(r, j, out);
	rc = page_kinds[j->kind].render(r, j, out, err);
	render_frame_footer(r, j, out);
	return rc;
}

void
render_set_stylesheet(struct render *r, uint64_t hash, uint64_t custom,
    uint64_t script)
{
	char path[64];
	struct buf own = BUF_INIT;

	xsnprintf(path, sizeof(path), "/css/style.css?v=%08x",
	    (unsigned)(hash >> 32));
	set_href(r, r->site, "css_url", path);
	if (custom != 0 && r->c->custom_css[0] == '/' &&
	    strchr(r->c->custom_css, '?') == NULL) {
		buf_printf(&own, "%s?v=%08x", r->c->custom_css,
		    (unsigned)(custom >> 32));
		set_href(r, r->site, "custom_css_url", own.ptr);
	}
	if (script != 0)
		xsnprintf(r->script_url, sizeof(r->script_url),
		    "/search/search.js?v=%08x", (unsigned)(script >> 32));
	buf_release(&own);
}

struct render *
render_new(const struct site_config *c, const struct site_index *ix,
    const struct tmpl_set *t, const struct locale *l, time_t now)
{
	struct render *r = xcalloc(1, sizeof(*r));
	struct val *site;
	struct buf b = BUF_INIT;
	size_t i;
	int y, m, d;

	r->c = c;
	r->ix = ix;
	r->t = t;
	r->l = l;
	r->base = config_base_path(c);
	r->home_pages = (ix->nposts + (size_t)c->posts_per_page - 1) /
	    (size_t)c->posts_per_page;
	if (r->home_pages == 0)
		r->home_pages = 1;
	r->authors_menu = c->enable_author_pages && ix->nauthors > 0 &&
	    ix->nauthors >= (size_t)c->show_authors_menu_threshold;
	r->site = val_map();
	site = val_map();
	val_set_str(site, "title", c->site_title);
	val_set_str(site, "description", c->site_description);
	val_set_str(site, "url", c->site_url);
	val_set_str(site, "lang", c->site_lang);
	val_set_str(site, "author_name", c->author_name);
	val_set_str(site, "author_email", c->author_email);
	val_set_str(site, "theme", c->theme);
	val_set_lit(site, "hide_menu", val_bool(c->hide_menu));
	val_set_lit(site, "hide_reading_time", val_bool(c->hide_reading_time));
	val_set_lit(site, "hide_index_descriptions",
	    val_bool(c->hide_index_descriptions));
	val_set_str(site, "generator", "ssg " SSG_VERSION);
	if (c->theme_color[0] != '\0')
		val_set_str(site, "theme_color", c->theme_color);
	set_href(r, site, "home_url", "/");
	buf_printf(&b, "/%s", c->rss_filename);
	set_href(r, site, "rss_url", b.ptr);
	set_href(r, site, "atom_url", "/atom.xml");
	set_href(r, site, "tags_url", "/tags/");
	dt_ymd(now, &y, &m, &d);
	val_set_num(site, "year", y);
	r->year = y;
	if (c->rel_me.n > 0) {
		struct val *list = val_list();

		/* each URL once (config keeps lists so), as BSSG writes them */
		for (i = 0; i < c->rel_me.n; i++)
			val_push(list, val_str(c->rel_me.v[i]));
		val_set(site, "rel_me", list);
	}
	val_set(r->site, "site", site);
	set_href(r, r->site, "css_url", "/css/style.css");
	if (c->custom_css[0] != '\0') {
		if (c->custom_css[0] == '/')
			set_href(r, r->site, "custom_css_url", c->custom_css);
		else
			val_set_str(r->site, "custom_css_url", c->custom_css);
	}
	if (c->favicon[0] != '\0') {
		static const char *const types[][2] = { { "ico", "image/x-icon" },
		    { "png", "image/png" }, { "svg", "image/svg+xml" },
		    { "jpg", "image/jpeg" }, { "jpeg", "image/jpeg" },
		    { "gif", "image/gif" }, { "webp", "image/webp" } };
		const char *ext = strrchr(c->favicon, '.');

		if (c->favicon[0] == '/')
			set_href(r, r->site, "favicon_url", c->favicon);
		else
			val_set_str(r->site, "favicon_url", c->favicon);
		for (i = 0; ext && i < sizeof(types) / sizeof(types[0]); i++)
			if (strcasecmp(ext + 1, types[i][0]) == 0)
				val_set_str(r->site, "favicon_type", types[i][1]);
	}
	val_set(r->site, "t", locale_strings(l));
	val_set(r->site, "b", locale_bssg_strings(l));
	r->a = arena_new();
	r->tag_href = xcalloc(ix->ntags + 1, sizeof(*r->tag_href));
	for (i = 0; i < ix->ntags; i++) {
		buf_clear(&b);
		buf_printf(&b, "%s/tags/%s/", r->base, ix->tags[i].slug);
		r->tag_href[i] = arena_strdup(r->a, b.ptr);
	}
	buf_release(&b);
	return r;
}

/* Frees what ready made that is not in the arena, and lets another
 * render of the same posts make its own. */
static void
forget_items(struct post *const *posts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		val_free(posts[i]->d_item);
		posts[i]->d_item = NULL;
		atomic_store(&posts[i]->d_ready, 0);
	}
}

void
render_free(struct render *r)
{
	if (r == NULL)
		return;
	forget_items(r->ix->posts, r->ix->nposts);
	forget_items(r->ix->pages, r->ix->npages);
	val_free(r->site);
	arena_free(r->a);
	free(r->tag_href);
	free(r);
}

struct planner {
	struct page_job	*jobs;
	size_t		 n, cap;
	struct buf	 url, path;
};

/* Adds a job with the URL and output path the caller put in p. */
static void
add(struct planner *p, enum page_kind kind, size_t arg)
{
	struct page_job *j;

	xgrow((void **)&p->jobs, &p->cap, p->n + 1, sizeof(*p->jobs));
	j = &p->jobs[p->n++];
	j->kind = kind;
	j->arg = arg;
	j->url = xstrdup(p->url.ptr);
	j->out_path = xstrdup(p->path.ptr);
	buf_clear(&p->url);
	buf_clear(&p->path);
}

/* A page at folder/ (URL) written as folder/index.html. */
static void
add_dir(struct planner *p, enum page_kind kind, size_t arg, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static void
add_dir(struct planner *p, enum page_kind kind, size_t arg, const char *fmt,
    ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&p->path, fmt, ap);
	va_end(ap);
	buf_printf(&p->url, "/%s", p->path.ptr);
	buf_adds(&p->path, "index.html");
	add(p, kind, arg);
}

/* A file that is not a page (feeds and the like): no URL of its own. */
static void
add_file(struct planner *p, enum page_kind kind, size_t arg, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static void
add_file(struct planner *p, enum page_kind kind, size_t arg, const char *fmt,
    ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&p->path, fmt, ap);
	va_end(ap);
	add(p, kind, arg);
}

/* Each Markdown post's and page's source beside its page. */
static void
plan_sources(struct planner *p, const struct render *r)
{
	const struct site_index *ix = r->ix;
	size_t i, n = ix->nposts + ix->npages;
	const struct post *s;

	for (i = 0; i <= n; i++) {
		s = i < ix->nposts ? ix->posts[i] : i < n ?
		    ix->pages[i - ix->nposts] : ix->home;
		if (s == NULL || !content_publishes_source(s, r->c))
			continue;
		content_source_path(&p->path, s);
		add(p, PAGE_SOURCE, i < n ? i : (size_t)-1);
	}
}

/* The capsule's files (gemini: true), in its own folder: no web URLs. */
static void
plan_capsule(struct planner *p, const struct render *r)
{
	const struct site_index *ix = r->ix;
	size_t i;

	for (i = 0; i < ix->nposts; i++)
		if (!ix->posts[i]->is_html) {
			capsule_path(&p->path, ix->posts[i]->out_path);
			add(p, PAGE_GMI_POST, i);
		}
	for (i = 0; i < ix->npages; i++)
		if (!ix->pages[i]->is_html) {
			capsule_path(&p->path, ix->pages[i]->out_path);
			add(p, PAGE_GMI_PAGE, i);
		}
	add_file(p, PAGE_GMI_HOME, 0, "index.gmi");
	add_file(p, PAGE_GMI_TAGS, 0, "tags/index.gmi");
	for (i = 0; i < ix->ntags; i++)
		add_file(p, PAGE_GMI_TAG, i, "tags/%s/index.gmi",
		    ix->tags[i].slug);
	add_file(p, PAGE_GMI_ARCHIVES, 0, "archives/index.gmi");
	if (r->c->gemini_url[0] != '\0')
		add_file(p, PAGE_GMI_ATOM, 0, "atom.xml");
	add_file(p, PAGE_GMI_ROBOTS, 0, "robots.txt");
}

size_t
render_plan(struct render *r, struct page_job **jobs)
{
	const struct site_index *ix = r->ix;
	const struct site_config *c = r->c;
	struct planner p;
	size_t i;

	memset(&p, 0, sizeof(p));
	buf_init(&p.url);
	buf_init(&p.path);
	if (ix->home != NULL) {
		buf_adds(&p.url, "/");
		buf_adds(&p.path, "index.html");
		add(&p, PAGE_PAGE, (size_t)-1);
		/* and at its own URL, as BSSG writes both */
		buf_adds(&p.url, ix->home->url);
		buf_adds(&p.path, ix->home->out_path);
		add(&p, PAGE_PAGE, (size_t)-1);
	} else {
		buf_adds(&p.url, "/");
		buf_adds(&p.path, "index.html");
		add(&p, PAGE_HOME, 1);
	}
	/* with a custom home page the post list still goes on at /page/2/ */
	for (i = 2; i <= r->home_pages; i++)
		add_dir(&p, PAGE_HOME, i, "page/%zu/", i);
	for (i = 0; i < ix->nposts; i++) {
		buf_adds(&p.url, ix->posts[i]->url);
		buf_adds(&p.path, ix->posts[i]->out_path);
		add(&p, PAGE_POST, i);
	}
	for (i = 0; i < ix->npages; i++) {
		buf_adds(&p.url, ix->pages[i]->url);
		buf_adds(&p.path, ix->pages[i]->out_path);
		add(&p, PAGE_PAGE, i);
	}
	if (ix->nsecondary > 0) {
		buf_adds(&p.url, "/pages.html");
		buf_adds(&p.path, "pages.html");
		add(&p, PAGE_PAGES, 0);
	}
	if (ix->ntags > 0)
		add_dir(&p, PAGE_TAGS, 0, "tags/");
	for (i = 0; i < ix->ntags; i++) {
		add_dir(&p, PAGE_TAG, i, "tags/%s/", ix->tags[i].slug);
		if (c->enable_tag_rss)
			add_file(&p, PAGE_TAG_RSS, i, "tags/%s/%s",
			    ix->tags[i].slug, c->rss_filename);
	}
	if (c->enable_archives && ix->nposts > 0) {
		add_dir(&p, PAGE_ARCHIVES, 0, "archives/");
		for (i = 0; i < ix->nyears; i++)
			add_dir(&p, PAGE_ARCHIVE_YEAR, i, "archives/%04d/",
			    ix->years[i].year);
		for (i = 0; i < ix->nmonths; i++)
			add_dir(&p, PAGE_ARCHIVE_MONTH, i, "archives/%04d/%02d/",
			    ix->months[i].year, ix->months[i].month);
	}
	if (c->enable_author_pages && ix->nauthors > 0) {
		add_dir(&p, PAGE_AUTHORS, 0, "authors/");
		for (i = 0; i < ix->nauthors; i++) {
			add_dir(&p, PAGE_AUTHOR, i, "authors/%s/",
			    ix->authors[i].slug);
			if (c->enable_author_rss)
				add_file(&p, PAGE_AUTHOR_RSS, i, "authors/%s/%s",
				    ix->authors[i].slug, c->rss_filename);
		}
	}
	add_file(&p, PAGE_404, 0, "404.html");
	if (c->search)
		add_dir(&p, PAGE_SEARCH, 0, "search/");
	add_file(&p, PAGE_RSS, 0, "%s", c->rss_filename);
	add_file(&p, PAGE_ATOM, 0, "atom.xml");
	add_file(&p, PAGE_SITEMAP, 0, "sitemap.xml");
	add_file(&p, PAGE_ROBOTS, 0, "robots.txt");
	plan_sources(&p, r);
	if (c->gemini)
		plan_capsule(&p, r);
	buf_release(&p.url);
	buf_release(&p.path);
	*jobs = p.jobs;
	r->jobs = p.jobs;
	r->njobs = p.n;
	return p.n;
}

void
render_jobs_free(struct page_job *jobs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(jobs[i].url);
		free(jobs[i].out_path);
	}
	free(jobs);
}
