#include "template.h"
#include "template_int.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

/*
 * Compiling (rendering is in template.c): the source is cut into tokens
 * (text and tags, following set delimiter tags as they come), sections
 * are matched, standalone lines are marked, and the tokens become a flat
 * array of nodes in document order: a node's descendants follow it, and
 * span says how many there are, so rendering walks arrays and never
 * allocates.
 *
 * Indentation (of standalone partials, parents and blocks) is applied when
 * rendering: a text node knows whether it starts a line of the source, and
 * the renderer prepends the indentation in force there and after each
 * newline inside it. Block content is dedented when compiled and indented
 * again where the block is expanded.
 */

#define MAX_NEST	100	/* deepest section nesting accepted */
#define NPOS		((size_t)-1)

struct tok {
	char		 type;	/* 0: text; 'v', '&', '#', '^', '/', '!', '>', '<', '$', '=' */
	char		 dyn;	/* '>', '<', '/': the name followed a '*' */
	char		 sa;	/* standalone */
	size_t		 a, b;	/* the text, or the whole tag */
	size_t		 rs, re;	/* what the tag removes from the output */
	size_t		 ls;	/* start of the tag's line, when sa */
	const char	*name;
	size_t		 nlen;
	int		 line;
	size_t		 match;	/* the other end of a section */
};

struct comp {
	const char	*name;
	const char	*src;
	size_t		 len;
	struct diag	*d;
	struct tok	*toks;
	size_t		 ntok, tcap;
	struct node	*nodes;
	size_t		 nnodes, ncap;
	struct part	*parts;
	size_t		 nparts, pcap;
	char		*text;	/* len + 1 bytes: text only ever shrinks */
	size_t		 tlen;
};

static void
comp_error(struct comp *c, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
comp_error(struct comp *c, int line, const char *fmt, ...)
{
	va_list ap;

	if (c->d == NULL)
		return;
	va_start(ap, fmt);
	diag_vadd(c->d, DIAG_ERROR, c->name, line, fmt, ap);
	va_end(ap);
}

static int
is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static int
is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

static size_t
find(const char *s, size_t len, size_t from, const char *needle, size_t nlen)
{
	const char *p, *end = s + len;

	if (from > len || nlen == 0 || nlen > len - from)
		return NPOS;
	for (p = s + from; (size_t)(end - p) >= nlen; p++) {
		p = memchr(p, needle[0], (size_t)(end - p) - nlen + 1);
		if (p == NULL)
			return NPOS;
		if (memcmp(p, needle, nlen) == 0)
			return (size_t)(p - s);
	}
	return NPOS;
}

/* The closing delimiter right after the character ch ("}" or "="). */
static size_t
find_after(const char *s, size_t len, size_t from, char ch, const char *ctag,
    size_t clen)
{
	size_t e = from;

	while ((e = find(s, len, e, ctag, clen)) != NPOS) {
		if (e > from && s[e - 1] == ch)
			return e - 1;
		e++;
	}
	return NPOS;
}

static void
trim(const char *s, size_t *start, size_t *end)
{
	while (*start < *end && is_ws(s[*start]))
		(*start)++;
	while (*end > *start && is_ws(s[*end - 1]))
		(*end)--;
}

static int
has_ws(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (is_ws(s[i]))
			return 1;
	return 0;
}

/* "." or non-empty parts separated by dots. */
static int
valid_dotted(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || has_ws(s, n))
		return 0;
	if (n == 1 && s[0] == '.')
		return 1;
	if (s[0] == '.' || s[n - 1] == '.')
		return 0;
	for (i = 1; i < n; i++)
		if (s[i] == '.' && s[i - 1] == '.')
			return 0;
	return 1;
}

static struct tok *
add_tok(struct comp *c, char type, size_t a, size_t b, int line)
{
	struct tok *t;

	xgrow((void **)&c->toks, &c->tcap, c->ntok + 1, sizeof(*c->toks));
	t = &c->toks[c->ntok++];
	memset(t, 0, sizeof(*t));
	t->type = type;
	t->a = t->rs = a;
	t->b = t->re = b;
	t->line = line;
	return t;
}

