#ifndef SSG_SITEINDEX_H
#define SSG_SITEINDEX_H

#include <stddef.h>

#include "content.h"

struct diag;
struct site_config;

/*
 * The site model: published posts in order, pages, tags, authors, archives
 * and related posts. Built once per
 * build from the loaded sources; read-only afterwards, so render workers
 * share it.
 */
struct tag_info {
	const char	*name;		/* first spelling seen, by post order */
	const char	*slug;
	struct post	**posts;	/* newest first */
	size_t		 nposts;
};

struct author_info {
	const char	*name;
	const char	*email;
	char		*slug;
	struct post	**posts;	/* newest first */
	size_t		 nposts;
};

/* Posts of one month, by the date as written (as BSSG groups them). */
struct archive_month {
	int		 year, month;
	struct post	**posts;	/* newest first */
	size_t		 nposts;
};

struct archive_year {
	int		 year;
	size_t		 first;		/* index in months */
	size_t		 nmonths;
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
	struct author_info *authors;	/* by name */
	size_t		 nauthors;
	struct archive_month *months;	/* newest first */
	size_t		 nmonths;
	struct archive_year *years;	/* newest first */
	size_t		 nyears;
	struct post	**secondary;	/* pages with secondary: true */
	size_t		 nsecondary;
	const char	*site_author;	/* for posts that name none */
	const char	*site_email;
};

/*
 * Indexes posts[0..np) and pages[0..ng) (both arrays owned by the caller,
 * which must outlive ix). Two sources with the same URL are an error naming
 * both. Returns 0 or -1.
 */
int	siteindex_build(struct site_index *ix, struct post *posts, size_t np,
	    struct post *pages, size_t ng, const struct site_config *c,
	    struct diag *d);
void	siteindex_release(struct site_index *ix);
/* The name of a post's author: its own, or the site's. */
const char *siteindex_author(const struct site_index *ix, const struct post *p);
/* The e-mail of p's author as BSSG's content.sh gives it: the post's own,
 * else the site's when the post is by the site's author, else NULL.
 * Borrowed from p or the index. */
const char *siteindex_author_email(const struct site_index *ix,
    const struct post *p);
/* The author with this name, or NULL. */
const struct author_info *siteindex_author_info(const struct site_index *ix,
	    const char *name);
/* The tag with this slug, or NULL. */
const struct tag_info *siteindex_tag(const struct site_index *ix,
	    const char *slug);

#endif
