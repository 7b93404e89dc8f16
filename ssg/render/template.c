/*
 * Template sets and rendering. Compiling is in template_compile.c.
 */
#include "template.h"
#include "template_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "mem.h"

/* The template set. */

struct tmpl_set {
	struct tmpl	**slots;	/* open addressing on the name hash */
	size_t		  cap, n;
};

struct tmpl_set *
tmpl_set_new(void)
{
	return xcalloc(1, sizeof(struct tmpl_set));
}

void
tmpl_set_free(struct tmpl_set *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->cap; i++)
		tmpl_free(s->slots[i]);
	free(s->slots);
	free(s);
}

/* The slot holding name, or the empty slot where it would go. */
static size_t
set_slot(const struct tmpl_set *s, const char *name, size_t len, uint32_t hash)
{
	size_t mask = s->cap - 1, i;
	const struct tmpl *t;

	for (i = hash & mask; (t = s->slots[i]) != NULL; i = (i + 1) & mask)
		if (t->hash == hash && t->namelen == len &&
		    memcmp(t->name, name, len) == 0)
			break;
	return i;
}

static const struct tmpl *
set_find(const struct tmpl_set *s, const char *name, size_t len, uint32_t hash)
{
	if (s->cap == 0)
		return NULL;
	return s->slots[set_slot(s, name, len, hash)];
}

int
tmpl_set_add(struct tmpl_set *s, const char *name, const char *src,
    size_t len, struct diag *d)
{
	struct tmpl *t, **old;
	size_t i, ocap;

	if ((t = tmpl_compile(name, src, len, d)) == NULL)
		return -1;
	if (2 * (s->n + 1) > s->cap) {
		old = s->slots;
		ocap = s->cap;
		s->cap = ocap ? 2 * ocap : 16;
		s->slots = xcalloc(s->cap, sizeof(*s->slots));
		for (i = 0; i < ocap; i++)
			if (old[i] != NULL)
				s->slots[set_slot(s, old[i]->name,
				    old[i]->namelen, old[i]->hash)] = old[i];
		free(old);
	}
	i = set_slot(s, t->name, t->namelen, t->hash);
	if (s->slots[i] != NULL)
		tmpl_free(s->slots[i]);
	else
		s->n++;
	s->slots[i] = t;
	return 0;
}

/*
 * Partials that include themselves whatever the data. An inclusion inside
 * a section or an inverted section depends on the data (the spec's
 * recursive partials end where the data ends); one outside any never
 * ends, and is an error here rather than a cut at TMPL_MAX_DEPTH in every
 * page. Parents count as inclusions; their block arguments do not.
 */
struct cycle_walk {
	const struct tmpl_set	*s;
	unsigned char		*color;	/* per slot: 0 new, 1 open, 2 done */
	const char		**chain;	/* names of the open ones */
	size_t			 depth;
	struct diag		*d;
};

static int
node_line(const struct tmpl *t, const struct node *n)
{
	const char *p;
	int line = 1;

	for (p = t->src; p < n->str; p++)
		line += *p == '\n';
	return line;
}

static int
find_cycle(struct cycle_walk *w, size_t slot)
{
	const struct tmpl *t = w->s->slots[slot], *u;
	const struct node *n = t->nodes, *end = n;
	struct buf chain = BUF_INIT;
	size_t us, i;
	int rc = 0;

	if (n != NULL)		/* an empty template has no nodes at all */
		end = n + t->nnodes;

	w->color[slot] = 1;
	w->chain[w->depth++] = t->name;
	while (n < end && rc == 0) {
		if (n->type == N_SECTION || n->type == N_INVERTED) {
			n += 1 + n->span;	/* up to the data */
			continue;
		}
		if ((n->type != N_PARTIAL && n->type != N_PARENT) ||
		    n->dynamic ||
		    (u = set_find(w->s, n->str, n->len,
		    n->hash)) == NULL) {
			n += n->type == N_BLOCK ? 1 : 1 + n->span;
			continue;
		}
		us = set_slot(w->s, n->str, n->len, n->hash);
		if (w->color[us] == 1) {
			for (i = 0; i < w->depth; i++)
				if (w->s->slots[us]->name == w->chain[i])
					break;
			for (; i < w->depth; i++)
				buf_printf(&chain, "%s > ", w->chain[i]);
			buf_adds(&chain, u->name);
			diag_error(w->d, t->name, node_line(t, n), "'%.*s' "
			    "includes itself outside any section (%s): it "
			    "would never end", (int)n->len, n->str, chain.ptr);
			buf_release(&chain);
			rc = -1;
		} else if (w->color[us] == 0)
			rc = find_cycle(w, us);
		n += 1 + n->span;
	}
	w->depth--;
	w->color[slot] = 2;
	return rc;
}

