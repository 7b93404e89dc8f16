/* One post as the build reads it: front matter (the BSSG line reading and
 * its YAML forms), then the Markdown body and its excerpt (BSSG's rule,
 * at a bound from the input), then the same text as an HTML post. */
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "diag.h"
#include "excerpt.h"
#include "frontmatter.h"
#include "markdown.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
