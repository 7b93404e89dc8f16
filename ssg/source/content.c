#include "content.h"

#include <sys/stat.h>

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "config.h"
#include "datetime.h"
#include "diag.h"
#include "excerpt.h"
#include "frontmatter.h"
#include "fsutil.h"
#include "hash.h"
#include "markdown.h"
#include "mem.h"
#include "slug.h"
#include "utf8.h"

#define EXCERPT_MAX 160	/* bytes, as BSSG's generate_excerpt */

/* What the build makes from a body's tree as it is parsed for its HTML,
 * so as not to parse it again: its gemtext and its words for search. */
struct also {
	const struct content_hooks *c;
	struct buf	 gem, words;
	int		 made;
};

static void
also_make(void *doc, void *arg)
{
	struct also *x = arg;

	if (x->c->gemtext != NULL)
		x->c->gemtext(doc, &x->gem);
	if (x->c->search_words != NULL)
		x->c->search_words(doc, &x->words);
	x->made = 1;
}

static void
also_init(struct also *x, struct md_out *md, const struct content_hooks *c)
{
	static const struct content_hooks none;

	memset(x, 0, sizeof(*x));
	x->c = c = c != NULL ? c : &none;
	buf_init(&x->gem);
	buf_init(&x->words);
	if (c->gemtext != NULL || c->search_words != NULL) {
		md->also = also_make;
		md->also_arg = x;
	}
}

/* Keeps what was made, if the body was parsed. */
static void
also_keep(struct post *p, const struct also *x, struct arena *a)
{
	if (!x->made || p->is_html)
		return;
	if (x->c->gemtext != NULL) {
		p->gem = arena_strndup(a, x->gem.ptr, x->gem.len);
		p->gem_len = x->gem.len;
	}
	if (x->c->search_words != NULL) {
		p->terms = arena_strndup(a, x->words.ptr, x->words.len);
		p->terms_len = x->words.len;
	}
}

static void
also_release(struct also *x)
{
	buf_release(&x->gem);
	buf_release(&x->words);
}

int
content_publishes_source(const struct post *p, const struct site_config *c)
{
	return c->gemini && c->gemini_markdown_link && !p->is_html &&
	    !p->draft;
}

void
content_source_path(struct buf *out, const struct post *p)
{
	size_t n = strlen(p->out_path);

	if (n > 5 && strcmp(p->out_path + n - 5, ".html") == 0)
		buf_printf(out, "%.*s.md", (int)(n - 5), p->out_path);
	else
		buf_printf(out, "%s.md", p->out_path);
}

/* The published Markdown: the title as a heading, then the body. */
static void
source_doc(struct buf *out, const char *title, const char *body, size_t n)
{
	buf_printf(out, "# %s\n\n", title);
	buf_add(out, body, n);
	if (n > 0 && body[n - 1] != '\n')
		buf_addc(out, '\n');
}

int
content_source_text(const struct post *p, struct buf *out, struct buf *err)
{
	struct buf text = BUF_INIT;
	struct frontmatter fm;
	struct diag *quiet;
	int rc = -1;

	/* as this build read it: not opened and parsed again */
	if (p->md_body != NULL) {
		source_doc(out, p->title, p->md_body, p->md_body_len);
		return 0;
	}
	quiet = diag_new();	/* the build reported them */
	if (fs_read(p->src, &text) == -1)
		buf_printf(err, "%s: cannot read it again: %s", p->src,
		    strerror(errno));
	else if (frontmatter_parse(&fm, text.ptr, text.len, p->src,
	    quiet) == -1)
		buf_printf(err, "%s: cannot read its front matter again",
		    p->src);
	else {
		source_doc(out, p->title, fm.body, fm.body_len);
		frontmatter_release(&fm);
		rc = 0;
	}
	diag_free(quiet);
	buf_release(&text);
	return rc;
}

int
content_is_source(const char *path)
{
	const char *ext = path_ext(path);

	return strcmp(ext, "md") == 0 || strcmp(ext, "markdown") == 0 ||
	    strcmp(ext, "html") == 0;
}

struct tag_acc {
	const struct site_config *c;
	struct post	*p;
	struct arena	*a;
	size_t		 cap;
};

