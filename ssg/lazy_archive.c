#define LAZY_ARCHIVE_IMPL
#include "lazy_archive.h"

#include "dynlib.h"

#ifndef SSG_ARCHIVE_SONAME
#define SSG_ARCHIVE_SONAME	"libarchive.so.13"
#endif

struct lazy_archive lazy_archive;

static const char *const names[] = {
#define LAZY_ARCHIVE_NAME(f)	#f,
	LAZY_ARCHIVE_FUNCS(LAZY_ARCHIVE_NAME)
#undef LAZY_ARCHIVE_NAME
};

static struct dynlib lib = {
	SSG_ARCHIVE_SONAME, "for backups", names, (void **)&lazy_archive,
	sizeof(names) / sizeof(names[0]), 0
};

int
lazy_archive_load(struct diag *d)
{
	return dynlib_load(&lib, d);
}
