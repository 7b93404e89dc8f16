#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "mem.h"
#include "search_index.h"
#include "search_query.h"
#include "searchword.h"
#include "tap.h"

static int words_hashed_wrong;

static void
join_word(const char *w, size_t len, uint64_t h, void *arg)
{
	struct buf *b = arg;

	words_hashed_wrong += h != search_word_hash(w, len);

	if (b->len > 0)
		buf_addc(b, ' ');
	buf_add(b, w, len);
}

static void
is_words_as(int fold, const char *in, const char *want)
{
	struct buf b = BUF_INIT;

	words_hashed_wrong = 0;
	search_words(in, strlen(in), fold, join_word, &b);
	IS_STR(b.ptr, want, in);
	IS_INT(words_hashed_wrong, 0, "each word comes with its hash");
	buf_release(&b);
}

static void
is_words(const char *in, const char *want)
{
	is_words_as(1, in, want);
}

static void
is_shard(const char *w, const char *want)
{
	struct buf b = BUF_INIT;

	search_shard_name(&b, w);
	IS_STR(b.ptr, want, w);
	buf_release(&b);
}

/* A word of SEARCH_WORD_MAX bytes, as folded, is kept; one byte more
 * and it is none, ASCII or not, and the next word is whole. */
static void
test_long_words(void)
{
	char in[256], want[256];
	int k;

	memset(in, 'a', SEARCH_WORD_MAX);
	strcpy(in + SEARCH_WORD_MAX, " ok");
	memset(want, 'a', SEARCH_WORD_MAX);
	strcpy(want + SEARCH_WORD_MAX, " ok");
	is_words(in, want);
	/* 63 letters and an é folded to e: 64 bytes */
	memset(in, 'b', SEARCH_WORD_MAX - 1);
	strcpy(in + SEARCH_WORD_MAX - 1, "\xc3\xa9 ok");
	memset(want, 'b', SEARCH_WORD_MAX - 1);
	strcpy(want + SEARCH_WORD_MAX - 1, "e ok");
	is_words(in, want);
	/* kept as é, two bytes: 65 */
	is_words_as(0, in, "ok");
	/* the letters past the bound are not the start of another word */
	for (k = 0; k < 100; k++)
		in[k] = (char)('a' + k % 26);
	strcpy(in + 100, "-Z");
	is_words(in, "z");
}

/* The words search.js folds the same way (tests/e2e/search.sh holds
 * the script to these through ssg search -w). */
static void
test_words(void)
{
	is_words("Hello, World!", "hello world");
	is_words("Crème brûlée", "creme brulee");
	is_words("ÜBER naïve résumé", "uber naive resume");
	is_words("Straße", "strasse");
	is_words("Łódź Ærø œuvre", "lodz aero oeuvre");
	is_words("ȘTIINȚĂ", "stiinta");
	is_words("İstanbul", "istanbul");
	is_words("Ελληνικά ΣΟΦΟΣ σοφός", "ελληνικα σοφοσ σοφοσ");
	is_words("Ёлка Привет ЙОД", "елка привет иод");
	/* an accent written apart joins its word */
	is_words("e\xcc\x81te\xcc\x81", "ete");
	/* digits are words; anything outside the alphabet parts them */
	is_words("x2 3.14 a_b c-d 日本 e—f", "x2 3 14 a b c d e f");
	is_words("", "");
	is_words("?! ...", "");
	/* bad UTF-8 parts words and is never a word */
	is_words("ab\xff" "cd", "ab cd");
	/* past SEARCH_WORD_MAX bytes: no word */
	is_words("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa ok",
	    "ok");
	test_long_words();
}