/* Checks and stores the name of tag t, the text in [ns, ne). */
static int
tag_name(struct comp *c, struct tok *t, size_t ns, size_t ne)
{
	const char *src = c->src;
	int ok;

	trim(src, &ns, &ne);
	if ((t->type == '>' || t->type == '<' || t->type == '/') &&
	    ns < ne && src[ns] == '*') {
		t->dyn = 1;
		ns++;
		trim(src, &ns, &ne);
	}
	t->name = src + ns;
	t->nlen = ne - ns;
	switch (t->type) {
	case '!':
		return 0;
	case 'v':
	case '&':
	case '#':
	case '^':
		ok = valid_dotted(t->name, t->nlen);
		break;
	default:
		ok = t->dyn ? valid_dotted(t->name, t->nlen) :
		    t->nlen > 0 && !has_ws(t->name, t->nlen);
		break;
	}
	if (!ok) {
		if (t->nlen == 0)
			comp_error(c, t->line, "empty tag");
		else
			comp_error(c, t->line, "invalid name '%.*s' in tag",
			    (int)t->nlen, t->name);
		return -1;
	}
	return 0;
}

static int
tokenize(struct comp *c)
{
	const char *src = c->src, *otag = "{{", *ctag = "}}";
	size_t len = c->len, olen = 2, clen = 2, pos = 0, lpos = 0;
	size_t p, q, e, ns, ne, end, w;
	struct tok *t;
	int line = 1, rc = 0;
	char type;

	while (pos < len) {
		if ((p = find(src, len, pos, otag, olen)) == NPOS) {
			add_tok(c, 0, pos, len, line);
			break;
		}
		if (p > pos)
			add_tok(c, 0, pos, p, line);
		for (; lpos < p; lpos++)
			if (src[lpos] == '\n')
				line++;
		q = p + olen;
		type = q < len ? src[q] : 0;
		switch (type) {
		case '{':
		case '=':
			e = find_after(src, len, q + 1, type == '{' ? '}' : '=',
			    ctag, clen);
			ns = q + 1;
			end = e == NPOS ? NPOS : e + 1 + clen;
			if (type == '{')
				type = '&';
			break;
		case '&': case '#': case '^': case '/': case '!': case '>':
		case '<': case '$':
			e = find(src, len, q + 1, ctag, clen);
			ns = q + 1;
			end = e == NPOS ? NPOS : e + clen;
			break;
		default:
			e = find(src, len, q, ctag, clen);
			ns = q;
			end = e == NPOS ? NPOS : e + clen;
			type = 'v';
			break;
		}
		if (e == NPOS || e < ns) {
			comp_error(c, line, "unclosed tag: '%.*s' without '%.*s'",
			    (int)olen, otag, (int)clen, ctag);
			return -1;
		}
		t = add_tok(c, type, p, end, line);
		if (type == '=') {
			ne = e;
			trim(src, &ns, &ne);
			for (w = ns; w < ne && !is_ws(src[w]); w++)
				continue;
			if (w == ns || w == ne) {
				comp_error(c, line, "invalid set-delimiter tag: "
				    "two delimiters expected");
				return -1;
			}
			otag = src + ns;
			olen = w - ns;
			while (is_ws(src[w]))
				w++;
			if (has_ws(src + w, ne - w)) {
				comp_error(c, line, "invalid set-delimiter tag: "
				    "two delimiters expected");
				return -1;
			}
			ctag = src + w;
			clen = ne - w;
		} else if (tag_name(c, t, ns, e) == -1)
			rc = -1;	/* go on: report every bad name */
		pos = end;
	}
	return rc;
}

static int
same_name(const struct tok *a, const struct tok *b)
{
	return a->dyn == b->dyn && a->nlen == b->nlen &&
	    memcmp(a->name, b->name, a->nlen) == 0;
}

