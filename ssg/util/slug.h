#ifndef SSG_SLUG_H
#define SSG_SLUG_H

#include "buf.h"

/*
 * Appends the URL slug of text: accented Latin letters folded to ASCII
 * (e.g. "Crème brûlée" -> "creme-brulee", "Straße" -> "strasse"),
 * lowercase, every other run of characters made one dash, no dash at
 * either end. Characters with no ASCII form are dropped, so the result may
 * be empty: callers fall back to another name.
 */
void	slug_append(struct buf *out, const char *text);
/* 1 if s is a usable slug component: non-empty, only [a-z0-9-_.] and not
 * "." or "..", so it cannot leave the output folder. */
int	slug_is_safe(const char *s);

#endif
