#ifndef SSG_IMPORT_BSSG_INT_H
#define SSG_IMPORT_BSSG_INT_H

/*
 * Inside the BSSG importer: the settings as import_bssg.c reads them,
 * for import_bssg_yaml.c to map onto site.yaml.
 */
#include <stddef.h>

#include "buf.h"

enum bvar_kind {
	BV_SCALAR,
	BV_ARRAY,		/* value: each item, then '\n' */
	BV_ASSOC		/* value: key '\t' text '\n' for each */
};

struct bvar {
	char	*name;
	char	*value;
	enum bvar_kind kind;
	char	*file;		/* base name of the file that set it */
	int	 line;
};

struct bssg_site {
	char		*dir;
	struct bvar	*v;
	size_t		 nv, cap;
	struct buf	 files;		/* the files read, ", " between */
};

/* The variable called name[0..n-1], or NULL. It lives as long as s. */
struct bvar	*bssg_find_var(const struct bssg_site *s, const char *name,
		    size_t n);

#endif
