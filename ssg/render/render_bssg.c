/*
 * Pages framed by a BSSG site's own header.html and footer.html: the
 * values BSSG's generate_*.sh give each placeholder, per page kind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bssg_frame.h"
#include "config.h"
#include "content.h"
#include "datetime.h"
#include "escape.h"
#include "locale.h"
#include "mem.h"
#include "page_kind.h"
#include "render_int.h"
#include "siteindex.h"
#include "value.h"

/* A BSSG message of the site's language. */
static const char *
msg(const struct render *r, const char *name)
{
	return locale_bssg(r->l, name);
}

static int
cmp_src(const void *a, const void *b)
{
	return strcmp((*(struct post *const *)a)->src,
	    (*(struct post *const *)b)->src);
}

static void
link(struct buf *b, const struct render *r, const char *path,
    const char *title, const char *after)
{
	buf_printf(b, " <a href=\"%s%s\">", r->c->site_url, path);
	esc_html(b, title, strlen(title));
	buf_printf(b, "</a>%s", after);
}

/*
 * The header's and the footer's menus, as templates.sh makes them: Home,
 * the pages that are not secondary (in file order), Pages, then Tags,
 * Authors, Archives and RSS in the header, Archives, Tags, Authors and
 * "Subscribe via RSS" in the footer.
 */
static void
menus(const struct render *r, struct buf *head, struct buf *foot)
{
	const struct site_index *ix = r->ix;
	struct post **pages = xcalloc(ix->npages + 1, sizeof(*pages));
	size_t i, n = 0;
	struct buf rss = BUF_INIT;

	for (i = 0; i < ix->npages; i++)
		if (!ix->pages[i]->secondary)
			pages[n++] = ix->pages[i];
	xqsort(pages, n, sizeof(*pages), cmp_src);
	buf_printf(head, "<a href=\"%s/\">%s</a>", r->c->site_url,
	    msg(r, "home"));
	buf_printf(foot, "<a href=\"%s/\">%s</a> &middot;", r->c->site_url,
	    msg(r, "home"));
	for (i = 0; i < n; i++) {
		link(head, r, pages[i]->url, pages[i]->title, "");
		link(foot, r, pages[i]->url, pages[i]->title, " &middot;");
	}
	free(pages);
	if (ix->nsecondary > 0) {
		link(head, r, "/pages.html", msg(r, "pages"), "");
		link(foot, r, "/pages.html", msg(r, "pages"), " &middot;");
	}
	if (ix->ntags > 0)
		link(head, r, "/tags/", msg(r, "tags"), "");
	if (r->authors_menu)
		link(head, r, "/authors/", msg(r, "authors"), "");
	if (r->c->enable_archives) {
		link(head, r, "/archives/", msg(r, "archives"), "");
		link(foot, r, "/archives/", msg(r, "archives"), " &middot;");
	}
	buf_printf(&rss, "/%s", r->c->rss_filename);
	link(head, r, rss.ptr, msg(r, "rss"), "");
	if (ix->ntags > 0)
		link(foot, r, "/tags/", msg(r, "tags"), " &middot;");
	if (r->authors_menu)
		link(foot, r, "/authors/", msg(r, "authors"), " &middot;");
	link(foot, r, rss.ptr, msg(r, "subscribe_rss"), "");
	buf_release(&rss);
}

void
render_set_frame(struct render *r, struct bssg_frame *f, struct diag *d)
{
	struct buf head = BUF_INIT, foot = BUF_INIT, me = BUF_INIT,
	    css = BUF_INIT;
	struct bssg_site s;
	size_t i;

	menus(r, &head, &foot);
	for (i = 0; i < r->c->rel_me.n; i++) {
		buf_adds(&me, me.len ? "\n<link rel=\"me\" href=\"" :
		    "<link rel=\"me\" href=\"");
		esc_html(&me, r->c->rel_me.v[i], strlen(r->c->rel_me.v[i]));
		buf_adds(&me, "\">");
	}
	if (r->c->custom_css[0] != '\0')
		buf_printf(&css, "<link rel=\"stylesheet\" href=\"%s%s%s\">",
		    r->c->site_url, r->c->custom_css[0] == '/' ? "" : "/",
		    r->c->custom_css);
	s.header_menu = head.ptr && !r->c->hide_menu ? head.ptr : "";
	s.footer_menu = foot.ptr ? foot.ptr : "";
	s.lang = r->c->site_lang;
	s.rss_filename = r->c->rss_filename;
	s.rel_me_links = me.ptr ? me.ptr : "";
	s.custom_css_link = css.ptr ? css.ptr : "";
	s.site_title = r->c->site_title;
	s.site_description = r->c->site_description;
	s.l = r->l;
	bssg_frame_prepare(f, &s, d);
	r->frame = f;
	val_set_bool(r->site, "bssg_frame", 1);
	buf_release(&head);
	buf_release(&foot);
	buf_release(&me);
	buf_release(&css);
}

