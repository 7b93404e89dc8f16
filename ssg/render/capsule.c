/*
 * The Gemini capsule (gemini: true), a second output format of the same
 * plan: the same posts and pages as gemtext, in the site's
 * gemini_output_dir. index.gmi is the gemlog: the site's title and
 * description, then one line per post, newest first,
 * "=> /YYYY/MM/DD/slug/index.gmi YYYY-MM-DD Title", which Gemini clients
 * subscribe to. Each post and page is at the path of its HTML page with
 * index.gmi for index.html. Posts written in HTML are left out (their
 * HTML does not convert reliably): render_plan plans no page for them and
 * no list shows them.
 *
 * One renderer and one fingerprint per kind, named in page_kind.c's
 * table; the build renders them on its pool and its sink writes them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "config.h"
#include "content.h"
#include "datetime.h"
#include "diag.h"
#include "escape.h"
#include "frontmatter.h"
#include "fsutil.h"
#include "gemtext.h"
#include "hash.h"
#include "image_hook.h"
#include "page_kind.h"
#include "siteindex.h"

/*
 * Bumped when the capsule's format changes, so that every page is made
 * again by the next build.
 */
#define CAPSULE_FORMAT	2

/* Entries in atom.xml: as many as a reader's client needs to catch up. */
#define CAPSULE_FEED_MAX	50

uint64_t
capsule_base(const struct render *r)
{
	uint64_t hb[2];

	hb[0] = config_hash(r->c);
	hb[1] = CAPSULE_FORMAT ^ (r->images != NULL ? r->images->hash : 0);
	return hash64(hb, sizeof(hb));
}

void
capsule_path(struct buf *out, const char *html_path)
{
	size_t n = strlen(html_path);

	if (n >= 10 && strcmp(html_path + n - 10, "index.html") == 0)
		buf_printf(out, "%.*sindex.gmi", (int)(n - 10), html_path);
	else if (n > 5 && strcmp(html_path + n - 5, ".html") == 0)
		buf_printf(out, "%.*s.gmi", (int)(n - 5), html_path);
	else
		buf_adds(out, html_path);
}

/* 1 if post p is in the capsule (and its lists). */
static int
listed(const struct post *p)
{
	return !p->is_html;
}

static void
ymd(struct buf *out, const struct post *p)
{
	buf_printf(out, "%04d-%02d-%02d", p->year, p->month, p->day);
}

/* "=> /x/index.gmi YYYY-MM-DD Title": a gemlog line, which Gemini
 * clients subscribe to. */
static void
gemlog_line(struct buf *out, const char *label, const struct post *p)
{
	buf_adds(out, "=> ");
	gemtext_url(out, p->url);
	buf_addc(out, ' ');
	if (label != NULL)
		buf_printf(out, "%s ", label);
	ymd(out, p);
	buf_printf(out, " %s\n", p->title);
}

/* What a gemlog line shows of p (NULL: none), for fingerprints. */
static void
fp_line(struct buf *b, const struct post *p)
{
	if (p == NULL) {
		hash_field_u64(b, 0);
		return;
	}
	hash_field_u64(b, 1);
	hash_field_str(b, p->title);
	hash_field_str(b, p->url);
	hash_field_u64(b,
	    (uint64_t)(p->year * 10000 + p->month * 100 + p->day));
}

/* The lines of the listed posts among posts. */
static void
fp_lines(struct buf *b, struct post *const *posts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (listed(posts[i]))
			fp_line(b, posts[i]);
}

/* The foot of every capsule page: home, and the page on the web. */
static void
foot(struct buf *out, const struct site_config *c, const char *url)
{
	buf_adds(out, "\n=> /index.gmi Home\n");
	if (c->site_url[0] != '\0' && url != NULL)
		buf_printf(out, "=> %s%s This page on the web\n", c->site_url,
		    url);
}

/* The nearest post before (step -1: newer) or after (1: older) post i
 * that is in the capsule, or NULL. */
static const struct post *
neighbour(const struct render *r, size_t i, int step)
{
	const struct site_index *ix = r->ix;
	size_t j = i;

	while (step < 0 ? j-- > 0 : ++j < ix->nposts)
		if (listed(ix->posts[j]))
			return ix->posts[j];
	return NULL;
}

/*
 * The "=> " lines of a body from "from" on that name an image of the
 * site: the absolute URL of its copy near 960 px, the size a Gemini
 * client shows, without the original's metadata. The capsule holds no
 * images: a client opens the copy over HTTPS.
 */
