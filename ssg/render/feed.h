#ifndef SSG_FEED_H
#define SSG_FEED_H

#include <stddef.h>
#include <time.h>

#include "buf.h"

struct image_hook;
struct post;
struct site_config;

/*
 * Machine-readable outputs: RSS 2.0, Atom 1.0, sitemap.xml and robots.txt.
 * All text goes through esc_xml; dates are RFC 822 (RSS) or RFC 3339
 * (Atom, sitemap).
 */
struct feed {
	const char		 *title;	/* the channel's title */
	const char		 *self_path;	/* the feed's own path from the root */
	const char		 *page_path;	/* the page it is the feed of */
	struct post *const	 *posts;	/* newest first */
	size_t			  n;		/* at most rss_item_limit are used */
	/* the site's images as feed readers get them, or NULL */
	const struct image_hook	 *images;
};

void	feed_rss(struct buf *out, const struct site_config *c,
	    const struct feed *f);
void	feed_atom(struct buf *out, const struct site_config *c,
	    const struct feed *f);
/* A sitemap of every URL path in paths[0..n) with its lastmod (0: none). */
void	feed_sitemap(struct buf *out, const struct site_config *c,
	    const char *const *paths, const time_t *lastmod, size_t n);
void	feed_robots(struct buf *out, const struct site_config *c);

#endif
