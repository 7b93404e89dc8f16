#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "mem.h"

struct pool_work {
	atomic_size_t	  next;
	size_t		  n;
	void		(*fn)(size_t, void *);
	void		 *arg;
};

static void *
worker(void *p)
{
	struct pool_work *w = p;
	size_t i;

	while ((i = atomic_fetch_add(&w->next, 1)) < w->n)
		w->fn(i, w->arg);
	return NULL;
}

void
pool_for(size_t threads, size_t n, void (*fn)(size_t, void *), void *arg)
{
	struct pool_work w;
	pthread_t *tids;
	size_t i, started = 0;

	atomic_init(&w.next, 0);
	w.n = n;
	w.fn = fn;
	w.arg = arg;
	if (threads > n)
		threads = n;
	if (threads <= 1) {
		worker(&w);
		return;
	}
	tids = xcalloc(threads - 1, sizeof(*tids));
	for (i = 0; i < threads - 1; i++)
		if (pthread_create(&tids[i], NULL, worker, &w) == 0)
			started++;
		else
			break;
	worker(&w);
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	free(tids);
}

size_t
pool_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : (size_t)n;
}
