#include "search_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>

#include "buf.h"
#include "escape.h"
#include "hash.h"
#include "markdown.h"
#include "mem.h"
#include "searchword.h"

/*
 * A word of the index and the documents that hold it, by number: each a
 * pair of LEB128 numbers, the document's number less the one before and
 * 2 tf + (in the title), as the shard writes them. Mostly a byte each: a
 * quarter of the memory of two 32-bit numbers. They are kept in chunks
 * from the index's arena, each twice the one before, so that none is
 * copied as it grows; memory, not arithmetic, is what an index of 1.5
 * million postings costs most.
 */
struct pchunk {
	struct pchunk	*next;
	uint32_t	 len, cap;
	unsigned char	 b[];
};

struct term {
	char		*word;		/* in the arena */
	uint64_t	 h;		/* search_word_hash of the word */
	size_t		 wlen;
	struct pchunk	*head, *tail;
	uint32_t	 last;		/* the last document's number */
};

struct sdoc {
	char		*title, *url, *date, *excerpt;
	size_t		 len;		/* its words */
};

struct search_index {
	struct sdoc	*docs;
	size_t		 ndocs, capdocs;
	struct term	*terms;
	size_t		 nterms, capterms;
	uint64_t	*slot;		/* open addressing: term + 1, the high
					 * half of its hash above; 0 free */
	size_t		 nslots;
	uint64_t	 words;
	int		 fold;
	struct arena	*a;		/* the words and their postings */
};

struct search_index *
search_index_new(int fold)
{
	struct search_index *ix = xcalloc(1, sizeof(*ix));

	ix->fold = fold != 0;
	ix->a = arena_new();
	return ix;
}

void
search_index_free(struct search_index *ix)
{
	size_t i;

	if (ix == NULL)
		return;
	for (i = 0; i < ix->ndocs; i++) {
		free(ix->docs[i].title);
		free(ix->docs[i].url);
		free(ix->docs[i].date);
		free(ix->docs[i].excerpt);
	}
	free(ix->docs);
	free(ix->terms);
	free(ix->slot);
	arena_free(ix->a);
	free(ix);
}

/* A text's distinct words and how often each comes, counted in a hash
 * table as they come, in the order they first come. */
struct wcount {
	uint64_t	 h;
	uint32_t	 off, n;	/* in text; how often */
	unsigned char	 len;		/* at most SEARCH_WORD_MAX */
	unsigned char	 title;		/* one of them in a title */
	unsigned char	 used;		/* (search_index_add) */
};

struct counter {
	struct buf	 text;		/* the distinct words, each followed by
					 * zeros to a multiple of 8 bytes, as
					 * search_words gives them */
	struct wcount	*c;
	size_t		 n, cap;
	uint32_t	*slot;		/* c's index + 1; 0 free */
	size_t		 nslots;
	int		 in_title;	/* the words now added are a title's */
};

static void
count_init(struct counter *k)
{
	memset(k, 0, sizeof(*k));
	buf_init(&k->text);
}

/* Room for about a body's words (a post has some hundreds), so that
 * most are counted without the table growing. */
static void
count_init_body(struct counter *k)
{
	count_init(k);
	k->nslots = 1024;
	k->slot = xcalloc(k->nslots, sizeof(*k->slot));
	k->cap = 256;
	k->c = xcalloc(k->cap, sizeof(*k->c));
	buf_grow(&k->text, 4096);
}

static void
count_release(struct counter *k)
{
	buf_release(&k->text);
	free(k->c);
	free(k->slot);
}

static void
count_rehash(struct counter *k)
{
	size_t ns = k->nslots ? k->nslots * 2 : 64, i, j;

	free(k->slot);
	k->slot = xcalloc(ns, sizeof(*k->slot));
	k->nslots = ns;
	for (j = 0; j < k->n; j++) {
		for (i = (size_t)k->c[j].h & (ns - 1); k->slot[i] != 0;
		    i = (i + 1) & (ns - 1))
			;
		k->slot[i] = (uint32_t)j + 1;
	}
}

/* 1 if the words a and b, len bytes and zeros to a multiple of 8, are
 * the same: compared 8 bytes at a time. */
