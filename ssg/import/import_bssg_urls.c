/* ssg import bssg: the posts, pages and tags whose URLs BSSG made from
 * non-ASCII text, which depend on the locale BSSG ran in; with BSSG's
 * output at hand, the posts' and the tags' old URLs are kept. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "frontmatter.h"
#include "fsutil.h"
#include "import_bssg.h"
#include "mem.h"
#include "slug.h"

/* A post whose URL BSSG made from its title. */
struct src {
	char	*path, *rel;	/* rel: the file name in its folder */
	char	 day[11];	/* YYYY/MM/DD of its date, "" if none */
	char	*slug;		/* what ssg makes of the title */
	int	 moved;		/* its title is not all ASCII */
};

struct walk {
	struct diag	*d;
	size_t		 n;
	struct src	*s;
	size_t		 ns, cap;
	int		 posts;	/* walking the posts folder */
	char		**tags;	/* tag names with letters outside ASCII */
	size_t		 ntags, tcap;
};

/* What the tag callback gathers of one post. */
struct post_tags {
	struct walk	*w;
	const char	*first;	/* its first tag outside ASCII */
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
	struct post_tags *pt = arg;
	struct walk *w = pt->w;
	size_t i;

	if (!non_ascii(t, n))
		return;
	if (pt->first == NULL)
		pt->first = t;
	for (i = 0; i < w->ntags; i++)
		if (strlen(w->tags[i]) == n && memcmp(w->tags[i], t, n) == 0)
			return;
	xgrow((void **)&w->tags, &w->tcap, w->ntags + 1, sizeof(*w->tags));
	w->tags[w->ntags++] = xstrndup(t, n);
}

/* Keeps a post made from its title, for pinning. */
static void
keep(struct walk *w, const char *path, const char *rel, const char *title,
    const char *date, int moved)
{
	struct src *s;
	struct buf b = BUF_INIT;

	xgrow((void **)&w->s, &w->cap, w->ns + 1, sizeof(*w->s));
	s = &w->s[w->ns++];
	s->path = xstrdup(path);
	s->rel = xstrdup(rel);
	s->day[0] = '\0';
	/* the date as written: BSSG's URL takes its first ten characters */
	if (date != NULL && strlen(date) >= 10 && date[4] == '-' &&
	    date[7] == '-')
		xsnprintf(s->day, sizeof(s->day), "%.4s/%.2s/%.2s", date,
		    date + 5, date + 8);
	slug_append(&b, title);
	s->slug = buf_detach(&b, NULL);
	s->moved = moved;
}