static void
link_images(const struct render *r, const struct post *p,
    struct buf *gem, size_t from)
{
	const struct image_hook *h = r->images;
	struct buf out = BUF_INIT, src = BUF_INIT, u = BUF_INIT;
	const char *s, *end, *nl, *sp;
	int w, hh;

	if (h == NULL || h->copy == NULL || gem->len <= from)
		return;
	s = gem->ptr + from;
	end = gem->ptr + gem->len;
	for (; s < end; s = nl) {
		nl = memchr(s, '\n', (size_t)(end - s));
		nl = nl != NULL ? nl + 1 : end;
		if (nl - s > 3 && strncmp(s, "=> ", 3) == 0) {
			for (sp = s + 3; sp < nl && *sp != ' ' && *sp != '\n'; sp++)
				;
			buf_clear(&src);
			buf_add(&src, s + 3, (size_t)(sp - s - 3));
			buf_clear(&u);
			if (h->copy(h->arg, src.ptr, p->url, IMAGE_INLINE, &u, &w,
			    &hh) == 0) {
				buf_adds(&out, "=> ");
				buf_adds(&out, r->c->site_url);
				buf_adds(&out, u.ptr);
				buf_add(&out, sp, (size_t)(nl - sp));
				continue;
			}
		}
		buf_add(&out, s, (size_t)(nl - s));
	}
	gem->len = from;
	buf_add(gem, out.ptr != NULL ? out.ptr : "", out.len);
	buf_release(&out);
	buf_release(&src);
	buf_release(&u);
}

/* One post or page as gemtext, with the posts before and after it (or
 * NULL). */
static int
page(const struct render *r, const struct post *p, const struct post *newer,
    const struct post *older, struct buf *gem, struct buf *err)
{
	const struct site_config *c = r->c;
	struct buf text = BUF_INIT;
	struct frontmatter fm;
	struct diag *quiet;
	size_t i, body;

	buf_printf(gem, "# %s\n\n", p->title);
	if (p->kind == CONTENT_POST) {
		buf_adds(gem, "Published ");
		ymd(gem, p);
		buf_printf(gem, " by %s\n\n", siteindex_author(r->ix, p));
	}
	body = gem->len;
	/* made from the tree the HTML came from (the build reads the body
	 * of every page it renders); else read again */
	if (p->gem != NULL)
		gemtext_append(gem, p->gem, p->gem_len);
	else {
		quiet = diag_new();
		if (fs_read(p->src, &text) == -1 || frontmatter_parse(&fm,
		    text.ptr, text.len, p->src, quiet) == -1) {
			buf_printf(err, "%s: cannot read it again for the Gemini "
			    "capsule", p->src);
			diag_free(quiet);
			buf_release(&text);
			return -1;
		}
		if (gemtext_from_markdown(fm.body, fm.body_len,
		    c->smart_punctuation, gem) == -1)
			buf_adds(gem, "(This text nests too deep to show "
			    "here.)\n");
		frontmatter_release(&fm);
		diag_free(quiet);
		buf_release(&text);
	}
	link_images(r, p, gem, body);
	if (p->ntags > 0) {
		buf_adds(gem, "\nTags:");
		for (i = 0; i < p->ntags; i++)
			buf_printf(gem, "%s %s", i ? "," : "",
			    p->tags[i].name);
		buf_addc(gem, '\n');
		for (i = 0; i < p->ntags; i++)
			buf_printf(gem, "=> /tags/%s/index.gmi Posts tagged "
			    "%s\n", p->tags[i].slug, p->tags[i].name);
	}
	if (newer != NULL || older != NULL)
		buf_addc(gem, '\n');
	if (older != NULL)
		gemlog_line(gem, "Older:", older);
	if (newer != NULL)
		gemlog_line(gem, "Newer:", newer);
	foot(gem, c, p->url);
	/* its Markdown, published beside the HTML page */
	if (c->site_url[0] != '\0' && content_publishes_source(p, c)) {
		buf_printf(gem, "=> %s/", c->site_url);
		content_source_path(gem, p);
		buf_adds(gem, " Its Markdown source\n");
	}
	return 0;
}

int
render_gmi_post(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	return page(r, r->ix->posts[j->arg], neighbour(r, j->arg, -1),
	    neighbour(r, j->arg, 1), out, err);
}

int
render_gmi_page(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	return page(r, r->ix->pages[j->arg], NULL, NULL, out, err);
}

/*
 * What a post's or page's .gmi shows: its source's text (text_hash),
 * what lists show of it (sum_hash: title, URL, dates, author, tags), the
 * author's name as the site resolves it, and its neighbours.
 */