/* Where the language keeps accented letters apart: lower case only. */
static void
test_kept(void)
{
	OK(search_lang_folds("en") && search_lang_folds("fr-CA") &&
	    search_lang_folds("de") && search_lang_folds(NULL) &&
	    search_lang_folds(""), "en, fr, de fold");
	OK(!search_lang_folds("sv") && !search_lang_folds("sv-SE") &&
	    !search_lang_folds("FI") && !search_lang_folds("nb_NO") &&
	    !search_lang_folds("tr"), "sv, fi, nb, tr keep");
	OK(search_lang_folds("svx") && search_lang_folds("s"),
	    "a language is its whole first part");
	is_words_as(0, "Får FAR Sää ÅÄÖ Ærø", "får far sää åäö ærø");
	is_words_as(0, "İstanbul ISTANBUL ılık", "istanbul istanbul ılık");
	is_words_as(0, "ŁÓDŹ Ŋ ŸES Ǉ", "łódź ŋ ÿes");
	is_words_as(0, "ΆΈΉΊΌΎΏ ΣΟΦΌΣ Ϊ", "άέήίόύώ σοφόσ ϊ");
	is_words_as(0, "ЁЛКА Ђ Ґ", "ёлка ђ ґ");
	is_words_as(0, "Straße", "straße");
	/* an accent written apart is dropped in both modes */
	is_words_as(0, "e\xcc\x81t\xc3\xa9", "eté");
}

/* More distinct words than a first table holds, each as many times as
 * its number says (1 to 5), in a scrambled order: the lines are those
 * of a plain count, in the order the words first come. */
static void
test_many_terms(void)
{
	struct buf text = BUF_INIT, got = BUF_INIT, want = BUF_INIT;
	char *names[1000], w[32], **all;
	size_t i, j, k, m = 0, n = 1000, *count;

	for (i = 0; i < n; i++) {
		snprintf(w, sizeof(w), "w%zux", (i * 7919) % n);
		names[i] = xstrdup(w);
	}
	all = xcalloc(5 * n, sizeof(*all));
	for (k = 0; k < 5; k++)
		for (i = 0; i < n; i++)
			if (i % 5 >= k) {
				all[m] = names[(i * 31 + k) % n];
				buf_printf(&text, "%s ", all[m++]);
			}
	search_terms(text.ptr, text.len, 1, &got);
	/* counted the plain way: each word against all before it */
	count = xcalloc(m, sizeof(*count));
	for (i = 0; i < m; i++) {
		for (j = 0; j < i && strcmp(all[j], all[i]) != 0; j++)
			;
		count[j]++;
	}
	for (i = 0; i < m; i++)
		if (count[i] > 0)
			buf_printf(&want, "%s\t%zu\n", all[i], count[i]);
	OK(want.len > 5000, "many terms: a large sample");
	IS_STR(got.ptr, want.ptr, "many terms: as counted, in first-come order");
	free(count);
	free(all);
	for (i = 0; i < n; i++)
		free(names[i]);
	buf_release(&text);
	buf_release(&got);
	buf_release(&want);
}

/* The body's words, counted, in the order they first come. */
static void
test_terms(void)
{
	struct buf b = BUF_INIT;

	search_terms("the Moon, the sea and the moon", 30, 1, &b);
	IS_STR(b.ptr, "the\t3\nmoon\t2\nsea\t1\nand\t1\n", "counted");
	buf_clear(&b);
	search_terms("", 0, 1, &b);
	IS_STR(b.ptr, "", "no words");
	buf_release(&b);
	test_many_terms();
}

static void
test_shards(void)
{
	is_shard("about", "ab");
	is_shard("a", "a");
	is_shard("42nd", "42");
	is_shard("ελληνικα", "_03b5_03bb");
	is_shard("eλ", "e_03bb");
	is_shard("привет", "_043f_0440");
}

/* ---- ranking on a tiny corpus, the files kept in memory ---- */

struct files {
	char	*rel[256];
	struct buf data[256];
	size_t	 n;
	size_t	 pages;		/* d/ files read */
};

static int
put(const char *rel, const char *data, size_t n, void *arg)
{
	struct files *f = arg;

	if (f->n == 256)
		return -1;
	f->rel[f->n] = xstrdup(rel);
	buf_init(&f->data[f->n]);
	buf_add(&f->data[f->n], data, n);
	f->n++;
	return 0;
}

static int
get(const char *rel, struct buf *out, void *arg)
{
	struct files *f = arg;
	size_t i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->rel[i], rel) == 0) {
			f->pages += strncmp(rel, "d/", 2) == 0;
			buf_add(out, f->data[i].ptr, f->data[i].len);
			return 0;
		}
	return -1;
}

static void
files_release(struct files *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->rel[i]);
		buf_release(&f->data[i]);
	}
	f->n = 0;
}

