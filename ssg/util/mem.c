#include "mem.h"

#include <pthread.h>
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

#define ARENA_BLOCK (64 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	max_align_t data[];
};

struct arena {
	pthread_mutex_t lock;
	struct arena_block *head;
};

struct arena *
arena_new(void)
{
	struct arena *a = xcalloc(1, sizeof(*a));

	pthread_mutex_init(&a->lock, NULL);
	return a;
}

void
arena_free(struct arena *a)
{
	struct arena_block *b, *next;

	if (a == NULL)
		return;
	for (b = a->head; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	pthread_mutex_destroy(&a->lock);
	free(a);
}

/* Aligned memory of the arena, as it is. */
static void *
arena_raw(struct arena *a, size_t n)
{
	struct arena_block *b;
	size_t align = sizeof(max_align_t), size;
	void *p;

	n = (n + align - 1) / align * align;
	pthread_mutex_lock(&a->lock);
	b = a->head;
	if (b == NULL || b->size - b->used < n) {
		size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
		b = xmalloc(sizeof(*b) + size);
		b->used = 0;
		b->size = size;
		/* A big one-off block goes behind the current one so its
		 * free space is not wasted. */
		if (a->head != NULL && n > ARENA_BLOCK) {
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