int
tmpl_set_check(const struct tmpl_set *s, struct diag *d)
{
	struct cycle_walk w;
	size_t i;
	int rc = 0;

	w.s = s;
	w.color = xcalloc(s->cap + 1, 1);
	w.chain = xcalloc(s->n + 1, sizeof(*w.chain));
	w.depth = 0;
	w.d = d;
	for (i = 0; i < s->cap; i++)
		if (s->slots[i] != NULL && w.color[i] == 0 &&
		    find_cycle(&w, i) == -1)
			rc = -1;
	free(w.color);
	free(w.chain);
	return rc;
}

int
tmpl_set_has(const struct tmpl_set *s, const char *name)
{
	size_t len = strlen(name);

	return set_find(s, name, len, val_hash(name, len)) != NULL;
}

/* Rendering. Everything below lives on the C stack. */

struct frame {			/* a context pushed by a section */
	const struct val	*v;
	const struct frame	*down;
};

struct indent {			/* indentation, innermost first */
	const char		*s;
	size_t			 n;
	const struct indent	*outer;
};

struct args {			/* block arguments of the parents being expanded */
	const struct node	*parent;
	const struct args	*outer;
};

struct rstate {
	const struct tmpl_set	*set;
	const struct val *const	*base;
	size_t			 nbase;
	struct buf		*out;
	int			 depth;
	unsigned long		 expansions;
	const struct tmpl	*cur;		/* the innermost partial */
	const struct tmpl	*cut_t;		/* where expanding first */
	const struct node	*cut_n;		/* stopped, if it did */
	size_t			 out_start;	/* out's length before */
	int			 too_big;	/* stopped at TMPL_MAX_OUTPUT */
};

/* Whether one more expansion is allowed; counts it if so. */
static int
may_expand(struct rstate *st)
{
	if (st->depth >= TMPL_MAX_DEPTH ||
	    st->expansions >= TMPL_MAX_EXPANSIONS)
		return 0;
	st->expansions++;
	return 1;
}

static void render(struct rstate *, const struct node *, const struct node *,
    const struct frame *, const struct indent *, const struct args *);

static const struct val *
resolve(const struct rstate *st, const struct frame *top,
    const struct part *p, size_t n)
{
	const struct val *v = NULL;
	const struct frame *f;
	size_t i;

	if (n == 0) {
		if (top != NULL)
			return top->v;
		return st->nbase > 0 ? st->base[st->nbase - 1] : NULL;
	}
	for (f = top; f != NULL; f = f->down)
		if ((v = val_getn(f->v, p->s, p->len, p->hash)) != NULL)
			goto found;
	for (i = st->nbase; i-- > 0;)
		if ((v = val_getn(st->base[i], p->s, p->len, p->hash)) != NULL)
			goto found;
	return NULL;
found:
	for (i = 1; i < n && v != NULL; i++)
		v = val_getn(v, p[i].s, p[i].len, p[i].hash);
	return v;
}

static void
put_indent(struct buf *out, const struct indent *ind)
{
	if (ind == NULL)
		return;
	put_indent(out, ind->outer);
	buf_add(out, ind->s, ind->n);
}

static void
put_text(struct buf *out, const struct node *n, const struct indent *ind)
{
	const char *s = n->str, *e = n->str + n->len, *nl;

	if (ind == NULL) {
		buf_add(out, s, n->len);
		return;
	}
	if (n->bol)
		put_indent(out, ind);
	while ((nl = memchr(s, '\n', (size_t)(e - s))) != NULL && nl + 1 < e) {
		buf_add(out, s, (size_t)(nl + 1 - s));
		put_indent(out, ind);
		s = nl + 1;
	}
	buf_add(out, s, (size_t)(e - s));
}

/* The indentation inside a partial, parent or block expanded at n. */
static const struct indent *
inner_indent(const struct node *n, const struct indent *ind,
    struct indent *link)
{
	if (!n->standalone)
		return NULL;
	if (n->indlen == 0)
		return ind;
	link->s = n->ind;
	link->n = n->indlen;
	link->outer = ind;
	return link;
}

static void
render_include(struct rstate *st, const struct node *n,
    const struct frame *top, const struct indent *ind, const struct args *args)
{
	const struct tmpl *cur;
	const struct tmpl *t;
	const struct val *v;
	const char *name = n->str;
	size_t len = n->len;
	uint32_t hash = n->hash;
	struct indent link;
	struct args a;

	if (n->dynamic) {
		v = resolve(st, top, n->parts, n->nparts);
		if (val_kind(v) != VAL_STR && val_kind(v) != VAL_NUM)
			return;
		name = val_text(v, &len);
		hash = val_hash(name, len);
	}
	if ((t = set_find(st->set, name, len, hash)) == NULL ||
	    t->nnodes == 0)
		return;
	if (!may_expand(st)) {
		if (st->cut_n == NULL) {
			st->cut_t = st->cur;
			st->cut_n = n;
		}
		return;
	}
	/* A partial is a parent without arguments: outer ones still apply. */
	if (n->type == N_PARENT) {
		a.parent = n;
		a.outer = args;
		args = &a;
	}
	st->depth++;
	cur = st->cur;
	st->cur = t;
	render(st, t->nodes, t->nodes + t->nnodes, top,
	    inner_indent(n, ind, &link), args);
	st->cur = cur;
	st->depth--;
}

