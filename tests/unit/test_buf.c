#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "mem.h"
#include "tap.h"

/* The invariants, checked after every operation. */
static void
check(const struct buf *b, const char *what)
{
	OK(b->ptr != NULL, "%s: ptr is never NULL", what);
	OK(b->ptr[b->len] == '\0', "%s: NUL after len", what);
	OK(b->cap == 0 || b->len < b->cap, "%s: len < cap", what);
}

int
main(void)
{
	struct buf b = BUF_INIT;
	char *s;
	size_t n, i;
	struct arena *a;

	check(&b, "init");
	IS_INT(b.len, 0, "empty length");
	buf_adds(&b, "hello");
	check(&b, "adds");
	IS_STR(b.ptr, "hello", "adds");
	buf_addc(&b, ' ');
	buf_printf(&b, "%d-%s", 42, "x");
	check(&b, "printf");
	IS_STR(b.ptr, "hello 42-x", "printf appends");
	buf_add(&b, "a\0b", 3);
	check(&b, "add with NUL");
	IS_INT(b.len, 13, "length counts embedded NUL");
	buf_truncate(&b, 5);
	check(&b, "truncate");
	IS_STR(b.ptr, "hello", "truncate");
	buf_truncate(&b, 100);
	IS_INT(b.len, 5, "truncate past the end does nothing");
	for (i = 0; i < 10000; i++)
		buf_printf(&b, "%zu,", i);
	check(&b, "growth");
	OK(strstr(b.ptr, "9999,") != NULL, "large printf content kept");
	buf_clear(&b);
	buf_add_u64(&b, 0);
	buf_addc(&b, ',');
	buf_add_u64(&b, 7);
	buf_addc(&b, ',');
	buf_add_u64(&b, 1234567890);
	buf_addc(&b, ',');
	buf_add_u64(&b, 18446744073709551615ull);
	check(&b, "add_u64");
	IS_STR(b.ptr, "0,7,1234567890,18446744073709551615", "add_u64 in decimal");
	buf_clear(&b);
	check(&b, "clear");
	IS_INT(b.len, 0, "clear empties");
	buf_adds(&b, "owned");
	s = buf_detach(&b, &n);
	check(&b, "detach");
	IS_STR(s, "owned", "detach hands over the string");
	IS_INT(n, 5, "detach length");
	IS_INT(b.len, 0, "detach resets");
	free(s);
	s = buf_detach(&b, NULL);
	IS_STR(s, "", "detach of an empty buffer gives an empty string");
	free(s);
	buf_release(&b);
	check(&b, "release");

	a = arena_new();
	for (i = 0; i < 5000; i++) {
		char *p = arena_strdup(a, "arena string");

		if (i == 4999)
			IS_STR(p, "arena string", "arena copies");
	}
	OK(((uintptr_t)arena_alloc(a, 3) % _Alignof(max_align_t)) == 0,
	    "arena memory is aligned");
	OK(arena_alloc(a, 1 << 20) != NULL, "arena serves blocks larger than its chunk");
	arena_free(a);

	/* past the blocks of one huge page: 6 MB in pieces, each kept */
	{
		char *piece[1536];
		int bad = 0, k;

		a = arena_new();
		for (k = 0; k < 1536; k++) {
			piece[k] = arena_alloc(a, 4000);
			memset(piece[k], 'a' + k % 26, 4000);
		}
		for (k = 0; k < 1536; k++)
			bad += piece[k][0] != 'a' + k % 26 ||
			    piece[k][3999] != 'a' + k % 26 ||
			    (uintptr_t)piece[k] % _Alignof(max_align_t) != 0;
		IS_INT(bad, 0, "6 MB of arena pieces keep their bytes");
		arena_free(a);
	}
	arena_free(NULL);
	{
		char small[8];

		IS_INT(strfit(small, sizeof(small), "%s", "1234567"), 0,
		    "strfit: seven bytes fit in eight");
		IS_STR(small, "1234567", "strfit: all of them");
		IS_INT(strfit(small, sizeof(small), "%s-%d", "abc", 12345), -1,
		    "strfit: a longer text is said to be cut");
		IS_STR(small, "abc-123", "strfit: and is cut, NUL-ended");
		xsnprintf(small, sizeof(small), "%d", 42);
		IS_STR(small, "42", "xsnprintf of what fits");
	}
	return tap_done();
}
