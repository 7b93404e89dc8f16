#define LAZY_CURL_IMPL
#include "lazy_curl.h"

#include "dynlib.h"

#ifndef SSG_CURL_SONAME
#define SSG_CURL_SONAME	"libcurl.so.4"
#endif

struct lazy_curl lazy_curl;

static const char *const names[] = {
#define LAZY_CURL_NAME(f)	#f,
	LAZY_CURL_FUNCS(LAZY_CURL_NAME)
#undef LAZY_CURL_NAME
};

static struct dynlib lib = {
	SSG_CURL_SONAME, "to check external links", names, (void **)&lazy_curl,
	sizeof(names) / sizeof(names[0]), 0
};

int
lazy_curl_load(struct diag *d)
{
	return dynlib_load(&lib, d);
}
