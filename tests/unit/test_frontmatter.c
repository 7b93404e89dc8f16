#include <stdio.h>
#include <string.h>

#include "buf.h"
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

/* The value of key in a block made of the one line "LINE". */
static const char *
one(const char *line, const char *key)
{
	static char got[512];
	struct frontmatter fm;
	struct diag *d = diag_new();
	struct buf b = BUF_INIT;
	const char *v;

	buf_printf(&b, "---\n%s\n---\nbody\n", line);
	strcpy(got, "(parse failed)");
	if (frontmatter_parse(&fm, b.ptr, b.len, "one.md", d) == 0) {
		v = fm_str(&fm, key);
		snprintf(got, sizeof(got), "%s", v ? v : "(none)");
		frontmatter_release(&fm);
	}
	if (diag_total(d) != 0)
		snprintf(got, sizeof(got), "(diagnostic: %s)",
		    diag_message(d, 0));
	buf_release(&b);
	diag_free(d);
	return got;
}

/* Each line as typed, and the title BSSG's extract_metadata reads. */
static const struct {
	const char *line, *want;
} titles[] = {
	{ "title: Foo: bar", "Foo: bar" },
	{ "title: [WIP] draft notes", "[WIP] draft notes" },
	{ "title: @x says hi", "@x says hi" },
	{ "title: {braces} here", "{braces} here" },
	{ "title: * star", "* star" },
	{ "title: | pipe", "| pipe" },
	{ "title: > gt", "> gt" },
	{ "title: % percent", "% percent" },
	{ "title: `tick`", "`tick`" },
	{ "title: C# vs F# #1", "C# vs F# #1" },
	{ "title: Foo # not a comment", "Foo # not a comment" },
	{ "title: !important notice", "!important notice" },
	{ "title: null", "null" },
	{ "title: ~", "~" },
	{ "title: yes", "yes" },
	{ "title: 2025", "2025" },
	{ "title: 'single'", "single" },
	{ "title: \"double\"", "double" },
	{ "title: \"mismatched'", "\"mismatched'" },
	{ "title: 'mismatched\"", "'mismatched\"" },
	{ "title: \"a\" and \"b\"", "a\" and \"b" },
	{ "title: \"\"inner\"\"", "\"inner\"" },
	{ "title: \"", "\"" },
	{ "title: 'It''s'", "It''s" },
	{ "title: \"tab\\tescape\"", "tab\\tescape" },
	{ "title: \"  spaced  \"", "  spaced  " },
	{ "title:    trimmed   ", "trimmed" },
	{ "title:no space", "no space" },
	{ "  Title  :  Upper key", "Upper key" },
	{ "TITLE: shout", "shout" },
	{ "title: &anchor text", "&anchor text" },
	{ "title: *alias", "*alias" },
	{ "title: [a, b]", "[a, b]" },
	{ "title: |", "|" },
	{ "fediverse_creator: @me@example.social", NULL },
	{ "description: Note: this: has colons", NULL },
};

