#include "markdown.h"

#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>

#include "escape.h"
#include "highlight.h"
#include "mdmem.h"
#include "mem.h"
#include "slug.h"

/* tagfilter, GitHub's filter of <script>, <iframe>... is attached only
 * for raw_html: filter (it adds no inline characters, see below) */
static const char *const extension_names[] = {
	"table", "strikethrough", "autolink", "tasklist", "tagfilter"
};
#define NEXT_ALWAYS	4
#define STR_(x)		#x
#define STR(x)		STR_(x)

/*
 * cmark-gfm (0.29) keeps the special inline characters of extensions in a
 * global table: each parse adds its extensions' characters when inline
 * parsing starts and removes them when it ends, so two parses at once
 * break each other (strikethrough and autolinks go missing). Every parser
 * here attaches the same extensions, so the table never needs to shrink:
 * the function below takes the library's place (ELF symbol interposition),
 * lets the first addition through and ignores the rest. When the library
 * is seen calling it, parses run in parallel; where it is not (a library
 * that calls it internally), they are serialised with parse_lock.
 */
static pthread_mutex_t parse_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t special_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int interposed;
static int specials_added;

void cmark_manage_extensions_special_characters(cmark_parser *, int);

void
cmark_manage_extensions_special_characters(cmark_parser *parser, int add)
{
	void (*real)(cmark_parser *, int);

	pthread_mutex_lock(&special_lock);
	if (add && !specials_added) {
		*(void **)&real = dlsym(RTLD_NEXT,
		    "cmark_manage_extensions_special_characters");
		if (real != NULL)
			real(parser, 1);
		specials_added = 1;
	}
	atomic_store(&interposed, 1);
	pthread_mutex_unlock(&special_lock);
}

#define MD_OPTIONS (CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES)

int
md_raw_html_mode(const char *s)
{
	if (strcmp(s, "keep") == 0)
		return MD_RAW_KEEP;
	if (strcmp(s, "filter") == 0)
		return MD_RAW_FILTER;
	if (strcmp(s, "omit") == 0)
		return MD_RAW_OMIT;
	return -1;
}

void
markdown_init(void)
{
	cmark_gfm_core_extensions_ensure_registered();
}

void
md_out_init(struct md_out *o)
{
	buf_init(&o->html);
	buf_init(&o->excerpt);
	o->words = 0;
	o->raw_html = MD_RAW_KEEP;
	o->smart = 0;
	o->hl = NULL;
	o->path = NULL;
	o->line0 = 1;
	o->code_unlit = 0;
	o->also = NULL;
	o->also_arg = NULL;
	o->error = NULL;
	o->error_line = 0;
}

void
md_out_release(struct md_out *o)
{
	buf_release(&o->html);
	buf_release(&o->excerpt);
	o->words = 0;
}

/* isspace in the C locale, inline: it runs for every byte of every post */
static inline int
is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

int
reading_minutes(size_t words)
{
	size_t m = (words + 199) / 200;

	return m < 1 ? 1 : (int)m;
}

/*
 * Words that start in s[0..n), *in telling whether a word runs on from
 * before it and after it. Branch-free: it runs over every byte of every
 * post.
 */
