#ifndef SSG_SEARCHWORD_H
#define SSG_SEARCHWORD_H

#include <stddef.h>

struct buf;

/*
 * The words of the search index, as ssg writes them and as search.js and
 * `ssg search` read a query: text split on everything but letters and
 * digits, each word lower-cased with its accents taken off (é: e, ß: ss,
 * ς: σ). The alphabet is ASCII, Latin-1, Latin Extended-A (and Romanian
 * ș ț), basic Greek and basic Cyrillic; any other character separates
 * words, but combining accents (U+0300-U+036F) are dropped inside one.
 * themes/templates/search.js holds the same rules; no stemming.
 */

/* Longest word kept, in bytes: longer ones are not words people type. */
#define SEARCH_WORD_MAX	64

/* Calls fn for each folded word of s[0..n) (a word longer than
 * SEARCH_WORD_MAX is skipped). w is NUL-terminated and valid during the
 * call only. Invalid UTF-8 separates words. */
void	search_words(const char *s, size_t n,
	    void (*fn)(const char *w, size_t len, void *arg), void *arg);
/* Appends the shard name of a folded word: its first two characters,
 * [a-z0-9] as they are and any other as _ and four hex digits. */
void	search_shard_name(struct buf *out, const char *w);

#endif
