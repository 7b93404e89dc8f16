#include "render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "content.h"
#include "datetime.h"
#include "escape.h"
#include "feed.h"
#include "hash.h"
#include "locale.h"
#include "markdown.h"
#include "mem.h"
#include "siteindex.h"
#include "template.h"
#include "value.h"

#define SSG_GENERATOR "ssg " SSG_VERSION

#ifndef SSG_VERSION
#define SSG_VERSION "0.1"
#endif

struct render {
	const struct site_config	*c;
	const struct site_index		*ix;
	const struct tmpl_set		*t;
	const char			*base;	/* path part of site_url */
	struct val			*site;	/* bottom context */
	size_t				 home_pages;
	uint64_t			 fp_base;	/* see render_set_base */
};

/* base path + path from the root: the href of an internal page. */
static char *
href(const struct render *r, const char *path)
{
	struct buf b = BUF_INIT;

	buf_adds(&b, r->base);
	buf_adds(&b, path);
	return buf_detach(&b, NULL);
}

static void
set_href(const struct render *r, struct val *m, const char *key,
    const char *path)
{
	val_set(m, key, val_str_own(href(r, path)));
}

static void
set_abs(const struct render *r, struct val *m, const char *key,
    const char *path)
{
	struct buf b = BUF_INIT;

	buf_adds(&b, r->c->site_url);
	buf_adds(&b, path);
	val_set(m, key, val_str_own(buf_detach(&b, NULL)));
}

static void
set_date(struct val *m, const char *key, const char *iso_key, time_t t,
    const struct site_config *c)
{
	struct buf b = BUF_INIT;

	dt_format(&b, t, c->date_format, c->show_timezone);
	val_set(m, key, val_str_own(buf_detach(&b, NULL)));
	dt_rfc3339(&b, t);
	val_set(m, iso_key, val_str_own(buf_detach(&b, NULL)));
}

/* Featured images: site-relative paths get the base path. */
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

static struct val *
tag_list(const struct render *r, const struct post *p)
{
	struct val *list = val_list(), *t;
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < p->ntags; i++) {
		const struct tag_info *ti = siteindex_tag(r->ix, p->tags[i].slug);

		t = val_map();
		/* one spelling per tag across the site */
		val_set_str(t, "name", ti ? ti->name : p->tags[i].name);
		buf_clear(&b);
		buf_printf(&b, "/tags/%s/", p->tags[i].slug);
		set_href(r, t, "url", b.ptr);
		val_push(list, t);
	}
	buf_release(&b);
	return list;
}

/* What every list and the post page show of a post. */
static struct val *
post_map(const struct render *r, const struct post *p, int full)
{
	struct val *m = val_map();

	val_set_str(m, "title", p->title);
	set_href(r, m, "url", p->url);
	set_abs(r, m, "permalink", p->url);
	val_set_str(m, "slug", p->slug);
	set_date(m, "date", "date_iso", p->date, r->c);
	set_date(m, "lastmod", "lastmod_iso", p->lastmod, r->c);
	val_set_bool(m, "updated", p->lastmod != p->date);
	val_set_str(m, "author_name", p->author_name ? p->author_name :
	    r->c->author_name);
	val_set_str(m, "description", p->description);
	val_set_str(m, "excerpt", p->excerpt);
	val_set_num(m, "reading_time", reading_minutes(p->words));
	val_set(m, "tags", tag_list(r, p));
	val_set_bool(m, "has_tags", p->ntags > 0);
	val_set_bool(m, "full_content", full);
	if (full || p->kind == CONTENT_PAGE)
		val_set(m, "content", val_str(p->html));
	set_image(r, m, p);
	return m;
}

/* The menu with the current page marked. */
static struct val *
menu(const struct render *r, const char *current)
{
	struct val *list = val_list(), *it;
	size_t i;

	it = val_map();
	val_set_str(it, "title", val_as_str(val_get(val_get(r->site, "t"),
	    "home")));
	set_href(r, it, "url", "/");
	val_set_bool(it, "current", strcmp(current, "/") == 0);
	val_push(list, it);
	for (i = 0; i < r->ix->npages; i++) {
		const struct post *p = r->ix->pages[i];

		if (p->secondary)
			continue;
		it = val_map();
		val_set_str(it, "title", p->title);
		set_href(r, it, "url", p->url);
		val_set_bool(it, "current", strcmp(current, p->url) == 0);
		val_push(list, it);
	}
	if (r->ix->ntags > 0) {
		it = val_map();
		val_set_str(it, "title", val_as_str(val_get(val_get(r->site,
		    "t"), "tags")));
		set_href(r, it, "url", "/tags/");
		val_set_bool(it, "current", strncmp(current, "/tags/", 6) == 0);
		val_push(list, it);
	}
	return list;
}

