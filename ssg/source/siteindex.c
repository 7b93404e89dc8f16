#include "siteindex.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "diag.h"
#include "config.h"
#include "hash.h"
#include "slug.h"
#include "mem.h"

static int
cmp_posts(const void *a, const void *b)
{
	const struct post *p = *(struct post *const *)a;
	const struct post *q = *(struct post *const *)b;
	int c;

	if (p->date != q->date)
		return p->date > q->date ? -1 : 1;
	if ((c = strcmp(p->title, q->title)) != 0)
		return c;
	return strcmp(p->url, q->url);
}

static int
cmp_pages(const void *a, const void *b)
{
	const struct post *p = *(struct post *const *)a;
	const struct post *q = *(struct post *const *)b;
	int c;

	if ((c = strcasecmp(p->title, q->title)) != 0)
		return c;
	return strcmp(p->url, q->url);
}

static int
cmp_month(const void *a, const void *b)
{
	const struct archive_month *s = a, *t = b;

	if (s->year != t->year)
		return s->year > t->year ? -1 : 1;
	if (s->month != t->month)
		return s->month > t->month ? -1 : 1;
	return 0;
}

static int
cmp_url(const void *a, const void *b)
{
	const struct post *p = *(struct post *const *)a;
	const struct post *q = *(struct post *const *)b;
	int c;

	if ((c = strcmp(p->url, q->url)) != 0)
		return c;
	return strcmp(p->src, q->src);
}

static int
cmp_tags(const void *a, const void *b)
{
	const struct tag_info *s = a, *t = b;
	int c;

	if ((c = strcasecmp(s->name, t->name)) != 0)
		return c;
	return strcmp(s->slug, t->slug);
}

static int
cmp_slug_ptr(const void *a, const void *b)
{
	return strcmp((*(struct tag_info *const *)a)->slug,
	    (*(struct tag_info *const *)b)->slug);
}

static int
cmp_tag_slug(const void *key, const void *elem)
{
	return strcmp(key, (*(struct tag_info *const *)elem)->slug);
}

/*
 * Every URL must belong to one source only. Of sources that share one, the
 * first by path is kept and the others are marked (dup) and left out, so
 * no page silently overwrites another.
 */
static int
check_urls(struct post **all, size_t n, struct diag *d)
{
	size_t i, first = 0;
	int rc = 0;

	xqsort(all, n, sizeof(*all), cmp_url);
	for (i = 1; i < n; i++) {
		if (strcmp(all[first]->url, all[i]->url) != 0) {
			first = i;
			continue;
		}
		diag_error(d, all[i]->src, 0, "URL %s is also the URL of %s "
		    "(give one of them another slug); left out", all[i]->url,
		    all[first]->src);
		all[i]->dup = 1;
		rc = -1;
	}
	return rc;
}

static void
drop_dups(struct post **list, size_t *n)
{
	size_t i, k = 0;

	for (i = 0; i < *n; i++)
		if (!list[i]->dup)
			list[k++] = list[i];
	*n = k;
}

static void
index_tags(struct site_index *ix)
{
	struct tag_info *t;
	size_t i, j, k, cap = 0, *caps = NULL, n;

	/* Collect distinct slugs in post order (newest first). */
	for (i = 0; i < ix->nposts; i++) {
		for (j = 0; j < ix->posts[i]->ntags; j++) {
			const struct tag_ref *r = &ix->posts[i]->tags[j];

			for (k = 0; k < ix->ntags; k++)
				if (strcmp(ix->tags[k].slug, r->slug) == 0)
					break;
			if (k == ix->ntags) {
				n = cap;
				xgrow((void **)&ix->tags, &cap, k + 1,
				    sizeof(*ix->tags));
				xgrow((void **)&caps, &n, cap, sizeof(*caps));
				memset(&ix->tags[k], 0, sizeof(ix->tags[k]));
				ix->tags[k].name = r->name;
				ix->tags[k].slug = r->slug;
				caps[k] = 0;
				ix->ntags++;
			}
			t = &ix->tags[k];
			xgrow((void **)&t->posts, &caps[k], t->nposts + 1,
			    sizeof(*t->posts));
			t->posts[t->nposts++] = ix->posts[i];
		}
	}
	free(caps);
	xqsort(ix->tags, ix->ntags, sizeof(*ix->tags), cmp_tags);
	ix->by_slug = xcalloc(ix->ntags + 1, sizeof(*ix->by_slug));
	for (i = 0; i < ix->ntags; i++)
		ix->by_slug[i] = &ix->tags[i];
	xqsort(ix->by_slug, ix->ntags, sizeof(*ix->by_slug), cmp_slug_ptr);
}

