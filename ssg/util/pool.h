#ifndef SSG_POOL_H
#define SSG_POOL_H

#include <stddef.h>

/*
 * A parallel for: calls fn(i, arg) for every i in [0, n) on up to
 * `threads` threads (the caller's included) and returns when all are done.
 * Items are handed out one at a time, so uneven work balances itself.
 * fn must only touch data that is its own or thread-safe.
 */
void	pool_for(size_t threads, size_t n, void (*fn)(size_t i, void *arg),
	    void *arg);
/* The number of online processors, at least 1. */
size_t	pool_cpus(void);

#endif
