#ifndef SSG_PICTURE_H
#define SSG_PICTURE_H

#include <stddef.h>

#include "image_hook.h"

struct buf;
struct media;
struct media_img;

/*
 * A page's images as a reader's browser should get them: each <img> whose
 * src is an image of static/ becomes a <picture> with a <source> per
 * format and an <img> with srcset, sizes, width and height (so the layout
 * does not jump), lazy loading, and eager loading with a high priority
 * for the page's first image, often its largest paint. Markdown images,
 * raw <img> tags and the featured image are all <img> tags by then.
 *
 * Left as written: remote and data: images, SVG, animated images, an
 * <img> that already has a srcset or sits in a <picture>, and anything in
 * a comment, <script>, <pre> or <textarea>.
 */
struct picture_ctx {
	const struct media *m;
	const char	*site_url;	/* no trailing slash */
	const char	*base;		/* its path: "" or "/blog" */
	const char	*page_url;	/* from the root, for relative srcs */
	/*
	 * Told of each local raster image that is not published (im NULL:
	 * static/ has no such file; else im->err says why) and of each
	 * published one (report decides what to say of it, e.g. its GPS).
	 */
	void		(*report)(void *arg, const char *src,
			    const struct media_img *im);
	void		*arg;
	/* for a feed: each <img> keeps one src, the absolute URL of the
	 * copy near 960 px (a feed reader has no page to resolve against,
	 * and many show no <picture>) */
	int		 feed;
};

/* Appends html, its images rewritten, to out. Returns how many were. */
size_t	picture_rewrite(struct buf *out, const char *html, size_t n,
	    const struct picture_ctx *c);
/* The copy of the image src names on the page at c->page_url for use
 * (see image_hook.h): url gets its path from the site's root, w and h
 * its size. -1 when src is no image published in copies. */
int	picture_copy(const struct picture_ctx *c, const char *src,
	    enum image_use use, struct buf *url, int *w, int *h);
/* The size in bytes of the file picture_copy names for src, else of src
 * as static_dir holds it; -1 when neither is known (remote, missing, not
 * an image media reads, such as SVG). */
long long picture_bytes(const struct picture_ctx *c, const char *src,
	    enum image_use use, const char *static_dir);
/* The static/ path an <img src> names on a page at page_url, or -1 (not
 * a local file). out gets the path, percent-decoded, without "/" first. */
int	picture_resolve(struct buf *out, const char *src, size_t n,
	    const char *site_url, const char *base, const char *page_url);

#endif
