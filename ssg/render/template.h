#ifndef SSG_TEMPLATE_H
#define SSG_TEMPLATE_H

#include <stddef.h>

#include "buf.h"
#include "diag.h"
#include "value.h"

/*
 * Mustache templates (the spec's core modules plus inheritance and dynamic
 * names; no lambdas). A set holds named templates compiled once; rendering
 * walks the compiled form and never parses again.
 *
 * {{x}} is escaped with esc_html; {{{x}}} and {{&x}} are not. A section
 * {{#x}} renders for each item of a non-empty list, or once with x on top
 * of the context stack when x is truthy (see val_truthy); {{^x}} renders
 * when x is falsy. Partials {{>x}} and parents {{<x}}...{{/x}} are looked
 * up in the set when rendered; a missing one renders as nothing.
 *
 * Runaway recursion is cut short: expansions (of partials, parents and
 * block arguments) nested deeper than TMPL_MAX_DEPTH render nothing, nor
 * does any expansion past the first TMPL_MAX_EXPANSIONS of one render (a
 * template including itself twice would otherwise expand 2^64 times).
 */
#define TMPL_MAX_DEPTH		64
#define TMPL_MAX_EXPANSIONS	1000000
/*
 * Nor does a render go on past TMPL_MAX_OUTPUT bytes: each expansion may
 * be large (a partial including itself ten times within a section grows
 * tenfold per level), and so may sections nested over long lists. The
 * largest real pages, an archive of 10,000 posts, are about 10 MB.
 */
#ifndef TMPL_MAX_OUTPUT		/* the fuzz targets set a smaller one */
#define TMPL_MAX_OUTPUT		(64u << 20)
#endif

struct tmpl_set;

/* An empty set; free with tmpl_set_free (NULL ok). */
struct tmpl_set	*tmpl_set_new(void);
void	 tmpl_set_free(struct tmpl_set *s);

/*
 * Compiles src (len bytes) under name, which names it for partials,
 * parents and messages. Returns 0, or -1 after recording each problem as
 * "name:line: message" in d (d may be NULL); on failure the set is left
 * as it was. Adding a name again replaces the earlier template; do not
 * add while other threads render from s.
 */
int	 tmpl_set_add(struct tmpl_set *s, const char *name, const char *src,
	    size_t len, struct diag *d);
/*
 * Checks that no template includes itself (by partials or parents, through
 * others or not) outside any section, which would never end: returns 0,
 * or -1 after an error "name:line: ..." in d for each such loop.
 */
int	 tmpl_set_check(const struct tmpl_set *s, struct diag *d);
/* 1 if s holds a template called name, else 0. */
int	 tmpl_set_has(const struct tmpl_set *s, const char *name);

/*
 * Renders template name with the context stack ctx[0..n-1] (ctx[n-1] on
 * top, searched first), appending to out. Returns 0, 1 if expansions were
 * cut short (see above), or -1 (out untouched)
 * if name is unknown. Read-only on s and ctx: any number of threads may
 * render from one set at once.
 */
int	 tmpl_render(const struct tmpl_set *s, const char *name,
	    const struct val *const *ctx, size_t n, struct buf *out);
/* The same; when expansions were cut short (see above), returns 1 with
 * "name:line: ..." in err (may be NULL), out holding what was rendered. */
int	 tmpl_render_err(const struct tmpl_set *s, const char *name,
	    const struct val *const *ctx, size_t n, struct buf *out,
	    struct buf *err);

#endif