static size_t
count_words_on(const char *s, size_t n, int *in)
{
	static const unsigned char space[256] = {
		['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1,
		[' '] = 1
	};
	const unsigned char *p = (const unsigned char *)s;
	unsigned prev = !*in, sp;
	size_t i, w = 0;

	for (i = 0; i < n; i++) {
		sp = space[p[i]];
		w += prev & (sp ^ 1);
		prev = sp;
	}
	if (n > 0)
		*in = !prev;
	return w;
}

static size_t
count_words(const char *s, size_t n)
{
	int in = 0;

	return count_words_on(s, n, &in);
}

/* Appends text to the excerpt with single spaces, until it is full. */
static void
excerpt_add(struct buf *ex, const char *s, size_t n, size_t max, int *full)
{
	size_t i;
	int space = ex->len > 0 && ex->ptr[ex->len - 1] == ' ';

	for (i = 0; i < n && !*full; i++) {
		if (is_space(s[i])) {
			if (!space && ex->len > 0)
				buf_addc(ex, ' ');
			space = 1;
			continue;
		}
		space = 0;
		buf_addc(ex, s[i]);
		if (ex->len >= max)
			*full = 1;
	}
}

/* Cuts an over-long excerpt at the last space and marks the cut. */
static void
excerpt_finish(struct buf *ex, int full)
{
	size_t cut;

	while (ex->len > 0 && ex->ptr[ex->len - 1] == ' ')
		buf_truncate(ex, ex->len - 1);
	if (!full)
		return;
	cut = ex->len;
	while (cut > 0 && ex->ptr[cut - 1] != ' ')
		cut--;
	if (cut > ex->len / 2)
		buf_truncate(ex, cut - 1);
	/* never leave half a UTF-8 sequence */
	while (ex->len > 0 && ((unsigned char)ex->ptr[ex->len - 1] & 0xc0) == 0x80)
		buf_truncate(ex, ex->len - 1);
	if (ex->len > 0 && (unsigned char)ex->ptr[ex->len - 1] >= 0xc0)
		buf_truncate(ex, ex->len - 1);
	while (ex->len > 0 && strchr(" ,;:.", ex->ptr[ex->len - 1]))
		buf_truncate(ex, ex->len - 1);
	buf_adds(ex, "\xe2\x80\xa6");
}

/* Plain text of a node's inline content. */
static void
node_text(cmark_node *node, struct buf *out)
{
	cmark_iter *it = cmark_iter_new(node);
	cmark_event_type ev;
	cmark_node *n;
	const char *lit;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		n = cmark_iter_get_node(it);
		if (ev == CMARK_EVENT_EXIT) {
			/* block boundaries separate words */
			if ((cmark_node_get_type(n) & CMARK_NODE_TYPE_MASK) ==
			    CMARK_NODE_TYPE_BLOCK)
				buf_addc(out, ' ');
			continue;
		}
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			if ((lit = cmark_node_get_literal(n)) != NULL)
				buf_adds(out, lit);
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			buf_addc(out, ' ');
			break;
		default:
			break;
		}
	}
	cmark_iter_free(it);
}

/*
 * Replaces each heading with a custom block that prints <hN id="slug">, so
 * cmark renders the id without any post-processing of its HTML.
 */
static void
add_heading_ids(cmark_node **heads, size_t nheads, cmark_mem *mem)
{
	cmark_node *n, *blk, *child;
	char **seen = NULL;
	size_t nseen = 0, scap = 0, i, j;
	struct buf text = BUF_INIT, id = BUF_INIT, tag = BUF_INIT;
	size_t base;
	int level, dup;

	for (i = 0; i < nheads; i++) {
		n = heads[i];
		level = cmark_node_get_heading_level(n);
		buf_clear(&text);
		buf_clear(&id);
		node_text(n, &text);
		slug_append(&id, text.ptr);
		if (id.len == 0)
			buf_printf(&id, "section-%zu", i + 1);
		/* unique within the page: slug, slug-1, slug-2 ... */
		base = id.len;
		for (dup = 1;; dup++) {
			for (j = 0; j < nseen; j++)
				if (strcmp(seen[j], id.ptr) == 0)
					break;
			if (j == nseen)
				break;
			buf_truncate(&id, base);
			buf_printf(&id, "-%d", dup);
		}
		xgrow((void **)&seen, &scap, nseen + 1, sizeof(*seen));
		seen[nseen++] = xstrdup(id.ptr);
		blk = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, mem);
		buf_clear(&tag);
		buf_printf(&tag, "<h%d id=\"", level);
		esc_html(&tag, id.ptr, id.len);
		buf_adds(&tag, "\">");
		cmark_node_set_on_enter(blk, tag.ptr);
		buf_clear(&tag);
		buf_printf(&tag, "</h%d>", level);
		cmark_node_set_on_exit(blk, tag.ptr);
		while ((child = cmark_node_first_child(n)) != NULL) {
			cmark_node_unlink(child);
			cmark_node_append_child(blk, child);
		}
		cmark_node_replace(n, blk);
		cmark_node_free(n);
	}
	for (j = 0; j < nseen; j++)
		free(seen[j]);
	free(seen);
	buf_release(&text);
	buf_release(&id);
	buf_release(&tag);
}

