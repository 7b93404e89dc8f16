#include "capsule.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
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
#include "hash.h"
#include "image_hook.h"
#include "manifest.h"
#include "output.h"
#include "mem.h"
#include "pool.h"
#include "siteindex.h"

/*
 * Bumped when the capsule's format changes, so that every page is made
 * again by the next build.
 */
#define CAPSULE_FORMAT	1

/* Where the capsule goes, what the last build wrote there (old) and what
 * this one has (cur), each file with the fingerprint of what it shows. */
struct cap {
	const struct site_config *c;
	const struct site_index	*ix;
	const char	*dir;
	struct manifest	*old, *cur;
	int		 fresh;		/* dir made now: no file is there */
	uint64_t	 base;		/* settings and format */
	const struct capsule_opts *o;
	unsigned char	*in;		/* posts in the capsule, by index */
	unsigned char	*out;		/* left out after all (unreadable) */
	char		**line;		/* each post's gemlog line, by index:
					 * made once, shown by every list */
	struct diag	*d;
	int		 failed;
};

/* Why rel must be made (with fingerprint fp), or NULL when the last
 * build wrote it with that fingerprint and it is still there. */
static const char *
why(struct cap *k, const char *rel, uint64_t fp)
{
	uint64_t ofp, obase;
	int found;

	if (k->o->force)
		return "forced (--force or clean_output)";
	if (!manifest_get(k->old, rel, &ofp, &obase, &found))
		return "new page";
	if (ofp != fp)
		return obase != k->base ? "settings changed" :
		    "content it shows changed";
	/* (as the caller found it while the sources were read) */
	if (found != MANIFEST_FOUND)
		return "its file is missing";
	return NULL;
}

/* 1 if rel is current (and listed as it is); else says why it is made. */
static int
current(struct cap *k, const char *rel, uint64_t fp)
{
	const char *w = why(k, rel, fp);
	struct buf p = BUF_INIT;

	if (w == NULL) {
		manifest_add(k->cur, rel, fp, k->base);
		return 1;
	}
	if (k->o->explain != NULL) {
		buf_printf(&p, "%s/%s", k->o->name, rel);
		k->o->explain(p.ptr, w, k->o->explain_arg);
		buf_release(&p);
	}
	return 0;
}

/* Writes rel (unless its bytes are there) and lists it with fp. */
static int
cap_write_fp(struct cap *k, const char *rel, const void *data, size_t len,
    uint64_t fp)
{
	if ((k->fresh ? output_create(k->dir, rel, data, len, 0, k->d) :
	    output_write(k->dir, rel, data, len, NULL, k->d)) == -1) {
		k->failed = 1;
		return -1;
	}
	manifest_add(k->cur, rel, fp, k->base);
	return 0;
}

/* A list: what it shows is its bytes, so they are its fingerprint. */
static int
cap_write(struct cap *k, const char *rel, const void *data, size_t len)
{
	uint64_t fp = hash64(data, len) | 1;

	if (current(k, rel, fp))
		return 0;
	return cap_write_fp(k, rel, data, len, fp);
}

