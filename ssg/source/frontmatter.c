/*
 * Front matter read as BSSG reads it (scripts/build/content.sh,
 * extract_metadata): each line between the first two "---" lines that
 * holds a colon is split at its first colon, key and value trimmed, the
 * key lower-cased and one pair of matching outer quotes taken off the
 * value; the rest is literal text. A later line for the same key wins.
 *
 * Where BSSG's reading gives nothing useful, ssg reads three YAML forms
 * with libyaml: an indented block list under an empty value, a flow list
 * "[a, b]" on a list key, and a block scalar ("|" or ">" alone with
 * indented lines under it).
 */
#include "frontmatter.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "mem.h"
#include "yamldoc.h"

/* Keys whose "[a, b]" value is a list, not text. */
static const char *const list_keys[] = { "tags", "authors" };

/* Length of the line at s (without its newline) and where the next starts. */
static size_t
line_len(const char *s, const char *end, const char **next)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	size_t n;

	if (nl == NULL) {
		*next = end;
		n = (size_t)(end - s);
	} else {
		*next = nl + 1;
		n = (size_t)(nl - s);
	}
	if (n > 0 && s[n - 1] == '\r')
		n--;
	return n;
}

static int
is_fence(const char *s, size_t n, int closing)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n == 3 && memcmp(s, "---", 3) == 0)
		return 1;
	return closing && n == 3 && memcmp(s, "...", 3) == 0;
}