/* What one walk over a parsed document gathers. */
struct doc_facts {
	size_t		 words;
	struct buf	 excerpt;
	cmark_node	**heads;	/* headings, in order */
	size_t		 nheads, cap;
	int		 want_code;	/* gather the fenced code blocks */
	cmark_node	**codes;	/* those with a language */
	size_t		 ncodes, capcodes;
	int		 deep_line;	/* where nesting first passes the limit */
};

/*
 * The first line (1 on) whose quote and list markers alone, at its start,
 * nest deeper than MD_MAX_NESTING; 0 if none. Checked before parsing,
 * since such a line is what makes cmark's memory grow.
 */
static int
deep_line(const char *s, size_t n)
{
	const char *end = s + n, *d;
	int line = 1, depth;

	while (s < end) {
		for (depth = 0; s < end; ) {
			while (s < end && (*s == ' ' || *s == '\t'))
				s++;
			if (s < end && *s == '>') {
				s++;
			} else if (s + 1 < end && (*s == '-' || *s == '+' ||
			    *s == '*') && (s[1] == ' ' || s[1] == '\t')) {
				s += 2;
			} else {
				for (d = s; d < end && d - s < 9 &&
				    *d >= '0' && *d <= '9'; d++)
					;
				if (d == s || d + 1 >= end ||
				    (*d != '.' && *d != ')') ||
				    (d[1] != ' ' && d[1] != '\t'))
					break;
				s = d + 2;
			}
			if (++depth > MD_MAX_NESTING)
				return line;
		}
		if ((s = memchr(s, '\n', (size_t)(end - s))) == NULL)
			break;
		s++;
		line++;
	}
	return 0;
}

/* cmark's leaves: entered, never left (see cmark_iter_next). */
static int
is_leaf(cmark_node_type type)
{
	switch (type) {
	case CMARK_NODE_HTML_BLOCK:
	case CMARK_NODE_THEMATIC_BREAK:
	case CMARK_NODE_CODE_BLOCK:
	case CMARK_NODE_TEXT:
	case CMARK_NODE_SOFTBREAK:
	case CMARK_NODE_LINEBREAK:
	case CMARK_NODE_CODE:
	case CMARK_NODE_HTML_INLINE:
		return 1;
	default:
		return 0;
	}
}

/* The line a node starts on, or its nearest ancestor's that says. */
static int
node_line(cmark_node *n)
{
	int line = 0;

	for (; n != NULL && (line = cmark_node_get_start_line(n)) == 0;
	    n = cmark_node_parent(n))
		;
	return line;
}

static void html_text(const char *, size_t, struct buf *);

/*
 * One walk over the document: words over its whole text (block ends and
 * line breaks part words), the excerpt, and its headings (changed after
 * the walk, by add_heading_ids). The excerpt is BSSG's: the text of the
 * first top-level paragraph or HTML block that has any, tags out.
 */
