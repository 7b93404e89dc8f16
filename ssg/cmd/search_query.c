#include "search_query.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "mem.h"
#include "search_index.h"
#include "searchword.h"

/* ---- a small JSON reader, for the index's own files ---- */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	enum jtype	 t;
	double		 num;
	char		*str;		/* J_STR */
	struct jv	*kid;		/* J_ARR, J_OBJ */
	char		**key;		/* J_OBJ */
	size_t		 n, cap;
};

/* Deeper than the index ever nests: a bound on the recursion. */
#define JSON_DEPTH	8

struct jparse {
	const char	*p, *end;
};

static void
jv_release(struct jv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		jv_release(&v->kid[i]);
		if (v->key != NULL)
			free(v->key[i]);
	}
	free(v->kid);
	free(v->key);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

static void
skip_ws(struct jparse *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' ||
	    *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

static int
hex4(const char *p, const char *end, unsigned *u)
{
	int i;

	*u = 0;
	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++, p++) {
		*u <<= 4;
		if (*p >= '0' && *p <= '9')
			*u |= (unsigned)(*p - '0');
		else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
			*u |= (unsigned)((*p | 0x20) - 'a' + 10);
		else
			return -1;
	}
	return 0;
}

static void
put_utf8(struct buf *b, unsigned long cp)
{
	if (cp < 0x80)
		buf_addc(b, (int)cp);
	else if (cp < 0x800) {
		buf_addc(b, (int)(0xc0 | (cp >> 6)));
		buf_addc(b, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		buf_addc(b, (int)(0xe0 | (cp >> 12)));
		buf_addc(b, (int)(0x80 | ((cp >> 6) & 0x3f)));
		buf_addc(b, (int)(0x80 | (cp & 0x3f)));
	} else {
		buf_addc(b, (int)(0xf0 | (cp >> 18)));
		buf_addc(b, (int)(0x80 | ((cp >> 12) & 0x3f)));
		buf_addc(b, (int)(0x80 | ((cp >> 6) & 0x3f)));
		buf_addc(b, (int)(0x80 | (cp & 0x3f)));
	}
}

/* A string at j->p (its opening quote), into a malloc'd text. */
static char *
parse_str(struct jparse *j)
{
	struct buf b = BUF_INIT;
	unsigned u, lo;
	char c;

	j->p++;
	while (j->p < j->end && *j->p != '"') {
		c = *j->p++;
		if ((unsigned char)c < 0x20)
			goto bad;
		if (c != '\\') {
			buf_addc(&b, c);
			continue;
		}
		if (j->p >= j->end)
			goto bad;
		switch ((c = *j->p++)) {
		case '"': case '\\': case '/': buf_addc(&b, c); break;
		case 'b': buf_addc(&b, '\b'); break;
		case 'f': buf_addc(&b, '\f'); break;
		case 'n': buf_addc(&b, '\n'); break;
		case 'r': buf_addc(&b, '\r'); break;
		case 't': buf_addc(&b, '\t'); break;
		case 'u':
			if (hex4(j->p, j->end, &u) == -1)
				goto bad;
			j->p += 4;
			if (u >= 0xd800 && u < 0xdc00 && j->end - j->p >= 6 &&
			    j->p[0] == '\\' && j->p[1] == 'u' &&
			    hex4(j->p + 2, j->end, &lo) == 0 &&
			    lo >= 0xdc00 && lo < 0xe000) {
				j->p += 6;
				u = 0x10000 + ((u - 0xd800) << 10) +
				    (lo - 0xdc00);
			} else if (u >= 0xd800 && u < 0xe000)
				u = 0xfffd;	/* a lone half of a pair */
			if (u == 0)
				goto bad;	/* kept out of C strings */
			put_utf8(&b, u);
			break;
		default:
			goto bad;
		}
	}
	if (j->p >= j->end)
		goto bad;
	j->p++;
	return buf_detach(&b, NULL);
bad:
	buf_release(&b);
	return NULL;
}

static int parse_value(struct jparse *j, struct jv *v, int depth);

static struct jv *
add_kid(struct jv *v)
{
	struct jv *k;

	xgrow((void **)&v->kid, &v->cap, v->n + 1, sizeof(*v->kid));
	if (v->t == J_OBJ)
		v->key = xrealloc(v->key, v->cap * sizeof(*v->key));
	k = &v->kid[v->n];
	memset(k, 0, sizeof(*k));
	return k;
}

/* An array or object at j->p; its members are v's. */
static int
parse_list(struct jparse *j, struct jv *v, int depth)
{
	char close = v->t == J_ARR ? ']' : '}';
	char *key = NULL;

	j->p++;
	skip_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return 0;
	}
	for (;;) {
		skip_ws(j);
		if (v->t == J_OBJ) {
			if (j->p >= j->end || *j->p != '"' ||
			    (key = parse_str(j)) == NULL)
				return -1;
			skip_ws(j);
			if (j->p >= j->end || *j->p++ != ':') {
				free(key);
				return -1;
			}
		}
		if (parse_value(j, add_kid(v), depth + 1) == -1) {
			jv_release(&v->kid[v->n]);
			free(key);
			return -1;
		}
		if (v->t == J_OBJ)
			v->key[v->n] = key;
		v->n++;
		skip_ws(j);
		if (j->p >= j->end)
			return -1;
		if (*j->p == close) {
			j->p++;
			return 0;
		}
		if (*j->p++ != ',')
			return -1;
	}
}

