#ifndef SSG_RENDER_INT_H
#define SSG_RENDER_INT_H

/* Shared by render.c (pages and contexts), render_list.c (lists and
 * feeds) and render_fp.c (fingerprints). Not for other modules. */

#include "render.h"

struct bssg_frame;
struct post;
struct val;

struct image_hook;

struct render {
	const struct site_config	*c;
	const struct site_index		*ix;
	const struct tmpl_set		*t;
	const struct locale		*l;
	const char			*base;	/* path part of site_url */
	struct val			*site;	/* bottom context */
	size_t				 home_pages;
	int				 authors_menu;
	struct arena			*a;	/* strings made once per build */
	char				**tag_href;	/* by tag index */
	const struct page_job		*jobs;	/* render_plan's, for the sitemap */
	size_t				 njobs;
	uint64_t			 fp_base; /* see render_set_base */
	uint64_t			 cap_base; /* the capsule's */
	int				 year;	/* of the build, for footers */
	struct bssg_frame		*frame;	/* a BSSG site's header and
						 * footer, or NULL */
	const struct image_hook		*images; /* or NULL */
	char				 script_url[64]; /* search.js?v= */
};

/* base path + path from the root: the href of an internal page. */
void	 set_href(const struct render *r, struct val *m, const char *key,
	    const char *path);
/* site_url + path: an absolute URL. */
void	 set_abs(const struct render *r, struct val *m, const char *key,
	    const char *path);
/* The map lists and post pages show of a post. */
struct val *post_map(const struct render *r, const struct post *p, int full);
/* The top context of a page: page metadata and the menu. */
struct val *page_ctx(const struct render *r, const char *kind,
	    const char *title, const char *description, const char *url);
/* Renders template name with the site context under top (freed). */
int	 render_tmpl(const struct render *r, const char *name, struct val *top,
	    struct buf *out, struct buf *err);
/* A list of post summaries. */
struct val *post_list(const struct render *r, struct post *const *posts,
	    size_t n, int full);
/* The absolute URL of a featured image (of its copy for link previews,
 * whose size goes to w and h; else they are 0), on the page at page_url. */
void	 render_abs_image(const struct render *r, struct buf *out,
	    const char *image, const char *page_url, int *w, int *h);
/* A page's fediverse:creator: the post's own, its author's, the site's
 * (NULL: none). */
const char *render_fediverse_creator(const struct render *r,
	    const char *own, const char *author);
/* The filled header.html before job j's page, footer.html after it. */
/* The title, description and JSON-LD object BSSG's head gives the list
 * page of job j (home, tags, archives, authors), appended to the bufs,
 * for ssg's own templates to say the same. */
void	 render_bssg_head(const struct render *r, const struct page_job *j,
	    struct buf *title, struct buf *description, struct buf *jsonld);
/* The top context of list page j, of that kind, with that head. */
struct val *render_list_ctx(const struct render *r,
	    const struct page_job *j, const char *kind);
void	 render_frame_header(const struct render *r,
	    const struct page_job *j, struct buf *out);
void	 render_frame_footer(const struct render *r,
	    const struct page_job *j, struct buf *out);
/* A translated string. */
const char *tr(const struct render *r, const char *key);

int	 render_tags(const struct render *, const struct page_job *,
	    struct buf *, struct buf *);
int	 render_tag(const struct render *, const struct page_job *,
	    struct buf *, struct buf *);
int	 render_archives(const struct render *, const struct page_job *,
	    struct buf *, struct buf *);
int	 render_archive_year(const struct render *, const struct page_job *,
	    struct buf *, struct buf *);
int	 render_archive_month(const struct render *, const struct page_job *,
	    struct buf *, struct buf *);
int	 render_authors(const struct render *, const struct page_job *,
	    struct buf *, struct buf *);
int	 render_author(const struct render *, const struct page_job *,
	    struct buf *, struct buf *);
int	 render_pages(const struct render *, const struct page_job *,
	    struct buf *, struct buf *);
int	 render_feed(const struct render *, const struct page_job *,
	    struct buf *, struct buf *);
int	 render_sitemap(const struct render *, const struct page_job *,
	    struct buf *, struct buf *);
int	 render_robots(const struct render *, const struct page_job *,
	    struct buf *, struct buf *);

/* The post or page whose Markdown a PAGE_SOURCE job publishes. */
const struct post *render_source_post(const struct render *r,
	    const struct page_job *j);

#endif