static void
walk_doc(cmark_node *doc, size_t max, struct doc_facts *f)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	cmark_node *n, *para = NULL;
	cmark_node_type type;
	struct buf t = BUF_INIT;
	const char *lit;
	size_t len;
	int in = 0, full = 0, depth = -1;	/* the document: 0 */

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		n = cmark_iter_get_node(it);
		type = cmark_node_get_type(n);
		if (ev == CMARK_EVENT_ENTER && !is_leaf(type) &&
		    ++depth > MD_MAX_NESTING && f->deep_line == 0)
			f->deep_line = node_line(n) > 0 ? node_line(n) : 1;
		if (ev == CMARK_EVENT_EXIT)
			depth--;
		if (ev == CMARK_EVENT_EXIT) {
			if ((type & CMARK_NODE_TYPE_MASK) != CMARK_NODE_TYPE_BLOCK)
				continue;
			in = 0;
			if (n == para) {
				buf_addc(&t, ' ');
				excerpt_add(&f->excerpt, t.ptr, t.len, max, &full);
				para = NULL;
			}
			continue;
		}
		switch (type) {
		case CMARK_NODE_PARAGRAPH:
			if (f->excerpt.len == 0 && cmark_node_parent(n) == doc) {
				para = n;
				buf_clear(&t);
			}
			break;
		case CMARK_NODE_HTML_BLOCK:
			if (f->excerpt.len == 0 && cmark_node_parent(n) == doc &&
			    (lit = cmark_node_get_literal(n)) != NULL) {
				buf_clear(&t);
				html_text(lit, strlen(lit), &t);
				excerpt_add(&f->excerpt, t.ptr, t.len, max, &full);
			}
			break;
		case CMARK_NODE_HEADING:
			xgrow((void **)&f->heads, &f->cap, f->nheads + 1,
			    sizeof(*f->heads));
			f->heads[f->nheads++] = n;
			break;
		case CMARK_NODE_CODE_BLOCK:
			if (!f->want_code || (lit = cmark_node_get_fence_info(n))
			    == NULL || *lit == '\0' || is_space(*lit))
				break;
			xgrow((void **)&f->codes, &f->capcodes, f->ncodes + 1,
			    sizeof(*f->codes));
			f->codes[f->ncodes++] = n;
			break;
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			if ((lit = cmark_node_get_literal(n)) == NULL)
				break;
			len = strlen(lit);
			f->words += count_words_on(lit, len, &in);
			if (para != NULL)
				buf_add(&t, lit, len);
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			in = 0;
			if (para != NULL)
				buf_addc(&t, ' ');
			break;
		default:
			break;
		}
	}
	cmark_iter_free(it);
	excerpt_finish(&f->excerpt, full);
	buf_release(&t);
}

/*
 * Replaces each fenced block with a language by a custom block that
 * prints it highlighted; a block that stays plain is left to cmark.
 */
static void
highlight_codes(cmark_node **codes, size_t n, cmark_mem *mem,
    struct md_out *o)
{
	struct buf html = BUF_INIT, lang = BUF_INIT;
	const char *info, *code;
	cmark_node *blk;
	size_t i, k;
	int rc;

	for (i = 0; i < n; i++) {
		info = cmark_node_get_fence_info(codes[i]);
		code = cmark_node_get_literal(codes[i]);
		/* the language is the info string's first word, as cmark
		 * takes it for the class */
		for (k = 0; info[k] != '\0' && !is_space(info[k]); k++)
			;
		buf_clear(&lang);
		buf_add(&lang, info, k);
		buf_clear(&html);
		if (code == NULL)
			continue;
		rc = highlight_block(o->hl, lang.ptr, code, strlen(code),
		    o->path, o->line0 - 1 +
		    cmark_node_get_start_line(codes[i]), &html);
		if (rc == -1)
			o->code_unlit = 1;
		if (rc != 1)
			continue;
		blk = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, mem);
		cmark_node_set_on_enter(blk, html.ptr);
		cmark_node_set_on_exit(blk, "");
		cmark_node_replace(codes[i], blk);
		cmark_node_free(codes[i]);
	}
	buf_release(&html);
	buf_release(&lang);
}

/*
 * cmark frees and allocates again all through a parse; the bump allocator
 * (mdmem) frees nothing until the end, so it holds all cmark ever asked
 * for. For a post of a few hundred kilobytes that beats malloc; for a
 * large one malloc is as fast (10 MB of prose: 0.42 s against 0.60 s) and
 * holds only what is live, which on some texts is far less (1 MB of
 * 'w', each tried as the start of "www." by the autolink extension:
 * 179 MB against 230 MB).
 */
#define MD_BUMP_MAX	(256u << 10)

/* Frees what one parse made: with mdmem all at once, else one by one. */
static void
release(cmark_mem *mem, cmark_parser *p, cmark_node *doc, char *html)
{
	if (mem != cmark_get_default_mem_allocator()) {
		mdmem_reset();
		return;
	}
	if (html != NULL)
		mem->free(html);
	if (doc != NULL)
		cmark_node_free(doc);
	cmark_parser_free(p);
}

/* A parser with the first next extensions, fed src: the document, or
 * NULL (then *mem and *p are still to release). */