static int
parse_value(struct jparse *j, struct jv *v, int depth)
{
	char *e;

	skip_ws(j);
	if (j->p >= j->end || depth > JSON_DEPTH)
		return -1;
	switch (*j->p) {
	case '"':
		v->t = J_STR;
		return (v->str = parse_str(j)) == NULL ? -1 : 0;
	case '[':
		v->t = J_ARR;
		return parse_list(j, v, depth);
	case '{':
		v->t = J_OBJ;
		return parse_list(j, v, depth);
	case 't':
	case 'f':
	case 'n': {
		static const char *const w[] = { "true", "false", "null" };
		size_t i, l;

		for (i = 0; i < 3; i++) {
			l = strlen(w[i]);
			if ((size_t)(j->end - j->p) >= l &&
			    memcmp(j->p, w[i], l) == 0) {
				v->t = i < 2 ? J_BOOL : J_NULL;
				v->num = i == 0;
				j->p += l;
				return 0;
			}
		}
		return -1;
	}
	default: {
		/* strtod needs a NUL: a number is short */
		char tmp[64];
		size_t n = 0;

		while (j->p + n < j->end && n < sizeof(tmp) - 1 &&
		    strchr("+-.0123456789eE", j->p[n]) != NULL && j->p[n])
			n++;
		if (n == 0)
			return -1;
		memcpy(tmp, j->p, n);
		tmp[n] = '\0';
		v->t = J_NUM;
		v->num = strtod(tmp, &e);
		if (e != tmp + n || !isfinite(v->num))
			return -1;
		j->p += n;
		return 0;
	}
	}
}

/* Parses the whole of s[0..n) into v. Returns 0 or -1. */
static int
json_parse(const char *s, size_t n, struct jv *v)
{
	struct jparse j = { s, s + n };

	memset(v, 0, sizeof(*v));
	if (parse_value(&j, v, 0) == -1) {
		jv_release(v);
		return -1;
	}
	skip_ws(&j);
	if (j.p != j.end) {
		jv_release(v);
		return -1;
	}
	return 0;
}

static const struct jv *
jget(const struct jv *o, const char *key)
{
	size_t i;

	if (o->t != J_OBJ)
		return NULL;
	for (i = 0; i < o->n; i++)
		if (strcmp(o->key[i], key) == 0)
			return &o->kid[i];
	return NULL;
}

/* A whole number in [0, max], or -1. */
static double
jcount(const struct jv *v, double max)
{
	if (v == NULL || v->t != J_NUM || v->num < 0 || v->num > max ||
	    v->num != floor(v->num))
		return -1;
	return v->num;
}

/* ---- the query ---- */

struct qwords {
	char		**v;
	size_t		 n, cap;
};

static void
qword(const char *w, size_t len, uint64_t h, void *arg)
{
	struct qwords *q = arg;

	(void)h;
	if (q->n >= SEARCH_WORDS_MAX + 1)
		return;		/* too many already: said so */
	xgrow((void **)&q->v, &q->cap, q->n + 1, sizeof(*q->v));
	q->v[q->n++] = xstrndup(w, len);
}

static void
qwords_release(struct qwords *q)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		free(q->v[i]);
	free(q->v);
	memset(q, 0, sizeof(*q));
}

/* A page of the document table, as loaded. */
struct page {
	size_t		 k;
	struct jv	 v;
};

/* What a result holds: the pages its hits point into. */
struct held {
	struct page	*pages;
	size_t		 npages, cap;
	double		*score;
	double		*cur;
	double		*len;
	int		*hits;
};