static void
json_pair(struct buf *b, const char *key, const char *value)
{
	buf_printf(b, ",\n  \"%s\": \"", key);
	esc_json(b, value ? value : "", value ? strlen(value) : 0);
	buf_addc(b, '"');
}

/* A CollectionPage, WebPage or WebSite of the site, as BSSG describes
 * its list pages. */
static void
schema_page(struct buf *b, const struct render *r, const char *type,
    const char *name, const char *description, const char *url)
{
	buf_printf(b, "<script type=\"application/ld+json\">\n{\n"
	    "  \"@context\": \"https://schema.org\",\n  \"@type\": \"%s\"",
	    type);
	json_pair(b, "name", name);
	if (description != NULL)
		json_pair(b, "description", description);
	buf_printf(b, ",\n  \"url\": \"");
	esc_json(b, r->c->site_url, strlen(r->c->site_url));
	esc_json(b, url, strlen(url));
	buf_addc(b, '"');
	if (strcmp(type, "WebSite") != 0) {
		buf_adds(b, ",\n  \"isPartOf\": {\n    \"@type\": \"WebSite\",\n"
		    "    \"name\": \"");
		esc_json(b, r->c->site_title, strlen(r->c->site_title));
		buf_adds(b, "\",\n    \"url\": \"");
		esc_json(b, r->c->site_url, strlen(r->c->site_url));
		buf_adds(b, "\"\n  }");
	}
	buf_adds(b, "\n}\n</script>");
}

/* A post's Article, as generate_posts.sh writes it (without the
 * publisher's logo.png, which BSSG sites do not have). */
static void
schema_post(struct buf *b, const struct render *r, const struct post *p,
    const char *author, const char *description, const char *image)
{
	struct buf t = BUF_INIT;
	const char *email;

	buf_adds(b, "<script type=\"application/ld+json\">\n{\n"
	    "  \"@context\": \"https://schema.org\",\n"
	    "  \"@type\": \"Article\"");
	json_pair(b, "headline", p->title);
	dt_rfc3339(&t, p->date);
	json_pair(b, "datePublished", t.ptr);
	buf_clear(&t);
	dt_rfc3339(&t, p->lastmod);
	json_pair(b, "dateModified", t.ptr);
	buf_adds(b, ",\n  \"author\": {\n    \"@type\": \"Person\",\n"
	    "    \"name\": \"");
	esc_json(b, author, strlen(author));
	/* the e-mail content.sh gives the post, as BSSG */
	if ((email = siteindex_author_email(r->ix, p)) != NULL) {
		buf_adds(b, "\",\n    \"email\": \"");
		esc_json(b, email, strlen(email));
	}
	buf_adds(b, "\"\n  },\n  \"publisher\": {\n    \"@type\": "
	    "\"Organization\",\n    \"name\": \"");
	esc_json(b, r->c->site_title, strlen(r->c->site_title));
	buf_adds(b, "\"\n  }");
	json_pair(b, "description", description);
	buf_clear(&t);
	buf_printf(&t, "%s%s", r->c->site_url, p->url);
	buf_adds(b, ",\n  \"mainEntityOfPage\": {\n    \"@type\": \"WebPage\","
	    "\n    \"@id\": \"");
	esc_json(b, t.ptr, t.len);
	buf_adds(b, "\"\n  }");
	if (image != NULL) {
		buf_adds(b, ",\n  \"image\": {\n    \"@type\": \"ImageObject\","
		    "\n    \"url\": \"");
		esc_json(b, image, strlen(image));
		buf_adds(b, "\"\n  }");
	}
	buf_adds(b, "\n}\n</script>");
	buf_release(&t);
}

