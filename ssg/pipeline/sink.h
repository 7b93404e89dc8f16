#ifndef SSG_SINK_H
#define SSG_SINK_H

#include <stddef.h>
#include <stdint.h>

struct diag;
struct manifest;

/*
 * The writer of an output folder (the site's, or the Gemini capsule's):
 * what a producer of the build (a page, a capsule page, the stylesheet, a
 * file of the search index, a file of static/) hands it goes in only when
 * its bytes differ from what is there, its .gz and .br siblings are kept
 * in step (compress), and it is listed in this build's list of the folder
 * with its fingerprint fp and base, so that the next build skips it while
 * it stands and removes it once nothing produces it (manifest.h). Safe
 * to call from the render threads.
 */
struct sink {
	const char	*dir;		/* the folder */
	struct manifest	*list;		/* what this build put there */
	const char	*tmpdir;	/* scratch for the siblings */
	int		 compress;	/* .gz and .br siblings kept */
	struct diag	*d;
};

enum sink_flags {
	SINK_CREATE	= 1,	/* the folder was made by this build: created,
				 * not compared */
	SINK_DIR_THERE	= 2	/* (with SINK_CREATE) its folder is likely
				 * there already */
};

/* rel's bytes (data, n). *changed (may be NULL) tells whether they were
 * written. 0, or -1 with the problem said in the build's diag. */
int	sink_bytes(struct sink *s, const char *rel, const void *data,
	    size_t n, uint64_t fp, uint64_t base, int flags, int *changed);

/* The same for the file at src, copied (its time kept). */
int	sink_file(struct sink *s, const char *src, const char *rel,
	    int *changed);

#endif