/* The shards the index has, from manifest.json. */
struct shardset {
	const struct jv	*names;		/* a J_ARR of J_STR */
	struct jv	*loaded;	/* parallel: J_NULL until loaded */
};

/* What scoring needs of the index. */
struct corpus {
	size_t		 ndocs;
	const double	*len;		/* per document */
	double		 avg;
};

static int
load_json(search_load_fn load, void *arg, const char *rel, struct jv *v,
    struct buf *err, int *missing)
{
	struct buf b = BUF_INIT;
	int rc = 0;

	*missing = 0;
	if (load(rel, &b, arg) == -1) {
		*missing = 1;
		rc = -1;
	} else if (json_parse(b.ptr, b.len, v) == -1) {
		buf_printf(err, "search/%s: not the JSON of an index", rel);
		rc = -1;
	}
	buf_release(&b);
	return rc;
}

/* Shard i of the set, loaded on first use; NULL when damaged or gone. */
static const struct jv *
shard_at(struct shardset *ss, size_t i, search_load_fn load, void *arg,
    struct buf *err)
{
	struct buf rel = BUF_INIT;
	int missing;

	if (ss->loaded[i].t == J_OBJ)
		return &ss->loaded[i];
	buf_printf(&rel, "s/%s.json", ss->names->kid[i].str);
	if (load_json(load, arg, rel.ptr, &ss->loaded[i], err, &missing) == -1
	    || ss->loaded[i].t != J_OBJ) {
		if (err->len == 0)
			buf_printf(err, "search/%s: %s", rel.ptr, missing ?
			    "listed in manifest.json but missing" :
			    "not an object of words");
		jv_release(&ss->loaded[i]);
		buf_release(&rel);
		return NULL;
	}
	buf_release(&rel);
	return &ss->loaded[i];
}

/* Adds to cur each document's score for the word with postings p (a
 * J_ARR of pairs: the document's number less the last one's, 2 tf +
 * title); the best of several words is kept. Returns 0, or -1 when a
 * posting is damaged. */
static int
score_term(const struct jv *p, const struct corpus *c, double *cur)
{
	double n = (double)c->ndocs, df, idf, tf, dl, s, x, d;
	size_t i, doc = 0;

	if (p->t != J_ARR || p->n == 0 || p->n % 2 != 0)
		return -1;
	df = (double)(p->n / 2);
	idf = log(1.0 + (n - df + 0.5) / (df + 0.5));
	for (i = 0; i < p->n; i += 2) {
		d = jcount(&p->kid[i], n - 1);
		x = jcount(&p->kid[i + 1], 4e9);
		if (d < (i > 0) || x < 2 || (double)doc + d > n - 1)
			return -1;
		doc += (size_t)d;
		tf = floor(x / 2);
		dl = c->len[doc];
		s = idf * tf * (SEARCH_K1 + 1) / (tf + SEARCH_K1 *
		    (1 - SEARCH_B + SEARCH_B * dl / c->avg));
		if (fmod(x, 2) == 1)
			s *= SEARCH_TITLE_WEIGHT;
		if (s > cur[doc])
			cur[doc] = s;
	}
	return 0;
}

/* Scores one word of the query into cur (-1: not in the document);
 * prefix: every word of the index that starts with it counts. */
static int
score_word(const char *w, int prefix, struct shardset *ss,
    const struct corpus *c, double *cur, search_load_fn load, void *arg,
    struct buf *err)
{
	struct buf name = BUF_INIT;
	size_t i, k, wl = strlen(w);
	int rc = 0;

	search_shard_name(&name, w);
	for (i = 0; i < ss->names->n && rc == 0; i++) {
		const char *sn = ss->names->kid[i].str;
		const struct jv *sh;

		/* a one-letter prefix spans the shards it begins */
		if (prefix ? strncmp(sn, name.ptr, name.len) != 0 :
		    strcmp(sn, name.ptr) != 0)
			continue;
		if ((sh = shard_at(ss, i, load, arg, err)) == NULL) {
			rc = -1;
			break;
		}
		for (k = 0; k < sh->n; k++) {
			const char *t = sh->key[k];

			if (prefix ? strncmp(t, w, wl) != 0 : strcmp(t, w) != 0)
				continue;
			if (score_term(&sh->kid[k], c, cur) == -1) {
				buf_printf(err, "search/s/%s.json: the "
				    "postings of '%s' are damaged", sn, t);
				rc = -1;
				break;
			}
		}
	}
	buf_release(&name);
	return rc;
}

