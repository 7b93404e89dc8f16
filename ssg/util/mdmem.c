#include "mdmem.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

/*
 * A parse allocates thousands of small nodes and buffers, and frees them
 * all when it is done: in a bump allocator, per thread (cmark gives its
 * allocator no context), that is a pointer moving forward, and freeing is
 * forgetting. The first block is kept for the thread's next parse.
 */
#define BLOCK_MIN	(256 * 1024)
#define ALIGN		(sizeof(max_align_t))
#define HDR		ALIGN	/* each allocation's size, before it */

struct block {
	struct block	*next;
	size_t		 cap, used;
	max_align_t	 data[];
};

struct mdmem_state {
	struct block	*head;
	char		*last;	/* the newest allocation, which may grow */
};

static pthread_key_t key;	/* frees a thread's blocks when it ends */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static _Thread_local struct mdmem_state *mine;

static void
free_state(void *arg)
{
	struct mdmem_state *s = arg;
	struct block *b, *next;

	for (b = s->head; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	free(s);
}

static void
make_key(void)
{
	if (pthread_key_create(&key, free_state) != 0) {
		fprintf(stderr, "ssg: cannot create a thread key\n");
		abort();
	}
}

static struct mdmem_state *
state(void)
{
	if (mine == NULL) {
		pthread_once(&once, make_key);
		mine = xcalloc(1, sizeof(*mine));
		pthread_setspecific(key, mine);
	}
	return mine;
}

static size_t
size_of(const void *p)
{
	size_t n;

	memcpy(&n, (const char *)p - HDR, sizeof(n));
	return n;
}

static void *
bump(size_t n)
{
	struct mdmem_state *s = state();
	struct block *b = s->head;
	size_t need, cap;
	char *p;

	if (n > SIZE_MAX / 2)
		abort();
	need = HDR + (n + ALIGN - 1) / ALIGN * ALIGN;
	if (b == NULL || b->cap - b->used < need) {
		cap = need > BLOCK_MIN ? need : BLOCK_MIN;
		b = xmalloc(sizeof(*b) + cap);
		b->cap = cap;
		b->used = 0;
		b->next = s->head;
		s->head = b;
	}
	p = (char *)b->data + b->used + HDR;
	b->used += need;
	memcpy(p - HDR, &n, sizeof(n));
	s->last = p;
	return p;
}

static void *
mm_calloc(size_t count, size_t size)
{
	void *p;

	if (size != 0 && count > SIZE_MAX / size)
		abort();
	p = bump(count * size);
	memset(p, 0, count * size);
	return p;
}

static void *
mm_realloc(void *p, size_t n)
{
	struct mdmem_state *s;
	struct block *b;
	size_t old, have, need;
	void *q;

	if (p == NULL)
		return bump(n);
	old = size_of(p);
	if (n <= old)
		return p;
	s = state();
	b = s->head;
	/* the newest allocation grows where it is, if its block has room */
	if (p == s->last) {
		have = (old + ALIGN - 1) / ALIGN * ALIGN;
		need = (n + ALIGN - 1) / ALIGN * ALIGN;
		if (need - have <= b->cap - b->used) {
			b->used += need - have;
			memcpy((char *)p - HDR, &n, sizeof(n));
			return p;
		}
	}
	q = bump(n);
	memcpy(q, p, old);
	return q;
}

static void
mm_free(void *p)
{
	(void)p;	/* all of it goes at mdmem_reset */
}

static cmark_mem mem = { mm_calloc, mm_realloc, mm_free };

cmark_mem *
mdmem(void)
{
	return &mem;
}

void
mdmem_reset(void)
{
	struct mdmem_state *s = state();
	struct block *b, *next, *keep = NULL;

	/* keep the biggest block: the next parse likely needs as much */
	for (b = s->head; b != NULL; b = next) {
		next = b->next;
		if (keep == NULL || b->cap > keep->cap) {
			free(keep);
			keep = b;
		} else
			free(b);
	}
	if (keep != NULL) {
		keep->used = 0;
		keep->next = NULL;
	}
	s->head = keep;
	s->last = NULL;
}
