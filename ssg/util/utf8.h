#ifndef SSG_UTF8_H
#define SSG_UTF8_H

#include <stddef.h>

/* Returns 0 if s[0..n) is valid UTF-8, else the 1-based line of the first
 * bad byte. */
int	utf8_check(const char *s, size_t n);
/* Decodes one code point at *sp (advancing it); returns it, or -1 for a bad
 * sequence (then *sp moves one byte). */
long	utf8_next(const char **sp, const char *end);

#endif