static void
fp_page(const struct render *r, const struct post *p, const struct post *newer,
    const struct post *older, struct buf *b)
{
	hash_field_u64(b, (uint64_t)p->kind);
	hash_field_u64(b, p->text_hash);
	hash_field_u64(b, p->sum_hash);
	hash_field_u64(b, content_publishes_source(p, r->c));
	hash_field_str(b, siteindex_author(r->ix, p));
	fp_line(b, newer);
	fp_line(b, older);
}

void
fp_gmi_post(const struct render *r, const struct page_job *j, struct buf *b)
{
	fp_page(r, r->ix->posts[j->arg], neighbour(r, j->arg, -1),
	    neighbour(r, j->arg, 1), b);
}

void
fp_gmi_page(const struct render *r, const struct page_job *j, struct buf *b)
{
	fp_page(r, r->ix->pages[j->arg], NULL, NULL, b);
}

/* index.gmi: the gemlog, the pages, the lists and the addresses. */
int
render_gmi_home(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	const struct site_config *c = r->c;
	const struct site_index *ix = r->ix;
	struct buf url = BUF_INIT;
	size_t i;

	(void)j;
	(void)err;
	buf_printf(out, "# %s\n\n%s\n\n", c->site_title, c->site_description);
	if (ix->nposts > 0)
		buf_adds(out, "## Posts\n\n");
	for (i = 0; i < ix->nposts; i++)
		if (listed(ix->posts[i]))
			gemlog_line(out, NULL, ix->posts[i]);
	if (ix->npages > 0)
		buf_adds(out, "\n## Pages\n\n");
	for (i = 0; i < ix->npages; i++) {
		if (!listed(ix->pages[i]))
			continue;
		buf_clear(&url);
		gemtext_url(&url, ix->pages[i]->url);
		buf_printf(out, "=> %s %s\n", url.ptr, ix->pages[i]->title);
	}
	buf_adds(out, "\n=> /tags/index.gmi Tags\n=> /archives/index.gmi "
	    "Archives\n");
	if (c->gemini_url[0] != '\0')
		buf_printf(out, "=> /atom.xml Atom feed\n=> %s/ This "
		    "capsule's address\n", c->gemini_url);
	if (c->site_url[0] != '\0')
		buf_printf(out, "=> %s/ On the web\n", c->site_url);
	buf_release(&url);
	return 0;
}

void
fp_gmi_home(const struct render *r, const struct page_job *j, struct buf *b)
{
	const struct site_index *ix = r->ix;
	size_t i;

	(void)j;
	hash_field_u64(b, ix->nposts);
	fp_lines(b, ix->posts, ix->nposts);
	hash_field_u64(b, ix->npages);
	for (i = 0; i < ix->npages; i++)
		if (listed(ix->pages[i])) {
			hash_field_str(b, ix->pages[i]->url);
			hash_field_str(b, ix->pages[i]->title);
		}
}

/* tags/index.gmi */
int
render_gmi_tags(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	const struct site_index *ix = r->ix;
	size_t i;

	(void)j;
	(void)err;
	buf_adds(out, "# Tags\n\n");
	for (i = 0; i < ix->ntags; i++)
		buf_printf(out, "=> /tags/%s/index.gmi %s (%zu)\n",
		    ix->tags[i].slug, ix->tags[i].name, ix->tags[i].nposts);
	foot(out, r->c, NULL);
	return 0;
}

void
fp_gmi_tags(const struct render *r, const struct page_job *j, struct buf *b)
{
	size_t i;

	(void)j;
	for (i = 0; i < r->ix->ntags; i++) {
		hash_field_str(b, r->ix->tags[i].slug);
		hash_field_str(b, r->ix->tags[i].name);
		hash_field_u64(b, r->ix->tags[i].nposts);
	}
}

/* tags/SLUG/index.gmi */
int
render_gmi_tag(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	const struct tag_info *t = &r->ix->tags[j->arg];
	size_t i;

	(void)err;
	buf_printf(out, "# Posts tagged %s\n\n", t->name);
	for (i = 0; i < t->nposts; i++)
		if (listed(t->posts[i]))
			gemlog_line(out, NULL, t->posts[i]);
	buf_adds(out, "\n=> /tags/index.gmi All tags");
	foot(out, r->c, NULL);
	return 0;
}

void
fp_gmi_tag(const struct render *r, const struct page_job *j, struct buf *b)
{
	const struct tag_info *t = &r->ix->tags[j->arg];

	hash_field_str(b, t->name);
	fp_lines(b, t->posts, t->nposts);
}

