#ifndef SSG_CAPSULE_H
#define SSG_CAPSULE_H

struct diag;
struct site_config;
struct site_index;

/*
 * The Gemini capsule (gemini: true): the same posts and pages as gemtext,
 * written to dir (the site's gemini_output_dir). index.gmi is the gemlog:
 * the site's title and description, then one line per post, newest
 * first, "=> /YYYY/MM/DD/slug/index.gmi YYYY-MM-DD Title", which Gemini
 * clients subscribe to. Each post and page is at the path of its HTML
 * page with index.gmi for index.html. Posts written in HTML are left out
 * with a warning (their HTML does not convert reliably). Files are only
 * rewritten when their bytes change. Returns 0, or -1 after errors in d.
 */
int	capsule_write(const struct site_config *c, const struct site_index *ix,
	    const char *dir, struct diag *d);

#endif
