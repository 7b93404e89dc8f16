#include <string.h>

#include "diag.h"
#include "frontmatter.h"
#include "tap.h"

static char tags[256];

static void
collect(const char *t, size_t n, void *arg)
{
	(void)arg;
	strncat(tags, t, n);
	strcat(tags, "|");
}

int
main(void)
{
	struct frontmatter fm;
	struct diag *d = diag_new();
	const char *doc =
	    "---\n"
	    "title: \"Quoted: title\"\n"
	    "date: 2025-04-07 10:30:00 +0200\n"
	    "tags: a, b ,  c d,\n"
	    "draft: yes\n"
	    "---\n"
	    "Body line\n";
	const char *list = "---\ntags:\n  - x\n  - \"y, z\"\n---\n";
	const char *bad = "---\ntitle: ok\ndate: [unclosed\n---\nbody\n";
	const char *open = "---\ntitle: never closed\n";
	const char *none = "# Just markdown\n";

	OK(frontmatter_parse(&fm, doc, strlen(doc), "a.md", d) == 0, "parses");
	IS_STR(fm_str(&fm, "title"), "Quoted: title", "quoted title");
	IS_STR(fm_str(&fm, "date"), "2025-04-07 10:30:00 +0200", "date text kept");
	IS_INT(fm_line(&fm, "date"), 3, "line of date");
	IS_INT(fm_bool(&fm, "draft"), 1, "draft yes");
	IS_INT(fm_bool(&fm, "missing"), 0, "missing bool is false");
	IS_STR(fm.body, "Body line\n", "body after the block");
	IS_INT(fm.body_line, 7, "body line");
	tags[0] = '\0';
	fm_tags(&fm, "tags", collect, NULL);
	IS_STR(tags, "a|b|c d|", "BSSG comma tags");
	frontmatter_release(&fm);

	OK(frontmatter_parse(&fm, list, strlen(list), "b.md", d) == 0, "list");
	tags[0] = '\0';
	fm_tags(&fm, "tags", collect, NULL);
	IS_STR(tags, "x|y|z|", "YAML list tags");
	frontmatter_release(&fm);

	IS_INT(diag_count(d, DIAG_ERROR), 0, "no errors so far");
	OK(frontmatter_parse(&fm, bad, strlen(bad), "bad.md", d) == -1,
	    "broken YAML fails");
	OK(diag_total(d) == 1 && strncmp(diag_message(d, 0), "bad.md:", 7) == 0,
	    "message names the file: %s", diag_message(d, 0));
	OK(strstr(diag_message(d, 0), "bad.md:3:") != NULL ||
	    strstr(diag_message(d, 0), "bad.md:4:") != NULL,
	    "message has the file line: %s", diag_message(d, 0));
	OK(frontmatter_parse(&fm, open, strlen(open), "open.md", d) == -1,
	    "unterminated block fails");
	OK(strstr(diag_message(d, 1), "never closed") != NULL, "says why");
	OK(frontmatter_parse(&fm, none, strlen(none), "none.md", d) == 0 &&
	    fm.root == NULL && fm.body == none, "no block: all body");
	diag_free(d);
	return tap_done();
}