/* The top context of a page: page metadata and the menu. */
static struct val *
page_ctx(const struct render *r, const char *kind, const char *title,
    const char *description, const char *url)
{
	struct val *top = val_map(), *page = val_map();

	val_set_str(page, "kind", kind);
	val_set_str(page, "title", title);
	val_set_str(page, "description", description ? description :
	    r->c->site_description);
	set_abs(r, page, "canonical", url);
	val_set(top, "page", page);
	val_set(top, "menu", menu(r, url));
	return top;
}

static int
render_tmpl(const struct render *r, const char *name, struct val *top,
    struct buf *out, struct buf *err)
{
	const struct val *stack[2] = { r->site, top };
	int rc;

	rc = tmpl_render(r->t, name, stack, 2, out);
	if (rc == -1)
		buf_printf(err, "template '%s' not found", name);
	val_free(top);
	return rc;
}

static int
do_post(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	const struct post *p = r->ix->posts[j->arg], *nb;
	struct val *top, *pm, *link;

	top = page_ctx(r, "post", p->title, p->description, p->url);
	pm = post_map(r, p, 1);
	/* posts are newest first: the previous post is the older one */
	if (j->arg + 1 < r->ix->nposts) {
		nb = r->ix->posts[j->arg + 1];
		link = val_map();
		val_set_str(link, "title", nb->title);
		set_href(r, link, "url", nb->url);
		val_set(pm, "prev", link);
	}
	if (j->arg > 0) {
		nb = r->ix->posts[j->arg - 1];
		link = val_map();
		val_set_str(link, "title", nb->title);
		set_href(r, link, "url", nb->url);
		val_set(pm, "next", link);
	}
	val_set_bool(pm, "has_neighbours", r->ix->nposts > 1);
	val_set(top, "post", pm);
	return render_tmpl(r, "post", top, out, err);
}

