/*
 * The per-thread allocator cmark parses into: zeroed calloc, realloc that
 * keeps the bytes (in place for the newest allocation), allocations larger
 * than a block, reset, and a thread of its own.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "mdmem.h"
#include "tap.h"

static int
all_zero(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

static void
test_basics(void)
{
	cmark_mem *m = mdmem();
	unsigned char *a, *b, *c;
	char *s, *t;
	size_t i;

	a = m->calloc(10, 10);
	OK(all_zero(a, 100), "calloc zeroes");
	OK((uintptr_t)a % sizeof(void *) == 0, "aligned");
	memset(a, 0xaa, 100);
	b = m->calloc(1, 50);
	OK(all_zero(b, 50), "a second calloc is zeroed too");
	OK(b >= a + 100 || b + 50 <= a, "no overlap");

	/* the newest allocation grows where it is */
	s = m->realloc(NULL, 8);
	memcpy(s, "abcdefg", 8);
	t = m->realloc(s, 64);
	OK(t == s, "the newest allocation grows in place");
	IS_STR(t, "abcdefg", "its bytes are kept");
	/* an older one moves, with its bytes */
	c = m->realloc(a, 400);
	OK(c != a, "an older allocation moves");
	for (i = 0; i < 100 && c[i] == 0xaa; i++)
		;
	IS_INT(i, 100, "its bytes are kept");
	OK(m->realloc(c, 10) == c, "shrinking keeps the place");
	m->free(b);	/* nothing happens until the reset */
	OK(all_zero(b, 50), "free does not touch the memory");

	/* larger than a block, and many small ones across blocks */
	a = m->calloc(1, 3 * 1024 * 1024);
	OK(all_zero(a, 3 * 1024 * 1024), "a big calloc is zeroed");
	for (i = 0; i < 100000; i++) {
		b = m->calloc(1, 24);
		b[0] = (unsigned char)i;
	}
	mdmem_reset();
	a = m->calloc(1, 4096);
	OK(all_zero(a, 4096), "memory handed out again after a reset is zeroed");
	mdmem_reset();
}

static void *
other_thread(void *arg)
{
	cmark_mem *m = mdmem();
	char *p = m->calloc(1, 32);

	(void)arg;
	memcpy(p, "thread", 7);
	return p;
}

static void
test_threads(void)
{
	cmark_mem *m = mdmem();
	pthread_t t;
	char *mine, *theirs = NULL;

	mine = m->calloc(1, 32);
	memcpy(mine, "main", 5);
	OK(pthread_create(&t, NULL, other_thread, NULL) == 0, "thread started");
	pthread_join(t, (void **)&theirs);
	OK(theirs != mine, "each thread has its own blocks");
	IS_STR(mine, "main", "the other thread did not write here");
	mdmem_reset();
}

int
main(void)
{
	test_basics();
	test_threads();
	return tap_done();
}