static int
match_sections(struct comp *c)
{
	size_t stack[MAX_NEST], sp = 0, i, o;
	struct tok *t;

	for (i = 0; i < c->ntok; i++) {
		t = &c->toks[i];
		switch (t->type) {
		case '#':
		case '^':
		case '<':
		case '$':
			if (sp == MAX_NEST) {
				comp_error(c, t->line, "sections nested more "
				    "than %d deep", MAX_NEST);
				return -1;
			}
			stack[sp++] = i;
			break;
		case '/':
			if (sp == 0) {
				comp_error(c, t->line, "closing tag '%s%.*s' "
				    "without an open section", t->dyn ? "*" : "",
				    (int)t->nlen, t->name);
				return -1;
			}
			o = stack[--sp];
			if (!same_name(&c->toks[o], t)) {
				comp_error(c, t->line, "closing tag '%s%.*s' "
				    "does not match '%s%.*s' opened on line %d",
				    t->dyn ? "*" : "", (int)t->nlen, t->name,
				    c->toks[o].dyn ? "*" : "",
				    (int)c->toks[o].nlen, c->toks[o].name,
				    c->toks[o].line);
				return -1;
			}
			c->toks[o].match = i;
			t->match = o;
			break;
		}
	}
	if (sp == 0)
		return 0;
	while (sp > 0) {
		t = &c->toks[stack[--sp]];
		comp_error(c, t->line, "section '%s%.*s' is never closed",
		    t->dyn ? "*" : "", (int)t->nlen, t->name);
	}
	return -1;
}

/* Start of the line holding pos if only blanks precede pos on it. */
static size_t
blank_before(const struct comp *c, size_t pos)
{
	while (pos > 0 && is_blank(c->src[pos - 1]))
		pos--;
	return pos == 0 || c->src[pos - 1] == '\n' ? pos : NPOS;
}

/* Where the line ending that follows pos and blanks is (*eol) and where
 * the next line starts (returned); NPOS if something else comes first. */
static size_t
blank_after(const struct comp *c, size_t pos, size_t *eol)
{
	while (pos < c->len && is_blank(c->src[pos]))
		pos++;
	*eol = pos;
	if (pos == c->len)
		return pos;
	if (c->src[pos] == '\n')
		return pos + 1;
	if (c->src[pos] == '\r' && pos + 1 < c->len && c->src[pos + 1] == '\n')
		return pos + 2;
	return NPOS;
}

static int
closes(const struct comp *c, const struct tok *t, char type)
{
	return t->type == '/' && c->toks[t->match].type == type;
}

/*
 * Marks standalone tags: alone on their line but for blanks, the whole line
 * goes. Inheritance tags may also pair up on one line: {{<p}}{{/p}},
 * {{<p}}{{$b}}, {{/b}}{{/p}} act as one standalone tag, and an empty block
 * {{$b}}{{/b}} loses its indentation but keeps its line ending.
 */
static void
mark_standalone(struct comp *c)
{
	struct tok *t, *u;
	size_t i, ls, le, eol;

	for (i = 0; i < c->ntok; i++) {
		t = &c->toks[i];
		if (t->type == 0 || strchr("#^/!><$=", t->type) == NULL)
			continue;
		if ((ls = blank_before(c, t->a)) == NPOS ||
		    (le = blank_after(c, t->b, &eol)) == NPOS)
			continue;
		t->sa = 1;
		t->ls = t->rs = ls;
		t->re = le;
	}
	for (i = 0; i + 1 < c->ntok; i++) {
		t = &c->toks[i];
		u = &c->toks[i + 1];
		if (t->type == 0 || u->type == 0 || t->b != u->a ||
		    t->sa || u->sa)
			continue;
		if (!((t->type == '<' && (t->match == i + 1 || u->type == '$')) ||
		    (closes(c, t, '$') && closes(c, u, '<')) ||
		    (t->type == '$' && t->match == i + 1)))
			continue;
		if ((ls = blank_before(c, t->a)) == NPOS ||
		    (le = blank_after(c, u->b, &eol)) == NPOS)
			continue;
		t->sa = u->sa = 1;
		t->ls = t->rs = ls;
		u->ls = u->a;	/* its line's indentation is t's */
		u->re = t->type == '$' ? eol : le;
		i++;
	}
	/* Text next to a standalone tag loses what the tag removes. */
	for (i = 0; i < c->ntok; i++) {
		t = &c->toks[i];
		if (t->type == 0)
			continue;
		if (i > 0 && c->toks[i - 1].type == 0 && t->rs < t->a)
			c->toks[i - 1].b = t->rs;
		if (i + 1 < c->ntok && c->toks[i + 1].type == 0 && t->re > t->b)
			c->toks[i + 1].a = t->re;
	}
}

