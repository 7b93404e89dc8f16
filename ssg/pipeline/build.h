#ifndef SSG_BUILD_H
#define SSG_BUILD_H

#include <stddef.h>

struct diag;

/*
 * One build of a site: the library entry point used by `ssg build`,
 * `ssg serve` and `deploy push`.
 */
struct build_opts {
	const char	*site_dir;	/* folder with site.yaml; NULL: "." */
	const char	*config;	/* NULL: site_dir/site.yaml */
	const char	*output_dir;	/* overrides output_dir */
	const char	*theme;		/* overrides theme */
	const char	*site_url;	/* overrides site_url */
	const char	*themes_builtin;/* built-in themes folder (theme.h) */
	const char	*const *set;	/* "key=value" overrides, NULL-ended */
	/* "key=value" settings site.yaml may change, NULL-ended: another
	 * default for a caller (deploy push precompresses) */
	const char	*const *defaults;
	int		 force;		/* ignore caches: parse and render all */
	int		 force_images;	/* encode every image again too */
	int		 drafts;	/* include drafts */
	int		 future;	/* include posts dated in the future */
	int		 strict;	/* stop at the first bad source */
	int		 jobs;		/* threads; 0: one per CPU */
	/* Progress callback: stage name, done, total. May be NULL. */
	void		(*progress)(const char *stage, size_t done,
			    size_t total, void *arg);
	void		*progress_arg;
	/* Told, for each page rendered, why (--explain). May be NULL. */
	void		(*explain)(const char *path, const char *why,
			    void *arg);
	void		*explain_arg;
};

struct build_stats {
	size_t	 posts;		/* published posts */
	size_t	 pages;
	size_t	 skipped;	/* sources left out because of errors */
	size_t	 drafts;	/* left out as drafts or scheduled */
	size_t	 outputs;	/* files the site has */
	size_t	 rendered;	/* pages rendered (the others were current) */
	size_t	 written;	/* files whose bytes changed */
	size_t	 removed;	/* stale files deleted */
	double	 seconds;
	size_t	 code_blocks;	/* fenced code with a language */
	size_t	 code_cached;	/* ... whose colours the cache had */
	size_t	 code_plain;	/* ... left plain */
	size_t	 highlighters_started;	/* helper processes started */
	size_t	 images;	/* images of static/ published as copies */
	size_t	 images_encoded;	/* ... whose copies were encoded now */
	char	 theme[64];	/* the theme used (after 'random') */
	char	 output[4096];	/* the output folder */
	char	 capsule[4096];	/* the Gemini capsule's, "" without gemini */
};

/*
 * Builds the site. Bad sources are reported in d and left out; the rest of
 * the site is still written (with strict, nothing is written after the
 * first error). Returns 0 when no error was recorded, -1 otherwise.
 */
int	ssg_build(const struct build_opts *o, struct build_stats *st,
	    struct diag *d);

#endif