/* Lists show a tag by the name the site uses for it, which another post
 * may decide; a hash of those names per post keeps fingerprints exact. */
static void
name_hashes(struct site_index *ix)
{
	const struct tag_info *ti;
	struct buf b = BUF_INIT;
	size_t i, j;

	for (i = 0; i < ix->nposts; i++) {
		struct post *p = ix->posts[i];

		buf_clear(&b);
		for (j = 0; j < p->ntags; j++) {
			ti = siteindex_tag(ix, p->tags[j].slug);
			buf_adds(&b, ti ? ti->name : p->tags[j].name);
			buf_addc(&b, '\0');
		}
		p->tag_names_hash = hash64(b.ptr, b.len);
	}
	buf_release(&b);
}

static int
cmp_author(const void *a, const void *b)
{
	const struct author_info *s = a, *t = b;
	int c;

	if ((c = strcasecmp(s->name, t->name)) != 0)
		return c;
	return strcmp(s->name, t->name);
}

const char *
siteindex_author(const struct site_index *ix, const struct post *p)
{
	return p->author_name ? p->author_name : ix->site_author;
}

const char *
siteindex_author_email(const struct site_index *ix, const struct post *p)
{
	const char *name = siteindex_author(ix, p);

	if (p->author_email != NULL && *p->author_email != '\0')
		return p->author_email;
	if (name != NULL && ix->site_author != NULL &&
	    strcmp(name, ix->site_author) == 0 && ix->site_email != NULL &&
	    *ix->site_email != '\0')
		return ix->site_email;
	return NULL;
}

static void
index_authors(struct site_index *ix)
{
	struct author_info *a;
	struct buf slug = BUF_INIT;
	size_t i, k, cap = 0;
	const char *name;

	for (i = 0; i < ix->nposts; i++) {
		name = siteindex_author(ix, ix->posts[i]);
		for (k = 0; k < ix->nauthors; k++)
			if (strcmp(ix->authors[k].name, name) == 0)
				break;
		if (k == ix->nauthors) {
			xgrow((void **)&ix->authors, &cap, k + 1,
			    sizeof(*ix->authors));
			a = &ix->authors[k];
			memset(a, 0, sizeof(*a));
			a->name = name;
			a->email = ix->posts[i]->author_email ?
			    ix->posts[i]->author_email : ix->site_email;
			buf_clear(&slug);
			slug_append(&slug, name);
			if (slug.len == 0)
				buf_printf(&slug, "author-%zu", k + 1);
			a->slug = xstrdup(slug.ptr);
			ix->nauthors++;
		}
		a = &ix->authors[k];
		a->posts = xrealloc(a->posts, (a->nposts + 1) * sizeof(*a->posts));
		a->posts[a->nposts++] = ix->posts[i];
	}
	buf_release(&slug);
	xqsort(ix->authors, ix->nauthors, sizeof(*ix->authors), cmp_author);
}

const struct author_info *
siteindex_author_info(const struct site_index *ix, const char *name)
{
	size_t i;

	for (i = 0; i < ix->nauthors; i++)
		if (strcmp(ix->authors[i].name, name) == 0)
			return &ix->authors[i];
	return NULL;
}