static struct node *
add_node(struct comp *c, enum ntype type)
{
	struct node *n;

	xgrow((void **)&c->nodes, &c->ncap, c->nnodes + 1, sizeof(*c->nodes));
	n = &c->nodes[c->nnodes++];
	memset(n, 0, sizeof(*n));
	n->type = type;
	return n;
}

static int
line_start(const struct comp *c, size_t pos)
{
	return pos == 0 || c->src[pos - 1] == '\n';
}

/* An empty text node where a line starts with a tag that stays: the
 * indentation of that line goes there. */
static void
mark_line(struct comp *c, const struct tok *t)
{
	struct node *n;

	if (!t->sa && line_start(c, t->a)) {
		n = add_node(c, N_TEXT);
		n->bol = 1;
		n->str = c->text + c->tlen;
	}
}

/* Text [a, b), with up to strip blanks removed at the start of each line. */
static void
add_text(struct comp *c, size_t a, size_t b, size_t strip)
{
	struct node *n;
	size_t p, k, start = c->tlen;

	if (a >= b)
		return;
	for (p = a; p < b;) {
		if (strip > 0 && line_start(c, p)) {
			for (k = 0; k < strip && p < b && is_blank(c->src[p]); k++)
				p++;
			if (p == b)
				break;
		}
		c->text[c->tlen++] = c->src[p++];
	}
	if (c->tlen == start && !line_start(c, a))
		return;
	n = add_node(c, N_TEXT);
	n->bol = line_start(c, a);
	n->str = c->text + start;
	n->len = c->tlen - start;
}

/* Splits the dotted name of t into parts for n. */
static void
add_parts(struct comp *c, struct node *n, const struct tok *t)
{
	struct part *p;
	size_t i = 0, j;

	n->pidx = c->nparts;
	n->nparts = 0;
	if (t->nlen == 1 && t->name[0] == '.')
		return;
	while (i <= t->nlen) {
		for (j = i; j < t->nlen && t->name[j] != '.'; j++)
			continue;
		xgrow((void **)&c->parts, &c->pcap, c->nparts + 1,
		    sizeof(*c->parts));
		p = &c->parts[c->nparts++];
		p->s = t->name + i;
		p->len = j - i;
		p->hash = val_hash(p->s, p->len);
		n->nparts++;
		i = j + 1;
	}
}

/* The common leading blanks of the non-blank lines in [cs, ce). */
static int
dedent_prefix(const struct comp *c, size_t cs, size_t ce, size_t *start,
    size_t *plen)
{
	const char *src = c->src;
	const char *nl;
	size_t p = cs, w, k;
	int found = 0;

	while (p < ce) {
		for (w = p; w < ce && is_blank(src[w]); w++)
			continue;
		if (w < ce && src[w] != '\n' &&
		    !(src[w] == '\r' && w + 1 < ce && src[w + 1] == '\n')) {
			if (!found) {
				*start = p;
				*plen = w - p;
				found = 1;
			} else {
				for (k = 0; k < *plen && k < w - p &&
				    src[p + k] == src[*start + k]; k++)
					continue;
				*plen = k;
			}
		}
		if ((nl = memchr(src + w, '\n', ce - w)) == NULL)
			break;
		p = (size_t)(nl - src) + 1;
	}
	return found;
}

