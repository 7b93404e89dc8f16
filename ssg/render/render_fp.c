/*
 * Fingerprints: a hash of everything a page shows. A page whose
 * fingerprint is unchanged since its file was written is not rendered
 * again; every input a renderer reads must be hashed here.
 */
#include <string.h>

#include "config.h"
#include "content.h"
#include "hash.h"
#include "page_kind.h"
#include "render_int.h"
#include "siteindex.h"
#include "value.h"


static void
fp_val(struct buf *b, const struct val *v)
{
	const char *t;
	size_t i, n;

	hash_field_u64(b, (uint64_t)val_kind(v));
	switch (val_kind(v)) {
	case VAL_LIST:
		n = val_len(v);
		hash_field_u64(b, n);
		for (i = 0; i < n; i++)
			fp_val(b, val_at(v, i));
		break;
	case VAL_MAP:
		n = val_map_len(v);
		hash_field_u64(b, n);
		for (i = 0; i < n; i++) {
			hash_field_str(b, val_key_at(v, i));
			fp_val(b, val_value_at(v, i));
		}
		break;
	default:
		t = val_text(v, &n);
		hash_field_u64(b, n);
		buf_add(b, t, n);
		break;
	}
}

/* A post as a list shows it (or whole), with its tags' site-wide names. */
static void
fp_post(struct buf *b, const struct post *p, int full)
{
	hash_field_u64(b, full ? p->full_hash : p->sum_hash);
	hash_field_u64(b, p->tag_names_hash);
}

static void
fp_posts(struct buf *b, struct post *const *posts, size_t n, int full)
{
	size_t i;

	hash_field_u64(b, n);
	for (i = 0; i < n; i++)
		fp_post(b, posts[i], full);
}

static void
fp_link(struct buf *b, const struct post *p)
{
	hash_field_str(b, p ? p->title : NULL);
	hash_field_str(b, p ? p->url : NULL);
}

/* A feed: its first rss_item_limit posts, whole (content or description). */
static void
fp_feed(const struct render *r, struct buf *b, struct post *const *posts,
    size_t n)
{
	if (n > (size_t)r->c->rss_item_limit)
		n = (size_t)r->c->rss_item_limit;
	fp_posts(b, posts, n, 1);
}

void
render_set_base(struct render *r, uint64_t tmpl_hash, uint64_t cfg_hash)
{
	const struct site_index *ix = r->ix;
	struct buf b = BUF_INIT;
	size_t i;

	hash_field_u64(&b, tmpl_hash);
	hash_field_u64(&b, cfg_hash);
	fp_val(&b, r->site);
	/* the menu */
	for (i = 0; i < ix->npages; i++)
		if (!ix->pages[i]->secondary)
			fp_link(&b, ix->pages[i]);
	hash_field_u64(&b, ix->nposts > 0);
	hash_field_u64(&b, (uint64_t)r->authors_menu);
	hash_field_u64(&b, ix->ntags > 0);
	hash_field_u64(&b, ix->nsecondary > 0);
	r->fp_base = hash64(b.ptr, b.len);
	r->cap_base = capsule_base(r);
	buf_release(&b);
}

uint64_t
render_val_hash(const struct val *v)
{
	struct buf b = BUF_INIT;
	uint64_t h;

	fp_val(&b, v);
	h = hash64(b.ptr, b.len);
	buf_release(&b);
	return h;
}

uint64_t
render_base(const struct render *r, enum page_kind kind)
{
	return page_kinds[kind].format == FORMAT_GEMINI ? r->cap_base :
	    r->fp_base;
}

/*
 * What each page kind shows, on top of the base (one function per kind,
 * named in page_kind.c's table). Not j->arg as such: a position in a
 * list, which moves when a post is added; the URL and path name the page.
 */
void
fp_kind_post(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct site_index *ix = r->ix;
	const struct post *p = ix->posts[j->arg];
	size_t i;

	fp_post(b, p, 1);
	/* its link to its Markdown source (not a draft's) */
	hash_field_u64(b, content_publishes_source(p, r->c));
	fp_link(b, j->arg + 1 < ix->nposts ? ix->posts[j->arg + 1] : NULL);
	fp_link(b, j->arg > 0 ? ix->posts[j->arg - 1] : NULL);
	hash_field_u64(b, ix->nposts > 1);
	hash_field_u64(b, p->nrelated ? p->related_hash : 0);
	/* and what it shows of each (render.c, related_summary) */
	for (i = 0; i < p->nrelated; i++)
		hash_field_str(b, p->related[i]->description);
}

void
fp_kind_page(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct post *p = j->arg == (size_t)-1 ? r->ix->home :
	    r->ix->pages[j->arg];

	fp_post(b, p, 1);
	hash_field_u64(b, content_publishes_source(p, r->c));
}

void
fp_kind_home(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct site_index *ix = r->ix;
	size_t per = (size_t)r->c->posts_per_page, first = (j->arg - 1) * per,
	    n = first >= ix->nposts ? 0 : ix->nposts - first;

	hash_field_u64(b, r->home_pages);
	fp_posts(b, ix->posts + first, n < per ? n : per,
	    r->c->index_show_full_content);
}