static void
add_tag(const char *name, size_t n, void *arg)
{
	struct tag_acc *acc = arg;
	struct post *p = acc->p;
	struct buf s = BUF_INIT;
	char *nm = xstrndup(name, n);
	const char *v;
	size_t i;

	/* a URL published before, pinned in site.yaml, else from the name */
	if ((v = config_map_get(&acc->c->tag_slugs, nm)) != NULL &&
	    slug_is_safe(v))
		buf_adds(&s, v);
	else
		slug_append(&s, nm);
	free(nm);
	if (s.len == 0) {
		/* A tag in a script with no ASCII form: keep it addressable. */
		buf_adds(&s, "tag-");
		for (i = 0; i < n; i++)
			buf_printf(&s, "%02x", (unsigned char)name[i]);
	}
	for (i = 0; i < p->ntags; i++)
		if (strcmp(p->tags[i].slug, s.ptr) == 0)
			goto out;	/* same tag twice */
	if (p->ntags == acc->cap) {
		struct tag_ref *nt;

		acc->cap = acc->cap ? acc->cap * 2 : 8;
		nt = arena_alloc(acc->a, acc->cap * sizeof(*nt));
		if (p->ntags)
			memcpy(nt, p->tags, p->ntags * sizeof(*nt));
		p->tags = nt;
	}
	p->tags[p->ntags].name = arena_strndup(acc->a, name, n);
	p->tags[p->ntags].slug = arena_strdup(acc->a, s.ptr);
	p->ntags++;
out:
	buf_release(&s);
}

/* The file name without folders, extension and BSSG's date prefix. */
static void
name_slug(struct buf *out, const char *rel)
{
	const char *base = path_base(rel), *dot = strrchr(base, '.');
	char *stem = xstrndup(base, dot ? (size_t)(dot - base) : strlen(base));
	const char *s = stem;
	int y, m, d;

	if (sscanf(s, "%4d-%2d-%2d-", &y, &m, &d) == 3 && strlen(s) > 11 &&
	    s[4] == '-' && s[7] == '-' && s[10] == '-')
		s += 11;
	slug_append(out, s);
	free(stem);
}

/* The file name without folders and extension. */
static void
name_stem(struct buf *out, const char *rel)
{
	const char *base = path_base(rel), *dot = strrchr(base, '.');

	buf_add(out, base, dot ? (size_t)(dot - base) : strlen(base));
}

/* url_slug_format with Year, Month, Day and slug replaced. */
static void
post_url(struct buf *out, const char *fmt, const struct post *p,
    const char *slug)
{
	int y = p->year, m = p->month, d = p->day;

	while (*fmt) {
		if (strncmp(fmt, "Year", 4) == 0) {
			buf_printf(out, "%04d", y);
			fmt += 4;
		} else if (strncmp(fmt, "Month", 5) == 0) {
			buf_printf(out, "%02d", m);
			fmt += 5;
		} else if (strncmp(fmt, "Day", 3) == 0) {
			buf_printf(out, "%02d", d);
			fmt += 3;
		} else if (strncmp(fmt, "slug", 4) == 0) {
			buf_adds(out, slug);
			fmt += 4;
		} else
			buf_addc(out, *fmt++);
	}
}

/* 1 if every segment of the URL path is a safe slug. */
static int
url_is_safe(const char *url)
{
	char *copy = xstrdup(url), *seg, *save = NULL;
	int ok = 1;

	for (seg = strtok_r(copy, "/", &save); seg != NULL;
	    seg = strtok_r(NULL, "/", &save))
		if (!slug_is_safe(seg))
			ok = 0;
	free(copy);
	return ok;
}

static char *
opt_str(const struct frontmatter *fm, const char *key, struct arena *a)
{
	const char *s = fm_str(fm, key);

	return s && *s ? arena_strdup(a, s) : NULL;
}

int
content_load(struct post *p, enum content_kind kind, const char *path,
    const char *rel, const struct site_config *c,
    const struct content_hooks *h, struct arena *a, struct diag *d)
{
	struct buf text = BUF_INIT;
	struct stat st;
	int rc;

	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->src = arena_strdup(a, path);
	if (stat(path, &st) == 0 && content_check_bounds(path, NULL,
	    (size_t)st.st_size, d) != 0)
		return -1;
	if (stat(path, &st) == -1 || fs_read(path, &text) == -1) {
		diag_error(d, path, 0, "cannot read: %s", strerror(errno));
		buf_release(&text);
		return -1;
	}
	rc = content_parse(p, kind, path, rel, text.ptr, text.len, st.st_mtime,
	    c, h, a, d);
	buf_release(&text);
	return rc;
}