static int
same_padded(const char *a, const char *b, size_t len)
{
	uint64_t x, y;
	size_t i;

	for (i = 0; i < len; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return 0;
	}
	return 1;
}

/* w's entry, or NULL with *at its free slot; h is search_word_hash. w
 * is padded as search_words gives it, or not. */
static struct wcount *
count_find(const struct counter *k, const char *w, size_t len, uint64_t h,
    int padded, size_t *at)
{
	size_t i;
	uint32_t t;

	if (k->nslots == 0)
		return NULL;
	for (i = (size_t)h & (k->nslots - 1); (t = k->slot[i]) != 0;
	    i = (i + 1) & (k->nslots - 1)) {
		struct wcount *c = &k->c[t - 1];

		if (c->h == h && c->len == len && (padded ?
		    same_padded(k->text.ptr + c->off, w, len) :
		    memcmp(k->text.ptr + c->off, w, len) == 0))
			return c;
	}
	*at = i;
	return NULL;
}

static void
count_add(const char *w, size_t len, uint64_t h, void *arg)
{
	struct counter *k = arg;
	struct wcount *c;
	size_t i = 0;

	if (2 * (k->n + 1) > k->nslots)
		count_rehash(k);
	if ((c = count_find(k, w, len, h, 1, &i)) == NULL) {
		xgrow((void **)&k->c, &k->cap, k->n + 1, sizeof(*k->c));
		c = &k->c[k->n];
		memset(c, 0, sizeof(*c));
		c->off = (uint32_t)k->text.len;
		c->len = (unsigned char)len;
		c->h = h;
		k->slot[i] = (uint32_t)++k->n;
		/* the word, its NUL and the zeros to 8 bytes after it */
		buf_add(&k->text, w, (len / 8 + 1) * 8);
	}
	c->n++;
	c->title |= k->in_title != 0;
}

/* Appends k's words as search_terms gives them. */
static void
count_out(const struct counter *k, struct buf *out)
{
	size_t i;
	char *q, d[10], *e;
	uint32_t v;

	/* each word, a tab, at most 10 digits and a newline */
	buf_grow(out, k->text.len + 11 * k->n);
	q = out->ptr + out->len;
	for (i = 0; i < k->n; i++) {
		memcpy(q, k->text.ptr + k->c[i].off, k->c[i].len);
		q += k->c[i].len;
		*q++ = '\t';
		e = d + sizeof(d);
		v = k->c[i].n;
		do
			*--e = (char)('0' + v % 10);
		while ((v /= 10) != 0);
		memcpy(q, e, (size_t)(d + sizeof(d) - e));
		q += d + sizeof(d) - e;
		*q++ = '\n';
	}
	*q = '\0';
	out->len = (size_t)(q - out->ptr);
}

void
search_terms(const char *s, size_t n, int fold, struct buf *out)
{
	struct counter k;

	count_init_body(&k);
	search_words(s, n, fold, count_add, &k);
	count_out(&k, out);
	count_release(&k);
}

/* The term for word w (made when new). */
static struct term *
intern(struct search_index *ix, const char *w, size_t len, uint64_t h)
{
	size_t i, k;
	uint64_t v, hi = h >> 32 << 32;
	uint32_t t;

	if (2 * (ix->nterms + 1) > ix->nslots) {
		size_t ns = ix->nslots ? ix->nslots * 2 : 1024;
		uint64_t *slot = xcalloc(ns, sizeof(*slot));

		for (k = 0; k < ix->nslots; k++) {
			uint64_t th;

			if ((v = ix->slot[k]) == 0)
				continue;
			th = ix->terms[(uint32_t)v - 1].h;
			for (i = (size_t)th & (ns - 1); slot[i] != 0;
			    i = (i + 1) & (ns - 1))
				;
			slot[i] = v;
		}
		free(ix->slot);
		ix->slot = slot;
		ix->nslots = ns;
	}
	/* the term's word is read only when the hashes' halves agree */
	for (i = (size_t)h & (ix->nslots - 1); (v = ix->slot[i]) != 0;
	    i = (i + 1) & (ix->nslots - 1)) {
		if (v >> 32 << 32 != hi)
			continue;
		t = (uint32_t)v;
		if (ix->terms[t - 1].wlen == len &&
		    memcmp(ix->terms[t - 1].word, w, len) == 0)
			return &ix->terms[t - 1];
	}
	xgrow((void **)&ix->terms, &ix->capterms, ix->nterms + 1,
	    sizeof(*ix->terms));
	memset(&ix->terms[ix->nterms], 0, sizeof(*ix->terms));
	ix->terms[ix->nterms].word = arena_strndup(ix->a, w, len);
	ix->terms[ix->nterms].wlen = len;
	ix->terms[ix->nterms].h = h;
	ix->slot[i] = hi | (uint32_t)++ix->nterms;
	return &ix->terms[ix->nterms - 1];
}

