#ifndef SSG_SEARCH_INDEX_H
#define SSG_SEARCH_INDEX_H

#include <stddef.h>

struct buf;

/*
 * The search index of a site, written under search/ beside its page:
 *
 *   manifest.json  {"version":1,"docs":N,"words":W,"avglen":A,
 *                   "shards":["ab",...]}
 *   docs.json      [{"title":..,"url":..,"date":..,"excerpt":..,"len":L},..]
 *   s/XX.json      {"word":[[doc,tf,title],...],...} for the words whose
 *                  shard name (searchword.h) is XX
 *
 * doc is a position in docs.json, tf how often the word comes in the
 * document (title, tags, description and text), title 1 when it is in
 * the title. The files are a function of the documents added, in order:
 * the same site gives the same bytes, built in full or not.
 */
struct search_index;

/* One post or page. Any field may be NULL. */
struct search_doc {
	const char	 *title, *url, *date, *excerpt, *description;
	const char *const *tags;
	size_t		  ntags;
	const char	 *text;		/* the body as plain text */
	size_t		  text_len;
};

struct search_index *search_index_new(void);
/* NULL does nothing. */
void	search_index_free(struct search_index *ix);
/* Adds d as the next document (copied). */
void	search_index_add(struct search_index *ix, const struct search_doc *d);
/* Calls emit for each file of the index, by its path under search/
 * ("manifest.json", "docs.json", "s/ab.json"), in a fixed order; stops at
 * the first that returns -1. Returns 0 or -1. */
int	search_index_write(struct search_index *ix,
	    int (*emit)(const char *rel, const char *data, size_t n, void *arg),
	    void *arg);

/* Appends the words of a Markdown body src[0..n) as plain text, code
 * blocks and HTML left out. Returns 0, or -1 when it cannot be parsed
 * (nothing appended). */
int	search_text_markdown(const char *src, size_t n, struct buf *out);
/* (A body written in HTML: markdown_html_text, markdown.h.) */

#endif
