#ifndef SSG_MARKDOWN_H
#define SSG_MARKDOWN_H

#include <stddef.h>

#include "buf.h"

struct highlight;

/*
 * Markdown to HTML with cmark-gfm and its extensions (tables,
 * strikethrough, autolink, tasklist, footnotes). Raw HTML passes through,
 * as BSSG does, unless the raw_html setting says otherwise. Every heading gets an id (its slug, made unique with -1,
 * -2 ...) so it can be linked as #anchor.
 */

/* Registers the extensions; call once before any thread renders. */
void	markdown_init(void);

/* What becomes of HTML written in Markdown (the raw_html setting). */
enum md_raw_html {
	MD_RAW_KEEP,		/* published as written, as BSSG does */
	MD_RAW_FILTER,		/* GFM's tag filter: <script>, <iframe>,
				 * <style>... shown as text */
	MD_RAW_OMIT		/* left out, and javascript: links too */
};

/* The mode called s ("keep", "filter", "omit"), or -1. */
int	md_raw_html_mode(const char *s);

/*
 * Quotes, lists, emphasis and the like nested deeper than this are an
 * error. No text written by hand comes near it, and what cmark needs
 * grows with the nesting of every line: one line of a million '>' takes
 * 430 MB and 2 s to parse, ten of them 4 GB and 21 s. Browsers too stop
 * nesting elements at a few hundred.
 */
#define MD_MAX_NESTING	100

struct md_out {
	struct buf	html;		/* the rendered body */
	struct buf	excerpt;	/* plain text of the first paragraph */
	size_t		words;		/* words in the whole text */
	enum md_raw_html raw_html;	/* set before rendering; init: keep */
	int		 smart;		/* typographic punctuation; init: 0 */
	struct highlight *hl;		/* colours fenced code with a
					 * language; init: NULL (plain) */
	const char	*path;		/* the source, for hl's warnings */
	int		 line0;		/* its line of src's first line */
	int		 code_unlit;	/* a block stayed plain for want of
					 * a highlighter (a later build may
					 * have one) */
	/* called with the parsed document (a cmark_node *) before the HTML
	 * is made from it: another format from the same tree; init: NULL */
	void		(*also)(void *doc, void *arg);
	void		*also_arg;
	const char	*error;		/* why markdown_render failed */
	int		 error_line;	/* and where, in src (1 on; 0: unknown) */
};

void	md_out_init(struct md_out *o);
void	md_out_release(struct md_out *o);
/* Renders src[0..n) into o (which must be initialised). excerpt_max bounds
 * the excerpt in bytes; it is cut at a word boundary and ends with "…" when
 * cut. Returns 0, or -1 with o->error (and o->error_line) set if src nests
 * deeper than MD_MAX_NESTING or cmark failed to parse. Thread-safe. */
int	markdown_render(const char *src, size_t n, size_t excerpt_max,
	    struct md_out *o);
/* Parses src as markdown_render does and calls fn with the document, a
 * cmark_node * (for other formats made from the same tree, like
 * gemtext). Returns 0, or -1 when src nests too deep or cannot be parsed
 * (fn is not called). Thread-safe. */
int	markdown_with_doc(const char *src, size_t n, int smart,
	    void (*fn)(void *doc, void *arg), void *arg);
/* The text of an HTML fragment: tags (and <script>, <style>) out,
 * entities decoded. */
void	markdown_html_text(const char *html, size_t n, struct buf *out);
/* Plain text and word count of an HTML fragment (for .html posts): tags
 * dropped, entities left as they are. */
void	html_plain_text(const char *html, size_t n, size_t excerpt_max,
	    struct md_out *o);
/* Minutes to read `words` at 200 words a minute, at least 1. */
int	reading_minutes(size_t words);

#endif
