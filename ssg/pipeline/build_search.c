/*
 * The search index (search_index.h) of the published posts and pages,
 * under search/ in the output. It is made again only when what it holds
 * may have changed, from the words of each body, which are read again
 * only for a source whose bytes changed (.ssg-cache/search.bin); each of
 * its files is written only when its bytes do, so a post that loses a
 * word rewrites the shards of that word, the lengths, its page of the
 * document table and the manifest, and no other.
 */
#include <sys/uio.h>

#include <pthread.h>
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
#include "searchword.h"

#include "build_int.h"
#include "sink.h"

/* Bumped when the files' form changes, so old ones are made again. */
#define SEARCH_FORMAT	"search 2"
/* The cache of the words of each source's body, by its text's hash. */
#define TERMS_MAGIC	"ssg-search-terms 2\n"

/* A body's words as search_terms makes them, cached by the hash of its
 * source (and whether it is HTML): made again only for a source that
 * changed, or that is new. */
struct tentry {
	uint64_t	 hash;
	int		 html;
	const char	*terms;		/* into the loaded file, or own */
	size_t		 len;
	int		 fresh;		/* (saving) made this build */
};

/*
 * The file: the magic, the key, then entries, each the source's hash (8
 * bytes), whether it is HTML (1), the words' length (4), the words, and
 * a hash of all that (8). An edit appends the words it made, so a build
 * writes kilobytes, not the whole file; an entry cut short (a build
 * stopped while appending) ends what is read. The file is written whole
 * again when it would grow past twice the size of what a build uses.
 */
struct tcache {
	const char	*map;		/* the file, mapped */
	size_t		 maplen;
	size_t		 end;		/* of its last whole entry: 0, none */
	struct tentry	*e;		/* sorted by hash, html */
	size_t		 n;
	uint64_t	 key;		/* fold, ssg's version, parsing */
};

struct texts {
	struct build		*b;
	const struct post	**docs;
	const struct tcache	*tc;
	int			 fold;
	struct buf		*terms;	/* per document: made this build */
	const char		**made;	/* as the build parsed them (a copy
					 * of the posts' terms, taken before the
					 * pages are rendered beside the index) */
	const size_t		*made_len;
	const char		**got;	/* or found in the cache */
	size_t			*len;
	char			*cached;	/* 1: got from the cache */
};

static int
cmp_tentry(const void *a, const void *b)
{
	const struct tentry *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->html - y->html;
}

/* Reads the cache at path; one of other settings is empty, and one that
 * is damaged holds the entries before the damage. */
static void
tcache_load(struct tcache *tc, const char *path)
{
	const char *p, *end;
	uint64_t key, sum;
	uint32_t len;
	size_t cap = 0, ml = strlen(TERMS_MAGIC), i;

	if (fs_map(path, &tc->map, &tc->maplen) == -1 || tc->maplen < ml + 8 ||
	    memcmp(tc->map, TERMS_MAGIC, ml) != 0)
		return;
	memcpy(&key, tc->map + ml, 8);
	if (key != tc->key)
		return;
	end = tc->map + tc->maplen;
	tc->end = ml + 8;
	for (p = tc->map + tc->end; (size_t)(end - p) >= 21; p += 21 + len) {
		struct tentry *e;

		memcpy(&len, p + 9, 4);
		if ((size_t)(end - p) - 21 < len)
			break;
		memcpy(&sum, p + 13 + len, 8);
		if (hash64(p, 13 + len) != sum)
			break;
		xgrow((void **)&tc->e, &cap, tc->n + 1, sizeof(*tc->e));
		e = &tc->e[tc->n++];
		memcpy(&e->hash, p, 8);
		e->html = p[8] != 0;
		e->terms = p + 13;
		e->len = len;
		tc->end = (size_t)(p + 21 + len - tc->map);
	}
	/* written in order, appended to since: sorted if it is not */
	for (i = 1; i < tc->n; i++)
		if (cmp_tentry(&tc->e[i - 1], &tc->e[i]) > 0) {
			xqsort(tc->e, tc->n, sizeof(*tc->e), cmp_tentry);
			break;
		}
}

/* An entry's head: the source's hash, whether it is HTML, the words'
 * length; the words and the check of both follow. */
