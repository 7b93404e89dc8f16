/* Pages that list posts (tags, archives, authors, secondary pages) and
 * the machine-readable files (feeds, sitemap, robots.txt). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "content.h"
#include "feed.h"
#include "locale.h"
#include "mem.h"
#include "render_int.h"
#include "siteindex.h"
#include "value.h"

static void
set_path(const struct render *r, struct val *m, const char *key,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
set_path(const struct render *r, struct val *m, const char *key,
    const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	set_href(r, m, key, b.ptr);
	buf_release(&b);
}

struct val *
render_list_ctx(const struct render *r, const struct page_job *j,
    const char *kind)
{
	struct buf t = BUF_INIT, d = BUF_INIT, ld = BUF_INIT;
	struct val *top;

	render_bssg_head(r, j, &t, &d, &ld);
	top = page_ctx(r, kind, t.ptr, d.ptr, j->url);
	if (ld.len > 0)
		val_set((struct val *)val_get(top, "page"), "jsonld",
		    val_str_own(buf_detach(&ld, NULL)));
	buf_release(&t);
	buf_release(&d);
	buf_release(&ld);
	return top;
}

int
render_tags(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	struct val *top, *list, *t;
	size_t i;

	top = render_list_ctx(r, j, "tags");
	list = val_list();
	for (i = 0; i < r->ix->ntags; i++) {
		t = val_map();
		val_set_str(t, "name", r->ix->tags[i].name);
		set_path(r, t, "url", "/tags/%s/", r->ix->tags[i].slug);
		val_set_num(t, "count", (double)r->ix->tags[i].nposts);
		val_push(list, t);
	}
	val_set(top, "tags", list);
	return render_tmpl(r, "tags", top, out, err);
}

int
render_tag(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	const struct tag_info *ti = &r->ix->tags[j->arg];
	struct val *top, *tm;

	top = render_list_ctx(r, j, "tag");
	tm = val_map();
	val_set_str(tm, "name", ti->name);
	if (r->c->enable_tag_rss)
		set_path(r, tm, "feed_url", "/tags/%s/%s", ti->slug,
		    r->c->rss_filename);
	val_set(top, "tag", tm);
	val_set(top, "posts", post_list(r, ti->posts, ti->nposts, 0));
	return render_tmpl(r, "tag", top, out, err);
}

/* "March 2025", in the site's language. */
static void
month_title(const struct render *r, struct buf *b, int year, int month)
{
	buf_printf(b, "%s %04d", locale_month(r->l, month), year);
}

static struct val *
month_map(const struct render *r, const struct archive_month *m, int posts)
{
	struct val *mm = val_map();
	struct buf t = BUF_INIT;

	month_title(r, &t, m->year, m->month);
	val_set_str(mm, "title", t.ptr);
	val_set_str(mm, "name", locale_month(r->l, m->month));
	set_path(r, mm, "url", "/archives/%04d/%02d/", m->year, m->month);
	val_set_num(mm, "count", (double)m->nposts);
	if (posts) {
		val_set(mm, "posts", post_list(r, m->posts, m->nposts, 0));
		val_set_bool(mm, "has_posts", m->nposts > 0);
	}
	buf_release(&t);
	return mm;
}

static struct val *
year_map(const struct render *r, const struct archive_year *y, int posts)
{
	struct val *ym = val_map(), *months = val_list();
	size_t k;

	val_set_num(ym, "year", y->year);
	set_path(r, ym, "url", "/archives/%04d/", y->year);
	val_set_num(ym, "count", (double)y->nposts);
	for (k = 0; k < y->nmonths; k++)
		val_push(months, month_map(r, &r->ix->months[y->first + k],
		    posts));
	val_set(ym, "months", months);
	return ym;
}

int
render_archives(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	struct val *top, *years;
	size_t i;

	top = render_list_ctx(r, j, "archives");
	years = val_list();
	for (i = 0; i < r->ix->nyears; i++)
		val_push(years, year_map(r, &r->ix->years[i],
		    r->c->archives_list_all_posts));
	val_set(top, "years", years);
	return render_tmpl(r, "archives", top, out, err);
}

int
render_archive_year(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	const struct archive_year *y = &r->ix->years[j->arg];
	struct val *top;
	struct buf t = BUF_INIT;

	buf_printf(&t, "%s %04d", locale_bssg(r->l, "archives_for"), y->year);
	top = render_list_ctx(r, j, "archive");
	val_set_str(top, "heading", t.ptr);
	val_set(top, "year", year_map(r, y, 1));
	buf_release(&t);
	return render_tmpl(r, "archive", top, out, err);
}