static void
add(struct search_index *ix, const char *title, const char *url,
    const char *tag, const char *text)
{
	struct search_doc d;
	const char *tags[1] = { tag };

	memset(&d, 0, sizeof(d));
	d.title = title;
	d.url = url;
	d.date = "2024-01-01";
	d.excerpt = text;
	d.tags = tags;
	d.ntags = tag != NULL;
	d.text = text;
	d.text_len = strlen(text);
	search_index_add(ix, &d);
}

static enum search_status
search_query_all(const char *q, search_load_fn load, void *arg,
    struct search_result *r, struct buf *err)
{
	return search_query(q, 0, load, arg, r, err);
}

/* The URLs the query finds, best first, space-separated. */
static void
is_found(struct files *f, const char *q, const char *want)
{
	struct search_result r;
	struct buf b = BUF_INIT, err = BUF_INIT;
	size_t i;

	search_query(q, 0, get, f, &r, &err);
	OK(r.status == SEARCH_OK, "%s: status %d (%s)", q, r.status, err.ptr);
	for (i = 0; i < r.nhits; i++)
		buf_printf(&b, "%s%s", i ? " " : "", r.hits[i].url);
	IS_STR(b.ptr, want, q);
	search_result_release(&r);
	buf_release(&b);
	buf_release(&err);
}

static void
test_ranking(void)
{
	struct search_index *ix = search_index_new(1);
	struct files f = { 0 };
	struct search_result r;
	struct buf err = BUF_INIT, q = BUF_INIT;
	size_t i;

	add(ix, "Tide tables", "/tide/", "sea",
	    "The moon pulls the sea. Keepers read tables of the tide.");
	add(ix, "Moon watching", "/moon/", "sky",
	    "The moon rises over the sea, and the moon sets.");
	add(ix, "Bread", "/bread/", "baking",
	    "Flour, water and a starter. Crème fraîche on the side.");
	add(ix, "Long read", "/long/", NULL,
	    "moon and many other words to make this document a long one "
	    "where the word is a small part of all it says, padding padding "
	    "padding padding padding padding padding padding padding");
	OK(search_index_write(ix, put, &f) == 0, "the index is written");
	search_index_free(ix);

	/* the title weighs: the Moon post first though Tide says moon too */
	is_found(&f, "moon", "/moon/ /tide/ /long/");
	/* with no title word, the short text with more of it first */
	is_found(&f, "sea", "/tide/ /moon/");
	/* AND */
	is_found(&f, "moon keepers", "/tide/");
	is_found(&f, "moon bread", "");
	/* the last word is a prefix; others are whole words */
	is_found(&f, "tab", "/tide/");
	is_found(&f, "ta moon", "");
	/* a one-letter prefix spans its shards */
	is_found(&f, "bread s", "/bread/");
	/* a tag */
	is_found(&f, "baking", "/bread/");
	/* folded as the index */
	is_found(&f, "CREME Fraiche", "/bread/");
	is_found(&f, "unknownword", "");

	search_query_all("", get, &f, &r, &err);
	IS_INT(r.status, SEARCH_NO_WORDS, "an empty query");
	search_result_release(&r);
	search_query_all("?!", get, &f, &r, &err);
	IS_INT(r.status, SEARCH_NO_WORDS, "no words");
	search_result_release(&r);
	for (i = 0; i < 2000; i++)
		buf_addc(&q, 'x');
	search_query_all(q.ptr, get, &f, &r, &err);
	IS_INT(r.status, SEARCH_TOO_LONG, "a long query");
	search_result_release(&r);
	buf_clear(&q);
	for (i = 0; i < 20; i++)
		buf_adds(&q, "moon ");
	search_query_all(q.ptr, get, &f, &r, &err);
	IS_INT(r.status, SEARCH_TOO_LONG, "too many words");
	search_result_release(&r);
	files_release(&f);

	search_query_all("moon", get, &f, &r, &err);
	IS_INT(r.status, SEARCH_NO_INDEX, "no index");
	search_result_release(&r);
	put("manifest.json", "{\"version\":2}", 13, &f);
	search_query_all("moon", get, &f, &r, &err);
	IS_INT(r.status, SEARCH_DAMAGED, "a damaged manifest");
	OK(strstr(err.ptr, "manifest.json") != NULL, "named: %s", err.ptr);
	search_result_release(&r);
	files_release(&f);
	buf_release(&err);
	buf_release(&q);
}

