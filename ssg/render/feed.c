#include "feed.h"

#include <string.h>

#include "config.h"
#include "content.h"
#include "datetime.h"
#include "escape.h"
#include "image_hook.h"
#include "mime.h"

static void
xml_text(struct buf *out, const char *s)
{
	esc_xml(out, s, strlen(s));
}

/* An absolute URL for a path from the site root (site_url has the base). */
static void
xml_url(struct buf *out, const struct site_config *c, const char *path)
{
	if (strstr(path, "://") != NULL) {
		xml_text(out, path);
		return;
	}
	xml_text(out, c->site_url);
	xml_text(out, path);
}

/* A post's HTML with its images as a feed reader gets them (absolute
 * URLs: a reader has no page to resolve "/images/a.jpg" against). */
static const char *
item_html(const struct feed *f, const struct post *p, struct buf *tmp)
{
	if (f->images == NULL || f->images->feed_html == NULL)
		return p->html;
	buf_clear(tmp);
	f->images->feed_html(f->images->arg, tmp, p->html, strlen(p->html),
	    p->url);
	return tmp->ptr != NULL ? tmp->ptr : "";
}

/* The featured image's absolute URL (its shared copy where there is one)
 * and its type. */
static const char *
item_image(const struct site_config *c, const struct feed *f,
    const struct post *p, struct buf *out)
{
	struct buf u = BUF_INIT;
	const char *path = p->image;
	int w, h;

	if (f->images != NULL && f->images->copy != NULL &&
	    f->images->copy(f->images->arg, p->image, p->url, IMAGE_SHARE, &u,
	    &w, &h) == 0)
		path = u.ptr;
	xml_url(out, c, path);
	path = mime_type(path);
	buf_release(&u);
	return path;
}

/* RSS 2.0's enclosure of the featured image: url, length in bytes and
 * type, all three required, so none when the size is not known. */
static void
item_enclosure(struct buf *out, const struct site_config *c,
    const struct feed *f, const struct post *p)
{
	long long n;
	const char *type;

	if (f->images == NULL || f->images->bytes == NULL ||
	    (n = f->images->bytes(f->images->arg, p->image, p->url,
	    IMAGE_SHARE)) < 0)
		return;
	buf_adds(out, "<enclosure url=\"");
	type = item_image(c, f, p, out);
	buf_printf(out, "\" length=\"%lld\" type=\"%s\"/>\n", n, type);
}

static void
xml_elem(struct buf *out, const char *name, const char *text)
{
	buf_printf(out, "<%s>", name);
	xml_text(out, text);
	buf_printf(out, "</%s>\n", name);
}

static const char *
author_of(const struct site_config *c, const struct post *p)
{
	return p->author_name ? p->author_name : c->author_name;
}

static size_t
item_count(const struct site_config *c, const struct feed *f)
{
	return f->n > (size_t)c->rss_item_limit ? (size_t)c->rss_item_limit :
	    f->n;
}

static time_t
newest(const struct feed *f, size_t n)
{
	time_t t = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (f->posts[i]->lastmod > t)
			t = f->posts[i]->lastmod;
	return t;
}

void
feed_rss(struct buf *out, const struct site_config *c, const struct feed *f)
{
	const struct post *p;
	struct buf tmp = BUF_INIT;
	const char *type;
	size_t i, j, n = item_count(c, f);

	buf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\" "
	    "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
	    "xmlns:media=\"http://search.yahoo.com/mrss/\">\n<channel>\n");
	xml_elem(out, "title", f->title);
	buf_adds(out, "<link>");
	xml_url(out, c, f->page_path);
	buf_adds(out, "</link>\n");
	xml_elem(out, "description", c->site_description);
	xml_elem(out, "language", c->site_lang);
	xml_elem(out, "generator", "ssg");
	if (n > 0) {
		buf_adds(out, "<lastBuildDate>");
		dt_rfc822(out, newest(f, n));
		buf_adds(out, "</lastBuildDate>\n");
	}
	buf_adds(out, "<atom:link href=\"");
	xml_url(out, c, f->self_path);
	buf_adds(out, "\" rel=\"self\" type=\"application/rss+xml\"/>\n");
	for (i = 0; i < n; i++) {
		p = f->posts[i];
		buf_adds(out, "<item>\n");
		xml_elem(out, "title", p->title);
		buf_adds(out, "<link>");
		xml_url(out, c, p->url);
		buf_adds(out, "</link>\n<guid isPermaLink=\"true\">");
		xml_url(out, c, p->url);
		buf_adds(out, "</guid>\n<pubDate>");
		dt_rfc822(out, p->date);
		buf_adds(out, "</pubDate>\n");
		if (p->lastmod != p->date) {
			buf_adds(out, "<atom:updated>");
			dt_rfc3339(out, p->lastmod);
			buf_adds(out, "</atom:updated>\n");
		}
		xml_elem(out, "dc:creator", author_of(c, p));
		for (j = 0; j < p->ntags; j++)
			xml_elem(out, "category", p->tags[j].name);
		xml_elem(out, "description", c->rss_include_full_content ?
		    item_html(f, p, &tmp) : p->description);
		if (p->image != NULL) {
			buf_adds(out, "<media:content url=\"");
			type = item_image(c, f, p, out);
			buf_printf(out, "\" medium=\"image\" type=\"%s\"/>\n",
			    type);
			item_enclosure(out, c, f, p);
		}
		buf_adds(out, "</item>\n");
	}
	buf_adds(out, "</channel>\n</rss>\n");
	buf_release(&tmp);
}