/* The blanks before a standalone tag, less what dedenting strips. */
static void
set_indent(const struct comp *c, struct node *n, const struct tok *t,
    size_t strip)
{
	size_t w = t->a - t->ls;

	if (strip > w)
		strip = w;
	n->ind = c->src + t->ls + strip;
	n->indlen = w - strip;
}

/* Builds the nodes of tokens [i, end), whose lines lose strip blanks. */
static void
build(struct comp *c, size_t i, size_t end, size_t strip)
{
	const struct tok *t, *close;
	struct node *n;
	size_t idx, s, ps = 0, pl = 0;

	while (i < end) {
		t = &c->toks[i];
		switch (t->type) {
		case 0:
			add_text(c, t->a, t->b, strip);
			i++;
			continue;
		case '!':
		case '=':
		case '/':	/* never reached: sections skip their close */
			mark_line(c, t);
			i++;
			continue;
		}
		mark_line(c, t);
		idx = c->nnodes;
		n = add_node(c, N_VAR);
		s = strip;
		switch (t->type) {
		case 'v':
		case '&':
			n->type = t->type == 'v' ? N_VAR : N_RAW;
			add_parts(c, n, t);
			i++;
			continue;
		case '#':
		case '^':
			n->type = t->type == '#' ? N_SECTION : N_INVERTED;
			add_parts(c, n, t);
			break;
		case '>':
		case '<':
			n->type = t->type == '>' ? N_PARTIAL : N_PARENT;
			n->standalone = t->sa;
			n->dynamic = t->dyn;
			if (t->sa)
				set_indent(c, n, t, strip);
			if (t->dyn)
				add_parts(c, n, t);
			n->str = t->name;
			n->len = t->nlen;
			n->hash = val_hash(t->name, t->nlen);
			if (t->type == '>') {
				i++;
				continue;
			}
			break;
		case '$':
			n->type = N_BLOCK;
			n->str = t->name;
			n->len = t->nlen;
			n->hash = val_hash(t->name, t->nlen);
			n->standalone = t->sa;
			if (!t->sa)
				break;
			close = &c->toks[t->match];
			if (dedent_prefix(c, t->re, close->rs, &ps, &pl)) {
				if (pl < strip)
					pl = strip;
				n->ind = c->src + ps + strip;
				n->indlen = pl - strip;
				s = pl;
			} else
				set_indent(c, n, t, strip);
			break;
		}
		build(c, i + 1, t->match, s);
		mark_line(c, &c->toks[t->match]);
		c->nodes[idx].span = c->nnodes - idx - 1;
		i = t->match + 1;
	}
}

void
tmpl_free(struct tmpl *t)
{
	if (t == NULL)
		return;
	free(t->name);
	free(t->src);
	free(t->text);
	free(t->parts);
	free(t->nodes);
	free(t);
}

struct tmpl *
tmpl_compile(const char *name, const char *src, size_t len, struct diag *d)
{
	struct comp c;
	struct tmpl *t;
	char *copy;
	size_t i;

	copy = xmalloc(len + 1);
	if (len)
		memcpy(copy, src, len);
	copy[len] = '\0';
	memset(&c, 0, sizeof(c));
	c.name = name;
	c.src = copy;
	c.len = len;
	c.d = d;
	if (tokenize(&c) == -1 || match_sections(&c) == -1) {
		free(c.toks);
		free(copy);
		return NULL;
	}
	mark_standalone(&c);
	c.text = xmalloc(len + 1);
	build(&c, 0, c.ntok, 0);
	free(c.toks);
	for (i = 0; i < c.nnodes; i++)
		if (c.nodes[i].nparts > 0)
			c.nodes[i].parts = c.parts + c.nodes[i].pidx;
	t = xcalloc(1, sizeof(*t));
	t->name = xstrdup(name);
	t->namelen = strlen(name);
	t->hash = val_hash(name, t->namelen);
	t->src = copy;
	t->text = c.text;
	t->parts = c.parts;
	t->nodes = c.nodes;
	t->nnodes = c.nnodes;
	return t;
}
