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

int
main(void)
{
	is_esc(esc_html, "<script>&\"'", "&lt;script&gt;&amp;&quot;&#39;", "html");
	is_esc(esc_html, "plain ünïcode 日本", "plain ünïcode 日本", "html keeps UTF-8");
	is_esc(esc_xml, "a<b>&\"'\x01z", "a&lt;b&gt;&amp;&quot;&apos;z", "xml drops controls");
	is_esc(esc_json, "\"q\"\\\n</script>", "\\\"q\\\"\\\\\\n\\u003c/script\\u003e", "json is safe in <script>");
	is_esc(esc_json, "\x01", "\\u0001", "json control");
	is_esc(esc_url, "a b/ü?&", "a%20b/%C3%BC%3F%26", "url");
	is_esc(esc_shell, "it's", "'it'\\''s'", "shell");
	is_esc(esc_yaml, "a: \"b\" \\ c\n\x01", "\"a: \\\"b\\\" \\\\ c\\n\\x01\"", "yaml");
	return tap_done();
}
