#include "gemtext.h"

#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>

#include "buf.h"
#include "markdown.h"
#include "mem.h"

struct gem {
	struct buf	*out;
	struct buf	 links;		/* "=> " lines of the block being made */
	struct buf	 notes;		/* footnotes, for the end */
	int		 nnote;
};

void
gemtext_url(struct buf *out, const char *url)
{
	size_t n = strlen(url);

	buf_adds(out, url);
	/* a page of the site: its capsule page */
	if (url[0] == '/' && url[1] != '/' && n > 0 && url[n - 1] == '/')
		buf_adds(out, "index.gmi");
}

/* "=> URL text" for the links list; text may be empty. */
static void
add_link(struct gem *g, const char *url, const char *text)
{
	if (url == NULL || *url == '\0')
		return;
	buf_adds(&g->links, "=> ");
	gemtext_url(&g->links, url);
	if (text != NULL && *text != '\0') {
		buf_addc(&g->links, ' ');
		buf_adds(&g->links, text);
	}
	buf_addc(&g->links, '\n');
}

/* The text of the inline content of n, on one line; links and images go
 * to g->links. */
static void
inlines(cmark_node *n, struct gem *g, struct buf *t)
{
	cmark_node *c;
	const char *lit;
	struct buf sub = BUF_INIT;

	for (c = cmark_node_first_child(n); c != NULL;
	    c = cmark_node_next(c)) {
		switch (cmark_node_get_type(c)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			if ((lit = cmark_node_get_literal(c)) != NULL)
				buf_adds(t, lit);
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			buf_addc(t, ' ');
			break;
		case CMARK_NODE_HTML_INLINE:
			break;	/* tags: the text between them stays */
		case CMARK_NODE_LINK:
			buf_clear(&sub);
			inlines(c, g, &sub);
			buf_add(t, sub.ptr, sub.len);
			add_link(g, cmark_node_get_url(c), sub.ptr);
			break;
		case CMARK_NODE_IMAGE:
			buf_clear(&sub);
			inlines(c, g, &sub);
			add_link(g, cmark_node_get_url(c), sub.ptr);
			break;
		case CMARK_NODE_FOOTNOTE_REFERENCE:
			if ((lit = cmark_node_get_literal(c)) != NULL)
				buf_printf(t, "[%s]", lit);
			break;
		default:
			inlines(c, g, t);
			break;
		}
	}
	buf_release(&sub);
}

/* Ends a block: its line(s) were written; then its links. */
static void
flush_links(struct gem *g)
{
	buf_add(g->out, g->links.ptr, g->links.len);
	buf_clear(&g->links);
}

static void blocks(cmark_node *parent, struct gem *g, const char *prefix);

/* The text of every paragraph under n, joined, on one line. */
static void
block_text(cmark_node *n, struct gem *g, struct buf *t)
{
	cmark_node *c;

	for (c = cmark_node_first_child(n); c != NULL;
	    c = cmark_node_next(c)) {
		if (cmark_node_get_type(c) == CMARK_NODE_LIST)
			continue;	/* nested lists follow as items */
		if (t->len > 0)
			buf_addc(t, ' ');
		if (cmark_node_get_type(c) == CMARK_NODE_PARAGRAPH ||
		    cmark_node_get_type(c) == CMARK_NODE_HEADING)
			inlines(c, g, t);
		else
			block_text(c, g, t);
	}
}

static void
list(cmark_node *n, struct gem *g)
{
	cmark_node *item, *c;
	struct buf t = BUF_INIT;
	int num = cmark_node_get_list_start(n);
	int ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;

	for (item = cmark_node_first_child(n); item != NULL;
	    item = cmark_node_next(item)) {
		buf_clear(&t);
		block_text(item, g, &t);
		if (ordered)
			buf_printf(g->out, "* %d. %s\n", num++, t.ptr);
		else
			buf_printf(g->out, "* %s\n", t.ptr);
		for (c = cmark_node_first_child(item); c != NULL;
		    c = cmark_node_next(c))
			if (cmark_node_get_type(c) == CMARK_NODE_LIST)
				list(c, g);
	}
	buf_release(&t);
}

/* A table as a preformatted block, columns padded to their widest cell
 * (in characters, not bytes). */