static int
cmp_hit(const void *a, const void *b)
{
	const struct search_hit *x = a, *y = b;

	/* equal scores: the later document first (the newer post) */
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->doc > y->doc ? -1 : x->doc < y->doc;
}

/* The lengths of len.json into h->len: one per document. */
static int
read_lengths(search_load_fn load, void *arg, struct held *h, size_t ndocs,
    struct buf *err)
{
	struct jv v;
	size_t i;
	int missing, rc = -1;

	memset(&v, 0, sizeof(v));
	if (load_json(load, arg, "len.json", &v, err, &missing) == -1) {
		if (err->len == 0)
			buf_adds(err, "search/len.json: missing");
		goto out;
	}
	if (v.t != J_ARR || v.n != ndocs)
		goto bad;
	h->len = xcalloc(ndocs + 1, sizeof(*h->len));
	for (i = 0; i < ndocs; i++)
		if ((h->len[i] = jcount(&v.kid[i], 1e12)) < 0)
			goto bad;
	rc = 0;
	goto out;
bad:
	buf_adds(err, "search/len.json: not a length for each document "
	    "manifest.json counts");
out:
	jv_release(&v);
	return rc;
}

/* The entry of document doc in its page of the table (loaded once), or
 * NULL when the page is missing or damaged. */
static const struct jv *
doc_entry(search_load_fn load, void *arg, struct held *h, size_t doc,
    size_t per, struct buf *err)
{
	struct buf rel = BUF_INIT;
	const struct jv *e;
	struct page *pg = NULL;
	size_t i, k = doc / per;
	int missing;

	for (i = 0; i < h->npages && pg == NULL; i++)
		if (h->pages[i].k == k)
			pg = &h->pages[i];
	buf_printf(&rel, "d/%zu.json", k);
	if (pg == NULL) {
		xgrow((void **)&h->pages, &h->cap, h->npages + 1,
		    sizeof(*h->pages));
		pg = &h->pages[h->npages++];
		pg->k = k;
		memset(&pg->v, 0, sizeof(pg->v));
		if (load_json(load, arg, rel.ptr, &pg->v, err, &missing) ==
		    -1) {
			if (err->len == 0)
				buf_printf(err, "search/%s: missing", rel.ptr);
			buf_release(&rel);
			return NULL;
		}
	}
	e = pg->v.t == J_ARR && doc % per < pg->v.n ? &pg->v.kid[doc % per] :
	    NULL;
	if (e != NULL && (e->t != J_ARR || e->n != 4))
		e = NULL;
	for (i = 0; e != NULL && i < 4; i++)
		if (e->kid[i].t != J_STR)
			e = NULL;
	if (e == NULL)
		buf_printf(err, "search/%s: no entry for document %zu",
		    rel.ptr, doc);
	buf_release(&rel);
	return e;
}

/* Checks manifest.json; the counts it gives into ndocs, words, per and
 * fold. Returns 0 or -1 (err says why). */
static int
check_manifest(const struct jv *man, struct shardset *ss, size_t *ndocs,
    double *words, size_t *per, int *fold, struct buf *err)
{
	double d, p, f;
	size_t i;

	if (jcount(jget(man, "version"), 1e9) != SEARCH_INDEX_VERSION) {
		buf_printf(err, "search/manifest.json: not version %d of the "
		    "index", SEARCH_INDEX_VERSION);
		return -1;
	}
	ss->names = jget(man, "shards");
	*words = jcount(jget(man, "words"), 1e15);
	d = jcount(jget(man, "docs"), 1e9);
	p = jcount(jget(man, "page"), 1e6);
	f = jcount(jget(man, "fold"), 1);
	if (ss->names == NULL || ss->names->t != J_ARR || *words < 0 ||
	    d < 0 || p < 1 || f < 0) {
		buf_adds(err, "search/manifest.json: no docs, words, page, "
		    "fold or shards");
		return -1;
	}
	for (i = 0; i < ss->names->n; i++)
		if (ss->names->kid[i].t != J_STR ||
		    strpbrk(ss->names->kid[i].str, "/.\\") != NULL ||
		    ss->names->kid[i].str[0] == '\0') {
			buf_adds(err, "search/manifest.json: a shard name is "
			    "not a name");
			return -1;
		}
	*ndocs = (size_t)d;
	*per = (size_t)p;
	*fold = f == 1;
	return 0;
}