static void
tentry_head(unsigned char head[13], const struct tentry *e)
{
	uint32_t len = (uint32_t)e->len;

	memcpy(head, &e->hash, 8);
	head[8] = (unsigned char)e->html;
	memcpy(head + 9, &len, 4);
}

static void
tentry_put(struct buf *out, const struct tentry *e)
{
	unsigned char head[13];
	uint64_t sum;

	tentry_head(head, e);
	sum = hash64_two(head, 13, e->terms, e->len);
	buf_add(out, head, 13);
	buf_add(out, e->terms, e->len);
	buf_add(out, &sum, 8);
}

/* The cache written whole, from the entries as they are in memory (13 MB
 * at 10,000 posts: not copied into one buffer first). */
static void
tcache_write(const char *path, uint64_t key, const struct tentry *e,
    size_t k)
{
	struct iovec *v = xcalloc(3 * k + 2, sizeof(*v));
	unsigned char (*head)[13] = xcalloc(k + 1, 13);
	uint64_t *sum = xcalloc(k + 1, sizeof(*sum));
	size_t i, n = 0;

	v[n].iov_base = (void *)TERMS_MAGIC;
	v[n++].iov_len = strlen(TERMS_MAGIC);
	v[n].iov_base = &key;
	v[n++].iov_len = 8;
	for (i = 0; i < k; i++) {
		if (i > 0 && cmp_tentry(&e[i - 1], &e[i]) == 0)
			continue;	/* each source once */
		tentry_head(head[i], &e[i]);
		sum[i] = hash64_two(head[i], 13, e[i].terms, e[i].len);
		v[n].iov_base = head[i];
		v[n++].iov_len = 13;
		v[n].iov_base = (void *)e[i].terms;
		v[n++].iov_len = e[i].len;
		v[n].iov_base = &sum[i];
		v[n++].iov_len = 8;
	}
	fs_write_cache_v(path, v, n);
	free(v);
	free(head);
	free(sum);
}

static const struct tentry *
tcache_find(const struct tcache *tc, uint64_t hash, int html)
{
	struct tentry k;

	k.hash = hash;
	k.html = html != 0;
	return tc->n == 0 ? NULL : bsearch(&k, tc->e, tc->n, sizeof(*tc->e),
	    cmp_tentry);
}

/* Saves the words this build made: appended to the cache as it was
 * read, or, when it was not read whole or would then be more than twice
 * the size of what this build uses, the words of this build's documents
 * written anew, each source once. */
static void
tcache_save(const struct texts *t, size_t n, const struct tcache *tc,
    const char *path)
{
	struct buf out = BUF_INIT;
	struct tentry *e = xcalloc(n + 1, sizeof(*e));
	size_t i, k = 0, total = strlen(TERMS_MAGIC) + 8;
	int whole;

	for (i = 0; i < n; i++) {
		if (t->got[i] == NULL)
			continue;	/* unreadable: left out */
		e[k].hash = t->docs[i]->text_hash;
		e[k].html = t->docs[i]->is_html != 0;
		e[k].terms = t->got[i];
		e[k].len = t->len[i];
		e[k].fresh = !t->cached[i];
		k++;
	}
	xqsort(e, k, sizeof(*e), cmp_tentry);
	for (i = 0; i < k; i++)
		if (i == 0 || cmp_tentry(&e[i - 1], &e[i]) != 0)
			total += 21 + e[i].len;
	if ((whole = tc->end == 0 || tc->end != tc->maplen) == 0) {
		for (i = 0; i < k; i++)
			if (e[i].fresh &&
			    (i == 0 || cmp_tentry(&e[i - 1], &e[i]) != 0))
				tentry_put(&out, &e[i]);
		/* not to be more than twice what this build uses */
		if (tc->maplen + out.len > 2 * total ||
		    (out.len > 0 && fs_append(path, out.ptr, out.len) == -1))
			whole = 1;
	}
	if (whole)
		tcache_write(path, tc->key, e, k);
	buf_release(&out);
	free(e);
}

/* The pages, then the posts from the oldest: a document's number is its
 * place here, so that a new post, the newest, comes last, and the
 * documents before it keep their numbers (and the shards that do not
 * have its words, their bytes). */
