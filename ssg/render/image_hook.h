#ifndef SSG_IMAGE_HOOK_H
#define SSG_IMAGE_HOOK_H

#include <stddef.h>
#include <stdint.h>

struct buf;

/*
 * How what is not an HTML page names the site's images: link previews
 * (og:image), feeds and the Gemini capsule get one resized copy where the
 * pages get a <picture> (build/picture.c fills this in). With no hook the
 * images are named as their authors wrote them.
 */
enum image_use {
	IMAGE_INLINE,	/* in a feed or the capsule: the copy near 960 px */
	IMAGE_SHARE	/* og:image: the widest copy, up to 1600 px */
};

struct image_hook {
	/*
	 * The copy of src, as a page at page_url writes it, for use: url
	 * gets its path from the site's root ("/images/a-960.0123abcd.jpg"),
	 * w and h its size. -1 (url unchanged) when src is no image the
	 * build publishes in copies: remote, SVG, animated, missing.
	 */
	int		(*copy)(void *arg, const char *src, const char *page_url,
			    enum image_use use, struct buf *url, int *w, int *h);
	/* html with each local <img> as a feed reader should get it: src
	 * the copy's absolute URL, with width and height. */
	void		(*feed_html)(void *arg, struct buf *out,
			    const char *html, size_t n, const char *page_url);
	/* The size in bytes of the file a feed names for src (the copy
	 * for use, else the file as published); -1 when not known (remote,
	 * missing, SVG). Set with images off too, where copy and feed_html
	 * are NULL. */
	long long	(*bytes)(void *arg, const char *src, const char *page_url,
			    enum image_use use);
	void		*arg;
	uint64_t	 hash;	/* of what the hooks give: in fingerprints */
};

#endif