static int
one(const char *path, const char *rel, const struct stat *st, void *arg)
{
	struct walk *w = arg;
	struct frontmatter fm;
	struct buf text = BUF_INIT;
	const char *title, *slug, *dot = strrchr(rel, '.');
	struct post_tags pt = { w, NULL };
	struct diag *quiet = diag_new();
	int html, moved;

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
	slug = fm_str(&fm, "slug");
	moved = (slug == NULL || *slug == '\0') && title != NULL &&
	    non_ascii(title, strlen(title));
	if (moved) {
		diag_warn(w->d, path, fm_line(&fm, "title"), "BSSG made this "
		    "URL from a title with letters outside ASCII, as its "
		    "build machine's locale transliterates them; ssg's URL "
		    "may differ");
		w->n++;
	}
	if (w->posts && (slug == NULL || *slug == '\0') && title != NULL)
		keep(w, path, rel, title, fm_str(&fm, "date"), moved);
	fm_tags(&fm, "tags", tag, &pt);
	if (pt.first != NULL) {
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

/* 1 if another post of that day takes the folder name as its slug. */
static int
claimed(const struct walk *w, const struct src *me, const char *name)
{
	size_t i;

	for (i = 0; i < w->ns; i++)
		if (&w->s[i] != me && strcmp(w->s[i].day, me->day) == 0 &&
		    strcmp(w->s[i].slug, name) == 0)
			return 1;
	return 0;
}

/*
 * For each post whose URL moved: the one folder of its day in BSSG's
 * output that no other post of that day claims is its old URL; pinned
 * as "file: slug" lines of slugs: in out.
 */
static size_t
pin(struct walk *w, const char *old, struct buf *out, struct diag *d)
{
	struct buf dir = BUF_INIT, have = BUF_INIT, name = BUF_INIT;
	size_t i, n = 0, found;
	DIR *dd;
	struct dirent *de;

	for (i = 0; i < w->ns; i++) {
		struct src *s = &w->s[i];

		if (!s->moved || s->day[0] == '\0')
			continue;
		buf_clear(&dir);
		buf_printf(&dir, "%s/%s", old, s->day);
		buf_clear(&have);
		buf_printf(&have, "%s/%s/index.html", dir.ptr, s->slug);
		if (fs_is_file(have.ptr) || (dd = opendir(dir.ptr)) == NULL)
			continue;	/* same URL, or nothing to go by */
		found = 0;
		while ((de = readdir(dd)) != NULL) {
			if (de->d_name[0] == '.' || !slug_is_safe(de->d_name) ||
			    claimed(w, s, de->d_name))
				continue;
			buf_clear(&have);
			buf_printf(&have, "%s/%s/index.html", dir.ptr,
			    de->d_name);
			if (!fs_is_file(have.ptr))
				continue;
			buf_clear(&name);
			buf_adds(&name, de->d_name);
			found++;
		}
		closedir(dd);
		if (found != 1)
			continue;
		if (n++ == 0)
			buf_adds(out, "\n# URLs BSSG published that ssg would "
			    "write otherwise, kept\nslugs:\n");
		buf_adds(out, "  ");
		esc_yaml(out, s->rel, strlen(s->rel));
		buf_adds(out, ": ");
		esc_yaml(out, name.ptr, name.len);
		buf_addc(out, '\n');
		diag_add(d, DIAG_NOTE, s->path, 0, "kept at /%s/%s/ as BSSG "
		    "published it (slugs: in site.yaml)", s->day, name.ptr);
	}
	buf_release(&dir);
	buf_release(&have);
	buf_release(&name);
	return n;
}

/* 1 if BSSG's tag page at path is the page of tag name: its heading
 * ("Posts tagged with: NAME", in the site's language) ends with it. */
static int
tag_page_of(const char *path, const char *name)
{
	struct buf text = BUF_INIT, want = BUF_INIT;
	const char *h, *end;
	int yes = 0;

	if (fs_read(path, &text) == -1)
		return 0;
	buf_printf(&want, ": %s</h1>", name);
	if ((h = strstr(text.ptr, "<h1>")) != NULL &&
	    (end = strstr(h, "</h1>")) != NULL &&
	    (size_t)(end + 5 - h) >= want.len &&
	    memcmp(end + 5 - want.len, want.ptr, want.len) == 0)
		yes = 1;
	buf_release(&text);
	buf_release(&want);
	return yes;
}

/*
 * For each tag whose URL BSSG made from text outside ASCII: the folder of
 * BSSG's tags/ whose page is that tag's, when ssg's URL differs; pinned
 * as "name: slug" lines of tag_slugs: in out.
 */
static size_t
pin_tags(struct walk *w, const char *old, struct buf *out, struct diag *d)
{
	struct buf dir = BUF_INIT, page = BUF_INIT, mine = BUF_INIT,
	    name = BUF_INIT;
	size_t i, n = 0, found;
	DIR *dd;
	struct dirent *de;

	buf_printf(&dir, "%s/tags", old);
	for (i = 0; i < w->ntags; i++) {
		if ((dd = opendir(dir.ptr)) == NULL)
			break;
		buf_clear(&mine);
		slug_append(&mine, w->tags[i]);
		found = 0;
		while ((de = readdir(dd)) != NULL) {
			if (de->d_name[0] == '.' || !slug_is_safe(de->d_name))
				continue;
			buf_clear(&page);
			buf_printf(&page, "%s/%s/index.html", dir.ptr,
			    de->d_name);
			if (!tag_page_of(page.ptr, w->tags[i]))
				continue;
			buf_clear(&name);
			buf_adds(&name, de->d_name);
			found++;
		}
		closedir(dd);
		if (found != 1 || (mine.len > 0 && strcmp(mine.ptr, name.ptr) == 0))
			continue;
		if (n++ == 0)
			buf_adds(out, "\n# tag URLs BSSG published that ssg would "
			    "write otherwise, kept\ntag_slugs:\n");
		buf_adds(out, "  ");
		esc_yaml(out, w->tags[i], strlen(w->tags[i]));
		buf_adds(out, ": ");
		esc_yaml(out, name.ptr, name.len);
		buf_addc(out, '\n');
		diag_add(d, DIAG_NOTE, NULL, 0, "tag '%s' kept at /tags/%s/ as "
		    "BSSG published it (tag_slugs: in site.yaml)", w->tags[i],
		    name.ptr);
	}
	buf_release(&dir);
	buf_release(&page);
	buf_release(&mine);
	buf_release(&name);
	return n;
}

size_t
bssg_locale_urls(const struct bssg_site *s, const char *dir,
    const char *old, struct buf *yaml, size_t *pinned, struct diag *d)
{
	static const char *const vars[][2] = { { "SRC_DIR", "src" },
	    { "PAGES_DIR", "pages" } };
	struct walk w;
	const char *v, *fmt = bssg_get(s, "URL_SLUG_FORMAT");
	char *folder;
	size_t i;

	memset(&w, 0, sizeof(w));
	w.d = d;
	for (i = 0; i < 2; i++) {
		v = bssg_get(s, vars[i][0]);
		folder = path_join(dir, v ? v : vars[i][1]);
		w.posts = i == 0;
		fs_walk(folder, one, &w);
		free(folder);
	}
	*pinned = 0;
	/* BSSG's default URLs only: Year/Month/Day/slug */
	if (old != NULL && fs_is_dir(old) &&
	    (fmt == NULL || strcmp(fmt, "Year/Month/Day/slug") == 0))
		*pinned = pin(&w, old, yaml, d);
	/* tags are at tags/SLUG/ whatever the posts' URLs */
	if (old != NULL && fs_is_dir(old))
		*pinned += pin_tags(&w, old, yaml, d);
	for (i = 0; i < w.ns; i++) {
		free(w.s[i].path);
		free(w.s[i].rel);
		free(w.s[i].slug);
	}
	free(w.s);
	for (i = 0; i < w.ntags; i++)
		free(w.tags[i]);
	free(w.tags);
	return w.n;
}