void
feed_atom(struct buf *out, const struct site_config *c, const struct feed *f)
{
	const struct post *p;
	struct buf tmp = BUF_INIT;
	const char *type;
	size_t i, j, n = item_count(c, f);
	time_t updated = newest(f, n);

	buf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"");
	xml_text(out, c->site_lang);
	buf_adds(out, "\">\n");
	xml_elem(out, "title", f->title);
	xml_elem(out, "subtitle", c->site_description);
	buf_adds(out, "<id>");
	xml_url(out, c, f->self_path);
	buf_adds(out, "</id>\n<link rel=\"self\" type=\"application/atom+xml\" "
	    "href=\"");
	xml_url(out, c, f->self_path);
	buf_adds(out, "\"/>\n<link rel=\"alternate\" type=\"text/html\" href=\"");
	xml_url(out, c, f->page_path);
	buf_adds(out, "\"/>\n<updated>");
	dt_rfc3339(out, updated);
	buf_adds(out, "</updated>\n<author><name>");
	xml_text(out, c->author_name);
	buf_adds(out, "</name></author>\n<generator>ssg</generator>\n");
	for (i = 0; i < n; i++) {
		p = f->posts[i];
		buf_adds(out, "<entry>\n");
		xml_elem(out, "title", p->title);
		buf_adds(out, "<id>");
		xml_url(out, c, p->url);
		buf_adds(out, "</id>\n<link rel=\"alternate\" type=\"text/html\" "
		    "href=\"");
		xml_url(out, c, p->url);
		buf_adds(out, "\"/>\n<published>");
		dt_rfc3339(out, p->date);
		buf_adds(out, "</published>\n<updated>");
		dt_rfc3339(out, p->lastmod);
		buf_adds(out, "</updated>\n<author><name>");
		xml_text(out, author_of(c, p));
		buf_adds(out, "</name></author>\n");
		for (j = 0; j < p->ntags; j++) {
			buf_adds(out, "<category term=\"");
			xml_text(out, p->tags[j].name);
			buf_adds(out, "\"/>\n");
		}
		buf_adds(out, "<summary>");
		xml_text(out, p->description);
		buf_adds(out, "</summary>\n");
		if (c->rss_include_full_content) {
			buf_adds(out, "<content type=\"html\">");
			xml_text(out, item_html(f, p, &tmp));
			buf_adds(out, "</content>\n");
		}
		if (p->image != NULL) {
			buf_adds(out, "<link rel=\"enclosure\" href=\"");
			type = item_image(c, f, p, out);
			buf_printf(out, "\" type=\"%s\"/>\n", type);
		}
		buf_adds(out, "</entry>\n");
	}
	buf_adds(out, "</feed>\n");
	buf_release(&tmp);
}

void
feed_sitemap(struct buf *out, const struct site_config *c,
    const char *const *paths, const time_t *lastmod, size_t n)
{
	size_t i;

	buf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
	for (i = 0; i < n; i++) {
		buf_adds(out, "<url><loc>");
		xml_url(out, c, paths[i]);
		buf_adds(out, "</loc>");
		if (lastmod[i] != 0) {
			buf_adds(out, "<lastmod>");
			dt_rfc3339(out, lastmod[i]);
			buf_adds(out, "</lastmod>");
		}
		buf_adds(out, "</url>\n");
	}
	buf_adds(out, "</urlset>\n");
}

void
feed_robots(struct buf *out, const struct site_config *c)
{
	buf_printf(out, "User-agent: *\nAllow: /\n\nSitemap: %s/sitemap.xml\n",
	    c->site_url);
}
