#ifndef SSG_GEMTEXT_H
#define SSG_GEMTEXT_H

#include <stddef.h>

struct buf;

/*
 * Markdown to gemtext (text/gemini), from the same cmark-gfm tree as the
 * HTML: headings "#" to "###" (deeper ones "###"), each paragraph one
 * line with its links listed after it as "=> URL text", images as
 * "=> URL alt", lists as "* " (ordered ones numbered in the text), quotes
 * "> ", code blocks fenced with ``` and the language as alt text, tables
 * as a preformatted block in aligned columns, footnotes numbered at the
 * end, raw HTML as its text. Inline markup is dropped; code spans keep
 * their text. Links to pages of the site ("/x/") point at the capsule's
 * pages ("/x/index.gmi").
 */

/* Appends the gemtext of Markdown src[0..n) to out. Returns 0, or -1 when
 * the text cannot be parsed (nested too deep: nothing is appended). */
int	gemtext_from_markdown(const char *src, size_t n, int smart,
	    struct buf *out);
/* The same from a document markdown_render parsed (see md_out.also):
 * doc is a cmark_node *, out a struct buf * to append to. */
void	gemtext_from_doc(void *doc, void *out);
/* Appends gem[0..n), made by gemtext_from_doc into an empty buffer, to
 * out, as gemtext_from_markdown would have appended it. */
void	gemtext_append(struct buf *out, const char *gem, size_t n);
/* Appends the link of a site URL as the capsule has it: "/x/" becomes
 * "/x/index.gmi"; other URLs stay as they are. */
void	gemtext_url(struct buf *out, const char *url);

#endif
