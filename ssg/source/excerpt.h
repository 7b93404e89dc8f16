#ifndef SSG_EXCERPT_H
#define SSG_EXCERPT_H

#include <stddef.h>

struct buf;

/*
 * Appends to out the excerpt of a post's body src[0..n) (front matter
 * removed), by BSSG's rule: its first non-blank line once code, markup
 * and HTML tags are gone, cut at max bytes (as BSSG counts them, with
 * & < > escaped) at a character's start, and "..." after a cut. The text
 * is plain (not escaped); nothing is appended when no line is left.
 */
void	excerpt_bssg(const char *src, size_t n, size_t max, struct buf *out);

#endif
