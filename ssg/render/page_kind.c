/*
 * The page-kind table: every kind of file the plan holds, and the
 * functions that make it (see page_kind.h).
 */
#include "config.h"
#include "content.h"
#include "page_kind.h"
#include "siteindex.h"

/* Posts whose body a page about to be rendered shows: read again from
 * their sources when the build's cache carried them over. */
static void
need_posts(struct post *const *posts, size_t n, size_t limit)
{
	size_t i;

	for (i = 0; i < n && i < limit; i++)
		posts[i]->need_html = 1;
}

/* A feed shows whole posts only with rss_include_full_content. */
static size_t
feed_limit(const struct render *r)
{
	return r->c->rss_include_full_content ?
	    (size_t)r->c->rss_item_limit : 0;
}

static void
needs_post(const struct render *r, const struct page_job *j)
{
	r->ix->posts[j->arg]->need_html = 1;
}

static void
needs_page(const struct render *r, const struct page_job *j)
{
	(j->arg == (size_t)-1 ? r->ix->home :
	    r->ix->pages[j->arg])->need_html = 1;
}

static void
needs_home(const struct render *r, const struct page_job *j)
{
	size_t per = (size_t)r->c->posts_per_page, first = (j->arg - 1) * per;

	if (r->c->index_show_full_content && first < r->ix->nposts)
		need_posts(r->ix->posts + first, r->ix->nposts - first, per);
}

static void
needs_feed(const struct render *r, const struct page_job *j)
{
	(void)j;
	need_posts(r->ix->posts, r->ix->nposts, feed_limit(r));
}

static void
needs_tag_feed(const struct render *r, const struct page_job *j)
{
	need_posts(r->ix->tags[j->arg].posts, r->ix->tags[j->arg].nposts,
	    feed_limit(r));
}

static void
needs_author_feed(const struct render *r, const struct page_job *j)
{
	need_posts(r->ix->authors[j->arg].posts,
	    r->ix->authors[j->arg].nposts, feed_limit(r));
}

static const struct post *
subject_post(const struct render *r, const struct page_job *j)
{
	return r->ix->posts[j->arg];
}

/* not the home page's Markdown: its images are said on its posts */
static const struct post *
subject_page(const struct render *r, const struct page_job *j)
{
	return j->arg == (size_t)-1 ? NULL : r->ix->pages[j->arg];
}

const struct page_kind_ops page_kinds[PAGE_KIND_COUNT] = {
	[PAGE_POST] = { "post", render_post, fp_kind_post, head_post,
	    needs_post, subject_post, ORDER_SINGLE },
	[PAGE_PAGE] = { "page", render_one_page, fp_kind_page, head_page,
	    needs_page, subject_page, ORDER_SINGLE },
	[PAGE_HOME] = { "home", render_home, fp_kind_home, head_home,
	    needs_home, NULL, ORDER_LIST },
	[PAGE_TAGS] = { "tags", render_tags, fp_kind_tags, head_tags,
	    NULL, NULL, ORDER_LIST },
	[PAGE_TAG] = { "tag", render_tag, fp_kind_tag, head_tag,
	    NULL, NULL, ORDER_LIST },
	[PAGE_TAG_RSS] = { "tag feed", render_feed, fp_kind_tag_feed, NULL,
	    needs_tag_feed, NULL, ORDER_LIST },
	[PAGE_ARCHIVES] = { "archives", render_archives, fp_kind_archives,
	    head_archives, NULL, NULL, ORDER_LIST },
	[PAGE_ARCHIVE_YEAR] = { "year", render_archive_year, fp_kind_year,
	    head_year, NULL, NULL, ORDER_LIST },
	[PAGE_ARCHIVE_MONTH] = { "month", render_archive_month,
	    fp_kind_month, head_month, NULL, NULL, ORDER_LIST },
	[PAGE_AUTHORS] = { "authors", render_authors, fp_kind_authors,
	    head_authors, NULL, NULL, ORDER_LIST },
	[PAGE_AUTHOR] = { "author", render_author, fp_kind_author,
	    head_author, NULL, NULL, ORDER_LIST },
	[PAGE_AUTHOR_RSS] = { "author feed", render_feed,
	    fp_kind_author_feed, NULL, needs_author_feed, NULL, ORDER_LIST },
	[PAGE_PAGES] = { "pages", render_pages, fp_kind_pages, head_pages,
	    NULL, NULL, ORDER_LIST },
	[PAGE_404] = { "404", render_404, NULL, head_404, NULL, NULL,
	    ORDER_LIST },
	[PAGE_SEARCH] = { "search", render_search, fp_kind_search,
	    head_search, NULL, NULL, ORDER_LIST },
	[PAGE_RSS] = { "rss", render_feed, fp_kind_feed, NULL, needs_feed,
	    NULL, ORDER_LIST },
	[PAGE_ATOM] = { "atom", render_feed, fp_kind_feed, NULL, needs_feed,
	    NULL, ORDER_LIST },
	[PAGE_SITEMAP] = { "sitemap", render_sitemap, fp_kind_sitemap, NULL,
	    NULL, NULL, ORDER_LIST },
	[PAGE_ROBOTS] = { "robots", render_robots, NULL, NULL, NULL, NULL,
	    ORDER_LIST },
	[PAGE_SOURCE] = { "source", render_source, fp_kind_source, NULL,
	    NULL, NULL, ORDER_AFTER },
	[PAGE_GMI_POST] = { "capsule post", render_gmi_post, fp_gmi_post,
	    NULL, needs_post, NULL, ORDER_SINGLE, FORMAT_GEMINI },
	[PAGE_GMI_PAGE] = { "capsule page", render_gmi_page, fp_gmi_page,
	    NULL, needs_page, NULL, ORDER_SINGLE, FORMAT_GEMINI },
	[PAGE_GMI_HOME] = { "gemlog", render_gmi_home, fp_gmi_home, NULL,
	    NULL, NULL, ORDER_LIST, FORMAT_GEMINI },
	[PAGE_GMI_TAGS] = { "capsule tags", render_gmi_tags, fp_gmi_tags,
	    NULL, NULL, NULL, ORDER_LIST, FORMAT_GEMINI },
	[PAGE_GMI_TAG] = { "capsule tag", render_gmi_tag, fp_gmi_tag, NULL,
	    NULL, NULL, ORDER_LIST, FORMAT_GEMINI },
	[PAGE_GMI_ARCHIVES] = { "capsule archives", render_gmi_archives,
	    fp_gmi_archives, NULL, NULL, NULL, ORDER_LIST, FORMAT_GEMINI },
	[PAGE_GMI_ATOM] = { "capsule feed", render_gmi_atom, fp_gmi_atom,
	    NULL, NULL, NULL, ORDER_LIST, FORMAT_GEMINI },
	[PAGE_GMI_ROBOTS] = { "capsule robots", render_gmi_robots, NULL,
	    NULL, NULL, NULL, ORDER_LIST, FORMAT_GEMINI },
};

void
render_mark_needed(const struct render *r, const struct page_job *j)
{
	if (page_kinds[j->kind].needs != NULL)
		page_kinds[j->kind].needs(r, j);
}

const struct post *
render_subject(const struct render *r, const struct page_job *j)
{
	return page_kinds[j->kind].subject != NULL ?
	    page_kinds[j->kind].subject(r, j) : NULL;
}

enum page_order
render_order(enum page_kind kind)
{
	return page_kinds[kind].order;
}

enum page_format
render_format(enum page_kind kind)
{
	return page_kinds[kind].format;
}
