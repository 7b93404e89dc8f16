#ifndef SSG_HIGHLIGHT_H
#define SSG_HIGHLIGHT_H

#include <stddef.h>

struct buf;
struct diag;

/*
 * Code blocks coloured at build time: Pygments, driven as a helper
 * process (highlight.py, in the data folder beside themes/) that reads
 * length-prefixed requests on a pipe and answers with token spans
 * (<span class="hl-k">...). Helpers are started only when a block is not
 * in the cache, at most one per thread that waits for one, and live as
 * long as the program (ssg serve keeps them between builds).
 *
 * The cache (.ssg-cache/highlight.bin) holds each block's HTML by the
 * hash of its language and code, for one highlighter: Pygments' version,
 * where it is installed (and that file's stat) and the helper script's
 * hash. A different highlighter discards it.
 */
struct highlight;

/* How many code blocks went which way in one build. */
struct highlight_stats {
	size_t	 blocks;	/* blocks with a language */
	size_t	 cached;	/* ... taken from the cache */
	size_t	 plain;		/* ... left plain */
	size_t	 started;	/* helpers started */
};

/* A highlighter for one build. script: the helper's path; cache: the
 * cache file's. Nothing is read or started yet. Owned by the caller
 * (highlight_free). */
struct highlight *highlight_new(const char *script, const char *cache,
		    struct diag *d);
/* The helper script in the data folder whose themes/ is themes (in the
 * source tree: ssg/highlight.py beside themes/), or NULL. Owned by the
 * caller. */
char		*highlight_script(const char *themes);
/*
 * Appends the block's HTML, <pre><code class="language-LANG">spans
 * </code></pre>, to out and returns 1. Or leaves out untouched and
 * returns 0 when the block stays plain because Pygments has no lexer for
 * lang (or it is too large), -1 when it does for want of a highlighter
 * (no python3, no Pygments, a helper that failed): then a later build may
 * colour it. Plain blocks get one warning per language per build, naming
 * file and line. code[0..n) is the block's text. Thread-safe.
 */
int		 highlight_block(struct highlight *h, const char *lang,
		    const char *code, size_t n, const char *file, int line,
		    struct buf *out);
/* Saves the cache if it changed. prune: every block of the site was seen
 * in this build, so blocks not seen are dropped. A failure is a warning. */
void		 highlight_save(struct highlight *h, int prune);
void		 highlight_get_stats(const struct highlight *h,
		    struct highlight_stats *st);
void		 highlight_free(struct highlight *h);

#endif
