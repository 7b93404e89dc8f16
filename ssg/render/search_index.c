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

/* A document in a word's postings: x is 2 tf + (in the title). */
struct posting {
	uint32_t	 doc, x;
};

/* A word of the index and the documents that hold it, by number. */
struct term {
	char		*word;
	struct posting	*p;
	size_t		 n, cap;
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
	uint32_t	*slot;		/* open addressing: term + 1, 0 free */
	size_t		 nslots;
	uint64_t	 words;
	int		 fold;
};

/* Words as they come, in one buffer: a word is an offset into it. */
struct wlist {
	struct buf	 text;		/* the words, each NUL-ended */
	size_t		*off;
	unsigned char	*title;		/* parallel: from the title */
	size_t		 n, cap;
	int		 in_title;
};

struct search_index *
search_index_new(int fold)
{
	struct search_index *ix = xcalloc(1, sizeof(*ix));

	ix->fold = fold != 0;
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
	for (i = 0; i < ix->nterms; i++) {
		free(ix->terms[i].word);
		free(ix->terms[i].p);
	}
	free(ix->docs);
	free(ix->terms);
	free(ix->slot);
	free(ix);
}

static void
wl_add(const char *w, size_t len, void *arg)
{
	struct wlist *wl = arg;
	size_t cap = wl->cap;

	xgrow((void **)&wl->off, &wl->cap, wl->n + 1, sizeof(*wl->off));
	if (wl->cap != cap)
		wl->title = xrealloc(wl->title, wl->cap);
	wl->off[wl->n] = wl->text.len;
	wl->title[wl->n] = (unsigned char)wl->in_title;
	wl->n++;
	buf_add(&wl->text, w, len);
	buf_addc(&wl->text, '\0');
}

static void
wl_release(struct wlist *wl)
{
	buf_release(&wl->text);
	free(wl->off);
	free(wl->title);
}

static int
cmp_wp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Pointers to wl's words, in byte order (the caller's to free). */
static const char **
wl_sorted(const struct wlist *wl)
{
	const char **v = xcalloc(wl->n + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < wl->n; i++)
		v[i] = wl->text.ptr + wl->off[i];
	xqsort(v, wl->n, sizeof(*v), cmp_wp);
	return v;
}

/* 1 if w is one of wl's words from the title (a title has few). */
static int
in_title(const struct wlist *wl, const char *w)
{
	size_t i;

	for (i = 0; i < wl->n; i++)
		if (wl->title[i] && strcmp(wl->text.ptr + wl->off[i], w) == 0)
			return 1;
	return 0;
}

void
search_terms(const char *s, size_t n, int fold, struct buf *out)
{
	struct wlist wl;
	const char **v;
	size_t i, j;

	memset(&wl, 0, sizeof(wl));
	buf_init(&wl.text);
	search_words(s, n, fold, wl_add, &wl);
	v = wl_sorted(&wl);
	for (i = 0; i < wl.n; i = j) {
		for (j = i + 1; j < wl.n && strcmp(v[i], v[j]) == 0; j++)
			;
		buf_printf(out, "%s\t%zu\n", v[i], j - i);
	}
	free(v);
	wl_release(&wl);
}

/* The term for word w (made when new). */
static struct term *
intern(struct search_index *ix, const char *w, size_t len)
{
	uint64_t h;
	size_t i, k;
	uint32_t t;

	if (2 * (ix->nterms + 1) > ix->nslots) {
		size_t ns = ix->nslots ? ix->nslots * 2 : 1024;
		uint32_t *slot = xcalloc(ns, sizeof(*slot));

		for (k = 0; k < ix->nslots; k++) {
			if ((t = ix->slot[k]) == 0)
				continue;
			h = hash64(ix->terms[t - 1].word,
			    strlen(ix->terms[t - 1].word));
			for (i = (size_t)h & (ns - 1); slot[i] != 0;
			    i = (i + 1) & (ns - 1))
				;
			slot[i] = t;
		}
		free(ix->slot);
		ix->slot = slot;
		ix->nslots = ns;
	}
	h = hash64(w, len);
	for (i = (size_t)h & (ix->nslots - 1); (t = ix->slot[i]) != 0;
	    i = (i + 1) & (ix->nslots - 1))
		if (strncmp(ix->terms[t - 1].word, w, len) == 0 &&
		    ix->terms[t - 1].word[len] == '\0')
			return &ix->terms[t - 1];
	xgrow((void **)&ix->terms, &ix->capterms, ix->nterms + 1,
	    sizeof(*ix->terms));
	memset(&ix->terms[ix->nterms], 0, sizeof(*ix->terms));
	ix->terms[ix->nterms].word = xstrndup(w, len);
	ix->slot[i] = (uint32_t)++ix->nterms;
	return &ix->terms[ix->nterms - 1];
}

