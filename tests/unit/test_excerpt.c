#include <string.h>

#include "buf.h"
#include "excerpt.h"
#include "tap.h"

/* The excerpt of src, at most max bytes, is want. */
static void
is_ex(const char *src, size_t max, const char *want, const char *what)
{
	struct buf b = BUF_INIT;

	excerpt_bssg(src, strlen(src), max, &b);
	IS_STR(b.ptr ? b.ptr : "", want, what);
	buf_release(&b);
}

int
main(void)
{
	is_ex("First line.\nSecond line.\n", 160, "First line.",
	    "the first line, not the paragraph");
	is_ex("\n\n  \t\nText after blanks\n", 160, "Text after blanks",
	    "blank lines are skipped");
	is_ex("    indented code\nprose\n", 160, "prose",
	    "lines indented by 4 spaces are code");
	is_ex("```c\nint x;\n```\nafter the fence\n", 160, "after the fence",
	    "fenced code is left out");
	is_ex("```\n```\n```\nstill code\n```\nout\n", 160, "out",
	    "fences toggle");
	is_ex("## Before the cold\n\nText.\n", 160, "Before the cold",
	    "a heading's marker goes, its text stays (BSSG's rule)");
	is_ex("####### seven\n", 160, "####### seven",
	    "seven #s are no heading");
	is_ex("---\n***\n____\nafter rules\n", 160, "after rules",
	    "rules are left out");
	is_ex("> quoted words\n", 160, "quoted words", "quote marker goes");
	is_ex("- item one\n", 160, "item one", "list marker - goes");
	is_ex("* item two\n", 160, "item two", "list marker * goes");
	is_ex("12. item three\n", 160, "item three", "numbered marker goes");
	is_ex("![a photo](/p.jpg) See [the docs](https://x.org/) now\n", 160,
	    " See the docs now", "images go, links keep their text");
	is_ex("![only an image](/p.jpg)\nnext line\n", 160, "next line",
	    "a line of only an image is blank");
	is_ex("[](x) [a]() [b](c)\n", 160, "[](x) [a]() b",
	    "empty link text or target is no link");
	is_ex("**bold** __strong__ *em* _it_ ~~del~~ `code`\n", 160,
	    "bold strong em it del code", "inline markup goes");
	is_ex("snake_case_name and 2*3*4\n", 160, "snakecasename and 234",
	    "underscores and stars pair as BSSG's sed pairs them");
	is_ex("Text <em>with</em> <a href=\"x\">tags</a> and 5 > 3\n", 160,
	    "Text with tags and 5 > 3", "HTML tags go, a lone > stays");
	is_ex("a < b\n", 160, "a < b", "a < without > stays");
	is_ex("<p></p>\n<div>\n</div>\nreal text\n", 160, "real text",
	    "a line of only tags is blank");
	is_ex("line\r\nnext\r\n", 160, "line", "CRLF lines");
	is_ex("", 160, "", "empty source: nothing");
	is_ex("```\nonly code\n", 160, "", "only code: nothing");
	/* the cut */
	is_ex("abcdefghij\n", 10, "abcdefghij", "exactly max: no cut");
	is_ex("abcdefghijk\n", 10, "abcdefghij...", "over max: cut and ...");
	is_ex("abcdefgh\xc3\xa9xyz\n", 9, "abcdefgh...",
	    "a cut inside a 2-byte character backs off to its start");
	is_ex("abcdefg\xe2\x82\xacxyz\n", 9, "abcdefg...",
	    "a cut inside a 3-byte character backs off to its start");
	is_ex("abcdefgh\xc3\xa9xyz\n", 10, "abcdefgh\xc3\xa9...",
	    "a character that fits is kept whole");
	is_ex("abcd & more text here\n", 8, "abcd ...",
	    "& counts 5 bytes (BSSG escapes it before the cut), never split");
	is_ex("ab & c\n", 10, "ab & c", "escaped length within max: whole");
	return tap_done();
}