/*
 * The values of a page's placeholders, as BSSG gives them: one function
 * per page kind (named in page_kind.c's table), each filling pg and, for
 * the JSON-LD of a list page, fb's type and short description.
 */
void
head_post(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	const struct post *p = r->ix->posts[j->arg];

	pg->title = p->title;
	pg->url = p->url;
	pg->og_type = "article";
	pg->is_post = 1;
	pg->author_name = siteindex_author(r->ix, p);
	/* the front matter's description, else the excerpt content.sh
	 * makes (p->description holds either) */
	if (p->description != NULL && *p->description != '\0') {
		buf_adds(&fb->desc, p->description);
		pg->description = fb->desc.ptr;
	}
	if (p->image != NULL) {
		render_abs_image(r, &fb->image, p->image, p->url,
		    &pg->image_w, &pg->image_h);
		pg->image = fb->image.ptr;
	}
	pg->fediverse_creator = render_fediverse_creator(r,
	    p->fediverse_creator, pg->author_name);
	schema_post(&fb->schema, r, p, pg->author_name, pg->description,
	    pg->image);
	pg->schema = fb->schema.ptr;
}

void
head_page(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	const struct post *p = j->arg == (size_t)-1 ? r->ix->home :
	    r->ix->pages[j->arg];

	pg->title = p->title;
	pg->url = j->arg == (size_t)-1 ? "/" : p->url;
	fb->type = "WebPage";
}

void
head_home(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	if (j->arg == 1) {
		pg->title = msg(r, "home");
		fb->type = "WebSite";
	} else {
		/* MSG_PAGINATION_TITLE, which no BSSG locale sets: English
		 * in every language */
		buf_printf(&fb->title, "%s - Page %zu", r->c->site_title,
		    j->arg);
		pg->title = fb->title.ptr;
	}
	pg->url = j->url;
}

void
head_tags(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	(void)j;
	pg->title = msg(r, "all_tags");
	pg->url = "/tags/";
	pg->mark = 1;
	/* generate_tags.sh's JSON-LD words, in English */
	buf_printf(&fb->url, "List of all tags on %s", r->c->site_title);
	fb->sdesc = fb->url.ptr;
}

void
head_tag(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	const struct site_config *c = r->c;
	const struct tag_info *t = &r->ix->tags[j->arg];

	buf_printf(&fb->title, "%s: %s", msg(r, "tag_page_title"), t->name);
	pg->title = fb->title.ptr;
	pg->url = j->url;
	pg->mark = 1;
	buf_printf(&fb->desc, "Posts with tag: %s", t->name);
	fb->sdesc = fb->desc.ptr;
	if (c->enable_tag_rss) {
		buf_adds(&fb->rss, "<link rel=\"alternate\" type=\""
		    "application/rss+xml\" title=\"");
		buf_printf(&fb->url, "%s - %s %s", c->site_title,
		    msg(r, "tag_page_title"), t->name);
		esc_html(&fb->rss, fb->url.ptr, fb->url.len);
		buf_printf(&fb->rss, "\" href=\"%s%s%s\">", c->site_url,
		    j->url, c->rss_filename);
		pg->tag_rss_link = fb->rss.ptr;
	}
}

void
head_archives(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	(void)j;
	(void)fb;
	pg->title = msg(r, "archives");
	pg->url = "/archives/";
}

void
head_year(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	int year = r->ix->years[j->arg].year;

	buf_printf(&fb->title, "%s %d", msg(r, "archives_for"), year);
	pg->title = fb->title.ptr;
	pg->url = j->url;
	buf_printf(&fb->url, "Archive of posts from %d", year);
	fb->sdesc = fb->url.ptr;
}

void
head_month(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	const struct archive_month *m = &r->ix->months[j->arg];
	char name[16];

	xsnprintf(name, sizeof(name), "month_%02d", m->month);
	buf_printf(&fb->title, "%s %s %d", msg(r, "archives_for"),
	    msg(r, name), m->year);
	pg->title = fb->title.ptr;
	pg->url = j->url;
	buf_printf(&fb->url, "Archive of posts from %s %d", msg(r, name),
	    m->year);
	fb->sdesc = fb->url.ptr;
}

