#include "siteindex.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "diag.h"
#include "hash.h"
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

	qsort(all, n, sizeof(*all), cmp_url);
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
	qsort(ix->tags, ix->ntags, sizeof(*ix->tags), cmp_tags);
	ix->by_slug = xcalloc(ix->ntags + 1, sizeof(*ix->by_slug));
	for (i = 0; i < ix->ntags; i++)
		ix->by_slug[i] = &ix->tags[i];
	qsort(ix->by_slug, ix->ntags, sizeof(*ix->by_slug), cmp_slug_ptr);
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

int
siteindex_build(struct site_index *ix, struct post *posts, size_t np,
    struct post *pages, size_t ng, struct diag *d)
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
	qsort(ix->posts, ix->nposts, sizeof(*ix->posts), cmp_posts);
	qsort(ix->pages, ix->npages, sizeof(*ix->pages), cmp_pages);
	index_tags(ix);
	name_hashes(ix);
	return rc;
}

void
siteindex_release(struct site_index *ix)
{
	size_t i;

	for (i = 0; i < ix->ntags; i++)
		free(ix->tags[i].posts);
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