static unsigned char *
leb128_put(unsigned char *q, uint64_t v)
{
	while (v >= 0x80) {
		*q++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*q++ = (unsigned char)v;
	return q;
}

static const unsigned char *
leb128_get(const unsigned char *q, uint64_t *v)
{
	uint64_t x = 0;
	int shift = 0;

	do
		x |= (uint64_t)(*q & 0x7f) << shift, shift += 7;
	while (*q++ & 0x80);
	*v = x;
	return q;
}

static void
post(struct search_index *ix, const char *w, size_t len, uint64_t h,
    size_t tf, int title)
{
	struct term *t = intern(ix, w, len, h);
	struct pchunk *c = t->tail;
	unsigned char *q;

	/* two numbers of at most 10 bytes each */
	if (c == NULL || c->cap - c->len < 20) {
		uint32_t cap = c == NULL ? 32 : c->cap < 32768 ? c->cap * 2 :
		    c->cap;
		struct pchunk *n = arena_alloc_raw(ix->a, sizeof(*n) + cap);

		n->next = NULL;
		n->len = 0;
		n->cap = cap;
		if (c == NULL)
			t->head = n;
		else
			c->next = n;
		t->tail = c = n;
	}
	q = leb128_put(c->b + c->len, (uint32_t)ix->ndocs - t->last);
	q = leb128_put(q, (uint64_t)tf * 2 + (title != 0));
	c->len = (uint32_t)(q - c->b);
	t->last = (uint32_t)ix->ndocs;
	ix->docs[ix->ndocs].len += tf;
	ix->words += tf;
}

/* The next line "word\tcount\n" of terms at *p, or 0 at the end. */
static int
next_term(const char **p, const char *end, const char **w, size_t *len,
    size_t *tf)
{
	const char *tab, *q;
	size_t n = 0;

	if (*p >= end || (tab = memchr(*p, '\t', (size_t)(end - *p))) ==
	    NULL)
		return 0;
	for (q = tab + 1; q < end && *q >= '0' && *q <= '9'; q++)
		n = n * 10 + (size_t)(*q - '0');
	if (q == end || *q != '\n')
		return 0;
	*w = *p;
	*len = (size_t)(tab - *p);
	*tf = n;
	*p = q + 1;
	return 1;
}

void
search_index_add(struct search_index *ix, const struct search_doc *d)
{
	struct counter meta;
	struct buf own = BUF_INIT;
	const char *terms = d->terms, *tp, *tend, *w;
	size_t i, tlen = d->terms_len, len, tf, at;
	uint64_t seen = 0;	/* a bit for each of the meta words' hashes */
	struct sdoc *sd;

	/* the title's, tags' and description's words */
	count_init(&meta);
	meta.in_title = 1;
	if (d->title != NULL)
		search_words(d->title, strlen(d->title), ix->fold, count_add,
		    &meta);
	meta.in_title = 0;
	for (i = 0; i < d->ntags; i++)
		search_words(d->tags[i], strlen(d->tags[i]), ix->fold,
		    count_add, &meta);
	if (d->description != NULL)
		search_words(d->description, strlen(d->description), ix->fold,
		    count_add, &meta);
	if (terms == NULL) {
		if (d->text != NULL)
			search_terms(d->text, d->text_len, ix->fold, &own);
		terms = own.ptr;
		tlen = own.len;
	}

	xgrow((void **)&ix->docs, &ix->capdocs, ix->ndocs + 1,
	    sizeof(*ix->docs));
	sd = &ix->docs[ix->ndocs];
	sd->title = xstrdup(d->title ? d->title : "");
	sd->url = xstrdup(d->url ? d->url : "");
	sd->date = xstrdup(d->date ? d->date : "");
	sd->excerpt = xstrdup(d->excerpt ? d->excerpt : "");
	sd->len = 0;

	/* one posting per distinct word: the body's, with those of the
	 * title, tags and description it shares, then theirs alone */
	tp = terms;
	tend = terms + tlen;
	for (i = 0; i < meta.n; i++)
		seen |= 1ULL << (meta.c[i].h >> 58);
	while (next_term(&tp, tend, &w, &len, &tf)) {
		uint64_t h = search_word_hash(w, len);
		struct wcount *c = NULL;
		int title = 0;

		/* most of a body's words are not its title's or tags' */
		if (seen >> (h >> 58) & 1)
			c = count_find(&meta, w, len, h, 0, &at);

		if (c != NULL) {
			tf += c->n;
			title = c->title;
			c->used = 1;
		}
		post(ix, w, len, h, tf, title);
	}
	for (i = 0; i < meta.n; i++) {
		const struct wcount *c = &meta.c[i];

		if (!c->used)
			post(ix, meta.text.ptr + c->off, c->len, c->h, c->n,
			    c->title);
	}
	ix->ndocs++;
	count_release(&meta);
	buf_release(&own);
}

static void
json_str(struct buf *b, const char *s)
{
	buf_addc(b, '"');
	esc_json(b, s, strlen(s));
	buf_addc(b, '"');
}

static const struct search_index *sort_ix;	/* for cmp_term only */

static int
cmp_term(const void *a, const void *b)
{
	return strcmp(sort_ix->terms[*(const size_t *)a].word,
	    sort_ix->terms[*(const size_t *)b].word);
}

/* A term's postings as the shard has them, numbers and commas: made
 * in place, as they are most of the index's bytes. */
static void
put_postings(struct buf *b, const struct term *t)
{
	const struct pchunk *c;
	const unsigned char *q, *end;
	char *o, d[20], *e;
	uint64_t v;

	for (c = t->head; c != NULL; c = c->next) {
		/* a number of k LEB128 bytes has at most 3 k digits */
		buf_grow(b, 4 * (size_t)c->len);
		o = b->ptr + b->len;
		for (q = c->b, end = c->b + c->len; q < end;) {
			q = leb128_get(q, &v);
			e = d + sizeof(d);
			do
				*--e = (char)('0' + v % 10);
			while ((v /= 10) != 0);
			memcpy(o, e, (size_t)(d + sizeof(d) - e));
			o += d + sizeof(d) - e;
			*o++ = ',';
		}
		*o = '\0';
		b->len = (size_t)(o - b->ptr);
	}
	if (b->len > 0 && b->ptr[b->len - 1] == ',')
		b->ptr[--b->len] = '\0';	/* the last comma */
}

/* A file's fingerprint, never 0 (which marks a file copied as it is). */
static uint64_t
fp_end(struct hash_stream *hs)
{
	uint64_t fp = hash_stream_end(hs);

	return fp != 0 ? fp : 1;
}

static struct hash_stream *
fp_start(const char *what)
{
	struct hash_stream *hs = hash_stream_new();
	int v = SEARCH_INDEX_VERSION;

	hash_stream_add(hs, what, strlen(what) + 1);
	hash_stream_add(hs, &v, sizeof(v));
	return hs;
}

/* The fingerprint of a shard, terms order[i..j): what its JSON is made
 * from, its words and postings as they are in memory, so that a shard an
 * edit leaves is known without making its JSON. */
static uint64_t
shard_fp(const struct search_index *ix, const size_t *order, size_t i,
    size_t j)
{
	struct hash_stream *hs = fp_start("shard");
	const struct pchunk *c;

	for (; i < j; i++) {
		const struct term *t = &ix->terms[order[i]];
		uint64_t n = 0;

		hash_stream_add(hs, t->word, t->wlen + 1);
		for (c = t->head; c != NULL; c = c->next) {
			hash_stream_add(hs, c->b, c->len);
			n += c->len;
		}
		hash_stream_add(hs, &n, sizeof(n));
	}
	return fp_end(hs);
}

static void
fp_str(struct hash_stream *hs, const char *s)
{
	hash_stream_add(hs, s, strlen(s) + 1);
}

/* The fingerprint of the page of the document table from document i. */
static uint64_t
page_fp(const struct search_index *ix, size_t i)
{
	struct hash_stream *hs = fp_start("page");
	size_t k;

	hash_stream_add(hs, &i, sizeof(i));
	for (k = i; k < ix->ndocs && k < i + SEARCH_DOCS_PER_PAGE; k++) {
		fp_str(hs, ix->docs[k].title);
		fp_str(hs, ix->docs[k].url);
		fp_str(hs, ix->docs[k].date);
		fp_str(hs, ix->docs[k].excerpt);
	}
	return fp_end(hs);
}

/* The end of the shard that begins with term order[i]: its words are
 * next to each other, as its name (in name) is their first two
 * characters. */
static size_t
shard_end(const struct search_index *ix, const size_t *order, size_t i,
    const struct buf *name, struct buf *next)
{
	size_t j;

	for (j = i + 1; j < ix->nterms; j++) {
		buf_clear(next);
		search_shard_name(next, ix->terms[order[j]].word);
		if (strcmp(next->ptr, name->ptr) != 0)
			break;
	}
	return j;
}

/* The shards, from the words in byte order; one that w knows is in
 * place as it was is not made again. */
static int
write_shards(struct search_index *ix, struct buf *names,
    const struct search_writer *w)
{
	struct buf shard = BUF_INIT, name = BUF_INIT, next = BUF_INIT,
	    rel = BUF_INIT;
	size_t *order = xcalloc(ix->nterms + 1, sizeof(*order));
	size_t i, j, k, nshards = 0;
	uint64_t fp;
	int rc = 0;

	for (i = 0; i < ix->nterms; i++)
		order[i] = i;
	/* the writer runs on one thread: a file-wide pointer is enough */
	sort_ix = ix;
	xqsort(order, ix->nterms, sizeof(*order), cmp_term);
	sort_ix = NULL;
	for (i = 0; i < ix->nterms && rc == 0; i = j) {
		buf_clear(&name);
		search_shard_name(&name, ix->terms[order[i]].word);
		j = shard_end(ix, order, i, &name, &next);
		buf_clear(&rel);
		buf_printf(&rel, "s/%s.json", name.ptr);
		buf_printf(names, "%s", nshards++ ? "," : "");
		json_str(names, name.ptr);
		fp = shard_fp(ix, order, i, j);
		if (w->known != NULL && w->known(rel.ptr, fp, w->arg))
			continue;
		buf_clear(&shard);
		buf_addc(&shard, '{');
		for (k = i; k < j; k++) {
			const struct term *t = &ix->terms[order[k]];

			if (k > i)
				buf_addc(&shard, ',');
			json_str(&shard, t->word);
			buf_adds(&shard, ":[");
			put_postings(&shard, t);
			buf_addc(&shard, ']');
		}
		buf_adds(&shard, "}\n");
		rc = w->emit(rel.ptr, shard.ptr, shard.len, fp, w->arg);
	}
	free(order);
	buf_release(&shard);
	buf_release(&name);
	buf_release(&next);
	buf_release(&rel);
	return rc;
}

/* The document table, SEARCH_DOCS_PER_PAGE documents a file. */
static int
write_pages(struct search_index *ix, const struct search_writer *w)
{
	struct buf b = BUF_INIT, rel = BUF_INIT;
	size_t i, k;
	uint64_t fp;
	int rc = 0;

	for (i = 0; i < ix->ndocs && rc == 0; i += SEARCH_DOCS_PER_PAGE) {
		buf_clear(&rel);
		buf_printf(&rel, "d/%zu.json", i / SEARCH_DOCS_PER_PAGE);
		fp = page_fp(ix, i);
		if (w->known != NULL && w->known(rel.ptr, fp, w->arg))
			continue;
		buf_clear(&b);
		buf_addc(&b, '[');
		for (k = i; k < ix->ndocs && k < i + SEARCH_DOCS_PER_PAGE;
		    k++) {
			const struct sdoc *d = &ix->docs[k];

			buf_adds(&b, k > i ? ",\n[" : "\n[");
			json_str(&b, d->title);
			buf_addc(&b, ',');
			json_str(&b, d->url);
			buf_addc(&b, ',');
			json_str(&b, d->date);
			buf_addc(&b, ',');
			json_str(&b, d->excerpt);
			buf_addc(&b, ']');
		}
		buf_adds(&b, "\n]\n");
		rc = w->emit(rel.ptr, b.ptr, b.len, fp, w->arg);
	}
	buf_release(&b);
	buf_release(&rel);
	return rc;
}

static uint64_t
data_fp(const char *data, size_t n)
{
	uint64_t h = hash64(data, n);

	return h != 0 ? h : 1;
}

int
search_index_write_with(struct search_index *ix,
    const struct search_writer *w)
{
	struct buf b = BUF_INIT, names = BUF_INIT;
	size_t i;
	int rc;

	if ((rc = write_shards(ix, &names, w)) == -1 ||
	    (rc = write_pages(ix, w)) == -1)
		goto out;
	buf_addc(&b, '[');
	for (i = 0; i < ix->ndocs; i++) {
		if (i > 0)
			buf_addc(&b, ',');
		buf_add_u64(&b, ix->docs[i].len);
	}
	buf_adds(&b, "]\n");
	if ((rc = w->emit("len.json", b.ptr, b.len, data_fp(b.ptr, b.len),
	    w->arg)) == -1)
		goto out;
	buf_clear(&b);
	buf_printf(&b, "{\"version\":%d,\"fold\":%d,\"docs\":%zu,"
	    "\"words\":%llu,\"page\":%d,\"shards\":[%s]}\n",
	    SEARCH_INDEX_VERSION, ix->fold, ix->ndocs,
	    (unsigned long long)ix->words, SEARCH_DOCS_PER_PAGE, names.ptr);
	rc = w->emit("manifest.json", b.ptr, b.len, data_fp(b.ptr, b.len),
	    w->arg);
out:
	buf_release(&b);
	buf_release(&names);
	return rc;
}

/* search_index_write's emit, through search_writer's. */
struct plain {
	int	(*emit)(const char *, const char *, size_t, void *);
	void	*arg;
};

static int
plain_emit(const char *rel, const char *data, size_t n, uint64_t fp,
    void *arg)
{
	struct plain *p = arg;

	(void)fp;
	return p->emit(rel, data, n, p->arg);
}

int
search_index_write(struct search_index *ix,
    int (*emit)(const char *rel, const char *data, size_t n, void *arg),
    void *arg)
{
	struct plain p = { emit, arg };
	struct search_writer w = { NULL, plain_emit, &p };

	return search_index_write_with(ix, &w);
}

/* ---- a parsed body's words ---- */

/*
 * The text of a parsed Markdown body, to the splitter piece by piece (a
 * word may go on from one piece to the next: "foo*bar*" is one), ended
 * after each block or line break and each inline element: code blocks
 * and markup are left out.
 */
static void
tree_words(void *doc, struct search_wordsplit *ws)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	cmark_node *n;
	const char *s;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		n = cmark_iter_get_node(it);
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			if ((s = cmark_node_get_literal(n)) != NULL)
				search_words_feed(ws, s, strlen(s));
			break;
		case CMARK_NODE_CODE_BLOCK:
		case CMARK_NODE_HTML_BLOCK:
		case CMARK_NODE_HTML_INLINE:
			break;	/* code and markup: not words to find */
		default:
			/* blocks and breaks part words */
			if (ev == CMARK_EVENT_EXIT || cmark_node_first_child(n)
			    == NULL)
				search_words_break(ws);
			break;
		}
	}
	cmark_iter_free(it);
}

struct md_terms {
	int		 fold;
	struct buf	*out;
};

static void
md_terms(void *doc, void *arg)
{
	struct md_terms *m = arg;

	search_doc_terms(doc, m->fold, m->out);
}

int
search_markdown_terms(const char *src, size_t n, int smart, int fold,
    struct buf *out)
{
	struct md_terms m = { fold, out };

	return markdown_with_doc(src, n, smart, md_terms, &m);
}

void
search_doc_terms(void *doc, int fold, struct buf *out)
{
	struct search_wordsplit ws;
	struct counter k;

	count_init_body(&k);
	search_words_init(&ws, fold, count_add, &k);
	tree_words(doc, &ws);
	search_words_break(&ws);
	count_out(&k, out);
	count_release(&k);
}