static size_t
search_docs(const struct build *b, const struct post ***docs)
{
	size_t i, n = 0;

	*docs = xcalloc(b->ix.nposts + b->ix.npages + 1, sizeof(**docs));
	for (i = 0; i < b->ix.npages; i++)
		(*docs)[n++] = b->ix.pages[i];
	for (i = b->ix.nposts; i > 0; i--)
		(*docs)[n++] = b->ix.posts[i - 1];
	return n;
}

static void
date_of(struct buf *out, const struct post *p)
{
	if (p->kind == CONTENT_POST)
		buf_printf(out, "%04d-%02d-%02d", p->year, p->month, p->day);
}

static void
hash_text(struct hash_stream *k, const char *s)
{
	if (s == NULL)
		s = "";
	hash_stream_add(k, s, strlen(s) + 1);
}

/* A hash of all the index shows: when it is the last build's, and its
 * files are there, the index is as it was. */
static uint64_t
search_fp(const struct build *b, const struct post **docs, size_t n,
    int fold)
{
	struct hash_stream *k = hash_stream_new();
	struct buf d = BUF_INIT;
	uint64_t fp;
	size_t i, t;

	/* the form of the files, as this ssg writes them */
	buf_printf(&d, "%s %d %d", SEARCH_FORMAT, SEARCH_INDEX_VERSION,
	    SEARCH_DOCS_PER_PAGE);
	hash_text(k, d.ptr);
	hash_stream_add(k, fold ? "f" : "k", 1);
	hash_text(k, config_base_path(&b->c));
	for (i = 0; i < n; i++) {
		const struct post *p = docs[i];

		hash_text(k, p->url);
		hash_text(k, p->title);
		hash_text(k, p->excerpt);
		hash_text(k, p->description);
		buf_clear(&d);
		date_of(&d, p);
		hash_text(k, d.ptr);
		for (t = 0; t < p->ntags; t++)
			hash_text(k, p->tags[t].name);
		hash_stream_add(k, &p->text_hash, sizeof(p->text_hash));
	}
	fp = hash_stream_end(k);
	buf_release(&d);
	return fp != 0 ? fp : 1;	/* 0 marks a file copied as it is */
}

void
search_words_folded(void *doc, void *out)
{
	search_doc_terms(doc, 1, out);
}

void
search_words_kept(void *doc, void *out)
{
	search_doc_terms(doc, 0, out);
}

/* The words of the body of docs[i]: from the cache, else as the build
 * made them when it parsed the body, else read again from its source. */
static void
text_one(size_t i, void *arg)
{
	struct texts *t = arg;
	const struct post *p = t->docs[i];
	const struct tentry *e;
	struct buf src = BUF_INIT, text = BUF_INIT;
	struct frontmatter fm;
	struct diag *quiet;

	if ((e = tcache_find(t->tc, p->text_hash, p->is_html)) != NULL) {
		t->got[i] = e->terms;
		t->len[i] = e->len;
		t->cached[i] = 1;
		return;
	}
	if (t->made[i] != NULL) {
		t->got[i] = t->made[i];
		t->len[i] = t->made_len[i];
		return;
	}
	quiet = diag_new();
	memset(&fm, 0, sizeof(fm));
	/* the build has read it and said what is wrong with it */
	if (fs_read(p->src, &src) == 0 &&
	    hash64(src.ptr, src.len) == p->text_hash && (p->is_html ?
	    frontmatter_parse_html : frontmatter_parse)(&fm, src.ptr, src.len,
	    p->src, quiet) == 0) {
		if (p->is_html) {
			markdown_html_text(fm.body, fm.body_len, &text);
			search_terms(text.ptr, text.len, t->fold,
			    &t->terms[i]);
		} else
			search_markdown_terms(fm.body, fm.body_len,
			    t->b->c.smart_punctuation, t->fold, &t->terms[i]);
		t->got[i] = t->terms[i].ptr;
		t->len[i] = t->terms[i].len;
	}
	frontmatter_release(&fm);
	buf_release(&src);
	buf_release(&text);
	diag_free(quiet);
}

struct emit {
	struct build	*b;
	uint64_t	 fp;
};

