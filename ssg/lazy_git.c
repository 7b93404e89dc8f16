#define LAZY_GIT_IMPL
#include "lazy_git.h"

#include "dynlib.h"

#ifndef SSG_GIT_SONAME
#define SSG_GIT_SONAME	"libgit2.so.1.5"
#endif

struct lazy_git lazy_git;

static const char *const names[] = {
#define LAZY_GIT_NAME(f)	#f,
	LAZY_GIT_FUNCS(LAZY_GIT_NAME)
#undef LAZY_GIT_NAME
};

static struct dynlib lib = {
	SSG_GIT_SONAME, "for git_lastmod", names, (void **)&lazy_git,
	sizeof(names) / sizeof(names[0]), 0
};

int
lazy_git_load(struct diag *d)
{
	return dynlib_load(&lib, d);
}
