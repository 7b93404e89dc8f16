#ifndef SSG_DYNLIB_H
#define SSG_DYNLIB_H

#include <stddef.h>

#include "diag.h"

/*
 * Shared libraries opened on first use. Only some commands need libcurl
 * (check --external), libmicrohttpd (serve), libarchive (backups) or
 * libgit2 (git_lastmod); linking them would make every run, an incremental
 * build included, load some forty libraries first.
 *
 * A library is a table of function pointers filled from names; see
 * lazy_curl.h for the pattern. what says what it is needed for, for the
 * error when it cannot be opened.
 */
struct dynlib {
	const char		*soname;
	const char		*what;
	const char *const	*names;
	void			**slots;	/* one per name */
	size_t			 n;
	int			 state;		/* 0 not tried, 1 ok, -1 failed */
};

/* Opens the library and fills its slots, once; 0 or -1 (recorded in d). */
int	dynlib_load(struct dynlib *l, struct diag *d);

#endif
