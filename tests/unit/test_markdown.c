#include <string.h>

#include "markdown.h"
#include "tap.h"

static void
render(const char *src, struct md_out *o)
{
	md_out_init(o);
	OK(markdown_render(src, strlen(src), 80, o) == 0, "renders");
}

#define HAS(o, s) OK(strstr((o)->html.ptr, (s)) != NULL, "html has %s:\n%s", (s), (o)->html.ptr)

int
main(void)
{
	struct md_out o;

	markdown_init();
	render("# Title\n\n## Same\n\n## Same\n\ntext\n", &o);
	HAS(&o, "<h1 id=\"title\">");
	HAS(&o, "<h2 id=\"same\">");
	HAS(&o, "<h2 id=\"same-1\">");
	md_out_release(&o);

	render("| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~ "
	    "https://example.org\n\n- [x] done\n\nnote[^1]\n\n[^1]: foot\n", &o);
	HAS(&o, "<table>");
	HAS(&o, "<del>gone</del>");
	HAS(&o, "<a href=\"https://example.org\">");
	HAS(&o, "type=\"checkbox\" checked");
	HAS(&o, "class=\"footnotes\"");
	md_out_release(&o);

	render("<div class=\"raw\">kept</div>\n\ntext <span>inline</span>\n", &o);
	HAS(&o, "<div class=\"raw\">kept</div>");
	HAS(&o, "<span>inline</span>");
	md_out_release(&o);

	/* raw_html: keep (BSSG), filter (GFM's tag filter), omit */
	{
		const char *src = "<script src=\"https://x.example/a.js\">"
		    "</script>\n\n<iframe src=\"https://v.example/\">"
		    "</iframe>\n\n<style>p{}</style>\n\nan <b>inline</b> tag\n";

		render(src, &o);
		HAS(&o, "<script src=\"https://x.example/a.js\"></script>");
		HAS(&o, "<iframe src=\"https://v.example/\"></iframe>");
		HAS(&o, "<style>p{}</style>");
		md_out_release(&o);
		md_out_init(&o);
		o.raw_html = MD_RAW_FILTER;
		OK(markdown_render(src, strlen(src), 80, &o) == 0, "filter");
		HAS(&o, "&lt;script src=\"https://x.example/a.js\">&lt;/script>");
		HAS(&o, "&lt;iframe src=");
		HAS(&o, "&lt;style>p{}&lt;/style>");
		HAS(&o, "an <b>inline</b> tag");
		md_out_release(&o);
		md_out_init(&o);
		o.raw_html = MD_RAW_OMIT;
		OK(markdown_render(src, strlen(src), 80, &o) == 0, "omit");
		OK(strstr(o.html.ptr, "script") == NULL &&
		    strstr(o.html.ptr, "iframe") == NULL &&
		    strstr(o.html.ptr, "<b>") == NULL &&
		    strstr(o.html.ptr, "style") == NULL, "omit drops it: %s",
		    o.html.ptr);
		HAS(&o, "<!-- raw HTML omitted -->");
		md_out_release(&o);
		IS_INT(md_raw_html_mode("keep"), MD_RAW_KEEP, "keep");
		IS_INT(md_raw_html_mode("filter"), MD_RAW_FILTER, "filter");
		IS_INT(md_raw_html_mode("omit"), MD_RAW_OMIT, "omit");
		IS_INT(md_raw_html_mode("unsafe"), -1, "unknown mode");
	}

	render("First *para* here.\n\nSecond para with a lot more words that "
	    "will certainly go past the limit of the excerpt length.\n", &o);
	OK(strcmp(o.excerpt.ptr, "First para here.") == 0,
	    "excerpt: the first paragraph, as plain text: %s", o.excerpt.ptr);
	IS_INT(o.words, 21, "word count");
	md_out_release(&o);

	render("A first paragraph with a lot more words than the limit of the "
	    "excerpt, which is eighty bytes in this test.\n\nSecond.\n", &o);
	OK(o.excerpt.len <= 80 + 3, "excerpt bounded: %zu", o.excerpt.len);
	OK(strcmp(o.excerpt.ptr + o.excerpt.len - 3, "\xe2\x80\xa6") == 0,
	    "cut excerpt ends with an ellipsis: %s", o.excerpt.ptr);
	md_out_release(&o);
	/* a body that starts with raw HTML: its text, tags out */
	render("<div class=\"note\"><p>Hello <b>there</b> &amp; all</p>\n"
	    "</div>\n\nThen a paragraph.\n", &o);
	OK(strcmp(o.excerpt.ptr, "Hello there & all") == 0,
	    "excerpt of a raw HTML start: %s", o.excerpt.ptr);
	md_out_release(&o);
	/* a script is no text: the paragraph after it is the excerpt */
	render("<script src=\"https://x.example/m.js\">var x = 1;</script>\n\n"
	    "<style>p { color: red }</style>\n\nThe text.\n", &o);
	OK(strcmp(o.excerpt.ptr, "The text.") == 0,
	    "script and style are not the excerpt: %s", o.excerpt.ptr);
	md_out_release(&o);

	md_out_init(&o);
	html_plain_text("<p>A &lt;b&gt; &amp; <em>x</em>y &#233;&#x263A;</p><p>Next</p>",
	    62, 200, &o);
	IS_STR(o.excerpt.ptr, "A <b> & xy \xc3\xa9\xe2\x98\xba Next",
	    "HTML excerpt: entities decoded, inline tags joined, blocks apart");
	IS_INT(o.words, 6, "HTML word count");
	md_out_release(&o);

	IS_INT(reading_minutes(0), 1, "at least a minute");
	IS_INT(reading_minutes(401), 3, "401 words at 200/min");
	return tap_done();
}