/* A word once in the title outranks it twice in the text of a document
 * as long: without the title's weight it would not. */
static void
test_title_weight(void)
{
	struct search_index *ix = search_index_new(1);
	struct files f = { 0 };

	add(ix, "Quay", "/quay/", NULL, "harbour harbour boats rest");
	add(ix, "Harbour", "/harbour/", NULL, "boats rest here today");
	add(ix, "Fields", "/fields/", NULL, "sheep rest here today");
	search_index_write(ix, put, &f);
	search_index_free(ix);
	is_found(&f, "harbour", "/harbour/ /quay/");
	/* equal scores: the later document (the newer post) first */
	is_found(&f, "rest", "/fields/ /harbour/ /quay/");
	files_release(&f);
}

/* The same documents give the same bytes. */
static void
test_stable(void)
{
	struct files a = { 0 }, b = { 0 };
	struct buf got = BUF_INIT;
	struct search_index *ix;
	size_t i;
	int k;

	for (k = 0; k < 2; k++) {
		ix = search_index_new(1);
		add(ix, "Zeta", "/z/", "t", "b a c a");
		add(ix, "Alpha a", "/a/", NULL, "c b");
		search_index_write(ix, put, k == 0 ? &a : &b);
		search_index_free(ix);
	}
	IS_INT(a.n, b.n, "as many files");
	for (i = 0; i < a.n && i < b.n; i++)
		OK(strcmp(a.rel[i], b.rel[i]) == 0 &&
		    strcmp(a.data[i].ptr, b.data[i].ptr) == 0, "%s the same",
		    a.rel[i]);
	/* doc less the last, 2 tf + title */
	OK(get("s/a.json", &got, &a) == 0 &&
	    strcmp(got.ptr, "{\"a\":[0,4,1,3]}\n") == 0,
	    "postings: %s", got.ptr);
	buf_clear(&got);
	OK(get("len.json", &got, &a) == 0 && strcmp(got.ptr, "[6,4]\n") == 0,
	    "lengths: %s", got.ptr);
	buf_clear(&got);
	OK(get("d/0.json", &got, &a) == 0 && strcmp(got.ptr,
	    "[\n[\"Zeta\",\"/z/\",\"2024-01-01\",\"b a c a\"],\n"
	    "[\"Alpha a\",\"/a/\",\"2024-01-01\",\"c b\"]\n]\n") == 0,
	    "the page: %s", got.ptr);
	buf_clear(&got);
	OK(get("manifest.json", &got, &a) == 0 && strcmp(got.ptr,
	    "{\"version\":2,\"fold\":1,\"docs\":2,\"words\":10,\"page\":8,"
	    "\"shards\":[\"a\",\"al\",\"b\",\"c\",\"t\",\"ze\"]}\n") == 0,
	    "the manifest: %s", got.ptr);
	buf_release(&got);
	files_release(&a);
	files_release(&b);
}

/* Many documents: pages of the table, and only those of the hits shown
 * read; a missing page or a damaged length is said. */
