#ifndef SSG_RENDER_H
#define SSG_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "buf.h"

struct bssg_frame;
struct diag;
struct image_hook;
struct locale;
struct site_config;
struct site_index;
struct val;
struct tmpl_set;

/*
 * Rendering: the list of every output file of a site (the plan) and one
 * function per page kind that turns a plan entry into bytes. Renders only
 * read the shared model, so pool workers may render in parallel.
 */
enum page_kind {
	PAGE_POST,		/* arg: index in ix->posts */
	PAGE_PAGE,		/* arg: index in ix->pages; -1: the home page */
	PAGE_HOME,		/* arg: page number from 1 */
	PAGE_TAGS,
	PAGE_TAG,		/* arg: index in ix->tags */
	PAGE_TAG_RSS,		/* arg: index in ix->tags */
	PAGE_ARCHIVES,
	PAGE_ARCHIVE_YEAR,	/* arg: index in ix->years */
	PAGE_ARCHIVE_MONTH,	/* arg: index in ix->months */
	PAGE_AUTHORS,
	PAGE_AUTHOR,		/* arg: index in ix->authors */
	PAGE_AUTHOR_RSS,	/* arg: index in ix->authors */
	PAGE_PAGES,		/* the list of secondary pages */
	PAGE_404,
	PAGE_SEARCH,		/* search/: the page of search.js (search: true) */
	PAGE_RSS,
	PAGE_ATOM,
	PAGE_SITEMAP,
	PAGE_ROBOTS,
	PAGE_SOURCE,		/* a post's or page's Markdown; arg: index in
				 * ix->posts, nposts + index in ix->pages,
				 * -1: the home page */
	/* the Gemini capsule (gemini: true), in gemini_output_dir */
	PAGE_GMI_POST,		/* arg: index in ix->posts */
	PAGE_GMI_PAGE,		/* arg: index in ix->pages */
	PAGE_GMI_HOME,		/* index.gmi, the gemlog */
	PAGE_GMI_TAGS,
	PAGE_GMI_TAG,		/* arg: index in ix->tags */
	PAGE_GMI_ARCHIVES,
	PAGE_GMI_ATOM,		/* with gemini_url */
	PAGE_GMI_ROBOTS,
	PAGE_KIND_COUNT
};

/* The folder a kind's files go to: the site's output or the capsule. */
enum page_format {
	FORMAT_HTML,
	FORMAT_GEMINI
};

struct page_job {
	enum page_kind	 kind;
	size_t		 arg;
	char		*out_path;	/* relative to its format's folder */
	char		*url;		/* from the root; "" for non-pages
					 * and the capsule's files */
};

/* When a kind is rendered among a build's dirty pages (render_order). */
enum page_order {
	ORDER_LIST,	/* first: one list can hold thousands of posts */
	ORDER_SINGLE,	/* a post or a page */
	ORDER_AFTER	/* into the folder a single page made */
};

struct post;
struct render;

/* Builds the shared, read-only part of every page context. The arguments
 * must outlive the result. Call after dt_set_timezone. */
struct render	*render_new(const struct site_config *c,
		    const struct site_index *ix, const struct tmpl_set *t,
		    const struct locale *l, time_t now);
void		 render_free(struct render *r);
/*
 * Frames every HTML page with a BSSG site's header.html and footer.html
 * (see bssg_frame.h) in place of the templates' own; f is prepared here
 * and must outlive r. Warnings go to d.
 */
void		 render_set_frame(struct render *r, struct bssg_frame *f,
		    struct diag *d);
/* How link previews and feeds name the site's images (see image_hook.h);
 * h must outlive r. */
void		 render_set_images(struct render *r, const struct image_hook *h);
/* Every output of the site, in a stable order. Caller frees with
 * render_jobs_free, after render_free. The sitemap lists these pages, so
 * render_page needs this plan made first. */
size_t		 render_plan(struct render *r, struct page_job **jobs);
void		 render_jobs_free(struct page_job *jobs, size_t n);
/* Appends the bytes of job j to out. Returns 0, or -1 when a template is
 * missing (a message is written into err). */
int		 render_page(const struct render *r, const struct page_job *j,
		    struct buf *out, struct buf *err);
/* Links the stylesheet as /css/style.css?v=HASH (its content's hash):
 * a browser may keep it for good and still gets a new one when it
 * changes. The same for the site's custom_css (custom, 0: not a file of
 * the site, linked as written) and the search page's script. */
void		 render_set_stylesheet(struct render *r, uint64_t hash,
		    uint64_t custom, uint64_t script);
/*
 * Fingerprints, for incremental builds. The base covers what every page
 * depends on: templates (tmpl_hash), settings (cfg_hash), the site-wide
 * context and the menu. render_fingerprint covers, on top of the base,
 * the data job j shows; equal fingerprints mean equal bytes.
 */
void		 render_set_base(struct render *r, uint64_t tmpl_hash,
		    uint64_t cfg_hash);
/* The base of a kind's pages: the capsule's covers its settings, not
 * the templates. */
uint64_t	 render_base(const struct render *r, enum page_kind kind);
/* A hash of a value tree, as fingerprints see it. */
uint64_t	 render_val_hash(const struct val *v);
uint64_t	 render_fingerprint(const struct render *r,
		    const struct page_job *j);
/* Marks the posts whose body job j shows (post->need_html), so that a
 * build reads again the bodies its cache carried over. */
void		 render_mark_needed(const struct render *r,
		    const struct page_job *j);
/* The post or page whose images job j's page reports, or NULL. */
const struct post *render_subject(const struct render *r,
		    const struct page_job *j);
enum page_order	 render_order(enum page_kind kind);
enum page_format render_format(enum page_kind kind);

#endif
