#include "search_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>

#include "buf.h"
#include "escape.h"
#include "markdown.h"
#include "mem.h"
#include "searchword.h"

/* One word of one document. */
struct entry {
	char		*word;
	uint32_t	 doc, tf;
	int		 title;
};

struct sdoc {
	char		*title, *url, *date, *excerpt;
	size_t		 len;		/* its words */
};

struct search_index {
	struct sdoc	*docs;
	size_t		 ndocs, capdocs;
	struct entry	*e;
	size_t		 ne, cape;
	uint64_t	 words;
};

/* The words of a document as they come. */
struct words {
	char		**v;
	size_t		 n, cap;
};

struct search_index *
search_index_new(void)
{
	return xcalloc(1, sizeof(struct search_index));
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
	for (i = 0; i < ix->ne; i++)
		free(ix->e[i].word);
	free(ix->docs);
	free(ix->e);
	free(ix);
}

static void
add_word(const char *w, size_t len, void *arg)
{
	struct words *ws = arg;

	xgrow((void **)&ws->v, &ws->cap, ws->n + 1, sizeof(*ws->v));
	ws->v[ws->n++] = xstrndup(w, len);
}

static void
add_text(struct words *ws, const char *s, size_t n)
{
	if (s != NULL)
		search_words(s, n, add_word, ws);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
words_free(struct words *ws)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		free(ws->v[i]);
	free(ws->v);
}

void
search_index_add(struct search_index *ix, const struct search_doc *d)
{
	struct words all = { 0 }, title = { 0 };
	struct sdoc *sd;
	size_t i, j;

	add_text(&title, d->title, d->title ? strlen(d->title) : 0);
	add_text(&all, d->title, d->title ? strlen(d->title) : 0);
	for (i = 0; i < d->ntags; i++)
		add_text(&all, d->tags[i], strlen(d->tags[i]));
	add_text(&all, d->description,
	    d->description ? strlen(d->description) : 0);
	add_text(&all, d->text, d->text_len);
	if (all.n > 0)
		qsort(all.v, all.n, sizeof(*all.v), cmp_str);
	if (title.n > 0)
		qsort(title.v, title.n, sizeof(*title.v), cmp_str);

	xgrow((void **)&ix->docs, &ix->capdocs, ix->ndocs + 1,
	    sizeof(*ix->docs));
	sd = &ix->docs[ix->ndocs];
	sd->title = xstrdup(d->title ? d->title : "");
	sd->url = xstrdup(d->url ? d->url : "");
	sd->date = xstrdup(d->date ? d->date : "");
	sd->excerpt = xstrdup(d->excerpt ? d->excerpt : "");
	sd->len = all.n;
	ix->words += all.n;
	/* one entry per distinct word, with its count */
	for (i = 0; i < all.n; i = j) {
		struct entry *e;

		for (j = i + 1; j < all.n && strcmp(all.v[i], all.v[j]) == 0;
		    j++)
			;
		xgrow((void **)&ix->e, &ix->cape, ix->ne + 1, sizeof(*ix->e));
		e = &ix->e[ix->ne++];
		e->word = xstrdup(all.v[i]);
		e->doc = (uint32_t)ix->ndocs;
		e->tf = (uint32_t)(j - i);
		e->title = title.n > 0 && bsearch(&all.v[i], title.v, title.n,
		    sizeof(*title.v), cmp_str) != NULL;
	}
	ix->ndocs++;
	words_free(&all);
	words_free(&title);
}

static int
cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->word, y->word);

	if (c != 0)
		return c;
	return x->doc < y->doc ? -1 : x->doc > y->doc;
}

static void
json_str(struct buf *b, const char *s)
{
	buf_addc(b, '"');
	esc_json(b, s, strlen(s));
	buf_addc(b, '"');
}

/* The shards, from the entries sorted by word: a shard's words are next
 * to each other, as its name is their first two characters. */
static int
write_shards(struct search_index *ix, struct buf *names,
    int (*emit)(const char *, const char *, size_t, void *), void *arg)
{
	struct buf shard = BUF_INIT, name = BUF_INIT, rel = BUF_INIT;
	size_t i = 0, j, nshards = 0;
	int rc = 0;

	while (i < ix->ne && rc == 0) {
		buf_clear(&name);
		search_shard_name(&name, ix->e[i].word);
		buf_clear(&shard);
		buf_addc(&shard, '{');
		for (j = i; j < ix->ne; ) {
			const char *w = ix->e[j].word;
			size_t k;

			if (j > i) {
				/* a new shard? (names differ only then) */
				if (strcmp(ix->e[j - 1].word, w) != 0) {
					struct buf n2 = BUF_INIT;
					int same;

					search_shard_name(&n2, w);
					same = strcmp(n2.ptr, name.ptr) == 0;
					buf_release(&n2);
					if (!same)
						break;
				}
				buf_addc(&shard, ',');
			}
			json_str(&shard, w);
			buf_adds(&shard, ":[");
			for (k = j; k < ix->ne && strcmp(ix->e[k].word, w) == 0;
			    k++)
				buf_printf(&shard, "%s[%u,%u,%d]", k > j ? "," : "",
				    ix->e[k].doc, ix->e[k].tf, ix->e[k].title);
			buf_addc(&shard, ']');
			j = k;
		}
		buf_adds(&shard, "}\n");
		buf_clear(&rel);
		buf_printf(&rel, "s/%s.json", name.ptr);
		rc = emit(rel.ptr, shard.ptr, shard.len, arg);
		buf_printf(names, "%s", nshards++ ? "," : "");
		json_str(names, name.ptr);
		i = j;
	}
	buf_release(&shard);
	buf_release(&name);
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

	if (ix->ne > 0)
		qsort(ix->e, ix->ne, sizeof(*ix->e), cmp_entry);
	if ((rc = write_shards(ix, &names, emit, arg)) == -1)
		goto out;
	buf_addc(&b, '[');
	for (i = 0; i < ix->ndocs; i++) {
		const struct sdoc *d = &ix->docs[i];

		buf_adds(&b, i ? ",\n{\"title\":" : "\n{\"title\":");
		json_str(&b, d->title);
		buf_adds(&b, ",\"url\":");
		json_str(&b, d->url);
		buf_adds(&b, ",\"date\":");
		json_str(&b, d->date);
		buf_adds(&b, ",\"excerpt\":");
		json_str(&b, d->excerpt);
		buf_printf(&b, ",\"len\":%zu}", d->len);
	}
	buf_adds(&b, "\n]\n");
	if ((rc = emit("docs.json", b.ptr, b.len, arg)) == -1)
		goto out;
	buf_clear(&b);
	buf_printf(&b, "{\"version\":1,\"docs\":%zu,\"words\":%llu,"
	    "\"avglen\":%.4f,\"shards\":[%s]}\n", ix->ndocs,
	    (unsigned long long)ix->words, ix->ndocs ?
	    (double)ix->words / (double)ix->ndocs : 0.0, names.ptr);
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
