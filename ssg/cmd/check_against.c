/* ssg check --against: the URLs an older build published that the new
 * build no longer has (cool URLs don't change). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "fsutil.h"

struct against {
	const char	*new_dir;
	FILE		*out;
	size_t		 urls, gone;
};

/* A file of the old build a reader could ask for; not the compressed
 * siblings ssg or a server writes beside them. */
static int
published(const char *rel)
{
	size_t n = strlen(rel);

	return !(n > 3 && (strcmp(rel + n - 3, ".gz") == 0 ||
	    strcmp(rel + n - 3, ".br") == 0));
}

static int
one(const char *path, const char *rel, const struct stat *st, void *arg)
{
	struct against *a = arg;
	char *now;
	size_t n = strlen(rel);

	(void)path, (void)st;
	if (!published(rel))
		return 0;
	a->urls++;
	now = path_join(a->new_dir, rel);
	if (!fs_is_file(now)) {
		a->gone++;
		/* the URL a reader used: a folder's index.html is the folder */
		if (n >= 10 && strcmp(rel + n - 10, "index.html") == 0 &&
		    (n == 10 || rel[n - 11] == '/'))
			fprintf(a->out, "/%.*s: gone (the old build had %s)\n",
			    (int)(n - 10), rel, rel);
		else
			fprintf(a->out, "/%s: gone\n", rel);
	}
	free(now);
	return 0;
}

size_t
check_against(const char *old_dir, const char *new_dir, FILE *out,
    size_t *urls)
{
	struct against a = { new_dir, out, 0, 0 };

	fs_walk(old_dir, one, &a);
	*urls = a.urls;
	return a.gone;
}