enum search_status
search_query(const char *q, size_t limit, search_load_fn load, void *arg,
    struct search_result *r, struct buf *err)
{
	struct qwords qw = { 0 };
	struct jv man;
	struct shardset ss = { 0 };
	struct corpus c;
	struct held *h = xcalloc(1, sizeof(*h));
	const struct jv *e;
	double words;
	size_t i, d, ndocs = 0, per;
	int missing, fold;

	memset(r, 0, sizeof(*r));
	memset(&man, 0, sizeof(man));
	r->priv = h;
	if (strlen(q) > SEARCH_QUERY_MAX) {
		r->status = SEARCH_TOO_LONG;
		goto out;
	}
	/* words part the same way folded or not: counted before the index
	 * says which */
	search_words(q, strlen(q), 1, qword, &qw);
	if (qw.n == 0) {
		r->status = SEARCH_NO_WORDS;
		goto out;
	}
	if (qw.n > SEARCH_WORDS_MAX) {
		r->status = SEARCH_TOO_LONG;
		goto out;
	}
	if (load_json(load, arg, "manifest.json", &man, err, &missing) == -1) {
		r->status = missing ? SEARCH_NO_INDEX : SEARCH_DAMAGED;
		goto out;
	}
	r->status = SEARCH_DAMAGED;
	if (check_manifest(&man, &ss, &ndocs, &words, &per, &fold, err) == -1)
		goto out;
	qwords_release(&qw);
	search_words(q, strlen(q), fold, qword, &qw);
	if (qw.n == 0) {
		r->status = SEARCH_NO_WORDS;
		goto out;
	}
	if (read_lengths(load, arg, h, ndocs, err) == -1)
		goto out;
	c.ndocs = ndocs;
	c.len = h->len;
	c.avg = ndocs > 0 && words > 0 ? words / (double)ndocs : 1;
	ss.loaded = xcalloc(ss.names->n + 1, sizeof(*ss.loaded));
	h->score = xcalloc(ndocs + 1, sizeof(*h->score));
	h->cur = xcalloc(ndocs + 1, sizeof(*h->cur));
	h->hits = xcalloc(ndocs + 1, sizeof(*h->hits));
	for (i = 0; i < qw.n; i++) {
		for (d = 0; d < ndocs; d++)
			h->cur[d] = -1;
		if (score_word(qw.v[i], i + 1 == qw.n, &ss, &c, h->cur, load,
		    arg, err) == -1)
			goto out;
		/* AND: a document missing one word is out */
		for (d = 0; d < ndocs; d++)
			if (h->cur[d] >= 0 && h->hits[d] == (int)i) {
				h->score[d] += h->cur[d];
				h->hits[d]++;
			}
	}
	r->hits = xcalloc(ndocs + 1, sizeof(*r->hits));
	for (d = 0; d < ndocs; d++) {
		if (h->hits[d] != (int)qw.n)
			continue;
		r->hits[r->total].doc = d;
		r->hits[r->total].score = h->score[d];
		r->total++;
	}
	xqsort(r->hits, r->total, sizeof(*r->hits), cmp_hit);
	/* only the pages of the hits shown are read */
	r->nhits = limit == 0 || limit > r->total ? r->total : limit;
	for (i = 0; i < r->nhits; i++) {
		struct search_hit *hit = &r->hits[i];

		if ((e = doc_entry(load, arg, h, hit->doc, per, err)) == NULL)
			goto out;
		hit->title = e->kid[0].str;
		hit->url = e->kid[1].str;
		hit->date = e->kid[2].str;
		hit->excerpt = e->kid[3].str;
	}
	r->status = SEARCH_OK;
out:
	if (r->status != SEARCH_OK) {
		free(r->hits);
		r->hits = NULL;
		r->nhits = 0;
		r->total = 0;
	}
	if (ss.loaded != NULL)
		for (i = 0; i < ss.names->n; i++)
			jv_release(&ss.loaded[i]);
	free(ss.loaded);
	jv_release(&man);
	qwords_release(&qw);
	return r->status;
}

void
search_result_release(struct search_result *r)
{
	struct held *h = r->priv;
	size_t i;

	if (h != NULL) {
		for (i = 0; i < h->npages; i++)
			jv_release(&h->pages[i].v);
		free(h->pages);
		free(h->score);
		free(h->cur);
		free(h->len);
		free(h->hits);
		free(h);
	}
	free(r->hits);
	memset(r, 0, sizeof(*r));
}