/* Months with posts, newest first; posts are already newest first. */
static void
index_archives(struct site_index *ix)
{
	struct archive_month *m = NULL;
	size_t i, k, capm = 0, capy = 0;
	struct post *p;

	/* the written date orders like the posts, except across zones:
	 * group by (year, month) wherever the post falls */
	for (i = 0; i < ix->nposts; i++) {
		p = ix->posts[i];
		for (k = 0; k < ix->nmonths; k++)
			if (ix->months[k].year == p->year &&
			    ix->months[k].month == p->month)
				break;
		if (k == ix->nmonths) {
			xgrow((void **)&ix->months, &capm, k + 1,
			    sizeof(*ix->months));
			memset(&ix->months[k], 0, sizeof(ix->months[k]));
			ix->months[k].year = p->year;
			ix->months[k].month = p->month;
			ix->nmonths++;
		}
		m = &ix->months[k];
		m->posts = xrealloc(m->posts, (m->nposts + 1) * sizeof(*m->posts));
		m->posts[m->nposts++] = p;
	}
	xqsort(ix->months, ix->nmonths, sizeof(*ix->months), cmp_month);
	for (i = 0; i < ix->nmonths; i++) {
		m = &ix->months[i];
		if (ix->nyears == 0 || ix->years[ix->nyears - 1].year != m->year) {
			xgrow((void **)&ix->years, &capy, ix->nyears + 1,
			    sizeof(*ix->years));
			memset(&ix->years[ix->nyears], 0, sizeof(*ix->years));
			ix->years[ix->nyears].year = m->year;
			ix->years[ix->nyears].first = i;
			ix->nyears++;
		}
		ix->years[ix->nyears - 1].nmonths++;
		ix->years[ix->nyears - 1].nposts += m->nposts;
	}
}

int
siteindex_build(struct site_index *ix, struct post *posts, size_t np,
    struct post *pages, size_t ng, const struct site_config *c,
    struct diag *d)
{
	struct post **all;
	size_t i;
	int rc;

	memset(ix, 0, sizeof(*ix));
	ix->posts = xcalloc(np + 1, sizeof(*ix->posts));
	ix->pages = xcalloc(ng + 1, sizeof(*ix->pages));
	all = xcalloc(np + ng + 1, sizeof(*all));
	for (i = 0; i < np; i++) {
		ix->posts[ix->nposts++] = &posts[i];
		all[i] = &posts[i];
	}
	for (i = 0; i < ng; i++) {
		all[np + i] = &pages[i];
		if (strcmp(pages[i].slug, "index") == 0 && ix->home == NULL) {
			/* A custom home page replaces the post list at /. */
			ix->home = &pages[i];
			continue;
		}
		ix->pages[ix->npages++] = &pages[i];
	}
	rc = check_urls(all, np + ng, d);
	free(all);
	drop_dups(ix->posts, &ix->nposts);
	drop_dups(ix->pages, &ix->npages);
	if (ix->home != NULL && ix->home->dup)
		ix->home = NULL;
	xqsort(ix->posts, ix->nposts, sizeof(*ix->posts), cmp_posts);
	xqsort(ix->pages, ix->npages, sizeof(*ix->pages), cmp_pages);
	for (i = 0; i < ix->nposts; i++)
		ix->posts[i]->index = i;
	for (i = 0; i < ix->npages; i++)
		if (ix->pages[i]->secondary)
			ix->nsecondary++;
	ix->secondary = xcalloc(ix->nsecondary + 1, sizeof(*ix->secondary));
	ix->nsecondary = 0;
	for (i = 0; i < ix->npages; i++)
		if (ix->pages[i]->secondary)
			ix->secondary[ix->nsecondary++] = ix->pages[i];
	ix->site_author = c->author_name;
	ix->site_email = c->author_email;
	index_tags(ix);
	name_hashes(ix);
	index_authors(ix);
	index_archives(ix);
	return rc;
}

void
siteindex_release(struct site_index *ix)
{
	size_t i;

	for (i = 0; i < ix->ntags; i++)
		free(ix->tags[i].posts);
	for (i = 0; i < ix->nposts; i++) {
		free(ix->posts[i]->related);
		ix->posts[i]->related = NULL;
		ix->posts[i]->nrelated = 0;
	}
	for (i = 0; i < ix->nauthors; i++) {
		free(ix->authors[i].slug);
		free(ix->authors[i].posts);
	}
	free(ix->authors);
	for (i = 0; i < ix->nmonths; i++)
		free(ix->months[i].posts);
	free(ix->months);
	free(ix->years);
	free(ix->secondary);
	free(ix->tags);
	free(ix->by_slug);
	free(ix->posts);
	free(ix->pages);
	memset(ix, 0, sizeof(*ix));
}

const struct tag_info *
siteindex_tag(const struct site_index *ix, const char *slug)
{
	struct tag_info **t;

	if (ix->ntags == 0)
		return NULL;
	t = bsearch(slug, ix->by_slug, ix->ntags, sizeof(*ix->by_slug),
	    cmp_tag_slug);
	return t ? *t : NULL;
}
