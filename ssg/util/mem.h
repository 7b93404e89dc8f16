#ifndef SSG_MEM_H
#define SSG_MEM_H

#include <stddef.h>

/*
 * Allocation helpers. Running out of memory is not a condition a build can
 * recover from, so these print a message and abort instead of returning NULL.
 */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Grows *p (holding *cap elements of size sz) to hold at least need elements. */
void  xgrow(void **p, size_t *cap, size_t need, size_t sz);
/* qsort, also for an empty list whose pointer may be NULL (which qsort
 * itself may not be given). */
void  xqsort(void *base, size_t n, size_t sz,
	    int (*cmp)(const void *, const void *));
/*
 * Formatting into a fixed buffer. xsnprintf is for text that always fits
 * (numbers, names checked before): a cut is a bug, so it aborts, naming
 * the format. strfit is for text a user or the network supplies: it
 * returns 0, or -1 when the text was cut, for the caller to report what
 * was too long.
 */
void  xsnprintf(char *dst, size_t n, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
int   strfit(char *dst, size_t n, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/*
 * An arena: many small allocations freed together. A build keeps its parsed
 * data in one, so nothing in it is freed one by one.
 */
struct arena;

struct arena *arena_new(void);
/* Frees every block handed out; arena_free(NULL) does nothing. */
void  arena_free(struct arena *a);
/* Zeroed, aligned memory that lives until arena_free. Thread-safe. */
void *arena_alloc(struct arena *a, size_t n);
/* The same, not zeroed: for memory written whole at once. */
void *arena_alloc_raw(struct arena *a, size_t n);
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);

#endif
