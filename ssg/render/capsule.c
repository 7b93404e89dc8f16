#include "capsule.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "config.h"
#include "content.h"
#include "datetime.h"
#include "diag.h"
#include "escape.h"
#include "frontmatter.h"
#include "fsutil.h"
#include "gemtext.h"
#include "output.h"
#include "mem.h"
#include "siteindex.h"

/* Where the capsule goes, and what this build wrote there. */
struct cap {
	const char	*dir;
	char		**written;	/* paths from dir */
	size_t		 n, cap;
};

static int
cap_write(struct cap *k, const char *rel, const void *data, size_t len,
    struct diag *d)
{
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->written = xrealloc(k->written, k->cap * sizeof(*k->written));
	}
	k->written[k->n++] = xstrdup(rel);
	return output_write(k->dir, rel, data, len, NULL, d);
}

static int
by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A page or feed this build did not write: a deleted post's, say. */
static int
stale(const char *path, const char *rel, const struct stat *st, void *arg)
{
	struct cap *k = arg;
	size_t n = strlen(rel);

	(void)st;
	if (((n > 4 && strcmp(rel + n - 4, ".gmi") == 0) ||
	    strcmp(rel, "atom.xml") == 0) && bsearch(&rel, k->written, k->n,
	    sizeof(*k->written), by_str) == NULL)
		unlink(path);
	return 0;
}

/* The capsule path of a page: index.html becomes index.gmi. */
static void
gmi_path(struct buf *out, const char *html_path)
{
	size_t n = strlen(html_path);

	if (n >= 10 && strcmp(html_path + n - 10, "index.html") == 0)
		buf_printf(out, "%.*sindex.gmi", (int)(n - 10), html_path);
	else if (n > 5 && strcmp(html_path + n - 5, ".html") == 0)
		buf_printf(out, "%.*s.gmi", (int)(n - 5), html_path);
	else
		buf_adds(out, html_path);
}

static void
ymd(struct buf *out, const struct post *p)
{
	buf_printf(out, "%04d-%02d-%02d", p->year, p->month, p->day);
}

/* "=> /x/index.gmi YYYY-MM-DD Title": a gemlog line, which Gemini
 * clients subscribe to. */
static void
gemlog_line(struct buf *out, const char *label, const struct post *p)
{
	buf_adds(out, "=> ");
	gemtext_url(out, p->url);
	buf_addc(out, ' ');
	if (label != NULL)
		buf_printf(out, "%s ", label);
	ymd(out, p);
	buf_printf(out, " %s\n", p->title);
}

/* The foot of every capsule page: home, and the page on the web. */
static void
foot(struct buf *out, const struct site_config *c, const char *url)
{
	buf_adds(out, "\n=> /index.gmi Home\n");
	if (c->site_url[0] != '\0' && url != NULL)
		buf_printf(out, "=> %s%s This page on the web\n", c->site_url,
		    url);
}

/* One post or page as gemtext, with the posts before and after it (or
 * NULL); 0, 1 when left out, -1 on error. */
static int
page(const struct site_config *c, const struct site_index *ix,
    const struct post *p, const struct post *newer, const struct post *older,
    struct cap *k, struct diag *d)
{
	struct buf text = BUF_INIT, gem = BUF_INIT, rel = BUF_INIT;
	struct frontmatter fm;
	struct diag *quiet = diag_new();
	size_t i;
	int rc = -1;

	if (p->is_html) {
		diag_warn(d, p->src, 0, "written in HTML: not in the Gemini "
		    "capsule (its HTML does not convert reliably)");
		rc = 1;
		goto out;
	}
	/* the build has read and checked it: its problems are reported */
	if (fs_read(p->src, &text) == -1 || frontmatter_parse(&fm, text.ptr,
	    text.len, p->src, quiet) == -1) {
		diag_warn(d, p->src, 0, "cannot read it again for the Gemini "
		    "capsule: left out");
		rc = 1;
		goto out;
	}
	buf_printf(&gem, "# %s\n\n", p->title);
	if (p->kind == CONTENT_POST) {
		buf_adds(&gem, "Published ");
		ymd(&gem, p);
		buf_printf(&gem, " by %s\n\n", siteindex_author(ix, p));
	}
	if (gemtext_from_markdown(fm.body, fm.body_len, c->smart_punctuation,
	    &gem) == -1)
		buf_adds(&gem, "(This text nests too deep to show here.)\n");
	frontmatter_release(&fm);
	if (p->ntags > 0) {
		buf_adds(&gem, "\nTags:");
		for (i = 0; i < p->ntags; i++)
			buf_printf(&gem, "%s %s", i ? "," : "",
			    p->tags[i].name);
		buf_addc(&gem, '\n');
		for (i = 0; i < p->ntags; i++)
			buf_printf(&gem, "=> /tags/%s/index.gmi Posts tagged "
			    "%s\n", p->tags[i].slug, p->tags[i].name);
	}
	if (newer != NULL || older != NULL)
		buf_addc(&gem, '\n');
	if (older != NULL)
		gemlog_line(&gem, "Older:", older);
	if (newer != NULL)
		gemlog_line(&gem, "Newer:", newer);
	foot(&gem, c, p->url);
	gmi_path(&rel, p->out_path);
	rc = cap_write(k, rel.ptr, gem.ptr, gem.len, d);
out:
	diag_free(quiet);
	buf_release(&text);
	buf_release(&gem);
	buf_release(&rel);
	return rc;
}