int
render_archive_month(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	const struct archive_month *m = &r->ix->months[j->arg];
	struct val *top;
	struct buf t = BUF_INIT;

	buf_printf(&t, "%s ", locale_bssg(r->l, "archives_for"));
	month_title(r, &t, m->year, m->month);
	top = render_list_ctx(r, j, "archive");
	val_set_str(top, "heading", t.ptr);
	val_set(top, "posts", post_list(r, m->posts, m->nposts, 0));
	buf_release(&t);
	return render_tmpl(r, "archive", top, out, err);
}

int
render_authors(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	struct val *top, *list, *a;
	size_t i;

	top = render_list_ctx(r, j, "authors");
	list = val_list();
	for (i = 0; i < r->ix->nauthors; i++) {
		a = val_map();
		val_set_str(a, "name", r->ix->authors[i].name);
		set_path(r, a, "url", "/authors/%s/", r->ix->authors[i].slug);
		val_set_num(a, "count", (double)r->ix->authors[i].nposts);
		val_push(list, a);
	}
	val_set(top, "authors", list);
	return render_tmpl(r, "authors", top, out, err);
}

int
render_author(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	const struct author_info *a = &r->ix->authors[j->arg];
	struct val *top, *am;

	top = render_list_ctx(r, j, "author");
	am = val_map();
	val_set_str(am, "name", a->name);
	if (r->c->enable_author_rss)
		set_path(r, am, "feed_url", "/authors/%s/%s", a->slug,
		    r->c->rss_filename);
	val_set(top, "author", am);
	val_set(top, "posts", post_list(r, a->posts, a->nposts, 0));
	return render_tmpl(r, "author", top, out, err);
}

int
render_pages(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	struct val *top, *list, *p;
	size_t i;

	top = render_list_ctx(r, j, "pages");
	list = val_list();
	for (i = 0; i < r->ix->nsecondary; i++) {
		p = val_map();
		val_set_str(p, "title", r->ix->secondary[i]->title);
		val_set_str(p, "description", r->ix->secondary[i]->description);
		set_href(r, p, "url", r->ix->secondary[i]->url);
		val_push(list, p);
	}
	val_set(top, "pages", list);
	return render_tmpl(r, "pages", top, out, err);
}

int
render_feed(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	struct feed f;
	struct buf title = BUF_INIT, self = BUF_INIT, page = BUF_INIT;

	(void)err;
	buf_printf(&self, "/%s", j->out_path);
	f.title = r->c->site_title;
	f.posts = r->ix->posts;
	f.n = r->ix->nposts;
	buf_adds(&page, "/");
	if (j->kind == PAGE_TAG_RSS) {
		const struct tag_info *ti = &r->ix->tags[j->arg];

		buf_printf(&title, "%s - %s", r->c->site_title, ti->name);
		f.posts = ti->posts;
		f.n = ti->nposts;
		buf_printf(&page, "tags/%s/", ti->slug);
	} else if (j->kind == PAGE_AUTHOR_RSS) {
		const struct author_info *a = &r->ix->authors[j->arg];

		buf_printf(&title, "%s - %s", r->c->site_title, a->name);
		f.posts = a->posts;
		f.n = a->nposts;
		buf_printf(&page, "authors/%s/", a->slug);
	}
	if (title.len > 0)
		f.title = title.ptr;
	f.self_path = self.ptr;
	f.page_path = page.ptr;
	f.images = r->images;
	if (j->kind == PAGE_ATOM)
		feed_atom(out, r->c, &f);
	else
		feed_rss(out, r->c, &f);
	buf_release(&title);
	buf_release(&self);
	buf_release(&page);
	return 0;
}

int
render_sitemap(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	const struct page_job *jobs = r->jobs;
	const char **paths;
	time_t *mod;
	size_t i, k = 0;

	(void)j;
	(void)err;
	paths = xcalloc(r->njobs + 1, sizeof(*paths));
	mod = xcalloc(r->njobs + 1, sizeof(*mod));
	for (i = 0; i < r->njobs; i++) {
		if (jobs[i].url[0] == '\0')
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
	return 0;
}

int
render_robots(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	(void)j;
	(void)err;
	feed_robots(out, r->c);
	return 0;
}