void
head_authors(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	(void)j;
	pg->title = msg(r, "all_authors");
	pg->url = "/authors/";
	pg->mark = 1;
	buf_printf(&fb->desc, "%s - %s", pg->title, r->c->site_description);
	pg->description = fb->desc.ptr;
	/* generate_authors.sh's JSON-LD words, in English */
	buf_printf(&fb->url, "List of all authors on %s", r->c->site_title);
	fb->sdesc = fb->url.ptr;
}

void
head_author(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	const struct author_info *a = &r->ix->authors[j->arg];

	buf_printf(&fb->title, "%s %s", msg(r, "posts_by"), a->name);
	pg->title = fb->title.ptr;
	pg->url = j->url;
	pg->mark = 1;
	buf_printf(&fb->desc, "%s - %zu %s", pg->title, a->nposts,
	    msg(r, "posts"));
	pg->description = fb->desc.ptr;
}

void
head_pages(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	(void)j;
	(void)fb;
	pg->title = msg(r, "all_pages");
	pg->url = "/pages.html";
}

/* ssg's own page too */
void
head_search(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	(void)j;
	pg->title = tr(r, "search_title");
	pg->url = "/search/";
	fb->type = "WebPage";
}

/* ssg's own page, BSSG writes none */
void
head_404(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	(void)j;
	pg->title = tr(r, "not_found_title");
	pg->url = "/404.html";
	fb->type = "WebPage";
}

/* What every page's placeholders share, then its kind's values. */
static void
values(const struct render *r, const struct page_job *j,
    struct bssg_page *pg, struct frame_bufs *fb)
{
	const struct site_config *c = r->c;

	memset(pg, 0, sizeof(*pg));
	pg->site_title = c->site_title;
	pg->site_url = c->site_url;
	pg->site_description = c->site_description;
	pg->og_type = "website";
	pg->description = c->site_description;
	pg->author_name = c->author_name;
	pg->year = r->year;
	pg->fediverse_creator = render_fediverse_creator(r, NULL,
	    c->author_name);
	fb->type = "CollectionPage";
	fb->sdesc = NULL;
	page_kinds[j->kind].head(r, j, pg, fb);
	if (pg->schema != NULL)		/* a post's Article */
		return;
	/* the home page's WebSite is named after the site */
	schema_page(&fb->schema, r, fb->type, strcmp(fb->type, "WebSite") ?
	    pg->title : c->site_title, strcmp(fb->type, "WebPage") ?
	    fb->sdesc ? fb->sdesc : pg->description : NULL, pg->url);
	pg->schema = fb->schema.ptr;
}

static void
release(struct frame_bufs *fb)
{
	buf_release(&fb->title);
	buf_release(&fb->url);
	buf_release(&fb->desc);
	buf_release(&fb->image);
	buf_release(&fb->schema);
	buf_release(&fb->rss);
}

void
render_frame_header(const struct render *r, const struct page_job *j,
    struct buf *out)
{
	struct frame_bufs fb = { BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT,
	    BUF_INIT, BUF_INIT, NULL, NULL };
	struct bssg_page pg;

	values(r, j, &pg, &fb);
	bssg_frame_header(r->frame, &pg, out);
	release(&fb);
}

void
render_bssg_head(const struct render *r, const struct page_job *j,
    struct buf *title, struct buf *description, struct buf *jsonld)
{
	struct frame_bufs fb = { BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT,
	    BUF_INIT, BUF_INIT, NULL, NULL };
	struct bssg_page pg;
	const char *s, *e;

	values(r, j, &pg, &fb);
	buf_adds(title, pg.title);
	buf_adds(description, pg.description);
	/* the object inside <script ...>\n ... \n</script> */
	if (pg.schema != NULL && (s = strchr(pg.schema, '\n')) != NULL &&
	    (e = strstr(s, "\n</script>")) != NULL)
		buf_add(jsonld, s + 1, (size_t)(e - s - 1));
	release(&fb);
}

void
render_frame_footer(const struct render *r, const struct page_job *j,
    struct buf *out)
{
	struct bssg_page pg;

	memset(&pg, 0, sizeof(pg));
	pg.year = r->year;
	pg.author_name = j->kind == PAGE_POST ?
	    siteindex_author(r->ix, r->ix->posts[j->arg]) : r->c->author_name;
	bssg_frame_footer(r->frame, &pg, out);
}
