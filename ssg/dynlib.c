#include "dynlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int
dynlib_load(struct dynlib *l, struct diag *d)
{
	void *h, *f;
	size_t i;
	int rc;

	pthread_mutex_lock(&lock);
	if (l->state == -1)
		diag_error(d, NULL, 0, "cannot load %s, needed %s", l->soname,
		    l->what);
	if (l->state != 0)
		goto out;
	l->state = -1;
	if ((h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		diag_error(d, NULL, 0, "cannot load %s, needed %s: %s",
		    l->soname, l->what, dlerror());
		goto out;
	}
	for (i = 0; i < l->n; i++) {
		/* POSIX: a function's address converts through void * */
		if ((f = dlsym(h, l->names[i])) == NULL) {
			diag_error(d, NULL, 0, "%s has no %s: too old a "
			    "version?", l->soname, l->names[i]);
			dlclose(h);
			goto out;
		}
		memcpy(&l->slots[i], &f, sizeof(f));
	}
	l->state = 1;	/* the library stays open for the process */
out:
	rc = l->state == 1 ? 0 : -1;
	pthread_mutex_unlock(&lock);
	return rc;
}
