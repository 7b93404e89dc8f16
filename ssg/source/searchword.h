#ifndef SSG_SEARCHWORD_H
#define SSG_SEARCHWORD_H

#include <stddef.h>
#include <stdint.h>

struct buf;

/*
 * The words of the search index, as ssg writes them and as search.js and
 * `ssg search` read a query: text split on everything but letters and
 * digits, each word lower-cased and, where the site's language folds
 * (search_lang_folds), with its accents taken off (é: e, ß: ss, ς: σ).
 * The alphabet is ASCII, Latin-1, Latin Extended-A (and Romanian ș ț),
 * basic Greek and basic Cyrillic; any other character separates words,
 * but combining accents (U+0300-U+036F) are dropped inside one (in both
 * modes: text is expected composed, NFC). themes/templates/search.js
 * holds the same rules, told the mode by manifest.json; no stemming.
 */

/* Longest word kept, in bytes: longer ones are not words people type. */
#define SEARCH_WORD_MAX	64

/* 1 if the index of a site in language lang (site_lang: "en", "sv-SE")
 * folds accents, 0 if it keeps accented letters apart. */
int	search_lang_folds(const char *lang);
/* Calls fn for each word of s[0..n), lower-cased, its accents folded
 * when fold is 1 (a word longer than SEARCH_WORD_MAX bytes is skipped),
 * with its search_word_hash. w is valid during the call only, 8-byte
 * aligned and followed by zeros to a multiple of 8 bytes (at least one:
 * it is a string), so that it can be read 8 bytes at a time. Invalid
 * UTF-8 separates words. */
typedef void	(*search_word_fn)(const char *w, size_t len, uint64_t h,
		    void *arg);
void	search_words(const char *s, size_t n, int fold, search_word_fn fn,
	    void *arg);
/* A word's hash for tables in memory (not kept in files): quicker than
 * hash64 for words of a few bytes, made as they are split. */
uint64_t search_word_hash(const char *w, size_t len);
/* The same, for w as search_words gives it (read 8 bytes at a time). */
uint64_t search_word_hash_padded(const char *w, size_t len);
/* The same, for text that comes in pieces (the literals of a parsed
 * tree): a word goes on from one piece to the next until
 * search_words_break, which ends it (and the text). Init with
 * search_words_init. */
struct search_wordsplit {
	search_word_fn	 fn;
	void		*arg;
	int		 fold;
	size_t		 len;		/* of the word so far, which may be
					 * longer than it holds */
	/*
	 * The word, 8 bytes at a time: the last ones gathered in x and
	 * stored whole. Bytes written one by one and read back as 8 wait
	 * for the stores (x86's store forwarding fails), which was most of
	 * the cost of hashing words as they come.
	 */
	uint64_t	 x;
	uint64_t	 q[SEARCH_WORD_MAX / 8 + 1];
};

void	search_words_init(struct search_wordsplit *ws, int fold,
	    search_word_fn fn, void *arg);
void	search_words_feed(struct search_wordsplit *ws, const char *s,
	    size_t n);
void	search_words_break(struct search_wordsplit *ws);
/* Appends the shard name of a folded word: its first two characters,
 * [a-z0-9] as they are and any other as _ and four hex digits. */
void	search_shard_name(struct buf *out, const char *w);

#endif
