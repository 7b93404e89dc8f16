#ifndef SSG_GITINFO_H
#define SSG_GITINFO_H

#include <time.h>

struct diag;

/*
 * Last-change dates from git (setting git_lastmod, like Hugo's
 * enableGitInfo): for each file, the time of the newest commit that
 * changed it, read from the repository holding the site with libgit2.
 */
struct gitinfo;

/* Reads the history of the repository that holds site_dir. Returns NULL,
 * with a warning in d, when there is none. */
struct gitinfo	*gitinfo_load(const char *site_dir, struct diag *d);
void		 gitinfo_free(struct gitinfo *g);
/* The commit time for the file at path (any form that resolves inside the
 * work tree), or 0 if no commit changed it. */
time_t		 gitinfo_lastmod(const struct gitinfo *g, const char *path);

#endif
