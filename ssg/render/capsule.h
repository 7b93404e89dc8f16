#ifndef SSG_CAPSULE_H
#define SSG_CAPSULE_H

#include <stddef.h>

struct diag;
struct manifest;
struct site_config;
struct site_index;

struct image_hook;

struct capsule_opts {
	const char	*dir;		/* the capsule folder */
	const char	*list;		/* its files' list, in .ssg-cache/ */
	/* what list held, each file checked (manifest_set_found) by the
	 * caller; the caller frees it */
	struct manifest	*old;
	const char	*name;		/* dir as messages name it */
	int		 force;		/* make every file again */
	size_t		 threads;
	/* Told, for each file made, why (--explain). May be NULL; called
	 * from several threads. */
	void		(*explain)(const char *path, const char *why,
			    void *arg);
	void		*explain_arg;
	/* links to the site's images name their copies; may be NULL */
	const struct image_hook *images;
};

/*
 * The Gemini capsule (gemini: true): the same posts and pages as gemtext,
 * written to o->dir (the site's gemini_output_dir). index.gmi is the gemlog:
 * the site's title and description, then one line per post, newest
 * first, "=> /YYYY/MM/DD/slug/index.gmi YYYY-MM-DD Title", which Gemini
 * clients subscribe to. Each post and page is at the path of its HTML
 * page with index.gmi for index.html. Posts written in HTML are left out
 * with a warning (their HTML does not convert reliably).
 *
 * Incremental as the HTML pages are: o->list (in .ssg-cache/) names
 * every file the last build wrote with the fingerprint of what it shows
 * (o->old, as loaded and checked by the caller);
 * a post or page whose fingerprint is unchanged and whose file is there
 * is not read nor rendered again (unless o->force), and a file is only
 * rewritten when its bytes change. Files the list named that this build
 * does not make (a deleted post's) are removed. Posts and pages are made
 * on up to o->threads threads. Returns 0, or -1 after errors in d.
 */
int	capsule_write(const struct site_config *c, const struct site_index *ix,
	    const struct capsule_opts *o, struct diag *d);

#endif
