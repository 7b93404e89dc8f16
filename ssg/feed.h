#ifndef SSG_FEED_H
#define SSG_FEED_H

#include <stddef.h>
#include <time.h>

#include "buf.h"

struct post;
struct site_config;

/*
 * Machine-readable outputs: RSS 2.0, sitemap.xml and robots.txt. All text
 * goes through esc_xml; dates are RFC 822 (RSS) or RFC 3339 (sitemap).
 */

/* An RSS 2.0 channel of posts[0..n) (newest first, at most
 * rss_item_limit). self_path is the feed's own path from the site root. */
void	feed_rss(struct buf *out, const struct site_config *c,
	    const char *title, const char *self_path, struct post *const *posts,
	    size_t n);
/* A sitemap of every URL path in paths[0..n) with its lastmod (0: none). */
void	feed_sitemap(struct buf *out, const struct site_config *c,
	    const char *const *paths, const time_t *lastmod, size_t n);
void	feed_robots(struct buf *out, const struct site_config *c);

#endif
