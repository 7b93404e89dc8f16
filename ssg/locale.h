#ifndef SSG_LOCALE_H
#define SSG_LOCALE_H

struct val;

/*
 * The words templates show ("Read more", month names ...), by language.
 * Templates reach them as {{t.KEY}}.
 */

/* A map of every string for lang, falling back to English for an unknown
 * language (*known is then set to 0). Caller frees with val_free. */
struct val *locale_strings(const char *lang, int *known);
/* Month name (1-12) in lang; English if unknown. */
const char *locale_month(const char *lang, int month);

#endif