static void
test_pages(void)
{
	struct search_index *ix = search_index_new(1);
	struct files f = { 0 };
	struct search_result r;
	struct buf err = BUF_INIT, url = BUF_INIT, text = BUF_INIT;
	size_t i, k;

	for (i = 0; i < 100; i++) {
		buf_clear(&url);
		buf_printf(&url, "/p%zu/", i);
		buf_clear(&text);
		/* the word "common" in every one, more often in later ones */
		for (k = 0; k <= i / 10; k++)
			buf_adds(&text, "common ");
		buf_adds(&text, i % 2 ? "odd" : "even");
		add(ix, "Post", url.ptr, NULL, text.ptr);
	}
	search_index_write(ix, put, &f);
	search_index_free(ix);
	OK(get("d/12.json", &text, &f) == 0 && get("d/13.json", &text, &f) ==
	    -1, "100 documents in 13 pages");
	f.pages = 0;
	search_query("common", 3, get, &f, &r, &err);
	OK(r.status == SEARCH_OK && r.total == 100 && r.nhits == 3,
	    "100 found, 3 shown (%zu, %zu)", r.total, r.nhits);
	/* p90 to p99 score the same: the latest first */
	IS_STR(r.nhits == 3 ? r.hits[0].url : "", "/p99/", "the best first");
	IS_INT(f.pages, 1, "only the page of the hits shown is read");
	search_result_release(&r);
	f.pages = 0;
	search_query("odd", 0, get, &f, &r, &err);
	OK(r.status == SEARCH_OK && r.total == 50 && r.nhits == 50,
	    "odd: 50 (%zu)", r.nhits);
	IS_INT(f.pages, 13, "all shown: every page, each once");
	search_result_release(&r);

	for (i = 0; i < f.n; i++)
		if (strcmp(f.rel[i], "d/0.json") == 0)
			buf_clear(&f.data[i]), buf_adds(&f.data[i], "[[1]]");
	search_query("common", 0, get, &f, &r, &err);
	IS_INT(r.status, SEARCH_DAMAGED, "a damaged page");
	OK(strstr(err.ptr, "d/0.json") != NULL, "named: %s", err.ptr);
	search_result_release(&r);
	buf_clear(&err);
	for (i = 0; i < f.n; i++)
		if (strcmp(f.rel[i], "len.json") == 0)
			buf_clear(&f.data[i]), buf_adds(&f.data[i], "[1,2]");
	search_query("common", 0, get, &f, &r, &err);
	IS_INT(r.status, SEARCH_DAMAGED, "lengths not one a document");
	OK(strstr(err.ptr, "len.json") != NULL, "named: %s", err.ptr);
	search_result_release(&r);
	files_release(&f);
	buf_release(&err);
	buf_release(&url);
	buf_release(&text);
}

/* An index that keeps accents: the query is read its way. */
/* A word of a tag and of other documents' bodies is one word of the
 * index, with all its documents, also once the index holds more words
 * than its first table (its words hashed again into a larger one); in
 * a document that has it in both, it is counted twice, posted once. */
static void
test_many_words(void)
{
	struct search_index *ix = search_index_new(1);
	struct files f;
	char text[64], url[32];
	const char *data = NULL, *p;
	size_t i, n = 1500, k, pairs = 0;

	memset(&f, 0, sizeof(f));
	for (i = 0; i < n; i++) {
		snprintf(text, sizeof(text), "zq%04zu%s", i,
		    i % 2 == 0 ? " web" : "");
		snprintf(url, sizeof(url), "/p/%zu/", i);
		add(ix, "t", url, i % 2 || i % 3 == 0 ? "web" : NULL, text);
	}
	OK(search_index_write(ix, put, &f) == 0, "many words: written");
	for (k = 0; k < f.n; k++)
		if (strcmp(f.rel[k], "s/we.json") == 0)
			data = f.data[k].ptr;
	OK(data != NULL, "many words: the shard of web");
	if (data != NULL) {
		p = strstr(data, "\"web\":[");
		OK(p != NULL && strstr(p + 1, "\"web\":") == NULL,
		    "many words: web is one word of its shard");
		OK(p != NULL && strncmp(p, "\"web\":[0,4,", 11) == 0,
		    "many words: in body and tag, counted twice (tf 2: x 4)");
		for (p = p ? p + 7 : ""; *p && *p != ']'; p++)
			pairs += *p == ',';
		IS_INT((pairs + 1) / 2, n, "many words: web in every document");
	}
	files_release(&f);
	search_index_free(ix);
}

static void
test_kept_index(void)
{
	struct search_index *ix = search_index_new(0);
	struct files f = { 0 };

	add(ix, "Får", "/sheep/", NULL, "ull och får");
	add(ix, "Far", "/father/", NULL, "far och son");
	search_index_write(ix, put, &f);
	search_index_free(ix);
	is_found(&f, "får", "/sheep/");
	is_found(&f, "FAR", "/father/");
	is_found(&f, "och", "/father/ /sheep/");
	files_release(&f);
}

int
main(void)
{
	test_words();
	test_kept();
	test_terms();
	test_shards();
	test_ranking();
	test_title_weight();
	test_stable();
	test_pages();
	test_kept_index();
	test_many_words();
	return tap_done();
}