/* Why the body could not be rendered, at its line in the file. */
static void
md_error(const struct md_out *md, const struct frontmatter *fm,
    const char *path, struct diag *d)
{
	int line = fm->body_line > 0 ? fm->body_line : 1;

	if (md->error_line > 0)
		line += md->error_line - 1;
	diag_error(d, path, line, "%s", md->error ? md->error :
	    "Markdown could not be parsed");
}

int
content_check_bounds(const char *path, const char *text, size_t len,
    struct diag *d)
{
	const char *p = text, *end = text + len, *nl;
	int line = 1;

	if (len > CONTENT_MAX_BYTES) {
		diag_error(d, path, 1, "larger than %u MB (%zu bytes): left "
		    "out (split it; large files belong in static/)",
		    CONTENT_MAX_BYTES >> 20, len);
		return 1;
	}
	for (; text != NULL && p < end; p = nl + 1, line++) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if ((size_t)(nl - p) > CONTENT_MAX_LINE) {
			diag_error(d, path, line, "line longer than %u MB (%zu "
			    "bytes): left out", CONTENT_MAX_LINE >> 20,
			    (size_t)(nl - p));
			return line;
		}
	}
	return 0;
}

int
content_parse(struct post *p, enum content_kind kind, const char *path,
    const char *rel, const char *text, size_t len, time_t mtime,
    const struct site_config *c, const struct content_hooks *h,
    struct arena *a, struct diag *d)
{
	struct buf s = BUF_INIT;
	struct frontmatter fm;
	struct md_out md;
	struct also also;
	struct tag_acc acc;
	const char *v;
	int rc = -1, bad, b, errs = 0;

	memset(p, 0, sizeof(*p));
	memset(&fm, 0, sizeof(fm));
	md_out_init(&md);
	md.raw_html = (enum md_raw_html)md_raw_html_mode(c->raw_html);
	md.smart = c->smart_punctuation;
	md.hl = h != NULL ? h->hl : NULL;
	md.path = path;
	also_init(&also, &md, h);
	p->kind = kind;
	p->src = arena_strdup(a, path);
	if (content_check_bounds(path, text, len, d) != 0)
		goto out;
	if ((bad = utf8_check(text, len)) != 0) {
		diag_error(d, path, bad, "not valid UTF-8 text");
		goto out;
	}
	if (memchr(text, '\0', len) != NULL) {
		diag_error(d, path, 0, "contains NUL bytes");
		goto out;
	}
	p->is_html = strcmp(path_ext(path), "html") == 0;
	if ((p->is_html ? frontmatter_parse_html : frontmatter_parse)(&fm,
	    text, len, path, d) == -1)
		goto out;
	if ((v = fm_str(&fm, "title")) == NULL || *v == '\0') {
		/* BSSG's fallback (indexing.sh): the file name without
		 * its extension */
		const char *base = path_base(path), *dot = strrchr(base, '.');

		p->title = dot && dot != base ? arena_strndup(a, base,
		    (size_t)(dot - base)) : arena_strdup(a, base);
		diag_warn(d, path, fm.root ? 1 : 0, "no title: the file name "
		    "'%s' is used (add 'title: ...' to the front matter)",
		    p->title);
	} else
		p->title = arena_strdup(a, v);

