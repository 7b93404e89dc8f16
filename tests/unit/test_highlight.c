/*
 * The highlighter through its helper (ssg/highlight.py, run with python3
 * from the tests' folder): a C block becomes spans, escaped; an unknown
 * language and an oversized block stay plain; the cache saved by one
 * build serves the next without a helper; a damaged cache is not used;
 * no helper script leaves code plain. Markdown with a highlighter
 * replaces the fenced block only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "highlight.h"
#include "markdown.h"
#include "tap.h"

#define SCRIPT	"ssg/highlight.py"

static char dir[] = "/tmp/test_highlight.XXXXXX";
static char cache[600];

static int
block(struct highlight *h, const char *lang, const char *code,
    struct buf *out)
{
	buf_clear(out);
	return highlight_block(h, lang, code, strlen(code), "a.md", 3, out);
}

int
main(void)
{
	struct diag *d = diag_new();
	struct highlight *h;
	struct highlight_stats st;
	struct buf out = BUF_INIT, big = BUF_INIT;
	struct md_out md;
	size_t i;
	int rc;

	if (!fs_is_file(SCRIPT) || mkdtemp(dir) == NULL) {
		OK(0, "run from the top folder (%s)", SCRIPT);
		return tap_done();
	}
	snprintf(cache, sizeof(cache), "%s/.ssg-cache/highlight.bin", dir);

	h = highlight_new(SCRIPT, cache, d);
	rc = block(h, "c", "int x = \"<b>&\";\n", &out);
	IS_INT(rc, 1, "c is highlighted");
	IS_STR(out.ptr, "<pre><code class=\"language-c\"><span class=\"hl-t\">"
	    "int</span> x <span class=\"hl-o\">=</span> <span class=\"hl-s\">"
	    "&quot;&lt;b&gt;&amp;&quot;</span><span class=\"hl-p\">;</span>\n"
	    "</code></pre>", "spans, escaped");
	rc = block(h, "no-such-language", "x <b>\n", &out);
	IS_INT(rc, 0, "unknown language: plain");
	IS_INT(out.len, 0, "unknown language: nothing written");
	for (i = 0; i < (512u << 10) + 1; i++)
		buf_addc(&big, 'x');
	rc = block(h, "c", big.ptr, &out);
	IS_INT(rc, 0, "a block over 512 KB: plain");
	highlight_get_stats(h, &st);
	IS_INT(st.started >= 1, 1, "a helper started");
	IS_INT(st.blocks, 2, "blocks counted");
	IS_INT(diag_count(d, DIAG_WARNING), 1, "one warning: the unknown language");
	highlight_save(h, 0);
	highlight_free(h);
	OK(fs_is_file(cache), "the cache is saved");

	/* the next build: from the cache, no helper */
	h = highlight_new(SCRIPT, cache, d);
	rc = block(h, "c", "int x = \"<b>&\";\n", &out);
	IS_INT(rc, 1, "cached: highlighted");
	OK(strstr(out.ptr, "<span class=\"hl-t\">int</span>") != NULL,
	    "cached: the same spans");
	rc = block(h, "no-such-language", "y\n", &out);
	IS_INT(rc, 0, "cached: the unknown language is known to be unknown");
	highlight_get_stats(h, &st);
	IS_INT(st.started, 0, "cached: no helper started");
	IS_INT(st.cached, 2, "cached: both from the cache");
	highlight_free(h);

	/* damaged: a warning, then made again */
	{
		FILE *f = fopen(cache, "ab");

		fputs("junk", f);
		fclose(f);
	}
	h = highlight_new(SCRIPT, cache, d);
	rc = block(h, "c", "int x = \"<b>&\";\n", &out);
	IS_INT(rc, 1, "damaged cache: highlighted all the same");
	highlight_get_stats(h, &st);
	IS_INT(st.cached, 0, "damaged cache: not used");
	highlight_free(h);

	/* no helper script: plain, "for want of a highlighter" */
	h = highlight_new(NULL, cache, d);
	rc = block(h, "python", "x = 1\n", &out);
	IS_INT(rc, -1, "no script: plain for now");
	highlight_free(h);

	/* in Markdown: the fenced block with a language, nothing else */
	markdown_init();
	h = highlight_new(SCRIPT, cache, d);
	md_out_init(&md);
	md.hl = h;
	md.path = "a.md";
	{
		const char *src = "a `int`\n\n```c\nint y;\n```\n\n    int z;\n";

		rc = markdown_render(src, strlen(src), 200, &md);
	}
	IS_INT(rc, 0, "markdown renders");
	IS_STR(md.html.ptr, "<p>a <code>int</code></p>\n<pre><code class=\""
	    "language-c\"><span class=\"hl-t\">int</span> y<span class=\""
	    "hl-p\">;</span>\n</code></pre>\n<pre><code>int z;\n</code></pre>\n",
	    "markdown: the fenced block coloured");
	md_out_release(&md);
	highlight_free(h);

	buf_release(&out);
	buf_release(&big);
	diag_free(d);
	{
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			OK(0, "cleanup");
	}
	return tap_done();
}
