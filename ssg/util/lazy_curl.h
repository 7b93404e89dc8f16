#ifndef SSG_LAZY_CURL_H
#define SSG_LAZY_CURL_H

/*
 * libcurl, opened on first use (see dynlib.h). Include this
 * instead of the library's header, after every system header; call
 * lazy_curl_load() before the first function of the library.
 */
#define CURL_DISABLE_TYPECHECK	/* the names below become pointers */
#include <curl/curl.h>

#include "diag.h"

#define LAZY_CURL_FUNCS(X) \
	X(curl_easy_cleanup) \
	X(curl_easy_getinfo) \
	X(curl_easy_init) \
	X(curl_easy_setopt) \
	X(curl_easy_strerror) \
	X(curl_global_cleanup) \
	X(curl_global_init) \
	X(curl_multi_add_handle) \
	X(curl_multi_cleanup) \
	X(curl_multi_info_read) \
	X(curl_multi_init) \
	X(curl_multi_perform) \
	X(curl_multi_poll) \
	X(curl_multi_remove_handle) \
	X(curl_multi_setopt)

struct lazy_curl {
#define LAZY_CURL_SLOT(f)	__typeof__(f) *f;
	LAZY_CURL_FUNCS(LAZY_CURL_SLOT)
#undef LAZY_CURL_SLOT
};
extern struct lazy_curl lazy_curl;

/* 0, or -1 with the reason in d (defined in dynlib.c). */
int	lazy_curl_load(struct diag *d);

#ifndef LAZY_CURL_IMPL
#define curl_easy_cleanup	(lazy_curl.curl_easy_cleanup)
#undef curl_easy_getinfo	/* curl.h makes it a macro */
#define curl_easy_getinfo	(lazy_curl.curl_easy_getinfo)
#define curl_easy_init	(lazy_curl.curl_easy_init)
#undef curl_easy_setopt	/* curl.h makes it a macro */
#define curl_easy_setopt	(lazy_curl.curl_easy_setopt)
#define curl_easy_strerror	(lazy_curl.curl_easy_strerror)
#define curl_global_cleanup	(lazy_curl.curl_global_cleanup)
#define curl_global_init	(lazy_curl.curl_global_init)
#define curl_multi_add_handle	(lazy_curl.curl_multi_add_handle)
#define curl_multi_cleanup	(lazy_curl.curl_multi_cleanup)
#define curl_multi_info_read	(lazy_curl.curl_multi_info_read)
#define curl_multi_init	(lazy_curl.curl_multi_init)
#define curl_multi_perform	(lazy_curl.curl_multi_perform)
#define curl_multi_poll	(lazy_curl.curl_multi_poll)
#define curl_multi_remove_handle	(lazy_curl.curl_multi_remove_handle)
#undef curl_multi_setopt	/* curl.h makes it a macro */
#define curl_multi_setopt	(lazy_curl.curl_multi_setopt)
#endif

#endif