	p->date = mtime;
	if ((v = fm_str(&fm, "date")) != NULL && dt_parse(v, &p->date) == -1) {
		diag_error(d, path, fm_line(&fm, "date"), "unknown date '%s' "
		    "(expected YYYY-MM-DD, optionally with HH:MM[:SS] and "
		    "+ZZZZ, or RFC 3339)", v);
		errs++;
	} else if (v == NULL && kind == CONTENT_POST) {
		diag_warn(d, path, 0, "no date: using the file's "
		    "modification time");
		p->date_from_mtime = 1;
	} else if (v == NULL)
		p->date_from_mtime = 1;
	/* URLs and archives use the date as written, as BSSG does, not
	 * the day it is in the site's time zone */
	if (v == NULL || sscanf(v, "%4d-%2d-%2d", &p->year, &p->month,
	    &p->day) != 3)
		dt_ymd(p->date, &p->year, &p->month, &p->day);
	p->lastmod = p->date;
	p->lastmod_given = fm_str(&fm, "lastmod") != NULL;
	if ((v = fm_str(&fm, "lastmod")) != NULL &&
	    dt_parse(v, &p->lastmod) == -1) {
		diag_error(d, path, fm_line(&fm, "lastmod"), "unknown date "
		    "'%s' in lastmod", v);
		errs++;
	}
	if ((b = fm_bool(&fm, "draft")) == -1) {
		diag_error(d, path, fm_line(&fm, "draft"), "draft: expected "
		    "true or false");
		errs++;
	}
	p->draft = b == 1;
	if ((b = fm_bool(&fm, "secondary")) == -1) {
		diag_error(d, path, fm_line(&fm, "secondary"), "secondary: "
		    "expected true or false");
		errs++;
	}
	p->secondary = b == 1;
	if (errs)
		goto out;

	p->description = opt_str(&fm, "description", a);
	p->image = opt_str(&fm, "image", a);
	p->image_caption = opt_str(&fm, "image_caption", a);
	p->author_name = opt_str(&fm, "author_name", a);
	p->author_email = opt_str(&fm, "author_email", a);
	p->fediverse_creator = opt_str(&fm, "fediverse_creator", a);
	acc.c = c;
	acc.p = p;
	acc.a = a;
	acc.cap = 0;
	fm_tags(&fm, "tags", add_tag, &acc);

	/* slug: front matter, else title, else file name */
	if ((v = fm_str(&fm, "slug")) != NULL)
		slug_append(&s, v);
	/* a URL published before, pinned in site.yaml */
	if (s.len == 0 && (v = config_map_get(&c->slugs, rel)) != NULL)
		slug_append(&s, v);
	if (s.len == 0 && kind == CONTENT_PAGE &&
	    strcmp(c->page_url_format, "filename") == 0)
		name_slug(&s, rel);
	if (s.len == 0)
		slug_append(&s, p->title);
	if (s.len == 0)
		name_slug(&s, rel);
	if (s.len == 0)
		buf_printf(&s, "post-%lld", (long long)p->date);
	p->slug = arena_strdup(a, s.ptr);

	md.line0 = fm.body_line > 0 ? fm.body_line : 1;
	if (p->is_html) {
		buf_add(&md.html, fm.body, fm.body_len);
		html_plain_text(fm.body, fm.body_len, EXCERPT_MAX, &md);
	} else if (markdown_render(fm.body, fm.body_len, EXCERPT_MAX,
	    &md) == -1) {
		md_error(&md, &fm, path, d);
		goto out;
	}
	p->html = arena_strndup(a, md.html.ptr, md.html.len);
	also_keep(p, &also, a);
	/* its published Markdown (index.md) is made from the text in hand,
	 * not read again (a draft's is kept for nothing: it has none) */
	if (c->gemini && c->gemini_markdown_link && !p->is_html) {
		p->md_body = arena_strndup(a, fm.body, fm.body_len);
		p->md_body_len = fm.body_len;
	}
	p->code_unlit = md.code_unlit;
	/* BSSG's excerpt, from the source text (HTML too), else as BSSG
	 * falls back: the file's name without its extension */
	buf_clear(&md.excerpt);
	excerpt_bssg(fm.body, fm.body_len, EXCERPT_MAX, &md.excerpt);
	if (md.excerpt.len == 0)
		name_stem(&md.excerpt, rel);
	p->excerpt = arena_strdup(a, md.excerpt.ptr);
	p->words = md.words;
	/* as BSSG's content.sh: the first words, unless turned off */
	if (p->description == NULL)
		p->description = c->generate_excerpt ? p->excerpt :
		    arena_strdup(a, "");

	buf_clear(&s);
	buf_addc(&s, '/');
	if (kind == CONTENT_POST)
		post_url(&s, c->url_slug_format, p, p->slug);
	else
		buf_adds(&s, p->slug);
	if (s.ptr[s.len - 1] != '/')
		buf_addc(&s, '/');
	if (!url_is_safe(s.ptr)) {
		diag_error(d, path, fm_line(&fm, "slug"), "URL '%s' (from "
		    "url_slug_format '%s') is not a safe path", s.ptr,
		    c->url_slug_format);
		goto out;
	}
	p->url = arena_strdup(a, s.ptr);
	buf_adds(&s, "index.html");
	p->out_path = arena_strdup(a, s.ptr + 1);
	rc = 0;
out:
	frontmatter_release(&fm);
	md_out_release(&md);
	buf_release(&s);
	also_release(&also);
	return rc;
}

