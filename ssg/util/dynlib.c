#define LAZY_CURL_IMPL
#define LAZY_MHD_IMPL
#define LAZY_ARCHIVE_IMPL
#define LAZY_GIT_IMPL
#define LAZY_VIPS_IMPL
#include "dynlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "lazy_archive.h"
#include "lazy_curl.h"
#include "lazy_git.h"
#include "lazy_mhd.h"
#include "lazy_vips.h"

/* The sonames the build compiled against (see the Makefile). */
#ifndef SSG_CURL_SONAME
#define SSG_CURL_SONAME		"libcurl.so.4"
#endif
#ifndef SSG_MHD_SONAME
#define SSG_MHD_SONAME		"libmicrohttpd.so.12"
#endif
#ifndef SSG_ARCHIVE_SONAME
#define SSG_ARCHIVE_SONAME	"libarchive.so.13"
#endif
#ifndef SSG_VIPS_SONAME
#define SSG_VIPS_SONAME		"libvips.so.42"
#endif
#ifndef SSG_GIT_SONAME
#define SSG_GIT_SONAME		"libgit2.so.1.5"
#endif

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

#define NAME_OF(f)	#f,

/* The table, the names and the loader of one library. */
#define LAZY_LIBRARY(lib, FUNCS, soname, what)				\
	struct lazy_##lib lazy_##lib;					\
	static const char *const lib##_names[] = { FUNCS(NAME_OF) };	\
	static struct dynlib lib##_lib = { soname, what, lib##_names,	\
	    (void **)&lazy_##lib,					\
	    sizeof(lib##_names) / sizeof(lib##_names[0]), 0 };		\
	int								\
	lazy_##lib##_load(struct diag *d)				\
	{								\
		return dynlib_load(&lib##_lib, d);			\
	}

LAZY_LIBRARY(curl, LAZY_CURL_FUNCS, SSG_CURL_SONAME, "to check external links")
LAZY_LIBRARY(mhd, LAZY_MHD_FUNCS, SSG_MHD_SONAME, "to serve the site")
LAZY_LIBRARY(archive, LAZY_ARCHIVE_FUNCS, SSG_ARCHIVE_SONAME, "for backups")
LAZY_LIBRARY(git, LAZY_GIT_FUNCS, SSG_GIT_SONAME, "for git_lastmod")
LAZY_LIBRARY(vips, LAZY_VIPS_FUNCS, SSG_VIPS_SONAME, "for images (images: false publishes them as they are)")