/* tags/index.gmi and one page per tag. */
static int
tags(const struct site_config *c, const struct site_index *ix,
    struct cap *k, const unsigned char *in, struct diag *d)
{
	struct buf all = BUF_INIT, one = BUF_INIT, rel = BUF_INIT;
	size_t i, j;
	int rc = 0;

	buf_adds(&all, "# Tags\n\n");
	for (i = 0; i < ix->ntags; i++) {
		const struct tag_info *t = &ix->tags[i];

		buf_printf(&all, "=> /tags/%s/index.gmi %s (%zu)\n", t->slug,
		    t->name, t->nposts);
		buf_clear(&one);
		buf_printf(&one, "# Posts tagged %s\n\n", t->name);
		for (j = 0; j < t->nposts; j++)
			if (in[t->posts[j]->index])
				gemlog_line(&one, NULL, t->posts[j]);
		buf_adds(&one, "\n=> /tags/index.gmi All tags");
		foot(&one, c, NULL);
		buf_clear(&rel);
		buf_printf(&rel, "tags/%s/index.gmi", t->slug);
		if (cap_write(k, rel.ptr, one.ptr, one.len, d) == -1)
			rc = -1;
	}
	foot(&all, c, NULL);
	if (cap_write(k, "tags/index.gmi", all.ptr, all.len, d) == -1)
		rc = -1;
	buf_release(&all);
	buf_release(&one);
	buf_release(&rel);
	return rc;
}

/* archives/index.gmi: every post, by month, newest first. */
static int
archives(const struct site_config *c, const struct site_index *ix,
    struct cap *k, const unsigned char *in, struct diag *d)
{
	struct buf g = BUF_INIT;
	size_t i, j;
	int rc;

	buf_adds(&g, "# Archives\n");
	for (i = 0; i < ix->nmonths; i++) {
		const struct archive_month *m = &ix->months[i];

		buf_printf(&g, "\n## %04d-%02d\n\n", m->year, m->month);
		for (j = 0; j < m->nposts; j++)
			if (in[m->posts[j]->index])
				gemlog_line(&g, NULL, m->posts[j]);
	}
	foot(&g, c, NULL);
	rc = cap_write(k, "archives/index.gmi", g.ptr, g.len, d);
	buf_release(&g);
	return rc;
}

/* Entries in atom.xml: as many as a reader's client needs to catch up. */
#define CAPSULE_FEED_MAX	50

/* atom.xml with gemini:// links; needs gemini_url for absolute ids. */
static int
atom(const struct site_config *c, const struct site_index *ix,
    struct cap *k, const unsigned char *in, struct diag *d)
{
	struct buf x = BUF_INIT, u = BUF_INIT;
	size_t i, n = 0;
	time_t newest = 0;
	int rc;

	for (i = 0; i < ix->nposts; i++)
		if (in[ix->posts[i]->index] && ix->posts[i]->lastmod > newest)
			newest = ix->posts[i]->lastmod;
	buf_adds(&x, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
	    "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>");
	esc_xml(&x, c->site_title, strlen(c->site_title));
	buf_adds(&x, "</title>\n<id>");
	esc_xml(&x, c->gemini_url, strlen(c->gemini_url));
	buf_adds(&x, "/</id>\n<link href=\"");
	esc_xml(&x, c->gemini_url, strlen(c->gemini_url));
	buf_adds(&x, "/\"/>\n<link rel=\"self\" href=\"");
	esc_xml(&x, c->gemini_url, strlen(c->gemini_url));
	buf_adds(&x, "/atom.xml\"/>\n<updated>");
	dt_rfc3339(&x, newest);
	buf_adds(&x, "</updated>\n");
	for (i = 0; i < ix->nposts && n < CAPSULE_FEED_MAX; i++) {
		const struct post *p = ix->posts[i];
		const char *who = siteindex_author(ix, p);

		if (!in[p->index])
			continue;
		n++;
		buf_clear(&u);
		buf_adds(&u, c->gemini_url);
		gemtext_url(&u, p->url);
		buf_adds(&x, "<entry>\n<title>");
		esc_xml(&x, p->title, strlen(p->title));
		buf_adds(&x, "</title>\n<id>");
		esc_xml(&x, u.ptr, u.len);
		buf_adds(&x, "</id>\n<link href=\"");
		esc_xml(&x, u.ptr, u.len);
		buf_adds(&x, "\"/>\n<published>");
		dt_rfc3339(&x, p->date);
		buf_adds(&x, "</published>\n<updated>");
		dt_rfc3339(&x, p->lastmod);
		buf_adds(&x, "</updated>\n<author><name>");
		esc_xml(&x, who, strlen(who));
		buf_adds(&x, "</name></author>\n");
		if (p->description != NULL && p->description[0] != '\0') {
			buf_adds(&x, "<summary>");
			esc_xml(&x, p->description, strlen(p->description));
			buf_adds(&x, "</summary>\n");
		}
		buf_adds(&x, "</entry>\n");
	}
	buf_adds(&x, "</feed>\n");
	rc = cap_write(k, "atom.xml", x.ptr, x.len, d);
	buf_release(&x);
	buf_release(&u);
	return rc;
}

