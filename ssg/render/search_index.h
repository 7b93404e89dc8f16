#ifndef SSG_SEARCH_INDEX_H
#define SSG_SEARCH_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct buf;

/*
 * The search index of a site, written under search/ beside its page:
 *
 *   manifest.json  {"version":2,"fold":F,"docs":N,"words":W,"page":P,
 *                   "shards":["ab",...]}
 *   len.json       [L,...]: each document's length in words, by number
 *   d/K.json       [[title,url,date,excerpt],...]: documents K*P to
 *                  K*P+P-1, the table a hit is shown from
 *   s/XX.json      {"word":[d,x,d,x,...],...} for the words whose shard
 *                  name (searchword.h) is XX
 *
 * A document's number is its place in the order added. In a word's
 * postings d is the document's number less the one before (the first
 * as it is: the numbers rise), and x is 2 tf + t, where tf is how often
 * the word comes in the document (title, tags, description and text) and
 * t is 1 when it is in the title. F is 1 when the words are folded (their
 * accents taken off, searchword.h), 0 when only lower-cased; W the sum of
 * the lengths. A query needs the manifest, len.json, the shards of its
 * words and the pages of the documents it shows: nothing grows with the
 * site but len.json (a few bytes a document) and the postings.
 *
 * The files are a function of the documents added, in order: the same
 * site gives the same bytes, built in full or not, and a document whose
 * words change changes only the shards of the words it gains, loses or
 * counts differently, len.json, its page and the manifest.
 */
#define SEARCH_INDEX_VERSION	2
/* Documents to a page of d/: the fewer, the less a hit costs to show,
 * the more files (measured: search post, "what it costs"). */
#define SEARCH_DOCS_PER_PAGE	8

struct search_index;

/* One post or page. Any field may be NULL. The body is terms (as
 * search_terms makes them) or, when terms is NULL, text. */
struct search_doc {
	const char	 *title, *url, *date, *excerpt, *description;
	const char *const *tags;
	size_t		  ntags;
	const char	 *text;		/* the body as plain text */
	size_t		  text_len;
	const char	 *terms;	/* or its words, counted */
	size_t		  terms_len;
};

/* An index whose words are folded (fold 1) or only lower-cased (0). */
struct search_index *search_index_new(int fold);
/* NULL does nothing. */
void	search_index_free(struct search_index *ix);
/* Adds d as the next document (copied). */
void	search_index_add(struct search_index *ix, const struct search_doc *d);
/* Calls emit for each file of the index, by its path under search/
 * ("manifest.json", "len.json", "d/0.json", "s/ab.json"), in a fixed
 * order, the manifest last; stops at the first that returns -1. Returns
 * 0 or -1. */
int	search_index_write(struct search_index *ix,
	    int (*emit)(const char *rel, const char *data, size_t n, void *arg),
	    void *arg);
/* The same, each file with a fingerprint of what it is made from (its
 * words and postings, its documents; for the lengths and the manifest,
 * its bytes), never 0. A file for which known says 1 (it is in place,
 * with that fingerprint) is not made; known may be NULL. */
struct search_writer {
	int	(*known)(const char *rel, uint64_t fp, void *arg);
	int	(*emit)(const char *rel, const char *data, size_t n,
		    uint64_t fp, void *arg);
	void	*arg;
};
int	search_index_write_with(struct search_index *ix,
	    const struct search_writer *w);

/* Appends the distinct words of the plain text s[0..n), folded or not,
 * as lines "word\tcount\n" in the order the words first come: the form a
 * document's body takes in search_doc.terms, and in the build's cache. */
void	search_terms(const char *s, size_t n, int fold, struct buf *out);

/* Appends the words of a body already parsed (doc, a cmark_node *) as
 * search_terms makes them from text: code blocks and HTML left out. */
void	search_doc_terms(void *doc, int fold, struct buf *out);
/* The same for a Markdown body src[0..n), parsed as markdown_render
 * parses it (smart: typographic punctuation). Returns 0, or -1 when it
 * cannot be parsed (nothing appended). */
int	search_markdown_terms(const char *src, size_t n, int smart, int fold,
	    struct buf *out);
/* (A body written in HTML: markdown_html_text, markdown.h.) */

#endif
