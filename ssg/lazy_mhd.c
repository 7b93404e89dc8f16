#define LAZY_MHD_IMPL
#include "lazy_mhd.h"

#include "dynlib.h"

#ifndef SSG_MHD_SONAME
#define SSG_MHD_SONAME	"libmicrohttpd.so.12"
#endif

struct lazy_mhd lazy_mhd;

static const char *const names[] = {
#define LAZY_MHD_NAME(f)	#f,
	LAZY_MHD_FUNCS(LAZY_MHD_NAME)
#undef LAZY_MHD_NAME
};

static struct dynlib lib = {
	SSG_MHD_SONAME, "to serve the site", names, (void **)&lazy_mhd,
	sizeof(names) / sizeof(names[0]), 0
};

int
lazy_mhd_load(struct diag *d)
{
	return dynlib_load(&lib, d);
}
