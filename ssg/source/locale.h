#ifndef SSG_LOCALE_H
#define SSG_LOCALE_H

#include <stddef.h>

struct diag;
struct fs_bound;
struct val;

/*
 * The words templates show ("Read more", month names ...) in the site's
 * language, from themes/locales/LANG.yaml (a site's themes_dir/locales/
 * first). Templates reach them as {{t.KEY}}. An unknown language falls
 * back to English with a warning; a key a file lacks falls back to the
 * English text.
 */
struct locale;

/* Loads lang ("it", "pt-BR", "pt_BR" -> pt-BR, else pt). site_themes may be
 * NULL; its files are read within bd (may be NULL: see fs_bound_check).
 * Never returns NULL. */
struct locale	*locale_load(const char *lang, const char *site_themes,
		    const char *builtin, const struct fs_bound *bd,
		    struct diag *d);
void		 locale_free(struct locale *l);
/*
 * Sets the text of a message, over the language's (the site's messages:
 * setting). key is a message key or a BSSG MSG_ name standing for one
 * (MSG_READ_MORE is read_more, MSG_MONTH_01 month_1). Returns 0, or -1
 * when there is no such message.
 */
int		 locale_set(struct locale *l, const char *key, const char *text);
/* The text of key, or "" if no file and no default has it. */
const char	*locale_get(const struct locale *l, const char *key);
/* Month name (1-12). */
const char	*locale_month(const struct locale *l, int month);
/*
 * BSSG's messages (its MSG_ names in lower case: "all_rights_reserved"),
 * in the language's words: what BSSG's header.html and footer.html
 * placeholders of those names stand for. "" for a name BSSG has not.
 */
const char	*locale_bssg(const struct locale *l, const char *name);
/* How many BSSG messages there are, and the name of the i-th. */
size_t		 locale_bssg_count(void);
const char	*locale_bssg_name(size_t i);
/* Every string as a map for templates. Caller frees with val_free. */
struct val	*locale_strings(const struct locale *l);
struct val	*locale_bssg_strings(const struct locale *l);

#endif
