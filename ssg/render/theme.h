#ifndef SSG_THEME_H
#define SSG_THEME_H

#include <stddef.h>
#include <stdint.h>

struct diag;
struct fs_bound;
struct tmpl_set;

/*
 * Themes, as in BSSG: one HTML structure (the .mustache files in themes/templates/) and
 * a theme is a stylesheet, themes/NAME/style.css. A site overrides any
 * template with a file of the same name in its templates_dir and adds
 * themes in its themes_dir, searched before the built-in ones.
 */

/*
 * The folder that holds the built-in themes/ (with templates/ inside):
 * $SSG_DATADIR if set, else found from the program's path (a source tree's
 * themes/ beside bin/, or PREFIX/share/ssg/themes). argv0 is argv[0].
 * Returns a malloc'd path, or NULL when none is found.
 */
char	*theme_builtin_dir(const char *argv0);
/* Loads every .mustache file of builtin/templates, then of site_templates
 * (may be NULL or missing; read within bd, which may be NULL: see
 * fs_walk_in); *hash (may be NULL) receives a hash of every name and text
 * loaded. Returns 0, or -1 after recording errors in d. */
int	theme_load_templates(struct tmpl_set *t, const char *builtin,
	    const char *site_templates, const struct fs_bound *bd,
	    uint64_t *hash, struct diag *d);
/* The path of NAME/style.css in site_themes, else in builtin; NULL if
 * neither has it. Caller frees. */
char	*theme_stylesheet(const char *name, const char *site_themes,
	    const char *builtin);
/* What themes/NAME/theme.yaml says of a theme; empty strings where it is
 * silent or missing. */
struct theme_info {
	char	*name;
	char	*description;
	char	*family;
	char	*dark;		/* "true", "false" or "auto" */
};

/* Reads the theme.yaml beside NAME's stylesheet. Returns 0, or -1 when the
 * theme does not exist. Release with theme_info_release. */
int	theme_info_load(struct theme_info *ti, const char *name,
	    const char *site_themes, const char *builtin);
void	theme_info_release(struct theme_info *ti);
/* Sorted names of all themes in both folders (no duplicates). Caller frees
 * each name and the array. */
size_t	theme_list(const char *site_themes, const char *builtin, char ***names);

#endif
