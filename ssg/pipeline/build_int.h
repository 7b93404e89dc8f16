#ifndef SSG_BUILD_INT_H
#define SSG_BUILD_INT_H

/* Shared by build.c (the build's stages), build_sources.c (finding and
 * reading sources, the caches) and build_memo.c (the hash of a build's
 * inputs). Not for other modules. */

#include <sys/stat.h>

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "build.h"
#include "config.h"
#include "content.h"
#include "fsutil.h"
#include "image_hook.h"
#include "siteindex.h"
#include "sink.h"

struct bssg_frame;
struct buf;

struct source {
	char		*path;
	char		*rel;		/* inside its folder */
	char		*key;		/* inside the site: "posts/a.md" */
	struct stat	 st;		/* as the folder scan saw it */
	enum content_kind kind;
	int		 from_drafts;
	int		 ok;
	int		 published;	/* among this build's posts or pages */
	const struct post *cached;	/* its entry, as build_cached_memo
					 * found it by its stat */
};

/* A page to render, and why (for --explain). */
struct dirty {
	size_t		 job;
	const char	*why;
};

/* A file of static/, found before the pages are planned (its images
 * change them) and copied after them. */
struct static_file {
	char		*path, *rel;
	struct stat	 st;
};

struct search_job;

struct build {
	const struct build_opts	*o;
	struct build_stats	*st;
	struct diag		*d;
	struct site_config	 c;
	struct content_hooks	 hooks;	/* highlighter, gemtext, words */
	struct arena		*arena;
	char			*site_dir;
	char			*out_dir;
	int			 out_fd;	/* out_dir as the scan found it */
	int			 fresh;		/* out_dir made by this build */
	char			*builtin;
	struct fs_bound		 bound;		/* what may be read */
	struct source		*src;
	size_t			 nsrc, capsrc;
	struct post		*items;	/* parallel to src */
	struct post		*posts, *pages;
	size_t			 np, ng;
	struct site_index	 ix;
	struct tmpl_set		*tmpl;
	struct bssg_frame	*frame;		/* BSSG's header and footer */
	struct render		*render;
	struct page_job		*jobs;
	size_t			 njobs;
	struct manifest		*manifest;	/* this build's outputs */
	struct manifest		*old;		/* the previous build's */
	/* the capsule's files as the last build listed them (gemini) */
	struct manifest		*cap_old;
	int			 cap_fd;	/* its folder; -1: none */
	struct srccache		*cache;
	struct locale		*locale;
	char			*tmpdir;	/* output_tmpdir */
	struct sink		 out;		/* the writer of out_dir */
	/* the capsule's writer, its list and whether this build made its
	 * folder or failed to write into it (gemini, pages rendered) */
	struct sink		 cap;
	struct manifest		*cap_list;
	int			 cap_fresh, cap_failed;
	struct dirty		*dirty;
	size_t			 ndirty;
	uint64_t		*fps;		/* per job */
	const char		**whys;		/* per job: why render, or NULL */
	uint64_t		 tmpl_hash;
	char			*css;		/* the theme's sheet + base.css */
	size_t			 css_len;
	uint64_t		 css_hash;	/* of css/style.css as served */
	uint64_t		 custom_hash;	/* of custom_css, 0: none here */
	uint64_t		 script_hash;	/* of search.js, 0: no search */
	struct buf		 script;	/* search.js as read, with search */
	struct search_job	*search;	/* the index, while it is made */
	time_t			 now;
	size_t			 done;
	int			 force;
	int			 failed;
	int			 list_warned;	/* "cannot save the list" said */
	struct media		*media;		/* the images of static/ */
	struct image_hook	 images;	/* their copies, for feeds,
						 * previews and the capsule */
	struct static_file	*statics;	/* static/, as walked once */
	size_t			 nstatics, capstatics;
};

/* Reading the caches and checking the old outputs, beside the scan. */
struct cache_load {
	struct build	*b;
	const char	*cpath, *mpath;
	const char	*cap_dir, *cap_list;	/* NULL: no capsule */
	pthread_t	 loader, checker;
	int		 loading, checking;	/* the threads run */
};

/* build.c */
void	 build_trace(const char *stage);
char	*build_path(const struct build *b, const char *p);
/* Warns that the source at path is published though its mode keeps it
 * from others: what is published is readable by all, and a private file
 * dropped into the site by mistake should be seen. */
void	 build_warn_private(struct build *b, const char *path,
	    const struct stat *st);
void	 build_progress(struct build *b, const char *stage, size_t done,
	    size_t total);

/* build_search.c */
/* Writes the search index when the site has search on (or carries the
 * last build's over), listing its files in b->manifest: started before
 * the pages are rendered, on a thread of its own beside them (or at
 * once, on one thread), and waited for after. */
void	 build_search_start(struct build *b, size_t threads);
void	 build_search_wait(struct build *b);
/* config's search_words, for an index whose words are folded or not:
 * the words of a body as it is parsed for its HTML, so that a build that
 * parses it does not parse it again for the index. */
void	 search_words_folded(void *doc, void *out);
void	 search_words_kept(void *doc, void *out);
/* Writes search/search.js (themes/templates/search.js) when search is on. */
void	 build_search_script(struct build *b);
/* The hash of the files pages link by ?v=: the stylesheet, the site's
 * custom_css and the search script. A change re-renders every page. */
static inline uint64_t
build_assets_hash(const struct build *b)
{
	return b->css_hash ^ b->custom_hash * 0x9e3779b97f4a7c15ULL ^
	    b->script_hash * 0xff51afd7ed558ccdULL;
}

/* build_sources.c */
/* Which site a cache belongs to, and what parsing depends on besides the
 * text: both part of the source cache's identity. */
uint64_t build_site_id(const struct build *b);
uint64_t build_parse_hash(const struct build *b);
/* Lists the sources, with the caches read and the old outputs checked
 * beside it (the check may go on: see build_checked). */
void	 build_scan(struct build *b, struct cache_load *cl);
void	 build_checked(struct cache_load *cl);
/* Reads and parses the sources (or takes them from the cache) into posts
 * and pages. -1 at the first bad source with --strict. */
int	 build_load(struct build *b, size_t threads);
int	 build_published(const struct build *b, const struct post *p,
	    int *draft);

/* pages.c */
/* What feeds, link previews and the capsule show of the site's images
 * (NULL: images off). */
const struct image_hook *build_image_hook(struct build *b);
/* Each planned job judged against the last build's list: the current
 * ones listed as they are, the others marked (b->dirty), lists first. */
void	 build_plan_dirty(struct build *b, size_t threads);
/* The bodies the marked pages show, read again where the cache carried
 * them; -1 if one could not be (then nothing renders). */
int	 build_load_bodies(struct build *b, size_t threads);
/* The marked pages rendered on the pool and handed to their sinks. */
void	 build_render_pages(struct build *b, size_t threads);

/* build_memo.c */
uint64_t build_memo(struct build *b);
uint64_t build_cached_memo(struct build *b);
void	 build_count_cached(struct build *b);

#endif
