/*
 * The search index (search_index.h) of the published posts and pages,
 * under search/ in the output. It is made again only when what it holds
 * may have changed; each of its files is written only when its bytes do,
 * so a post that loses a word rewrites the shards of that word and the
 * document table, and no other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "compress.h"
#include "diag.h"
#include "frontmatter.h"
#include "fsutil.h"
#include "hash.h"
#include "manifest.h"
#include "markdown.h"
#include "mem.h"
#include "output.h"
#include "pool.h"
#include "search_index.h"

#include "build_int.h"

/* Bumped when the files' form changes, so old ones are made again. */
#define SEARCH_FORMAT	"search 1"

struct texts {
	struct build		*b;
	const struct post	**docs;
	struct buf		*text;
};

/* The posts, then the pages: a document's number is its place here. */
static size_t
search_docs(const struct build *b, const struct post ***docs)
{
	size_t i, n = 0;

	*docs = xcalloc(b->ix.nposts + b->ix.npages + 1, sizeof(**docs));
	for (i = 0; i < b->ix.nposts; i++)
		(*docs)[n++] = b->ix.posts[i];
	for (i = 0; i < b->ix.npages; i++)
		(*docs)[n++] = b->ix.pages[i];
	return n;
}

static void
date_of(struct buf *out, const struct post *p)
{
	if (p->kind == CONTENT_POST)
		buf_printf(out, "%04d-%02d-%02d", p->year, p->month, p->day);
}

static void
hash_text(struct buf *k, const char *s)
{
	buf_adds(k, s != NULL ? s : "");
	buf_addc(k, '\0');
}

/* A hash of all the index shows: when it is the last build's, and its
 * files are there, the index is as it was. */
static uint64_t
search_fp(const struct build *b, const struct post **docs, size_t n)
{
	struct buf k = BUF_INIT, d = BUF_INIT;
	uint64_t fp;
	size_t i, t;

	buf_adds(&k, SEARCH_FORMAT);
	buf_addc(&k, '\0');
	hash_text(&k, config_base_path(&b->c));
	for (i = 0; i < n; i++) {
		const struct post *p = docs[i];

		hash_text(&k, p->url);
		hash_text(&k, p->title);
		hash_text(&k, p->excerpt);
		hash_text(&k, p->description);
		buf_clear(&d);
		date_of(&d, p);
		hash_text(&k, d.ptr);
		for (t = 0; t < p->ntags; t++)
			hash_text(&k, p->tags[t].name);
		buf_add(&k, &p->text_hash, sizeof(p->text_hash));
	}
	fp = hash64(k.ptr, k.len);
	buf_release(&k);
	buf_release(&d);
	return fp != 0 ? fp : 1;	/* 0 marks a file copied as it is */
}

/* The body of docs[i] as plain text, read again from its source. */
static void
text_one(size_t i, void *arg)
{
	struct texts *t = arg;
	const struct post *p = t->docs[i];
	struct buf src = BUF_INIT;
	struct frontmatter fm;
	struct diag *quiet = diag_new();

	memset(&fm, 0, sizeof(fm));
	/* the build has read it and said what is wrong with it */
	if (fs_read(p->src, &src) == 0 && (p->is_html ?
	    frontmatter_parse_html : frontmatter_parse)(&fm, src.ptr, src.len,
	    p->src, quiet) == 0) {
		if (p->is_html)
			markdown_html_text(fm.body, fm.body_len, &t->text[i]);
		else
			search_text_markdown(fm.body, fm.body_len, &t->text[i]);
	}
	frontmatter_release(&fm);
	buf_release(&src);
	diag_free(quiet);
}

struct emit {
	struct build	*b;
	uint64_t	 fp;
};

static int
emit_file(const char *rel, const char *data, size_t n, void *arg)
{
	struct emit *e = arg;
	struct build *b = e->b;
	struct buf path = BUF_INIT;
	int changed = 0, rc;

	buf_printf(&path, "search/%s", rel);
	rc = output_write(b->out_dir, path.ptr, data, n, &changed, b->d);
	if (rc == 0) {
		build_siblings(b, path.ptr, data, n, changed);
		manifest_add(b->manifest, path.ptr, e->fp, 0);
		b->st->outputs++;
		b->st->written += changed;
	} else
		b->failed = 1;
	buf_release(&path);
	return rc;
}

