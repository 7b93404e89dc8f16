#ifndef SSG_CHECK_H
#define SSG_CHECK_H

#include <stdio.h>

/*
 * The link checker: every internal link, #anchor, image and stylesheet
 * reference in the HTML files of a built site must resolve to a file (and
 * an element with that id). base is the path part of site_url ("" or
 * "/blog"), site_url the whole of it (links to it count as internal).
 * Problems are printed to out as "page: link: problem".
 * Returns the number of problems.
 */
size_t	check_links(const char *out_dir, const char *site_url,
	    const char *base, FILE *out, size_t *pages, size_t *links);

/*
 * Old URLs: every file an older build left in old_dir (a copy of the
 * output folder BSSG or ssg wrote before) that new_dir no longer has,
 * printed to out as "/url/: gone". *urls is how many were compared.
 * Returns the number gone.
 */
size_t	check_against(const char *old_dir, const char *new_dir, FILE *out,
	    size_t *urls);

/*
 * Scripts and frames loaded from other sites: each distinct src of a
 * <script> or <iframe> that points off the site is printed to out as
 * "script URL (N pages, e.g. PAGE)", sorted. Returns how many there are.
 */
size_t	check_embeds(const char *out_dir, const char *site_url, FILE *out);

/*
 * Outside links: every distinct http(s) URL of the built site is fetched
 * (libcurl multi interface: HEAD, then GET when a server answers 405 or
 * 501; redirects followed), at most max_total at once and max_per_host to
 * one host. A URL that answered well within cache_ttl seconds (as recorded
 * in cache_file, which is then rewritten) is not fetched again.
 */
struct extlink_opts {
	const char	*cache_file;	/* NULL: no cache */
	long		 cache_ttl;	/* seconds; 86400 */
	int		 max_total;	/* 16 */
	int		 max_per_host;	/* 2 */
	long		 timeout;	/* seconds per request */
};

/* Fills o with the defaults above and no cache. */
void	extlink_opts_init(struct extlink_opts *o);
/* Prints each problem as "page: url: problem" (once per page that has
 * the link) and returns their number; *links receives the number of
 * distinct URLs and *cached how many came from the cache. */
size_t	check_external(const char *out_dir, const char *site_url,
	    const struct extlink_opts *o, FILE *out, size_t *links,
	    size_t *cached);

#endif
