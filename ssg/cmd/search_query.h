#ifndef SSG_SEARCH_QUERY_H
#define SSG_SEARCH_QUERY_H

#include <stddef.h>

struct buf;

/*
 * Queries the index search_index.h writes, as search.js does: the words
 * of the query (searchword.h) must all be in a document, the last one as
 * the start of a word (it is still being typed); documents are ranked by
 * BM25 (k1 1.2, b 0.75), a word's score doubled where it is in the title,
 * then by their number in the index (newest post first). The words are
 * folded or not as manifest.json says. Only the pages of the document
 * table (d/K.json) that the hits shown are in are read.
 */
#define SEARCH_K1		1.2
#define SEARCH_B		0.75
#define SEARCH_TITLE_WEIGHT	2.0
/* Bounds on a query: past them it is refused, not truncated. */
#define SEARCH_QUERY_MAX	1000	/* bytes */
#define SEARCH_WORDS_MAX	16

/* Reads the index file rel ("manifest.json", "s/ab.json") into out.
 * Returns 0, or -1 when there is no such file (an unknown shard). */
typedef int (*search_load_fn)(const char *rel, struct buf *out, void *arg);

struct search_hit {
	const char	*title, *url, *date, *excerpt;	/* in the result */
	double		 score;
	size_t		 doc;
};

enum search_status {
	SEARCH_OK,		/* hits, perhaps none */
	SEARCH_NO_WORDS,	/* nothing in the query to look for */
	SEARCH_TOO_LONG,	/* past SEARCH_QUERY_MAX or SEARCH_WORDS_MAX */
	SEARCH_NO_INDEX,	/* no manifest.json */
	SEARCH_DAMAGED		/* a file of the index is not what it should be */
};

struct search_result {
	enum search_status	 status;
	struct search_hit	*hits;		/* best first */
	size_t			 nhits;		/* shown: at most the limit */
	size_t			 total;		/* that hold every word */
	void			*priv;		/* what the hits point into */
};

/* Runs the query q (NUL-terminated) over the files load reads, and
 * reads what the best limit hits show (0: all of them). The result is
 * r's to release; on SEARCH_DAMAGED, err names the file. Returns
 * r->status. */
enum search_status search_query(const char *q, size_t limit,
	    search_load_fn load, void *arg, struct search_result *r,
	    struct buf *err);
void	search_result_release(struct search_result *r);

#endif
