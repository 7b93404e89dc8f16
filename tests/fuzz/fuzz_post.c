/* One post as the build reads it: front matter (the BSSG line reading and
 * its YAML forms), then the Markdown body, its excerpt (BSSG's rule, at a
 * bound from the input) and its words for the search index (each line a
 * word of at most SEARCH_WORD_MAX bytes, a tab and a count, or abort),
 * then the same text as an HTML post. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "excerpt.h"
#include "frontmatter.h"
#include "markdown.h"
#include "search_index.h"
#include "searchword.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts unless terms is lines "word\tcount\n", each word 1 to
 * SEARCH_WORD_MAX bytes without a tab or newline, each count > 0. */
static void
check_terms(const char *p, const char *end)
{
	while (p < end) {
		const char *tab = memchr(p, '\t', (size_t)(end - p)), *q;
		size_t n = 0;

		if (tab == NULL || tab == p || tab - p > SEARCH_WORD_MAX ||
		    memchr(p, '\n', (size_t)(tab - p)) != NULL)
			abort();
		for (q = tab + 1; q < end && *q >= '0' && *q <= '9'; q++)
			n = n * 10 + (size_t)(*q - '0');
		if (q == end || *q != '\n' || n == 0)
			abort();
		p = q + 1;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct frontmatter fm;
	struct md_out md;
	struct diag *d = diag_new();
	const char *text = (const char *)data;

	if (!ready) {
		markdown_init();
		ready = 1;
	}
	if (frontmatter_parse(&fm, text, size, "post.md", d) == 0) {
		md_out_init(&md);
		md.raw_html = size > 0 ? (enum md_raw_html)(data[0] % 3) :
		    md.raw_html;
		markdown_render(fm.body, fm.body_len, 160, &md);
		md_out_release(&md);
		{
			struct buf t = BUF_INIT;

			if (search_markdown_terms(fm.body, fm.body_len,
			    size > 2 && (data[2] & 1), size > 2 && (data[2] & 2),
			    &t) == 0)
				check_terms(t.ptr, t.ptr + t.len);
			buf_release(&t);
		}
		{
			struct buf ex = BUF_INIT;

			excerpt_bssg(fm.body, fm.body_len,
			    size > 1 ? data[1] % 200 : 160, &ex);
			buf_release(&ex);
		}
	}
	frontmatter_release(&fm);
	frontmatter_parse_html(&fm, text, size, "post.html", d);
	frontmatter_release(&fm);
	diag_free(d);
	return 0;
}
