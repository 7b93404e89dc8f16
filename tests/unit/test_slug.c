#include "buf.h"
#include "slug.h"
#include "tap.h"
#include "utf8.h"

static void
is_slug(const char *in, const char *want)
{
	struct buf b = BUF_INIT;

	slug_append(&b, in);
	IS_STR(b.ptr, want, in);
	buf_release(&b);
}

int
main(void)
{
	is_slug("Hello, World!", "hello-world");
	is_slug("Crème brûlée", "creme-brulee");
	is_slug("Straße über Ærø", "strasse-uber-aero");
	is_slug("  --Trim me--  ", "trim-me");
	is_slug("It's a dog's life", "its-a-dogs-life");
	is_slug("../../etc/passwd", "etc-passwd");
	is_slug("Łódź Œuvre", "lodz-oeuvre");
	is_slug("日本語", "");
	is_slug("C++ & C#", "c-c");
	is_slug("e\xcc\x81t\xc3\xa9", "ete");
	OK(slug_is_safe("a-b_c.d"), "plain slug is safe");
	OK(!slug_is_safe(".."), ".. is not safe");
	OK(!slug_is_safe("a/b"), "slash is not safe");
	OK(!slug_is_safe(""), "empty is not safe");
	IS_INT(utf8_check("ok\nline\n", 8), 0, "valid UTF-8");
	IS_INT(utf8_check("a\nb\n\xff", 5), 3, "bad byte reported with its line");
	IS_INT(utf8_check("\xc0\xaf", 2), 1, "overlong form is invalid");
	IS_INT(utf8_check("\xed\xa0\x80", 3), 1, "surrogate is invalid");
	IS_INT(utf8_check("\xe6\x97", 2), 1, "truncated sequence is invalid");
	return tap_done();
}
