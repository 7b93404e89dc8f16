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

#endif