void
fp_kind_tags(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct site_index *ix = r->ix;
	size_t i;

	(void)j;
	for (i = 0; i < ix->ntags; i++) {
		hash_field_str(b, ix->tags[i].name);
		hash_field_str(b, ix->tags[i].slug);
		hash_field_u64(b, ix->tags[i].nposts);
	}
}

void
fp_kind_tag(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct tag_info *t = &r->ix->tags[j->arg];

	hash_field_str(b, t->name);
	fp_posts(b, t->posts, t->nposts, 0);
}

void
fp_kind_tag_feed(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct tag_info *t = &r->ix->tags[j->arg];

	hash_field_str(b, t->name);
	fp_feed(r, b, t->posts, t->nposts);
}

void
fp_kind_archives(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct site_index *ix = r->ix;
	size_t i;

	(void)j;
	for (i = 0; i < ix->nmonths; i++) {
		hash_field_u64(b, (uint64_t)ix->months[i].year << 8 |
		    (uint64_t)ix->months[i].month);
		if (r->c->archives_list_all_posts)
			fp_posts(b, ix->months[i].posts, ix->months[i].nposts,
			    0);
		else
			hash_field_u64(b, ix->months[i].nposts);
	}
}

void
fp_kind_year(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct site_index *ix = r->ix;
	size_t i, k;

	for (k = 0; k < ix->years[j->arg].nmonths; k++) {
		i = ix->years[j->arg].first + k;
		hash_field_u64(b, (uint64_t)ix->months[i].month);
		fp_posts(b, ix->months[i].posts, ix->months[i].nposts, 0);
	}
}

void
fp_kind_month(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct archive_month *m = &r->ix->months[j->arg];

	fp_posts(b, m->posts, m->nposts, 0);
}

void
fp_kind_authors(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct site_index *ix = r->ix;
	size_t i;

	(void)j;
	for (i = 0; i < ix->nauthors; i++) {
		hash_field_str(b, ix->authors[i].name);
		hash_field_str(b, ix->authors[i].slug);
		hash_field_u64(b, ix->authors[i].nposts);
	}
}

void
fp_kind_author(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct author_info *a = &r->ix->authors[j->arg];

	hash_field_str(b, a->name);
	fp_posts(b, a->posts, a->nposts, 0);
}

void
fp_kind_author_feed(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct author_info *a = &r->ix->authors[j->arg];

	hash_field_str(b, a->name);
	fp_feed(r, b, a->posts, a->nposts);
}

void
fp_kind_pages(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct site_index *ix = r->ix;
	size_t i;

	(void)j;
	for (i = 0; i < ix->nsecondary; i++) {
		fp_link(b, ix->secondary[i]);
		hash_field_str(b, ix->secondary[i]->description);
	}
}

void
fp_kind_feed(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	(void)j;
	fp_feed(r, b, r->ix->posts, r->ix->nposts);
}

/* every page URL, and the dates it shows */
void
fp_kind_sitemap(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct site_index *ix = r->ix;
	size_t i;

	(void)j;
	for (i = 0; i < ix->nposts; i++) {
		hash_field_str(b, ix->posts[i]->url);
		hash_field_u64(b, (uint64_t)ix->posts[i]->lastmod);
	}
	for (i = 0; i < ix->npages; i++) {
		hash_field_str(b, ix->pages[i]->url);
		hash_field_u64(b, (uint64_t)ix->pages[i]->lastmod);
	}
	hash_field_u64(b, ix->home != NULL);
	for (i = 0; i < ix->ntags; i++)
		hash_field_str(b, ix->tags[i].slug);
	for (i = 0; i < ix->nmonths; i++)
		hash_field_u64(b, (uint64_t)ix->months[i].year << 8 |
		    (uint64_t)ix->months[i].month);
	for (i = 0; i < ix->nauthors; i++)
		hash_field_str(b, ix->authors[i].slug);
	hash_field_u64(b, r->home_pages);
}

/* its file's text and its title */
void
fp_kind_source(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	const struct post *p = render_source_post(r, j);

	hash_field_u64(b, p->text_hash);
	hash_field_str(b, p->title);
}

/* it links the archives and the tags when there are some */
void
fp_kind_search(const struct render *r, const struct page_job *j,
    struct buf *b)
{
	(void)j;
	hash_field_u64(b, r->ix->nposts > 0);
	hash_field_u64(b, r->ix->ntags > 0);
}

uint64_t
render_fingerprint(const struct render *r, const struct page_job *j)
{
	struct buf b = BUF_INIT;
	uint64_t fp;

	hash_field_u64(&b, render_base(r, j->kind));
	hash_field_u64(&b, (uint64_t)j->kind);
	hash_field_str(&b, j->url);
	hash_field_str(&b, j->out_path);
	if (page_kinds[j->kind].fingerprint != NULL)
		page_kinds[j->kind].fingerprint(r, j, &b);
	fp = hash64(b.ptr, b.len);
	buf_release(&b);
	return fp != 0 ? fp : 1;	/* 0 marks a file copied as it is */
}
