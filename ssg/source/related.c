#include "related.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "content.h"
#include "fsutil.h"
#include "hash.h"
#include "mem.h"
#include "pool.h"
#include "siteindex.h"

#define RELATED_MAGIC "ssg-related 1\n"

/* Is a more related than b to the same post? More shared tags first, then
 * newer, then by URL, so every build picks the same ones. */
static int
more_related(const struct post *a, unsigned ca, const struct post *b,
    unsigned cb)
{
	if (ca != cb)
		return ca > cb;
	if (a->date != b->date)
		return a->date > b->date;
	return strcmp(a->url, b->url) < 0;
}

struct related_work {
	struct site_index	*ix;
	size_t			 want;
	size_t			 chunks;
};

/* Related posts of one post; count and touched are scratch arrays of
 * nposts entries, count all zero on entry and on return. */
static void
relate_one(struct related_work *w, struct post *p, unsigned *count,
    size_t *touched)
{
	struct site_index *ix = w->ix;
	struct post *q, **best;
	unsigned *bestc;
	size_t ntouched = 0, t, j, k, nbest = 0;
	const struct tag_info *ti;

	for (t = 0; t < p->ntags; t++) {
		if ((ti = siteindex_tag(ix, p->tags[t].slug)) == NULL)
			continue;
		for (j = 0; j < ti->nposts; j++) {
			q = ti->posts[j];
			if (q == p)
				continue;
			if (count[q->index]++ == 0)
				touched[ntouched++] = q->index;
		}
	}
	best = xcalloc(w->want + 1, sizeof(*best));
	bestc = xcalloc(w->want + 1, sizeof(*bestc));
	for (j = 0; j < ntouched; j++) {
		q = ix->posts[touched[j]];
		/* insertion into the short list of the best so far */
		for (k = nbest; k > 0 && more_related(q, count[q->index],
		    best[k - 1], bestc[k - 1]); k--) {
			if (k < w->want) {
				best[k] = best[k - 1];
				bestc[k] = bestc[k - 1];
			}
		}
		if (k < w->want) {
			best[k] = q;
			bestc[k] = count[q->index];
			if (nbest < w->want)
				nbest++;
		}
	}
	for (j = 0; j < ntouched; j++)
		count[touched[j]] = 0;
	p->related = best;
	p->nrelated = nbest;
	free(bestc);
}

/* One slice of the posts, with scratch arrays made once for it. */
static void
relate_chunk(size_t c, void *arg)
{
	struct related_work *w = arg;
	size_t n = w->ix->nposts, from = n * c / w->chunks,
	    to = n * (c + 1) / w->chunks, i;
	unsigned *count = xcalloc(n + 1, sizeof(*count));
	size_t *touched = xcalloc(n + 1, sizeof(*touched));

	for (i = from; i < to; i++)
		relate_one(w, w->ix->posts[i], count, touched);
	free(count);
	free(touched);
}

/* What related posts depend on: every post's URL, date and tag slugs. */
static uint64_t
graph_hash(const struct site_index *ix, size_t want)
{
	struct buf b = BUF_INIT;
	long long t;
	size_t i, j;
	uint64_t h;

	buf_add(&b, &want, sizeof(want));
	for (i = 0; i < ix->nposts; i++) {
		const struct post *p = ix->posts[i];

		buf_adds(&b, p->url);
		buf_addc(&b, '\0');
		t = (long long)p->date;
		buf_add(&b, &t, sizeof(t));
		for (j = 0; j < p->ntags; j++) {
			buf_adds(&b, p->tags[j].slug);
			buf_addc(&b, '\1');
		}
		buf_addc(&b, '\2');
	}
	h = hash64(b.ptr, b.len);
	buf_release(&b);
	return h;
}

/* The saved answer: magic, graph hash, then per post in site order the
 * number of related posts and their positions. */
static int
load(struct site_index *ix, const char *path, uint64_t g, size_t want)
{
	struct buf b = BUF_INIT;
	const char *p, *end;
	uint64_t h;
	uint32_t n, k, idx;
	size_t i, j;
	int rc = -1;

	if (path == NULL || fs_read(path, &b) == -1)
		goto out;
	p = b.ptr;
	end = b.ptr + b.len;
	if ((size_t)(end - p) < strlen(RELATED_MAGIC) + 8 ||
	    memcmp(p, RELATED_MAGIC, strlen(RELATED_MAGIC)) != 0)
		goto out;
	p += strlen(RELATED_MAGIC);
	memcpy(&h, p, 8);
	p += 8;
	if (h != g)
		goto out;
	for (i = 0; i < ix->nposts; i++) {
		if ((size_t)(end - p) < 4)
			goto bad;
		memcpy(&n, p, 4);
		p += 4;
		if (n > want || (size_t)(end - p) < (size_t)n * 4)
			goto bad;
		ix->posts[i]->related = xcalloc(want + 1,
		    sizeof(*ix->posts[i]->related));
		for (k = 0; k < n; k++) {
			memcpy(&idx, p, 4);
			p += 4;
			if (idx >= ix->nposts || idx == i)
				goto bad;
			ix->posts[i]->related[k] = ix->posts[idx];
		}
		ix->posts[i]->nrelated = n;
	}
	if (p == end)
		rc = 0;
	else
		goto bad;
	goto out;
bad:
	/* a damaged file: forget what was read, compute again */
	for (j = 0; j < ix->nposts; j++) {
		free(ix->posts[j]->related);
		ix->posts[j]->related = NULL;
		ix->posts[j]->nrelated = 0;
	}
out:
	buf_release(&b);
	return rc;
}

static void
save(const struct site_index *ix, const char *path, uint64_t g)
{
	struct buf b = BUF_INIT;
	uint32_t n, idx;
	size_t i, k;

	buf_adds(&b, RELATED_MAGIC);
	buf_add(&b, &g, 8);
	for (i = 0; i < ix->nposts; i++) {
		n = (uint32_t)ix->posts[i]->nrelated;
		buf_add(&b, &n, 4);
		for (k = 0; k < n; k++) {
			idx = (uint32_t)ix->posts[i]->related[k]->index;
			buf_add(&b, &idx, 4);
		}
	}
	fs_write_cache(path, b.ptr, b.len);
	buf_release(&b);
}

void
related_build(struct site_index *ix, size_t want, size_t threads,
    const char *cache_path)
{
	struct related_work w = { ix, want, threads * 4 };
	struct buf h = BUF_INIT;
	uint64_t g;
	size_t i, k;

	if (want == 0 || ix->nposts == 0)
		return;
	g = graph_hash(ix, want);
	if (load(ix, cache_path, g, want) == -1) {
		pool_for(threads, w.chunks, relate_chunk, &w);
		if (cache_path != NULL)
			save(ix, cache_path, g);
	}
	/* what post pages show of them: titles may change on their own */
	for (i = 0; i < ix->nposts; i++) {
		struct post *p = ix->posts[i];

		buf_clear(&h);
		for (k = 0; k < p->nrelated; k++) {
			buf_adds(&h, p->related[k]->title);
			buf_addc(&h, '\0');
			buf_adds(&h, p->related[k]->url);
			buf_addc(&h, '\0');
		}
		p->related_hash = hash64(h.ptr, h.len);
	}
	buf_release(&h);
}