/*
 * Each file of the index is listed with the fingerprint of what it is
 * made from (search_index_write_with; the manifest with the index's, for
 * carry_old): one whose fingerprint is the last build's and that is still
 * there is neither made nor written, so an edit costs the files it
 * changes.
 */
static int
known_file(const char *rel, uint64_t fp, void *arg)
{
	struct emit *e = arg;
	struct build *b = e->b;
	struct buf path = BUF_INIT;
	uint64_t ofp, obase;
	int found, known;

	buf_printf(&path, "search/%s", rel);
	known = !b->force && manifest_get(b->old, path.ptr, &ofp, &obase,
	    &found) && ofp == fp && found == MANIFEST_FOUND;
	if (known) {
		manifest_add(b->manifest, path.ptr, fp, 0);
		__atomic_add_fetch(&b->st->outputs, 1, __ATOMIC_RELAXED);
	}
	buf_release(&path);
	return known;
}

static int
emit_file(const char *rel, const char *data, size_t n, uint64_t fp,
    void *arg)
{
	struct emit *e = arg;
	struct build *b = e->b;
	struct buf path = BUF_INIT;
	uint64_t h;
	int changed = 0, rc = 0, man;

	buf_printf(&path, "search/%s", rel);
	man = strcmp(rel, "manifest.json") == 0;
	h = man ? e->fp : fp;
	if (!man && known_file(rel, h, arg))
		;	/* as it was (listed by known_file) */
	else {
		/* in a fresh folder nothing is there to compare with; the
		 * folders are made once, by the first file in each */
		rc = sink_bytes(&b->out, path.ptr, data, n, h, 0, b->fresh ?
		    SINK_CREATE | SINK_DIR_THERE : 0, &changed);
		if (rc == 0) {
			/* (the pages are rendered on other threads
			 * meanwhile) */
			__atomic_add_fetch(&b->st->outputs, 1,
			    __ATOMIC_RELAXED);
			__atomic_add_fetch(&b->st->written, changed,
			    __ATOMIC_RELAXED);
		} else
			__atomic_store_n(&b->failed, 1, __ATOMIC_RELAXED);
	}
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

/* The last build's index, carried when it is what this one would write:
 * its manifest has the fingerprint fp and all its files are there.
 * Returns 1 when it was. */
static int
carry_old(struct build *b, uint64_t fp)
{
	uint64_t ofp, obase;
	size_t i, n = manifest_count(b->old);
	int found;

	if (!manifest_get(b->old, "search/manifest.json", &ofp, &obase,
	    &found) || ofp != fp)
		return 0;
	for (i = 0; i < n; i++) {
		const char *rel = manifest_path_at(b->old, i);

		if (index_file(rel) &&
		    (!manifest_get(b->old, rel, &ofp, &obase, &found) ||
		    found != MANIFEST_FOUND))
			return 0;
	}
	for (i = 0; i < n; i++) {
		const char *rel = manifest_path_at(b->old, i);

		if (index_file(rel) &&
		    manifest_get(b->old, rel, &ofp, &obase, &found) &&
		    ofp != 0) {
			manifest_add(b->manifest, rel, ofp, 0);
			__atomic_add_fetch(&b->st->outputs, 1,
			    __ATOMIC_RELAXED);
		}
	}
	return 1;
}

/* What the cached words depend on besides the source's bytes. */
static uint64_t
terms_key(const struct build *b, int fold)
{
	struct buf k = BUF_INIT;
	uint64_t h, parse = build_parse_hash(b);

	buf_adds(&k, SEARCH_FORMAT " " SSG_VERSION);
	buf_addc(&k, fold ? 'f' : 'k');
	buf_add(&k, &parse, sizeof(parse));
	h = hash64(k.ptr, k.len);
	buf_release(&k);
	return h;
}

/* The index, made on a thread of its own while the pages are rendered:
 * what it reads of the posts is not changed by rendering them, but for
 * the words a post's HTML made late brings, which it takes as they were
 * before (a copy). */
struct search_job {
	struct build		*b;
	size_t			 threads;
	const struct post	**docs;
	size_t			 n;
	const char		**made;
	size_t			*made_len;
	pthread_t		 tid;
	int			 started;
};

static void
search_run(struct search_job *j)
{
	struct build *b = j->b;
	struct search_index *ix;
	struct tcache tc;
	struct texts t;
	struct emit e;
	struct buf date = BUF_INIT, url = BUF_INIT;
	const char **tags = NULL;
	char *tpath;
	size_t n = j->n, i, k, ntags = 0, threads = j->threads;
	int fold, missed = 0;

	fold = search_lang_folds(b->c.site_lang);
	t.docs = j->docs;
	t.made = j->made;
	t.made_len = j->made_len;
	e.b = b;
	e.fp = search_fp(b, t.docs, n, fold);
	if (!b->force && carry_old(b, e.fp))
		return;
	/* the words of unchanged sources from the cache, even with --force:
	 * they are a function of the source's bytes, as an image's copies */
	memset(&tc, 0, sizeof(tc));
	tc.key = terms_key(b, fold);
	tpath = build_path(b, ".ssg-cache/search.bin");
	tcache_load(&tc, tpath);
	t.b = b;
	t.tc = &tc;
	t.fold = fold;
	t.terms = xcalloc(n + 1, sizeof(*t.terms));
	t.got = xcalloc(n + 1, sizeof(*t.got));
	t.len = xcalloc(n + 1, sizeof(*t.len));
	t.cached = xcalloc(n + 1, 1);
	for (i = 0; i < n; i++)
		buf_init(&t.terms[i]);
	pool_for(threads, n, text_one, &t);
	ix = search_index_new(fold);
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
		d.terms = t.got[i] != NULL ? t.got[i] : "";
		d.terms_len = t.len[i];
		search_index_add(ix, &d);
	}
	{
		struct search_writer w = { known_file, emit_file, &e };

		search_index_write_with(ix, &w);
	}
	search_index_free(ix);
	/* saved when words were made, or one cached is no more */
	for (i = 0; i < n && !missed; i++)
		missed = t.got[i] != NULL && !t.cached[i];
	if (missed || tc.n != n)
		tcache_save(&t, n, &tc, tpath);
	for (i = 0; i < n; i++)
		buf_release(&t.terms[i]);
	free(t.terms);
	free(t.got);
	free(t.len);
	free(t.cached);
	free(tags);
	free(tc.e);
	fs_unmap(tc.map, tc.maplen);
	free(tpath);
	buf_release(&date);
	buf_release(&url);
}