static int
do_page(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	const struct post *p = j->arg == (size_t)-1 ? r->ix->home :
	    r->ix->pages[j->arg];
	struct val *top;

	top = page_ctx(r, "page", j->arg == (size_t)-1 ? NULL : p->title,
	    p->description, p->url);
	val_set(top, "post", post_map(r, p, 1));
	return render_tmpl(r, "page", top, out, err);
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

static int
do_home(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	size_t per = (size_t)r->c->posts_per_page, first, i, page = j->arg;
	struct val *top, *list;
	struct buf title = BUF_INIT;

	if (page > 1)
		buf_printf(&title, "%s %zu", val_as_str(val_get(val_get(r->site,
		    "t"), "page")), page);
	top = page_ctx(r, "home", page > 1 ? title.ptr : NULL, NULL, j->url);
	buf_release(&title);
	list = val_list();
	first = (page - 1) * per;
	for (i = first; i < first + per && i < r->ix->nposts; i++)
		val_push(list, post_map(r, r->ix->posts[i],
		    r->c->index_show_full_content));
	val_set(top, "posts", list);
	set_pagination(r, top, page, r->home_pages);
	return render_tmpl(r, "index", top, out, err);
}

static int
do_tags(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	struct val *top, *list, *t;
	struct buf b = BUF_INIT;
	size_t i;

	top = page_ctx(r, "tags", val_as_str(val_get(val_get(r->site, "t"),
	    "all_tags")), NULL, j->url);
	list = val_list();
	for (i = 0; i < r->ix->ntags; i++) {
		t = val_map();
		val_set_str(t, "name", r->ix->tags[i].name);
		buf_clear(&b);
		buf_printf(&b, "/tags/%s/", r->ix->tags[i].slug);
		set_href(r, t, "url", b.ptr);
		val_set_num(t, "count", (double)r->ix->tags[i].nposts);
		val_push(list, t);
	}
	buf_release(&b);
	val_set(top, "tags", list);
	return render_tmpl(r, "tags", top, out, err);
}

static int
do_tag(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	const struct tag_info *ti = &r->ix->tags[j->arg];
	struct val *top, *list, *tm;
	size_t i;

	top = page_ctx(r, "tag", ti->name, NULL, j->url);
	tm = val_map();
	val_set_str(tm, "name", ti->name);
	val_set(top, "tag", tm);
	list = val_list();
	for (i = 0; i < ti->nposts; i++)
		val_push(list, post_map(r, ti->posts[i], 0));
	val_set(top, "posts", list);
	return render_tmpl(r, "tag", top, out, err);
}

static int
do_404(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	struct val *top;

	(void)j;
	top = page_ctx(r, "404", val_as_str(val_get(val_get(r->site, "t"),
	    "not_found_title")), NULL, "/404.html");
	return render_tmpl(r, "404", top, out, err);
}

static int
do_rss(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	struct buf self = BUF_INIT;

	(void)err;
	buf_printf(&self, "/%s", j->out_path);
	feed_rss(out, r->c, r->c->site_title, self.ptr, r->ix->posts,
	    r->ix->nposts);
	buf_release(&self);
	return 0;
}

static int
do_sitemap(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	struct page_job *jobs;
	const char **paths;
	time_t *mod;
	size_t n, i, k = 0;

	(void)j;
	(void)err;
	n = render_plan(r, &jobs);
	paths = xcalloc(n + 1, sizeof(*paths));
	mod = xcalloc(n + 1, sizeof(*mod));
	for (i = 0; i < n; i++) {
		if (jobs[i].url[0] == '\0' || jobs[i].kind == PAGE_404)
			continue;
		paths[k] = jobs[i].url;
		if (jobs[i].kind == PAGE_POST)
			mod[k] = r->ix->posts[jobs[i].arg]->lastmod;
		else if (jobs[i].kind == PAGE_PAGE && jobs[i].arg != (size_t)-1)
			mod[k] = r->ix->pages[jobs[i].arg]->lastmod;
		k++;
	}
	feed_sitemap(out, r->c, paths, mod, k);
	free(paths);
	free(mod);
	render_jobs_free(jobs, n);
	return 0;
}

static int
do_robots(const struct render *r, const struct page_job *j, struct buf *out,
    struct buf *err)
{
	(void)j;
	(void)err;
	feed_robots(out, r->c);
	return 0;
}

/* One renderer per page kind. */
static int (*const renderers[PAGE_KIND_COUNT])(const struct render *,
    const struct page_job *, struct buf *, struct buf *) = {
	[PAGE_POST] = do_post,
	[PAGE_PAGE] = do_page,
	[PAGE_HOME] = do_home,
	[PAGE_TAGS] = do_tags,
	[PAGE_TAG] = do_tag,
	[PAGE_404] = do_404,
	[PAGE_RSS] = do_rss,
	[PAGE_SITEMAP] = do_sitemap,
	[PAGE_ROBOTS] = do_robots,
};

int
render_page(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	return renderers[j->kind](r, j, out, err);
}

struct render *
render_new(const struct site_config *c, const struct site_index *ix,
    const struct tmpl_set *t, time_t now)
{
	struct render *r = xcalloc(1, sizeof(*r));
	struct val *site;
	struct buf b = BUF_INIT;
	int y, m, d;

	r->c = c;
	r->ix = ix;
	r->t = t;
	r->base = config_base_path(c);
	r->home_pages = (ix->nposts + (size_t)c->posts_per_page - 1) /
	    (size_t)c->posts_per_page;
	if (r->home_pages == 0)
		r->home_pages = 1;
	r->site = val_map();
	site = val_map();
	val_set_str(site, "title", c->site_title);
	val_set_str(site, "description", c->site_description);
	val_set_str(site, "url", c->site_url);
	val_set_str(site, "lang", c->site_lang);
	val_set_str(site, "author_name", c->author_name);
	val_set_str(site, "author_email", c->author_email);
	val_set_str(site, "theme", c->theme);
	val_set_str(site, "generator", SSG_GENERATOR);
	set_href(r, site, "home_url", "/");
	buf_printf(&b, "/%s", c->rss_filename);
	set_href(r, site, "rss_url", b.ptr);
	buf_release(&b);
	dt_ymd(now, &y, &m, &d);
	val_set_num(site, "year", y);
	val_set(r->site, "site", site);
	set_href(r, r->site, "css_url", "/css/style.css");
	if (c->custom_css[0] != '\0') {
		if (c->custom_css[0] == '/')
			set_href(r, r->site, "custom_css_url", c->custom_css);
		else
			val_set_str(r->site, "custom_css_url", c->custom_css);
	}
	val_set(r->site, "t", locale_strings(c->site_lang, NULL));
	return r;
}

void
render_free(struct render *r)
{
	if (r == NULL)
		return;
	val_free(r->site);
	free(r);
}

static void
add_job(struct page_job **jobs, size_t *n, size_t *cap, enum page_kind kind,
    size_t arg, const char *url, const char *out_path)
{
	struct page_job *j;

	xgrow((void **)jobs, cap, *n + 1, sizeof(**jobs));
	j = &(*jobs)[(*n)++];
	j->kind = kind;
	j->arg = arg;
	j->url = xstrdup(url);
	j->out_path = xstrdup(out_path);
}

size_t
render_plan(const struct render *r, struct page_job **jobs)
{
	const struct site_index *ix = r->ix;
	struct buf url = BUF_INIT, path = BUF_INIT;
	size_t n = 0, cap = 0, i;

	*jobs = NULL;
	if (ix->home != NULL)
		add_job(jobs, &n, &cap, PAGE_PAGE, (size_t)-1, "/",
		    "index.html");
	for (i = 1; i <= r->home_pages; i++) {
		buf_clear(&url);
		buf_clear(&path);
		if (i == 1 && ix->home != NULL)
			continue;	/* the custom home page owns / */
		if (i == 1) {
			buf_adds(&url, "/");
			buf_adds(&path, "index.html");
		} else {
			buf_printf(&url, "/page/%zu/", i);
			buf_printf(&path, "page/%zu/index.html", i);
		}
		add_job(jobs, &n, &cap, PAGE_HOME, i, url.ptr, path.ptr);
	}
	for (i = 0; i < ix->nposts; i++)
		add_job(jobs, &n, &cap, PAGE_POST, i, ix->posts[i]->url,
		    ix->posts[i]->out_path);
	for (i = 0; i < ix->npages; i++)
		add_job(jobs, &n, &cap, PAGE_PAGE, i, ix->pages[i]->url,
		    ix->pages[i]->out_path);
	if (ix->ntags > 0)
		add_job(jobs, &n, &cap, PAGE_TAGS, 0, "/tags/",
		    "tags/index.html");
	for (i = 0; i < ix->ntags; i++) {
		buf_clear(&url);
		buf_clear(&path);
		buf_printf(&url, "/tags/%s/", ix->tags[i].slug);
		buf_printf(&path, "tags/%s/index.html", ix->tags[i].slug);
		add_job(jobs, &n, &cap, PAGE_TAG, i, url.ptr, path.ptr);
	}
	add_job(jobs, &n, &cap, PAGE_404, 0, "", "404.html");
	add_job(jobs, &n, &cap, PAGE_RSS, 0, "", r->c->rss_filename);
	add_job(jobs, &n, &cap, PAGE_SITEMAP, 0, "", "sitemap.xml");
	add_job(jobs, &n, &cap, PAGE_ROBOTS, 0, "", "robots.txt");
	buf_release(&url);
	buf_release(&path);
	return n;
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

/* --- fingerprints --- */

/* Values are length-prefixed so that adjacent fields cannot run together. */
static void
fp_str(struct buf *b, const char *s)
{
	size_t n = s ? strlen(s) : (size_t)-1;

	buf_add(b, &n, sizeof(n));
	if (s)
		buf_add(b, s, n);
}

static void
fp_u64(struct buf *b, uint64_t v)
{
	buf_add(b, &v, sizeof(v));
}

static void
fp_val(struct buf *b, const struct val *v)
{
	const char *t;
	size_t i, n;

	fp_u64(b, (uint64_t)val_kind(v));
	switch (val_kind(v)) {
	case VAL_LIST:
		n = val_len(v);
		fp_u64(b, n);
		for (i = 0; i < n; i++)
			fp_val(b, val_at(v, i));
		break;
	case VAL_MAP:
		n = val_map_len(v);
		fp_u64(b, n);
		for (i = 0; i < n; i++) {
			fp_str(b, val_key_at(v, i));
			fp_val(b, val_value_at(v, i));
		}
		break;
	default:
		t = val_text(v, &n);
		fp_u64(b, n);
		buf_add(b, t, n);
		break;
	}
}

/* A post as a list shows it: its summary and its tags' site-wide names. */
static void
fp_post_summary(const struct render *r, struct buf *b, const struct post *p,
    int full)
{
	(void)r;
	fp_u64(b, full ? p->full_hash : p->sum_hash);
	fp_u64(b, p->tag_names_hash);
}

static void
fp_link(struct buf *b, const struct post *p)
{
	fp_str(b, p ? p->title : NULL);
	fp_str(b, p ? p->url : NULL);
}

void
render_set_base(struct render *r, uint64_t tmpl_hash, uint64_t cfg_hash)
{
	struct buf b = BUF_INIT;
	size_t i;

	fp_u64(&b, tmpl_hash);
	fp_u64(&b, cfg_hash);
	fp_val(&b, r->site);
	/* the menu: primary pages and whether there are tags */
	for (i = 0; i < r->ix->npages; i++) {
		if (r->ix->pages[i]->secondary)
			continue;
		fp_link(&b, r->ix->pages[i]);
	}
	fp_u64(&b, r->ix->ntags > 0);
	r->fp_base = hash64(b.ptr, b.len);
	buf_release(&b);
}

uint64_t
render_base(const struct render *r)
{
	return r->fp_base;
}

uint64_t
render_fingerprint(const struct render *r, const struct page_job *j)
{
	const struct site_index *ix = r->ix;
	const struct post *p;
	const struct tag_info *ti;
	static _Thread_local struct buf b = BUF_INIT;
	size_t i, per, first, n;
	uint64_t fp;

	/* one buffer per thread, reused: fingerprints are many and small */
	buf_clear(&b);
	fp_u64(&b, r->fp_base);
	fp_u64(&b, (uint64_t)j->kind);
	fp_u64(&b, j->arg);
	fp_str(&b, j->url);
	fp_str(&b, j->out_path);
	switch (j->kind) {
	case PAGE_POST:
		p = ix->posts[j->arg];
		fp_post_summary(r, &b, p, 1);
		fp_link(&b, j->arg + 1 < ix->nposts ? ix->posts[j->arg + 1] : NULL);
		fp_link(&b, j->arg > 0 ? ix->posts[j->arg - 1] : NULL);
		fp_u64(&b, ix->nposts > 1);
		break;
	case PAGE_PAGE:
		p = j->arg == (size_t)-1 ? ix->home : ix->pages[j->arg];
		fp_post_summary(r, &b, p, 1);
		break;
	case PAGE_HOME:
		per = (size_t)r->c->posts_per_page;
		first = (j->arg - 1) * per;
		fp_u64(&b, r->home_pages);
		for (i = first; i < first + per && i < ix->nposts; i++)
			fp_post_summary(r, &b, ix->posts[i],
			    r->c->index_show_full_content);
		break;
	case PAGE_TAGS:
		for (i = 0; i < ix->ntags; i++) {
			fp_str(&b, ix->tags[i].name);
			fp_str(&b, ix->tags[i].slug);
			fp_u64(&b, ix->tags[i].nposts);
		}
		break;
	case PAGE_TAG:
		ti = &ix->tags[j->arg];
		fp_str(&b, ti->name);
		for (i = 0; i < ti->nposts; i++)
			fp_post_summary(r, &b, ti->posts[i], 0);
		break;
	case PAGE_RSS:
		n = ix->nposts < (size_t)r->c->rss_item_limit ? ix->nposts :
		    (size_t)r->c->rss_item_limit;
		for (i = 0; i < n; i++)
			fp_post_summary(r, &b, ix->posts[i], 1);
		break;
	case PAGE_SITEMAP:
		/* every page URL, and the dates it shows */
		for (i = 0; i < ix->nposts; i++) {
			fp_str(&b, ix->posts[i]->url);
			fp_u64(&b, (uint64_t)ix->posts[i]->lastmod);
		}
		for (i = 0; i < ix->npages; i++) {
			fp_str(&b, ix->pages[i]->url);
			fp_u64(&b, (uint64_t)ix->pages[i]->lastmod);
		}
		fp_u64(&b, ix->home != NULL);
		for (i = 0; i < ix->ntags; i++)
			fp_str(&b, ix->tags[i].slug);
		fp_u64(&b, r->home_pages);
		break;
	case PAGE_404:
	case PAGE_ROBOTS:
	case PAGE_KIND_COUNT:
		break;
	}
	fp = hash64(b.ptr, b.len);
	if (b.cap > 1 << 20)
		buf_release(&b);
	return fp;
}
