#ifndef SSG_PAGE_KIND_H
#define SSG_PAGE_KIND_H

/*
 * One row per page kind: what renders it, what its fingerprint covers,
 * the values a BSSG site's header.html gets on it, which post bodies it
 * shows and whose images it reports. Adding a kind is one row in
 * page_kind.c plus its functions. Internal to render/.
 */

#include "render_int.h"

struct bssg_page;

/* Scratch space of one page's BSSG header values (render_bssg.c). */
struct frame_bufs {
	struct buf	 title, url, desc, image, schema, rss;
	const char	*type;		/* its JSON-LD @type */
	const char	*sdesc;		/* and description, when not pg's */
};

struct page_kind_ops {
	const char	*name;
	/* appends the page's bytes; -1 and a message in err on failure */
	int		(*render)(const struct render *, const struct page_job *,
			    struct buf *out, struct buf *err);
	/* hashes what the page shows beyond the base (NULL: nothing) */
	void		(*fingerprint)(const struct render *,
			    const struct page_job *, struct buf *);
	/* BSSG header values; NULL: not an HTML page, never framed */
	void		(*head)(const struct render *, const struct page_job *,
			    struct bssg_page *, struct frame_bufs *);
	/* marks the posts whose body the page shows (NULL: none) */
	void		(*needs)(const struct render *, const struct page_job *);
	/* the post whose images the page reports (NULL: none) */
	const struct post *(*subject)(const struct render *,
			    const struct page_job *);
	enum page_order	 order;
	enum page_format format;
};

extern const struct page_kind_ops page_kinds[PAGE_KIND_COUNT];

/* Renderers (render.c, render_list.c, feed.c). */
#define RENDERER(name) int name(const struct render *, \
	    const struct page_job *, struct buf *, struct buf *)
RENDERER(render_post);
RENDERER(render_one_page);
RENDERER(render_home);
RENDERER(render_404);
RENDERER(render_search);
RENDERER(render_source);
RENDERER(render_gmi_post);
RENDERER(render_gmi_page);
RENDERER(render_gmi_home);
RENDERER(render_gmi_tags);
RENDERER(render_gmi_tag);
RENDERER(render_gmi_archives);
RENDERER(render_gmi_atom);
RENDERER(render_gmi_robots);
#undef RENDERER

/* Fingerprints (render_fp.c). */
#define FINGERPRINT(name) void name(const struct render *, \
	    const struct page_job *, struct buf *)
FINGERPRINT(fp_kind_post);
FINGERPRINT(fp_kind_page);
FINGERPRINT(fp_kind_home);
FINGERPRINT(fp_kind_tags);
FINGERPRINT(fp_kind_tag);
FINGERPRINT(fp_kind_tag_feed);
FINGERPRINT(fp_kind_archives);
FINGERPRINT(fp_kind_year);
FINGERPRINT(fp_kind_month);
FINGERPRINT(fp_kind_authors);
FINGERPRINT(fp_kind_author);
FINGERPRINT(fp_kind_author_feed);
FINGERPRINT(fp_kind_pages);
FINGERPRINT(fp_kind_feed);
FINGERPRINT(fp_kind_sitemap);
FINGERPRINT(fp_kind_source);
FINGERPRINT(fp_kind_search);
FINGERPRINT(fp_gmi_post);
FINGERPRINT(fp_gmi_page);
FINGERPRINT(fp_gmi_home);
FINGERPRINT(fp_gmi_tags);
FINGERPRINT(fp_gmi_tag);
FINGERPRINT(fp_gmi_archives);
FINGERPRINT(fp_gmi_atom);
#undef FINGERPRINT

/* The capsule (capsule.c): the path of a page's .gmi (index.html becomes
 * index.gmi), and the base of its fingerprints (its settings, its
 * format, the images' copies it links). */
void	 capsule_path(struct buf *out, const char *html_path);
uint64_t capsule_base(const struct render *r);

/* BSSG header values (render_bssg.c). */
#define HEAD(name) void name(const struct render *, \
	    const struct page_job *, struct bssg_page *, struct frame_bufs *)
HEAD(head_post);
HEAD(head_page);
HEAD(head_home);
HEAD(head_tags);
HEAD(head_tag);
HEAD(head_archives);
HEAD(head_year);
HEAD(head_month);
HEAD(head_authors);
HEAD(head_author);
HEAD(head_pages);
HEAD(head_search);
HEAD(head_404);
#undef HEAD

#endif