static void
post(struct search_index *ix, const char *w, size_t len, size_t tf,
    int title)
{
	struct term *t = intern(ix, w, len);

	xgrow((void **)&t->p, &t->cap, t->n + 1, sizeof(*t->p));
	t->p[t->n].doc = (uint32_t)ix->ndocs;
	t->p[t->n].x = (uint32_t)(tf * 2 + (title != 0));
	t->n++;
	ix->docs[ix->ndocs].len += tf;
	ix->words += tf;
}

/* The next line "word\tcount\n" of terms at *p, or 0 at the end. */
static int
next_term(const char **p, const char *end, const char **w, size_t *len,
    size_t *tf)
{
	const char *tab, *nl;
	char *e;

	if (*p >= end || (tab = memchr(*p, '\t', (size_t)(end - *p))) ==
	    NULL || (nl = memchr(tab, '\n', (size_t)(end - tab))) == NULL)
		return 0;
	*w = *p;
	*len = (size_t)(tab - *p);
	*tf = (size_t)strtoul(tab + 1, &e, 10);
	*p = nl + 1;
	return 1;
}

void
search_index_add(struct search_index *ix, const struct search_doc *d)
{
	struct wlist meta;
	struct buf own = BUF_INIT;
	const char **v, *terms = d->terms, *tp, *tend, *bw = NULL;
	size_t i, j, tlen = d->terms_len, blen = 0, btf = 0, mlen;
	struct sdoc *sd;
	int more, c, title;

	memset(&meta, 0, sizeof(meta));
	buf_init(&meta.text);
	meta.in_title = 1;
	if (d->title != NULL)
		search_words(d->title, strlen(d->title), ix->fold, wl_add,
		    &meta);
	meta.in_title = 0;
	for (i = 0; i < d->ntags; i++)
		search_words(d->tags[i], strlen(d->tags[i]), ix->fold, wl_add,
		    &meta);
	if (d->description != NULL)
		search_words(d->description, strlen(d->description), ix->fold,
		    wl_add, &meta);
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

	/* the title's, tags' and description's words, sorted, merged with
	 * the body's (sorted already): one posting per distinct word */
	v = wl_sorted(&meta);
	tp = terms;
	tend = terms + tlen;
	more = next_term(&tp, tend, &bw, &blen, &btf);
	i = 0;
	while (i < meta.n || more) {
		if (i < meta.n && more) {
			mlen = strlen(v[i]);
			c = strncmp(v[i], bw, mlen < blen ? mlen : blen);
			if (c == 0)
				c = mlen < blen ? -1 : mlen > blen;
		} else
			c = i < meta.n ? -1 : 1;
		if (c > 0) {
			post(ix, bw, blen, btf, 0);
			more = next_term(&tp, tend, &bw, &blen, &btf);
			continue;
		}
		/* a word of the title, tags or description */
		for (j = i + 1; j < meta.n && strcmp(v[i], v[j]) == 0; j++)
			;
		title = in_title(&meta, v[i]);
		mlen = strlen(v[i]);
		if (c == 0) {
			post(ix, v[i], mlen, j - i + btf, title);
			more = next_term(&tp, tend, &bw, &blen, &btf);
		} else
			post(ix, v[i], mlen, j - i, title);
		i = j;
	}
	ix->ndocs++;
	free(v);
	wl_release(&meta);
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

typedef int (*emit_fn)(const char *, const char *, size_t, void *);

/* The shards, from the words in byte order: a shard's words are next to
 * each other, as its name is their first two characters. */
static int
write_shards(struct search_index *ix, struct buf *names, emit_fn emit,
    void *arg)
{
	struct buf shard = BUF_INIT, name = BUF_INIT, next = BUF_INIT,
	    rel = BUF_INIT;
	size_t *order = xcalloc(ix->nterms + 1, sizeof(*order));
	size_t i, j, k, nshards = 0;
	uint32_t last;
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
		buf_clear(&shard);
		buf_addc(&shard, '{');
		for (j = i; j < ix->nterms; j++) {
			const struct term *t = &ix->terms[order[j]];

			if (j > i) {
				buf_clear(&next);
				search_shard_name(&next, t->word);
				if (strcmp(next.ptr, name.ptr) != 0)
					break;
				buf_addc(&shard, ',');
			}
			json_str(&shard, t->word);
			buf_adds(&shard, ":[");
			for (k = 0, last = 0; k < t->n; k++) {
				buf_printf(&shard, "%s%u,%u", k ? "," : "",
				    t->p[k].doc - last, t->p[k].x);
				last = t->p[k].doc;
			}
			buf_addc(&shard, ']');
		}
		buf_adds(&shard, "}\n");
		buf_clear(&rel);
		buf_printf(&rel, "s/%s.json", name.ptr);
		rc = emit(rel.ptr, shard.ptr, shard.len, arg);
		buf_printf(names, "%s", nshards++ ? "," : "");
		json_str(names, name.ptr);
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
write_pages(struct search_index *ix, emit_fn emit, void *arg)
{
	struct buf b = BUF_INIT, rel = BUF_INIT;
	size_t i, k;
	int rc = 0;

	for (i = 0; i < ix->ndocs && rc == 0; i += SEARCH_DOCS_PER_PAGE) {
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
		buf_clear(&rel);
		buf_printf(&rel, "d/%zu.json", i / SEARCH_DOCS_PER_PAGE);
		rc = emit(rel.ptr, b.ptr, b.len, arg);
	}
	buf_release(&b);
	buf_release(&rel);
	return rc;
}

int
search_index_write(struct search_index *ix,
    int (*emit)(const char *rel, const char *data, size_t n, void *arg),
    void *arg)
{
	struct buf b = BUF_INIT, names = BUF_INIT;
	size_t i;
	int rc;

	if ((rc = write_shards(ix, &names, emit, arg)) == -1 ||
	    (rc = write_pages(ix, emit, arg)) == -1)
		goto out;
	buf_addc(&b, '[');
	for (i = 0; i < ix->ndocs; i++)
		buf_printf(&b, "%s%zu", i ? "," : "", ix->docs[i].len);
	buf_adds(&b, "]\n");
	if ((rc = emit("len.json", b.ptr, b.len, arg)) == -1)
		goto out;
	buf_clear(&b);
	buf_printf(&b, "{\"version\":%d,\"fold\":%d,\"docs\":%zu,"
	    "\"words\":%llu,\"page\":%d,\"shards\":[%s]}\n",
	    SEARCH_INDEX_VERSION, ix->fold, ix->ndocs,
	    (unsigned long long)ix->words, SEARCH_DOCS_PER_PAGE, names.ptr);
	rc = emit("manifest.json", b.ptr, b.len, arg);
out:
	buf_release(&b);
	buf_release(&names);
	return rc;
}

/* ---- plain text ---- */

static void
tree_text(void *doc, void *arg)
{
	struct buf *out = arg;
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
				buf_adds(out, s);
			break;
		case CMARK_NODE_CODE_BLOCK:
		case CMARK_NODE_HTML_BLOCK:
		case CMARK_NODE_HTML_INLINE:
			break;	/* code and markup: not words to find */
		default:
			/* blocks and breaks part words */
			if (ev == CMARK_EVENT_EXIT || cmark_node_first_child(n)
			    == NULL)
				buf_addc(out, ' ');
			break;
		}
	}
	cmark_iter_free(it);
}

int
search_text_markdown(const char *src, size_t n, struct buf *out)
{
	return markdown_with_doc(src, n, 0, tree_text, out);
}
