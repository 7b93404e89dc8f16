#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "escape.h"
#include "tap.h"

typedef void (*escfn)(struct buf *, const char *, size_t);

static void
is_esc(escfn fn, const char *in, const char *want, const char *name)
{
	struct buf b = BUF_INIT;

	fn(&b, in, strlen(in));
	IS_STR(b.ptr, want, name);
	buf_release(&b);
}

/* The plain definition, byte by byte, to hold the fast one against. */
static void
slow_esc(struct buf *out, const char *s, size_t n, int xml)
{
	size_t i;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c == '&')
			buf_adds(out, "&amp;");
		else if (c == '<')
			buf_adds(out, "&lt;");
		else if (c == '>')
			buf_adds(out, "&gt;");
		else if (c == '"')
			buf_adds(out, "&quot;");
		else if (c == '\'')
			buf_adds(out, xml ? "&apos;" : "&#39;");
		else if (xml && c < 0x20 && c != '\t' && c != '\n' && c != '\r')
			continue;
		else
			buf_addc(out, c);
	}
}

/* 1 if fn and the plain definition differ on in[0..len). */
static int
differs(escfn fn, int xml, const char *in, size_t len)
{
	struct buf fast = BUF_INIT, slow = BUF_INIT;
	int d;

	fn(&fast, in, len);
	slow_esc(&slow, in, len, xml);
	d = fast.len != slow.len || memcmp(fast.ptr, slow.ptr, fast.len) != 0;
	buf_release(&fast);
	buf_release(&slow);
	return d;
}

/* Random texts of every length up to 70 (the fast path takes 16 bytes at
 * a time), mostly letters, with escapes, controls and UTF-8 bytes. */
static void
test_random(void)
{
	static const char pick[] = "aaaaaaaaaaaaaaaabcdefgh &<>\"'\t\n\x01\x1f\xc3\xa9";
	char in[80];
	int round, len, i, bad = 0;

	srand(7);
	for (round = 0; round < 20000; round++) {
		len = rand() % 71;
		for (i = 0; i < len; i++)
			in[i] = pick[rand() % (sizeof(pick) - 1)];
		bad += differs(esc_html, 0, in, (size_t)len);
		bad += differs(esc_xml, 1, in, (size_t)len);
	}
	IS_INT(bad, 0, "html and xml escaping agree with the byte-by-byte "
	    "definition on 20,000 random texts");
}

int
main(void)
{
	test_random();
	is_esc(esc_html, "0123456789abcde&0123456789abcde&0123456789abcde&",
	    "0123456789abcde&amp;0123456789abcde&amp;0123456789abcde&amp;",
	    "html: escapes at the ends of 16-byte runs");
	is_esc(esc_xml, "caf\xc3\xa9 na\xc3\xafve r\xc3\xa9sum\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac & more",
	    "caf\xc3\xa9 na\xc3\xafve r\xc3\xa9sum\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac &amp; more",
	    "xml keeps UTF-8 in long runs");
	is_esc(esc_html, "<script>&\"'", "&lt;script&gt;&amp;&quot;&#39;", "html");
	is_esc(esc_html, "plain ünïcode 日本", "plain ünïcode 日本", "html keeps UTF-8");
	is_esc(esc_xml, "a<b>&\"'\x01z", "a&lt;b&gt;&amp;&quot;&apos;z", "xml drops controls");
	is_esc(esc_xml, "t\tn\nr\r\x1f\x0b\x7f", "t\tn\nr\r\x7f",
	    "xml keeps tab, newline, return and DEL; drops 0x0b, 0x1f");
	is_esc(esc_html, "", "", "html: empty");
	is_esc(esc_html, "&&", "&amp;&amp;", "html: escapes side by side");
	is_esc(esc_html, "x&", "x&amp;", "html: escape last");
	{
		struct buf b = BUF_INIT;

		/* appends, and n bounds the input, which need not end */
		buf_adds(&b, "<p>");
		esc_html(&b, "a<b>c", 2);
		IS_STR(b.ptr, "<p>a&lt;", "html: appends n bytes of input");
		buf_release(&b);
	}
	is_esc(esc_json, "\"q\"\\\n</script>", "\\\"q\\\"\\\\\\n\\u003c/script\\u003e", "json is safe in <script>");
	is_esc(esc_json, "\x01", "\\u0001", "json control");
	is_esc(esc_url, "a b/ü?&", "a%20b/%C3%BC%3F%26", "url");
	is_esc(esc_shell, "it's", "'it'\\''s'", "shell");
	is_esc(esc_yaml, "a: \"b\" \\ c\n\x01", "\"a: \\\"b\\\" \\\\ c\\n\\x01\"", "yaml");
	return tap_done();
}