static void
render_block(struct rstate *st, const struct node *n,
    const struct frame *top, const struct indent *ind, const struct args *args)
{
	const struct node *over = NULL, *b, *e;
	const struct args *a;
	struct indent link;

	/* The outermost argument wins: the page overrides its layouts. */
	for (a = args; a != NULL; a = a->outer) {
		e = a->parent + 1 + a->parent->span;
		for (b = a->parent + 1; b < e; b += 1 + b->span)
			if (b->type == N_BLOCK && b->len == n->len &&
			    b->hash == n->hash &&
			    memcmp(b->str, n->str, n->len) == 0) {
				over = b;
				break;
			}
	}
	if (over == NULL) {
		render(st, n + 1, n + 1 + n->span, top,
		    n->standalone ? inner_indent(n, ind, &link) : ind, args);
		return;
	}
	if (!may_expand(st)) {
		if (st->cut_n == NULL) {
			st->cut_t = st->cur;
			st->cut_n = n;
		}
		return;
	}
	st->depth++;
	render(st, over + 1, over + 1 + over->span, top,
	    inner_indent(n, ind, &link), args);
	st->depth--;
}

static void
render(struct rstate *st, const struct node *n, const struct node *end,
    const struct frame *top, const struct indent *ind, const struct args *args)
{
	const struct val *v;
	const char *s;
	struct frame f;
	size_t len, i, cnt;

	for (; n < end; n += 1 + n->span) {
		if (st->out->len - st->out_start > TMPL_MAX_OUTPUT) {
			/* The reason to give, over an earlier cut. */
			if (!st->too_big) {
				st->cut_t = st->cur;
				st->cut_n = n;
				st->too_big = 1;
			}
			return;
		}
		switch (n->type) {
		case N_TEXT:
			put_text(st->out, n, ind);
			break;
		case N_VAR:
		case N_RAW:
			v = resolve(st, top, n->parts, n->nparts);
			s = val_text(v, &len);
			if (n->type == N_VAR)
				esc_html(st->out, s, len);
			else
				buf_add(st->out, s, len);
			break;
		case N_SECTION:
			v = resolve(st, top, n->parts, n->nparts);
			if (!val_truthy(v))
				break;
			f.down = top;
			if (val_kind(v) != VAL_LIST) {
				f.v = v;
				render(st, n + 1, n + 1 + n->span, &f, ind, args);
				break;
			}
			cnt = val_len(v);
			for (i = 0; i < cnt; i++) {
				f.v = val_at(v, i);
				render(st, n + 1, n + 1 + n->span, &f, ind, args);
			}
			break;
		case N_INVERTED:
			v = resolve(st, top, n->parts, n->nparts);
			if (!val_truthy(v))
				render(st, n + 1, n + 1 + n->span, top, ind, args);
			break;
		case N_PARTIAL:
		case N_PARENT:
			render_include(st, n, top, ind, args);
			break;
		case N_BLOCK:
			render_block(st, n, top, ind, args);
			break;
		}
	}
}

int
tmpl_render(const struct tmpl_set *s, const char *name,
    const struct val *const *ctx, size_t n, struct buf *out)
{
	return tmpl_render_err(s, name, ctx, n, out, NULL);
}

int
tmpl_render_err(const struct tmpl_set *s, const char *name,
    const struct val *const *ctx, size_t n, struct buf *out, struct buf *err)
{
	const struct tmpl *t;
	struct rstate st;
	size_t len = strlen(name);

	if ((t = set_find(s, name, len, val_hash(name, len))) == NULL)
		return -1;
	st.set = s;
	st.base = ctx;
	st.nbase = ctx != NULL ? n : 0;
	st.out = out;
	st.depth = 0;
	st.expansions = 0;
	st.cur = t;
	st.cut_t = NULL;
	st.cut_n = NULL;
	st.out_start = out->len;
	st.too_big = 0;
	if (t->nnodes > 0)
		render(&st, t->nodes, t->nodes + t->nnodes, NULL, NULL, NULL);
	if (st.cut_n == NULL)
		return 0;
	if (err != NULL) {
		const struct tmpl *c = st.cut_t;

		/* a block's node may belong to another template */
		if (c != NULL && st.cut_n->str >= c->src &&
		    st.cut_n->str < c->src + strlen(c->src))
			buf_printf(err, "%s:%d: ", c->name,
			    node_line(c, st.cut_n));
		if (st.too_big)
			buf_printf(err, "the page grows past %u MB here (does "
			    "a partial include itself, or do sections nest "
			    "over long lists?): rendering stopped there",
			    TMPL_MAX_OUTPUT >> 20);
		else
			buf_printf(err, "'%.*s' is included more than %d deep "
			    "or more than %d times (does it include itself?): "
			    "rendering stopped there", (int)st.cut_n->len,
			    st.cut_n->str, TMPL_MAX_DEPTH,
			    TMPL_MAX_EXPANSIONS);
	}
	return 1;
}