/* Trims [*s, *s + *n) of the blanks awk's [[:space:]] matches. */
static void
trim(const char **s, size_t *n)
{
	while (*n > 0 && isspace((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n > 0 && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

static int
is_blank(const char *s, size_t n)
{
	trim(&s, &n);
	return n == 0;
}

static int
is_indented(const char *s, size_t n)
{
	return n > 0 && (s[0] == ' ' || s[0] == '\t') && !is_blank(s, n);
}

static int
is_list_key(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(list_keys) / sizeof(list_keys[0]); i++)
		if (strcmp(key, list_keys[i]) == 0)
			return 1;
	return 0;
}

/* "|" or ">", with an optional chomping sign: a YAML block scalar header. */
static int
is_block_header(const char *v, size_t n)
{
	return (n == 1 || (n == 2 && (v[1] == '-' || v[1] == '+'))) &&
	    (v[0] == '|' || v[0] == '>');
}

/* 1 if the indented lines from p on start with a "- " list item. */
static int
starts_block_list(const char *p, const char *end)
{
	const char *next;
	size_t n;

	for (; p < end; p = next) {
		n = line_len(p, end, &next);
		if (is_blank(p, n))
			continue;
		if (!is_indented(p, n))
			return 0;
		trim(&p, &n);
		return p[0] == '-' && (n == 1 || p[1] == ' ' || p[1] == '\t');
	}
	return 0;
}

/*
 * The end of the indented lines from p on (blank lines inside count,
 * blank lines after the last indented one do not), and how many lines
 * that is.
 */
static const char *
block_end(const char *p, const char *end, int *nlines)
{
	const char *next, *last = p;
	size_t n;
	int count = 0;

	*nlines = 0;
	for (; p < end; p = next) {
		n = line_len(p, end, &next);
		count++;
		if (is_blank(p, n))
			continue;
		if (!is_indented(p, n))
			break;
		last = next;
		*nlines = count;
	}
	return last;
}

/*
 * Parses "key: rest" (rest already holding the value's text and any
 * indented lines under it) with libyaml and returns the value's node, its
 * key set. NULL after recording an error at the file's line.
 */
static struct ynode *
yaml_value(const char *key, const char *rest, size_t len, const char *file,
    int line, struct diag *d)
{
	struct buf b = BUF_INIT;
	struct ynode *map, *v = NULL;

	/* the key is any text; YAML sees a plain one */
	buf_adds(&b, "v: ");
	buf_add(&b, rest, len);
	if ((map = ynode_parse(b.ptr, b.len, file, line, d)) != NULL &&
	    map->kind == YNODE_MAP && map->child != NULL) {
		v = map->child;
		map->child = v->next;
		v->next = NULL;
		v->line = line;
		free(v->key);
		v->key = xstrdup(key);
	}
	ynode_free(map);
	buf_release(&b);
	return v;
}

static struct ynode *
text_value(const char *key, const char *v, size_t n, int line)
{
	struct ynode *node = xcalloc(1, sizeof(*node));

	/* one pair of matching outer quotes comes off */
	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		v++;
		n -= 2;
	}
	node->kind = YNODE_SCALAR;
	node->line = line;
	node->quoted = 1;	/* literal text: never a YAML null */
	node->key = xstrdup(key);
	node->value = xstrndup(v, n);
	return node;
}

/* Puts v into map; a key given before is replaced, with a warning. */
static void
set_key(struct ynode *map, struct ynode *v, const char *file, struct diag *d)
{
	struct ynode **pp;

	for (pp = &map->child; *pp != NULL; pp = &(*pp)->next) {
		if (strcmp((*pp)->key, v->key) != 0)
			continue;
		diag_warn(d, file, v->line, "'%s' is given again (first on "
		    "line %d); the later value is used", v->key,
		    (*pp)->line);
		v->next = (*pp)->next;
		(*pp)->next = NULL;
		ynode_free(*pp);
		*pp = v;
		return;
	}
	*pp = v;
}

/* Reads the lines [p, end), the first of which is file line `line`. */
static int
read_block(struct ynode *map, const char *p, const char *end, int line,
    const char *file, struct diag *d)
{
	const char *next, *eol, *s, *colon, *v, *bend;
	struct ynode *node;
	size_t n, kn, vn, i;
	char *key;
	int nlines, rc = 0;

	for (; p < end; p = next, line++) {
		n = line_len(p, end, &next);
		eol = p + n;
		s = p;
		trim(&s, &n);
		if (n == 0 || s[0] == '#')
			continue;
		if ((colon = memchr(s, ':', n)) == NULL || colon == s) {
			diag_warn(d, file, line, "not a 'key: value' line; "
			    "ignored");
			continue;
		}
		kn = (size_t)(colon - s);
		trim(&s, &kn);
		key = xstrndup(s, kn);
		/* (up to a NUL byte in the line, where the copy ends) */
		for (i = 0; key[i] != '\0'; i++)
			key[i] = (char)tolower((unsigned char)key[i]);
		v = colon + 1;
		vn = (size_t)(eol - v);
		trim(&v, &vn);
		node = NULL;
		if ((vn == 0 && starts_block_list(next, end)) ||
		    (is_block_header(v, vn) && block_end(next, end,
		    &nlines) != next)) {
			bend = block_end(next, end, &nlines);
			node = yaml_value(key, v, (size_t)(bend - v), file,
			    line, d);
			if (node == NULL)
				rc = -1;
			next = bend;
			line += nlines;
		} else if (vn >= 2 && v[0] == '[' && v[vn - 1] == ']' &&
		    is_list_key(key)) {
			node = yaml_value(key, v, vn, file, line, d);
			if (node == NULL)
				rc = -1;
		} else if (vn > 0)
			node = text_value(key, v, vn, line);
		/* an empty value sets nothing, as in BSSG */
		free(key);
		if (node != NULL)
			set_key(map, node, file, d);
	}
	return rc;
}

int
frontmatter_parse(struct frontmatter *fm, const char *text, size_t len,
    const char *file, struct diag *d)
{
	const char *end = text + len, *p, *next, *block;
	size_t n;
	int line = 1;

	memset(fm, 0, sizeof(*fm));
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		text += 3;
	fm->body = text;
	fm->body_len = (size_t)(end - text);
	fm->body_line = 1;
	n = line_len(text, end, &next);
	if (!is_fence(text, n, 0))
		return 0;
	block = next;
	for (p = next, line = 2; p < end; p = next, line++) {
		n = line_len(p, end, &next);
		if (!is_fence(p, n, 1))
			continue;
		fm->root = xcalloc(1, sizeof(*fm->root));
		fm->root->kind = YNODE_MAP;
		fm->root->line = 2;
		if (read_block(fm->root, block, p, 2, file, d) == -1) {
			frontmatter_release(fm);
			return -1;
		}
		fm->body = next;
		fm->body_len = (size_t)(end - next);
		fm->body_line = line + 1;
		return 0;
	}
	return diag_error(d, file, 1, "front matter opened with '---' is never "
	    "closed");
}

/* ---- posts written in HTML, as BSSG reads them ---- */

/* The <meta name> fields BSSG reads from an HTML post (and "title" from
 * <title>); fediverse:creator is another name for fediverse_creator. */
static const char *const html_fields[][2] = {
	{ "date", "date" }, { "lastmod", "lastmod" }, { "tags", "tags" },
	{ "slug", "slug" }, { "image", "image" },
	{ "image_caption", "image_caption" },
	{ "description", "description" }, { "author_name", "author_name" },
	{ "author_email", "author_email" },
	{ "fediverse_creator", "fediverse_creator" },
	{ "fediverse:creator", "fediverse_creator" },
};

/* Appends s[0..n) with &amp; &lt; &gt; &quot; &#39; &apos; decoded: the
 * text a browser shows for what BSSG copies into its pages. */
static void
html_text(struct buf *out, const char *s, size_t n)
{
	static const char *const ent[][2] = { { "&amp;", "&" },
	    { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" },
	    { "&#39;", "'" }, { "&apos;", "'" } };
	size_t i, k, len;

	for (i = 0; i < n; i++) {
		for (k = 0; s[i] == '&' && k < sizeof(ent) / sizeof(ent[0]);
		    k++) {
			len = strlen(ent[k][0]);
			if (n - i >= len && memcmp(s + i, ent[k][0], len) == 0)
				break;
		}
		if (s[i] == '&' && k < sizeof(ent) / sizeof(ent[0])) {
			buf_adds(out, ent[k][1]);
			i += strlen(ent[k][0]) - 1;
		} else
			buf_addc(out, s[i]);
	}
}

/* Adds key: the text [v, v + n) decoded, unless the map has key already
 * (BSSG takes the first of each). */
static void
html_field(struct ynode *map, const char *key, const char *v, size_t n,
    int line)
{
	struct buf b = BUF_INIT;
	struct ynode *node;

	if (ynode_get(map, key) != NULL || n == 0)
		return;
	html_text(&b, v, n);
	node = xcalloc(1, sizeof(*node));
	node->kind = YNODE_SCALAR;
	node->line = line;
	node->quoted = 1;
	node->key = xstrdup(key);
	node->value = buf_detach(&b, NULL);
	set_key(map, node, NULL, NULL);
}

/* The file line of s in text. */
static int
line_of(const char *text, const char *s)
{
	int line = 1;

	for (; text < s; text++)
		line += *text == '\n';
	return line;
}

/* The first "needle" in [s, end), or NULL. */
static const char *
find(const char *s, const char *end, const char *needle)
{
	size_t n = strlen(needle);

	for (; s + n <= end; s++)
		if (memcmp(s, needle, n) == 0)
			return s;
	return NULL;
}

static size_t
count_keys(const struct ynode *map)
{
	const struct ynode *c;
	size_t n = 0;

	for (c = map->child; c != NULL; c = c->next)
		n++;
	return n;
}

int
frontmatter_parse_html(struct frontmatter *fm, const char *text, size_t len,
    const char *file, struct diag *d)
{
	const char *end = text + len, *p, *q, *next, *start = NULL;
	char pat[64];
	size_t i, n, before;
	int had_fm;

	if (frontmatter_parse(fm, text, len, file, d) == -1)
		return -1;
	/* front matter first; the document's own tags fill in the rest
	 * (`ssg edit` adds a block with lastmod to a BSSG HTML post) */
	had_fm = fm->root != NULL;
	if (!had_fm) {
		fm->root = xcalloc(1, sizeof(*fm->root));
		fm->root->kind = YNODE_MAP;
		fm->root->line = 1;
	}
	before = count_keys(fm->root);
	text = fm->body;
	/* BSSG's grep -o '<title>[^<]*</title>' and
	 * 'name="F" content="[^"]*"', first of each */
	if ((p = find(text, end, "<title>")) != NULL) {
		for (q = p += 7; q < end && *q != '<'; q++)
			;
		if (find(q, end, "</title>") == q)
			html_field(fm->root, "title", p, (size_t)(q - p),
			    fm->body_line - 1 + line_of(text, p));
	}
	for (i = 0; i < sizeof(html_fields) / sizeof(html_fields[0]); i++) {
		xsnprintf(pat, sizeof(pat), "name=\"%s\" content=\"",
		    html_fields[i][0]);
		if ((p = find(text, end, pat)) == NULL)
			continue;
		p += strlen(pat);
		if ((q = memchr(p, '"', (size_t)(end - p))) != NULL)
			html_field(fm->root, html_fields[i][1], p,
			    (size_t)(q - p), fm->body_line - 1 +
			    line_of(text, p));
	}
	if (count_keys(fm->root) == before) {
		/* no tags: a fragment, published whole */
		if (!had_fm)
			frontmatter_release(fm);
		return 0;
	}
	/* the body: the lines between the one with <body...> and the one
	 * with </body>, as BSSG's sed takes them */
	for (p = text; p < end; p = next) {
		n = line_len(p, end, &next);
		if (start == NULL) {
			if ((q = find(p, p + n, "<body")) != NULL &&
			    memchr(q, '>', (size_t)(p + n - q)) != NULL) {
				start = next;
				fm->body_line += line_of(text, next) - 1;
			}
		} else if (find(p, p + n, "</body>") != NULL)
			break;
	}
	if (start != NULL) {
		fm->body = start;
		fm->body_len = (size_t)(p - start);
	} else if (!had_fm)
		fm->body_len = 0;	/* BSSG finds no text without <body> */
	return 0;
}

void
frontmatter_release(struct frontmatter *fm)
{
	ynode_free(fm->root);
	fm->root = NULL;
}

const char *
fm_str(const struct frontmatter *fm, const char *key)
{
	return ynode_str(ynode_get(fm->root, key));
}

int
fm_line(const struct frontmatter *fm, const char *key)
{
	const struct ynode *n = ynode_get(fm->root, key);

	return n ? n->line : 0;
}

int
fm_bool(const struct frontmatter *fm, const char *key)
{
	const struct ynode *n = ynode_get(fm->root, key);

	if (n == NULL || ynode_str(n) == NULL)
		return 0;
	return ynode_bool(n);
}

static void
split_tags(const char *s, void (*fn)(const char *, size_t, void *), void *arg)
{
	const char *start, *e;

	while (*s) {
		start = s;
		while (*s && *s != ',')
			s++;
		e = s;
		while (start < e && isspace((unsigned char)*start))
			start++;
		while (e > start && isspace((unsigned char)e[-1]))
			e--;
		if (e > start)
			fn(start, (size_t)(e - start), arg);
		if (*s == ',')
			s++;
	}
}

void
fm_tags(const struct frontmatter *fm, const char *key,
    void (*fn)(const char *, size_t, void *), void *arg)
{
	const struct ynode *n = ynode_get(fm->root, key), *c;
	const char *s;

	if (n == NULL)
		return;
	if (n->kind == YNODE_SCALAR) {
		if ((s = ynode_str(n)) != NULL)
			split_tags(s, fn, arg);
		return;
	}
	if (n->kind != YNODE_SEQ)
		return;
	for (c = n->child; c != NULL; c = c->next)
		if ((s = ynode_str(c)) != NULL)
			split_tags(s, fn, arg);
}

void
fm_write_value(struct buf *out, const char *s)
{
	/* Between double quotes, which BSSG and ssg take off again, any
	 * one-line text reads back as written. */
	buf_addc(out, '"');
	for (; *s != '\0'; s++)
		buf_addc(out, (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' :
		    *s);
	buf_addc(out, '"');
}