static cmark_node *
parse(const char *src, size_t n, int opts, size_t next, cmark_mem **mem,
    cmark_parser **p)
{
	cmark_syntax_extension *ext;
	cmark_node *doc;
	size_t i;
	int locked = !atomic_load(&interposed);

	if (locked)
		pthread_mutex_lock(&parse_lock);
	/* a large text with cmark's own allocator: see MD_BUMP_MAX */
	*mem = n > MD_BUMP_MAX ? cmark_get_default_mem_allocator() : mdmem();
	*p = cmark_parser_new_with_mem(opts, *mem);
	for (i = 0; i < next; i++)
		if ((ext = cmark_find_syntax_extension(extension_names[i])))
			cmark_parser_attach_syntax_extension(*p, ext);
	cmark_parser_feed(*p, src, n);
	doc = cmark_parser_finish(*p);
	if (locked)
		pthread_mutex_unlock(&parse_lock);
	return doc;
}

int
markdown_with_doc(const char *src, size_t n, int smart,
    void (*fn)(void *doc, void *arg), void *arg)
{
	cmark_parser *p;
	cmark_node *doc;
	cmark_mem *mem;

	if (deep_line(src, n) != 0)
		return -1;
	doc = parse(src, n, MD_OPTIONS | (smart ? CMARK_OPT_SMART : 0),
	    NEXT_ALWAYS, &mem, &p);
	if (doc != NULL)
		fn(doc, arg);
	release(mem, p, doc, NULL);
	return doc != NULL ? 0 : -1;
}

void
markdown_html_text(const char *html, size_t n, struct buf *out)
{
	html_text(html, n, out);
}

int
markdown_render(const char *src, size_t n, size_t excerpt_max,
    struct md_out *o)
{
	cmark_parser *p;
	cmark_node *doc;
	struct doc_facts f;
	char *html;
	size_t next;
	int opts = MD_OPTIONS;
	cmark_mem *mem;

	if ((o->error_line = deep_line(src, n)) != 0) {
		o->error = "nested deeper than " STR(MD_MAX_NESTING) " levels "
		    "(quotes, lists): left out";
		return -1;
	}
	/* without UNSAFE, cmark writes "<!-- raw HTML omitted -->" */
	if (o->raw_html == MD_RAW_OMIT)
		opts &= ~CMARK_OPT_UNSAFE;
	if (o->smart)
		opts |= CMARK_OPT_SMART;
	next = o->raw_html == MD_RAW_FILTER ? NEXT_ALWAYS + 1 : NEXT_ALWAYS;
	doc = parse(src, n, opts, next, &mem, &p);
	if (doc == NULL) {
		o->error = "Markdown could not be parsed";
		release(mem, p, NULL, NULL);
		return -1;
	}
	memset(&f, 0, sizeof(f));
	f.excerpt = o->excerpt;
	f.want_code = o->hl != NULL;
	walk_doc(doc, excerpt_max, &f);
	if (f.deep_line != 0) {
		o->error = "nested deeper than " STR(MD_MAX_NESTING) " levels "
		    "(quotes, lists, emphasis): left out";
		o->error_line = f.deep_line;
		o->excerpt = f.excerpt;
		free(f.heads);
		free(f.codes);
		release(mem, p, doc, NULL);
		return -1;
	}
	o->excerpt = f.excerpt;
	o->words = f.words;
	/* the tree as parsed: heading ids and colours are HTML's */
	if (o->also != NULL)
		o->also(doc, o->also_arg);
	add_heading_ids(f.heads, f.nheads, mem);
	free(f.heads);
	highlight_codes(f.codes, f.ncodes, mem, o);
	free(f.codes);
	html = cmark_render_html_with_mem(doc, opts,
	    cmark_parser_get_syntax_extensions(p), mem);
	buf_adds(&o->html, html);
	release(mem, p, doc, html);
	return 0;
}

/* Tags after which words are apart: block elements and line breaks. */
static int
is_break_tag(const char *tag, size_t n)
{
	static const char *const blocks[] = { "p", "br", "div", "li", "ul",
	    "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th",
	    "table", "blockquote", "pre", "section", "article", "aside",
	    "header", "footer", "figure", "figcaption", "hr", "dd", "dt" };
	size_t i, len;

	if (n > 0 && tag[0] == '/') {
		tag++;
		n--;
	}
	for (len = 0; len < n && isalnum((unsigned char)tag[len]); len++)
		;
	for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++)
		if (strlen(blocks[i]) == len && strncasecmp(tag, blocks[i], len) == 0)
			return 1;
	return 0;
}

