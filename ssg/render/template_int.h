#ifndef SSG_TEMPLATE_INT_H
#define SSG_TEMPLATE_INT_H

/*
 * Inside the template engine: the compiled form that template_compile.c
 * makes and template.c keeps in sets and renders.
 */
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

enum ntype {
	N_TEXT,
	N_VAR,		/* {{x}}: escaped */
	N_RAW,		/* {{{x}}}, {{&x}} */
	N_SECTION,
	N_INVERTED,
	N_PARTIAL,
	N_PARENT,
	N_BLOCK
};

struct part {
	const char	*s;
	size_t		 len;
	uint32_t	 hash;
};

struct node {
	unsigned char	 type;
	unsigned char	 bol;		/* N_TEXT: starts a line of the source */
	unsigned char	 standalone;	/* partial, parent, block: alone on its line */
	unsigned char	 dynamic;	/* partial, parent: {{>*name}} */
	size_t		 span;		/* number of descendants (they follow) */
	const char	*str;		/* text; or partial, parent, block name */
	size_t		 len;
	uint32_t	 hash;		/* of a name in str */
	const struct part *parts;	/* dotted name; none means "." */
	size_t		 nparts;
	size_t		 pidx;		/* while compiling: index of parts[0] */
	const char	*ind;		/* indentation for standalone tags */
	size_t		 indlen;
};

struct tmpl {
	char		*name;
	size_t		 namelen;
	uint32_t	 hash;
	char		*src;		/* names point in here */
	char		*text;		/* text nodes point in here */
	struct part	*parts;
	struct node	*nodes;
	size_t		 nnodes;
};

/*
 * Compiles src (len bytes, copied) as the template called name. Returns
 * it (free with tmpl_free, NULL ok), or NULL after recording each problem
 * as "name:line: message" in d (d may be NULL).
 */
struct tmpl	*tmpl_compile(const char *name, const char *src, size_t len,
		    struct diag *d);
void		 tmpl_free(struct tmpl *t);

#endif