/* A file of the index (not the page or its script). */
static int
index_file(const char *rel)
{
	size_t n = strlen(rel);

	return strncmp(rel, "search/", 7) == 0 && n > 5 &&
	    strcmp(rel + n - 5, ".json") == 0;
}

/* The last build's index, carried when it is what this one would write.
 * Returns 1 when it was. */
static int
carry_old(struct build *b, uint64_t fp)
{
	uint64_t ofp, obase;
	size_t i, n = manifest_count(b->old);
	int found, any = 0;

	for (i = 0; i < n; i++) {
		const char *rel = manifest_path_at(b->old, i);

		if (!index_file(rel) ||
		    !manifest_get(b->old, rel, &ofp, &obase, &found) ||
		    ofp == 0)
			continue;
		if (ofp != fp || found != MANIFEST_FOUND)
			return 0;
		any = 1;
	}
	if (!any)
		return 0;
	for (i = 0; i < n; i++) {
		const char *rel = manifest_path_at(b->old, i);

		if (index_file(rel) &&
		    manifest_get(b->old, rel, &ofp, &obase, &found) &&
		    ofp != 0) {
			manifest_add(b->manifest, rel, ofp, 0);
			b->st->outputs++;
		}
	}
	return 1;
}

void
build_search(struct build *b, size_t threads)
{
	struct search_index *ix;
	struct texts t;
	struct emit e;
	struct buf date = BUF_INIT, url = BUF_INIT;
	const char **tags = NULL;
	size_t n, i, k, ntags = 0;

	if (!b->c.search)
		return;
	n = search_docs(b, &t.docs);
	e.b = b;
	e.fp = search_fp(b, t.docs, n);
	if (!b->force && carry_old(b, e.fp)) {
		free(t.docs);
		return;
	}
	t.b = b;
	t.text = xcalloc(n + 1, sizeof(*t.text));
	for (i = 0; i < n; i++)
		buf_init(&t.text[i]);
	pool_for(threads, n, text_one, &t);
	ix = search_index_new();
	for (i = 0; i < n; i++) {
		const struct post *p = t.docs[i];
		struct search_doc d;

		if (p->ntags > ntags) {
			ntags = p->ntags;
			tags = xrealloc(tags, ntags * sizeof(*tags));
		}
		for (k = 0; k < p->ntags; k++)
			tags[k] = p->tags[k].name;
		buf_clear(&date);
		date_of(&date, p);
		buf_clear(&url);
		buf_printf(&url, "%s%s", config_base_path(&b->c), p->url);
		memset(&d, 0, sizeof(d));
		d.title = p->title;
		d.url = url.ptr;
		d.date = date.ptr;
		d.excerpt = p->excerpt;
		d.description = p->description;
		d.tags = tags;
		d.ntags = p->ntags;
		d.text = t.text[i].ptr;
		d.text_len = t.text[i].len;
		search_index_add(ix, &d);
		buf_release(&t.text[i]);
	}
	search_index_write(ix, emit_file, &e);
	search_index_free(ix);
	free(tags);
	free(t.text);
	free(t.docs);
	buf_release(&date);
	buf_release(&url);
}

/* The script of the search page, as the build finds it: written with
 * the stylesheet on every build, the index's or not. */
void
build_search_script(struct build *b)
{
	struct buf js = BUF_INIT;
	char *path;
	int changed = 0;

	if (!b->c.search)
		return;
	path = path_join(b->builtin, "templates/search.js");
	if (fs_read(path, &js) == -1) {
		diag_error(b->d, path, 0, "cannot read the search script");
		b->failed = 1;
	} else if (output_write(b->out_dir, "search/search.js", js.ptr, js.len,
	    &changed, b->d) == 0) {
		build_siblings(b, "search/search.js", js.ptr, js.len, changed);
		manifest_add(b->manifest, "search/search.js", 0, 0);
		b->st->outputs++;
		b->st->written += changed;
	} else
		b->failed = 1;
	free(path);
	buf_release(&js);
}