static void *
search_thread(void *arg)
{
	search_run(arg);
	return NULL;
}

void
build_search_start(struct build *b, size_t threads)
{
	struct search_job *j;
	size_t i;

	if (!b->c.search)
		return;
	j = xcalloc(1, sizeof(*j));
	j->b = b;
	j->threads = threads;
	j->n = search_docs(b, &j->docs);
	j->made = xcalloc(j->n + 1, sizeof(*j->made));
	j->made_len = xcalloc(j->n + 1, sizeof(*j->made_len));
	for (i = 0; i < j->n; i++) {
		j->made[i] = j->docs[i]->terms;
		j->made_len[i] = j->docs[i]->terms_len;
	}
	b->search = j;
	/* on one thread, or if none can be started: here and now */
	if (threads <= 1 ||
	    pthread_create(&j->tid, NULL, search_thread, j) != 0)
		search_run(j);
	else
		j->started = 1;
}

void
build_search_wait(struct build *b)
{
	struct search_job *j = b->search;

	if (j == NULL)
		return;
	if (j->started)
		pthread_join(j->tid, NULL);
	free(j->docs);
	free(j->made);
	free(j->made_len);
	free(j);
	b->search = NULL;
}

/* The script of the search page, as read with the stylesheet: written
 * on every build, the index's or not. */
void
build_search_script(struct build *b)
{
	const struct buf *js = &b->script;
	char *path;
	int changed = 0;

	if (!b->c.search)
		return;
	if (b->script_hash == 0) {
		path = path_join(b->builtin, "templates/search.js");
		diag_error(b->d, path, 0, "cannot read the search script");
		b->failed = 1;
		free(path);
	} else if (sink_bytes(&b->out, "search/search.js", js->ptr, js->len, 0, 0,
	    0, &changed) == 0) {
		b->st->outputs++;
		b->st->written += changed;
	} else
		b->failed = 1;
}
