#ifndef SSG_RELATED_H
#define SSG_RELATED_H

#include <stddef.h>

struct site_index;

/*
 * Related posts: for each post, the `want` others sharing the most tags
 * (then the newest, then by URL, so every build agrees). Which posts are
 * related depends only on every post's URL, date and tags; that is hashed
 * and the answer kept in cache_path (may be NULL), so a build where no
 * tag or date changed does not compute it again.
 */
void	related_build(struct site_index *ix, size_t want, size_t threads,
	    const char *cache_path);

#endif