/* The nearest post before (step -1: newer) or after (1: older) posts[i]
 * that is in the capsule, or NULL. */
static const struct post *
neighbour(const struct site_index *ix, const unsigned char *in, size_t i,
    int step)
{
	size_t j = i;

	while (step < 0 ? j-- > 0 : ++j < ix->nposts)
		if (in[ix->posts[j]->index])
			return ix->posts[j];
	return NULL;
}

int
capsule_write(const struct site_config *c, const struct site_index *ix,
    const char *dir, struct diag *d)
{
	struct buf idx = BUF_INIT, url = BUF_INIT;
	struct cap kk = { dir, NULL, 0, 0 }, *k = &kk;
	unsigned char *in;
	size_t i, max = 0;
	int rc = 0;

	if (fs_mkdirs_published(dir) == -1) {
		diag_error(d, dir, 0, "cannot create the capsule folder");
		return -1;
	}
	/* Which posts made it into the capsule, by their index. */
	for (i = 0; i < ix->nposts; i++)
		if (ix->posts[i]->index + 1 > max)
			max = ix->posts[i]->index + 1;
	in = xcalloc(max + 1, 1);
	buf_printf(&idx, "# %s\n\n%s\n\n", c->site_title, c->site_description);
	if (ix->nposts > 0)
		buf_adds(&idx, "## Posts\n\n");
	/* Posts written in HTML are not in it: neighbours skip them. */
	for (i = 0; i < ix->nposts; i++)
		in[ix->posts[i]->index] = !ix->posts[i]->is_html;
	for (i = 0; i < ix->nposts; i++) {
		if (page(c, ix, ix->posts[i], neighbour(ix, in, i, -1),
		    neighbour(ix, in, i, 1), k, d) != 0) {
			in[ix->posts[i]->index] = 0;
			continue;
		}
		gemlog_line(&idx, NULL, ix->posts[i]);
	}
	if (ix->npages > 0)
		buf_adds(&idx, "\n## Pages\n\n");
	for (i = 0; i < ix->npages; i++) {
		if (page(c, ix, ix->pages[i], NULL, NULL, k, d) != 0)
			continue;
		buf_clear(&url);
		gemtext_url(&url, ix->pages[i]->url);
		buf_printf(&idx, "=> %s %s\n", url.ptr, ix->pages[i]->title);
	}
	buf_adds(&idx, "\n=> /tags/index.gmi Tags\n=> /archives/index.gmi "
	    "Archives\n");
	if (c->gemini_url[0] != '\0')
		buf_printf(&idx, "=> /atom.xml Atom feed\n=> %s/ This "
		    "capsule's address\n", c->gemini_url);
	if (c->site_url[0] != '\0')
		buf_printf(&idx, "=> %s/ On the web\n", c->site_url);
	if (cap_write(k, "index.gmi", idx.ptr, idx.len, d) == -1 ||
	    tags(c, ix, k, in, d) == -1 || archives(c, ix, k, in, d) == -1 ||
	    (c->gemini_url[0] != '\0' && atom(c, ix, k, in, d) == -1))
		rc = -1;
	/* Gemini crawlers read it as web ones do: all of it is public. */
	if (output_write(dir, "robots.txt", "User-agent: *\nDisallow:\n", 24,
	    NULL, d) == -1)
		rc = -1;
	/* After a good build only: a failed one removes nothing. */
	if (rc == 0 && diag_count(d, DIAG_ERROR) == 0) {
		xqsort(k->written, k->n, sizeof(*k->written), by_str);
		fs_walk(dir, stale, k);
	}
	for (i = 0; i < k->n; i++)
		free(k->written[i]);
	free(k->written);
	free(in);
	buf_release(&idx);
	buf_release(&url);
	return rc;
}