static void
table(cmark_node *n, struct gem *g)
{
	cmark_node *row, *cell;
	struct buf t = BUF_INIT;
	char **cells = NULL;
	size_t *width = NULL, nrows = 0, ncols = 0, ncells = 0, cap = 0;
	size_t r, k, i, len, col;

	for (row = cmark_node_first_child(n); row; row = cmark_node_next(row)) {
		col = 0;
		for (cell = cmark_node_first_child(row); cell;
		    cell = cmark_node_next(cell), col++) {
			buf_clear(&t);
			inlines(cell, g, &t);
			xgrow((void **)&cells, &cap, ncells + 1, sizeof(*cells));
			cells[ncells++] = xstrdup(t.ptr);
		}
		if (col > ncols)
			ncols = col;
		nrows++;
		/* short rows are padded with empty cells */
		while (ncells < nrows * ncols) {
			xgrow((void **)&cells, &cap, ncells + 1, sizeof(*cells));
			cells[ncells++] = xstrdup("");
		}
	}
	width = xcalloc(ncols + 1, sizeof(*width));
	for (k = 0; k < ncells && ncols > 0; k++) {
		for (i = len = 0; cells[k][i]; i++)
			len += ((unsigned char)cells[k][i] & 0xc0) != 0x80;
		if (len > width[k % ncols])
			width[k % ncols] = len;
	}
	buf_adds(g->out, "```\n");
	for (r = 0; r < nrows; r++) {
		for (col = 0; col < ncols; col++) {
			const char *s = cells[r * ncols + col];

			for (i = len = 0; s[i]; i++)
				len += ((unsigned char)s[i] & 0xc0) != 0x80;
			buf_adds(g->out, s);
			if (col + 1 < ncols)
				for (; len < width[col] + 2; len++)
					buf_addc(g->out, ' ');
		}
		while (g->out->len > 0 && g->out->ptr[g->out->len - 1] == ' ')
			buf_truncate(g->out, g->out->len - 1);
		buf_addc(g->out, '\n');
	}
	buf_adds(g->out, "```\n");
	for (k = 0; k < ncells; k++)
		free(cells[k]);
	free(cells);
	free(width);
	buf_release(&t);
}

static void
block(cmark_node *n, struct gem *g, const char *prefix)
{
	struct buf t = BUF_INIT;
	const char *lit, *info, *type;
	int level;
	size_t len;

	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_PARAGRAPH:
		inlines(n, g, &t);
		if (t.len > 0)	/* an image alone is its link only */
			buf_printf(g->out, "%s%s\n", prefix, t.ptr);
		break;
	case CMARK_NODE_HEADING:
		level = cmark_node_get_heading_level(n);
		inlines(n, g, &t);
		/* "%.*s" of "###": deeper levels stay ### */
		buf_printf(g->out, "%.*s %s\n", level, "###", t.ptr);
		break;
	case CMARK_NODE_CODE_BLOCK:
		lit = cmark_node_get_literal(n);
		info = cmark_node_get_fence_info(n);
		len = info ? strcspn(info, " \t") : 0;
		buf_printf(g->out, "```%.*s\n%s", (int)len, info ? info : "",
		    lit ? lit : "");
		if (g->out->len > 0 && g->out->ptr[g->out->len - 1] != '\n')
			buf_addc(g->out, '\n');
		buf_adds(g->out, "```\n");
		break;
	case CMARK_NODE_HTML_BLOCK:
		if ((lit = cmark_node_get_literal(n)) != NULL)
			markdown_html_text(lit, strlen(lit), &t);
		while (t.len > 0 && strchr(" \t\n", t.ptr[t.len - 1]))
			buf_truncate(&t, t.len - 1);
		if (t.len > 0)
			buf_printf(g->out, "%s%s\n", prefix, t.ptr +
			    strspn(t.ptr, " \t\n"));
		break;
	case CMARK_NODE_BLOCK_QUOTE:
		blocks(n, g, "> ");
		buf_release(&t);
		return;
	case CMARK_NODE_LIST:
		list(n, g);
		break;
	case CMARK_NODE_THEMATIC_BREAK:
		break;
	case CMARK_NODE_FOOTNOTE_DEFINITION:
		/* numbered at the end, in the order they are defined */
		block_text(n, g, &t);
		buf_printf(&g->notes, "[%d] %s\n", ++g->nnote, t.ptr);
		buf_release(&t);
		return;
	default:
		type = cmark_node_get_type_string(n);
		if (type != NULL && strcmp(type, "table") == 0)
			table(n, g);
		else
			blocks(n, g, prefix);
		buf_release(&t);
		return;
	}
	flush_links(g);
	buf_addc(g->out, '\n');
	buf_release(&t);
}

static void
blocks(cmark_node *parent, struct gem *g, const char *prefix)
{
	cmark_node *c;

	for (c = cmark_node_first_child(parent); c != NULL;
	    c = cmark_node_next(c))
		block(c, g, prefix);
}

/* One blank line at the end at most. */
static void
trim_end(struct buf *out)
{
	while (out->len > 1 && out->ptr[out->len - 1] == '\n' &&
	    out->ptr[out->len - 2] == '\n')
		buf_truncate(out, out->len - 1);
}

static void
convert(void *doc, void *arg)
{
	struct gem *g = arg;

	blocks(doc, g, "");
	if (g->notes.len > 0) {
		buf_add(g->out, g->notes.ptr, g->notes.len);
		flush_links(g);
	}
	trim_end(g->out);
}

void
gemtext_from_doc(void *doc, void *out)
{
	struct gem g;

	g.out = out;
	g.nnote = 0;
	buf_init(&g.links);
	buf_init(&g.notes);
	convert(doc, &g);
	buf_release(&g.links);
	buf_release(&g.notes);
}

void
gemtext_append(struct buf *out, const char *gem, size_t n)
{
	buf_add(out, gem, n);
	trim_end(out);
}

int
gemtext_from_markdown(const char *src, size_t n, int smart, struct buf *out)
{
	struct gem g;
	int rc;

	g.out = out;
	g.nnote = 0;
	buf_init(&g.links);
	buf_init(&g.notes);
	rc = markdown_with_doc(src, n, smart, convert, &g);
	buf_release(&g.links);
	buf_release(&g.notes);
	return rc;
}