int
main(void)
{
	struct frontmatter fm;
	struct diag *d = diag_new();
	struct buf b = BUF_INIT;
	size_t i;
	const char *doc =
	    "---\n"
	    "title: \"Quoted: title\"\n"
	    "date: 2025-04-07 10:30:00 +0200\n"
	    "tags: a, b ,  c d,\n"
	    "draft: yes\n"
	    "---\n"
	    "Body line\n";
	const char *list = "---\ntags:\n  - x\n\n  - \"y, z\"\ntitle: after\n"
	    "---\n";
	const char *flow = "---\ntags: [one, \"two, three\"]\n"
	    "authors: [Ann, Bob]\n---\n";
	const char *qflow = "---\ntags: \"[one, two]\"\n---\n";
	const char *block = "---\ndescription: |\n  First line: here\n"
	    "  second # kept\ntitle: >\n  folded\n  text\nslug: s\n---\n";
	const char *twice = "---\ntitle: First\ntags: a\ntitle: Second\n"
	    "title:\n---\n";
	const char *nested = "---\nauthor:\n  Title: indented\n---\n";
	const char *comments = "---\n# a comment: with a colon\n"
	    "not a pair\ntitle: t\n---\n";
	const char *bad = "---\ntitle: ok\ntags:\n  - [unclosed\n---\nbody\n";
	const char *open = "---\ntitle: never closed\n";
	const char *none = "# Just markdown\n";
	const char *crlf = "---\r\ntitle: \"crlf\"\r\n---\r\nbody\r\n";
	const char *rt[] = { "Say: \"hi\" \\ & #1", "'both'", " lead",
	    "[x, y]", "|", "null", "" };

	for (i = 0; i < sizeof(titles) / sizeof(titles[0]); i++) {
		if (titles[i].want == NULL)
			continue;
		IS_STR(one(titles[i].line, "title"), titles[i].want,
		    titles[i].line);
	}
	IS_STR(one("fediverse_creator: @me@example.social",
	    "fediverse_creator"), "@me@example.social", "fediverse_creator");
	IS_STR(one("description: Note: this: has colons", "description"),
	    "Note: this: has colons", "split at the first colon only");
	IS_STR(one("title:", "title"), "(none)", "empty value sets nothing");

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
	IS_STR(tags, "x|y|z|", "block list tags");
	IS_STR(fm_str(&fm, "title"), "after", "a key after the list");
	IS_INT(fm_line(&fm, "title"), 6, "its line counts the list's lines");
	frontmatter_release(&fm);

	OK(frontmatter_parse(&fm, flow, strlen(flow), "f.md", d) == 0, "flow");
	tags[0] = '\0';
	fm_tags(&fm, "tags", collect, NULL);
	IS_STR(tags, "one|two|three|", "flow list tags");
	tags[0] = '\0';
	fm_tags(&fm, "authors", collect, NULL);
	IS_STR(tags, "Ann|Bob|", "flow list authors");
	frontmatter_release(&fm);

	OK(frontmatter_parse(&fm, qflow, strlen(qflow), "q.md", d) == 0, "qf");
	tags[0] = '\0';
	fm_tags(&fm, "tags", collect, NULL);
	IS_STR(tags, "[one|two]|", "a quoted [list] is text, as in BSSG");
	frontmatter_release(&fm);

	OK(frontmatter_parse(&fm, block, strlen(block), "s.md", d) == 0,
	    "block scalars");
	IS_STR(fm_str(&fm, "description"), "First line: here\nsecond # kept\n",
	    "literal block");
	IS_STR(fm_str(&fm, "title"), "folded text\n", "folded block");
	IS_STR(fm_str(&fm, "slug"), "s", "key after the blocks");
	IS_INT(fm_line(&fm, "slug"), 8, "line after the blocks");
	frontmatter_release(&fm);
	IS_INT(diag_total(d), 0, "no diagnostics so far");

	OK(frontmatter_parse(&fm, twice, strlen(twice), "twice.md", d) == 0,
	    "key given twice");
	IS_STR(fm_str(&fm, "title"), "Second", "the later line wins");
	IS_INT(fm_line(&fm, "title"), 4, "and its line is kept");
	IS_STR(fm_str(&fm, "tags"), "a", "other keys kept");
	OK(diag_total(d) == 1 && diag_count(d, DIAG_ERROR) == 0, "one warning");
	OK(strstr(diag_message(d, 0), "twice.md:4:") != NULL &&
	    strstr(diag_message(d, 0), "title") != NULL,
	    "warning names file, line and key: %s", diag_message(d, 0));
	frontmatter_release(&fm);

	OK(frontmatter_parse(&fm, nested, strlen(nested), "n.md", d) == 0,
	    "indented pairs");
	IS_STR(fm_str(&fm, "title"), "indented", "read line by line, as BSSG");
	IS_STR(fm_str(&fm, "author"), NULL, "the empty key sets nothing");
	frontmatter_release(&fm);

	OK(frontmatter_parse(&fm, comments, strlen(comments), "c.md", d) == 0,
	    "comment lines");
	IS_STR(fm_str(&fm, "title"), "t", "title after comments");
	OK(diag_total(d) == 2 && strstr(diag_message(d, 1), "c.md:3:") != NULL,
	    "a line without a colon is a warning, a # line is not");
	frontmatter_release(&fm);

	OK(frontmatter_parse(&fm, crlf, strlen(crlf), "r.md", d) == 0 &&
	    strcmp(fm_str(&fm, "title"), "crlf") == 0, "CRLF lines");
	frontmatter_release(&fm);

	for (i = 0; i < sizeof(rt) / sizeof(rt[0]); i++) {
		buf_clear(&b);
		buf_adds(&b, "---\ntitle: ");
		fm_write_value(&b, rt[i]);
		buf_adds(&b, "\n---\n");
		OK(frontmatter_parse(&fm, b.ptr, b.len, "w.md", d) == 0 &&
		    strcmp(fm_str(&fm, "title") ? fm_str(&fm, "title") : "(none)",
		    rt[i]) == 0, "written value reads back: '%s' as %s", rt[i],
		    b.ptr);
		frontmatter_release(&fm);
	}
	buf_clear(&b);
	fm_write_value(&b, "two\nlines");
	IS_STR(b.ptr, "\"two lines\"", "a newline written as a space");

	/* posts written in HTML */
	{
		const char *html = "<!DOCTYPE html>\n<html>\n<head>\n"
		    "<title>A &amp; B: &quot;c&quot;</title>\n"
		    "<meta name=\"date\" content=\"2025-01-02\">\n"
		    "<meta name=\"date\" content=\"2030-01-01\">\n"
		    "<meta name=\"author_email\" content=\"\">\n"
		    "<meta name=\"fediverse:creator\" content=\"@a@b.example\">\n"
		    "</head>\n<body class=\"x\">\n<p>One</p>\n<p>Two</p>\n"
		    "</body>\n</html>\n";
		const char *frag = "<p>Only a fragment: no head.</p>\n";
		const char *withfm = "---\ntitle: Front\n---\n<p>x</p>\n";

		OK(frontmatter_parse_html(&fm, html, strlen(html), "h.html",
		    d) == 0, "HTML post");
		IS_STR(fm_str(&fm, "title"), "A & B: \"c\"", "<title>, decoded");
		IS_STR(fm_str(&fm, "date"), "2025-01-02", "the first meta wins");
		IS_INT(fm_line(&fm, "date"), 5, "meta line");
		IS_STR(fm_str(&fm, "author_email"), NULL, "empty meta: none");
		IS_STR(fm_str(&fm, "fediverse_creator"), "@a@b.example",
		    "fediverse:creator");
		OK(fm.body_len == strlen("<p>One</p>\n<p>Two</p>\n") &&
		    strncmp(fm.body, "<p>One</p>\n<p>Two</p>\n", fm.body_len) ==
		    0, "body: the lines inside <body>");
		IS_INT(fm.body_line, 11, "body line");
		frontmatter_release(&fm);
		OK(frontmatter_parse_html(&fm, frag, strlen(frag), "f.html",
		    d) == 0 && fm.root == NULL && fm.body == frag &&
		    fm.body_len == strlen(frag), "a fragment is all body");
		{
			struct buf m = BUF_INIT;

			buf_printf(&m, "---\nlastmod: 2025-02-01\n---\n%s", html);
			OK(frontmatter_parse_html(&fm, m.ptr, m.len, "m.html",
			    d) == 0, "front matter over a document");
			IS_STR(fm_str(&fm, "lastmod"), "2025-02-01",
			    "lastmod from the front matter");
			IS_STR(fm_str(&fm, "title"), "A & B: \"c\"",
			    "title from <title>");
			IS_INT(fm_line(&fm, "date"), 8, "meta line in the file");
			OK(fm.body_len == 22 && strncmp(fm.body, "<p>One</p>", 10)
			    == 0, "body inside <body>");
			IS_INT(fm.body_line, 14, "its line");
			frontmatter_release(&fm);
			buf_release(&m);
		}
		OK(frontmatter_parse_html(&fm, withfm, strlen(withfm), "w.html",
		    d) == 0 && strcmp(fm_str(&fm, "title"), "Front") == 0 &&
		    strcmp(fm.body, "<p>x</p>\n") == 0, "front matter first");
		frontmatter_release(&fm);
	}

	diag_free(d);
	d = diag_new();
	OK(frontmatter_parse(&fm, bad, strlen(bad), "bad.md", d) == -1,
	    "broken YAML list fails");
	OK(diag_total(d) >= 1 && strncmp(diag_message(d, 0), "bad.md:", 7) == 0,
	    "message names the file: %s", diag_message(d, 0));
	OK(strstr(diag_message(d, 0), "bad.md:3:") != NULL ||
	    strstr(diag_message(d, 0), "bad.md:4:") != NULL ||
	    strstr(diag_message(d, 0), "bad.md:5:") != NULL,
	    "message has the file line: %s", diag_message(d, 0));
	i = diag_total(d);
	OK(frontmatter_parse(&fm, open, strlen(open), "open.md", d) == -1,
	    "unterminated block fails");
	OK(strstr(diag_message(d, i), "never closed") != NULL, "says why");
	OK(frontmatter_parse(&fm, none, strlen(none), "none.md", d) == 0 &&
	    fm.root == NULL && fm.body == none, "no block: all body");
	buf_release(&b);
	diag_free(d);
	return tap_done();
}