static void
hash_str(struct buf *b, const char *s)
{
	/* length-prefixed, so ("ab","c") and ("a","bc") differ */
	size_t n = s ? strlen(s) : (size_t)-1;

	buf_add(b, &n, sizeof(n));
	if (s)
		buf_add(b, s, n);
}

void
content_hashes(struct post *p)
{
	struct buf b = BUF_INIT;
	long long t[2] = { (long long)p->date, (long long)p->lastmod };
	uint64_t pair[2];
	size_t i;

	hash_str(&b, p->title);
	hash_str(&b, p->url);
	buf_add(&b, t, sizeof(t));
	hash_str(&b, p->author_name);
	hash_str(&b, p->author_email);
	hash_str(&b, p->fediverse_creator);
	hash_str(&b, p->description);
	hash_str(&b, p->excerpt);
	hash_str(&b, p->image);
	hash_str(&b, p->image_caption);
	{
		int minutes = reading_minutes(p->words);

		buf_add(&b, &minutes, sizeof(minutes));
	}
	buf_add(&b, &p->secondary, sizeof(p->secondary));
	for (i = 0; i < p->ntags; i++) {
		hash_str(&b, p->tags[i].name);
		hash_str(&b, p->tags[i].slug);
	}
	p->sum_hash = hash64(b.ptr, b.len);
	pair[0] = p->sum_hash;
	if (p->html != NULL)
		p->body_hash = hash64(p->html, strlen(p->html));
	pair[1] = p->body_hash;
	p->full_hash = hash64(pair, sizeof(pair));
	buf_release(&b);
}

/* Reads the body again and renders it; for content_html. */
static int
load_html(struct post *p, const struct site_config *c,
    const struct content_hooks *h, struct arena *a, struct diag *d)
{
	struct buf text = BUF_INIT;
	struct frontmatter fm;
	struct md_out md;
	struct also also;
	int rc = -1;

	md_out_init(&md);
	also_init(&also, &md, h);
	md.raw_html = (enum md_raw_html)md_raw_html_mode(c->raw_html);
	md.smart = c->smart_punctuation;
	md.hl = h != NULL ? h->hl : NULL;
	md.path = p->src;
	memset(&fm, 0, sizeof(fm));
	if (fs_read(p->src, &text) == -1) {
		diag_error(d, p->src, 0, "cannot read: %s", strerror(errno));
		goto out;
	}
	if (hash64(text.ptr, text.len) != p->text_hash) {
		diag_error(d, p->src, 0, "changed while the site was being "
		    "built: build again");
		goto out;
	}
	if ((p->is_html ? frontmatter_parse_html : frontmatter_parse)(&fm,
	    text.ptr, text.len, p->src, d) == -1)
		goto out;
	md.line0 = fm.body_line > 0 ? fm.body_line : 1;
	if (p->is_html)
		buf_add(&md.html, fm.body, fm.body_len);
	else if (markdown_render(fm.body, fm.body_len, EXCERPT_MAX, &md) == -1) {
		md_error(&md, &fm, p->src, d);
		goto out;
	}
	p->html = arena_strndup(a, md.html.ptr, md.html.len);
	also_keep(p, &also, a);
	rc = 0;
out:
	frontmatter_release(&fm);
	md_out_release(&md);
	buf_release(&text);
	also_release(&also);
	return rc;
}

int
content_html(struct post *p, const struct site_config *c,
    const struct content_hooks *h, struct arena *a, struct diag *d)
{
	int expect = 0, rc = 0;

	if (atomic_load_explicit(&p->html_state, memory_order_acquire) == 2)
		return p->html ? 0 : -1;
	if (p->html != NULL)
		return 0;
	if (atomic_compare_exchange_strong(&p->html_state, &expect, 1)) {
		rc = load_html(p, c, h, a, d);
		atomic_store_explicit(&p->html_state, 2, memory_order_release);
		return rc;
	}
	while (atomic_load_explicit(&p->html_state, memory_order_acquire) != 2)
		sched_yield();
	return p->html ? 0 : -1;
}
