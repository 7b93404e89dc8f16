#include "mem.h"

#include <sys/mman.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
oom(size_t n)
{
	fprintf(stderr, "ssg: out of memory (%zu bytes)\n", n);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom(n);
	return p;
}

void *
xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (p == NULL)
		oom(count * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		oom(n);
	return q;
}

static int
vfit(char *dst, size_t n, const char *fmt, va_list ap)
{
	int w = vsnprintf(dst, n, fmt, ap);

	return w < 0 || (size_t)w >= n ? -1 : 0;
}

void
xsnprintf(char *dst, size_t n, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfit(dst, n, fmt, ap);
	va_end(ap);
	if (rc == -1) {
		fprintf(stderr, "ssg: bug: \"%s\" does not fit in %zu bytes\n",
		    fmt, n);
		abort();
	}
}

int
strfit(char *dst, size_t n, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfit(dst, n, fmt, ap);
	va_end(ap);
	return rc;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p;
	size_t len = strnlen(s, n);

	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void
xgrow(void **p, size_t *cap, size_t need, size_t sz)
{
	size_t ncap;

	if (need <= *cap)
		return;
	ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			oom(SIZE_MAX);
		ncap *= 2;
	}
	if (sz && ncap > SIZE_MAX / sz)
		oom(SIZE_MAX);
	*p = xrealloc(*p, ncap * sz);
	*cap = ncap;
}

/*
 * An arena's blocks grow from 64 KB to 2 MB, each twice the one before:
 * a small arena stays small, and a large one (a build's posts, 100 MB at
 * 10,000) is made of blocks of one huge page each. Those are aligned and
 * marked for the kernel's transparent huge pages, where it has them
 * (Linux's MADV_HUGEPAGE; FreeBSD promotes to superpages by itself): one
 * fault per 2 MB instead of one per 4 KB, which is much of a large
 * build's time in a virtual machine.
 */
#define ARENA_BLOCK	(64 * 1024)
#define ARENA_HUGE	(2 * 1024 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	int mapped;		/* a huge page of its own (munmap) */
	max_align_t data[];
};

struct arena {
	pthread_mutex_t lock;
	struct arena_block *head;
	size_t next;		/* the size of the next block */
};

struct arena *
arena_new(void)
{
	struct arena *a = xcalloc(1, sizeof(*a));

	pthread_mutex_init(&a->lock, NULL);
	a->next = ARENA_BLOCK;
	return a;
}

static void
block_free(struct arena_block *b)
{
	if (b->mapped)
		munmap(b, ARENA_HUGE);
	else
		free(b);
}

void
arena_free(struct arena *a)
{
	struct arena_block *b, *next;

	if (a == NULL)
		return;
	for (b = a->head; b != NULL; b = next) {
		next = b->next;
		block_free(b);
	}
	pthread_mutex_destroy(&a->lock);
	free(a);
}

/* A block of one huge page, aligned to its size, or NULL. */
static struct arena_block *
block_huge(void)
{
	char *m, *at;
	size_t lead;

	m = mmap(NULL, 2 * ARENA_HUGE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	at = (char *)(((uintptr_t)m + ARENA_HUGE - 1) &
	    ~(uintptr_t)(ARENA_HUGE - 1));
	lead = (size_t)(at - m);
	if (lead > 0)
		munmap(m, lead);
	munmap(at + ARENA_HUGE, ARENA_HUGE - lead);
#ifdef MADV_HUGEPAGE
	madvise(at, ARENA_HUGE, MADV_HUGEPAGE);
#endif
	return (struct arena_block *)(void *)at;
}

static struct arena_block *
block_new(struct arena *a, size_t n)
{
	struct arena_block *b = NULL;
	size_t size = a->next - sizeof(*b);

	if (n > size)
		size = n;
	else if (a->next == ARENA_HUGE)
		b = block_huge();
	else
		a->next *= 2;
	if (b != NULL)
		b->mapped = 1;
	else {
		b = xmalloc(sizeof(*b) + size);
		b->mapped = 0;
	}
	b->used = 0;
	b->size = size;
	return b;
}

/* Aligned memory of the arena, as it is. */
static void *
arena_raw(struct arena *a, size_t n)
{
	struct arena_block *b;
	size_t align = _Alignof(max_align_t);
	void *p;

	n = (n + align - 1) / align * align;
	pthread_mutex_lock(&a->lock);
	b = a->head;
	if (b == NULL || b->size - b->used < n) {
		b = block_new(a, n);
		/* A big one-off block goes behind the current one so its
		 * free space is not wasted. */
		if (a->head != NULL && b->size == n && n > ARENA_BLOCK) {
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
	}
	p = (char *)b->data + b->used;
	b->used += n;
	pthread_mutex_unlock(&a->lock);
	return p;
}

void *
arena_alloc_raw(struct arena *a, size_t n)
{
	return arena_raw(a, n);
}

void *
arena_alloc(struct arena *a, size_t n)
{
	void *p = arena_raw(a, n);

	memset(p, 0, n);
	return p;
}

char *
arena_strndup(struct arena *a, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	/* not zeroed first: a page's HTML is written once, not twice */
	char *p = arena_raw(a, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *
arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

void
xqsort(void *base, size_t n, size_t sz, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, sz, cmp);
}