/* archives/index.gmi: every post, by month, newest first. */
int
render_gmi_archives(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	const struct site_index *ix = r->ix;
	size_t i, k;

	(void)j;
	(void)err;
	buf_adds(out, "# Archives\n");
	for (i = 0; i < ix->nmonths; i++) {
		const struct archive_month *m = &ix->months[i];

		buf_printf(out, "\n## %04d-%02d\n\n", m->year, m->month);
		for (k = 0; k < m->nposts; k++)
			if (listed(m->posts[k]))
				gemlog_line(out, NULL, m->posts[k]);
	}
	foot(out, r->c, NULL);
	return 0;
}

void
fp_gmi_archives(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct site_index *ix = r->ix;
	size_t i;

	(void)j;
	for (i = 0; i < ix->nmonths; i++) {
		hash_field_u64(b, (uint64_t)ix->months[i].year << 8 |
		    (uint64_t)ix->months[i].month);
		fp_lines(b, ix->months[i].posts, ix->months[i].nposts);
	}
}

/* The date atom.xml gives as its last update: its newest post's. */
static time_t
newest(const struct site_index *ix)
{
	time_t t = 0;
	size_t i;

	for (i = 0; i < ix->nposts; i++)
		if (listed(ix->posts[i]) && ix->posts[i]->lastmod > t)
			t = ix->posts[i]->lastmod;
	return t;
}

/* atom.xml with gemini:// links (planned with gemini_url, which its ids
 * need). */
int
render_gmi_atom(const struct render *r, const struct page_job *j,
    struct buf *x, struct buf *err)
{
	const struct site_config *c = r->c;
	const struct site_index *ix = r->ix;
	struct buf u = BUF_INIT;
	size_t i, n = 0;

	(void)j;
	(void)err;
	buf_adds(x, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
	    "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>");
	esc_xml(x, c->site_title, strlen(c->site_title));
	buf_adds(x, "</title>\n<id>");
	esc_xml(x, c->gemini_url, strlen(c->gemini_url));
	buf_adds(x, "/</id>\n<link href=\"");
	esc_xml(x, c->gemini_url, strlen(c->gemini_url));
	buf_adds(x, "/\"/>\n<link rel=\"self\" href=\"");
	esc_xml(x, c->gemini_url, strlen(c->gemini_url));
	buf_adds(x, "/atom.xml\"/>\n<updated>");
	dt_rfc3339(x, newest(ix));
	buf_adds(x, "</updated>\n");
	for (i = 0; i < ix->nposts && n < CAPSULE_FEED_MAX; i++) {
		const struct post *p = ix->posts[i];
		const char *who = siteindex_author(ix, p);

		if (!listed(p))
			continue;
		n++;
		buf_clear(&u);
		buf_adds(&u, c->gemini_url);
		gemtext_url(&u, p->url);
		buf_adds(x, "<entry>\n<title>");
		esc_xml(x, p->title, strlen(p->title));
		buf_adds(x, "</title>\n<id>");
		esc_xml(x, u.ptr, u.len);
		buf_adds(x, "</id>\n<link href=\"");
		esc_xml(x, u.ptr, u.len);
		buf_adds(x, "\"/>\n<published>");
		dt_rfc3339(x, p->date);
		buf_adds(x, "</published>\n<updated>");
		dt_rfc3339(x, p->lastmod);
		buf_adds(x, "</updated>\n<author><name>");
		esc_xml(x, who, strlen(who));
		buf_adds(x, "</name></author>\n");
		if (p->description != NULL && p->description[0] != '\0') {
			buf_adds(x, "<summary>");
			esc_xml(x, p->description, strlen(p->description));
			buf_adds(x, "</summary>\n");
		}
		buf_adds(x, "</entry>\n");
	}
	buf_adds(x, "</feed>\n");
	buf_release(&u);
	return 0;
}

void
fp_gmi_atom(const struct render *r, const struct page_job *j, struct buf *b)
{
	const struct site_index *ix = r->ix;
	size_t i, n = 0;

	(void)j;
	hash_field_u64(b, (uint64_t)newest(ix));
	for (i = 0; i < ix->nposts && n < CAPSULE_FEED_MAX; i++) {
		const struct post *p = ix->posts[i];

		if (!listed(p))
			continue;
		n++;
		fp_line(b, p);
		hash_field_u64(b, (uint64_t)p->date);
		hash_field_u64(b, (uint64_t)p->lastmod);
		hash_field_str(b, siteindex_author(ix, p));
		hash_field_str(b, p->description);
	}
}

/* Gemini crawlers read it as web ones do: all of it is public. */
int
render_gmi_robots(const struct render *r, const struct page_job *j,
    struct buf *out, struct buf *err)
{
	(void)r;
	(void)j;
	(void)err;
	buf_adds(out, "User-agent: *\nDisallow:\n");
	return 0;
}