/* Decodes the entity at s (after '&'); returns bytes used, 0 if none. */
static size_t
decode_entity(const char *s, size_t n, struct buf *out)
{
	static const struct { const char *name, *text; } named[] = {
		{ "amp;", "&" }, { "lt;", "<" }, { "gt;", ">" },
		{ "quot;", "\"" }, { "apos;", "'" }, { "nbsp;", " " },
		{ "#39;", "'" },
	};
	unsigned long cp;
	char *end;
	size_t i, len;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		len = strlen(named[i].name);
		if (n >= len && strncmp(s, named[i].name, len) == 0) {
			buf_adds(out, named[i].text);
			return len;
		}
	}
	if (n > 2 && s[0] == '#') {
		cp = s[1] == 'x' || s[1] == 'X' ? strtoul(s + 2, &end, 16) :
		    strtoul(s + 1, &end, 10);
		if ((size_t)(end - s) < n && *end == ';' && cp > 0 &&
		    cp < 0x110000 && !(cp >= 0xd800 && cp <= 0xdfff)) {
			if (cp < 0x80)
				buf_addc(out, (int)cp);
			else if (cp < 0x800) {
				buf_addc(out, (int)(0xc0 | (cp >> 6)));
				buf_addc(out, (int)(0x80 | (cp & 0x3f)));
			} else if (cp < 0x10000) {
				buf_addc(out, (int)(0xe0 | (cp >> 12)));
				buf_addc(out, (int)(0x80 | ((cp >> 6) & 0x3f)));
				buf_addc(out, (int)(0x80 | (cp & 0x3f)));
			} else {
				buf_addc(out, (int)(0xf0 | (cp >> 18)));
				buf_addc(out, (int)(0x80 | ((cp >> 12) & 0x3f)));
				buf_addc(out, (int)(0x80 | ((cp >> 6) & 0x3f)));
				buf_addc(out, (int)(0x80 | (cp & 0x3f)));
			}
			return (size_t)(end - s) + 1;
		}
	}
	return 0;
}

/* The element name at s (after "<"), if it is script or style. */
static const char *
hidden_element(const char *s, size_t n)
{
	static const char *const names[] = { "script", "style" };
	size_t i, len;

	for (i = 0; i < 2; i++) {
		len = strlen(names[i]);
		if (n > len && strncasecmp(s, names[i], len) == 0 &&
		    strchr(" \t\n/>", s[len]) != NULL)
			return names[i];
	}
	return NULL;
}

/* Where the element name closes ("</name" ... ">") at or after s, or
 * NULL. */
static const char *
close_of(const char *s, const char *end, const char *name)
{
	size_t len = strlen(name);

	for (; s + len + 2 <= end; s++)
		if (s[0] == '<' && s[1] == '/' &&
		    strncasecmp(s + 2, name, len) == 0)
			return memchr(s, '>', (size_t)(end - s));
	return NULL;
}

/* The text of HTML: tags out (with the content of <script> and <style>,
 * which no reader sees as text), entities decoded, a space for each tag
 * that breaks a line. */
static void
html_text(const char *html, size_t n, struct buf *t)
{
	const char *gt, *name, *close;
	size_t i, used;

	for (i = 0; i < n; i++) {
		if (html[i] == '<' && (gt = memchr(html + i, '>', n - i))) {
			if (is_break_tag(html + i + 1, (size_t)(gt - html) - i - 1))
				buf_addc(t, ' ');
			if ((name = hidden_element(html + i + 1, n - i - 1)) &&
			    (close = close_of(gt, html + n, name)) != NULL)
				gt = close;
			i = (size_t)(gt - html);
		} else if (html[i] == '&' &&
		    (used = decode_entity(html + i + 1, n - i - 1, t)) > 0)
			i += used;
		else
			buf_addc(t, html[i]);
	}
}

void
html_plain_text(const char *html, size_t n, size_t excerpt_max,
    struct md_out *o)
{
	struct buf t = BUF_INIT;
	int full = 0;

	html_text(html, n, &t);
	o->words = count_words(t.ptr, t.len);
	excerpt_add(&o->excerpt, t.ptr, t.len, excerpt_max, &full);
	excerpt_finish(&o->excerpt, full);
	buf_release(&t);
}
