#include "feed.h"

#include <string.h>

#include "config.h"
#include "content.h"
#include "datetime.h"
#include "escape.h"

static void
xml_text(struct buf *out, const char *s)
{
	esc_xml(out, s, strlen(s));
}

/* An absolute URL: site_url (with its base path) + path from the root. */
static void
xml_url(struct buf *out, const struct site_config *c, const char *path)
{
	xml_text(out, c->site_url);
	xml_text(out, path);
}

static void
xml_elem(struct buf *out, const char *name, const char *text)
{
	buf_printf(out, "<%s>", name);
	xml_text(out, text);
	buf_printf(out, "</%s>\n", name);
}

void
feed_rss(struct buf *out, const struct site_config *c, const char *title,
    const char *self_path, struct post *const *posts, size_t n)
{
	const struct post *p;
	time_t newest = 0;
	size_t i, j;

	if (n > (size_t)c->rss_item_limit)
		n = (size_t)c->rss_item_limit;
	for (i = 0; i < n; i++)
		if (posts[i]->lastmod > newest)
			newest = posts[i]->lastmod;
	buf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\" "
	    "xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n<channel>\n");
	xml_elem(out, "title", title);
	buf_adds(out, "<link>");
	xml_url(out, c, "/");
	buf_adds(out, "</link>\n");
	xml_elem(out, "description", c->site_description);
	xml_elem(out, "language", c->site_lang);
	xml_elem(out, "generator", "ssg");
	if (n > 0) {
		buf_adds(out, "<lastBuildDate>");
		dt_rfc822(out, newest);
		buf_adds(out, "</lastBuildDate>\n");
	}
	buf_adds(out, "<atom:link href=\"");
	xml_url(out, c, self_path);
	buf_adds(out, "\" rel=\"self\" type=\"application/rss+xml\"/>\n");
	for (i = 0; i < n; i++) {
		p = posts[i];
		buf_adds(out, "<item>\n");
		xml_elem(out, "title", p->title);
		buf_adds(out, "<link>");
		xml_url(out, c, p->url);
		buf_adds(out, "</link>\n<guid isPermaLink=\"true\">");
		xml_url(out, c, p->url);
		buf_adds(out, "</guid>\n<pubDate>");
		dt_rfc822(out, p->date);
		buf_adds(out, "</pubDate>\n");
		xml_elem(out, "dc:creator", p->author_name ? p->author_name :
		    c->author_name);
		for (j = 0; j < p->ntags; j++)
			xml_elem(out, "category", p->tags[j].name);
		xml_elem(out, "description", c->rss_include_full_content ?
		    p->html : p->description);
		buf_adds(out, "</item>\n");
	}
	buf_adds(out, "</channel>\n</rss>\n");
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
