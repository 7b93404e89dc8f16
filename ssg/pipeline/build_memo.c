/*
 * The memo: a hash of all a build's inputs, saved with the list of outputs
 * of a build that ended without error. A build whose inputs hash the same
 * need only check that the files are still there.
 */

#include <sys/stat.h>

#include "buf.h"
#include "build_int.h"
#include "datetime.h"
#include "diag.h"
#include "hash.h"
#include "locale.h"
#include "media.h"
#include "render.h"
#include "srccache.h"
#include "value.h"

static void
memo_start(struct build *b, struct buf *k)
{
	struct val *t = locale_strings(b->locale);
	uint64_t v[8];
	int y, m, dd;

	dt_ymd(b->now, &y, &m, &dd);
	buf_adds(k, "memo 1 " SSG_VERSION);
	v[0] = b->tmpl_hash;
	v[1] = config_hash(&b->c);
	v[2] = build_parse_hash(b);
	v[3] = render_val_hash(t);
	val_free(t);
	v[4] = (uint64_t)y;
	v[5] = (uint64_t)b->o->drafts << 1 | (uint64_t)b->o->future;
	v[6] = media_hash(b->media);	/* the pages show the images */
	v[7] = build_assets_hash(b);	/* and link them by it */
	buf_add(k, v, sizeof(v));
}

/* Source s, parsed as p (NULL: it could not be). */
static void
memo_source(struct buf *k, const struct source *s, const struct post *p,
    int published)
{
	uint64_t v[4];

	buf_adds(k, s->key);
	v[0] = (uint64_t)s->kind << 2 | (uint64_t)(p != NULL) << 1 |
	    (uint64_t)published;
	v[1] = p ? p->text_hash : 0;
	v[2] = p ? (uint64_t)(int64_t)p->date : 0;
	v[3] = p ? (uint64_t)(int64_t)p->lastmod : 0;
	buf_add(k, v, sizeof(v));
}

static uint64_t
memo_end(struct buf *k)
{
	uint64_t h = hash64(k->ptr, k->len);

	buf_release(k);
	return h != 0 ? h : 1;
}

/*
 * The hash of all a build's inputs: templates, theme, settings, parse
 * settings, locale strings, the year, the build's options and, per source,
 * its text, dates and whether it is published. 0 when it cannot be trusted
 * to: dates from git change without the sources changing, and code left
 * plain for want of a highlighter is coloured once there is one.
 */
uint64_t
build_memo(struct build *b)
{
	struct buf k = BUF_INIT;
	size_t i;

	/* also for --force, which does not use it but saves it: the build
	 * after it can */
	if (b->c.git_lastmod)
		return 0;
	for (i = 0; i < b->nsrc; i++)
		if (b->src[i].ok && b->items[i].code_unlit)
			return 0;
	memo_start(b, &k);
	for (i = 0; i < b->nsrc; i++)
		memo_source(&k, &b->src[i], b->src[i].ok ? &b->items[i] : NULL,
		    b->src[i].published);
	return memo_end(&k);
}

/*
 * The same hash straight from the source cache, before reading anything,
 * when every source is in it with the stat it had: 0 otherwise. Counts
 * what build_memo's build would have.
 */
uint64_t
build_cached_memo(struct build *b)
{
	struct buf k = BUF_INIT;
	const struct post *p;
	uint64_t h;
	size_t i;
	int pub, draft;

	if (b->force || b->c.git_lastmod ||
	    srccache_count(b->cache) != b->nsrc)
		return 0;
	memo_start(b, &k);
	for (i = 0; i < b->nsrc; i++) {
		struct source *s = &b->src[i];

		if (!S_ISREG(s->st.st_mode) ||
		    (p = srccache_by_stat(b->cache, s->key, &s->st, &h)) ==
		    NULL) {
			buf_release(&k);
			return 0;
		}
		s->cached = p;
		pub = build_published(b, p, &draft);
		memo_source(&k, s, p, pub);
	}
	return memo_end(&k);
}

/* What build_load would have counted and warned about, for a build
 * that found by build_cached_memo that it need not read the sources. */
void
build_count_cached(struct build *b)
{
	const struct post *p;
	size_t i;
	int draft;

	for (i = 0; i < b->nsrc; i++) {
		p = b->src[i].cached;
		if (p->date_from_mtime && p->kind == CONTENT_POST)
			diag_warn(b->d, b->src[i].path, 0, "no date: using the "
			    "file's modification time");
		if (!build_published(b, p, &draft))
			b->st->drafts++;
		else if (p->kind == CONTENT_PAGE)
			b->st->pages++;
		else
			b->st->posts++;
	}
}