static int
by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* For a capsule made before its files were listed: removes the pages
 * and feeds this build did not write (a deleted post's, say). */
struct unlisted {
	char	**written;
	size_t	  n;
};

static void
add_written(const char *rel, void *arg)
{
	struct unlisted *u = arg;

	u->written[u->n++] = xstrdup(rel);
}

static int
stale(const char *path, const char *rel, const struct stat *st, void *arg)
{
	struct unlisted *u = arg;
	size_t n = strlen(rel);

	(void)st;
	if (((n > 4 && strcmp(rel + n - 4, ".gmi") == 0) ||
	    strcmp(rel, "atom.xml") == 0) && bsearch(&rel, u->written, u->n,
	    sizeof(*u->written), by_str) == NULL)
		unlink(path);
	return 0;
}

static void
remove_unlisted(struct cap *k)
{
	struct unlisted u;
	size_t i;

	u.written = xcalloc(manifest_count(k->cur) + 1, sizeof(*u.written));
	u.n = 0;
	manifest_foreach(k->cur, add_written, &u);
	xqsort(u.written, u.n, sizeof(*u.written), by_str);
	fs_walk(k->dir, stale, &u);
	for (i = 0; i < u.n; i++)
		free(u.written[i]);
	free(u.written);
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

/* 1 if post p is in the capsule's lists. */
static int
listed(const struct cap *k, const struct post *p)
{
	return k->in[p->index] && !k->out[p->index];
}


/* A neighbour as its gemlog line shows it. */
static void
fp_link(struct buf *b, const struct post *p)
{
	if (p == NULL) {
		hash_field_u64(b, 0);
		return;
	}
	hash_field_u64(b, 1);
	hash_field_str(b, p->title);
	hash_field_str(b, p->url);
	hash_field_u64(b,
	    (uint64_t)(p->year * 10000 + p->month * 100 + p->day));
}

/*
 * The fingerprint of a post's or page's .gmi: everything page() reads.
 * Its text is the source file's (text_hash), the rest what lists show of
 * it (sum_hash: title, URL, dates, author, tags), the author's name as
 * the site resolves it, and its neighbours.
 */
static uint64_t
page_fp(const struct cap *k, const struct post *p, const char *rel,
    const struct post *newer, const struct post *older)
{
	struct buf b = BUF_INIT;
	uint64_t h;

	hash_field_u64(&b, k->base);
	hash_field_str(&b, rel);
	hash_field_u64(&b, (uint64_t)p->kind);
	hash_field_u64(&b, p->text_hash);
	hash_field_u64(&b, p->sum_hash);
	hash_field_u64(&b, content_publishes_source(p, k->c));
	hash_field_str(&b, siteindex_author(k->ix, p));
	fp_link(&b, newer);
	fp_link(&b, older);
	h = hash64(b.ptr, b.len) | 1;
	buf_release(&b);
	return h;
}

/*
 * The "=> " lines of a body from "from" on that name an image of the
 * site: the absolute URL of its copy near 960 px, the size a Gemini
 * client shows, without the original's metadata. The capsule holds no
 * images: a client opens the copy over HTTPS.
 */
static void
link_images(const struct cap *k, const struct post *p,
    struct buf *gem, size_t from)
{
	const struct image_hook *h = k->o->images;
	struct buf out = BUF_INIT, src = BUF_INIT, u = BUF_INIT;
	const char *s, *end, *nl, *sp;
	int w, hh;

	if (h == NULL || h->copy == NULL || gem->len <= from)
		return;
	s = gem->ptr + from;
	end = gem->ptr + gem->len;
	for (; s < end; s = nl) {
		nl = memchr(s, '\n', (size_t)(end - s));
		nl = nl != NULL ? nl + 1 : end;
		if (nl - s > 3 && strncmp(s, "=> ", 3) == 0) {
			for (sp = s + 3; sp < nl && *sp != ' ' && *sp != '\n'; sp++)
				;
			buf_clear(&src);
			buf_add(&src, s + 3, (size_t)(sp - s - 3));
			buf_clear(&u);
			if (h->copy(h->arg, src.ptr, p->url, IMAGE_INLINE, &u, &w,
			    &hh) == 0) {
				buf_adds(&out, "=> ");
				buf_adds(&out, k->c->site_url);
				buf_adds(&out, u.ptr);
				buf_add(&out, sp, (size_t)(nl - sp));
				continue;
			}
		}
		buf_add(&out, s, (size_t)(nl - s));
	}
	gem->len = from;
	buf_add(gem, out.ptr != NULL ? out.ptr : "", out.len);
	buf_release(&out);
	buf_release(&src);
	buf_release(&u);
}

/* One post or page as gemtext, with the posts before and after it (or
 * NULL); 0, 1 when left out, -1 on error. Not rendered when its file
 * holds what it would show. */
static int
page(struct cap *k, const struct post *p, const struct post *newer,
    const struct post *older)
{
	const struct site_config *c = k->c;
	struct buf text = BUF_INIT, gem = BUF_INIT, rel = BUF_INIT;
	struct frontmatter fm;
	struct diag *quiet;
	uint64_t fp;
	size_t i, body;
	int rc = -1;

	if (p->is_html) {
		diag_warn(k->d, p->src, 0, "written in HTML: not in the Gemini "
		    "capsule (its HTML does not convert reliably)");
		return 1;
	}
	gmi_path(&rel, p->out_path);
	fp = page_fp(k, p, rel.ptr, newer, older);
	if (current(k, rel.ptr, fp)) {
		buf_release(&rel);
		return 0;
	}
	buf_printf(&gem, "# %s\n\n", p->title);
	if (p->kind == CONTENT_POST) {
		buf_adds(&gem, "Published ");
		ymd(&gem, p);
		buf_printf(&gem, " by %s\n\n", siteindex_author(k->ix, p));
	}
	quiet = diag_new();
	body = gem.len;
	/* made from the tree the HTML came from, when this build parsed
	 * it; else read again (the build has read and checked it: its
	 * problems are reported) */
	if (p->gem != NULL)
		gemtext_append(&gem, p->gem, p->gem_len);
	else if (fs_read(p->src, &text) == -1 || frontmatter_parse(&fm,
	    text.ptr, text.len, p->src, quiet) == -1) {
		diag_warn(k->d, p->src, 0, "cannot read it again for the Gemini "
		    "capsule: left out");
		rc = 1;
		goto out;
	} else {
		if (gemtext_from_markdown(fm.body, fm.body_len,
		    c->smart_punctuation, &gem) == -1)
			buf_adds(&gem, "(This text nests too deep to show "
			    "here.)\n");
		frontmatter_release(&fm);
	}
	link_images(k, p, &gem, body);
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
	/* its Markdown, published beside the HTML page */
	if (c->site_url[0] != '\0' && content_publishes_source(p, c)) {
		buf_printf(&gem, "=> %s/", c->site_url);
		content_source_path(&gem, p);
		buf_adds(&gem, " Its Markdown source\n");
	}
	rc = cap_write_fp(k, rel.ptr, gem.ptr, gem.len, fp);
out:
	diag_free(quiet);
	buf_release(&text);
	buf_release(&gem);
	buf_release(&rel);
	return rc;
}

/* tags/index.gmi and one page per tag. */
static int
tags(struct cap *k)
{
	const struct site_config *c = k->c;
	const struct site_index *ix = k->ix;
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
			if (listed(k, t->posts[j]))
				buf_adds(&one, k->line[t->posts[j]->index]);
		buf_adds(&one, "\n=> /tags/index.gmi All tags");
		foot(&one, c, NULL);
		buf_clear(&rel);
		buf_printf(&rel, "tags/%s/index.gmi", t->slug);
		if (cap_write(k, rel.ptr, one.ptr, one.len) == -1)
			rc = -1;
	}
	foot(&all, c, NULL);
	if (cap_write(k, "tags/index.gmi", all.ptr, all.len) == -1)
		rc = -1;
	buf_release(&all);
	buf_release(&one);
	buf_release(&rel);
	return rc;
}

/* archives/index.gmi: every post, by month, newest first. */
static int
archives(struct cap *k)
{
	const struct site_config *c = k->c;
	const struct site_index *ix = k->ix;
	struct buf g = BUF_INIT;
	size_t i, j;
	int rc;

	buf_adds(&g, "# Archives\n");
	for (i = 0; i < ix->nmonths; i++) {
		const struct archive_month *m = &ix->months[i];

		buf_printf(&g, "\n## %04d-%02d\n\n", m->year, m->month);
		for (j = 0; j < m->nposts; j++)
			if (listed(k, m->posts[j]))
				buf_adds(&g, k->line[m->posts[j]->index]);
	}
	foot(&g, c, NULL);
	rc = cap_write(k, "archives/index.gmi", g.ptr, g.len);
	buf_release(&g);
	return rc;
}

/* Entries in atom.xml: as many as a reader's client needs to catch up. */
#define CAPSULE_FEED_MAX	50

/* atom.xml with gemini:// links; needs gemini_url for absolute ids. */
static int
atom(struct cap *k)
{
	const struct site_config *c = k->c;
	const struct site_index *ix = k->ix;
	struct buf x = BUF_INIT, u = BUF_INIT;
	size_t i, n = 0;
	time_t newest = 0;
	int rc;

	for (i = 0; i < ix->nposts; i++)
		if (listed(k, ix->posts[i]) && ix->posts[i]->lastmod > newest)
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

		if (!listed(k, p))
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
	rc = cap_write(k, "atom.xml", x.ptr, x.len);
	buf_release(&x);
	buf_release(&u);
	return rc;
}

/* The nearest post before (step -1: newer) or after (1: older) posts[i]
 * that is in the capsule, or NULL. */
static const struct post *
neighbour(const struct cap *k, size_t i, int step)
{
	const struct site_index *ix = k->ix;
	size_t j = i;

	while (step < 0 ? j-- > 0 : ++j < ix->nposts)
		if (k->in[ix->posts[j]->index])
			return ix->posts[j];
	return NULL;
}

/* Post i, then page i - nposts, on a worker thread. */
static void
page_one(size_t i, void *arg)
{
	struct cap *k = arg;
	const struct site_index *ix = k->ix;
	const struct post *p;
	int rc;

	if (i < ix->nposts) {
		struct buf l = BUF_INIT;

		p = ix->posts[i];
		gemlog_line(&l, NULL, p);
		k->line[p->index] = buf_detach(&l, NULL);
		rc = page(k, p, neighbour(k, i, -1), neighbour(k, i, 1));
		if (rc != 0)	/* each worker marks only its own post */
			k->out[p->index] = 1;
	} else
		page(k, ix->pages[i - ix->nposts], NULL, NULL);
}

int
capsule_write(const struct site_config *c, const struct site_index *ix,
    const struct capsule_opts *o, struct diag *d)
{
	const char *dir = o->dir, *list = o->list;
	struct buf idx = BUF_INIT, url = BUF_INIT;
	struct cap kk, *k = &kk;
	uint64_t hb[2];
	struct stat st;
	size_t i, max = 0;
	int rc = 0, had_list, fresh;
	/* the capsule's own errors: a missing image of a post is the HTML
	 * pages' problem, and a deleted post leaves the capsule anyway */
	size_t errors_before = diag_count(d, DIAG_ERROR);

	fresh = stat(dir, &st) == -1 && errno == ENOENT;
	/* (replaced files go through dir/.ssg-tmp, removed at the end) */
	if (fs_mkdirs_published(dir) == -1 || output_begin(dir) == -1) {
		diag_error(d, dir, 0, "cannot create the capsule folder");
		return -1;
	}
	memset(k, 0, sizeof(*k));
	k->c = c;
	k->ix = ix;
	k->dir = dir;
	k->d = d;
	k->o = o;
	k->fresh = fresh;
	k->old = o->old;
	k->cur = manifest_new();
	had_list = manifest_count(k->old) > 0;
	manifest_index(k->old);
	hb[0] = config_hash(c);
	hb[1] = CAPSULE_FORMAT ^ (o->images != NULL ? o->images->hash : 0);
	k->base = hash64(hb, sizeof(hb));
	/* Which posts made it into the capsule, by their index. */
	for (i = 0; i < ix->nposts; i++)
		if (ix->posts[i]->index + 1 > max)
			max = ix->posts[i]->index + 1;
	k->in = xcalloc(max + 1, 1);
	k->out = xcalloc(max + 1, 1);
	k->line = xcalloc(max + 1, sizeof(*k->line));
	/* Posts written in HTML are not in it: neighbours skip them. */
	for (i = 0; i < ix->nposts; i++)
		k->in[ix->posts[i]->index] = !ix->posts[i]->is_html;
	pool_for(o->threads ? o->threads : 1, ix->nposts + ix->npages,
	    page_one, k);

	buf_printf(&idx, "# %s\n\n%s\n\n", c->site_title, c->site_description);
	if (ix->nposts > 0)
		buf_adds(&idx, "## Posts\n\n");
	for (i = 0; i < ix->nposts; i++)
		if (listed(k, ix->posts[i]))
			buf_adds(&idx, k->line[ix->posts[i]->index]);
	if (ix->npages > 0)
		buf_adds(&idx, "\n## Pages\n\n");
	for (i = 0; i < ix->npages; i++) {
		if (ix->pages[i]->is_html)
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
	if (cap_write(k, "index.gmi", idx.ptr, idx.len) == -1 ||
	    tags(k) == -1 || archives(k) == -1 ||
	    (c->gemini_url[0] != '\0' && atom(k) == -1))
		rc = -1;
	/* Gemini crawlers read it as web ones do: all of it is public. */
	if (cap_write(k, "robots.txt", "User-agent: *\nDisallow:\n", 24) == -1)
		rc = -1;
	if (k->failed)
		rc = -1;
	/* After a good build only: a failed one removes nothing, and keeps
	 * listing what it did not get to, as it is on disk. */
	if (rc == 0 && diag_count(d, DIAG_ERROR) == errors_before) {
		manifest_remove_stale(k->old, k->cur, dir, d);
		/* (a folder made now holds only what this build wrote) */
		if (!had_list && !k->fresh)
			remove_unlisted(k);
	} else
		manifest_carry(k->old, k->cur);
	if (!manifest_same(k->cur, k->old) && manifest_save(k->cur, list) == -1)
		diag_warn(d, list, 0, "cannot save the list of the capsule's "
		    "files: %s", strerror(errno));
	output_end(dir);
	manifest_free(k->cur);
	for (i = 0; i < max; i++)
		free(k->line[i]);
	free(k->line);
	free(k->in);
	free(k->out);
	buf_release(&idx);
	buf_release(&url);
	return rc;
}
