#ifndef SSG_IMPORT_BSSG_H
#define SSG_IMPORT_BSSG_H

#include <stddef.h>

struct buf;
struct diag;

/*
 * A BSSG site's settings, read from its config.sh and config.sh.local
 * without running a shell: the text is parsed as the small part of Bash a
 * configuration file uses (NAME=value assignments, optionally after
 * `export`; single and double quotes; backslash escapes; $NAME, ${NAME},
 * ${NAME:-word}, ${NAME-word}, ${NAME:=word}, ${NAME:+word}; comments).
 * Any other line (commands, `source`, `if`, $(...)) is skipped with a
 * warning at its file:line. Variables are never taken from the
 * environment, except HOME for `~` and $HOME.
 */
struct bssg_site;

/*
 * Reads dir/config.sh, then dir/config.sh.local over it, as BSSG does.
 * A site with neither file is an error; one with config.sh.local only is
 * read with a warning (BSSG then runs on its built-in defaults). Returns
 * the settings (free with bssg_free), or NULL after recording the reason
 * in d. Skipped lines are warnings in d.
 */
struct bssg_site *bssg_load(const char *dir, struct diag *d);
void		 bssg_free(struct bssg_site *s);

/*
 * Parses one file's text into s, as if appended to what s holds (later
 * assignments win). file names it in diagnostics. Returns the number of
 * lines skipped with a warning.
 */
size_t		 bssg_parse(struct bssg_site *s, const char *text, size_t len,
		    const char *file, struct diag *d);
/* An empty set of settings for bssg_parse; dir is the site folder that
 * relative paths are taken from. */
struct bssg_site *bssg_new(const char *dir);

/* The value of a variable after every file read, or NULL when none of
 * them assigns it. The pointer lives as long as s. */
const char	*bssg_get(const struct bssg_site *s, const char *name);

/*
 * Appends the equivalent site.yaml to out: every ssg setting that has a
 * BSSG variable, with the file's value or, when unset, the default BSSG
 * uses; folders relative to the site folder; the variables ssg has no
 * setting for as comments. Problems with values (a number that is not
 * one, a folder outside the site) are warnings in d. Returns the number
 * of settings written.
 */
size_t		 bssg_write_yaml(const struct bssg_site *s, struct buf *out,
		    struct diag *d);

/*
 * Warns, at each post or page of the site in dir, when BSSG made its URL
 * (from the title, no slug given) or a tag's URL from text with letters
 * outside ASCII: BSSG transliterates them as its build machine's locale
 * does, so ssg's URL may differ. When old (BSSG's output folder, may be
 * NULL) exists and the site uses BSSG's default URLs, each such post
 * whose old URL is found there is kept at it: a "slugs:" map is appended
 * to yaml; so is each such tag, found by its page's heading, in a
 * "tag_slugs:" map. *pinned counts the entries of both (notes in d name
 * each). Returns how many warnings.
 */
size_t		 bssg_locale_urls(const struct bssg_site *s, const char *dir,
		    const char *old, struct buf *yaml, size_t *pinned,
		    struct diag *d);

#endif
