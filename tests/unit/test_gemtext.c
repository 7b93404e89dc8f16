/* Markdown to gemtext: each construct as the Gemini capsule shows it. */
#include <string.h>

#include "buf.h"
#include "gemtext.h"
#include "markdown.h"
#include "tap.h"

static void
is_gem(const char *md, const char *want, const char *what)
{
	struct buf b = BUF_INIT;

	OK(gemtext_from_markdown(md, strlen(md), 0, &b) == 0, "%s: converts",
	    what);
	IS_STR(b.ptr, want, what);
	buf_release(&b);
}

int
main(void)
{
	struct buf b = BUF_INIT;
	char deep[400];

	markdown_init();
	is_gem("# Title\n\n## Part\n\n#### Deep\n", "# Title\n\n## Part\n\n"
	    "### Deep\n", "headings, deeper ones as ###");
	is_gem("One *two*\n**three** `four`.\n", "One two three four.\n",
	    "a paragraph is one line, inline markup dropped");
	is_gem("See [the docs](/docs/) and [x](https://x.example/a).\n",
	    "See the docs and x.\n=> /docs/index.gmi the docs\n"
	    "=> https://x.example/a x\n", "links listed after the paragraph");
	is_gem("![A cat](/img/cat.png)\n", "=> /img/cat.png A cat\n",
	    "an image as a link");
	is_gem("- a\n- b\n  - c\n", "* a\n* b\n* c\n", "lists, nested ones "
	    "flattened");
	is_gem("3. x\n4. y\n", "* 3. x\n* 4. y\n", "ordered lists numbered");
	is_gem("> quoted\n> still\n", "> quoted still\n", "quotes");
	is_gem("```c\nint x;\n```\n", "```c\nint x;\n```\n",
	    "code with its language as alt text");
	is_gem("    indented\n", "```\nindented\n```\n", "indented code");
	is_gem("| a | bb |\n|---|---|\n| ccc | d |\n",
	    "```\na    bb\nccc  d\n```\n", "a table in aligned columns");
	is_gem("<div class=\"n\"><p>Hello <b>you</b></p></div>\n",
	    "Hello you\n", "raw HTML as its text");
	is_gem("Text[^1].\n\n[^1]: The note.\n",
	    "Text[1].\n\n[1] The note.\n", "footnotes at the end");
	/* too deep: an error, nothing written */
	memset(deep, '>', sizeof(deep) - 2);
	deep[sizeof(deep) - 2] = 'x';
	deep[sizeof(deep) - 1] = '\0';
	OK(gemtext_from_markdown(deep, strlen(deep), 0, &b) == -1 &&
	    b.len == 0, "nested too deep: refused");
	buf_clear(&b);
	gemtext_url(&b, "/2025/01/02/x/");
	IS_STR(b.ptr, "/2025/01/02/x/index.gmi", "a site page's capsule URL");
	buf_clear(&b);
	gemtext_url(&b, "//cdn.example/x/");
	IS_STR(b.ptr, "//cdn.example/x/", "another host's URL unchanged");
	buf_release(&b);
	return tap_done();
}
