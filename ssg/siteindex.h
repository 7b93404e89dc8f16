#ifndef SSG_SITEINDEX_H
#define SSG_SITEINDEX_H

#include <stddef.h>

#include "content.h"

struct diag;

/*
 * The site model: published posts in order, pages, tags. Built once per
 * build from the loaded sources; read-only afterwards, so render workers
 * share it.
 */
struct tag_info {
	const char	*name;		/* first spelling seen, by post order */
	const char	*slug;
	struct post	**posts;	/* newest first */
	size_t		 nposts;
};

struct site_index {
	struct post	**posts;	/* newest first; ties by title, then URL */
	size_t		 nposts;
	struct post	**pages;	/* by title */
	size_t		 npages;
	struct post	*home;		/* page with slug "index", if any */
	struct tag_info	*tags;		/* by name, case-folded */
	size_t		 ntags;
	struct tag_info	**by_slug;	/* the same, by slug, for lookups */
};

/*
 * Indexes posts[0..np) and pages[0..ng) (both arrays owned by the caller,
 * which must outlive ix). Two sources with the same URL are an error naming
 * both. Returns 0 or -1.
 */
int	siteindex_build(struct site_index *ix, struct post *posts, size_t np,
	    struct post *pages, size_t ng, struct diag *d);
void	siteindex_release(struct site_index *ix);
/* The tag with this slug, or NULL. */
const struct tag_info *siteindex_tag(const struct site_index *ix,
	    const char *slug);

#endif
