/* ssg import bssg: the posts, pages and tags whose URLs BSSG made from
 * non-ASCII text, which depend on the locale BSSG ran in. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "diag.h"
#include "frontmatter.h"
#include "fsutil.h"
#include "import_bssg.h"

struct walk {
	struct diag	*d;
	size_t		 n;
};

static int
non_ascii(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 1;
	return 0;
}

static void
tag(const char *t, size_t n, void *arg)
{
	const char **first = arg;

	if (*first == NULL && non_ascii(t, n))
		*first = t;
}

static int
one(const char *path, const char *rel, const struct stat *st, void *arg)
{
	struct walk *w = arg;
	struct frontmatter fm;
	struct buf text = BUF_INIT;
	const char *title, *t = NULL, *dot = strrchr(rel, '.');
	struct diag *quiet = diag_new();
	int html;

	(void)st;
	if (dot == NULL || (strcmp(dot, ".md") != 0 &&
	    strcmp(dot, ".html") != 0) || fs_read(path, &text) == -1)
		goto out;
	html = strcmp(dot, ".html") == 0;
	/* problems in the post are the build's to report */
	if ((html ? frontmatter_parse_html(&fm, text.ptr, text.len, path,
	    quiet) : frontmatter_parse(&fm, text.ptr, text.len, path,
	    quiet)) == -1)
		goto out;
	title = fm_str(&fm, "title");
	if ((fm_str(&fm, "slug") == NULL || *fm_str(&fm, "slug") == '\0') &&
	    title != NULL && non_ascii(title, strlen(title))) {
		diag_warn(w->d, path, fm_line(&fm, "title"), "BSSG made this "
		    "URL from a title with letters outside ASCII, as its "
		    "build machine's locale transliterates them; ssg's URL "
		    "may differ (add `slug:` with the old one to keep it)");
		w->n++;
	}
	fm_tags(&fm, "tags", tag, &t);
	if (t != NULL) {
		diag_warn(w->d, path, fm_line(&fm, "tags"), "BSSG made a tag "
		    "URL from a name with letters outside ASCII, as its build "
		    "machine's locale transliterates them; ssg's tag URL may "
		    "differ");
		w->n++;
	}
	frontmatter_release(&fm);
out:
	diag_free(quiet);
	buf_release(&text);
	return 0;
}

size_t
bssg_warn_locale_urls(const struct bssg_site *s, const char *dir,
    struct diag *d)
{
	static const char *const vars[][2] = { { "SRC_DIR", "src" },
	    { "PAGES_DIR", "pages" } };
	struct walk w = { d, 0 };
	const char *v;
	char *folder;
	size_t i;

	for (i = 0; i < 2; i++) {
		v = bssg_get(s, vars[i][0]);
		folder = path_join(dir, v ? v : vars[i][1]);
		fs_walk(folder, one, &w);
		free(folder);
	}
	return w.n;
}
